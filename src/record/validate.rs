//! The rules a record's content keeps beyond its JSON shape: the schema
//! id, filename-safe ids, times, units, plausible values.

use crate::metrics::expected_unit;
use crate::units::Unit;

use super::paths::{is_currency_code, is_positive, is_valid_id, MAX_ID_LEN};
use super::{
    Record, Source, Status, Timeline, MAX_PRICE_PER_GB_MONTH, MAX_SIZE_GB, SCHEMA, SCHEMA_FAMILY,
    SCHEMA_MAJOR,
};

/// Accepts `diskdash.record/1` (and `1.x`); refuses other families and majors.
pub(super) fn check_schema(schema: &str) -> Result<(), String> {
    let Some(version) = schema.strip_prefix(SCHEMA_FAMILY) else {
        return Err(format!(
            "schema `{schema}` is not a diskdash record schema (expected \"{SCHEMA}\")"
        ));
    };
    // digits only: `+1`, `01`, `1.` and `1.x` are not versions diskdash wrote
    let plain = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (major, minor) = match version.split_once('.') {
        Some((ma, mi)) => (ma, Some(mi)),
        None => (version, None),
    };
    if !plain(major)
        || (major.len() > 1 && major.starts_with('0'))
        || minor.is_some_and(|m| !plain(m))
    {
        return Err(format!("schema `{schema}`: expected \"{SCHEMA}\""));
    }
    match major.parse::<u32>() {
        Ok(SCHEMA_MAJOR) => Ok(()),
        Ok(m) => Err(format!(
            "schema `{schema}` has major version {m}; this diskdash reads \"{SCHEMA}\" (upgrade diskdash)"
        )),
        Err(_) => Err(format!("schema `{schema}`: expected \"{SCHEMA}\"")),
    }
}

/// Upper bounds beyond which a value is refused as absurd, per unit.
/// Generous: ten times anything a 2026 device does.
fn plausible_max(unit: Unit) -> f64 {
    match unit {
        Unit::BytesPerSec => 1e13, // 10 TB/s
        Unit::Iops => 1e9,         // a billion IOPS
        Unit::OpsPerSec => 1e10,   // bonnie++ stat rates reach 1e6
        Unit::Seconds => 1e7,      // 115 days
        Unit::Percent => 1e5,      // %CPU summed over many cores
        Unit::Bytes => 1e18,       // an exabyte
        Unit::Count => 1e15,
    }
}

