//! Which engine a subcommand talks to: `--engine`, `--endpoint`, `--allow-aws`, the same for
//! `keyplan run` and `keyplan import --table`.

use crate::engine::{EMBEDDED, EnginesConfig};

#[derive(Debug, Clone, clap::Args)]
pub struct EngineChoice {
    /// The engine: `embedded` (the default, in this process) or `aws` (with `--allow-aws`).
    #[arg(long, env = "KEYPLAN_ENGINE", conflicts_with = "endpoint")]
    pub engine: Option<String>,
    /// A DynamoDB-compatible endpoint instead: DynamoDB Local, LocalStack or moto
    /// (`http://127.0.0.1:8000`), or `aws` for Amazon DynamoDB with `--allow-aws`.
    #[arg(long, env = "KEYPLAN_ENDPOINT")]
    pub endpoint: Option<String>,
    /// Allow Amazon DynamoDB itself (standard credential chain; costs money).
    #[arg(long, env = "KEYPLAN_ALLOW_AWS")]
    pub allow_aws: bool,
    /// The AWS Region of `--endpoint aws`; else AWS_REGION, else AWS_DEFAULT_REGION.
    #[arg(long, value_name = "REGION")]
    pub region: Option<String>,
}

impl EngineChoice {
    /// Which engines to start, and the one to use.
    pub fn config(&self) -> (EnginesConfig, String) {
        match (&self.endpoint, &self.engine) {
            (Some(endpoint), _) if endpoint == "aws" => (
                EnginesConfig {
                    embedded: false,
                    endpoints: vec!["aws".to_string()],
                    allow_aws: self.allow_aws,
                    region: self.region.clone(),
                },
                "aws".to_string(),
            ),
            (Some(endpoint), _) => {
                // `NAME=URL` keeps its name; a bare URL is called `endpoint`.
                let arg = if endpoint.contains('=') {
                    endpoint.clone()
                } else {
                    format!("endpoint={endpoint}")
                };
                let name = arg
                    .split('=')
                    .next()
                    .unwrap_or("endpoint")
                    .trim()
                    .to_string();
                (
                    EnginesConfig {
                        embedded: false,
                        endpoints: vec![arg],
                        allow_aws: false,
                        region: None,
                    },
                    name,
                )
            }
            (None, Some(engine)) if engine == "aws" => (
                EnginesConfig {
                    embedded: false,
                    endpoints: vec!["aws".to_string()],
                    allow_aws: self.allow_aws,
                    region: self.region.clone(),
                },
                "aws".to_string(),
            ),
            (None, engine) => (
                EnginesConfig {
                    embedded: true,
                    endpoints: Vec::new(),
                    allow_aws: false,
                    region: None,
                },
                engine.clone().unwrap_or_else(|| EMBEDDED.to_string()),
            ),
        }
    }
}
