//! Property tests: record validation rejects anything malformed with a
//! message, and never panics.

use diskdash::record::from_json as parse_record;
use proptest::prelude::*;

const GOOD: &str = r#"{"schema":"diskdash.record/1","id":"demo.disk.ioping-seek.r1","source":{"kind":"run","diskdash_version":"0.1.0"},"subject":{"study":"demo","provider":"local","offering":"disk","price":{"per_gb_month":0.1,"currency":"USD"}},"host":{},"target":{},"test":{"id":"ioping-seek","tool":"ioping","parameters":{"count":10}},"repetition":1,"started_at":"2026-11-30T10:00:00Z","duration_s":3.0,"status":"ok","metrics":{"iops":{"value":11800.0,"unit":"IOPS"},"lat_avg":{"value":8.48e-5,"unit":"s"}},"raw":{"stdout":"x","stderr":"","exit_code":0}}"#;

proptest! {
    #[test]
    fn arbitrary_text_is_rejected_not_panicked_on(text in ".{0,400}") {
        prop_assert!(parse_record(&text).is_err());
    }

    #[test]
    fn truncated_records_are_rejected(cut in 0usize..GOOD.len()) {
        let msg = parse_record(&GOOD[..cut]).unwrap_err();
        prop_assert!(!msg.is_empty());
    }

    #[test]
    fn mutated_records_never_panic(pos in 0usize..GOOD.len(), byte in any::<u8>()) {
        let mut bytes = GOOD.as_bytes().to_vec();
        bytes[pos] = byte;
        if let Ok(text) = String::from_utf8(bytes) {
            // Either still a valid record or a problem with a message.
            match parse_record(&text) {
                Ok(r) => prop_assert!(!r.id.is_empty()),
                Err(m) => prop_assert!(!m.is_empty()),
            }
        }
    }

    #[test]
    fn any_metric_value_is_validated(value in any::<f64>(), unit in "(B/s|s|IOPS|MB/s|%|ops/s|x)") {
        let v: serde_json::Value = serde_json::from_str(GOOD).unwrap();
        let mut v = v;
        v["metrics"]["iops"] = serde_json::json!({"value": value, "unit": unit});
        let result = parse_record(&v.to_string());
        // IOPS are 0, or one I/O in 10^7 s to 10^9 a second (`diskdash::plausible`)
        let should_pass = (value == 0.0 || (1e-7..=1e9).contains(&value)) && unit == "IOPS";
        prop_assert_eq!(result.is_ok(), should_pass, "{:?} {} -> {:?}", value, unit, result);
    }
}

#[test]
fn the_reference_record_is_valid() {
    let r = parse_record(GOOD).unwrap();
    assert_eq!(r.metrics.get("lat_avg").unwrap().value, 8.48e-5);
}