/// Problems with one record's content (empty when valid).
pub fn validate(record: &Record) -> Vec<String> {
    let mut p = Vec::new();
    if record.schema != SCHEMA && check_schema(&record.schema).is_err() {
        p.push(format!("schema `{}`: expected \"{SCHEMA}\"", record.schema));
    }
    if record.id.len() > MAX_ID_LEN {
        p.push(format!(
            "id `{}` is {} characters long, over the limit of {MAX_ID_LEN} (ids name files)",
            record.id,
            record.id.chars().count()
        ));
    } else if !is_valid_id(&record.id) {
        p.push(format!(
            "id `{}` is not filename-safe (expected letters, digits, `.`, `_`, `-`)",
            record.id
        ));
    }
    // names and free text within their lengths (`record::length_problems`)
    p.extend(super::length_problems(record));
    if record.test.id.len() > MAX_ID_LEN {
        p.push(super::too_long(
            "test.id",
            record.test.id.chars().count(),
            MAX_ID_LEN,
        ));
    } else if !is_valid_id(&record.test.id) {
        p.push(format!("test id `{}` is not a valid id", record.test.id));
    }
    if record.repetition == 0 {
        p.push("repetition is 0 (repetitions count from 1)".into());
    }
    if let Some(t) = &record.started_at {
        if !is_rfc3339_utc(t) {
            p.push(format!(
                "started_at `{t}` is not an RFC 3339 UTC time (expected 2026-01-31T12:00:00Z)"
            ));
        }
    }
    if let Some(d) = record.duration_s {
        if !d.is_finite() || d < 0.0 {
            p.push(format!("duration_s {d} is not a non-negative number"));
        }
    }
    match (record.status, &record.error) {
        (Status::Ok, Some(_)) => p.push("status is ok but an error is given".into()),
        (Status::Ok, None) if record.metrics.is_empty() => {
            p.push("status is ok but there are no metrics".into())
        }
        (Status::Failed | Status::Skipped, None) => p.push(format!(
            "status is {} but no error says why",
            record.status.name()
        )),
        _ => {}
    }
    if let Some(price) = &record.subject.price {
        if !is_positive(price.per_gb_month) {
            p.push(format!(
                "price per GB-month {} must be a positive number (leave `price` null when unknown)",
                price.per_gb_month
            ));
        } else if price.per_gb_month > MAX_PRICE_PER_GB_MONTH {
            p.push(format!(
                "price per GB-month {:e} is implausibly large (at most {MAX_PRICE_PER_GB_MONTH:e})",
                price.per_gb_month
            ));
        }
        if !is_currency_code(&price.currency) {
            p.push(format!(
                "currency `{}` is not an ISO 4217 code such as USD",
                price.currency
            ));
        }
    }
    if let Some(size) = record.subject.size_gb {
        if !is_positive(size) {
            p.push(format!("size_gb {size} must be a positive number"));
        } else if size > MAX_SIZE_GB {
            p.push(format!(
                "size_gb {size:e} is implausibly large (at most {MAX_SIZE_GB:e})"
            ));
        }
    }
    if let Source::Import { sha256, .. } = &*record.source {
        if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            p.push("source.sha256 is not 64 hex digits".into());
        }
    }
    if let Some(tl) = &record.timeline {
        p.extend(timeline_problems(tl));
    }
    if let Some(prior) = &record.prior_io {
        for (name, v) in [("seconds", prior.seconds), ("bytes", prior.bytes)] {
            if !v.is_finite() || v < 0.0 {
                p.push(format!("prior_io.{name} {v} is not a non-negative number"));
            }
        }
    }
    if let Some(pre) = &record.prefill {
        for (name, v) in [("bytes", pre.bytes), ("seconds", pre.seconds)] {
            if !v.is_finite() || v < 0.0 {
                p.push(format!("prefill.{name} {v} is not a non-negative number"));
            }
        }
        if let Some(bw) = pre.bw {
            if !bw.is_finite() || bw < 0.0 || bw > plausible_max(Unit::BytesPerSec) {
                p.push(format!(
                    "prefill.bw {bw} is not a plausible bandwidth in B/s"
                ));
            }
        }
    }
    for (name, metric) in &record.metrics {
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            p.push(format!(
                "metric name `{name}` is not snake_case (expected e.g. read_iops)"
            ));
        }
        let Some(unit) = Unit::parse(metric.unit) else {
            p.push(format!(
                "metric `{name}`: unit `{}` is not canonical (expected one of B/s, s, IOPS, ops/s, %, B, count)",
                metric.unit
            ));
            continue;
        };
        if let Some(expected) = expected_unit(name) {
            if expected != unit {
                p.push(format!(
                    "metric `{name}`: unit `{}` where `{}` is expected",
                    metric.unit,
                    expected.as_str()
                ));
            }
        }
        let v = metric.value;
        if !v.is_finite() {
            p.push(format!("metric `{name}`: value {v} is not a finite number"));
        } else if v < 0.0 {
            p.push(format!("metric `{name}`: negative value {v}"));
        } else if v > plausible_max(unit) {
            p.push(format!(
                "metric `{name}`: value {v} {} is implausibly large",
                metric.unit
            ));
        }
    }
    p
}

