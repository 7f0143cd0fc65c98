//! A record's JSON text: [`from_json`], the one parse every reader uses
//! (run, import, ingest, check), which refuses a key given twice in any
//! object as it parses, and [`to_json`], the one writer.

use std::collections::BTreeMap;

use anyhow::Context;
use serde::de::{Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::validate::{check_schema, validate};
use super::{Record, SCHEMA};

/// Parses and validates one record's JSON text; the error says what is
/// wrong (the field, the value and what was expected).
pub fn from_json(text: &str) -> Result<Record, String> {
    if text.starts_with('\u{feff}') {
        return Err("starts with a byte order mark (BOM); save it as UTF-8 without a BOM".into());
    }
    // the one parse a good record gets: straight into the typed record,
    // which refuses a key given twice (serde's derive for fields, the
    // maps and JSON values of a record by `unique_map` and `StrictValue`)
    let record = match serde_json::from_str::<Record>(text) {
        Ok(record) => record,
        Err(_) => return Err(cut_message(explain(text))),
    };
    // lengths first: no message below then quotes a name of a megabyte
    let long = super::length_problems(&record);
    if !long.is_empty() {
        return Err(long.join("; "));
    }
    check_schema(&record.schema)?;
    let problems = validate(&record);
    if problems.is_empty() {
        Ok(record)
    } else {
        Err(cut_message(problems.join("; ")))
    }
}

/// The most characters of a message about one record: a message quotes
/// what it found, and a record can hold a string of megabytes in a field
/// of the wrong type.
pub const MAX_MESSAGE_CHARS: usize = 2000;

/// `message` cut to [`MAX_MESSAGE_CHARS`], saying how much was left out.
fn cut_message(message: String) -> String {
    match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        None => message,
        Some((at, _)) => {
            let rest = message[at..].chars().count();
            format!("{}… ({rest} more characters)", &message[..at])
        }
    }
}

/// Whether `check` would accept `record` once written: its values first,
/// as they are in memory (an infinite or NaN value is named as such, where
/// the written JSON would hold `null`), then the text [`to_json`] gives,
/// read back as `check` reads it. The error says what is wrong.
pub fn would_pass_check(record: &Record) -> Result<(), String> {
    let problems = super::validate(record);
    if !problems.is_empty() {
        return Err(problems.join("; "));
    }
    let text = to_json(record).map_err(|e| format!("{e:#}"))?;
    from_json(&text).map(|_| ())
}

/// The record as written to disk: pretty-printed JSON with a trailing newline.
pub fn to_json(record: &Record) -> anyhow::Result<String> {
    let mut text = serde_json::to_string_pretty(record)
        .with_context(|| format!("failed to serialise record `{}`", record.id))?;
    text.push('\n');
    Ok(text)
}

/// Why `text` is not a record: the slower path, through a `Value`, that
/// names the JSON error (a key twice among them), the schema or the field.
fn explain(text: &str) -> String {
    let value = match serde_json::from_str::<StrictValue>(text) {
        Ok(v) => v.0,
        Err(e) => return format!("not valid JSON ({e}); expected a diskdash record"),
    };
    let schema = match value.get("schema") {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(_) => return "`schema` is not a string".into(),
        None => return format!("not a diskdash record (no `schema` field; expected \"{SCHEMA}\")"),
    };
    if let Err(e) = check_schema(&schema) {
        return e;
    }
    match serde_path_to_error::deserialize::<_, Record>(&value) {
        Err(e) => {
            let path = e.path().to_string();
            format!("field `{path}`: {}", e.into_inner())
        }
        // the typed parse failed where the `Value` one did not: name it as is
        Ok(_) => match serde_json::from_str::<Record>(text) {
            Err(e) => format!("not a diskdash record ({e})"),
            Ok(_) => "not a diskdash record".into(),
        },
    }
}

/// A map of a record (`labels`, `logs`): a key given twice is refused.
pub(super) fn unique_map<'de, D, V>(d: D) -> Result<BTreeMap<String, V>, D::Error>
where
    D: Deserializer<'de>,
    V: Deserialize<'de>,
{
    struct Visit<V>(std::marker::PhantomData<V>);
    impl<'de, V: Deserialize<'de>> Visitor<'de> for Visit<V> {
        type Value = BTreeMap<String, V>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a map")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some(key) = map.next_key::<String>()? {
                if out.contains_key(&key) {
                    return Err(A::Error::custom(format_args!("duplicate key `{key}`")));
                }
                let value = map.next_value()?;
                out.insert(key, value);
            }
            Ok(out)
        }
    }
    d.deserialize_map(Visit(std::marker::PhantomData))
}

