//! Exports: one design, many artefacts. Infrastructure as code (CloudFormation JSON and YAML,
//! Terraform, the AWS CLI's CreateTable input, AWS CDK), the AWS tools' and libraries' own
//! schemas (NoSQL Workbench, ElectroDB, DynamoDB-OneTable), access code for every pattern
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
mod electrodb;
pub(crate) mod names;
mod onetable;
mod svg;
mod terraform;
mod workbench;

#[cfg(test)]
mod tests;

/// An export format, named on the command line and in the server's route as
/// [`Format::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    CloudFormationJson,
    CloudFormationYaml,
    Terraform,
    CreateTable,
    Cdk,
    NosqlWorkbench,
    ElectroDb,
    OneTable,
    TypeScript,
    Python,
    Rust,
    Markdown,
    Svg,
}

impl Format {
    /// Every format, in the order the command line lists them.
    pub const ALL: [Format; 13] = [
        Format::CloudFormationJson,
        Format::CloudFormationYaml,
        Format::Terraform,
        Format::CreateTable,
        Format::Cdk,
        Format::NosqlWorkbench,
        Format::ElectroDb,
        Format::OneTable,
        Format::TypeScript,
        Format::Python,
        Format::Rust,
        Format::Markdown,
        Format::Svg,
    ];

    /// The name used by `keyplan export --to NAME` and `POST /api/export/NAME`.
    pub fn name(self) -> &'static str {
        match self {
            Format::CloudFormationJson => "cloudformation-json",
            Format::CloudFormationYaml => "cloudformation-yaml",
            Format::Terraform => "terraform",
            Format::CreateTable => "create-table",
            Format::Cdk => "cdk",
            Format::NosqlWorkbench => "nosql-workbench",
            Format::ElectroDb => "electrodb",
            Format::OneTable => "onetable",
            Format::TypeScript => "typescript",
            Format::Python => "python",
            Format::Rust => "rust",
            Format::Markdown => "markdown",
            Format::Svg => "svg",
        }
    }

    /// The format's name for people, as the app lists it: "CloudFormation (YAML)".
    pub fn title(self) -> &'static str {
        match self {
            Format::CloudFormationJson => "CloudFormation (JSON)",
            Format::CloudFormationYaml => "CloudFormation (YAML)",
            Format::Terraform => "Terraform",
            Format::CreateTable => "AWS CLI create-table",
            Format::Cdk => "AWS CDK (TypeScript)",
            Format::NosqlWorkbench => "NoSQL Workbench model",
            Format::ElectroDb => "ElectroDB entities",
            Format::OneTable => "OneTable schema",
            Format::TypeScript => "TypeScript access code",
            Format::Python => "Python (boto3) access code",
            Format::Rust => "Rust (aws-sdk-dynamodb) access code",
            Format::Markdown => "Markdown documentation",
            Format::Svg => "SVG diagram",
        }
    }

    /// The file name ending, with its dot: `.template.yaml`, `.ts`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::CloudFormationJson => ".template.json",
            Format::CloudFormationYaml => ".template.yaml",
            Format::Terraform => ".tf",
            Format::CreateTable => ".create-table.json",
            Format::Cdk => ".stack.ts",
            Format::NosqlWorkbench => ".workbench.json",
            Format::ElectroDb => ".electrodb.ts",
            Format::OneTable => ".onetable.ts",
            Format::TypeScript => ".access.ts",
            Format::Python => "_access.py",
            Format::Rust => "_access.rs",
            Format::Markdown => ".md",
            Format::Svg => ".svg",
        }
    }

    /// The HTTP Content-Type of the exported text.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::CloudFormationJson | Format::CreateTable | Format::NosqlWorkbench => {
                "application/json; charset=utf-8"
            }
            Format::CloudFormationYaml => "application/yaml; charset=utf-8",
            Format::Terraform => "text/plain; charset=utf-8",
            Format::Cdk | Format::ElectroDb | Format::OneTable | Format::TypeScript => {
                "text/typescript; charset=utf-8"
            }
            Format::Python => "text/x-python; charset=utf-8",
            Format::Rust => "text/x-rust; charset=utf-8",
            Format::Markdown => "text/markdown; charset=utf-8",
            Format::Svg => "image/svg+xml; charset=utf-8",
        }
    }

    /// A download file name for `design` in this format: `order-management.template.yaml`,
    /// `order_management_access.py` (Python and Rust module names cannot hold dashes).
    pub fn file_name(self, design: &Design) -> String {
        let stem = match self {
            Format::Python | Format::Rust => names::snake(&design.name),
            _ => names::kebab(&design.name),
        };
        let stem = if stem.is_empty() {
            "design".to_string()
        } else {
            stem
        };
        format!("{stem}{}", self.extension())
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format name that is not one of [`Format::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown export format `{0}`: use one of {list}", list = Format::ALL.map(Format::name).join(", "))]
pub struct UnknownFormat(pub String);

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        Format::ALL
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
    NoTables(Format),
    #[error("could not write YAML: {0}")]
    Yaml(String),
}

/// Exports `design` as `format`.
pub fn export(design: &Design, format: Format) -> Result<String, ExportError> {
    let needs_tables = !matches!(format, Format::Markdown | Format::Svg);
    if needs_tables && design.tables.is_empty() {
        return Err(ExportError::NoTables(format));
    }
    Ok(match format {
        Format::CloudFormationJson => cloudformation::json(design),
        Format::CloudFormationYaml => cloudformation::yaml(design)?,
        Format::Terraform => terraform::terraform(design),
        Format::CreateTable => create_table::create_table(design),
        Format::Cdk => cdk::cdk(design),
        Format::NosqlWorkbench => workbench::workbench(design),
        Format::ElectroDb => electrodb::electrodb(design),
        Format::OneTable => onetable::onetable(design),
        Format::TypeScript => access::typescript(design),
        Format::Python => access::python(design),
        Format::Rust => access::rust(design),
        Format::Markdown => document::markdown(design),
        Format::Svg => svg::svg(design),
    })
}
