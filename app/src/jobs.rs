//! The work the app hands to its worker (issue 19): exports, imports, the sample and what is
//! evaluated on it (the data view, the cost view), the migration plan and its programs. The
//! main thread keeps the store, the editor, the canvas and `analyze()`; everything here runs in
//! the second WebAssembly module (`src/bin/keyplan-worker.rs`), so none of it is in the module
//! the first paint waits for, and none of it blocks a frame.
//!
//! The messages are plain data, JSON both ways: a [`Request`] carries the design revision it
//! was asked for, and its [`Reply`] carries it back, so the main thread drops an answer computed
//! for a design that has changed since ([`crate::compute`]). Each answer is what a view shows,
//! already in words and figures (the pages in [`data`], [`cost`] and [`migrate`]): the views
//! render it and decide nothing.
//!
//! [`Worker`] is the worker's state (the sample of the last design asked about, kept for the
//! next question about the same design) and [`Worker::answer`] its whole work: pure, and tested
//! natively like the rest of core.

pub mod cost;
pub mod data;
pub mod migrate;

use std::collections::BTreeMap;

use keyplan_core::Design;
use keyplan_core::eval::ItemStore;
use keyplan_core::import::ImportError;
use keyplan_core::sample::{MAX_SAMPLE_ITEMS, SampleConfig, generate_within};
use serde::{Deserialize, Serialize};

/// What the main thread asks, with the revision of the design it was asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub id: u64,
    pub rev: u64,
    pub job: Job,
}

/// The worker's answer to the request `id`, for design revision `rev`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reply {
    pub id: u64,
    pub rev: u64,
    pub answer: Answer,
}

/// What the worker posts besides replies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Notice {
    /// The module has loaded and listens.
    Ready,
    /// A panic's message, posted by the panic hook just before the module stops.
    Panicked(String),
    Reply(Box<Reply>),
}

/// A job for the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// One of core's export formats, by its `--to` name.
    Export { design: Design, target: String },
    /// A file's text, in whichever format core detects.
    Import { text: String },
    /// [`Job::Import`] of the file posted beside the request (a `File` the worker reads
    /// itself, so the page never copies a large file's text: issue 19).
    ImportFile,
    /// The data view: the sample of `design` by table and index, the index `index` shown
    /// (table, index name; the first when `None`), its first `shown` items, and the pattern
    /// `pattern` evaluated on the sample.
    Data {
        design: Design,
        pattern: Option<String>,
        index: Option<(String, Option<String>)>,
        shown: usize,
    },
    /// The cost view at the prices of `region`.
    Cost { design: Design, region: String },
    /// What changed from `old` (the deployed baseline) to `new`, and the migration plan.
    Migrate {
        old: Design,
        new: Design,
        items: BTreeMap<String, u64>,
    },
    /// What the findings read from the sample: each covered read with a filter (KP024's
    /// input), the partition loads (KP014's) and item sizes (KP029's), judged with the rest of
    /// the analysis on the main thread.
    Measure { design: Design },
    /// The migration plan as a program in `language` (`typescript` or `python`).
    Program {
        old: Design,
        new: Design,
        items: BTreeMap<String, u64>,
        language: String,
    },
}

/// A file read by core's importers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Imported {
    Opened {
        /// The format's name (`Format`'s `FromStr`).
        format: String,
        design: Box<Design>,
        summary: String,
        notes: Vec<String>,
    },
    /// A JavaScript or TypeScript module: the keyplan server reads it.
    Module,
    /// Not a file keyplan reads, in core's words.
    Error(String),
}

/// The worker's answer, one variant per kind of job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    /// An export's or a program's text, or why there is none.
    Text(Result<String, String>),
    Imported(Imported),
    Data(data::DataPage),
    Cost(cost::CostPage),
    Migrate(migrate::MigratePage),
    Measured(keyplan_core::findings::Measured),
    /// The request could not be read (a main module and a worker of different builds).
    Refused(String),
}

/// The sample of one design loaded into core's evaluator, with the verdicts it is read with.
#[derive(Debug)]
pub struct Loaded {
    design: Design,
    store: ItemStore,
    verdicts: Vec<keyplan_core::Verdict>,
    /// Why the sample is empty: it would have been over the budget.
    refused: Option<String>,
}

