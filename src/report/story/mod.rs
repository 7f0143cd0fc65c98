//! A study told in words: when and how it was measured, the executive
//! summary sentences, its one-line answer and the value matrix. The study
//! page, the index and `data/<study>.md` all say the same thing, so it is
//! worked out once here, as formatted strings.

use std::collections::BTreeSet;

use crate::analysis::prices::Conversion;
use crate::analysis::value::{StudyValue, ValueRow, ValueTable};
use crate::analysis::Analysis;
use crate::format;
use crate::metrics::{human_name, metric_order};
use crate::record::{Source, Summary};

pub mod headline;
pub mod history;
mod matrix;
mod post;
use headline::and_list;
pub use matrix::{Cell, Column, Matrix, MatrixRow};
pub use post::PostTable;

/// One study, told.
#[derive(Clone, Debug, Default)]
pub struct Story {
    /// Study name.
    pub study: String,
    /// When it was measured: `2013-01`, `2026-11-30 to 2026-12-01`, `unknown`.
    pub measured: String,
    /// The latest date of measurement, for ordering studies newest first.
    pub latest: Option<String>,
    /// How the numbers came to be: measured, imported, transcribed from what.
    pub sources: Vec<String>,
    /// `configuration: host` for each configuration whose host is known.
    pub hosts: Vec<String>,
    /// `configuration: target` for each configuration whose target is known.
    pub targets: Vec<String>,
    /// Tool versions seen, `fio 3.33`, or the tools when no version is known.
    pub tools: String,
    /// The baseline and why.
    pub baseline: String,
    /// The executive summary, one sentence per item.
    pub summary: Vec<String>,
    /// Which exchange rate of which date converted each other currency
    /// into the baseline's, a sentence each ([`rate_sentences`]); empty
    /// when every price is in one currency.
    pub rates: Vec<String>,
    /// The answer in a few sentences, for the index, the study page and
    /// the post: the sustained level first where there is one, then random
    /// I/O and sequential throughput, then the most for the money.
    pub headline: Vec<String>,
    /// When the answer was measured, a sentence per configuration measured
    /// more than once ([`history::sentences`]); empty otherwise.
    pub history: Vec<String>,
    /// The history of each configuration measured more than once, a table
    /// per test and judged metric ([`history::tables`]).
    pub history_tables: Vec<history::HistoryTable>,
    /// `configuration: test failed: error` for every run without a result.
    pub failures: Vec<String>,
    /// The value matrix: a column per judged metric, a row per configuration.
    pub matrix: Matrix,
    /// The post's table: a column per headline dimension.
    pub post: PostTable,
    /// Where the post's table has no column (a study of one
    /// configuration, or none priced): a row per configuration, test and
    /// judged metric (every metric where none is judged) with its median
    /// and runs, `[configuration, test, metric, median, runs]`.
    pub measured_values: Vec<[String; 5]>,
}

/// A configuration's failed and skipped runs, one line each:
/// `fio-randread-4k-qd64 failed: fio: io_u error on file ...: Input/output error`.
pub fn failure_lines(sv: &StudyValue, config: &str) -> Vec<String> {
    sv.failures
        .get(config)
        .map(|list| {
            list.iter()
                .map(|f| format!("{} {}: {}", f.test, f.status.name(), f.error))
                .collect()
        })
        .unwrap_or_default()
}

/// The exchange rate that converts a configuration's price into the
/// baseline's currency, when it is priced in another currency and
/// `--rates` has one.
pub fn conversion_of<'a>(sv: &'a StudyValue, config: &str) -> Option<&'a Conversion> {
    let p = sv.prices.get(config).and_then(Option::as_ref)?;
    let to = sv.currency.as_deref()?;
    sv.conversions
        .iter()
        .find(|c| c.from == p.currency && c.to == to)
}

/// `Prices in EUR converted at 1 EUR = 1.16 USD (as of 2026-11-30, source
/// ...).`, one per currency converted in the study.
pub fn rate_sentences(sv: &StudyValue) -> Vec<String> {
    sv.conversions.iter().map(Conversion::sentence).collect()
}

