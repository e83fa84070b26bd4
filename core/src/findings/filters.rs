//! KP024 (issue 16): a read whose filter, on the sample, discards more than 90% of the items
//! its key condition reads. DynamoDB charges for every item read, so such a read pays ten
//! times for what it returns, and more as its partitions grow; the finding names the index that
//! would read only what is returned (one the design has, or the one to add).
//!
//! It judges reads measured on the default sample ([`super::measure`], which makes it only
//! when a covered read has a filter or a partition key concentrates traffic), and none past
//! [`MAX_ITEMS`] items.

use super::Findings;
use crate::answer::{Operation, Place, Severity, Verdict};
use crate::coverage::Prepared;
use crate::coverage::filter::{Narrowing, narrowing};
use crate::eval::{ItemStore, run_pattern};
use crate::model::AccessPattern;

/// The largest sample the check generates: beyond it, the design is left unchecked rather
/// than slow to analyse.
pub(crate) const MAX_ITEMS: u64 = 20_000;

/// The share of the items read a filter may discard before KP024 warns.
const MAX_DISCARDED: f64 = 0.9;

/// Reads fewer items than this on the sample tell too little to warn about.
const MIN_READ: usize = 10;

/// What a covered read with a filter reads and returns on the default sample: the measurement
/// KP024 judges. Measured apart from the judgement so the browser app measures in its worker
/// (the sample and the evaluator stay out of the module that paints) and judges on the main
/// thread with the rest of the analysis (issue 19).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FilterRead {
    /// The pattern's position in the design.
    pub pattern: usize,
    /// Items its key condition read.
    pub read: usize,
    /// Items the filter kept.
    pub returned: usize,
}

/// The covered reads with a filter, with their verdicts, in design order.
fn filtered<'d>(
    design: &'d crate::model::Design,
    verdicts: &'d [Verdict],
) -> impl Iterator<Item = (usize, &'d AccessPattern, &'d Verdict)> {
    // The verdicts are the patterns', in design order: paired, not looked up by name (a
    // design can have 50,000 patterns).
    design
        .patterns
        .iter()
        .zip(verdicts)
        .enumerate()
        .filter(|(_, (p, v))| !p.filter.is_empty() && v.operation == Operation::Query)
        .map(|(i, (p, v))| (i, p, v))
}

/// Whether `design` has a covered read with a filter for KP024 to measure.
pub(super) fn wants_reads(design: &crate::model::Design, verdicts: &[Verdict]) -> bool {
    filtered(design, verdicts).next().is_some()
}

/// Every covered read with a filter run on `store`, the default sample of `design`.
pub(super) fn reads_on(
    design: &crate::model::Design,
    verdicts: &[Verdict],
    store: &ItemStore,
) -> Vec<FilterRead> {
    filtered(design, verdicts)
        .filter_map(|(pattern, _, verdict)| {
            let run = run_pattern(design, store, verdict, None).ok()?;
            Some(FilterRead {
                pattern,
                read: run.result.scanned,
                returned: run.result.items.len(),
            })
        })
        .collect()
}

/// KP024 for every covered read with a filter, judged on `reads` (what
/// [`super::measure`] measured for this design and these verdicts).
pub(super) fn discarding(
    prepared: &Prepared<'_>,
    verdicts: &[Verdict],
    reads: &[FilterRead],
    out: &mut Findings,
) {
    let design = prepared.design;
    for measured in reads {
        let Some((pattern, verdict)) = design
            .patterns
            .get(measured.pattern)
            .zip(verdicts.get(measured.pattern))
        else {
            continue;
        };
        if pattern.filter.is_empty() || verdict.operation != Operation::Query {
            continue;
        }
        let (read, returned) = (measured.read, measured.returned);
        if read < MIN_READ {
            continue;
        }
        let discarded = read - returned.min(read);
        if (discarded as f64) <= MAX_DISCARDED * read as f64 {
            continue;
        }
        let keyed = |condition: &crate::model::FilterCondition| {
            let per_value = if condition.op == crate::model::FilterOp::In {
                " (one Query per value of its `in`)"
            } else {
                ""
            };
            format!(
                "with `{}` in the key instead of the filter{per_value}",
                condition.attribute
            )
        };
        let instead = match narrowing(prepared, pattern) {
            Some((condition, Narrowing::Existing { index })) => format!(
                "{}, {index} serves it reading only what it returns",
                keyed(&condition)
            ),
            Some((condition, Narrowing::Suggested(suggestion))) => {
                format!("{}, {suggestion}", keyed(&condition))
            }
            None => "no key applies its conditions (<>, contains and attribute_not_exists narrow no key): model the items it keeps as their own entity or partition".to_string(),
        };
        out.push(
            "KP024",
            Severity::Warning,
            Place::Pattern(pattern.name.clone()),
            format!(
                "on the sample, the filter of `{}` discards {discarded} of the {read} items it reads ({:.0}%), and every read pays for all of them: {instead}",
                pattern.name,
                discarded as f64 * 100.0 / read as f64
            ),
        );
    }
}
