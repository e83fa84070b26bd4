//! Modal dialogs (gallery, export, help) and the toast that reports what just happened.

mod export;
mod gallery;
mod help;
mod share;

use leptos::prelude::*;

use crate::session::{Dialog, use_session};

#[component]
pub fn Dialogs() -> impl IntoView {
    let session = use_session();
    move || {
        session.dialog.get().map(|dialog| {
            let (title, body) = match dialog {
                Dialog::Gallery => ("New design", view! { <gallery::Gallery/> }.into_any()),
                Dialog::Export => ("Export", view! { <export::Export/> }.into_any()),
                Dialog::Share => ("Share a link", view! { <share::Share/> }.into_any()),
                Dialog::Help => ("Keyboard shortcuts", view! { <help::Help/> }.into_any()),
            };
            view! {
                <div class="backdrop" on:click=move |_| session.dialog.set(None)>
                    <div
                        class="dialog"
                        role="dialog"
                        aria-modal="true"
                        aria-label=title
                        data-testid="dialog"
                        on:click=|ev| ev.stop_propagation()
                    >
                        <header class="dialog-head">
                            <h2>{title}</h2>
                            <button class="icon-button" aria-label="Close" autofocus on:click=move |_| session.dialog.set(None)>"×"</button>
                        </header>
                        <div class="dialog-body">{body}</div>
                    </div>
                </div>
            }
        })
    }
}

#[component]
pub fn ToastView() -> impl IntoView {
    let session = use_session();
    // Each toast stays five seconds unless replaced.
    Effect::new(move |_| {
        if let Some(toast) = session.toast.get()
            && toast.notes.is_empty()
        {
            let long = toast.error;
            set_timeout(
                move || {
                    if session.toast.get_untracked().as_ref() == Some(&toast) {
                        session.toast.set(None);
                    }
                },
                std::time::Duration::from_secs(if long { 8 } else { 4 }),
            );
        }
    });
    move || {
        session.toast.get().map(|t| {
            view! {
                <div class="toast" class:error=t.error role="status" aria-live="polite" data-testid="toast">
                    <div class="toast-text">
                        <span>{t.message}</span>
                        {(!t.notes.is_empty()).then(|| view! {
                            <ul class="toast-notes" data-testid="toast-notes">
                                {t.notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
                            </ul>
                        })}
                    </div>
                    <button class="icon-button small" aria-label="Dismiss" on:click=move |_| session.toast.set(None)>"×"</button>
                </div>
            }
        })
    }
}
