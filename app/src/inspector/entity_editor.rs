//! The entity editor: name, table, description, attributes (name, type, required, known
//! values) and the key templates per index of its table. Renaming an attribute that patterns
//! name offers to rename it there too (core's [`edit::follow_attribute_rename`]).

use keyplan_core::edit::{self, Edit};
use keyplan_core::{AttrType, Attribute};
use leptos::prelude::*;

use super::field::{TextField, show_kept};
use super::modify_entity;
use super::template_input::TemplateInput;
use crate::session::{NameField, Selection, use_session};
use crate::store::{Tracks, use_store};
use crate::text::split_list;

/// DynamoDB's attribute types: the code the type select shows (a row keeps one line at 1440
/// px with the name whole, issue 43), and what it means, its option's tooltip.
const TYPES: &[(&str, &str)] = &[
    ("S", "string"),
    ("N", "number"),
    ("B", "binary"),
    ("BOOL", "boolean"),
    ("NULL", "null"),
    ("M", "map"),
    ("L", "list"),
    ("SS", "string set"),
    ("NS", "number set"),
    ("BS", "binary set"),
];

/// How many characters the attribute name column is sized for: the longest name, within
/// bounds (style/app.css `.attr-row`).
fn name_column_chars(attributes: &[Attribute]) -> usize {
    attributes
        .iter()
        .map(|a| a.name.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(6, 32)
}

fn parse_type(text: &str) -> AttrType {
    text.parse().unwrap_or_default()
}

/// The edit that renames entity `from` to `to`: the id attribute it started with
/// (`newEntityId`, see [`crate::canvas::id_attribute`]) follows the name while it still has its
/// first name and the new one is free, its key templates with it (issue 12). One undo step.
pub fn rename_entity(design: &keyplan_core::Design, from: &str, to: &str) -> Edit {
    let rename = Edit::RenameEntity {
        from: from.to_string(),
        to: to.to_string(),
    };
    let Some(entity) = design.entity(from) else {
        return rename;
    };
    let (old_id, new_id) = (
        crate::canvas::id_attribute(from),
        crate::canvas::id_attribute(to),
    );
    let at = entity.attributes.iter().position(|a| a.name == old_id);
    match at {
        Some(at) if old_id != new_id && entity.attribute(&new_id).is_none() => {
            let attribute = Attribute {
                name: new_id,
                ..entity.attributes[at].clone()
            };
            Edit::Batch(vec![
                rename,
                Edit::SetAttribute {
                    entity: to.to_string(),
                    at,
                    attribute,
                },
            ])
        }
        _ => rename,
    }
}

/// Each index of the entity's table with its colour slot and key attributes.
type IndexKeys = Vec<(Option<String>, usize, Vec<String>)>;

/// What a rename offers next: its sentence, the edit that follows it, and the revision of the
/// design it was made for (issue 43: an offer is withdrawn once the design changes under it,
/// by an undo or another edit, since its edit was worked out on the design before).
type RenameOffer = RwSignal<Option<(String, Edit, u64)>>;

#[component]
pub fn EntityEditor(
    /// The entity edited.
    name: String,
) -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let entity = {
        let name = name.clone();
        Memo::new(move |_| store.with(|d| d.entity(&name).cloned()))
    };
    // The attribute rows are drawn from their own memo: a key-template keystroke changes the
    // entity but not its attributes, and must not rebuild every row of the table below it.
    let attributes = Memo::new(move |_| entity.with(|e| e.as_ref().map(|e| e.attributes.clone())));
    let tables = Memo::new(move |_| {
        store.with(|d| d.tables.iter().map(|t| t.name.clone()).collect::<Vec<_>>())
    });
    // The key groups follow the entity's table alone: a keystroke in a template changes the
    // entity, not which key attributes its table has, and must not work the groups out again.
    let table_name = Memo::new(move |_| entity.with(|e| e.as_ref().map(|e| e.table.clone())));
    let table = Memo::new(move |_| {
        table_name.with(|name| {
            let name = name.as_deref()?;
            store.with(|d| d.table(name).cloned())
        })
    });
    let index_keys = Memo::new(move |_| -> IndexKeys {
        table.with(|t| {
            let Some(t) = t else {
                return Vec::new();
            };
            let mut seen: Vec<String> = Vec::new();
            t.indexes()
                .iter()
                .enumerate()
                .map(|(slot, i)| {
                    let keys = i
                        .partition_key
                        .iter()
                        .chain(i.sort_key)
                        .filter(|k| !seen.contains(&k.name))
                        .map(|k| k.name.clone())
                        .collect::<Vec<_>>();
                    seen.extend(keys.iter().cloned());
                    (
                        i.name.map(str::to_string),
                        slot % crate::cards::N_COLOURS,
                        keys,
                    )
                })
                .filter(|(_, _, keys)| !keys.is_empty())
                .collect()
        })
    });

    let rename = {
        let name = name.clone();
        Callback::new(move |to: String| {
            let to = to.trim().to_string();
            let edit = store.with_untracked(|d| rename_entity(d, &name, &to));
            if store.dispatch(edit) {
                session.select(Selection::Entities(vec![to]));
            }
        })
    };
    let n1 = name.clone();
    let n2 = name.clone();
    let n3 = name.clone();
    let n4 = name.clone();
    let n5 = name.clone();
    let n6 = name.clone();
    let offer: RenameOffer = RwSignal::new(None);

    view! {
        <>
            <section class="inspector-section">
                <p class="inspector-kind">"Entity"</p>
                <TextField label="Name" value=Signal::derive({ let n = n1.clone(); move || n.clone() }) on_change=rename testid="entity-name-input" name_of=NameField::Entity(n1.clone())/>
                <label class="field">
                    <span class="field-label">"Table"</span>
                    <select
                        class="input"
                        aria-label="Table"
                        prop:value=move || table_name.get().unwrap_or_default()
                        on:change={
                            let name = n2.clone();
                            move |ev| {
                                store.dispatch(Edit::SetEntityTable { entity: name.clone(), table: event_target_value(&ev) });
                            }
                        }
                    >
                        // From the table's name, not the entity: a keystroke in a template
                        // does not make the options again (issue 43).
                        {move || {
                            let current = table_name.get().unwrap_or_default();
                            tables.get().into_iter().map(|t| {
                                let selected = t == current;
                                view! { <option value=t.clone() selected=selected>{t.clone()}</option> }
                            }).collect_view()
                        }}
                    </select>
                </label>
                <TextField
                    label="Description"
                    value=Signal::derive(move || entity.with(|e| e.as_ref().map(|e| e.description.clone()).unwrap_or_default()))
                    on_input=Callback::new({
                        let name = n3.clone();
                        move |text: String| {
                            store.dispatch(Edit::SetEntityDescription { entity: name.clone(), description: text });
                        }
                    })
                />
                <label class="field">
                    <span class="field-label">"Items in production"</span>
                    <input
                        class="input"
                        type="number"
                        min="0"
                        step="1"
                        data-testid="entity-volume"
                        placeholder="the sample's"
                        aria-label="Items of the entity in production"
                        prop:value=move || entity.with(|e| e.as_ref().and_then(|e| e.volume).map(|v| v.items.to_string()).unwrap_or_default())
                        on:change={
                            let name = n6.clone();
                            move |ev| {
                                let Ok(items) = crate::text::count(&event_target_value(&ev)) else {
                                    return;
                                };
                                let previous = entity.with_untracked(|e| e.as_ref().and_then(|e| e.volume));
                                let volume = keyplan_core::model::Volume::with_items(previous, items);
                                store.dispatch(Edit::SetEntityVolume { entity: name.clone(), volume });
                            }
                        }
                    />
                </label>
            </section>
            <section class="inspector-section">
                <div class="section-head">
                    <h3>"Key templates"</h3>
                    <span class="hint">"per index, validated as you type"</span>
                </div>
                <For
                    each=move || index_keys.get()
                    key=|k| k.clone()
                    children={
                        let name = n4.clone();
                        move |(index, slot, keys)| {
                            let title = index.clone().unwrap_or_else(|| "Table key".to_string());
                            let entity = name.clone();
                            view! {
                                <div class=format!("index-group slot-{slot}")>
                                    <div class="index-group-title"><span class="swatch"></span>{title}</div>
                                    {keys.into_iter().map(|k| view! {
                                        <TemplateInput entity=entity.clone() key_name=k colour=slot index=index.clone()/>
                                    }).collect_view()}
                                </div>
                            }
                        }
                    }
                />
            </section>
            <section class="inspector-section">
                <div class="section-head">
                    <h3>"Attributes"</h3>
                    <button
                        class="button small"
                        data-testid="add-attribute"
                        on:click={
                            let name = n5.clone();
                            move |_| {
                                let mut at = 0;
                                let added = modify_entity(&store, &name, |e| {
                                    let fresh = (1..).map(|n| format!("attribute{n}")).find(|n| e.attribute(n).is_none()).unwrap_or_default();
                                    e.attributes.push(Attribute::new(fresh, AttrType::S));
                                    at = e.attributes.len() - 1;
                                });
                                if added {
                                    session.focus_name.set(Some(NameField::Attribute { entity: name.clone(), at }));
                                }
                            }
                        }
                    >
                        "+ Attribute"
                    </button>
                </div>
                {move || offer.get().filter(|(_, _, at)| *at == store.revision(Tracks::Semantics)).map(|(text, follow, _)| view! {
                    <div class="rename-offer" role="status" data-testid="rename-offer">
                        <p>{text}</p>
                        <button class="button primary small" data-testid="rename-offer-apply" on:click=move |_| {
                            store.dispatch(follow.clone());
                            offer.set(None);
                        }>
                            "Rename in patterns"
                        </button>
                        <button class="button small" on:click=move |_| offer.set(None)>"Keep them"</button>
                    </div>
                })}
                <div
                    class="attr-table"
                    role="group"
                    aria-label="Attributes"
                    style=move || format!("--name-ch: {}", attributes.with(|a| name_column_chars(a.as_deref().unwrap_or_default())))
                >
                    // The columns' names, once above the rows, where each row said "req".
                    <div class="attr-head" aria-hidden="true">
                        <span>"Name"</span>
                        <span>"Type"</span>
                        <span title="Required">"Req"</span>
                        <span class="values">"Known values"</span>
                    </div>
                    {move || {
                        let name = n6.clone();
                        attributes.get().map(|attributes| attributes.into_iter().enumerate().map(|(at, a)| {
                            attribute_row(name.clone(), at, a, offer)
                        }).collect_view())
                    }}
                </div>
            </section>
        </>
    }
}

