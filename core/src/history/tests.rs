use super::*;
use crate::model::{AccessPattern, Point};

fn order_design() -> Design {
    crate::file::parse(include_str!(
        "../../../examples/order-management.keyplan.json"
    ))
    .expect("the shared fixture parses")
}

/// The order example and an empty history: where each test starts.
fn start() -> (Design, History) {
    (order_design(), History::new())
}

/// Renames the design, then undoes that: the rename waits to be redone.
fn rename_and_undo(history: &mut History, design: &mut Design) {
    history
        .apply(design, Edit::SetName("Shop".into()))
        .expect("rename");
    history.undo(design).expect("undo");
}

fn at(x: f64, y: f64) -> Point {
    Point { x, y }
}

fn move_card(name: &str, x: f64, y: f64) -> Edit {
    Edit::MoveCards {
        positions: vec![(name.to_string(), Some(at(x, y)))],
    }
}

/// A drag of the Order card as the canvas does it: begin on pointer-down, a move per
/// pointer-move, commit on pointer-up.
fn drag_order(history: &mut History, design: &mut Design, to: &[(f64, f64)]) {
    drag_order_not_let_go(history, design, to);
    history.commit();
}

/// [`drag_order`] up to its last move, the pointer still down.
fn drag_order_not_let_go(history: &mut History, design: &mut Design, to: &[(f64, f64)]) {
    history.begin();
    for &(x, y) in to {
        history
            .apply(design, move_card("Order", x, y))
            .expect("a move applies");
    }
}

#[test]
fn undo_after_a_drag_restores_the_cards_position() {
    let (mut design, mut history) = start();
    drag_order(
        &mut history,
        &mut design,
        &[(370.0, 70.0), (400.0, 90.0), (500.0, 300.0)],
    );
    assert_eq!(design.layout["Order"], at(500.0, 300.0));
    assert!(history.undo(&mut design).expect("undo"));
    assert_eq!(design, order_design());
}

#[test]
fn a_whole_drag_is_one_undo_step() {
    let (mut design, mut history) = start();
    let path: Vec<(f64, f64)> = (0..1000).map(|i| (f64::from(i), 1.0)).collect();
    drag_order(&mut history, &mut design, &path);
    assert_eq!(history.n_undo(), 1);
    history.undo(&mut design).expect("undo");
    assert!(!history.can_undo());
}

#[test]
fn a_multi_select_drag_moves_and_restores_every_selected_card_together() {
    let (mut design, mut history) = start();
    history.begin();
    for step in 1..=3 {
        let d = f64::from(step) * 10.0;
        let edit = Edit::MoveCards {
            positions: vec![
                ("Order".into(), Some(at(360.0 + d, 60.0))),
                ("Customer".into(), Some(at(40.0 + d, 60.0))),
            ],
        };
        history.apply(&mut design, edit).expect("move");
    }
    history.commit();
    assert_eq!(design.layout["Customer"], at(70.0, 60.0));
    history.undo(&mut design).expect("undo");
    assert_eq!(design, order_design());
    history.redo(&mut design).expect("redo");
    assert_eq!(design.layout["Order"], at(390.0, 60.0));
    assert_eq!(design.layout["Customer"], at(70.0, 60.0));
}

#[test]
fn redo_after_undo_repeats_the_drag() {
    let (mut design, mut history) = start();
    drag_order(&mut history, &mut design, &[(1.0, 1.0), (2.0, 2.0)]);
    history.undo(&mut design).expect("undo");
    assert!(history.redo(&mut design).expect("redo"));
    assert_eq!(design.layout["Order"], at(2.0, 2.0));
    assert!(!history.can_redo());
}

#[test]
fn a_new_edit_after_undo_clears_redo() {
    let (mut design, mut history) = start();
    rename_and_undo(&mut history, &mut design);
    assert!(history.can_redo());
    history
        .apply(&mut design, Edit::SetName("Store".into()))
        .expect("rename");
    assert!(!history.can_redo());
}

#[test]
fn an_edit_that_changes_nothing_keeps_redo_and_adds_no_step() {
    let (mut design, mut history) = start();
    rename_and_undo(&mut history, &mut design);
    // Clicking a card (selection) never reaches the history; re-typing the same name is a
    // document edit that changes nothing.
    let same = Edit::SetName(design.name.clone());
    let changed = history.apply(&mut design, same).expect("same name");
    assert!(!changed);
    assert!(history.can_redo());
    assert_eq!(history.n_undo(), 0);
}

#[test]
fn undo_while_dragging_ends_the_drag_and_undoes_it() {
    let (mut design, mut history) = start();
    drag_order_not_let_go(&mut history, &mut design, &[(0.0, 0.0)]);
    assert!(history.is_recording());
    history.undo(&mut design).expect("undo");
    assert!(!history.is_recording());
    assert_eq!(design, order_design());
}

#[test]
fn cancelling_a_drag_puts_the_cards_back_and_records_nothing() {
    let (mut design, mut history) = start();
    drag_order_not_let_go(&mut history, &mut design, &[(0.0, 0.0), (9.0, 9.0)]);
    history.cancel(&mut design).expect("cancel");
    assert_eq!(design, order_design());
    assert!(!history.can_undo());
}

#[test]
fn typing_in_a_field_between_focus_and_blur_is_one_undo_step() {
    let (mut design, mut history) = start();
    history.begin();
    for typed in ["G", "Ge", "Get", "Get c"] {
        let edit = Edit::SetPattern {
            name: "Get order items".into(),
            pattern: AccessPattern {
                description: typed.to_string(),
                ..design.pattern("Get order items").expect("p").clone()
            },
        };
        history.apply(&mut design, edit).expect("type");
    }
    history.commit();
    assert_eq!(history.n_undo(), 1);
    history.undo(&mut design).expect("undo");
    assert_eq!(design, order_design());
}

#[test]
fn the_oldest_steps_fall_off_past_the_limit() {
    let mut design = order_design();
    let mut history = History::with_limit(3);
    for name in ["a", "b", "c", "d", "e"] {
        history
            .apply(&mut design, Edit::SetName(name.into()))
            .expect("rename");
    }
    assert_eq!(history.n_undo(), 3);
    while history.undo(&mut design).expect("undo") {}
    assert_eq!(design.name, "b");
}

#[test]
fn undoing_everything_then_redoing_everything_returns_to_the_last_design() {
    let (mut design, mut history) = start();
    let edits = vec![
        Edit::RenameEntity {
            from: "Order".into(),
            to: "Purchase".into(),
        },
        Edit::RemoveEntity {
            name: "Customer".into(),
        },
        move_card("Purchase", 3.0, 4.0),
        Edit::ReplaceDesign(Box::new(Design::new("blank"))),
        Edit::SetName("Fresh".into()),
    ];
    for edit in edits {
        history.apply(&mut design, edit).expect("edit");
    }
    let last = design.clone();
    while history.undo(&mut design).expect("undo") {}
    assert_eq!(design, order_design());
    while history.redo(&mut design).expect("redo") {}
    assert_eq!(design, last);
}

#[test]
fn a_refused_edit_is_not_recorded() {
    let (mut design, mut history) = start();
    let err = history.apply(
        &mut design,
        Edit::RemoveEntity {
            name: "Nobody".into(),
        },
    );
    assert!(err.is_err());
    assert!(!history.can_undo());
}