/// Problems with a record's `timeline`: a non-positive interval, a series
/// value that is not a finite non-negative number in range, series of one
/// direction of different lengths, a log digest that is not SHA-256 hex.
fn timeline_problems(tl: &Timeline) -> Vec<String> {
    let mut p = Vec::new();
    if !(tl.interval_s.is_finite() && tl.interval_s > 0.0 && tl.interval_s <= 3600.0) {
        p.push(format!(
            "timeline.interval_s {} is not a positive number of seconds (at most 3600)",
            tl.interval_s
        ));
    }
    for (dir, series) in [("read", &tl.read), ("write", &tl.write), ("trim", &tl.trim)] {
        let Some(s) = series else { continue };
        let named = [
            ("iops", Some(&s.iops), Unit::Iops),
            ("bw", Some(&s.bw), Unit::BytesPerSec),
            ("lat", s.lat.as_ref(), Unit::Seconds),
            ("clat", s.clat.as_ref(), Unit::Seconds),
        ];
        let mut lens = Vec::new();
        for (name, values, unit) in named {
            let Some(values) = values else { continue };
            if !values.is_empty() {
                lens.push((name, values.len()));
            }
            if let Some(bad) = values
                .iter()
                .find(|v| !v.is_finite() || **v < 0.0 || **v > plausible_max(unit))
            {
                p.push(format!(
                    "timeline.{dir}.{name}: value {bad} is not a plausible {}",
                    unit.as_str()
                ));
            }
        }
        if lens.windows(2).any(|w| w[0].1 != w[1].1) {
            let said: Vec<String> = lens.iter().map(|(n, l)| format!("{n} {l}")).collect();
            p.push(format!(
                "timeline.{dir}: series of different lengths ({})",
                said.join(", ")
            ));
        }
    }
    for (file, sha) in &tl.logs {
        if sha.len() != 64 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
            p.push(format!(
                "timeline.logs `{file}`: sha256 is not 64 hex digits"
            ));
        }
    }
    p
}

