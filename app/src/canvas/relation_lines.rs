//! Relationship lines between cards, from [`crate::relations`]: a curve from the referring card
//! to the referred one, labelled with the shared key variable. The lines are drawn under the
//! cards and the labels over them, so a card never hides a label (issue 12).

use leptos::prelude::*;

use crate::fanout::Fanout;
use crate::geometry::{Rect, border_point};
use crate::relations::{Relation, relations};
use crate::store::use_store;

/// Which part of the relationships a layer draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// The curves and arrow heads, under the cards.
    Lines,
    /// The key variable names, over the cards.
    Labels,
}

/// The relationships of the design, worked out once per change for both layers.
pub fn relation_memo() -> Memo<Vec<Relation>> {
    let store = use_store();
    Memo::new(move |_| {
        store.track_semantic();
        store.with_untracked(relations)
    })
}

#[component]
pub fn RelationLines(
    /// Each card's rectangle.
    positions: Fanout<Rect>,
    /// The relationships ([`relation_memo`]).
    lines: Memo<Vec<Relation>>,
    /// The part drawn.
    layer: Layer,
) -> impl IntoView {
    view! {
        <svg class="relations" class:labels=layer == Layer::Labels width="1" height="1" aria-hidden="true">
            {(layer == Layer::Lines).then(|| view! {
                <defs>
                    <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head"></path>
                    </marker>
                </defs>
            })}
            <For
                each=move || lines.get()
                key=|r| (r.from.clone(), r.to.clone(), r.via.clone())
                children=move |r: Relation| {
                    // Only the two cards it joins move a line.
                    let (from, to) = (positions.get(&r.from), positions.get(&r.to));
                    let geometry = Memo::new(move |_| {
                        let (a, b) = (from.get()?, to.get()?);
                        let p = border_point(&a, &b);
                        let q = border_point(&b, &a);
                        let (mx, my) = ((p.x + q.x) / 2.0, (p.y + q.y) / 2.0);
                        // A gentle curve: control points pulled along the dominant axis.
                        let horizontal = (q.x - p.x).abs() > (q.y - p.y).abs();
                        let d = if horizontal {
                            format!("M {:.1} {:.1} C {:.1} {:.1}, {:.1} {:.1}, {:.1} {:.1}", p.x, p.y, mx, p.y, mx, q.y, q.x, q.y)
                        } else {
                            format!("M {:.1} {:.1} C {:.1} {:.1}, {:.1} {:.1}, {:.1} {:.1}", p.x, p.y, p.x, my, q.x, my, q.x, q.y)
                        };
                        Some((d, mx, my))
                    });
                    let via = r.via.clone();
                    let relation = format!("{} {}", r.from, r.to);
                    match layer {
                        Layer::Lines => view! {
                            <path class="relation-line" data-relation=relation d=move || geometry.get().map(|g| g.0).unwrap_or_default() marker-end="url(#arrow)"></path>
                        }
                        .into_any(),
                        Layer::Labels => view! {
                            <text
                                class="relation-label"
                                data-testid="relation-label"
                                x=move || geometry.get().map(|g| g.1).unwrap_or_default()
                                y=move || geometry.get().map(|g| g.2 - 6.0).unwrap_or_default()
                                text-anchor="middle"
                            >
                                {via}
                            </text>
                        }
                        .into_any(),
                    }
                }
            />
        </svg>
    }
}
