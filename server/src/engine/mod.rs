//! The DynamoDB engines a run can use, by name: the emulator embedded in this process, and the
//! endpoints the server was started with (`--endpoint NAME=URL`, `--endpoint aws`).
//!
//! Every engine is reached the same way, through `aws-sdk-dynamodb`, so the runner has one code
//! path: the embedded dynoxide-rs engine through an in-process connector and no socket
//! ([`embedded`]), the others over HTTP. Every client reads answers through the bounds of
//! [`bounds`]. A browser picks an engine by name; nothing here takes a URL from a request.
//! AWS itself is only registered when the operator passed `--allow-aws`, and only AWS uses the
//! standard credential chain (see [`aws`]): local engines get dummy static credentials and region
//! us-east-1, so a run can never sign a request to a local engine with real keys.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::timeout::TimeoutConfig;
use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
pub use keyplan_core::api::runs::EngineInfo;

pub mod aws;
pub mod bounds;
pub mod embedded;

pub use embedded::EmbeddedEngine;

/// The name of the engine embedded in the server process.
pub const EMBEDDED: &str = "embedded";
/// The name `--endpoint aws` registers.
pub const AWS: &str = "aws";

/// How long connecting to an engine may take before the run fails with "unreachable".
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// The whole budget for the first request of a run (retries included): an engine that does not
/// answer within it is reported as unreachable.
pub const PREFLIGHT_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a run waits for an engine, once it has answered the first request. Each limit is
/// stated in the message of the failure it causes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// One attempt of one request (moto scans a whole table per Query).
    pub attempt: Duration,
    /// One request, its retries included.
    pub request: Duration,
    /// A new table (and its indexes) until ACTIVE.
    pub create: Duration,
    /// After a cancel, for the requests in flight to end before they are dropped.
    pub cancel_grace: Duration,
    /// Deleting the run's tables until the engine no longer lists them.
    pub cleanup: Duration,
    /// One whole conversation: a run, a verification, the import of one table, a listing of
    /// the tables with their item counts (issue 41: an engine that drips pages forever).
    pub conversation: Duration,
}

impl Timing {
    /// The limits for an engine of this kind: a local engine creates a table at once, Amazon
    /// DynamoDB may take minutes.
    pub fn for_kind(kind: &EngineKind) -> Timing {
        let local = Timing {
            attempt: Duration::from_secs(20),
            request: Duration::from_secs(45),
            create: Duration::from_secs(60),
            cancel_grace: Duration::from_secs(10),
            cleanup: Duration::from_secs(60),
            conversation: Duration::from_secs(30 * 60),
        };
        match kind {
            EngineKind::Aws => Timing {
                create: Duration::from_secs(300),
                cleanup: Duration::from_secs(300),
                conversation: Duration::from_secs(60 * 60),
                ..local
            },
            _ => local,
        }
    }
}

/// A URL or a message with any `user:password@` of a URL in it replaced by `***@`, for
/// listings, errors and logs (issue 13).
pub fn redact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let (before, after) = rest.split_at(at + 3);
        out.push_str(before);
        let authority_end = after
            .find(|c: char| matches!(c, '/' | '?' | '#') || c.is_whitespace() || c == '`')
            .unwrap_or(after.len());
        match after[..authority_end].rfind('@') {
            Some(userinfo_end) => {
                out.push_str("***");
                rest = &after[userinfo_end..];
            }
            None => rest = after,
        }
    }
    out.push_str(rest);
    out
}

/// Where an engine lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineKind {
    /// dynoxide-rs inside this process, reached without a socket.
    Embedded,
    /// Any DynamoDB-compatible endpoint: DynamoDB Local, LocalStack, moto.
    Endpoint { url: String },
    /// Amazon DynamoDB, with the standard credential chain.
    Aws,
}

impl EngineKind {
    /// What the engine is, for listings and messages.
    pub fn describe(&self) -> String {
        match self {
            EngineKind::Embedded => "dynoxide-rs (embedded)".to_string(),
            EngineKind::Endpoint { url } => redact(url),
            EngineKind::Aws => "Amazon DynamoDB (standard credential chain)".to_string(),
        }
    }
}

