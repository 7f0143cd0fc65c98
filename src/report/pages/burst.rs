//! The study page's "Burst and sustained" section, and its twin in
//! `data/<study>.md`: for each test that kept a timeline and each
//! configuration, the pattern in words, the burst and sustained levels
//! (medians over repetitions, "measured / promised" where `--limits` has
//! the offering), the burst's duration and volume, whether the sustained
//! level reached steady state, and a link to the test page's chart.

use std::collections::BTreeSet;

use crate::analysis::limits::Provisioned;
use crate::analysis::stats::{OfferingData, Study, TestResults};
use crate::format::duration_words;
use crate::metrics::TestKind;
use crate::record::{Status, Summary};
use crate::report::format::{display_unit, with_unit};
use crate::units::Unit;

use super::timeline::{against, count_words, pattern_words};
use super::{Link, PageCtx};

/// One configuration's burst and sustained levels in one test.
#[derive(Clone, Debug, Default)]
pub struct BurstRow {
    pub config: Link,
    /// The pattern in words; repetitions that disagree are joined with ` / `.
    pub pattern: String,
    pub burst: String,
    pub sustained: String,
    pub duration: String,
    pub volume: String,
    pub steady: String,
    /// How many runs stand behind each level: `2 runs`, `burst: 2 of 2
    /// runs; sustained: 1 of 2 runs (1 run of 20 min left out: ...)`.
    pub runs: String,
    /// The first repetition's chart on the test page.
    pub chart: Link,
}

/// One timeline test of the study.
#[derive(Clone, Debug, Default)]
pub struct BurstGroup {
    /// `fio-sustained-randread-4k-qd32: read IOPS`.
    pub heading: String,
    pub test: Link,
    pub rows: Vec<BurstRow>,
    /// How to read "measured / promised" and where each configuration's
    /// promised levels come from, in one sentence; empty without limits.
    pub promised: String,
    /// The same, a part per configuration (`AWS gp3 · 100 GB: AWS gp3,
    /// promised as of ...`), for the post to say each once.
    pub promised_parts: Vec<String>,
}

/// Tests side by side in one table of the post: with the configuration
/// column, the ten columns a post's table may have.
const POST_TESTS_PER_TABLE: usize = 9;

/// The pattern of a run left out of its configuration's sustained level.
const LEFT_OUT_WORDS: &str = "burst not exhausted";

/// Whether `r` is a run of `results` left out of the sustained level
/// (`all`: the analysis's records, which the indices point into).
fn is_left_out(all: &[&Summary], results: &TestResults, r: &Summary) -> bool {
    results
        .left_out
        .iter()
        .any(|l| all.get(l.record).is_some_and(|x| x.id == r.id))
}

/// The records of `o` in `test` that are ok, kept a classified timeline
/// and belong to its newest measurement.
fn timeline_records<'a>(ctx: &PageCtx<'a>, o: &OfferingData, test: &str) -> Vec<&'a Summary> {
    let Some(t) = o.tests.get(test) else {
        return Vec::new();
    };
    // an older measurement of the configuration is its history, never
    // part of what its answer counts
    t.records
        .iter()
        .filter(|&&i| t.older_why(i).is_none())
        .filter_map(|&i| ctx.analysis.records.get(i).copied())
        .filter(|r| r.status == Status::Ok)
        .filter(|r| r.timeline.as_ref().is_some_and(|tl| tl.pattern.is_some()))
        .collect()
}

