//! The key attributes of one side of a secondary index: a row per attribute with its name and
//! type, added and removed one at a time, up to four for a multi-attribute GSI key and exactly
//! one for an LSI's sort key. A row whose name is cleared is removed; the type survives a
//! rename.

use keyplan_core::{KeyAttribute, KeyType};
use leptos::prelude::*;

const KEY_TYPES: [(KeyType, &str); 3] = [(KeyType::S, "S"), (KeyType::N, "N"), (KeyType::B, "B")];

fn type_of(value: &str) -> KeyType {
    KEY_TYPES
        .iter()
        .find(|(_, label)| *label == value)
        .map_or(KeyType::S, |(t, _)| *t)
}

fn type_select(
    label: String,
    current: KeyType,
    on_change: impl Fn(KeyType) + 'static,
) -> impl IntoView {
    view! {
        <select class="input key-type" aria-label=label prop:value=KEY_TYPES.iter().find(|(t, _)| *t == current).map_or("S", |(_, l)| *l) on:change=move |ev| on_change(type_of(&event_target_value(&ev)))>
            {KEY_TYPES
                .iter()
                .map(|(t, l)| view! { <option value=*l selected=*t == current>{*l}</option> })
                .collect_view()}
        </select>
    }
}

/// The editor. `keys` is the current list; `on_change` receives the whole new list.
#[component]
pub fn KeyList(
    /// "Partition key" or "Sort key".
    label: &'static str,
    keys: Vec<KeyAttribute>,
    /// At least this many attributes (a GSI's partition key: one).
    #[prop(default = 0)]
    min: usize,
    /// At most this many (four for a GSI, one for an LSI).
    max: usize,
    on_change: Callback<Vec<KeyAttribute>>,
    /// `data-testid` of the list.
    testid: &'static str,
) -> impl IntoView {
    let n = keys.len();
    let adding = RwSignal::new(false);
    let rows = keys
        .iter()
        .enumerate()
        .map(|(i, key)| {
            let rename = {
                let keys = keys.clone();
                move |ev: leptos::ev::Event| {
                    let name = event_target_value(&ev).trim().to_string();
                    let mut next = keys.clone();
                    if name.is_empty() {
                        if next.len() > min {
                            next.remove(i);
                        } else {
                            return;
                        }
                    } else {
                        next[i].name = name;
                    }
                    on_change.run(next);
                }
            };
            let retype = {
                let keys = keys.clone();
                move |ty: KeyType| {
                    let mut next = keys.clone();
                    next[i].ty = ty;
                    on_change.run(next);
                }
            };
            let remove = {
                let keys = keys.clone();
                move |_| {
                    let mut next = keys.clone();
                    next.remove(i);
                    on_change.run(next);
                }
            };
            let position = if max > 1 { format!(" {}", i + 1) } else { String::new() };
            view! {
                <li class="key-row">
                    <input class="input mono" aria-label=format!("{label}{position} name") prop:value=key.name.clone() on:change=rename/>
                    {type_select(format!("{label}{position} type"), key.ty, retype)}
                    {(n > min).then(|| view! {
                        <button class="icon-button small" aria-label=format!("Remove {label}{position}") title="Remove this attribute" on:click=remove>"×"</button>
                    })}
                </li>
            }
        })
        .collect_view();
    let append = {
        let keys = keys.clone();
        move |ev: leptos::ev::Event| {
            let name = event_target_value(&ev).trim().to_string();
            adding.set(false);
            if !name.is_empty() {
                let mut next = keys.clone();
                next.push(KeyAttribute::new(name, KeyType::S));
                on_change.run(next);
            }
        }
    };
    let hint = if max > 1 {
        format!("{label} (up to {max} attributes)")
    } else {
        label.to_string()
    };
    view! {
        <fieldset class="field key-list" data-testid=testid>
            <legend class="field-label">{hint}</legend>
            <ul class="plain-list">{rows}</ul>
            <Show when=move || adding.get()>
                <input class="input mono" aria-label=format!("New {label} attribute") placeholder="attribute name" autofocus=true on:change=append.clone() on:blur=move |_| adding.set(false)/>
            </Show>
            {(n < max).then(|| view! {
                <button class="button small" aria-label=format!("Add a {label} attribute") on:click=move |_| adding.set(true)>
                    {if n == 0 { "+ Add" } else { "+ Another" }}
                </button>
            })}
        </fieldset>
    }
}
