//! The export dialog: the keyplan design file itself and every format core writes
//! (`keyplan_core::export`), computed in the browser from the open design, to copy or
//! download. The text is exactly what `keyplan export` prints (and, for the design file, what
//! Save writes). The exports are written by the worker ([`crate::compute`]); the design file
//! is the store's own text, written here.

use keyplan_core::export::Target;
use leptos::prelude::*;

use crate::clipboard::copy_text;
use crate::compute::{Computing, WorkerNotice, follow};
use crate::jobs::Export as ExportJob;
use crate::session::use_session;
use crate::store::{Tracks, use_store};

/// What the dialog offers: the keyplan design file itself (what Save writes), or one of core's
/// export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Choice {
    DesignFile,
    Export(Target),
}

impl Choice {
    fn value(self) -> &'static str {
        match self {
            Choice::DesignFile => "keyplan",
            Choice::Export(f) => f.name(),
        }
    }

    fn file_name(self, design: &keyplan_core::Design) -> String {
        match self {
            Choice::DesignFile => crate::storage::default_file_name(design),
            Choice::Export(f) => f.file_name(design),
        }
    }

    fn content_type(self) -> &'static str {
        match self {
            Choice::DesignFile => "application/json",
            Choice::Export(f) => f.content_type(),
        }
    }
}

#[component]
pub fn Export() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let format = RwSignal::new(Choice::Export(Target::CloudFormationJson));
    // The export, from the worker: a job for every change of the design or of the format.
    let (exported, _) = follow(
        store,
        Tracks::Everything,
        move || match format.get() {
            Choice::DesignFile => None,
            Choice::Export(f) => Some(ExportJob {
                design: store.with(Clone::clone),
                target: f.name().to_string(),
            }),
        },
        false,
    );
    // What the dialog shows: `None` while the first answer is computed.
    let output = Memo::new(move |_| match format.get() {
        Choice::DesignFile => Some(Ok(store.with(keyplan_core::file::to_string))),
        Choice::Export(_) => exported.with(|e| e.result().map(|r| r.and_then(|text| text))),
    });
    let file_name = move || store.with(|d| format.get().file_name(d));
    // What the format has no place for (NoSQL Workbench: vector indexes, LSIs, a multi-attribute
    // key's later attributes): said beside the preview, as `keyplan export` says it on stderr.
    let left_out = Memo::new(move |_| match format.get() {
        Choice::DesignFile => Vec::new(),
        Choice::Export(f) => store.with(|d| keyplan_core::export::warnings(d, f)),
    });
    let copy = move |_| {
        if let Some(Ok(text)) = output.get_untracked() {
            copy_text(text, move |ok| {
                if ok {
                    session.say("Copied to the clipboard");
                }
            });
        }
    };
    let save = move |_| {
        if let Some(Ok(text)) = output.get_untracked() {
            let f = format.get_untracked();
            let name = store.with_untracked(|d| f.file_name(d));
            if crate::save::download(&name, f.content_type(), &text).is_err() {
                session.warn("The browser refused the download: copy the text instead");
            }
        }
    };
    view! {
        <div class="export">
            <div class="export-toolbar">
                <label class="field inline">
                    <span class="field-label">"Target"</span>
                    <select
                        class="input"
                        aria-label="Export format"
                        data-testid="export-format"
                        on:change=move |ev| {
                            let value = event_target_value(&ev);
                            if value == Choice::DesignFile.value() {
                                format.set(Choice::DesignFile);
                            } else if let Ok(f) = value.parse::<Target>() {
                                format.set(Choice::Export(f));
                            }
                        }
                    >
                        <option value=Choice::DesignFile.value() selected=move || format.get() == Choice::DesignFile>
                            "keyplan design file (.keyplan.json)"
                        </option>
                        {Target::ALL.iter().map(|f| {
                            let choice = Choice::Export(*f);
                            view! { <option value=choice.value() title=format!("keyplan export --to {}", f.name()) selected=move || format.get() == choice>{f.title()}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <span class="hint file-name">{file_name}</span>
                <button class="button" data-testid="export-copy" on:click=copy>"Copy"</button>
                <button class="button primary" data-testid="export-download" on:click=save>"Download"</button>
            </div>
            <WorkerNotice/>
            <Show when=move || left_out.with(|l| !l.is_empty())>
                <ul class="export-left-out" data-testid="export-left-out" aria-label="What this format leaves out">
                    {move || left_out.get().into_iter().map(|line| view! { <li class="diagnostic warning">{line}</li> }).collect_view()}
                </ul>
            </Show>
            {move || match output.get() {
                Some(Ok(text)) => view! { <pre class="export-preview" data-testid="export-preview" tabindex="0" aria-label="Export preview">{text}</pre> }.into_any(),
                Some(Err(e)) => view! { <p class="diagnostic error">{e}</p> }.into_any(),
                None => view! { <Computing what="the export"/> }.into_any(),
            }}
        </div>
    }
}
