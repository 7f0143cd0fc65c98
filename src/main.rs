//! The `diskdash` binary: parse the command line, dispatch, print errors once.

use std::process::ExitCode;

use clap::Parser;
use diskdash::cmd::{self, Cli};

// jemalloc instead of glibc's allocator, with its default settings: a
// report makes hundreds of thousands of small allocations (page and chart
// text), and the static musl build would otherwise get musl's slow one.
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    ExitCode::from(cmd::exit_status(cmd::execute(&cli.command)))
}
