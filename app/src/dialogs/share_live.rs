//! "Share live" in the share dialog (issue 38): turns the open design into a room on the
//! `keyplan serve` the app came from (`POST /api/rooms`), keeps the owner token in this browser
//! (to close the room) and shows the edit and view-only links, each with a copy button, and,
//! to the browser that made the room, "Close room" (it deletes the room; everyone keeps the
//! design). The links carry the room's tokens in the fragment, which no server sees. It is
//! part of the share dialog's deferred module: the first load does not carry it.

use leptos::prelude::*;
use serde::Deserialize;

use crate::clipboard::copy_text;
use crate::live::RoomLink;
use crate::store::use_store;

/// The answer to `POST /api/rooms`: the room and its three tokens.
#[derive(Debug, Deserialize)]
struct Created {
    room: String,
    edit: String,
    view: String,
    owner: String,
}

#[component]
pub fn ShareLive() -> impl IntoView {
    let Some(live) = crate::live::use_live() else {
        return ().into_any();
    };
    let store = use_store();
    let session = crate::session::use_session();
    let status = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let create = move |_| {
        busy.set(true);
        status.set("Creating the room…".into());
        let body = store.with_untracked(keyplan_core::file::to_string);
        leptos::task::spawn_local(async move {
            match create_room(&body).await {
                Ok(created) => {
                    crate::live::keep_owner_token(&created.room, &created.owner);
                    live.links.set(Some((
                        crate::live::room_link(&created.room, &created.edit),
                        crate::live::room_link(&created.room, &created.view),
                    )));
                    live.join(RoomLink {
                        room: created.room,
                        key: created.edit,
                        own: true,
                    });
                    status.set(String::new());
                }
                Err(e) => status.set(e),
            }
            busy.set(false);
        });
    };
    let close_room = move |_| {
        let Some(link) = live.room.get_untracked() else {
            return;
        };
        let Some(owner) = crate::live::owner_token(&link.room) else {
            return;
        };
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
        <section class="share-live" data-testid="share-live">
            <h3 class="section-title">"Share live"</h3>
            {move || match live.links.get() {
                None => view! {
                    <p class="hint">"A live room on this keyplan server: everyone with the edit link edits this design with you, at once; the view-only link shows it as it changes."</p>
                    <button class="button" data-testid="share-live-create" disabled=move || busy.get() on:click=create>"Share live"</button>
                }
                .into_any(),
                Some((edit, view)) => view! {
                    <LinkRow label="Edit link" testid="live-edit-link" link=edit status=status/>
                    <LinkRow label="View-only link" testid="live-view-link" link=view status=status/>
                }
                .into_any(),
            }}
            <Show when=is_owner>
                <div class="share-row">
                    <button class="button danger" data-testid="close-room" on:click=close_room>"Close room"</button>
                    <p class="hint">"Deletes the room on the server: everyone keeps the design as it is, no longer shared."</p>
                </div>
            </Show>
            <p class="hint" role="status" data-testid="share-live-status">{move || status.get()}</p>
        </section>
    }
    .into_any()
}

/// A link in a read-only field with its copy button.
#[component]
fn LinkRow(
    /// What the link is, for the field's label.
    label: &'static str,
    /// The field's test id; its button's is this with `-copy`.
    testid: &'static str,
    link: String,
    /// Where the copy's outcome is said.
    status: RwSignal<String>,
) -> impl IntoView {
    let field: NodeRef<leptos::html::Input> = NodeRef::new();
    let copy = {
        let link = link.clone();
        move |_| {
            copy_text(link.clone(), move |ok| {
                status.set(if ok {
                    format!("{label} copied to the clipboard.")
                } else {
                    "The browser refused the clipboard: the link is selected, copy it with Ctrl+C."
                        .to_string()
                });
                if !ok && let Some(input) = field.get_untracked() {
                    input.select();
                }
            });
        }
    };
    view! {
        <div class="share-row">
            <input class="input mono" node_ref=field readonly=true aria-label=label data-testid=testid value=link/>
            <button class="button" data-testid=format!("{testid}-copy") on:click=copy>"Copy"</button>
        </div>
    }
}

async fn create_room(design_file: &str) -> Result<Created, String> {
    let (status, body) = crate::api::fetch("POST", "/api/rooms", Some(design_file))
        .await
        .map_err(|e| {
            format!("No live room: {e}. Live rooms need the app served by keyplan serve.")
        })?;
    if status != 201 {
        return Err(format!(
            "No live room: {}",
            crate::api::error_message(status, &body)
        ));
    }
    serde_json::from_str(&body)
        .map_err(|e| format!("No live room: the server's answer is not a room ({e})"))
}
