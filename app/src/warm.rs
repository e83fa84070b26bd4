//! Warming the keystroke's code before the first keystroke (issue 43). V8 compiles a
//! WebAssembly function with its baseline compiler when it is first called and optimises it
//! only once it has run enough; the incremental analysis a keystroke runs (`Analyzed::again`)
//! is code the page's load never ran, so the first keystrokes in a session ran it slowly (on
//! the 100-entity benchmark the first five took 8-12 ms of script where the next took 3-4).
//! In the first idle moment after the first paint, a copy of the first built-in example is
//! typed into as a keystroke is (the edit applied with its undo step, the design analysed
//! again from the last analysis), for at most [`BUDGET_MS`]; nothing it works out is kept.
//! The import a keystroke reads its field's value through is called once too. What a
//! keystroke redraws is Leptos's code and the page's, not warmed here.

use keyplan_core::Design;
use keyplan_core::analysis::{Analyzed, Statements};
use keyplan_core::edit::Edit;
use keyplan_core::findings::Measured;
use keyplan_core::history::History;

/// How long the warming may take, in ms: well within one idle period, never a long task.
const BUDGET_MS: f64 = 12.0;

/// Warms the keystroke's analysis for [`BUDGET_MS`] by the page's clock, and its reading of
/// the field it was typed in.
pub fn warm_up() {
    read_a_field();
    warm_for(BUDGET_MS, js_sys::Date::now);
}

/// Reads the value of a field made for the purpose (never in the page): a keystroke's handler
/// reads its field's value through this import, whose glue V8 compiles on its first call
/// (about 1 ms of the first keystroke on the benchmark).
fn read_a_field() {
    use wasm_bindgen::JsCast;
    let field = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("input").ok())
        .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok());
    if let Some(field) = field {
        field.set_value("keyplan");
        let _ = field.value();
    }
}

/// Types on the first example's first key template and back, each keystroke applied with its
/// undo step and the design analysed again from the last analysis, until `budget` ms have
/// passed by `now`; how many keystrokes it typed.
fn warm_for(budget: f64, now: impl Fn() -> f64) -> usize {
    let mut design = keyplan_core::examples::first();
    let Some(keystrokes) = keystrokes(&design) else {
        return 0;
    };
    let start = now();
    let (measured, statements) = (Measured::default(), Statements::default());
    let mut analyzed = Analyzed::new(&design, Some(&measured), Some(&statements));
    let mut history = History::new();
    history.begin();
    let mut times = 0;
    while now() - start < budget {
        if history
            .apply(&mut design, keystrokes[times % 2].clone())
            .is_err()
        {
            break;
        }
        analyzed = analyzed
            .again(&design, Some(&measured), Some(&statements))
            .0;
        times += 1;
    }
    times
}

/// Two keystrokes in `design`'s first key template: one typing a character, one taking it
/// away.
fn keystrokes(design: &Design) -> Option<[Edit; 2]> {
    let entity = design.entities.first()?;
    let (key, template) = entity.keys.iter().next()?;
    let set = |text: String| Edit::SetKeyTemplate {
        entity: entity.name.clone(),
        key: key.clone(),
        template: Some(keyplan_core::KeyTemplate::parse(&text)),
    };
    let source = template.source();
    Some([set(format!("{source}X")), set(source.to_string())])
}

#[cfg(test)]
mod tests {
    use super::*;

    // The warming types into one entity's template of the first example, a keystroke the
    // analysis takes the incremental path for, and stops at its budget.
    #[test]
    fn the_warming_types_a_keystroke_until_its_budget_is_spent() {
        let design = keyplan_core::examples::first();
        let keystrokes = keystrokes(&design).expect("the example has a key template");
        let mut typed = design.clone();
        for (n, edit) in keystrokes.into_iter().enumerate() {
            assert!(edit.only_changes_entity_contents());
            keyplan_core::edit::apply(&mut typed, edit).expect("the keystroke applies");
            assert_eq!(typed == design, n == 1, "keystroke {n}");
        }
        let clock = std::cell::Cell::new(0.0);
        let tick = || {
            clock.set(clock.get() + 1.0);
            clock.get()
        };
        assert_eq!(warm_for(5.0, tick), 4);
    }
}
