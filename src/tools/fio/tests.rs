//! Tests of the fio parser and command builder.

use super::json::*;
use super::options::*;
use super::pasted::*;
use super::text::*;
use super::*;

const RANDREAD_JSON: &str = include_str!("../../../tests/fixtures/fio/randread-4k-qd64.json");
const RANDREAD_TXT: &str = include_str!("../../../tests/fixtures/fio/randread-4k-qd64.txt");
const RANDWRITE_JSON: &str = include_str!("../../../tests/fixtures/fio/randwrite-4k-qd64.json");
const NOTE_JSON: &str = include_str!("../../../tests/fixtures/fio/note-sync-qd4.json");
const JOBS2_JSON: &str = include_str!("../../../tests/fixtures/fio/read-1m-qd1-j2.json");
const JOBS2_TXT: &str = include_str!("../../../tests/fixtures/fio/read-1m-qd1-j2.txt");
const GROUPED_JSON: &str =
    include_str!("../../../tests/fixtures/fio/randread-4k-qd8-j2-group.json");
const RANDRW_JSON: &str = include_str!("../../../tests/fixtures/fio/randrw-4k-qd16.json");
const RANDRW_TXT: &str = include_str!("../../../tests/fixtures/fio/randrw-4k-qd16.txt");
const JOBFILE_TXT: &str = include_str!("../../../tests/fixtures/fio/jobfile-two-groups.txt");
const FIO2_JSON: &str = include_str!("../../../tests/fixtures/fio/fio2-1-11-randread-j2.json");
const FIO2_OLD_TXT: &str = include_str!("../../../tests/fixtures/fio/fio2-0-13-two-groups.txt");
const FIO2_NEW_TXT: &str = include_str!("../../../tests/fixtures/fio/fio2-19-randread.txt");

fn one(text: &str) -> Parsed {
    let mut all = parse(text).expect("fixture parses");
    assert_eq!(all.len(), 1, "one reporting group");
    all.remove(0)
}

fn m(p: &Parsed, name: &str) -> f64 {
    p.metrics
        .get(name)
        .unwrap_or_else(|| panic!("metric {name} missing from {:?}", p.metrics.keys()))
        .value
}

fn unit(p: &Parsed, name: &str) -> String {
    p.metrics
        .get(name)
        .map(|m| m.unit.to_string())
        .unwrap_or_default()
}

/// Equal up to floating-point rounding of the arithmetic (1e-12 relative).
fn close(actual: f64, expected: f64) {
    let tol = expected.abs() * 1e-12;
    assert!((actual - expected).abs() <= tol, "{actual} != {expected}");
}

fn names(p: &Parsed) -> Vec<&str> {
    p.metrics.keys().map(String::as_str).collect()
}

fn param(p: &Parsed, name: &str) -> Value {
    p.parameters.get(name).cloned().unwrap_or(Value::Null)
}

#[test]
fn test_ids_follow_the_runner_rule() {
    assert_eq!(test_id("randread", 4096, 64, 1), "fio-randread-4k-qd64");
    assert_eq!(test_id("randwrite", 4096, 64, 1), "fio-randwrite-4k-qd64");
    assert_eq!(test_id("read", 1048576, 1, 4), "fio-read-1m-qd1-j4");
}

#[test]
fn fio3_json_randread_in_canonical_units() {
    let p = one(RANDREAD_JSON);
    assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd64"));
    assert_eq!(p.tool_version.as_deref(), Some("3.33"));
    assert_eq!(m(&p, "read_iops"), 83142.428786);
    assert_eq!(unit(&p, "read_iops"), "IOPS");
    // bw_bytes, not bw (KiB/s)
    assert_eq!(m(&p, "read_bw"), 340551388.0);
    assert_eq!(unit(&p, "read_bw"), "B/s");
    assert_eq!(m(&p, "read_io_bytes"), 681443328.0);
    // nanoseconds to seconds
    assert_eq!(m(&p, "read_clat_mean"), 0.000763873854281);
    assert_eq!(m(&p, "read_lat_mean"), 0.000768919076301);
    assert_eq!(m(&p, "read_clat_p50"), 0.000659456);
    assert_eq!(m(&p, "read_clat_p99"), 0.00352256);
    assert_eq!(m(&p, "read_clat_p99_9"), 0.01409024);
    assert_eq!(unit(&p, "read_clat_p99"), "s");
    assert_eq!(m(&p, "runtime"), 2.001);
    // a direction without I/O is absent, not zero
    assert!(names(&p).iter().all(|n| !n.starts_with("write_")));
    assert_eq!(param(&p, "rw"), "randread");
    assert_eq!(param(&p, "bs"), 4096);
    assert_eq!(param(&p, "iodepth"), 64);
    assert_eq!(param(&p, "ioengine"), "libaio");
    assert_eq!(param(&p, "direct"), 1);
    assert_eq!(param(&p, "size"), 67108864);
    assert_eq!(param(&p, "runtime"), 2.0);
    assert_eq!(param(&p, "numjobs"), 1);
    assert_eq!(p.command, None);
}

#[test]
fn fio3_json_randwrite_has_only_write_metrics() {
    let p = one(RANDWRITE_JSON);
    assert_eq!(p.test_id.as_deref(), Some("fio-randwrite-4k-qd64"));
    assert_eq!(m(&p, "write_iops"), 100930.534733);
    assert_eq!(m(&p, "write_bw"), 413411470.0);
    assert_eq!(m(&p, "write_clat_mean"), 0.000626376010626);
    assert_eq!(m(&p, "write_lat_mean"), 0.000633319814208);
    assert_eq!(m(&p, "write_clat_p50"), 0.000473088);
    assert_eq!(m(&p, "write_clat_p99"), 0.003751936);
    assert_eq!(m(&p, "write_clat_p99_9"), 0.005275648);
    assert!(names(&p).iter().all(|n| !n.starts_with("read_")));
}

#[test]
fn note_before_the_json_is_skipped() {
    assert!(NOTE_JSON.starts_with("note: both iodepth >= 1 and synchronous I/O engine"));
    let p = one(NOTE_JSON);
    assert_eq!(m(&p, "read_iops"), 14039.48026);
    assert_eq!(m(&p, "read_bw"), 57505711.0);
    assert_eq!(m(&p, "read_clat_mean"), 0.000069493686826);
    assert_eq!(param(&p, "ioengine"), "sync");
    // the id states what the job asked for; fio capped the depth at 1
    assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd4"));
}

#[test]
fn jobs_of_one_group_are_summed_and_latency_weighted_by_io_count() {
    let p = one(JOBS2_JSON);
    assert_eq!(p.test_id.as_deref(), Some("fio-read-1m-qd1-j2"));
    assert_eq!(param(&p, "numjobs"), 2);
    // the group's I/Os and bytes over its longest runtime (both 2001 ms)
    close(m(&p, "read_iops"), (1866.0 + 1174.0) / 2.001);
    close(m(&p, "read_bw"), (1956642816.0 + 1231028224.0) / 2.001);
    assert_eq!(m(&p, "read_io_bytes"), 1956642816.0 + 1231028224.0);
    // weights are the jobs' total_ios: 1866 and 1174
    let w = |a: f64, b: f64| (a * 1866.0 + b * 1174.0) / 3040.0;
    close(
        m(&p, "read_clat_mean"),
        w(0.001023321317256, 0.00163379570017),
    );
    close(
        m(&p, "read_lat_mean"),
        w(0.001069863346195, 0.001701514224872),
    );
    close(m(&p, "read_clat_p50"), w(0.001155072, 0.001613824));
    close(m(&p, "read_clat_p99"), w(0.001810432, 0.002605056));
    close(m(&p, "read_clat_p99_9"), w(0.00671744, 0.00335872));
    // the weighted mean is not the plain mean of the two jobs
    assert!((m(&p, "read_clat_mean") - (0.001023321317256 + 0.00163379570017) / 2.0).abs() > 1e-5);
}

#[test]
fn group_reporting_json_is_one_job_with_numjobs() {
    let p = one(GROUPED_JSON);
    assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd8-j2"));
    assert_eq!(m(&p, "read_iops"), 46465.767116);
    assert_eq!(m(&p, "read_bw"), 190323782.0);
    assert_eq!(m(&p, "read_clat_p99"), 0.002736128);
}

#[test]
fn randrw_json_reports_both_directions() {
    let p = one(RANDRW_JSON);
    assert_eq!(p.test_id.as_deref(), Some("fio-randrw-4k-qd16"));
    assert_eq!(m(&p, "read_iops"), 46815.592204);
    assert_eq!(m(&p, "write_iops"), 20009.495252);
    assert_eq!(m(&p, "read_bw"), 191756665.0);
    assert_eq!(m(&p, "write_bw"), 81958892.0);
    assert_eq!(m(&p, "write_lat_mean"), 0.000271560122905);
    assert_eq!(m(&p, "write_clat_p99_9"), 0.001875968);
}

#[test]
fn fio3_text_uses_the_exact_issued_count() {
    let p = one(RANDREAD_TXT);
    assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd64"));
    assert_eq!(p.tool_version.as_deref(), Some("3.33"));
    // issued total=145298 over 2001 msec, 4096-byte blocks
    assert_eq!(m(&p, "read_iops"), 145298.0 / 2.001);
    assert_eq!(m(&p, "read_bw"), 145298.0 * 4096.0 / 2.001);
    assert_eq!(m(&p, "read_io_bytes"), 145298.0 * 4096.0);
    // clat (usec): avg=875.63; lat (usec): avg=880.55
    assert_eq!(m(&p, "read_clat_mean"), 0.00087563);
    assert_eq!(m(&p, "read_lat_mean"), 0.00088055);
    // clat percentiles (usec): 50.00th=[  660], 99.00th=[ 4047], 99.90th=[26608]
    assert_eq!(m(&p, "read_clat_p50"), 0.00066);
    assert_eq!(m(&p, "read_clat_p99"), 0.004047);
    assert_eq!(m(&p, "read_clat_p99_9"), 0.026608);
    assert_eq!(m(&p, "runtime"), 2.001);
    assert!(names(&p).iter().all(|n| !n.starts_with("write_")));
    assert_eq!(param(&p, "bs"), 4096);
    assert_eq!(param(&p, "iodepth"), 64);
}

