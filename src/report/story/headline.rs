//! A study's answer in a few sentences a reader can repeat: the sustained
//! level first where the study has one, then random I/O and sequential
//! throughput, then which configuration gives the most for the money on
//! each. Every ratio names both sides ("9.5x the monthly cost of Vultr
//! Block Storage HDD"), and the dimensions are chosen by what measures the
//! storage, not by the order of metrics.

use crate::analysis::value::{self, StudyValue, ValueRow, ValueTable};
use crate::format;
use crate::metrics::{human_name, TestKind, SUSTAINED};

/// What a headline dimension measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dimension {
    /// A timeline's sustained level.
    Sustained,
    /// Small random I/O: fio's 4 KiB random IOPS, ioping's seek rate or
    /// bonnie++'s random seeks.
    RandomIo,
    /// The 99th percentile completion latency of small random I/O (or
    /// ioping's request latency).
    Latency,
    /// Sequential bandwidth.
    Sequential,
}

impl Dimension {
    /// Every dimension in the order the answer tells them.
    pub const ALL: [Dimension; 4] = [
        Dimension::Sustained,
        Dimension::RandomIo,
        Dimension::Latency,
        Dimension::Sequential,
    ];

    /// The heading of the dimension: `sustained`, `random I/O`, ...
    pub fn heading(self) -> &'static str {
        match self {
            Dimension::Sustained => "sustained",
            Dimension::RandomIo => "random I/O",
            Dimension::Latency => "latency",
            Dimension::Sequential => "sequential",
        }
    }

    /// Candidate metrics, best first, for a table of `kind`: the order the
    /// table is chosen in among the study's tables.
    fn rank(self, t: &ValueTable) -> Option<usize> {
        let m = t.metric.as_str();
        let random_test = t.test.contains("rand");
        let pos = |list: &[&str]| list.iter().position(|x| *x == m);
        match self {
            Dimension::Sustained => {
                let base = m.strip_suffix(SUSTAINED)?;
                Some(
                    [
                        "read_iops",
                        "write_iops",
                        "mixed_iops",
                        "read_bw",
                        "write_bw",
                    ]
                    .iter()
                    .position(|x| *x == base)
                    .unwrap_or(10),
                )
            }
            _ if t.is_sustained() => None,
            Dimension::RandomIo => match t.kind {
                TestKind::BlockIo => pos(&["read_iops", "write_iops", "mixed_iops"])
                    .map(|p| p + if random_test { 0 } else { 3 }),
                TestKind::Seek => pos(&["iops"]).map(|p| p + 10),
                TestKind::FileSystem => pos(&["random_seeks"]).map(|p| p + 20),
                _ => None,
            },
            Dimension::Latency => match t.kind {
                TestKind::BlockIo => pos(&["read_clat_p99", "write_clat_p99", "mixed_clat_p99"])
                    .map(|p| p + if random_test { 0 } else { 3 }),
                TestKind::Latency => pos(&["lat_avg"]).map(|p| p + 10),
                _ => None,
            },
            Dimension::Sequential => match t.kind {
                TestKind::Throughput => pos(&["read_bw", "write_bw", "bw"])
                    .map(|p| p + if t.test.starts_with("dd-") { 5 } else { 0 }),
                TestKind::FileSystem => {
                    pos(&["seq_block_read_bw", "seq_block_write_bw"]).map(|p| p + 10)
                }
                _ => None,
            },
        }
    }
}

/// The table that stands for `dim` in a study: the best-ranked one that at
/// least two configurations can be compared on (a ratio to the baseline,
/// the baseline included), ties to the first in test order.
pub fn table_for(sv: &StudyValue, dim: Dimension) -> Option<&ValueTable> {
    sv.tables
        .iter()
        .filter(|t| t.rows.iter().filter(|r| r.value_ratio.is_some()).count() >= 2)
        .filter_map(|t| Some((dim.rank(t)?, t)))
        .min_by_key(|(rank, _)| *rank)
        .map(|(_, t)| t)
}

/// The study's headline dimensions and their tables, in the order the
/// answer tells them.
pub fn dimensions(sv: &StudyValue) -> Vec<(Dimension, &ValueTable)> {
    Dimension::ALL
        .iter()
        .filter_map(|&d| Some((d, table_for(sv, d)?)))
        .collect()
}

/// The fewest decimals (1 to 3) at which `perf / price`, worked out from
/// the two ratios as shown, falls in the verdict band of the real quotient:
/// 1.25x the price for 1.00x the performance, not 1.3x and 1.0x (which
/// reads as 0.77, "not quite", beside "nearly worth it").
pub fn decimals_for(price: f64, perf: f64) -> usize {
    let wanted = value::verdict(perf / price);
    (1..=3)
        .find(|&d| {
            let p = round(price, d);
            p > 0.0 && value::verdict(round(perf, d) / p) == wanted
        })
        .unwrap_or(3)
}

