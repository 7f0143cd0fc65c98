//! Property tests of the bonnie++ parser: no input makes it panic, and
//! generated CSV lines come back with exactly the values written into them.

use diskdash::tools::bonnie::{looks_like, parse};
use diskdash::units::Unit;
use proptest::prelude::*;

const FIXTURES: &[&str] = &[
    include_str!("../fixtures/bonnie/2.00a-quiet.csv"),
    include_str!("../fixtures/bonnie/2.00a-table.txt"),
    include_str!("../fixtures/bonnie/2.00a-files-only.csv"),
    include_str!("../fixtures/bonnie/2.00a-x2-with-command.log"),
    include_str!("../fixtures/bonnie/1.96-rackspace-sata.csv"),
    include_str!("../fixtures/bonnie/1.97-fast-concurrent.csv"),
    include_str!("../fixtures/bonnie/1.03-ec2-m1small.txt"),
    include_str!("../fixtures/bonnie/1.03-fast-mode.csv"),
    include_str!("../fixtures/bonnie/1.03-lkml-csv-with-text-between.txt"),
    include_str!("../fixtures/bonnie/1.03-lkml-tables-four-runs.txt"),
    include_str!("../fixtures/bonnie/1.03-lkml-mail-wrapped.txt"),
    include_str!("../fixtures/bonnie/1.03-lkml-quoted-wrapped.txt"),
    include_str!("../fixtures/bonnie/1.03-lkml-fast-three-kernels.txt"),
];

/// Every value a parse returns is finite, non-negative and in a canonical unit.
fn check_sane(text: &str) {
    if let Ok(results) = parse(text) {
        assert!(!results.is_empty());
        for p in results {
            for (name, m) in &p.metrics {
                assert!(
                    m.value.is_finite() && m.value >= 0.0,
                    "{name} = {}",
                    m.value
                );
                assert!(Unit::parse(m.unit).is_some(), "{name} in {}", m.unit);
            }
            assert_eq!(p.test_id.as_deref(), Some("bonnie"));
        }
    }
    if parse(text).is_ok() {
        records_pass_check(text, diskdash::record::Tool::Bonnie);
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

/// A result field: a number, or `+++++` (too fast), or empty (not run).
fn result_field() -> impl Strategy<Value = Option<u32>> {
    prop_oneof![3 => (0u32..5_000_000).prop_map(Some), 1 => Just(None)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn never_panics_on_arbitrary_text(text in any::<String>()) {
        let _ = looks_like(&text);
        check_sane(&text);
    }

    #[test]
    fn never_panics_on_csv_like_text(text in "[0-9a-zA-Z+,:./ \n-]{0,600}") {
        let _ = looks_like(&text);
        check_sane(&text);
    }

    #[test]
    fn never_panics_on_mutated_fixtures(
        which in 0usize..FIXTURES.len(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0usize..8, "[0-9a-z+,:.µ\n ]{0,6}"), 1..6),
    ) {
        let mut bytes = FIXTURES[which].as_bytes().to_vec();
        for (at, len, insert) in edits {
            let start = at.index(bytes.len() + 1);
            let end = (start + len).min(bytes.len());
            bytes.splice(start..end, insert.bytes());
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = looks_like(&text);
        check_sane(&text);
    }

    #[test]
    fn a_replaced_field_parses_or_names_its_line(
        which in 0usize..FIXTURES.len(),
        field in any::<prop::sample::Index>(),
        replacement in "[^,\n\r]{0,12}",
    ) {
        let text = FIXTURES[which];
        // the last line of every fixture is a CSV line
        let last = text.lines().count();
        let line = text.lines().last().unwrap_or("");
        let mut fields: Vec<String> = line.split(',').map(str::to_string).collect();
        let i = field.index(fields.len());
        fields[i] = replacement;
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines.pop();
        lines.push(fields.join(","));
        let mutated = lines.join("\n");
        match parse(&mutated) {
            Ok(_) => check_sane(&mutated),
            Err(e) => {
                let msg = format!("{e:#}");
                // only the edited line can be wrong; it may also have turned
                // into a header or command line, leaving no CSV at all
                prop_assert!(
                    msg.starts_with(&format!("line {last}: ")) || msg.starts_with("no bonnie++ CSV"),
                    "{}", msg
                );
            }
        }
    }

    #[test]
    fn generated_1_98_lines_round_trip(
        io in proptest::collection::vec(result_field(), 12),
        files in proptest::collection::vec(result_field(), 12),
        lat in proptest::collection::vec(proptest::option::of((1u32..100_000, 0usize..3)), 12),
    ) {
        let show = |v: &Option<u32>, cpu: bool| match v {
            Some(n) => n.to_string(),
            None if cpu => "+++".to_string(),
            None => "+++++".to_string(),
        };
        let mut fields: Vec<String> = ["1.98", "2.00a", "box", "1", "42", "4G", "", "8192", "5"]
            .iter().map(|s| s.to_string()).collect();
        fields.extend(io.iter().enumerate().map(|(k, v)| show(v, k % 2 == 1)));
        fields.extend(["16", "", "", "", ""].iter().map(|s| s.to_string()));
        fields.extend(files.iter().enumerate().map(|(k, v)| show(v, k % 2 == 1)));
        const UNITS: [(&str, f64); 3] = [("us", 1e6), ("ms", 1e3), ("s", 1.0)];
        fields.extend(lat.iter().map(|l| match l {
            Some((n, u)) => format!("{n}{}", UNITS[*u].0),
            None => String::new(),
        }));
        prop_assert_eq!(fields.len(), 50);
        let results = parse(&fields.join(",")).unwrap();
        prop_assert_eq!(results.len(), 1);
        let p = &results[0];
        let get = |name: &str| p.metrics.get(name).map(|m| m.value);

        let io_names = ["seq_char_write_bw", "seq_block_write_bw", "rewrite_bw",
            "seq_char_read_bw", "seq_block_read_bw", "random_seeks"];
        let file_names = ["seq_create", "seq_stat", "seq_delete",
            "random_create", "random_stat", "random_delete"];
        for (k, name) in io_names.iter().enumerate() {
            let scale = if k < 5 { 1024.0 } else { 1.0 };
            prop_assert_eq!(get(name), io[2 * k].map(|v| f64::from(v) * scale));
            prop_assert_eq!(get(&format!("{name}_cpu")), io[2 * k + 1].map(f64::from));
            prop_assert_eq!(get(&format!("{name}_lat")),
                lat[k].map(|(n, u)| f64::from(n) / UNITS[u].1));
        }
        for (k, name) in file_names.iter().enumerate() {
            prop_assert_eq!(get(name), files[2 * k].map(f64::from));
            prop_assert_eq!(get(&format!("{name}_cpu")), files[2 * k + 1].map(f64::from));
            prop_assert_eq!(get(&format!("{name}_lat")),
                lat[6 + k].map(|(n, u)| f64::from(n) / UNITS[u].1));
        }
        let present = io.iter().chain(&files).filter(|v| v.is_some()).count()
            + lat.iter().filter(|v| v.is_some()).count();
        prop_assert_eq!(p.metrics.len(), present);
    }
}
