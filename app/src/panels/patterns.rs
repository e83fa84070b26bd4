//! The access-pattern list: each pattern with its live verdict badge and key condition.
//! Selecting one highlights its entities and its index on the canvas.

use leptos::prelude::*;

use super::Badge;
use super::VerdictBadge;
use crate::session::{Selection, use_session};
use crate::store::use_store;

/// Everything a row shows. The list is keyed by a hash of it, so a row is rebuilt exactly when
/// what it shows changes, and a keystroke that changes no verdict rebuilds none.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Row {
    name: String,
    entities: String,
    badge: Option<Badge>,
    scan: bool,
    condition: Option<String>,
}

fn row_key(row: &Row) -> u64 {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut h = DefaultHasher::new();
    row.hash(&mut h);
    h.finish()
}

#[component]
pub fn PatternList() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let rows = Memo::new(move |_| {
        store.track_semantic();
        store.analysis.with(|a| {
            store.with_untracked(|d| {
                // One verdict per pattern, in design order.
                d.patterns
                    .iter()
                    .zip(a.verdicts.iter().map(Some).chain(std::iter::repeat(None)))
                    .map(|(p, verdict)| {
                        let verdict = verdict.filter(|v| v.pattern == p.name);
                        let badge = verdict.map(|v| {
                            let slot = v
                                .table
                                .as_deref()
                                .map(|t| crate::cards::slot(d, t, v.index.as_deref()))
                                .unwrap_or(0);
                            Badge::of(v, slot)
                        });
                        Row {
                            name: p.name.clone(),
                            entities: p.entities.join(", "),
                            badge,
                            scan: verdict.is_some_and(|v| !v.covered),
                            condition: verdict
                                .and_then(|v| v.key_condition.as_ref())
                                .map(|k| k.expression.clone()),
                        }
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    // A design of hundreds of patterns draws its rows a chunk a frame (issue 19).
    let drawn = super::chunks::rows_drawn(move || rows.with(Vec::len));
    view! {
        <div class="panel-body">
            <div class="panel-actions">
                <button class="button" data-testid="add-pattern" title="Add an access pattern (P)" on:click=move |_| super::add_pattern(&store, &session)>
                    "+ Access pattern"
                </button>
            </div>
            <ul class="pattern-list" role="listbox" aria-label="Access patterns">
                <For
                    each=move || rows.with(|rows| rows.iter().take(drawn.get()).cloned().collect::<Vec<_>>())
                    key=row_key
                    children=move |row| {
                        let Row { name, entities, badge, scan, condition } = row;
                        let selected = {
                            let name = name.clone();
                            Signal::derive(move || session.selection.with(|s| matches!(s, Selection::Pattern(p) if *p == name)))
                        };
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
                                    <span class="pattern-name">{name.clone()}</span>
                                    {badge.map(|badge| view! { <VerdictBadge badge/> })}
                                </div>
                                <div class="pattern-meta">{entities}</div>
                                {condition.map(|c| view! { <code class="pattern-condition">{c}</code> })}
                            </li>
                        }
                    }
                />
            </ul>
        </div>
    }
}
