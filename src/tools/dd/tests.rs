//! Tests of the dd parser and command builder.

use super::*;

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/dd/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn one(name: &str) -> Parsed {
    let mut all = parse(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e:#}"));
    assert_eq!(all.len(), 1, "{name}");
    all.remove(0)
}

fn value(p: &Parsed, metric: &str) -> Option<f64> {
    p.metrics.get(metric).map(|m| m.value)
}

fn unit<'a>(p: &'a Parsed, metric: &str) -> &'a str {
    p.metrics.get(metric).map_or("", |m| m.unit)
}

fn param(p: &Parsed, key: &str) -> Option<Value> {
    p.parameters.get(key).cloned()
}

#[test]
fn gnu_9_1_fdatasync_write() {
    let p = one("gnu91-write-128k-fdatasync.txt");
    assert_eq!(value(&p, "bytes"), Some(134217728.0));
    assert_eq!(unit(&p, "bytes"), "B");
    assert_eq!(value(&p, "elapsed"), Some(0.300751));
    assert_eq!(unit(&p, "elapsed"), "s");
    // bytes / seconds, not the rounded "446 MB/s"
    assert_eq!(value(&p, "write_bw"), Some(134217728.0 / 0.300751));
    assert_eq!(value(&p, "write_bw").map(f64::round), Some(446_275_251.0));
    assert_eq!(unit(&p, "write_bw"), "B/s");
    assert_eq!(p.metrics.len(), 3);
    assert_eq!(p.test_id.as_deref(), Some("dd-write-128k-fdatasync"));
    assert_eq!(
        p.command.as_deref(),
        Some("dd if=/dev/zero of=test bs=128k count=1k conv=fdatasync")
    );
    assert_eq!(param(&p, "bs"), Some(Value::from(131072)));
    assert_eq!(param(&p, "count"), Some(Value::from(1024)));
    assert_eq!(param(&p, "conv"), Some(Value::from("fdatasync")));
    assert_eq!(param(&p, "if"), Some(Value::from("/dev/zero")));
    assert_eq!(param(&p, "of"), Some(Value::from("test")));
    assert_eq!(param(&p, "records_in"), Some(Value::from(1024)));
    assert_eq!(param(&p, "records_in_partial"), Some(Value::from(0)));
    assert_eq!(param(&p, "records_out"), Some(Value::from(1024)));
    assert_eq!(p.tool_version, None);
}

#[test]
fn gnu_9_1_dsync_write() {
    let p = one("gnu91-write-8k-dsync.txt");
    assert_eq!(value(&p, "write_bw"), Some(8388608.0 / 0.346904));
    assert_eq!(value(&p, "elapsed"), Some(0.346904));
    assert_eq!(p.test_id.as_deref(), Some("dd-write-8k-dsync"));
    assert_eq!(param(&p, "oflag"), Some(Value::from("dsync")));
}

#[test]
fn a_write_from_dev_zero_carries_its_caveat_and_nothing_else_does() {
    let caveat = |text: &str| {
        let p = &parse(text).unwrap()[0];
        crate::tools::judge(crate::record::Tool::Dd).caveat(&p.parameters)
    };
    // `dd if=/dev/zero of=test bs=128k count=1k oflag=dsync`
    assert_eq!(
        caveat(&fixture("coreutils6-write-128k-dsync.txt")),
        Some(ZEROS_CAVEAT)
    );
    assert!(ZEROS_CAVEAT.starts_with("dd wrote zeros from /dev/zero: storage that compresses"));
    // a read, a run without its command, a pipe: no write of zeros proven
    assert_eq!(caveat(&fixture("gnu91-read.txt")), None);
    assert_eq!(caveat(&fixture("gnu91-bare-1m-fdatasync.txt")), None);
    assert_eq!(caveat(&fixture("pipe-md5sum-x2.txt")), None);
    // what `run` writes: incompressible input, no caveat
    let mut params = Params::new();
    params.insert("bs".into(), "8k".into());
    params.insert("count".into(), 16.into());
    let ctx = crate::tools::argv::BuildCtx {
        dir: std::path::Path::new("/s/t.r1"),
        memory_bytes: None,
        is_root: false,
        test_id: "t",
        free_bytes: None,
        data_file: None,
    };
    let inv = command(&params, &ctx).unwrap();
    assert_eq!(zeros_caveat(&inv.parameters), None);
    assert!(!inv.display().contains("/dev/zero"));
}

#[test]
fn a_run_without_its_command_has_no_direction_and_is_not_judged() {
    // no command line: nothing proves a write, so no `write_bw`; the block
    // size is what the records prove (16 full records of 16 MiB)
    let p = one("gnu91-bare-1m-fdatasync.txt");
    assert_eq!(p.test_id.as_deref(), Some("dd-unknown-1m"));
    assert_eq!(p.command, None);
    assert_eq!(value(&p, "write_bw"), None);
    assert_eq!(value(&p, "read_bw"), None);
    assert_eq!(value(&p, "bw"), Some(16777216.0 / 0.0580356));
    assert_eq!(unit(&p, "bw"), "B/s");
    assert_eq!(param(&p, "records_out"), Some(Value::from(16)));
    assert_eq!(param(&p, "direction"), Some(Value::from("unknown")));
    assert_eq!(Dd.kind(&p.parameters), TestKind::Unknown);
    assert!(TestKind::Unknown.judged().is_empty());
    // only the summary line (the file cut after the command and records):
    // no block size either
    let text = fixture("gnu91-one-byte.txt");
    let last = text.lines().last().unwrap();
    let all = parse(last).unwrap();
    assert_eq!(all[0].test_id.as_deref(), Some("dd-unknown"));
    assert_eq!(value(&all[0], "bw"), Some(1.0 / 0.000144264));
    assert_eq!(Dd.kind(&all[0].parameters), TestKind::Unknown);
}

