//! Tests of the bonnie++ parser and command builder.

use super::pasted::command_chunk_size;
use super::*;

const QUIET: &str = include_str!("../../../tests/fixtures/bonnie/2.00a-quiet.csv");
const QUIET_STDERR: &str = include_str!("../../../tests/fixtures/bonnie/2.00a-quiet.stderr");
const TABLE: &str = include_str!("../../../tests/fixtures/bonnie/2.00a-table.txt");
const MIXED: &str = include_str!("../../../tests/fixtures/bonnie/2.00a-stderr-and-stdout.log");
const FILES_ONLY: &str = include_str!("../../../tests/fixtures/bonnie/2.00a-files-only.csv");
const X2: &str = include_str!("../../../tests/fixtures/bonnie/2.00a-x2-with-command.log");
const V196: &str = include_str!("../../../tests/fixtures/bonnie/1.96-rackspace-sata.csv");
const V197: &str = include_str!("../../../tests/fixtures/bonnie/1.97-fast-concurrent.csv");
const V103: &str = include_str!("../../../tests/fixtures/bonnie/1.03-ec2-m1small.txt");
const V103_FAST: &str = include_str!("../../../tests/fixtures/bonnie/1.03-fast-mode.csv");

fn one(text: &str) -> Parsed {
    let mut all = parse(text).unwrap();
    assert_eq!(all.len(), 1, "expected one result");
    all.remove(0)
}

/// `(name, value, unit)` triples as a metric map.
fn metrics(list: &[(&str, f64, &str)]) -> BTreeMap<String, Metric> {
    list.iter()
        .map(|&(n, v, u)| {
            let unit = Unit::parse(u).unwrap();
            (n.to_string(), Metric::new(v, unit))
        })
        .collect()
}

fn params(list: &[(&str, Value)]) -> BTreeMap<String, Value> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

fn value(p: &Parsed, name: &str) -> Option<f64> {
    p.metrics.get(name).map(|m| m.value)
}

#[test]
fn column_lists_match_the_field_counts() {
    assert_eq!(COLUMNS_198.split(',').count(), 50);
    assert_eq!(COLUMNS_196.split(',').count(), 48);
    assert_eq!(COLUMNS_1.split(',').count(), 27);
    // the header bonnie++ 2.00a prints with -x is the 48-column one
    assert_eq!(X2.lines().nth(1), Some(COLUMNS_196));
    assert!(V103_FAST.starts_with(COLUMNS_1));
}

#[test]
fn real_2_00a_quiet_line_gives_every_value() {
    let p = one(QUIET);
    assert_eq!(
        p.metrics,
        metrics(&[
            ("seq_char_write_bw", 1222.0 * 1024.0, "B/s"),
            ("seq_char_write_bw_cpu", 97.0, "%"),
            ("seq_char_write_bw_lat", 0.019387, "s"),
            ("seq_block_write_bw", 349_381_632.0, "B/s"),
            ("seq_block_write_bw_cpu", 87.0, "%"),
            ("seq_block_write_bw_lat", 0.002296, "s"),
            ("rewrite_bw_lat", 0.000262, "s"),
            ("seq_char_read_bw", 2_217_984.0, "B/s"),
            ("seq_char_read_bw_cpu", 99.0, "%"),
            ("seq_char_read_bw_lat", 0.004937, "s"),
            ("seq_block_read_bw_lat", 0.010216, "s"),
            ("random_seeks_lat", 0.010219, "s"),
            ("seq_create_lat", 0.000216, "s"),
            ("seq_stat_lat", 0.000072, "s"),
            ("seq_delete_lat", 0.000293, "s"),
            ("random_create_lat", 0.000898, "s"),
            ("random_stat_lat", 0.00006, "s"),
            ("random_delete_lat", 0.000095, "s"),
        ])
    );
    assert_eq!(
        p.parameters,
        params(&[
            ("csv_format", "1.98".into()),
            ("machine", "vm".into()),
            ("concurrency", 1.into()),
            ("seed", 1_796_006_990u64.into()),
            ("file_size", (512u64 << 20).into()),
            ("seek_count", 8192.into()),
            ("seek_processes", 5.into()),
            ("num_files", "1".into()),
            ("file_count", 1024.into()),
        ])
    );
    assert_eq!(p.tool_version.as_deref(), Some("2.00a"));
    assert_eq!(p.test_id.as_deref(), Some("bonnie"));
    assert_eq!(p.command, None);
}

#[test]
fn too_fast_and_not_run_are_absent_not_zero() {
    let p = one(QUIET);
    // `+++++,+++` for rewrite, block read, seeks and every file test
    for absent in [
        "rewrite_bw",
        "rewrite_bw_cpu",
        "seq_block_read_bw",
        "random_seeks",
        "random_seeks_cpu",
        "seq_create",
        "random_delete_cpu",
    ] {
        assert_eq!(value(&p, absent), None, "{absent}");
    }
    assert!(p.metrics.values().all(|m| m.value > 0.0));
}

