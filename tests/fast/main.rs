//! The fast tier: unit-speed integration tests that need nothing beyond
//! the built binary, fake tools (`tests/fakes/`) and the fixtures. One
//! binary, so the test build links once; `cargo test` runs it. The system
//! tier (real tools, root, a browser, Ansible) is `tests/system/`.

// what a test prints is for whoever runs the tests, not the program's
// output that the print discipline of Cargo.toml's lints is about
#![allow(clippy::print_stdout, clippy::print_stderr)]

#[path = "../system/emulated_volume.rs"]
#[allow(dead_code)] // the fast tier uses only its arithmetic
mod emulated_volume;
#[path = "../report_common/mod.rs"]
mod report_common;
#[path = "../run_common/mod.rs"]
mod run_common;

mod cli_catalogue;
mod cli_check_schema;
mod cli_compare;
mod cli_import;
mod cli_run;
mod cli_shell;
mod cli_terminal;
mod emulated_records;
mod host_name;
mod install_tools;
mod prop_bonnie;
mod prop_check;
mod prop_dd_ioping;
mod prop_fio;
mod prop_format;
mod prop_record;
mod prop_report;
mod report_answer;
mod report_as_typed;
mod report_catalogue;
mod report_dimensions;
mod report_emulated;
mod report_history;
mod report_identity;
mod report_length;
mod report_machines;
mod report_numbers;
mod report_offerings;
mod report_post;
mod report_qdepth;
mod report_rates;
mod report_site;
mod report_size;
mod report_snapshots;
mod report_study_2026;
mod report_threads;
mod report_timeline;
mod report_titles;
mod report_value;
mod run_faults;
mod run_replay;
mod sample_results;