#[test]
fn gnu_version_line_and_bulk_id() {
    let p = one("gnu91-with-version.txt");
    assert_eq!(p.tool_version.as_deref(), Some("coreutils 9.1"));
    assert_eq!(p.test_id.as_deref(), Some("dd-write-bulk"));
    assert_eq!(value(&p, "write_bw"), Some(16777216.0 / 0.0481808));
}

#[test]
fn one_byte_copied() {
    let p = one("gnu91-one-byte.txt");
    assert_eq!(value(&p, "bytes"), Some(1.0));
    assert_eq!(value(&p, "elapsed"), Some(0.000144264));
    assert_eq!(value(&p, "write_bw"), Some(1.0 / 0.000144264));
    assert_eq!(p.test_id.as_deref(), Some("dd-write-1"));
}

#[test]
fn progress_updates_are_not_the_summary() {
    let p = one("gnu91-progress.txt");
    assert_eq!(value(&p, "bytes"), Some(50331648.0));
    assert_eq!(value(&p, "elapsed"), Some(2.58355));
    assert_eq!(value(&p, "write_bw"), Some(50331648.0 / 2.58355));
    assert_eq!(p.test_id.as_deref(), Some("dd-write-4k-dsync"));
    assert_eq!(param(&p, "count"), Some(Value::from(12288)));
}

#[test]
fn only_progress_is_an_error() {
    let e = parse(&fixture("progress-interrupted.txt")).unwrap_err();
    assert!(e.to_string().contains("status=progress"), "{e}");
}

#[test]
fn read_to_dev_null_gives_read_bw() {
    let p = one("gnu91-read.txt");
    assert_eq!(value(&p, "read_bw"), Some(50331648.0 / 0.00934708));
    assert_eq!(value(&p, "write_bw"), None);
    assert_eq!(p.test_id.as_deref(), Some("dd-read-1m"));
}

#[test]
fn partial_records_and_exponent_seconds() {
    let p = one("gnu91-read-partial.txt");
    assert_eq!(param(&p, "records_in"), Some(Value::from(0)));
    assert_eq!(param(&p, "records_in_partial"), Some(Value::from(1)));
    assert_eq!(param(&p, "records_out_partial"), Some(Value::from(1)));
    assert_eq!(value(&p, "elapsed"), Some(3.0996e-05));
    assert_eq!(value(&p, "read_bw"), Some(3000.0 / 3.0996e-05));
}

#[test]
fn coreutils_5_seconds_word() {
    let p = one("coreutils5-bulk.txt");
    assert_eq!(value(&p, "bytes"), Some(9437184000.0));
    assert_eq!(value(&p, "elapsed"), Some(34.6279));
    assert_eq!(value(&p, "write_bw"), Some(9437184000.0 / 34.6279));
    assert_eq!(value(&p, "write_bw").map(f64::round), Some(272_531_225.0));
    assert_eq!(p.test_id.as_deref(), Some("dd-write-bulk"));
    assert_eq!(param(&p, "count"), Some(Value::from(9000)));
}

#[test]
fn coreutils_6_to_8_24_one_size() {
    let p = one("coreutils6-write-128k-dsync.txt");
    assert_eq!(value(&p, "elapsed"), Some(0.25));
    assert_eq!(value(&p, "write_bw"), Some(536870912.0));
    assert_eq!(p.test_id.as_deref(), Some("dd-write-128k-dsync"));
    assert_eq!(
        p.command.as_deref(),
        Some("dd if=/dev/zero of=test bs=128k count=1k oflag=dsync")
    );
}

#[test]
fn g_format_exponent() {
    let p = one("coreutils8-exponent.txt");
    assert_eq!(value(&p, "elapsed"), Some(2.4e-05));
    assert_eq!(value(&p, "write_bw"), Some(512.0 / 2.4e-05));
    assert_eq!(p.test_id.as_deref(), Some("dd-write-512"));
}

#[test]
fn infinity_rate_gives_only_bytes() {
    let p = one("coreutils8-infinity.txt");
    assert_eq!(value(&p, "bytes"), Some(512.0));
    assert_eq!(p.metrics.len(), 1);
}

#[test]
fn zero_bytes_gives_no_bandwidth() {
    let p = parse("0 bytes copied, 4.3685e-05 s, 0.0 kB/s\n")
        .unwrap()
        .remove(0);
    assert_eq!(value(&p, "bytes"), Some(0.0));
    assert_eq!(value(&p, "elapsed"), Some(4.3685e-05));
    assert_eq!(value(&p, "write_bw"), None);
}

