//! The table editor: name, primary key, billing, TTL, and the secondary indexes (add or remove
//! GSIs and LSIs, their keys and projections). Selecting an index on the canvas opens this
//! editor with that index marked.

use keyplan_core::edit::Edit;
use keyplan_core::{Billing, Gsi, KeyAttribute, KeyType, Lsi, Projection, Table};
use leptos::prelude::*;

use super::capacity_editor::CapacityEditor;
use super::field::{TextField, options, show_kept};
use super::key_list::KeyList;
use super::modify_table;
use crate::session::{Selection, use_session};
use crate::store::use_store;
use crate::text::split_list;

const KEY_TYPES: &[(&str, &str)] = &[("S", "S"), ("N", "N"), ("B", "B")];
const PROJECTIONS: &[(&str, &str)] = &[
    ("ALL", "All attributes"),
    ("KEYS_ONLY", "Keys only"),
    ("INCLUDE", "Include…"),
];

fn key_type(v: &str) -> KeyType {
    match v {
        "N" => KeyType::N,
        "B" => KeyType::B,
        _ => KeyType::S,
    }
}

fn key_type_label(t: KeyType) -> String {
    match t {
        KeyType::S => "S",
        KeyType::N => "N",
        KeyType::B => "B",
    }
    .to_string()
}

fn projection_value(p: &Projection) -> String {
    match p {
        Projection::All => "ALL",
        Projection::KeysOnly => "KEYS_ONLY",
        Projection::Include { .. } => "INCLUDE",
    }
    .to_string()
}

/// The next free index number: `GSI<n>` / `LSI<n>` with keys `GSI<n>PK`, `GSI<n>SK`.
fn free_index(table: &Table, prefix: &str) -> usize {
    (1..)
        .find(|n| {
            let name = format!("{prefix}{n}");
            table.gsi(&name).is_none()
                && table.lsi(&name).is_none()
                && !table
                    .key_attributes()
                    .iter()
                    .any(|k| k.name.starts_with(&name))
        })
        .unwrap_or(1)
}

