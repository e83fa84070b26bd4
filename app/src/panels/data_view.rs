//! The data view: core's sample items (`keyplan_core::sample`) loaded into core's evaluator,
//! shown as the aggregate view (`keyplan_core::aggregate`) of the table and of each index,
//! partition by partition, coloured by entity; a sparse index visibly holds fewer items. With
//! a pattern selected, the items that pattern returns, evaluated in the browser.

use keyplan_core::aggregate::{AggregateView, IndexView, aggregate};
use keyplan_core::eval::run_pattern;
use keyplan_core::{AttributeValue, Item};
use leptos::prelude::*;

use super::sample::{SampleRefused, use_sample};
use crate::session::{Selection, use_session};
use crate::store::use_store;

/// Items rendered at first, and added by each "Show more".
const PAGE: usize = 200;
/// Attributes shown in an item's cell before its "+N more".
const SHOWN_ATTRIBUTES: usize = 8;

/// A value as a short text.
fn show(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) => s.clone(),
        AttributeValue::N(n) => n.clone(),
        other => format!("{other:?}"),
    }
}

/// Every attribute of `item` but those in `skip` (the columns already show them), as
/// `name: value`: the key attributes of the tables and their indexes first, in `keys` order,
/// then the entity's attributes in the order it declares them (`declared`), then any other by
/// name. Every one: a view that silently dropped all but six hid `status` (issue 12).
fn attribute_texts(
    item: &Item,
    skip: &[String],
    keys: &[String],
    declared: &[String],
) -> Vec<String> {
    let text = |(k, v): (&String, &AttributeValue)| format!("{k}: {}", show(v));
    let first = keys
        .iter()
        .chain(declared.iter().filter(|d| !keys.contains(d)));
    let listed = first
        .filter(|k| !skip.contains(k))
        .filter_map(|k| item.get_key_value(k));
    let rest = item
        .iter()
        .filter(|(k, _)| !skip.contains(k) && !keys.contains(k) && !declared.contains(k));
    listed.chain(rest).map(text).collect()
}

/// An item's attributes, the first [`SHOWN_ATTRIBUTES`] at once and the others behind a
/// "+N more" that shows them.
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

/// The pattern's run over the sample: its key conditions and the items it returns.
#[derive(Debug, Clone, PartialEq)]
struct Run {
    pattern: String,
    conditions: Vec<String>,
    inputs: String,
    items: Vec<(Option<String>, Vec<String>)>,
    error: Option<String>,
    /// For a read with a filter (issue 16): its FilterExpression with the values written in,
    /// and how many items the key condition read before it.
    filter: Option<(String, usize)>,
}

