//! `diskdash doctor`: which tools are present (and their versions), the
//! install command for this distribution, free space against the standard
//! suite, the filesystem, and whether O_DIRECT works on the target.

use std::path::Path;

use anyhow::Result;

use super::exec::{which, Executor, RealExecutor};
use super::{host, plan, scratch};
use crate::error::usage;
use crate::record::Tool;

/// The install command for `tools` on a distribution described by
/// `/etc/os-release`'s `ID` and `ID_LIKE`; a generic hint when unknown.
pub fn install_command(id: Option<&str>, id_like: Option<&str>, tools: &[Tool]) -> String {
    let words: Vec<&str> = id
        .into_iter()
        .chain(id_like.into_iter().flat_map(str::split_whitespace))
        .collect();
    let family = words.iter().find_map(|w| match *w {
        "debian" | "ubuntu" => Some("apt"),
        "fedora" | "rhel" | "centos" | "rocky" | "almalinux" | "amzn" => Some("dnf"),
        "alpine" => Some("apk"),
        "arch" | "manjaro" => Some("pacman"),
        "suse" | "opensuse" | "opensuse-leap" | "opensuse-tumbleweed" | "sles" => Some("zypper"),
        _ => None,
    });
    let mut pkgs: Vec<&str> = tools
        .iter()
        .map(|&t| crate::tools::spec(t).package(family.unwrap_or("")))
        .collect();
    pkgs.dedup();
    let list = pkgs.join(" ");
    match family {
        Some("apt") => format!("apt-get install -y {list}"),
        Some("dnf") => {
            let epel = if words
                .iter()
                .any(|w| matches!(*w, "rhel" | "centos" | "rocky" | "almalinux"))
            {
                " (ioping and bonnie++ come from EPEL)"
            } else {
                ""
            };
            format!("dnf install -y {list}{epel}")
        }
        Some("apk") => format!("apk add {list}"),
        Some("pacman") => format!("pacman -S --needed {list}"),
        Some("zypper") => format!("zypper install -y {list}"),
        _ => format!("your distribution's package manager ({list})"),
    }
}

/// The install command for `tools` on this machine.
pub fn install_hint(tools: &[Tool]) -> String {
    let text = std::fs::read_to_string("/etc/os-release")
        .or_else(|_| std::fs::read_to_string("/usr/lib/os-release"))
        .unwrap_or_default();
    install_command(
        host::os_release_field(&text, "ID").as_deref(),
        host::os_release_field(&text, "ID_LIKE").as_deref(),
        tools,
    )
}

/// Whether a file in `dir` can be opened with O_DIRECT and written with an
/// aligned 4 KiB block. The probe file is removed again.
pub fn o_direct_works(dir: &Path) -> std::result::Result<(), String> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let path = dir.join(format!(".diskdash-odirect-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_DIRECT)
            .open(&path)
            .map_err(|e| format!("open with O_DIRECT failed: {e}"))?;
        // O_DIRECT needs a buffer aligned to the logical block size
        let layout = std::alloc::Layout::from_size_align(4096, 4096).map_err(|e| e.to_string())?;
        // SAFETY: the layout has a non-zero size; the memory is freed below.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        if ptr.is_null() {
            return Err("out of memory".to_string());
        }
        // SAFETY: `ptr` points to 4096 zeroed bytes we own.
        let buf = unsafe { std::slice::from_raw_parts(ptr, 4096) };
        let written = f.write_all(buf);
        // SAFETY: allocated above with the same layout.
        unsafe { std::alloc::dealloc(ptr, layout) };
        written.map_err(|e| format!("an O_DIRECT write failed: {e}"))
    })();
    let _ = std::fs::remove_file(&path);
    result
}

