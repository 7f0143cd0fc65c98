//! Statistics over repetitions and the price/performance value analysis:
//! [`Analysis`] is the product the report renders, built from records, the
//! price book and the baseline choice.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use crate::record::Summary;

pub mod catalogued;
pub mod compare;
pub mod identity;
pub mod judged;
pub mod limits;
pub mod machines;
pub mod prices;
pub mod stats;
pub mod value;

use prices::PriceBook;
use stats::Dataset;
use value::{StudyValue, ValueTable};

/// Everything the pages are made from.
pub struct Analysis<'a> {
    /// Valid records, sorted by id.
    pub records: Vec<&'a Summary>,
    /// Records grouped by study, offering and test.
    pub data: Dataset,
    /// Value analysis per study.
    pub values: Vec<StudyValue>,
}

impl<'a> Analysis<'a> {
    /// Groups and analyses `records` (in any order) with the prices of
    /// `book` and the offering `baseline` names (display name or slug).
    ///
    /// Fails when `baseline` names no priced offering.
    pub fn new(
        records: impl IntoIterator<Item = &'a Summary>,
        book: &PriceBook,
        baseline: Option<&str>,
    ) -> Result<Analysis<'a>> {
        Analysis::with_limits(records, book, baseline, &limits::Limits::default())
    }

    /// [`Analysis::new`], with the published limits (`--limits`) that tell
    /// a run at a promised burst level, left out of its sustained level
    /// ([`stats::left_out`]).
    pub fn with_limits(
        records: impl IntoIterator<Item = &'a Summary>,
        book: &PriceBook,
        baseline: Option<&str>,
        limits: &limits::Limits,
    ) -> Result<Analysis<'a>> {
        let mut records: Vec<&Summary> = records.into_iter().collect();
        // the input order must not matter: everything downstream follows ids
        records.sort_by(|a, b| a.id.cmp(&b.id));
        records.dedup_by(|a, b| a.id == b.id);
        let data = stats::group_with(&records, limits);
        let values = value::analyse(&records, &data, book, baseline)?;
        Ok(Analysis {
            records,
            data,
            values,
        })
    }

    /// The value table of a study, test and metric.
    pub fn table(&self, study: &str, test: &str, metric: &str) -> Option<&ValueTable> {
        self.values
            .iter()
            .find(|s| s.study == study)?
            .tables
            .iter()
            .find(|t| t.test == test && t.metric == metric)
    }
}

/// An offering whose records carry different prices, none of them
/// overridden by the price list: the site uses the first record's by id,
/// which may be an old one.
#[derive(Clone, Debug, PartialEq)]
pub struct PriceConflict {
    /// Study name.
    pub study: String,
    /// Offering display name.
    pub offering: String,
    /// The distinct prices per GB-month with their currency, sorted.
    pub prices: Vec<(f64, String)>,
}

/// The offerings whose records disagree on their price, by study and offering.
pub fn price_conflicts<'a>(
    records: impl IntoIterator<Item = &'a Summary>,
    book: &PriceBook,
) -> Vec<PriceConflict> {
    type Key = (String, String, Option<u64>, String, String);
    let mut seen: BTreeMap<Key, BTreeSet<(String, u64)>> = BTreeMap::new();
    for r in records {
        if book
            .for_region(
                r.subject.provider.as_deref(),
                r.subject.offering.as_deref(),
                r.subject.region.as_deref(),
            )
            .is_some()
        {
            continue;
        }
        if let Some(p) = &r.subject.price {
            // ordered by currency, then price (bit order is numeric order
            // for the positive finite prices records carry)
            // one configuration's records: two sizes of an offering may
            // rightly carry different prices (a tiered bill)
            let label = |k: &str| r.subject.labels.get(k).cloned().unwrap_or_default();
            let key = (
                r.study().to_string(),
                r.offering_name(),
                r.subject.size_gb.map(f64::to_bits),
                label("provisioned_iops"),
                label("provisioned_mbps"),
            );
            seen.entry(key)
                .or_default()
                .insert((p.currency.clone(), p.per_gb_month.to_bits()));
        }
    }
    seen.into_iter()
        .filter(|(_, prices)| prices.len() > 1)
        .map(|((study, offering, ..), prices)| PriceConflict {
            study,
            offering,
            prices: prices
                .into_iter()
                .map(|(c, bits)| (f64::from_bits(bits), c))
                .collect(),
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod testing {
    //! Records built in code for unit tests.

    use crate::record::{Metric, Price, Record, Source, Subject, TestInfo, Tool};

    /// An `ok` record in study `s` with the given metrics, 100 GB.
    pub fn record(
        id: &str,
        provider: &str,
        offering: &str,
        price: Option<f64>,
        test: &str,
        metrics: &[(&str, f64, &str)],
    ) -> Record {
        let subject = Subject {
            study: Some("s".to_string()),
            provider: Some(provider.to_string()),
            offering: Some(offering.to_string()),
            size_gb: Some(100.0),
            price: price.map(|p| Price {
                per_gb_month: p,
                currency: "USD".to_string(),
                note: None,
            }),
            ..Subject::default()
        };
        // the tool and parameters a test of that id has, so that its
        // metrics are judged as in real records; other ids (`t`, `u`) are
        // ioping seek tests, judged on `iops`
        let (tool, parameters) = match test {
            t if t.starts_with("fio") => {
                (Tool::Fio, serde_json::json!({"rw": "randread", "bs": 4096}))
            }
            t if t.starts_with("dd") => (Tool::Dd, serde_json::json!({})),
            t if t.starts_with("bonnie") => (Tool::Bonnie, serde_json::json!({})),
            "ioping-latency" => (Tool::Ioping, serde_json::json!({"flags": ""})),
            _ => (Tool::Ioping, serde_json::json!({"flags": "R"})),
        };
        let test = TestInfo {
            id: test.to_string(),
            suite: None,
            tool,
            tool_version: None,
            parameters: serde_json::from_value(parameters).unwrap_or_default(),
            command: None,
        };
        let source = Source::Run {
            diskdash_version: "0.1.0".to_string(),
        };
        Record {
            metrics: metrics
                .iter()
                .map(|(n, v, u)| {
                    (
                        n.to_string(),
                        Metric {
                            value: *v,
                            unit: crate::record::unit_name(u).expect("a canonical unit"),
                        },
                    )
                })
                .collect(),
            ..Record::new(id, source, subject, test)
        }
    }
}
