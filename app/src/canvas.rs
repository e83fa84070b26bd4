//! The canvas: every entity as a card on a pannable, zoomable surface, with relationship lines
//! and a frame per table. Pointer gestures become viewport changes (session state) or card
//! moves (one undo step per drag); the geometry is in [`crate::geometry`].

mod entity_card;
mod relation_lines;
mod table_frame;
mod zoom_controls;

use keyplan_core::edit::Edit;
use keyplan_core::{AttrType, Attribute, Entity, KeyAttribute, KeyType, Point, Table};
use leptos::prelude::*;

use crate::cards;
use crate::fanout::Fanout;
use crate::geometry::{self, Rect, Viewport};
use crate::session::{CenterView, Selection, Session, use_session};
use crate::store::{Store, use_store};

use entity_card::EntityCard;
use relation_lines::{Layer, RelationLines, relation_memo};
use table_frame::TableFrame;
use zoom_controls::ZoomControls;

/// What a selected access pattern lights up on the canvas.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Highlight {
    pub entities: Vec<String>,
    pub table: Option<String>,
    /// The index that serves the pattern (`None`: the table's own key).
    pub index: Option<String>,
    /// False when the pattern needs a Scan.
    pub covered: bool,
    pub active: bool,
}

/// A first free name: `base`, then `base2`, `base3`...
fn free_name(base: &str, taken: impl Fn(&str) -> bool) -> String {
    (1..)
        .map(|n| {
            if n == 1 {
                base.to_string()
            } else {
                format!("{base}{n}")
            }
        })
        .find(|n| !taken(n))
        .unwrap_or_else(|| base.to_string())
}

/// A table with the generic single-table keys `PK` and `SK`.
fn new_table(name: String) -> Table {
    Table {
        name,
        partition_key: KeyAttribute::new("PK", KeyType::S),
        sort_key: Some(KeyAttribute::new("SK", KeyType::S)),
        gsis: Vec::new(),
        lsis: Vec::new(),
        billing: Default::default(),
        ttl_attribute: None,
        replicas: Vec::new(),
        vector_indexes: Vec::new(),
    }
}

/// Adds a table with keys `PK` and `SK` and selects it, so the inspector shows it to rename;
/// the next entity added goes into it. One undo step.
pub fn add_table(store: &Store, session: &Session) {
    let (at, name) = store.with_untracked(|d| {
        let at = d.tables.len();
        // "app" first, then "table2", "table3"... by how many tables there will be.
        let name = (at + 1..)
            .map(|n| {
                if n == 1 {
                    "app".to_string()
                } else {
                    format!("table{n}")
                }
            })
            .find(|n| d.table(n).is_none())
            .unwrap_or_else(|| "table".into());
        (at, name)
    });
    if store.dispatch(Edit::AddTable {
        at,
        table: new_table(name.clone()),
    }) {
        session.select(Selection::Table(name.clone()));
        session.say(format!(
            "Added table \u{201c}{name}\u{201d} with keys PK and SK: new entities go into it"
        ));
    }
}

/// Adds a new entity near the middle of the visible canvas where no card is (see
/// [`geometry::place_card`]), in the selected table, else the first (a design without tables
/// gets a table `app` with keys PK and SK, and the toast says so), and selects it. One undo
/// step.
pub fn add_entity(store: &Store, session: &Session) {
    let selected_table = match session.selection.get_untracked() {
        Selection::Table(t) | Selection::Index { table: t, .. } => Some(t),
        _ => None,
    };
    let (edit, name, created_table) = store.with_untracked(|design| {
        let name = free_name("NewEntity", |n| design.entity(n).is_some());
        let (w, h) = session.canvas_size.get_untracked();
        let v = session.viewport.get_untracked();
        let centre = v.to_canvas(w / 2.0, h / 2.0);
        let height = geometry::card_height(1, 0);
        let wanted = Point {
            x: (centre.x - geometry::CARD_WIDTH / 2.0).round(),
            y: (centre.y - 80.0).round(),
        };
        let cards: Vec<Rect> = geometry::card_rects(design)
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        let position = geometry::place_card(&cards, wanted, geometry::CARD_WIDTH, height);
        let mut edits = Vec::new();
        let existing = selected_table
            .filter(|t| design.table(t).is_some())
            .or_else(|| design.tables.first().map(|t| t.name.clone()));
        let (table, created_table) = match existing {
            Some(t) => (t, None),
            None => {
                edits.push(Edit::AddTable {
                    at: 0,
                    table: new_table("app".into()),
                });
                ("app".to_string(), Some("app".to_string()))
            }
        };
        let id = id_attribute(&name);
        edits.push(Edit::AddEntity {
            at: design.entities.len(),
            entity: Entity {
                name: name.clone(),
                table,
                description: String::new(),
                attributes: vec![Attribute {
                    required: true,
                    ..Attribute::new(id, AttrType::S)
                }],
                keys: Default::default(),
                volume: None,
            },
            position: Some(position),
        });
        (Edit::Batch(edits), name, created_table)
    });
    if store.dispatch(edit) {
        // The new card may have found room at the canvas's edge: pan so it is seen whole.
        let card = store.with_untracked(|d| {
            geometry::card_rects(d)
                .into_iter()
                .find(|(n, _)| *n == name)
                .map(|(_, r)| r)
        });
        if let Some(card) = card {
            let (w, h) = session.canvas_size.get_untracked();
            session.viewport.update(|v| *v = v.reveal(card, w, h));
        }
        session.select_to_name(
            Selection::Entities(vec![name.clone()]),
            crate::session::NameField::Entity(name),
        );
        if let Some(table) = created_table {
            // issue 12: the first entity used to create a table silently.
            session.say(format!(
                "Added table \u{201c}{table}\u{201d} (keys PK and SK) for the new entity: select it on the canvas to rename it or change its keys"
            ));
        }
    }
}

