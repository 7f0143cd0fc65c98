//! `diskdash completions` and `diskdash man`: generated from the clap
//! definitions, so they name the subcommands and flags that exist.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_diskdash");

const SUBCOMMANDS: [&str; 10] = [
    "run",
    "import",
    "report",
    "check",
    "compare",
    "catalogue",
    "schema",
    "doctor",
    "completions",
    "man",
];

fn stdout(args: &[&str]) -> String {
    let o = Command::new(BIN).args(args).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn bash_completion_knows_the_subcommands_and_their_flags() {
    let bash = stdout(&["completions", "bash"]);
    assert!(
        bash.contains("complete -F _diskdash"),
        "not a bash completion"
    );
    for sub in SUBCOMMANDS {
        assert!(bash.contains(&format!("diskdash,{sub})")), "{sub} missing");
    }
    // flags of run, report and doctor, each where it belongs
    let run = bash
        .split("\n        diskdash__subcmd__run)")
        .nth(1)
        .expect("a case for run");
    let run = run.split(";;").next().unwrap();
    for flag in [
        "--sustained-minutes",
        "--install-tools",
        "--only",
        "--label",
    ] {
        assert!(run.contains(flag), "run lacks {flag}");
    }
    assert!(!run.contains("--prices"), "--prices is report's flag");
    assert!(bash.contains("--prices"));
    assert!(bash.contains("--install "));
}

#[test]
fn zsh_and_fish_completions_name_the_flags() {
    let zsh = stdout(&["completions", "zsh"]);
    assert!(zsh.starts_with("#compdef diskdash"), "{}", &zsh[..40]);
    assert!(zsh.contains("--sustained-minutes"));
    let fish = stdout(&["completions", "fish"]);
    assert!(fish.contains("complete -c diskdash"));
    assert!(fish.contains("-l sustained-minutes"));
    assert!(fish.contains("-a \"doctor\""));
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let o = Command::new(BIN)
        .args(["completions", "powershell"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("[possible values: bash, zsh, fish]"));
}

#[test]
fn the_man_page_lists_every_subcommand() {
    let man = stdout(&["man"]);
    assert!(man.contains(".TH diskdash 1"), "{man}");
    assert!(man.contains(".SH SUBCOMMANDS"));
    for sub in SUBCOMMANDS {
        assert!(
            man.contains(&format!("diskdash\\-{sub}(1)")),
            "{sub} missing"
        );
    }
}

#[test]
fn man_out_writes_a_page_per_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man");
    stdout(&["man", "--out", out.to_str().unwrap()]);
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let mut want: Vec<String> = SUBCOMMANDS
        .iter()
        .map(|s| format!("diskdash-{s}.1"))
        .chain(["diskdash.1".to_string()])
        .collect();
    want.sort();
    assert_eq!(names, want);
    let run = std::fs::read_to_string(out.join("diskdash-run.1")).unwrap();
    assert!(run.contains(".TH diskdash-run 1"), "{run}");
    assert!(run.contains("\\fB\\-\\-sustained\\-minutes\\fR"), "{run}");
    let doctor = std::fs::read_to_string(out.join("diskdash-doctor.1")).unwrap();
    assert!(doctor.contains("\\fB\\-\\-install\\fR"), "{doctor}");
}