/// The configurations that cannot be compared for lack of an exchange
/// rate, with why: `Not compared for lack of an exchange rate: Hetzner
/// Volume (priced in EUR, no EUR→USD rate in --rates).`; `None` when there
/// are none.
pub fn no_rate_sentence(sv: &StudyValue) -> Option<String> {
    if sv.no_rate.is_empty() {
        return None;
    }
    // one reason, many names: said once
    let mut grouped: Vec<(&str, Vec<String>)> = Vec::new();
    for (name, why) in &sv.no_rate {
        match grouped.iter_mut().find(|(w, _)| *w == why) {
            Some((_, names)) => names.push(name.clone()),
            None => grouped.push((why, vec![name.clone()])),
        }
    }
    let items: Vec<String> = grouped
        .into_iter()
        .map(|(why, names)| format!("{} ({why})", and_list(&names)))
        .collect();
    Some(format!(
        "Not compared for lack of an exchange rate: {}.",
        items.join("; ")
    ))
}

/// A configuration's price per GB-month: `0.050 EUR`, with its converted
/// price beside it where `--rates` converted it (`0.050 EUR (0.058 USD)`);
/// `unknown` without one.
pub fn price_per_gb_text(sv: &StudyValue, config: &str) -> String {
    let Some(p) = sv.prices.get(config).and_then(Option::as_ref) else {
        return "unknown".into();
    };
    let own = p.per_gb_text();
    match (conversion_of(sv, config), p.per_gb_month()) {
        (Some(c), Some(v)) => {
            let converted =
                crate::analysis::prices::EffectivePrice::flat(v * c.factor, &c.to, None);
            format!("{own} ({})", converted.per_gb_text())
        }
        _ => own,
    }
}

/// The sentence on the study's prices from the built-in catalogue: each
/// configuration priced by it, with its note (`AWS gp3: list price in
/// us-east-1 as of 2024-07 (source)`), then those it has no price for in
/// their region, with why; `None` when the catalogue priced none.
pub fn catalogue_sentence(sv: &StudyValue) -> Option<String> {
    use crate::analysis::prices::Origin;
    let listed = sv.prices.iter().filter_map(|(name, p)| {
        let p = p.as_ref().filter(|p| p.origin == Origin::Catalogue)?;
        Some(format!(
            "{name}: {}",
            p.note.as_deref().unwrap_or("list price")
        ))
    });
    let unlisted = sv
        .cost_missing
        .iter()
        .filter(|(name, why)| {
            sv.prices.get(*name).is_some_and(Option::is_none) && why.contains("the catalogue")
        })
        .map(|(name, why)| format!("{name}: {why}"));
    let notes: Vec<String> = listed.chain(unlisted).collect();
    if notes.is_empty() {
        return None;
    }
    Some(format!(
        "Prices from the built-in catalogue: {}.",
        notes.join("; ")
    ))
}

/// What a configuration costs a month, or why that is unknown; in its own
/// currency, with the converted cost beside it where `--rates` converted
/// it (`10.00 EUR (11.60 USD)`), and what it assumes where the price
/// includes a level the records did not name (`8.00 USD (3,000 IOPS and
/// 125 MiB/s included; --provisioned-iops, --provisioned-mbps if you
/// bought more)`).
pub fn monthly_text(sv: &StudyValue, config: &str) -> String {
    match monthly_parts(sv, config) {
        (cost, Some(note)) => format!("{cost} ({note})"),
        (cost, None) => cost,
    }
}

/// [`monthly_text`] in two parts: the cost (`8.00 USD`, `10.00 EUR (11.60
/// USD)`, `unknown`) and what it assumes or why it is unknown.
pub fn monthly_parts(sv: &StudyValue, config: &str) -> (String, Option<String>) {
    let price = sv.prices.get(config).and_then(Option::as_ref);
    let cost = match (sv.monthly_costs.get(config).copied().flatten(), price) {
        (Some(c), Some(p)) => match conversion_of(sv, config) {
            Some(conv) => format!(
                "{} ({})",
                format::money(c, &p.currency),
                format::money(c * conv.factor, &conv.to)
            ),
            None => format::money(c, &p.currency),
        },
        _ => {
            return (
                "unknown".to_string(),
                sv.cost_missing_in_short(config).map(str::to_string),
            )
        }
    };
    (cost, sv.cost_notes.get(config).cloned())
}

/// The judged tables of a study in display order: sustained levels first
/// (what lasts decides), then headline metrics.
fn ordered(sv: &StudyValue) -> Vec<&ValueTable> {
    let mut tables: Vec<&ValueTable> = sv.tables.iter().collect();
    tables.sort_by(|a, b| {
        (!a.is_sustained(), metric_order(&a.metric), &a.test).cmp(&(
            !b.is_sustained(),
            metric_order(&b.metric),
            &b.test,
        ))
    });
    tables
}