#[component]
pub fn DataView() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let sample = use_sample();
    // Entity colours: by position in the design.
    let entity_slot = move |name: &Option<String>| {
        store.with_untracked(|d| {
            name.as_deref()
                .and_then(|n| d.entities.iter().position(|e| e.name == n))
                .map_or(7, |i| i % crate::cards::N_COLOURS)
        })
    };
    let view_data: Memo<AggregateView> = Memo::new(move |_| sample.with(|s| aggregate(&s.store)));
    // Each entity's attribute names in its order, for the order of an item's attributes.
    let declared = move |entity: &Option<String>| -> Vec<String> {
        store.with_untracked(|d| {
            entity
                .as_deref()
                .and_then(|n| d.entity(n))
                .map(|e| e.attributes.iter().map(|a| a.name.clone()).collect())
                .unwrap_or_default()
        })
    };
    // Every key attribute of every table, shown first in an item's attributes.
    let key_names = Memo::new(move |_| {
        store.with(|d| {
            let mut names: Vec<String> = Vec::new();
            for key in d.tables.iter().flat_map(|t| t.key_attributes()) {
                if !names.contains(&key.name) {
                    names.push(key.name.clone());
                }
            }
            names
        })
    });
    let picked_index: RwSignal<Option<(String, Option<String>)>> = RwSignal::new(None);
    // How many items of the shown index are rendered: a large design's table holds thousands,
    // and rendering them all froze the tab for seconds.
    let shown = RwSignal::new(PAGE);
    let run = Memo::new(move |_| {
        let Selection::Pattern(name) = session.selection.get() else {
            return None;
        };
        let verdict = store
            .analysis
            .with(|a| a.verdicts.iter().find(|v| v.pattern == name).cloned())?;
        if !verdict.covered
            || !verdict.operation.as_str().ends_with("Item")
                && verdict.operation.as_str() != "Query"
        {
            return Some(Run {
                pattern: name,
                conditions: Vec::new(),
                inputs: String::new(),
                items: Vec::new(),
                error: Some(format!(
                    "{} is not a key read: nothing to evaluate",
                    verdict.operation.as_str()
                )),
                filter: None,
            });
        }
        let outcome =
            sample.with(|s| store.with_untracked(|d| run_pattern(d, &s.store, &verdict, None)));
        Some(match outcome {
            Ok(r) => Run {
                pattern: name,
                filter: r.filter.clone().map(|text| (text, r.result.scanned)),
                conditions: r.conditions.clone(),
                inputs: r
                    .inputs
                    .iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                items: r
                    .result
                    .items
                    .iter()
                    .zip(
                        r.result
                            .entities
                            .iter()
                            .cloned()
                            .chain(std::iter::repeat(None)),
                    )
                    .map(|(item, entity)| {
                        let texts =
                            key_names.with(|k| attribute_texts(item, &[], k, &declared(&entity)));
                        (entity, texts)
                    })
                    .collect(),
                error: None,
            },
            Err(e) => Run {
                pattern: name,
                conditions: Vec::new(),
                inputs: String::new(),
                items: Vec::new(),
                error: Some(e.to_string()),
                filter: None,
            },
        })
    });

    let index_tabs = move || {
        view_data.with(|v| {
            v.tables
                .iter()
                .flat_map(|t| {
                    t.indexes
                        .iter()
                        .map(move |i| (t.table.clone(), i.index.clone(), i.item_count))
                })
                .collect::<Vec<_>>()
        })
    };
    let current: Memo<Option<(String, IndexView)>> = Memo::new(move |_| {
        let wanted = picked_index.get();
        view_data.with(|v| {
            let all = v
                .tables
                .iter()
                .flat_map(|t| t.indexes.iter().map(move |i| (t.table.clone(), i.clone())));
            let mut all: Vec<(String, IndexView)> = all.collect();
            match wanted {
                Some((table, index)) => all
                    .into_iter()
                    .find(|(t, i)| *t == table && i.index == index),
                None => (!all.is_empty()).then(|| all.remove(0)),
            }
        })
    });

    view! {
        <div class="data-view" data-testid="data-view">
            <SampleRefused/>
            {move || run.get().map(|r| view! {
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
                        {r.items.into_iter().map(|(entity, text)| {
                            let slot = entity_slot(&entity);
                            view! {
                                <li class=format!("run-item slot-{slot}")>
                                    <span class="entity-tag">{entity.unwrap_or_else(|| "?".into())}</span>
                                    <span class="mono"><AttributesCell texts=text/></span>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </section>
            })}
            <div class="chips index-picker" role="tablist" aria-label="Table or index">
                {move || index_tabs().into_iter().map(|(table, index, count)| {
                    let label = match &index {
                        Some(i) => format!("{table} · {i} ({count})"),
                        None => format!("{table} ({count})"),
                    };
                    let key = (table.clone(), index.clone());
                    let on = current.with(|c| c.as_ref().is_some_and(|(t, i)| *t == key.0 && i.index == key.1));
                    view! {
                        <button class="chip" class:on=on role="tab" aria-selected=on.to_string() on:click=move |_| { shown.set(PAGE); picked_index.set(Some(key.clone())); }>
                            {label}
                        </button>
                    }
                }).collect_view()}
            </div>
            {move || current.get().map(|(_, index)| {
                let mut keys = index.partition_key.clone();
                keys.extend(index.sort_key.iter().cloned());
                let total_items: usize = index.partitions.iter().map(|p| p.items.len()).sum();
                let total_partitions = index.partitions.len();
                // Whole partitions in order until the limit; the last one may be cut.
                let mut left = shown.get();
                let partitions: Vec<_> = index
                    .partitions
                    .into_iter()
                    .map_while(|p| {
                        (left > 0).then(|| {
                            let take = p.items.len().min(left);
                            left -= take;
                            let pk = p.key.iter().map(show).collect::<Vec<_>>().join(" + ");
                            (pk, p.items.into_iter().take(take).collect::<Vec<_>>())
                        })
                    })
                    .collect();
                let shown_items: usize = partitions.iter().map(|(_, items)| items.len()).sum();
                let shown_partitions = partitions.len();
                view! {
                    <table class="aggregate">
                        <thead>
                            <tr>
                                <th>{index.partition_key.join(" + ")}</th>
                                <th>{index.sort_key.join(" + ")}</th>
                                <th>"entity"</th>
                                <th>"attributes"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {partitions.into_iter().map(|(pk, items)| {
                                let n = items.len();
                                let keys = keys.clone();
                                items.into_iter().enumerate().map(move |(i, item)| {
                                    let slot = entity_slot(&item.entity);
                                    let first = (i == 0).then(|| view! { <td class="pk-cell mono" rowspan=n.to_string()>{pk.clone()}</td> });
                                    view! {
                                        <tr class=format!("slot-{slot}")>
                                            {first}
                                            <td class="mono">{item.sort_key.iter().map(show).collect::<Vec<_>>().join(" + ")}</td>
                                            <td><span class="entity-tag">{item.entity.clone().unwrap_or_else(|| "?".into())}</span></td>
                                            <td class="mono attrs" data-testid="item-attributes">
                                                <AttributesCell texts=key_names.with_untracked(|k| attribute_texts(&item.item, &keys, k, &declared(&item.entity)))/>
                                            </td>
                                        </tr>
                                    }
                                }).collect_view()
                            }).collect_view()}
                        </tbody>
                    </table>
                    {(shown_items < total_items).then(|| view! {
                        <div class="more-rows" data-testid="more-rows">
                            <span class="hint">{format!("Showing {shown_items} of {total_items} items, in {shown_partitions} of {total_partitions} partitions")}</span>
                            <button class="button small" on:click=move |_| shown.update(|n| *n += PAGE)>
                                {format!("Show {} more", PAGE.min(total_items - shown_items))}
                            </button>
                        </div>
                    })}
                }
            })}
        </div>
    }
}
