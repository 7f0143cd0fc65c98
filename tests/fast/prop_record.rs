//! Property test: a record survives being written and read back. Any valid
//! record (generated as JSON, read with the crate's record parser) written
//! with `record::to_json` and parsed again is the record it was, every f64
//! to the bit, and writing it again gives the same text.

use diskdash::record::{to_json, Record};
use proptest::prelude::*;
use serde_json::{json, Value};

/// The crate's record parser (reads and validates one record's JSON).
fn parse(text: &str) -> Result<Record, String> {
    diskdash::record::from_json(text)
}

/// A real record with a per-second timeline, prior I/O and raw output.
const BURST: &str = include_str!("../fixtures/emulated/credit-burst.json");

/// A finite value, 0 or `1e-7..=max` (every unit's plausible range holds
/// that, `diskdash::plausible`), from any bit pattern (whole numbers,
/// 17-digit fractions), so every magnitude is tried.
fn value_up_to(max: f64) -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_map(f64::abs),
        (0.0..=max),
        (0u32..100_000).prop_map(f64::from),
    ]
    .prop_filter("finite, plausible", move |v| {
        v.is_finite() && *v <= max && (*v == 0.0 || *v >= 1e-7)
    })
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), "[ -~]{0,40}", "\\PC{0,20}"]
}

/// A metric name with the unit the record checker expects for it, and its
/// largest plausible value.
fn metric() -> impl Strategy<Value = (String, &'static str, f64)> {
    (
        prop::sample::select(vec![
            ("iops", "IOPS", 1e9),
            ("read_iops", "IOPS", 1e9),
            ("write_bw", "B/s", 1e13),
            ("lat_avg", "s", 1e7),
            ("read_clat_p99", "s", 1e7),
            ("seq_output_cpu", "%", 1e5),
            ("burst_ios", "count", 1e15),
            ("burst_bytes", "B", 1e18),
            ("random_seeks", "ops/s", 1e10),
        ]),
        "(_[a-z0-9]{1,6})?",
    )
        .prop_map(|((name, unit, max), suffix)| {
            // a suffix keeps the name's kind only where the kind is a prefix,
            // and where it is no suffix that names a kind of its own
            let kind_of_its_own = ["_bw", "_iops", "_cpu", "_burst", "_sustained"]
                .iter()
                .any(|k| suffix.ends_with(k));
            let name = if (name.starts_with("lat_") || name == "random_seeks") && !kind_of_its_own {
                format!("{name}{suffix}")
            } else {
                name.to_string()
            };
            (name, unit, max)
        })
}

prop_compose! {
    fn record_json()(
        base in prop::sample::select(vec![0usize, 1]),
        id in "[A-Za-z0-9][A-Za-z0-9._-]{0,79}",
        study in prop::option::of(text()),
        offering in prop::option::of(text()),
        region in prop::option::of(text()),
        size_gb in prop::option::of((1e-6..=1e7f64).prop_filter("positive", |v| *v > 0.0)),
        price in prop::option::of(((1e-6..=1e4f64), "[A-Z]{3}", prop::option::of(text()))),
        labels in prop::collection::btree_map("[a-z_]{1,10}", text(), 0..4),
        run_id in prop::option::of("[A-Za-z0-9._-]{1,40}"),
        repetition in 1u32..,
        started in prop::option::of((1970u32..2100, 1u32..13, 1u32..29, 0u32..24, 0u32..60, 0u32..60)),
        duration_s in prop::option::of(value_up_to(1e9)),
        failed in prop::option::of(text()),
        metrics in prop::collection::vec(
            metric().prop_flat_map(|(name, unit, max)| (Just(name), Just(unit), value_up_to(max))),
            1..6,
        ),
        stdout in prop::option::of(text()),
        exit_code in prop::option::of(any::<i32>()),
        series in prop::collection::vec(value_up_to(1e9), 0..20),
    ) -> Value {
        let mut v: Value = if base == 0 {
            serde_json::from_str(BURST).unwrap()
        } else {
            json!({
                "schema": "diskdash.record/1",
                "id": "x",
                "source": {"kind": "run", "diskdash_version": "0.1.0"},
                "subject": {},
                "host": {},
                "target": {},
                "test": {"id": "ioping-seek", "tool": "ioping", "parameters": {"count": 10}},
                "repetition": 1,
                "status": "ok",
                "metrics": {},
            })
        };
        v["id"] = json!(id);
        v["subject"]["study"] = json!(study);
        v["subject"]["offering"] = json!(offering);
        v["subject"]["region"] = json!(region);
        v["subject"]["size_gb"] = json!(size_gb);
        v["subject"]["price"] = match price {
            Some((per_gb_month, currency, note)) => {
                json!({"per_gb_month": per_gb_month, "currency": currency, "note": note})
            }
            None => Value::Null,
        };
        v["subject"]["labels"] = json!(labels);
        v["run_id"] = json!(run_id);
        v["repetition"] = json!(repetition);
        v["started_at"] = json!(started.map(|(y, mo, d, h, mi, s)| {
            format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
        }));
        v["duration_s"] = json!(duration_s);
        match failed {
            Some(error) => {
                v["status"] = json!("failed");
                v["error"] = json!(format!("failed: {error}"));
            }
            None => {
                v["status"] = json!("ok");
                v["error"] = Value::Null;
            }
        }
        let mut m = serde_json::Map::new();
        for (name, unit, value) in metrics {
            m.insert(name, json!({"value": value, "unit": unit}));
        }
        v["metrics"] = Value::Object(m);
        v["raw"] = json!({"stdout": stdout, "stderr": "", "exit_code": exit_code});
        if !series.is_empty() {
            if let Some(read) = v.get_mut("timeline").and_then(|t| t.get_mut("read")) {
                let n = series.len();
                read["iops"] = json!(series);
                read["bw"] = json!(vec![4096.0; n]);
                read["lat"] = json!(vec![0.001; n]);
                read["clat"] = json!(vec![0.001; n]);
            }
        }
        v
    }
}

proptest! {
    #[test]
    fn a_record_written_and_read_back_is_the_same(v in record_json()) {
        let record = parse(&v.to_string())
            .map_err(|e| TestCaseError::fail(format!("generated record invalid: {e}\n{v}")))?;
        let text = to_json(&record).unwrap();
        let again = parse(&text)
            .map_err(|e| TestCaseError::fail(format!("to_json wrote what the parser refuses: {e}\n{text}")))?;
        prop_assert_eq!(&again, &record);
        prop_assert_eq!(to_json(&again).unwrap(), text);
    }
}