impl Loaded {
    fn new(design: Design) -> Loaded {
        let (data, refused) =
            match generate_within(&design, &SampleConfig::default(), MAX_SAMPLE_ITEMS) {
                Ok(data) => (data, None),
                Err(e) => (Default::default(), Some(format!("No sample: {e}."))),
            };
        let store = ItemStore::build(&design, data.into_load_items());
        let verdicts = keyplan_core::analysis::verdicts(&design);
        Loaded {
            design,
            store,
            verdicts,
            refused,
        }
    }
}

/// The worker's state between requests.
#[derive(Debug, Default)]
pub struct Worker {
    /// The sample of the last design the data or cost view asked about: "Show more", another
    /// index or another Region reuse it instead of generating it again.
    loaded: Option<Loaded>,
    /// How many samples were generated (what the reuse above saves; tested).
    generated: u64,
}

impl Worker {
    /// The sample of `design`, generated only when the design differs from the last one's in
    /// more than where its cards sit (no item depends on that: a card moved while the data
    /// view is open keeps the sample, and "Show more" after it does not generate it again).
    fn loaded(&mut self, design: Design) -> &Loaded {
        match &mut self.loaded {
            Some(l) if same_but_layout(&l.design, &design) => l.design = design,
            _ => {
                // Drop the old store before building the new one: both at once doubled the
                // peak.
                self.loaded = None;
                self.loaded = Some(Loaded::new(design));
                self.generated += 1;
            }
        }
        self.loaded.as_ref().expect("loaded just above")
    }

    /// Does `job`.
    pub fn answer(&mut self, job: Job) -> Answer {
        match job {
            Job::Export { design, target } => Answer::Text(
                target
                    .parse::<keyplan_core::export::Target>()
                    .map_err(|e| e.to_string())
                    .and_then(|t| {
                        keyplan_core::export::export(&design, t).map_err(|e| e.to_string())
                    }),
            ),
            Job::Import { text } => Answer::Imported(import(&text)),
            Job::ImportFile => {
                Answer::Imported(Imported::Error("no file came with the request".to_string()))
            }
            Job::Data {
                design,
                pattern,
                index,
                shown,
            } => {
                let loaded = self.loaded(design);
                Answer::Data(data::page(loaded, pattern.as_deref(), index, shown))
            }
            Job::Cost { design, region } => {
                let loaded = self.loaded(design);
                Answer::Cost(cost::page(loaded, &region))
            }
            Job::Migrate { old, new, items } => Answer::Migrate(migrate::page(&old, &new, items)),
            Job::Measure { design } => Answer::Measured(keyplan_core::findings::measure(
                &design,
                &keyplan_core::analysis::verdicts(&design),
            )),
            Job::Program {
                old,
                new,
                items,
                language,
            } => Answer::Text(migrate::program(&old, &new, items, &language)),
        }
    }

    /// Reads a request's JSON, does its job and writes the reply's JSON. A request that does
    /// not read gets [`Answer::Refused`] with the reason (under id 0 when not even that reads).
    pub fn answer_json(&mut self, text: &str) -> String {
        self.answer_json_with(text, None)
    }

    /// [`Worker::answer_json`] for a request posted with a file: `file` is its text, or why it
    /// could not be read; a [`Job::ImportFile`] imports it.
    pub fn answer_json_with(&mut self, text: &str, file: Option<Result<String, String>>) -> String {
        let reply = match serde_json::from_str::<Request>(text) {
            Ok(Request { id, rev, job }) => Reply {
                id,
                rev,
                answer: match (job, file) {
                    (Job::ImportFile, Some(Ok(text))) => self.answer(Job::Import { text }),
                    (Job::ImportFile, Some(Err(e))) => Answer::Imported(Imported::Error(format!(
                        "the file could not be read: {e}"
                    ))),
                    (job, _) => self.answer(job),
                },
            },
            Err(e) => Reply {
                id: serde_json::from_str::<serde_json::Value>(text)
                    .ok()
                    .and_then(|v| v.get("id").and_then(serde_json::Value::as_u64))
                    .unwrap_or(0),
                rev: 0,
                answer: Answer::Refused(format!("the worker could not read the request: {e}")),
            },
        };
        notice_json(&Notice::Reply(Box::new(reply)))
    }
}

