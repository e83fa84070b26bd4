//! Template shapes: what key templates can render, compared without any values.
//!
//! A variable renders some non-empty text nobody knows yet, so every answer here is "can" (some
//! values make it so), never "does". Comparisons go by character, which orders strings exactly
//! as DynamoDB orders UTF-8 bytes. Nothing here allocates per character: the walks are over
//! the parsed parts.

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::ops::Bound;

use crate::template::{KeyTemplate, Part, Var, is_separator};

/// One step of a walk over a template: a character of literal text, or a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    Char(char),
    Var,
}

/// The tokens of `parts` from the front, without allocating.
fn forward(parts: &[Part]) -> Tokens<'_> {
    Tokens {
        parts: parts.iter(),
        chars: None,
    }
}

/// The tokens of `parts` from the back, without allocating.
fn backward(parts: &[Part]) -> impl Iterator<Item = Token> + '_ {
    BackTokens {
        parts: parts.iter().rev(),
        chars: None,
    }
}

struct Tokens<'p> {
    parts: std::slice::Iter<'p, Part>,
    chars: Option<std::str::Chars<'p>>,
}

impl Iterator for Tokens<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        loop {
            if let Some(c) = self.chars.as_mut().and_then(Iterator::next) {
                return Some(Token::Char(c));
            }
            match self.parts.next()? {
                Part::Literal(s) => self.chars = Some(s.chars()),
                Part::Var(_) => {
                    self.chars = None;
                    return Some(Token::Var);
                }
            }
        }
    }
}

struct BackTokens<'p> {
    parts: std::iter::Rev<std::slice::Iter<'p, Part>>,
    chars: Option<std::iter::Rev<std::str::Chars<'p>>>,
}

impl Iterator for BackTokens<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        loop {
            if let Some(c) = self.chars.as_mut().and_then(Iterator::next) {
                return Some(Token::Char(c));
            }
            match self.parts.next()? {
                Part::Literal(s) => self.chars = Some(s.chars().rev()),
                Part::Var(_) => {
                    self.chars = None;
                    return Some(Token::Var);
                }
            }
        }
    }
}

/// Walks two token streams while they agree on literal characters. `Some(true)`: both ended
/// together; `Some(false)`: they cannot agree; `None`: a variable was reached, so undecided.
fn walk(mut a: impl Iterator<Item = Token>, mut b: impl Iterator<Item = Token>) -> Option<bool> {
    loop {
        match (a.next(), b.next()) {
            (None, None) => return Some(true),
            // A variable renders non-empty text, so it cannot match the other's end.
            (None, Some(_)) | (Some(_), None) => return Some(false),
            (Some(Token::Var), _) | (_, Some(Token::Var)) => return None,
            (Some(Token::Char(x)), Some(Token::Char(y))) if x == y => {}
            _ => return Some(false),
        }
    }
}

/// The separators of a template: the punctuation in its literal text, in order (`#`, `#`).
/// Values are assumed not to contain the punctuation their templates separate them with (an
/// id holds no `#`), which is what makes type prefixes work: so two renderings can only be
/// equal when their separators are.
fn separators(parts: &[Part]) -> impl Iterator<Item = char> + '_ {
    parts.iter().flat_map(|p| {
        match p {
            Part::Literal(s) => s.as_str(),
            Part::Var(_) => "",
        }
        .chars()
        .filter(|&c| is_separator(c))
    })
}

/// Whether some rendering of `a` can equal some rendering of `b`: their separators are the
/// same and their literal beginnings and endings agree as far as the first variable.
pub(crate) fn can_equal(a: &[Part], b: &[Part]) -> bool {
    // Fast path: the leading literals must agree up to the shorter one.
    let (la, lb) = (leading(a), leading(b));
    if !(la.starts_with(lb) || lb.starts_with(la)) {
        return false;
    }
    if same_parts(a, b) {
        return true;
    }
    let uses_separators = |t: &[Part]| separators(t).next().is_some();
    if uses_separators(a) && uses_separators(b) && !separators(a).eq(separators(b)) {
        return false;
    }
    match walk(forward(a), forward(b)) {
        Some(equal) => equal,
        None => walk(backward(a), backward(b)).unwrap_or(true),
    }
}

