//! What a system test needs and the machine may lack (a tool, root, a
//! cgroup throttle): without it the test fails, naming what is missing and
//! how to get it. System tests are `#[ignore]`d, so a plain `cargo test`
//! lists them as ignored; `cargo test -- --include-ignored` runs them.

/// Fails `test` unless `missing` (what the machine lacks) is empty; `hint`
/// says how to get it.
#[track_caller]
pub fn need(test: &str, missing: &[String], hint: &str) {
    assert!(
        missing.is_empty(),
        "{test} cannot run: missing {} ({hint})",
        missing.join(", ")
    );
}

/// The programs of `names` that are not on PATH.
pub fn programs_missing(names: &[&str]) -> Vec<String> {
    names
        .iter()
        .filter(|n| diskdash::run::exec::which(n).is_none())
        .map(|n| n.to_string())
        .collect()
}

/// `["root"]` unless the test runs as root.
pub fn root_missing() -> Vec<String> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        Vec::new()
    } else {
        vec!["root".to_string()]
    }
}
