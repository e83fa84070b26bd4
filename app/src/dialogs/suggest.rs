//! The Suggest keys dialog (issue 37): keyplan proposes the keys and indexes for the design's
//! patterns. The worker searches ([`crate::jobs::Suggest`]) while a bar shows how far, with the
//! cheapest cost found so far and the proven bound; Cancel ends the search (the worker is
//! restarted: it reads no message while it computes) and says what it had reached. The
//! proposals stand side by side, each with its figures, every pattern's verdict, its reasons and
//! what applying it changes in `keyplan diff`'s words; Apply is one edit
//! ([`keyplan_core::synth::adopt::adopt`]), so one Undo restores the design.
//!
//! Everything shown is the worker's words and figures; the dialog only chooses the options and
//! applies a proposal to the design it was computed for, never to one edited since.

use keyplan_core::pricing::dollars;
use keyplan_core::synth::{Options, Progress, Style};
use leptos::prelude::*;

use crate::compute::{WorkerNotice, cancel, with_progress};
use crate::jobs::Suggest as SuggestJob;
use crate::jobs::suggest::{ProposalCard, SuggestPage};
use crate::session::use_session;
use crate::store::{Tracks, use_store};

/// The search budgets offered, in nodes: the default and ten times less and more.
const BUDGETS: [u64; 3] = [20_000, 200_000, 2_000_000];

/// Where the search is.
#[derive(Debug, Clone, PartialEq)]
enum Search {
    NotAsked,
    /// Request `id` is out; the last progress the worker posted.
    Running {
        id: u64,
        progress: Option<Progress>,
    },
    /// Cancelled, with the last progress seen.
    Cancelled(Option<Progress>),
    /// The answer, for the design at revision `rev`.
    Done {
        rev: u64,
        page: SuggestPage,
    },
    Failed(String),
}

/// `Explored 1,200 of 200,000 nodes; best so far $12.30 a month; no design costs less than $11.90`.
fn progress_words(p: &Progress) -> String {
    let best = match p.best {
        Some(best) => format!("best so far {} a month", dollars(best, 2)),
        None => "no complete design yet".to_string(),
    };
    format!(
        "Explored {} of {} nodes; {best}; no design costs less than {}.",
        keyplan_core::pricing::grouped(p.explored as f64, 0),
        keyplan_core::pricing::grouped(p.budget as f64, 0),
        dollars(p.bound, 2)
    )
}

