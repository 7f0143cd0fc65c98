//! Property tests: the dd and ioping parsers never panic, on arbitrary text
//! or on mutated real output, and whatever they accept carries only finite,
//! non-negative values in canonical units.

use std::path::Path;

use diskdash::record::Tool;
use diskdash::tools::{self, dd, ioping, Parsed};
use diskdash::units::Unit;
use proptest::prelude::*;

/// Every fixture of one tool, as text.
fn fixtures(tool: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(tool);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        // the folder's README says where the fixtures come from
        .filter(|p| p.extension().is_none_or(|x| x != "md"))
        .collect();
    // sorted so that a failing case names the same fixture on every run
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect()
}

/// What every accepted result must satisfy.
fn check_results(results: &[Parsed]) {
    for r in results {
        for (name, m) in &r.metrics {
            assert!(m.value.is_finite(), "{name} = {}", m.value);
            assert!(m.value >= 0.0, "{name} = {}", m.value);
            assert!(Unit::parse(m.unit).is_some(), "{name} unit {}", m.unit);
        }
    }
}

/// Runs both parsers (and detection) on `text`; panics only through the
/// assertions above. Returns which tools' parsers accepted it.
fn parse_both(text: &str) -> Vec<Tool> {
    let _ = dd::looks_like(text);
    let _ = ioping::looks_like(text);
    let _ = tools::detect(text);
    let mut accepted = Vec::new();
    for tool in [Tool::Dd, Tool::Ioping] {
        if let Ok(r) = tools::parse(tool, text) {
            assert!(!r.is_empty());
            check_results(&r);
            accepted.push(tool);
        }
    }
    accepted
}

/// [`parse_both`], and every record `import` makes of what was accepted
/// passes `check`.
fn exercise(text: &str) {
    for tool in parse_both(text) {
        records_pass_check(text, tool);
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

/// The nearest char boundary at or below `i`.
fn boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Text with the characters these parsers look at, so that random input
/// often gets past the first checks.
fn tool_like() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("bytes".to_string()),
            Just(" byte".to_string()),
            Just("copied, ".to_string()),
            Just(" s, ".to_string()),
            Just("+0 records in\n".to_string()),
            Just("Infinity B/s".to_string()),
            Just(" requests completed in ".to_string()),
            Just(" k iops, ".to_string()),
            Just(" MiB/s\n".to_string()),
            Just("min/avg/max/mdev = ".to_string()),
            Just(" us / ".to_string()),
            Just("ioping -RLC ".to_string()),
            Just("dd if=/dev/zero of=/dev/null bs=".to_string()),
            Just("for i in 1 2; do dd if=f of=/dev/zero bs=".to_string()),
            Just("; done # runs\n".to_string()),
            Just("ioping -q -i 0 -w 3 -S 64m ".to_string()),
            Just("{\"stat\": {\"count\": ".to_string()),
            Just("[".to_string()),
            "[0-9]{1,25}",
            "[0-9]{1,3}\\.[0-9]{1,3}(e-?[0-9]{1,3})?",
            "[ ,()/=\\r\\n.+kKMGx-]",
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        exercise(&text);
    }

    #[test]
    fn tool_like_text_never_panics(text in tool_like()) {
        exercise(&text);
    }

    #[test]
    fn mutated_fixtures_never_panic(
        which in 0usize..64,
        at in 0usize..4096,
        cut in 0usize..64,
        insert in "(.|[0-9 ,.\\r\\n/]){0,12}",
    ) {
        let all: Vec<String> = fixtures("dd").into_iter().chain(fixtures("ioping")).collect();
        let base = &all[which % all.len()];
        let start = boundary(base, at % (base.len() + 1));
        let end = boundary(base, start + cut).max(start);
        let mutated = format!("{}{insert}{}", &base[..start], &base[end..]);
        exercise(&mutated);
    }
}

#[test]
fn every_prefix_of_every_fixture_is_safe() {
    for text in fixtures("dd").iter().chain(fixtures("ioping").iter()) {
        // thousands of cuts: the parsers only (the proptests cover records)
        for (i, _) in text.char_indices() {
            parse_both(&text[..i]);
            parse_both(&text[i..]);
        }
    }
}

#[test]
fn every_fixture_is_detected_as_its_tool() {
    // the hand-written foreign-language dd output is detected as dd so that
    // import can say to use LC_ALL=C
    for text in fixtures("dd") {
        assert_eq!(tools::detect(&text), Some(Tool::Dd), "{text}");
    }
    for text in fixtures("ioping") {
        assert_eq!(tools::detect(&text), Some(Tool::Ioping), "{text}");
    }
}

#[test]
fn every_cut_of_a_benchmark_script_report_is_safe_and_its_records_pass_check() {
    // bench.sh, nench and iobench reports, read through dd
    for text in fixtures("benchsh") {
        assert_eq!(tools::detect(&text), Some(Tool::Dd), "{text}");
        let records = diskdash::import::records_from_output(
            "script.txt",
            text.as_bytes(),
            None,
            &diskdash::record::Subject::default(),
            None,
        )
        .unwrap_or_else(|e| panic!("{e:#}\n{text}"));
        assert!(records.len() >= 2, "{text}");
        exercise(&text);
        for (i, _) in text.char_indices() {
            parse_both(&text[..i]);
            parse_both(&text[i..]);
        }
    }
}
