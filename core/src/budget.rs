//! What one run, migration verification or engine import may ask of an engine, checked before
//! anything is planned or made (issues 13 and 41): the sample's items (every entity's, with
//! defaults and children counted), the tables it creates or reads, and the GSIs of each table
//! it creates. Every path that touches an engine calls one of these: `keyplan run`, `keyplan
//! migrate --verify` and `keyplan import --table`, and their routes `POST /api/runs`, `POST
//! /api/migrate/verify` and `POST /api/import/engine`.
//!
//! DynamoDB's limits and their sources live in [`crate::limits`], keyplan's own here; the sample's count is
//! [`crate::sample::plan`]'s. Nothing here allocates per item or per table, so a hostile
//! design is refused in time proportional to its size.

use crate::limits::MAX_GSIS;
use crate::model::Design;
use crate::sample::{SampleConfig, TooManyItems, thousands};

/// Tables one run, migration verification or engine import of keyplan's works on (issue 41:
/// one 211 KB request created 2,002 tables). A single-table design has one to a few (the
/// examples and the corpus have at most 3), and a verification creates OLD's tables and NEW's
/// beside them. At the 16 runs `keyplan serve` lets go at once, that is 400 tables, a sixth of
/// [`MAX_TABLES_PER_REGION`](crate::limits::MAX_TABLES_PER_REGION), so runs on Amazon DynamoDB leave the account's own tables their
/// room; and the embedded engine creates 25 tables of [`MAX_GSIS`] GSIs each in
/// a few seconds (202 tables of 25 GSIs stalled it).
pub const MAX_TABLES_PER_RUN: usize = 25;

/// Why a run, verification or import is refused before it starts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OverBudget {
    /// The sample is larger than allowed.
    #[error(transparent)]
    Items(#[from] TooManyItems),
    /// More tables than [`MAX_TABLES_PER_RUN`].
    #[error(
        "{what} would {verb} {tables} tables, more than the {max} keyplan {verb}s at once: {hint}",
        tables = thousands(*tables as u64)
    )]
    Tables {
        /// `the run`, `the verification`, `the import`.
        what: &'static str,
        /// `create`, `read`.
        verb: &'static str,
        tables: usize,
        max: usize,
        /// What to do instead.
        hint: &'static str,
    },
    /// A table with more GSIs than DynamoDB's default quota.
    #[error(
        "{which}table `{table}` has {gsis} GSIs, more than the {max} DynamoDB allows a table by default: a run creates none past it"
    )]
    Gsis {
        /// `the old design's `, `the new design's ` or nothing.
        which: &'static str,
        table: String,
        gsis: usize,
        max: usize,
    },
    /// An engine import that could read more items than allowed.
    #[error(
        "reading up to {sample} items from each of {tables} tables could hold {items} items, more than the {max} allowed: read fewer tables or a smaller sample",
        sample = thousands(*sample),
        items = thousands(*items),
        max = thousands(*max)
    )]
    ImportItems {
        tables: usize,
        sample: u64,
        items: u64,
        max: u64,
    },
}

/// A run of `design` on the sample `sample` configures: its tables, their GSIs, and at most
/// `max_items` sample items.
pub fn run(design: &Design, sample: &SampleConfig, max_items: u64) -> Result<(), OverBudget> {
    tables(
        ("the run", "create"),
        design.tables.len(),
        "a run creates every table of the design; split it into designs of fewer tables",
    )?;
    gsis(design, "")?;
    crate::sample::plan(design, sample).check(max_items)?;
    Ok(())
}

/// A verification of the migration from `old` to `new`: OLD's tables and NEW's beside them
/// (each of NEW's may be new or rebuilt), the GSIs of both, and at most `max_items` items of
/// OLD's sample, which it loads.
pub fn verify(
    old: &Design,
    new: &Design,
    sample: &SampleConfig,
    max_items: u64,
) -> Result<(), OverBudget> {
    tables(
        ("the verification", "create"),
        old.tables.len().saturating_add(new.tables.len()),
        "a verification creates the old design's tables and may create each of the new one's; verify the change of fewer tables at a time",
    )?;
    gsis(old, "the old design's ")?;
    gsis(new, "the new design's ")?;
    crate::sample::plan(old, sample).check(max_items)?;
    Ok(())
}

/// An engine import of `n_tables` tables of at most `sample` items each, holding at most
/// `max_items` items.
pub fn import(n_tables: usize, sample: u64, max_items: u64) -> Result<(), OverBudget> {
    tables(
        ("the import", "read"),
        n_tables,
        "name fewer tables to import",
    )?;
    let items = sample.saturating_mul(n_tables as u64);
    if items > max_items {
        return Err(OverBudget::ImportItems {
            tables: n_tables,
            sample,
            items,
            max: max_items,
        });
    }
    Ok(())
}

/// `tables` within [`MAX_TABLES_PER_RUN`]; `(what, verb)` and `hint` say who would do what.
fn tables(
    (what, verb): (&'static str, &'static str),
    tables: usize,
    hint: &'static str,
) -> Result<(), OverBudget> {
    if tables > MAX_TABLES_PER_RUN {
        return Err(OverBudget::Tables {
            what,
            verb,
            tables,
            max: MAX_TABLES_PER_RUN,
            hint,
        });
    }
    Ok(())
}

fn gsis(design: &Design, which: &'static str) -> Result<(), OverBudget> {
    match design.tables.iter().find(|t| t.gsis.len() > MAX_GSIS) {
        Some(table) => Err(OverBudget::Gsis {
            which,
            table: table.name.clone(),
            gsis: table.gsis.len(),
            max: MAX_GSIS,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
