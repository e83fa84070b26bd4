//! The browser's console, as chromedriver keeps it (`goog:loggingPrefs`): a test reads the
//! errors logged so far (console.error, uncaught exceptions, a wasm panic) and asserts there
//! are none.

use fantoccini::wd::WebDriverCompatibleCommand;

use super::Browser;

/// chromedriver's `POST /session/{id}/se/log`: the browser log entries since the last read.
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/se/log",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(r#"{"type":"browser"}"#.to_string()),
        )
    }
}

impl Browser {
    /// The console's errors (level SEVERE) logged since the last call, each as its message.
    pub async fn console_errors(&self) -> Vec<String> {
        let entries = self
            .client
            .issue_cmd(BrowserLog)
            .await
            .expect("read the browser log");
        entries
            .as_array()
            .map(|entries| {
                entries
                    .iter()
                    .filter(|e| e["level"] == "SEVERE")
                    .map(|e| e["message"].as_str().unwrap_or_default().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }
}
