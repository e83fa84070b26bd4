//! The design's sample items loaded into core's evaluator, shared by the data and cost views.
//!
//! One lazy memo for the whole app: nothing is generated until a view that shows the sample is
//! open, it is generated again only after a change a verdict could depend on (not a card move),
//! and switching between the data and cost views, or back to one, reuses it.

use std::sync::Arc;

use keyplan_core::eval::Store as ItemStore;
use keyplan_core::sample::{SampleConfig, generate};
use leptos::prelude::*;

use crate::store::Store;

/// The evaluator loaded with the sample; two are equal only when they are the same.
#[derive(Debug, Clone)]
pub struct Sample(pub Arc<ItemStore>);

impl PartialEq for Sample {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The shared sample, provided as context by the app.
#[derive(Debug, Clone, Copy)]
pub struct SampleCache(pub Memo<Sample>);

impl SampleCache {
    pub fn new(store: Store) -> SampleCache {
        SampleCache(Memo::new(move |_| {
            store.track_semantic();
            store.with_untracked(|d| {
                let data = generate(d, &SampleConfig::default());
                Sample(Arc::new(ItemStore::build(d, data.load_items())))
            })
        }))
    }
}

/// The sample provided by [`crate::App`].
pub fn use_sample() -> Memo<Sample> {
    expect_context::<SampleCache>().0
}
