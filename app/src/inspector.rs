//! The inspector: an editor for whatever is selected (an entity, a table or index, a pattern,
//! or the design itself). Editors only build edits; core applies them and the analysis
//! updates as the user types. A text field opens an undo group on focus and closes it on
//! blur, so a field's typing is one undo step.

mod capacity_editor;
mod design_editor;
mod entity_editor;
mod field;
mod filter_editor;
mod key_list;
mod pattern_editor;
mod suggestion_offer;
mod table_editor;
mod template_input;

use keyplan_core::edit::Edit;
use keyplan_core::{AccessPattern, Entity, Table};
use leptos::prelude::*;

use crate::session::{Selection, use_session};
use crate::store::{Store, use_store};

/// Dispatches `SetTable` with a changed copy of table `name`.
pub fn modify_table(store: &Store, name: &str, change: impl FnOnce(&mut Table)) -> bool {
    let Some(mut table) = store.with_untracked(|d| d.table(name).cloned()) else {
        return false;
    };
    change(&mut table);
    store.dispatch(Edit::SetTable {
        name: name.to_string(),
        table,
    })
}

/// Dispatches `SetPattern` with a changed copy of pattern `name`.
pub fn modify_pattern(store: &Store, name: &str, change: impl FnOnce(&mut AccessPattern)) -> bool {
    let Some(mut pattern) = store.with_untracked(|d| d.pattern(name).cloned()) else {
        return false;
    };
    change(&mut pattern);
    store.dispatch(Edit::SetPattern {
        name: name.to_string(),
        pattern,
    })
}

/// Dispatches `SetEntity` with a changed copy of entity `name` (never its name).
pub fn modify_entity(store: &Store, name: &str, change: impl FnOnce(&mut Entity)) -> bool {
    let Some(mut entity) = store.with_untracked(|d| d.entity(name).cloned()) else {
        return false;
    };
    change(&mut entity);
    entity.name = name.to_string();
    store.dispatch(Edit::SetEntity {
        name: name.to_string(),
        entity,
    })
}

/// What the inspector edits: the selection, or nothing once the selected thing is gone.
#[derive(Clone, Copy, Debug)]
pub struct Editing(pub Memo<Selection>);

/// The editor of what is selected (an entity or several, a table, an index, a pattern), in
/// the module split off the first load (`deferred`): the first paint shows the design's.
pub fn selection_editor() -> AnyView {
    let Some(Editing(target)) = use_context::<Editing>() else {
        return ().into_any();
    };
    (move || match target.get() {
        Selection::Entities(names) if names.len() == 1 => {
            let name = names[0].clone();
            view! { <entity_editor::EntityEditor name=name/> }.into_any()
        }
        Selection::Entities(names) => view! {
            <section class="inspector-section">
                <h2 class="inspector-title">{format!("{} entities selected", names.len())}</h2>
                <p class="hint">"Drag any of them to move them together. Shift+click adds or removes one."</p>
                <ul class="plain-list">{names.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
            </section>
        }
        .into_any(),
        Selection::Table(table) => view! { <table_editor::TableEditor name=table focus=None/> }.into_any(),
        Selection::Index { table, index } => {
            view! { <table_editor::TableEditor name=table focus=Some(index)/> }.into_any()
        }
        Selection::Pattern(name) => view! { <pattern_editor::PatternEditor name=name/> }.into_any(),
        Selection::None => ().into_any(),
    })
    .into_any()
}

#[component]
pub fn Inspector() -> impl IntoView {
    let session = use_session();
    let store = use_store();
    // What to edit: the selection, or nothing once the selected thing is gone (an undo took
    // it away). A memo, so typing (which changes the design) never rebuilds the editor.
    let target = Memo::new(move |_| {
        let selection = session.selection.get();
        let exists = store.with(|d| match &selection {
            Selection::Entities(names) if names.len() == 1 => d.entity(&names[0]).is_some(),
            Selection::Table(t) | Selection::Index { table: t, .. } => d.table(t).is_some(),
            Selection::Pattern(p) => d.pattern(p).is_some(),
            _ => true,
        });
        if exists { selection } else { Selection::None }
    });
    provide_context(Editing(target));
    // The selection's editor stays mounted from one selection to the next (it follows
    // `target` itself); only selecting nothing, or something, swaps it for the design's.
    let selected = Memo::new(move |_| target.with(|t| !matches!(t, Selection::None)));
    let body = move || {
        if selected.get() {
            crate::deferred::show(crate::deferred::Deferred::Editor, || ()).into_any()
        } else {
            view! { <design_editor::DesignEditor/> }.into_any()
        }
    };
    // Another item starts at its editor's top, not at the last one's scroll (issue 43).
    let aside: NodeRef<leptos::html::Aside> = NodeRef::new();
    Effect::new(move |_| {
        target.track();
        if let Some(aside) = aside.get_untracked() {
            aside.set_scroll_top(0);
        }
    });
    view! {
        <aside class="sidebar inspector" aria-label="Inspector" data-testid="inspector" node_ref=aside>
            {body}
        </aside>
    }
}
