//! A record's metrics: names in name order, each a known name of the
//! vocabulary (`crate::metrics::METRIC_NAMES`, held as the table's own
//! `&'static str`) or a name the record owns; units from the canonical
//! table (`crate::units::Unit`). Nothing is interned: a name this build
//! does not know lives and dies with its record.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, LazyLock};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::units::Unit;

/// A canonical unit's name, from the unit table (`Unit::as_str`).
// an alias, not `&'static str` spelled out: serde would borrow the field from the input
pub type Name = &'static str;

/// A metric name: the vocabulary's own text for a known name, owned for
/// any other.
pub type MetricKey = Cow<'static, str>;

/// One measured value in a canonical unit.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq)]
pub struct Metric {
    /// The value, finite.
    pub value: f64,
    /// A canonical unit: `B/s`, `s`, `IOPS`, `ops/s`, `%`, `B` or `count`.
    // the unit table's text: a unit that is not canonical is refused as it is read
    #[serde(deserialize_with = "canonical_unit")]
    #[schemars(with = "String")]
    pub unit: Name,
}

impl Metric {
    /// A metric with the given value and unit.
    pub fn new(value: f64, unit: Unit) -> Metric {
        Metric {
            value,
            unit: unit.as_str(),
        }
    }
}

/// The unit table's text for `text`, when it names a canonical unit.
pub fn unit_name(text: &str) -> Option<Name> {
    Unit::parse(text).map(Unit::as_str)
}

/// A unit read as the unit table's text; anything else is refused, naming
/// the units allowed.
fn canonical_unit<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
    let text = Cow::<str>::deserialize(d)?;
    unit_name(&text).ok_or_else(|| {
        serde::de::Error::custom(format!(
            "unit `{text}` is not canonical (expected one of B/s, s, IOPS, ops/s, %, B, count)"
        ))
    })
}

/// The vocabulary's names, by text.
static KNOWN: LazyLock<HashMap<&'static str, &'static str>> = LazyLock::new(|| {
    crate::metrics::METRIC_NAMES
        .iter()
        .map(|m| (m.metric, m.metric))
        .collect()
});

/// `name` as a metric key: the vocabulary's text when it is a known name,
/// else an owned copy.
pub fn key(name: &str) -> MetricKey {
    match KNOWN.get(name) {
        Some(&known) => Cow::Borrowed(known),
        None => Cow::Owned(name.to_owned()),
    }
}

/// The names and units of a record's metrics, sorted by name; records of
/// one test have equal ones, and a loader may hold one list for them all
/// (see [`Metrics::names_mut`]).
pub type MetricNames = Vec<(MetricKey, Name)>;

/// A record's metrics by name, in name order (the order a `BTreeMap` keeps
/// and the JSON shows). A record has a few metrics, and a build holds many
/// records: the names and units are a list that records with the same
/// metrics can share, and each record holds its values alone, 8 bytes a
/// metric where a map took ten times that.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metrics {
    /// Names and units, sorted by name.
    names: Arc<MetricNames>,
    /// The values, in the order of `names`.
    values: Vec<f64>,
}

impl Metrics {
    /// No metrics.
    pub fn new() -> Metrics {
        Metrics::default()
    }

    fn find(&self, name: &str) -> Result<usize, usize> {
        self.names.binary_search_by(|(n, _)| (**n).cmp(name))
    }

    fn at(&self, i: usize) -> Metric {
        Metric {
            value: self.values[i],
            unit: self.names[i].1,
        }
    }

    /// The metric called `name`.
    pub fn get(&self, name: &str) -> Option<Metric> {
        self.find(name).ok().map(|i| self.at(i))
    }

    /// Whether a metric is called `name`.
    pub fn contains_key(&self, name: &str) -> bool {
        self.find(name).is_ok()
    }

    /// Sets the metric called `name`; returns the one it replaces.
    pub fn insert(&mut self, name: &str, metric: Metric) -> Option<Metric> {
        match self.find(name) {
            Ok(i) => {
                let old = self.at(i);
                if old.unit != metric.unit {
                    Arc::make_mut(&mut self.names)[i].1 = metric.unit;
                }
                self.values[i] = metric.value;
                Some(old)
            }
            Err(i) => {
                Arc::make_mut(&mut self.names).insert(i, (key(name), metric.unit));
                self.values.insert(i, metric.value);
                None
            }
        }
    }

    /// Names and metrics, in name order.
    pub fn iter(&self) -> MetricsIter<'_> {
        MetricsIter {
            metrics: self,
            range: 0..self.values.len(),
        }
    }

    /// Names, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &str> + '_ {
        self.names.iter().map(|(n, _)| &**n)
    }

    /// Number of metrics.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Removes every metric.
    pub fn clear(&mut self) {
        *self = Metrics::default();
    }

    /// The list of names and units, for holding one copy of equal lists.
    pub fn names_mut(&mut self) -> &mut Arc<MetricNames> {
        &mut self.names
    }
}

/// The metrics of a record, by name in name order (see [`Metrics::iter`]).
pub struct MetricsIter<'m> {
    metrics: &'m Metrics,
    range: std::ops::Range<usize>,
}

