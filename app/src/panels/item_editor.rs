//! A sample item written by hand in the data view: a generated item edited, a hand item changed
//! or given back to the generator, or an item added, typed as DynamoDB JSON. Saving is one edit
//! (`Edit::SetHandItems`), undone by one Undo; where the item goes and whether it still fits
//! its entity's key templates is core's to say (`keyplan_core::sample`).

use keyplan_core::edit::Edit;
use keyplan_core::limits::MAX_ITEM_BYTES;
use keyplan_core::{HandItem, Item};
use leptos::prelude::*;

use crate::store::use_store;

/// An item being written by hand.
#[derive(Debug, Clone, PartialEq)]
pub struct Editing {
    pub table: String,
    /// The entities the item may be of: its own alone when editing one, the table's when adding.
    pub entities: Vec<String>,
    /// The generated item it stands for: its primary key; `None` when adding.
    pub replaces: Option<Item>,
    /// Its position among the design's hand items when it is one already.
    pub hand: Option<usize>,
    /// The item as DynamoDB JSON, as the editor opens.
    pub json: String,
}

/// The design's hand items once `text` is saved for `editing` as an item of `entity`: the hand
/// item changed in place, or one more; or why `text` is not an item.
pub fn saved(
    current: &[HandItem],
    editing: &Editing,
    entity: &str,
    text: &str,
) -> Result<Vec<HandItem>, String> {
    if text.len() > MAX_ITEM_BYTES {
        return Err(format!(
            "The item is {} bytes of text; DynamoDB takes items up to {} KB.",
            keyplan_core::counts::thousands(text.len() as u64),
            MAX_ITEM_BYTES / 1024
        ));
    }
    let item: Item = serde_json::from_str(text).map_err(|e| {
        format!(
            "Not an item in DynamoDB JSON ({{\"name\": {{\"S\": \"text\"}}}}): line {}, column {}: {e}",
            e.line(),
            e.column()
        )
    })?;
    if item.is_empty() {
        return Err("The item has no attributes: give it at least its keys.".to_string());
    }
    let mut items = current.to_vec();
    match editing.hand.filter(|&at| at < items.len()) {
        Some(at) => {
            items[at].item = item;
            items[at].entity = entity.to_string();
        }
        None => items.push(HandItem {
            table: editing.table.clone(),
            entity: entity.to_string(),
            replaces: editing.replaces.clone(),
            item,
        }),
    }
    Ok(items)
}

#[component]
pub fn ItemEditor(
    /// The item being written; the editor closes by setting `None`.
    editing: RwSignal<Option<Editing>>,
) -> impl IntoView {
    let store = use_store();
    move || {
        let current = editing.get()?;
        let text = RwSignal::new(current.json.clone());
        let entity = RwSignal::new(current.entities.first().cloned().unwrap_or_default());
        let problem: RwSignal<Option<String>> = RwSignal::new(None);
        let adding = current.replaces.is_none() && current.hand.is_none();
        let title = match (adding, current.hand) {
            (true, _) => format!("Add an item to {}", current.table),
            (false, Some(_)) => "Edit the hand-written item".to_string(),
            (false, None) => "Edit the generated item (kept with the design)".to_string(),
        };
        let for_save = current.clone();
        let save = move |_| {
            let result = store.with_untracked(|d| {
                saved(
                    &d.hand_items,
                    &for_save,
                    &entity.get_untracked(),
                    &text.get_untracked(),
                )
            });
            match result {
                Ok(items) => {
                    store.dispatch(Edit::SetHandItems { items });
                    editing.set(None);
                }
                Err(e) => problem.set(Some(e)),
            }
        };
        let back = current.hand.map(|at| {
            let give_back = move |_| {
                let mut items = store.with_untracked(|d| d.hand_items.clone());
                if at < items.len() {
                    items.remove(at);
                    store.dispatch(Edit::SetHandItems { items });
                }
                editing.set(None);
            };
            view! {
                <button class="button small" data-testid="item-give-back" title="Drop the hand-written item: the generator's item (if any) comes back" on:click=give_back>
                    "Drop hand edit"
                </button>
            }
        });
        let entities = current.entities.clone();
        let one_entity = entities.len() < 2;
        let label = title.clone();
        Some(view! {
            <section class="run-box item-editor" data-testid="item-editor" aria-label=label>
                <h3>{title}</h3>
                <label class="field">
                    <span>"Entity"</span>
                    <select
                        data-testid="item-entity"
                        disabled=one_entity
                        on:change=move |ev| entity.set(event_target_value(&ev))
                    >
                        {entities.into_iter().map(|e| view! { <option value=e.clone()>{e.clone()}</option> }).collect_view()}
                    </select>
                </label>
                <label class="field">
                    <span>"Item (DynamoDB JSON)"</span>
                    <textarea
                        class="mono"
                        data-testid="item-json"
                        rows="12"
                        spellcheck="false"
                        prop:value=move || text.get()
                        on:input=move |ev| { text.set(event_target_value(&ev)); problem.set(None); }
                    ></textarea>
                </label>
                {move || problem.get().map(|p| view! { <p class="diagnostic error" role="alert" data-testid="item-problem">{p}</p> })}
                <div class="actions">
                    <button class="button small primary" data-testid="item-save" on:click=save>"Save item"</button>
                    {back}
                    <button class="button small" on:click=move |_| editing.set(None)>"Cancel"</button>
                </div>
            </section>
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use keyplan_core::AttributeValue;

    fn editing(hand: Option<usize>) -> Editing {
        Editing {
            table: "orders".into(),
            entities: vec!["Order".into()],
            replaces: Some([("PK".to_string(), AttributeValue::S("O#1".into()))].into()),
            hand,
            json: String::new(),
        }
    }

    #[test]
    fn saving_adds_a_hand_item_or_changes_the_one_edited() {
        let first = saved(
            &[],
            &editing(None),
            "Order",
            r#"{"PK": {"S": "O#1"}, "n": {"N": "2"}}"#,
        )
        .expect("an item");
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].replaces, editing(None).replaces);
        assert_eq!(first[0].item["n"], AttributeValue::N("2".into()));
        let again = saved(
            &first,
            &editing(Some(0)),
            "Order",
            r#"{"PK": {"S": "O#1"}}"#,
        )
        .expect("an item");
        assert_eq!(again.len(), 1);
        assert!(!again[0].item.contains_key("n"));
    }

    #[test]
    fn text_that_is_no_item_says_where() {
        let error = saved(&[], &editing(None), "Order", "{\"PK\": \"O#1\"}").expect_err("no type");
        assert!(error.starts_with("Not an item in DynamoDB JSON"), "{error}");
        assert!(error.contains("line 1, column"), "{error}");
        let error = saved(&[], &editing(None), "Order", "{}").expect_err("empty");
        assert_eq!(
            error,
            "The item has no attributes: give it at least its keys."
        );
        let long = format!("{{\"a\": {{\"S\": \"{}\"}}}}", "x".repeat(MAX_ITEM_BYTES));
        let error = saved(&[], &editing(None), "Order", &long).expect_err("too long");
        assert!(error.contains("up to 400 KB"), "{error}");
    }
}
