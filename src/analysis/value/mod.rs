//! Price/performance value: within each study, for every test and judged
//! metric, the configurations ordered by cost with price, performance and
//! value ratios against a baseline, and a verdict in plain words that says
//! when the spread makes it uncertain. A timed test (one whose records
//! carry a timeline's sustained level) is judged on that level, with the
//! burst beside it and its steady state qualifying the verdict
//! (`value/over_time.rs`).

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use rayon::prelude::*;

use crate::analysis::prices::{Conversion, EffectivePrice, PriceBook};
use crate::analysis::stats::{Dataset, OfferingData, Study};
use crate::record::{slug, Status, Summary};
use crate::units::Unit;

mod over_time;
mod price;
mod tables;
pub use over_time::{Burst, Lasting, Steady, Unmeasured};
pub use price::no_rate_reason;
use price::{cheapest, study_basis, Priced};
use tables::tables;

/// A verdict band: value ratios at or above `at_least` (and below the band
/// before it) get `verdict`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// Lowest value ratio in the band.
    pub at_least: f64,
    /// The verdict in words.
    pub verdict: &'static str,
    /// What the band means, for the value page.
    pub meaning: &'static str,
}

/// The verdict bands, best first. The value ratio is performance ratio /
/// price ratio: 1 means performance grew exactly as fast as the price.
pub const BANDS: [Band; 4] = [
    Band {
        at_least: 1.0,
        verdict: "worth it",
        meaning: "performance grows at least as fast as the price",
    },
    Band {
        at_least: 0.8,
        verdict: "nearly worth it",
        meaning: "at least 80% of the performance the price would suggest",
    },
    Band {
        at_least: 0.5,
        verdict: "not quite",
        meaning: "50% to 80% of the performance the price would suggest",
    },
    Band {
        at_least: f64::NEG_INFINITY,
        verdict: "no",
        meaning: "less than half the performance the price would suggest",
    },
];

/// The verdict of the baseline's own row.
pub const BASELINE_VERDICT: &str = "baseline";

/// The band a value ratio falls in.
pub fn band(value_ratio: f64) -> &'static Band {
    BANDS
        .iter()
        .find(|b| value_ratio >= b.at_least)
        .unwrap_or(&BANDS[BANDS.len() - 1])
}

/// The verdict of a value ratio as published: rounded to the three decimals
/// `data/value.csv` and the value page show, so that a verdict never
/// disagrees with the number beside it, and 1.4x the price for 1.4x the
/// performance (0.9999999999999999 in floating point) is "worth it".
pub fn verdict(value_ratio: f64) -> &'static str {
    band((value_ratio * 1000.0).round() / 1000.0).verdict
}

/// What a price ratio divides: the tested configurations' monthly costs
/// where both are known, else their prices per GB when both are flat
/// (no fixed, tiered, per-IOPS or per-throughput part).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriceBasis {
    /// Monthly cost / the baseline's monthly cost.
    Monthly,
    /// Price per GB-month / the baseline's.
    PerGb,
}

impl PriceBasis {
    /// The name `value.csv` uses: `monthly`, `per_gb`.
    pub fn name(self) -> &'static str {
        match self {
            PriceBasis::Monthly => "monthly",
            PriceBasis::PerGb => "per_gb",
        }
    }

    /// What the ratio is of, in words: `monthly cost`, `price per GB`.
    pub fn words(self) -> &'static str {
        match self {
            PriceBasis::Monthly => "monthly cost",
            PriceBasis::PerGb => "price per GB",
        }
    }
}

