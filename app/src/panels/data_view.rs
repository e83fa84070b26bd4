//! The data view: core's sample items (`keyplan_core::sample`) loaded into core's evaluator,
//! shown as the aggregate view (`keyplan_core::aggregate`) of the table and of each index,
//! partition by partition, coloured by entity; a sparse index visibly holds fewer items. With
//! a pattern selected, the items that pattern returns, evaluated in the browser. The worker
//! computes the page ([`crate::jobs::data`]): only what is shown crosses to this thread.

use leptos::prelude::*;

use crate::compute::{Computed, Computing, NoAnswer, WorkerNotice, follow};
use crate::jobs::Data;
use crate::jobs::data::{DataPage, Row};
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
        view! {
            <SampleRefused message=p.refused/>
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
                                    view! {
                                        <tr class=format!("slot-{slot}")>
                                            {first}
                                            <td class="mono">{item.sort_key}</td>
                                            <td><span class="entity-tag">{item.entity.clone().unwrap_or_else(|| "?".into())}</span></td>
                                            <td class="mono attrs" data-testid="item-attributes">
                                                <AttributesCell texts=item.attributes/>
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
