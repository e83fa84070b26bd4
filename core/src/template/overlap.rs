//! Whether two key templates can render the same key: an exact decision, not a guess.
//!
//! A template is a sequence of literal text and typed variables, so the keys it can render are
//! a regular language. Each template becomes a regular expression, `regex-automata` builds its
//! DFA, and a breadth-first walk over the product of the two DFAs looks for a string both
//! accept: the first one found is the shortest, and is given back as a witness.
//!
//! What a variable can hold ([`VarKind`]):
//! - a string attribute: any non-empty text without the separators of its own template (the
//!   punctuation in its literal text, [`super::is_separator`]): `CUSTOMER#{id}` says an id
//!   holds no `#`, which is what makes type prefixes work. A template without separators
//!   (`{PK}`, a generic key) says nothing, so its variable can hold anything, `#` included.
//!   Never empty: a value that renders into a key is an identifier, and DynamoDB refuses an
//!   empty key value.
//! - a number attribute: a number as DynamoDB returns it, digits with an optional `-` and
//!   decimal part (`-12.5`); the template's separators do not apply, a number is what it is.
//! - a shard `{shard:N}`: `0` to `N-1` in decimal, as eval renders it.
//! - an attribute with known `values`: exactly those values.
//!
//! The work is bounded before it starts: each DFA within [`MAX_DFA_BYTES`], the walk within
//! [`MAX_PAIR_STATES`] pairs of states. Past either, the answer is [`Overlap::Undecided`],
//! which a finding must read as "may render equal". Nothing here knows designs or findings.

use std::collections::{HashMap, VecDeque};
use std::sync::OnceLock;

use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::nfa::thompson;
use regex_automata::util::primitives::StateID;
use regex_automata::{Anchored, Input, MatchKind};
use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, Hir, Repetition};

use super::{Part, Var, is_separator};

/// The most heap one template's DFA (and its determinization) may take.
pub const MAX_DFA_BYTES: usize = 1 << 20;

/// The most pairs of states the intersection walk visits before giving up.
pub const MAX_PAIR_STATES: usize = 20_000;

/// What values a variable can take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarKind<'a> {
    /// Any non-empty text without its template's separators.
    Text,
    /// A DynamoDB number's text.
    Number,
    /// A write shard: `0` to `n-1`.
    Shard(u32),
    /// Exactly one of these values (an attribute's known `values`).
    OneOf(&'a [String]),
}

/// Whether two templates can render the same key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlap {
    /// No rendering of one equals a rendering of the other.
    Disjoint,
    /// Both can render this key (the shortest such).
    Shared(String),
    /// Not decided within the bounds; the reason. Read it as "may".
    Undecided(String),
}

/// A template compiled for [`Matcher::overlap`]: make it once, compare it with many. Making one
/// only resolves what each variable can hold; the regular expression and its DFA are built on
/// the first comparison its literal ends do not settle (most never are: on a keystroke the app
/// analyses the design again, a matcher per key template of every entity, and building each
/// one's expression up front was a quarter of that analysis, issue 43).
#[derive(Debug)]
pub struct Matcher {
    /// The template's pieces, each variable resolved to what it can hold.
    pieces: Vec<Piece>,
    /// The punctuation of the template's literal text, sorted, once each: what a text variable
    /// never holds.
    separators: Vec<char>,
    /// [`Matcher::pieces`] and [`Matcher::separators`] written out, the matcher's identity.
    pattern: String,
    /// The literal text every key begins with, and the literal text every key ends with.
    ends: (String, String),
    dfa: OnceLock<Result<dense::DFA<Vec<u32>>, String>>,
}

/// A part of a template with its variable resolved ([`VarKind`], owned).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Literal(String),
    Text,
    Number,
    Shard(u32),
    OneOf(Vec<String>),
}

