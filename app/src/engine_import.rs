//! Importing tables that exist, from an engine `keyplan serve` was started with (issue 17):
//! the plain decisions of the "Import from engine" dialog (which URL lists an engine's tables,
//! what the sample field accepts, the body of `POST /api/import/engine`, what the server's
//! answers mean, what the busy line and the toast say). The dialog only moves the bytes.
//!
//! An engine is chosen by its name, never by an address: nothing here builds a URL from
//! anything but `/api/` and a name the server listed, percent-encoded.

use keyplan_core::Design;
use keyplan_core::api::live::{
    EngineImportAnswer, EngineImportLine, EngineImportRequest, Progress, TableList,
};

use crate::api::error_message;
use crate::run::state::Engines;
use crate::text::{plural, thousands};

/// Items sampled per table when the user changes nothing (the server's default too).
pub const DEFAULT_SAMPLE: u64 = 1_000;
/// The most items the server reads from one table.
pub const MAX_SAMPLE: u64 = 100_000;

/// Why importing from an engine is not offered here, or `None` when it is: the tables are read
/// by `keyplan serve`, and a page served without it (a static host) has no engine.
pub fn unavailable(engines: &Engines) -> Option<String> {
    match engines {
        Engines::Available(_) => None,
        Engines::Loading => Some("Looking for the keyplan server…".to_string()),
        Engines::NoApi => Some(
            "Needs the keyplan server: this page is served without it. Start `keyplan serve` and open the address it prints."
                .to_string(),
        ),
        Engines::Unreachable(message) => Some(format!("Not available: {message}.")),
    }
}

/// One table an engine lists: its name, and its item count when the server gave one
/// (`DescribeTable`'s `ItemCount`, which DynamoDB refreshes about every six hours).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableInfo {
    pub name: String,
    pub items: Option<u64>,
}

impl TableInfo {
    /// "orders (about 1,200 items)", or the name alone.
    pub fn label(&self) -> String {
        match self.items {
            Some(1) => format!("{} (1 item)", self.name),
            Some(n) => format!("{} (about {} items)", self.name, thousands(n)),
            None => self.name.clone(),
        }
    }
}

/// `text` with every byte outside the URL's unreserved set percent-encoded, for a path
/// segment.
fn path_segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `GET /api/engines/{name}/tables` for the engine `engine`.
pub fn tables_url(engine: &str) -> String {
    format!("/api/engines/{}/tables", path_segment(engine))
}

/// Reads the answer to `GET /api/engines/{name}/tables`: the tables, sorted by name, or the
/// server's reason (the engine is not there, it refused).
pub fn tables_from_server(status: u16, body: &str) -> Result<Vec<TableInfo>, String> {
    if !(200..300).contains(&status) {
        return Err(error_message(status, body));
    }
    let answer: TableList = serde_json::from_str(body)
        .map_err(|e| format!("the keyplan server's list of tables did not read: {e}"))?;
    let mut tables: Vec<TableInfo> = answer
        .tables
        .into_iter()
        .map(|name| TableInfo {
            items: answer.items.get(&name).copied(),
            name,
        })
        .collect();
    tables.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(tables)
}

/// What an engine without tables says: the embedded one starts empty in every `keyplan serve`,
/// so its user is told how to name the engine that holds the table.
pub fn no_tables(engine: &str) -> String {
    if engine == "embedded" {
        return "Engine embedded has no tables: it starts empty every time keyplan serve starts. To import a table you have, start keyplan serve with --endpoint NAME=URL for the engine that holds it.".to_string();
    }
    format!("Engine {engine} has no tables.")
}

