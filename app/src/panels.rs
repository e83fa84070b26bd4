//! The panels beside the canvas: the access patterns with their live verdicts and the findings
//! (left), the tabs that switch the centre between canvas, data and cost, and the data and cost
//! views themselves.

mod center_tabs;
mod chunks;
mod cost_view;
mod data_view;
mod findings;
mod item_editor;
mod migrate_view;
mod patterns;
mod verdict_badge;

pub use center_tabs::CenterTabs;
pub use cost_view::CostView;
pub use data_view::DataView;
pub use findings::severity_name;
pub use migrate_view::{MigrateView, mark_deployed};
pub use verdict_badge::{Badge, VerdictBadge};

use keyplan_core::AccessPattern;
use keyplan_core::edit::Edit;
use leptos::prelude::*;

use crate::session::{LeftTab, Selection, Session, use_session};
use crate::store::{Store, use_store};

/// Adds a read pattern of the selected entity (or the first one) and selects it.
pub fn add_pattern(store: &Store, session: &Session) {
    let (edit, name) = store.with_untracked(|design| {
        let name = (1..)
            .map(|n| {
                if n == 1 {
                    "New access pattern".to_string()
                } else {
                    format!("New access pattern {n}")
                }
            })
            .find(|n| design.pattern(n).is_none())
            .unwrap_or_default();
        let entity = match session.selection.get_untracked() {
            Selection::Entities(names) => names.first().cloned(),
            _ => None,
        }
        .or_else(|| design.entities.first().map(|e| e.name.clone()));
        let pattern = AccessPattern::read(
            &name,
            &entity.as_deref().into_iter().collect::<Vec<_>>(),
            &[],
        );
        (
            Edit::AddPattern {
                at: design.patterns.len(),
                pattern,
            },
            name,
        )
    });
    if store.dispatch(edit) {
        session.left_tab.set(LeftTab::Patterns);
        session.select_to_name(
            Selection::Pattern(name.clone()),
            crate::session::NameField::Pattern(name),
        );
    }
}

#[component]
pub fn LeftPanel() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let n_patterns = move || store.with(|d| d.patterns.len());
    let n_findings = move || store.analysis.with(|a| a.findings.len());
    let tab = move |t: LeftTab| move || session.left_tab.get() == t;
    view! {
        <aside class="sidebar left" aria-label="Access patterns and findings">
            <div class="tabs" role="tablist">
                <button
                    role="tab"
                    class="tab"
                    data-testid="patterns-tab"
                    aria-selected=move || tab(LeftTab::Patterns)().to_string()
                    on:click=move |_| session.left_tab.set(LeftTab::Patterns)
                >
                    <span class="wide-label">"Access patterns"</span>
                    <span class="narrow-label">"Patterns"</span>
                    " " <span class="count">{n_patterns}</span>
                </button>
                <button
                    role="tab"
                    class="tab"
                    data-testid="findings-tab"
                    aria-selected=move || tab(LeftTab::Findings)().to_string()
                    on:click=move |_| session.left_tab.set(LeftTab::Findings)
                >
                    "Findings " <span class="count">{n_findings}</span>
                </button>
            </div>
            {move || match session.left_tab.get() {
                LeftTab::Patterns => view! { <patterns::PatternList/> }.into_any(),
                LeftTab::Findings => view! { <findings::FindingList/> }.into_any(),
            }}
        </aside>
    }
}