#[test]
fn the_text_table_before_the_csv_is_skipped() {
    let p = one(TABLE);
    // the CSV's 579671 K/sec, not the table's rounded `566m`
    assert_eq!(value(&p, "seq_block_write_bw"), Some(579_671.0 * 1024.0));
    assert_eq!(value(&p, "seq_char_read_bw_cpu"), Some(81.0));
    assert_eq!(value(&p, "random_stat_lat"), Some(0.00001));
    assert_eq!(p.metrics.len(), 18);
    assert_eq!(p.tool_version.as_deref(), Some("2.00a"));
    // progress messages on stderr pasted above it too
    assert_eq!(one(MIXED), p);
}

#[test]
fn file_tests_only_with_sizes_and_directories() {
    let p = one(FILES_ONLY);
    assert_eq!(
        p.metrics,
        metrics(&[
            ("seq_create", 6849.0, "ops/s"),
            ("seq_create_cpu", 91.0, "%"),
            ("seq_create_lat", 0.00426, "s"),
            ("seq_stat_lat", 0.000372, "s"),
            ("seq_delete", 6829.0, "ops/s"),
            ("seq_delete_cpu", 23.0, "%"),
            ("seq_delete_lat", 0.229, "s"),
            ("random_create", 3602.0, "ops/s"),
            ("random_create_cpu", 82.0, "%"),
            ("random_create_lat", 0.026715, "s"),
            ("random_stat_lat", 0.00042, "s"),
            ("random_delete", 9341.0, "ops/s"),
            ("random_delete_cpu", 30.0, "%"),
            ("random_delete_lat", 0.003607, "s"),
        ])
    );
    assert_eq!(
        p.parameters,
        params(&[
            ("csv_format", "1.98".into()),
            ("machine", "vm".into()),
            ("concurrency", 1.into()),
            ("seed", 1_796_006_227u64.into()),
            // `-n 16:10000:1000:4`, as bonnie++'s table prints it
            ("num_files", "16:10000:1000/4".into()),
            ("file_count", 16384.into()),
            ("file_max_size", 10000.into()),
            ("file_min_size", 1000.into()),
            ("file_dirs", 4.into()),
        ])
    );
}

#[test]
fn command_line_and_repeated_runs() {
    let all = parse(X2).unwrap();
    assert_eq!(all.len(), 2);
    let cmd = "bonnie++ -d /tmp/x -s 512M:64k -r 256 -n 16 -m testbox -x 2 -q -u root";
    for p in &all {
        assert_eq!(p.command.as_deref(), Some(cmd));
        assert_eq!(p.parameters["machine"], "testbox");
        // 2.00a leaves the chunk column empty: the command line says 64k
        assert_eq!(p.parameters["chunk_size"], 65536);
        assert_eq!(p.parameters["directory"], "/tmp/x");
        assert_eq!(p.parameters["ram_size"], 256u64 << 20);
        assert_eq!(p.parameters["iterations"], 2);
        assert_eq!(p.parameters["file_count"], 16384);
    }
    assert_eq!(
        value(&all[0], "seq_block_write_bw"),
        Some(503_323.0 * 1024.0)
    );
    assert_eq!(
        value(&all[1], "seq_block_write_bw"),
        Some(437_676.0 * 1024.0)
    );
    assert_eq!(value(&all[0], "random_create"), Some(4281.0));
    assert_eq!(value(&all[1], "random_create"), None);
    assert_eq!(value(&all[1], "seq_create_lat"), Some(0.010746));
}

#[test]
fn format_1_96_with_published_rackspace_figures() {
    let p = one(V196);
    assert_eq!(value(&p, "seq_block_read_bw"), Some(98_284_544.0));
    assert_eq!(value(&p, "seq_block_write_bw"), Some(16564.0 * 1024.0));
    assert_eq!(value(&p, "random_seeks"), Some(473.4));
    assert_eq!(value(&p, "random_seeks_cpu"), Some(14.0));
    assert_eq!(value(&p, "seq_block_write_bw_lat"), Some(2.302));
    assert_eq!(value(&p, "seq_char_write_bw_lat"), Some(0.021486));
    assert_eq!(value(&p, "random_stat_lat"), Some(0.000016));
    assert_eq!(value(&p, "seq_create"), None);
    assert_eq!(p.metrics.len(), 12 + 12);
    assert_eq!(p.parameters["csv_format"], "1.96");
    assert_eq!(p.parameters["file_size"], 16u64 << 30);
    assert_eq!(p.parameters["num_files"], "16");
    assert!(!p.parameters.contains_key("chunk_size"));
    assert!(!p.parameters.contains_key("seek_count"));
    assert_eq!(p.tool_version.as_deref(), Some("1.96"));
}

