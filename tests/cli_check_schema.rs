//! `diskdash check` and `diskdash schema`, driven through the binary.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::json;

fn diskdash() -> Command {
    Command::cargo_bin("diskdash").unwrap()
}

fn record(id: &str) -> serde_json::Value {
    json!({
        "schema": "diskdash.record/1",
        "id": id,
        "source": {"kind": "run", "diskdash_version": "0.1.0"},
        "subject": {"study": "demo", "provider": "local", "offering": "disk"},
        "host": {"cpu_model": null},
        "target": {},
        "test": {"id": "ioping-seek", "tool": "ioping"},
        "repetition": 1,
        "status": "ok",
        "metrics": {"iops": {"value": 11800.0, "unit": "IOPS"}}
    })
}

#[test]
fn schema_is_json_schema_of_the_record() {
    let out = diskdash().arg("schema").output().unwrap();
    assert!(out.status.success());
    let schema: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(schema["title"], "Record");
    let required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for field in [
        "schema", "id", "source", "subject", "host", "target", "test", "status",
    ] {
        assert!(required.contains(&field), "{field} not required");
    }
}

#[test]
fn check_passes_good_records_and_names_every_bad_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("good.json"), record("a").to_string()).unwrap();
    diskdash()
        .arg("check")
        .arg(d)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("1 records in 1 files: all valid"));

    std::fs::create_dir(d.join("sub")).unwrap();
    std::fs::write(d.join("sub/truncated.json"), "{\"schema\": \"diskdash.rec").unwrap();
    let mut future = record("b");
    future["schema"] = "diskdash.record/7".into();
    std::fs::write(d.join("future.json"), future.to_string()).unwrap();
    std::fs::write(d.join("zz-dup.jsonl"), format!("{}\n", record("a"))).unwrap();
    diskdash()
        .arg("check")
        .arg(d)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("truncated.json: not valid JSON"))
        .stdout(predicate::str::contains(
            "future.json: schema `diskdash.record/7` has major version 7",
        ))
        .stdout(predicate::str::contains(
            "zz-dup.jsonl:1: duplicate record id `a` (first seen in",
        ))
        .stdout(predicate::str::contains(
            "3 problems in 3 of 4 files; 1 valid records",
        ));
}

#[test]
fn check_of_an_empty_tree_fails_and_says_what_it_expected() {
    let dir = tempfile::tempdir().unwrap();
    diskdash()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("no records found under"));
}

#[test]
fn check_of_a_missing_path_is_an_error_naming_it() {
    diskdash()
        .args(["check", "no/such/dir"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("error: cannot read `no/such/dir`"));
}
