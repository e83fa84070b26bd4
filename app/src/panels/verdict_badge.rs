//! A verdict as a badge: `GetItem`, `Query on GSI1` (in the index's colour), `Scan` in red,
//! or the write operation.

use keyplan_core::{Operation, Verdict};
use leptos::prelude::*;

/// What a badge shows: plain data, compared and hashed cheaply by the pattern list.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Badge {
    class: String,
    text: String,
}

impl Badge {
    /// The badge of `verdict`, in the colour slot of its index.
    pub fn of(verdict: &Verdict, colour: usize) -> Badge {
        let class = match verdict.operation {
            Operation::Scan => "badge scan".to_string(),
            Operation::GetItem | Operation::Query => format!("badge read slot-{colour}"),
            _ => "badge write".to_string(),
        };
        let mut text = badge_text(verdict);
        if let Some(n) = verdict.shards {
            text.push_str(&format!(" ×{n}"));
        }
        Badge { class, text }
    }
}

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
    /// The badge shown.
    badge: Badge,
) -> impl IntoView {
    view! {
        <span class=badge.class data-testid="verdict-badge">{badge.text}</span>
    }
}
