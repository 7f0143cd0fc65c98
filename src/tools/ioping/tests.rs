//! Tests of the ioping parser and command builder.

use super::*;

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/ioping/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
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

fn param(p: &Parsed, key: &str) -> Option<Value> {
    p.parameters.get(key).cloned()
}

/// `got` is exactly `want`: conversions land on the double nearest the
/// printed decimal times the unit (`309.7 us` is `3.097e-4`).
fn exact(got: Option<f64>, want: f64, what: &str) {
    assert_eq!(got, Some(want), "{what}");
}

/// Checks the six summary metrics and their units.
fn assert_metrics(p: &Parsed, requests: f64, iops: f64, bw: f64, lat: [f64; 4]) {
    exact(value(p, "requests"), requests, "requests");
    exact(value(p, "iops"), iops, "iops");
    exact(value(p, "bw"), bw, "bw");
    for (name, v) in ["lat_min", "lat_avg", "lat_max", "lat_mdev"]
        .iter()
        .zip(lat)
    {
        exact(value(p, name), v, name);
        assert_eq!(p.metrics.get(*name).map(|m| m.unit), Some("s"));
    }
    assert_eq!(p.metrics.get("bw").map(|m| m.unit), Some("B/s"));
    assert_eq!(p.metrics.get("iops").map(|m| m.unit), Some("IOPS"));
    assert_eq!(p.metrics.get("requests").map(|m| m.unit), Some("count"));
    assert_eq!(p.metrics.len(), 7);
}

#[test]
fn latency_c5_text() {
    let p = one("ioping13-c5.txt");
    // the completed line (4.14 ms in requests), not "generated ... 1 iops"
    assert_metrics(
        &p,
        4.0,
        966.0,
        3963617.28,
        [538.9e-6, 1.03e-3, 1.68e-3, 488.1e-6],
    );
    assert_eq!(p.test_id.as_deref(), Some("ioping-latency"));
    assert_eq!(p.command.as_deref(), Some("ioping -c 5 /tmp"));
    assert_eq!(param(&p, "count"), Some(Value::from(5)));
    assert_eq!(param(&p, "flags"), Some(Value::from("")));
    assert_eq!(param(&p, "target"), Some(Value::from("/tmp")));
    assert_eq!(param(&p, "operation"), Some(Value::from("read")));
    assert_eq!(param(&p, "size"), Some(Value::from(4096)));
    assert_eq!(param(&p, "requests_time"), Some(Value::from(4.14e-3)));
}

#[test]
fn latency_without_command_has_no_id() {
    let p = one("ioping13-c5-bare.txt");
    assert_metrics(
        &p,
        4.0,
        7.32e3,
        29989273.6,
        [123.5e-6, 136.6e-6, 147.4e-6, 9.79e-6],
    );
    assert_eq!(p.test_id.as_deref(), Some("ioping-read-4k"));
    assert_eq!(p.command, None);
    assert_eq!(param(&p, "size"), Some(Value::from(4096)));
}

#[test]
fn output_without_its_command_gets_the_id_of_what_it_shows() {
    // `4 KiB >>> /tmp ...` and `8 KiB written`: writes of 4 KiB
    let write = fixture("ioping13-write.txt");
    let bare = write.lines().skip(1).collect::<Vec<_>>().join("\n");
    let all = parse(&bare).unwrap();
    assert_eq!(all[0].test_id.as_deref(), Some("ioping-write-4k"));
    // `-R` prints no request lines: `106.5 MiB read` shows reads, no size
    let seq = fixture("ioping13-RL.txt");
    let bare = seq.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(
        parse(&bare).unwrap()[0].test_id.as_deref(),
        Some("ioping-read")
    );
    // a -B line alone shows neither
    let batch = fixture("ioping13-B.txt");
    let bare: Vec<&str> = batch.lines().filter(|l| !l.contains("ioping -")).collect();
    assert_eq!(
        parse(&bare.join("\n")).unwrap()[0].test_id.as_deref(),
        Some("ioping-unknown")
    );
}

