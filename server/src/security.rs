//! Who the server answers, and what every answer tells the browser: the Host and Origin checks
//! that stop DNS rebinding and cross-site requests (issue 13), and the security headers.
//!
//! The server answers only to the host names it was started for: `127.0.0.1`, `localhost` and
//! `[::1]` on its port, the `--host` it listens on, and each `--allowed-host`. A request naming
//! any other host gets 421 with a JSON message: a page on `evil.example` that rebinds its name
//! to 127.0.0.1 still sends `Host: evil.example`, so it never reaches the API. A request with
//! no Host at all (never a browser) is answered. A request whose `Origin` is foreign is
//! refused with 403 when it changes state (any method but GET, HEAD and OPTIONS) and on every
//! `/api` path (closing a run's event stream cancels the run). Loopback origins on any port
//! count as ours: `trunk serve` on :8081 forwards the app's API calls here.
//!
//! Every response carries `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, a
//! `Referrer-Policy` and a Content-Security-Policy that lets the built app run (its own
//! scripts, WebAssembly, the inline start-up script trunk writes, by hash) and nothing else.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The names every server answers to besides the ones it is started with.
pub const LOOPBACK: [&str; 3] = ["127.0.0.1", "localhost", "[::1]"];

/// The host names (and the port) this server answers to. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Hosts {
    /// Lower-case names, IPv6 addresses in brackets.
    names: Arc<Vec<String>>,
    /// The port a Host header must name; `None` accepts any (tests without a socket).
    port: Option<u16>,
}

impl Default for Hosts {
    /// The loopback names on any port.
    fn default() -> Self {
        Hosts::new(None, &[])
    }
}

impl Hosts {
    /// The loopback names and `extra` (the `--host` and every `--allowed-host`), on `port`.
    pub fn new(port: Option<u16>, extra: &[String]) -> Hosts {
        let mut names: Vec<String> = LOOPBACK.iter().map(|n| n.to_string()).collect();
        for name in extra {
            let name = normalise(name);
            if !name.is_empty() && !names.contains(&name) {
                names.push(name);
            }
        }
        Hosts {
            names: Arc::new(names),
            port,
        }
    }

    /// What a Host header may say, for messages: `127.0.0.1:8080, localhost:8080, ...`.
    pub fn describe(&self) -> String {
        let port = self.port.map(|p| format!(":{p}")).unwrap_or_default();
        self.names
            .iter()
            .map(|n| format!("{n}{port}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether a Host header (`name` or `name:port`) is one of ours.
    pub fn allows_host(&self, host: &str) -> bool {
        let Some((name, port)) = split_host(host) else {
            return false;
        };
        let port_ok = match self.port {
            None => true,
            Some(ours) => port.unwrap_or(80) == ours,
        };
        port_ok && self.names.contains(&name)
    }

    /// Whether an `Origin` header (`scheme://host[:port]`) is one of ours: a Host we answer
    /// to, or a loopback name on any port.
    pub fn allows_origin(&self, origin: &str) -> bool {
        let Some((scheme, rest)) = origin.split_once("://") else {
            return false;
        };
        if !matches!(scheme, "http" | "https") || rest.contains('/') {
            return false;
        }
        let Some((name, port)) = split_host(rest) else {
            return false;
        };
        if LOOPBACK.contains(&name.as_str()) {
            return true;
        }
        let default_port = if scheme == "https" { 443 } else { 80 };
        let port_ok = match self.port {
            None => true,
            Some(ours) => port.unwrap_or(default_port) == ours,
        };
        port_ok && self.names.contains(&name)
    }
}

/// A host name as compared: lower case, no trailing dot, an IPv6 address in brackets.
fn normalise(name: &str) -> String {
    let name = name.trim().trim_end_matches('.').to_ascii_lowercase();
    if name.contains(':') && !name.starts_with('[') {
        format!("[{name}]")
    } else {
        name
    }
}

/// `name[:port]` into its normalised name and port; `None` when it is not a host.
fn split_host(host: &str) -> Option<(String, Option<u16>)> {
    let host = host.trim();
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        let (address, after) = rest.split_once(']')?;
        let port = match after.strip_prefix(':') {
            Some(p) => Some(p.parse().ok()?),
            None if after.is_empty() => None,
            None => return None,
        };
        (format!("[{address}]"), port)
    } else {
        match host.rsplit_once(':') {
            Some((name, p)) => (name.to_string(), Some(p.parse().ok()?)),
            None => (host.to_string(), None),
        }
    };
    let name = normalise(&name);
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '[' | ']' | ':'));
    valid.then_some((name, port))
}

/// At most this many characters of a refused header are echoed in the message.
const ECHO: usize = 80;

fn echo(text: &str) -> String {
    let mut shown: String = text.chars().take(ECHO).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    shown
}

/// The Host and Origin checks, as a middleware over the whole app.
pub async fn check_host_and_origin(
    State(hosts): State<Hosts>,
    request: Request,
    next: Next,
) -> Response {
    match refusal(&hosts, request.method(), request.uri(), request.headers()) {
        Some(error) => error.into_response(),
        None => next.run(request).await,
    }
}

