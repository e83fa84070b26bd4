//! `keyplan diff OLD NEW`: what changed between two designs, grouped by table, index, entity,
//! key template, attribute and pattern, and every pattern whose verdict changed (issue 18).
//!
//! OLD and NEW are design files in any format keyplan reads, or `REV:PATH`, a file as git has
//! it at a revision (`origin/main:orders.keyplan.json`, read with `git show`; PATH is relative
//! to the current directory, as a file argument is). A pull request can run
//! `keyplan diff origin/main:orders.keyplan.json orders.keyplan.json --markdown` and post what
//! it prints. `--json` prints `keyplan_core::diff::DesignDiff` as JSON.
//!
//! Exit codes: 0 when no pattern that both designs have is served worse; 1 when one is (a
//! regression: a GetItem or Query became a Scan, or a covered read is no longer covered); 2
//! when a design cannot be read.

use std::path::Path;
use std::process::ExitCode;

use keyplan_core::diff::diff;
use keyplan_core::model::Design;

use crate::design_io::{From, Unreadable, import_text, noted, print, read_design};

/// OLD and NEW, shared with `keyplan migrate`.
#[derive(Debug, clap::Args)]
pub struct Designs {
    /// The design before: a file, or `REV:PATH` for the file as git has it at REV.
    #[arg(value_name = "OLD")]
    pub old: String,
    /// The design after: a file, or `REV:PATH`.
    #[arg(value_name = "NEW")]
    pub new: String,
    #[command(flatten)]
    pub from: From,
}

impl Designs {
    /// Both designs, read as [`read`] reads one.
    pub fn read(&self) -> Result<(Design, Design), Unreadable> {
        Ok((read(&self.old, self.from)?, read(&self.new, self.from)?))
    }
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub designs: Designs,
    /// Print the difference as one JSON document.
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print the difference as Markdown, for a pull request comment.
    #[arg(long)]
    pub markdown: bool,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (old, new) = args.designs.read()?;
    let difference = diff(&old, &new);
    if args.json {
        print(&format!("{}\n", serde_json::to_string_pretty(&difference)?))?;
    } else if args.markdown {
        print(&difference.markdown())?;
    } else {
        print(&difference.text())?;
    }
    Ok(if difference.regressions().next().is_some() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// A design from a file, or from git when the argument is `REV:PATH` and no such file exists.
pub fn read(arg: &str, from: From) -> Result<Design, Unreadable> {
    let path = Path::new(arg);
    match arg.split_once(':') {
        Some((rev, file)) if !path.exists() && !rev.is_empty() && !file.is_empty() => {
            let text = git_show(rev, file)?;
            let (format, imported) = import_text(arg, &text, from)?;
            Ok(noted(arg, format, imported))
        }
        _ => read_design(path, from),
    }
}

/// The text of `file` at `rev`, as `git show REV:./FILE` prints it (a path relative to the
/// current directory, like a file argument).
fn git_show(rev: &str, file: &str) -> Result<String, Unreadable> {
    let spec = if file.starts_with("./") || file.starts_with("../") {
        format!("{rev}:{file}")
    } else {
        format!("{rev}:./{file}")
    };
    let output = std::process::Command::new("git")
        .args(["show", &spec])
        .output()
        .map_err(|e| Unreadable(format!("{rev}:{file}: cannot run git: {e}")))?;
    if !output.status.success() {
        let why = String::from_utf8_lossy(&output.stderr);
        let why = why.lines().next().unwrap_or("git show failed").trim();
        return Err(Unreadable(format!("{rev}:{file}: {why}")));
    }
    String::from_utf8(output.stdout)
        .map_err(|_| Unreadable(format!("{rev}:{file}: it is not UTF-8 text")))
}
