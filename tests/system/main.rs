//! The system tier: tests that need real fio, ioping, bonnie++ and dd on a
//! real directory, root (tmpfs mounts, loop devices, cgroups), Chromium or
//! Ansible with an sshd. Every test here is
//! `#[ignore = "system tier: needs …"]`: a plain `cargo test` lists them
//! as ignored; `cargo test -- --include-ignored` runs them, and a missing
//! tool then fails the test, naming it. `tests/run.sh` installs what they need.

// what a test prints is for whoever runs the tests, not the program's
// output that the print discipline of Cargo.toml's lints is about
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod emulated_volume;
#[path = "../report_common/mod.rs"]
mod report_common;
mod require;
#[path = "../run_common/mod.rs"]
mod run_common;

mod browser;
mod burst_emulated;
mod estimate_emulated;
mod fleet_ansible;
mod mounts;
mod run_real;
mod site_kill;
