//! A pattern's filter conditions (issue 16): each an attribute of the entities it returns, an
//! operator and, for `in`, how many values; added, changed and removed as one undoable edit
//! each. The FilterExpression they make is core's, shown in the verdict box.

use keyplan_core::{AccessPattern, FilterCondition, FilterOp};
use leptos::prelude::*;

use super::modify_pattern;
use crate::store::use_store;

/// Sets condition `at` of `pattern`'s filter with `change`, when there is one.
fn change_condition(
    pattern: &mut AccessPattern,
    at: usize,
    change: impl FnOnce(&mut FilterCondition),
) {
    if let Some(condition) = pattern.filter.get_mut(at) {
        change(condition);
    }
}

#[component]
pub fn FilterEditor(
    /// The pattern whose filter is edited.
    name: String,
    /// Its conditions, as the store holds them.
    filter: Signal<Vec<FilterCondition>>,
    /// The attributes of the entities it returns: what a condition can be on.
    candidates: Signal<Vec<String>>,
) -> impl IntoView {
    let store = use_store();
    let edit = move |name: &str, change: Box<dyn FnOnce(&mut AccessPattern)>| {
        modify_pattern(&store, name, change);
    };
    let add = {
        let name = name.clone();
        move |_| {
            let Some(first) = candidates.get_untracked().into_iter().next() else {
                return;
            };
            edit(
                &name,
                Box::new(move |p| p.filter.push(FilterCondition::new(first, FilterOp::Eq))),
            );
        }
    };
    let rows = move || {
        filter
            .get()
            .into_iter()
            .enumerate()
            .map(|(at, condition)| {
                let (n_attr, n_op, n_count, n_remove) =
                    (name.clone(), name.clone(), name.clone(), name.clone());
                let mut attributes = candidates.get();
                if !attributes.contains(&condition.attribute) {
                    attributes.push(condition.attribute.clone());
                }
                let current_op = condition.op;
                view! {
                    <div class="field-row filter-row" data-testid="filter-condition">
                        <select class="input" aria-label="Filter attribute" data-testid="filter-attribute" on:change=move |ev| {
                            let attribute = event_target_value(&ev);
                            edit(&n_attr, Box::new(move |p| change_condition(p, at, |c| c.attribute = attribute)));
                        }>
                            {attributes.into_iter().map(|a| {
                                let selected = a == condition.attribute;
                                view! { <option value=a.clone() prop:selected=selected>{a.clone()}</option> }
                            }).collect_view()}
                        </select>
                        <select class="input" aria-label="Filter operator" data-testid="filter-op" on:change=move |ev| {
                            let Ok(op) = event_target_value(&ev).parse::<FilterOp>() else { return };
                            edit(&n_op, Box::new(move |p| change_condition(p, at, |c| {
                                c.op = op;
                                if op != FilterOp::In {
                                    c.count = None;
                                }
                            })));
                        }>
                            {FilterOp::ALL.into_iter().map(|op| {
                                view! { <option value=op.as_str() prop:selected=op == current_op>{op.as_str()}</option> }
                            }).collect_view()}
                        </select>
                        {(current_op == FilterOp::In).then(|| view! {
                            <input
                                class="input"
                                type="number"
                                min="1"
                                max=FilterCondition::MAX_IN_VALUES.to_string()
                                aria-label="Values of the in"
                                data-testid="filter-count"
                                prop:value=condition.count.unwrap_or(2).to_string()
                                on:change=move |ev| {
                                    if let Ok(n) = event_target_value(&ev).parse::<u32>()
                                        && (1..=FilterCondition::MAX_IN_VALUES).contains(&n)
                                    {
                                        edit(&n_count, Box::new(move |p| change_condition(p, at, |c| c.count = Some(n))));
                                    }
                                }
                            />
                        })}
                        <button class="button small" aria-label="Remove the filter condition" data-testid="filter-remove" on:click=move |_| {
                            edit(&n_remove, Box::new(move |p| {
                                if at < p.filter.len() {
                                    p.filter.remove(at);
                                }
                            }));
                        }>
                            "Remove"
                        </button>
                    </div>
                }
            })
            .collect_view()
    };
    view! {
        <fieldset class="field">
            <legend class="field-label">"Filter (after the read: it still reads what it drops)"</legend>
            {rows}
            <button class="button small" data-testid="filter-add" on:click=add disabled=move || candidates.with(Vec::is_empty)>
                "Add filter condition"
            </button>
        </fieldset>
    }
}