/// A named engine with a client configured for it.
#[derive(Clone)]
pub struct Engine {
    pub name: String,
    pub kind: EngineKind,
    pub client: Client,
    /// How long a run waits for it; the client's timeouts come from here.
    pub timing: Timing,
}

impl Engine {
    /// An endpoint engine at `url`.
    pub fn endpoint(name: &str, url: &str) -> Engine {
        let kind = EngineKind::Endpoint {
            url: url.to_string(),
        };
        let timing = Timing::for_kind(&kind);
        Engine {
            name: name.to_string(),
            client: local_client_with(url, &timing),
            kind,
            timing,
        }
    }

    /// The embedded engine `embedded`, reached in-process.
    pub fn embedded(embedded: &EmbeddedEngine) -> Engine {
        let timing = Timing::for_kind(&EngineKind::Embedded);
        let config = local_config(embedded::ADDRESS, &timing)
            .http_client(embedded.http_client())
            .build();
        Engine {
            name: EMBEDDED.to_string(),
            kind: EngineKind::Embedded,
            client: Client::from_conf(config),
            timing,
        }
    }

    /// The same engine with other limits (tests use short ones): the client keeps its
    /// configuration with the timeouts of `timing`.
    pub fn with_timing(self, timing: Timing) -> Engine {
        let config = self
            .client
            .config()
            .to_builder()
            .timeout_config(timeouts(&timing))
            .build();
        Engine {
            client: Client::from_conf(config),
            timing,
            ..self
        }
    }
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("timing", &self.timing)
            .finish_non_exhaustive()
    }
}

/// What `--endpoint` says: `NAME=URL` or `aws`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndpointArg {
    Named { name: String, url: String },
    Aws,
}

/// Why an `--endpoint` argument or the engine set is not usable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("`--endpoint {0}`: expected NAME=URL (e.g. `local=http://127.0.0.1:8000`) or `aws`")]
    BadEndpointArg(String),
    #[error("`--endpoint {arg}`: {reason}")]
    BadUrl { arg: String, reason: String },
    #[error("`--endpoint aws` talks to Amazon DynamoDB and is refused without `--allow-aws`")]
    AwsNotAllowed,
    #[error("engine name `{0}` is used twice")]
    Duplicate(String),
    #[error("the engine name `{0}` is reserved")]
    Reserved(String),
    #[error("no engine named `{name}`; the engines are: {known}")]
    Unknown { name: String, known: String },
    #[error("the embedded engine could not start: {0}")]
    EmbeddedStart(String),
    #[error(
        "`--endpoint aws` needs a Region: give `--region` (e.g. `--region us-east-1`) or set AWS_REGION; keyplan does not ask the instance metadata service for one"
    )]
    NoRegion,
}

impl EndpointArg {
    /// Parses one `--endpoint` value.
    pub fn parse(arg: &str) -> Result<EndpointArg, EngineError> {
        let arg = arg.trim();
        if arg == AWS {
            return Ok(EndpointArg::Aws);
        }
        let Some((name, url)) = arg.split_once('=') else {
            return Err(EngineError::BadEndpointArg(redact(arg)));
        };
        let (name, url) = (name.trim(), url.trim());
        let name_ok = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if !name_ok {
            return Err(EngineError::BadEndpointArg(redact(arg)));
        }
        check_url(url).map_err(|reason| EngineError::BadUrl {
            arg: redact(arg),
            reason: redact(&reason),
        })?;
        Ok(EndpointArg::Named {
            name: name.to_string(),
            url: url.trim_end_matches('/').to_string(),
        })
    }
}

/// An endpoint URL must be `http://` or `https://` with a host.
pub fn check_url(url: &str) -> Result<(), String> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .ok_or_else(|| format!("`{url}` is not an http:// or https:// URL"))?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if host.is_empty() {
        return Err(format!("`{url}` has no host"));
    }
    if let Some((_, port)) = host.rsplit_once(':')
        && !host.ends_with(']')
        && port.parse::<u16>().is_err()
    {
        return Err(format!("`{url}` has a bad port `{port}`"));
    }
    Ok(())
}

/// A local engine's client with the request timeouts of `timing`.
pub fn local_client_with(url: &str, timing: &Timing) -> Client {
    Client::from_conf(local_config(url, timing).build())
}

