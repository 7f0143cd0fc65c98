//! `diskdash doctor`: which tools are present (and their versions), the
//! install command for this distribution, free space against the standard
//! suite, the filesystem, and whether O_DIRECT works on the target.

use std::path::Path;

use std::os::fd::AsFd;

use anyhow::{bail, Context, Result};

use super::exec::{which, Executor, RealExecutor};
use super::{host, plan, scratch};
use crate::error::usage;
use crate::record::Tool;
use crate::term::shown;

/// What installing tools takes on one distribution: the commands to run,
/// in order, each as its argv, and a note for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstallPlan {
    /// The commands, in order; the last one installs the tools.
    pub steps: Vec<Vec<String>>,
    /// Said after the install command (where EPEL is needed).
    pub note: Option<&'static str>,
}

/// The package manager family of a distribution described by
/// `/etc/os-release`'s `ID` and `ID_LIKE` words.
fn family(words: &[&str]) -> Option<&'static str> {
    words.iter().find_map(|w| match *w {
        "debian" | "ubuntu" => Some("apt"),
        "fedora" | "rhel" | "centos" | "rocky" | "almalinux" | "amzn" => Some("dnf"),
        "alpine" => Some("apk"),
        "arch" | "manjaro" => Some("pacman"),
        "suse" | "opensuse" | "opensuse-leap" | "opensuse-tumbleweed" | "sles" => Some("zypper"),
        _ => None,
    })
}

fn words<'a>(id: Option<&'a str>, id_like: Option<&'a str>) -> Vec<&'a str> {
    id.into_iter()
        .chain(id_like.into_iter().flat_map(str::split_whitespace))
        .collect()
}

/// The packages that hold `tools` for a package manager family.
fn packages(family: &str, tools: &[Tool]) -> Vec<&'static str> {
    let mut pkgs: Vec<&str> = tools
        .iter()
        .map(|&t| crate::tools::install(t).package(family))
        .collect();
    pkgs.dedup();
    pkgs
}

/// The commands that install `tools` on a distribution described by
/// `/etc/os-release`'s `ID` and `ID_LIKE`; `None` for a distribution
/// diskdash does not know. apt refreshes its package lists first (a fresh
/// image often has none); on RHEL and its rebuilds, EPEL is enabled first
/// when ioping or bonnie++ is wanted.
pub fn install_plan(
    id: Option<&str>,
    id_like: Option<&str>,
    tools: &[Tool],
) -> Option<InstallPlan> {
    let words = words(id, id_like);
    let family = family(&words)?;
    let pkgs = packages(family, tools);
    let argv = |head: &[&str]| -> Vec<String> {
        head.iter()
            .chain(pkgs.iter())
            .map(|s| s.to_string())
            .collect()
    };
    let plain = |cmd: &[&str]| cmd.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut note = None;
    let steps = match family {
        "apt" => vec![
            plain(&["apt-get", "update"]),
            argv(&["apt-get", "install", "-y"]),
        ],
        "dnf" => {
            let rhel_like = words
                .iter()
                .any(|w| matches!(*w, "rhel" | "centos" | "rocky" | "almalinux"));
            let wants_epel = tools
                .iter()
                .any(|t| matches!(t, Tool::Ioping | Tool::Bonnie));
            let mut steps = Vec::new();
            if rhel_like {
                note = Some("ioping and bonnie++ come from EPEL");
                if wants_epel {
                    steps.push(plain(&["dnf", "install", "-y", "epel-release"]));
                }
            }
            steps.push(argv(&["dnf", "install", "-y"]));
            steps
        }
        "apk" => vec![argv(&["apk", "add"])],
        "pacman" => vec![argv(&["pacman", "-S", "--needed", "--noconfirm"])],
        _ => vec![argv(&["zypper", "install", "-y"])],
    };
    Some(InstallPlan { steps, note })
}

