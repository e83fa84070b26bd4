//! The registry of the views split off the first load (issues 19 and 42): one list,
//! [`deferred_views!`], names every [`Deferred`] view with its split point and its builder. The
//! entry point (main.rs) makes a split point of each from it; [`provide_unsplit`] builds them
//! in the module that uses them instead (the tests, which are not split). It sits on top of
//! the views it names: the views, the dialogs and the inspector name a deferred view by its
//! [`Deferred`] key and never import this, and no service below them (the API, storage, the
//! worker's bridge, the share-link codec) calls up into a view.

use leptos::prelude::*;

use crate::deferred::{Deferred, Parts};
use crate::dialogs::{designs, engine_import, export, gallery, help, share, suggest};

/// Every deferred view, in one list: its [`Deferred`] key, the name of its split point and
/// the function that builds it. `$then` is a macro taking the list (`Key: split => builder;`
/// per view): main.rs's makes the split points, this module's the unsplit builders. A key
/// missing here, or here and not a [`Deferred`], does not compile.
#[macro_export]
macro_rules! deferred_views {
    ($then:ident) => {
        $then! {
            Editor: selection_editor => $crate::inspector::selection_editor;
            Data: data_view => $crate::views::data_view;
            Cost: cost_view => $crate::views::cost_view;
            Run: run_view => $crate::views::run_view;
            Migrate: migrate_view => $crate::views::migrate_view;
            Gallery: gallery_dialog => $crate::views::gallery_dialog;
            Export: export_dialog => $crate::views::export_dialog;
            Share: share_dialog => $crate::views::share_dialog;
            Help: help_dialog => $crate::views::help_dialog;
            Designs: designs_dialog => $crate::views::designs_dialog;
            EngineImport: engine_import_dialog => $crate::views::engine_import_dialog;
            Suggest: suggest_dialog => $crate::views::suggest_dialog;
        }
    };
}

/// Each deferred view, built in whichever module holds it (main.rs calls each from its split
/// point, so that each lands in that point's module).
pub fn data_view() -> AnyView {
    view! { <crate::panels::DataView/> }.into_any()
}

pub fn cost_view() -> AnyView {
    view! { <crate::panels::CostView/> }.into_any()
}

pub fn run_view() -> AnyView {
    view! { <crate::run::RunView/> }.into_any()
}

pub fn migrate_view() -> AnyView {
    view! { <crate::panels::MigrateView/> }.into_any()
}

pub fn gallery_dialog() -> AnyView {
    view! { <gallery::Gallery/> }.into_any()
}

pub fn export_dialog() -> AnyView {
    view! { <export::Export/> }.into_any()
}

pub fn share_dialog() -> AnyView {
    view! { <share::Share/> }.into_any()
}

pub fn help_dialog() -> AnyView {
    view! { <help::Help/> }.into_any()
}

pub fn designs_dialog() -> AnyView {
    view! { <designs::Designs/> }.into_any()
}

pub fn engine_import_dialog() -> AnyView {
    view! { <engine_import::EngineImport/> }.into_any()
}

pub fn suggest_dialog() -> AnyView {
    view! { <suggest::Suggest/> }.into_any()
}

macro_rules! unsplit {
    ($($what:ident: $split:ident => $build:path;)*) => {
        /// Every deferred view in the module that uses it, nothing to fetch (a build that is
        /// not split).
        pub const DIRECT: Parts = Parts {
            fetch: |_| Box::pin(async { Ok(()) }),
            build: |what| match what {
                $(Deferred::$what => $build(),)*
            },
        };

        /// The names of the deferred views' split points, as scripts/split-wasm.py finds them
        /// in the modules it writes.
        pub const SPLIT_POINTS: &[&str] = &[$(stringify!($split),)*];
    };
}

deferred_views!(unsplit);

/// Provides every part main.rs splits off, unsplit: the deferred views ([`DIRECT`]), the
/// share-link reader, what opens a file and the live client, each in the module that uses it
/// (the tests).
pub fn provide_unsplit() {
    crate::deferred::provide(DIRECT);
    crate::share::provide_reader(|payload| Box::pin(async move { crate::share::decode(&payload) }));
    crate::opening::provide_opener(|opening| {
        crate::opening::open_now(opening);
        Box::pin(async { Ok(()) })
    });
    crate::live::provide_client(|| Box::pin(async { Ok(crate::live::client::CLIENT) }));
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    use super::SPLIT_POINTS;

    /// What scripts/split-wasm.py says each split module holds (`dist/keyplan-split.json`).
    #[derive(serde::Deserialize)]
    struct Manifest {
        modules: BTreeMap<String, Module>,
    }

    #[derive(serde::Deserialize)]
    struct Module {
        holds: Vec<String>,
    }

    // issue 42: every view the app declares deferred is in a module split off the first load,
    // as the build wrote it. Needs the built app (scripts/build.sh); without dist/ it is
    // skipped, or fails under KEYPLAN_REQUIRE_TOOLS=1.
    #[test]
    fn every_declared_deferred_view_is_split_off_the_first_load() {
        let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("../dist");
        if !dist.join("index.html").is_file() {
            assert_ne!(
                std::env::var("KEYPLAN_REQUIRE_TOOLS").as_deref(),
                Ok("1"),
                "{} holds no built app: run scripts/build.sh",
                dist.display()
            );
            eprintln!("skipped: {} holds no built app", dist.display());
            return;
        }
        let path = dist.join("keyplan-split.json");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (a build before scripts/split-wasm.py wrote it: run scripts/build.sh)",
                path.display()
            )
        });
        let manifest: Manifest = serde_json::from_str(&text).expect("the split's manifest reads");
        let held: BTreeMap<&str, &str> = manifest
            .modules
            .iter()
            .flat_map(|(module, m)| m.holds.iter().map(move |p| (p.as_str(), module.as_str())))
            .collect();
        let not_split: Vec<&str> = SPLIT_POINTS
            .iter()
            .copied()
            .filter(|point| !held.contains_key(point))
            .collect();
        assert!(
            not_split.is_empty(),
            "declared deferred (views::deferred_views!) but in no split module: {not_split:?}; \
             the split modules hold {held:?}"
        );
    }
}