/// The [`Reply`] in a [`Notice::Reply`] the worker wrote ([`notice_json`]). The main thread
/// reads each reply's answer with this, in a module split off its first load: the answers'
/// readers are most of what the worker's messages take to read (issue 19).
pub fn read_reply(text: &str) -> Result<Reply, String> {
    match serde_json::from_str(text) {
        Ok(Notice::Reply(reply)) => Ok(*reply),
        Ok(_) => Err("the worker's message is not a reply".to_string()),
        Err(e) => Err(format!("the worker's answer did not read: {e}")),
    }
}

/// A notice as the JSON the main thread reads.
pub fn notice_json(notice: &Notice) -> String {
    serde_json::to_string(notice).unwrap_or_else(|e| {
        format!(r#"{{"Panicked":"the worker could not write its answer: {e}"}}"#)
    })
}

/// Reads a file's text in whichever format it is in.
fn import(text: &str) -> Imported {
    match keyplan_core::import::detect_and_import_as(text) {
        Ok((format, imported)) => Imported::Opened {
            format: format.as_str().to_string(),
            summary: imported.summary(format),
            design: Box::new(imported.design),
            notes: imported.notes,
        },
        Err(ImportError::NeedsJs { .. }) => Imported::Module,
        Err(e) => Imported::Error(e.to_string()),
    }
}

/// The largest file the app reads: a design file has no bound of its own in core (another
/// tool's file is bounded at 32 MB there), but the page keeps the whole design in memory and
/// in IndexedDB, and a file is read whole before anything can be said of it. 256 MB is over ten
/// times the 80,000-item model the tests open.
pub const MAX_FILE_BYTES: f64 = 256e6;

/// Why a file of `bytes` is not read, before a byte of it is: the worker reads a file whole.
pub fn file_too_large(bytes: f64) -> Option<String> {
    (bytes > MAX_FILE_BYTES).then(|| {
        format!(
            "it is {:.0} MB; the app opens files up to {:.0} MB",
            bytes / 1e6,
            MAX_FILE_BYTES / 1e6
        )
    })
}

/// Whether two designs differ at most in their layout, the one part of a design no sample
/// item, verdict or cost reads (the store's [`crate::store::Tracks::Semantics`] does not count
/// card moves either). Every other field is named, so a field added to `Design` must be
/// placed here.
fn same_but_layout(a: &Design, b: &Design) -> bool {
    let Design {
        version,
        name,
        description,
        tables,
        entities,
        patterns,
        layout: _,
        samples,
    } = a;
    *version == b.version
        && *name == b.name
        && *description == b.description
        && *tables == b.tables
        && *entities == b.entities
        && *patterns == b.patterns
        && *samples == b.samples
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> Design {
        keyplan_core::examples::first()
    }

    #[test]
    fn an_export_in_the_worker_is_the_cli_export() {
        let design = example();
        let mut worker = Worker::default();
        for target in keyplan_core::export::Target::ALL {
            let answer = worker.answer(Job::Export {
                design: design.clone(),
                target: target.name().to_string(),
            });
            let expected = keyplan_core::export::export(&design, target).map_err(|e| e.to_string());
            assert_eq!(answer, Answer::Text(expected), "{}", target.name());
        }
        assert!(matches!(
            worker.answer(Job::Export { design, target: "nope".into() }),
            Answer::Text(Err(e)) if e.contains("nope")
        ));
    }

    #[test]
    fn a_request_goes_through_json_and_keeps_its_id_and_revision() {
        let mut worker = Worker::default();
        let request = Request {
            id: 7,
            rev: 41,
            job: Job::Import {
                text: keyplan_core::file::to_string(&example()),
            },
        };
        let reply: Notice = serde_json::from_str(
            &worker.answer_json(&serde_json::to_string(&request).expect("writes")),
        )
        .expect("the reply reads");
        let Notice::Reply(reply) = reply else {
            panic!("not a reply: {reply:?}");
        };
        let Reply { id, rev, answer } = *reply;
        assert_eq!((id, rev), (7, 41));
        let Answer::Imported(Imported::Opened { format, design, .. }) = answer else {
            panic!("not opened: {answer:?}");
        };
        assert_eq!(
            format.parse::<keyplan_core::import::Format>(),
            Ok(keyplan_core::import::Format::Keyplan)
        );
        assert_eq!(*design, example());
        // A request from another build does not read: the reason comes back under its id.
        let refused: Notice = serde_json::from_str(
            &worker.answer_json(r#"{"id":9,"rev":1,"job":{"Frobnicate":{}}}"#),
        )
        .expect("reads");
        assert!(
            matches!(&refused, Notice::Reply(r) if r.id == 9 && matches!(&r.answer, Answer::Refused(e) if e.contains("Frobnicate"))),
            "{refused:?}"
        );
    }

    #[test]
    fn the_filtered_reads_measured_in_the_worker_give_the_cli_analysis() {
        let mut design = example();
        let pattern = design
            .patterns
            .iter_mut()
            .find(|p| p.name == "Get customer orders")
            .expect("the example's pattern");
        pattern.filter = vec![keyplan_core::model::FilterCondition::new(
            "status",
            keyplan_core::model::FilterOp::Eq,
        )];
        let Answer::Measured(reads) = Worker::default().answer(Job::Measure {
            design: design.clone(),
        }) else {
            panic!("not reads");
        };
        assert_eq!(reads.filter_reads.len(), 1, "{reads:?}");
        assert_eq!(
            keyplan_core::analysis::analyze_measured(&design, Some(&reads)),
            keyplan_core::analyze(&design)
        );
    }

    #[test]
    fn imports_say_what_was_read_or_why_not() {
        let mut worker = Worker::default();
        assert!(matches!(
            worker.answer(Job::Import { text: "hello".into() }),
            Answer::Imported(Imported::Error(e)) if e.starts_with("not a format keyplan reads")
        ));
        if !keyplan_core::import::READS_MODULES {
            assert_eq!(
                worker.answer(Job::Import {
                    text: "import { Entity } from 'electrodb';\nexport const a = 1;".into()
                }),
                Answer::Imported(Imported::Module)
            );
        }
    }

    #[test]
    fn a_file_too_large_is_refused_by_its_size() {
        assert_eq!(file_too_large(21e6), None);
        assert_eq!(file_too_large(MAX_FILE_BYTES), None);
        assert_eq!(
            file_too_large(1.5e9).as_deref(),
            Some("it is 1500 MB; the app opens files up to 256 MB")
        );
    }

    #[test]
    fn a_file_posted_beside_the_request_is_imported() {
        let mut worker = Worker::default();
        let request = serde_json::to_string(&Request {
            id: 3,
            rev: 0,
            job: Job::ImportFile,
        })
        .expect("writes");
        let imported = |reply: String| match serde_json::from_str::<Notice>(&reply) {
            Ok(Notice::Reply(reply)) => match reply.answer {
                Answer::Imported(imported) => imported,
                other => panic!("not an import: {other:?}"),
            },
            other => panic!("not a reply: {other:?}"),
        };
        let file = keyplan_core::file::to_string(&example());
        assert!(matches!(
            imported(worker.answer_json_with(&request, Some(Ok(file)))),
            Imported::Opened { design, .. } if *design == example()
        ));
        assert_eq!(
            imported(worker.answer_json_with(&request, Some(Err("NotReadableError".into())))),
            Imported::Error("the file could not be read: NotReadableError".into())
        );
        assert_eq!(
            imported(worker.answer_json(&request)),
            Imported::Error("no file came with the request".into())
        );
    }

    #[test]
    fn the_sample_is_generated_once_per_design() {
        let mut worker = Worker::default();
        let design = example();
        worker.loaded(design.clone());
        worker.loaded(design.clone());
        assert_eq!(worker.generated, 1, "the same design reuses its sample");
        // A card moved: the sample is kept, the design (an export writes the layout) is new.
        let mut moved = design.clone();
        let card = moved.entities[0].name.clone();
        moved
            .layout
            .insert(card, keyplan_core::Point { x: 999.0, y: 7.0 });
        worker.loaded(moved.clone());
        assert_eq!(worker.generated, 1, "a card move keeps the sample");
        assert_eq!(worker.loaded.as_ref().map(|l| &l.design), Some(&moved));
        let mut changed = moved;
        changed.name.push('!');
        worker.loaded(changed.clone());
        assert_eq!(worker.generated, 2, "another design has its own sample");
        assert_eq!(worker.loaded.as_ref().map(|l| &l.design), Some(&changed));
    }
}
