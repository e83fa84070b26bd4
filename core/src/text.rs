//! Characters a design's names and key templates must not hold (issue 41): the ones that end a
//! line, a comment or a string in some language (`\n`, U+2028), that a terminal or an editor
//! acts on instead of showing (`\x1b`, NUL), or that show text in another order than it is
//! read (the bidirectional controls of "Trojan Source"), and how each is shown to a person.
//!
//! One home for the rule: the KP030 finding refuses them in names and template literals, and
//! every generator escapes them (`export::names`), so a design that slips past the finding still
//! never writes one raw into generated text. Nothing here allocates unless asked to show.

/// Whether `c` is a control character (Unicode's Cc: C0, DEL, C1), a line or paragraph separator
/// (U+2028, U+2029), a bidirectional control, a zero-width no-break space (U+FEFF): a character
/// with no place in a name, and none raw in generated text.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}'
                | '\u{2029}'
                | '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{feff}'
        )
}

/// The first hidden character of `s`, if any.
pub fn first_hidden(s: &str) -> Option<char> {
    s.chars().find(|c| is_hidden(*c))
}

/// `c` as a person reads it in a message: `\n`, `\r`, `\t`, else `U+2028` (four hex digits at
/// least).
pub fn shown(c: char) -> String {
    match c {
        '\n' => "\\n".to_string(),
        '\r' => "\\r".to_string(),
        '\t' => "\\t".to_string(),
        c => format!("U+{:04X}", c as u32),
    }
}

/// `s` with each hidden character [`shown`], for a message that quotes a name.
pub fn visible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if is_hidden(c) {
            out.push_str(&shown(c));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ends_controls_and_direction_marks_are_hidden_and_shown_by_name() {
        for c in [
            '\n', '\r', '\0', '\u{1b}', '\u{7f}', '\u{85}', '\u{2028}', '\u{202e}',
        ] {
            assert!(is_hidden(c), "{c:?}");
        }
        for c in ['a', ' ', '#', '"', '/', '*', 'é', '\u{2027}', '\u{202f}'] {
            assert!(!is_hidden(c), "{c:?}");
        }
        assert_eq!(visible("a\nb\u{2028}c\u{1b}"), "a\\nbU+2028cU+001B");
        assert_eq!(first_hidden("Order\u{2029}x\n"), Some('\u{2029}'));
        assert_eq!(first_hidden("Order#{id}"), None);
    }
}
