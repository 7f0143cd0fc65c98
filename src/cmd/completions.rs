//! `diskdash completions SHELL`: shell completions (clap_complete)
//! generated from the clap definitions of the command line itself, so
//! they cannot drift from it.

use anyhow::Result;
use clap::{Args, CommandFactory, ValueEnum};

use super::Cli;

/// A shell diskdash writes completions for.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

#[derive(Args, Debug, Clone)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Prints the completion script for `args.shell` to standard output.
pub fn execute(args: &CompletionsArgs) -> Result<u8> {
    let shell = match args.shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    clap_complete::generate(
        shell,
        &mut Cli::command(),
        "diskdash",
        &mut std::io::stdout(),
    );
    Ok(0)
}