/// One configuration's row in a value table.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueRow {
    /// Configuration name.
    pub offering: String,
    /// Its price, if known.
    pub price: Option<EffectivePrice>,
    /// Median of the metric over repetitions, canonical unit.
    pub median: f64,
    /// Smallest value over repetitions.
    pub min: f64,
    /// Largest value over repetitions.
    pub max: f64,
    /// Number of runs behind the median.
    pub runs: usize,
    /// Whether this configuration is the baseline.
    pub is_baseline: bool,
    /// What the price ratio divides; `None` without a price ratio.
    pub price_basis: Option<PriceBasis>,
    /// Cost / the baseline's on `price_basis`; `None` when the two cannot
    /// be compared (no price, another currency, a cost that is not known).
    pub price_ratio: Option<f64>,
    /// Price per GB / the baseline's, whatever the basis (both must have a
    /// per-GB price in one currency).
    pub per_gb_ratio: Option<f64>,
    /// Configuration / baseline (baseline / configuration for lower-is-better metrics).
    pub performance_ratio: Option<f64>,
    /// Performance ratio / price ratio.
    pub value_ratio: Option<f64>,
    /// The value ratio's range over the repetitions' spread (lowest,
    /// highest); `None` for the baseline and when either side ran once.
    pub value_range: Option<(f64, f64)>,
    /// Whether the row or the baseline has a single run behind it.
    pub single_run: bool,
    /// The band's verdict, or `baseline`; `None` without a value ratio.
    pub verdict: Option<&'static str>,
    /// Whether `value_range` reaches into another band than the verdict's.
    pub uncertain: bool,
    /// Why the row has no verdict, in words ending `: not compared`.
    pub no_verdict: Option<String>,
    /// Monthly cost of the tested configuration, when it is known.
    pub monthly_cost: Option<f64>,
    /// Median per unit of monthly cost (higher-is-better metrics only), in
    /// the baseline's currency when `rate` converted the cost.
    pub per_cost: Option<f64>,
    /// Units of the baseline's currency per unit of this configuration's,
    /// when its price is in another currency and `--rates` converted it;
    /// `None` in the baseline's currency (and without a rate).
    pub rate: Option<f64>,
    /// The burst beside a sustained level's verdict, where this
    /// configuration or the baseline bursts; `None` for other metrics.
    pub burst: Option<Burst>,
    /// The steady state of a sustained level over this configuration's
    /// runs; `None` for other metrics.
    pub steady: Option<Steady>,
    /// What qualifies a sustained verdict: `steady state not reached`,
    /// `sustained level not reached`, `the baseline's steady state not
    /// reached`; `None` when nothing does.
    pub qualifier: Option<String>,
    /// What a short (not sustained) test measured, in a study where some
    /// configuration is shown to burst: `None` where the figure is what
    /// lasts (no configuration of the study bursts, or this row's and the
    /// baseline's sustained tests show both flat).
    pub measured: Option<Measured>,
}

/// What a short test's figure stands for in a study where a sustained test
/// shows some configuration to burst: that test measured the burst of a
/// bursting volume, so it gets no plain verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measured {
    /// The configuration bursts: its short tests ran on its burst. No
    /// verdict; the configuration is judged on its sustained level.
    WhileBursting,
    /// The configuration is flat but the baseline bursts: the ratio is
    /// against the baseline's burst. No verdict.
    AgainstBaselineBurst,
    /// The configuration has no sustained test: whether it bursts is not
    /// known. The verdict stands, qualified.
    BurstNotMeasured,
    /// The configuration bursts, but every run of this test ran after its
    /// credit burst had ended on that run's volume (after the burst the
    /// same run's sustained test measured, and below its burst level):
    /// the figure is what lasts, and keeps its verdict.
    AfterBurst,
}

impl Measured {
    /// As the verdict column says it: `while bursting`, `against the
    /// baseline's burst`, `burst not measured`, `after the burst`.
    pub fn words(self) -> &'static str {
        match self {
            Measured::WhileBursting => "while bursting",
            Measured::AgainstBaselineBurst => "against the baseline's burst",
            Measured::BurstNotMeasured => "burst not measured",
            Measured::AfterBurst => "after the burst",
        }
    }

    /// Whether the row keeps its verdict (qualified) or has none.
    pub fn keeps_verdict(self) -> bool {
        matches!(self, Measured::BurstNotMeasured | Measured::AfterBurst)
    }
}

impl ValueRow {
    /// The monthly cost in the baseline's currency: converted at `rate`
    /// where the price is in another currency.
    pub fn converted_monthly_cost(&self) -> Option<f64> {
        Some(self.monthly_cost? * self.rate.unwrap_or(1.0))
    }

    /// The price per GB-month in the baseline's currency (see
    /// [`ValueRow::converted_monthly_cost`]).
    pub fn converted_per_gb(&self) -> Option<f64> {
        Some(self.price.as_ref()?.per_gb_month()? * self.rate.unwrap_or(1.0))
    }

