//! The access-pattern editor: what it returns, what the caller knows, the sort condition, the
//! filter conditions ([`FilterEditor`]),
//! the order (which attribute, which way: apart from the range condition), consistency and
//! rate; with the live verdict (its key condition with each placeholder's value, the order it
//! gives, its reasons), the quick fixes of the pattern's findings, and for a Scan (or a Query
//! sorted in memory) what coverage suggests, each applied in one click ([`SuggestionOffer`]).

use keyplan_core::edit::Edit;
use keyplan_core::{Action, Order, SortCondition, SortOp};
use leptos::prelude::*;

use super::field::{TextField, options};
use super::filter_editor::FilterEditor;
use super::modify_pattern;
use super::suggestion_offer::SuggestionOffer;
use crate::panels::Badge;
use crate::panels::VerdictBadge;
use crate::session::{Selection, use_session};
use crate::store::use_store;
use crate::text::split_list;

const ACTIONS: &[(&str, &str)] = &[
    ("read", "Read"),
    ("put", "Put"),
    ("update", "Update"),
    ("delete", "Delete"),
    ("transact", "Transaction"),
];
const OPS: &[(&str, &str)] = &[
    ("", "no sort condition"),
    ("=", "="),
    ("<", "<"),
    ("<=", "<="),
    (">", ">"),
    (">=", ">="),
    ("between", "between"),
    ("begins_with", "begins_with"),
];

fn action_value(a: Action) -> &'static str {
    a.as_str()
}

fn parse_action(v: &str) -> Action {
    v.parse().unwrap_or_default()
}

fn parse_op(v: &str) -> Option<SortOp> {
    v.parse().ok()
}

