//! chromedriver's own commands, beside WebDriver's: the browser's console as chromedriver keeps
//! it (`goog:loggingPrefs`), so a test can assert no error was logged (console.error, uncaught
//! exceptions, a wasm panic), and Chrome DevTools Protocol commands (downloads, permissions,
//! storage quota, emulated media).

use fantoccini::wd::WebDriverCompatibleCommand;
use serde_json::{Value, json};

use super::Browser;

/// A POST to a chromedriver endpoint of the session: `se/log` (the browser log since the last
/// read) or `goog/cdp/execute` (one DevTools Protocol command).
#[derive(Debug)]
struct ChromeCommand {
    /// The endpoint under `session/{id}/`.
    endpoint: &'static str,
    body: Value,
}

impl WebDriverCompatibleCommand for ChromeCommand {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/{}",
            session_id.unwrap_or_default(),
            self.endpoint
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(self.body.to_string()))
    }
}

impl Browser {
    /// The console's errors (level SEVERE) logged since the last call, each as its message.
    pub async fn console_errors(&self) -> Vec<String> {
        let entries = self
            .client
            .issue_cmd(ChromeCommand {
                endpoint: "se/log",
                body: json!({ "type": "browser" }),
            })
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

    /// Sends the DevTools Protocol command `cmd` with `params`; its error, if any.
    pub async fn try_cdp(&self, cmd: &str, params: Value) -> Result<Value, String> {
        self.client
            .issue_cmd(ChromeCommand {
                endpoint: "goog/cdp/execute",
                body: json!({ "cmd": cmd, "params": params }),
            })
            .await
            .map_err(|e| e.to_string())
    }

    /// Sends the DevTools Protocol command `cmd` with `params`; the test fails if Chrome refuses.
    pub async fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.try_cdp(cmd, params)
            .await
            .unwrap_or_else(|e| panic!("{cmd} failed: {e}"))
    }
}
