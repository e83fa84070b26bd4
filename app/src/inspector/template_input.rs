//! A key-template field validated as you type: core's diagnostics are underlined at their span
//! (a mirror of the text behind the transparent input) and listed below, with the findings
//! about this key and their quick fixes ("Add attribute `customerId` to Order").

use keyplan_core::KeyTemplate;
use keyplan_core::edit::Edit;
use leptos::prelude::*;

use crate::session::use_session;
use crate::store::use_store;
use crate::text::underline;

#[component]
pub fn TemplateInput(
    /// The entity whose key this is.
    entity: String,
    /// The key attribute (`PK`, `GSI1SK`).
    key_name: String,
    /// The index's colour slot.
    colour: usize,
    /// The index's name, for the label (`None`: the table).
    index: Option<String>,
) -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let source = {
        let (entity, key) = (entity.clone(), key_name.clone());
        Memo::new(move |_| {
            store.with(|d| {
                d.entity(&entity)
                    .and_then(|e| e.keys.get(&key))
                    .map(|t| t.source().to_string())
                    .unwrap_or_default()
            })
        })
    };
    let implicit = {
        let (entity, key) = (entity.clone(), key_name.clone());
        Memo::new(move |_| {
            store.with(|d| {
                d.entity(&entity)
                    .is_some_and(|e| e.attribute(&key).is_some())
            })
        })
    };
    let parsed = Memo::new(move |_| {
        source.with(|s| {
            if s.is_empty() {
                (Vec::new(), Vec::new())
            } else {
                let t = KeyTemplate::parse(s);
                let messages = t
                    .diagnostics()
                    .iter()
                    .map(|d| d.message.clone())
                    .collect::<Vec<_>>();
                (underline(s, t.diagnostics()), messages)
            }
        })
    });
    let findings = {
        let place = keyplan_core::Place::key(&entity, &key_name);
        Memo::new(move |_| {
            store.analysis.with(|a| {
                a.findings
                    .iter()
                    // KP001 repeats the parse diagnostics listed above it (issue 12).
                    .filter(|f| f.place == place && f.code != "KP001")
                    .map(|f| {
                        (
                            format!("{} {}", f.code, f.message),
                            f.fix.clone(),
                            crate::panels::severity_name(f.severity),
                        )
                    })
                    .collect::<Vec<_>>()
            })
        })
    };
    let focused = {
        let key = key_name.clone();
        move || session.focus_key.get().as_deref() == Some(key.as_str())
    };
    let input_ref: NodeRef<leptos::html::Input> = NodeRef::new();
    Effect::new({
        let focused = focused.clone();
        move |_| {
            if focused()
                && let Some(el) = input_ref.get()
            {
                let _ = el.focus();
            }
        }
    });
    let on_input = {
        let (entity, key) = (entity.clone(), key_name.clone());
        move |ev: web_sys::Event| {
            let text = event_target_value(&ev);
            let template = (!text.is_empty()).then(|| KeyTemplate::parse(&text));
            store.dispatch(Edit::SetKeyTemplate {
                entity: entity.clone(),
                key: key.clone(),
                template,
            });
        }
    };
    let placeholder = {
        let key = key_name.clone();
        let of_table = index.is_none();
        move || {
            if implicit.get() {
                format!("{{{key}}} (the attribute's own value)")
            } else if of_table {
                // issue 43: every item holds the table's key; only an index can be sparse.
                "required: every item has the table's key".to_string()
            } else {
                "not in this index (sparse)".to_string()
            }
        }
    };
    let label = format!("{key_name} template of {entity}");
    let where_ = index.clone().unwrap_or_else(|| "table".to_string());
    let invalid = move || parsed.with(|(_, m)| !m.is_empty());
    view! {
        <div class=format!("template-row slot-{colour}") class:focused=focused>
            <span class="key-chip" title=format!("{key_name} on the {where_}")>{key_name.clone()}</span>
            <div class="template-field" class:invalid=invalid>
                <div class="template-mirror" aria-hidden="true">
                    {move || parsed.get().0.into_iter().map(|s| {
                        if s.error {
                            view! { <mark class="squiggle">{s.text}</mark> }.into_any()
                        } else {
                            view! { <span>{s.text}</span> }.into_any()
                        }
                    }).collect_view()}
                </div>
                <input
                    class="template-input mono"
                    node_ref=input_ref
                    type="text"
                    spellcheck="false"
                    autocomplete="off"
                    aria-label=label
                    aria-invalid=move || invalid().to_string()
                    data-testid=format!("template-{key_name}")
                    placeholder=placeholder
                    prop:value=move || source.get()
                    on:focus=move |_| store.begin()
                    on:blur=move |_| store.commit()
                    on:input=on_input
                />
            </div>
            <ul class="diagnostics" aria-live="polite">
                {move || parsed.get().1.into_iter().map(|m| view! { <li class="diagnostic error">{m}</li> }).collect_view()}
                {move || findings.get().into_iter().map(|(m, fix, severity)| view! {
                    <li class=format!("diagnostic {severity}")>
                        {m}
                        {fix.map(|fix| {
                            let text = fix.label();
                            view! {
                                <button class="button small quick-fix" data-testid="template-fix" on:click=move |_| {
                                    if let Some(edit) = store.with_untracked(|d| fix.edit(d)) {
                                        store.dispatch(edit);
                                    }
                                }>
                                    {text}
                                </button>
                            }
                        })}
                    </li>
                }).collect_view()}
            </ul>
        </div>
    }
}
