//! The capacity a provisioned table is given (issue 40): its read and write capacity units, the
//! bounds auto scaling keeps each in (least, most, target utilisation), and each GSI's own
//! units. Each field commits one number through core's `Billing` helpers and a `SetTable`
//! edit, so undo and live co-editing take it as any edit; what AWS would refuse is refused
//! with core's reason, and the field shows what the design kept. KP031 (throttling) and the
//! cost report follow the design.

use keyplan_core::{Billing, Bound, Dimension, Table};
use leptos::prelude::*;

use super::field::show_kept;
use super::modify_table;
use crate::session::use_session;
use crate::store::use_store;

/// What a field's text means: `None` for an empty field.
enum Entry {
    Empty,
    Number(f64),
}

/// Reads a field's text: empty, or a number (a unit count or a percentage).
fn entry(text: &str) -> Result<Entry, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Entry::Empty);
    }
    match text.parse::<f64>() {
        Ok(n) if n.is_finite() && n >= 0.0 => Ok(Entry::Number(n)),
        _ => Err(format!(
            "`{text}` is not a number of capacity units or a percentage"
        )),
    }
}

/// A whole number of capacity units, at least 1 (AWS's least provisioned throughput).
fn units(n: f64) -> Result<u64, String> {
    if n >= 1.0 && n.fract() == 0.0 && n <= 1e15 {
        Ok(n as u64)
    } else {
        Err(format!(
            "{n} is not a whole number of capacity units of at least 1"
        ))
    }
}

/// What one field sets: a dimension's units of the table or of a GSI, or one bound of the
/// table's auto scaling.
#[derive(Clone)]
enum Target {
    Units(Option<String>, Dimension),
    Min(Dimension),
    Max(Dimension),
    Utilisation(Dimension),
}

impl Target {
    /// The field's text from the design's billing.
    fn shown(&self, billing: &Billing) -> String {
        let number = |n: Option<u64>| n.map(|n| n.to_string()).unwrap_or_default();
        match self {
            // A GSI without capacity of its own shows none: its placeholder says it has the
            // table's.
            Target::Units(Some(index), _) if !billing.has_own_capacity(index) => String::new(),
            Target::Units(index, dimension) => number(billing.units(index.as_deref(), *dimension)),
            Target::Min(dimension) => number(billing.scaling(None, *dimension).map(|s| s.min)),
            Target::Max(dimension) => number(billing.scaling(None, *dimension).map(|s| s.max)),
            Target::Utilisation(dimension) => billing
                .scaling(None, *dimension)
                .and_then(|s| s.target)
                .map(|t| t.to_string())
                .unwrap_or_default(),
        }
    }

    /// Applies `text` to `billing`, or says why not.
    fn apply(&self, billing: &mut Billing, text: &str) -> Result<(), String> {
        let entry = entry(text)?;
        match (self, entry) {
            (Target::Units(Some(index), _), Entry::Empty) => {
                billing.clear_index_capacity(index);
                Ok(())
            }
            (Target::Units(None, _), Entry::Empty) => Err(
                "a provisioned table needs its capacity units: choose On demand to have none"
                    .to_string(),
            ),
            (Target::Units(index, dimension), Entry::Number(n)) => {
                billing.set_units(index.as_deref(), *dimension, units(n)?);
                Ok(())
            }
            (Target::Min(dimension) | Target::Max(dimension), Entry::Empty) => {
                billing.clear_scaling(None, *dimension);
                Ok(())
            }
            (Target::Min(dimension), Entry::Number(n)) => {
                billing.set_scaling_bound(None, *dimension, Bound::Min(units(n)?))
            }
            (Target::Max(dimension), Entry::Number(n)) => {
                billing.set_scaling_bound(None, *dimension, Bound::Max(units(n)?))
            }
            (Target::Utilisation(dimension), Entry::Empty) => {
                if billing.scaling(None, *dimension).is_none() {
                    return Ok(());
                }
                billing.set_scaling_bound(None, *dimension, Bound::Target(None))
            }
            (Target::Utilisation(dimension), Entry::Number(n)) => {
                billing.set_scaling_bound(None, *dimension, Bound::Target(Some(n)))
            }
        }
    }
}