#[component]
pub fn Suggest() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let style = RwSignal::new(Style::SingleTable);
    let max_gsis = RwSignal::new(keyplan_core::limits::MAX_GSIS as u32);
    let alternatives = RwSignal::new(3usize);
    let budget = RwSignal::new(Options::default().budget);
    let search = RwSignal::new(Search::NotAsked);
    let stale = RwSignal::new(false);

    let start = move |budget_nodes: u64| {
        if let Search::Running { id, .. } = search.get_untracked() {
            cancel(id);
        }
        stale.set(false);
        let rev = store.revision_untracked(Tracks::Semantics);
        let job = SuggestJob {
            design: store.design(),
            options: Options {
                style: style.get_untracked(),
                max_gsis: max_gsis.get_untracked(),
                alternatives: alternatives.get_untracked(),
                budget: budget_nodes,
            },
        };
        let id = with_progress(
            rev,
            job,
            move |progress: Progress| {
                search.update(|s| {
                    if let Search::Running {
                        progress: shown, ..
                    } = s
                    {
                        *shown = Some(progress);
                    }
                });
            },
            move |answer| {
                let _ = search.try_set(match answer.and_then(|a| a) {
                    Ok(page) => Search::Done { rev, page },
                    Err(e) => Search::Failed(e),
                });
            },
        );
        search.set(Search::Running { id, progress: None });
    };
    // Closing the dialog ends a search nobody waits for any more.
    on_cleanup(move || {
        if let Some(Search::Running { id, .. }) = search.try_get_untracked() {
            cancel(id);
        }
    });
    let stop = move |_| {
        if let Search::Running { id, progress } = search.get_untracked() {
            cancel(id);
            search.set(Search::Cancelled(progress));
        }
    };
    let apply = move |n: usize, card: ProposalCard| {
        let Search::Done { rev, .. } = search.get_untracked() else {
            return;
        };
        if store.revision_untracked(Tracks::Semantics) != rev {
            stale.set(true);
            return;
        }
        let edit = store.with_untracked(|d| keyplan_core::synth::adopt::adopt(d, &card.design));
        match edit {
            Ok(edit) => {
                if store.dispatch(edit) {
                    session.dialog.set(None);
                    session.say(format!(
                        "Applied proposal {n}: {}, {}. Undo restores the design as it was.",
                        card.cost, card.served
                    ));
                }
            }
            Err(e) => session.warn(format!("The proposal could not be applied: {e}")),
        }
    };
    let running = move || matches!(search.get(), Search::Running { .. });

    view! {
        <div class="suggest" data-testid="suggest">
            <p class="hint">"keyplan chooses the keys and indexes that serve every read by GetItem or Query at the least monthly cost by its cost model, keeping the entities, attributes and patterns as they are."</p>
            <div class="suggest-options">
                <label class="field inline">
                    <span class="field-label">"Style"</span>
                    <select
                        class="input"
                        data-testid="suggest-style"
                        on:change=move |ev| {
                            if let Ok(s) = event_target_value(&ev).parse::<Style>() {
                                style.set(s);
                            }
                        }
                    >
                        <option value="single-table" selected=move || style.get() == Style::SingleTable>"Single table (PK/SK, overloaded GSIs)"</option>
                        <option value="natural" selected=move || style.get() == Style::Natural>"Natural (attribute names, an index per path)"</option>
                    </select>
                </label>
                <label class="field inline">
                    <span class="field-label">"Max GSIs per table"</span>
                    <input
                        class="input narrow"
                        type="number"
                        min="0"
                        max=keyplan_core::limits::MAX_GSIS.to_string()
                        data-testid="suggest-max-gsis"
                        prop:value=move || max_gsis.get().to_string()
                        on:change=move |ev| {
                            let limit = keyplan_core::limits::MAX_GSIS as u32;
                            if let Ok(n) = event_target_value(&ev).trim().parse::<u32>() {
                                max_gsis.set(n.min(limit));
                            }
                        }
                    />
                </label>
                <label class="field inline">
                    <span class="field-label">"Alternatives"</span>
                    <select
                        class="input"
                        data-testid="suggest-alternatives"
                        on:change=move |ev| {
                            if let Ok(n) = event_target_value(&ev).parse::<usize>() {
                                alternatives.set(n);
                            }
                        }
                    >
                        {(1..=crate::jobs::suggest::MAX_ALTERNATIVES).map(|n| view! {
                            <option value=n.to_string() selected=move || alternatives.get() == n>{n.to_string()}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label class="field inline">
                    <span class="field-label">"Search budget"</span>
                    <select
                        class="input"
                        data-testid="suggest-budget"
                        on:change=move |ev| {
                            if let Ok(n) = event_target_value(&ev).parse::<u64>() {
                                budget.set(n);
                            }
                        }
                    >
                        {BUDGETS.iter().map(|&n| view! {
                            <option value=n.to_string() selected=move || budget.get() == n>
                                {format!("{} nodes", keyplan_core::pricing::grouped(n as f64, 0))}
                            </option>
                        }).collect_view()}
                    </select>
                </label>
                <button
                    class="button primary"
                    data-testid="suggest-run"
                    disabled=running
                    on:click=move |_| start(budget.get_untracked())
                >
                    "Suggest"
                </button>
            </div>
            <WorkerNotice/>
            {move || match search.get() {
                Search::NotAsked => ().into_any(),
                Search::Running { progress, .. } => view! {
                    <div class="suggest-progress" role="status" data-testid="suggest-progress">
                        <progress
                            aria-label="Search progress"
                            max=progress.as_ref().map_or(1.0, |p| p.budget.max(1) as f64)
                            value=progress.as_ref().map_or(0.0, |p| p.explored as f64)
                        ></progress>
                        <p class="hint" data-testid="suggest-progress-text">
                            {progress.as_ref().map_or_else(
                                || "Starting the search in the background worker…".to_string(),
                                progress_words,
                            )}
                        </p>
                        <button class="button" data-testid="suggest-cancel" on:click=stop>"Cancel"</button>
                    </div>
                }.into_any(),
                Search::Cancelled(progress) => view! {
                    <div class="suggest-cancelled" role="status" data-testid="suggest-cancelled">
                        <p>
                            {match &progress {
                                Some(p) => format!("Cancelled. {}", progress_words(p)),
                                None => "Cancelled before the search reported anything.".to_string(),
                            }}
                        </p>
                        {progress.filter(|p| p.explored > 0).map(|p| view! {
                            <button class="button" data-testid="suggest-within" on:click=move |_| start(p.explored)>
                                {format!("Suggest within {} nodes", keyplan_core::pricing::grouped(p.explored as f64, 0))}
                            </button>
                        })}
                    </div>
                }.into_any(),
                Search::Failed(why) => view! {
                    <p class="diagnostic error" role="alert" data-testid="suggest-failed">{format!("No suggestion: {why}")}</p>
                }.into_any(),
                Search::Done { page, .. } => view! {
                    <Proposals page apply stale/>
                }.into_any(),
            }}
        </div>
    }
}

/// The proposals side by side, each with its Apply.
#[component]
fn Proposals(
    /// The worker's answer.
    page: SuggestPage,
    /// Applies proposal n (from 1).
    apply: impl Fn(usize, ProposalCard) + Copy + Send + Sync + 'static,
    /// The design was edited since the proposals were computed.
    stale: RwSignal<bool>,
) -> impl IntoView {
    view! {
        <p class="suggest-summary" data-testid="suggest-summary">{page.summary}</p>
        {move || stale.get().then(|| view! {
            <p class="diagnostic warning" role="alert" data-testid="suggest-stale">
                "The design changed since these were computed: suggest again to apply one."
            </p>
        })}
        <div class="proposals" data-testid="proposals">
            {page.proposals.into_iter().enumerate().map(|(at, card)| {
                let n = at + 1;
                let heading = format!("proposal-{n}");
                let heading_id = heading.clone();
                let kept = card.clone();
                view! {
                    <section class="proposal" aria-labelledby=heading data-testid="proposal">
                        <h3 id=heading_id>{if n == 1 { format!("Proposal {n}: the cheapest") } else { format!("Proposal {n}") }}</h3>
                        <dl class="proposal-figures">
                            <dt>"Monthly cost"</dt><dd data-testid="proposal-cost">{card.cost}</dd>
                            <dt>"Indexes"</dt><dd data-testid="proposal-indexes">{card.indexes}</dd>
                            <dt>"Reads"</dt><dd data-testid="proposal-served" class:bad=!card.all_served>{card.served}</dd>
                        </dl>
                        <button class="button primary" data-testid="suggest-apply" on:click=move |_| apply(n, kept.clone())>
                            {format!("Apply proposal {n}")}
                        </button>
                        <h4>"Verdicts"</h4>
                        <ul class="proposal-verdicts">
                            {card.verdicts.into_iter().map(|v| view! {
                                <li class:bad=!v.covered data-testid="proposal-verdict">
                                    <span class="proposal-pattern">{v.pattern}</span>": "{v.words}
                                </li>
                            }).collect_view()}
                        </ul>
                        {(!card.unserved.is_empty()).then(|| view! {
                            <h4>"Left to a Scan"</h4>
                            <ul class="proposal-reasons">
                                {card.unserved.into_iter().map(|u| view! { <li>{u}</li> }).collect_view()}
                            </ul>
                        })}
                        {(!card.reasons.is_empty()).then(|| view! {
                            <h4>"Why"</h4>
                            <ul class="proposal-reasons" data-testid="proposal-reasons">
                                {card.reasons.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}
                            </ul>
                        })}
                        <h4>"Changes (keyplan diff)"</h4>
                        <pre class="proposal-diff" tabindex="0" aria-label=format!("Changes proposal {n} makes") data-testid="proposal-diff">
                            {card.changes.join("\n")}
                        </pre>
                    </section>
                }
            }).collect_view()}
        </div>
    }
}