fn round(v: f64, decimals: usize) -> f64 {
    let f = 10f64.powi(decimals as i32);
    (v * f).round() / f
}

/// The name a sentence gives a dimension's metric: `sustained read IOPS`,
/// `4 KiB random read IOPS` (from `fio-randread-4k-qd64`), `random seeks`.
pub fn metric_words(t: &ValueTable) -> String {
    if let Some(base) = t.metric.strip_suffix(SUSTAINED) {
        return format!("sustained {}", human_name(base));
    }
    let human = human_name(&t.metric);
    match block_size(&t.test) {
        Some(bs) if t.kind == TestKind::BlockIo && t.test.contains("rand") => {
            format!("{bs} random {human}")
        }
        _ => human,
    }
}

/// `4 KiB` from a test id holding `-4k-`.
fn block_size(test: &str) -> Option<String> {
    test.split('-').find_map(|part| {
        let n = part.strip_suffix('k')?;
        n.parse::<u32>().ok().map(|n| format!("{n} KiB"))
    })
}

/// The rows of `t` that can be judged: a price ratio, a value ratio, and a
/// verdict that is not withheld for a burst.
fn judged(t: &ValueTable) -> impl Iterator<Item = &ValueRow> {
    t.rows
        .iter()
        .filter(|r| r.judged() && r.value_ratio.is_some())
}

/// `a`, `a and b`, `a, b and c`.
pub(super) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Up to three names, then `and N more`.
fn some_of(names: &[&str]) -> String {
    let mut list: Vec<String> = names.iter().take(3).map(|n| n.to_string()).collect();
    if names.len() > 3 {
        list.push(format!("{} more", names.len() - 3));
    }
    and_list(&list)
}

/// One dimension's sentence: how many dearer configurations are worth it
/// against the baseline, and the dearest one's ratios with both sides
/// named; then who was not judged and why.
fn dimension_sentence(dim: Dimension, t: &ValueTable) -> Option<String> {
    let base = t.baseline_row()?;
    let words = metric_words(t);
    let mut dearer: Vec<&ValueRow> = judged(t)
        .filter(|r| r.price_ratio.is_some_and(|p| p > 1.0))
        .collect();
    dearer.sort_by(|a, b| {
        a.price_ratio
            .unwrap_or(0.0)
            .total_cmp(&b.price_ratio.unwrap_or(0.0))
            .then_with(|| a.offering.cmp(&b.offering))
    });
    let heading = {
        let mut h = dim.heading().to_string();
        if let Some(c) = h.get_mut(..1) {
            c.make_ascii_uppercase();
        }
        h
    };
    let mut s = format!("{heading} ({words}, {}): ", t.test);
    let worth: Vec<&str> = dearer
        .iter()
        .filter(|r| r.verdict == Some(value::BANDS[0].verdict))
        .map(|r| r.offering.as_str())
        .collect();
    match (dearer.len(), worth.len()) {
        (0, _) => s.push_str(&format!(
            "no dearer configuration than {} can be judged",
            base.offering
        )),
        // the dearest clause below says all there is about the one
        (1, _) => s.push_str(&format!(
            "one configuration is dearer than {}",
            base.offering
        )),
        (n, 0) => s.push_str(&format!(
            "none of the {} dearer than {} is worth it",
            format::count_of(n, "configuration", "configurations"),
            base.offering
        )),
        (n, k) => s.push_str(&format!(
            "{k} of the {} dearer than {} {} worth it ({})",
            format::count_of(n, "configuration", "configurations"),
            base.offering,
            if k == 1 { "is" } else { "are" },
            some_of(&worth)
        )),
    }
    if let Some(dearest) = dearer.last() {
        let (Some(price), Some(perf)) = (dearest.price_ratio, dearest.performance_ratio) else {
            return Some(s + ".");
        };
        let basis = dearest.price_basis.map(|b| b.words()).unwrap_or("price");
        let d = decimals_for(price, perf);
        let price_s = format::ratio_to(price, d);
        let perf_words = if t.unit.higher_is_better() {
            format!("{} its {words}", format::ratio_to(perf, d))
        } else {
            format::performance_words(perf, &words, false, d)
        };
        let who = if dearer.len() == 1 {
            format!("; {}", dearest.offering)
        } else {
            format!("; the dearest, {},", dearest.offering)
        };
        s.push_str(&format!(
            "{who} costs {price_s} the {basis} of {} for {perf_words} ({})",
            base.offering,
            dearest.verdict_text().unwrap_or_default()
        ));
        // the burst it gives before that level, so that a reader sees
        // what the verdict is not made of
        if let Some(b) = dearest.burst.as_ref().filter(|b| !b.baseline_only) {
            if let Some(p) = b.performance_ratio {
                s.push_str(&format!(
                    ", after {} {}",
                    format::ratio_to(p, d),
                    b.while_words()
                ));
            }
        }
    }
    let bursting: Vec<&str> = t
        .rows
        .iter()
        .filter(|r| !r.is_baseline && r.verdict.is_none())
        .filter(|r| r.measured.is_some_and(|m| !m.keeps_verdict()))
        .map(|r| r.offering.as_str())
        .collect();
    if !bursting.is_empty() {
        s.push_str(&format!(
            "; {} measured while bursting, so judged on the sustained level instead",
            some_of(&bursting)
        ));
    }
    s.push('.');
    Some(s)
}

