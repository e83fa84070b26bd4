//! The parts split off the first load (issues 19 and 42, app/src/views.rs), in headless
//! Chromium on `keyplan serve`: the tabs', the dialogs' and the file opener's module (one,
//! `views`, with the chunk it shares with the link reader) is fetched after the first paint,
//! each view opens with its own content, and a module that cannot be fetched is said so and
//! fetched again on request while the canvas goes on working; the share-link reader is fetched
//! for a link, and a link it cannot read for want of it leaves the saved designs as they were;
//! a file whose opener cannot be fetched says so, and is opened once it can be; the live client
//! is fetched only by a page that joins a room, and a room link it cannot join for want of it
//! says so and joins once it can. (A worker's answer is read by the view that asked, in that
//! view's module: no reader of its own.)

mod browser;

use browser::{Browser, app_test, eventually, prerequisites, start_server};
use serde_json::json;

/// The split modules and the chunks they share: `keyplan-app-<hash>_split_<module>.wasm`,
/// `keyplan-app-<hash>_chunk_<n>.wasm`.
fn is_split_module(name: &str) -> bool {
    name.starts_with("keyplan-app-")
        && (name.contains("_split_") || name.contains("_chunk_"))
        && name.ends_with(".wasm")
}

/// A browser that cannot fetch the files matching `urls` (DevTools' URL patterns), as though
/// the server were unreachable for them.
async fn blocking(urls: &[&str]) -> Browser {
    let b = Browser::open().await;
    b.cdp("Network.enable", json!({})).await;
    block(&b, urls).await;
    b
}

/// From now on, `b` cannot fetch the files matching `urls`, and can fetch every other.
async fn block(b: &Browser, urls: &[&str]) {
    b.cdp("Network.setBlockedURLs", json!({ "urls": urls }))
        .await;
}

/// Whether the page fetched the split module `name` (`link_reader`).
async fn fetched_split(b: &Browser, name: &str) -> bool {
    let suffix = format!("_split_{name}.wasm");
    b.fetched()
        .await
        .iter()
        .any(|(file, _)| file.ends_with(&suffix))
}

#[test]
fn the_tabs_and_dialogs_are_fetched_after_the_first_paint_and_open_with_their_content() {
    app_test(async |b| {
        b.find("[data-entity=Order]").await;
        let paint = b.first_paint().await;
        // The views' module (every tab, dialog and editor split off, and the file opener)
        // and the chunks it needs, fetched in the first idle moment after the paint; not the
        // share-link reader's, which only a page opened from a link needs.
        let built = std::fs::read_dir(browser::workspace().join("dist"))
            .expect("the built app")
            .filter(|entry| {
                let name = entry.as_ref().expect("an entry").file_name();
                let name = name.to_string_lossy();
                name.contains("_split_") && name.ends_with(".wasm")
            })
            .count();
        assert_eq!(
            built, 3,
            "the views' module, the link reader's and the live client's"
        );
        eventually("the views' module is fetched", || async {
            fetched_split(b, "views").await
        })
        .await;
        assert!(!fetched_split(b, "link_reader").await);
        // issue 38: a page that joins no room never fetches the live client.
        assert!(!fetched_split(b, "live").await);
        for (name, started) in b
            .fetched()
            .await
            .iter()
            .filter(|(name, _)| is_split_module(name))
        {
            assert!(
                *started > paint,
                "{name} was fetched at {started} ms, before the first paint at {paint} ms"
            );
        }

        // Each opens with its content: a tab, and a dialog with its first control focused.
        b.click("[data-testid=tab-data]").await;
        b.find("[data-testid=item-attributes]").await;
        b.click("[data-testid=tab-canvas]").await;
        b.press(&[], '?').await;
        b.find("[data-testid=dialog] .dialog-body kbd").await;
        b.click("[data-testid=dialog-close]").await;
        b.click_button("Export").await;
        b.find("[data-testid=dialog] [data-testid=export-format]")
            .await;
        eventually(
            "the export dialog's first control has the focus",
            || async {
                b.js("return document.activeElement.closest('.dialog-body') !== null;")
                    .await
                    == json!(true)
            },
        )
        .await;
        b.click("[data-testid=dialog-close]").await;
        b.click("[data-entity=Order] .card-head").await;
        b.find("[data-testid=entity-name-input]").await;
        assert!(!b.has("[data-testid=deferred-failed]").await);
        assert!(!fetched_split(b, "live").await);
    });
}

