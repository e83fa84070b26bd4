//! One entity's card: its name and table, attributes with types, and the template filling
//! each key it has, coloured by index. Dragging a card (or every selected card) moves it; the
//! whole drag is one undo step (begin on pointer-down, commit on pointer-up).

use keyplan_core::Point;
use keyplan_core::edit::Edit;
use leptos::prelude::*;

use super::Highlight;
use crate::cards;
use crate::fanout::Fanout;
use crate::geometry::Rect;
use crate::session::{CardDrag, Selection, use_session};
use crate::store::use_store;

#[component]
pub fn EntityCard(
    /// The entity's name (the card's identity).
    name: String,
    /// Every card's rectangle, from [`crate::geometry::card_rects`] (read when a drag starts).
    rects: Memo<Vec<(String, Rect)>>,
    /// Each card's rectangle, by entity.
    positions: Fanout<Rect>,
    /// Each card's content, by entity.
    contents: Fanout<cards::CardData>,
    /// What the selected pattern or index lights up.
    highlight: Memo<Highlight>,
    /// Zoomed out too far for the card's rows to be read: only its name and indexes are drawn.
    overview: Memo<bool>,
) -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let data = contents.get(&name);
    // What the card shows zoomed out: a keystroke in a template changes the card, seldom this.
    let glance = {
        let data = data.clone();
        Memo::new(move |_| data.with(|card| card.as_ref().map(cards::CardData::glance)))
    };
    let rect = positions.get(&name);
    let selected = {
        let name = name.clone();
        Memo::new(move |_| session.selection.with(|s| s.has_entity(&name)))
    };
    let lit = {
        let name = name.clone();
        Memo::new(move |_| highlight.with(|h| h.active && h.entities.contains(&name)))
    };
    let dim = {
        let name = name.clone();
        Memo::new(move |_| {
            highlight.with(|h| h.active && !h.entities.is_empty() && !h.entities.contains(&name))
        })
    };
    let transform = {
        let rect = rect.clone();
        move || {
            rect.get()
                .map(|r| format!("translate({}px, {}px)", r.x, r.y))
                .unwrap_or_default()
        }
    };
    // Its rows are not drawn zoomed out: the card keeps the height they give it, so the lines
    // and the layout are those of the rows.
    let height = {
        let rect = rect.clone();
        move || {
            overview
                .get()
                .then(|| rect.get().map(|r| format!("{}px", r.height)))
                .flatten()
        }
    };

    let drag = session.card_drag;
    let card_ref: NodeRef<leptos::html::Div> = NodeRef::new();
    let on_pointerdown = {
        let name = name.clone();
        move |ev: web_sys::PointerEvent| {
            if ev.button() != 0 {
                return;
            }
            ev.stop_propagation();
            let additive = ev.shift_key() || ev.meta_key() || ev.ctrl_key();
            let mut selection = session.selection.get_untracked();
            match &mut selection {
                Selection::Entities(names) if additive => {
                    if let Some(at) = names.iter().position(|n| *n == name) {
                        names.remove(at);
                        session.select(if names.is_empty() {
                            Selection::None
                        } else {
                            selection.clone()
                        });
                        return;
                    }
                    names.push(name.clone());
                }
                Selection::Entities(names) if names.contains(&name) => {}
                _ => selection = Selection::Entities(vec![name.clone()]),
            }
            session.select(selection.clone());
            let Selection::Entities(dragged) = selection else {
                return;
            };
            let starts = rects.with_untracked(|r| {
                r.iter()
                    .filter(|(n, _)| dragged.contains(n))
                    .map(|(n, rect)| {
                        (
                            n.clone(),
                            Point {
                                x: rect.x,
                                y: rect.y,
                            },
                        )
                    })
                    .collect()
            });
            drag.set_value(Some(CardDrag {
                pointer: (f64::from(ev.client_x()), f64::from(ev.client_y())),
                starts,
                moved: false,
            }));
            if let Some(el) = card_ref.get_untracked() {
                let _ = el.set_pointer_capture(ev.pointer_id());
            }
            store.begin();
        }
    };
    let on_pointermove = move |ev: web_sys::PointerEvent| {
        let Some(mut d) = drag.get_value() else {
            return;
        };
        let zoom = session.viewport.get_untracked().zoom;
        let dx = (f64::from(ev.client_x()) - d.pointer.0) / zoom;
        let dy = (f64::from(ev.client_y()) - d.pointer.1) / zoom;
        if !d.moved && dx.abs() + dy.abs() < 3.0 / zoom {
            return;
        }
        d.moved = true;
        let positions = d
            .starts
            .iter()
            .map(|(n, p)| {
                (
                    n.clone(),
                    Some(Point {
                        x: (p.x + dx).round(),
                        y: (p.y + dy).round(),
                    }),
                )
            })
            .collect();
        drag.set_value(Some(d));
        store.dispatch(Edit::MoveCards { positions });
    };
    let on_pointerup = move |_ev: web_sys::PointerEvent| {
        if drag.get_value().is_some() {
            drag.set_value(None);
            store.commit();
        }
    };
    let on_keydown = {
        let name = name.clone();
        move |ev: web_sys::KeyboardEvent| {
            // Arrow keys nudge the card: keyboard users can lay out too.
            let step = if ev.shift_key() { 40.0 } else { 8.0 };
            let (dx, dy) = match ev.key().as_str() {
                "ArrowLeft" => (-step, 0.0),
                "ArrowRight" => (step, 0.0),
                "ArrowUp" => (0.0, -step),
                "ArrowDown" => (0.0, step),
                "Enter" | " " => {
                    ev.prevent_default();
                    session.select(Selection::Entities(vec![name.clone()]));
                    return;
                }
                _ => return,
            };
            ev.prevent_default();
            if let Some(r) = rect.get_untracked() {
                store.dispatch(Edit::MoveCards {
                    positions: vec![(
                        name.clone(),
                        Some(Point {
                            x: r.x + dx,
                            y: r.y + dy,
                        }),
                    )],
                });
            }
        }
    };

    // A group, not a button: a button's accessible name must contain its visible text (WCAG
    // 2.5.3, axe's label-content-name-mismatch), and a card shows far more than its name. The
    // role description says what it is, `aria-current` which cards are selected.
    let label = format!("Entity {name}");
    // A teammate in the live room has this card selected (issue 38): their colour around it.
    let peer_colour = {
        let live = crate::live::use_live();
        let name = name.clone();
        Memo::new(move |_| {
            live.and_then(|l| l.focus_colour(keyplan_core::edit::Element::Entity, &name))
        })
    };
    view! {
        <div
            class="card"
            class:selected=selected
            class:lit=lit
            class:dim=dim
            class:overview=overview
            class:invalid=move || overview.get() && glance.with(|g| g.as_ref().is_some_and(|g| g.invalid))
            node_ref=card_ref
            style:transform=transform
            style:height=height
            style:outline-color=peer_colour
            class:peer-focus=move || peer_colour.get().is_some()
            data-entity=name.clone()
            tabindex="0"
            role="group"
            aria-roledescription="entity card"
            aria-label=label
            aria-current=move || selected.get().to_string()
            on:pointerdown=on_pointerdown
            on:pointermove=on_pointermove
            on:pointerup=on_pointerup
            on:pointercancel=on_pointerup
            on:keydown=on_keydown
        >
            {move || {
                if overview.get() {
                    glance.get().map(|glance| glance_body(glance, highlight).into_any())
                } else {
                    data.with(Clone::clone).map(|card| card_body(card, highlight).into_any())
                }
            }}
        </div>
    }
}

