//! The Run panel as the browser tests drive it: waiting for a run to end.

use super::{Browser, eventually};

impl Browser {
    /// Waits until the Run panel's run has ended (passed, finished with mismatches, or
    /// failed) and returns its status line.
    pub async fn run_status_at_end(&self) -> String {
        let ended = |s: &String| {
            ["Passed", "Finished", "The run failed"]
                .iter()
                .any(|start| s.starts_with(start))
        };
        eventually("the run finishes", || async {
            self.texts("[data-testid=run-status]")
                .await
                .iter()
                .any(ended)
        })
        .await;
        self.text("[data-testid=run-status]").await
    }
}