#[test]
fn fio3_text_jobs_of_one_group_are_combined() {
    let p = one(JOBS2_TXT);
    assert_eq!(p.test_id.as_deref(), Some("fio-read-1m-qd1-j2"));
    let mib = 1048576.0;
    // issued 984 and 980 I/Os of 1 MiB in 2001 and 2002 msec: the group's
    // total over its longest runtime, as fio's `READ: bw=981MiB/s` line
    close(m(&p, "read_iops"), (984.0 + 980.0) / 2.002);
    close(m(&p, "read_bw"), (984.0 + 980.0) * mib / 2.002);
    let w = |a: f64, b: f64| (a * 984.0 + b * 980.0) / 1964.0;
    close(m(&p, "read_clat_mean"), w(0.00197588, 0.00198006));
    close(m(&p, "read_lat_mean"), w(0.00203079, 0.00203984));
    close(m(&p, "read_clat_p99"), w(0.00508, 0.004948));
    // runtime is the longest job's
    assert_eq!(m(&p, "runtime"), 2.002);
}

#[test]
fn fio3_text_randrw_with_zone_resets_suffix() {
    let p = one(RANDRW_TXT);
    assert_eq!(m(&p, "read_iops"), 99438.0 / 2.001);
    assert_eq!(m(&p, "write_iops"), 42419.0 / 2.001);
    assert_eq!(m(&p, "write_bw"), 42419.0 * 4096.0 / 2.001);
    assert_eq!(m(&p, "write_clat_mean"), 0.00024964);
    assert_eq!(m(&p, "write_clat_p99"), 0.000392);
}

#[test]
fn job_file_and_command_above_text_output_fill_parameters() {
    let all = parse(JOBFILE_TXT).unwrap();
    assert_eq!(all.len(), 2);
    let (r, w) = (&all[0], &all[1]);
    assert_eq!(r.test_id.as_deref(), Some("fio-randread-4k-qd32"));
    assert_eq!(w.test_id.as_deref(), Some("fio-write-128k-qd8"));
    assert_eq!(r.command.as_deref(), Some("./fio job.ini"));
    for p in [r, w] {
        // from the [global] section of the job file
        assert_eq!(param(p, "direct"), 1);
        assert_eq!(param(p, "size"), 67108864);
        assert_eq!(param(p, "runtime"), 2.0);
        assert_eq!(param(p, "ioengine"), "libaio");
    }
    assert_eq!(param(w, "bs"), 131072);
    assert_eq!(m(r, "read_iops"), 110430.0 / 2.001);
    assert_eq!(m(w, "write_iops"), 34115.0 / 2.017);
    assert_eq!(m(w, "write_bw"), 34115.0 * 131072.0 / 2.017);
    // clat (nsec): avg=456019.94 while lat is in usec
    assert_eq!(m(w, "write_clat_mean"), 0.00045601994);
    assert_eq!(m(w, "write_lat_mean"), 0.00047219);
    assert!(names(r).iter().all(|n| !n.starts_with("write_")));
    assert!(names(w).iter().all(|n| !n.starts_with("read_")));
}

#[test]
fn fio2_json_usec_kib_and_padded_percentiles() {
    let p = one(FIO2_JSON);
    assert_eq!(p.tool_version.as_deref(), Some("2.1.11"));
    assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd32-j2"));
    assert!(p
        .command
        .as_deref()
        .unwrap()
        .starts_with("fio --name=randread --rw=randread"));
    assert_eq!(param(&p, "size"), 1073741824);
    assert_eq!(param(&p, "runtime"), 60.0);
    assert_eq!(param(&p, "direct"), 1);
    // bw 20000 + 10000 KiB/s
    assert_eq!(m(&p, "read_bw"), 30000.0 * 1024.0);
    assert_eq!(m(&p, "read_iops"), 7500.0);
    // io_bytes is KiB before 2.21
    assert_eq!(m(&p, "read_io_bytes"), 1800000.0 * 1024.0);
    // no total_ios in 2.1: weights are iops x runtime, 300000 and 150000
    close(m(&p, "read_clat_mean"), 0.008487);
    close(m(&p, "read_lat_mean"), (0.0063955 * 2.0 + 0.01272) / 3.0);
    close(m(&p, "read_clat_p50"), (0.006112 * 2.0 + 0.01216) / 3.0);
    close(m(&p, "read_clat_p99"), (0.01184 * 2.0 + 0.023424) / 3.0);
    close(m(&p, "read_clat_p99_9"), (0.016512 * 2.0 + 0.03136) / 3.0);
    assert!(names(&p).iter().all(|n| !n.starts_with("write_")));
}

#[test]
fn fio2_padded_zero_percentile_is_dropped() {
    let doc = first_json_value(FIO2_JSON.split_once('\n').unwrap().1).unwrap();
    let read = doc["jobs"][0]["read"].clone();
    let dir = json_dir(&read, Some(true), "jobs[0].read")
        .unwrap()
        .unwrap();
    assert_eq!(dir.clat_pct.len(), 17);
    assert!(!dir.clat_pct.contains_key(&0));
    assert_eq!(dir.clat_pct.get(&1000), Some(&0.003408));
    assert_eq!(dir.clat_pct.get(&99990), Some(&0.027008));
    // the all-zero write direction counts as absent
    assert_eq!(
        json_dir(&doc["jobs"][0]["write"], Some(true), "jobs[0].write"),
        Ok(None)
    );
}

#[test]
fn fio2_old_text_two_groups() {
    let all = parse(FIO2_OLD_TXT).unwrap();
    assert_eq!(all.len(), 2);
    let (r, w) = (&all[0], &all[1]);
    assert_eq!(r.tool_version.as_deref(), Some("2.0.13"));
    assert_eq!(r.test_id.as_deref(), Some("fio-randread-4k-qd64"));
    assert_eq!(w.test_id.as_deref(), Some("fio-randwrite-4k-qd64"));
    // issued total=r=131072 over runt=5000msec
    assert_eq!(m(r, "read_iops"), 26214.4);
    assert_eq!(m(r, "read_bw"), 107374182.4);
    assert_eq!(m(r, "read_io_bytes"), 536870912.0);
    assert_eq!(m(r, "read_clat_mean"), 0.00243305);
    assert_eq!(m(r, "read_lat_mean"), 0.00243921);
    assert_eq!(m(r, "read_clat_p50"), 0.00232);
    assert_eq!(m(r, "read_clat_p99"), 0.005472);
    assert_eq!(m(r, "read_clat_p99_9"), 0.009408);
    assert_eq!(m(r, "runtime"), 5.0);
    // clat (msec) and clat percentiles (msec)
    assert_eq!(m(w, "write_clat_mean"), 0.97253);
    assert_eq!(m(w, "write_clat_p50"), 0.971);
    assert_eq!(m(w, "write_clat_p99_9"), 1.647);
    assert_eq!(m(w, "write_iops"), 20937.0 / 318.686);
    assert_eq!(m(w, "write_bw"), 20937.0 * 4096.0 / 318.686);
    assert_eq!(m(w, "runtime"), 318.686);
}

#[test]
fn fio2_17_text_form() {
    let p = one(FIO2_NEW_TXT);
    assert_eq!(p.tool_version.as_deref(), Some("2.19"));
    assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd2"));
    assert_eq!(m(&p, "read_iops"), 131072.0 / 5.001);
    assert_eq!(m(&p, "read_bw"), 536870912.0 / 5.001);
    // clat (usec): avg=68.87
    assert_eq!(m(&p, "read_clat_mean"), 6.887e-5);
    // lat (nsec): avg=71185.27
    assert_eq!(m(&p, "read_lat_mean"), 7.118527e-5);
    assert_eq!(m(&p, "read_clat_p50"), 6.4e-5);
    assert_eq!(m(&p, "read_clat_p99_9"), 0.000486);
}

#[test]
fn old_direction_line_units() {
    let d = dir_line(
        " io=512.0MB, bw=104857KB/s, iops=26214 , runt=  5000msec",
        "read",
    )
    .unwrap();
    assert_eq!(d.iops, Some(26214.0));
    assert_eq!(d.runtime, Some(5.0));
    assert_eq!(d.io_bytes.map(|p| p.value), Some(536870912.0));
    // KB is KiB in fio 2.x
    assert_eq!(d.bw.first().map(|p| p.value), Some(107373568.0));
    let d = dir_line(
        " io=83748KB, bw=269098 B/s, iops=65 , runt=318686msec",
        "read",
    )
    .unwrap();
    assert_eq!(d.bw.first().map(|p| p.value), Some(269098.0));
    assert_eq!(d.io_bytes.map(|p| p.value), Some(83748.0 * 1024.0));
}

