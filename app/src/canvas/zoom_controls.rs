//! The zoom controls in the canvas corner: out, the zoom level (click for 100 %), in, fit.

use leptos::prelude::*;

use crate::session::use_session;

#[component]
pub fn ZoomControls<F>(
    /// Fits the design to the screen.
    fit: F,
) -> impl IntoView
where
    F: Fn() + Copy + 'static,
{
    let session = use_session();
    let zoom_by = move |factor: f64| {
        let (w, h) = session.canvas_size.get_untracked();
        session
            .viewport
            .update(|v| *v = v.zoom_at(w / 2.0, h / 2.0, factor));
    };
    let percent = move || format!("{:.0}%", session.viewport.get().zoom * 100.0);
    view! {
        <div class="zoom-controls" role="toolbar" aria-label="Zoom" on:pointerdown=|ev| ev.stop_propagation()>
            <button class="icon-button" aria-label="Zoom out" title="Zoom out" on:click=move |_| zoom_by(1.0 / 1.2)>
                "−"
            </button>
            <button
                class="zoom-level"
                // The name starts with the visible text (WCAG 2.5.3, axe-core, issue 12).
                aria-label=move || format!("{}: reset zoom to 100%", percent())
                title="Reset zoom to 100%"
                on:click=move |_| {
                    let (w, h) = session.canvas_size.get_untracked();
                    session.viewport.update(|v| *v = v.zoom_at(w / 2.0, h / 2.0, 1.0 / v.zoom));
                }
            >
                {percent}
            </button>
            <button class="icon-button" aria-label="Zoom in" title="Zoom in" on:click=move |_| zoom_by(1.2)>
                "+"
            </button>
            <button class="button" aria-label="Fit to screen (F)" title="Fit to screen (F)" on:click=move |_| fit()>
                "Fit"
            </button>
        </div>
    }
}
