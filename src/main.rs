//! The `diskdash` binary: parse the command line, dispatch, print errors once.

use std::process::ExitCode;

use clap::Parser;
use diskdash::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => diskdash::run::command(&args),
        Command::Import(args) => diskdash::import::command(&args),
        Command::Report(args) => diskdash::report::command(&args),
        Command::Check(args) => diskdash::check::command(&args),
        Command::Schema => {
            println!("{}", diskdash::record::json_schema());
            Ok(0)
        }
        Command::Doctor(args) => diskdash::run::doctor::command(&args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(1)
        }
    }
}