#[test]
fn new_direction_line_units() {
    let d = dir_line(
        " IOPS=26.2k, BW=102MiB/s (107MB/s)(512MiB/5001msec)",
        "read",
    )
    .unwrap();
    assert_eq!(d.iops, Some(26200.0));
    assert_eq!(d.runtime, Some(5.001));
    let bw: Vec<f64> = d.bw.iter().map(|p| p.value).collect();
    assert_eq!(bw, vec![102.0 * 1048576.0, 107e6, 536870912.0 / 5.001]);
    let d = dir_line(
        " IOPS=450, BW=1909KiB/s (1955kB/s)(190MiB/101797msec)",
        "read",
    )
    .unwrap();
    assert_eq!(d.iops, Some(450.0));
    let bw: Vec<f64> = d.bw.iter().map(|p| p.value).collect();
    assert_eq!(
        bw,
        vec![1909.0 * 1024.0, 1955e3, 190.0 * 1048576.0 / 101.797]
    );
}

#[test]
fn without_issued_counts_the_most_exact_printed_figure_wins() {
    // trimmed paste: no issued line, so rates come from the printed figures
    let text = "randread: (g=0): rw=randread, bs=4K-4K/4K-4K, ioengine=libaio, iodepth=64\n\
        randread: (groupid=0, jobs=1): err= 0: pid=1\n\
        \x20 read : io=512.0MB, bw=104857KB/s, iops=26214 , runt=  5000msec\n";
    let p = one(text);
    // 104857KB/s has six digits, 512.0MB four
    assert_eq!(m(&p, "read_bw"), 107373568.0);
    assert_eq!(m(&p, "read_iops"), 26214.0);
    assert_eq!(m(&p, "read_io_bytes"), 536870912.0);
    let text = "randread: (groupid=0, jobs=1): err= 0: pid=1\n\
        \x20 read: IOPS=26.2k, BW=102MiB/s (107MB/s)(512MiB/5001msec)\n";
    let p = one(text);
    // 512MiB/5001msec beats 107MB/s and 102MiB/s; IOPS=26.2k is all there is
    assert_eq!(m(&p, "read_bw"), 536870912.0 / 5.001);
    assert_eq!(m(&p, "read_iops"), 26200.0);
    assert_eq!(p.test_id, None);
}

#[test]
fn header_lines_old_and_new() {
    let h =
        job_header("randreads: (g=0): rw=randread, bs=4K-4K/4K-4K, ioengine=libaio, iodepth=64")
            .unwrap();
    assert_eq!(h.rw.as_deref(), Some("randread"));
    assert_eq!(h.bs, vec![(4096, 4096), (4096, 4096)]);
    assert_eq!(h.ioengine.as_deref(), Some("libaio"));
    assert_eq!(h.iodepth, Some(64));
    let h = job_header("x: (g=3): rw=randrw, bs=(R) 4096B-4096B, (W) 16.0KiB-16.0KiB, (T) 4096B-4096B, ioengine=psync, iodepth=1").unwrap();
    assert_eq!(h.group, 3);
    assert_eq!(h.bs, vec![(4096, 4096), (16384, 16384), (4096, 4096)]);
    assert_eq!(fixed_bs(&h.bs, Some("randread")), Some(4096));
    assert_eq!(fixed_bs(&h.bs, Some("randrw")), None);
    let h = job_header(
        "iometer: (g=0): rw=randrw, bs=512-64K/512-64K/512-64K, ioengine=libaio, iodepth=64",
    )
    .unwrap();
    assert_eq!(h.bs.first(), Some(&(512, 65536)));
    assert_eq!(fixed_bs(&h.bs, Some("randrw")), None);
}

#[test]
fn variable_block_size_gives_no_test_id() {
    let text = "iometer: (g=0): rw=randrw, bs=512-64K/512-64K, ioengine=libaio, iodepth=64\n\
        2.0.8\n\
        iometer: (groupid=0, jobs=1): err= 0: pid=2619\n\
        \x20 read : io=327521KB, bw=2273.7KB/s, iops=746 , runt=144052msec\n";
    let p = one(text);
    assert_eq!(p.tool_version.as_deref(), Some("2.0.8"));
    assert_eq!(p.test_id, None);
    assert_eq!(param(&p, "bs"), Value::Null);
    assert_eq!(param(&p, "rw"), "randrw");
    // io=327521KB (six digits) over runt=144052msec beats bw=2273.7KB/s (five)
    assert_eq!(m(&p, "read_bw"), 327521.0 * 1024.0 / 144.052);
}

#[test]
fn version_lines() {
    assert_eq!(version_line("fio-3.33", false).as_deref(), Some("3.33"));
    assert_eq!(version_line("fio 2.1.3", false).as_deref(), Some("2.1.3"));
    assert_eq!(version_line("2.0.8", true).as_deref(), Some("2.0.8"));
    assert_eq!(version_line("2.0.8", false), None);
    assert_eq!(version_line("fio: pid=1 disk full", false), None);
    assert_eq!(version_below("2.1.11", 2, 21), Some(true));
    assert_eq!(version_below("2.2.10", 2, 21), Some(true));
    assert_eq!(version_below("2.21", 2, 21), Some(false));
    assert_eq!(version_below("3.33", 2, 21), Some(false));
    assert_eq!(version_below("git", 2, 21), None);
}

#[test]
fn fio_option_sizes_follow_kb_base() {
    // default kb_base=1024: k and kB are 1024, KiB is 1000 (fio's compat mode)
    assert_eq!(option_size("4k", false), Some(4096));
    assert_eq!(option_size("4kB", false), Some(4096));
    assert_eq!(option_size("4KiB", false), Some(4000));
    assert_eq!(option_size("1m", false), Some(1048576));
    assert_eq!(option_size("1G", false), Some(1073741824));
    assert_eq!(option_size("4096", false), Some(4096));
    assert_eq!(option_size("4k", true), Some(4000));
    assert_eq!(option_size("4KiB", true), Some(4096));
    assert_eq!(option_size("50%", false), None);
    let bs = option_bs("4k,64k", false).unwrap();
    assert_eq!(fixed_bs(&bs, Some("randwrite")), Some(65536));
    assert_eq!(fixed_bs(&bs, Some("randrw")), None);
    assert_eq!(option_seconds("2m"), Some(120.0));
    assert_eq!(option_seconds("30"), Some(30.0));
}

#[test]
fn command_lines_are_recognised() {
    let (cmd, args) = command_line("root@vm:~# sudo fio --name=x --rw=randread --bs=4k").unwrap();
    assert_eq!(cmd, "fio --name=x --rw=randread --bs=4k");
    assert_eq!(args.len(), 3);
    assert!(command_line("fio --version").is_none());
    assert!(command_line("filename=/dev/fio").is_none());
    assert!(command_line("we ran fio --rw=read").is_none());
    let pre =
        CommandOptions::from_args(&["--direct=1".into(), "--name=a".into(), "--bs=8k".into()]);
    assert_eq!(pre.global.get("direct").map(String::as_str), Some("1"));
    assert_eq!(pre.per_job["a"].get("bs").map(String::as_str), Some("8k"));
}

#[test]
fn a_pasted_command_is_split_as_a_shell_splits_it() {
    let line = r#"$ sudo fio --name="rand read" --filename="/mnt/my disk/f" '--rw=randread' --bs=4k --iodepth=32"#;
    let (cmd, args) = command_line(line).unwrap();
    assert_eq!(cmd, line.strip_prefix("$ sudo ").unwrap());
    assert_eq!(
        args,
        [
            "--name=rand read",
            "--filename=/mnt/my disk/f",
            "--rw=randread",
            "--bs=4k",
            "--iodepth=32"
        ]
    );
    let pre = CommandOptions::from_args(&args);
    let job = &pre.per_job["rand read"];
    assert_eq!(job["filename"], "/mnt/my disk/f");
    assert_eq!(job["rw"], "randread");
    // the quoted `--rw` was dropped when the line was split on whitespace
    let p = read_command(line).unwrap();
    assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd32"));
    assert_eq!(p.parameters["bs"], 4096);
    // a quote left open: the line is split on whitespace, as before
    let (_, args) = command_line("fio --rw=read --description=it's").unwrap();
    assert_eq!(args, ["--rw=read", "--description=it's"]);
}

#[test]
fn a_command_run_builds_round_trips_through_quote_and_split() {
    use crate::tools::argv::split_command;
    let ctx = BuildCtx {
        dir: std::path::Path::new("/mnt/my disk/run 1/it's $HOME"),
        memory_bytes: Some(4 << 30),
        is_root: false,
        test_id: "fio-randread-4k-qd32",
        free_bytes: None,
        data_file: None,
    };
    let params: Params = [("rw", "randread"), ("bs", "4k"), ("iodepth", "32")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), Value::from(v)))
        .collect();
    let mut inv = invocation::command(&params, &ctx).unwrap();
    let line = inv.display();
    let words = split_command(&line).unwrap();
    assert_eq!(words[0], inv.program);
    assert_eq!(words[1..], inv.args[..], "{line}");
    assert!(
        words.contains(&"--filename=/mnt/my disk/run 1/it's $HOME/fio.dat".to_string()),
        "{line}"
    );
    // and imports as the test it ran
    let p = read_command(&line).unwrap();
    assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd32"));
    assert_eq!(p.command.as_deref(), Some(line.as_str()));
    // any argument, and the environment first
    inv.args.push("a\tb \"c\" `d` ~e *f {g,h} !i".into());
    inv.env.push(("LC_ALL".into(), "C x".into()));
    let words = split_command(&inv.display()).unwrap();
    assert_eq!(words[0], "LC_ALL=C x");
    assert_eq!(words[2..], inv.args[..]);
}

