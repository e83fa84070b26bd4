//! The data view: core's sample items (`keyplan_core::sample`) loaded into core's evaluator,
//! shown as the aggregate view (`keyplan_core::aggregate`) of the table and of each index,
//! partition by partition, coloured by entity; a sparse index visibly holds fewer items. With
//! a pattern selected, the items that pattern returns, evaluated in the browser. The worker
//! computes the page ([`crate::jobs::data`]): only what is shown crosses to this thread. An
//! item of a table can be edited by hand, or one added (`item_editor`), kept with the design.

use leptos::prelude::*;

use super::item_editor::{Editing, ItemEditor};
use crate::compute::{Computed, Computing, NoAnswer, WorkerNotice, follow};
use crate::jobs::Data;
use crate::jobs::data::{DataPage, Editable, Row};
use crate::session::{Selection, use_session};
use crate::store::{Tracks, use_store};

/// Items rendered at first, and added by each "Show more".
const PAGE: usize = 200;
/// Attributes shown in an item's cell before its "+N more".
const SHOWN_ATTRIBUTES: usize = 8;

#[component]
fn AttributesCell(
    /// `name: value` texts in the order shown.
    texts: Vec<String>,
) -> impl IntoView {
    let expanded = RwSignal::new(false);
    let hidden = texts.len().saturating_sub(SHOWN_ATTRIBUTES);
    let shown = move || {
        let n = if expanded.get() {
            texts.len()
        } else {
            SHOWN_ATTRIBUTES
        };
        texts
            .iter()
            .take(n)
            .cloned()
            .collect::<Vec<_>>()
            .join(" · ")
    };
    view! {
        <span>{shown}</span>
        {(hidden > 0).then(|| view! {
            <Show when=move || !expanded.get()>
                " "
                <button
                    class="link-button more-attributes"
                    title="Show every attribute of this item"
                    on:click=move |_| expanded.set(true)
                >
                    {format!("+{hidden} more")}
                </button>
            </Show>
        })}
    }
}

/// The sample's refusal, when there is no sample: it would have been over the budget.
#[component]
pub fn SampleRefused(message: Option<String>) -> impl IntoView {
    message.map(|message| {
        view! { <p class="diagnostic warning" data-testid="sample-refused" role="status">{message}</p> }
    })
}