#[tokio::test]
async fn a_view_whose_module_cannot_be_fetched_says_so_and_is_fetched_again_on_request() {
    let Some(dist) = prerequisites() else { return };
    let server = start_server(&dist);
    // The views' module cannot be fetched (the server unreachable for it, say).
    let b = blocking(&["*_split_views.wasm"]).await;
    b.visit(&server.url).await;
    b.find("[data-entity=Order]").await;
    b.click("[data-testid=tab-data]").await;
    let failed = b.text("[data-testid=deferred-failed]").await;
    b.screenshot("deferred-tab-unreachable").await;
    assert!(
        failed.contains("could not be fetched") && failed.contains("Your design is untouched"),
        "{failed}"
    );
    // The canvas works meanwhile.
    b.click("[data-testid=tab-canvas]").await;
    b.find("[data-entity=Customer]").await;

    // Opened again, it is fetched again, and fails again while the module is unreachable.
    b.click("[data-testid=tab-data]").await;
    b.find("[data-testid=deferred-failed]").await;
    b.click("[data-testid=tab-canvas]").await;

    // A dialog whose module arrives on "Try again" focuses its first control when it does.
    b.click("[data-testid=share]").await;
    b.find("[data-testid=dialog] [data-testid=deferred-failed]")
        .await;
    b.screenshot("deferred-dialog-unreachable").await;
    block(&b, &[]).await;
    b.click("[data-testid=dialog] [data-testid=deferred-retry]")
        .await;
    b.find("[data-testid=share-link]").await;
    eventually("the share dialog's first control has the focus", || async {
        b.js("return document.activeElement.closest('.dialog-body') !== null && document.activeElement.dataset.testid;")
            .await
            == json!("share-link")
    })
    .await;
    b.click("[data-testid=dialog-close]").await;
    // The module fetched, every view in it opens at once.
    b.click("[data-testid=tab-data]").await;
    b.find("[data-testid=item-attributes]").await;
    assert!(!b.has("[data-testid=deferred-failed]").await);
    b.close().await;
}

#[tokio::test]
async fn a_link_opened_while_its_reader_cannot_be_fetched_says_so_and_opens_once_it_can() {
    let Some(dist) = prerequisites() else { return };
    let server = start_server(&dist);
    let mut design = browser::generated_design(3);
    design.name = "Linked while offline".into();
    let link = keyplan_core::share::link(&server.url, &design).expect("a share link");
    // The share-link reader is a module of its own, fetched only for a link.
    let b = blocking(&["*_split_link_reader.wasm"]).await;
    b.visit(&link).await;
    let toast = b.toast_containing("could not be opened").await;
    assert!(
        toast.contains("the link reader could not be fetched")
            && toast.contains("Your saved designs are untouched"),
        "{toast}"
    );
    assert_ne!(b.saved_design().await.name, design.name);

    // Reachable again: the same link opens its design.
    block(&b, &[]).await;
    b.visit(&link).await;
    b.toast_containing("Opened a shared copy").await;
    assert_eq!(b.saved_design().await.name, design.name);
    assert!(fetched_split(&b, "link_reader").await);
    b.close().await;
}

#[tokio::test]
async fn a_file_opened_while_its_opener_cannot_be_fetched_says_so_and_opens_once_it_can() {
    let Some(dist) = prerequisites() else { return };
    let server = start_server(&dist);
    let mut design = browser::generated_design(2);
    design.name = "Dropped while offline".into();
    let text = keyplan_core::file::to_string(&design);
    // What opens a file is in the views' module.
    let b = blocking(&["*_split_views.wasm"]).await;
    b.visit(&server.url).await;
    b.find("[data-entity=Order]").await;
    let before = b.saved_design().await.name;
    b.drop_file("offline.keyplan.json", &text).await;
    let toast = b.toast_containing("could not be opened").await;
    b.screenshot("deferred-file-opener-unreachable").await;
    assert!(
        toast.starts_with(
            "offline.keyplan.json could not be opened: what opens files could not be fetched"
        ) && toast.contains("Your designs are untouched"),
        "{toast}"
    );
    assert_eq!(b.saved_design().await.name, before);

    // Reachable again: the same file opens.
    block(&b, &[]).await;
    b.drop_file("offline.keyplan.json", &text).await;
    b.toast_containing("Opened offline.keyplan.json").await;
    eventually("the dropped design is the one open", || async {
        b.saved_design().await.name == design.name
    })
    .await;
    b.close().await;
}

// issue 38: the live client is a module of its own, fetched when a page joins a room.
#[tokio::test]
async fn a_room_link_opened_while_the_live_client_cannot_be_fetched_says_so_and_joins_once_it_can()
{
    let Some(dist) = prerequisites() else { return };
    let server = start_server(&dist);
    let b = blocking(&["*_split_live.wasm"]).await;
    b.visit(&server.url).await;
    b.find("[data-entity=Order]").await;
    b.js("localStorage.setItem('keyplan.live.name', 'Dee'); return null;")
        .await;
    let before = b.saved_design().await.name;
    // A room, made as "Share live" makes one.
    let mut design = browser::generated_design(2);
    design.name = "Joined once it can".into();
    let created = b
        .js_async(
            "const done = arguments[arguments.length - 1];\
             fetch('/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: arguments[0] })\
               .then(r => r.json()).then(done, e => done(String(e)));",
            vec![json!(keyplan_core::file::to_string(&design))],
        )
        .await;
    let link = format!(
        "{}/#room={}&key={}",
        server.url,
        created["room"].as_str().expect("a room"),
        created["edit"].as_str().expect("an edit key")
    );
    b.visit(&link).await;
    let toast = b.toast_containing("was not joined").await;
    assert!(
        toast.contains("the live client could not be fetched")
            && toast.contains("Your design is untouched"),
        "{toast}"
    );
    b.find(".app[data-live=off]").await;
    assert_eq!(b.saved_design().await.name, before);

    // Reachable again: the link joins the room (pasted into the address bar of a page
    // opened without it).
    block(&b, &[]).await;
    b.visit(&server.url).await;
    b.find("[data-entity=Order]").await;
    b.visit(&link).await;
    b.find(".app[data-live=online]").await;
    assert!(fetched_split(&b, "live").await);
    eventually("the room's design is the one open", || async {
        b.saved_design().await.name == design.name
    })
    .await;
    b.close().await;
}