#[component]
pub fn TableEditor(
    /// The table edited.
    name: String,
    /// The index to mark (selected on the canvas).
    focus: Option<String>,
) -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let table = {
        let name = name.clone();
        Memo::new(move |_| store.with(|d| d.table(&name).cloned()))
    };
    let rename = {
        let name = name.clone();
        Callback::new(move |to: String| {
            let to = to.trim().to_string();
            if modify_table(&store, &name, |t| t.name = to.clone()) {
                session.select(Selection::Table(to));
            }
        })
    };
    let tname = name.clone();
    let field = move |f: fn(&Table) -> String| {
        Signal::derive(move || table.with(|t| t.as_ref().map(f).unwrap_or_default()))
    };
    let n = name.clone();
    let set = move |change: Box<dyn FnOnce(&mut Table)>| {
        modify_table(&store, &n, change);
    };
    let (s1, s2, s3, s4, s5, s6) = (
        set.clone(),
        set.clone(),
        set.clone(),
        set.clone(),
        set.clone(),
        set.clone(),
    );
    let add_gsi = {
        let name = name.clone();
        move |_| {
            let Some(t) = table.get_untracked() else {
                return;
            };
            let n = free_index(&t, "GSI");
            let gsi = Gsi {
                name: format!("GSI{n}"),
                partition_key: vec![KeyAttribute::new(format!("GSI{n}PK"), KeyType::S)],
                sort_key: vec![KeyAttribute::new(format!("GSI{n}SK"), KeyType::S)],
                projection: Projection::All,
            };
            store.dispatch(Edit::AddGsi {
                table: name.clone(),
                at: t.gsis.len(),
                gsi,
            });
        }
    };
    let add_lsi = {
        let name = name.clone();
        move |_| {
            let Some(t) = table.get_untracked() else {
                return;
            };
            let n = free_index(&t, "LSI");
            let lsi = Lsi {
                name: format!("LSI{n}"),
                sort_key: KeyAttribute::new(format!("LSI{n}SK"), KeyType::S),
                projection: Projection::All,
            };
            store.dispatch(Edit::AddLsi {
                table: name.clone(),
                at: t.lsis.len(),
                lsi,
            });
        }
    };
    let gsis = move || table.with(|t| t.as_ref().map(|t| t.gsis.clone()).unwrap_or_default());
    let lsis = move || table.with(|t| t.as_ref().map(|t| t.lsis.clone()).unwrap_or_default());
    let slot_of = {
        let tname = tname.clone();
        move |index: &str| store.with_untracked(|d| crate::cards::slot(d, &tname, Some(index)))
    };
    let slot_of_l = slot_of.clone();
    let focus_g = focus.clone();
    let focus_l = focus.clone();
    let tname_g = name.clone();
    let tname_l = name.clone();

    view! {
        <>
            <section class="inspector-section">
                <p class="inspector-kind">"Table"</p>
                <TextField label="Name" value=Signal::derive({ let n = name.clone(); move || n.clone() }) on_change=rename testid="table-name-input"/>
                <div class="field-row">
                    <TextField label="Partition key" mono=true testid="table-partition-key" value=field(|t| t.partition_key.name.clone())
                        on_change=Callback::new({ let s = s1.clone(); move |v: String| s(Box::new(move |t| t.partition_key.name = v.trim().to_string())) })/>
                    <label class="field narrow">
                        <span class="field-label">"Type"</span>
                        <select class="input" aria-label="Partition key type" prop:value=field(|t| key_type_label(t.partition_key.ty)) on:change=move |ev| { let k = key_type(&event_target_value(&ev)); s2(Box::new(move |t| t.partition_key.ty = k)); }>
                            {options(KEY_TYPES, field(|t| key_type_label(t.partition_key.ty)))}
                        </select>
                    </label>
                </div>
                <div class="field-row">
                    <TextField label="Sort key" mono=true placeholder="none" value=field(|t| t.sort_key.as_ref().map(|k| k.name.clone()).unwrap_or_default())
                        on_change=Callback::new({ let s = s3.clone(); move |v: String| s(Box::new(move |t| {
                            let v = v.trim().to_string();
                            t.sort_key = if v.is_empty() { None } else { Some(KeyAttribute::new(v, t.sort_key.as_ref().map_or(KeyType::S, |k| k.ty))) };
                        })) })/>
                    <label class="field narrow">
                        <span class="field-label">"Type"</span>
                        <select class="input" aria-label="Sort key type" prop:value=field(|t| t.sort_key.as_ref().map(|k| key_type_label(k.ty)).unwrap_or_default()) on:change=move |ev| { let k = key_type(&event_target_value(&ev)); s4(Box::new(move |t| if let Some(sk) = t.sort_key.as_mut() { sk.ty = k })); }>
                            {options(KEY_TYPES, field(|t| t.sort_key.as_ref().map(|k| key_type_label(k.ty)).unwrap_or_default()))}
                        </select>
                    </label>
                </div>
                <div class="field-row">
                    <label class="field">
                        <span class="field-label">"Billing"</span>
                        <select class="input" aria-label="Billing mode" prop:value=field(|t| if matches!(t.billing, Billing::OnDemand) { "on_demand".into() } else { "provisioned".into() }) on:change=move |ev| {
                            let provisioned = event_target_value(&ev) == "provisioned";
                            s5(Box::new(move |t| t.billing = if provisioned { Billing::provisioned(5, 5) } else { Billing::OnDemand }));
                        }>
                            {options(&[("on_demand", "On demand"), ("provisioned", "Provisioned")], field(|t| if matches!(t.billing, Billing::OnDemand) { "on_demand".into() } else { "provisioned".into() }))}
                        </select>
                    </label>
                    <TextField label="TTL attribute" mono=true placeholder="none" value=field(|t| t.ttl_attribute.clone().unwrap_or_default())
                        on_change=Callback::new({ let s = s6.clone(); move |v: String| s(Box::new(move |t| { let v = v.trim().to_string(); t.ttl_attribute = (!v.is_empty()).then_some(v); })) })/>
                </div>
                // issue 40: a provisioned table's capacity, auto scaling and GSI capacities.
                <CapacityEditor name=tname.clone()/>
                // A global table's other Regions, comma-separated: the cost counts their writes.
                <TextField label="Replica Regions" mono=true placeholder="none (one Region)" testid="table-replicas" value=field(|t| t.replicas.join(", "))
                    on_change=Callback::new({ let s = s6.clone(); move |v: String| s(Box::new(move |t| {
                        t.replicas = v.split(',').map(str::trim).filter(|r| !r.is_empty()).map(str::to_string).collect();
                    })) })/>
            </section>
            <section class="inspector-section">
                <div class="section-head">
                    <h3>"Global secondary indexes"</h3>
                    <button class="button small" data-testid="add-gsi" on:click=add_gsi>"+ GSI"</button>
                </div>
                <For
                    each=gsis
                    key=|g| format!("{g:?}")
                    children=move |g| {
                        let marked = focus_g.as_deref() == Some(g.name.as_str());
                        let slot = slot_of(&g.name);
                        index_card(tname_g.clone(), IndexDraft::Gsi(g), slot, marked)
                    }
                />
            </section>
            <section class="inspector-section">
                <div class="section-head">
                    <h3>"Local secondary indexes"</h3>
                    <button class="button small" data-testid="add-lsi" on:click=add_lsi>"+ LSI"</button>
                </div>
                <p class="hint">"An LSI shares the table's partition key and can only be created with the table."</p>
                <For
                    each=lsis
                    key=|l| format!("{l:?}")
                    children=move |l| {
                        let marked = focus_l.as_deref() == Some(l.name.as_str());
                        let slot = slot_of_l(&l.name);
                        index_card(tname_l.clone(), IndexDraft::Lsi(l), slot, marked)
                    }
                />
            </section>
        </>
    }
}

/// A GSI or an LSI being edited.
#[derive(Debug, Clone)]
enum IndexDraft {
    Gsi(Gsi),
    Lsi(Lsi),
}

impl IndexDraft {
    fn name(&self) -> &str {
        match self {
            IndexDraft::Gsi(g) => &g.name,
            IndexDraft::Lsi(l) => &l.name,
        }
    }

