//! What the subcommands (`crate::cli`) and the MCP tools (`crate::mcp`) share: reading a
//! design file, turning `--seed`, `--count` and `--max-items` into a sample configuration
//! within its budget, the rules of their other arguments, the design file's JSON Schema, and
//! the exit status of an error, with clear messages.
//!
//! Exit statuses are decided here, once: input that cannot be read (a missing file, a
//! directory, bytes that are not UTF-8 text, a file that is not a design) is [`Unreadable`] and
//! exits [`UNREADABLE`] (2) from every subcommand; anything else that stops a subcommand exits 1.

use std::path::Path;
use std::process::ExitCode;

use keyplan_core::budget::OverBudget;
use keyplan_core::import::{Format, Imported};
use keyplan_core::model::Design;
use keyplan_core::sample::{MAX_SAMPLE_ITEMS, SampleConfig};

/// The exit status for input that cannot be read or parsed.
pub const UNREADABLE: u8 = 2;

/// Input that could not be read or is not what the subcommand reads: exits [`UNREADABLE`].
/// The message names the file.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Unreadable(pub String);

/// The exit status of an error that stopped a subcommand: [`UNREADABLE`] when it comes from
/// input that could not be read, else 1.
pub fn exit_code(error: &anyhow::Error) -> ExitCode {
    if error.chain().any(|cause| cause.is::<Unreadable>()) {
        ExitCode::from(UNREADABLE)
    } else {
        ExitCode::FAILURE
    }
}

/// The text of a file, or [`Unreadable`] saying which file and why (missing, a directory, not
/// UTF-8 text).
pub fn read_text(path: &Path) -> Result<String, Unreadable> {
    std::fs::read_to_string(path).map_err(|e| {
        Unreadable(format!(
            "{}: cannot read: {}",
            path.display(),
            why_unreadable(&e)
        ))
    })
}

/// Why a file could not be read as text, in words.
pub fn why_unreadable(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::InvalidData => "it is not UTF-8 text".to_string(),
        std::io::ErrorKind::IsADirectory => "it is a directory".to_string(),
        _ => error.to_string(),
    }
}

/// `--from FORMAT`, shared by every subcommand that reads a design: the file's format, or
/// `auto` (the default) to tell it from its shape.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct From {
    /// The file's format: keyplan, nosql-workbench, mcp, cloudformation or terraform; `auto`
    /// tells it from the file's shape.
    #[arg(long = "from", visible_alias = "format", value_name = "FORMAT", value_parser = parse_from, default_value = "auto", env = "KEYPLAN_FORMAT")]
    pub from: Detect,
}

/// A `--from`: `None` detects the format.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Detect(pub Option<Format>);

fn parse_from(name: &str) -> Result<Detect, String> {
    match name {
        "auto" => Ok(Detect(None)),
        name => name
            .parse::<Format>()
            .map(|f| Detect(Some(f)))
            .map_err(|e| format!("{e} or auto")),
    }
}

/// Reads a design file in any format keyplan reads (`from` names it, or it is detected), and
/// says which format it was read as. The message names the file, and says why each format
/// did not fit.
pub fn read_imported(path: &Path, from: From) -> Result<(Format, Imported), Unreadable> {
    let text = read_text(path)?;
    import_text(&path.display().to_string(), &text, from)
}

/// Reads a design from text that came from `label` (a file, `REV:PATH`), as
/// [`read_imported`] does.
pub fn import_text(label: &str, text: &str, from: From) -> Result<(Format, Imported), Unreadable> {
    import_as(text, from).map_err(|e| Unreadable(import_error(label, from, &e)))
}

/// Why the text from `label` did not read, naming it (and the format `from` named).
pub fn import_error(label: &str, from: From, error: &keyplan_core::import::ImportError) -> String {
    match from.from.0 {
        Some(format) => format!("{label} does not read as {}: {error}", format.described()),
        None => format!("{label}: {error}"),
    }
}

/// Reads a design from text as `from` says (detected when it names no format), with core's
/// error as it is, for a reader that says where in its own words (the MCP tools).
pub fn import_as(
    text: &str,
    from: From,
) -> Result<(Format, Imported), keyplan_core::import::ImportError> {
    match from.from.0 {
        None => keyplan_core::import::detect_and_import_as(text),
        Some(format) => keyplan_core::import::import(format, text).map(|i| (format, i)),
    }
}

