//! The work the app hands to its worker (issue 19): exports, imports, the sample and what is
//! evaluated on it (the data view, the cost view), the migration plan and its programs, the
//! verdicts of reads given as PartiQL statements ([`partiql`]). The
//! main thread keeps the store, the editor, the canvas and `analyze()`; everything here runs in
//! the second WebAssembly module (`src/bin/keyplan-worker.rs`), so none of it is in the module
//! the first paint waits for, and none of it blocks a frame.
//!
//! The messages are plain data, JSON both ways: a [`Request`] carries the design revision it
//! was asked for, and its [`Reply`] carries it back, so the main thread drops an answer computed
//! for a design that has changed since ([`crate::compute`]). Each kind of job is a type that
//! names its answer's type ([`Job::Answer`]): the main thread reads a reply as the answer to the
//! job it sent, once, and a view can only be given the kind of answer it asked for (issue 42).
//! Each answer is what a view shows,
//! already in words and figures (the pages in [`data`], [`cost`] and [`migrate`]): the views
//! render it and decide nothing.
//!
//! [`Worker`] is the worker's state (the sample of the last design asked about, kept for the
//! next question about the same design) and [`Worker::answer`] its whole work: pure, and tested
//! natively like the rest of core.

pub mod cost;
pub mod data;
pub mod migrate;
pub mod partiql;
pub mod suggest;

use keyplan_core::Design;
use keyplan_core::eval::ItemStore;
use keyplan_core::import::ImportError;
use keyplan_core::sample::{MAX_SAMPLE_ITEMS, SampleConfig, generate_within};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsCast;

pub use partiql::Partiql;
pub use suggest::Suggest;

/// A job for the worker. Each names its answer: a caller asks with the job and gets
/// `Self::Answer`, read from the worker's JSON once, as that type (issue 42), so no caller
/// matches on an answer it cannot get. The worker does it with [`Job::run`].
pub trait Job: Serialize + Into<AnyJob> + 'static {
    /// What the worker answers.
    type Answer: Serialize + DeserializeOwned + 'static;

    /// Does the job, with the worker's state.
    fn run(self, worker: &mut Worker) -> Self::Answer;
}

/// Every kind of job, one list: the request's wire enum, how a job goes into it, and how the
/// worker answers each as JSON.
macro_rules! jobs {
    ($($job:ident,)*) => {
        /// A request's job as the wire carries it (`{"Export": {...}}`): the worker reads it
        /// without knowing beforehand which job comes.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        pub enum AnyJob {
            $($job($job),)*
        }

        $(
            impl From<$job> for AnyJob {
                fn from(job: $job) -> AnyJob {
                    AnyJob::$job(job)
                }
            }
        )*

        impl AnyJob {
            /// Does the job and writes its answer ([`read_answer`] reads it).
            fn answer_json(self, worker: &mut Worker) -> String {
                match self {
                    $(AnyJob::$job(job) => answer_json(&Ok::<_, String>(job.run(worker))),)*
                }
            }
        }
    };
}

jobs! {
    Export,
    Import,
    ImportFile,
    Data,
    Cost,
    Migrate,
    Measure,
    Program,
    Suggest,
    Partiql,
}

/// One of core's export formats, by its `--to` name: the text, or why there is none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Export {
    pub design: Design,
    pub target: String,
}

impl Job for Export {
    type Answer = Result<String, String>;

    fn run(self, _: &mut Worker) -> Result<String, String> {
        let target = self
            .target
            .parse::<keyplan_core::export::Target>()
            .map_err(|e| e.to_string())?;
        keyplan_core::export::export(&self.design, target).map_err(|e| e.to_string())
    }
}

/// A file's text, in whichever format core detects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Import {
    pub text: String,
}

impl Job for Import {
    type Answer = Imported;

    fn run(self, _: &mut Worker) -> Imported {
        import(&self.text)
    }
}

/// [`Import`] of the file posted beside the request (a `File` the worker reads itself, so the
/// page never copies a large file's text: issue 19); [`Worker::answer_request`] reads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImportFile;

impl Job for ImportFile {
    type Answer = Imported;

