//! A table's frame on the canvas: a box around its entities' cards with a header showing the
//! table's name, its keys and a chip per index in that index's colour. Clicking the header
//! selects the table, clicking a chip selects the index. Zoomed out, the header keeps a
//! readable size, drawn above the cards.

use std::collections::HashSet;

use leptos::prelude::*;

use super::Highlight;
use crate::geometry::{self, Rect};
use crate::session::{Selection, use_session};
use crate::store::use_store;

/// The header's content.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Header {
    keys: String,
    /// Each index's name, colour slot and keys.
    indexes: Vec<(String, usize, String)>,
    position: usize,
}

use geometry::{FRAME_HEADER as HEADER_HEIGHT, FRAME_MIN_WIDTH as MIN_WIDTH};

#[component]
pub fn TableFrame(
    /// The table's name.
    name: String,
    /// Every card's rectangle.
    rects: Memo<Vec<(String, Rect)>>,
    /// What the selected pattern or index lights up.
    highlight: Memo<Highlight>,
) -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let header = {
        let name = name.clone();
        Memo::new(move |_| {
            // Made from the tables alone.
            store.track_frame();
            store.with_untracked(|d| {
                let position = d.tables.iter().position(|t| t.name == name)?;
                let t = &d.tables[position];
                let names = |keys: &[keyplan_core::KeyAttribute]| {
                    keys.iter()
                        .map(|k| k.name.as_str())
                        .collect::<Vec<_>>()
                        .join(" + ")
                };
                let keys = match &t.sort_key {
                    Some(sk) => format!("{} · {}", t.partition_key.name, sk.name),
                    None => t.partition_key.name.clone(),
                };
                let indexes = t
                    .indexes()
                    .iter()
                    .enumerate()
                    .skip(1)
                    .filter_map(|(slot, i)| {
                        let keys = if i.sort_key.is_empty() {
                            names(i.partition_key)
                        } else {
                            format!("{} · {}", names(i.partition_key), names(i.sort_key))
                        };
                        i.name
                            .map(|n| (n.to_string(), slot % crate::cards::N_COLOURS, keys))
                    })
                    .collect();
                Some(Header {
                    keys,
                    indexes,
                    position,
                })
            })
        })
    };
    // The table's entities, in a memo of their own: a keystroke or a card move changes none,
    // so it wakes the frame only through the rectangles it moved.
    let members = {
        let name = name.clone();
        Memo::new(move |_| {
            store.with(|d| {
                d.entities_in(&name)
                    .map(|e| e.name.clone())
                    .collect::<HashSet<String>>()
            })
        })
    };
    let frame = Memo::new(move |_| {
        let position = header.with(|h| h.as_ref().map_or(0, |h| h.position));
        members.with(|members| {
            rects.with(|all| -> (Rect, bool) {
                let mine = all
                    .iter()
                    .filter(|(n, _)| members.contains(n))
                    .map(|(_, r)| *r)
                    .reduce(|a, b| a.union(&b));
                let rect = match mine {
                    Some(b) => {
                        let b = geometry::framed(b);
                        Rect {
                            width: b.width.max(MIN_WIDTH),
                            ..b
                        }
                    }
                    None => {
                        let top = geometry::bounds(all).map_or(0.0, |b| b.y) - 200.0;
                        Rect {
                            x: 40.0 + 420.0 * position as f64,
                            y: top,
                            width: 360.0,
                            height: HEADER_HEIGHT + 40.0,
                        }
                    }
                };
                // A box around cards of another table would mislead: show the header alone.
                let clear = !all
                    .iter()
                    .any(|(n, r)| !members.contains(n) && r.intersects(&rect));
                (rect, clear)
            })
        })
    });
    let selected = {
        let name = name.clone();
        move || {
            session
                .selection
                .with(|s| matches!(s, Selection::Table(t) if *t == name))
        }
    };
    // Placed by left and top, not a transform: a transform would make the frame a stacking
    // context and keep its enlarged header under the cards of a table above it.
    let style = move || {
        let (r, clear) = frame.get();
        let height = if clear { r.height } else { HEADER_HEIGHT };
        let r = Rect { height, ..r };
        format!(
            "left: {}px; top: {}px; width: {}px; height: {}px",
            r.x, r.y, r.width, r.height
        )
    };
    // Zoomed out, the header keeps a readable size on the screen, growing up from the frame's
    // top (geometry::frame_header_scale; Fit leaves it the room).
    let header_scale = Memo::new(move |_| {
        session
            .viewport
            .with(|v| geometry::frame_header_scale(v.zoom))
    });
    let enlarged = move || header_scale.get() > 1.0;
    let head_style = move || {
        let scale = header_scale.get();
        if scale <= 1.0 {
            return String::new();
        }
        let width = frame.with(|(r, _)| r.width);
        format!(
            "transform: scale({scale:.4}); max-width: {:.1}px",
            width / scale
        )
    };
    let select_table = {
        let name = name.clone();
        move |ev: web_sys::PointerEvent| {
            ev.stop_propagation();
            session.select(Selection::Table(name.clone()));
        }
    };
    let table_name = name.clone();
    view! {
        <div class="table-frame" class:selected=selected class:loose=move || !frame.get().1 style=style>
            <div
                class="table-head"
                class:enlarged=enlarged
                style=head_style
                on:pointerdown=select_table
                title="Select the table"
            >
                <div class="table-title">
                    <span class="table-icon" aria-hidden="true"></span>
                    <span class="table-name">{name.clone()}</span>
                    <span class="table-keys slot-0">{move || header.get().map(|h| h.keys)}</span>
                </div>
                <div class="index-chips">
                    <For
                        each=move || header.get().map(|h| h.indexes).unwrap_or_default()
                        key=|(n, slot, keys)| (n.clone(), *slot, keys.clone())
                        children=move |(index, slot, keys)| {
                            let table = table_name.clone();
                            let lit = {
                                let index = index.clone();
                                let table = table.clone();
                                move || highlight.with(|h| h.active && h.table.as_deref() == Some(table.as_str()) && h.index.as_deref() == Some(index.as_str()))
                            };
                            let pick = {
                                let index = index.clone();
                                move |ev: web_sys::PointerEvent| {
                                    ev.stop_propagation();
                                    session.select(Selection::Index { table: table.clone(), index: index.clone() });
                                }
                            };
                            view! {
                                <span class=format!("index-chip slot-{slot}") class:lit=lit title=keys on:pointerdown=pick>
                                    {index}
                                </span>
                            }
                        }
                    />
                </div>
            </div>
        </div>
    }
}
