//! Exports: one design, many artefacts. Infrastructure as code (CloudFormation JSON and YAML,
//! Terraform, the AWS CLI's CreateTable input, AWS CDK), the AWS tools' and libraries' own
//! schemas (NoSQL Workbench, ElectroDB, DynamoDB-OneTable, DynamoDB-Toolbox, Dynamoose), access code for every pattern
//! (TypeScript, Python, Rust) and a design document (Markdown, SVG).
//!
//! Every exporter is a pure function from a [`Design`] to text: no IO, no clock, no randomness,
//! so the browser exports without a server and the same design always gives the same bytes
//! (which the snapshot tests pin). An exporter never panics on a half-edited design: what it
//! cannot express becomes a comment in the output or an [`ExportError`].

use std::fmt;
use std::str::FromStr;

use crate::model::Design;

mod access;
mod cdk;
mod cloudformation;
mod create_table;
mod document;
mod dynamoose;
mod electrodb;
pub(crate) mod names;
mod onetable;
mod svg;
mod terraform;
mod toolbox;
mod vector;
#[cfg(test)]
pub(crate) use vector::tests::products as vector_fixture;
mod workbench;

#[cfg(test)]
mod tests;

/// An export format, named on the command line and in the server's route as
/// [`Target::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    CloudFormationJson,
    CloudFormationYaml,
    Terraform,
    CreateTable,
    Cdk,
    NosqlWorkbench,
    ElectroDb,
    OneTable,
    Toolbox,
    Dynamoose,
    TypeScript,
    Python,
    Rust,
    Markdown,
    Svg,
}

impl Target {
    /// Every format, in the order the command line lists them.
    pub const ALL: [Target; 15] = [
        Target::CloudFormationJson,
        Target::CloudFormationYaml,
        Target::Terraform,
        Target::CreateTable,
        Target::Cdk,
        Target::NosqlWorkbench,
        Target::ElectroDb,
        Target::OneTable,
        Target::Toolbox,
        Target::Dynamoose,
        Target::TypeScript,
        Target::Python,
        Target::Rust,
        Target::Markdown,
        Target::Svg,
    ];

