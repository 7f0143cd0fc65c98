//! `diskdash doctor --install` and `diskdash run --install-tools` with a
//! fake package manager on PATH (tests/fakes/pkg-manager): the exact
//! commands run, in order, for each distribution family; what is said
//! before they run; a failing package manager reported with the command
//! and its status; nothing run unless asked. Nothing is really installed.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_diskdash");

/// A PATH directory holding the fake package manager under the usual
/// names, an os-release file for the distribution wanted, and the log of
/// the commands the fake received.
struct Machine {
    dir: tempfile::TempDir,
}

impl Machine {
    fn new(os_release: &str) -> Machine {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("bin")).unwrap();
        let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fakes/pkg-manager");
        for name in ["apt-get", "dnf", "apk", "zypper", "pacman"] {
            std::os::unix::fs::symlink(&fake, dir.path().join("bin").join(name)).unwrap();
        }
        std::fs::write(dir.path().join("os-release"), os_release).unwrap();
        Machine { dir }
    }

    fn bin(&self) -> PathBuf {
        self.dir.path().join("bin")
    }

    /// Puts a link to the real `program` into the PATH directory.
    fn link(&self, program: &str) {
        let real = diskdash::run::exec::which(program).expect("the program is installed");
        std::os::unix::fs::symlink(real, self.bin().join(program)).unwrap();
    }

    fn command(&self, status: i32) -> Command {
        let mut c = Command::new(BIN);
        c.env("PATH", self.bin())
            .env("DISKDASH_RUN_REGISTRY", crate::run_common::own_registry())
            .env("DISKDASH_OS_RELEASE", self.dir.path().join("os-release"))
            .env("FAKE_PM_LOG", self.dir.path().join("log"))
            .env("FAKE_PM_BIN", self.bin())
            .env("FAKE_PM_STATUS", status.to_string())
            .stdin(Stdio::null());
        c
    }

    /// The commands the package manager received, one a line.
    fn log(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.path().join("log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

const DEBIAN: &str = "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n";
const ROCKY: &str = "ID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\n";
const ALPINE: &str = "ID=alpine\n";
const OPENSUSE: &str = "ID=\"opensuse-leap\"\nID_LIKE=\"suse opensuse\"\n";

/// bonnie++ is found in the sbin directories even when PATH leaves them
/// out (as Debian installs it there), so where it is installed it is not
/// missing.
fn bonnie_installed() -> bool {
    ["/usr/local/sbin", "/usr/sbin", "/sbin"]
        .iter()
        .any(|d| Path::new(d).join("bonnie++").exists())
}

/// The packages doctor asks for when PATH holds none of the tools.
fn all_packages() -> &'static str {
    if bonnie_installed() {
        "[coreutils] [fio] [ioping]"
    } else {
        "[coreutils] [fio] [ioping] [bonnie++]"
    }
}

fn doctor(m: &Machine, status: i32, install: bool) -> (Option<i32>, String) {
    let target = tempfile::tempdir().unwrap();
    let mut c = m.command(status);
    c.args(["doctor", "--target", target.path().to_str().unwrap()]);
    if install {
        c.arg("--install");
    }
    let o = c.output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

#[test]
fn doctor_install_shows_then_runs_apt_and_lists_what_it_installed() {
    let m = Machine::new(DEBIAN);
    let (_, out) = doctor(&m, 0, true);
    let pkgs = all_packages();
    assert_eq!(
        m.log(),
        vec![
            "apt-get [update]".to_string(),
            format!("apt-get [install] [-y] {pkgs}")
        ]
    );
    let shown = pkgs.replace(['[', ']'], "");
    let update = out.find("running: apt-get update\n").expect(&out);
    let install = out
        .find(&format!("running: apt-get install -y {shown}\n"))
        .expect(&out);
    assert!(update < install, "{out}");
    // the stand-ins the fake installed are found afterwards, with their versions
    let fio_line = out
        .lines()
        .find(|l| l.trim_start().starts_with("fio ") && l.ends_with("(installed)"))
        .expect(&out);
    assert!(
        fio_line.contains(" 9.9.9 ") && fio_line.contains(m.bin().join("fio").to_str().unwrap()),
        "{fio_line}"
    );
    assert!(!out.contains("FAILED"), "{out}");
}

#[test]
fn doctor_install_on_rocky_enables_epel_first() {
    let m = Machine::new(ROCKY);
    doctor(&m, 0, true);
    let pkgs = all_packages();
    assert_eq!(
        m.log(),
        vec![
            "dnf [install] [-y] [epel-release]".to_string(),
            format!("dnf [install] [-y] {pkgs}")
        ]
    );
}

#[test]
fn doctor_install_on_alpine_and_opensuse() {
    let m = Machine::new(ALPINE);
    doctor(&m, 0, true);
    assert_eq!(m.log(), vec![format!("apk [add] {}", all_packages())]);
    let m = Machine::new(OPENSUSE);
    doctor(&m, 0, true);
    assert_eq!(
        m.log(),
        vec![format!("zypper [install] [-y] {}", all_packages())]
    );
}

#[test]
fn doctor_install_reports_a_failing_package_manager() {
    let m = Machine::new(DEBIAN);
    let (code, out) = doctor(&m, 100, true);
    assert_eq!(code, Some(1), "{out}");
    // the first command failed: nothing after it ran
    assert_eq!(m.log(), vec!["apt-get [update]".to_string()]);
    let line = out
        .lines()
        .find(|l| l.starts_with("install      FAILED: "))
        .expect(&out);
    assert!(
        line.contains("`apt-get update` ended with exit status 100"),
        "{line}"
    );
    assert!(line.contains("installing dd, fio, ioping"), "{line}");
}

#[test]
fn doctor_install_on_an_unknown_distribution_runs_nothing() {
    let m = Machine::new("ID=plan9\n");
    let (code, out) = doctor(&m, 0, true);
    assert_eq!(code, Some(1));
    assert!(m.log().is_empty(), "{:?}", m.log());
    assert!(
        out.contains("FAILED: cannot install dd, fio, ioping")
            && out.contains("(plan9) is not one diskdash knows"),
        "{out}"
    );
}

#[test]
fn doctor_without_install_only_prints_the_command() {
    let m = Machine::new(DEBIAN);
    let (code, out) = doctor(&m, 0, false);
    // missing tools are reported with their install command: not a failure
    assert_eq!(code, Some(0), "{out}");
    assert!(m.log().is_empty(), "{:?}", m.log());
    let shown = all_packages().replace(['[', ']'], "");
    assert!(
        out.contains(&format!(
            "install      apt-get install -y {shown}   (`diskdash doctor --install` runs it)"
        )),
        "{out}"
    );
}

fn run_install(m: &Machine, status: i32, extra: &[&str]) -> (Option<i32>, String, String, PathBuf) {
    let target = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let out = m.dir.path().join("results");
    let o = m
        .command(status)
        .args(["run", "--install-tools", "--suite", "quick"])
        .args(["--only", "dd-write-8k-fdatasync,ioping-latency"])
        .args(["--target", target.path().to_str().unwrap()])
        .args([
            "--out",
            out.to_str().unwrap(),
            "--study",
            "s",
            "--offering",
            "o",
        ])
        .args(extra)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        out,
    )
}

fn records(dir: &Path) -> Vec<diskdash::record::Record> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap())
        .collect()
}