/// `customerId` for `Customer`: the id attribute a new entity starts with, renamed with the
/// entity until the user renames it (core's `starting_id`, which KP002's fix replaces while no
/// key uses it).
pub fn id_attribute(entity: &str) -> String {
    keyplan_core::starting_id(entity)
}

/// True when the pointer went down on a button, field or link inside the canvas.
fn starts_on_control(ev: &web_sys::PointerEvent) -> bool {
    use leptos::wasm_bindgen::JsCast;
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest("button, input, select, textarea, a, label").ok())
        .flatten()
        .is_some()
}

/// A pan or a rectangle selection in progress.
#[derive(Debug, Clone, Copy)]
enum Gesture {
    Pan {
        pointer: (f64, f64),
        start: Viewport,
        moved: bool,
    },
    Marquee {
        from: Point,
    },
}

/// Each card's content by entity, worked out again for the entities an edit changed
/// ([`cards::Cards::again`]), each written to its card alone.
fn card_contents(store: Store) -> Fanout<cards::CardData> {
    let mut cards = cards::Cards::default();
    Fanout::new(move |w| {
        store.track_semantic();
        store.with_untracked(|d| {
            let mut gone = Vec::new();
            cards.again(d, |name, card| match card {
                Some(card) => w.put(name, card.clone()),
                None => gone.push(name.to_string()),
            });
            if !gone.is_empty() {
                w.retain(|key| !gone.iter().any(|g| g == key));
            }
        })
    })
}