#[test]
fn a_pasted_command_that_contradicts_its_output_is_refused_naming_both() {
    // writes pasted under a command that reads
    let write = fixture("ioping13-write.txt").replace("ioping -W -c 3", "ioping -c 3");
    let e = format!("{:#}", parse(&write).unwrap_err());
    assert!(
        e.contains("the pasted command `ioping -c 3 -i 0.1 /tmp` asks for reads (no `-W`), but the ioping output below it shows writes"),
        "{e}"
    );
    // 4 KiB requests pasted under `-s 64k`
    let c5 = fixture("ioping13-c5.txt").replace("ioping -c 5", "ioping -s 64k -c 5");
    let e = format!("{:#}", parse(&c5).unwrap_err());
    assert!(
        e.contains("asks for 65536-byte requests (`-s 64k`), but the ioping output below it shows 4096-byte requests"),
        "{e}"
    );
    // the same size spelled otherwise agrees
    let c5 = fixture("ioping13-c5.txt").replace("ioping -c 5", "ioping -s 4k -c 5");
    assert_eq!(
        parse(&c5).unwrap()[0].test_id.as_deref(),
        Some("ioping-latency")
    );
}

#[test]
fn seek_text_with_k_suffixes() {
    let p = one("ioping13-R.txt");
    assert_metrics(
        &p,
        5.67e3,
        5.79e3,
        23697817.6,
        [39.5e-6, 172.6e-6, 5.02e-3, 381.7e-6],
    );
    assert_eq!(p.test_id.as_deref(), Some("ioping-seek"));
    assert_eq!(param(&p, "work_time"), Some(Value::from(1.0)));
    assert_eq!(param(&p, "flags"), Some(Value::from("R")));
}

#[test]
fn seq_text() {
    let p = one("ioping13-RL.txt");
    assert_metrics(
        &p,
        426.0,
        431.0,
        113246208.0,
        [489.9e-6, 2.32e-3, 18.5e-3, 1.47e-3],
    );
    assert_eq!(p.test_id.as_deref(), Some("ioping-seq"));
}

#[test]
fn seq_cached_text_gib() {
    let p = one("ioping13-RLC.txt");
    assert_metrics(
        &p,
        47.0e3,
        47.1e3,
        12348030976.0,
        [16.3e-6, 21.3e-6, 484.5e-6, 5.43e-6],
    );
    assert_eq!(p.test_id.as_deref(), Some("ioping-seq-cached"));
}

#[test]
fn write_text() {
    let p = one("ioping13-write.txt");
    assert_metrics(
        &p,
        2.0,
        4.07e3,
        16672358.4,
        [233.1e-6, 245.4e-6, 257.8e-6, 12.4e-6],
    );
    assert_eq!(param(&p, "operation"), Some(Value::from("write")));
    assert_eq!(param(&p, "interval"), Some(Value::from(0.1)));
    assert_eq!(p.test_id.as_deref(), Some("ioping-W"));
}

#[test]
fn too_fast_on_the_generated_line() {
    let p = one("ioping13-too-fast.txt");
    assert_metrics(
        &p,
        6.0,
        4.63e3,
        18979225.6,
        [184.4e-6, 215.8e-6, 249.4e-6, 25.6e-6],
    );
    assert_eq!(param(&p, "too_fast"), Some(Value::from(1.0)));
    assert_eq!(param(&p, "too_slow"), None);
}

#[test]
fn too_fast_prefix_on_the_completed_line() {
    let text = "2 too fast, 1 too slow, 7 requests completed in 1.5 ms, 28 KiB read, 4.67 k iops, 18.2 MiB/s\nmin/avg/max/mdev = 100 us / 214.3 us / 300 us / 50 us\n";
    let p = parse(text).unwrap().remove(0);
    assert_metrics(
        &p,
        7.0,
        4.67e3,
        19084083.2,
        [100e-6, 214.3e-6, 300e-6, 50e-6],
    );
    assert_eq!(param(&p, "too_fast"), Some(Value::from(2.0)));
    assert_eq!(param(&p, "too_slow"), Some(Value::from(1.0)));
}

#[test]
fn hours_minutes_nanoseconds_and_mega_counts() {
    let p = one("ioping13-hours.txt");
    assert_metrics(
        &p,
        1.20e6,
        327.0,
        1342177.28,
        [812e-9, 3.06e-3, 72.0, 7.71e-3],
    );
    assert_eq!(param(&p, "requests_time"), Some(Value::from(3672.0)));
    assert_eq!(param(&p, "operation"), Some(Value::from("write")));
    assert_eq!(param(&p, "too_slow"), Some(Value::from(1.0)));
}

