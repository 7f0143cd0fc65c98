//! The `diskdash` binary: parse the command line, dispatch, print errors once.

use std::process::ExitCode;

use clap::Parser;
use diskdash::cmd::{self, Cli};

// jemalloc instead of glibc's allocator: a report makes hundreds of
// thousands of small allocations (page and chart text), and builds 1,000
// records about 5% faster with it (interleaved runs, medians). Two arenas,
// one per core of the machines it is measured on, instead of four per
// core: with eight, 100,000 records peak about 15 MB higher (120 MB). On a
// machine of more cores the threads share the two (each keeps a cache of
// its own), which has not been measured. Memory freed is given back to the
// system after a second instead of ten: reading 100,000 records with their
// tool output frees as much as it keeps, and with ten seconds the build
// peaked at 179 MB instead of 160 (10,000 records build as fast either way).
// Its memory in huge pages where the kernel allows them (`thp:always`): a
// build of 1,000 records takes 1,900 page faults instead of 4,300 and about
// 6% less time; a build of more than `ingest::SMALL_BUILD_FILES` files asks
// for no more of them once it has counted its files, since in 2 MB pieces
// 100,000 records of timelines peak 10 MB higher.
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read before `main` starts.
#[cfg(target_os = "linux")]
#[used]
#[export_name = "_rjem_malloc_conf"]
static MALLOC_CONF: &[u8; 41] = b"narenas:2,dirty_decay_ms:1000,thp:always\0";

fn main() -> ExitCode {
    let cli = Cli::parse();
    ExitCode::from(cmd::exit_status(cmd::execute(&cli.command)))
}