/// The install command for `tools` on a distribution described by
/// `/etc/os-release`'s `ID` and `ID_LIKE`; a generic hint when unknown.
pub fn install_command(id: Option<&str>, id_like: Option<&str>, tools: &[Tool]) -> String {
    match install_plan(id, id_like, tools) {
        Some(plan) => {
            let main = plan.steps.last().map(|s| s.join(" ")).unwrap_or_default();
            match plan.note {
                Some(note) => format!("{main} ({note})"),
                None => main,
            }
        }
        None => format!(
            "your distribution's package manager ({})",
            packages("", tools).join(" ")
        ),
    }
}

/// This machine's `/etc/os-release` (or `/usr/lib/os-release`); the file
/// named by `DISKDASH_OS_RELEASE` instead when that is set, so that tests
/// can stand in for any distribution.
fn os_release() -> String {
    if let Some(path) = std::env::var_os("DISKDASH_OS_RELEASE") {
        return std::fs::read_to_string(path).unwrap_or_default();
    }
    std::fs::read_to_string("/etc/os-release")
        .or_else(|_| std::fs::read_to_string("/usr/lib/os-release"))
        .unwrap_or_default()
}

/// The install command for `tools` on this machine.
pub fn install_hint(tools: &[Tool]) -> String {
    let text = os_release();
    install_command(
        host::os_release_field(&text, "ID").as_deref(),
        host::os_release_field(&text, "ID_LIKE").as_deref(),
        tools,
    )
}

/// The tools of `tools` that are not installed here.
pub fn missing(tools: &[Tool]) -> Vec<Tool> {
    tools
        .iter()
        .copied()
        .filter(|t| which(t.name()).is_none())
        .collect()
}

/// The tools that `suite` (a name or file) needs with `selection`.
pub fn tools_of(suite: &str, selection: &plan::Selection) -> Result<Vec<Tool>> {
    let suite = plan::load_suite(suite)?;
    let machine = plan::Machine {
        memory_bytes: host::read_memory(),
        is_root: host::is_root(),
        free_bytes: None,
    };
    let plan = plan::plan(&suite, selection, Path::new("DIR"), &machine)?;
    Ok(Tool::ALL
        .into_iter()
        .filter(|t| plan.jobs.iter().any(|j| j.tool == *t))
        .collect())
}

