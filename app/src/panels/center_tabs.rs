//! The tabs above the centre: the canvas, the data view, the cost view, the run panel and the
//! migration plan.

use leptos::prelude::*;

use crate::session::{CenterView, use_session};

#[component]
pub fn CenterTabs() -> impl IntoView {
    let session = use_session();
    let tab = move |view: CenterView, label: &'static str, key: &'static str| {
        view! {
            <button
                role="tab"
                class="tab"
                data-testid=format!("tab-{}", label.to_lowercase())
                title=format!("{label} ({key})")
                aria-selected=move || (session.center.get() == view).to_string()
                on:click=move |_| session.center.set(view)
            >
                {label}
            </button>
        }
    };
    view! {
        <div class="tabs center-tabs" role="tablist" aria-label="View">
            {tab(CenterView::Canvas, "Canvas", "1")}
            {tab(CenterView::Data, "Data", "2")}
            {tab(CenterView::Cost, "Cost", "3")}
            {tab(CenterView::Run, "Run", "4")}
            {tab(CenterView::Migrate, "Migrate", "5")}
        </div>
    }
}