fn attribute_row(
    entity: String,
    at: usize,
    attribute: Attribute,
    offer: RenameOffer,
) -> impl IntoView {
    let store = use_store();
    let owner = entity.clone();
    let current = attribute.clone();
    let set = move |change: &dyn Fn(&mut Attribute)| {
        let mut a = current.clone();
        change(&mut a);
        let (from, to) = (current.name.clone(), a.name.clone());
        let renamed = store.dispatch(Edit::SetAttribute {
            entity: entity.clone(),
            at,
            attribute: a,
        });
        if renamed && from != to {
            let follow =
                store.with_untracked(|d| edit::follow_attribute_rename(d, &entity, &from, &to));
            offer.set(follow.map(|follow| {
                let n = match &follow {
                    Edit::Batch(edits) => edits.len(),
                    _ => 1,
                };
                let patterns = if n == 1 {
                    "1 pattern still names".to_string()
                } else {
                    format!("{n} patterns still name")
                };
                (
                    format!("{patterns} `{from}`: rename it to `{to}` there too?"),
                    follow,
                    store.revision_untracked(Tracks::Semantics),
                )
            }));
        }
    };
    let set = std::rc::Rc::new(set);
    let (s1, s2, s3, s4) = (set.clone(), set.clone(), set.clone(), set);
    let ty = Signal::derive({
        let t = crate::cards::type_label(attribute.ty);
        move || t.to_string()
    });
    let label = attribute.name.clone();
    let kept_name = {
        let owner = owner.clone();
        move || {
            store.with_untracked(|d| {
                d.entity(&owner)
                    .and_then(|e| e.attributes.get(at))
                    .map(|a| a.name.clone())
                    .unwrap_or_default()
            })
        }
    };
    let name_input: NodeRef<leptos::html::Input> = NodeRef::new();
    super::field::caret_when_asked(
        NameField::Attribute {
            entity: owner.clone(),
            at,
        },
        name_input,
    );
    view! {
        // A group of fields per attribute, not a table row: rows need a grid of cells around
        // them (axe's aria-required-children), and these are form fields in a list.
        <div class="attr-row" role="group" aria-label=format!("Attribute {}", at + 1)>
            <input
                node_ref=name_input
                class="input mono"
                aria-label=format!("Name of attribute {}", at + 1)
                prop:value=attribute.name.clone()
                on:focus=move |_| store.begin()
                on:blur=move |_| store.commit()
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    s1(&|a| a.name = v.trim().to_string());
                    show_kept(&ev, kept_name());
                }
            />
            <select
                class="input"
                aria-label=format!("Type of {label}")
                title=move || TYPES.iter().find(|(code, _)| ty.with(|t| t == code)).map(|(code, what)| format!("{code}: {what}")).unwrap_or_default()
                prop:value=ty
                on:change=move |ev| { let v = event_target_value(&ev); s2(&|a| a.ty = parse_type(&v)); }
            >
                {TYPES.iter().map(|&(code, what)| view! {
                    <option value=code title=what selected=move || ty.with(|t| t == code)>{code}</option>
                }).collect_view()}
            </select>
            <label class="check" title="Required">
                <input
                    type="checkbox"
                    aria-label=format!("{label} is required")
                    prop:checked=attribute.required
                    on:change=move |ev| { let v = event_target_checked(&ev); s3(&|a| a.required = v); }
                />
            </label>
            <button
                class="icon-button small"
                aria-label=format!("Remove attribute {label}")
                title="Remove"
                on:click=move |_| {
                    modify_entity(&store, &owner, |e| {
                        if at < e.attributes.len() {
                            e.attributes.remove(at);
                        }
                    });
                }
            >
                "×"
            </button>
            <input
                class="input values"
                aria-label=format!("Known values of {label}")
                placeholder="values"
                title="Known values, comma separated"
                prop:value=attribute.values.join(", ")
                on:focus=move |_| store.begin()
                on:blur=move |_| store.commit()
                on:change=move |ev| { let v = split_list(&event_target_value(&ev)); s4(&|a| a.values = v.clone()); }
            />
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use keyplan_core::edit::apply;

    fn design_with(entity: &str, attribute: &str, template: &str) -> keyplan_core::Design {
        let mut design = keyplan_core::Design::new("t");
        let mut e = keyplan_core::Entity {
            name: entity.into(),
            table: "app".into(),
            description: String::new(),
            attributes: vec![Attribute::new(attribute, AttrType::S)],
            keys: Default::default(),
            volume: None,
        };
        e.keys
            .insert("PK".into(), keyplan_core::KeyTemplate::parse(template));
        design.entities.push(e);
        design
    }

    fn renamed(design: &keyplan_core::Design, from: &str, to: &str) -> (Vec<String>, String) {
        let mut d = design.clone();
        apply(&mut d, rename_entity(design, from, to)).expect("the rename applies");
        let e = d.entity(to).expect("renamed");
        (
            e.attributes.iter().map(|a| a.name.clone()).collect(),
            e.keys["PK"].source().to_string(),
        )
    }

    // issue 12: the placeholder `newEntityId` follows the entity's name until edited.
    #[test]
    fn a_new_entitys_id_attribute_follows_its_name_with_the_templates_using_it() {
        let design = design_with("NewEntity", "newEntityId", "X#{newEntityId}");
        assert_eq!(
            renamed(&design, "NewEntity", "Product"),
            (vec!["productId".to_string()], "X#{productId}".to_string())
        );
    }

    #[test]
    fn an_id_attribute_the_user_renamed_stays_as_it_is() {
        let design = design_with("NewEntity", "sku", "X#{sku}");
        assert_eq!(
            renamed(&design, "NewEntity", "Product"),
            (vec!["sku".to_string()], "X#{sku}".to_string())
        );
    }
}
