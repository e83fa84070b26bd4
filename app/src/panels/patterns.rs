//! The access-pattern list: each pattern with its live verdict badge and key condition.
//! Selecting one highlights its entities and its index on the canvas. In a live room, a pattern
//! a teammate has selected is outlined in their colour, as their cards are.

use keyplan_core::{AccessPattern, Design, Operation, Verdict};
use leptos::prelude::*;

use super::Badge;
use super::VerdictBadge;
use crate::session::{Selection, use_session};
use crate::store::use_store;

/// Everything a row shows. The list is keyed by a hash of it, so a row is rebuilt exactly when
/// what it shows changes, and a keystroke that changes no verdict rebuilds none.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Row {
    name: String,
    entities: String,
    badge: Option<Badge>,
    scan: bool,
    condition: Option<String>,
}

/// A row with what it was made from.
#[derive(Debug, Clone, PartialEq)]
struct Made {
    source: Source,
    row: Row,
}

/// What a row is made from, beside its pattern's name (the row's own): the pattern's entities,
/// the parts of its verdict it shows, and its index's colour. Not the whole verdict: comparing 400 of those (their
/// reasons, queries, suggestions) was most of the list's cost on a keystroke.
#[derive(Debug, Clone, PartialEq)]
struct Source {
    entities: Vec<String>,
    shown: Option<Shown>,
    slot: usize,
}

/// What a row shows of a verdict (see [`Badge::of`]).
#[derive(Debug, Clone, PartialEq)]
struct Shown {
    operation: Operation,
    index: Option<String>,
    shards: Option<u32>,
    covered: bool,
    condition: Option<String>,
}

impl Shown {
    fn is(&self, v: &Verdict) -> bool {
        self.operation == v.operation
            && self.index == v.index
            && self.shards == v.shards
            && self.covered == v.covered
            && self.condition.as_deref() == v.key_condition.as_ref().map(|k| k.expression.as_str())
    }

    fn of(v: &Verdict) -> Shown {
        Shown {
            operation: v.operation,
            index: v.index.clone(),
            shards: v.shards,
            covered: v.covered,
            condition: v.key_condition.as_ref().map(|k| k.expression.clone()),
        }
    }
}

impl Source {
    /// Whether this is what `p`'s row is made from, given its name is the row's.
    fn is(&self, p: &AccessPattern, verdict: Option<&Verdict>, slot: usize) -> bool {
        self.entities == p.entities
            && self.slot == slot
            && match (&self.shown, verdict) {
                (Some(shown), Some(v)) => shown.is(v),
                (None, None) => true,
                _ => false,
            }
    }
}

impl Made {
    fn new(p: &AccessPattern, verdict: Option<&Verdict>, slot: usize) -> Made {
        let row = Row {
            name: p.name.clone(),
            entities: p.entities.join(", "),
            badge: verdict.map(|v| Badge::of(v, slot)),
            scan: verdict.is_some_and(|v| !v.covered),
            condition: verdict
                .and_then(|v| v.key_condition.as_ref())
                .map(|k| k.expression.clone()),
        };
        Made {
            source: Source {
                entities: p.entities.clone(),
                shown: verdict.map(Shown::of),
                slot,
            },
            row,
        }
    }
}

/// The rows of the list with what each was made from.
#[derive(Debug, Clone, PartialEq)]
struct Listed(Vec<Made>);

impl Listed {
    /// The rows of `design`'s patterns with their `verdicts`, and whether they differ from
    /// `last`'s: each row of `last` made from the same pattern, verdict and colour is kept.
    fn again(last: Option<Listed>, design: &Design, verdicts: &[Verdict]) -> (Listed, bool) {
        let mut last = last.map(|l| l.0.into_iter()).into_iter().flatten();
        let slots = crate::cards::Slots::of(design);
        let mut changed = false;
        let listed = design
            .patterns
            .iter()
            .zip(verdicts.iter().map(Some).chain(std::iter::repeat(None)))
            .map(|(p, verdict)| {
                let verdict = verdict.filter(|v| v.pattern == p.name);
                let slot = verdict.map_or(0, |v| match v.table.as_deref() {
                    Some(table) => slots.slot(table, v.index.as_deref()),
                    None => 0,
                });
                match last.next() {
                    Some(kept) if kept.row.name == p.name && kept.source.is(p, verdict, slot) => {
                        kept
                    }
                    _ => {
                        changed = true;
                        Made::new(p, verdict, slot)
                    }
                }
            })
            .collect::<Vec<_>>();
        changed |= last.next().is_some();
        (Listed(listed), changed)
    }
}