#[test]
fn detection() {
    for t in [
        RANDREAD_JSON,
        RANDREAD_TXT,
        NOTE_JSON,
        JOBFILE_TXT,
        FIO2_JSON,
        FIO2_OLD_TXT,
        FIO2_NEW_TXT,
    ] {
        assert!(looks_like(t));
    }
    let dd = "16384+0 records in\n16384+0 records out\n134217728 bytes (134 MB, 128 MiB) copied, 0.25 s, 536 MB/s\n";
    let ioping = "--- /tmp (ext4 /dev/vda) ioping statistics ---\n9 requests completed in 1.64 ms, 36 KiB read, 5.49 k iops, 21.4 MiB/s\n\
        generated 10 requests in 9.00 s, 40 KiB, 1 iops, 4.44 KiB/s\nmin/avg/max/mdev = 148.1 us / 182.1 us / 264.2 us / 36.4 us\n";
    let bonnie = "2.00a,2.00a,vm,1,1795999999,4G,,8192,5,+++++,+++,95981,7,+++++,+++,+++++,+++,+++++,+++,+++++,+++,256,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,,,,,,,,,,,,\n";
    for t in [dd, ioping, bonnie] {
        assert!(!looks_like(t), "{t}");
    }
}

#[test]
fn unrecognised_input_is_an_error_naming_what_was_expected() {
    let e = parse("hello world\n").unwrap_err().to_string();
    assert!(e.contains("expected fio JSON"), "{e}");
    // fio JSON without its jobs is named as such
    let e = parse("{\"fio version\" : \"fio-3.33\"}")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the JSON object starting on line 1 has no \"jobs\" array"),
        "{e}"
    );
    // a job that did only trims gives no read/write metrics
    let e = parse("t: (groupid=0, jobs=1): err= 0: pid=1\n  trim: IOPS=5, BW=20KiB/s (20kB/s)(40KiB/2000msec)\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("no read or write results"), "{e}");
}

#[test]
fn huge_job_counts_saturate_instead_of_overflowing() {
    let block = "j: (groupid=0, jobs=4294967295): err= 0\n  read: IOPS=1, BW=4KiB/s (4kB/s)(8KiB/2000msec)\n";
    let p = one(&block.repeat(2));
    assert_eq!(param(&p, "numjobs"), u32::MAX);
    assert_eq!(m(&p, "read_iops"), 2.0);
}

#[test]
fn nan_in_json_is_tolerated() {
    let text = RANDREAD_JSON.replace("\"bw_agg\" : 96.740619", "\"bw_agg\" : -nan");
    let p = one(&text);
    assert_eq!(m(&p, "read_iops"), 83142.428786);
}