/// The study's key table: the first judged metric in display order that at
/// least two configurations can be compared on, else the first.
pub fn key_table(sv: &StudyValue) -> Option<&ValueTable> {
    let tables = ordered(sv);
    tables
        .iter()
        .copied()
        .find(|t| t.rows.iter().filter(|r| r.value_ratio.is_some()).count() >= 2)
        .or(tables.first().copied())
}

/// `4.20x the random seeks (nearly worth it)`; for a sustained level with
/// a burst on either side, `10.0x the read IOPS while credits last, 1.0x
/// after (no, single run)`; for a short test measured on a burst, `15.8x
/// the random seeks while bursting (not judged)`. `decimals` is the
/// sentence's, so that each ratio agrees with its verdict.
fn verdict_phrase(t: &ValueTable, r: &ValueRow, decimals: usize) -> Option<String> {
    let perf = r.performance_ratio?;
    let higher = t.unit.higher_is_better();
    let Some(verdict) = r.verdict_text() else {
        let m = r.measured.filter(|m| !m.keeps_verdict())?;
        let what = format::performance_words(perf, &human_name(&t.metric), higher, decimals);
        return Some(format!("{what} {} (not judged)", m.words()));
    };
    if let Some((b, burst_perf)) = r
        .burst
        .as_ref()
        .and_then(|b| Some((b, b.performance_ratio?)))
    {
        let base = t
            .metric
            .strip_suffix(crate::metrics::SUSTAINED)
            .unwrap_or(&t.metric);
        let what = format::performance_words(burst_perf, &human_name(base), higher, decimals);
        return Some(format!(
            "{what} {}, {} {} ({verdict})",
            b.while_words(),
            format::ratio_to(perf, decimals),
            b.after_words()
        ));
    }
    let what = format::performance_words(perf, &human_name(&t.metric), higher, decimals);
    Some(format!("{what} ({verdict})"))
}

fn date_of(r: &Summary) -> Option<String> {
    match &*r.source {
        Source::Transcribed {
            measured: Some(m), ..
        } => Some(m.clone()),
        _ => r
            .started_at
            .as_deref()
            .and_then(|t| t.get(..10))
            .map(str::to_string),
    }
}

fn host_line(r: &Summary) -> Option<String> {
    let h = &r.host;
    let mut parts = Vec::new();
    if let Some(c) = &h.cpu_model {
        parts.push(c.clone());
    }
    if let Some(n) = h.cpu_count {
        parts.push(format!("{n} cores"));
    }
    if let Some(m) = h.memory_bytes {
        // memory is sized in binary units
        parts.push(format!("{} memory", format::memory(m)));
    }
    if let Some(o) = &h.os {
        parts.push(o.clone());
    }
    if let Some(k) = &h.kernel {
        parts.push(format!("kernel {k}"));
    }
    if let Some(v) = &h.virtualization {
        parts.push(format!("{v} guest"));
    }
    // what the machine measured of itself, then what its user wrote
    parts.extend(h.description.clone());
    (!parts.is_empty()).then(|| parts.join(", "))
}

fn target_line(r: &Summary) -> Option<String> {
    let t = &r.target;
    let mut s = match (&t.fs_type, &t.device) {
        (Some(fs), Some(d)) => format!("{fs} on {d}"),
        (Some(fs), None) => fs.clone(),
        (None, Some(d)) => d.clone(),
        (None, None) => return t.description.clone(),
    };
    match t.rotational {
        Some(true) => s.push_str(", rotational"),
        Some(false) => s.push_str(", not rotational"),
        None => {}
    }
    if let Some(m) = &t.mount_options {
        s.push_str(&format!(", mounted {m}"));
    }
    Some(s)
}