#[test]
fn version_0_9_text_published_check() {
    let p = one("ioping09-text.txt");
    assert_metrics(
        &p,
        10.0,
        3.2e3,
        13212057.6,
        [210e-6, 309.7e-6, 520e-6, 58e-6],
    );
    // the published check: 12.6 MiB/s and 309.7 us
    assert_eq!(value(&p, "bw"), Some(13212057.6));
    assert_eq!(value(&p, "lat_avg"), Some(3.097e-4));
    assert_eq!(param(&p, "operation"), None);
    assert_eq!(p.test_id.as_deref(), Some("ioping-latency"));
    assert_eq!(param(&p, "size"), Some(Value::from(4096)));
    assert_eq!(param(&p, "count"), Some(Value::from(10)));
}

#[test]
fn version_0_8_one_unit_and_lowercase_mb() {
    let p = one("ioping08-text.txt");
    assert_metrics(
        &p,
        6127.0,
        2042.0,
        8388608.0,
        [0.1e-3, 0.5e-3, 12.3e-3, 0.4e-3],
    );
    assert_eq!(p.test_id.as_deref(), Some("ioping-seek"));
    assert_eq!(p.command.as_deref(), Some("ioping -R /srv"));
}

#[test]
fn batch_1x_ten_fields_in_nanoseconds() {
    let p = one("ioping13-B.txt");
    assert_metrics(
        &p,
        4.0,
        7528.0,
        30835363.0,
        [124184e-9, 132834e-9, 140138e-9, 5698e-9],
    );
    assert_eq!(param(&p, "requests_total"), Some(Value::from(5.0)));
    assert_eq!(
        param(&p, "requests_time"),
        Some(Value::from(531338.0 / 1e9))
    );
    assert_eq!(p.test_id.as_deref(), Some("ioping-unknown"));
}

#[test]
fn batch_1x_with_command() {
    let p = one("ioping13-B-R.txt");
    assert_metrics(
        &p,
        15387.0,
        16398.0,
        67168047.0,
        [35412e-9, 60981e-9, 4136616e-9, 151658e-9],
    );
    assert_eq!(p.test_id.as_deref(), Some("ioping-seek"));
    assert_eq!(param(&p, "flags"), Some(Value::from("R")));
}

#[test]
fn batch_0_9_eight_fields_in_microseconds() {
    let p = one("ioping09-batch.txt");
    assert_metrics(
        &p,
        10.0,
        3229.0,
        13225443.0,
        [210e-6, 310e-6, 520e-6, 58e-6],
    );
    assert_eq!(param(&p, "requests_time"), Some(Value::from(3097.0 / 1e6)));
    assert_eq!(param(&p, "requests_total"), None);
    assert_eq!(param(&p, "interval"), Some(Value::from(0.0)));
    assert_eq!(p.test_id.as_deref(), Some("ioping-latency"));
}

#[test]
fn json_per_request_and_stat() {
    let p = one("ioping13-J.json");
    assert_metrics(
        &p,
        2.0,
        7241.313140,
        29660419.0,
        [128375e-9, 138096e-9, 147818e-9, 9722e-9],
    );
    assert_eq!(param(&p, "operation"), Some(Value::from("read")));
    assert_eq!(param(&p, "size"), Some(Value::from(4096)));
    assert_eq!(
        param(&p, "requests_time"),
        Some(Value::from(276193.0 / 1e9))
    );
    let with_cmd = one("ioping13-J-cmd.json");
    assert_eq!(with_cmd.metrics, p.metrics);
    assert_eq!(with_cmd.test_id.as_deref(), Some("ioping-latency"));
    assert_eq!(param(&with_cmd, "count"), Some(Value::from(3)));
}

#[test]
fn json_rapid_has_only_the_stat_object() {
    let p = one("ioping13-J-R.json");
    assert_metrics(
        &p,
        3129.0,
        11039.517249,
        45217863.0,
        [32348e-9, 90584e-9, 495103e-9, 29478e-9],
    );
    assert_eq!(param(&p, "operation"), None);
}