#[test]
fn format_1_97_units_chunk_and_directories() {
    let p = one(V197);
    assert_eq!(value(&p, "seq_char_write_bw"), None);
    assert_eq!(value(&p, "seq_char_write_bw_lat"), None);
    assert_eq!(value(&p, "seq_block_write_bw_lat"), Some(2.0));
    assert_eq!(value(&p, "rewrite_bw_lat"), Some(1.43));
    assert_eq!(value(&p, "seq_block_read_bw_lat"), Some(0.005523));
    assert_eq!(value(&p, "seq_block_read_bw"), Some(612_345.0 * 1024.0));
    assert_eq!(value(&p, "random_seeks"), Some(1523.0));
    assert_eq!(value(&p, "seq_create"), Some(5523.0));
    assert_eq!(value(&p, "random_delete_lat"), Some(0.008871));
    assert_eq!(
        p.parameters,
        params(&[
            ("csv_format", "1.97".into()),
            ("machine", "web2".into()),
            ("concurrency", 2.into()),
            ("seed", 1_401_234_567u64.into()),
            ("file_size", (8u64 << 30).into()),
            ("chunk_size", 65536.into()),
            ("num_files", "16:100000:16/64".into()),
            ("file_count", 16384.into()),
            ("file_max_size", 100_000.into()),
            ("file_min_size", 16.into()),
            ("file_dirs", 64.into()),
        ])
    );
}

#[test]
fn format_1_03_with_published_ec2_figures() {
    let p = one(V103);
    assert_eq!(
        p.metrics,
        metrics(&[
            ("seq_char_write_bw", 23811.0 * 1024.0, "B/s"),
            ("seq_char_write_bw_cpu", 97.0, "%"),
            ("seq_block_write_bw", 54_525_952.0, "B/s"),
            ("seq_block_write_bw_cpu", 6.0, "%"),
            ("rewrite_bw", 24880.0 * 1024.0, "B/s"),
            ("rewrite_bw_cpu", 5.0, "%"),
            ("seq_char_read_bw", 28433.0 * 1024.0, "B/s"),
            ("seq_char_read_bw_cpu", 76.0, "%"),
            ("seq_block_read_bw", 67_108_864.0, "B/s"),
            ("seq_block_read_bw_cpu", 1.0, "%"),
            ("random_seeks", 939.8, "ops/s"),
            ("random_seeks_cpu", 1.0, "%"),
            ("seq_create", 127.0, "ops/s"),
            ("seq_create_cpu", 0.0, "%"),
            ("seq_stat", 158_584.0, "ops/s"),
            ("seq_stat_cpu", 39.0, "%"),
            ("seq_delete", 121.0, "ops/s"),
            ("seq_delete_cpu", 0.0, "%"),
            ("random_create", 174.0, "ops/s"),
            ("random_create_cpu", 0.0, "%"),
            ("random_stat", 203_851.0, "ops/s"),
            ("random_stat_cpu", 41.0, "%"),
            ("random_delete", 158.0, "ops/s"),
            ("random_delete_cpu", 0.0, "%"),
        ])
    );
    assert_eq!(
        p.parameters,
        params(&[
            ("csv_format", "1".into()),
            ("machine", "domU-12-31-39-02-5D-C1".into()),
            ("file_size", (3400u64 << 20).into()),
            ("num_files", "256".into()),
            ("file_count", 262_144.into()),
            ("directory", "/".into()),
            ("ram_size", (1700u64 << 20).into()),
            ("fsync_each_write", true.into()),
        ])
    );
    // 1.0x has no version column: the table's `Version  1.03` line says it
    assert_eq!(p.tool_version.as_deref(), Some("1.03"));
    assert_eq!(
        p.command.as_deref(),
        Some("bonnie++ -u 0 -r 1700 -s 3400 -n 256 -b -d /")
    );
}

#[test]
fn format_1_03_fast_mode_with_header_and_chunk() {
    let all = parse(V103_FAST).unwrap();
    assert_eq!(all.len(), 2);
    let p = &all[0];
    assert_eq!(p.tool_version, None);
    assert_eq!(p.parameters["file_size"], 1u64 << 30);
    assert_eq!(p.parameters["chunk_size"], 32768);
    assert_eq!(p.parameters["num_files"], "16:100000:16/64");
    assert_eq!(p.parameters["file_dirs"], 64);
    assert_eq!(p.parameters["file_max_size"], 100_000);
    assert_eq!(value(p, "seq_char_write_bw"), None);
    assert_eq!(value(p, "seq_block_write_bw"), Some(48211.0 * 1024.0));
    assert_eq!(value(p, "random_seeks"), Some(1874.6));
    assert_eq!(value(p, "seq_create"), None);
    assert_eq!(value(p, "seq_delete"), Some(23417.0));
    assert_eq!(value(&all[1], "random_create_cpu"), Some(100.0));
    assert_eq!(p.metrics.len(), 6 + 8);
}

