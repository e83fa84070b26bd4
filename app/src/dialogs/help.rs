//! The help overlay: every keyboard shortcut.

use leptos::prelude::*;

const SHORTCUTS: &[(&str, &str)] = &[
    ("Ctrl/⌘ + Z", "Undo"),
    ("Shift + Ctrl/⌘ + Z, Ctrl + Y", "Redo"),
    (
        "Ctrl/⌘ + S, Shift + Ctrl/⌘ + S",
        "Save the design file, save as",
    ),
    ("N", "Add an entity"),
    ("P", "Add an access pattern"),
    ("Delete", "Delete the selected entities or pattern"),
    ("F", "Fit the design to the screen"),
    ("1 / 2 / 3 / 4 / 5", "Canvas, data, cost, run, migrate"),
    ("Shift + click", "Add a card to the selection"),
    ("Shift + drag", "Select the cards in a rectangle"),
    ("Arrow keys", "Nudge the focused card (Shift: further)"),
    ("Wheel, pinch", "Zoom around the pointer"),
    ("Drag the background", "Pan"),
    (
        "Escape",
        "Cancel a drag, close a dialog, clear the selection",
    ),
    ("?", "This help"),
];

#[component]
pub fn Help() -> impl IntoView {
    view! {
        <table class="shortcuts">
            <tbody>
                {SHORTCUTS.iter().map(|(keys, what)| view! {
                    <tr><td><kbd>{*keys}</kbd></td><td>{*what}</td></tr>
                }).collect_view()}
            </tbody>
        </table>
        <p class="hint">"Every change is kept in this browser as you make it; Save writes the design file. Files dropped on the window open as new designs."</p>
    }
}