impl Matcher {
    /// Compiles `parts`, each variable typed by `kind`.
    pub fn new<'a>(parts: &[Part], kind: impl Fn(&Var) -> VarKind<'a>) -> Matcher {
        let literal = |part: Option<&Part>| match part {
            Some(Part::Literal(text)) => text.clone(),
            _ => String::new(),
        };
        let separators = separators(parts);
        let pieces: Vec<Piece> = parts
            .iter()
            .map(|part| match part {
                Part::Literal(text) => Piece::Literal(text.clone()),
                Part::Var(var) => match var.shards.map_or_else(|| kind(var), VarKind::Shard) {
                    VarKind::Text => Piece::Text,
                    VarKind::Number => Piece::Number,
                    VarKind::Shard(n) => Piece::Shard(n),
                    VarKind::OneOf(values) => Piece::OneOf(values.to_vec()),
                },
            })
            .collect();
        Matcher {
            pattern: identity(&pieces, &separators),
            pieces,
            separators,
            ends: (literal(parts.first()), literal(parts.last())),
            dfa: OnceLock::new(),
        }
    }

    /// The keys the template renders, written out: two matchers with the same pattern render
    /// the same keys.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// Whether this template and `other` can render the same key.
    pub fn overlap(&self, other: &Matcher) -> Overlap {
        // Exact and cheap: a shared key begins with both beginnings and ends with both endings.
        let ((a_begin, a_end), (b_begin, b_end)) = (&self.ends, &other.ends);
        if !(a_begin.starts_with(b_begin.as_str()) || b_begin.starts_with(a_begin.as_str()))
            || !(a_end.ends_with(b_end.as_str()) || b_end.ends_with(a_end.as_str()))
        {
            return Overlap::Disjoint;
        }
        match (self.dfa(), other.dfa()) {
            (Ok(a), Ok(b)) => intersect(a, b),
            (Err(why), _) | (_, Err(why)) => Overlap::Undecided(why.clone()),
        }
    }

    fn dfa(&self) -> Result<&dense::DFA<Vec<u32>>, &String> {
        self.dfa
            .get_or_init(|| build(&hir_of(&self.pieces, &self.separators)))
            .as_ref()
    }
}

/// The punctuation in `parts`' literal text, sorted, once each.
fn separators(parts: &[Part]) -> Vec<char> {
    let mut separators: Vec<char> = parts
        .iter()
        .filter_map(|p| match p {
            Part::Literal(text) => Some(text.chars().filter(|&c| is_separator(c))),
            Part::Var(_) => None,
        })
        .flatten()
        .collect();
    separators.sort_unstable();
    separators.dedup();
    separators
}

/// A text that tells matchers apart exactly: equal for equal pieces and separators, each piece
/// written with its length so that no two sequences write the same.
fn identity(pieces: &[Piece], separators: &[char]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(16 * pieces.len());
    // The text pushed, not formatted: `{s}` pads through the formatter, and every key
    // template of a table is written out on every keystroke (issue 43).
    let text = |out: &mut String, s: &str| {
        let _ = write!(out, "{}:", s.len());
        out.push_str(s);
    };
    let _ = write!(out, "{}:", separators.len());
    out.extend(separators);
    for piece in pieces {
        match piece {
            Piece::Literal(s) => {
                out.push('L');
                text(&mut out, s);
            }
            Piece::Text => out.push('T'),
            Piece::Number => out.push('N'),
            Piece::Shard(n) => {
                let _ = write!(out, "S{n};");
            }
            Piece::OneOf(values) => {
                let _ = write!(out, "O{};", values.len());
                for v in values {
                    text(&mut out, v);
                }
            }
        }
    }
    out
}

/// The language of the keys `pieces` render, a text variable holding none of `separators`.
fn hir_of(pieces: &[Piece], separators: &[char]) -> Hir {
    let text = {
        let mut class = ClassUnicode::new(separators.iter().map(|&c| ClassUnicodeRange::new(c, c)));
        class.negate();
        one_or_more(Hir::class(Class::Unicode(class)))
    };
    let number = Hir::concat(vec![
        optional(Hir::literal(*b"-")),
        one_or_more(digits(b'0', b'9')),
        optional(Hir::concat(vec![
            Hir::literal(*b"."),
            one_or_more(digits(b'0', b'9')),
        ])),
    ]);
    let mut out = Vec::new();
    for piece in pieces {
        out.push(match piece {
            Piece::Literal(text) => Hir::literal(text.as_bytes()),
            Piece::Text => text.clone(),
            Piece::Number => number.clone(),
            Piece::Shard(n) => up_to(n.saturating_sub(1)),
            Piece::OneOf(values) => Hir::alternation(
                values
                    .iter()
                    .filter(|v| !v.is_empty())
                    .map(|v| Hir::literal(v.as_bytes()))
                    .collect(),
            ),
        });
    }
    Hir::concat(out)
}

/// The digits `low..=high`, one.
fn digits(low: u8, high: u8) -> Hir {
    Hir::class(Class::Unicode(ClassUnicode::new([ClassUnicodeRange::new(
        char::from(low),
        char::from(high),
    )])))
}

fn repeat(hir: Hir, min: u32, max: Option<u32>) -> Hir {
    Hir::repetition(Repetition {
        min,
        max,
        greedy: true,
        sub: Box::new(hir),
    })
}

fn one_or_more(hir: Hir) -> Hir {
    repeat(hir, 1, None)
}

