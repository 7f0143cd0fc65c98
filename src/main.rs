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
// its own), which has not been measured. Its memory in huge pages where
// the kernel allows them (`thp:always`): a build of 1,000 records takes
// 1,900 page faults instead of 4,300 and about 6% less time. Memory freed
// is kept for reuse (1,000 records build about 3% faster than when it is
// given back after a second), until a build counts more than
// `ingest::SMALL_BUILD_FILES` files: it then asks for no more huge pages
// (in 2 MB pieces 100,000 records of timelines peak 10 MB higher), and
// memory freed is given back after a second, since reading 100,000 records
// with their tool output frees as much as it keeps (with ten seconds the
// build peaked at 179 MB instead of 160; 10,000 records build as fast
// either way).
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read before `main` starts.
#[cfg(target_os = "linux")]
#[used]
#[export_name = "_rjem_malloc_conf"]
static MALLOC_CONF: &[u8; 39] = b"narenas:2,dirty_decay_ms:-1,thp:always\0";

/// Has jemalloc give memory freed back to the system a second after it is
/// freed, in the arenas there are and in any made later.
#[cfg(target_os = "linux")]
fn give_back_freed_memory() {
    use std::ffi::{c_void, CStr};
    use tikv_jemalloc_sys::mallctl;
    fn set<T>(name: &CStr, mut value: T) {
        // SAFETY: `name` is a NUL-terminated name of a setting of type `T`,
        // and `value` lives for the call; a failure changes nothing
        unsafe {
            mallctl(
                name.as_ptr(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::from_mut(&mut value).cast::<c_void>(),
                std::mem::size_of::<T>(),
            );
        }
    }
    let ms: libc::ssize_t = 1000;
    set(c"arenas.dirty_decay_ms", ms);
    let mut arenas: libc::c_uint = 0;
    let mut len = std::mem::size_of::<libc::c_uint>();
    // SAFETY: `arenas.narenas` is an unsigned int, read into `arenas`
    let read = unsafe {
        mallctl(
            c"arenas.narenas".as_ptr(),
            std::ptr::from_mut(&mut arenas).cast::<c_void>(),
            &mut len,
            std::ptr::null_mut(),
            0,
        )
    };
    if read != 0 {
        return;
    }
    for i in 0..arenas {
        // an arena not made yet refuses, and takes `arenas.dirty_decay_ms`
        if let Ok(name) = std::ffi::CString::new(format!("arena.{i}.dirty_decay_ms")) {
            set(&name, ms);
        }
    }
}

fn main() -> ExitCode {
    #[cfg(target_os = "linux")]
    diskdash::ingest::on_large_build(give_back_freed_memory);
    let cli = Cli::parse();
    ExitCode::from(cmd::exit_status(cmd::execute(&cli.command)))
}
