//! Coverage: for every access pattern, the operation and index that serve it, or why none can.
//!
//! IN PROGRESS: the verdict engine is being written; until it lands every read is reported as
//! a Scan with that reason.

use crate::analysis::{Operation, Verdict};
use crate::model::{Action, Design};

/// One verdict per pattern, in design order.
pub fn verdicts(design: &Design) -> Vec<Verdict> {
    design
        .patterns
        .iter()
        .map(|p| Verdict {
            pattern: p.name.clone(),
            operation: match p.action {
                Action::Read => Operation::Scan,
                Action::Put => Operation::PutItem,
                Action::Update => Operation::UpdateItem,
                Action::Delete => Operation::DeleteItem,
                Action::Transact => Operation::TransactWriteItems,
            },
            table: None,
            index: None,
            key_condition: None,
            query: None,
            scan_forward: true,
            shards: None,
            covered: !p.is_read(),
            reasons: vec!["coverage is not implemented yet".to_string()],
            suggestion: None,
        })
        .collect()
}
