//! The access-pattern list: each pattern with its live verdict badge and key condition.
//! Selecting one highlights its entities and its index on the canvas.

use leptos::prelude::*;

use super::VerdictBadge;
use crate::session::{Selection, use_session};
use crate::store::use_store;

/// One row's content.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    name: String,
    entities: String,
    verdict: Option<keyplan_core::Verdict>,
    slot: usize,
}

#[component]
pub fn PatternList() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let rows = Memo::new(move |_| {
        store.track_semantic();
        store.analysis.with(|a| {
            store.with_untracked(|d| {
                d.patterns
                    .iter()
                    .map(|p| {
                        let verdict = a.verdicts.iter().find(|v| v.pattern == p.name).cloned();
                        let slot = verdict
                            .as_ref()
                            .and_then(|v| {
                                v.table
                                    .as_deref()
                                    .map(|t| crate::cards::slot(d, t, v.index.as_deref()))
                            })
                            .unwrap_or(0);
                        Row {
                            name: p.name.clone(),
                            entities: p.entities.join(", "),
                            verdict,
                            slot,
                        }
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    view! {
        <div class="panel-body">
            <div class="panel-actions">
                <button class="button" data-testid="add-pattern" title="Add an access pattern (P)" on:click=move |_| super::add_pattern(&store, &session)>
                    "+ Access pattern"
                </button>
            </div>
            <ul class="pattern-list" role="listbox" aria-label="Access patterns">
                <For
                    each=move || rows.get()
                    key=|row| {
                        // Everything the row shows: it is rebuilt only when that changes.
                        let badge = row.verdict.as_ref().map(|v| (super::verdict_badge::badge_text(v), v.shards, v.covered, v.key_condition.as_ref().map(|k| k.expression.clone())));
                        (row.name.clone(), row.entities.clone(), row.slot, badge)
                    }
                    children=move |row| {
                        let name = row.name.clone();
                        let selected = {
                            let name = name.clone();
                            Signal::derive(move || session.selection.with(|s| matches!(s, Selection::Pattern(p) if *p == name)))
                        };
                        let condition = row
                            .verdict
                            .as_ref()
                            .and_then(|v| v.key_condition.as_ref())
                            .map(|k| k.expression.clone());
                        let scan = row.verdict.as_ref().is_some_and(|v| !v.covered);
                        let pick = {
                            let name = name.clone();
                            move || session.select(Selection::Pattern(name.clone()))
                        };
                        view! {
                            <li
                                class="pattern-row"
                                class:selected=selected
                                class:scan=scan
                                role="option"
                                tabindex="0"
                                data-testid="pattern-row"
                                data-pattern=name.clone()
                                aria-selected=move || selected.get().to_string()
                                on:click={ let pick = pick.clone(); move |_| pick() }
                                on:keydown=move |ev| {
                                    if ev.key() == "Enter" || ev.key() == " " {
                                        ev.prevent_default();
                                        pick();
                                    }
                                }
                            >
                                <div class="pattern-head">
                                    <span class="pattern-name">{row.name.clone()}</span>
                                    {row.verdict.clone().map(|v| view! { <VerdictBadge verdict=v colour=row.slot/> })}
                                </div>
                                <div class="pattern-meta">{row.entities.clone()}</div>
                                {condition.map(|c| view! { <code class="pattern-condition">{c}</code> })}
                            </li>
                        }
                    }
                />
            </ul>
        </div>
    }
}
