//! One suggestion of a pattern's verdict (issue 43): the advice, its warning, and the button
//! that follows it: "Use GSI3" for an index the entity does not fill yet, "Add this GSI", or,
//! for a sort key re-keyed to read in the pattern's order, "Re-key and plan the migration",
//! which applies the re-key and opens the Migrate tab to plan the rewrite of the stored items
//! (the design before the re-key is marked as deployed when no baseline is). Core makes the
//! suggestion and its edit; nothing here decides what they mean.

use keyplan_core::{Suggestion, SuggestionKind};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::library::use_library;
use crate::panels::mark_deployed;
use crate::session::{CenterView, use_session};
use crate::storage::baseline;
use crate::store::use_store;
use crate::suggestion;

#[component]
pub fn SuggestionOffer(
    /// The suggestion, as coverage made it.
    suggestion: Suggestion,
) -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let library = use_library();
    let re_key = suggestion.kind == SuggestionKind::SortKey;
    let appliable = matches!(
        suggestion.kind,
        SuggestionKind::Gsi | SuggestionKind::SortKey
    );
    let action = if re_key {
        "Re-key and plan the migration".to_string()
    } else {
        suggestion.action()
    };
    let text = suggestion.text.clone();
    let warning = suggestion.warning.clone();
    let apply = move |_| {
        let before = store.with_untracked(Clone::clone);
        let Some(edit) = suggestion::apply_edit(&before, &suggestion) else {
            return;
        };
        store.dispatch(edit);
        if !re_key {
            return;
        }
        // The items are stored in the shape before the re-key: that is the baseline the
        // Migrate tab plans from, unless one is marked already.
        let id = library.current.get_untracked();
        spawn_local(async move {
            if matches!(baseline(&id).await, Ok(None)) {
                mark_deployed(id, &before, move |_| {
                    session.center.set(CenterView::Migrate)
                });
            } else {
                session.center.set(CenterView::Migrate);
            }
        });
    };
    view! {
        <div class="suggestion" data-testid="suggestion-offer">
            <p data-testid="suggestion">{text}</p>
            {warning.map(|w| view! { <p class="diagnostic warning" data-testid="suggestion-warning">{w}</p> })}
            {re_key.then(|| view! {
                <p class="hint" data-testid="suggestion-migration">
                    "From the command line: "<code>"keyplan migrate OLD NEW"</code>" plans the same rewrite."
                </p>
            })}
            {appliable.then(|| view! {
                <button class="button primary small" data-testid="apply-suggestion" on:click=apply>
                    {action}
                </button>
            })}
        </div>
    }
}