/// The section for one study: a group per test with a timeline (sorted by
/// test id), its rows in `order` (configuration names).
pub(super) fn groups(
    ctx: PageCtx,
    study_name: &str,
    study: &Study,
    order: &[&str],
) -> Vec<BurstGroup> {
    let mut out = Vec::new();
    for test in &study.tests {
        let kind = study.kinds.get(test).copied().unwrap_or(TestKind::BlockIo);
        let by_bw = kind == TestKind::Throughput;
        let what = if by_bw { "bw" } else { "iops" };
        let unit = if by_bw { Unit::BytesPerSec } else { Unit::Iops };
        let timed = study
            .offerings
            .values()
            .filter_map(|o| o.tests.get(test))
            .flat_map(|t| t.records.iter())
            .filter_map(|&i| ctx.analysis.records.get(i))
            .filter(|r| r.timeline.is_some())
            .count();
        let all_drawn = super::timeline::draws_every_timeline(timed);
        let mut rows = Vec::new();
        let mut untimed = Vec::new();
        let mut promised = Vec::new();
        let mut dirs = BTreeSet::new();
        for name in order {
            let Some(o) = study.offerings.get(*name) else {
                continue;
            };
            let Some(results) = o.tests.get(test) else {
                continue;
            };
            let records = timeline_records(&ctx, o, test);
            let Some(first) = records.first() else {
                // measured, but not over time (imported without fio's
                // per-second log): said, so the table names every
                // configuration the matrix has
                if !results.metrics.is_empty() {
                    untimed.push(BurstRow {
                        config: ctx.link(&o.name, &ctx.paths.offering_page(study_name, &o.name)),
                        pattern: "no timeline: fio's per-second log was not kept".into(),
                        ..BurstRow::default()
                    });
                }
                continue;
            };
            let metrics = &results.metrics;
            let median = |m: &str| metrics.get(m).map(|s| s.summary.median);
            let has = |r: &Summary, m: &str| r.metrics.contains_key(m);
            let dir = if records
                .iter()
                .any(|r| has(r, &format!("read_{what}_sustained")))
            {
                "read"
            } else {
                "write"
            };
            let level_of = format!("{dir}_{what}_sustained");
            // the runs that never left their burst: their level is a burst
            let left: Vec<f64> = records
                .iter()
                .filter(|r| is_left_out(&ctx.analysis.records, results, r))
                .filter_map(|r| r.metrics.get(&level_of).map(|m| m.value))
                .collect();
            let sustained = median(&level_of);
            if sustained.is_none() && left.is_empty() {
                continue;
            }
            dirs.insert(dir);
            let burst = median(&format!("{dir}_{what}_burst"));
            let limit = ctx.opts.limits.for_config(
                o.provider.as_deref(),
                o.offering.as_deref(),
                o.size_gb,
                Provisioned::of(&o.labels),
            );
            let limit = limit.as_deref();
            let promise = limit
                .map(|l| l.promise(by_bw, o.size_gb))
                .unwrap_or_default();
            if let Some(l) = limit.filter(|_| promise.baseline.or(promise.burst).is_some()) {
                // the limits row is named only where it is not the configuration's own name
                let row = format!("{} {}", l.provider, l.offering);
                // with how long its burst lasts, where the row says
                let name = match super::timeline::promised_burst(promise, unit) {
                    Some(b) => format!("{} ({b})", o.name),
                    None => o.name.clone(),
                };
                promised.push(if row.eq_ignore_ascii_case(&o.name) {
                    format!("{name}: {}", l.note())
                } else {
                    format!("{name}: {row}, {}", l.note())
                });
            }
            // a run left out never left its burst: "burst not exhausted",
            // whatever one run alone looked like
            let patterns: BTreeSet<&str> = records
                .iter()
                .filter_map(|r| {
                    let p = r.timeline.as_ref()?.pattern?;
                    Some(if is_left_out(&ctx.analysis.records, results, r) {
                        LEFT_OUT_WORDS
                    } else {
                        pattern_words(p)
                    })
                })
                .collect();
            let standing: Vec<&&Summary> = records
                .iter()
                .filter(|r| !is_left_out(&ctx.analysis.records, results, r))
                .collect();
            let exhausted = !standing.iter().any(|r| {
                r.timeline.as_ref().and_then(|t| t.pattern)
                    == Some(crate::record::Pattern::NotExhausted)
            });
            let tl = first.timeline.as_ref();
            let periodic = tl.and_then(|t| t.burst_on_s.zip(t.burst_off_s));
            let duration = match (median("burst_duration"), periodic) {
                (Some(s), _) => duration_words(s),
                (None, Some((on, off))) => {
                    format!(
                        "{} in every {}",
                        duration_words(on),
                        duration_words(on + off)
                    )
                }
                _ => String::new(),
            };
            let volume = match (median("burst_ios"), median("burst_bytes")) {
                (Some(n), _) => format!("{} I/Os", count_words(n)),
                (None, Some(b)) => with_unit(b, display_unit(Unit::Bytes, b)),
                _ => String::new(),
            };
            // a run whose level was still high or moving has not reached
            // its steady state, whatever its last rounds looked like
            let steady_runs = standing
                .iter()
                .filter(|r| {
                    r.metrics
                        .get("steady_state")
                        .is_some_and(|m| m.value == 1.0)
                        && r.timeline.as_ref().and_then(|t| t.pattern)
                            != Some(crate::record::Pattern::NotExhausted)
                })
                .count();
            let steady = match (steady_runs, standing.len()) {
                (_, 0) => "not judged: burst not exhausted".to_string(),
                (0, _) => "not reached".to_string(),
                (k, n) if k == n => "reached".to_string(),
                (k, n) => format!("reached in {k} of {n} runs"),
            };
            let n = records.len();
            let burst_of = format!("{dir}_{what}_burst");
            let bursts = standing.iter().filter(|r| has(r, &burst_of)).count() + left.len();
            let lasting = standing.iter().filter(|r| has(r, &level_of)).count();
            let count = |k: usize| {
                if k == n {
                    format!("{n} run{}", if n == 1 { "" } else { "s" })
                } else {
                    format!("{k} of {n} run{}", if n == 1 { "" } else { "s" })
                }
            };
            let mut runs = if bursts == 0 || (bursts == n && lasting == n) {
                count(lasting)
            } else {
                format!("burst: {}; sustained: {}", count(bursts), count(lasting))
            };
            if let Some(note) = results.left_out_note() {
                runs.push_str(&format!(" ({note})"));
            }
            let burst = burst.or_else(|| crate::timeline::median(&left));
            // the test page draws this run's timeline when it draws every
            // one; past that, the run's own page does
            let chart_page = if all_drawn {
                ctx.paths.test_page(study_name, test)
            } else {
                ctx.paths.run_page(&first.id)
            };
            let mut pattern = patterns.into_iter().collect::<Vec<_>>().join(" / ");
            // runs that ended at a level that could be a burst say how long
            // they watched (`run` puts it in their warnings): never a bare flat
            if let Some(note) = standing
                .iter()
                .flat_map(|r| &r.warnings)
                .find(|w| w.starts_with(crate::record::BURST_NOT_EXCLUDED))
            {
                pattern.push_str(&format!("; {note}"));
            }
            rows.push(BurstRow {
                config: ctx.link(&o.name, &ctx.paths.offering_page(study_name, &o.name)),
                pattern,
                burst: burst
                    .map(|b| against(b, promise.burst, unit))
                    .unwrap_or_else(|| "none".into()),
                sustained: match sustained {
                    None => "not measured: burst not exhausted".into(),
                    Some(s) if exhausted => against(s, promise.baseline, unit),
                    Some(s) => format!("at least {}", against(s, promise.baseline, unit)),
                },
                duration,
                volume,
                steady,
                runs,
                chart: ctx.link("chart", &format!("{chart_page}#timeline-{}", first.id)),
            });
        }
        if rows.is_empty() {
            continue;
        }
        rows.append(&mut untimed);
        let dirs: Vec<&str> = dirs.into_iter().collect();
        let measure = if by_bw { "throughput" } else { "IOPS" };
        out.push(BurstGroup {
            heading: format!("{test}: {} {measure}", dirs.join(" and ")),
            test: ctx.link(test, &ctx.paths.test_page(study_name, test)),
            rows,
            promised: if promised.is_empty() {
                String::new()
            } else {
                format!(
                    "Levels read measured / promised. Promised: {}.",
                    promised.join("; ")
                )
            },
            promised_parts: promised,
        });
    }
    out
}

