//! Tests of the yabs reader on real yabs output (tests/fixtures/yabs).

use serde_json::Value;

use super::super::{looks_like, parse};
use crate::tools::Parsed;

const THREE_RUNS: &str =
    include_str!("../../../../tests/fixtures/yabs/three-runs-v2021-06-05-readme.md");
const HEADLESS: &str = include_str!("../../../../tests/fixtures/yabs/headless-v2021-06-05.txt");
const V2020: &str = include_str!("../../../../tests/fixtures/yabs/v2020-02-04-readme.txt");
const JSON_ARRAYS: &str = include_str!("../../../../tests/fixtures/yabs/v2022-08-15-example.json");
const JSON_NO_UNITS: &str =
    include_str!("../../../../tests/fixtures/yabs/v2022-08-17-example.json");

fn m(p: &Parsed, name: &str) -> f64 {
    p.metrics
        .get(name)
        .unwrap_or_else(|| panic!("metric {name} missing from {:?}", p.metrics.keys()))
        .value
}

fn param(p: &Parsed, name: &str) -> Value {
    p.parameters.get(name).cloned().unwrap_or(Value::Null)
}

fn close(actual: f64, expected: f64) {
    let tol = expected.abs() * 1e-12;
    assert!((actual - expected).abs() <= tol, "{actual} != {expected}");
}

/// `MB/s` in yabs text before v2026-07-03 is 1000 KiB/s.
fn old_mb(mb: f64) -> f64 {
    mb * 1000.0 * 1024.0
}

#[test]
fn every_yabs_run_in_a_readme_gives_its_four_results_with_its_position() {
    let all = parse(THREE_RUNS).unwrap();
    assert_eq!(all.len(), 12);
    let runs: Vec<Value> = all.iter().map(|p| param(p, "run_in_file")).collect();
    let expected: Vec<Value> = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
        .into_iter()
        .map(Value::from)
        .collect();
    assert_eq!(runs, expected);
    for p in &all {
        assert_eq!(param(p, "yabs_version"), Value::from("v2021-06-05"));
    }
    let ids: Vec<&str> = all.iter().filter_map(|p| p.test_id.as_deref()).collect();
    assert_eq!(ids[4..8], ids[..4]);
    assert_eq!(ids[3], "fio-randrw-1m-qd64-j2");
    // Contabo: `Read | 5.28 MB/s (1.3k)`
    close(m(&all[0], "read_bw"), old_mb(5.28));
    assert_eq!(m(&all[0], "read_iops"), 1300.0);
    // Hetzner: `Read | ... | 1.17 GB/s (18.4k)`
    close(m(&all[5], "read_bw"), old_mb(1170.0));
    assert_eq!(m(&all[5], "read_iops"), 18400.0);
    // Netcup: `Write | ... | 1.01 GB/s (988)`
    close(m(&all[11], "write_bw"), old_mb(1010.0));
    assert_eq!(m(&all[11], "write_iops"), 988.0);
    // each record keeps its own run as raw output, from its header box on
    let part = all[5].part.as_deref().unwrap();
    assert!(part.trim_start().starts_with("# ## ##"), "{part}");
    assert!(part.contains("Sun 04 Jul 2021") && part.contains("108.13 MB/s"));
    assert!(!part.contains("5.28 MB/s") && !part.contains("64.36 MB/s"));
    assert!(all[11].part.as_deref().unwrap().contains("949.28 MB/s"));
}

#[test]
fn one_yabs_run_gets_no_position_and_keeps_the_whole_text() {
    let hetzner = THREE_RUNS.split("## Netcup").next().unwrap();
    let hetzner = hetzner.split("##Hetzner").last().unwrap();
    let hetzner = hetzner.split("## Hetzner").last().unwrap();
    let all = parse(hetzner).unwrap();
    assert_eq!(all.len(), 4);
    assert_eq!(param(&all[0], "run_in_file"), Value::Null);
    assert!(all[0].part.is_none());
}

#[test]
fn a_bad_figure_in_a_later_run_names_the_run() {
    let bad = THREE_RUNS.replace("108.13 MB/s", "-108.13 MB/s");
    let e = format!("{:#}", parse(&bad).unwrap_err());
    assert_eq!(
        e,
        "yabs run 2 of 3 output: the `Read` row's column 1 of yabs's fio table is \
         \"-108.13 MB/s\": expected a number >= 0"
    );
}

#[test]
fn a_yabs_table_without_its_heading_is_read_by_its_column_heads() {
    assert!(!HEADLESS.contains("fio Disk Speed Tests"));
    assert!(looks_like(HEADLESS));
    let all = parse(HEADLESS).unwrap();
    assert_eq!(all.len(), 4);
    assert_eq!(all[0].test_id.as_deref(), Some("fio-randrw-4k-qd64-j2"));
    close(m(&all[0], "read_bw"), old_mb(108.13));
    assert_eq!(m(&all[0], "write_iops"), 27100.0);
    close(m(&all[3], "write_bw"), old_mb(3130.0));
    assert_eq!(m(&all[3], "read_iops"), 2800.0);
    assert_eq!(param(&all[0], "runner"), Value::from("yabs"));
    assert_eq!(param(&all[0], "yabs_text_mb"), Value::from("1000 KiB/s"));
}

