//! keyplan's domain: DynamoDB single-table designs, their key templates, how each access
//! pattern is served, and what is wrong with a design.
//!
//! Core does no IO and knows nothing of Leptos, tokio or AWS: every function takes a design and
//! returns data, so the browser app and the server compute the same answers. It builds for
//! native targets and for wasm32.

pub mod accepts;
pub mod aggregate;
pub mod analysis;
pub mod answer;
pub mod api;
pub mod budget;
pub mod casing;
pub mod collab;
pub mod concentration;
pub mod cost;
pub mod counts;
pub mod coverage;
pub mod diff;
pub mod edit;
pub mod eval;
pub mod examples;
pub mod export;
mod fast_hash;
pub mod file;
pub mod findings;
#[doc(hidden)]
pub mod generated;
pub mod history;
pub mod import;
pub mod item;
pub mod json_budget;
pub mod limits;
pub mod migrate;
pub mod model;
pub mod number;
mod par;
pub mod partiql;
pub mod pricing;
pub mod sample;
pub mod share;
pub mod simulate;
pub mod size;
pub mod suggested;
pub mod synth;
pub mod template;
pub mod text;

pub use analysis::{
    Analysis, Finding, Fix, Operation, Place, Severity, Suggestion, SuggestionKind, Verdict,
    analyze,
};
pub use item::{AttributeValue, Item};
pub use model::*;
pub use template::KeyTemplate;
