//! Nothing from outside reaches the terminal raw: paths (`--target`,
//! `--out`, inputs), a suite's name and headline, a tool's error line and
//! version string are printed with their escape sequences, bidi overrides
//! and bytes that are not UTF-8 written as visible text (`\u{1b}`, `\xff`).

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::run_common::*;

/// A name with ESC (a colour), BEL, a byte that is not UTF-8 and a
/// right-to-left override.
const HOSTILE: &[u8] = b"d\x1b[31m\x07\xff\xe2\x80\xae";
/// How diskdash prints it.
const HOSTILE_SHOWN: &str = "d\\u{1b}[31m\\u{7}\\xff\\u{202e}";

/// `dir/<HOSTILE><suffix>`, not created.
fn hostile_in(dir: &Path, suffix: &str) -> PathBuf {
    let mut name = HOSTILE.to_vec();
    name.extend_from_slice(suffix.as_bytes());
    dir.join(OsStr::from_bytes(&name))
}

/// Fails when `bytes` holds anything that acts on a terminal: bytes that
/// are not UTF-8 (a lone 0x9b is CSI), a control character other than the
/// newline, or a bidi control.
fn assert_inert(what: &str, bytes: &[u8]) {
    let text = std::str::from_utf8(bytes)
        .unwrap_or_else(|e| panic!("{what} is not UTF-8 ({e}): {bytes:?}"));
    for c in text.chars() {
        let bidi = matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        assert!(
            !bidi && (c == '\n' || !c.is_control()),
            "{what} holds {c:?} raw:\n{}",
            text.escape_debug()
        );
    }
}

