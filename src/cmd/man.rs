//! `diskdash man`: man pages (clap_mangen) generated from the clap
//! definitions of the command line itself, so they cannot drift from it.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, CommandFactory};

use super::Cli;

#[derive(Args, Debug, Clone)]
pub struct ManArgs {
    /// Write `diskdash.1` and a page per subcommand (`diskdash-run.1`, ...) into this directory instead of printing `diskdash.1`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// The man page of `cmd` in roff.
fn page(cmd: clap::Command) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut out)
        .context("failed to render the man page")?;
    Ok(out)
}

/// Prints `diskdash.1`, or writes it and a page per subcommand into `--out`.
pub fn execute(args: &ManArgs) -> Result<u8> {
    let mut cmd = Cli::command();
    cmd.build();
    match &args.out {
        None => {
            use std::io::Write;
            std::io::stdout().write_all(&page(cmd)?)?;
        }
        Some(dir) => {
            crate::fsio::create_dir(dir)?;
            crate::fsio::write_atomic(&dir.join("diskdash.1"), &page(cmd.clone())?)?;
            for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
                let name = format!("diskdash-{}", sub.get_name());
                let mut out = Vec::new();
                clap_mangen::Man::new(sub.clone())
                    .title(&name)
                    .source(format!("diskdash {}", env!("CARGO_PKG_VERSION")))
                    .render(&mut out)
                    .context("failed to render the man page")?;
                crate::fsio::write_atomic(&dir.join(format!("{name}.1")), &out)?;
            }
        }
    }
    Ok(0)
}