#[test]
fn a_malformed_line_is_an_error_naming_it() {
    let short = format!("{QUIET}1.98,2.00a,vm,1\n");
    let e = format!("{:#}", parse(&short).unwrap_err());
    assert!(e.contains("line 2") && e.contains("found 4 fields"), "{e}");

    // prose around the CSV is skipped, not refused
    let prose = format!("{QUIET}\nhello, world\n");
    assert_eq!(parse(&prose).unwrap().len(), 1);

    let bad_rate = QUIET.replacen(",1222,", ",12x2,", 1);
    let e = format!("{:#}", parse(&bad_rate).unwrap_err());
    assert!(e.contains("line 1: field 10 (putc, format 1.98)"), "{e}");
    assert!(e.contains("found `12x2`"), "{e}");

    let bad_lat = QUIET.replacen("19387us", "19387xs", 1);
    let e = format!("{:#}", parse(&bad_lat).unwrap_err());
    assert!(e.contains("field 39 (putc_latency"), "{e}");

    let bad_format = QUIET.replacen("1.98,", "1.96,", 1);
    let e = format!("{:#}", parse(&bad_format).unwrap_err());
    assert!(
        e.contains("field 1 (format_version, format 1.98): expected 1.98, found `1.96`"),
        "{e}"
    );

    let bad_size = V103_FAST.replacen("1G:32k", "huge", 1);
    let e = format!("{:#}", parse(&bad_size).unwrap_err());
    assert!(e.contains("line 2: field 2 (file_size, format 1"), "{e}");
}

#[test]
fn text_without_csv_is_refused() {
    // the table 2.00a prints (on stderr with -q) is not read, and says why
    let e = format!("{:#}", parse(QUIET_STDERR).unwrap_err());
    assert_eq!(
        e,
        "a bonnie++ 2.00a text table without its CSV line: not read, as bonnie++ 2.00a \
         prints the file count where the file-test rates belong and rounds throughput \
         (`1.4g`); the CSV line bonnie++ printed after the table (`1.98,2.00a,...`) is \
         what is read"
    );
    let e = format!(
        "{:#}",
        parse("Using uid:0, gid:0.\nWriting intelligently...done\n").unwrap_err()
    );
    assert!(
        e.starts_with("no bonnie++ CSV line or text table found"),
        "{e}"
    );
    assert!(parse("").is_err());
}

#[test]
fn table_style_suffixes_are_binary() {
    // the 2.00a table prints 341193 K/sec as `333m`
    let line = QUIET.replacen(",341193,", ",333m,", 1);
    let p = one(&line);
    assert_eq!(
        value(&p, "seq_block_write_bw"),
        Some(333.0 * 1024.0 * 1024.0)
    );
}

#[test]
fn recognises_bonnie_and_nothing_else() {
    for text in [
        QUIET,
        TABLE,
        FILES_ONLY,
        X2,
        V196,
        V197,
        V103,
        V103_FAST,
        QUIET_STDERR,
    ] {
        assert!(looks_like(text));
    }
    for text in [
        include_str!("../../../tests/fixtures/bonnie/not-bonnie/dd.txt"),
        include_str!("../../../tests/fixtures/bonnie/not-bonnie/fio.json"),
        include_str!("../../../tests/fixtures/bonnie/not-bonnie/fio.txt"),
        include_str!("../../../tests/fixtures/bonnie/not-bonnie/ioping.txt"),
        "",
        "a,b,c",
    ] {
        assert!(!looks_like(text), "{text}");
    }
}

#[test]
fn command_options_attached_or_separate() {
    let cmd = "bonnie++ -d/mnt -s16g:4k -r 8192 -f -D";
    assert_eq!(command_chunk_size(cmd), Some(4096));
    let mut p = BTreeMap::new();
    command_parameters(cmd, &mut p);
    assert_eq!(
        p,
        params(&[
            ("directory", "/mnt".into()),
            ("ram_size", (8192u64 << 20).into()),
            ("file_size", (16u64 << 30).into()),
            ("chunk_size", 4096.into()),
            ("skip_char_tests", true.into()),
            ("direct_io", true.into()),
        ])
    );
    // a CSV line's sizes win over the command's
    let mut p = params(&[("file_size", 1.into()), ("num_files", "16".into())]);
    command_parameters("bonnie++ -s 3400 -n 256", &mut p);
    assert_eq!(
        p,
        params(&[("file_size", 1.into()), ("num_files", "16".into())])
    );
    assert_eq!(
        command_line("root@vm:~# /usr/sbin/bonnie++ -q"),
        Some("/usr/sbin/bonnie++ -q")
    );
    assert_eq!(command_line("Version 2.00a"), None);
}

