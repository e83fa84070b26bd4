//! Text helpers for editors: splitting a template's source at its diagnostics' spans so the
//! field can underline them, and lists typed as comma-separated text (counts in words are
//! core's, re-exported here).

use keyplan_core::template::Diagnostic;

/// A piece of a field's text: plain or under a diagnostic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub text: String,
    pub error: bool,
}

/// `source` cut into plain and erroneous pieces. An empty span (something missing at a point)
/// marks the character there, or a space past the end, so it still shows.
pub fn underline(source: &str, diagnostics: &[Diagnostic]) -> Vec<Segment> {
    let n = source.len();
    let mut marked = vec![false; n + 1];
    for d in diagnostics {
        let start = d.span.start.min(n);
        let end = d.span.end.min(n).max(start);
        if start == end {
            marked[start] = true;
        } else {
            for m in &mut marked[start..end] {
                *m = true;
            }
        }
    }
    let mut out: Vec<Segment> = Vec::new();
    let mut push = |text: &str, error: bool| match out.last_mut() {
        Some(last) if last.error == error => last.text.push_str(text),
        _ => out.push(Segment {
            text: text.to_string(),
            error,
        }),
    };
    for (i, ch) in source.char_indices() {
        push(&source[i..i + ch.len_utf8()], marked[i]);
    }
    if marked[n] {
        push(" ", true);
    }
    out
}

/// Counts in words ("1 table", "293,966 characters"), from core's one home for them.
pub use keyplan_core::counts::{plural, thousands};

/// `text` cut to at most `max` characters at a word boundary, with an ellipsis when cut
/// (gallery descriptions were cut mid-word, issue 12).
pub fn excerpt(text: &str, max: usize) -> String {
    let text = text.trim();
    if text.chars().count() <= max {
        return text.to_string();
    }
    // The byte offset of character `max`: everything before it fits.
    let limit = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
    let head = &text[..limit];
    let cut = match head.rfind(char::is_whitespace) {
        Some(space) if space > 0 => &head[..space],
        _ => head,
    };
    let cut = cut.trim_end_matches(|c: char| c.is_whitespace() || ",;:.-(".contains(c));
    format!("{cut}\u{2026}")
}

/// A count of items as typed ("30,000", "30 000", "30_000"): `None` when the field is left
/// empty, an error saying what was typed when it is not a whole number.
pub fn count(text: &str) -> Result<Option<u64>, String> {
    let digits = text.trim().replace([',', '_', ' '], "");
    if digits.is_empty() {
        return Ok(None);
    }
    digits.parse::<u64>().map(Some).map_err(|_| {
        format!(
            "`{}` is not a count of items: type a whole number, like 30,000",
            excerpt(text.trim(), 20)
        )
    })
}

/// `a, b ,c` as `["a", "b", "c"]`; empty pieces dropped.
pub fn split_list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use keyplan_core::KeyTemplate;

    fn show(source: &str) -> String {
        let t = KeyTemplate::parse(source);
        underline(source, t.diagnostics())
            .iter()
            .map(|s| {
                if s.error {
                    format!("[{}]", s.text)
                } else {
                    s.text.clone()
                }
            })
            .collect()
    }

    #[test]
    fn a_diagnostic_is_underlined_at_its_span() {
        assert_eq!(show("ORDER#{orderId"), "ORDER#[{orderId]");
        assert_eq!(show("A}B"), "A[}]B");
        assert_eq!(show("CUSTOMER#{customerId}"), "CUSTOMER#{customerId}");
        assert_eq!(show(""), "[ ]");
    }

    #[test]
    fn an_excerpt_ends_at_a_word_boundary_with_an_ellipsis() {
        assert_eq!(excerpt("Short text.", 40), "Short text.");
        assert_eq!(
            excerpt("Orders, customers and their shipments", 20),
            "Orders, customers\u{2026}"
        );
        assert_eq!(excerpt("Unbreakablelongword", 5), "Unbre\u{2026}");
        assert_eq!(excerpt("Données clients détaillées", 10), "Données\u{2026}");
    }

    #[test]
    fn lists_are_split_on_commas() {
        assert_eq!(split_list(" a, b ,,c "), ["a", "b", "c"]);
    }

    // issue 43 item 5: the Migrate tab and the inspector read a count typed by one rule.
    #[test]
    fn a_count_takes_separators_and_an_empty_field_is_none() {
        assert_eq!(count(" 30,000 "), Ok(Some(30_000)));
        assert_eq!(count("1_200 000"), Ok(Some(1_200_000)));
        assert_eq!(count(""), Ok(None));
        assert_eq!(
            count("-3"),
            Err("`-3` is not a count of items: type a whole number, like 30,000".to_string())
        );
        assert!(count("1.5").is_err());
        assert!(count("99999999999999999999999").is_err());
    }
}