#[test]
fn several_runs_in_one_log() {
    let all = parse(&fixture("ioping-multi.txt")).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].test_id.as_deref(), Some("ioping-seq"));
    assert_eq!(value(&all[0], "bw"), Some(113246208.0));
    assert_eq!(all[1].test_id.as_deref(), Some("ioping-seek"));
    assert_eq!(value(&all[1], "iops"), Some(16398.0));
}

#[test]
fn zero_requests_give_only_the_count() {
    let text = "0 requests completed in 0 us, 0 B read, 0 iops, 0 B/s\nmin/avg/max/mdev = 0 us / 0 us / 0 us / 0 us\n";
    let p = parse(text).unwrap().remove(0);
    assert_eq!(value(&p, "requests"), Some(0.0));
    assert_eq!(p.metrics.len(), 1);
    let p = parse("0 0 0 0 0 0 0 0 1 1000\n").unwrap().remove(0);
    assert_eq!(p.metrics.len(), 1);
}

#[test]
fn errors_name_what_was_expected() {
    let e = parse("hello world\n").unwrap_err().to_string();
    assert!(e.contains("requests completed in"), "{e}");
    let e = parse("4 requests completed in 4.14 ms, 16 KiB read, 3.78 MiB/s\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannot read ioping summary"), "{e}");
    let e =
        parse("1 requests completed in 1 ms, 1 iops, 4 KiB/s\nmin/avg/max/mdev = 1 us / 2 us\n")
            .unwrap_err()
            .to_string();
    assert!(e.contains("latency line"), "{e}");
    assert!(parse("[1, 2]").is_err());
    assert!(parse("[{\"stat\": {\"count\": \"x\"}}]").is_err());
}

#[test]
fn looks_like_ioping_only() {
    for name in [
        "ioping13-c5.txt",
        "ioping13-B.txt",
        "ioping13-B-R.txt",
        "ioping13-J.json",
        "ioping13-J-R.json",
        "ioping09-text.txt",
        "ioping09-batch.txt",
    ] {
        assert!(looks_like(&fixture(name)), "{name}");
    }
    assert!(!looks_like(FIO_TEXT));
    assert!(!looks_like(FIO_JSON));
    assert!(!looks_like(BONNIE_CSV));
    assert!(!looks_like(DD_TEXT));
}

#[test]
fn ids_from_flags() {
    assert_eq!(test_id(""), "ioping-latency");
    assert_eq!(test_id("qB"), "ioping-latency");
    assert_eq!(test_id("R"), "ioping-seek");
    assert_eq!(test_id("RL"), "ioping-seq");
    assert_eq!(test_id("LR"), "ioping-seq");
    assert_eq!(test_id("RLC"), "ioping-seq-cached");
    assert_eq!(test_id("CRLJ"), "ioping-seq-cached");
    assert_eq!(test_id("D"), "ioping-D");
    assert_eq!(test_id("DRL"), "ioping-RLD");
    assert_eq!(test_id("WWW"), "ioping-W");
    assert_eq!(test_id("Yy"), "ioping-Yy");
}

#[test]
fn command_lines_in_their_forms() {
    let ids = [
        ("$ ioping -c 10 /mnt", "ioping-latency"),
        ("ioping -R /mnt", "ioping-seek"),
        ("# ioping -RL /mnt", "ioping-seq"),
        ("ioping -R -L /mnt", "ioping-seq"),
        ("sudo ioping -RLC -w 3 /mnt", "ioping-seq-cached"),
        ("ioping -rapid -linear /mnt", "ioping-seq"),
        ("ioping --rapid /mnt", "ioping-seek"),
        ("ioping -c10 -D /mnt", "ioping-D"),
        ("ioping -Rc 5 /mnt", "ioping-seek"),
        ("/usr/bin/ioping /mnt", "ioping-latency"),
    ];
    for (line, id) in ids {
        let inv = command_line(line).unwrap_or_else(|| panic!("{line}"));
        assert_eq!(test_id(&inv.flags), id, "{line}");
    }
    let inv = command_line("ioping -c 1k -s 1M -S 64m -i 10ms -w 2min -Rc5 .").unwrap();
    let mut p = Parsed::default();
    apply_command(&mut p, &inv);
    assert_eq!(param(&p, "count"), Some(Value::from(5)));
    assert_eq!(param(&p, "size"), Some(Value::from(1048576)));
    assert_eq!(param(&p, "work_size"), Some(Value::from(67108864)));
    assert_eq!(param(&p, "interval"), Some(Value::from(0.01)));
    assert_eq!(param(&p, "work_time"), Some(Value::from(120.0)));
    assert_eq!(param(&p, "target"), Some(Value::from(".")));
    let inv = command_line("ioping -count 1k -size 2sector /dev/sda").unwrap();
    let mut p = Parsed::default();
    apply_command(&mut p, &inv);
    assert_eq!(param(&p, "count"), Some(Value::from(1000)));
    assert_eq!(param(&p, "size"), Some(Value::from(1024)));
    assert_eq!(
        command_line("--- /tmp (ext4 /dev/vda 252.0 GiB) ioping statistics ---"),
        None
    );
    assert_eq!(command_line("ioping 1.3"), None);
}

