//! What an import could not read, and what it assumed in its place (issue 36).
//!
//! Real files are messy: a table name from `!Ref TableName`, an attribute's type from a constant
//! of another module, a key from `var.hash_key`. An importer never refuses a whole file over
//! one such value: it keeps everything the file states, assumes the least for what it could
//! not read (a string attribute, a placeholder name such as `${var.table_name}`) and lists
//! each in an [`Assumption`], with the file and line, for the command line's report, its
//! `--json` and the app's import message. Only a file that states no table or entity at all is
//! refused.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One value an import could not read, where it was, and what was assumed in its place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assumption {
    /// The file it was in, when an import reads several; `None`: the one file imported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line of the value in its file; 0 when it could not be placed.
    pub line: usize,
    /// What could not be read, as the file wrote it where that is short: "TableName
    /// `!Ref TableNameParam`", "attribute `status`'s type `STATUSES`".
    pub what: String,
    /// What was assumed in its place: "the parameter's Default `orders`", "a string".
    pub assumed: String,
}

impl Assumption {
    /// An assumption at `line` of the one file imported.
    pub fn at(line: usize, what: impl Into<String>, assumed: impl Into<String>) -> Assumption {
        Assumption {
            file: None,
            line,
            what: what.into(),
            assumed: assumed.into(),
        }
    }

    /// The same assumption, said of `file` (an import of several files).
    pub fn in_file(mut self, file: &str) -> Assumption {
        self.file = Some(file.to_string());
        self
    }
}

impl fmt::Display for Assumption {
    /// `FILE:LINE: WHAT: assumed ASSUMED`, the place left out where it is not known.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.line) {
            (Some(file), 0) => write!(f, "{file}: ")?,
            (Some(file), line) => write!(f, "{file}:{line}: ")?,
            (None, 0) => {}
            (None, line) => write!(f, "line {line}: ")?,
        }
        write!(f, "{}: assumed {}", self.what, self.assumed)
    }
}

/// The lines an import message lists: the notes, then each value assumed
/// (`assumed: line 7: TableName ...`), as the app's import message shows them.
pub fn told(notes: &[String], assumed: &[Assumption]) -> Vec<String> {
    let assumed = assumed.iter().map(|a| format!("assumed: {a}"));
    notes.iter().cloned().chain(assumed).collect()
}

/// The 1-based line where the member reached by `path` is written in a JSON or YAML text
/// (`["Resources", "Orders", "Properties", "TableName"]`), for formats whose parser keeps no
/// places: each name is looked for as a member name (`"Name":` or `Name:`) after the place of the
/// one before. 0 when a name is not found, so a wrong guess is never given as a place. A YAML
/// member may be quoted or not; a name that only appears inside a value does not match.
pub fn line_of(text: &str, path: &[&str]) -> usize {
    let mut from = 0;
    for name in path {
        match find_member(&text[from..], name) {
            Some(at) => from += at,
            None => return 0,
        }
    }
    if path.is_empty() {
        return 0;
    }
    text[..from].matches('\n').count() + 1
}

/// The line of the member `name` in `text` from line `line` on, for a module's value whose
/// parser keeps no places (a schema attribute of the `new` on `line`); `line` itself when it
/// is not there.
pub fn line_after(text: &str, line: usize, name: &str) -> usize {
    let offset: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    match line_of(&text[offset.min(text.len())..], &[name]) {
        0 => line,
        found => line.saturating_sub(1) + found,
    }
}

/// The offset of the first member `name` in `text`: the name, bare or quoted, followed by
/// optional spaces and a colon.
fn find_member(text: &str, name: &str) -> Option<usize> {
    let mut start = 0;
    while let Some(found) = text[start..].find(name) {
        let at = start + found;
        let end = at + name.len();
        let before = text[..at].chars().next_back();
        let quoted = matches!(before, Some('"' | '\''));
        let bare_start = before.is_none_or(|c| c.is_whitespace() || c == '{' || c == ',');
        let rest = &text[end..];
        let rest = if quoted {
            rest.strip_prefix(['"', '\'']).unwrap_or("\u{0}")
        } else {
            rest
        };
        let is_member = rest.trim_start_matches([' ', '\t']).starts_with(':');
        let whole_name = quoted || (bare_start && !name.is_empty());
        if is_member && whole_name {
            return Some(at);
        }
        start = end.max(at + 1);
        while !text.is_char_boundary(start) {
            start += 1;
        }
    }
    None
}

/// One step of a path into a JSON text: a member of an object, or an element of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonStep<'a> {
    Member(&'a str),
    Index(usize),
}

