//! Comparing what the engine returned with what core's evaluation predicted, item for item and
//! in order, and saying how they differ in lines a person reads.
//!
//! Both sides are compared in canonical form ([`super::convert::canonical_item`]); nothing else
//! is forgiven: a missing attribute, an extra item or a swapped pair is a mismatch.

use keyplan_core::Item;

use super::convert::{canonical_item, show_item};

/// The most diff lines shown; the rest is summarised.
const MAX_LINES: usize = 40;

/// `None` when `actual` equals `expected` item for item and in order; otherwise a readable
/// diff: `  ` for a line both have, `- ` expected but missing, `+ ` returned but not expected.
pub fn diff(expected: &[Item], actual: &[Item], keys_first: &[String]) -> Option<String> {
    let expected: Vec<Item> = expected.iter().map(canonical_item).collect();
    let actual: Vec<Item> = actual.iter().map(canonical_item).collect();
    if expected == actual {
        return None;
    }
    let left: Vec<String> = expected.iter().map(|i| show_item(i, keys_first)).collect();
    let right: Vec<String> = actual.iter().map(|i| show_item(i, keys_first)).collect();
    let lines = lcs_diff(&left, &right);
    let same_set = {
        let mut a = left.clone();
        let mut b = right.clone();
        a.sort();
        b.sort();
        a == b
    };
    let mut out = vec![format!(
        "expected {} item(s), the engine returned {}{}",
        left.len(),
        right.len(),
        if same_set {
            " (the same items in another order)"
        } else {
            ""
        }
    )];
    // Show changed lines with one line of context; elide long runs of equal lines.
    let changed: Vec<bool> = lines.iter().map(|(tag, _)| *tag != ' ').collect();
    let mut shown = 0;
    let mut elided = false;
    for (i, (tag, line)) in lines.iter().enumerate() {
        let near =
            changed[i] || (i > 0 && changed[i - 1]) || changed.get(i + 1).copied().unwrap_or(false);
        if !near {
            if !elided {
                out.push("  ...".to_string());
                elided = true;
            }
            continue;
        }
        elided = false;
        if shown == MAX_LINES {
            let rest = lines[i..].iter().filter(|(t, _)| *t != ' ').count();
            out.push(format!("  ... and {rest} more differing line(s)"));
            break;
        }
        out.push(format!("{tag} {line}"));
        shown += 1;
    }
    Some(out.join("\n"))
}

/// A line diff by longest common subsequence: (' ' | '-' | '+', line).
fn lcs_diff<'a>(left: &'a [String], right: &'a [String]) -> Vec<(char, &'a str)> {
    let (n, m) = (left.len(), right.len());
    // Results are at most a few thousand items; the table is n*m u32s.
    let mut table = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[at(i, j)] = if left[i] == right[j] {
                table[at(i + 1, j + 1)] + 1
            } else {
                table[at(i + 1, j)].max(table[at(i, j + 1)])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(n.max(m));
    while i < n && j < m {
        if left[i] == right[j] {
            out.push((' ', left[i].as_str()));
            i += 1;
            j += 1;
        } else if table[at(i + 1, j)] >= table[at(i, j + 1)] {
            out.push(('-', left[i].as_str()));
            i += 1;
        } else {
            out.push(('+', right[j].as_str()));
            j += 1;
        }
    }
    out.extend(left[i..].iter().map(|l| ('-', l.as_str())));
    out.extend(right[j..].iter().map(|r| ('+', r.as_str())));
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn items(json: &str) -> Vec<Item> {
        serde_json::from_str(json).unwrap()
    }

    fn check(expected: &str, actual: &str, want: expect_test::Expect) {
        let keys = ["PK".to_string(), "SK".to_string()];
        let got = diff(&items(expected), &items(actual), &keys).unwrap_or("same".into());
        want.assert_eq(&got);
    }

    #[test]
    fn equal_lists_have_no_diff_even_with_other_number_spellings() {
        check(
            r#"[{"PK":{"S":"A"},"n":{"N":"1.50"}}]"#,
            r#"[{"PK":{"S":"A"},"n":{"N":"1.5"}}]"#,
            expect_test::expect!["same"],
        );
    }

    #[test]
    fn a_missing_item_and_a_changed_attribute_are_shown_line_by_line() {
        check(
            r#"[{"PK":{"S":"A"},"SK":{"S":"1"}},{"PK":{"S":"A"},"SK":{"S":"2"},"x":{"N":"1"}},{"PK":{"S":"A"},"SK":{"S":"3"}}]"#,
            r#"[{"PK":{"S":"A"},"SK":{"S":"1"}},{"PK":{"S":"A"},"SK":{"S":"2"},"x":{"N":"2"}}]"#,
            expect_test::expect![[r#"
                expected 3 item(s), the engine returned 2
                  {PK: "A", SK: "1"}
                - {PK: "A", SK: "2", x: 1}
                - {PK: "A", SK: "3"}
                + {PK: "A", SK: "2", x: 2}"#]],
        );
    }

    #[test]
    fn the_same_items_in_another_order_are_a_mismatch_that_says_so() {
        check(
            r#"[{"PK":{"S":"A"},"SK":{"S":"1"}},{"PK":{"S":"A"},"SK":{"S":"2"}}]"#,
            r#"[{"PK":{"S":"A"},"SK":{"S":"2"}},{"PK":{"S":"A"},"SK":{"S":"1"}}]"#,
            expect_test::expect![[r#"
                expected 2 item(s), the engine returned 2 (the same items in another order)
                - {PK: "A", SK: "1"}
                  {PK: "A", SK: "2"}
                + {PK: "A", SK: "1"}"#]],
        );
    }
}