#[test]
fn busybox_form() {
    let p = one("busybox.txt");
    assert_eq!(value(&p, "elapsed"), Some(0.123456));
    assert_eq!(value(&p, "write_bw"), Some(134217728.0 / 0.123456));
    assert_eq!(p.test_id.as_deref(), Some("dd-write-8m-fsync"));
}

#[test]
fn busybox_version_line() {
    let text = format!(
        "BusyBox v1.36.1 (2023-07-27 17:12:24 UTC) multi-call binary.\n{}",
        fixture("busybox.txt")
    );
    let p = parse(&text).unwrap().remove(0);
    assert_eq!(p.tool_version.as_deref(), Some("busybox 1.36.1"));
    assert_eq!(
        version_line("dd (GNU coreutils) 8.32").as_deref(),
        Some("coreutils 8.32")
    );
}

#[test]
fn several_runs_give_several_results() {
    let all = parse(&fixture("two-runs.txt")).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].test_id.as_deref(), Some("dd-write-8k-fdatasync"));
    assert_eq!(value(&all[0], "write_bw"), Some(268435456.0));
    assert_eq!(param(&all[0], "records_out"), Some(Value::from(16384)));
    assert_eq!(all[1].test_id.as_deref(), Some("dd-read-1m-direct"));
    assert_eq!(value(&all[1], "read_bw"), Some(1073741824.0));
    assert_eq!(param(&all[1], "records_out"), Some(Value::from(128)));
}

#[test]
fn other_languages_are_refused_with_lc_all_c() {
    for name in [
        "locale-de.txt",
        "locale-fr.txt",
        "decimal-comma-english.txt",
    ] {
        let e = parse(&fixture(name)).unwrap_err().to_string();
        assert!(e.contains("LC_ALL=C"), "{name}: {e}");
        assert!(looks_like(&fixture(name)), "{name}");
    }
    // "1,5 s" must never become 1 or 15 seconds
    let e = parse("1 byte copied, 1,5 s, 0,7 B/s")
        .unwrap_err()
        .to_string();
    assert!(e.contains("LC_ALL=C"), "{e}");
}

#[test]
fn garbage_is_an_error_naming_the_summary() {
    let e = parse("hello\nworld\n").unwrap_err().to_string();
    assert!(e.contains("copied"), "{e}");
    assert!(parse("").is_err());
}

#[test]
fn looks_like_dd_only() {
    assert!(looks_like(&fixture("gnu91-write-8k-dsync.txt")));
    assert!(looks_like(&fixture("busybox.txt")));
    assert!(!looks_like(FIO_TEXT));
    assert!(!looks_like(FIO_JSON));
    assert!(!looks_like(BONNIE_CSV));
    assert!(!looks_like(IOPING_TEXT));
}

#[test]
fn sizes_read_as_dd_reads_them() {
    assert_eq!(parse_size("8k"), Some(8192));
    assert_eq!(parse_size("8K"), Some(8192));
    assert_eq!(parse_size("16k"), Some(16384));
    assert_eq!(parse_size("1M"), Some(1048576));
    assert_eq!(parse_size("1MiB"), Some(1048576));
    assert_eq!(parse_size("1m"), Some(1048576));
    assert_eq!(parse_size("1kB"), Some(1000));
    assert_eq!(parse_size("2MB"), Some(2_000_000));
    assert_eq!(parse_size("1G"), Some(1 << 30));
    assert_eq!(parse_size("1GB"), Some(1_000_000_000));
    assert_eq!(parse_size("3b"), Some(1536));
    assert_eq!(parse_size("3w"), Some(6));
    assert_eq!(parse_size("10c"), Some(10));
    assert_eq!(parse_size("2x512"), Some(1024));
    assert_eq!(parse_size("512"), Some(512));
    assert_eq!(parse_size("1E"), Some(1 << 60));
    assert_eq!(parse_size("16E"), None);
    assert_eq!(parse_size("1Q"), None);
    assert_eq!(parse_size("k"), None);
    assert_eq!(parse_size(""), None);
    assert_eq!(parse_size("1.5M"), None);
}

#[test]
fn ids_follow_the_runner_rule() {
    use Direction::{Read, Write};
    let m = 1048576;
    assert_eq!(test_id(Write, m, "fdatasync", "", ""), "dd-write-bulk");
    assert_eq!(test_id(Write, m, "", "", ""), "dd-write-1m");
    assert_eq!(
        test_id(Write, m, "fdatasync", "direct", ""),
        "dd-write-1m-fdatasync-direct"
    );
    assert_eq!(
        test_id(Write, m, "notrunc,fdatasync", "", ""),
        "dd-write-bulk"
    );
    assert_eq!(
        test_id(Write, 131072, "fdatasync", "", ""),
        "dd-write-128k-fdatasync"
    );
    assert_eq!(
        test_id(Write, 8192, "fdatasync", "", ""),
        "dd-write-8k-fdatasync"
    );
    assert_eq!(
        test_id(Write, 131072, "", "dsync", ""),
        "dd-write-128k-dsync"
    );
    assert_eq!(test_id(Write, 8192, "", "dsync", ""), "dd-write-8k-dsync");
    assert_eq!(test_id(Write, 4096, "", "sync", ""), "dd-write-4k-sync");
    assert_eq!(
        test_id(Write, 4096, "fsync", "direct,dsync", ""),
        "dd-write-4k-fsync-dsync-direct"
    );
    assert_eq!(test_id(Read, m, "", "", ""), "dd-read-1m");
    assert_eq!(test_id(Read, m, "", "", "direct"), "dd-read-1m-direct");
}