#[test]
fn version_from_ioping_v() {
    let text = format!("$ ioping -v\nioping 1.3\n{}", fixture("ioping13-RL.txt"));
    let p = parse(&text).unwrap().remove(0);
    assert_eq!(p.tool_version.as_deref(), Some("1.3"));
    assert_eq!(p.test_id.as_deref(), Some("ioping-seq"));
}

const FIO_TEXT: &str = "randread: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=64\nfio-3.33\nStarting 1 process\n\nrandread: (groupid=0, jobs=1): err= 0: pid=1: Mon Nov 30 00:00:00 2026\n  read: IOPS=26.2k, BW=102MiB/s (107MB/s)(512MiB/5001msec)\n    clat (usec): min=38, max=2600, avg=68.87, stdev=35.60\n\nRun status group 0 (all jobs):\n   READ: bw=102MiB/s (107MB/s), 102MiB/s-102MiB/s (107MB/s-107MB/s), io=512MiB (537MB), run=5001-5001msec\n";
const FIO_JSON: &str = "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [ { \"jobname\" : \"randread\", \"read\" : { \"io_bytes\" : 536870912, \"bw\" : 104857, \"iops\" : 26214.4, \"clat_ns\" : { \"mean\" : 68870.0, \"stddev\" : 35600.0 } } } ]\n}\n";
// bonnie++ 2.00a `-s 0 -n 1 -q`, captured on the development machine
const BONNIE_CSV: &str = "1.98,2.00a,vm,1,1795985127,,,,,,,,,,,,,,,,,1,,,,,1353,35,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,,,,,,5038us,59us,4055us,8230us,13us,4055us\n";
const DD_TEXT: &str = "$ dd if=/dev/zero of=test bs=8k count=16k oflag=dsync\n16384+0 records in\n16384+0 records out\n134217728 bytes (134 MB, 128 MiB) copied, 0.346904 s, 387 MB/s\n";