/// How many characters of a name always fit its line on a card, in the proportional font and in
/// the monospace one of key templates. A longer text gets the `clip` class (overflow hidden, an
/// ellipsis); shorter ones are drawn unclipped, because every clipped line is a clip node the
/// browser re-layerises on each frame, which made a canvas of hundreds of cards slow to edit.
const FITS: usize = 16;
const FITS_MONO: usize = 26;

fn clipped(text: &str, fits: usize) -> bool {
    text.chars().count() > fits
}

/// Whether the selected pattern or index is served by `index` of `table`: its key rows, or
/// its bar zoomed out, are lit.
fn active(highlight: Memo<Highlight>, table: String, index: Option<String>) -> impl Fn() -> bool {
    move || {
        highlight
            .with(|h| h.active && h.table.as_deref() == Some(table.as_str()) && h.index == index)
    }
}

/// The card zoomed out: its name, large enough to read at the zoom, and a bar per index.
fn glance_body(glance: cards::Glance, highlight: Memo<Highlight>) -> impl IntoView {
    let table = glance.table.clone();
    let bars = glance
        .indexes
        .into_iter()
        .map(|(slot, index)| {
            let title = index.clone().unwrap_or_else(|| "Table key".to_string());
            let lit = active(highlight, table.clone(), index);
            view! { <span class=format!("card-bar slot-{slot}") class:active=lit title=title></span> }
        })
        .collect_view();
    view! {
        <header class="card-head">
            {view! { <span class="card-name" data-testid="entity-name">{glance.name}</span> }
                .attr("elementtiming", "card-name")}
        </header>
        <div class="card-bars" aria-hidden="true">{bars}</div>
    }
}

