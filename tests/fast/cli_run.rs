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

#[test]
fn the_dry_run_names_what_the_catalogue_has_for_a_name_it_does_not_match() {
    let limits_line = |args: &[&str]| -> String {
        let out = dry_run(args);
        out.lines()
            .find(|l| l.starts_with("burst limits: "))
            .unwrap_or_else(|| panic!("no limits line in\n{out}"))
            .to_string()
    };
    assert_eq!(
        limits_line(&["--provider", "DigitalOcean", "--offering", "Volumes"]),
        "burst limits: no row for DigitalOcean Volumes; the catalogue has Volumes (Standard Droplet), Volumes (Optimized Droplet)"
    );
    assert_eq!(
        limits_line(&["--provider", "Hetzner", "--offering", "Volume"]),
        "burst limits: no row for Hetzner Volume; the catalogue has no provider Hetzner (it has AWS, Azure, GCP, Linode, Vultr, OVH, Scaleway, DigitalOcean)"
    );
    // a name it has: its row
    assert!(limits_line(&[
        "--provider",
        "DigitalOcean",
        "--offering",
        "Volumes (Standard Droplet)"
    ])
    .starts_with(
        "burst limits: the catalogue's row for DigitalOcean Volumes (Standard Droplet), "
    ));
    // with --limits too, and without the catalogue
    let dir = tempfile::tempdir().unwrap();
    let limits = dir.path().join("limits.csv");
    std::fs::write(
        &limits,
        "provider,offering,instance,size_min_gb,size_max_gb,baseline_iops,baseline_iops_per_gb,per_gb_rule,max_iops,burst_iops,baseline_mbps,baseline_mbps_per_gb,max_mbps,burst_mbps,mbps_unit,burst_kind,burst_s,burst_period_s,as_of,source\n\
         Hetzner,Volume,,,,7500,,,,,,,,,,,,,2026-12,a quote\n",
    )
    .unwrap();
    let limits = limits.to_str().unwrap();
    assert_eq!(
        limits_line(&["--provider", "AWS", "--offering", "gp4", "--limits", limits]),
        "burst limits: no row for AWS gp4 in --limits or the catalogue; the catalogue has gp2, gp3, st1, io1, io2 and 2 more"
    );
    assert_eq!(
        limits_line(&["--provider", "AWS", "--offering", "gp4", "--no-catalogue"]),
        "burst limits: none (--no-catalogue)"
    );
}

#[test]
fn a_run_warns_of_a_name_the_catalogue_has_no_row_for_before_it_starts() {
    use crate::run_common::{bin_dir, fake, path_with, run};
    // fio fails at once: only what is said before the test matters
    let bin = bin_dir(&[("fio", fake("fail"))]);
    let target = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let go = |extra: &[&str]| {
        let mut argv = vec![
            "--target",
            target.path().to_str().unwrap(),
            "--quick",
            "--only",
            "fio-randread-4k-qd64",
            "--out",
            out.path().to_str().unwrap(),
            "--provider",
            "DigitalOcean",
            "--offering",
            "Volumes",
        ];
        argv.extend_from_slice(extra);
        let r = run(&path_with(bin.path()), &argv);
        assert_eq!(r.code, Some(1), "{}", r.stderr);
        r.stderr
    };
    let warning = "warning: no row for DigitalOcean Volumes; the catalogue has Volumes (Standard Droplet), Volumes (Optimized Droplet)\n";
    let stderr = go(&[]);
    assert_eq!(stderr.matches(warning).count(), 1, "{stderr}");
    let at = stderr.find(warning).unwrap();
    assert!(
        stderr[at..].contains("fio-randread-4k-qd64 r1/1 failed"),
        "said after the test: {stderr}"
    );
    assert!(!go(&["--no-catalogue"]).contains("no row for"));
}