    /// The name used by `keyplan export --to NAME` and `POST /api/export/NAME`.
    pub fn name(self) -> &'static str {
        match self {
            Target::CloudFormationJson => "cloudformation-json",
            Target::CloudFormationYaml => "cloudformation-yaml",
            Target::Terraform => "terraform",
            Target::CreateTable => "create-table",
            Target::Cdk => "cdk",
            Target::NosqlWorkbench => "nosql-workbench",
            Target::ElectroDb => "electrodb",
            Target::OneTable => "onetable",
            Target::Toolbox => "dynamodb-toolbox",
            Target::Dynamoose => "dynamoose",
            Target::TypeScript => "typescript",
            Target::Python => "python",
            Target::Rust => "rust",
            Target::Markdown => "markdown",
            Target::Svg => "svg",
        }
    }

    /// The format's name for people, as the app lists it: "CloudFormation (YAML)".
    pub fn title(self) -> &'static str {
        match self {
            Target::CloudFormationJson => "CloudFormation (JSON)",
            Target::CloudFormationYaml => "CloudFormation (YAML)",
            Target::Terraform => "Terraform",
            Target::CreateTable => "AWS CLI create-table",
            Target::Cdk => "AWS CDK (TypeScript)",
            Target::NosqlWorkbench => "NoSQL Workbench model",
            Target::ElectroDb => "ElectroDB entities",
            Target::OneTable => "OneTable schema",
            Target::Toolbox => "DynamoDB-Toolbox entities",
            Target::Dynamoose => "Dynamoose models",
            Target::TypeScript => "TypeScript access code",
            Target::Python => "Python (boto3) access code",
            Target::Rust => "Rust (aws-sdk-dynamodb) access code",
            Target::Markdown => "Markdown documentation",
            Target::Svg => "SVG diagram",
        }
    }

    /// The file name ending, with its dot: `.template.yaml`, `.ts`.
    pub fn extension(self) -> &'static str {
        match self {
            Target::CloudFormationJson => ".template.json",
            Target::CloudFormationYaml => ".template.yaml",
            Target::Terraform => ".tf",
            Target::CreateTable => ".create-table.json",
            Target::Cdk => ".stack.ts",
            Target::NosqlWorkbench => ".workbench.json",
            Target::ElectroDb => ".electrodb.ts",
            Target::OneTable => ".onetable.ts",
            Target::Toolbox => ".toolbox.ts",
            Target::Dynamoose => ".dynamoose.ts",
            Target::TypeScript => ".access.ts",
            Target::Python => "_access.py",
            Target::Rust => "_access.rs",
            Target::Markdown => ".md",
            Target::Svg => ".svg",
        }
    }

    /// The HTTP Content-Type of the exported text.
    pub fn content_type(self) -> &'static str {
        match self {
            Target::CloudFormationJson | Target::CreateTable | Target::NosqlWorkbench => {
                "application/json; charset=utf-8"
            }
            Target::CloudFormationYaml => "application/yaml; charset=utf-8",
            Target::Terraform => "text/plain; charset=utf-8",
            Target::Cdk
            | Target::ElectroDb
            | Target::OneTable
            | Target::Toolbox
            | Target::Dynamoose
            | Target::TypeScript => "text/typescript; charset=utf-8",
            Target::Python => "text/x-python; charset=utf-8",
            Target::Rust => "text/x-rust; charset=utf-8",
            Target::Markdown => "text/markdown; charset=utf-8",
            Target::Svg => "image/svg+xml; charset=utf-8",
        }
    }

    /// A download file name for `design` in this format, on Save's slug ([`crate::casing::file_stem`]):
    /// `order-management.template.yaml`, `order_management_access.py` (Python and Rust module
    /// names cannot hold dashes).
    pub fn file_name(self, design: &Design) -> String {
        let stem = match self {
            // A Rust module's file name must be ASCII; Python's follows suit.
            Target::Python | Target::Rust => {
                let stem: String = crate::casing::file_stem(&design.name, '_')
                    .chars()
                    .filter(char::is_ascii)
                    .collect();
                if stem.trim_matches('_').is_empty() {
                    "design".to_string()
                } else {
                    stem
                }
            }
            _ => crate::casing::file_stem(&design.name, '-'),
        };
        format!("{stem}{}", self.extension())
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format name that is not one of [`Target::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown export format `{0}`: use one of {list}", list = Target::ALL.map(Target::name).join(", "))]
pub struct UnknownFormat(pub String);

impl FromStr for Target {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Target, UnknownFormat> {
        Target::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

/// Items per entity in the sample an export carries (Workbench TableData) or sizes its cost
/// table from: enough to show every key shape, small enough that a deep parent-child design
/// does not multiply into thousands of items (what NoSQL Workbench models ship: a handful).
pub const SAMPLE_ITEMS_PER_ENTITY: u32 = 5;

/// The sample data of an export: [`SAMPLE_ITEMS_PER_ENTITY`] items of each entity, the same
/// for the same design (imported items are kept by the generator).
fn export_sample(design: &Design) -> crate::sample::SampleData {
    let config = crate::sample::SampleConfig {
        seed: 1,
        counts: design
            .entities
            .iter()
            .map(|e| (e.name.clone(), SAMPLE_ITEMS_PER_ENTITY))
            .collect(),
    };
    crate::sample::generate(design, &config)
}

/// Why a design could not be exported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error("the design has no tables: add a table before exporting {0}")]
    NoTables(Target),
    #[error("could not write YAML: {0}")]
    Yaml(String),
    /// A name holding a character the format cannot hold escaped (KP030, issue 41).
    #[error("{1} cannot hold it (KP030): {0}")]
    HiddenCharacter(String, Target),
}

/// What exporting `design` as `format` leaves out because the format has no place for it, a
/// line each (issue 40): printed beside the export, so nothing is dropped without a word.
pub fn warnings(design: &Design, format: Target) -> Vec<String> {
    match format {
        Target::NosqlWorkbench => workbench::left_out(design),
        _ => Vec::new(),
    }
}

/// Exports `design` as `format`.
pub fn export(design: &Design, format: Target) -> Result<String, ExportError> {
    let needs_tables = !matches!(format, Target::Markdown | Target::Svg);
    if needs_tables && design.tables.is_empty() {
        return Err(ExportError::NoTables(format));
    }
    Ok(match format {
        Target::CloudFormationJson => cloudformation::json(design),
        Target::CloudFormationYaml => cloudformation::yaml(design)?,
        Target::Terraform => terraform::terraform(design),
        Target::CreateTable => create_table::create_table(design),
        Target::Cdk => cdk::cdk(design),
        Target::NosqlWorkbench => workbench::workbench(design),
        Target::ElectroDb => electrodb::electrodb(design),
        Target::OneTable => onetable::onetable(design),
        Target::Toolbox => toolbox::toolbox(design),
        Target::Dynamoose => dynamoose::dynamoose(design),
        Target::TypeScript => access::typescript(design),
        Target::Python => access::python(design),
        Target::Rust => access::rust(design),
        Target::Markdown => document::markdown(design),
        Target::Svg => svg::svg(design),
    })
}