#[test]
fn command_lines_with_prompts_sudo_and_env() {
    let c = command_line("root@host:/mnt# sudo LC_ALL=C /bin/dd if=/dev/zero of=x bs=1M").unwrap();
    assert_eq!(c.text, "/bin/dd if=/dev/zero of=x bs=1M");
    assert_eq!(c.operands.get("bs").map(String::as_str), Some("1M"));
    assert_eq!(command_line("dd (coreutils) 9.1"), None);
    assert_eq!(command_line("$ dd --version"), None);
    let p = parse("dd of=x if=/dev/zero\n1 byte copied, 0.5 s, 2 B/s\n")
        .unwrap()
        .remove(0);
    // no bs: dd's default of 512 bytes
    assert_eq!(p.test_id.as_deref(), Some("dd-write-512"));
}

const FIO_TEXT: &str = "randread: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=64\nfio-3.33\nStarting 1 process\n\nrandread: (groupid=0, jobs=1): err= 0: pid=1: Mon Nov 30 00:00:00 2026\n  read: IOPS=26.2k, BW=102MiB/s (107MB/s)(512MiB/5001msec)\n    clat (usec): min=38, max=2600, avg=68.87, stdev=35.60\n\nRun status group 0 (all jobs):\n   READ: bw=102MiB/s (107MB/s), 102MiB/s-102MiB/s (107MB/s-107MB/s), io=512MiB (537MB), run=5001-5001msec\n";
const FIO_JSON: &str = "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [ { \"jobname\" : \"randread\", \"read\" : { \"io_bytes\" : 536870912, \"bw\" : 104857, \"iops\" : 26214.4 } } ]\n}\n";
// bonnie++ 2.00a `-s 0 -n 1 -q`, captured on the development machine
const BONNIE_CSV: &str = "1.98,2.00a,vm,1,1795985127,,,,,,,,,,,,,,,,,1,,,,,1353,35,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,,,,,,5038us,59us,4055us,8230us,13us,4055us\n";
const IOPING_TEXT: &str = "--- /tmp (ext4 /dev/vda 252.0 GiB) ioping statistics ---\n4 requests completed in 4.14 ms, 16 KiB read, 966 iops, 3.78 MiB/s\ngenerated 5 requests in 4.00 s, 20 KiB, 1 iops, 5.00 KiB/s\nmin/avg/max/mdev = 538.9 us / 1.03 ms / 1.68 ms / 488.1 us\n";