/// Reads the sample field: a whole number of items per table, 1 to [`MAX_SAMPLE`] (thousands
/// separators and spaces allowed); empty is the default.
pub fn parse_sample(text: &str) -> Result<u64, String> {
    let digits: String = text
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' ' | '\u{a0}'))
        .collect();
    if digits.is_empty() {
        return Ok(DEFAULT_SAMPLE);
    }
    let limit = thousands(MAX_SAMPLE);
    let n: u64 = digits.parse().map_err(|_| {
        format!("The sample size must be a whole number of items, 1 to {limit}: {text:?} is not")
    })?;
    if !(1..=MAX_SAMPLE).contains(&n) {
        return Err(format!(
            "The sample size must be 1 to {limit} items per table, not {}",
            thousands(n)
        ));
    }
    Ok(n)
}

/// What the user asked to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub engine: String,
    /// The tables picked; every table the engine lists when `all`.
    pub tables: Vec<String>,
    /// Every table of the engine (the server lists them again, so one made since counts).
    pub all: bool,
    pub sample: u64,
}

impl Request {
    /// The body of `POST /api/import/engine`.
    pub fn body(&self) -> String {
        let request = EngineImportRequest {
            engine: self.engine.clone(),
            tables: if self.all {
                Vec::new()
            } else {
                self.tables.clone()
            },
            all: self.all,
            sample: Some(self.sample),
        };
        // Names and numbers: nothing in them can fail to be written.
        keyplan_core::api::request_text(&request).unwrap_or_default()
    }

    /// What the tables are, in words: "orders", "orders and audit", "3 tables",
    /// "every table".
    fn tables_in_words(&self) -> String {
        match self.tables.as_slice() {
            _ if self.all => "every table".to_string(),
            [one] => one.clone(),
            [a, b] => format!("{a} and {b}"),
            many => plural(many.len(), "table"),
        }
    }

    /// The busy line while the server reads: "Reading orders from moto: a sample of at most
    /// 1,000 items per table, then inferring its entities…".
    pub fn reading(&self) -> String {
        format!(
            "Reading {} from {}: describing, then scanning at most {} per table, then inferring the entities…",
            self.tables_in_words(),
            self.engine,
            if self.sample == 1 {
                "1 item".to_string()
            } else {
                format!("{} items", thousands(self.sample))
            },
        )
    }
}

/// The busy line of a streamed import after a page: "Reading orders from moto: 1,200 of about
/// 100,000 items read (table 1 of 2)…", and once the last table is read, "Read orders from
/// moto: 100,000 items; inferring the entities…".
pub fn progress_line(progress: &Progress, engine: &str) -> String {
    let p = progress;
    let of = if p.tables > 1 {
        format!(" (table {} of {})", p.index + 1, p.tables)
    } else {
        String::new()
    };
    let expected = p.expected.max(p.read);
    if p.read >= expected && p.index + 1 >= p.tables {
        return format!(
            "Read {} from {engine}: {}; inferring the entities…",
            p.table,
            if p.read == 1 {
                "1 item".to_string()
            } else {
                format!("{} items", thousands(p.read))
            },
        );
    }
    format!(
        "Reading {} from {engine}: {} of about {} read{of}…",
        p.table,
        thousands(p.read),
        if expected == 1 {
            "1 item".to_string()
        } else {
            format!("{} items", thousands(expected))
        },
    )
}

/// Reads one line of the stream; `None` for a line that is none of its kinds.
pub fn stream_line(line: &str) -> Option<EngineImportLine> {
    serde_json::from_str(line).ok()
}

/// A design read from an engine's tables.
#[derive(Debug)]
pub struct Imported {
    pub design: Design,
    /// What was read, for the toast: "Imported orders from moto: 1 table, 4 entities, 1,000
    /// items read".
    pub message: String,
    /// What the import guessed or could not keep, one sentence each.
    pub notes: Vec<String>,
}

/// Reads the answer to `POST /api/import/engine`: the design and what was read, or the
/// server's reason (the engine is not there, a table is gone, the sample is too big).
pub fn from_server(request: &Request, status: u16, body: &str) -> Result<Imported, String> {
    if !(200..300).contains(&status) {
        return Err(error_message(status, body));
    }
    let answer: EngineImportAnswer = serde_json::from_str(body)
        .map_err(|e| format!("the keyplan server's answer did not read: {e}"))?;
    from_answer(request, answer)
}

