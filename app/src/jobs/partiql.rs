//! Read patterns given as PartiQL statements, judged in the worker (issue 40): the main module
//! has no PartiQL parser (3.2 MB of wasm, not worth the first load), so its analysis judges such
//! a pattern by its structured fields. The worker's build has it (`partiql`, the feature the
//! worker is built with in `index.html`): [`Partiql`] answers each statement's verdict as
//! `keyplan check` gives it: a Query on the index the statement names, a Scan with the reason,
//! or, for one keyplan cannot map, a Scan whose first reason is KP033's (the clause, the line
//! and the column). The inspector and the pattern list show it in place of the main thread's
//! ([`crate::store::Store::verdict`]).

use keyplan_core::{Design, Verdict};
use serde::{Deserialize, Serialize};

use super::{Job, Worker};

/// The verdicts of `design`'s reads given as PartiQL statements.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Partiql {
    pub design: Design,
}

/// One read's statement and its verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    /// The statement judged.
    pub statement: String,
    pub verdict: Verdict,
}

impl Job for Partiql {
    /// `None` from a worker built without the parser: the main thread's verdict stands.
    type Answer = Option<Vec<Judged>>;

    fn run(self, _: &mut Worker) -> Self::Answer {
        if !keyplan_core::partiql::READS_PARTIQL {
            return None;
        }
        let verdicts = keyplan_core::analysis::verdicts(&self.design);
        Some(
            self.design
                .patterns
                .iter()
                .zip(verdicts)
                .filter_map(|(pattern, verdict)| {
                    let statement = pattern.partiql.clone()?;
                    pattern.is_read().then_some(Judged { statement, verdict })
                })
                .collect(),
        )
    }
}

/// Whether `design` has a read given as a statement: the worker is asked only then.
pub fn states_any(design: &Design) -> bool {
    design
        .patterns
        .iter()
        .any(|p| p.partiql.is_some() && p.is_read())
}

#[cfg(test)]
mod tests {
    use keyplan_core::AccessPattern;
    use keyplan_core::answer::Operation;

    use super::*;
    use crate::jobs::{Reply, Request, read_answer};

    /// The worker's answer, through JSON both ways as the page gets it, for the ecommerce
    /// example read by `statement`.
    fn judged(statement: &str) -> Option<Vec<Judged>> {
        let mut design = keyplan_core::examples::get("ecommerce-orders").expect("the example");
        let mut pattern = AccessPattern::read("by statement", &["Order"], &[]);
        pattern.partiql = Some(statement.to_string());
        design.patterns.push(pattern);
        let request = serde_json::to_string(&Request {
            id: 1,
            rev: 4,
            job: Partiql { design }.into(),
        })
        .expect("writes");
        let reply: Reply = Worker::default().answer_json(&request);
        assert_eq!(reply.rev, 4);
        read_answer::<Partiql>(&reply.answer).expect("the answer reads")
    }

    #[test]
    fn the_worker_judges_each_statement_as_the_cli_does() {
        if !keyplan_core::partiql::READS_PARTIQL {
            // Without the parser (the main module's build) the worker says nothing.
            assert_eq!(judged("SELECT * FROM \"shop\""), None);
            return;
        }
        let one = |statement: &str| {
            let judged = judged(statement).expect("judged");
            assert_eq!(judged.len(), 1, "{judged:?}");
            assert_eq!(judged[0].statement, statement);
            judged[0].verdict.clone()
        };
        let scan = one("SELECT * FROM \"shop\" WHERE total > ?");
        assert_eq!(scan.operation, Operation::Scan);
        assert!(
            scan.reasons[0].contains("partition key"),
            "{:?}",
            scan.reasons
        );
        let unmapped = one("SELECT * FROM \"shop\"\n  WHERE lower(status) = ?");
        assert_eq!(unmapped.operation, Operation::Scan);
        assert_eq!(
            unmapped.reasons[0],
            "keyplan cannot map the PartiQL statement in WHERE at line 2, column 9: the function lower is no condition a read pattern can state (a comparison, BETWEEN, IN, begins_with, contains, IS [NOT] MISSING)"
        );
        let query = one("SELECT * FROM \"shop\".\"GSI2\" WHERE GSI2PK = ?");
        assert_eq!(
            (query.operation, query.index.as_deref(), query.covered),
            (Operation::Query, Some("GSI2"), true)
        );
    }
}