    /// The verdict as pages and `value.csv` say it: `nearly worth it`,
    /// `nearly worth it, uncertain: 0.71 to 1.12`, `worth it, single run`,
    /// `worth it, single run, steady state not reached`, `baseline`;
    /// `None` without a verdict.
    pub fn verdict_text(&self) -> Option<String> {
        let mut text = self.verdict_words()?;
        if let Some(m) = self.measured.filter(|m| m.keeps_verdict()) {
            text.push_str(", ");
            text.push_str(m.words());
        }
        Some(text)
    }

    /// [`Self::verdict_text`] without how the figure was measured (`burst
    /// not measured`), for a table that says that once per configuration.
    pub fn verdict_words(&self) -> Option<String> {
        let v = self.verdict?;
        let mut text = if v == BASELINE_VERDICT {
            v.to_string()
        } else {
            match self.value_range {
                Some((lo, hi)) if self.uncertain => {
                    let mut t = [v, ", uncertain: "].concat();
                    crate::format::push_fixed(&mut t, lo, 2);
                    t.push_str(" to ");
                    crate::format::push_fixed(&mut t, hi, 2);
                    t
                }
                _ if self.single_run => [v, ", single run"].concat(),
                _ => v.to_string(),
            }
        };
        if let Some(q) = &self.qualifier {
            text.push_str(", ");
            text.push_str(q);
        }
        Some(text)
    }

    /// Whether the row has a verdict a reader can repeat: one that is not
    /// the baseline's own and not withheld because the figure is a burst.
    pub fn judged(&self) -> bool {
        self.verdict.is_some_and(|v| v != BASELINE_VERDICT)
    }
}

/// One test and judged metric within a study: every configuration that has it.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueTable {
    /// Test id.
    pub test: String,
    /// Metric name.
    pub metric: String,
    /// Canonical unit.
    pub unit: Unit,
    /// What the test measures.
    pub kind: crate::metrics::TestKind,
    /// Rows ordered by cost on the study's basis (cheapest first), other
    /// currencies after, unpriced last, then by name.
    pub rows: Vec<ValueRow>,
    /// For a sustained level: the configurations that measured the test's
    /// whole-run twin without a timeline, in the order of `rows`.
    pub unmeasured: Vec<Unmeasured>,
    /// What the test did, from its first record's parameters.
    pub shape: Shape,
}

impl StudyValue {
    /// Every configuration that no ratio of the study can compare, by name,
    /// with why and how to fix it: no price (`no price: no list price for
    /// region eu-west-1 in the catalogue; give it with --prices`), or a
    /// price in a currency without an exchange rate.
    pub fn excluded(&self) -> Vec<(&str, String)> {
        self.prices
            .iter()
            .filter_map(|(name, price)| {
                if let Some(why) = self.no_rate.get(name) {
                    return Some((name.as_str(), why.clone()));
                }
                if price.is_some() {
                    return None;
                }
                let why = match self.cost_missing_in_short(name) {
                    Some(reason) => format!("no price: {reason}; give it with --prices"),
                    None => "no price; give it with --prices".to_string(),
                };
                Some((name.as_str(), why))
            })
            .collect()
    }

    /// Why configuration `name`'s monthly cost is unknown
    /// ([`cost_missing`](StudyValue::cost_missing)), short enough for a
    /// sentence or a table cell: a provider the catalogue lacks, with no
    /// name near it, is `not in the catalogue` (the providers it has are
    /// listed on the value page); nearest names are kept.
    pub fn cost_missing_in_short(&self, name: &str) -> Option<&str> {
        let reason = self.cost_missing.get(name)?;
        Some(
            if reason.contains("the catalogue has no provider") && reason.contains(" (it has ") {
                "not in the catalogue"
            } else {
                reason
            },
        )
    }