#[component]
pub fn PatternEditor(
    /// The pattern edited.
    name: String,
) -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let pattern = {
        let name = name.clone();
        Memo::new(move |_| store.with(|d| d.pattern(&name).cloned()))
    };
    let verdict = {
        let name = name.clone();
        Memo::new(move |_| store.verdict(&name))
    };
    let entity_names = Memo::new(move |_| {
        store.with(|d| {
            d.entities
                .iter()
                .map(|e| e.name.clone())
                .collect::<Vec<_>>()
        })
    });
    // The attributes of the entities the pattern returns: candidates for inputs and sort.
    let candidates = Memo::new(move |_| {
        pattern.with(|p| {
            let Some(p) = p else { return Vec::new() };
            store.with(|d| {
                let mut out: Vec<String> = Vec::new();
                for e in p.entities.iter().filter_map(|n| d.entity(n)) {
                    for a in &e.attributes {
                        if !out.contains(&a.name) {
                            out.push(a.name.clone());
                        }
                    }
                }
                out
            })
        })
    });
    let slot = Memo::new(move |_| {
        verdict.with(|v| {
            v.as_ref()
                .and_then(|v| {
                    v.table
                        .as_deref()
                        .map(|t| store.with(|d| crate::cards::slot(d, t, v.index.as_deref())))
                })
                .unwrap_or(0)
        })
    });
    let edit = {
        let name = name.clone();
        move |change: Box<dyn FnOnce(&mut keyplan_core::AccessPattern)>| {
            modify_pattern(&store, &name, change);
        }
    };
    let rename = {
        let name = name.clone();
        Callback::new(move |to: String| {
            let to = to.trim().to_string();
            if modify_pattern(&store, &name, |p| p.name = to.clone()) {
                session.select(Selection::Pattern(to));
            }
        })
    };
    // The pattern's findings that offer a quick fix (an input that is not an attribute, with the
    // name it likely meant).
    let fixes = {
        let place = keyplan_core::Place::Pattern(name.clone());
        Memo::new(move |_| {
            store.analysis.with(|a| {
                a.findings
                    .iter()
                    .filter(|f| f.place == place)
                    .filter_map(|f| f.fix.clone())
                    .collect::<Vec<_>>()
            })
        })
    };
    // A new pattern returns the selected entity, or the first one: say which, while it has no
    // inputs yet.
    let defaulted_to = Memo::new(move |_| {
        pattern.with(|p| {
            let p = p.as_ref()?;
            let first = store.with(|d| d.entities.first().map(|e| e.name.clone()))?;
            (p.inputs.is_empty() && p.entities == [first.clone()]).then_some(first)
        })
    });

    let e1 = edit.clone();
    let e2 = edit.clone();
    let e3 = edit.clone();
    let e4 = edit.clone();
    let e5 = edit.clone();
    let e6 = edit.clone();
    let e7 = edit.clone();
    let e8 = edit.clone();
    let e9 = edit.clone();
    let n1 = name.clone();

    let field = move |f: fn(&keyplan_core::AccessPattern) -> String| {
        Signal::derive(move || pattern.with(|p| p.as_ref().map(f).unwrap_or_default()))
    };

    view! {
        <>
            <section class="inspector-section">
                <p class="inspector-kind">"Access pattern"</p>
                <TextField label="Name" value=Signal::derive({ let n = n1.clone(); move || n.clone() }) on_change=rename testid="pattern-name-input" name_of=crate::session::NameField::Pattern(n1.clone())/>
                <TextField
                    label="Description"
                    value=field(|p| p.description.clone())
                    on_input=Callback::new({ let e = e1.clone(); move |t: String| e(Box::new(move |p| p.description = t)) })
                />
                // issue 40: the read as the PartiQL statement the application sends, judged by
                // the worker (this module has no parser): the verdict below is its, once it comes.
                <TextField
                    label="PartiQL"
                    testid="pattern-partiql"
                    value=field(|p| p.partiql.clone().unwrap_or_default())
                    on_input=Callback::new({ let e = e1.clone(); move |t: String| e(Box::new(move |p| p.partiql = (!t.trim().is_empty()).then_some(t))) })
                />
                // Said plainly until the worker has judged the statement: the verdict shown until
                // then is of the pattern's fields (a Scan or KP033 would not show yet).
                {let n = n1.clone(); move || (pattern.with(|p| p.as_ref().is_some_and(|p| p.statement().is_some())) && !store.judged_in_worker(&n)).then(|| view! {
                    <p class="hint" data-testid="partiql-pending">
                        "The statement is being judged in the background: until then the verdict below is of the pattern's fields, not of the statement."
                    </p>
                })}
                <div class="verdict-box" data-testid="verdict-box">
                    {move || verdict.get().map(|v| {
                        let scan = !v.covered;
                        let suggestions = v.suggestions.clone();
                        view! {
                            <div class="verdict-head">
                                <VerdictBadge badge=Badge::of(&v, slot.get_untracked())/>
                                {v.table.clone().map(|t| view! { <span class="hint">{format!("on {t}")}</span> })}
                            </div>
                            {v.key_condition.clone().map(|k| view! {
                                <code class="key-condition" data-testid="key-condition">{k.expression}</code>
                                <dl class="key-values" data-testid="key-values">
                                    {k.values.into_iter().map(|(placeholder, value)| view! {
                                        <div class="key-value"><dt class="mono">{placeholder}</dt><dd class="mono">{value.split_inclusive('#').map(|part| view! { {part.to_string()}<wbr/> }).collect_view()}</dd></div>
                                    }).collect_view()}
                                </dl>
                            })}
                            {v.filter.clone().map(|f| view! {
                                <p class="field-label">"Filter"</p>
                                <code class="key-condition" data-testid="filter-expression">{f.expression}</code>
                                <dl class="key-values" data-testid="filter-values">
                                    {f.names.into_iter().chain(f.values).map(|(placeholder, value)| view! {
                                        <div class="key-value"><dt class="mono">{placeholder}</dt><dd class="mono">{value}</dd></div>
                                    }).collect_view()}
                                </dl>
                            })}
                            {v.order.clone().map(|o| view! { <p class="hint" data-testid="verdict-order">{o}</p> })}
                            <ul class="reasons" class:scan=scan data-testid="verdict-reasons">
                                {v.reasons.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}
                            </ul>
                            {suggestions.into_iter().map(|s| view! { <SuggestionOffer suggestion=s/> }).collect_view()}
                        }
                    })}
                    {move || fixes.get().into_iter().map(|fix| {
                        let label = fix.label();
                        view! {
                            <button class="button small" data-testid="pattern-fix" on:click=move |_| {
                                if let Some(edit) = store.with_untracked(|d| fix.edit(d)) {
                                    store.dispatch(edit);
                                }
                            }>
                                {label}
                            </button>
                        }
                    }).collect_view()}
                </div>
            </section>
            <section class="inspector-section">
                <label class="field">
                    <span class="field-label">"Action"</span>
                    <select class="input" aria-label="Action" prop:value=field(|p| action_value(p.action).to_string()) on:change=move |ev| { let a = parse_action(&event_target_value(&ev)); e2(Box::new(move |p| p.action = a)); }>
                        {options(ACTIONS, field(|p| action_value(p.action).to_string()))}
                    </select>
                </label>
                <fieldset class="field">
                    <legend class="field-label">"Returns"</legend>
                    {move || defaulted_to.get().map(|first| view! {
                        <p class="hint" data-testid="returns-default">
                            {format!("Returns {first}, the first entity, since none was selected: pick the entities it reads.")}
                        </p>
                    })}
                    <div class="chips">
                        {move || entity_names.get().into_iter().map(|e| {
                            let on = pattern.with(|p| p.as_ref().is_some_and(|p| p.entities.contains(&e)));
                            let edit = e3.clone();
                            let label = e.clone();
                            view! {
                                <button
                                    class="chip"
                                    class:on=on
                                    aria-pressed=on.to_string()
                                    data-testid="returns-chip"
                                    on:click=move |_| {
                                        let e = e.clone();
                                        edit(Box::new(move |p| {
                                            if let Some(at) = p.entities.iter().position(|x| *x == e) { p.entities.remove(at); } else { p.entities.push(e); }
                                        }));
                                    }
                                >
                                    {label}
                                </button>
                            }
                        }).collect_view()}
                    </div>
                </fieldset>
                <TextField
                    label="Inputs (the attributes the caller knows)"
                    mono=true
                    testid="pattern-inputs"
                    placeholder="customerId, status"
                    value=field(|p| p.inputs.join(", "))
                    on_change=Callback::new({ let e = e4.clone(); move |t: String| e(Box::new(move |p| p.inputs = split_list(&t))) })
                />
                <div class="chips candidates" aria-label="Toggle an input">
                    {move || candidates.get().into_iter().map(|a| {
                        let on = pattern.with(|p| p.as_ref().is_some_and(|p| p.inputs.contains(&a)));
                        let edit = e5.clone();
                        let label = a.clone();
                        view! {
                            <button class="chip small" class:on=on aria-pressed=on.to_string() title="Toggle as an input" on:click=move |_| {
                                let a = a.clone();
                                edit(Box::new(move |p| {
                                    if let Some(at) = p.inputs.iter().position(|x| *x == a) { p.inputs.remove(at); } else { p.inputs.push(a); }
                                }));
                            }>
                                {label}
                            </button>
                        }
                    }).collect_view()}
                </div>
                <div class="field-row">
                    <label class="field">
                        <span class="field-label">"Sort by"</span>
                        <select class="input" aria-label="Sort condition attribute" prop:value=field(|p| p.sort.as_ref().map(|s| s.attribute.clone()).unwrap_or_default()) on:change=move |ev| {
                            let attr = event_target_value(&ev);
                            e6(Box::new(move |p| {
                                p.sort = if attr.is_empty() { None } else {
                                    Some(SortCondition { attribute: attr, op: p.sort.as_ref().map_or(SortOp::Ge, |s| s.op) })
                                };
                            }));
                        }>
                            <option value="">"none"</option>
                            {move || {
                                let current = pattern.with(|p| p.as_ref().and_then(|p| p.sort.as_ref().map(|s| s.attribute.clone())).unwrap_or_default());
                                candidates.get().into_iter().map(|a| {
                                    let selected = a == current;
                                    view! { <option value=a.clone() selected=selected>{a.clone()}</option> }
                                }).collect_view()
                            }}
                        </select>
                    </label>
                    <label class="field">
                        <span class="field-label">"Condition"</span>
                        <select class="input" aria-label="Sort condition operator" prop:value=field(|p| p.sort.as_ref().map(|s| s.op.as_str().to_string()).unwrap_or_default()) on:change=move |ev| {
                            let op = parse_op(&event_target_value(&ev));
                            e7(Box::new(move |p| match (op, p.sort.as_mut()) {
                                (Some(op), Some(s)) => s.op = op,
                                (None, _) => p.sort = None,
                                _ => {}
                            }));
                        }>
                            {options(OPS, field(|p| p.sort.as_ref().map(|s| s.op.as_str().to_string()).unwrap_or_default()))}
                        </select>
                    </label>
                </div>
                <FilterEditor
                    name=name.clone()
                    filter=Signal::derive(move || pattern.with(|p| p.as_ref().map(|p| p.filter.clone()).unwrap_or_default()))
                    candidates=candidates.into()
                />
                <div class="field-row">
                    <label class="field">
                        <span class="field-label">"Order"</span>
                        <select class="input" aria-label="Order" prop:value=field(|p| if p.order == Order::Desc { "desc".into() } else { "asc".into() }) on:change={ let e = e8.clone(); move |ev| {
                            let desc = event_target_value(&ev) == "desc";
                            e(Box::new(move |p| p.order = if desc { Order::Desc } else { Order::Asc }));
                        }}>
                            {options(&[("asc", "ascending (oldest first)"), ("desc", "descending (newest first)")], field(|p| if p.order == Order::Desc { "desc".into() } else { "asc".into() }))}
                        </select>
                    </label>
                    <label class="field">
                        <span class="field-label">"Ordered by"</span>
                        <select class="input" aria-label="Ordered by" data-testid="order-by" on:change=move |ev| {
                            let attr = event_target_value(&ev);
                            e8(Box::new(move |p| p.order_by = (!attr.is_empty()).then_some(attr)));
                        }>
                            {move || {
                                let current = pattern.with(|p| p.as_ref().and_then(|p| p.order_by.clone()).unwrap_or_default());
                                let mut names = candidates.get();
                                if !current.is_empty() && !names.contains(&current) {
                                    names.push(current.clone());
                                }
                                std::iter::once((String::new(), "the sort key's order".to_string()))
                                    .chain(names.into_iter().map(|a| (a.clone(), a)))
                                    .map(|(value, label)| {
                                        let selected = value == current;
                                        view! { <option value=value prop:selected=selected>{label}</option> }
                                    })
                                    .collect_view()
                            }}
                        </select>
                    </label>
                </div>
                <div class="field-row">
                    <label class="field">
                        <span class="field-label">"Peak rate (req/s)"</span>
                        <input
                            class="input"
                            type="number"
                            min="0"
                            step="any"
                            aria-label="Peak rate in requests per second"
                            prop:value=move || pattern.with(|p| p.as_ref().map(|p| p.rate.to_string()).unwrap_or_default())
                            on:focus=move |_| store.begin()
                            on:blur=move |_| store.commit()
                            on:input={ let e = e9.clone(); move |ev| {
                                if let Ok(rate) = event_target_value(&ev).parse::<f64>() && rate.is_finite() && rate >= 0.0 {
                                    e(Box::new(move |p| p.rate = rate));
                                }
                            }}
                        />
                    </label>
                    <label class="field">
                        <span class="field-label">"Peak ÷ average"</span>
                        <input
                            class="input"
                            type="number"
                            min="1"
                            step="any"
                            data-testid="peak-factor"
                            aria-label="How many times its average rate the peak rate is"
                            prop:value=move || pattern.with(|p| p.as_ref().map(|p| p.peak_factor.to_string()).unwrap_or_default())
                            on:change={ let e = edit.clone(); move |ev| {
                                if let Ok(factor) = event_target_value(&ev).parse::<f64>() && factor.is_finite() && factor >= 1.0 {
                                    e(Box::new(move |p| p.peak_factor = factor));
                                }
                            }}
                        />
                    </label>
                </div>
                <label class="check">
                    <input
                        type="checkbox"
                        aria-label="Strongly consistent read"
                        prop:checked=move || pattern.with(|p| p.as_ref().is_some_and(|p| p.consistent))
                        on:change={ let e = edit.clone(); move |ev| { let c = event_target_checked(&ev); e(Box::new(move |p| p.consistent = c)); } }
                    />
                    "Strongly consistent (no GSI can serve it)"
                </label>
                <button
                    class="button danger small"
                    on:click={
                        let name = name.clone();
                        move |_| {
                            if store.dispatch(Edit::RemovePattern { name: name.clone() }) {
                                session.select(Selection::None);
                            }
                        }
                    }
                >
                    "Delete access pattern"
                </button>
            </section>
        </>
    }
}