#[test]
fn read_command_gives_id_parameters_and_command() {
    let p = read_command("# bonnie++ -u 0 -r 1700 -s 3400 -n 256 -b -d /").unwrap();
    assert_eq!(p.test_id.as_deref(), Some("bonnie"));
    assert_eq!(
        p.command.as_deref(),
        Some("bonnie++ -u 0 -r 1700 -s 3400 -n 256 -b -d /")
    );
    assert_eq!(
        p.parameters,
        params(&[
            ("directory", "/".into()),
            ("ram_size", (1700u64 << 20).into()),
            ("file_size", (3400u64 << 20).into()),
            ("num_files", "256".into()),
            ("file_count", (256 * 1024).into()),
            ("fsync_each_write", true.into()),
        ])
    );
    assert!(p.metrics.is_empty());
    let p = read_command("bonnie++ -s 16g:64k -n 16:100000:16:64").unwrap();
    // only a plain `-n N` is read: the long form's order differs from the table's
    assert_eq!(
        p.parameters,
        params(&[
            ("file_size", (16u64 << 30).into()),
            ("chunk_size", 65536.into()),
        ])
    );
    let e = read_command("bonnie -s 1g").unwrap_err().to_string();
    assert!(e.contains("expected a bonnie++ command line"), "{e}");
    // a quoted directory with a space is one argument
    let p = read_command(r#"$ bonnie++ -d "/mnt/my disk" -s 1g -f"#).unwrap();
    assert_eq!(p.parameters["directory"], "/mnt/my disk");
    assert_eq!(p.parameters["skip_char_tests"], true);
}

// ------------------------------------------ pastes: text between runs, tables

const LKML_BETWEEN: &str =
    include_str!("../../../tests/fixtures/bonnie/1.03-lkml-csv-with-text-between.txt");
const LKML_TABLES: &str =
    include_str!("../../../tests/fixtures/bonnie/1.03-lkml-tables-four-runs.txt");
const LKML_WRAPPED: &str =
    include_str!("../../../tests/fixtures/bonnie/1.03-lkml-mail-wrapped.txt");
const LKML_QUOTED: &str =
    include_str!("../../../tests/fixtures/bonnie/1.03-lkml-quoted-wrapped.txt");
const LKML_FAST: &str =
    include_str!("../../../tests/fixtures/bonnie/1.03-lkml-fast-three-kernels.txt");

#[test]
fn text_between_runs_is_skipped_and_every_csv_line_kept() {
    let all = parse(LKML_BETWEEN).unwrap();
    assert_eq!(all.len(), 2, "the two CSV lines; their tables add nothing");
    assert_eq!(value(&all[0], "seq_block_write_bw"), Some(31164.0 * 1024.0));
    assert_eq!(value(&all[1], "seq_block_write_bw"), Some(17647.0 * 1024.0));
    assert_eq!(value(&all[1], "random_seeks"), Some(156.7));
    assert_eq!(value(&all[1], "random_stat"), None, "+++++ is absent");
    for p in &all {
        assert_eq!(p.parameters.get("bonnie_output"), None);
        assert_eq!(p.parameters["machine"], Value::from("mindpipe"));
    }
}

#[test]
fn tables_without_csv_are_read() {
    let all = parse(LKML_TABLES).unwrap();
    assert_eq!(all.len(), 4);
    let block_write: Vec<f64> = all
        .iter()
        .map(|p| value(p, "seq_block_write_bw").unwrap() / 1024.0)
        .collect();
    assert_eq!(block_write, [22200.0, 17651.0, 4699.0, 2237.0]);
    let p = &all[0];
    assert_eq!(value(p, "seq_char_write_bw"), Some(15293.0 * 1024.0));
    assert_eq!(value(p, "seq_char_write_bw_cpu"), Some(74.0));
    assert_eq!(value(p, "seq_block_read_bw"), Some(38244.0 * 1024.0));
    assert_eq!(value(p, "random_seeks"), Some(100.6));
    assert_eq!(value(p, "seq_create"), Some(22330.0));
    assert_eq!(value(p, "seq_stat"), None, "+++++ is absent");
    assert_eq!(value(p, "random_delete"), Some(15523.0));
    assert_eq!(value(p, "random_delete_cpu"), Some(92.0));
    assert_eq!(p.parameters["machine"], Value::from("mb02"));
    assert_eq!(p.parameters["file_size"], Value::from(4u64 << 30));
    assert_eq!(p.parameters["bonnie_output"], Value::from("table"));
    assert_eq!(p.tool_version.as_deref(), Some("1.03"));
    assert_eq!(p.test_id.as_deref(), Some("bonnie"));
    // ext3's delete ran too fast on both runs
    assert_eq!(value(&all[2], "seq_delete"), None);
    assert_eq!(value(&all[3], "random_seeks"), Some(414.9));
}

#[test]
fn a_mail_wrapped_csv_line_is_joined_again() {
    let p = one(LKML_WRAPPED);
    // the CSV line, not the table (whose machine name is cut to 16 chars)
    assert_eq!(p.parameters["machine"], Value::from("store.datzegik.com"));
    assert_eq!(value(&p, "random_seeks"), Some(114.5));
    assert_eq!(value(&p, "random_delete"), Some(1386.0));
    assert_eq!(value(&p, "seq_block_read_bw"), Some(17228.0 * 1024.0));
}

#[test]
fn a_quoted_wrapped_table_is_read_when_its_csv_is_broken() {
    let p = one(LKML_QUOTED);
    assert_eq!(p.parameters["bonnie_output"], Value::from("table"));
    assert_eq!(p.parameters["machine"], Value::from("txiki"));
    assert_eq!(value(&p, "seq_char_write_bw"), Some(21270.0 * 1024.0));
    assert_eq!(value(&p, "random_seeks"), Some(157.0));
    assert_eq!(value(&p, "random_seeks_cpu"), Some(0.0));
    assert_eq!(value(&p, "seq_create"), Some(21675.0));
    assert_eq!(value(&p, "random_delete"), Some(13062.0));
    assert_eq!(value(&p, "random_delete_cpu"), Some(61.0));
}

#[test]
fn a_table_with_empty_cells_is_read_by_column() {
    let all = parse(LKML_FAST).unwrap();
    assert_eq!(all.len(), 3);
    let names: Vec<&Value> = all.iter().map(|p| &p.parameters["machine"]).collect();
    assert_eq!(names, ["2.4.20", "2.4.20-nas1", "2.4.20-nas2"]);
    let p = &all[1];
    assert_eq!(value(p, "seq_char_write_bw"), None, "-f: not run");
    assert_eq!(value(p, "seq_block_write_bw"), Some(35998.0 * 1024.0));
    assert_eq!(value(p, "rewrite_bw"), Some(12076.0 * 1024.0));
    assert_eq!(value(p, "seq_char_read_bw"), None);
    assert_eq!(value(p, "seq_block_read_bw"), Some(19056.0 * 1024.0));
    assert_eq!(value(p, "random_seeks"), Some(206.7));
    assert_eq!(value(p, "seq_create"), None, "no file tests in this table");
}

#[test]
fn a_bad_figure_in_a_table_or_csv_refuses_the_output_naming_it() {
    // a 1.03 table without CSV: a run with a bad cell used to vanish, the
    // other three imported
    let four = include_str!("../../../tests/fixtures/bonnie/1.03-lkml-tables-four-runs.txt");
    assert_eq!(parse(four).unwrap().len(), 4);
    for (from, to, says) in [
        (
            "mb02             4G 15293",
            "mb02             4G -15293",
            "bonnie++ table: cell 1 of the `mb02 4G` row of bonnie++'s table is \"-15293\": expected a number >= 0",
        ),
        ("   9 100.6   0", "   9 nan   0", "cell 11 of the `mb02 4G` row of bonnie++'s table is \"nan\""),
        (
            "                 16 22330 100",
            "                 16 fast 100",
            "cell 1 of the `16` row of bonnie++'s table is \"fast\"",
        ),
    ] {
        assert!(four.contains(from), "{from}");
        let err = format!("{:#}", parse(&four.replacen(from, to, 1)).unwrap_err());
        assert!(err.contains(says), "{to}: {err}");
    }
    // a row a mail client broke onto two lines
    let wrapped = include_str!("../../../tests/fixtures/bonnie/1.03-lkml-quoted-wrapped.txt");
    assert!(wrapped.contains("> 13062  61"));
    let err = format!(
        "{:#}",
        parse(&wrapped.replacen("> 13062  61", "> inf  61", 1)).unwrap_err()
    );
    assert!(
        err.contains("row of bonnie++'s table is \"inf\": expected a number >= 0"),
        "{err}"
    );
    // the CSV line names the field, its column and what it found
    let err = format!(
        "{:#}",
        parse(&QUIET.replacen(",1222,97,", ",-1222,97,", 1)).unwrap_err()
    );
    assert!(
        err.contains("field 10 (putc, format 1.98): expected K/sec as a number, `+++++` or nothing, found `-1222`"),
        "{err}"
    );
}

#[test]
fn each_machine_of_a_text_table_keeps_the_headers_and_its_own_rows() {
    let all = parse(LKML_FAST).unwrap();
    let kernels = ["2.4.20 ", "2.4.20-nas1 ", "2.4.20-nas2 "];
    assert_eq!(all.len(), 3);
    for (p, mine) in all.iter().zip(kernels) {
        let part = p.part.as_deref().unwrap();
        assert!(part.starts_with("Version  1.03"), "{part}");
        assert!(part.contains("Size K/sec %CP"), "{part}");
        let rows: Vec<&str> = part.lines().filter(|l| l.starts_with("2.4.20")).collect();
        assert_eq!(rows.len(), 1, "{part}");
        assert!(rows[0].starts_with(mine), "{part}");
        // the part alone reads back to the same figures
        let again = one(part);
        assert_eq!(again.metrics, p.metrics);
    }
    // a table of many machines: each record grows with its own rows only
    let row = LKML_FAST.lines().nth(4).unwrap();
    let mut big = LKML_FAST.lines().take(4).collect::<Vec<_>>().join("\n");
    for k in 0..500 {
        big.push('\n');
        big.push_str(&row.replacen("2.4.20      ", &format!("m{k:<11}"), 1));
    }
    big.push('\n');
    let all = parse(&big).unwrap();
    assert_eq!(all.len(), 500);
    let largest = all
        .iter()
        .map(|p| p.part.as_deref().unwrap().len())
        .max()
        .unwrap();
    assert!(largest < 600, "{largest} bytes for one machine of 500");
}

const LKML_TWO_RUNS_WRAPPED: &str =
    include_str!("../../../tests/fixtures/bonnie/1.02c-lkml-two-runs-wrapped.txt");
const LKML_CSV2TXT: &str =
    include_str!("../../../tests/fixtures/bonnie/1.02b-lkml-csv2txt-two-iterations.txt");
const LKML_SUMMARY: &str =
    include_str!("../../../tests/fixtures/bonnie/1.02b-lkml-summary-five-mounts.txt");
const LKML_SAME_MACHINE: &str =
    include_str!("../../../tests/fixtures/bonnie/1.03-lkml-two-runs-same-machine.txt");

#[test]
fn a_csv_line_wrapped_inside_a_field_is_joined_so_the_second_run_is_kept() {
    let all = parse(LKML_TWO_RUNS_WRAPPED).unwrap();
    assert_eq!(all.len(), 2);
    // Kernel 2.5.43, then Kernel 2.4.19: each run its own figures
    assert_eq!(value(&all[0], "seq_block_write_bw"), Some(7851.0 * 1024.0));
    assert_eq!(value(&all[0], "seq_delete"), Some(12866.0));
    assert_eq!(value(&all[1], "seq_block_write_bw"), Some(9733.0 * 1024.0));
    assert_eq!(value(&all[1], "random_seeks"), Some(102.1));
    assert_eq!(value(&all[1], "seq_create"), Some(280.0));
    // `+++,+` then `++++,+++`: the field broken in two is +++++, absent
    assert_eq!(value(&all[1], "seq_delete"), None);
    assert_eq!(value(&all[1], "random_delete"), Some(1047.0));
    assert_eq!(value(&all[1], "random_delete_cpu"), Some(83.0));
    let part = all[1].part.as_deref().unwrap();
    assert!(
        part.contains("+++,+\n") && part.contains("++++,+++,281"),
        "{part}"
    );
}

#[test]
fn two_runs_of_one_machine_each_keep_their_own_csv_line() {
    let all = parse(LKML_SAME_MACHINE).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(value(&all[0], "seq_block_write_bw"), Some(28554.0 * 1024.0));
    assert_eq!(value(&all[0], "random_delete"), Some(22937.0));
    assert_eq!(value(&all[1], "seq_block_write_bw"), Some(11532.0 * 1024.0));
    assert_eq!(value(&all[1], "random_delete"), Some(11587.0));
    for p in &all {
        assert_eq!(
            p.parameters.get("bonnie_output"),
            None,
            "the CSV, not the table"
        );
    }
}

#[test]
fn bon_csv2txt_file_rows_named_by_machine_give_their_file_tests() {
    let all = parse(LKML_CSV2TXT).unwrap();
    assert_eq!(all.len(), 2, "-x 2: two iterations");
    assert_eq!(value(&all[0], "seq_block_write_bw"), Some(26895.0 * 1024.0));
    assert_eq!(value(&all[0], "seq_char_write_bw"), None, "-f: not run");
    assert_eq!(value(&all[0], "seq_create"), Some(340.0));
    assert_eq!(value(&all[0], "seq_create_cpu"), Some(97.0));
    assert_eq!(value(&all[0], "seq_delete"), Some(16450.0));
    assert_eq!(value(&all[0], "random_delete"), Some(1861.0));
    assert_eq!(value(&all[1], "seq_create"), Some(267.0));
    assert_eq!(value(&all[1], "random_create"), Some(240.0));
    assert_eq!(value(&all[1], "random_delete_cpu"), Some(69.0));
    assert_eq!(all[1].parameters["num_files"], Value::from("16"));
    assert_eq!(all[1].parameters["machine"], Value::from("Gaia"));
}

#[test]
fn a_summary_table_without_the_version_word_gives_every_row() {
    assert!(looks_like(LKML_SUMMARY));
    let all = parse(LKML_SUMMARY).unwrap();
    let machines: Vec<&str> = all
        .iter()
        .map(|p| p.parameters["machine"].as_str().unwrap())
        .collect();
    assert_eq!(
        machines,
        [
            "can (v2)",
            "can (v3)",
            "can (v3+)",
            "min (v3+)",
            "tri (v3+)"
        ]
    );
    assert_eq!(all[0].tool_version.as_deref(), Some("1.02b"));
    assert_eq!(value(&all[0], "seq_char_write_bw"), Some(4054.0 * 1024.0));
    assert_eq!(value(&all[0], "random_delete"), Some(68.0));
    assert_eq!(value(&all[4], "random_seeks"), Some(351.9));
    assert_eq!(value(&all[4], "random_seeks_cpu"), Some(64.0));
    assert_eq!(value(&all[4], "seq_create"), Some(1066.0));
    assert_eq!(value(&all[4], "random_delete_cpu"), Some(32.0));
}

const OBIGSTORE_196: &str =
    include_str!("../../../tests/fixtures/bonnie/1.96-obigstore-table-only.md");

#[test]
fn a_1_96_table_without_csv_gives_rates_cpu_and_latencies() {
    let all = parse(OBIGSTORE_196).unwrap();
    assert_eq!(all.len(), 1);
    let p = &all[0];
    assert_eq!(p.tool_version.as_deref(), Some("1.96"));
    assert_eq!(p.parameters["csv_format"], Value::from("1.96"));
    assert_eq!(p.parameters["concurrency"], Value::from(1));
    assert_eq!(p.parameters["bonnie_output"], Value::from("table"));
    assert_eq!(p.parameters["machine"], Value::from("domU-12-31-39-1"));
    assert_eq!(p.parameters["file_size"], Value::from(15u64 << 30));
    assert_eq!(p.parameters["directory"], Value::from("/mnt/bonnietmp/"));
    // `domU-12-31-39-1 15G   261  98 28939   8 38231  10   790  97 100838  13 297.9  14`
    assert_eq!(value(p, "seq_char_write_bw"), Some(261.0 * 1024.0));
    assert_eq!(value(p, "seq_char_write_bw_cpu"), Some(98.0));
    assert_eq!(value(p, "seq_block_write_bw"), Some(28939.0 * 1024.0));
    assert_eq!(value(p, "seq_block_read_bw"), Some(100838.0 * 1024.0));
    assert_eq!(value(p, "random_seeks"), Some(297.9));
    // `Latency             87759us     601ms    2193ms   67826us   62013us     707ms`
    assert_eq!(value(p, "seq_char_write_bw_lat"), Some(0.087759));
    assert_eq!(value(p, "seq_block_write_bw_lat"), Some(0.601));
    assert_eq!(value(p, "rewrite_bw_lat"), Some(2.193));
    assert_eq!(value(p, "random_seeks_lat"), Some(0.707));
    // `16 24868  43 +++++ +++ ...`, then its latencies
    assert_eq!(value(p, "seq_create"), Some(24868.0));
    assert_eq!(value(p, "seq_create_cpu"), Some(43.0));
    assert_eq!(value(p, "seq_stat"), None, "+++++ is absent");
    assert_eq!(value(p, "seq_create_lat"), Some(0.014368));
    assert_eq!(value(p, "random_stat_lat"), Some(0.000011));
    assert_eq!(value(p, "random_delete_lat"), Some(0.060079));
    assert_eq!(p.metrics.len(), 26);
    let part = p.part.as_deref().unwrap();
    assert!(part.contains("Latency             14368us"), "{part}");
}

#[test]
fn a_stray_short_line_after_a_table_ends_it_and_refuses_nothing() {
    // `0 !` under the file-test row is no row (one word after its label),
    // so it ends the table; a row of figures with a bad word is refused
    let at = LKML_TABLES.rfind("\n---").unwrap();
    let text = format!("{}\n0\t!{}", &LKML_TABLES[..at], &LKML_TABLES[at..]);
    assert_eq!(parse(&text).unwrap().len(), 4);
}