/// Tells the study `sv` of `a`.
pub fn tell(a: &Analysis, sv: &StudyValue) -> Story {
    let Some(study) = a.data.studies.get(&sv.study) else {
        return Story::default();
    };
    let records: Vec<&Summary> = study
        .offerings
        .values()
        .flat_map(|o| o.records.iter().filter_map(|&i| a.records.get(i).copied()))
        .collect();
    let dates: BTreeSet<String> = records.iter().filter_map(|r| date_of(r)).collect();
    let measured = match (dates.first(), dates.last()) {
        (Some(f), Some(l)) if f == l => f.clone(),
        (Some(f), Some(l)) => format!("{f} to {l}"),
        _ => "unknown".to_string(),
    };
    let mut sources = BTreeSet::new();
    let (mut run, mut imported) = (0, BTreeSet::new());
    for r in &records {
        match &*r.source {
            Source::Run { .. } => run += 1,
            Source::Import { file, .. } => {
                imported.insert(file.clone());
            }
            Source::Transcribed {
                publication, url, ..
            } => {
                sources.insert(match url {
                    Some(u) => format!("transcribed from {publication} ({u})"),
                    None => format!("transcribed from {publication}"),
                });
            }
        }
    }
    let mut sources: Vec<String> = sources.into_iter().collect();
    if run > 0 {
        sources.insert(
            0,
            format!(
                "measured with diskdash run ({})",
                format::count_of(run, "record", "records")
            ),
        );
    }
    if !imported.is_empty() {
        sources.push(format!(
            "imported from {} with diskdash import",
            format::count_of(imported.len(), "tool output file", "tool output files")
        ));
    }
    // one line per distinct host (or target), naming the configurations it
    // holds for, unless it is the same for all of them
    let first_of = |f: fn(&Summary) -> Option<String>| -> Vec<String> {
        let mut lines: Vec<(String, Vec<String>)> = Vec::new();
        for o in study.offerings.values() {
            let Some(line) = o
                .records
                .iter()
                .filter_map(|&i| a.records.get(i))
                .find_map(|r| f(r))
            else {
                continue;
            };
            match lines.iter_mut().find(|(l, _)| *l == line) {
                Some((_, names)) => names.push(o.name.clone()),
                None => lines.push((line, vec![o.name.clone()])),
            }
        }
        let all = study.offerings.len();
        lines
            .into_iter()
            .map(|(line, names)| {
                if names.len() == all && all > 1 {
                    format!("{line} (every configuration)")
                } else if all == 1 {
                    line
                } else {
                    format!("{}: {line}", names.join(", "))
                }
            })
            .collect()
    };
    let versions: BTreeSet<String> = records
        .iter()
        .map(|r| match &r.test.tool_version {
            Some(v) if v.starts_with(r.test.tool.name()) => v.clone(),
            Some(v) => format!("{} {v}", r.test.tool.name()),
            None => r.test.tool.name().to_string(),
        })
        .collect();
    let failures: Vec<String> = sv
        .failures
        .keys()
        .flat_map(|config| {
            failure_lines(sv, config)
                .into_iter()
                .map(move |l| format!("{config}: {l}"))
        })
        .collect();
    let post = post::post_table(sv);
    Story {
        study: sv.study.clone(),
        measured,
        latest: dates.last().cloned(),
        sources,
        hosts: first_of(host_line),
        targets: first_of(target_line),
        tools: versions.into_iter().collect::<Vec<_>>().join(", "),
        baseline: match &sv.baseline {
            Some(b) => format!("{b} ({})", sv.baseline_reason),
            None => "none: no configuration in this study has a price, so there are no ratios"
                .to_string(),
        },
        summary: summary(sv),
        rates: rate_sentences(sv),
        headline: match headline::headline(sv) {
            h if h.is_empty() => vec![no_answer(sv)],
            h => h,
        },
        history: history::sentences(&sv.study, study),
        history_tables: study.offerings.values().flat_map(history::tables).collect(),
        failures,
        matrix: matrix::matrix(sv),
        measured_values: if post.headers.is_empty() {
            measured_values(study)
        } else {
            Vec::new()
        },
        post,
    }
}

/// The rows of [`Story::measured_values`]: configurations, tests and
/// metrics in the site's order.
fn measured_values(study: &crate::analysis::stats::Study) -> Vec<[String; 5]> {
    let any_judged = study.offerings.values().any(|o| {
        o.tests
            .iter()
            .any(|(test, t)| t.metrics.keys().any(|m| study.judges(test, m)))
    });
    let mut rows = Vec::new();
    for o in study.offerings.values() {
        for (test, t) in &o.tests {
            let mut ms: Vec<_> = t
                .metrics
                .iter()
                .filter(|(m, _)| !any_judged || study.judges(test, m))
                .collect();
            ms.sort_by_cached_key(|(m, _)| metric_order(m));
            for (m, st) in ms {
                rows.push([
                    o.name.clone(),
                    test.clone(),
                    human_name(m),
                    format::value(st.summary.median, st.unit),
                    st.summary.n.to_string(),
                ]);
            }
        }
    }
    rows
}