#[test]
fn read_command_gives_id_parameters_and_command() {
    let p = read_command(
        "$ fio --name=r --rw=randread --bs=4k --ioengine=libaio --iodepth=32 \
         --direct=1 --size=1G --runtime=30",
    )
    .unwrap();
    assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd32"));
    assert_eq!(
        p.command.as_deref(),
        Some(
            "fio --name=r --rw=randread --bs=4k --ioengine=libaio --iodepth=32 \
             --direct=1 --size=1G --runtime=30"
        )
    );
    let expected: BTreeMap<String, Value> = [
        ("bs", Value::from(4096)),
        ("direct", Value::from(1)),
        ("iodepth", Value::from(32)),
        ("ioengine", Value::from("libaio")),
        ("numjobs", Value::from(1)),
        ("runtime", Value::from(30.0)),
        ("rw", Value::from("randread")),
        ("size", Value::from(1u64 << 30)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(p.parameters, expected);
    assert!(p.metrics.is_empty());
    let jobs = read_command("fio --rw=write --bs=1M --numjobs=4 --name=w").unwrap();
    assert_eq!(jobs.test_id.as_deref(), Some("fio-write-1m-qd1-j4"));
}

#[test]
fn read_command_refuses_what_names_no_test() {
    let e = read_command("fio --bs=4k --name=x")
        .unwrap_err()
        .to_string();
    assert!(e.contains("expected `--rw=`"), "{e}");
    let e = read_command("fio --rw=read --bs=4k --name=a --name=b")
        .unwrap_err()
        .to_string();
    assert!(e.contains("found 2 `--name` jobs"), "{e}");
    let e = read_command("fio --version").unwrap_err().to_string();
    assert!(e.contains("expected a fio command line"), "{e}");
}

#[test]
fn the_publications_fio_notation_becomes_fio_options() {
    assert_eq!(
        pasted::published_command_line("fio reads.ini: rw=randread bs=4k iodepth=64"),
        "fio --rw=randread --bs=4k --iodepth=64"
    );
    assert_eq!(
        pasted::published_command_line("fio rw=read bs=4k"),
        "fio --rw=read --bs=4k"
    );
    for unchanged in [
        "fio --rw=read --bs=4k",
        "fio job.ini",
        "fio x: rw=read y",
        "fio",
    ] {
        assert_eq!(pasted::published_command_line(unchanged), unchanged);
    }
}

// ------------------------------------------------- several runs in one file

const RUNS_X3_TXT: &str = include_str!("../../../tests/fixtures/fio/runs-appended-x3.txt");
const RUNS_X2_JSON: &str = include_str!("../../../tests/fixtures/fio/runs-appended-x2.json");
const RUNS_W_THEN_R: &str = include_str!("../../../tests/fixtures/fio/runs-write-then-read.txt");

#[test]
fn runs_appended_to_one_text_log_stay_apart() {
    let runs = parse(RUNS_X3_TXT).unwrap();
    assert_eq!(runs.len(), 3, "one result per fio invocation");
    for (p, ios) in runs.iter().zip([34376.0, 31347.0, 32856.0]) {
        assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd8"));
        close(m(p, "read_iops"), ios / 1.001);
        close(m(p, "read_bw"), ios * 4096.0 / 1.001);
        assert_eq!(param(p, "numjobs"), Value::from(1));
    }
}

#[test]
fn runs_appended_as_json_stay_apart() {
    let runs = parse(RUNS_X2_JSON).unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(m(&runs[0], "write_iops"), 23514.485514);
    assert_eq!(m(&runs[1], "write_iops"), 18459.540460);
    for p in &runs {
        assert_eq!(p.test_id.as_deref(), Some("fio-randwrite-4k-qd16"));
    }
}

#[test]
fn write_then_read_pasted_with_and_gives_a_write_and_a_read() {
    let runs = parse(RUNS_W_THEN_R).unwrap();
    assert_eq!(runs.len(), 2);
    let (w, r) = (&runs[0], &runs[1]);
    assert_eq!(w.test_id.as_deref(), Some("fio-write-1m-qd4"));
    assert_eq!(r.test_id.as_deref(), Some("fio-read-1m-qd4"));
    close(m(w, "write_iops"), 3650.0 / 1.001);
    close(m(r, "read_iops"), 625.0 / 1.006);
    assert!(!w.metrics.contains_key("read_iops"), "{:?}", names(w));
    assert!(!r.metrics.contains_key("write_iops"), "{:?}", names(r));
    assert!(w
        .command
        .as_deref()
        .unwrap()
        .starts_with("fio --name=write"));
}

#[test]
fn one_run_with_two_groups_is_still_one_run() {
    assert_eq!(runs::invocations(JOBFILE_TXT).len(), 1);
    assert_eq!(runs::invocations(FIO2_OLD_TXT).len(), 1);
    assert_eq!(runs::invocations(JOBS2_TXT).len(), 1);
    assert_eq!(runs::invocations(RUNS_X3_TXT).len(), 3);
    // text then JSON of the same run (--output-format=normal,json)
    let both = format!("{RANDREAD_TXT}{RANDREAD_JSON}");
    assert_eq!(parse(&both).unwrap().len(), 1);
}

// ----------------------------------------------------------------- terse

const TERSE_V2: &str = include_str!("../../../tests/fixtures/fio/terse-v2.txt");
const TERSE_V3: &str = include_str!("../../../tests/fixtures/fio/terse-v3.txt");
const TERSE_V4_RW: &str = include_str!("../../../tests/fixtures/fio/terse-v4-randrw.txt");
const TERSE_V5: &str = include_str!("../../../tests/fixtures/fio/terse-v5.txt");
const TERSE_V3_J2: &str = include_str!("../../../tests/fixtures/fio/terse-v3-j2.txt");
const TERSE_V3_X2: &str = include_str!("../../../tests/fixtures/fio/terse-v3-x2.txt");
const TERSE_V3_NORMAL: &str = include_str!("../../../tests/fixtures/fio/terse-v3-with-normal.txt");

#[test]
fn terse_v3_in_canonical_units() {
    assert!(looks_like(TERSE_V3));
    let p = one(TERSE_V3);
    assert_eq!(m(&p, "read_io_bytes"), 91176.0 * 1024.0);
    assert_eq!(m(&p, "read_bw"), 91084.0 * 1024.0);
    assert_eq!(unit(&p, "read_bw"), "B/s");
    assert_eq!(m(&p, "read_iops"), 22771.0);
    assert_eq!(m(&p, "runtime"), 1.001);
    assert_eq!(m(&p, "read_clat_mean"), 338.956460e-6);
    assert_eq!(m(&p, "read_lat_mean"), 350.208906e-6);
    assert_eq!(m(&p, "read_clat_p50"), 193e-6);
    assert_eq!(m(&p, "read_clat_p99"), 3883e-6);
    assert_eq!(p.tool_version.as_deref(), Some("3.33"));
    assert!(!p.metrics.contains_key("write_iops"));
}

#[test]
fn terse_v2_has_no_fio_version_field() {
    let p = one(TERSE_V2);
    assert_eq!(m(&p, "read_iops"), 27098.0);
    assert_eq!(m(&p, "read_bw"), 108395.0 * 1024.0);
    assert_eq!(m(&p, "read_clat_p99"), 3620e-6);
    assert_eq!(p.tool_version, None);
}

#[test]
fn terse_v4_and_v5_have_a_trim_section() {
    let p = one(TERSE_V4_RW);
    assert_eq!(m(&p, "read_iops"), 13832.0);
    assert_eq!(m(&p, "write_iops"), 13843.0);
    assert_eq!(m(&p, "write_bw"), 55372.0 * 1024.0);
    assert_eq!(m(&p, "read_clat_p50"), 154e-6);
    let p = one(TERSE_V5);
    assert_eq!(m(&p, "read_iops"), 28380.0);
    assert_eq!(m(&p, "read_bw"), 113522.0 * 1024.0);
    assert_eq!(m(&p, "read_clat_p99"), 313e-6);
}

#[test]
fn terse_jobs_of_one_run_combine_and_appended_runs_do_not() {
    // numjobs=2 without group_reporting: two lines, one disk utilisation
    let p = one(TERSE_V3_J2);
    assert_eq!(m(&p, "read_iops"), 18804.0 + 18923.0);
    // two runs appended: same job, different disk figures
    let runs = parse(TERSE_V3_X2).unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(m(&runs[0], "read_iops"), 28813.0);
    assert_eq!(m(&runs[1], "read_iops"), 32262.0);
}

#[test]
fn terse_with_normal_output_around_it_is_one_result() {
    let p = one(TERSE_V3_NORMAL);
    // the normal output is read (it is the more exact of the two)
    assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd8"));
    close(m(&p, "read_iops"), 29257.0 / 1.007);
}

// ---------------------------------------------------------------- errors

const ERROR22_JSON: &str = include_str!("../../../tests/fixtures/fio/error22.json");
const ERROR22_TXT: &str = include_str!("../../../tests/fixtures/fio/error22.txt");

#[test]
fn fio_errors_are_passed_on() {
    let e = parse(ERROR22_JSON).unwrap_err().to_string();
    assert_eq!(
        e,
        "fio JSON output with error 22 (Invalid argument) in job `randread`"
    );
    let e = parse(ERROR22_TXT).unwrap_err().to_string();
    assert_eq!(
        e,
        "fio text output with error 22 (Invalid argument) in job `randread`"
    );
}

#[test]
fn a_failed_run_among_good_ones_is_a_failed_result() {
    let text = format!("{RANDREAD_TXT}{ERROR22_TXT}");
    let runs = parse(&text).unwrap();
    assert_eq!(runs.len(), 2);
    assert!(runs[0].error.is_none());
    assert!(runs[1].metrics.is_empty());
    assert_eq!(runs[1].test_id.as_deref(), Some("fio-randread-1000-qd8"));
    assert!(runs[1].error.as_deref().unwrap().contains("error 22"));
}

// ------------------------------------------------------------------ yabs

const YABS_TXT: &str = include_str!("../../../tests/fixtures/fio/yabs-v2023-04-23-readme.txt");
const YABS_JSON: &str = include_str!("../../../tests/fixtures/fio/yabs-v2023-04-23-example.json");

#[test]
fn yabs_json_kbps_is_kib_per_second() {
    assert!(looks_like(YABS_JSON));
    let all = parse(YABS_JSON).unwrap();
    assert_eq!(all.len(), 4);
    let p = &all[0];
    assert_eq!(p.test_id.as_deref(), Some("fio-randrw-4k-qd64-j2"));
    assert_eq!(m(p, "read_bw"), 405417.0 * 1024.0);
    assert_eq!(m(p, "write_bw"), 406487.0 * 1024.0);
    assert_eq!(m(p, "read_iops"), 101354.0);
    assert_eq!(m(p, "write_iops"), 101621.0);
    assert_eq!(param(p, "runner"), Value::from("yabs"));
    assert_eq!(param(p, "yabs_version"), Value::from("v2023-04-23"));
    assert_eq!(param(p, "rwmixread"), Value::from(50));
    assert_eq!(param(p, "iodepth"), Value::from(64));
    assert_eq!(param(p, "numjobs"), Value::from(2));
    assert_eq!(all[3].test_id.as_deref(), Some("fio-randrw-1m-qd64-j2"));
    assert_eq!(m(&all[3], "write_iops"), 410.0);
}

#[test]
fn yabs_text_before_mid_2026_prints_mb_for_1000_kib() {
    assert!(looks_like(YABS_TXT));
    let all = parse(YABS_TXT).unwrap();
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
    // `405.41 MB/s` is fio's 405417 KiB/s cut to 405.41 thousands
    close(m(&all[0], "read_bw"), 405410.0 * 1024.0);
    close(m(&all[0], "write_bw"), 406480.0 * 1024.0);
    assert_eq!(m(&all[0], "read_iops"), 101300.0);
    assert_eq!(m(&all[2], "read_iops"), 742.0);
    close(m(&all[3], "write_bw"), 420820.0 * 1024.0);
    assert_eq!(param(&all[0], "yabs_text_mb"), Value::from("1000 KiB/s"));
    // the text agrees with the JSON of the same run within the cut digits
    let json = parse(YABS_JSON).unwrap();
    for (t, j) in all.iter().zip(&json) {
        let (t, j) = (m(t, "read_bw"), m(j, "read_bw"));
        assert!(t <= j && j - t < 10.0 * 1024.0, "{t} vs {j}");
    }
}

#[test]
fn yabs_text_from_v2026_07_03_is_si() {
    let newer = YABS_TXT.replace("v2023-04-23", "v2026-07-03");
    let all = parse(&newer).unwrap();
    assert_eq!(m(&all[0], "read_bw"), 405.41e6);
    assert_eq!(param(&all[0], "yabs_text_mb"), Value::from("1000000 B/s"));
}

#[test]
fn yabs_without_fio_results_names_yabs() {
    let cut = YABS_TXT.split("Block Size").next().unwrap();
    let e = parse(cut).unwrap_err().to_string();
    assert!(e.starts_with("yabs output without fio results"), "{e}");
}

// ----------------------------------------------------------------- json+

const JSONPLUS: &str = include_str!("../../../tests/fixtures/fio/jsonplus-randread.json");
const JSONPLUS_J2: &str = include_str!("../../../tests/fixtures/fio/jsonplus-randread-j2.json");

#[test]
fn json_plus_is_read_as_json() {
    let p = one(JSONPLUS);
    assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd8"));
    assert_eq!(m(&p, "read_iops"), 26169.830170);
    assert_eq!(m(&p, "read_clat_p50"), 158720e-9);
    assert_eq!(m(&p, "read_clat_p99"), 3915776e-9);
    assert_eq!(m(&p, "read_clat_p99_9"), 13565952e-9);
}

#[test]
fn json_plus_bins_give_the_exact_percentiles_of_a_group() {
    // one job: the histogram rule gives what fio printed
    let doc = find_json(JSONPLUS).unwrap();
    let (jobs, _) = json_jobs(&doc).unwrap();
    let read = jobs[0].read.as_ref().unwrap();
    for (key, printed) in &read.clat_pct {
        assert_eq!(
            combine::bins_percentile(&read.clat_bins, *key),
            Some(*printed)
        );
    }
    // two jobs without group_reporting: the merged histogram, not a mean
    let p = one(JSONPLUS_J2);
    assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd4-j2"));
    assert_eq!(m(&p, "read_clat_p50"), 138240e-9);
    assert_eq!(m(&p, "read_clat_p99"), 1875968e-9);
    assert_eq!(m(&p, "read_clat_p99_9"), 4489216e-9);
}

// --------------------------------------------------- client/server, mixed

const CS_JSON: &str = include_str!("../../../tests/fixtures/fio/client-server-mixed.json");
const CS_TXT: &str = include_str!("../../../tests/fixtures/fio/client-server-mixed.txt");

#[test]
fn client_server_json_with_unified_reporting_gives_mixed_metrics() {
    assert!(looks_like(CS_JSON));
    let p = one(CS_JSON);
    assert_eq!(p.test_id.as_deref(), Some("fio-randrw-4k-qd8"));
    assert_eq!(m(&p, "mixed_iops"), 37401.598402);
    assert_eq!(unit(&p, "mixed_iops"), "IOPS");
    assert_eq!(m(&p, "mixed_bw"), 153196947.0);
    assert_eq!(unit(&p, "mixed_bw"), "B/s");
    assert_eq!(m(&p, "mixed_clat_p50"), 148480e-9);
    assert!(!p.metrics.contains_key("read_iops"), "{:?}", names(&p));
    assert_eq!(param(&p, "unified_rw_reporting"), Value::from(1));
    assert_eq!(param(&p, "fio_server"), Value::from("localhost"));
    assert_eq!(param(&p, "fio_server_port"), Value::from(8765));
}

const CS_ALL_CLIENTS: &str =
    include_str!("../../../tests/fixtures/fio/client-server-all-clients-fio2-6.json");
const CS_TWO: &str =
    include_str!("../../../tests/fixtures/fio/client-server-2-clients-fio3-43.json");

#[test]
fn client_server_json_holding_only_all_clients_is_read_as_the_groups_sum() {
    // fio 2.6, `unified_rw_reporting=1`: the group's one entry is fio's sum
    // over every server; fio 2.x JSON gives KiB, KiB/s and usec
    let p = one(CS_ALL_CLIENTS);
    assert_eq!(p.tool_version.as_deref(), Some("2.6"));
    assert_eq!(param(&p, "fio_server"), Value::from("All clients"));
    assert_eq!(param(&p, "fio_server_port"), Value::Null);
    assert_eq!(param(&p, "unified_rw_reporting"), Value::from(1));
    assert_eq!(m(&p, "mixed_bw"), 16653.0 * 1024.0);
    assert_eq!(unit(&p, "mixed_bw"), "B/s");
    assert_eq!(m(&p, "mixed_iops"), 2252.49);
    assert_eq!(m(&p, "mixed_io_bytes"), 2021176.0 * 1024.0);
    assert_eq!(m(&p, "runtime"), 121.363);
    close(m(&p, "mixed_lat_mean"), 1782.92e-6);
    assert_eq!(
        names(&p),
        [
            "mixed_bw",
            "mixed_io_bytes",
            "mixed_iops",
            "mixed_lat_mean",
            "runtime"
        ]
    );
}

#[test]
fn client_server_json_of_two_servers_on_one_host_gives_a_record_per_server() {
    // fio 3.43 with two servers on 127.0.0.1 (ports 18801, 18802): their
    // own entries, not the `All clients` sum, and the options fio lists
    // per server in `global options`
    let all = parse(CS_TWO).unwrap();
    assert_eq!(all.len(), 2);
    let by_port = |port: u64| {
        all.iter()
            .find(|p| param(p, "fio_server_port") == port)
            .unwrap()
    };
    for p in &all {
        assert_eq!(p.test_id.as_deref(), Some("fio-randread-4k-qd1"));
        assert_eq!(param(p, "fio_server"), Value::from("127.0.0.1"));
        assert_eq!(param(p, "ioengine"), Value::from("psync"));
        assert_eq!(m(p, "runtime"), 1.0);
    }
    let a = by_port(18802);
    assert_eq!(m(a, "read_bw"), 4548972544.0);
    assert_eq!(m(a, "read_iops"), 1110589.0);
    assert_eq!(m(a, "read_clat_p99_99"), 23936e-9);
    let b = by_port(18801);
    assert_eq!(m(b, "read_bw"), 4562661376.0);
    assert_eq!(m(b, "read_iops"), 1113931.0);
}

#[test]
fn fio_json_with_an_empty_client_stats_says_so() {
    // what a server that refused the job leaves: fio's document, no entry
    let mut doc = find_json(CS_TWO).unwrap();
    doc["client_stats"] = Value::Array(Vec::new());
    let text = serde_json::to_string_pretty(&doc).unwrap();
    let err = parse(&text).unwrap_err().to_string();
    assert_eq!(
        err,
        "the fio JSON (fio-3.43) has an empty \"client_stats\" array: it holds no job's \
         results (expected one entry per job, or per server and job with `fio --client`, \
         with its read or write figures); run the job again and import that output"
    );
}

#[test]
fn client_server_text_with_unified_reporting_gives_mixed_metrics() {
    let p = one(CS_TXT);
    assert_eq!(p.test_id.as_deref(), Some("fio-randrw-4k-qd8"));
    close(m(&p, "mixed_iops"), 39139.0 / 1.001);
    close(m(&p, "mixed_bw"), 39139.0 * 4096.0 / 1.001);
    assert_eq!(m(&p, "mixed_clat_p99"), 1631e-6);
}

#[test]
fn a_terse_error_names_the_terse_form() {
    let failed = TERSE_V3.replacen(";randread;0;0;", ";randread;0;5;", 1);
    assert_ne!(failed, TERSE_V3);
    let e = parse(&failed).unwrap_err().to_string();
    assert_eq!(
        e,
        "fio terse output with error 5 (Input/output error) in job `randread`"
    );
}

// ------------------------------------------------------ every percentile

/// The percentile metric names of one direction, in fio's default list.
fn pct_names(dir: &str) -> Vec<String> {
    [
        "p1", "p5", "p10", "p20", "p30", "p40", "p50", "p60", "p70", "p80", "p90", "p95", "p99",
        "p99_5", "p99_9", "p99_95", "p99_99",
    ]
    .iter()
    .map(|p| format!("{dir}_clat_{p}"))
    .collect()
}

#[test]
fn percentile_names_follow_the_p99_9_convention() {
    assert_eq!(combine::pct_name(1_000), "p1");
    assert_eq!(combine::pct_name(50_000), "p50");
    assert_eq!(combine::pct_name(99_000), "p99");
    assert_eq!(combine::pct_name(99_500), "p99_5");
    assert_eq!(combine::pct_name(99_900), "p99_9");
    assert_eq!(combine::pct_name(99_950), "p99_95");
    assert_eq!(combine::pct_name(99_990), "p99_99");
    // a percentile_list of the user's own
    assert_eq!(combine::pct_name(99_999), "p99_999");
    assert_eq!(combine::pct_name(100), "p0_1");
    assert_eq!(combine::pct_name(100_000), "p100");
}

#[test]
fn fio3_json_keeps_every_percentile() {
    let p = one(RANDREAD_JSON);
    for name in pct_names("read") {
        assert_eq!(unit(&p, &name), "s", "{name}");
    }
    // "1.000000": 522240, "95.000000": 897024, "99.500000": 5275648,
    // "99.950000": 14876672, "99.990000": 15400960 (ns)
    assert_eq!(m(&p, "read_clat_p1"), 522240e-9);
    assert_eq!(m(&p, "read_clat_p95"), 897024e-9);
    assert_eq!(m(&p, "read_clat_p99_5"), 5275648e-9);
    assert_eq!(m(&p, "read_clat_p99_95"), 14876672e-9);
    assert_eq!(m(&p, "read_clat_p99_99"), 15400960e-9);
    // the three kept before stay as they were
    assert_eq!(m(&p, "read_clat_p50"), 0.000659456);
    assert_eq!(m(&p, "read_clat_p99"), 0.00352256);
    assert_eq!(m(&p, "read_clat_p99_9"), 0.01409024);
    let pcts = names(&p).iter().filter(|n| n.contains("_clat_p")).count();
    assert_eq!(pcts, 17);
}

#[test]
fn fio3_text_keeps_every_percentile() {
    let p = one(RANDREAD_TXT);
    for name in pct_names("read") {
        assert_eq!(unit(&p, &name), "s", "{name}");
    }
    // |  1.00th=[  545], ... 95.00th=[ 1614], ... 99.95th=[41157], 99.99th=[51643]
    assert_eq!(m(&p, "read_clat_p1"), 545e-6);
    assert_eq!(m(&p, "read_clat_p95"), 1614e-6);
    assert_eq!(m(&p, "read_clat_p99_95"), 41157e-6);
    assert_eq!(m(&p, "read_clat_p99_99"), 51643e-6);
    // fio 2.19: 90.00th=[   88], 99.50th=[  190] (usec)
    let p = one(FIO2_NEW_TXT);
    assert_eq!(m(&p, "read_clat_p90"), 88e-6);
    assert_eq!(m(&p, "read_clat_p99_5"), 190e-6);
}

#[test]
fn terse_keeps_every_percentile_and_drops_the_padding() {
    let p = one(TERSE_V3);
    // 5.000000%=134, 95.000000%=593, 99.990000%=22675 (usec); `0%=0` is padding
    assert_eq!(m(&p, "read_clat_p5"), 134e-6);
    assert_eq!(m(&p, "read_clat_p95"), 593e-6);
    assert_eq!(m(&p, "read_clat_p99_99"), 22675e-6);
    assert!(!p.metrics.contains_key("read_clat_p0"));
    let pcts = names(&p).iter().filter(|n| n.contains("_clat_p")).count();
    assert_eq!(pcts, 17);
}

#[test]
fn every_percentile_of_a_write_and_a_merged_group() {
    let p = one(RANDWRITE_JSON);
    for name in pct_names("write") {
        assert!(p.metrics.contains_key(&name), "{name}");
    }
    // "95.000000": 1155072 (ns)
    assert_eq!(m(&p, "write_clat_p95"), 1155072e-9);
    // two jobs with json+ histograms: every percentile from the merged bins
    let p = one(JSONPLUS_J2);
    for name in pct_names("read") {
        assert!(p.metrics.contains_key(&name), "{name}");
    }
    assert!(m(&p, "read_clat_p1") <= m(&p, "read_clat_p50"));
    assert!(m(&p, "read_clat_p99_9") <= m(&p, "read_clat_p99_99"));
}

#[test]
fn fios_own_steadystate_is_kept_under_its_names() {
    // fio 3.33 `--ss=iops_slope:5% --ss_dur=10`: "attained" : 1,
    // "criterion" : "0.348656%"
    let p = one(include_str!(
        "../../../tests/fixtures/fio/steadystate-iops-slope-attained.json"
    ));
    assert_eq!(m(&p, "fio_ss_attained"), 1.0);
    assert_eq!(unit(&p, "fio_ss_attained"), "count");
    close(m(&p, "fio_ss_criterion"), 0.348656);
    assert_eq!(unit(&p, "fio_ss_criterion"), "%");
    assert_eq!(param(&p, "fio_ss"), "iops_slope:5.000000%");
    assert_eq!(param(&p, "fio_ss_duration"), 10.0);
    // diskdash's own verdict comes from the timeline, never from fio's
    assert!(!p.metrics.contains_key("steady_state"));
    assert_eq!(m(&p, "read_iops"), 38158.764368);
    // `--ss=iops_slope:0.0001%`: "attained" : 0, "criterion" : "4.736894%"
    let p = one(include_str!(
        "../../../tests/fixtures/fio/steadystate-iops-slope-not-attained.json"
    ));
    assert_eq!(m(&p, "fio_ss_attained"), 0.0);
    close(m(&p, "fio_ss_criterion"), 4.736894);
    assert_eq!(param(&p, "fio_ss"), "iops_slope:0.000100%");
    // `--ss=bw:1048576 --numjobs=2`: an absolute deviation in B/s per job
    // ("36359780.000000", "39503324.000000"), neither attained; the
    // furthest from steady is kept, as fio prints it
    let p = one(include_str!(
        "../../../tests/fixtures/fio/steadystate-bw-abs-j2.json"
    ));
    assert_eq!(m(&p, "fio_ss_attained"), 0.0);
    assert!(!p.metrics.contains_key("fio_ss_criterion"));
    assert_eq!(param(&p, "fio_ss_criterion"), "39503324.000000");
    assert_eq!(param(&p, "fio_ss"), "bw:1048576.000000");
    assert_eq!(param(&p, "fio_ss_duration"), 5.0);
    // and output without it has none of them
    let p = one(RANDREAD_JSON);
    assert!(!names(&p).iter().any(|n| n.starts_with("fio_ss")));
    assert!(!p.parameters.contains_key("fio_ss"));
}

#[test]
fn a_steadystate_job_is_attained_only_when_every_job_attained_it() {
    let doc = |a: u8, b: u8| {
        let mut v: Value = serde_json::from_str(include_str!(
            "../../../tests/fixtures/fio/steadystate-bw-abs-j2.json"
        ))
        .unwrap();
        for (job, attained) in [(0, a), (1, b)] {
            v["jobs"][job]["steadystate"]["attained"] = attained.into();
            v["jobs"][job]["steadystate"]["criterion"] = format!("{}.5%", job + 1).into();
        }
        one(&v.to_string())
    };
    assert_eq!(m(&doc(1, 1), "fio_ss_attained"), 1.0);
    assert_eq!(m(&doc(1, 0), "fio_ss_attained"), 0.0);
    close(m(&doc(1, 1), "fio_ss_criterion"), 2.5);
}

#[test]
fn a_time_based_job_keeps_its_flag() {
    // fio prints a flag option with an empty value
    let timed = RANDREAD_JSON.replace(
        "\"job options\" : {",
        "\"job options\" : {\n        \"time_based\" : \"\",",
    );
    let p = one(&timed);
    assert_eq!(param(&p, "time_based"), true);
    // `0` turns it off, and a size-bound job has none
    let off = RANDREAD_JSON.replace(
        "\"job options\" : {",
        "\"job options\" : {\n        \"time_based\" : \"0\",",
    );
    assert!(!one(&off).parameters.contains_key("time_based"));
    assert!(!one(RANDREAD_JSON).parameters.contains_key("time_based"));
}

/// The error of parsing `text`, in full.
fn refused(text: &str) -> String {
    format!(
        "{:#}",
        parse(text).expect_err("a bad number refuses the output")
    )
}

#[test]
fn bad_json_numbers_refuse_the_output_naming_field_and_value() {
    let iops = "\"iops\" : 83142.428786";
    for (from, to, says) in [
        (
            iops,
            "\"iops\" : -5",
            "fio JSON output: jobs[0].read.iops is -5: expected a number >= 0",
        ),
        (
            iops,
            "\"iops\" : \"NaN\"",
            "jobs[0].read.iops is \"NaN\": expected a number >= 0",
        ),
        (
            iops,
            "\"iops\" : -nan",
            "jobs[0].read.iops is \"-nan\": expected a number >= 0",
        ),
        (
            iops,
            "\"iops\" : null",
            "jobs[0].read.iops is null: expected a number >= 0",
        ),
        (
            "\"bw\" : 332569",
            "\"bw\" : \"fast\"",
            "jobs[0].read.bw is \"fast\": expected a number >= 0",
        ),
        (
            "\"mean\" : 768919.076301",
            "\"mean\" : -768919.076301",
            "jobs[0].read.lat_ns.mean is -768919.076301: expected a number >= 0",
        ),
        (
            "\"50.000000\" : 659456",
            "\"50.000000\" : \"x\"",
            "jobs[0].read.clat_ns.percentile[\"50.000000\"] is \"x\": expected a number >= 0",
        ),
        (
            "\"50.000000\" : 659456",
            "\"null\" : 659456",
            "jobs[0].read.clat_ns.percentile key is \"null\": expected a percentile from 0 to 100",
        ),
        (
            "\"runtime\" : 2001",
            "\"runtime\" : -2001",
            "jobs[0].read.runtime is -2001: expected a number >= 0",
        ),
    ] {
        assert!(RANDREAD_JSON.contains(from), "{from}");
        let text = RANDREAD_JSON.replacen(from, to, 1);
        let err = refused(&text);
        assert!(err.contains(says), "{to}: {err}");
    }
    // a figure fio did not print stays unknown; the rest is kept
    let text = RANDREAD_JSON.replacen(&format!("{iops},"), "", 1);
    let p = one(&text);
    assert!(!p.metrics.contains_key("read_iops"));
    assert_eq!(m(&p, "read_bw"), 340551388.0);
}

#[test]
fn bad_text_numbers_refuse_the_output_naming_field_and_value() {
    for (from, to, says) in [
        (
            "IOPS=72.6k",
            "IOPS=-5",
            "fio text output: IOPS= of the `read:` line of job `randread` is \"-5\": expected a number >= 0",
        ),
        ("IOPS=72.6k", "IOPS=NaN", "IOPS= of the `read:` line of job `randread` is \"NaN\""),
        ("BW=284MiB/s", "BW=fast", "BW= of the `read:` line of job `randread` is \"fast\""),
        (
            "avg=875.63",
            "avg=-875.63",
            "clat (usec) avg= of the `read:` line of job `randread` is \"-875.63\"",
        ),
        (
            "50.00th=[  660]",
            "500.00th=[  660]",
            "a clat percentile of the `read:` line of job `randread` is \"500.00\": expected a percentile from 0 to 100",
        ),
        (
            "50.00th=[  660]",
            "50.00th=[ -660]",
            "clat percentile 50.00th of the `read:` line of job `randread` is \"-660\"",
        ),
    ] {
        assert!(RANDREAD_TXT.contains(from), "{from}");
        let err = refused(&RANDREAD_TXT.replacen(from, to, 1));
        assert!(err.contains(says), "{to}: {err}");
    }
}

#[test]
fn bad_terse_numbers_refuse_the_output_naming_field_and_value() {
    let line = include_str!("../../../tests/fixtures/fio/terse-v3.txt");
    for (from, to, says) in [
        (
            ";22771;",
            ";-5;",
            "fio terse output: field 8 (read IOPS) of the terse line of job `randread` is \"-5\": expected a number >= 0",
        ),
        (";91084;", ";fast;", "field 7 (read bandwidth in KiB/s) of the terse line of job `randread` is \"fast\""),
        (";50.000000%=193;", ";50.000000%=nan;", "(clat percentile 50.000000%=nan) is \"nan\""),
        (
            ";50.000000%=193;",
            ";-0.5%=193;",
            "(a clat percentile) is \"-0.5\": expected a percentile from 0 to 100",
        ),
    ] {
        assert!(line.contains(from), "{from}");
        let err = refused(&line.replacen(from, to, 1));
        assert!(err.contains(says), "{to}: {err}");
    }
}

#[test]
fn bad_yabs_numbers_refuse_the_output_naming_field_and_value() {
    for (from, to, says) in [
        (
            "405.41 MB/s (101.3k)",
            "-405.41 MB/s (101.3k)",
            "yabs output: the `Read` row's column 1 of yabs's fio table is \"-405.41 MB/s\": expected a number >= 0",
        ),
        ("405.41 MB/s (101.3k)", "405.41 MB/s (fast)", "column 1 of yabs's fio table is \"(fast)\""),
    ] {
        assert!(YABS_TXT.contains(from), "{from}");
        let err = refused(&YABS_TXT.replacen(from, to, 1));
        assert!(err.contains(says), "{to}: {err}");
    }
    for (to, says) in [
        (
            "\"iops_r\": -1",
            "yabs JSON output: fio[0].iops_r is -1: expected a number >= 0",
        ),
        ("\"iops_r\": \"NaN\"", "fio[0].iops_r is \"NaN\""),
    ] {
        let text = YABS_JSON.replacen("\"iops_r\": 101354", to, 1);
        assert_ne!(text, YABS_JSON);
        let err = refused(&text);
        assert!(err.contains(says), "{to}: {err}");
    }
}

#[test]
fn a_sum_past_the_largest_double_is_kept_infinite_for_validation_not_dropped() {
    // two jobs of one group, each with 1.7e308 bytes: their sum is infinite
    let text = JOBS2_JSON
        .replacen("\"io_bytes\" : 1956642816", "\"io_bytes\" : 1.7e308", 1)
        .replacen("\"io_bytes\" : 1231028224", "\"io_bytes\" : 1.7e308", 1);
    let p = one(&text);
    // kept, so that `import` and `run` refuse the record (validation
    // allows no infinity) instead of writing it without its bandwidth
    assert_eq!(m(&p, "read_io_bytes"), f64::INFINITY);
    assert_eq!(m(&p, "read_bw"), f64::INFINITY);
}

// ------------------------------------ group rates, ramp_time, prefixed JSON

/// dbench (`fbuchmeier/dbench`, fio 2.17) on an Azure Files volume: every
/// test with `--ramp_time=2s`, the sequential ones with `--numjobs=4`
/// without `group_reporting`, so four jobs per group that end at
/// different times.
const DBENCH_TXT: &str = include_str!("../../../tests/fixtures/fio/dbench-fio2-17-azurefile.txt");
/// kubestr's fio 3.20 JSON (`ramp_time=2s`, jobs `read_iops` and
/// `write_iops` in one group) inside a Go constant: the JSON starts after
/// `const parsableFioOutput = \`` on its first line.
const KUBESTR_GO: &str =
    include_str!("../../../tests/fixtures/fio/prefixed-go-const-kubestr-fio3-20.txt");

/// Whether `value` is what fio would print as `printed` (one unit of the
/// last digit either way, as [`Printed::admits`]).
fn printed_as(value: f64, printed: f64, unit_of_last_digit: f64) -> bool {
    (value - printed).abs() <= unit_of_last_digit
}

#[test]
fn a_group_of_jobs_ending_at_different_times_is_its_bytes_over_its_longest_runtime() {
    let all = parse(DBENCH_TXT).unwrap();
    assert_eq!(all.len(), 9, "one result per dbench test");
    let (seq_read, seq_write) = (&all[6], &all[7]);
    let mib = 1048576.0;
    assert_eq!(seq_read.test_id.as_deref(), Some("fio-read-1m-qd16-j4"));
    // jobs of 430, 542, 441 and 481 MiB in 15598, 15936, 15345 and 16057
    // msec: `READ: bw=118MiB/s (124MB/s), ..., io=1894MiB (1986MB),
    // run=15345-16057msec`
    let bw = m(seq_read, "read_bw");
    close(bw, 1894.0 * mib / 16.057);
    assert!(printed_as(bw, 118.0 * mib, mib), "{bw} is fio's 118MiB/s");
    assert!(printed_as(bw, 124e6, 1e6), "{bw} is fio's 124MB/s");
    // the jobs' own rates add up to 119.7 MiB/s (27.6 + 34.2 + 28.8 +
    // 29.1), more than fio's group figure
    assert!(bw < 118.5 * mib);
    // the group's I/Os over its longest runtime
    close(
        m(seq_read, "read_iops"),
        (415.0 + 527.0 + 426.0 + 466.0) / 16.057,
    );
    assert_eq!(m(seq_read, "runtime"), 16.057);
    assert_eq!(param(seq_read, "numjobs"), 4);
    // `WRITE: bw=123MiB/s (129MB/s), ..., io=2309MiB (2421MB),
    // run=18586-18715msec`
    assert_eq!(seq_write.test_id.as_deref(), Some("fio-write-1m-qd16-j4"));
    let bw = m(seq_write, "write_bw");
    close(bw, 2309.0 * mib / 18.715);
    assert!(printed_as(bw, 123.0 * mib, mib), "{bw} is fio's 123MiB/s");
    assert!(printed_as(bw, 129e6, 1e6), "{bw} is fio's 129MB/s");
}

#[test]
fn with_ramp_time_the_printed_bandwidth_wins_over_the_issued_count() {
    let all = parse(DBENCH_TXT).unwrap();
    let read_iops = &all[0];
    assert_eq!(read_iops.test_id.as_deref(), Some("fio-randread-4k-qd64"));
    // `read: IOPS=549, BW=2214KiB/s (2267kB/s)(32.2MiB/15257msec)` and
    // `issued rwt: total=8381`: 8381 4 KiB blocks in 15.257 s would be
    // 2197 KiB/s, 0.8% below what fio printed, because the issued count
    // leaves out the I/Os in flight when the 2 s ramp ended
    let issued_rate = 8381.0 * 4096.0 / 15.257;
    let bw = m(read_iops, "read_bw");
    assert_eq!(bw, 2267000.0, "the printed form with the most digits");
    assert!(printed_as(bw, 2214.0 * 1024.0, 1024.0));
    assert!((bw - issued_rate) / bw > 0.007);
    // IOPS is fio's own formula, the issued count over the runtime
    close(m(read_iops, "read_iops"), 8381.0 / 15.257);
    // the same on fio's JSON: `bw_bytes` (io_bytes over runtime), not
    // `total_ios` times the block size (15109 blocks were counted, 15046
    // issued after the ramp)
    let all = parse(KUBESTR_GO).unwrap();
    assert_eq!(m(&all[0], "read_bw"), 4039322.0);
    assert_eq!(m(&all[0], "read_iops"), 982.05078);
}

#[test]
fn fio_json_after_a_prefix_on_its_line_is_found() {
    assert!(KUBESTR_GO.starts_with("const parsableFioOutput = `{\n"));
    let all = parse(KUBESTR_GO).unwrap();
    assert_eq!(all.len(), 2);
    let (r, w) = (&all[0], &all[1]);
    assert_eq!(r.tool_version.as_deref(), Some("3.20"));
    // two job sections ran together in group 0: one record each, saying so
    assert_eq!(r.test_id.as_deref(), Some("fio-randread-4k-qd64"));
    assert_eq!(w.test_id.as_deref(), Some("fio-randwrite-4k-qd64"));
    assert!(names(r).iter().all(|n| !n.starts_with("write_")));
    assert!(names(w).iter().all(|n| !n.starts_with("read_")));
    assert_eq!(m(w, "write_iops"), 390.525218);
    assert_eq!(m(w, "write_bw"), 1616406.0);
    for p in [r, w] {
        assert_eq!(param(p, "fio_group_jobs"), 2);
    }
}

#[test]
fn a_cut_off_fio_json_is_named_as_cut_off_not_as_lacking_jobs() {
    let cut = KUBESTR_GO.get(..KUBESTR_GO.len() / 2).unwrap();
    let err = parse(cut).unwrap_err().to_string();
    assert!(
        err.contains("the fio JSON object starting on line 1 is cut off before its end"),
        "{err}"
    );
    assert!(!err.contains("\"jobs\" array"), "{err}");
    // and one broken inside names the line
    let broken = KUBESTR_GO.replacen("\"bw\" : 3944,", "\"bw\" : 3944,,", 1);
    let err = parse(&broken).unwrap_err().to_string();
    assert!(
        err.contains("is not valid JSON at line 34, column 17: key must be a string"),
        "{err}"
    );
}

#[test]
fn the_2_17_job_header_gives_the_block_size() {
    let h = job_header(
        "read_iops: (g=0): rw=randread, bs=4096B-4096B,4096B-4096B,4096B-4096B, \
         ioengine=libaio, iodepth=64",
    )
    .unwrap();
    assert_eq!(h.bs, vec![(4096, 4096); 3]);
    assert_eq!(h.iodepth, Some(64));
}

#[test]
fn fio_json_inside_other_json_is_refused_saying_where_it_is() {
    // kubestr's `-o json` puts fio's JSON at `[0].Raw.result` (its
    // `TestOutput` and `RunFIOResult` types); no real such output was found
    // to read it from, so it is refused, saying what was found
    let fio = KUBESTR_GO
        .trim_start_matches("const parsableFioOutput = `")
        .trim_end()
        .trim_end_matches('`');
    let wrapped =
        format!("[{{\"TestName\": \"FIO test results\",\n\"Raw\": {{\"result\": {fio}}}}}]");
    let err = parse(&wrapped).unwrap_err().to_string();
    assert!(
        err.contains("the fio JSON object on line 2 is inside other JSON"),
        "{err}"
    );
}

#[test]
fn braces_are_paired_outside_strings_and_unclosed_ones_are_left_out() {
    let text = "{ \"a\": \"}{\" , \"b\": {\"c\": 1} }\n{ never closed\n\"x {\n{}";
    let pairs = Objects::of(text).pairs;
    let at = |s: &str| text.find(s).unwrap();
    // the braces in the string are not counted; the string of line 3 ends
    // with its line, so the `{}` after it is an object
    assert_eq!(
        pairs,
        vec![
            (0, at(" }\n") + 1),
            (at("{\"c\""), at("1}") + 1),
            (text.len() - 2, text.len() - 1)
        ]
    );
}

#[test]
fn fio_json_after_many_braces_that_never_close_is_found_reading_the_text_once() {
    // 40,000 lines that each open an object that a JSON parser reads to the
    // end of the text before failing: tried one by one from every `{`, this
    // is 40,000 reads of 1.5 MB
    let mut text = "{\"fio version\" : \"fio-3.33\", \"a\":[1,\n".repeat(40_000);
    text.push_str(RANDREAD_JSON);
    let found = find_json(&text).expect("the fio JSON after them");
    assert_eq!(found, find_json(RANDREAD_JSON).unwrap());
    assert!(found["jobs"].is_array());
    assert_eq!(super::runs::invocations(&text).len(), 1);
}

#[test]
fn how_steadily_a_run_held_its_level_is_read_from_fios_own_samples() {
    let held = |text: &str, metric: &str| {
        super::held_level(text, metric).map(|h| ((h.spread * 10_000.0).round() / 100.0, h.samples))
    };
    let qd64 = include_str!("../../../tests/fixtures/fio/throttled-randread-4k-qd64-20s.json");
    // iops_stddev 48.022262 over iops_mean 3015.384615: 1.59%, 39 samples
    assert_eq!(held(qd64, "read_iops"), Some((1.59, 39)));
    // no writes, so no samples of them
    assert_eq!(held(qd64, "write_iops"), None);
    let mixed = include_str!("../../../tests/fixtures/fio/throttled-randrw70-4k-qd32-20s.json");
    assert_eq!(held(mixed, "read_iops"), Some((2.11, 39)));
    // bandwidth: bw_dev 277.188117 over bw_mean 5148.102564
    assert_eq!(held(mixed, "write_bw"), Some((5.38, 39)));
    // a latency has no per-interval samples
    assert_eq!(held(mixed, "read_clat_p99"), None);
    // one group of two jobs reported as one: fio's samples of the group,
    // iops_stddev 2873.207174 over iops_mean 54658
    assert_eq!(held(GROUPED_JSON, "read_iops"), Some((5.26, 6)));
    // two jobs reported apart are not one level (each has its samples:
    // bw_samples 3); fio 2.1's two jobs also count no samples
    assert_eq!(held(JOBS2_JSON, "read_bw"), None);
    assert_eq!(held(FIO2_JSON, "read_bw"), None);
    // text output has none to read
    assert_eq!(held(RANDREAD_TXT, "read_iops"), None);
}
