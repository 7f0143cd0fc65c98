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
use crate::metrics::metric_order;
use crate::record::{slug, Record, Status};
use crate::units::Unit;

mod over_time;
pub use over_time::{Burst, Lasting, Steady, Unmeasured};

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
}

impl Measured {
    /// As the verdict column says it: `while bursting`, `against the
    /// baseline's burst`, `burst not measured`.
    pub fn words(self) -> &'static str {
        match self {
            Measured::WhileBursting => "while bursting",
            Measured::AgainstBaselineBurst => "against the baseline's burst",
            Measured::BurstNotMeasured => "burst not measured",
        }
    }

    /// Whether the row keeps its verdict (qualified) or has none.
    pub fn keeps_verdict(self) -> bool {
        self == Measured::BurstNotMeasured
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
    /// Configuration name to why its monthly cost is unknown.
    pub cost_missing: BTreeMap<String, String>,
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

/// A configuration's price and what it costs a month.
struct Priced {
    price: Option<EffectivePrice>,
    monthly: Result<f64, String>,
    /// Into the baseline's currency, for a price in another currency with
    /// a rate in `--rates`.
    to_base: Option<Conversion>,
}

impl Priced {
    fn per_gb(&self) -> Option<f64> {
        self.price.as_ref().and_then(EffectivePrice::per_gb_month)
    }

    fn flat(&self) -> bool {
        self.price.as_ref().is_some_and(EffectivePrice::is_flat)
    }

    fn currency(&self) -> Option<&str> {
        self.price.as_ref().map(|p| p.currency.as_str())
    }

    /// Units of the baseline's currency per unit of this price's, when
    /// the price is converted.
    fn factor(&self) -> Option<f64> {
        self.to_base.as_ref().map(|c| c.factor)
    }

    /// The currency the price compares in: the baseline's when converted.
    fn compared_currency(&self) -> Option<&str> {
        match &self.to_base {
            Some(c) => Some(c.to.as_str()),
            None => self.currency(),
        }
    }

    /// The cost the study's basis ranks by.
    fn cost(&self, basis: PriceBasis) -> Option<f64> {
        match basis {
            PriceBasis::Monthly => self.monthly.as_ref().ok().copied(),
            PriceBasis::PerGb => self.per_gb(),
        }
    }
}

/// The price ratio of `row` against `base` and its basis, or why there is
/// none ("size unknown", "priced in EUR, the baseline in USD").
fn price_ratio(row: &Priced, base: &Priced) -> Result<(PriceBasis, f64), String> {
    let (Some(p), Some(b)) = (&row.price, &base.price) else {
        return Err(if row.price.is_none() {
            "no price".into()
        } else {
            "no priced baseline".into()
        });
    };
    // a price in another currency compares once converted into the
    // baseline's; the baseline itself is never converted
    let factor = if p.currency == b.currency {
        1.0
    } else {
        match row.to_base.as_ref().filter(|c| c.to == b.currency) {
            Some(c) => c.factor,
            None => return Err(no_rate_reason(&p.currency, &b.currency)),
        }
    };
    if let (Ok(m), Ok(mb)) = (&row.monthly, &base.monthly) {
        if *mb > 0.0 {
            return Ok((PriceBasis::Monthly, m * factor / mb));
        }
    }
    if let (true, true, Some(g), Some(gb)) = (row.flat(), base.flat(), row.per_gb(), base.per_gb())
    {
        return Ok((PriceBasis::PerGb, g * factor / gb));
    }
    Err(match (&row.monthly, &base.monthly) {
        (Err(m), _) => m.clone(),
        (_, Err(m)) => format!("the baseline's {m}"),
        _ => "the baseline's monthly cost is zero".into(),
    })
}

/// Why a price in `currency` cannot be compared with a baseline priced in
/// `base`: `priced in EUR, no EUR→USD rate in --rates`.
pub fn no_rate_reason(currency: &str, base: &str) -> String {
    format!("priced in {currency}, no {currency}→{base} rate in --rates")
}

/// Runs the value analysis over every study of `data` (grouped from
/// `records`). `baseline` names a configuration to compare against in the
/// studies that have it; other studies use their cheapest configuration.
///
/// Fails when `baseline` names no priced configuration in any study.
pub fn analyse(
    records: &[&Record],
    data: &Dataset,
    book: &PriceBook,
    baseline: Option<&str>,
) -> Result<Vec<StudyValue>> {
    let effective = |o: &OfferingData| {
        book.effective(
            o.provider.as_deref(),
            o.offering.as_deref(),
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
                        None => Err("no price".to_string()),
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
                    .filter(|(_, p)| p.price.is_some())
                    .filter_map(|(n, p)| Some((n.clone(), p.monthly.clone().err()?)))
                    .collect(),
                failures: failures(records, study),
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
fn failures(records: &[&Record], study: &Study) -> BTreeMap<String, Vec<Failure>> {
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
                    test: r.test.id.clone(),
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

/// The currency most priced configurations use (on a tie, the first code
/// alphabetically): prices in different currencies cannot be compared.
fn main_currency(priced: &BTreeMap<String, Priced>) -> Option<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for p in priced.values() {
        if let Some(c) = p.currency() {
            *counts.entry(c).or_default() += 1;
        }
    }
    counts
        .iter()
        .fold(None::<(&str, usize)>, |best, (c, n)| match best {
            Some((_, bn)) if bn >= *n => best,
            _ => Some((c, *n)),
        })
        .map(|(c, _)| c.to_string())
}

/// The basis a study can rank on in `currency`: monthly cost when every
/// configuration priced in it has one, else price per GB.
fn study_basis(priced: &BTreeMap<String, Priced>, currency: Option<&str>) -> Option<PriceBasis> {
    let currency = currency?;
    let mut in_currency = priced.values().filter(|p| p.currency() == Some(currency));
    Some(if in_currency.all(|p| p.monthly.is_ok()) {
        PriceBasis::Monthly
    } else {
        PriceBasis::PerGb
    })
}

/// The cheapest configuration in the main currency on the study's basis,
/// and that basis. Ties go to the first name: the choice is deterministic.
fn cheapest(priced: &BTreeMap<String, Priced>) -> Option<(String, PriceBasis)> {
    let currency = main_currency(priced)?;
    let basis = study_basis(priced, Some(&currency))?;
    cheapest_of(priced.iter(), &currency, basis).map(|n| (n.to_string(), basis))
}

/// The cheapest of `candidates` in `currency` on `basis`.
fn cheapest_of<'a>(
    candidates: impl Iterator<Item = (&'a String, &'a Priced)>,
    currency: &str,
    basis: PriceBasis,
) -> Option<&'a str> {
    candidates
        .filter(|(_, p)| p.currency() == Some(currency))
        .filter_map(|(n, p)| Some((n.as_str(), p.cost(basis)?)))
        .fold(None::<(&str, f64)>, |best, (n, c)| match best {
            Some((_, bc)) if bc <= c => best,
            _ => Some((n, c)),
        })
        .map(|(n, _)| n)
}

/// The value tables of one test of a study, one per judged metric. When the
/// study's baseline is the cheapest configuration (not one named with
/// `--baseline`) and it has no result for a metric (its run failed, or
/// that test never ran on it), the table compares with the cheapest
/// configuration in the same currency that has one, rather than leaving
/// every other configuration without a verdict. A timed test's tables are
/// its sustained levels ([`crate::metrics::TestKind::judges_in`]).
///
/// What lasts decides: in a study where a sustained test shows some
/// configuration to burst, a short test of a bursting configuration (or
/// against a bursting baseline) measured a burst and gets no verdict, and
/// one of a configuration without a sustained test is qualified ([`Measured`]).
#[allow(clippy::too_many_arguments)]
fn tables(
    records: &[&Record],
    study: &Study,
    priced: &BTreeMap<String, Priced>,
    study_baseline: Option<&str>,
    basis: Option<PriceBasis>,
    chosen_by_flag: bool,
    lasting: &BTreeMap<String, Lasting>,
    test: &String,
) -> Vec<ValueTable> {
    let bursty = lasting.values().any(|l| l.bursts());
    let mut out = Vec::new();
    let (kind, timed) = (study.kind(test), study.is_timed(test));
    let mut metrics: Vec<(&String, Unit)> = Vec::new();
    for off in study.offerings.values() {
        if let Some(t) = off.tests.get(test) {
            for (metric, st) in &t.metrics {
                if kind.judges_in(metric, timed) && !metrics.iter().any(|(m, _)| *m == metric) {
                    metrics.push((metric, st.unit));
                }
            }
        }
    }
    metrics.sort_by_cached_key(|(m, _)| metric_order(m));
    for (metric, unit) in metrics {
        let stats_of = |name: &str| {
            study
                .offerings
                .get(name)
                .and_then(|o| o.tests.get(test))
                .and_then(|t| t.metrics.get(metric))
                .filter(|s| s.unit == unit)
        };
        let baseline = match (study_baseline, basis) {
            (Some(b), Some(basis)) if !chosen_by_flag && stats_of(b).is_none() => {
                let currency = priced[b].currency().unwrap_or("");
                cheapest_of(
                    priced.iter().filter(|(n, _)| stats_of(n).is_some()),
                    currency,
                    basis,
                )
                .or(Some(b))
            }
            (other, _) => other,
        };
        let no_price = Priced {
            price: None,
            monthly: Err("no price".into()),
            to_base: None,
        };
        let base_priced = baseline.and_then(|b| priced.get(b)).unwrap_or(&no_price);
        let base_stats = baseline.and_then(stats_of);
        let sustained = metric.ends_with(crate::metrics::SUSTAINED);
        let base_results = baseline
            .and_then(|b| study.offerings.get(b))
            .and_then(|o| o.tests.get(test));
        let base_side = base_results.and_then(|t| over_time::Side::of(records, t, metric));
        let base_steady = base_results
            .filter(|_| sustained)
            .and_then(|t| over_time::steady(records, t));
        let mut rows: Vec<ValueRow> = study
            .offerings
            .values()
            .filter_map(|o| {
                let st = stats_of(&o.name)?;
                let results = o.tests.get(test)?;
                let p = &priced[&o.name];
                let is_baseline = baseline == Some(o.name.as_str());
                let ratio = price_ratio(p, base_priced);
                let per_gb_ratio = match (p.per_gb(), base_priced.per_gb()) {
                    (Some(g), Some(gb)) if p.currency() == base_priced.currency() => Some(g / gb),
                    (Some(g), Some(gb)) if p.compared_currency() == base_priced.currency() => {
                        p.factor().map(|f| g * f / gb)
                    }
                    _ => None,
                };
                let s = &st.summary;
                // zero performance is a result (0x: "no"); a zero divisor,
                // or a lower-is-better baseline of zero, leaves it undefined
                let perf = |mine: f64, theirs: f64| {
                    let (r, zero_ok) = if unit.higher_is_better() {
                        (mine / theirs, true)
                    } else {
                        (theirs / mine, false)
                    };
                    (r.is_finite() && (r > 0.0 || zero_ok && r == 0.0)).then_some(r)
                };
                let performance_ratio = base_stats.and_then(|b| perf(s.median, b.summary.median));
                let value_ratio = match (performance_ratio, &ratio) {
                    (Some(perf), Ok((_, price))) => Some(perf / price),
                    _ => None,
                };
                let single_run =
                    !is_baseline && (s.n < 2 || base_stats.is_some_and(|b| b.summary.n < 2));
                let value_range = match (base_stats, &ratio, value_ratio) {
                    (Some(b), Ok((_, price)), Some(_)) if !is_baseline && !single_run => {
                        let b = &b.summary;
                        let (lo, hi) = if unit.higher_is_better() {
                            (perf(s.min, b.max), perf(s.max, b.min))
                        } else {
                            (perf(s.max, b.min), perf(s.min, b.max))
                        };
                        lo.zip(hi).map(|(lo, hi)| (lo / price, hi / price))
                    }
                    _ => None,
                };
                let lasts = |name: Option<&str>| {
                    name.and_then(|n| lasting.get(n))
                        .copied()
                        .unwrap_or(Lasting::NotMeasured)
                };
                let measured = match (lasts(Some(&o.name)), lasts(baseline)) {
                    _ if !bursty || sustained => None,
                    (Lasting::Bursts(_), _) => Some(Measured::WhileBursting),
                    (_, Lasting::Bursts(_)) if !is_baseline => Some(Measured::AgainstBaselineBurst),
                    (Lasting::NotMeasured, _) => Some(Measured::BurstNotMeasured),
                    _ => None,
                };
                let withheld = measured.is_some_and(|m| !m.keeps_verdict()) && !is_baseline;
                let verdict = if is_baseline && value_ratio.is_some() {
                    Some(BASELINE_VERDICT)
                } else if withheld {
                    None
                } else {
                    value_ratio.map(verdict)
                };
                let uncertain = !withheld
                    && value_range.is_some_and(|(lo, hi)| self::verdict(lo) != self::verdict(hi));
                let no_verdict = verdict.is_none().then(|| {
                    let why = match &ratio {
                        _ if withheld => {
                            let m = measured.unwrap_or(Measured::WhileBursting);
                            return format!("{}: judged on the sustained level", m.words());
                        }
                        Err(why) => why.clone(),
                        Ok(_) if base_stats.is_none() => {
                            "no baseline result for this metric".into()
                        }
                        Ok(_) => "no usable performance ratio (a zero median)".into(),
                    };
                    format!("{why}: not compared")
                });
                let monthly_cost = p.monthly.as_ref().ok().copied();
                let rate = p.factor();
                let per_cost = monthly_cost
                    .map(|c| c * rate.unwrap_or(1.0))
                    .filter(|c| *c > 0.0 && unit.higher_is_better())
                    .map(|c| s.median / c);
                let price_only = ratio.as_ref().ok().map(|(_, r)| *r);
                let burst = over_time::Side::of(records, results, metric).and_then(|own| {
                    over_time::burst(&own, base_side.as_ref(), is_baseline, &perf, price_only)
                });
                let steady = sustained
                    .then(|| over_time::steady(records, results))
                    .flatten();
                let shortfall = |s: &Option<Steady>| s.as_ref().and_then(Steady::shortfall);
                let qualifier = shortfall(&steady).or_else(|| {
                    (!is_baseline)
                        .then(|| shortfall(&base_steady))
                        .flatten()
                        .map(|q| format!("the baseline's {q}"))
                });
                Some(ValueRow {
                    offering: o.name.clone(),
                    price: p.price.clone(),
                    median: s.median,
                    min: s.min,
                    max: s.max,
                    runs: s.n,
                    is_baseline,
                    price_basis: ratio.as_ref().ok().map(|(b, _)| *b),
                    price_ratio: ratio.as_ref().ok().map(|(_, r)| *r),
                    per_gb_ratio,
                    performance_ratio,
                    value_ratio,
                    value_range,
                    single_run,
                    verdict,
                    uncertain,
                    no_verdict,
                    monthly_cost,
                    per_cost,
                    rate,
                    burst,
                    steady,
                    qualifier,
                    measured,
                })
            })
            .collect();
        // the baseline's currency first, cheapest on the study's basis
        let base_currency = base_priced.currency();
        // borrowed, so that no comparison of the sorts below allocates
        // a converted price ranks among the baseline's currency by its
        // converted cost
        let rank = |name: &str| -> (u8, bool, &str, f64) {
            let p = &priced[name];
            let cost = basis
                .and_then(|b| p.cost(b))
                .or(p.per_gb())
                .map(|c| c * p.factor().unwrap_or(1.0));
            match p.compared_currency() {
                Some(c) => (
                    0,
                    c != base_currency.unwrap_or(c),
                    c,
                    cost.unwrap_or(f64::INFINITY),
                ),
                None => (1, false, "", f64::INFINITY),
            }
        };
        let order = |a: &str, b: &str| {
            let (ra, rb) = (rank(a), rank(b));
            (ra.0, ra.1, ra.2)
                .cmp(&(rb.0, rb.1, rb.2))
                .then(ra.3.total_cmp(&rb.3))
                .then_with(|| a.cmp(b))
        };
        rows.sort_by(|a, b| order(&a.offering, &b.offering));
        let mut unmeasured: Vec<Unmeasured> = study
            .offerings
            .values()
            .filter_map(|o| {
                let reason = over_time::unmeasured(records, o.tests.get(test)?, metric)?;
                Some(Unmeasured {
                    offering: o.name.clone(),
                    reason,
                })
            })
            .collect();
        unmeasured.sort_by(|a, b| order(&a.offering, &b.offering));
        out.push(ValueTable {
            test: test.clone(),
            metric: metric.clone(),
            unit,
            kind,
            rows,
            unmeasured,
        });
    }
    out
}

#[cfg(test)]
mod tests;