/// `The most for the money: sustained read IOPS, A; 4 KiB random read
/// IOPS, B.` over every configuration that can be compared on each
/// dimension's table, and which were left out and why.
fn most_for_money(dims: &[(Dimension, &ValueTable)]) -> Option<String> {
    let mut items = Vec::new();
    for (_, t) in dims {
        let best = t
            .rows
            .iter()
            .filter(|r| r.value_ratio.is_some() && (r.judged() || r.is_baseline))
            .filter(|r| r.measured.is_none_or(|m| m.keeps_verdict()))
            .max_by(|a, b| {
                a.value_ratio
                    .unwrap_or(0.0)
                    .total_cmp(&b.value_ratio.unwrap_or(0.0))
                    .then_with(|| b.offering.cmp(&a.offering))
            })?;
        items.push(format!("{}, {}", metric_words(t), best.offering));
    }
    if items.is_empty() {
        return None;
    }
    let mut s = format!("The most for the money: {}.", items.join("; "));
    let left_out = left_out(dims);
    if !left_out.is_empty() {
        s.push_str(&format!(" Left out: {}.", left_out.join("; ")));
    }
    Some(s)
}

/// Configurations with a price that no headline table could compare, with
/// why (`Hetzner Volume (priced in EUR, no EUR→USD rate in --rates)`).
fn left_out(dims: &[(Dimension, &ValueTable)]) -> Vec<String> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (_, t) in dims {
        for r in &t.rows {
            if r.price.is_none() || r.price_ratio.is_some() {
                continue;
            }
            let why = r
                .no_verdict
                .as_deref()
                .map(|w| w.trim_end_matches(": not compared").to_string())
                .unwrap_or_else(|| "not compared".into());
            if !out.iter().any(|(n, _)| *n == r.offering) {
                out.push((r.offering.clone(), why));
            }
        }
    }
    // one reason, many names: said once
    let mut grouped: Vec<(String, Vec<String>)> = Vec::new();
    for (name, why) in out {
        match grouped.iter_mut().find(|(w, _)| *w == why) {
            Some((_, names)) => names.push(name),
            None => grouped.push((why, vec![name])),
        }
    }
    grouped
        .into_iter()
        .map(|(why, names)| format!("{} ({why})", and_list(&names)))
        .collect()
}

/// The headline of a study: a sentence per headline dimension except
/// latency (which the most-for-the-money sentence covers), then the most
/// for the money. Empty without a comparable table.
pub fn headline(sv: &StudyValue) -> Vec<String> {
    let dims = dimensions(sv);
    let mut out: Vec<String> = dims
        .iter()
        .filter(|(d, _)| *d != Dimension::Latency)
        .filter_map(|(d, t)| dimension_sentence(*d, t))
        .collect();
    if let Some(m) = most_for_money(&dims) {
        out.push(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_take_the_digits_their_verdict_needs() {
        // 1.25x the price for 1.0x the performance is 0.80: nearly worth it
        assert_eq!(value::verdict(1.0 / 1.25), "nearly worth it");
        let shown = |price: f64, perf: f64| {
            let d = decimals_for(price, perf);
            (format::ratio_to(price, d), format::ratio_to(perf, d))
        };
        assert_eq!(shown(1.25, 1.0), ("1.25x".into(), "1.00x".into()));
        // one decimal is enough when it agrees
        assert_eq!(shown(4.0, 2.0), ("4.0x".into(), "2.0x".into()));
        // 2.04x for 1.02x is 0.5: "not quite"; 2.0x and 1.0x agree
        assert_eq!(shown(2.04, 1.02), ("2.0x".into(), "1.0x".into()));
    }

    #[test]
    fn block_size_comes_from_the_test_id() {
        assert_eq!(block_size("fio-randread-4k-qd64").as_deref(), Some("4 KiB"));
        assert_eq!(block_size("ioping-seek"), None);
    }
}