/// A local engine's configuration: dummy static credentials, us-east-1, the timeouts of
/// `timing`, three attempts, and the answer limit.
fn local_config(url: &str, timing: &Timing) -> aws_sdk_dynamodb::config::Builder {
    let builder = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .endpoint_url(url)
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new(
            "keyplan", "keyplan", None, None, "keyplan",
        ))
        .timeout_config(timeouts(timing))
        .retry_config(RetryConfig::standard().with_max_attempts(3));
    bounds::bounded(builder)
}

pub(crate) fn timeouts(timing: &Timing) -> TimeoutConfig {
    TimeoutConfig::builder()
        .connect_timeout(CONNECT_TIMEOUT)
        .operation_attempt_timeout(timing.attempt)
        .operation_timeout(timing.request)
        .build()
}

/// The engines a server or a CLI run may use, by name. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Engines {
    engines: Arc<BTreeMap<String, Engine>>,
    default: Option<String>,
}

/// How to build the registry.
#[derive(Debug, Clone, Default)]
pub struct EnginesConfig {
    /// Start the embedded engine (the default engine).
    pub embedded: bool,
    /// The `--endpoint` values.
    pub endpoints: Vec<String>,
    /// `--allow-aws`: let `--endpoint aws` through.
    pub allow_aws: bool,
    /// `--region`, for `--endpoint aws` (see [`aws::region`]).
    pub region: Option<String>,
}

impl Engines {
    /// Starts the embedded engine when asked and registers every endpoint. The default engine
    /// is the embedded one, else the first endpoint.
    pub async fn start(config: &EnginesConfig) -> Result<Engines, EngineError> {
        let mut parsed = Vec::new();
        for arg in &config.endpoints {
            let endpoint = EndpointArg::parse(arg)?;
            if endpoint == EndpointArg::Aws && !config.allow_aws {
                return Err(EngineError::AwsNotAllowed);
            }
            parsed.push(endpoint);
        }
        // issue 41: the Region before anything starts, never from the instance metadata.
        let region = match parsed.contains(&EndpointArg::Aws) {
            true => Some(aws::region(config.region.as_deref(), |name| {
                std::env::var(name).ok()
            })?),
            false => None,
        };
        let mut engines = BTreeMap::new();
        let mut order = Vec::new();
        if config.embedded {
            let engine = EmbeddedEngine::start()?;
            engines.insert(EMBEDDED.to_string(), Engine::embedded(&engine));
            order.push(EMBEDDED.to_string());
        }
        for endpoint in parsed {
            let engine = match endpoint {
                EndpointArg::Aws => Engine {
                    name: AWS.to_string(),
                    kind: EngineKind::Aws,
                    client: aws::client(region.clone().ok_or(EngineError::NoRegion)?).await,
                    timing: Timing::for_kind(&EngineKind::Aws),
                },
                EndpointArg::Named { name, url } => {
                    if name == EMBEDDED || name == AWS {
                        return Err(EngineError::Reserved(name));
                    }
                    Engine::endpoint(&name, &url)
                }
            };
            if engines.contains_key(&engine.name) {
                return Err(EngineError::Duplicate(engine.name));
            }
            order.push(engine.name.clone());
            engines.insert(engine.name.clone(), engine);
        }
        Ok(Engines {
            engines: Arc::new(engines),
            default: order.into_iter().next(),
        })
    }

    /// The engine called `name`, or the default one for `None`.
    pub fn get(&self, name: Option<&str>) -> Result<&Engine, EngineError> {
        let name = name.or(self.default.as_deref()).unwrap_or(EMBEDDED);
        self.engines.get(name).ok_or_else(|| EngineError::Unknown {
            name: name.to_string(),
            known: self.names().join(", "),
        })
    }

    pub fn names(&self) -> Vec<String> {
        self.engines.keys().cloned().collect()
    }