/// Reads a design file in any format keyplan reads, for a subcommand that works on the
/// design. A file in another tool's format says so on stderr, with how many notes its import
/// has (`keyplan import` prints them).
pub fn read_design(path: &Path, from: From) -> Result<Design, Unreadable> {
    let (format, imported) = read_imported(path, from)?;
    Ok(noted(&path.display().to_string(), format, imported))
}

/// The design of an import, saying on stderr when it came from another tool's format.
pub fn noted(label: &str, format: Format, imported: Imported) -> Design {
    if format != Format::Keyplan {
        let count = |n: usize, one: &str, many: &str| match n {
            0 => None,
            1 => Some(format!("1 {one}")),
            n => Some(format!("{n} {many}")),
        };
        let said: Vec<String> = [
            count(imported.notes.len(), "note", "notes"),
            count(imported.assumed.len(), "value assumed", "values assumed"),
        ]
        .into_iter()
        .flatten()
        .collect();
        let notes = match said.is_empty() {
            true => String::new(),
            false => format!(" ({}: see `keyplan import`)", said.join(", ")),
        };
        eprintln!("note: read {label} as {}{notes}", format.described());
    }
    imported.design
}

/// `--max-items`, shared by the subcommands that make a sample.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct Budget {
    /// The most sample items to make: every entity's, defaults and children included (10 per
    /// root entity and 3 per parent item unless `--count` says otherwise). A larger sample is
    /// refused before any item is made.
    #[arg(long = "max-items", value_name = "N", default_value_t = MAX_SAMPLE_ITEMS, env = "KEYPLAN_MAX_ITEMS")]
    pub max_items: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_items: MAX_SAMPLE_ITEMS,
        }
    }
}

/// Refuses a sample that would have more than `budget` items, naming the entity with the most
/// and how to give it fewer.
pub fn within_budget(design: &Design, config: &SampleConfig, budget: Budget) -> anyhow::Result<()> {
    keyplan_core::sample::plan(design, config)
        .check(budget.max_items)
        .map_err(|e| over_budget(e.into()))
}

/// A refusal of [`keyplan_core::budget`], with what to do about too many items.
pub fn over_budget(e: OverBudget) -> anyhow::Error {
    match e {
        OverBudget::Items(e) => anyhow::anyhow!(
            "{e}: give it fewer with `--count {}=N`, or raise `--max-items`",
            e.entity
        ),
        other => anyhow::anyhow!("{other}"),
    }
}

/// The plan of a run of `design` on `sample`, as `keyplan run` and `keyplan design`'s proof
/// make it: a run over the budget (tables, GSIs, items) or of a design with error findings is
/// refused, saying why.
pub fn run_plan(
    design: &Design,
    sample: &SampleConfig,
    budget: Budget,
) -> anyhow::Result<crate::runner::Plan> {
    keyplan_core::budget::run(design, sample, budget.max_items).map_err(over_budget)?;
    Ok(crate::runner::build::plan_sample(design, sample)?)
}

/// The sample a run generates, as `keyplan run` and `keyplan design` (for its proof) take it:
/// items per entity and the generator's seed.
#[derive(Debug, clap::Args)]
pub struct SampleArgs {
    /// Items to generate for an entity, `ENTITY=N`; repeatable.
    #[arg(long = "count", value_name = "ENTITY=N", value_parser = parse_count)]
    pub counts: Vec<(String, u32)>,
    /// The seed of the sample generator; the sample's default seed (the app's) when absent.
    #[arg(long, env = "KEYPLAN_SEED")]
    pub seed: Option<u64>,
}

impl SampleArgs {
    /// The sample configuration for `design`, refusing a `--count` that names no entity.
    pub fn config(&self, design: &Design) -> anyhow::Result<SampleConfig> {
        check_entities(design, "--count", &self.counts)?;
        Ok(SampleConfig::new(
            self.counts.iter().cloned().collect(),
            self.seed,
        ))
    }
}

/// Refuses a `--count` (or `--stored`) that names no entity.
pub fn check_entities(
    design: &Design,
    option: &str,
    counts: &[(String, u32)],
) -> anyhow::Result<()> {
    for (entity, _) in counts {
        if design.entity(entity).is_none() {
            let known: Vec<&str> = design.entities.iter().map(|e| e.name.as_str()).collect();
            anyhow::bail!(
                "`{option} {entity}=...` names no entity of the design (it has: {})",
                known.join(", ")
            );
        }
    }
    Ok(())
}