fn optional(hir: Hir) -> Hir {
    repeat(hir, 0, Some(1))
}

/// The decimal numbers `0..=max` without leading zeros.
fn up_to(max: u32) -> Hir {
    let digits_of: Vec<u8> = max.to_string().bytes().map(|b| b - b'0').collect();
    let n = digits_of.len();
    let any = |count: usize| {
        let count = u32::try_from(count).unwrap_or(u32::MAX);
        repeat(digits(b'0', b'9'), count, Some(count))
    };
    let mut alternatives = Vec::new();
    // Every number with fewer digits than `max`.
    if n > 1 {
        alternatives.push(digits(b'0', b'9'));
    }
    for len in 2..n {
        alternatives.push(Hir::concat(vec![digits(b'1', b'9'), any(len - 1)]));
    }
    // Numbers of `max`'s length: its first `i` digits, a smaller digit, then any digits.
    for i in 0..n {
        let low = u8::from(i == 0 && n > 1);
        if digits_of[i] > low {
            let head: Vec<u8> = digits_of[..i].iter().map(|d| b'0' + d).collect();
            alternatives.push(Hir::concat(vec![
                Hir::literal(head),
                digits(b'0' + low, b'0' + digits_of[i] - 1),
                any(n - i - 1),
            ]));
        }
    }
    alternatives.push(Hir::literal(max.to_string().into_bytes()));
    Hir::alternation(alternatives)
}

fn build(hir: &Hir) -> Result<dense::DFA<Vec<u32>>, String> {
    let past = |e: &dyn std::fmt::Display| {
        format!("the template's automaton is past keyplan's bound: {e}")
    };
    let nfa = thompson::Compiler::new()
        .configure(thompson::Config::new().nfa_size_limit(Some(MAX_DFA_BYTES)))
        .build_from_hir(hir)
        .map_err(|e| past(&e))?;
    let config = dense::Config::new()
        .start_kind(StartKind::Anchored)
        .match_kind(MatchKind::All)
        .dfa_size_limit(Some(MAX_DFA_BYTES))
        .determinize_size_limit(Some(MAX_DFA_BYTES));
    dense::Builder::new()
        .configure(config)
        .build_from_nfa(&nfa)
        .map_err(|e| past(&e))
}

/// The bytes in the order the walk tries them: digits and letters first, so a witness reads
/// as a key (`USER#0`, not `USER#\0`).
fn byte_order() -> impl Iterator<Item = u8> {
    let readable = (b'0'..=b'9').chain(b'A'..=b'Z').chain(b'a'..=b'z');
    readable.chain((0..=255u8).filter(|b| !b.is_ascii_alphanumeric()))
}

/// A state of the walk: a state of each automaton.
type PairState = (StateID, StateID);

/// Each pair reached, with the pair and byte it was reached from (to spell the witness).
type Reached = HashMap<PairState, Option<(PairState, u8)>>;

fn intersect(a: &dense::DFA<Vec<u32>>, b: &dense::DFA<Vec<u32>>) -> Overlap {
    let input = Input::new("").anchored(Anchored::Yes);
    let (Ok(start_a), Ok(start_b)) = (a.start_state_forward(&input), b.start_state_forward(&input))
    else {
        return Overlap::Undecided("an automaton has no anchored start".to_string());
    };
    let order: Vec<u8> = byte_order().collect();
    let mut seen = Reached::new();
    let mut queue = VecDeque::new();
    seen.insert((start_a, start_b), None);
    queue.push_back((start_a, start_b));
    while let Some(pair @ (sa, sb)) = queue.pop_front() {
        if a.is_match_state(a.next_eoi_state(sa)) && b.is_match_state(b.next_eoi_state(sb)) {
            return Overlap::Shared(witness(&seen, pair));
        }
        for &byte in &order {
            let next = (a.next_state(sa, byte), b.next_state(sb, byte));
            if a.is_dead_state(next.0) || b.is_dead_state(next.1) || seen.contains_key(&next) {
                continue;
            }
            if seen.len() >= MAX_PAIR_STATES {
                return Overlap::Undecided(format!(
                    "comparing them visits more than {MAX_PAIR_STATES} states"
                ));
            }
            seen.insert(next, Some((pair, byte)));
            queue.push_back(next);
        }
    }
    Overlap::Disjoint
}

/// The bytes that lead from the start to `end`, as text.
fn witness(seen: &Reached, mut end: PairState) -> String {
    let mut bytes = Vec::new();
    while let Some(Some((from, byte))) = seen.get(&end) {
        bytes.push(*byte);
        end = *from;
    }
    bytes.reverse();
    // Both automata accept only UTF-8, so this is lossless.
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests;
