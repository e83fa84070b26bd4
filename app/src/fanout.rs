//! A value per key (a card's content, its rectangle), worked out together in one place and read
//! through a signal of its own per key.
//!
//! Leptos keeps a node's subscribers in an ordered set, cloned to be notified and shifted when
//! one leaves it. A memo read by each of 100 cards made every change of the design mark the
//! 100 cards' memos and what hangs on them, then re-run each, each one leaving and joining the
//! set again: on the benchmark design about 0.6 ms of a keystroke went to that bookkeeping and
//! 0.5 ms of a card move to the shifting alone (issue 19). Here one effect reads the source and
//! writes only the keys whose value changed, so a keystroke or a card move wakes the cards it
//! changed and no other.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use leptos::prelude::*;

/// The values by key. `Copy`: components capture it.
#[derive(Debug)]
pub struct Fanout<T: Send + Sync + 'static> {
    cells: StoredValue<HashMap<String, ArcRwSignal<Option<T>>>>,
}

impl<T: Send + Sync + 'static> Clone for Fanout<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for Fanout<T> {}

/// What [`Fanout::new`]'s `fill` writes through.
#[derive(Debug)]
pub struct Writer<T: Send + Sync + 'static> {
    cells: StoredValue<HashMap<String, ArcRwSignal<Option<T>>>>,
    /// The signals whose value changed, set once `fill` returns.
    changed: Vec<(ArcRwSignal<Option<T>>, Option<T>)>,
}

impl<T: PartialEq + Send + Sync + 'static> Writer<T> {
    /// `key` has `value` now; its readers are told only when it differs from what they read.
    pub fn put(&mut self, key: &str, value: T) {
        let cell = self.cells.with_value(|cells| cells.get(key).cloned());
        match cell {
            Some(cell) => {
                if cell.with_untracked(|now| now.as_ref() != Some(&value)) {
                    self.changed.push((cell, Some(value)));
                }
            }
            None => self.cells.update_value(|cells| {
                drop(cells.insert(key.to_string(), ArcRwSignal::new(Some(value))))
            }),
        }
    }

    /// How many keys there are.
    pub fn keys(&self) -> usize {
        self.cells.with_value(HashMap::len)
    }

    /// Forgets every key `keep` refuses (an entity removed); its readers read `None`.
    pub fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        let gone: Vec<ArcRwSignal<Option<T>>> = self
            .cells
            .try_update_value(|cells| {
                let gone = cells
                    .iter()
                    .filter(|(key, _)| !keep(key))
                    .map(|(_, cell)| cell.clone())
                    .collect();
                cells.retain(|key, _| keep(key));
                gone
            })
            .unwrap_or_default();
        self.changed
            .extend(gone.into_iter().map(|cell| (cell, None)));
    }
}

impl<T: PartialEq + Send + Sync + 'static> Fanout<T> {
    /// Values that `fill` writes: it runs once now, so whatever is drawn next reads them, and
    /// again whenever a signal it reads changes. A key it does not write keeps its value.
    pub fn new(fill: impl FnMut(&mut Writer<T>) + 'static) -> Fanout<T> {
        let cells = StoredValue::new(HashMap::new());
        let fill = Rc::new(RefCell::new(fill));
        untrack(|| Self::fill(cells, &fill));
        // Its first run, after this pass, writes nothing new: every value is already there.
        Effect::new(move |_| Self::fill(cells, &fill));
        Fanout { cells }
    }

    /// Runs `fill`, then sets the signals whose value it changed.
    fn fill(
        cells: StoredValue<HashMap<String, ArcRwSignal<Option<T>>>>,
        fill: &RefCell<impl FnMut(&mut Writer<T>)>,
    ) {
        let mut writer = Writer {
            cells,
            changed: Vec::new(),
        };
        (fill.borrow_mut())(&mut writer);
        for (cell, value) in writer.changed {
            cell.set(value);
        }
    }

    /// The signal of `key`'s value (`None`: a key not written yet, or forgotten).
    pub fn get(&self, key: &str) -> ArcRwSignal<Option<T>> {
        if let Some(cell) = self.cells.with_value(|cells| cells.get(key).cloned()) {
            return cell;
        }
        let cell = ArcRwSignal::new(None);
        self.cells
            .update_value(|cells| drop(cells.insert(key.to_string(), cell.clone())));
        cell
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use any_spawner::{CustomExecutor, Executor, PinnedFuture, PinnedLocalFuture};

    thread_local! {
        static TASKS: RefCell<Vec<PinnedLocalFuture<()>>> = const { RefCell::new(Vec::new()) };
    }

    /// Runs the effects' tasks when told to: the browser's microtask queue, by hand.
    struct ByHand;

    impl CustomExecutor for ByHand {
        fn spawn(&self, fut: PinnedFuture<()>) {
            self.spawn_local(fut);
        }
        fn spawn_local(&self, fut: PinnedLocalFuture<()>) {
            TASKS.with(|tasks| tasks.borrow_mut().push(fut));
        }
        fn poll_local(&self) {
            let mut context = std::task::Context::from_waker(std::task::Waker::noop());
            let tasks = TASKS.with(|tasks| std::mem::take(&mut *tasks.borrow_mut()));
            let pending: Vec<_> = tasks
                .into_iter()
                .filter_map(|mut task| {
                    task.as_mut()
                        .poll(&mut context)
                        .is_pending()
                        .then_some(task)
                })
                .collect();
            TASKS.with(|tasks| tasks.borrow_mut().extend(pending));
        }
    }

    // Only the readers of a key whose value changed are told; a key dropped reads `None`.
    #[test]
    fn a_change_wakes_only_the_readers_of_the_keys_it_changed() {
        let _ = Executor::init_local_custom_executor(ByHand);
        let owner = Owner::new();
        owner.set();
        let source = RwSignal::new(vec![("a", 1), ("b", 2)]);
        let values = Fanout::new(move |w: &mut Writer<i32>| {
            source.with(|all| {
                for (key, value) in all {
                    w.put(key, *value);
                }
                w.retain(|key| all.iter().any(|(k, _)| *k == key));
            })
        });
        let (a, b) = (values.get("a"), values.get("b"));
        assert_eq!((a.get_untracked(), b.get_untracked()), (Some(1), Some(2)));
        let runs = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = {
            let (a, runs) = (a.clone(), runs.clone());
            Memo::new(move |_| {
                runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                a.get()
            })
        };
        assert_eq!(counted.get_untracked(), Some(1));
        let ran = || runs.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(ran(), 1);
        // The effect runs as a task: these tests drive it by hand.
        source.set(vec![("a", 1), ("b", 3)]);
        Executor::poll_local();
        assert_eq!(b.get_untracked(), Some(3));
        assert_eq!(counted.get_untracked(), Some(1));
        assert_eq!(ran(), 1, "a's reader was not woken by b's change");
        source.set(vec![("b", 3)]);
        Executor::poll_local();
        assert_eq!(counted.get_untracked(), None);
        assert_eq!(ran(), 2);
    }
}
