//! Read patterns given as PartiQL statements, judged in the worker (issue 40): the main module
//! has no PartiQL parser (3.2 MB of wasm, not worth the first load), so its analysis cannot
//! judge such a pattern's statement. The worker's build has it (`partiql`, the feature the
//! worker is built with in `index.html`): [`Partiql`] answers each statement's verdict as
//! `keyplan check` gives it (a Query on the index the statement names, a Scan with the reason,
//! or, for one keyplan cannot map, a Scan whose first reason is KP033's, with KP033's reason
//! beside it), core's [`Statements`]. The store takes them into its analysis
//! ([`crate::store::Store::partiql_judged`]), so every verdict, the coverage line and the
//! findings shown are the statements'.

use keyplan_core::Design;
use keyplan_core::analysis::Statements;
use serde::{Deserialize, Serialize};

use super::{Job, Worker};

/// The verdicts of `design`'s reads given as PartiQL statements.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Partiql {
    pub design: Design,
}

impl Job for Partiql {
    /// `None` from a worker built without the parser: the main thread's verdict stands.
    type Answer = Option<Statements>;

    fn run(self, _: &mut Worker) -> Self::Answer {
        keyplan_core::analysis::statements::judge(&self.design)
    }
}

#[cfg(test)]
mod tests {
    use keyplan_core::AccessPattern;
    use keyplan_core::answer::Operation;

    use super::*;
    use crate::jobs::{Reply, Request, read_answer};

    /// The worker's answer, through JSON both ways as the page gets it, for the ecommerce
    /// example read by `statement`.
    fn judged(statement: &str) -> Option<Statements> {
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
            assert_eq!(judged.reads.len(), 1, "{judged:?}");
            judged.reads[0].clone()
        };
        let scan = one("SELECT * FROM \"shop\" WHERE total > ?");
        assert_eq!(scan.unmapped, None);
        let scan = scan.verdict;
        assert_eq!(scan.operation, Operation::Scan);
        assert!(
            scan.reasons[0].contains("partition key"),
            "{:?}",
            scan.reasons
        );
        let unmapped = one("SELECT * FROM \"shop\"\n  WHERE lower(status) = ?");
        assert_eq!(
            unmapped.unmapped.as_deref(),
            Some(
                "in WHERE at line 2, column 9: the function lower is no condition a read pattern can state (a comparison, BETWEEN, IN, begins_with, contains, IS [NOT] MISSING)"
            )
        );
        let unmapped = unmapped.verdict;
        assert_eq!(unmapped.operation, Operation::Scan);
        assert_eq!(
            unmapped.reasons[0],
            "keyplan cannot map the PartiQL statement in WHERE at line 2, column 9: the function lower is no condition a read pattern can state (a comparison, BETWEEN, IN, begins_with, contains, IS [NOT] MISSING)"
        );
        let query = one("SELECT * FROM \"shop\".\"GSI2\" WHERE GSI2PK = ?").verdict;
        assert_eq!(
            (query.operation, query.index.as_deref(), query.covered),
            (Operation::Query, Some("GSI2"), true)
        );
    }
}