    /// Without its file: [`Worker::answer_request`] imports the file that came with it.
    fn run(self, _: &mut Worker) -> Imported {
        Imported::Error("no file came with the request".to_string())
    }
}

/// The data view: the sample of `design` by table and index, the index `index` shown (table,
/// index name; the first when `None`), its first `shown` items, and the pattern `pattern`
/// evaluated on the sample.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Data {
    pub design: Design,
    pub pattern: Option<String>,
    pub index: Option<(String, Option<String>)>,
    pub shown: usize,
}

impl Job for Data {
    type Answer = data::DataPage;

    fn run(self, worker: &mut Worker) -> data::DataPage {
        let loaded = worker.loaded(self.design);
        data::page(loaded, self.pattern.as_deref(), self.index, self.shown)
    }
}

/// The cost view at the prices of `region`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    pub design: Design,
    pub region: String,
}

impl Job for Cost {
    type Answer = cost::CostPage;

    fn run(self, worker: &mut Worker) -> cost::CostPage {
        cost::page(worker.loaded(self.design), &self.region)
    }
}

/// What changed from `old` (the deployed baseline) to `new`, and the migration plan at
/// `max_wcu` write units a second (the item counts are the entities' volumes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Migrate {
    pub old: Design,
    pub new: Design,
    pub max_wcu: f64,
}

impl Job for Migrate {
    type Answer = migrate::MigratePage;

    fn run(self, _: &mut Worker) -> migrate::MigratePage {
        migrate::page(&self.old, &self.new, self.max_wcu)
    }
}

/// What the findings read from the sample: each covered read with a filter (KP024's input),
/// the partition loads (KP014's) and item sizes (KP029's), judged with the rest of the analysis
/// on the main thread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measure {
    pub design: Design,
}

impl Job for Measure {
    type Answer = keyplan_core::findings::Measured;

    fn run(self, _: &mut Worker) -> Self::Answer {
        keyplan_core::findings::measure(
            &self.design,
            &keyplan_core::analysis::verdicts(&self.design),
        )
    }
}

/// The migration plan as a program in `language` (`typescript` or `python`), or why there is
/// none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Program {
    pub old: Design,
    pub new: Design,
    pub max_wcu: f64,
    pub language: String,
}

impl Job for Program {
    type Answer = Result<String, String>;

    fn run(self, _: &mut Worker) -> Result<String, String> {
        migrate::program(&self.old, &self.new, self.max_wcu, &self.language)
    }
}

/// What the main thread asks, with the revision of the design it was asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub id: u64,
    pub rev: u64,
    pub job: AnyJob,
}

/// The worker's answer to the request `id`, for design revision `rev`: `answer` is the JSON
/// of the job's `Result<Answer, String>` (`Err`: the request could not be read, as from a main
/// module of another build), which [`read_answer`] reads as the job asked. The worker posts
/// the three as they are, so the main thread finds the request by its id without reading the
/// answer, and reads the answer once.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub id: u64,
    pub rev: u64,
    pub answer: String,
}

impl Reply {
    /// The reply as the worker posts it: `[id, rev, answer]`, the numbers as JavaScript's.
    pub fn to_js(&self) -> wasm_bindgen::JsValue {
        // Ids and revisions count up from 1: far below 2^53, exact as a JavaScript number.
        js_sys::Array::of3(
            &(self.id as f64).into(),
            &(self.rev as f64).into(),
            &self.answer.as_str().into(),
        )
        .into()
    }

    /// A reply posted by [`Reply::to_js`]; `None` for anything else.
    pub fn from_js(posted: &wasm_bindgen::JsValue) -> Option<Reply> {
        let parts = posted.dyn_ref::<js_sys::Array>()?;
        let number = |at: u32| {
            parts
                .get(at)
                .as_f64()
                .filter(|n| n.fract() == 0.0 && (0.0..9.0e15).contains(n))
                .map(|n| n as u64)
        };
        Some(Reply {
            id: number(0)?,
            rev: number(1)?,
            answer: parts.get(2).as_string()?,
        })
    }
}