#[test]
fn read_command_gives_id_parameters_and_command() {
    let p = read_command("$ ioping -c 10 -s 64k -RL /mnt").unwrap();
    assert_eq!(p.test_id.as_deref(), Some("ioping-seq"));
    assert_eq!(p.command.as_deref(), Some("ioping -c 10 -s 64k -RL /mnt"));
    let expected: BTreeMap<String, Value> = [
        ("count", Value::from(10)),
        ("flags", Value::from("RL")),
        ("size", Value::from(65536)),
        ("target", Value::from("/mnt")),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(p.parameters, expected);
    assert!(p.metrics.is_empty());
    let id = |line: &str| read_command(line).unwrap().test_id.unwrap();
    assert_eq!(id("ioping -c 5"), "ioping-latency");
    assert_eq!(id("ioping -R"), "ioping-seek");
    assert_eq!(id("ioping -RLC"), "ioping-seq-cached");
    assert_eq!(id("ioping -W -c 3 ."), "ioping-W");
}

#[test]
fn read_command_refuses_a_line_without_options() {
    let e = read_command("ioping").unwrap_err().to_string();
    assert!(e.contains("expected an ioping command line"), "{e}");
    assert!(read_command("cat ioping.log").is_err());
}

#[test]
fn options_that_spell_out_rapid_are_the_seek_test() {
    let p = one("ioping13-spelled-R.txt");
    assert_eq!(p.test_id.as_deref(), Some("ioping-seek"));
    assert_eq!(param(&p, "flags"), Some(Value::from("R")));
    assert_eq!(param(&p, "interval"), Some(Value::from(0.0)));
    assert_eq!(param(&p, "work_time"), Some(Value::from(3.0)));
    assert_eq!(param(&p, "work_size"), Some(Value::from(64u64 << 20)));
    assert_metrics(
        &p,
        30.3e3,
        10.7e3,
        41.9 * 1024.0 * 1024.0,
        [42.3e-6, 93.3e-6, 20.9e-3, 175.9e-6],
    );
    // one setting off is another test
    let r = read_command("ioping -q -i 0 -w 3 -S 32m /mnt").unwrap();
    assert_eq!(r.test_id.as_deref(), Some("ioping-latency"));
}

#[test]
fn long_mode_names_are_the_letters() {
    let p = one("ioping13-long-RLC.txt");
    assert_eq!(p.test_id.as_deref(), Some("ioping-seq-cached"));
    assert_metrics(
        &p,
        43.6e3,
        43.7e3,
        10.7 * 1024.0 * 1024.0 * 1024.0,
        [16.8e-6, 22.9e-6, 4.11e-3, 25.1e-6],
    );
    let r = read_command("ioping --rapid --linear /mnt").unwrap();
    assert_eq!(r.test_id.as_deref(), Some("ioping-seq"));
}

#[test]
fn a_bad_figure_refuses_the_output_naming_it() {
    let batch = fixture("ioping13-B.txt");
    for (from, to, says) in [
        (
            " 7528 ",
            " -7528 ",
            "ioping -B output: field 3 of the -B line is -7528: expected a number >= 0",
        ),
        (
            " 7528 ",
            " nan ",
            "field 3 of the -B line is NaN: expected a number >= 0",
        ),
    ] {
        let err = format!("{:#}", parse(&batch.replacen(from, to, 1)).unwrap_err());
        assert!(err.contains(says), "{to}: {err}");
    }
    let json = fixture("ioping13-J.json");
    for (to, says) in [
        (
            "\"iops\": \"fast\"",
            "ioping JSON: stat.iops is \"fast\": expected a number >= 0",
        ),
        ("\"iops\": -5", "stat.iops is -5: expected a number >= 0"),
        (
            "\"iops\": null",
            "stat.iops is null: expected a number >= 0",
        ),
    ] {
        let text = json.replacen("\"iops\": 7241.313140", to, 1);
        assert_ne!(text, json);
        let err = format!("{:#}", parse(&text).unwrap_err());
        assert!(err.contains(says), "{to}: {err}");
    }
    let text = fixture("ioping13-c5.txt");
    for (from, to, says) in [
        (
            "966 iops",
            "-966 iops",
            "ioping output: the IOPS of ioping's summary line is \"-966\": expected a number >= 0",
        ),
        (
            "3.78 MiB/s",
            "nan MiB/s",
            "the bandwidth of ioping's summary line is \"nan MiB/s\"",
        ),
        (
            "in 4.14 ms",
            "in -4.14 ms",
            "the time of ioping's summary line is \"-4.14 ms\"",
        ),
        (
            "/ 1.03 ms /",
            "/ -1.03 ms /",
            "the avg of ioping's min/avg/max/mdev line is \"-1.03 ms\": expected a number >= 0",
        ),
    ] {
        assert!(text.contains(from), "{from}");
        let err = format!("{:#}", parse(&text.replacen(from, to, 1)).unwrap_err());
        assert!(err.contains(says), "{to}: {err}");
    }
}

#[test]
fn a_batch_line_with_a_word_for_a_figure_refuses_the_output() {
    // two runs in one file: the second's -B line used to be passed over,
    // leaving the first run's record alone
    let text = fixture("ioping-multi.txt").replacen(" 16398 ", " fast ", 1);
    let err = format!("{:#}", parse(&text).unwrap_err());
    assert!(
        err.contains("field 3 of the -B line is \"fast\": expected a number >= 0"),
        "{err}"
    );
}