    /// The configurations table `t` does not judge against the baseline,
    /// each with why, in name order: those with no ratio in the study
    /// ([`excluded`](StudyValue::excluded)), those its test did not
    /// measure, and those its rows leave without a ratio. The baseline and
    /// every row with a price ratio are judged (or said to be withheld
    /// beside their verdict), and are not among them.
    pub fn not_judged_in(&self, t: &ValueTable) -> Vec<(String, String)> {
        let excluded = self.excluded();
        let mut out = Vec::new();
        for name in self.prices.keys() {
            if let Some((_, why)) = excluded.iter().find(|(n, _)| n == name) {
                out.push((name.clone(), why.clone()));
                continue;
            }
            let why = match t.rows.iter().find(|r| r.offering == *name) {
                Some(r) if r.is_baseline || r.price_ratio.is_some() => continue,
                Some(r) => r
                    .no_verdict
                    .clone()
                    .unwrap_or_else(|| "not compared".into()),
                None => match t.unmeasured.iter().find(|u| u.offering == *name) {
                    Some(u) => u.reason.clone(),
                    None if self.quick_twin(t, name).is_some() => continue,
                    None => format!("no {} result", t.test),
                },
            };
            let why = why.trim_end_matches(": not compared").to_string();
            out.push((name.clone(), why));
        }
        out
    }

    /// The configurations `t` (a table of the standard suite, say) has no
    /// row for that the quick suite's table of the same test and metric
    /// judges, in name order, each with that row and the suite in words
    /// (`quick suite: 20-second tests`): a configuration measured only
    /// with the quick suite is judged on it, and says so beside the verdict.
    pub fn quick_judged_in<'a>(&'a self, t: &ValueTable) -> Vec<(&'a str, &'a ValueRow, String)> {
        self.prices
            .keys()
            .filter(|name| !t.rows.iter().any(|r| r.offering == **name))
            .filter(|name| !t.unmeasured.iter().any(|u| u.offering == **name))
            .filter_map(|name| {
                let (row, suite) = self.quick_twin(t, name)?;
                Some((name.as_str(), row, suite))
            })
            .collect()
    }

    /// The row of configuration `name` in the quick suite's table of the
    /// same test and metric as `t` (a table of another suite), with the
    /// suite in words (`quick suite: 20-second tests`): where a
    /// configuration measured only with the quick suite is judged.
    fn quick_twin(&self, t: &ValueTable, name: &str) -> Option<(&ValueRow, String)> {
        if t.shape.is_quick() {
            return None;
        }
        let twin = self
            .tables
            .iter()
            .find(|q| q.shape.is_quick() && q.shape.id == t.shape.id && q.metric == t.metric)?;
        let row = twin.rows.iter().find(|r| r.offering == name)?;
        Some((row, twin.shape.suite_words()?))
    }
}

/// What a test did, in the terms a headline names it by: the tool, the
/// I/O pattern, block size and queue depth of a fio test, the suite that
/// ran it and how long it ran. Every field is `None` where the record
/// does not say.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shape {
    /// The test id (a table's test is named after it, with what differs
    /// where a study holds two of one id).
    pub id: String,
    /// The tool.
    pub tool: Option<crate::record::Tool>,
    /// fio's `rw`: `randread`, `read`, `randrw`, ...
    pub rw: Option<String>,
    /// Block size in bytes.
    pub bs: Option<u64>,
    /// I/Os in flight: fio's `iodepth` times `numjobs` (1 each where the
    /// record gives none, as fio's defaults).
    pub queue: Option<u64>,
    /// The suite that ran it; `None` for imported records.
    pub suite: Option<String>,
    /// A time-based fio test's `runtime`, seconds.
    pub runtime_s: Option<f64>,
    /// Whether each write waits for the disk (dd's `oflag=dsync` or
    /// `sync`): a latency-bound figure, not a throughput.
    pub sync_writes: bool,
}

impl Shape {
    /// The shape of record `r`'s test.
    pub fn of(r: &Summary) -> Shape {
        use crate::record::Tool;
        use crate::tools::{param_bytes, param_text};
        let p = &r.test.parameters;
        // a number, or text as fio's JSON gives its job options (`"32"`)
        let count = |k: &str| {
            let v = p.get(k)?;
            v.as_u64().or_else(|| v.as_str()?.trim().parse().ok())
        };
        let fio = r.test.tool == Tool::Fio;
        Shape {
            id: r.test.id.clone(),
            tool: Some(r.test.tool),
            rw: fio.then(|| param_text(p, "rw")).flatten(),
            bs: fio.then(|| param_bytes(p, "bs")).flatten(),
            queue: fio.then(|| count("iodepth").unwrap_or(1) * count("numjobs").unwrap_or(1)),
            suite: r.test.suite.clone(),
            runtime_s: (fio && crate::tools::fio::is_time_based(p))
                .then(|| {
                    let v = p.get("runtime")?;
                    v.as_f64().or_else(|| v.as_str()?.trim().parse().ok())
                })
                .flatten()
                .filter(|s| s.is_finite() && *s > 0.0),
            sync_writes: param_text(p, "oflag")
                .is_some_and(|f| f.split(',').any(|f| f == "dsync" || f == "sync")),
        }
    }