/// `YYYY-MM-DDTHH:MM:SS[.fff]Z` (or `+00:00`), a real date and time from
/// 1970 on, as [`humantime::parse_rfc3339`] reads it; the lower-case `t`
/// and `z` RFC 3339 also allows are read as `T` and `Z`.
pub(super) fn is_rfc3339_utc(t: &str) -> bool {
    if t.bytes().any(|b| b == b't' || b == b'z') {
        return humantime::parse_rfc3339(&t.to_ascii_uppercase()).is_ok();
    }
    humantime::parse_rfc3339(t).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::from_json as parse_record;

    use crate::record::example_json as good;

    fn problem_with(edit: impl FnOnce(&mut serde_json::Value)) -> String {
        let mut v = good();
        edit(&mut v);
        parse_record(&v.to_string()).unwrap_err()
    }

    #[test]
    fn a_good_record_parses() {
        let r = parse_record(&good().to_string()).unwrap();
        assert_eq!(r.metrics.get("write_bw").unwrap().value, 1.6e6);
        assert_eq!(r.subject.region, None);
    }

    #[test]
    fn a_timeline_and_its_metrics_are_accepted_and_checked() {
        let mut v = good();
        v["metrics"]["read_iops_sustained"] = serde_json::json!({"value": 300.0, "unit": "IOPS"});
        v["metrics"]["read_bw_burst"] = serde_json::json!({"value": 1.2e7, "unit": "B/s"});
        v["metrics"]["burst_duration"] = serde_json::json!({"value": 2000.0, "unit": "s"});
        v["metrics"]["burst_ios"] = serde_json::json!({"value": 5.4e6, "unit": "count"});
        v["metrics"]["burst_bytes"] = serde_json::json!({"value": 2.2e10, "unit": "B"});
        v["metrics"]["steady_state"] = serde_json::json!({"value": 1.0, "unit": "count"});
        v["metrics"]["ss_range"] = serde_json::json!({"value": 3.5, "unit": "%"});
        v["metrics"]["ss_slope"] = serde_json::json!({"value": 1.5, "unit": "%"});
        v["timeline"] = serde_json::json!({
            "interval_s": 1.0,
            "read": {"iops": [3000.0, 300.0], "bw": [1.2e7, 1.2e6], "clat": [1e-4, 1e-3]},
            "logs": {"t_iops.1.log": "0".repeat(64)},
            "pattern": "credit-burst"
        });
        let r = parse_record(&v.to_string()).unwrap();
        let tl = r.timeline.as_ref().unwrap();
        assert_eq!(tl.pattern, Some(crate::record::Pattern::CreditBurst));
        assert_eq!(
            tl.read.as_ref().unwrap().clat.as_deref(),
            Some(&[1e-4, 1e-3][..])
        );
        // it survives writing and reading again
        let again = parse_record(&crate::record::to_json(&r).unwrap()).unwrap();
        assert_eq!(again, r);

        let mut w = good();
        w["metrics"]["read_iops_sustained"] = serde_json::json!({"value": 300.0, "unit": "B/s"});
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("where `IOPS` is expected"));
        let mut w = good();
        w["metrics"]["ss_slope"] = serde_json::json!({"value": 3.0, "unit": "count"});
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("where `%` is expected"));
        let mut w = v.clone();
        w["timeline"]["interval_s"] = 0.0.into();
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("timeline.interval_s 0"));
        let mut w = v.clone();
        w["timeline"]["read"]["bw"] = serde_json::json!([1.0]);
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("timeline.read: series of different lengths (iops 2, bw 1, clat 2)"));
        let mut w = v.clone();
        w["timeline"]["read"]["iops"] = serde_json::json!([-1.0, 1.0]);
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("timeline.read.iops: value -1"));
        let mut w = v.clone();
        w["prior_io"] = serde_json::json!({"seconds": -1.0, "bytes": 0.0});
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("prior_io.seconds -1 is not a non-negative number"));
        let mut w = v;
        w["timeline"]["logs"]["x.log"] = "abc".into();
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("sha256 is not 64 hex"));
    }

    #[test]
    fn a_prefill_is_optional_accepted_and_checked() {
        // a record from before the pre-fill has none and stays valid
        let r = parse_record(&good().to_string()).unwrap();
        assert_eq!(r.prefill, None);
        assert!(!crate::record::to_json(&r).unwrap().contains("prefill"));
        let mut v = good();
        v["prefill"] = serde_json::json!({
            "bytes": 67108864.0, "seconds": 0.5, "bw": 1.4e9,
            "command": "fio --name=prefill --rw=write --bs=1M --refill_buffers"
        });
        let r = parse_record(&v.to_string()).unwrap();
        let pre = r.prefill.as_ref().unwrap();
        assert_eq!(
            (pre.bytes, pre.bw, pre.error.as_deref()),
            (67108864.0, Some(1.4e9), None)
        );
        assert_eq!(
            parse_record(&crate::record::to_json(&r).unwrap()).unwrap(),
            r
        );
        // a failed one: no bandwidth, an error
        let mut w = good();
        w["prefill"] =
            serde_json::json!({"bytes": 0.0, "seconds": 0.0, "command": "fio", "error": "no"});
        assert_eq!(
            parse_record(&w.to_string()).unwrap().prefill.unwrap().bw,
            None
        );
        let mut w = v.clone();
        w["prefill"]["seconds"] = (-1.0).into();
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("prefill.seconds -1 is not a non-negative number"));
        let mut w = v.clone();
        w["prefill"]["bw"] = 1e20.into();
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("prefill.bw 100000000000000000000 is not a plausible bandwidth"));
        let mut w = v;
        w["prefill"].as_object_mut().unwrap().remove("command");
        assert!(parse_record(&w.to_string())
            .unwrap_err()
            .contains("prefill"));
    }

    #[test]
    fn each_defect_is_named() {
        type Edit = Box<dyn FnOnce(&mut serde_json::Value)>;
        let cases: Vec<(Edit, &str)> = vec![
            (
                Box::new(|v| v["schema"] = "diskdash.record/2".into()),
                "major version 2",
            ),
            (
                Box::new(|v| v["schema"] = "other/1".into()),
                "not a diskdash record schema",
            ),
            (Box::new(|v| v["id"] = "../x".into()), "not filename-safe"),
            (
                Box::new(|v| v["id"] = "a".repeat(201).into()),
                "201 characters long, over the limit of 200",
            ),
            (
                Box::new(|v| v["repetition"] = "one".into()),
                "field `repetition`",
            ),
            (
                Box::new(|v| v["metrics"]["write_bw"]["unit"] = "MB/s".into()),
                "not canonical",
            ),
            (
                Box::new(|v| v["metrics"]["write_bw"]["value"] = (-1.0).into()),
                "negative",
            ),
            (
                Box::new(|v| v["metrics"]["write_bw"]["value"] = 1e20.into()),
                "implausibly large",
            ),
            (
                Box::new(|v| v["metrics"]["write_bw"]["unit"] = "s".into()),
                "where `B/s` is expected",
            ),
            (
                Box::new(|v| v["subject"]["price"]["per_gb_month"] = 0.0.into()),
                "positive number",
            ),
            (
                Box::new(|v| v["status"] = "failed".into()),
                "no error says why",
            ),
            (
                Box::new(|v| v["started_at"] = "yesterday".into()),
                "RFC 3339",
            ),
            (
                Box::new(|v| {
                    v.as_object_mut().unwrap().remove("schema");
                }),
                "no `schema` field",
            ),
        ];
        for (edit, expected) in cases {
            let msg = problem_with(edit);
            assert!(msg.contains(expected), "{msg:?} lacks {expected:?}");
        }
    }

    #[test]
    fn started_at_is_an_rfc_3339_utc_time() {
        for t in [
            "2026-12-01T10:48:09Z",
            "2026-11-30T10:00:00+00:00",
            "2026-11-30T10:00:00.123456Z",
            "2026-11-30t10:00:00.5z",
            "2024-02-29T23:59:60Z",
            "1970-01-01T00:00:00Z",
        ] {
            assert!(is_rfc3339_utc(t), "{t}");
        }
        for t in [
            "yesterday",
            "",
            "2026-12-01",
            "2026-12-01 10:48:09Z",
            "2026-12-01T10:48:09",
            "2026-12-01T10:48:09+01:00",
            "2026-12-01T10:48:09.5+02:00",
            "2026-12-01T10:48:09.xZ",
            "2026-02-29T10:00:00Z",
            "2026-13-01T10:00:00Z",
            "2026-12-00T10:00:00Z",
            "2026-12-01T24:00:00Z",
            "2026-12-01T10:60:00Z",
            "2026-12-01T10:48:09Zjunk",
            "2026-12-01T10:48:09Z ",
            "１２３４-12-01T10:48:09Z",
        ] {
            assert!(!is_rfc3339_utc(t), "{t}");
        }
        let mut v = good();
        v["started_at"] = "2026-12-01T10:48:09+01:00".into();
        let msg = parse_record(&v.to_string()).unwrap_err();
        assert!(
            msg.contains("started_at `2026-12-01T10:48:09+01:00` is not an RFC 3339 UTC time (expected 2026-01-31T12:00:00Z)"),
            "{msg}"
        );
    }

    #[test]
    fn a_key_twice_in_a_map_is_named() {
        // maps (labels, metrics, parameters) would keep the last one silently
        let text = good().to_string().replace(
            r#""study":"demo""#,
            r#""study":"demo","labels":{"a":"1","a":"2"}"#,
        );
        assert!(text.contains(r#""a":"1","a":"2""#));
        let msg = parse_record(&text).unwrap_err();
        assert!(
            msg.starts_with("not valid JSON (duplicate key `a` at line 1"),
            "{msg}"
        );
        // in the one parse: metrics, parameters at any depth, fields, the tool output
        for (from, to) in [
            (
                r#""write_bw":"#,
                r#""write_bw":{"value":1.0,"unit":"B/s"},"write_bw":"#,
            ),
            (
                r#""tool":"dd""#,
                r#""tool":"dd","parameters":{"a":[{"b":1,"b":2}]}"#,
            ),
            (
                r#""tool":"dd""#,
                r#""tool":"dd","parameters":{"a":1,"a":1}"#,
            ),
            (r#""study":"demo""#, r#""study":"demo","study":"demo""#),
            (
                r#""status":"ok""#,
                r#""status":"ok","raw":{"stdout":"a","stdout":"b"}"#,
            ),
        ] {
            let text = good().to_string().replace(from, to);
            assert!(text.contains(to));
            let msg = parse_record(&text).unwrap_err();
            assert!(msg.starts_with("not valid JSON (duplicate key `"), "{msg}");
        }
    }

    #[test]
    fn nan_and_truncated_json_are_problems_not_panics() {
        let text = good().to_string().replace("1600000.0", "NaN");
        assert!(parse_record(&text).unwrap_err().contains("not valid JSON"));
        let t = good().to_string();
        assert!(parse_record(&t[..t.len() / 2])
            .unwrap_err()
            .contains("not valid JSON"));
    }

    #[test]
    fn floats_read_back_exactly() {
        // serde_json's default float parser can be off in the last digit;
        // a record read back must keep the value its writer stored.
        let mut v = good();
        v["metrics"]["write_bw"]["value"] = serde_json::json!(1302295774.2105753_f64);
        let text = serde_json::to_string(&v).unwrap();
        assert!(text.contains("1302295774.2105753"));
        let r = parse_record(&text).unwrap();
        assert_eq!(r.metrics.get("write_bw").unwrap().value, 1302295774.2105753);
        assert!(serde_json::to_string(&r)
            .unwrap()
            .contains("1302295774.2105753"));
    }
}