    fn projection(&self) -> &Projection {
        match self {
            IndexDraft::Gsi(g) => &g.projection,
            IndexDraft::Lsi(l) => &l.projection,
        }
    }

    fn set_projection(&mut self, p: Projection) {
        match self {
            IndexDraft::Gsi(g) => g.projection = p,
            IndexDraft::Lsi(l) => l.projection = p,
        }
    }

    fn edit(self, table: &str, name: &str) -> Edit {
        match self {
            IndexDraft::Gsi(gsi) => Edit::SetGsi {
                table: table.into(),
                name: name.into(),
                gsi,
            },
            IndexDraft::Lsi(lsi) => Edit::SetLsi {
                table: table.into(),
                name: name.into(),
                lsi,
            },
        }
    }

    fn remove(&self, table: &str) -> Edit {
        match self {
            IndexDraft::Gsi(g) => Edit::RemoveGsi {
                table: table.into(),
                name: g.name.clone(),
            },
            IndexDraft::Lsi(l) => Edit::RemoveLsi {
                table: table.into(),
                name: l.name.clone(),
            },
        }
    }
}

fn index_card(table: String, draft: IndexDraft, slot: usize, marked: bool) -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let name = draft.name().to_string();
    let change = {
        let (table, name, draft) = (table.clone(), name.clone(), draft.clone());
        move |f: Box<dyn FnOnce(&mut IndexDraft)>| {
            let mut d = draft.clone();
            f(&mut d);
            store.dispatch(d.edit(&table, &name))
        }
    };
    let (c1, c2, c3, c4, c5) = (
        change.clone(),
        change.clone(),
        change.clone(),
        change.clone(),
        change.clone(),
    );
    let (pk, sk) = match &draft {
        IndexDraft::Gsi(g) => (Some(g.partition_key.clone()), g.sort_key.clone()),
        IndexDraft::Lsi(l) => (None, vec![l.sort_key.clone()]),
    };
    let is_gsi = matches!(draft, IndexDraft::Gsi(_));
    let include = match draft.projection() {
        Projection::Include { attributes } => Some(attributes.join(", ")),
        _ => None,
    };
    let projection = Signal::derive({
        let v = projection_value(draft.projection());
        move || v.clone()
    });
    let remove = draft.remove(&table);
    let select_name = name.clone();
    view! {
        <div class=format!("index-card slot-{slot}") class:marked=marked data-testid="index-card" data-index=name.clone()>
            <div class="index-card-head">
                <span class="swatch"></span>
                <input
                    class="input mono index-name"
                    aria-label="Index name"
                    prop:value=name.clone()
                    on:change=move |ev| {
                        let to = event_target_value(&ev).trim().to_string();
                        if !c1(Box::new({ let to = to.clone(); move |d| match d { IndexDraft::Gsi(g) => g.name = to, IndexDraft::Lsi(l) => l.name = to } })) {
                            // issue 12: a refused rename shows the name kept.
                            show_kept(&ev, select_name.clone());
                        }
                    }
                />
                <button class="icon-button small" aria-label=format!("Remove index {name}") title="Remove index" on:click=move |_| {
                    if store.dispatch(remove.clone()) {
                        session.select(Selection::Table(table.clone()));
                    }
                }>"×"</button>
            </div>
            {pk.map(|pk| view! {
                <KeyList label="Partition key" keys=pk min=1 max=4 testid="index-partition-key"
                    on_change=Callback::new(move |keys: Vec<KeyAttribute>| {
                        c2(Box::new(move |d| if let IndexDraft::Gsi(g) = d { g.partition_key = keys }));
                    })/>
            })}
            <KeyList label="Sort key" keys=sk min=usize::from(!is_gsi) max=if is_gsi { 4 } else { 1 } testid="index-sort-key"
                on_change=Callback::new(move |keys: Vec<KeyAttribute>| {
                    c3(Box::new(move |d| match d {
                        IndexDraft::Gsi(g) => g.sort_key = keys,
                        IndexDraft::Lsi(l) => if let Some(k) = keys.into_iter().next() { l.sort_key = k },
                    }));
                })/>
            <label class="field">
                <span class="field-label">"Projection"</span>
                <select class="input" aria-label="Projection" prop:value=projection on:change=move |ev| {
                    let p = match event_target_value(&ev).as_str() {
                        "KEYS_ONLY" => Projection::KeysOnly,
                        "INCLUDE" => Projection::Include { attributes: Vec::new() },
                        _ => Projection::All,
                    };
                    c4(Box::new(move |d| d.set_projection(p)));
                }>
                    {options(PROJECTIONS, projection)}
                </select>
            </label>
            {include.map(|attrs| view! {
                <label class="field">
                    <span class="field-label">"Projected attributes"</span>
                    <input class="input mono" aria-label="Projected attributes" prop:value=attrs on:change=move |ev| {
                        let attributes = split_list(&event_target_value(&ev));
                        c5(Box::new(move |d| d.set_projection(Projection::Include { attributes })));
                    }/>
                </label>
            })}
        </div>
    }
}