#[test]
fn read_command_gives_id_parameters_and_command() {
    let p = read_command("$ dd if=/dev/zero of=test bs=8k count=16k oflag=dsync").unwrap();
    assert_eq!(p.test_id.as_deref(), Some("dd-write-8k-dsync"));
    assert_eq!(
        p.command.as_deref(),
        Some("dd if=/dev/zero of=test bs=8k count=16k oflag=dsync")
    );
    let expected: BTreeMap<String, Value> = [
        ("bs", Value::from(8192)),
        ("count", Value::from(16384)),
        ("if", Value::from("/dev/zero")),
        ("of", Value::from("test")),
        ("oflag", Value::from("dsync")),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(p.parameters, expected);
    assert!(p.metrics.is_empty());
    let read = read_command("dd if=big of=/dev/null bs=1M iflag=direct").unwrap();
    assert_eq!(read.test_id.as_deref(), Some("dd-read-1m-direct"));
    assert_eq!(
        read_command("dd if=/dev/zero of=f bs=1M conv=fdatasync")
            .unwrap()
            .test_id
            .as_deref(),
        Some("dd-write-bulk")
    );
}

#[test]
fn read_command_is_what_parse_takes_from_a_pasted_line() {
    let line = "dd if=/dev/zero of=test bs=128k count=1k conv=fdatasync";
    let text = format!(
        "{line}\n1024+0 records in\n1024+0 records out\n\
         134217728 bytes (134 MB, 128 MiB) copied, 0.300751 s, 446 MB/s\n"
    );
    let parsed = parse(&text).unwrap().remove(0);
    let read = read_command(line).unwrap();
    assert_eq!(read.test_id, parsed.test_id);
    assert_eq!(read.command, parsed.command);
    for (k, v) in &read.parameters {
        assert_eq!(parsed.parameters.get(k), Some(v), "{k}");
    }
}

#[test]
fn read_command_refuses_what_names_no_test() {
    let e = read_command("ls -l").unwrap_err().to_string();
    assert!(e.contains("expected a dd command line"), "{e}");
    let e = read_command("dd if=/dev/zero of=f bs=huge")
        .unwrap_err()
        .to_string();
    assert!(e.contains("expected a block size"), "{e}");
}

#[test]
fn every_run_of_a_loop_gets_the_command_and_the_test_id() {
    let runs = parse(&fixture("gnu91-loop-x3.txt")).unwrap();
    assert_eq!(runs.len(), 3);
    for (p, s) in runs.iter().zip([0.0712552, 0.0544508, 0.0565215]) {
        assert_eq!(p.test_id.as_deref(), Some("dd-write-64k-fdatasync"));
        assert_eq!(
            p.command.as_deref(),
            Some("dd if=/dev/zero of=test bs=64k count=1k conv=fdatasync")
        );
        assert_eq!(param(p, "conv"), Some(Value::from("fdatasync")));
        assert_eq!(param(p, "records_out"), Some(Value::from(1024)));
        assert_eq!(value(p, "write_bw"), Some(67108864.0 / s));
    }
    // `;done` with no space, no comment
    let runs = parse(&fixture("gnu91-loop-nospace.txt")).unwrap();
    assert_eq!(runs.len(), 2);
    for p in &runs {
        assert_eq!(p.test_id.as_deref(), Some("dd-write-4k-dsync"));
        assert_eq!(
            p.command.as_deref(),
            Some("dd if=/dev/zero of=test bs=4k count=2k oflag=dsync")
        );
        assert_eq!(param(p, "oflag"), Some(Value::from("dsync")));
    }
    assert_eq!(value(&runs[1], "elapsed"), Some(0.591917));
}

#[test]
fn shell_around_the_command_is_not_stored() {
    let r =
        read_command("dd if=/dev/zero of=f bs=1M count=64 conv=fdatasync 2>&1 | tail -1").unwrap();
    assert_eq!(
        r.command.as_deref(),
        Some("dd if=/dev/zero of=f bs=1M count=64 conv=fdatasync 2>&1")
    );
    assert_eq!(r.test_id.as_deref(), Some("dd-write-bulk"));
    let r = read_command("dd if=/dev/zero of='a;b' bs=8k && sync").unwrap();
    assert_eq!(r.command.as_deref(), Some("dd if=/dev/zero of='a;b' bs=8k"));
}

#[test]
fn a_progress_update_pasted_from_a_terminal_is_not_a_record() {
    let p = one("gnu91-progress-pasted.txt");
    assert_eq!(value(&p, "bytes"), Some(41943040.0));
    assert_eq!(value(&p, "elapsed"), Some(3.00978));
    assert_eq!(value(&p, "write_bw"), Some(41943040.0 / 3.00978));
    assert_eq!(p.test_id.as_deref(), Some("dd-write-4k-dsync"));
}

#[test]
fn a_bare_summary_before_another_full_run_is_kept() {
    // `dd ... 2>&1 | tail -1` then a full run: the first line is no progress
    // of the second (it copied more bytes than the second's summary)
    let text = format!(
        "134217728 bytes (134 MB, 128 MiB) copied, 0.300751 s, 446 MB/s\n{}",
        fixture("gnu91-write-8k-dsync.txt")
    );
    let runs = parse(&text).unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(value(&runs[0], "bytes"), Some(134217728.0));
    assert_eq!(value(&runs[1], "bytes"), Some(8388608.0));
}

#[test]
fn of_dev_zero_is_a_read_sink() {
    let p = one("gnu91-read-dev-zero.txt");
    assert_eq!(p.test_id.as_deref(), Some("dd-read-1m"));
    assert_eq!(value(&p, "read_bw"), Some(8388608.0 / 0.00266076));
    assert_eq!(value(&p, "write_bw"), None);
}

#[test]
fn a_bad_time_or_byte_count_refuses_the_output_naming_it() {
    let text = fixture("gnu91-read.txt");
    for (from, to, says) in [
        (
            "0.00934708 s",
            "-0.00934708 s",
            "dd output: the time of dd's summary line is -0.00934708: expected a number >= 0",
        ),
        (
            "0.00934708 s",
            "nan s",
            "the time of dd's summary line is \"nan\": expected a number >= 0",
        ),
        (
            "0.00934708 s",
            "-inf s",
            "the time of dd's summary line is \"-inf\"",
        ),
        (
            "50331648 bytes",
            "99999999999999999999999 bytes",
            "the byte count of dd's summary line is \"99999999999999999999999\"",
        ),
        (
            "50331648 bytes",
            "fast bytes",
            "the byte count of dd's summary line is \"fast\": expected a number >= 0",
        ),
        (
            "50331648 bytes",
            "-50331648 bytes",
            "the byte count of dd's summary line is \"-50331648\"",
        ),
        (
            "48+0 records in",
            "-48+0 records in",
            "the full-block count of dd's `records in` line is \"-48\": expected a number >= 0",
        ),
    ] {
        assert!(text.contains(from), "{from}");
        let err = format!("{:#}", parse(&text.replacen(from, to, 1)).unwrap_err());
        assert!(err.contains(says), "{to}: {err}");
    }
}

#[test]
fn dd_into_a_pipe_is_not_a_storage_write() {
    // two real runs of `dd if=/dev/zero bs=1M count=1024 | md5sum`: a CPU
    // figure (469 and 209 MB/s), never `write_bw`
    let all = parse(&fixture("pipe-md5sum-x2.txt")).unwrap();
    assert_eq!(all.len(), 2);
    for (p, seconds) in all.iter().zip([2.28735, 5.14561]) {
        assert_eq!(p.test_id.as_deref(), Some("dd-pipe-1m"));
        assert_eq!(
            p.command.as_deref(),
            Some("dd if=/dev/zero bs=1M count=1024")
        );
        assert_eq!(value(p, "write_bw"), None);
        assert_eq!(value(p, "bw"), Some(1073741824.0 / seconds));
        assert_eq!(param(p, "direction"), Some(Value::from("pipe")));
        assert_eq!(Dd.kind(&p.parameters), TestKind::Unknown);
    }
}

#[test]
fn the_direction_is_only_what_the_command_proves() {
    // commands as people paste them (each seen above real dd output)
    let cases = [
        // into a pipe, from a pipe
        (
            "dd if=/dev/zero bs=1M count=1024 | md5sum",
            "dd-pipe-1m",
            Some("pipe"),
        ),
        (
            "dd if=/dev/sda1 | bzip2 -9f >/srv/boot2.img.bz2",
            "dd-pipe-512",
            Some("pipe"),
        ),
        (
            "dd if=/dev/urandom of=/dev/stdout bs=1K count=10 | base64 > rootfs/file1",
            "dd-pipe-1k",
            Some("pipe"),
        ),
        (
            "pv debian-10.8.0-amd64-netinst.iso | sudo dd of=/dev/sdb",
            "dd-pipe-512",
            Some("pipe"),
        ),
        // no storage at all, or the terminal
        (
            "dd if=/dev/zero of=/dev/null",
            "dd-unknown-512",
            Some("unknown"),
        ),
        (
            "dd if=/dev/urandom of=/dev/null bs=1M count=100",
            "dd-unknown-1m",
            Some("unknown"),
        ),
        (
            "dd if=/dev/zero bs=1M count=10",
            "dd-unknown-1m",
            Some("unknown"),
        ),
        // proven: a file into /dev/null reads; into a file (`of=` or `>`) writes
        (
            "dd if=tempfile of=/dev/null bs=1M count=1024",
            "dd-read-1m",
            None,
        ),
        (
            "dd if=hello-hackerlab.crx bs=1 skip=593 > hello-hackerlab.zip",
            "dd-write-1",
            None,
        ),
        (
            "dd if=/dev/zero of=./prueba.dat bs=8k count=128k",
            "dd-write-8k",
            None,
        ),
        // a pipe of dd's messages only (`2>&1 |`) with an `of=` is a write
        (
            "dd if=/dev/zero of=test bs=64k count=16k conv=fdatasync 2>&1 | tail -1",
            "dd-write-64k-fdatasync",
            None,
        ),
    ];
    for (line, id, direction) in cases {
        let p = read_command(line).unwrap_or_else(|e| panic!("{line}: {e:#}"));
        assert_eq!(p.test_id.as_deref(), Some(id), "{line}");
        assert_eq!(param(&p, "direction"), direction.map(Value::from), "{line}");
        let kind = if direction.is_some() {
            TestKind::Unknown
        } else {
            TestKind::Throughput
        };
        assert_eq!(Dd.kind(&p.parameters), kind, "{line}");
    }
}

#[test]
fn output_in_every_translated_form_found_gets_the_lc_all_c_hint() {
    // Spanish (coreutils 6 to 8.24): `bytes ... copiados`, decimal commas
    let e = parse(&fixture("locale-es-copiados.txt"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("LC_ALL=C"), "{e}");
    assert!(e.contains("copiados, 16,5603 s"), "{e}");
    assert!(looks_like(&fixture("locale-es-copiados.txt")));
    // lines of real dd output in other languages found in public
    // repositories (see tests/fixtures/dd/README.md)
    let translated = [
        // zh_CN, coreutils before 8.25 and after
        "记录了4096+0 的读入\n记录了4096+0 的写出\n4294967296字节(4.3 GB)已复制，15.7479 秒，273 MB/秒\n",
        "记录了128+0 的读入\n记录了128+0 的写出\n134217728字节（134 MB，128 MiB）已复制，0.0971222 s，1.4 GB/s\n",
        // ja
        "512+0 レコード入力\n512+0 レコード出力\n536870912 バイト (537 MB) コピーされました、 5.02762 秒、 107 MB/秒\n",
        // ru, both orders
        "2048+0 записей получено\n2048+0 записей отправлено\n скопировано 2147483648 байт (2,1 GB), 4,17328 c, 515 MB/c\n",
        "1+0 записей получено\n1+0 записей отправлено\n512 байт скопировано, 0,0202791 s, 25,2 kB/s\n",
        // pt_BR
        "1024+0 registros de entrada\n1024+0 registros de saída\n1073741824 bytes (1,1 GB) copiados, 9,82436 s, 109 MB/s\n",
        // fr
        "8+0 enregistrements lus\n8+0 enregistrements écrits\n8589934592 octets (8,6 GB, 8,0 GiB) copiés, 125,493 s, 68,4 MB/s\n",
        // the records lines alone (a summary cut off) still name the locale
        "记录了10000+0 的读入\n记录了10000+0 的写出\n",
    ];
    for text in translated {
        let e = parse(text).unwrap_err().to_string();
        assert!(e.contains("LC_ALL=C"), "{text}: {e}");
        assert!(looks_like(text), "{text}");
        assert_eq!(crate::tools::detect(text), Some(Tool::Dd), "{text}");
    }
}

#[test]
fn translated_records_lines_above_a_c_summary_leave_it_readable() {
    // a system translating the records lines but not the summary
    // (Japanese and Chinese pastes): the summary is read, the records not
    for (text, bytes, seconds) in [
        (
            "$ dd if=/dev/zero of=/tmp/tempfile bs=1M count=1024 conv=fdatasync\n1024+0 レコード入力\n1024+0 レコード出力\n1073741824 bytes (1.1 GB, 1.0 GiB) copied, 5.1437 s, 209 MB/s\n",
            1073741824.0,
            5.1437,
        ),
        (
            "dd if=/dev/zero of=bin/ucore.img count=10000\n记录了10000+0 的读入\n记录了10000+0 的写出\n5120000 bytes (5.1 MB, 4.9 MiB) copied, 0.0416907 s, 123 MB/s\n",
            5120000.0,
            0.0416907,
        ),
    ] {
        let all = parse(text).unwrap_or_else(|e| panic!("{text}: {e:#}"));
        assert_eq!(all.len(), 1);
        assert_eq!(value(&all[0], "write_bw"), Some(bytes / seconds));
        assert_eq!(param(&all[0], "records_out"), None);
    }
}

fn script_fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/benchsh/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn bench_sh_runs_get_the_dd_command_of_their_version() {
    // up to 2021: bs=64k count=16k, `Average I/O speed`
    let all = parse(&script_fixture("teddysun-2021-rpi.txt")).unwrap();
    assert_eq!(all.len(), 3);
    for (k, (p, rate)) in all.iter().zip([12.4e6, 11.8e6, 11.0e6]).enumerate() {
        assert_eq!(p.test_id.as_deref(), Some("dd-write-64k-fdatasync"));
        assert_eq!(value(p, "write_bw"), Some(rate));
        assert_eq!(p.metrics.len(), 1);
        assert_eq!(param(p, "runner"), Some(Value::from("bench.sh")));
        assert_eq!(param(p, "run_in_file"), Some(Value::from(k + 1)));
        assert_eq!(param(p, "bs"), Some(Value::from(65536)));
        assert_eq!(param(p, "count"), Some(Value::from(16384)));
        assert_eq!(
            p.command.as_deref(),
            Some("dd if=/dev/zero of=test_$$ bs=64k count=16k conv=fdatasync")
        );
        assert_eq!(Dd.kind(&p.parameters), TestKind::Throughput);
    }
    // from v2022-01-01: bs=512k count=2048, `I/O Speed(average)`
    let all = parse(&script_fixture("teddysun-v2022-06-01.txt")).unwrap();
    assert_eq!(all.len(), 3);
    for (p, rate) in all.iter().zip([510e6, 523e6, 583e6]) {
        assert_eq!(p.test_id.as_deref(), Some("dd-write-512k-fdatasync"));
        assert_eq!(value(p, "write_bw"), Some(rate));
        assert_eq!(param(p, "count"), Some(Value::from(2048)));
        assert_eq!(param(p, "runner_version"), Some(Value::from("v2022-06-01")));
    }
    assert_eq!(
        all[1].part.as_deref(),
        Some(" I/O Speed(2nd run) : 523 MB/s\n")
    );
    // the runs without the average line: which command ran is not known
    let cut: String = script_fixture("teddysun-v2022-06-01.txt")
        .lines()
        .filter(|l| !l.contains("(average)"))
        .map(|l| format!("{l}\n"))
        .collect();
    let e = parse(&cut).unwrap_err().to_string();
    assert!(
        e.contains("bs=64k") && e.contains("bs=512k") && e.contains("average"),
        "{e}"
    );
}

#[test]
fn the_older_one_run_bench_sh_is_read_run_by_run() {
    // two reports of the freevps.us-style bench.sh in one README: one run each
    let all = parse(&script_fixture("freevps-style-cloudatcost-x2.txt")).unwrap();
    assert_eq!(all.len(), 2);
    for (k, (p, rate)) in all.iter().zip([31.4e6, 41.9e6]).enumerate() {
        assert_eq!(p.test_id.as_deref(), Some("dd-write-64k-fdatasync"));
        assert_eq!(value(p, "write_bw"), Some(rate));
        assert_eq!(param(p, "runner"), Some(Value::from("bench.sh")));
        assert_eq!(param(p, "run_in_file"), Some(Value::from(k + 1)));
    }
}

#[test]
fn yabs_dd_rows_prove_write_and_read() {
    // yabs v2020-01-08 (and its dd fallback since): a Write and a Read row
    let text = script_fixture("yabs-v2020-01-08-dd.txt");
    assert_eq!(crate::tools::detect(&text), Some(Tool::Dd));
    let all = parse(&text).unwrap();
    assert_eq!(all.len(), 6);
    for (k, p) in all.iter().enumerate() {
        assert_eq!(param(p, "runner"), Some(Value::from("yabs")));
        assert_eq!(param(p, "runner_version"), Some(Value::from("v2020-01-08")));
        assert_eq!(param(p, "run_in_file"), Some(Value::from(k + 1)));
        assert_eq!(Dd.kind(&p.parameters), TestKind::Throughput);
    }
    for (p, rate) in all[..3].iter().zip([291e6, 286e6, 281e6]) {
        assert_eq!(p.test_id.as_deref(), Some("dd-write-64k-direct"));
        assert_eq!(value(p, "write_bw"), Some(rate));
        assert_eq!(value(p, "read_bw"), None);
    }
    for (p, rate) in all[3..].iter().zip([179e6, 188e6, 179e6]) {
        assert_eq!(p.test_id.as_deref(), Some("dd-read-8k"));
        assert_eq!(value(p, "read_bw"), Some(rate));
        assert_eq!(value(p, "write_bw"), None);
        assert_eq!(param(p, "bs"), Some(Value::from(8192)));
    }
}

#[test]
fn nench_dd_runs_are_read_and_the_file_is_dd_not_ioping() {
    for (name, rates) in [
        ("nench-hetzner-2021.txt", [894.55, 907.90, 899.31]),
        ("nench-hostvds-2020.txt", [399.59, 370.03, 382.42]),
    ] {
        let text = script_fixture(name);
        assert_eq!(crate::tools::detect(&text), Some(Tool::Dd), "{name}");
        let all = parse(&text).unwrap();
        assert_eq!(all.len(), 3, "{name}");
        for (k, (p, mib)) in all.iter().zip(rates).enumerate() {
            assert_eq!(p.test_id.as_deref(), Some("dd-write-64k-fdatasync"));
            assert_eq!(value(p, "write_bw"), Some(mib * 1048576.0), "{name}");
            assert_eq!(param(p, "runner"), Some(Value::from("nench")));
            assert_eq!(param(p, "runner_version"), Some(Value::from("v2019.07.20")));
            assert_eq!(param(p, "run_in_file"), Some(Value::from(k + 1)));
        }
    }
}

#[test]
fn iobench_headings_prove_each_runs_direction() {
    let text = script_fixture("iobench-readme-16g.txt");
    let all = parse(&text).unwrap();
    let ids: Vec<&str> = all.iter().filter_map(|p| p.test_id.as_deref()).collect();
    assert_eq!(
        ids,
        [
            "dd-write-bulk",
            "dd-write-1m",
            "dd-read-1m",
            "dd-read-1m-cached",
            "dd-read-1m-cached",
            "dd-read-1m-cached",
            "dd-read-1m-cached",
            "dd-read-1m-cached",
        ]
    );
    let bytes = 17179869184.0;
    assert_eq!(value(&all[0], "write_bw"), Some(bytes / 4.89196));
    assert_eq!(value(&all[2], "read_bw"), Some(bytes / 1.44579));
    assert_eq!(value(&all[2], "write_bw"), None);
    assert_eq!(param(&all[2], "cache"), Some(Value::from("dropped")));
    assert_eq!(Dd.kind(&all[2].parameters), TestKind::Throughput);
    // five reads from the page cache: shown, never judged as storage
    assert_eq!(value(&all[7], "read_bw"), Some(bytes / 1.35658));
    assert_eq!(param(&all[7], "run_in_file"), Some(Value::from(8)));
    assert_eq!(Dd.kind(&all[7].parameters), TestKind::PageCache);
    assert_eq!(param(&all[0], "count"), Some(Value::from(16384)));
}

#[test]
fn a_run_of_its_own_command_is_a_write_as_before() {
    // `run` reads dd's stderr, which holds no command line: the command it
    // ran proves the write
    let invocation = Invocation {
        program: "dd".into(),
        args: [
            "if=/dev/zero",
            "of=/s/dd.dat",
            "bs=1M",
            "count=16",
            "conv=fdatasync",
        ]
        .map(String::from)
        .to_vec(),
        env: vec![("LC_ALL".into(), "C".into())],
        output: crate::tools::argv::OutputFrom::Stderr,
        bytes: 16 << 20,
        estimate_s: 1.0,
        parameters: Params::new(),
        stdin: None,
    };
    let all = parse_run(&invocation, &fixture("gnu91-bare-1m-fdatasync.txt")).unwrap();
    assert_eq!(all.len(), 1);
    let p = &all[0];
    assert_eq!(value(p, "write_bw"), Some(16777216.0 / 0.0580356));
    assert_eq!(value(p, "bw"), None);
    assert_eq!(p.test_id, None);
    assert_eq!(param(p, "direction"), None);
    assert_eq!(param(p, "records_out"), Some(Value::from(16)));
    assert_eq!(Dd.kind(&p.parameters), TestKind::Throughput);
}

#[test]
fn a_summary_wrapped_after_copied_is_read_not_dropped() {
    // a page that wrapped dd's summary line after `copied,`
    let p = one("pipe-md5sum-wrapped.txt");
    assert_eq!(p.test_id.as_deref(), Some("dd-pipe-1m"));
    assert_eq!(value(&p, "bw"), Some(1073741824.0 / 2.28735));
    assert_eq!(value(&p, "elapsed"), Some(2.28735));
    assert_eq!(param(&p, "records_out"), Some(Value::from(1024)));
}

#[test]
fn each_run_of_a_file_of_several_says_its_position() {
    let all = parse(&fixture("gnu91-loop-x3.txt")).unwrap();
    let runs: Vec<Option<Value>> = all.iter().map(|p| param(p, "run_in_file")).collect();
    assert_eq!(runs, [Some(1.into()), Some(2.into()), Some(3.into())]);
    let all = parse(&fixture("pipe-md5sum-x2.txt")).unwrap();
    assert_eq!(param(&all[1], "run_in_file"), Some(Value::from(2)));
    // one run: no position to give
    assert_eq!(param(&one("gnu91-read.txt"), "run_in_file"), None);
}