/// One number of the table's capacity: labelled, committed on Enter or leaving the field.
#[component]
fn CapacityField(
    /// The table edited.
    table: String,
    /// What the field sets.
    target: Target,
    /// The visible label (also the accessible name).
    label: String,
    /// Shown when the field is empty.
    #[prop(optional, into)]
    placeholder: String,
) -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let shown = {
        let (table, target) = (table.clone(), target.clone());
        Memo::new(move |_| {
            store.with(|d| {
                d.table(&table)
                    .map(|t| target.shown(&t.billing))
                    .unwrap_or_default()
            })
        })
    };
    let commit = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        let mut refused = None;
        modify_table(&store, &table, |t: &mut Table| {
            if let Err(why) = target.apply(&mut t.billing, &text) {
                refused = Some(why);
            }
        });
        if let Some(why) = refused {
            session.say(why);
        }
        show_kept(&ev, shown.get_untracked());
    };
    view! {
        <label class="field">
            <span class="field-label">{label.clone()}</span>
            <input
                class="input mono"
                type="text"
                inputmode="numeric"
                autocomplete="off"
                aria-label=label
                placeholder=placeholder
                prop:value=move || shown.get()
                on:focus=move |_| store.begin()
                on:blur=move |_| store.commit()
                on:change=commit
                on:keydown=move |ev| {
                    if ev.key() == "Enter" {
                        let _ = ev.target().map(|t| {
                            use leptos::wasm_bindgen::JsCast;
                            t.unchecked_into::<web_sys::HtmlElement>().blur()
                        });
                    }
                }
            />
        </label>
    }
}

/// The capacity fields of table `name`, shown while it is provisioned.
#[component]
pub fn CapacityEditor(
    /// The table edited.
    name: String,
) -> impl IntoView {
    let store = use_store();
    let provisioned = {
        let name = name.clone();
        Memo::new(move |_| {
            store.with(|d| {
                d.table(&name)
                    .is_some_and(|t| matches!(t.billing, Billing::Provisioned { .. }))
            })
        })
    };
    let gsis = {
        let name = name.clone();
        Memo::new(move |_| {
            store.with(|d| {
                d.table(&name)
                    .map(|t| t.gsis.iter().map(|g| g.name.clone()).collect::<Vec<_>>())
                    .unwrap_or_default()
            })
        })
    };
    move || {
        if !provisioned.get() {
            return None;
        }
        let name = name.clone();
        let field = |target: Target, label: String, placeholder: &'static str| {
            view! { <CapacityField table=name.clone() target=target label=label placeholder=placeholder/> }
        };
        let scaling_row = |dimension: Dimension, word: &'static str| {
            view! {
                <div class="capacity-row thirds" data-testid=format!("auto-scaling-{}", dimension.word())>
                    {field(Target::Min(dimension), format!("{word} min"), "fixed")}
                    {field(Target::Max(dimension), format!("{word} max"), "fixed")}
                    {field(Target::Utilisation(dimension), format!("{word} target %"), "70")}
                </div>
            }
        };
        let rows = view! {
            <div class="capacity-row" data-testid="capacity-units">
                {field(Target::Units(None, Dimension::Read), "Read units".to_string(), "")}
                {field(Target::Units(None, Dimension::Write), "Write units".to_string(), "")}
            </div>
            <p class="field-label">"Auto scaling (empty: fixed capacity)"</p>
            {scaling_row(Dimension::Read, "Read")}
            {scaling_row(Dimension::Write, "Write")}
        };
        let table = name.clone();
        let gsi_rows = move || {
            gsis.get()
                .into_iter()
                .map(|gsi| {
                    let (table, index) = (table.clone(), gsi.clone());
                    view! {
                        <div class="capacity-row" data-testid="gsi-capacity">
                            <CapacityField table=table.clone() target=Target::Units(Some(index.clone()), Dimension::Read)
                                label=format!("{gsi} read units") placeholder="the table's"/>
                            <CapacityField table=table target=Target::Units(Some(index), Dimension::Write)
                                label=format!("{gsi} write units") placeholder="the table's"/>
                        </div>
                    }
                })
                .collect_view()
        };
        Some(view! {
            <div class="capacity" data-testid="table-capacity">
                {rows}
                <p class="hint">"A GSI has the table's capacity unless given its own."</p>
                {gsi_rows}
            </div>
        })
    }
}