/// The sample configuration, refusing a `--count` that names no entity and a sample larger
/// than the budget.
pub fn sample_config(
    design: &Design,
    seed: u64,
    counts: &[(String, u32)],
    budget: Budget,
) -> anyhow::Result<SampleConfig> {
    check_entities(design, "--count", counts)?;
    let config = SampleConfig {
        seed,
        counts: counts.iter().cloned().collect(),
    };
    within_budget(design, &config, budget)?;
    Ok(config)
}

/// Splits `NAME=VALUE` at the first `=`: the name trimmed and not empty, the value as given.
/// `form` and `example` say in the error what was expected (`ENTITY=N`, `Order=1000`).
fn split_pair<'a>(arg: &'a str, form: &str, example: &str) -> Result<(&'a str, &'a str), String> {
    let (name, value) = arg
        .split_once('=')
        .ok_or_else(|| format!("`{arg}`: expected {form}, e.g. `{example}`"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("`{arg}`: the name before `=` is empty"));
    }
    Ok((name, value))
}

/// Parses `NAME=VALUE` arguments.
pub fn parse_pair(arg: &str) -> Result<(String, String), String> {
    let (name, value) = split_pair(arg, "NAME=VALUE", "customerId=c-42")?;
    Ok((name.to_string(), value.to_string()))
}

/// Parses `ENTITY=N` arguments (`--count`, `--items`); `30_000` and `30,000` read as 30000.
pub fn parse_entity_number<T: std::str::FromStr>(arg: &str) -> Result<(String, T), String> {
    let (entity, n) = split_pair(arg, "ENTITY=N", "Order=1000")?;
    let n = n
        .trim()
        .replace(['_', ','], "")
        .parse()
        .map_err(|_| format!("`{arg}`: `{}` is not a whole number", n.trim()))?;
    Ok((entity.to_string(), n))
}

/// Parses `--count ENTITY=N`: items of an entity in the sample.
pub fn parse_count(arg: &str) -> Result<(String, u32), String> {
    parse_entity_number(arg)
}

/// Writes `text` to stdout. A closed pipe (`keyplan sample ... | head`) ends the output
/// quietly instead of failing.
pub fn print(text: &str) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// The JSON Schema (draft 2020-12) of a `*.keyplan.json` design file, pretty, with a trailing
/// newline.
pub fn design_schema() -> String {
    let schema = schemars::schema_for!(Design);
    let mut text = serde_json::to_string_pretty(&schema)
        .unwrap_or_else(|e| unreachable!("a JSON Schema always serialises: {e}"));
    text.push('\n');
    text
}

/// A write rate as `--max-wcu` takes it: core's rule, which the app's Migrate tab applies too.
pub use keyplan_core::migrate::{parse_rate, within_rate};

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    // issue 14: one parser for the command line's NAME=VALUE arguments (`--var`, `--count`,
    // `--items`), which were spelled twice with different rules.
    #[test]
    fn name_value_and_entity_number_arguments_are_read_by_one_rule() {
        assert_eq!(
            parse_pair(" customerId =c-42=x"),
            Ok(("customerId".to_string(), "c-42=x".to_string()))
        );
        assert_eq!(
            parse_pair("customerId").unwrap_err(),
            "`customerId`: expected NAME=VALUE, e.g. `customerId=c-42`"
        );
        assert_eq!(parse_count("Order=10"), Ok(("Order".to_string(), 10)));
        assert_eq!(
            parse_entity_number::<u64>("Order= 30,000"),
            Ok(("Order".to_string(), 30_000))
        );
        assert_eq!(
            parse_count("Order").unwrap_err(),
            "`Order`: expected ENTITY=N, e.g. `Order=1000`"
        );
        assert_eq!(
            parse_count("Order=x").unwrap_err(),
            "`Order=x`: `x` is not a whole number"
        );
        assert_eq!(
            parse_count("=3").unwrap_err(),
            "`=3`: the name before `=` is empty"
        );
        assert!(parse_count("Order=5000000000").is_err(), "more than a u32");
    }
}