/// A map of JSON values (a test's `parameters`): a key given twice is
/// refused, at any depth.
pub(super) fn unique_values<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, serde_json::Value>, D::Error> {
    let map: BTreeMap<String, StrictValue> = unique_map(d)?;
    Ok(map.into_iter().map(|(k, v)| (k, v.0)).collect())
}

/// Any JSON value, read as `serde_json::Value` is, except that an object
/// holding one key twice is refused.
pub(super) struct StrictValue(pub serde_json::Value);

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = StrictValue;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<StrictValue, E> {
        Ok(StrictValue(v.into()))
    }
    fn visit_i64<E>(self, v: i64) -> Result<StrictValue, E> {
        Ok(StrictValue(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<StrictValue, E> {
        Ok(StrictValue(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<StrictValue, E> {
        Ok(StrictValue(
            serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, Into::into),
        ))
    }
    fn visit_str<E>(self, v: &str) -> Result<StrictValue, E> {
        Ok(StrictValue(v.into()))
    }
    fn visit_string<E>(self, v: String) -> Result<StrictValue, E> {
        Ok(StrictValue(v.into()))
    }
    fn visit_unit<E>(self) -> Result<StrictValue, E> {
        Ok(StrictValue(serde_json::Value::Null))
    }
    fn visit_none<E>(self) -> Result<StrictValue, E> {
        Ok(StrictValue(serde_json::Value::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<StrictValue, D::Error> {
        StrictValue::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StrictValue, A::Error> {
        let mut out = Vec::new();
        while let Some(StrictValue(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(StrictValue(out.into()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StrictValue, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(A::Error::custom(format_args!("duplicate key `{key}`")));
            }
            let StrictValue(v) = map.next_value()?;
            out.insert(key, v);
        }
        Ok(StrictValue(out.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails, saying where, when `text` is not valid JSON or holds an
    /// object with one key twice.
    fn no_duplicate_keys(text: &str) -> Result<(), String> {
        serde_json::from_str::<StrictValue>(text)
            .map(|_| ())
            .map_err(|e| format!("not valid JSON ({e}); expected a diskdash record"))
    }

    #[test]
    fn a_record_with_an_infinite_value_is_refused_naming_it_not_the_null_it_would_be_written_as() {
        let mut record = from_json(&super::super::example_json().to_string()).unwrap();
        assert_eq!(would_pass_check(&record), Ok(()));
        let mut bw = record.metrics.get("write_bw").unwrap();
        bw.value = f64::INFINITY;
        record.metrics.insert("write_bw", bw);
        let why = would_pass_check(&record).unwrap_err();
        assert!(why.contains("write_bw") && why.contains("inf"), "{why}");
        assert!(!why.contains("null"), "{why}");
    }

    #[test]
    fn every_repeated_key_is_refused() {
        let repeats = [
            r#"{"a":1,"a":2}"#,
            r#"{"x":[{"b":1}],"y":{"c":{"d":1,"d":2}}}"#,
            r#"[{"a":1},{"b":[1,{"c":1,"c":2}]}]"#,
            r#"{"x":{"a":1},"y":"}","y":2}"#,
            r#"{"a":"x\"y","a":{}}"#,
            r#"{"\u0061":1,"a":2}"#,
        ];
        for text in repeats {
            assert!(
                no_duplicate_keys(text)
                    .unwrap_err()
                    .contains("duplicate key"),
                "{text}"
            );
        }
        let distinct = [
            r#"{"a":1,"b":2}"#,
            r#"[{"a":1},{"a":2}]"#,
            r#"{"x":{"a":1},"a":{"x":[{"a":1}]}}"#,
            r#"{"s":"{\"s\":1,\"s\":2}","t":["{","[","\\"],"u":{}}"#,
            r#"{"a":[],"b":[[],{}],"c":null}"#,
            r#"{"\u0061":1,"b":2}"#,
        ];
        for text in distinct {
            assert!(no_duplicate_keys(text).is_ok(), "{text}");
        }
        let many: Vec<String> = (0..100).map(|i| format!("\"k{i}\":{i}")).collect();
        let many = format!("{{{}}}", many.join(","));
        assert!(no_duplicate_keys(&many).is_ok());
    }
}
