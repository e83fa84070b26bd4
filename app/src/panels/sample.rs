//! The design's sample items loaded into core's evaluator, shared by the data and cost views.
//!
//! One lazy memo for the whole app: nothing is generated until a view that shows the sample is
//! open, it is generated again only after a change a verdict could depend on (not a card move),
//! and switching between the data and cost views, or back to one, reuses it.
//!
//! A design whose sample would be larger than [`MAX_SAMPLE_ITEMS`] (a long parent/child chain
//! multiplies the defaults) gets an empty sample and the reason, shown by both views, instead
//! of freezing the tab (issue 13).

use std::sync::Arc;

use keyplan_core::eval::ItemStore;
use keyplan_core::sample::{MAX_SAMPLE_ITEMS, SampleConfig, generate_within};
use leptos::prelude::*;

use crate::store::Store;

/// The evaluator loaded with the sample; two are equal only when they are the same.
#[derive(Debug, Clone)]
pub struct Sample {
    pub store: Arc<ItemStore>,
    /// Why the sample is empty: it would have been over the budget.
    pub refused: Option<String>,
}

impl PartialEq for Sample {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.store, &other.store)
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
                let (data, refused) =
                    match generate_within(d, &SampleConfig::default(), MAX_SAMPLE_ITEMS) {
                        Ok(data) => (data, None),
                        Err(e) => (Default::default(), Some(format!("No sample: {e}."))),
                    };
                Sample {
                    store: Arc::new(ItemStore::build(d, data.load_items())),
                    refused,
                }
            })
        }))
    }
}

/// Why there is no sample, when there is none (nothing otherwise).
#[component]
pub fn SampleRefused() -> impl IntoView {
    let sample = use_sample();
    move || {
        sample.with(|s| s.refused.clone()).map(|message| {
            view! { <p class="diagnostic warning" data-testid="sample-refused" role="status">{message}</p> }
        })
    }
}

/// The sample provided by [`crate::App`].
pub fn use_sample() -> Memo<Sample> {
    expect_context::<SampleCache>().0
}
