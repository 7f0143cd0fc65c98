//! The one rule for tests that need something the machine may lack (a
//! tool, root, a cgroup throttle): with it, the test runs; without it, the
//! test fails when `DISKDASH_REQUIRE_TOOLS=1` (CI sets it in `.ci/run`),
//! and otherwise says so loudly on stderr and returns without asserting.

/// Whether `test` can run: `missing` names what the machine lacks (empty:
/// nothing), `hint` how to get it.
pub fn met(test: &str, missing: &[String], hint: &str) -> bool {
    if missing.is_empty() {
        return true;
    }
    let missing = missing.join(", ");
    if std::env::var("DISKDASH_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!("DISKDASH_REQUIRE_TOOLS=1 but {test} cannot run: missing {missing}");
    }
    eprintln!(
        "\n!!! NOTE: {test} NOT RUN: missing {missing} ({hint}, or set DISKDASH_REQUIRE_TOOLS=1 to make this a failure) !!!\n"
    );
    false
}

/// The programs of `names` that are not on PATH.
#[allow(dead_code)] // not every test file looks for programs
pub fn programs_missing(names: &[&str]) -> Vec<String> {
    names
        .iter()
        .filter(|n| diskdash::run::exec::which(n).is_none())
        .map(|n| n.to_string())
        .collect()
}

/// `["root"]` unless the test runs as root.
#[allow(dead_code)] // not every test file needs root
pub fn root_missing() -> Vec<String> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        Vec::new()
    } else {
        vec!["root".to_string()]
    }
}