/// The 1-based line where the value reached by `path` starts in a JSON text, for a place
/// inside a list ([`line_of`] finds members by name only, so never "the fourth item's
/// `price`"). The text is walked, not built: strings are skipped with their escapes and a
/// member name is compared as written (a name written with escapes is not found). 0 when the
/// path does not reach a value, so a wrong guess is never given as a place. The walk keeps no
/// stack: a value is skipped by counting brackets, so nesting costs nothing.
pub fn json_line(text: &str, path: &[JsonStep<'_>]) -> usize {
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, 0);
    for step in path {
        let found = match (step, bytes.get(at)) {
            (JsonStep::Member(name), Some(b'{')) => member_at(bytes, at + 1, name),
            (JsonStep::Index(index), Some(b'[')) => element_at(bytes, at + 1, *index),
            _ => None,
        };
        match found {
            Some(value) => at = value,
            None => return 0,
        }
    }
    bytes[..at].iter().filter(|b| **b == b'\n').count() + 1
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// The offset just past the string that opens at `at` (its `"`).
fn skip_string(bytes: &[u8], mut at: usize) -> Option<usize> {
    at += 1;
    loop {
        match bytes.get(at)? {
            b'\\' => at += 2,
            b'"' => return Some(at + 1),
            _ => at += 1,
        }
    }
}

/// The offset just past the value that starts at `at`.
fn skip_value(bytes: &[u8], at: usize) -> Option<usize> {
    match bytes.get(at)? {
        b'"' => skip_string(bytes, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            loop {
                match bytes.get(i)? {
                    b'"' => {
                        i = skip_string(bytes, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let mut i = at;
            while bytes
                .get(i)
                .is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
            {
                i += 1;
            }
            Some(i)
        }
    }
}

/// The offset of the value of member `name` of the object whose members start at `at`.
fn member_at(bytes: &[u8], mut at: usize, name: &str) -> Option<usize> {
    loop {
        at = skip_space(bytes, at);
        if bytes.get(at)? != &b'"' {
            return None;
        }
        let end = skip_string(bytes, at)?;
        let key = &bytes[at + 1..end - 1];
        at = skip_space(bytes, end);
        if bytes.get(at)? != &b':' {
            return None;
        }
        let value = skip_space(bytes, at + 1);
        if key == name.as_bytes() {
            return Some(value);
        }
        at = skip_space(bytes, skip_value(bytes, value)?);
        match bytes.get(at)? {
            b',' => at += 1,
            _ => return None,
        }
    }
}

/// The offset of element `index` of the list whose elements start at `at`.
fn element_at(bytes: &[u8], mut at: usize, index: usize) -> Option<usize> {
    for _ in 0..index {
        at = skip_space(bytes, at);
        if matches!(bytes.get(at)?, b']') {
            return None;
        }
        at = skip_space(bytes, skip_value(bytes, at)?);
        match bytes.get(at)? {
            b',' => at += 1,
            _ => return None,
        }
    }
    let value = skip_space(bytes, at);
    (!matches!(bytes.get(value)?, b']')).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_are_placed_by_their_path_in_json_and_yaml() {
        let json = "{\n  \"Resources\": {\n    \"Orders\": {\n      \"Properties\": {\n        \"TableName\": {\"Ref\": \"Name\"}\n      }\n    }\n  }\n}";
        assert_eq!(
            line_of(json, &["Resources", "Orders", "Properties", "TableName"]),
            5
        );
        let yaml = "Parameters:\n  TableName:\n    Type: String\nResources:\n  Orders:\n    Properties:\n      TableName: !Ref TableName\n";
        // The parameter of the same name, above, is not the table's member.
        assert_eq!(line_of(yaml, &["Resources", "Orders", "TableName"]), 7);
        // A name inside a value is not a member; a name not there is no place.
        assert_eq!(line_of(yaml, &["Resources", "Ref"]), 0);
        assert_eq!(line_of(yaml, &["Missing"]), 0);
    }

    #[test]
    fn a_value_inside_a_list_is_placed_by_its_path() {
        use JsonStep::{Index, Member};
        let json = "{\"DataModel\": [\n  {\"TableData\": [\n    {\"a\": {\"S\": \"x]\\\"\"}},\n    {\"b\": 1,\n     \"a\": {\"N\": \"2\"}}\n  ]}\n]}";
        let path = |i: usize, name: &'static str| {
            [
                Member("DataModel"),
                Index(0),
                Member("TableData"),
                Index(i),
                Member(name),
            ]
        };
        assert_eq!(json_line(json, &path(0, "a")), 3);
        // A bracket and a quote inside a string are text; the second item's `a` is below its `b`.
        assert_eq!(json_line(json, &path(1, "a")), 5);
        // An item or a member that is not there is no place.
        assert_eq!(json_line(json, &path(2, "a")), 0);
        assert_eq!(json_line(json, &path(0, "c")), 0);
    }

    #[test]
    fn an_assumption_says_where_what_and_what_was_assumed() {
        let a = Assumption::at(
            7,
            "TableName `!Ref TableName`",
            "the parameter's Default `orders`",
        );
        assert_eq!(
            a.to_string(),
            "line 7: TableName `!Ref TableName`: assumed the parameter's Default `orders`"
        );
        assert_eq!(
            a.in_file("template.yaml").to_string(),
            "template.yaml:7: TableName `!Ref TableName`: assumed the parameter's Default `orders`"
        );
        assert_eq!(Assumption::at(0, "x", "y").to_string(), "x: assumed y");
    }
}