/// Why a request is refused, if it is.
fn refusal(
    hosts: &Hosts,
    method: &Method,
    uri: &axum::http::Uri,
    headers: &HeaderMap,
) -> Option<ApiError> {
    // HTTP/1.1 sends Host; HTTP/2 and absolute-form requests carry the authority in the URI.
    let host = headers
        .get(header::HOST)
        .map(|h| h.to_str().unwrap_or("\u{fffd}").to_string())
        .or_else(|| uri.authority().map(|a| a.to_string()));
    if let Some(host) = host
        && !hosts.allows_host(&host)
    {
        let name = split_host(&host).map_or_else(|| host.clone(), |(name, _)| name);
        return Some(ApiError::MisdirectedRequest(format!(
            "this keyplan server answers to {}, not to the host `{}`; to reach it under that name, start it with `--allowed-host {}`",
            hosts.describe(),
            echo(&host),
            echo(&name)
        )));
    }
    let changes_state = !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    let api = uri.path() == "/api" || uri.path().starts_with("/api/");
    if let Some(origin) = headers.get(header::ORIGIN)
        && (changes_state || api)
    {
        let origin = origin.to_str().unwrap_or("\u{fffd}");
        if !hosts.allows_origin(origin) {
            return Some(ApiError::Forbidden(format!(
                "requests from the page at `{}` are refused: only pages this keyplan server serves may use its API",
                echo(origin)
            )));
        }
    }
    None
}

/// The security headers every response carries. Built once from the app's `index.html`.
#[derive(Debug, Clone)]
pub struct Headers {
    csp: HeaderValue,
}

impl Headers {
    /// The headers for an app whose `index.html` is `index`: its inline scripts are allowed
    /// by their SHA-256, nothing else inline is.
    pub fn for_index(index: &str) -> Headers {
        let hashes: String = inline_scripts(index)
            .map(|script| format!(" 'sha256-{}'", sha256_base64(script)))
            .collect();
        let csp = format!(
            "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{hashes}; \
             style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; \
             connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
             frame-ancestors 'none'"
        );
        Headers {
            csp: HeaderValue::from_str(&csp).unwrap_or_else(|_| {
                HeaderValue::from_static("default-src 'self'; frame-ancestors 'none'")
            }),
        }
    }

    pub fn csp(&self) -> &HeaderValue {
        &self.csp
    }
}

/// The text of every `<script>` without a `src` in an HTML page.
fn inline_scripts(html: &str) -> impl Iterator<Item = &str> {
    let mut rest = html;
    std::iter::from_fn(move || {
        loop {
            let start = rest.find("<script")?;
            let after = &rest[start..];
            let open_end = after.find('>')?;
            let attributes = &after[..open_end];
            let body = &after[open_end + 1..];
            let close = body.find("</script>")?;
            rest = &body[close..];
            if !attributes.contains("src=") {
                return Some(&body[..close]);
            }
        }
    })
}

fn sha256_base64(text: &str) -> String {
    use base64::Engine as _;
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(text.as_bytes());
    base64::engine::general_purpose::STANDARD.encode(digest)
}

/// Adds the security headers to a response.
pub async fn add_headers(State(headers): State<Headers>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let out = response.headers_mut();
    out.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    out.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    out.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    out.insert(header::CONTENT_SECURITY_POLICY, headers.csp.clone());
    response
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_the_loopback_names_and_the_given_ones_on_the_port() {
        let hosts = Hosts::new(
            Some(8095),
            &["0.0.0.0".into(), "Box.LAN".into(), "::".into()],
        );
        let cases = [
            "127.0.0.1:8095",
            "localhost:8095",
            "LOCALHOST:8095",
            "[::1]:8095",
            "box.lan:8095",
            "0.0.0.0:8095",
            "[::]:8095",
            "127.0.0.1:8096",
            "127.0.0.1",
            "evil.example:8095",
            "localhost.evil.example:8095",
            "127.0.0.1.nip.io:8095",
            "[::1]x:8095",
            "",
        ];
        let out: Vec<String> = cases
            .iter()
            .map(|c| format!("{c}: {}", hosts.allows_host(c)))
            .collect();
        expect_test::expect![[r#"
            127.0.0.1:8095: true
            localhost:8095: true
            LOCALHOST:8095: true
            [::1]:8095: true
            box.lan:8095: true
            0.0.0.0:8095: true
            [::]:8095: true
            127.0.0.1:8096: false
            127.0.0.1: false
            evil.example:8095: false
            localhost.evil.example:8095: false
            127.0.0.1.nip.io:8095: false
            [::1]x:8095: false
            : false"#]]
        .assert_eq(&out.join("\n"));
    }

    #[test]
    fn origins_are_ours_or_loopback_on_any_port() {
        let hosts = Hosts::new(Some(8095), &["box.lan".into()]);
        let cases = [
            "http://127.0.0.1:8095",
            "http://localhost:8081",
            "http://[::1]:3000",
            "http://box.lan:8095",
            "http://box.lan",
            "https://evil.example",
            "http://evil.example:8095",
            "null",
            "file://",
            "http://127.0.0.1:8095/path",
        ];
        let out: Vec<String> = cases
            .iter()
            .map(|c| format!("{c}: {}", hosts.allows_origin(c)))
            .collect();
        expect_test::expect![[r#"
            http://127.0.0.1:8095: true
            http://localhost:8081: true
            http://[::1]:3000: true
            http://box.lan:8095: true
            http://box.lan: false
            https://evil.example: false
            http://evil.example:8095: false
            null: false
            file://: false
            http://127.0.0.1:8095/path: false"#]]
        .assert_eq(&out.join("\n"));
    }

    #[test]
    fn the_csp_allows_the_index_inline_script_by_hash_only() {
        let index =
            "<html><script type=\"module\">init()</script><script src=\"/a.js\"></script></html>";
        let csp = Headers::for_index(index)
            .csp()
            .to_str()
            .unwrap()
            .to_string();
        assert!(
            csp.contains(&format!("'sha256-{}'", sha256_base64("init()"))),
            "{csp}"
        );
        assert_eq!(csp.matches("'sha256-").count(), 1, "{csp}");
        assert!(csp.contains("'wasm-unsafe-eval'"), "{csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        assert!(!csp.contains("'unsafe-eval'"), "{csp}");
    }
}