impl<'m> Iterator for MetricsIter<'m> {
    type Item = (&'m str, Metric);
    fn next(&mut self) -> Option<Self::Item> {
        let i = self.range.next()?;
        Some((&self.metrics.names[i].0, self.metrics.at(i)))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.range.size_hint()
    }
}

impl DoubleEndedIterator for MetricsIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let i = self.range.next_back()?;
        Some((&self.metrics.names[i].0, self.metrics.at(i)))
    }
}

impl ExactSizeIterator for MetricsIter<'_> {}

impl<S: AsRef<str>> FromIterator<(S, Metric)> for Metrics {
    fn from_iter<I: IntoIterator<Item = (S, Metric)>>(iter: I) -> Metrics {
        let mut out = Metrics::new();
        out.extend(iter);
        out
    }
}

impl<S: AsRef<str>> Extend<(S, Metric)> for Metrics {
    fn extend<I: IntoIterator<Item = (S, Metric)>>(&mut self, iter: I) {
        for (name, metric) in iter {
            self.insert(name.as_ref(), metric);
        }
    }
}

impl<'a> IntoIterator for &'a Metrics {
    type Item = (&'a str, Metric);
    type IntoIter = MetricsIter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Serialize for Metrics {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Metrics {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Metrics, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Metrics;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of metric names to metrics")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Metrics, A::Error> {
                let mut names: MetricNames = Vec::new();
                let mut values = Vec::new();
                while let Some(name) = map.next_key::<Cow<'de, str>>()? {
                    match names.binary_search_by(|(n, _)| (**n).cmp(&name)) {
                        // which of two equal names a reader sees must not
                        // depend on the parser: refused
                        Ok(_) => {
                            return Err(serde::de::Error::custom(format_args!(
                                "duplicate key `{name}`"
                            )))
                        }
                        Err(i) => {
                            let metric: Metric = map.next_value()?;
                            names.insert(i, (key(&name), metric.unit));
                            values.insert(i, metric.value);
                        }
                    }
                }
                names.shrink_to_fit();
                values.shrink_to_fit();
                Ok(Metrics {
                    names: Arc::new(names),
                    values,
                })
            }
        }
        d.deserialize_map(Visit)
    }
}

impl JsonSchema for Metrics {
    fn schema_name() -> Cow<'static, str> {
        <BTreeMap<String, Metric>>::schema_name()
    }
    fn inline_schema() -> bool {
        <BTreeMap<String, Metric>>::inline_schema()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <BTreeMap<String, Metric>>::json_schema(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_keep_name_order_and_read_and_write_as_a_map_does() {
        let json = r#"{"write_iops":{"value":2.0,"unit":"IOPS"},"read_bw":{"value":1.5,"unit":"B/s"},"read_iops":{"value":3.0,"unit":"IOPS"}}"#;
        let m: Metrics = serde_json::from_str(json).unwrap();
        let as_map: BTreeMap<String, Metric> = serde_json::from_str(json).unwrap();
        assert_eq!(
            m.keys().collect::<Vec<_>>(),
            ["read_bw", "read_iops", "write_iops"]
        );
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            serde_json::to_string(&as_map).unwrap()
        );
        assert_eq!(
            m.get("read_iops").map(|x| (x.value, x.unit)),
            Some((3.0, "IOPS"))
        );
        assert_eq!(m.get("read"), None);
        // two equal names are refused, not the last one kept
        let twice = serde_json::from_str::<Metrics>(
            r#"{"iops":{"value":1.0,"unit":"IOPS"},"iops":{"value":9.0,"unit":"IOPS"}}"#,
        )
        .unwrap_err();
        assert!(
            twice.to_string().contains("duplicate key `iops`"),
            "{twice}"
        );
        // inserting in any order gives the same list; replacing returns the old one
        let mut built = Metrics::new();
        assert_eq!(
            built.insert("write_iops", Metric::new(2.0, Unit::Iops)),
            None
        );
        built.insert("read_iops", Metric::new(0.5, Unit::Iops));
        built.insert("read_bw", Metric::new(1.5, Unit::BytesPerSec));
        let old = built.insert("read_iops", Metric::new(3.0, Unit::Iops));
        assert_eq!(old.map(|o| o.value), Some(0.5));
        assert_eq!(built, m);
        assert!(built.contains_key("read_bw") && !built.contains_key("read"));
    }

    #[test]
    fn known_names_and_units_come_from_the_tables_and_others_are_owned() {
        let a: Metrics = serde_json::from_str(
            r#"{"read_iops":{"value":1.0,"unit":"IOPS"},"my_own":{"value":2.0,"unit":"count"}}"#,
        )
        .unwrap();
        assert!(matches!(&a.names[1].0, Cow::Borrowed("read_iops")));
        assert!(matches!(&a.names[0].0, Cow::Owned(n) if n == "my_own"));
        assert!(std::ptr::eq(a.names[1].1, Unit::Iops.as_str()));
        let e = serde_json::from_str::<Metrics>(r#"{"x":{"value":1.0,"unit":"MB/s"}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("unit `MB/s` is not canonical"), "{e}");
    }
}