fn diskdash<S: AsRef<OsStr>>(path: &str, args: &[S]) -> Output {
    Command::new(BIN)
        .env("DISKDASH_RUN_REGISTRY", own_registry())
        .args(args)
        .env("PATH", path)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn run_prints_target_and_out_paths_escaped() {
    let bin = bin_dir(&[("fio", fake("fail"))]);
    let tmp = tempfile::tempdir().unwrap();
    let target = hostile_in(tmp.path(), "target");
    let out = hostile_in(tmp.path(), "out");
    std::fs::create_dir(&target).unwrap();
    let args = |extra: &[&str]| {
        let mut a: Vec<OsString> = ["run", "--suite", "quick", "--only", "fio-randread-4k-qd64"]
            .map(OsString::from)
            .to_vec();
        a.extend([OsString::from("--target"), target.clone().into()]);
        a.extend([OsString::from("--out"), out.clone().into()]);
        a.extend(extra.iter().map(OsString::from));
        a
    };
    let o = diskdash(&path_with(bin.path()), &args(&[]));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_inert("run's stdout", &o.stdout);
    assert_inert("run's stderr", &o.stderr);
    let stderr = text(&o.stderr);
    assert!(
        stderr.contains(&format!(
            "1 job against `{}",
            shown_dir(tmp.path(), "target")
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("records in {}", shown_dir(tmp.path(), "out"))),
        "{stderr}"
    );
    // the dry run names both too
    let o = diskdash(&path_with(bin.path()), &args(&["--dry-run"]));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_inert("the dry run's stdout", &o.stdout);
    assert!(
        text(&o.stdout).contains(&format!("against `{}`", shown_dir(tmp.path(), "target"))),
        "{}",
        text(&o.stdout)
    );
}

/// How diskdash prints `dir/<HOSTILE><suffix>` (`dir` is plain).
fn shown_dir(dir: &Path, suffix: &str) -> String {
    format!("{}/{HOSTILE_SHOWN}{suffix}", dir.display())
}

#[test]
fn run_prints_a_tools_error_line_escaped() {
    let bin = bin_dir(&[("fio", fake("escape"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let o = diskdash(
        &path_with(bin.path()),
        &[
            OsStr::new("run"),
            OsStr::new("--target"),
            target.path().as_os_str(),
            OsStr::new("--suite"),
            OsStr::new("quick"),
            OsStr::new("--only"),
            OsStr::new("fio-randread-4k-qd64"),
            OsStr::new("--out"),
            out.path().as_os_str(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_inert("run's stderr", &o.stderr);
    // the record keeps the tool's output as text: the lone 0x9b byte is
    // already U+FFFD there
    assert!(
        text(&o.stderr).contains(
            "r1/1 failed: `fio` exited with status 1: \
             fio: \\u{1b}[2J\\u{1b}]0;title\\u{7}\u{fffd}\\u{9b} cannot open the device"
        ),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn a_suites_name_and_headline_are_printed_escaped() {
    let bin = bin_dir(&[("dd", fake("fail"))]);
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite.toml");
    std::fs::write(
        &suite,
        "name = \"s\\u001b[31m\\u0007\\u202e\\nx\"\n\
         [[test]]\nid = \"dd-w\"\ntool = \"dd\"\ncount = 1\nheadline = \"h\\u001b]0;x\\u0007\\nfake line\"\n",
    )
    .unwrap();
    let list = diskdash(
        &path_with(bin.path()),
        &["run", "--list", "--suite"]
            .map(OsStr::new)
            .into_iter()
            .chain([suite.as_os_str()])
            .collect::<Vec<_>>(),
    );
    assert_eq!(list.status.code(), Some(0), "{}", text(&list.stderr));
    assert_inert("--list", &list.stdout);
    assert!(
        text(&list.stdout).starts_with("suite s\\u{1b}[31m\\u{7}\\u{202e}\\u{a}x ("),
        "{}",
        text(&list.stdout)
    );
    let out = tempfile::tempdir().unwrap();
    let o = diskdash(
        &path_with(bin.path()),
        &[
            OsStr::new("run"),
            OsStr::new("--target"),
            dir.path().as_os_str(),
            OsStr::new("--suite"),
            suite.as_os_str(),
            OsStr::new("--out"),
            out.path().as_os_str(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_inert("run's stderr", &o.stderr);
    // the summary's metric column, on the test's line
    assert!(
        text(&o.stderr).contains("\ndd-w  1 failed  h\\u{1b}]0;x\\u{7}\\u{a}fake line\n"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn doctor_prints_the_target_and_a_tools_version_escaped() {
    let bin = bin_dir(&[("fio", fake("escape"))]);
    let tmp = tempfile::tempdir().unwrap();
    let target = hostile_in(tmp.path(), "target");
    std::fs::create_dir(&target).unwrap();
    let o = diskdash(
        &path_with(bin.path()),
        &[
            OsStr::new("doctor"),
            OsStr::new("--target"),
            target.as_os_str(),
        ],
    );
    assert_ne!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert_inert("doctor's stdout", &o.stdout);
    assert_inert("doctor's stderr", &o.stderr);
    let stdout = text(&o.stdout);
    assert!(
        stdout.contains(&format!("target       {}", shown_dir(tmp.path(), "target"))),
        "{stdout}"
    );
    let fio = stdout
        .lines()
        .find(|l| l.starts_with("  fio "))
        .unwrap_or_else(|| panic!("no fio line: {stdout}"));
    assert!(fio.contains("3.33\\u{1b}[31m\\u{7}\\u{202e}x"), "{fio}");
}

#[test]
fn import_and_report_print_their_paths_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let inputs = hostile_in(tmp.path(), "in");
    std::fs::create_dir(&inputs).unwrap();
    let log = inputs.join("dd-write-8k-dsync.txt");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dd/gnu91-write-8k-dsync.txt"),
        &log,
    )
    .unwrap();
    // a file import does not recognise is named as skipped
    std::fs::write(inputs.join("\x1b[2Jnotes.txt"), "nothing a tool printed\n").unwrap();
    let records = hostile_in(tmp.path(), "records");
    let path = std::env::var("PATH").unwrap_or_default();
    let import: Vec<&OsStr> = [
        OsStr::new("import"),
        OsStr::new("--out"),
        records.as_os_str(),
        inputs.as_os_str(),
    ]
    .to_vec();
    let o = diskdash(&path, &import);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_inert("import's stdout", &o.stdout);
    assert_inert("import's stderr", &o.stderr);
    let stdout = text(&o.stdout);
    assert!(
        stdout.contains(&format!(
            "imported 1 record into `{}`",
            shown_dir(tmp.path(), "records")
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "skipped `{}/\\u{{1b}}[2Jnotes.txt`",
            shown_dir(tmp.path(), "in")
        )),
        "{stdout}"
    );
    let site = hostile_in(tmp.path(), "site");
    let o = diskdash(
        &path,
        &[
            OsStr::new("report"),
            records.as_os_str(),
            OsStr::new("--out"),
            site.as_os_str(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_inert("report's stdout", &o.stdout);
    assert_inert("report's stderr", &o.stderr);
    assert!(
        text(&o.stdout).contains(&format!("written to `{}`", shown_dir(tmp.path(), "site"))),
        "{}",
        text(&o.stdout)
    );
    // check names a directory without records
    let empty = hostile_in(tmp.path(), "empty");
    std::fs::create_dir(&empty).unwrap();
    let o = diskdash(&path, &[OsStr::new("check"), empty.as_os_str()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_inert("check's stdout", &o.stdout);
    assert!(
        text(&o.stdout).contains(&format!(
            "no records found under `{}`",
            shown_dir(tmp.path(), "empty")
        )),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn records_streamed_to_stdout_carry_escape_characters_as_json_escapes() {
    let bin = bin_dir(&[("fio", fake("escape"))]);
    let target = tempfile::tempdir().unwrap();
    let o = diskdash(
        &path_with(bin.path()),
        &[
            OsStr::new("run"),
            OsStr::new("--target"),
            target.path().as_os_str(),
            OsStr::new("--suite"),
            OsStr::new("quick"),
            OsStr::new("--only"),
            OsStr::new("fio-randread-4k-qd64"),
            OsStr::new("--out"),
            OsStr::new("-"),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_inert("the records on stdout", &o.stdout);
    assert_inert("run's stderr", &o.stderr);
    // the same record: the characters are JSON escapes, not dropped
    let line = text(&o.stdout);
    assert!(line.contains("\\u009b cannot open"), "{line}");
    let record: diskdash::record::Record = serde_json::from_str(line.trim_end()).unwrap();
    assert_eq!(
        record.error.as_deref(),
        Some(
            "`fio` exited with status 1: \
             fio: \u{1b}[2J\u{1b}]0;title\u{7}\u{fffd}\u{9b} cannot open the device"
        )
    );
}

#[test]
fn a_flag_value_with_escape_sequences_is_refused_as_text() {
    let o = diskdash(
        &std::env::var("PATH").unwrap_or_default(),
        &["run", "--repeat", "\u{202e}\u{1b}[31m5"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert_inert("the usage error", &o.stderr);
    // clap drops the escape sequence itself (its rendering reads it as a
    // style); the override is shown
    assert!(
        text(&o.stderr).contains("invalid value '\\u{202e}5' for '--repeat <N>'"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn check_prints_a_problem_files_name_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = hostile_in(tmp.path(), "bad.json");
    std::fs::write(&bad, "{").unwrap();
    let o = diskdash(
        &std::env::var("PATH").unwrap_or_default(),
        &[OsStr::new("check"), tmp.path().as_os_str()],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_inert("check's stdout", &o.stdout);
    assert!(
        text(&o.stdout).starts_with(&format!("{}: ", shown_dir(tmp.path(), "bad.json"))),
        "{}",
        text(&o.stdout)
    );
}
