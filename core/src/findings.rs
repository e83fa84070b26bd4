//! Findings: what is wrong or risky in a design, each with a stable code, a severity and a path.
//!
//! IN PROGRESS: the checks are being written.

use crate::analysis::{Finding, Verdict};
use crate::model::Design;

/// Every finding for `design`, in design order.
pub fn findings(_design: &Design, _verdicts: &[Verdict]) -> Vec<Finding> {
    Vec::new()
}
