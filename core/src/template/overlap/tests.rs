use expect_test::{Expect, expect};
use proptest::prelude::*;

use super::*;
use crate::template::KeyTemplate;

/// The kind of a test variable by its name: `n..` a number, `e..` one of `ENUM_VALUES`, else
/// text (a shard variable is a shard whatever its name).
fn kind(var: &Var) -> VarKind<'static> {
    static ENUM_VALUES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    match var.name.as_bytes().first() {
        Some(b'n') => VarKind::Number,
        Some(b'e') => VarKind::OneOf(ENUM_VALUES.get_or_init(|| vec!["A".into(), "1#A".into()])),
        _ => VarKind::Text,
    }
}

fn decide(a: &str, b: &str) -> Overlap {
    let (a, b) = (KeyTemplate::parse(a), KeyTemplate::parse(b));
    Matcher::new(a.parts(), kind).overlap(&Matcher::new(b.parts(), kind))
}

fn check(a: &str, b: &str, expect: Expect) {
    expect.assert_eq(&format!("{:?}", decide(a, b)));
}

#[test]
fn a_separator_in_one_template_and_none_in_the_other_keeps_them_apart() {
    // Issue 43: `A` never holds a `#`; `{t}#{s}` always does.
    check("A", "{t}#{s}", expect![[r#"Disjoint"#]]);
    check("ORDER#{o}", "ORDER#{o}#ITEM#{i}", expect![[r#"Disjoint"#]]);
    check("CUSTOMER#{id}", "ORDER#{id}", expect![[r#"Disjoint"#]]);
    check("USER#", "USER#{id}", expect![[r#"Disjoint"#]]);
}

#[test]
fn templates_that_can_render_equal_give_the_shortest_key_both_render() {
    check(
        "USER#{id}",
        "USER#{userId}",
        expect![[r#"Shared("USER#0")"#]],
    );
    check("{a}#X", "ORDER{b}#X", expect![[r#"Shared("ORDER0#X")"#]]);
    // A generic key holds anything, a `#` too.
    check("{PK}", "USER#{id}", expect![[r#"Shared("USER#0")"#]]);
    check("{PK}", "{SK}", expect![[r#"Shared("0")"#]]);
}

#[test]
fn typed_variables_take_only_their_values() {
    check("{n}", "A{s}", expect![[r#"Disjoint"#]]);
    check("{n}", "-{s}", expect![[r#"Shared("-0")"#]]);
    check("1.{s}", "{n}", expect![[r#"Shared("1.0")"#]]);
    check("S{x:10}", "S1{y}", expect![[r#"Disjoint"#]]);
    check("S{x:12}", "S1{n}", expect![[r#"Shared("S10")"#]]);
    check("S{x:12}", "S12", expect![[r#"Disjoint"#]]);
    check("{e}", "A", expect![[r#"Shared("A")"#]]);
    check("{e}", "B", expect![[r#"Disjoint"#]]);
    check("X#{e}", "X#1#A", expect![[r#"Shared("X#1#A")"#]]);
}

#[test]
fn a_shard_range_is_exactly_zero_to_n_minus_one() {
    for n in [2u32, 9, 10, 11, 99, 100, 101, 257, 1000, 9999, 10_000] {
        let template = KeyTemplate::parse(&format!("{{s:{n}}}"));
        let matcher = Matcher::new(template.parts(), kind);
        let one = |text: &str| Matcher::new(KeyTemplate::parse(text).parts(), kind);
        for value in [0, 1, n / 2, n - 1, n, n + 1, 10 * n] {
            let shared = matches!(
                matcher.overlap(&one(&value.to_string())),
                Overlap::Shared(_)
            );
            assert_eq!(shared, value < n, "{value} in {{s:{n}}}");
        }
        assert_eq!(
            matcher.overlap(&one("01")),
            Overlap::Disjoint,
            "no leading zero"
        );
    }
}

// The brute force: what a template renders, written without regular expressions.

fn separators(parts: &[Part]) -> Vec<char> {
    parts
        .iter()
        .flat_map(|p| match p {
            Part::Literal(text) => text.chars().filter(|&c| is_separator(c)).collect(),
            Part::Var(_) => Vec::new(),
        })
        .collect()
}

fn is_number(text: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    match unsigned.split_once('.') {
        Some((int, frac)) => digits(int) && digits(frac),
        None => digits(unsigned),
    }
}

fn value_fits(var: &Var, value: &str, separators: &[char]) -> bool {
    if let Some(n) = var.shards {
        return value
            .parse::<u32>()
            .is_ok_and(|v| v < n && v.to_string() == value);
    }
    match kind(var) {
        VarKind::Text => !value.is_empty() && !value.chars().any(|c| separators.contains(&c)),
        VarKind::Number => is_number(value),
        VarKind::Shard(_) => unreachable!("a shard variable has `shards`"),
        VarKind::OneOf(values) => values.iter().any(|v| v == value),
    }
}

/// Whether `text` is a rendering of `parts[i..]`.
fn renders(parts: &[Part], separators: &[char], text: &str) -> bool {
    match parts.split_first() {
        None => text.is_empty(),
        Some((Part::Literal(lit), rest)) => text
            .strip_prefix(lit.as_str())
            .is_some_and(|tail| renders(rest, separators, tail)),
        Some((Part::Var(var), rest)) => (1..=text.len())
            .filter(|&end| text.is_char_boundary(end))
            .any(|end| {
                value_fits(var, &text[..end], separators) && renders(rest, separators, &text[end..])
            }),
    }
}

/// Every string over `alphabet` of at most `max_len` characters, shortest first.
fn strings(alphabet: &[char], max_len: usize) -> Vec<String> {
    let mut all = vec![String::new()];
    let mut last = vec![String::new()];
    for _ in 0..max_len {
        last = last
            .iter()
            .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}

/// A short random template: literals from `A`, `#`, `1`; text, number and 2-shard variables.
fn template() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        Just("A"),
        Just("#"),
        Just("1"),
        Just("{s}"),
        Just("{t}"),
        Just("{n}"),
        Just("{x:2}"),
    ];
    prop::collection::vec(part, 1..=4).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Issue 43: the decision agrees with enumerating every string up to 5 characters: a
    /// shared key is one both render and no longer than any common string the enumeration
    /// finds; disjoint templates share none.
    #[test]
    fn the_decision_agrees_with_brute_force(a in template(), b in template()) {
        let (ta, tb) = (KeyTemplate::parse(&a), KeyTemplate::parse(&b));
        prop_assume!(ta.is_valid() && tb.is_valid());
        let (sa, sb) = (separators(ta.parts()), separators(tb.parts()));
        static STRINGS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        let all = STRINGS.get_or_init(|| strings(&['A', '#', '1', '0', '-', '.'], 5));
        let common = all
            .iter()
            .find(|s| renders(ta.parts(), &sa, s) && renders(tb.parts(), &sb, s));
        let decided = Matcher::new(ta.parts(), kind).overlap(&Matcher::new(tb.parts(), kind));
        match (&decided, common) {
            (Overlap::Shared(key), found) => {
                prop_assert!(renders(ta.parts(), &sa, key), "{a} renders {key:?}");
                prop_assert!(renders(tb.parts(), &sb, key), "{b} renders {key:?}");
                if let Some(found) = found {
                    prop_assert!(key.len() <= found.len(), "{key:?} is shortest, not {found:?}");
                }
            }
            (Overlap::Disjoint, None) => {}
            (Overlap::Disjoint, Some(found)) => {
                prop_assert!(false, "{a} and {b} both render {found:?}");
            }
            (Overlap::Undecided(why), _) => prop_assert!(false, "undecided: {why}"),
        }
    }
}

/// A template whose automaton is past the bound is not decided, and says why: a finding reads
/// that as "may render equal", never as "cannot".
#[test]
fn an_automaton_past_the_bound_is_undecided() {
    let values: Vec<String> = (0..20_000)
        .map(|i| format!("VALUE{i:06}X{}", i * 7919))
        .collect();
    let huge = KeyTemplate::parse("K#{e}");
    let matcher = Matcher::new(huge.parts(), |_| VarKind::OneOf(&values));
    let other = KeyTemplate::parse("K#{x}");
    match matcher.overlap(&Matcher::new(other.parts(), kind)) {
        Overlap::Undecided(why) => assert!(why.contains("automaton is past"), "{why}"),
        decided => panic!("decided past the bound: {decided:?}"),
    }
}
