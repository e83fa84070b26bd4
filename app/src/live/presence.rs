//! The live room in the top bar: the connection (live, offline with the count of edits waiting,
//! closed), view-only, and who is in the room (a coloured chip each, the first [`CHIPS`]; the
//! rest behind a "+N" chip that lists everyone on hover, focus or click). The owner closes the
//! room in the share dialog, where it was made (`dialogs/share_live.rs`). Part of the live
//! client's module (`client.rs`).

use keyplan_core::collab::protocol::{Access, Peer};
use leptos::prelude::*;

use crate::live::{Status, words};
use crate::store::use_store;

/// How many people the top bar shows a chip of before it gathers the rest into "+N": the
/// coverage summary beside it stays whole at 1024 px with eight in the room.
const CHIPS: usize = 2;

/// A person's name as the room shows it: "(you)", ", view-only".
fn who(peer: &Peer, you: bool) -> String {
    format!(
        "{}{}{}",
        peer.name,
        if you { " (you)" } else { "" },
        if peer.access == Access::View {
            ", view-only"
        } else {
            ""
        }
    )
}

/// A person's chip: their initial on their colour.
fn chip(peer: &Peer, title: String) -> impl IntoView + use<> {
    let initial = peer
        .name
        .chars()
        .next()
        .unwrap_or('?')
        .to_uppercase()
        .to_string();
    view! {
        <span class="peer" style:background=words::colour(&peer.client) title=title.clone() aria-label=title data-testid="peer">
            {initial}
        </span>
    }
}

#[component]
pub fn Presence() -> impl IntoView {
    let Some(live) = crate::live::use_live() else {
        return ().into_any();
    };
    let store = use_store();
    // The badge's text, the words a narrow window leaves to screen readers (there "Live" is a
    // green dot), and its class.
    let badge = move || match live.status.get() {
        Status::Off => None,
        Status::Connecting => Some(("Connecting…".to_string(), "", "connecting")),
        Status::Online => Some((String::new(), "Live", "online")),
        Status::Offline => {
            let waiting = store.unacknowledged();
            Some((
                format!("Offline · {waiting}"),
                if waiting == 1 {
                    " edit waiting"
                } else {
                    " edits waiting"
                },
                "offline",
            ))
        }
        Status::Closed => Some(("Room closed".to_string(), "", "closed")),
    };
    let me = crate::live::client_id();
    // Everyone, this client first, each with how the room names them.
    let people = Memo::new(move |_| {
        let mut people: Vec<(Peer, String)> = live.peers.with(|peers| {
            peers
                .iter()
                .map(|p| (p.clone(), who(p, p.client == me)))
                .collect()
        });
        people.sort_by_key(|(p, _)| p.client != me);
        people
    });
    let chips = move || {
        people.with(|people| {
            people
                .iter()
                .take(CHIPS)
                .map(|(p, name)| view! { <li>{chip(p, name.clone())}</li> })
                .collect_view()
        })
    };
    let more = move || people.with(|p| p.len().saturating_sub(CHIPS));
    let listed = RwSignal::new(false);
    let everyone = move || {
        people.with(|people| {
            people
                .iter()
                .map(|(p, name)| {
                    view! { <li class="peer-row">{chip(p, name.clone())}<span>{name.clone()}</span></li> }
                })
                .collect_view()
        })
    };
    view! {
        <Show when=move || live.room.with(Option::is_some)>
            <div class="presence" data-testid="presence" data-live=move || live.status.get().as_str()>
                {move || badge().map(|(text, detail, class)| view! {
                    <span class=format!("live-badge {class}") data-testid="live-status" role="status">
                        {text}<span class="live-badge-detail">{detail}</span>
                    </span>
                })}
                <Show when=move || store.access.get() == Some(Access::View)>
                    <span class="live-badge view-only" data-testid="view-only">"View only"</span>
                </Show>
                <ul class="peers" aria-label="In this room">{chips}</ul>
                <Show when=move || more() != 0>
                    <div class="peers-more" on:focusout=move |_| listed.set(false)>
                        <button
                            class="peer more"
                            data-testid="peers-more"
                            aria-expanded=move || listed.get().to_string()
                            aria-controls="peers-everyone"
                            aria-label=move || format!("{} more in this room: list everyone", more())
                            on:click=move |_| listed.update(|l| *l = !*l)
                            on:keydown=move |ev| if ev.key() == "Escape" { listed.set(false) }
                        >
                            {move || format!("+{}", more())}
                        </button>
                        <ul class="peers-list" id="peers-everyone" data-testid="peers-list" aria-label="Everyone in this room">
                            {everyone}
                        </ul>
                    </div>
                </Show>
            </div>
        </Show>
    }
    .into_any()
}