/// What the worker posts besides replies, as JSON text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Notice {
    /// The module has loaded and listens.
    Ready,
    /// A panic's message, posted by the panic hook just before the module stops.
    Panicked(String),
    /// How far the job of request `id` is, as the JSON of its progress (a
    /// `keyplan_core::synth::Progress` for a [`Suggest`]), read by whoever asked.
    Progress { id: u64, progress: String },
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

/// Where a job's progress goes: the worker's entry posts each [`Notice`] it is given.
pub type Reporter = Box<dyn FnMut(&str)>;

/// The worker's state between requests.
#[derive(Default)]
pub struct Worker {
    /// The sample of the last design the data or cost view asked about: "Show more", another
    /// index or another Region reuse it instead of generating it again.
    loaded: Option<Loaded>,
    /// How many samples were generated (what the reuse above saves; tested).
    generated: u64,
    /// Where the progress of a long job goes, as [`Notice::Progress`] JSON; nowhere unless set.
    reporter: Option<Reporter>,
    /// The id of the request being answered, which its progress carries.
    answering: u64,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker")
            .field("loaded", &self.loaded)
            .field("generated", &self.generated)
            .field("reporter", &self.reporter.is_some())
            .field("answering", &self.answering)
            .finish()
    }
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

    /// Sends the progress of the jobs answered from now on to `reporter`, as the JSON of a
    /// [`Notice::Progress`].
    pub fn set_reporter(&mut self, reporter: Reporter) {
        self.reporter = Some(reporter);
    }

    /// Reports the progress of the request being answered.
    pub fn report<P: Serialize>(&mut self, progress: &P) {
        let Some(reporter) = self.reporter.as_mut() else {
            return;
        };
        // A progress that does not write is left out: the answer still comes.
        if let Ok(progress) = serde_json::to_string(progress) {
            reporter(&notice_json(&Notice::Progress {
                id: self.answering,
                progress,
            }));
        }
    }

    /// Does `job`.
    pub fn answer<J: Job>(&mut self, job: J) -> J::Answer {
        job.run(self)
    }

    /// Reads a request's JSON and does its job. A request that does not read is answered
    /// why (under id 0 when not even that reads).
    pub fn answer_json(&mut self, text: &str) -> Reply {
        self.answer_request(text, None)
    }

    /// [`Worker::answer_json`] for a request posted with a file: `file` is its text, or why it
    /// could not be read; an [`ImportFile`] imports it.
    pub fn answer_request(&mut self, text: &str, file: Option<Result<String, String>>) -> Reply {
        match serde_json::from_str::<Request>(text) {
            Ok(Request { id, rev, job }) => {
                self.answering = id;
                Reply {
                    id,
                    rev,
                    answer: match (job, file) {
                        (AnyJob::ImportFile(_), Some(Ok(text))) => {
                            AnyJob::from(Import { text }).answer_json(self)
                        }
                        (AnyJob::ImportFile(_), Some(Err(e))) => answer_json(&Ok::<_, String>(
                            Imported::Error(format!("the file could not be read: {e}")),
                        )),
                        (job, _) => job.answer_json(self),
                    },
                }
            }
            Err(e) => Reply {
                id: serde_json::from_str::<serde_json::Value>(text)
                    .ok()
                    .and_then(|v| v.get("id").and_then(serde_json::Value::as_u64))
                    .unwrap_or(0),
                rev: 0,
                answer: answer_json(&Err::<(), _>(format!(
                    "the worker could not read the request: {e}"
                ))),
            },
        }
    }
}

/// An answer as the JSON [`read_answer`] reads.
fn answer_json<A: Serialize, E: Serialize>(answer: &Result<A, E>) -> String {
    serde_json::to_string(answer).unwrap_or_else(|e| {
        let why = format!("the worker could not write its answer: {e}");
        serde_json::to_string(&Err::<(), _>(why)).unwrap_or_default()
    })
}

/// The answer to a `J` in the JSON the worker wrote ([`Reply::answer`]), or why there is none:
/// read once, as `J`'s answer (issue 42).
pub fn read_answer<J: Job>(text: &str) -> Result<J::Answer, String> {
    match serde_json::from_str::<Result<J::Answer, String>>(text) {
        Ok(answer) => answer,
        Err(e) => Err(format!("the worker's answer did not read: {e}")),
    }
}