    /// Whether the quick suite ran it: short tests for trying diskdash
    /// out, never an answer over the standard suite's.
    pub fn is_quick(&self) -> bool {
        self.suite.as_deref() == Some("quick")
    }

    /// `quick suite: 20-second tests` for a test of the quick suite,
    /// whose short tests are for trying diskdash out: said beside every
    /// verdict that rests on them; `None` for any other.
    pub fn suite_words(&self) -> Option<String> {
        if !self.is_quick() {
            return None;
        }
        Some(match self.runtime_s {
            Some(s) if s.fract() == 0.0 && s < 1e9 => {
                format!(
                    "quick suite: {}-second tests",
                    crate::format::whole(s as u64)
                )
            }
            Some(s) => format!("quick suite: {}-second tests", crate::format::number(s)),
            None => "quick suite: short tests".into(),
        })
    }

    /// Whether fio ran random reads (`randread`, or the reads of `randrw`).
    pub fn random_reads(&self) -> bool {
        matches!(self.rw.as_deref(), Some("randread" | "randrw"))
    }

    /// Whether fio ran sequential reads.
    pub fn sequential_reads(&self) -> bool {
        matches!(self.rw.as_deref(), Some("read" | "rw" | "readwrite"))
    }

    /// The test in words: `4 KiB random reads at queue depth 32`, `1 MiB
    /// sequential reads at queue depth 16`; `None` for a test that is not
    /// fio's or whose pattern is not recorded.
    pub fn words(&self) -> Option<String> {
        let what = match self.rw.as_deref()? {
            "randread" => "random reads",
            "randwrite" => "random writes",
            "randrw" => "random reads and writes",
            "read" => "sequential reads",
            "write" => "sequential writes",
            "rw" | "readwrite" => "sequential reads and writes",
            "randtrim" => "random trims",
            "trim" => "sequential trims",
            _ => return None,
        };
        let mut s = match self.bs {
            Some(bs) => format!("{} {what}", crate::format::size(bs)),
            None => what.to_string(),
        };
        if let Some(q) = self.queue {
            s.push_str(&format!(" at queue depth {q}"));
        }
        Some(s)
    }
}

impl ValueTable {
    /// The baseline's row, if it has this metric.
    pub fn baseline_row(&self) -> Option<&ValueRow> {
        self.rows.iter().find(|r| r.is_baseline)
    }

    /// Whether the table judges a timeline's sustained level.
    pub fn is_sustained(&self) -> bool {
        self.metric.ends_with(crate::metrics::SUSTAINED)
    }
}

/// A run of a configuration that did not give a result.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// Test id.
    pub test: String,
    /// `failed` or `skipped`.
    pub status: Status,
    /// The first line of the record's error: the tool's own words where the
    /// runner kept them (an I/O error on a volume is itself a finding).
    pub error: String,
}

/// The value analysis of one study.
#[derive(Clone, Debug, PartialEq)]
pub struct StudyValue {
    /// Study name.
    pub study: String,
    /// The baseline configuration's name; `None` when none has a price.
    pub baseline: Option<String>,
    /// Why it is the baseline: `cheapest monthly cost`, `cheapest per GB`
    /// or `chosen with --baseline`.
    pub baseline_reason: &'static str,
    /// The basis the study's baseline was chosen on.
    pub basis: Option<PriceBasis>,
    /// Configuration name to its effective price (`None`: no price known).
    pub prices: BTreeMap<String, Option<EffectivePrice>>,
    /// Configuration name to its monthly cost, or what is missing for one.
    pub monthly_costs: BTreeMap<String, Option<f64>>,
    /// Configuration name to why its monthly cost is unknown: for a
    /// priced configuration, what the price needs; for an unpriced one,
    /// only a reason beyond "no price" (`no list price for region
    /// eu-west-1 in the catalogue`).
    pub cost_missing: BTreeMap<String, String>,
    /// Configuration name to the levels its monthly cost assumes because
    /// its price includes them and its records name no provisioned figure
    /// (`3,000 IOPS and 125 MiB/s included; --provisioned-iops,
    /// --provisioned-mbps if you bought more`); shown beside that cost.
    pub cost_notes: BTreeMap<String, String>,
    /// Configuration name to its runs that failed or were skipped.
    pub failures: BTreeMap<String, Vec<Failure>>,
    /// Configuration name to what its sustained tests show of its burst.
    pub lasting: BTreeMap<String, Lasting>,
    /// The baseline's currency, which every ratio is in; `None` without a
    /// baseline.
    pub currency: Option<String>,
    /// The exchange rates that converted configurations priced in other
    /// currencies into `currency`, one per currency, by currency.
    pub conversions: Vec<Conversion>,
    /// Configuration name to why its price cannot be compared with the
    /// baseline's for lack of an exchange rate (`priced in EUR, no EUR→USD
    /// rate in --rates`).
    pub no_rate: BTreeMap<String, String>,
    /// Tables in test order, judged metrics in display order within a test.
    pub tables: Vec<ValueTable>,
}

