//! The findings list: severity, code, message and where; selecting one goes to its place, and
//! a finding's quick fix (core's [`keyplan_core::Fix`]: add an attribute, rename an input,
//! apply a multi-attribute GSI key) is a button beside it, which dispatches core's edit.

use keyplan_core::Severity;
use leptos::prelude::*;

use crate::session::{Selection, use_session};
use crate::store::use_store;

/// A severity's name, shown and used as its class: one home for which colour a finding takes
/// in the Findings list and under a field (`.severity.error`, `.diagnostic.error`; the colours
/// are style/app.css's `--error-text` and `--warning-text`).
pub fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

#[component]
pub fn FindingList() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let findings = move || store.analysis.with(|a| a.findings.clone());
    view! {
        <div class="panel-body">
            <Show when=move || store.analysis.with(|a| a.findings.is_empty())>
                <p class="empty-note">"No findings: nothing wrong or risky was found."</p>
            </Show>
            <ul class="finding-list" aria-label="Findings">
                <For
                    each=findings
                    key=|f| (f.code, f.place.clone(), f.message.clone(), f.fix.clone())
                    children=move |f| {
                        let label = severity_name(f.severity);
                        let class = format!("severity {label}");
                        let place = f.place.clone();
                        let go = move |_| {
                            let (selection, key) = Selection::of_place(&place);
                            session.select(selection);
                            session.focus_key.set(key);
                        };
                        let fix = f.fix.clone().map(|fix| {
                            let text = fix.label();
                            view! {
                                <button class="button small finding-fix" data-testid="finding-fix" on:click=move |_| {
                                    if let Some(edit) = store.with_untracked(|d| fix.edit(d)) {
                                        store.dispatch(edit);
                                    }
                                }>
                                    {text}
                                </button>
                            }
                        });
                        view! {
                            <li class="finding-row" data-testid="finding-row" data-code=f.code>
                                <button class="finding-button" on:click=go>
                                    // Its name is its text, spaced: "error KP002 ... entities/Order".
                                    <span class=class>{label}</span>" "
                                    <span class="finding-code">{f.code}</span>" "
                                    <span class="finding-message">{f.message.clone()}</span>" "
                                    <span class="finding-path">{f.place.to_string()}</span>
                                </button>
                                {fix}
                            </li>
                        }
                    }
                />
            </ul>
        </div>
    }
}