/// The section in Markdown, for `data/<study>.md`; empty without groups.
pub(super) fn markdown(groups: &[BurstGroup]) -> String {
    use crate::report::export::markdown::{md, Align, Table};
    if groups.is_empty() {
        return String::new();
    }
    // one table, a row per configuration and a column per test, so that
    // it stays short; what each configuration is promised said once under
    // it, however many tests it ran; the study page has the rest
    let mut configs: Vec<&str> = Vec::new();
    for g in groups {
        for r in &g.rows {
            if !configs.contains(&r.config.text.as_str()) {
                configs.push(&r.config.text);
            }
        }
    }
    let mut s = String::from("## Burst and sustained\n\n");
    // at most ten columns: more tests than nine make a second table
    for (i, chunk) in groups.chunks(POST_TESTS_PER_TABLE).enumerate() {
        if i > 0 {
            s.push('\n');
        }
        let mut table = Table::new(
            std::iter::once(("configuration", Align::Left))
                .chain(chunk.iter().map(|g| (g.heading.as_str(), Align::Left))),
        );
        for c in &configs {
            let mut row = vec![c.to_string()];
            for g in chunk {
                row.push(
                    g.rows
                        .iter()
                        .find(|r| r.config.text == *c)
                        .map(burst_cell)
                        .unwrap_or_else(|| "not tested".into()),
                );
            }
            table.row(row);
        }
        s.push_str(&table.render());
    }
    s.push_str("\nEach cell: the burst level → the sustained level, and how long the burst lasts; the study page has each pattern, steady state and the runs behind it.\n\n");
    let mut promised: Vec<&str> = Vec::new();
    for g in groups {
        for p in &g.promised_parts {
            if !promised.contains(&p.as_str()) {
                promised.push(p);
            }
        }
    }
    if !promised.is_empty() {
        s.push_str(&format!(
            "{}\n\n",
            md(&format!(
                "Levels read measured / promised. Promised: {}.",
                promised.join("; ")
            ))
        ));
    }
    s
}

/// A configuration's cell in the post's burst table: `5,002 IOPS → 1,999
/// IOPS, 15 s`, or the sustained level alone without a burst.
fn burst_cell(r: &BurstRow) -> String {
    // measured without a timeline: why
    if r.sustained.is_empty() && r.burst.is_empty() {
        return r.pattern.clone();
    }
    let mut cell = if r.burst.is_empty() || r.burst == "none" {
        r.sustained.clone()
    } else {
        format!("{} → {}", r.burst, r.sustained)
    };
    if !r.duration.is_empty() {
        cell.push_str(&format!(", {}", r.duration));
    }
    cell
}
