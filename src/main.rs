//! The `diskdash` binary: parse the command line, dispatch, print errors once.

use std::process::ExitCode;

use clap::Parser;
use diskdash::cmd::{self, Cli};

fn main() -> ExitCode {
    let cli = Cli::parse();
    ExitCode::from(cmd::exit_status(cmd::execute(&cli.command)))
}