    /// The listing `GET /api/engines` returns: the default first, then by name.
    pub fn list(&self) -> Vec<EngineInfo> {
        let mut out: Vec<EngineInfo> = self
            .engines
            .values()
            .map(|e| EngineInfo {
                name: e.name.clone(),
                kind: match e.kind {
                    EngineKind::Embedded => "embedded",
                    EngineKind::Endpoint { .. } => "endpoint",
                    EngineKind::Aws => "aws",
                }
                .to_string(),
                description: e.kind.describe(),
                default: self.default.as_deref() == Some(e.name.as_str()),
                cannot_keep: None,
            })
            .collect();
        out.sort_by_key(|e| !e.default);
        out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn parse(arg: &str) -> String {
        match EndpointArg::parse(arg) {
            Ok(EndpointArg::Aws) => "aws".to_string(),
            Ok(EndpointArg::Named { name, url }) => format!("{name} -> {url}"),
            Err(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn endpoint_arguments_are_name_equals_url_or_aws() {
        let cases = [
            "local=http://127.0.0.1:8000/",
            "aws",
            "moto = http://localhost:5000",
            "http://127.0.0.1:8000",
            "=http://x",
            "x=ftp://host",
            "x=http://",
            "x=http://host:99999",
            "bad name=http://host",
        ];
        let out: Vec<String> = cases.iter().map(|c| format!("{c}: {}", parse(c))).collect();
        expect_test::expect![[r#"
            local=http://127.0.0.1:8000/: local -> http://127.0.0.1:8000
            aws: aws
            moto = http://localhost:5000: moto -> http://localhost:5000
            http://127.0.0.1:8000: error: `--endpoint http://127.0.0.1:8000`: expected NAME=URL (e.g. `local=http://127.0.0.1:8000`) or `aws`
            =http://x: error: `--endpoint =http://x`: expected NAME=URL (e.g. `local=http://127.0.0.1:8000`) or `aws`
            x=ftp://host: error: `--endpoint x=ftp://host`: `ftp://host` is not an http:// or https:// URL
            x=http://: error: `--endpoint x=http://`: `http://` has no host
            x=http://host:99999: error: `--endpoint x=http://host:99999`: `http://host:99999` has a bad port `99999`
            bad name=http://host: error: `--endpoint bad name=http://host`: expected NAME=URL (e.g. `local=http://127.0.0.1:8000`) or `aws`"#]]
        .assert_eq(&out.join("\n"));
    }

    // issue 13: credentials in an endpoint URL are never shown.
    #[test]
    fn credentials_in_urls_are_redacted_in_listings_and_errors() {
        let cases = [
            "http://user:secret@127.0.0.1:8000/x",
            "cannot reach `http://u:p@h:1` or https://k@host?x",
            "http://127.0.0.1:8000",
            "no url at all @ here",
        ];
        let out: Vec<String> = cases.iter().map(|c| redact(c)).collect();
        expect_test::expect![[r#"
            http://***@127.0.0.1:8000/x
            cannot reach `http://***@h:1` or https://***@host?x
            http://127.0.0.1:8000
            no url at all @ here"#]]
        .assert_eq(&out.join("\n"));
        assert_eq!(
            parse("x=http://user:secret@host:99999"),
            "error: `--endpoint x=http://***@host:99999`: `http://***@host:99999` has a bad port `99999`"
        );
        let listed = EngineKind::Endpoint {
            url: "http://user:secret@127.0.0.1:8000".into(),
        }
        .describe();
        assert_eq!(listed, "http://***@127.0.0.1:8000");
    }

    #[tokio::test]
    async fn aws_is_refused_without_allow_aws() {
        let config = EnginesConfig {
            embedded: false,
            endpoints: vec!["aws".into()],
            allow_aws: false,
            region: None,
        };
        let err = Engines::start(&config).await.unwrap_err();
        assert_eq!(err, EngineError::AwsNotAllowed);
    }

    #[tokio::test]
    async fn the_embedded_engine_is_the_default_and_listed_first() {
        let config = EnginesConfig {
            embedded: true,
            endpoints: vec!["moto=http://127.0.0.1:1".into()],
            allow_aws: false,
            region: None,
        };
        let engines = Engines::start(&config).await.unwrap();
        let names: Vec<String> = engines.list().into_iter().map(|e| e.name).collect();
        assert_eq!(names, ["embedded", "moto"]);
        assert_eq!(engines.get(None).unwrap().name, "embedded");
        let err = engines.get(Some("nope")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no engine named `nope`; the engines are: embedded, moto"
        );
    }
}