/// A notice as the JSON the main thread reads.
pub fn notice_json(notice: &Notice) -> String {
    serde_json::to_string(notice).unwrap_or_else(|e| {
        format!(r#"{{"Panicked":"the worker could not write its notice: {e}"}}"#)
    })
}

/// Reads a file's text in whichever format it is in.
fn import(text: &str) -> Imported {
    match keyplan_core::import::detect_and_import_as(text) {
        Ok((format, imported)) => Imported::Opened {
            format: format.as_str().to_string(),
            summary: imported.summary(format),
            design: Box::new(imported.design),
            notes: keyplan_core::import::assumed::told(&imported.notes, &imported.assumed),
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
        hand_items,
    } = a;
    *version == b.version
        && *name == b.name
        && *description == b.description
        && *tables == b.tables
        && *entities == b.entities
        && *patterns == b.patterns
        && *samples == b.samples
        && *hand_items == b.hand_items
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
            let answer = worker.answer(Export {
                design: design.clone(),
                target: target.name().to_string(),
            });
            let expected = keyplan_core::export::export(&design, target).map_err(|e| e.to_string());
            assert_eq!(answer, expected, "{}", target.name());
        }
        assert!(matches!(
            worker.answer(Export { design, target: "nope".into() }),
            Err(e) if e.contains("nope")
        ));
    }

    #[test]
    fn a_request_goes_through_json_and_keeps_its_id_and_revision() {
        let mut worker = Worker::default();
        let request = Request {
            id: 7,
            rev: 41,
            job: Import {
                text: keyplan_core::file::to_string(&example()),
            }
            .into(),
        };
        let Reply { id, rev, answer } =
            worker.answer_json(&serde_json::to_string(&request).expect("writes"));
        assert_eq!((id, rev), (7, 41));
        let Ok(Imported::Opened { format, design, .. }) = read_answer::<Import>(&answer) else {
            panic!("not opened: {answer}");
        };
        assert_eq!(
            format.parse::<keyplan_core::import::Format>(),
            Ok(keyplan_core::import::Format::Keyplan)
        );
        assert_eq!(*design, example());
        // A request from another build does not read: the reason comes back under its id.
        let refused = worker.answer_json(r#"{"id":9,"rev":1,"job":{"Frobnicate":{}}}"#);
        assert_eq!(refused.id, 9);
        assert!(
            matches!(read_answer::<Import>(&refused.answer), Err(e) if e.contains("Frobnicate")),
            "{refused:?}"
        );
    }

    // issue 42: an answer is read as the answer of the job it was asked for, and one that is
    // not of that kind (a worker of another build) says so instead of reading as anything.
    #[test]
    fn an_answer_reads_only_as_the_answer_of_its_job() {
        let mut worker = Worker::default();
        let request = Request {
            id: 1,
            rev: 2,
            job: Cost {
                design: example(),
                region: "us-east-1".into(),
            }
            .into(),
        };
        let reply = worker.answer_json(&serde_json::to_string(&request).expect("writes"));
        let page = read_answer::<Cost>(&reply.answer).expect("a cost page");
        assert!(page.total.starts_with('$'), "{}", page.total);
        assert!(
            matches!(read_answer::<Data>(&reply.answer), Err(e) if e.starts_with("the worker's answer did not read")),
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
        let reads = Worker::default().answer(Measure {
            design: design.clone(),
        });
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
            worker.answer(Import { text: "hello".into() }),
            Imported::Error(e) if e.starts_with("not a format keyplan reads")
        ));
        if !keyplan_core::import::READS_MODULES {
            assert_eq!(
                worker.answer(Import {
                    text: "import { Entity } from 'electrodb';\nexport const a = 1;".into()
                }),
                Imported::Module
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
            job: ImportFile.into(),
        })
        .expect("writes");
        let imported =
            |reply: Reply| read_answer::<ImportFile>(&reply.answer).expect("an import's answer");
        let file = keyplan_core::file::to_string(&example());
        assert!(matches!(
            imported(worker.answer_request(&request, Some(Ok(file)))),
            Imported::Opened { design, .. } if *design == example()
        ));
        assert_eq!(
            imported(worker.answer_request(&request, Some(Err("NotReadableError".into())))),
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
