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

    /// The rank of table `t` among the candidates for this dimension, best
    /// (lowest) first; `None` when it does not measure what the
    /// dimension's name says. Random I/O is fio's 4 KiB random reads at
    /// queue depth 32 or more (their sustained level first), latency the
    /// QD1 p99, sequential fio's 1 MiB sequential reads (their sustained
    /// level first). ioping, dd and bonnie++ rank after every fio test,
    /// and [`table_for`] takes them only where fio did not measure the
    /// dimension at all. A quick-suite test ranks after every other.
    fn rank(self, t: &ValueTable) -> Option<usize> {
        let m = t.metric.as_str();
        let sh = &t.shape;
        let fio = sh.tool == Some(crate::record::Tool::Fio);
        let pos = |list: &[&str]| list.iter().position(|x| *x == m);
        // other block sizes after the one the dimension names
        let bs_off = |want: fn(u64) -> bool| if sh.bs.is_some_and(want) { 0 } else { 4 };
        let rank = match self {
            Dimension::Sustained => {
                let base = m.strip_suffix(SUSTAINED)?;
                [
                    "read_iops",
                    "write_iops",
                    "mixed_iops",
                    "read_bw",
                    "write_bw",
                ]
                .iter()
                .position(|x| *x == base)
                .unwrap_or(10)
            }
            Dimension::RandomIo if fio => {
                let deep = sh.queue.is_some_and(|q| q >= 32);
                if !(sh.random_reads() && deep) {
                    return None;
                }
                let mixed = usize::from(sh.rw.as_deref() == Some("randrw")) * 2;
                pos(&["read_iops_sustained", "read_iops"])? + mixed + bs_off(|b| b == 4096)
            }
            Dimension::RandomIo if t.is_sustained() => return None,
            Dimension::RandomIo => match t.kind {
                TestKind::Seek => pos(&["iops"])? + 10,
                TestKind::FileSystem => pos(&["random_seeks"])? + 20,
                _ => return None,
            },
            // a sustained level is no latency; sequential reads take
            // theirs (below)
            Dimension::Latency if t.is_sustained() => return None,
            Dimension::Latency if fio => {
                let random = sh.rw.as_deref().is_some_and(|rw| rw.starts_with("rand"));
                if sh.queue != Some(1) || !random {
                    return None;
                }
                pos(&["read_clat_p99", "write_clat_p99", "mixed_clat_p99"])? + bs_off(|b| b == 4096)
            }
            // ioping's requests go one at a time: its mean is a QD1 latency
            Dimension::Latency => match t.kind {
                TestKind::Latency => pos(&["lat_avg"])? + 10,
                TestKind::Seek => pos(&["lat_avg"])? + 12,
                _ => return None,
            },
            Dimension::Sequential if fio => {
                let at_least_1m = |b: u64| b >= 1 << 20;
                if sh.sequential_reads() {
                    pos(&["read_bw_sustained", "read_bw"])? + bs_off(at_least_1m)
                } else if sh.rw.as_deref() == Some("write") {
                    pos(&["write_bw"])? + 8
                } else {
                    return None;
                }
            }
            Dimension::Sequential => match t.kind {
                TestKind::FileSystem => pos(&["seq_block_read_bw", "seq_block_write_bw"])? + 10,
                // dd's bulk write, then ioping's reads, then writes that
                // each wait for the disk (latency-bound, last)
                TestKind::Throughput => {
                    pos(&["read_bw", "write_bw", "bw"])?
                        + match sh.tool {
                            _ if sh.sync_writes => 30,
                            Some(crate::record::Tool::Dd) => 15,
                            _ => 20,
                        }
                }
                _ => return None,
            },
        };
        Some(rank + if sh.is_quick() { 100 } else { 0 })
    }
}