/// The design and what was read, from the answer to `POST /api/import/engine` (plain, or the
/// last line of the stream).
pub fn from_answer(request: &Request, answer: EngineImportAnswer) -> Result<Imported, String> {
    let design = keyplan_core::file::parse(&answer.design.to_string())
        .map_err(|e| format!("the keyplan server's design did not read: {e}"))?;
    let read: u64 = answer.tables.iter().map(|t| t.items).sum();
    let entities = match design.entities.len() {
        0 => "no entities".to_string(),
        n => plural(n, "entity"),
    };
    let message = format!(
        "Imported {} from {} as \u{201c}{}\u{201d}: {}, {}, {} read",
        request.tables_in_words(),
        request.engine,
        design.name,
        plural(design.tables.len(), "table"),
        entities,
        if read == 1 {
            "1 item".to_string()
        } else {
            format!("{} items", thousands(read))
        },
    );
    Ok(Imported {
        design,
        message,
        notes: answer.notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use keyplan_core::api::Line;
    use keyplan_core::api::live::EngineImportEvent;

    fn request(tables: &[&str], all: bool) -> Request {
        Request {
            engine: "moto".to_string(),
            tables: tables.iter().map(|t| t.to_string()).collect(),
            all,
            sample: 1_000,
        }
    }

    #[test]
    fn the_import_is_offered_only_where_keyplan_serve_names_engines() {
        assert_eq!(unavailable(&Engines::Available(Vec::new())), None);
        assert!(
            unavailable(&Engines::NoApi)
                .expect("a reason")
                .contains("keyplan serve")
        );
        assert_eq!(
            unavailable(&Engines::Unreachable(
                "the keyplan server could not be reached".into()
            )),
            Some("Not available: the keyplan server could not be reached.".to_string())
        );
    }

    #[test]
    fn an_engine_is_a_percent_encoded_name_in_the_path_never_an_address() {
        assert_eq!(tables_url("embedded"), "/api/engines/embedded/tables");
        assert_eq!(
            tables_url("http://169.254.169.254/x"),
            "/api/engines/http%3A%2F%2F169.254.169.254%2Fx/tables"
        );
        assert_eq!(tables_url("a b/../c"), "/api/engines/a%20b%2F..%2Fc/tables");
    }

    #[test]
    fn the_table_list_is_sorted_with_counts_where_given_or_the_servers_reason() {
        let tables = tables_from_server(
            200,
            r#"{"engine":"moto","tables":["orders","audit","one"],"items":{"orders":12345,"one":1}}"#,
        )
        .expect("a list");
        let labels: Vec<String> = tables.iter().map(TableInfo::label).collect();
        assert_eq!(
            labels,
            ["audit", "one (1 item)", "orders (about 12,345 items)"]
        );
        assert_eq!(
            tables_from_server(200, r#"{"engine":"e","tables":[]}"#),
            Ok(Vec::new())
        );
        assert_eq!(no_tables("moto"), "Engine moto has no tables.");
        assert!(no_tables("embedded").contains("--endpoint NAME=URL"));
        assert_eq!(
            tables_from_server(
                502,
                r#"{"error":"cannot reach engine `dead` (http://127.0.0.1:1) within 5 s"}"#
            ),
            Err("cannot reach engine `dead` (http://127.0.0.1:1) within 5 s".to_string())
        );
        assert_eq!(
            tables_from_server(404, "<html>"),
            Err("the keyplan server answered 404".to_string())
        );
    }

    #[test]
    fn the_sample_is_one_to_a_hundred_thousand_items_and_empty_is_the_default() {
        assert_eq!(parse_sample(""), Ok(1_000));
        assert_eq!(parse_sample(" 250 "), Ok(250));
        assert_eq!(parse_sample("100,000"), Ok(100_000));
        assert_eq!(
            parse_sample("100001"),
            Err("The sample size must be 1 to 100,000 items per table, not 100,001".to_string())
        );
        assert_eq!(
            parse_sample("0"),
            Err("The sample size must be 1 to 100,000 items per table, not 0".to_string())
        );
        assert_eq!(
            parse_sample("-5"),
            Err(
                "The sample size must be a whole number of items, 1 to 100,000: \"-5\" is not"
                    .to_string()
            )
        );
        assert!(parse_sample("99999999999999999999999").is_err());
    }

    #[test]
    fn the_request_names_the_tables_or_all_and_the_busy_line_says_what_is_read() {
        assert_eq!(
            request(&["orders"], false).body(),
            r#"{"engine":"moto","sample":1000,"tables":["orders"]}"#
        );
        assert_eq!(
            request(&["a", "b"], true).body(),
            r#"{"all":true,"engine":"moto","sample":1000}"#
        );
        assert_eq!(
            request(&["orders"], false).reading(),
            "Reading orders from moto: describing, then scanning at most 1,000 items per table, then inferring the entities…"
        );
        assert!(
            request(&["a", "b", "c"], false)
                .reading()
                .starts_with("Reading 3 tables from moto")
        );
        assert!(
            request(&[], true)
                .reading()
                .starts_with("Reading every table from moto")
        );
    }

    #[test]
    fn a_streamed_import_says_how_far_it_has_read_then_gives_the_answer_or_the_error() {
        let progress = stream_line(
            r#"{"progress":{"table":"orders","index":1,"tables":2,"read":1200,"expected":100000,"sample":100000}}"#,
        );
        let Some(Line::Progress(EngineImportEvent::Progress(p))) = progress else {
            panic!("{progress:?}");
        };
        assert_eq!(
            progress_line(&p, "moto"),
            "Reading orders from moto: 1,200 of about 100,000 items read (table 2 of 2)…"
        );
        assert!((p.fraction() - 0.506).abs() < 1e-9, "{}", p.fraction());
        let one = Progress {
            table: "t".into(),
            index: 0,
            tables: 1,
            read: 1,
            expected: 1,
            sample: 1,
        };
        assert_eq!(
            progress_line(&one, "embedded"),
            "Read t from embedded: 1 item; inferring the entities…"
        );
        assert_eq!(one.fraction(), 1.0);
        let answer = stream_line(r#"{"answer":{"design":{},"format":"engine"}}"#);
        let Some(Line::Answer { answer }) = answer else {
            panic!("{answer:?}");
        };
        assert_eq!(answer.format, "engine");
        assert_eq!(
            stream_line(r#"{"error":"engine `moto` has no table `t`","status":404}"#),
            Some(Line::Failed {
                status: 404,
                error: "engine `moto` has no table `t`".to_string()
            })
        );
        assert_eq!(stream_line("not json"), None);
    }

    #[test]
    fn the_answer_is_the_design_with_what_was_read_or_the_servers_reason() {
        let mut design = keyplan_core::examples::first();
        design.name = "orders".to_string();
        let body = format!(
            r#"{{"format":"engine","design":{},"notes":["table orders: 20 of its about 300 items were read"],"tables":[{{"name":"orders","items":20,"pages":1,"read_units":null}}]}}"#,
            keyplan_core::file::to_string(&design)
        );
        let imported = from_server(&request(&["orders"], false), 200, &body).expect("a design");
        assert_eq!(
            imported.message,
            format!(
                "Imported orders from moto as \u{201c}orders\u{201d}: {}, {}, 20 items read",
                plural(design.tables.len(), "table"),
                plural(design.entities.len(), "entity")
            )
        );
        assert_eq!(imported.notes.len(), 1);
        assert_eq!(
            from_server(
                &request(&["gone"], false),
                404,
                r#"{"error":"engine `moto` has no table `gone`"}"#
            )
            .expect_err("a 404"),
            "engine `moto` has no table `gone`"
        );
        assert!(
            from_server(&request(&["t"], false), 200, r#"{"design":{"nope":1}}"#)
                .expect_err("not a design")
                .starts_with("the keyplan server's design did not read")
        );
    }
}
