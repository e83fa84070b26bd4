//! `keyplan link`: a design file as a share link, or a share link back to a design file.
//!
//! The link carries the whole design in its fragment (`<base>/#d=1.…`), so opening it needs no
//! server state; core's `share` module owns the format. A link that cannot be decoded exits
//! with status 2 and says what is wrong with it, nothing on stdout.

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use keyplan_core::share;

use crate::design_io::{UNREADABLE, read_design};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The design file to share: a keyplan design or any format keyplan reads.
    #[arg(required_unless_present = "decode", conflicts_with = "decode")]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub from: crate::design_io::From,
    /// The address of the keyplan app the link opens.
    #[arg(long, env = "KEYPLAN_LINK_BASE", default_value = share::DEFAULT_BASE)]
    pub base: String,
    /// Print the design file a link carries instead: a whole link, its `#d=…` fragment or the
    /// payload alone; `-` reads it from stdin.
    #[arg(long, value_name = "LINK")]
    pub decode: Option<String>,
}

pub async fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(link) = args.decode {
        let link = if link == "-" {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("cannot read the link from stdin")?;
            text
        } else {
            link
        };
        return Ok(match share::decode(&link) {
            Ok(design) => {
                print!("{}", keyplan_core::file::to_string(&design));
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(UNREADABLE)
            }
        });
    }
    let path = args
        .file
        .context("give a design file to share, or --decode LINK")?;
    let design = read_design(&path, args.from)?;
    let link = share::link(&args.base, &design)
        .with_context(|| format!("cannot share {} as a link", path.display()))?;
    println!("{link}");
    Ok(ExitCode::SUCCESS)
}
