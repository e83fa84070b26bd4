//! "Suggest keys" in the worker (issue 37): core's synthesis (`keyplan_core::synth::propose`)
//! run on the design as it is, its progress posted as it goes, and each proposal written out as
//! the Suggest dialog shows it: its figures, every pattern's verdict and the reasons in core's
//! words, and what applying it changes, as `keyplan diff` prints it. The dialog decides nothing;
//! its Apply adopts the proposal's design ([`keyplan_core::synth::adopt::adopt`]).

use keyplan_core::Design;
use keyplan_core::diff::{Resolution, diff};
use keyplan_core::pricing::dollars;
use keyplan_core::synth::{Control, Options, Progress, Proposal, Synthesis};
use serde::{Deserialize, Serialize};

use super::{Job, Worker};

/// The most proposals the dialog shows side by side.
pub const MAX_ALTERNATIVES: usize = 5;

/// The largest search budget the dialog offers, in nodes: a search the worker may be left to
/// finish (the dialog's Cancel stops it sooner).
pub const MAX_BUDGET: u64 = 20_000_000;

/// Proposals for `design`'s patterns, by `options`; the progress is posted as
/// [`Progress`], read by the dialog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Suggest {
    pub design: Design,
    pub options: Options,
}

/// What the dialog shows of a synthesis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuggestPage {
    /// How close the cheapest is to optimal, in a sentence.
    pub summary: String,
    /// Cheapest first.
    pub proposals: Vec<ProposalCard>,
}

/// One proposal as a column of the dialog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProposalCard {
    /// What Apply adopts.
    pub design: Design,
    /// `$12.34 a month`.
    pub cost: String,
    pub indexes: usize,
    /// `7 of 7 reads served by GetItem or Query`.
    pub served: String,
    pub all_served: bool,
    /// Every pattern's verdict in the proposal, in the words `keyplan check` uses.
    pub verdicts: Vec<PatternVerdict>,
    /// One line of why per table key, index and shard count.
    pub reasons: Vec<String>,
    /// The reads no design can serve, and why.
    pub unserved: Vec<String>,
    /// What applying it changes, a line each, as `keyplan diff` prints it.
    pub changes: Vec<String>,
}

/// A pattern and how the proposal serves it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatternVerdict {
    pub pattern: String,
    /// `Query on GSI1 (GSI1PK = :pk)`.
    pub words: String,
    pub covered: bool,
}

impl Job for Suggest {
    type Answer = Result<SuggestPage, String>;

    fn run(self, worker: &mut Worker) -> Result<SuggestPage, String> {
        check_options(&self.options)?;
        // A progress message every hundredth of the budget, and whenever the best or the bound
        // moves: enough for a bar, few enough not to flood the page.
        let step = (self.options.budget / 100).max(1);
        let mut posted: Option<Progress> = None;
        let synthesis = keyplan_core::synth::propose(&self.design, &self.options, &mut |p| {
            let worth = posted.as_ref().is_none_or(|last| {
                last.best != p.best || last.bound != p.bound || p.explored >= last.explored + step
            });
            if worth {
                worker.report(p);
                posted = Some(p.clone());
            }
            Control::Continue
        })
        .map_err(|e| e.to_string())?;
        // Where the search ended, from the answer's own figures: a search shorter than the
        // solver's reporting step posted nothing on the way.
        worker.report(&Progress {
            explored: synthesis.explored,
            budget: self.options.budget,
            best: synthesis.proposals.first().map(|p| p.monthly_cost),
            bound: synthesis.lower_bound,
        });
        Ok(page(&self.design, &synthesis))
    }
}

/// Why `options` are not asked of the worker, before any work.
fn check_options(options: &Options) -> Result<(), String> {
    let max_gsis = keyplan_core::limits::MAX_GSIS as u32;
    if options.max_gsis > max_gsis {
        return Err(format!(
            "max GSIs is {}: DynamoDB's default quota is {max_gsis} per table",
            options.max_gsis
        ));
    }
    if !(1..=MAX_ALTERNATIVES).contains(&options.alternatives) {
        return Err(format!(
            "{} alternatives asked: from 1 to {MAX_ALTERNATIVES}",
            options.alternatives
        ));
    }
    if !(1..=MAX_BUDGET).contains(&options.budget) {
        return Err(format!(
            "a search budget of {} nodes: from 1 to {MAX_BUDGET}",
            options.budget
        ));
    }
    Ok(())
}

/// The dialog's page of `synthesis`, computed for `current`.
pub fn page(current: &Design, synthesis: &Synthesis) -> SuggestPage {
    SuggestPage {
        summary: summary(synthesis),
        proposals: synthesis
            .proposals
            .iter()
            .map(|p| card(current, p))
            .collect(),
    }
}

