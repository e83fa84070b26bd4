//! A read pattern served by a Scan, run over the sample as DynamoDB runs one ([`scan_pattern`]):
//! every item of the table read in its order, page by page (a page ends after the item that
//! takes it to 1 MB, or at the pattern's Limit, which then ends the read), the FilterExpression
//! applied to each item after the read, so what was read (the ScannedCount, and the units) and
//! what was returned differ by what the filter dropped.

use std::collections::BTreeMap;

use super::filter::{self, FilterTest};
use super::inputs::pick_inputs_by;
use super::plan::{PlanError, filter_tests};
use super::query::{Merged, Page, QueryError, describe_filter};
use super::run::PatternRun;
use super::store::ItemStore;
use crate::accepts;
use crate::answer::{Operation, Verdict};
use crate::model::{AttrType, Design};
use crate::size::{Consistency, read_units};

/// Runs the Scan that serves `verdict`'s pattern with `inputs` (or, when `None`, inputs picked
/// from the stored items as a Query's are): the items its filter keeps, and how many it read.
pub fn scan_pattern(
    design: &Design,
    store: &ItemStore,
    verdict: &Verdict,
    inputs: Option<BTreeMap<String, String>>,
) -> Result<PatternRun, PlanError> {
    if verdict.operation != Operation::Scan {
        return Err(PlanError::NotAScan(
            verdict.pattern.clone(),
            verdict.operation.as_str(),
        ));
    }
    let incomplete = || PlanError::Incomplete(verdict.pattern.clone());
    let pattern = design.pattern(&verdict.pattern).ok_or_else(incomplete)?;
    let table = verdict.table.as_deref().ok_or_else(incomplete)?;
    let inputs = match inputs {
        Some(inputs) => inputs,
        None => pick_inputs_by(&|name| design.entity(name), store, verdict, pattern)?,
    };
    let filter = filter_tests(design, verdict, pattern, &inputs)?;
    let result = store.scan(table, &filter, pattern.page_size, pattern.consistent)?;
    Ok(PatternRun {
        pattern: verdict.pattern.clone(),
        operation: Operation::Scan,
        inputs,
        conditions: Vec::new(),
        filter: Some(describe_filter(&filter)).filter(|f| !f.is_empty()),
        result,
    })
}

impl ItemStore {
    /// A Scan of `table` with the FilterExpression `filter`: with a Limit, its first page (at
    /// most `limit` items read); without one, every page until the table is read. Each page
    /// ends after the item that takes it to 1 MB, as DynamoDB's does.
    pub fn scan(
        &self,
        table: &str,
        filter: &[FilterTest],
        limit: Option<u32>,
        consistent: bool,
    ) -> Result<Merged, QueryError> {
        let table = self
            .table(table)
            .ok_or_else(|| QueryError::NoTable(table.to_string()))?;
        if limit == Some(0) {
            return Err(QueryError::ZeroLimit);
        }
        for test in filter {
            for value in &test.values {
                accepts::filter_condition(&test.attribute, AttrType::of(value), test.op)?;
            }
        }
        let consistency = if consistent {
            Consistency::Strong
        } else {
            Consistency::Eventual
        };
        let per_page = limit.map_or(usize::MAX, |l| l as usize);
        let mut pages: Vec<Page> = Vec::new();
        let mut page = Page::empty();
        for stored in table.items() {
            if page.scanned >= per_page || page.bytes_read >= crate::limits::MAX_PAGE_BYTES {
                pages.push(std::mem::replace(&mut page, Page::empty()));
                if limit.is_some() {
                    break;
                }
            }
            if filter::matches_all(filter, &stored.item) {
                page.items.push(stored.item.clone());
                page.entities.push(stored.entity.clone());
            }
            page.scanned += 1;
            page.bytes_read += stored.size;
        }
        if page.scanned > 0 || pages.is_empty() {
            pages.push(page);
        }
        let mut merged = Merged {
            items: Vec::new(),
            entities: Vec::new(),
            pages: Vec::with_capacity(pages.len()),
            bytes_read: 0,
            read_units: 0.0,
            scanned: 0,
        };
        for mut page in pages {
            page.read_units = read_units(page.bytes_read, consistency);
            merged.items.extend(page.items.iter().cloned());
            merged.entities.extend(page.entities.iter().cloned());
            merged.bytes_read += page.bytes_read;
            merged.read_units += page.read_units;
            merged.scanned += page.scanned;
            merged.pages.push(page);
        }
        Ok(merged)
    }
}

#[cfg(test)]
mod tests;