/// The literal text before the first variable.
pub(crate) fn leading(parts: &[Part]) -> &str {
    match parts.first() {
        Some(Part::Literal(s)) => s,
        _ => "",
    }
}

/// The values of `by_leading` (keyed by templates' leading literals) whose key can begin the
/// same string as `mine`: keys that are prefixes of `mine` (itself included), then longer keys
/// that begin with it. Two keys can only be equal when one's beginning starts the other's.
pub(crate) fn agreeing_beginnings<'m, K: Borrow<str> + Ord, V>(
    by_leading: &'m BTreeMap<K, V>,
    mine: &'m str,
) -> impl Iterator<Item = &'m V> {
    let shorter = mine
        .char_indices()
        .map(|(at, _)| &mine[..at])
        .chain([mine])
        .filter_map(|prefix| by_leading.get(prefix));
    let longer = by_leading
        .range::<str, _>((Bound::Excluded(mine), Bound::Unbounded))
        .take_while(move |(other, _)| (*other).borrow().starts_with(mine))
        .map(|(_, values)| values);
    shorter.chain(longer)
}

/// Whether some rendering of `t` can begin with some rendering of `prefix`: the prefix's
/// separators begin `t`'s, and their literal beginnings agree up to a variable.
pub(crate) fn can_begin_with(t: &[Part], prefix: &[Part]) -> bool {
    let (lt, lp) = (leading(t), leading(prefix));
    if !(lt.starts_with(lp) || lp.starts_with(lt)) {
        return false;
    }
    let mut seps = separators(t);
    let t_uses_separators = separators(t).next().is_some();
    if t_uses_separators && !separators(prefix).all(|c| seps.next() == Some(c)) {
        return false;
    }
    let mut t = forward(t);
    for p in forward(prefix) {
        match (t.next(), p) {
            (Some(Token::Var), _) | (_, Token::Var) => return true,
            (Some(Token::Char(x)), Token::Char(y)) if x == y => {}
            _ => return false,
        }
    }
    true
}

/// Where the renderings of `t` that do not begin with `prefix` can sort, relative to every
/// string that does: (below, above).
pub(crate) fn sides(t: &[Part], prefix: &[Part]) -> (bool, bool) {
    let mut t = forward(t);
    for p in forward(prefix) {
        match (t.next(), p) {
            (Some(Token::Var), _) | (_, Token::Var) => return (true, true),
            (Some(Token::Char(x)), Token::Char(y)) if x == y => {}
            (Some(Token::Char(x)), Token::Char(y)) => return (x < y, x > y),
            // `t` ended inside the prefix: it is a proper prefix of it, so it sorts below.
            (None, _) => return (true, false),
        }
    }
    // Every rendering begins with the prefix: none is outside it.
    (false, false)
}

/// The longest common beginning of two part lists: equal parts, then the common characters of
/// the first differing pair of literals.
pub(crate) fn common_prefix(a: &[Part], b: &[Part]) -> Vec<Part> {
    let mut out = Vec::new();
    for (x, y) in a.iter().zip(b) {
        if x == y {
            out.push(x.clone());
            continue;
        }
        if let (Part::Literal(x), Part::Literal(y)) = (x, y) {
            let n: usize = x
                .chars()
                .zip(y.chars())
                .take_while(|(c, d)| c == d)
                .map(|(c, _)| c.len_utf8())
                .sum();
            if n > 0 {
                out.push(Part::Literal(x[..n].to_string()));
            }
        }
        break;
    }
    out
}

/// Whether two part lists are equal, ignoring the spans of their variables.
pub(crate) fn same_parts(a: &[Part], b: &[Part]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Part::Literal(x), Part::Literal(y)) => x == y,
            (Part::Var(x), Part::Var(y)) => x.name == y.name && x.shards == y.shards,
            _ => false,
        })
}

/// A template as far as the inputs reach: its literal text and bound variables up to the
/// first variable without a value.
#[derive(Debug, Clone)]
pub(crate) struct BoundPrefix<'t> {
    pub parts: Vec<Part>,
    /// The first variable that is not bound (a shard variable is never bound).
    pub next: Option<&'t Var>,
    /// What follows `next`.
    pub rest: &'t [Part],
}

