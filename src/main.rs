//! The `diskdash` binary: parse the command line, dispatch, print errors once.

use std::process::ExitCode;

use clap::Parser;
use diskdash::cmd::{self, Cli};
use diskdash::term::shown;

// jemalloc instead of glibc's allocator, with its default settings: a
// report makes hundreds of thousands of small allocations (page and chart
// text), and the static musl build would otherwise get musl's slow one.
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version: diskdash's own text, printed as clap prints it
        Err(e) if !e.use_stderr() => e.exit(),
        // a flag's value is outside text: shown escaped, without colour
        Err(e) => {
            diskdash::tell!("{}", shown(e.render().to_string().trim_end()));
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    ExitCode::from(cmd::exit_status(cmd::execute(&cli.command)))
}