#[test]
fn a_headless_yabs_table_without_figures_is_refused_naming_yabs() {
    let heads = HEADLESS.lines().take(2).collect::<Vec<_>>().join("\n");
    assert!(looks_like(&heads));
    let e = parse(&heads).unwrap_err().to_string();
    assert_eq!(
        e,
        "yabs output: its fio table (`Block Size | 4k (IOPS) | 64k (IOPS)`, without the \
         `fio Disk Speed Tests` heading) holds no `Read` and `Write` rows of figures"
    );
}

#[test]
fn other_block_size_tables_are_not_taken_for_yabs() {
    let other = "Block Size | 8k (IOPS) | 128k (IOPS)\nRead | 1.00 MB/s (250) | 2.00 MB/s (16)\n";
    assert!(!looks_like(other));
}

#[test]
fn yabs_text_of_2020_names_block_sizes_4kb_to_1mb() {
    let all = parse(V2020).unwrap();
    assert_eq!(all.len(), 4);
    let ids: Vec<&str> = all.iter().filter_map(|p| p.test_id.as_deref()).collect();
    assert_eq!(
        ids,
        [
            "fio-randrw-4k-qd64-j2",
            "fio-randrw-64k-qd64-j2",
            "fio-randrw-512k-qd64-j2",
            "fio-randrw-1m-qd64-j2"
        ]
    );
    assert_eq!(param(&all[0], "yabs_version"), Value::from("v2020-02-04"));
    close(m(&all[0], "read_bw"), old_mb(69.37));
    assert_eq!(m(&all[0], "read_iops"), 17300.0);
    close(m(&all[2], "read_bw"), old_mb(133.52));
    assert_eq!(m(&all[3], "write_iops"), 147.0);
}

#[test]
fn yabs_json_of_v2022_08_15_has_an_array_per_block_size() {
    assert!(looks_like(JSON_ARRAYS));
    let all = parse(JSON_ARRAYS).unwrap();
    assert_eq!(all.len(), 4);
    // ["4k", 154305, 38576, 154712, 38678, 309017, 77254]
    assert_eq!(m(&all[0], "read_bw"), 154305.0 * 1024.0);
    assert_eq!(m(&all[0], "read_iops"), 38576.0);
    assert_eq!(m(&all[0], "write_bw"), 154712.0 * 1024.0);
    assert_eq!(m(&all[0], "write_iops"), 38678.0);
    assert_eq!(all[3].test_id.as_deref(), Some("fio-randrw-1m-qd64-j2"));
    assert_eq!(param(&all[0], "yabs_version"), Value::from("v2022-08-15"));
    let bad = JSON_ARRAYS.replacen("154305", "-1", 1);
    let e = format!("{:#}", parse(&bad).unwrap_err());
    assert_eq!(
        e,
        "yabs JSON output: fio[0][1] (speed_r) is -1: expected a number >= 0"
    );
}

#[test]
fn yabs_json_without_speed_units_is_kib_per_second() {
    let all = parse(JSON_NO_UNITS).unwrap();
    assert_eq!(all.len(), 4);
    assert_eq!(m(&all[0], "read_bw"), 165590.0 * 1024.0);
    assert_eq!(m(&all[0], "read_iops"), 41397.0);
    assert_eq!(param(&all[0], "yabs_version"), Value::from("v2022-08-17"));
}

#[test]
fn several_yabs_json_documents_are_several_runs() {
    let two = format!("{JSON_NO_UNITS}\n{JSON_ARRAYS}");
    let all = parse(&two).unwrap();
    assert_eq!(all.len(), 8);
    assert_eq!(param(&all[0], "run_in_file"), Value::from(1));
    assert_eq!(param(&all[4], "run_in_file"), Value::from(2));
    assert_eq!(param(&all[4], "yabs_version"), Value::from("v2022-08-15"));
    assert!(all[4].part.as_deref().unwrap().contains("v2022-08-15"));
    assert!(!all[4].part.as_deref().unwrap().contains("v2022-08-17"));
}

#[test]
fn many_lines_that_open_no_json_are_passed_over_in_linear_time() {
    // each line opens an object that the next one nests into, until
    // serde's depth limit: tried from every line, this is quadratic
    let deep = "{\"version\":[1,\n".repeat(100_000);
    let started = std::time::Instant::now();
    assert!(super::parse(&deep).is_none());
    assert!(!super::looks_like(&deep));
    // a string that never closes, on many lines
    let open = "{\"fio\":[{\"speed_r\":1,\"bs\":\"4k\"}],\"x\":\"aaaa\n".repeat(50_000);
    assert!(super::parse(&open).is_none());
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}