pub(crate) fn bound_prefix<'t>(
    template: &'t KeyTemplate,
    is_bound: impl Fn(&str) -> bool,
) -> BoundPrefix<'t> {
    let parts = template.parts();
    for (i, part) in parts.iter().enumerate() {
        if let Part::Var(var) = part
            && (var.shards.is_some() || !is_bound(&var.name))
        {
            return BoundPrefix {
                parts: parts[..i].to_vec(),
                next: Some(var),
                rest: &parts[i + 1..],
            };
        }
    }
    BoundPrefix {
        parts: parts.to_vec(),
        next: None,
        rest: &[],
    }
}

/// The least string above every string that begins with `prefix`, as parts: the last literal
/// character incremented (`ORDER#` -> `ORDER$`). After a variable, the highest character.
pub(crate) fn successor(prefix: &[Part]) -> Vec<Part> {
    let mut out = prefix.to_vec();
    if let Some(Part::Literal(text)) = out.last_mut()
        && let Some(last) = text.chars().last()
        && let Some(next) = next_char(last)
    {
        text.truncate(text.len() - last.len_utf8());
        text.push(next);
        return out;
    }
    push_literal(&mut out, &char::MAX.to_string());
    out
}

/// The character right after `c` in code-point (and UTF-8 byte) order.
pub(crate) fn next_char(c: char) -> Option<char> {
    let mut n = c as u32 + 1;
    if (0xD800..=0xDFFF).contains(&n) {
        n = 0xE000;
    }
    char::from_u32(n)
}

/// Appends literal text, merging with a literal at the end.
pub(crate) fn push_literal(parts: &mut Vec<Part>, text: &str) {
    if text.is_empty() {
        return;
    }
    match parts.last_mut() {
        Some(Part::Literal(last)) => last.push_str(text),
        _ => parts.push(Part::Literal(text.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(s: &str) -> Vec<Part> {
        KeyTemplate::parse(s).parts().to_vec()
    }

    #[test]
    fn templates_with_different_literal_prefixes_cannot_render_equal() {
        assert!(!can_equal(&parts("CUSTOMER#{id}"), &parts("ORDER#{id}")));
        assert!(can_equal(&parts("USER#{id}"), &parts("USER#{userId}")));
        assert!(!can_equal(&parts("PROFILE"), &parts("ORDER#{orderId}")));
        assert!(can_equal(&parts("{a}#X"), &parts("ORDER{b}#X")));
        assert!(!can_equal(
            &parts("ORDER#{o}"),
            &parts("ORDER#{o}#ITEM#{i}")
        ));
        assert!(!can_equal(&parts("{a}#X"), &parts("{b}#Y")));
        assert!(!can_equal(&parts("USER#"), &parts("USER#{id}")));
    }

    #[test]
    fn a_longer_template_can_begin_with_a_shorter_prefix() {
        assert!(can_begin_with(
            &parts("ORDER#{o}#ITEM#{i}"),
            &parts("ORDER#")
        ));
        assert!(!can_begin_with(&parts("PROFILE"), &parts("ORDER#")));
        assert!(!can_begin_with(&parts("ORD"), &parts("ORDER#")));
        assert!(!can_begin_with(
            &parts("ORDER#{o}"),
            &parts("ORDER#{o}#ITEM#")
        ));
        assert!(can_begin_with(&parts("{x}"), &parts("ORDER#")));
    }

    #[test]
    fn sides_say_where_other_keys_sort() {
        assert_eq!(sides(&parts("PROFILE"), &parts("ORDER#")), (false, true));
        assert_eq!(sides(&parts("ACCOUNT"), &parts("ORDER#")), (true, false));
        assert_eq!(sides(&parts("ORD"), &parts("ORDER#")), (true, false));
        assert_eq!(sides(&parts("{x}"), &parts("ORDER#")), (true, true));
        assert_eq!(sides(&parts("ORDER#{x}"), &parts("ORDER#")), (false, false));
    }

    #[test]
    fn successor_increments_the_last_literal_character() {
        let s = KeyTemplate::from_parts(&successor(&parts("ORDER#")));
        assert_eq!(s.source(), "ORDER$");
        let s = KeyTemplate::from_parts(&successor(&parts("ORDERz")));
        assert_eq!(s.source(), "ORDER{{");
        assert_eq!(
            common_prefix(&parts("ORDER#{a}"), &parts("ORDERS")),
            parts("ORDER")
        );
    }
}