#[component]
pub fn DataView() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    // Entity colours: by position in the design.
    let entity_slot = move |name: &Option<String>| {
        store.with_untracked(|d| {
            name.as_deref()
                .and_then(|n| d.entities.iter().position(|e| e.name == n))
                .map_or(7, |i| i % crate::cards::N_COLOURS)
        })
    };
    let picked_index: RwSignal<Option<(String, Option<String>)>> = RwSignal::new(None);
    let editing: RwSignal<Option<Editing>> = RwSignal::new(None);
    let edit_item = move |entity: Option<String>, e: Editable| {
        let entities = match entity {
            Some(name) => vec![name],
            None => {
                store.with_untracked(|d| d.entities_in(&e.table).map(|x| x.name.clone()).collect())
            }
        };
        let replaces = match e.hand {
            Some(_) => None,
            None => Some(e.key),
        };
        editing.set(Some(Editing {
            table: e.table,
            entities,
            replaces,
            hand: e.hand,
            json: e.json,
        }));
    };
    let add_item = move |table: String| {
        let entities =
            store.with_untracked(|d| d.entities_in(&table).map(|x| x.name.clone()).collect());
        editing.set(Some(Editing {
            table,
            entities,
            replaces: None,
            hand: None,
            json: "{\n  \n}".to_string(),
        }));
    };
    // How many items of the shown index are rendered: a large design's table holds thousands,
    // and rendering them all froze the tab for seconds.
    let shown = RwSignal::new(PAGE);
    let (page, again) = follow(
        store,
        Tracks::Semantics,
        move || {
            let pattern = match session.selection.get() {
                Selection::Pattern(name) => Some(name),
                _ => None,
            };
            Some(Data {
                design: store.with_untracked(Clone::clone),
                pattern,
                index: picked_index.get(),
                shown: shown.get(),
            })
        },
        true,
    );
    let item_row = move |r: Row| {
        let slot = entity_slot(&r.entity);
        view! {
            <li class=format!("run-item slot-{slot}")>
                <span class="entity-tag">{r.entity.unwrap_or_else(|| "?".into())}</span>
                <span class="mono"><AttributesCell texts=r.attributes/></span>
            </li>
        }
    };
    let show_page = move |p: DataPage| {
        let current = p.shown.as_ref().map(|s| (s.table.clone(), s.index.clone()));
        let table_shown = p
            .shown
            .as_ref()
            .filter(|s| s.index.is_none())
            .map(|s| s.table.clone());
        view! {
            <SampleRefused message=p.refused/>
            {(!p.misfits.is_empty()).then(|| view! {
                <ul class="diagnostics" data-testid="hand-misfits">
                    {p.misfits.into_iter().map(|m| view! { <li class="diagnostic warning">{m}</li> }).collect_view()}
                </ul>
            })}
            <ItemEditor editing/>
            {p.run.map(|r| view! {
                <section class="run-box">
                    <h3>{format!("{} on the sample", r.pattern)}</h3>
                    {(!r.inputs.is_empty()).then(|| view! { <p class="hint">{format!("inputs: {}", r.inputs)}</p> })}
                    {r.conditions.into_iter().map(|c| view! { <code class="key-condition">{c}</code> }).collect_view()}
                    {r.filter.map(|(text, read)| {
                        let returned = r.items.len();
                        view! {
                            <code class="key-condition" data-testid="run-filter">{format!("FILTER {text}")}</code>
                            <p class="hint" data-testid="run-read-returned">
                                {format!("read {read}, returned {returned}: the filter dropped {} after the read (the read units count all {read})", read.saturating_sub(returned))}
                            </p>
                        }
                    })}
                    {r.error.map(|e| view! { <p class="diagnostic warning">{e}</p> })}
                    <ul class="run-items">
                        {r.items.into_iter().map(item_row).collect_view()}
                    </ul>
                </section>
            })}
            <div class="chips index-picker" role="tablist" aria-label="Table or index">
                {p.tabs.into_iter().map(|tab| {
                    let label = match &tab.index {
                        Some(i) => format!("{} · {i} ({})", tab.table, tab.count),
                        None => format!("{} ({})", tab.table, tab.count),
                    };
                    let key = (tab.table, tab.index);
                    let on = current.as_ref() == Some(&key);
                    view! {
                        <button class="chip" class:on=on role="tab" aria-selected=on.to_string() on:click=move |_| { shown.set(PAGE); picked_index.set(Some(key.clone())); }>
                            {label}
                        </button>
                    }
                }).collect_view()}
            </div>
            // Beside the tabs, not among them: a tablist holds tabs only (axe).
            {table_shown.map(|table| view! {
                <button class="button small" data-testid="add-item" title="Write an item of this table by hand, kept with the design" on:click=move |_| add_item(table.clone())>
                    "Add item"
                </button>
            })}
            {p.shown.map(|index| {
                let shown_items: usize = index.partitions.iter().map(|(_, items)| items.len()).sum();
                let shown_partitions = index.partitions.len();
                let total_items = index.total_items;
                view! {
                    <table class="aggregate">
                        <thead>
                            <tr>
                                <th>{index.partition_key}</th>
                                <th>{index.sort_key}</th>
                                <th>"entity"</th>
                                <th>"attributes"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {index.partitions.into_iter().map(|(pk, items)| {
                                let n = items.len();
                                items.into_iter().enumerate().map(move |(i, item)| {
                                    let slot = entity_slot(&item.entity);
                                    let first = (i == 0).then(|| view! { <td class="pk-cell mono" rowspan=n.to_string()>{pk.clone()}</td> });
                                    let by_hand = item.editable.as_ref().is_some_and(|e| e.hand.is_some());
                                    let entity = item.entity.clone();
                                    let edit = item.editable.map(|e| view! {
                                        " "
                                        <button class="link-button" data-testid="edit-item" title="Edit this item by hand, kept with the design" on:click=move |_| edit_item(entity.clone(), e.clone())>
                                            "Edit"
                                        </button>
                                    });
                                    view! {
                                        <tr class=format!("slot-{slot}") class:by-hand=by_hand data-testid=by_hand.then_some("hand-row")>
                                            {first}
                                            <td class="mono">{item.sort_key}</td>
                                            <td><span class="entity-tag">{item.entity.clone().unwrap_or_else(|| "?".into())}</span>{by_hand.then_some(view! { <span class="hint" title="Written by hand">" ✎"</span> })}</td>
                                            <td class="mono attrs" data-testid="item-attributes">
                                                <AttributesCell texts=item.attributes/>
                                                {edit}
                                            </td>
                                        </tr>
                                    }
                                }).collect_view()
                            }).collect_view()}
                        </tbody>
                    </table>
                    {(shown_items < total_items).then(|| view! {
                        <div class="more-rows" data-testid="more-rows">
                            <span class="hint">{format!("Showing {shown_items} of {total_items} items, in {shown_partitions} of {} partitions", index.total_partitions)}</span>
                            <button class="button small" on:click=move |_| shown.update(|n| *n += PAGE)>
                                {format!("Show {} more", PAGE.min(total_items - shown_items))}
                            </button>
                        </div>
                    })}
                }
            })}
        }
    };

    view! {
        <div class="data-view" data-testid="data-view">
            <WorkerNotice/>
            {move || match page.get() {
                Computed::Ready(p) => show_page(p).into_any(),
                Computed::Failed(e) => view! { <NoAnswer what="No data view" why=e again/> }.into_any(),
                Computed::Waiting | Computed::Off => view! { <Computing what="the sample"/> }.into_any(),
            }}
        </div>
    }
}