/// The table that stands for `dim` in a study: the best-ranked one that at
/// least two configurations can be compared on (a ratio to the baseline,
/// the baseline included), ties to the first in test order. Where fio
/// measured what the dimension names, only fio's tables stand for it:
/// ioping, dd and bonnie++ never carry a headline fio measured.
pub fn table_for(sv: &StudyValue, dim: Dimension) -> Option<&ValueTable> {
    let is_fio = |t: &ValueTable| t.shape.tool == Some(crate::record::Tool::Fio);
    let fio_measured =
        dim != Dimension::Sustained && sv.tables.iter().any(|t| is_fio(t) && dim.rank(t).is_some());
    let mut candidates: Vec<(usize, &ValueTable)> = sv
        .tables
        .iter()
        .filter(|t| t.rows.iter().filter(|r| r.value_ratio.is_some()).count() >= 2)
        .filter(|t| !fio_measured || is_fio(t))
        .filter_map(|t| Some((dim.rank(t)?, t)))
        .collect();
    // stable: ties keep the test order
    candidates.sort_by_key(|(rank, _)| *rank);
    let (_, best) = *candidates.first()?;
    // a sustained level stands for random I/O or sequential reads only
    // where it compares every configuration the best short test does:
    // a study where some configurations ran no sustained test answers on
    // the short test, and tells the sustained level in its own sentence
    if best.is_sustained() && dim != Dimension::Sustained {
        fn compared(t: &ValueTable) -> Vec<&str> {
            t.rows
                .iter()
                .filter(|r| r.value_ratio.is_some())
                .map(|r| r.offering.as_str())
                .collect()
        }
        let level = compared(best);
        if let Some((_, short)) = candidates.iter().find(|(_, t)| !t.is_sustained()) {
            if compared(short).iter().any(|o| !level.contains(o)) {
                return Some(short);
            }
        }
    }
    Some(best)
}

/// The study's headline dimensions and their tables, in the order the
/// answer tells them.
/// The sustained dimension is told only where its table is not already
/// another dimension's (random I/O on the sustained random-read level).
pub fn dimensions(sv: &StudyValue) -> Vec<(Dimension, &ValueTable)> {
    let all: Vec<(Dimension, &ValueTable)> = Dimension::ALL
        .iter()
        .filter_map(|&d| Some((d, table_for(sv, d)?)))
        .collect();
    let told_elsewhere = |t: &ValueTable| {
        all.iter()
            .any(|(d, o)| *d != Dimension::Sustained && std::ptr::eq(*o, t))
    };
    all.iter()
        .filter(|(d, t)| *d != Dimension::Sustained || !told_elsewhere(t))
        .copied()
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

/// What a dimension's sentence says its test did: `4 KiB random reads at
/// queue depth 32` where its records say, else the metric's name
/// ([`metric_words`]).
pub fn test_words(t: &ValueTable) -> String {
    t.shape.words().unwrap_or_else(|| metric_words(t))
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
fn dimension_sentence(sv: &StudyValue, dim: Dimension, t: &ValueTable) -> Option<String> {
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
    let what = test_words(t);
    let mut s = match t.shape.suite_words() {
        Some(q) => format!("{heading} ({what}, {}; {q}): ", t.test),
        None => format!("{heading} ({what}, {}): ", t.test),
    };
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
    // measured only with the quick suite: judged on it, and said so
    for (name, row, suite) in sv.quick_judged_in(t) {
        let verdict = row
            .verdict_text()
            .or_else(|| row.no_verdict.clone())
            .unwrap_or_else(|| "not compared".into());
        s.push_str(&format!("; {name}: {verdict} ({suite})"));
    }
    // every configuration is counted above or counted and named here
    let named = sv.not_judged_in(t);
    if !named.is_empty() {
        s.push_str(&format!(
            "; {} more not judged: {}",
            named.len(),
            grouped(named).join("; ")
        ));
    }
    s.push('.');
    Some(s)
}

/// `A and B (why)` per reason, in the order each reason first comes.
fn grouped(named: Vec<(String, String)>) -> Vec<String> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (name, why) in named {
        match groups.iter_mut().find(|(w, _)| *w == why) {
            Some((_, names)) => names.push(name),
            None => groups.push((why, vec![name])),
        }
    }
    groups
        .into_iter()
        .map(|(why, names)| format!("{} ({why})", and_list(&names)))
        .collect()
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
    grouped(out)
}

/// The headline of a study: a sentence per headline dimension except
/// latency (which the most-for-the-money sentence covers), then the most
/// for the money. Empty without a comparable table.
pub fn headline(sv: &StudyValue) -> Vec<String> {
    let dims = dimensions(sv);
    let mut out: Vec<String> = dims
        .iter()
        .filter(|(d, _)| *d != Dimension::Latency)
        .filter_map(|(d, t)| dimension_sentence(sv, *d, t))
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
