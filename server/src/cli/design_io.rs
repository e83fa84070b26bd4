//! What the `sample`, `query` and `cost` subcommands share: reading the design file and
//! turning `--seed` and `--count` into a sample configuration, with clear errors.

use std::path::Path;

use anyhow::Context;
use keyplan_core::model::Design;
use keyplan_core::sample::SampleConfig;

/// Reads and parses a design file, saying which file and where it is wrong.
pub fn read_design(path: &Path) -> anyhow::Result<Design> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    keyplan_core::file::parse(&text)
        .with_context(|| format!("{} is not a valid design file", path.display()))
}

/// The sample configuration, refusing a `--count` that names no entity.
pub fn sample_config(
    design: &Design,
    seed: u64,
    counts: &[(String, u32)],
) -> anyhow::Result<SampleConfig> {
    for (entity, _) in counts {
        if design.entity(entity).is_none() {
            let known: Vec<&str> = design.entities.iter().map(|e| e.name.as_str()).collect();
            anyhow::bail!(
                "`--count {entity}=...` names no entity of the design (it has: {})",
                known.join(", ")
            );
        }
    }
    Ok(SampleConfig {
        seed,
        counts: counts.iter().cloned().collect(),
    })
}

/// Parses `NAME=VALUE` arguments.
pub fn parse_pair(arg: &str) -> Result<(String, String), String> {
    let (name, value) = arg
        .split_once('=')
        .ok_or_else(|| format!("`{arg}`: expected NAME=VALUE, e.g. `customerId=c-42`"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("`{arg}`: the name before `=` is empty"));
    }
    Ok((name.to_string(), value.to_string()))
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
