//! The client for Amazon DynamoDB itself (`--endpoint aws` with `--allow-aws`), and where its
//! Region and credentials come from (issue 41).
//!
//! The Region is `--region`, else `AWS_REGION`, else `AWS_DEFAULT_REGION`; with none, the
//! engine is refused at start with a message saying so. The SDK's own Region chain is never
//! asked, so keyplan never calls the instance metadata service (169.254.169.254) to learn one.
//! Credentials come from the standard chain without its last link, the instance metadata
//! service: the environment, the shared profile files (SSO and `credential_process`
//! included), a web identity token, then the container's credentials endpoint.

use aws_config::BehaviorVersion;
use aws_config::ecs::EcsCredentialsProvider;
use aws_config::environment::credentials::EnvironmentVariableCredentialsProvider;
use aws_config::meta::credentials::CredentialsProviderChain;
use aws_config::profile::ProfileFileCredentialsProvider;
use aws_config::provider_config::ProviderConfig;
use aws_config::web_identity_token::WebIdentityTokenCredentialsProvider;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::Region;

use crate::engine::{EngineError, EngineKind, Timing};

/// The environment variables a Region is read from, in order, after `--region`.
pub const REGION_VARIABLES: [&str; 2] = ["AWS_REGION", "AWS_DEFAULT_REGION"];

/// The Region Amazon DynamoDB is used in: `given` (`--region`), else the first of
/// [`REGION_VARIABLES`] that `env` has, not empty.
pub fn region(
    given: Option<&str>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Region, EngineError> {
    let given = given.map(str::to_string);
    let named = given
        .into_iter()
        .chain(REGION_VARIABLES.iter().filter_map(|name| env(name)))
        .map(|region| region.trim().to_string())
        .find(|region| !region.is_empty());
    named.map(Region::new).ok_or(EngineError::NoRegion)
}

/// A client for Amazon DynamoDB in `region`, with the credentials of the standard chain
/// without the instance metadata service, the timeouts of an AWS engine and the bounds every
/// engine's answers are read through.
pub async fn client(region: Region) -> Client {
    let provider = ProviderConfig::default().with_region(Some(region.clone()));
    let credentials = CredentialsProviderChain::first_try(
        "Environment",
        EnvironmentVariableCredentialsProvider::new(),
    )
    .or_else(
        "Profile",
        ProfileFileCredentialsProvider::builder()
            .configure(&provider)
            .build(),
    )
    .or_else(
        "WebIdentityToken",
        WebIdentityTokenCredentialsProvider::builder()
            .configure(&provider)
            .build(),
    )
    .or_else(
        "EcsContainer",
        EcsCredentialsProvider::builder()
            .configure(&provider)
            .build(),
    );
    let shared = aws_config::defaults(BehaviorVersion::latest())
        .region(region)
        .credentials_provider(credentials)
        .timeout_config(crate::engine::timeouts(&Timing::for_kind(&EngineKind::Aws)))
        .load()
        .await;
    let builder = aws_sdk_dynamodb::config::Builder::from(&shared);
    Client::from_conf(super::bounds::bounded(builder).build())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(given: Option<&str>, env: &[(&str, &str)]) -> String {
        let env = |name: &str| {
            env.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        };
        match region(given, env) {
            Ok(region) => region.to_string(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn the_region_is_the_flag_then_aws_region_then_aws_default_region() {
        let both = [
            ("AWS_REGION", "eu-west-1"),
            ("AWS_DEFAULT_REGION", "us-west-2"),
        ];
        let cases = [
            said(Some("ap-south-1"), &both),
            said(None, &both),
            said(
                None,
                &[("AWS_REGION", " "), ("AWS_DEFAULT_REGION", "us-west-2")],
            ),
            said(Some(""), &[]),
            said(None, &[]),
        ];
        expect_test::expect![[r#"
            ap-south-1
            eu-west-1
            us-west-2
            `--endpoint aws` needs a Region: give `--region` (e.g. `--region us-east-1`) or set AWS_REGION; keyplan does not ask the instance metadata service for one
            `--endpoint aws` needs a Region: give `--region` (e.g. `--region us-east-1`) or set AWS_REGION; keyplan does not ask the instance metadata service for one"#]].assert_eq(&cases.join("\n"));
    }
}
