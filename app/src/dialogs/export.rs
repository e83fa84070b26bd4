//! The export dialog: the keyplan design file itself and every format core writes
//! (`keyplan_core::export`), computed in the browser from the open design, to copy or
//! download. The text is exactly what `keyplan export` prints (and, for the design file, what
//! Save writes). The exports are written by the worker ([`crate::compute`]); the design file
//! is the store's own text, written here.

use keyplan_core::export::Target;
use leptos::prelude::*;

use crate::clipboard::copy_text;
use crate::compute::{Computing, WorkerNotice, follow};
use crate::jobs::{Answer, Job};
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

/// Lines of the preview laid out together: the browser skips laying out the chunks out of view
/// (`content-visibility: auto`), so a long export (thousands of lines) opens without a long
/// task (issue 19).
const CHUNK_LINES: usize = 100;

/// `text` in runs of [`CHUNK_LINES`] lines, each with its line ends: joined, they are `text`.
fn chunks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut lines = 0;
    for (at, _) in text.match_indices('\n') {
        lines += 1;
        if lines == CHUNK_LINES {
            out.push(text[start..=at].to_string());
            start = at + 1;
            lines = 0;
        }
    }
    if start < text.len() {
        out.push(text[start..].to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chunks_join_to_the_text() {
        let text: String = (0..250).map(|i| format!("line {i}\n")).collect::<String>() + "last";
        let parts = chunks(&text);
        assert_eq!(parts.len(), 3);
        assert_eq!(parts.concat(), text);
        assert_eq!(parts[0].lines().count(), CHUNK_LINES);
        assert_eq!(chunks(""), Vec::<String>::new());
        assert_eq!(chunks("a\n").concat(), "a\n");
    }
}

#[component]
pub fn Export() -> impl IntoView {
    let store = use_store();
    let session = use_session();
    let format = RwSignal::new(Choice::Export(Target::CloudFormationJson));
    // The export, from the worker: a job for every change of the design or of the format.
    let exported = follow(
        store,
        Tracks::Everything,
        move || match format.get() {
            Choice::DesignFile => None,
            Choice::Export(f) => Some(Job::Export {
                design: store.with(Clone::clone),
                target: f.name().to_string(),
            }),
        },
        false,
        |answer| match answer {
            Answer::Text(text) => Ok(text),
            other => Err(crate::compute::unexpected(other)),
        },
    );
    // What the dialog shows: `None` while the first answer is computed.
    let output = Memo::new(move |_| match format.get() {
        Choice::DesignFile => Some(Ok(store.with(keyplan_core::file::to_string))),
        Choice::Export(_) => exported.with(|e| e.result().map(|r| r.and_then(|text| text))),
    });
    let file_name = move || store.with(|d| format.get().file_name(d));
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
            {move || match output.get() {
                Some(Ok(text)) => view! {
                    <pre class="export-preview" data-testid="export-preview" tabindex="0" aria-label="Export preview">
                        {chunks(&text).into_iter().map(|chunk| view! { <span class="export-chunk">{chunk}</span> }).collect_view()}
                    </pre>
                }.into_any(),
                Some(Err(e)) => view! { <p class="diagnostic error">{e}</p> }.into_any(),
                None => view! { <Computing what="the export"/> }.into_any(),
            }}
        </div>
    }
}
