//! `diskdash run`'s flags, driven through the binary: `--quick`, and what
//! clap says of a flag it does not know.

use assert_cmd::Command;

fn diskdash() -> Command {
    Command::cargo_bin("diskdash").unwrap()
}

/// The dry run's standard output with what is new on every run masked:
/// the scratch directory's name (`.diskdash-scratch-<time>-<hex>`) and the
/// seeds of dd's incompressible data.
fn dry_run(args: &[&str]) -> String {
    let out = diskdash()
        .args(["run", "--dry-run"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    let mut text = String::from_utf8(out.stdout).unwrap();
    for marker in [".diskdash-scratch-", "seed 0x"] {
        let mut masked = String::new();
        let mut rest = text.as_str();
        while let Some(at) = rest.find(marker) {
            masked.push_str(&rest[..at + marker.len()]);
            masked.push_str("MASKED");
            rest = &rest[at + marker.len()..];
            let end = rest
                .find(|c: char| !c.is_ascii_alphanumeric() && c != '-')
                .unwrap_or(rest.len());
            rest = &rest[end..];
        }
        masked.push_str(rest);
        text = masked;
    }
    text
}

#[test]
fn quick_runs_the_quick_suite() {
    let quick = dry_run(&["--quick"]);
    assert!(
        quick.starts_with("dry run of suite quick: "),
        "{}",
        quick.lines().next().unwrap_or("")
    );
    assert_eq!(quick, dry_run(&["--suite", "quick"]));
    assert_ne!(quick, dry_run(&[]), "--quick planned the standard suite");
    assert!(dry_run(&[]).starts_with("dry run of suite standard: "));
}

#[test]
fn quick_and_suite_together_are_refused() {
    let out = diskdash()
        .args(["run", "--dry-run", "--quick", "--suite", "standard"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("'--quick' cannot be used with '--suite <SUITE>'"),
        "{err}"
    );
}

#[test]
fn an_unknown_flag_is_told_the_nearest_one() {
    for (typed, meant) in [
        ("--quik", "--quick"),
        ("--dryrun", "--dry-run"),
        ("--sute", "--suite"),
    ] {
        let out = diskdash().args(["run", typed]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{typed}: {out:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!("unexpected argument '{typed}' found")),
            "{typed}: {err}"
        );
        assert!(
            err.contains(&format!("tip: a similar argument exists: '{meant}'")),
            "{typed}: {err}"
        );
    }
}