#[test]
fn run_install_tools_installs_what_the_selection_needs_and_records_its_version() {
    let m = Machine::new(DEBIAN);
    // dd is there; ioping is missing; fio is missing but not selected
    m.link("dd");
    let (code, _, stderr, out) = run_install(&m, 0, &[]);
    assert_eq!(
        m.log(),
        vec![
            "apt-get [update]".to_string(),
            "apt-get [install] [-y] [ioping]".to_string()
        ]
    );
    assert!(
        stderr.contains("running: apt-get update\nrunning: apt-get install -y ioping\n"),
        "{stderr}"
    );
    // the stand-in ioping then ran, and its record names the version installed
    let recs = records(&out);
    assert_eq!(recs.len(), 2, "{stderr}");
    let ioping = recs.iter().find(|r| r.test.id == "ioping-latency").unwrap();
    assert_eq!(ioping.test.tool_version.as_deref(), Some("9.9.9"));
    assert_eq!(ioping.status, diskdash::record::Status::Failed);
    let dd = recs
        .iter()
        .find(|r| r.test.id == "dd-write-8k-fdatasync")
        .unwrap();
    assert_eq!(dd.status, diskdash::record::Status::Ok);
    assert_eq!(code, Some(1), "{stderr}");
}

#[test]
fn run_install_tools_that_fails_stops_before_any_test() {
    let m = Machine::new(DEBIAN);
    m.link("dd");
    let (code, _, stderr, out) = run_install(&m, 100, &[]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "error: installing ioping failed: `apt-get update` ended with exit status 100"
        ),
        "{stderr}"
    );
    assert!(!out.exists(), "no records without the tools asked for");
}

#[test]
fn run_install_tools_in_a_dry_run_only_says_what_it_would_install() {
    let m = Machine::new(DEBIAN);
    m.link("dd");
    let (code, stdout, stderr, out) = run_install(&m, 0, &["--dry-run"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(m.log().is_empty(), "{:?}", m.log());
    assert!(
        stdout.starts_with("would install (--install-tools): apt-get install -y ioping\n"),
        "{stdout}"
    );
    assert!(!out.exists());
}
