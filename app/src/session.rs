//! Session state: what is selected, where the canvas looks, which panel and dialog are open.
//! None of it is part of the design, none of it enters the undo history, so selecting or
//! panning never clears redo.

use leptos::prelude::*;

use keyplan_core::{Place, Point};

use crate::geometry::Viewport;

/// What the inspector shows and the canvas highlights.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Selection {
    #[default]
    None,
    /// One or more entity cards (shift+click or a drag rectangle adds more).
    Entities(Vec<String>),
    Table(String),
    Index {
        table: String,
        index: String,
    },
    Pattern(String),
}

impl Selection {
    /// The selection a finding's place points at: a key selects its entity (and focuses the
    /// key), an attribute or the entity's table its entity, an index that index.
    pub fn of_place(place: &Place) -> (Selection, Option<String>) {
        match place {
            Place::Key { entity, key } => {
                (Selection::Entities(vec![entity.clone()]), Some(key.clone()))
            }
            Place::Entity(entity)
            | Place::Keys(entity)
            | Place::EntityTable(entity)
            | Place::Attribute { entity, .. } => (Selection::Entities(vec![entity.clone()]), None),
            Place::Index { table, index, .. } => (
                Selection::Index {
                    table: table.clone(),
                    index: index.clone(),
                },
                None,
            ),
            Place::Table(table) => (Selection::Table(table.clone()), None),
            Place::Pattern(pattern) => (Selection::Pattern(pattern.clone()), None),
        }
    }

    pub fn has_entity(&self, name: &str) -> bool {
        matches!(self, Selection::Entities(names) if names.iter().any(|n| n == name))
    }
}

/// The left panel's tabs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftTab {
    Patterns,
    Findings,
}

/// What the centre shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CenterView {
    Canvas,
    Data,
    Cost,
    Run,
    Migrate,
}

/// A modal dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialog {
    Gallery,
    Export,
    Share,
    Help,
    /// The list of local designs.
    Designs,
    /// "Delete this design from the browser?"
    ConfirmDelete,
    /// A design inferred from the tables of an engine `keyplan serve` names.
    EngineImport,
    /// Keys and indexes proposed for the design's patterns (issue 37).
    Suggest,
}

/// A transient message at the bottom of the screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toast {
    pub message: String,
    pub error: bool,
    /// Details listed under the message (an import's notes).
    pub notes: Vec<String>,
    /// An error the user must see (a file that did not open): it stays until dismissed.
    pub until_dismissed: bool,
}

impl Toast {
    /// How long the toast stays, `None` until dismissed: a message four seconds, an error
    /// eight, a message with notes (an import's) the time to read them, two seconds a note
    /// after the first four, at most twenty; an error the user must see until dismissed (issue
    /// 43: an import's toast used to stay until dismissed though all was well). The view holds
    /// it while the pointer is over it.
    pub fn lifetime(&self) -> Option<std::time::Duration> {
        if self.until_dismissed {
            return None;
        }
        let n_notes = u64::try_from(self.notes.len()).unwrap_or(u64::MAX);
        let seconds = if self.error { 8 } else { 4 };
        let seconds = n_notes.saturating_mul(2).saturating_add(seconds).min(20);
        Some(std::time::Duration::from_secs(seconds))
    }
}

/// A Name field the inspector puts the caret in once it shows it: a new entity, attribute or
/// pattern is named where the user types next (issue 43).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameField {
    Entity(String),
    Attribute { entity: String, at: usize },
    Pattern(String),
}

/// All session state, `Copy` for closures.
#[derive(Debug, Clone, Copy)]
pub struct Session {
    pub selection: RwSignal<Selection>,
    /// The key attribute a finding pointed at, for the inspector to focus.
    pub focus_key: RwSignal<Option<String>>,
    /// The Name field to focus when it appears, taken by the field that focuses.
    pub focus_name: RwSignal<Option<NameField>>,
    pub viewport: RwSignal<Viewport>,
    /// The canvas element's size in pixels, kept by the canvas.
    pub canvas_size: RwSignal<(f64, f64)>,
    /// Bumped to ask the canvas to fit the design to the screen.
    pub fit_request: RwSignal<u64>,
    pub left_tab: RwSignal<LeftTab>,
    pub center: RwSignal<CenterView>,
    pub dialog: RwSignal<Option<Dialog>>,
    pub toast: RwSignal<Option<Toast>>,
    /// The card drag in progress, if any: Escape abandons it.
    pub card_drag: StoredValue<Option<CardDrag>>,
    /// The write units a second the Migrate tab plans at (`keyplan migrate --max-wcu`), kept
    /// while the tab is closed.
    pub max_wcu: RwSignal<f64>,
}