/// Runs the command; returns the process exit status: 0 ready, 1 something
/// is missing, 2 a bad target.
pub fn command(target: &Path) -> Result<u8> {
    let target = scratch::check_target(target).map_err(usage)?;
    let mut problems = 0;
    let t = host::target(&target);
    let h = host::host();
    let unknown = || "unknown".to_string();
    println!("target       {}", target.display());
    println!(
        "filesystem   {} on {} (mounted at {}; {})",
        t.fs_type.clone().unwrap_or_else(unknown),
        t.device.clone().unwrap_or_else(unknown),
        t.mount_point.clone().unwrap_or_else(unknown),
        t.mount_options.clone().unwrap_or_else(unknown)
    );
    println!(
        "device       rotational: {}, scheduler: {}",
        t.rotational
            .map(|r| if r { "yes" } else { "no" }.to_string())
            .unwrap_or_else(unknown),
        t.scheduler.clone().unwrap_or_else(unknown)
    );
    println!(
        "host         {} ({} CPUs, {} memory), {}, kernel {}, virtualisation: {}",
        h.cpu_model.clone().unwrap_or_else(unknown),
        h.cpu_count.map(|c| c.to_string()).unwrap_or_else(unknown),
        h.memory_bytes.map(super::gib).unwrap_or_else(unknown),
        h.os.clone().unwrap_or_else(unknown),
        h.kernel.clone().unwrap_or_else(unknown),
        h.virtualization.clone().unwrap_or_else(unknown)
    );
    // the standard suite's files are removed after each test: its largest
    // test (or the pre-fill, sized by the free space) decides the space it needs
    let need = plan::load_suite("standard").and_then(|s| {
        plan::plan(
            &s,
            &plan::Selection::default(),
            Path::new("/"),
            &plan::Machine {
                memory_bytes: h.memory_bytes,
                is_root: host::is_root(),
                free_bytes: t.free_bytes,
            },
        )
    });
    match (need, t.free_bytes) {
        (Ok(p), Some(free)) => {
            let (id, bytes) = p
                .jobs
                .iter()
                .chain(p.prefill.as_ref().map(|s| &s.job))
                .map(|j| (j.test_id.as_str(), j.invocation.bytes))
                .max_by_key(|&(_, b)| b)
                .unwrap_or(("none", 0));
            let need = bytes + super::margin(bytes);
            let verdict = if free >= need {
                "enough".to_string()
            } else {
                problems += 1;
                "NOT ENOUGH: those tests would be skipped (a suite file can make them smaller)"
                    .to_string()
            };
            println!(
                "space        {} free; the standard suite needs {} ({id} and a margin): {verdict}",
                super::gib(free),
                super::gib(need)
            );
        }
        (Err(e), _) => println!("space        cannot size the standard suite: {e:#}"),
        (_, None) => println!("space        free space unknown"),
    }
    match o_direct_works(&target) {
        Ok(()) => println!("O_DIRECT     works"),
        Err(e) => {
            problems += 1;
            println!("O_DIRECT     does not work here ({e}); fio with direct=1 will fail");
        }
    }
    // a run killed with SIGKILL (or by the OOM killer) leaves its scratch
    // behind, and its files count against the free space above
    for found in scratch::scratches(&target) {
        if !found.alive {
            problems += 1;
        }
        println!("scratch      {}", scratch::describe(&found));
    }
    println!("tools");
    let mut executor = RealExecutor::new(Default::default());
    let mut missing = Vec::new();
    for tool in Tool::ALL {
        match which(tool.name()) {
            Some(path) => {
                let version = executor
                    .version(tool)
                    .unwrap_or_else(|| "version not reported".to_string());
                println!("  {:<10} {:<22} {}", tool.name(), version, path.display());
            }
            None => {
                println!("  {:<10} MISSING", tool.name());
                missing.push(tool);
            }
        }
    }
    if missing.is_empty() {
        println!("install      nothing to install");
    } else {
        problems += 1;
        println!("install      {}", install_hint(&missing));
    }
    Ok(if problems == 0 { 0 } else { 1 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_commands_per_distribution() {
        let all = [Tool::Fio, Tool::Ioping, Tool::Bonnie];
        assert_eq!(
            install_command(Some("debian"), None, &all),
            "apt-get install -y fio ioping bonnie++"
        );
        assert_eq!(
            install_command(Some("linuxmint"), Some("ubuntu debian"), &[Tool::Fio]),
            "apt-get install -y fio"
        );
        assert_eq!(
            install_command(Some("rocky"), Some("rhel centos fedora"), &[Tool::Ioping]),
            "dnf install -y ioping (ioping and bonnie++ come from EPEL)"
        );
        assert_eq!(
            install_command(Some("fedora"), None, &[Tool::Fio]),
            "dnf install -y fio"
        );
        assert_eq!(
            install_command(Some("alpine"), None, &[Tool::Dd]),
            "apk add coreutils"
        );
        assert_eq!(
            install_command(Some("arch"), None, &[Tool::Fio]),
            "pacman -S --needed fio"
        );
        assert_eq!(
            install_command(
                Some("opensuse-tumbleweed"),
                Some("opensuse suse"),
                &[Tool::Fio]
            ),
            "zypper install -y fio"
        );
        assert_eq!(
            install_command(None, None, &[Tool::Fio]),
            "your distribution's package manager (fio)"
        );
    }

    #[test]
    fn o_direct_probe_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        // the answer depends on the filesystem; the probe must clean up either way
        let _ = o_direct_works(dir.path());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