/// One pattern's row.
fn pattern_row(row: Row, session: crate::session::Session) -> impl IntoView {
    let Row {
        name,
        entities,
        badge,
        scan,
        condition,
    } = row;
    let selected = {
        let name = name.clone();
        Signal::derive(move || {
            session
                .selection
                .with(|s| matches!(s, Selection::Pattern(p) if *p == name))
        })
    };
    let pick = {
        let name = name.clone();
        move || session.select(Selection::Pattern(name.clone()))
    };
    // A teammate in the live room has this pattern selected (issue 38): their colour and name.
    let teammate = {
        let live = crate::live::use_live();
        let name = name.clone();
        Memo::new(move |_| {
            live.and_then(|l| l.focused_by(keyplan_core::edit::Element::Pattern, &name))
        })
    };
    view! {
        <li
            class="pattern-row"
            class:selected=selected
            class:scan=scan
            class:peer-focus=move || teammate.with(Option::is_some)
            style:outline-color=move || teammate.get().map(|(colour, _)| colour)
            title=move || teammate.get().map(|(_, who)| format!("{who} has this pattern selected"))
            role="option"
            tabindex="0"
            data-testid="pattern-row"
            data-pattern=name.clone()
            aria-selected=move || selected.get().to_string()
            on:click={ let pick = pick.clone(); move |_| pick() }
            on:keydown=move |ev| {
                if ev.key() == "Enter" || ev.key() == " " {
                    ev.prevent_default();
                    pick();
                }
            }
        >
            <div class="pattern-head">
                <span class="pattern-name">{name.clone()}</span>
                {badge.map(|badge| view! { <VerdictBadge badge/> })}
            </div>
            <div class="pattern-meta">{entities}</div>
            {condition.map(|c| view! { <code class="pattern-condition">{c}</code> })}
        </li>
    }
}

/// Rows to a chunk of the list.
const CHUNK: usize = 25;

fn row_key(row: &Row) -> u64 {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut h = DefaultHasher::new();
    row.hash(&mut h);
    h.finish()
}