/// Whether `wanted` names the configuration: its name, its `provider
/// offering` name, or the slug of either, case-insensitively.
fn names(wanted: &str, off: &OfferingData) -> bool {
    let w = wanted.trim();
    // a name without ASCII letters or digits slugs to the placeholder `x`,
    // which must not make `--baseline x` (or `日本`) match every such name
    let sluggable = |s: &str| s.chars().any(|c| c.is_ascii_alphanumeric());
    [&off.name, &off.offering_name]
        .into_iter()
        .any(|n| n.eq_ignore_ascii_case(w) || sluggable(w) && sluggable(n) && slug(n) == slug(w))
}

/// Runs the value analysis over every study of `data` (grouped from
/// `records`). `baseline` names a configuration to compare against in the
/// studies that have it; other studies use their cheapest configuration.
///
/// Fails when `baseline` names no priced configuration in any study.
pub fn analyse(
    records: &[&Summary],
    data: &Dataset,
    book: &PriceBook,
    baseline: Option<&str>,
) -> Result<Vec<StudyValue>> {
    let effective = |o: &OfferingData| {
        book.effective(
            o.provider.as_deref(),
            o.offering.as_deref(),
            o.region.as_deref(),
            o.record_price.as_ref(),
        )
    };
    if let Some(wanted) = baseline {
        let found: Vec<&OfferingData> = data
            .studies
            .values()
            .flat_map(|s| s.offerings.values())
            .filter(|o| names(wanted, o))
            .collect();
        if found.is_empty() {
            let known: Vec<&str> = data
                .studies
                .values()
                .flat_map(|s| s.offerings.keys().map(String::as_str))
                .collect();
            bail!(
                "--baseline `{wanted}` names no offering (known: {})",
                known.join(", ")
            );
        }
        if found.iter().all(|o| effective(o).is_none()) {
            bail!("--baseline `{wanted}` has no price (give one with --prices)");
        }
    }
    Ok(data
        .studies
        .iter()
        .map(|(name, study)| {
            let priced: BTreeMap<String, Priced> = study
                .offerings
                .values()
                .map(|o| {
                    let price = effective(o);
                    let monthly = match &price {
                        Some(p) => p
                            .try_monthly_cost(o.size_gb, &o.labels)
                            .map_err(|m| m.to_string()),
                        None => Err(book.why_unpriced(
                            o.provider.as_deref(),
                            o.offering.as_deref(),
                            o.region.as_deref(),
                        )),
                    };
                    (
                        o.name.clone(),
                        Priced {
                            price,
                            monthly,
                            to_base: None,
                        },
                    )
                })
                .collect();
            let chosen = baseline.and_then(|w| {
                let mut matching: Vec<&OfferingData> = study
                    .offerings
                    .values()
                    .filter(|o| names(w, o) && priced[&o.name].price.is_some())
                    .collect();
                // a `provider offering` name of several sizes: the cheapest
                matching.sort_by(|a, b| {
                    let c = |o: &OfferingData| {
                        let p = &priced[&o.name];
                        p.monthly
                            .as_ref()
                            .ok()
                            .copied()
                            .or(p.per_gb())
                            .unwrap_or(f64::INFINITY)
                    };
                    c(a).total_cmp(&c(b)).then_with(|| a.name.cmp(&b.name))
                });
                // the exact name wins over a shared `provider offering`
                matching
                    .iter()
                    .find(|o| o.name.eq_ignore_ascii_case(w.trim()))
                    .or(matching.first())
                    .map(|o| o.name.clone())
            });
            let chosen_by_flag = chosen.is_some();
            let (base, basis, reason) = match chosen {
                Some(b) => {
                    let basis = study_basis(&priced, priced[&b].currency());
                    (Some(b), basis, "chosen with --baseline")
                }
                None => match cheapest(&priced) {
                    Some((b, basis)) => (
                        Some(b),
                        Some(basis),
                        match basis {
                            PriceBasis::Monthly => "cheapest monthly cost",
                            PriceBasis::PerGb => "cheapest per GB",
                        },
                    ),
                    None => (None, None, "cheapest per GB"),
                },
            };
            // prices in other currencies than the baseline's, converted
            // where --rates has a rate, named where it has none
            let currency = base
                .as_ref()
                .and_then(|b| priced[b].currency())
                .map(str::to_string);
            let mut priced = priced;
            let mut conversions: BTreeMap<String, Conversion> = BTreeMap::new();
            let mut no_rate = BTreeMap::new();
            if let Some(to) = &currency {
                for (n, p) in priced.iter_mut() {
                    let Some(from) = p.currency().filter(|c| c != to).map(str::to_string) else {
                        continue;
                    };
                    match book.rates().conversion(&from, to) {
                        Some(c) => {
                            conversions.entry(from).or_insert_with(|| c.clone());
                            p.to_base = Some(c);
                        }
                        None => {
                            no_rate.insert(n.clone(), no_rate_reason(&from, to));
                        }
                    }
                }
            }
            let priced = priced;
            let lasting: BTreeMap<String, Lasting> = study
                .offerings
                .values()
                .map(|o| (o.name.clone(), Lasting::of(records, o)))
                .collect();
            // each test's tables apart from the others', in parallel, kept
            // in test order
            let tests: Vec<&String> = study.tests.iter().collect();
            let tables = tests
                .par_iter()
                .flat_map_iter(|&test| {
                    tables(
                        records,
                        study,
                        &priced,
                        base.as_deref(),
                        basis,
                        chosen_by_flag,
                        &lasting,
                        test,
                    )
                })
                .collect();
            StudyValue {
                study: name.clone(),
                baseline: base,
                baseline_reason: reason,
                basis,
                prices: priced
                    .iter()
                    .map(|(n, p)| (n.clone(), p.price.clone()))
                    .collect(),
                monthly_costs: priced
                    .iter()
                    .map(|(n, p)| (n.clone(), p.monthly.as_ref().ok().copied()))
                    .collect(),
                cost_missing: priced
                    .iter()
                    .filter_map(|(n, p)| Some((n.clone(), p.monthly.clone().err()?)))
                    .filter(|(n, why)| priced[n].price.is_some() || why != "no price")
                    .collect(),
                cost_notes: study
                    .offerings
                    .values()
                    .filter_map(|o| {
                        let p = priced[&o.name].price.as_ref()?;
                        priced[&o.name].monthly.as_ref().ok()?;
                        Some((o.name.clone(), p.included(&o.labels).words(o.mbps_unit)?))
                    })
                    .collect(),
                failures: failures(records, data, study),
                lasting,
                currency,
                conversions: conversions.into_values().collect(),
                no_rate,
                tables,
            }
        })
        .collect())
}

/// Every failed or skipped run of each configuration, by test id.
fn failures(records: &[&Summary], data: &Dataset, study: &Study) -> BTreeMap<String, Vec<Failure>> {
    study
        .offerings
        .values()
        .filter_map(|o| {
            let list: Vec<Failure> = o
                .records
                .iter()
                .filter_map(|&i| records.get(i))
                .filter(|r| r.status != Status::Ok)
                .map(|r| Failure {
                    test: data.test_of(r).to_string(),
                    status: r.status,
                    error: r
                        .error
                        .as_deref()
                        .and_then(|e| e.lines().map(str::trim).find(|l| !l.is_empty()))
                        .unwrap_or("no reason given")
                        .to_string(),
                })
                .collect();
            (!list.is_empty()).then(|| (o.name.clone(), list))
        })
        .collect()
}

#[cfg(test)]
mod tests;
