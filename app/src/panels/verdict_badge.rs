//! A verdict as a badge: `GetItem`, `Query on GSI1` (in the index's colour), `Scan` in red,
//! or the write operation.

use keyplan_core::{Operation, Verdict};
use leptos::prelude::*;

/// The badge's text for a verdict.
pub fn badge_text(verdict: &Verdict) -> String {
    match (verdict.operation, &verdict.index) {
        (Operation::Query, Some(index)) => format!("Query on {index}"),
        (Operation::Query, None) => "Query".to_string(),
        (op, _) => op.as_str().to_string(),
    }
}

#[component]
pub fn VerdictBadge(
    /// The verdict shown.
    verdict: Verdict,
    /// The colour slot of its index.
    colour: usize,
) -> impl IntoView {
    let class = match verdict.operation {
        Operation::Scan => "badge scan".to_string(),
        Operation::GetItem | Operation::Query => format!("badge read slot-{colour}"),
        _ => "badge write".to_string(),
    };
    let shards = verdict.shards.map(|n| format!(" ×{n}"));
    view! {
        <span class=class data-testid="verdict-badge">{badge_text(&verdict)}{shards}</span>
    }
}