#[component]
pub fn PatternList() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    // A keystroke changes a few verdicts, if any: a row is made again only when what it is
    // made from changed (issue 19: 400 rows were made on every keystroke). The rows are made
    // from the patterns, the tables (the colours) and the verdicts: a keystroke in an entity
    // that changes no verdict looks at none of them (issue 43).
    let listed = Memo::new_owning(move |last: Option<Listed>| {
        store.track_frame();
        // The analysis's verdicts: a statement's are the worker's (`Store::partiql_judged`).
        store
            .analysis
            .with(|a| store.with_untracked(|d| Listed::again(last, d, &a.verdicts)))
    });
    // A design of hundreds of patterns draws its rows a chunk a frame (issue 19).
    let drawn = super::chunks::rows_drawn(move || listed.with(|l| l.0.len()));
    let body: NodeRef<leptos::html::Div> = NodeRef::new();
    crate::library::scroll_home_on_open(body);
    view! {
        <div class="panel-body" node_ref=body>
            <div class="panel-actions">
                <button class="button" data-testid="add-pattern" title="Add an access pattern (P)" on:click=move |_| super::add_pattern(&store, &session)>
                    "+ Access pattern"
                </button>
                <button
                    class="button"
                    data-testid="suggest-keys"
                    title="Propose the keys and indexes that serve these patterns"
                    disabled=move || store.with(|d| d.patterns.is_empty())
                    on:click=move |_| session.dialog.set(Some(crate::session::Dialog::Suggest))
                >
                    "Suggest keys"
                </button>
            </div>
            <ul class="pattern-list" role="listbox" aria-label="Access patterns">
                // The rows in chunks of CHUNK, each chunk skipped by the browser's rendering
                // while it is out of view (`content-visibility: auto` on 16 chunks where it was
                // on 400 rows, whose visibility the browser worked out on every frame: about
                // 1 ms of each frame of an edit on the benchmark design).
                <For
                    each=move || {
                        let rows = listed.with(|l| l.0.len()).min(drawn.get());
                        (0..rows.div_ceil(CHUNK)).collect::<Vec<_>>()
                    }
                    key=|chunk| *chunk
                    children=move |chunk| {
                        let rows = move || {
                            let end = ((chunk + 1) * CHUNK).min(drawn.get());
                            listed.with(|l| {
                                l.0.get(chunk * CHUNK..end.min(l.0.len()))
                                    .unwrap_or_default()
                                    .iter()
                                    .map(|m| m.row.clone())
                                    .collect::<Vec<_>>()
                            })
                        };
                        view! {
                            <li class="pattern-chunk" role="none">
                                <ul role="none">
                                    <For each=rows key=row_key children=move |row| pattern_row(row, session) />
                                </ul>
                            </li>
                        }
                    }
                />
            </ul>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern<'a>(d: &'a mut Design, name: &str) -> &'a mut AccessPattern {
        let found = d.patterns.iter_mut().find(|p| p.name == name);
        found.expect("the pattern")
    }

    fn order(d: &mut Design) -> &mut keyplan_core::Entity {
        let found = d.entities.iter_mut().find(|e| e.name == "Order");
        found.expect("Order")
    }

    fn rows(listed: &Listed) -> Vec<Row> {
        listed.0.iter().map(|m| m.row.clone()).collect()
    }

    // issue 19: the list made again from the last one is the list made whole, and says it
    // changed exactly when a row did: a pattern's entities, a verdict, an index's colour.
    #[test]
    fn the_list_made_again_is_the_list_made_whole() {
        let mut design = keyplan_core::examples::first();
        let whole = |d: &Design| {
            let verdicts = keyplan_core::analyze(d).verdicts;
            (Listed::again(None, d, &verdicts).0, verdicts)
        };
        let (first, verdicts) = whole(&design);
        let (same, changed) = Listed::again(Some(first.clone()), &design, &verdicts);
        assert!(!changed);
        assert_eq!(same, first);

        let mut last = first;
        let edits: [fn(&mut Design); 7] = [
            // A pattern's entities, its verdict the same.
            |d| {
                let p = pattern(d, "Update order status");
                p.entities.push("OrderItem".into());
            },
            // The shards of a verdict alone (its badge's ×n).
            |d| {
                let t = keyplan_core::KeyTemplate::parse("STATUS#{status}#SHARD{shard:5}");
                order(d).keys.insert("GSI1PK".into(), t);
            },
            // The key condition of a verdict alone.
            |d| {
                let sort = pattern(d, "Get orders by status").sort.as_mut();
                sort.expect("a sort condition").op = keyplan_core::SortOp::Between;
            },
            // A verdict: the pattern's table key gone from its entity.
            |d| {
                order(d).keys.remove("SK");
            },
            // The colours: the first GSI gone, every later one a slot earlier.
            |d| {
                d.tables[0].gsis.remove(0);
            },
            // A pattern renamed.
            |d| pattern(d, "Get order items").name = "Items of an order".into(),
            // A pattern gone.
            |d| {
                d.patterns.pop();
            },
        ];
        for (n, edit) in edits.iter().enumerate() {
            edit(&mut design);
            let (made, verdicts) = whole(&design);
            let (again, changed) = Listed::again(Some(last), &design, &verdicts);
            assert_eq!(rows(&again), rows(&made), "edit {n}");
            assert!(changed, "edit {n} changed the list");
            last = again;
        }
    }

    // A row's source sees every part of a verdict the row shows, and only those.
    #[test]
    fn a_row_is_made_again_for_what_it_shows_of_a_verdict() {
        let design = keyplan_core::examples::first();
        let verdicts = keyplan_core::analyze(&design).verdicts;
        let v = verdicts
            .iter()
            .find(|v| v.pattern == "Get orders by status")
            .expect("the verdict");
        let shown = Shown::of(v);
        let changes: [fn(&mut Verdict); 5] = [
            |v| v.operation = Operation::Scan,
            |v| v.index = None,
            |v| v.shards = None,
            |v| v.covered = !v.covered,
            |v| v.key_condition = None,
        ];
        for (n, change) in changes.iter().enumerate() {
            let mut other = v.clone();
            change(&mut other);
            assert!(!shown.is(&other), "change {n}");
        }
        let mut other = v.clone();
        other.reasons.push("not shown in the row".into());
        assert!(shown.is(&other));
    }
}
