//! Property tests: the fio parser never panics, whatever it is given, and
//! whatever it returns is finite and in canonical units.

use diskdash::tools::fio;
use diskdash::units::Unit;
use proptest::prelude::*;

const FIXTURES: &[&str] = &[
    include_str!("../fixtures/fio/randread-4k-qd64.json"),
    include_str!("../fixtures/fio/randread-4k-qd64.txt"),
    include_str!("../fixtures/fio/randwrite-4k-qd64.json"),
    include_str!("../fixtures/fio/note-sync-qd4.json"),
    include_str!("../fixtures/fio/read-1m-qd1-j2.json"),
    include_str!("../fixtures/fio/read-1m-qd1-j2.txt"),
    include_str!("../fixtures/fio/randread-4k-qd8-j2-group.json"),
    include_str!("../fixtures/fio/randrw-4k-qd16.json"),
    include_str!("../fixtures/fio/randrw-4k-qd16.txt"),
    include_str!("../fixtures/fio/jobfile-two-groups.txt"),
    include_str!("../fixtures/fio/fio2-1-11-randread-j2.json"),
    include_str!("../fixtures/fio/fio2-0-13-two-groups.txt"),
    include_str!("../fixtures/fio/fio2-19-randread.txt"),
    include_str!("../fixtures/fio/runs-appended-x3.txt"),
    include_str!("../fixtures/fio/runs-appended-x2.json"),
    include_str!("../fixtures/fio/runs-write-then-read.txt"),
    include_str!("../fixtures/fio/terse-v2.txt"),
    include_str!("../fixtures/fio/terse-v3.txt"),
    include_str!("../fixtures/fio/terse-v4-randrw.txt"),
    include_str!("../fixtures/fio/terse-v5.txt"),
    include_str!("../fixtures/fio/terse-v3-j2.txt"),
    include_str!("../fixtures/fio/terse-v3-x2.txt"),
    include_str!("../fixtures/fio/terse-v3-with-normal.txt"),
    include_str!("../fixtures/fio/error22.json"),
    include_str!("../fixtures/fio/error22.txt"),
    include_str!("../fixtures/fio/client-server-mixed.json"),
    include_str!("../fixtures/fio/client-server-mixed.txt"),
    include_str!("../fixtures/fio/jsonplus-randread.json"),
    include_str!("../fixtures/fio/jsonplus-randread-j2.json"),
    include_str!("../fixtures/fio/yabs-v2023-04-23-readme.txt"),
    include_str!("../fixtures/fio/yabs-v2023-04-23-example.json"),
    // a fixture with the JSON and text outputs back to back
    concat!(
        include_str!("../fixtures/fio/randread-4k-qd64.txt"),
        include_str!("../fixtures/fio/randread-4k-qd64.json")
    ),
];

/// Parses `text` and checks every metric it returns.
fn check(text: &str) {
    let _ = fio::looks_like(text);
    if let Ok(groups) = fio::parse(text) {
        for g in groups {
            for (name, m) in &g.metrics {
                assert!(
                    m.value.is_finite() && m.value >= 0.0,
                    "{name} = {}",
                    m.value
                );
                assert!(Unit::parse(m.unit).is_some(), "{name} has unit {}", m.unit);
            }
        }
    }
    if fio::parse(text).is_ok() {
        records_pass_check(text, diskdash::record::Tool::Fio);
    }
}

/// Whatever records `import` makes of `text` pass `check`: parsed back from
/// the JSON that would be written, with the validation `check` applies.
fn records_pass_check(text: &str, tool: diskdash::record::Tool) {
    let subject = diskdash::record::Subject::default();
    if let Ok(records) =
        diskdash::import::records_from_output("fuzz", text.as_bytes(), Some(tool), &subject, None)
    {
        for r in records {
            let json = diskdash::record::to_json(&r).unwrap();
            if let Err(why) = diskdash::record::from_json(&json) {
                panic!("import made a record check refuses: {why}");
            }
        }
    }
}