/// Installs the tools of `tools` that are missing with this distribution's
/// package manager: writes each command to `say` before running it (the
/// package manager's own output goes to standard error, so that standard
/// output stays the caller's), and returns the tools installed. Fails,
/// naming the command and its exit status, when the distribution is not
/// known, a command cannot be started or fails, or a tool is still
/// missing afterwards.
pub fn install_missing(tools: &[Tool], say: &mut dyn std::io::Write) -> Result<Vec<Tool>> {
    let missing = missing(tools);
    if missing.is_empty() {
        return Ok(missing);
    }
    let names = || {
        missing
            .iter()
            .map(|t| t.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = os_release();
    let id = host::os_release_field(&text, "ID");
    let plan = install_plan(
        id.as_deref(),
        host::os_release_field(&text, "ID_LIKE").as_deref(),
        &missing,
    )
    .with_context(|| {
        format!(
            "cannot install {}: this distribution ({}) is not one diskdash knows; install with {}",
            names(),
            id.as_deref().unwrap_or("no ID in /etc/os-release"),
            install_command(None, None, &missing)
        )
    })?;
    for step in &plan.steps {
        let shown = step.join(" ");
        crate::say_to!(say, "running: {}", crate::term::shown(&shown))?;
        let stdout = std::io::stderr()
            .as_fd()
            .try_clone_to_owned()
            .context("cannot pass standard error to the package manager")?;
        let status = std::process::Command::new(&step[0])
            .args(&step[1..])
            .stdin(std::process::Stdio::null())
            .stdout(stdout)
            .status()
            .with_context(|| format!("cannot start `{shown}`"))?;
        if !status.success() {
            let why = match status.code() {
                Some(code) => format!("exit status {code}"),
                None => "killed by a signal".to_string(),
            };
            let root = if host::is_root() {
                ""
            } else {
                " (not running as root: try again with sudo)"
            };
            let epel = plan.note.map(|n| format!("; {n}")).unwrap_or_default();
            bail!(
                "installing {} failed: `{shown}` ended with {why}{root}{epel}",
                names()
            );
        }
    }
    let still = self::missing(&missing);
    if !still.is_empty() {
        bail!(
            "`{}` succeeded but {} still cannot be found on PATH",
            plan.steps.last().map(|s| s.join(" ")).unwrap_or_default(),
            still
                .iter()
                .map(|t| t.name())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(missing)
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

/// Runs the command; with `install`, installs the missing tools after
/// showing the commands. Returns the process exit status: 0 when every
/// check could be made, whatever it found (a suite that does not fit, a
/// missing tool, O_DIRECT refused, a scratch left behind are facts it
/// reports); 1 when one could not (free space unknown, the suite not
/// sized) or an install it was asked for failed; 2 a bad target.
pub fn command(target: &Path, install: bool) -> Result<u8> {
    let target = scratch::check_target(target).map_err(usage)?;
    // checks that could not be made (or an install asked for that failed):
    // what doctor finds about the machine is reported, not a failure
    let mut unchecked = 0;
    let t = host::target(&target);
    let h = host::host();
    let unknown = || "unknown".to_string();
    crate::say!("target       {}", shown(&target));
    crate::say!(
        "filesystem   {} on {} (mounted at {}; {})",
        shown(t.fs_type.clone().unwrap_or_else(unknown)),
        shown(t.device.clone().unwrap_or_else(unknown)),
        shown(t.mount_point.clone().unwrap_or_else(unknown)),
        shown(t.mount_options.clone().unwrap_or_else(unknown))
    );
    if let Some(w) = &t.warning {
        crate::say!("warning      {}", shown(w));
    }
    crate::say!(
        "device       rotational: {}, scheduler: {}",
        t.rotational
            .map(|r| if r { "yes" } else { "no" })
            .unwrap_or("unknown"),
        shown(t.scheduler.clone().unwrap_or_else(unknown))
    );
    crate::say!(
        "host         {} ({} CPUs, {} memory), {}, kernel {}, virtualisation: {}",
        shown(h.cpu_model.clone().unwrap_or_else(unknown)),
        shown(h.cpu_count.map(|c| c.to_string()).unwrap_or_else(unknown)),
        shown(h.memory_bytes.map(super::gib).unwrap_or_else(unknown)),
        shown(h.os.clone().unwrap_or_else(unknown)),
        shown(h.kernel.clone().unwrap_or_else(unknown)),
        shown(h.virtualization.clone().unwrap_or_else(unknown))
    );
    // what `run` records as the instance type, and from where
    match super::instance::lookup() {
        Some(super::instance::Found::Type(t, p)) => {
            crate::say!("instance     {} ({} metadata)", shown(&t), p.name())
        }
        Some(super::instance::Found::NotAName(p, text)) => crate::say!(
            "instance     unknown: {} metadata gave `{}`, which is no instance type name (give run --instance TYPE)",
            p.name(),
            shown(&text)
        ),
        None => crate::say!(
            "instance     unknown: no cloud metadata answered (give run --instance TYPE)"
        ),
    }
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
                "NOT ENOUGH: those tests would be skipped (a suite file can make them smaller)"
                    .to_string()
            };
            crate::say!(
                "space        {} free; the standard suite needs {} ({} and a margin): {}",
                shown(super::gib(free)),
                shown(super::gib(need)),
                shown(id),
                shown(&verdict)
            );
        }
        (Err(e), _) => {
            unchecked += 1;
            crate::say!("space        cannot size the standard suite: {}", shown(&e))
        }
        (_, None) => {
            unchecked += 1;
            crate::say!("space        free space unknown")
        }
    }
    match o_direct_works(&target) {
        Ok(()) => crate::say!("O_DIRECT     works"),
        Err(e) => {
            crate::say!(
                "O_DIRECT     does not work here ({}); fio with direct=1 will fail",
                shown(&e)
            );
        }
    }
    // a run killed with SIGKILL (or by the OOM killer) leaves its scratch
    // behind, and its files count against the free space above
    for found in scratch::scratches(&target) {
        crate::say!("scratch      {}", shown(scratch::describe(&found)));
    }
    crate::say!("tools");
    let mut executor = RealExecutor::new(Default::default());
    let mut missing = Vec::new();
    for tool in Tool::ALL {
        match which(tool.name()) {
            Some(path) => {
                let version = executor
                    .version(tool)
                    .unwrap_or_else(|| "version not reported".to_string());
                crate::say!(
                    "  {:<10} {:<22} {}",
                    tool.name(),
                    shown(&version),
                    shown(&path)
                );
            }
            None => {
                match super::exec::not_executable(tool.name()) {
                    Some(path) => crate::say!(
                        "  {:<10} NOT EXECUTABLE: {} has no exec bit (chmod +x it, or install it)",
                        tool.name(),
                        shown(&path)
                    ),
                    None => crate::say!("  {:<10} MISSING", tool.name()),
                }
                missing.push(tool);
            }
        }
    }
    if missing.is_empty() {
        crate::say!("install      nothing to install");
    } else if install {
        crate::say!("install      {}", shown(install_hint(&missing)));
        let mut say = Indented {
            out: std::io::stdout(),
            at_start: true,
        };
        match install_missing(&missing, &mut say) {
            Ok(installed) => {
                for tool in installed {
                    let version = executor
                        .version(tool)
                        .unwrap_or_else(|| "version not reported".to_string());
                    let path = which(tool.name()).unwrap_or_default();
                    crate::say!(
                        "  {:<10} {:<22} {} (installed)",
                        tool.name(),
                        shown(&version),
                        shown(&path)
                    );
                }
            }
            Err(e) => {
                unchecked += 1;
                crate::say!("install      FAILED: {}", shown(&e));
            }
        }
    } else {
        crate::say!(
            "install      {}   (`diskdash doctor --install` runs it)",
            shown(install_hint(&missing))
        );
    }
    Ok(if unchecked == 0 { 0 } else { 1 })
}

/// Writes what [`install_missing`] says in doctor's column, at once (it
/// comes before the package manager's own output).
struct Indented {
    out: std::io::Stdout,
    at_start: bool,
}

impl std::io::Write for Indented {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for line in buf.split_inclusive(|&b| b == b'\n') {
            if self.at_start {
                self.out.write_all(b"             ")?;
            }
            self.out.write_all(line)?;
            self.at_start = line.ends_with(b"\n");
        }
        self.out.flush()?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
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
            "pacman -S --needed --noconfirm fio"
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
    fn install_plans_are_the_commands_shown() {
        let argv = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        let plan = install_plan(Some("ubuntu"), Some("debian"), &[Tool::Fio]).unwrap();
        assert_eq!(
            plan.steps,
            vec![argv("apt-get update"), argv("apt-get install -y fio")]
        );
        // EPEL only when a tool from it is wanted
        let rocky = |tools: &[Tool]| install_plan(Some("rocky"), Some("rhel"), tools).unwrap();
        assert_eq!(rocky(&[Tool::Fio]).steps, vec![argv("dnf install -y fio")]);
        assert_eq!(
            rocky(&[Tool::Bonnie]).steps,
            vec![
                argv("dnf install -y epel-release"),
                argv("dnf install -y bonnie++")
            ]
        );
        let fedora = install_plan(Some("fedora"), None, &[Tool::Bonnie]).unwrap();
        assert_eq!(fedora.steps, vec![argv("dnf install -y bonnie++")]);
        assert_eq!(fedora.note, None);
        assert_eq!(install_plan(Some("plan9"), None, &[Tool::Fio]), None);
    }

    #[test]
    fn o_direct_probe_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        // the answer depends on the filesystem; the probe must clean up either way
        let _ = o_direct_works(dir.path());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