/// `Proven optimal after 1,204 nodes.` or how far from it the search stopped.
fn summary(synthesis: &Synthesis) -> String {
    let nodes = format!("{} nodes", synthesis.explored);
    if synthesis.optimal {
        return format!("Proven the cheapest by keyplan's cost model ({nodes} explored).");
    }
    let why = if synthesis.stopped {
        "the search stopped at its budget"
    } else {
        "the search ended"
    };
    format!(
        "Not proven optimal: {why} after {nodes}; no design costs less than {} a month (gap {:.1}%).",
        dollars(synthesis.lower_bound, 2),
        synthesis.gap_percent
    )
}

fn card(current: &Design, proposal: &Proposal) -> ProposalCard {
    let verdicts = keyplan_core::coverage::verdicts(&proposal.design)
        .iter()
        .map(|v| {
            let resolution = Resolution::of(v);
            PatternVerdict {
                pattern: v.pattern.clone(),
                words: resolution.words(),
                covered: v.covered,
            }
        })
        .collect();
    let changes = diff(current, &proposal.design)
        .text()
        .lines()
        .map(str::to_string)
        .collect();
    ProposalCard {
        design: proposal.design.clone(),
        cost: format!("{} a month", dollars(proposal.monthly_cost, 2)),
        indexes: proposal.indexes,
        served: format!(
            "{} of {} reads served by GetItem or Query",
            proposal.reads_served, proposal.reads
        ),
        all_served: proposal.reads_served == proposal.reads,
        verdicts,
        reasons: proposal
            .reasons
            .iter()
            .map(|r| format!("{}: {}", r.subject.words(), r.text))
            .collect(),
        unserved: proposal
            .unserved
            .iter()
            .map(|u| format!("{}: {}", u.pattern, u.reason))
            .collect(),
        changes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::{Notice, Reply, Request, read_answer};
    use keyplan_core::synth::Subject;

    fn options() -> Options {
        Options {
            alternatives: 3,
            ..Options::default()
        }
    }

    // issue 37: the worker answers a suggestion through JSON, the page reads back as the
    // Suggest job's answer, and its progress went out as notices for the request's id.
    #[test]
    fn a_suggestion_goes_through_json_with_its_progress_for_its_request() {
        let design = keyplan_core::examples::first();
        let mut worker = Worker::default();
        let posted = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let sink = posted.clone();
        worker.set_reporter(Box::new(move |text: &str| {
            sink.borrow_mut().push(text.to_string())
        }));
        let request = Request {
            id: 5,
            rev: 9,
            job: Suggest {
                design: design.clone(),
                options: options(),
            }
            .into(),
        };
        let Reply { id, rev, answer } =
            worker.answer_json(&serde_json::to_string(&request).expect("writes"));
        assert_eq!((id, rev), (5, 9));
        let page = read_answer::<Suggest>(&answer)
            .expect("the answer reads")
            .expect("proposals");
        assert!(!page.proposals.is_empty());
        let first = &page.proposals[0];
        assert!(first.cost.ends_with(" a month"), "{}", first.cost);
        assert_eq!(first.verdicts.len(), design.patterns.len());
        let progress: Vec<Progress> = posted
            .borrow()
            .iter()
            .map(|text| match serde_json::from_str::<Notice>(text) {
                Ok(Notice::Progress { id: 5, progress }) => {
                    serde_json::from_str(&progress).expect("a progress reads")
                }
                other => panic!("not a progress of request 5: {other:?}"),
            })
            .collect();
        assert!(!progress.is_empty(), "progress was posted");
        assert!(progress.iter().all(|p| p.budget == options().budget));
    }

    /// The seed article's design as the browser test types it (suggest_e2e.rs): the table the
    /// app makes (`app`: PK, SK), three entities without keys, seven reads.
    fn typed_seed() -> Design {
        let entity = |name: &str, attributes: &[&str]| {
            let attributes: Vec<String> = attributes
                .iter()
                .enumerate()
                .map(|(n, a)| {
                    format!(
                        r#"{{ "name": "{a}", "type": "S", "required": {} }}"#,
                        n == 0
                    )
                })
                .collect();
            format!(
                r#"{{ "name": "{name}", "table": "app", "attributes": [{}] }}"#,
                attributes.join(", ")
            )
        };
        let pattern = |name: &str, entity: &str, inputs: &[&str]| {
            format!(
                r#"{{ "name": "{name}", "entities": ["{entity}"], "inputs": {} }}"#,
                serde_json::to_string(inputs).expect("writes")
            )
        };
        let text = format!(
            r#"{{ "version": 1, "name": "Untitled",
                 "tables": [{{ "name": "app", "partition_key": {{ "name": "PK", "type": "S" }},
                               "sort_key": {{ "name": "SK", "type": "S" }} }}],
                 "entities": [{}], "patterns": [{}] }}"#,
            [
                entity("Customer", &["customerId", "email"]),
                entity(
                    "Order",
                    &[
                        "orderId",
                        "customerId",
                        "status",
                        "createdAt",
                        "fulfillmentCenter",
                        "priority"
                    ],
                ),
                entity("OrderItem", &["orderItemId", "orderId"]),
            ]
            .join(", "),
            [
                pattern("Get order by ID", "Order", &["orderId"]),
                pattern("Get customer orders", "Order", &["customerId"]),
                pattern("Get orders by status", "Order", &["status"]),
                pattern("Get order items", "OrderItem", &["orderId"]),
                pattern("Get customer profile", "Customer", &["customerId"]),
                pattern(
                    "Get orders by fulfillment center",
                    "Order",
                    &["fulfillmentCenter"]
                ),
                pattern(
                    "Get daily order count by status",
                    "Order",
                    &["status", "createdAt"]
                ),
            ]
            .join(", ")
        );
        keyplan_core::file::parse(&text).expect("the typed design reads")
    }

    // issue 37, item 7, as the browser test does it without a browser: the first proposal for
    // the typed seed design, adopted, serves every read; its inverse gives the design back.
    #[test]
    fn the_first_proposal_for_the_typed_seed_design_serves_every_read_once_adopted() {
        let typed = typed_seed();
        let page = Worker::default()
            .answer(Suggest {
                design: typed.clone(),
                options: options(),
            })
            .expect("proposals");
        let first = &page.proposals[0];
        assert!(first.all_served, "{}: {:#?}", first.served, first.verdicts);
        let edit = keyplan_core::synth::adopt::adopt(&typed, &first.design).expect("adopts");
        let mut design = typed.clone();
        let undo = keyplan_core::edit::apply(&mut design, edit).expect("applies");
        assert_eq!(keyplan_core::analyze(&design).coverage(), (7, 7));
        keyplan_core::edit::apply(&mut design, undo).expect("undoes");
        assert_eq!(design, typed);
    }

    #[test]
    fn options_out_of_bounds_are_refused_before_any_work() {
        let design = keyplan_core::examples::first();
        let mut worker = Worker::default();
        let ask = |worker: &mut Worker, options: Options| {
            worker.answer(Suggest {
                design: design.clone(),
                options,
            })
        };
        let refused = |answer: Result<SuggestPage, String>| answer.err().unwrap_or_default();
        assert_eq!(
            refused(ask(
                &mut worker,
                Options {
                    max_gsis: 21,
                    ..options()
                }
            )),
            "max GSIs is 21: DynamoDB's default quota is 20 per table"
        );
        assert_eq!(
            refused(ask(
                &mut worker,
                Options {
                    alternatives: 0,
                    ..options()
                }
            )),
            "0 alternatives asked: from 1 to 5"
        );
        assert_eq!(
            refused(ask(
                &mut worker,
                Options {
                    budget: 0,
                    ..options()
                }
            )),
            "a search budget of 0 nodes: from 1 to 20000000"
        );
    }

    #[test]
    fn a_proposal_card_says_what_applying_it_changes_as_keyplan_diff_does() {
        let proposal = keyplan_core::examples::first();
        let mut current = proposal.clone();
        current.tables[0].gsis.clear();
        let synthesis = Synthesis {
            style: keyplan_core::synth::Style::SingleTable,
            proposals: vec![Proposal {
                design: proposal.clone(),
                monthly_cost: 12.5,
                indexes: 2,
                reads_served: 5,
                reads: 5,
                reasons: vec![keyplan_core::synth::Reason {
                    subject: Subject::Index {
                        table: "Orders".into(),
                        index: "GSI1".into(),
                    },
                    text: "serves `Get orders by status`".into(),
                }],
                unserved: Vec::new(),
            }],
            lower_bound: 12.5,
            gap_percent: 0.0,
            optimal: true,
            stopped: false,
            explored: 40,
        };
        let page = page(&current, &synthesis);
        let card = &page.proposals[0];
        let expected: Vec<String> = diff(&current, &proposal)
            .text()
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(card.changes, expected);
        assert!(
            card.changes.iter().any(|l| l.contains("GSI1")),
            "{:?}",
            card.changes
        );
        assert_eq!(card.cost, "$12.50 a month");
        assert_eq!(card.reasons, ["Orders.GSI1: serves `Get orders by status`"]);
        assert_eq!(
            page.summary,
            "Proven the cheapest by keyplan's cost model (40 nodes explored)."
        );
    }
}