#[component]
pub fn Canvas() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let container: NodeRef<leptos::html::Div> = NodeRef::new();
    crate::library::scroll_home_on_open(container);

    let rects = Memo::new(move |_| store.with(geometry::card_rects));
    // Each card reads its own rectangle and content: a move or a keystroke wakes only the
    // cards it changed (crate::fanout).
    let positions = Fanout::new(move |w| {
        rects.with(|all| {
            for (name, rect) in all {
                w.put(name, *rect);
            }
            if w.keys() > all.len() {
                w.retain(|key| all.iter().any(|(name, _)| name == key));
            }
        })
    });
    let contents = card_contents(store);
    let relations = relation_memo();
    let names = Memo::new(move |_| {
        store.with(|d| {
            d.entities
                .iter()
                .map(|e| e.name.clone())
                .collect::<Vec<_>>()
        })
    });
    let tables = Memo::new(move |_| {
        store.with(|d| d.tables.iter().map(|t| t.name.clone()).collect::<Vec<_>>())
    });
    let highlight = Memo::new(move |_| match session.selection.get() {
        Selection::Pattern(name) => store.analysis.with(|a| {
            let verdict = a.verdicts.iter().find(|v| v.pattern == name);
            store.with(|d| Highlight {
                entities: d
                    .pattern(&name)
                    .map(|p| {
                        let mut e = p.entities.clone();
                        e.extend(p.writes.iter().map(|w| w.entity.clone()));
                        e
                    })
                    .unwrap_or_default(),
                // A Scan uses no index: nothing to light up but the entities.
                table: verdict.filter(|v| v.covered).and_then(|v| v.table.clone()),
                index: verdict.filter(|v| v.covered).and_then(|v| v.index.clone()),
                covered: verdict.is_some_and(|v| v.covered),
                active: true,
            })
        }),
        Selection::Index { table, index } => Highlight {
            entities: Vec::new(),
            table: Some(table),
            index: Some(index),
            covered: true,
            active: true,
        },
        _ => Highlight::default(),
    });

    let measure = move || {
        container.get_untracked().map(|el| {
            let r = el.get_bounding_client_rect();
            (r.left(), r.top(), r.width(), r.height())
        })
    };
    // The canvas stays mounted behind the other views (app.rs), stowed (style/app.css: laid
    // out where it was, neither painted nor reachable): its size then is not its own, so a fit
    // asked meanwhile (F, a design opened from the Data tab) waits until it is shown.
    let shown = move || session.center.get() == CenterView::Canvas;
    let fit_waiting = StoredValue::new(false);
    // The cards are drawn once the canvas has its first zoom, so they are drawn once, in the
    // detail that zoom shows (a design of 100 cards fits at 10 to 20%: names only), not first in full
    // at 100% and again a moment later.
    let placed = RwSignal::new(false);
    let size = move || {
        measure()
            .filter(|&(_, _, w, h)| w > 0.0 && h > 0.0 && untrack(shown))
            .map(|(_, _, w, h)| (w, h))
    };
    let fit = move || match size() {
        Some((w, h)) => {
            session.canvas_size.set((w, h));
            let content = rects.with_untracked(|r| geometry::bounds(r).map(geometry::framed));
            let v = match content {
                Some(content) => Viewport::fit(content, w, h),
                None => Viewport::default(),
            };
            session.viewport.set(v);
            fit_waiting.set_value(false);
            if !placed.get_untracked() {
                placed.set(true);
            }
        }
        None => fit_waiting.set_value(true),
    };
    // Fit on mount and whenever asked (the F key, the button, opening a design).
    Effect::new(move |_| {
        session.fit_request.track();
        if container.get().is_some() {
            fit();
        }
    });
    // Shown again: the size it had may have changed meanwhile (the window resized), and a fit
    // may be waiting. The view the user left (zoom, pan) is otherwise kept.
    Effect::new(move |_| {
        if !shown() || container.get().is_none() {
            return;
        }
        if fit_waiting.get_value() {
            fit();
        } else if let Some(size) = size() {
            session.canvas_size.set(size);
        }
    });
    let resize = window_event_listener(leptos::ev::resize, move |_| {
        if let Some(size) = size() {
            session.canvas_size.set(size);
        }
    });
    on_cleanup(move || resize.remove());

    let gesture: StoredValue<Option<Gesture>> = StoredValue::new(None);
    let marquee: RwSignal<Option<Rect>> = RwSignal::new(None);

    let local = move |ev: &web_sys::PointerEvent| -> (f64, f64) {
        let (left, top, _, _) = measure().unwrap_or_default();
        (
            f64::from(ev.client_x()) - left,
            f64::from(ev.client_y()) - top,
        )
    };
    let on_pointerdown = move |ev: web_sys::PointerEvent| {
        // A press on a control (the empty canvas's "Add an entity", the tools) is the control's:
        // capturing the pointer here would send its click to the canvas instead (issue 12).
        if ev.button() != 0 || starts_on_control(&ev) {
            return;
        }
        let (sx, sy) = local(&ev);
        if let Some(el) = container.get_untracked() {
            let _ = el.set_pointer_capture(ev.pointer_id());
        }
        if ev.shift_key() {
            let from = session.viewport.get_untracked().to_canvas(sx, sy);
            gesture.set_value(Some(Gesture::Marquee { from }));
        } else {
            gesture.set_value(Some(Gesture::Pan {
                pointer: (f64::from(ev.client_x()), f64::from(ev.client_y())),
                start: session.viewport.get_untracked(),
                moved: false,
            }));
        }
    };
    let on_pointermove = move |ev: web_sys::PointerEvent| {
        let Some(g) = gesture.get_value() else { return };
        match g {
            Gesture::Pan {
                pointer,
                start,
                moved,
            } => {
                let dx = f64::from(ev.client_x()) - pointer.0;
                let dy = f64::from(ev.client_y()) - pointer.1;
                if !moved && dx.abs() + dy.abs() < 3.0 {
                    return;
                }
                gesture.set_value(Some(Gesture::Pan {
                    pointer,
                    start,
                    moved: true,
                }));
                session.viewport.set(start.pan(dx, dy));
            }
            Gesture::Marquee { from } => {
                let (sx, sy) = local(&ev);
                let to = session.viewport.get_untracked().to_canvas(sx, sy);
                marquee.set(Some(Rect::from_corners(from, to)));
            }
        }
    };
    let on_pointerup = move |_ev: web_sys::PointerEvent| {
        match gesture.get_value() {
            Some(Gesture::Pan { moved: false, .. }) => session.select(Selection::None),
            Some(Gesture::Marquee { .. }) => {
                if let Some(area) = marquee.get_untracked() {
                    let picked: Vec<String> = rects.with_untracked(|r| {
                        r.iter()
                            .filter(|(_, rect)| rect.intersects(&area))
                            .map(|(n, _)| n.clone())
                            .collect()
                    });
                    session.select(if picked.is_empty() {
                        Selection::None
                    } else {
                        Selection::Entities(picked)
                    });
                }
                marquee.set(None);
            }
            _ => {}
        }
        gesture.set_value(None);
    };
    let on_wheel = move |ev: web_sys::WheelEvent| {
        ev.prevent_default();
        let (left, top, _, _) = measure().unwrap_or_default();
        let sx = f64::from(ev.client_x()) - left;
        let sy = f64::from(ev.client_y()) - top;
        let factor = geometry::wheel_factor(ev.delta_y(), ev.ctrl_key());
        session.viewport.update(|v| *v = v.zoom_at(sx, sy, factor));
    };

    let transform = move || session.viewport.get().css_transform();
    let overview = Memo::new(move |_| session.viewport.with(Viewport::overview));
    let grid = move || {
        let v = session.viewport.get();
        let size = 24.0 * v.zoom;
        format!(
            "background-size: {size:.2}px {size:.2}px; background-position: {:.2}px {:.2}px",
            v.x, v.y
        )
    };
    let empty = move || names.with(Vec::is_empty);
    // Entities and patterns typed in, no key yet: the canvas offers to propose them (issue 37).
    let keyless = Memo::new(move |_| {
        store.track_semantic();
        store.with_untracked(|d| {
            !d.patterns.is_empty()
                && !d.entities.is_empty()
                && d.entities.iter().all(|e| e.keys.is_empty())
        })
    });

    view! {
        <div
            class="canvas"
            class:stowed=move || !shown()
            node_ref=container
            style=grid
            role="application"
            aria-label="Design canvas: drag the background to pan, the wheel to zoom, shift+drag to select"
            data-testid="canvas"
            on:pointerdown=on_pointerdown
            on:pointermove=on_pointermove
            on:pointerup=on_pointerup
            on:pointercancel=on_pointerup
            on:wheel=on_wheel
        >
            <div class="canvas-layer" class:overview=overview style:transform=transform>
                <For
                    each=move || tables.get()
                    key=|name| name.clone()
                    children=move |name| view! { <TableFrame name=name rects=rects highlight=highlight/> }
                />
                <RelationLines positions=positions lines=relations layer=Layer::Lines/>
                <For
                    each=move || if placed.get() { names.get() } else { Vec::new() }
                    key=|name| name.clone()
                    children=move |name| view! { <EntityCard name=name rects=rects positions=positions contents=contents highlight=highlight overview=overview/> }
                />
                <RelationLines positions=positions lines=relations layer=Layer::Labels/>
                {move || marquee.get().map(|r| view! {
                    <div
                        class="marquee"
                        style:transform=format!("translate({}px, {}px)", r.x, r.y)
                        style:width=format!("{}px", r.width)
                        style:height=format!("{}px", r.height)
                    ></div>
                })}
            </div>
            <Show when=empty>
                <div class="canvas-empty">
                    <p>"This design has no entities yet."</p>
                    <button class="button primary" on:click=move |_| add_entity(&store, &session)>
                        "Add an entity"
                    </button>
                </div>
            </Show>
            <Show when=move || keyless.get()>
                <div class="canvas-keyless" role="region" aria-label="No keys yet" data-testid="canvas-keyless" on:pointerdown=|ev| ev.stop_propagation()>
                    <p>"These entities have patterns but no keys yet."</p>
                    <button
                        class="button primary"
                        data-testid="canvas-suggest-keys"
                        on:click=move |_| session.dialog.set(Some(crate::session::Dialog::Suggest))
                    >
                        "Suggest keys"
                    </button>
                </div>
            </Show>
            <div class="canvas-tools" on:pointerdown=|ev| ev.stop_propagation()>
                <button
                    class="button"
                    data-testid="add-table"
                    title="Add a table"
                    on:click=move |_| add_table(&store, &session)
                >
                    "+ Table"
                </button>
                <button
                    class="button"
                    data-testid="add-entity"
                    title="Add an entity (N)"
                    on:click=move |_| add_entity(&store, &session)
                >
                    "+ Entity"
                </button>
            </div>
            <ZoomControls fit=fit/>
        </div>
    }
}