/// The executive summary: for each judged metric, the configuration that
/// gives the most of it per unit of cost; then one sentence per dearer
/// configuration with its main verdicts.
fn summary(sv: &StudyValue) -> Vec<String> {
    let mut out = Vec::new();
    let tables = ordered(sv);
    // the best value per metric (its first test in display order),
    // gathered by configuration: one sentence each
    let mut seen_metrics = BTreeSet::new();
    let mut best_of: Vec<(String, &'static str, Vec<String>)> = Vec::new();
    for t in &tables {
        if !seen_metrics.insert(t.metric.as_str()) {
            continue;
        }
        // a figure measured on a burst is no measure of value
        let best = t
            .rows
            .iter()
            .filter(|r| r.verdict.is_some())
            .filter_map(|r| Some((r, r.value_ratio?)))
            .fold(None::<(&ValueRow, f64)>, |best, (r, v)| match best {
                Some((_, bv)) if bv >= v => best,
                _ => Some((r, v)),
            });
        if let Some((r, _)) = best {
            let basis = r.price_basis.map(|b| b.words()).unwrap_or("price");
            let item = if t.unit.higher_is_better() {
                format!("the most {}", human_name(&t.metric))
            } else {
                format!("the best {}", human_name(&t.metric))
            };
            match best_of
                .iter_mut()
                .find(|(c, b, _)| *c == r.offering && *b == basis)
            {
                Some((_, _, items)) => items.push(item),
                None => best_of.push((r.offering.clone(), basis, vec![item])),
            }
        }
    }
    for (config, basis, metrics) in best_of {
        let is_baseline = sv.baseline.as_deref() == Some(config.as_str());
        out.push(format!(
            "{config}{} gives {} per unit of {basis}.",
            if is_baseline { ", the baseline," } else { "" },
            and_list(&metrics)
        ));
    }
    // dearer configurations, cheapest first, each with up to four verdicts
    let Some(key) = key_table(sv) else {
        out.extend(no_rate_sentence(sv));
        out.extend(catalogue_sentence(sv));
        return out;
    };
    let mut dearer: Vec<&ValueRow> = key
        .rows
        .iter()
        .filter(|r| !r.is_baseline && r.price_ratio.is_some_and(|p| p > 1.0))
        .collect();
    dearer.sort_by(|a, b| {
        a.price_ratio
            .unwrap_or(0.0)
            .total_cmp(&b.price_ratio.unwrap_or(0.0))
    });
    for r in dearer {
        if let Some(sentence) = dearer_sentence(&tables, r, 4) {
            out.push(format!("{sentence}."));
        }
    }
    out.extend(no_rate_sentence(sv));
    out.extend(catalogue_sentence(sv));
    out
}

/// `Name: 4.7x the monthly cost: 4.2x the random seeks (nearly worth it), ...`
/// with up to `n` verdicts, in display order; `None` without one.
fn dearer_sentence(tables: &[&ValueTable], r: &ValueRow, n: usize) -> Option<String> {
    let price = r.price_ratio?;
    let rows: Vec<(&ValueTable, &ValueRow)> = tables
        .iter()
        .filter_map(|t| Some((*t, t.rows.iter().find(|x| x.offering == r.offering)?)))
        .filter(|(t, row)| verdict_phrase(t, row, 1).is_some())
        .take(n)
        .collect();
    if rows.is_empty() {
        return None;
    }
    // one price ratio for every phrase: as many decimals as the most
    // demanding phrase needs to agree with its verdict
    let decimals = rows
        .iter()
        .flat_map(|(_, row)| {
            let burst = row.burst.as_ref().and_then(|b| b.performance_ratio);
            [row.performance_ratio, burst]
        })
        .flatten()
        .map(|perf| headline::decimals_for(price, perf))
        .max()
        .unwrap_or(1);
    let phrases: Vec<String> = rows
        .iter()
        .filter_map(|(t, row)| verdict_phrase(t, row, decimals))
        .collect();
    let basis = r.price_basis.map(|b| b.words()).unwrap_or("price");
    Some(format!(
        "{}: {} the {basis}: {}",
        r.offering,
        format::ratio_to(price, decimals),
        phrases.join(", ")
    ))
}

/// Why a study has no headline: `no judged results`, `X: one
/// configuration, nothing to compare with`, `no configuration can be
/// compared on price`.
fn no_answer(sv: &StudyValue) -> String {
    let Some(t) = key_table(sv) else {
        return "no judged results".to_string();
    };
    match t.rows.len() {
        0 => "no judged results".to_string(),
        1 => format!(
            "{}: one configuration, nothing to compare with",
            t.rows[0].offering
        ),
        _ => "no configuration can be compared on price".to_string(),
    }
}