/// Byte offset of the char boundary at or before `at`.
fn boundary(s: &str, at: usize) -> usize {
    let mut i = at.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Tokens fio output is made of, to build strings that get deep into the parser.
fn fio_token() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("\n".to_string()),
        Just(" ".to_string()),
        Just(
            "x: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4K-64K, ioengine=libaio, iodepth="
                .to_string()
        ),
        Just("j: (groupid=0, jobs=".to_string()),
        Just("): err= 0\n".to_string()),
        Just("4294967295".to_string()),
        Just("  read: IOPS=".to_string()),
        Just("  write: io=".to_string()),
        Just("  mixed: IOPS=".to_string()),
        Just("{\"client_stats\":[{\"jobname\":\"All clients\",\"mixed\":{\"iops\":".to_string()),
        Just(", BW=".to_string()),
        Just(", bw=".to_string()),
        Just(", iops=".to_string()),
        Just(", runt=".to_string()),
        Just("msec".to_string()),
        Just("KB/s".to_string()),
        Just("MiB/s (".to_string()),
        Just(")(".to_string()),
        Just("/".to_string()),
        Just("clat (usec): min=1, max=2k, avg=".to_string()),
        Just(" lat (nsec): avg=".to_string()),
        Just("clat percentiles (msec):\n".to_string()),
        Just("     | 50.00th=[".to_string()),
        Just("], 99.90th=[".to_string()),
        Just("issued rwts: total=".to_string()),
        Just("issued    : total=r=".to_string()),
        Just(" short=".to_string()),
        Just("fio-".to_string()),
        Just("$ fio --name=a --bs=".to_string()),
        Just("[global]\nbs=".to_string()),
        Just("{\"fio version\":\"fio-2.0\",\"jobs\":[{\"read\":{\"io_bytes\":".to_string()),
        Just(",\"iops\":".to_string()),
        Just(
            ",\"clat\":{\"mean\":1e308,\"max\":1,\"percentile\":{\"0.00\":0,\"99.000000\":"
                .to_string()
        ),
        Just("}}}]}".to_string()),
        Just("3;fio-3.33;j;0;0;".to_string()),
        Just("2;j;0;22;".to_string()),
        Just(";".to_string()),
        Just("0;0;0;0;".to_string()),
        Just("99.000000%=".to_string()),
        Just("fio Disk Speed Tests (Mixed R/W 50/50):\n".to_string()),
        Just("Block Size | 4k (IOPS) | 1m (IOPS)\n".to_string()),
        Just("Read | 405.41 MB/s (101.3k) | ".to_string()),
        Just("{\"fio\":[{\"bs\":\"4k\",\"speed_r\":".to_string()),
        "[0-9]{1,25}(\\.[0-9]{0,4})?[kKMG]?".prop_map(|s| s),
        "-?[0-9]{1,3}e[0-9]{1,3}".prop_map(|s| s),
        any::<char>().prop_map(|c| c.to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        check(&s);
    }

    #[test]
    fn fio_like_token_soup_never_panics(tokens in proptest::collection::vec(fio_token(), 0..60)) {
        check(&tokens.concat());
    }

    #[test]
    fn truncated_fixtures_never_panic(i in 0..FIXTURES.len(), at in 0usize..20_000) {
        let text = FIXTURES[i];
        check(&text[..boundary(text, at)]);
        check(&text[boundary(text, at)..]);
    }

    #[test]
    fn mutated_fixtures_never_panic(
        i in 0..FIXTURES.len(),
        edits in proptest::collection::vec((0usize..20_000, 0usize..40, ".{0,12}"), 1..8),
    ) {
        let mut text = FIXTURES[i].to_string();
        for (at, len, insert) in edits {
            let start = boundary(&text, at);
            let end = boundary(&text, start + len);
            text.replace_range(start..end, &insert);
        }
        check(&text);
    }

    #[test]
    fn shuffled_fixture_lines_never_panic(
        i in 0..FIXTURES.len(),
        order in proptest::collection::vec(0usize..600, 0..200),
    ) {
        let lines: Vec<&str> = FIXTURES[i].lines().collect();
        let text: Vec<&str> = order.iter().filter_map(|&k| lines.get(k % lines.len().max(1)).copied()).collect();
        check(&text.join("\n"));
    }
}