/// A drag of one or more cards: where the pointer went down and where each card started.
#[derive(Debug, Clone)]
pub struct CardDrag {
    pub pointer: (f64, f64),
    pub starts: Vec<(String, Point)>,
    /// False until the pointer has moved far enough to be a drag rather than a click.
    pub moved: bool,
}

impl Session {
    pub fn new() -> Session {
        Session {
            selection: RwSignal::new(Selection::None),
            focus_key: RwSignal::new(None),
            focus_name: RwSignal::new(None),
            viewport: RwSignal::new(Viewport::default()),
            canvas_size: RwSignal::new((800.0, 600.0)),
            fit_request: RwSignal::new(0),
            left_tab: RwSignal::new(LeftTab::Patterns),
            center: RwSignal::new(CenterView::Canvas),
            dialog: RwSignal::new(None),
            toast: RwSignal::new(None),
            card_drag: StoredValue::new(None),
            max_wcu: RwSignal::new(keyplan_core::migrate::DEFAULT_MAX_WCU),
        }
    }

    pub fn select(&self, selection: Selection) {
        self.focus_key.set(None);
        self.focus_name.set(None);
        self.selection.set(selection);
    }

    /// Selects `selection` and asks for the caret in `field`, its Name.
    pub fn select_to_name(&self, selection: Selection, field: NameField) {
        self.select(selection);
        self.focus_name.set(Some(field));
    }

    pub fn fit(&self) {
        self.fit_request.update(|n| *n += 1);
    }

    pub fn say(&self, message: impl Into<String>) {
        self.say_with_notes(message, Vec::new());
    }

    /// A message with a list of details under it, shown the time to read them.
    pub fn say_with_notes(&self, message: impl Into<String>, notes: Vec<String>) {
        self.toast.set(Some(Toast {
            message: message.into(),
            error: false,
            notes,
            until_dismissed: false,
        }));
    }

    pub fn warn(&self, message: impl Into<String>) {
        self.toast.set(Some(Toast {
            message: message.into(),
            error: true,
            notes: Vec::new(),
            until_dismissed: false,
        }));
    }

    /// An error that stays until dismissed: a file or a design that did not open.
    pub fn refuse(&self, message: impl Into<String>) {
        self.toast.set(Some(Toast {
            message: message.into(),
            error: true,
            notes: Vec::new(),
            until_dismissed: true,
        }));
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

pub fn use_session() -> Session {
    expect_context::<Session>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn toast(error: bool, n_notes: usize, until_dismissed: bool) -> Toast {
        Toast {
            message: "m".into(),
            error,
            notes: vec!["n".to_string(); n_notes],
            until_dismissed,
        }
    }

    // Issue 43: an import's toast with notes stayed until dismissed though nothing failed.
    #[test]
    fn a_toast_goes_after_the_time_to_read_it_unless_it_carries_an_error() {
        assert_eq!(
            toast(false, 0, false).lifetime(),
            Some(Duration::from_secs(4))
        );
        assert_eq!(
            toast(true, 0, false).lifetime(),
            Some(Duration::from_secs(8))
        );
        assert_eq!(
            toast(false, 3, false).lifetime(),
            Some(Duration::from_secs(10))
        );
        assert_eq!(
            toast(false, 40, false).lifetime(),
            Some(Duration::from_secs(20))
        );
        assert_eq!(toast(true, 0, true).lifetime(), None);
    }

    #[test]
    fn a_findings_place_selects_it() {
        assert_eq!(
            Selection::of_place(&Place::key("Order", "PK")),
            (Selection::Entities(vec!["Order".into()]), Some("PK".into()))
        );
        assert_eq!(
            Selection::of_place(&Place::gsi("orders", "GSI1")).0,
            Selection::Index {
                table: "orders".into(),
                index: "GSI1".into()
            }
        );
        assert_eq!(
            Selection::of_place(&Place::Pattern("Get order by ID".into())).0,
            Selection::Pattern("Get order by ID".into())
        );
        assert_eq!(
            Selection::of_place(&Place::Attribute {
                entity: "Order".into(),
                attribute: "status".into()
            })
            .0,
            Selection::Entities(vec!["Order".into()])
        );
    }
}
