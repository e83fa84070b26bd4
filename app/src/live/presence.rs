//! The live room in the top bar: the connection (live, offline with the count of edits waiting,
//! closed), view-only, who is in the room (a coloured chip each) and the owner's "Close room".

use keyplan_core::collab::protocol::Access;
use leptos::prelude::*;

use crate::live::{Status, words};
use crate::store::use_store;

#[component]
pub fn Presence() -> impl IntoView {
    let Some(live) = crate::live::use_live() else {
        return ().into_any();
    };
    let store = use_store();
    let badge = move || match live.status.get() {
        Status::Off => None,
        Status::Connecting => Some(("Connecting…".to_string(), "connecting")),
        Status::Online => Some(("Live".to_string(), "online")),
        Status::Offline => {
            let waiting = store.unacknowledged();
            Some((
                format!("Offline · {} waiting", crate::text::plural(waiting, "edit")),
                "offline",
            ))
        }
        Status::Closed => Some(("Room closed".to_string(), "closed")),
    };
    let peers = move || {
        let me = crate::live::client_id();
        live.peers
            .get()
            .into_iter()
            .map(|p| {
                let colour = words::colour(&p.client);
                let you = p.client == me;
                let title = format!(
                    "{}{}{}",
                    p.name,
                    if you { " (you)" } else { "" },
                    if p.access == Access::View { ", view-only" } else { "" }
                );
                let initial = p.name.chars().next().unwrap_or('?').to_uppercase().to_string();
                view! {
                    <li class="peer" style:background=colour title=title.clone() aria-label=title data-testid="peer">
                        {initial}
                    </li>
                }
            })
            .collect_view()
    };
    let close_room = move |_| {
        let Some(link) = live.room.get_untracked() else {
            return;
        };
        let Some(owner) = crate::live::owner_token(&link.room) else {
            return;
        };
        let session = crate::session::use_session();
        leptos::task::spawn_local(async move {
            let url = format!("/api/rooms/{}", link.room);
            let bearer = format!("Bearer {owner}");
            match crate::api::fetch_with("DELETE", &url, None, &[("authorization", &bearer)]).await
            {
                Ok((204, _)) | Ok((404, _)) => {
                    crate::live::forget_owner_token(&link.room);
                    live.leave();
                    session.say("The live room is closed: the design stays here");
                }
                Ok((status, body)) => session.warn(format!(
                    "The room was not closed: {}",
                    crate::api::error_message(status, &body)
                )),
                Err(e) => session.warn(format!("The room was not closed: {e}")),
            }
        });
    };
    let is_owner = move || {
        live.room.with(|r| {
            r.as_ref()
                .is_some_and(|r| crate::live::owner_token(&r.room).is_some())
        })
    };
    view! {
        <Show when=move || live.room.with(Option::is_some)>
            <div class="presence" data-testid="presence" data-live=move || live.status.get().as_str()>
                {move || badge().map(|(text, class)| view! {
                    <span class=format!("live-badge {class}") data-testid="live-status" role="status">{text}</span>
                })}
                <Show when=move || store.access.get() == Some(Access::View)>
                    <span class="live-badge view-only" data-testid="view-only">"View only"</span>
                </Show>
                <ul class="peers" aria-label="In this room">{peers}</ul>
                <Show when=is_owner>
                    <button class="button" data-testid="close-room" on:click=close_room>"Close room"</button>
                </Show>
            </div>
        </Show>
    }
    .into_any()
}