fn card_body(card: cards::CardData, highlight: Memo<Highlight>) -> impl IntoView {
    let table = card.table.clone();
    let n_attributes = card.attributes.len();
    let attributes = card
        .attributes
        .into_iter()
        .map(|a| {
            let clip = clipped(&a.name, FITS);
            let title = match (a.values.is_empty(), clip) {
                (true, false) => String::new(),
                (true, true) => a.name.clone(),
                (false, _) => format!("{}: values {}", a.name, a.values),
            };
            view! {
                <li class="card-attr" title=title>
                    <span class="attr-name" class:required=a.required class:clip=clip>{a.name}</span>
                    <span class="attr-type">{a.ty}</span>
                </li>
            }
        })
        .collect_view();
    let has_keys = !card.keys.is_empty();
    let keys = card
        .keys
        .into_iter()
        .map(|k| {
            let active = active(highlight, table.clone(), k.index.clone());
            let title = format!(
                "{} on {}{}",
                k.key,
                k.index.as_deref().unwrap_or("the table"),
                if k.implicit { " (the attribute's own value)" } else { "" }
            );
            let clip = clipped(&k.template, FITS_MONO);
            view! {
                <li class=format!("card-key slot-{}", k.slot) class:active=active class:invalid=!k.valid title=title>
                    <span class="key-name">{k.key}</span>
                    <code class="key-template" class:implicit=k.implicit class:clip=clip>{k.template}</code>
                </li>
            }
        })
        .collect_view();
    let clip_name = clipped(&card.name, FITS);
    // Mono 11 px: about 14 characters fit beside a name before the chip must shrink.
    let clip_table = clipped(&card.table, 14);
    let table_title = format!("Table {}", card.table);
    // `elementtiming`: the browser records when each card's name is first painted, which
    // scripts/bench-canvas reads as the navigation's end (issue 19).
    view! {
        <header class="card-head">
            {view! { <span class="card-name" class:clip=clip_name data-testid="entity-name">{card.name}</span> }
                .attr("elementtiming", "card-name")}
            <span class="card-table" class:clip=clip_table title=table_title data-testid="card-table">{card.table}</span>
        </header>
        <ul class="card-attrs" aria-label=crate::text::plural(n_attributes, "attribute")>{attributes}</ul>
        {has_keys.then(|| view! {
            <div class="card-keys-caption">"Keys"</div>
            <ul class="card-keys">{keys}</ul>
        })}
    }
}
