//! Data exports for posts: `data/summary.csv`, `data/summary.json`,
//! `data/summary.md`, `data/value.csv`, and the record's JSON Schema,
//! `data/record.schema.json`.

use anyhow::{Context, Result};

use crate::analysis::value;
use crate::analysis::Analysis;
use crate::format;
use crate::metrics::{human_name, metric_order};
use crate::plausible::finite;
use crate::report::story::Story;

mod hosts;
mod json;
pub mod markdown;
pub use hosts::{host_text, hosts_csv, HOSTS_COLUMNS};
pub use json::summary_json;
pub(crate) use markdown::md;
use markdown::{Align, Table};

/// The columns of `data/value.csv`. `currency` and `monthly_cost` are the
/// configuration's own; the ratios are in `compared_currency`, the
/// baseline's, into which `rate` (from `--rates`, read on `rate_as_of`)
/// converted a price in another currency (`converted_monthly_cost`).
pub const VALUE_COLUMNS: [&str; 23] = [
    "study",
    "test",
    "metric",
    "provider",
    "offering",
    "size_gb",
    "provisioned_iops",
    "provisioned_mbps",
    "baseline",
    "price_basis",
    "price_ratio",
    "per_gb_ratio",
    "monthly_cost",
    "currency",
    "performance_ratio",
    "value_ratio",
    "value_ratio_low",
    "value_ratio_high",
    "verdict",
    "compared_currency",
    "rate",
    "rate_as_of",
    "converted_monthly_cost",
];

/// The columns of `data/summary.csv`.
pub const SUMMARY_COLUMNS: [&str; 17] = [
    "study",
    "provider",
    "offering",
    "test",
    "metric",
    "unit",
    "runs",
    "median",
    "min",
    "max",
    "cv",
    "large_spread",
    "price_per_gb_month",
    "currency",
    "monthly_cost",
    "price_origin",
    "price_note",
];

/// A data file: its path in the site, and how it is made from the analysis.
pub type DataFile = (&'static str, fn(&Analysis) -> Result<Vec<u8>>);

/// The data files: the four tables, and the record's JSON Schema (what
/// `diskdash schema` prints) for those who validate records they
/// contribute. Each is made on its own, so that a build makes them beside
/// its pages; the largest first.
pub const DATA_FILES: [DataFile; 5] = [
    ("data/summary.json", summary_json),
    ("data/summary.csv", summary_csv),
    ("data/value.csv", value_csv),
    ("data/summary.md", |a| Ok(summary_md(a))),
    ("data/record.schema.json", |_| {
        Ok(format!("{}\n", crate::record::json_schema()).into_bytes())
    }),
];

fn opt_ratio(r: Option<f64>) -> String {
    r.and_then(finite)
        .map(format::ratio_data)
        .unwrap_or_default()
}

/// The verdict column of a value row: its verdict, or for a short test
/// measured on a burst `while bursting` / `against the baseline's burst`
/// (no verdict is given on a burst); empty without either.
fn csv_verdict(r: &value::ValueRow) -> String {
    match (r.verdict_text(), r.measured) {
        (Some(v), _) => v,
        (None, Some(m)) if !m.keeps_verdict() => m.words().to_string(),
        _ => String::new(),
    }
}

/// `data/value.csv`: one row per study, test, judged metric and
/// configuration, in the order of the value page; ratios with three
/// decimals, costs to cents, empty when unknown.
pub fn value_csv(a: &Analysis) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(VALUE_COLUMNS)?;
    let num = |v: Option<f64>| v.and_then(finite).map(format::data).unwrap_or_default();
    for sv in &a.values {
        let Some(study) = a.data.studies.get(&sv.study) else {
            continue;
        };
        for t in &sv.tables {
            let baseline = t
                .baseline_row()
                .map(|r| r.offering.as_str())
                .or(sv.baseline.as_deref())
                .unwrap_or("");
            for r in &t.rows {
                let Some(o) = study.offerings.get(&r.offering) else {
                    continue;
                };
                let (lo, hi) = r.value_range.unzip();
                let conversion = r
                    .rate
                    .and_then(|_| crate::report::story::conversion_of(sv, &r.offering));
                w.write_record(format::csv_row([
                    sv.study.as_str(),
                    t.test.as_str(),
                    t.metric.as_str(),
                    o.provider.as_deref().unwrap_or(""),
                    o.offering.as_deref().unwrap_or(""),
                    &num(o.size_gb),
                    &num(o.provisioned_iops),
                    &num(o.provisioned_mbps),
                    baseline,
                    r.price_basis.map(value::PriceBasis::name).unwrap_or(""),
                    &opt_ratio(r.price_ratio),
                    &opt_ratio(r.per_gb_ratio),
                    &r.monthly_cost
                        .and_then(finite)
                        .map(|c| format::fixed(c, 2))
                        .unwrap_or_default(),
                    r.price.as_ref().map(|p| p.currency.as_str()).unwrap_or(""),
                    &opt_ratio(r.performance_ratio),
                    &opt_ratio(r.value_ratio),
                    &opt_ratio(lo),
                    &opt_ratio(hi),
                    &csv_verdict(r),
                    // a price compared in the baseline's currency: its own
                    // or converted into it
                    if r.price_ratio.is_some() {
                        sv.currency.as_deref().unwrap_or("")
                    } else {
                        ""
                    },
                    &num(r.rate),
                    conversion.map(|c| c.rate.as_of.as_str()).unwrap_or(""),
                    &r.rate
                        .and(r.converted_monthly_cost())
                        .and_then(finite)
                        .map(|c| format::fixed(c, 2))
                        .unwrap_or_default(),
                ]))?;
            }
        }
    }
    w.into_inner().context("failed to write value.csv")
}

/// `data/summary.csv`: statistics per study, offering, test and metric in
/// canonical units.
pub fn summary_csv(a: &Analysis) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(SUMMARY_COLUMNS)?;
    for sv in &a.values {
        let Some(study) = a.data.studies.get(&sv.study) else {
            continue;
        };
        for o in study.offerings.values() {
            let price = sv.prices.get(&o.name).and_then(Option::as_ref);
            let cost = sv.monthly_costs.get(&o.name).copied().flatten();
            // the price's source, and the included level its cost assumes
            let note = [
                price.and_then(|p| p.note.as_deref()),
                sv.cost_notes.get(&o.name).map(String::as_str),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("; ");
            for (test, t) in &o.tests {
                let mut ms: Vec<_> = t.metrics.iter().collect();
                ms.sort_by_cached_key(|(m, _)| metric_order(m));
                for (metric, st) in ms {
                    let s = &st.summary;
                    w.write_record(format::csv_row([
                        sv.study.as_str(),
                        o.provider.as_deref().unwrap_or(""),
                        o.offering.as_deref().unwrap_or(""),
                        test.as_str(),
                        metric.as_str(),
                        st.unit.as_str(),
                        &s.n.to_string(),
                        &format::data(s.median),
                        &format::data(s.min),
                        &format::data(s.max),
                        &s.cv.and_then(finite).map(format::data).unwrap_or_default(),
                        if s.large_spread() { "true" } else { "false" },
                        &price
                            .and_then(|p| p.per_gb_month())
                            .map(format::data)
                            .unwrap_or_default(),
                        price.map(|p| p.currency.as_str()).unwrap_or(""),
                        &cost.and_then(finite).map(format::data).unwrap_or_default(),
                        price.map(|p| p.origin.as_str()).unwrap_or(""),
                        note.as_str(),
                    ]))?;
                }
            }
        }
    }
    w.into_inner().context("failed to write summary.csv")
}

/// What a post says beyond its story: the title and the rest of the
/// study's file ([`crate::report::study_file`]), whether it starts with
/// front matter, its charts and where they are published.
#[derive(Clone, Copy, Debug)]
pub struct PostParts<'a> {
    /// The study's title: its study file's, `--study-title`'s or its name.
    pub title: &'a str,
    pub info: &'a crate::report::study_file::StudyInfo,
    /// YAML front matter (`--front-matter`).
    pub front_matter: bool,
    /// The charts (alt text, the chart's path in the site), the first
    /// drawn in the post, the others linked.
    pub images: &'a [(String, String)],
    /// `--base-url`: where the charts are linked under (else relative to
    /// `data/`).
    pub base_url: Option<&'a str>,
}

/// YAML front matter that Jekyll and Hugo both read: the title as a
/// double-quoted YAML string, the date where it is a whole day.
fn front_matter(title: &str, date: Option<&str>) -> String {
    let mut quoted = String::from("\"");
    for c in title.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            c if c.is_control() => quoted.push_str(&format!("\\u{:04x}", c as u32)),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    let mut s = format!("---\ntitle: {quoted}\n");
    if let Some(d) = date {
        s.push_str(&format!("date: {d}\n"));
    }
    s.push_str("---\n\n");
    s
}

/// The first part of `data/<study>.md`, one study ready to paste into a
/// post: front matter where asked, its title, the study file's summary
/// and author, the headline, when and how it was measured, one table of
/// at most ten columns (configuration, monthly cost, a column per
/// headline dimension: [`crate::report::story::PostTable`]; a study
/// without one, of one configuration say, gets a table of its medians),
/// the first chart as a `<picture>` with its dark and narrow twins and
/// links to the others, and the failures. The burst and machine tables
/// follow, then [`study_md_history`].
pub fn study_md(story: &Story, parts: PostParts) -> Vec<u8> {
    let mut s = String::new();
    if parts.front_matter {
        let date = parts
            .info
            .date
            .as_deref()
            .or(story.latest.as_deref().filter(|d| d.len() == 10));
        s.push_str(&front_matter(parts.title, date));
    }
    s.push_str(&format!("# {}\n\n", md(parts.title)));
    if let Some(summary) = parts
        .info
        .summary
        .as_deref()
        .filter(|t| !t.trim().is_empty())
    {
        s.push_str(&format!("{}\n\n", md(summary)));
    }
    if let Some(author) = parts
        .info
        .author
        .as_deref()
        .filter(|t| !t.trim().is_empty())
    {
        match parts.info.date.as_deref() {
            Some(d) => s.push_str(&format!("By {}, {d}.\n\n", md(author))),
            None => s.push_str(&format!("By {}.\n\n", md(author))),
        }
    }
    for (i, line) in story.headline.iter().enumerate() {
        if i == 0 {
            s.push_str(&format!("**{}**\n\n", md(line)));
        } else {
            s.push_str(&format!("{}\n\n", md(line)));
        }
    }
    s.push_str(&format!(
        "Measured {}; {}. Baseline: {}.\n\n",
        md(&story.measured),
        md(&story.sources.join("; ")),
        md(&story.baseline)
    ));
    if !story.rates.is_empty() {
        s.push_str(&format!("{}\n\n", md(&story.rates.join(" "))));
    }
    let post = &story.post;
    if !post.headers.is_empty() {
        let mut table = Table::new(
            [
                ("configuration", Align::Left),
                ("monthly cost", Align::Right),
            ]
            .into_iter()
            .chain(post.headers.iter().map(|h| (h.as_str(), Align::Left))),
        );
        for row in &post.rows {
            table.row(row);
        }
        s.push_str(&table.render());
        if !post.cost_notes.is_empty() {
            s.push_str(&format!(
                "\n{}",
                md(&format!("Monthly costs: {}.", post.cost_notes.join("; ")))
            ));
            s.push('\n');
        }
        s.push_str(
            "\nEach cell: the median, the performance ratio against the baseline and the verdict (value ratio = performance ratio / price ratio: 1 or more is worth it).\n\n",
        );
    } else if !story.measured_values.is_empty() {
        // nothing to compare: what was measured, a row per test and metric
        let one = story
            .measured_values
            .iter()
            .all(|r| r[0] == story.measured_values[0][0]);
        let mut columns = vec![
            ("test", Align::Left),
            ("metric", Align::Left),
            ("median", Align::Right),
            ("runs", Align::Right),
        ];
        if !one {
            columns.insert(0, ("configuration", Align::Left));
        }
        let mut table = Table::new(columns);
        for r in &story.measured_values {
            table.row(r.iter().skip(usize::from(one)));
        }
        if one {
            s.push_str(&format!(
                "Measured on {}, the median over its runs:\n\n",
                md(&story.measured_values[0][0])
            ));
        }
        s.push_str(&table.render());
        s.push('\n');
    }
    let href = |p: &str| match parts.base_url {
        Some(base) => format!("{base}/{p}"),
        None => format!("../{p}"),
    };
    if let Some((alt, path)) = parts.images.first() {
        let stem = path.strip_suffix(".svg").unwrap_or(path);
        let twin = |suffix: &str| attr(&href(&format!("{stem}{suffix}.svg")));
        // a phone gets the narrow drawing, whose text stays 9 px or more
        // where the wide one would shrink it to 6
        s.push_str(&format!(
            "<picture>\n  <source media=\"(max-width: 600px) and (prefers-color-scheme: dark)\" srcset=\"{}\">\n  <source media=\"(max-width: 600px)\" srcset=\"{}\">\n  <source media=\"(prefers-color-scheme: dark)\" srcset=\"{}\">\n  <img src=\"{}\" alt=\"{}\">\n</picture>\n\n",
            twin("-narrow-dark"),
            twin("-narrow"),
            twin("-dark"),
            attr(&href(path)),
            attr(alt)
        ));
    }
    // the other charts, one line of links: the post stays short
    let others: Vec<String> = parts
        .images
        .iter()
        .skip(1)
        .map(|(alt, path)| format!("[{}]({})", md(alt), link_target(&href(path))))
        .collect();
    if !others.is_empty() {
        s.push_str(&format!("More charts: {}.\n\n", others.join(", ")));
    }
    if !story.failures.is_empty() {
        s.push_str("Failed runs:\n\n");
        for f in &story.failures {
            s.push_str(&format!("- {}\n", md(f)));
        }
        s.push('\n');
    }
    s.into_bytes()
}

/// A link's target in Markdown, `[text](target)`: the address as it is,
/// with only what would end or break the target percent-encoded.
fn link_target(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        match c {
            ' ' | '(' | ')' | '<' | '>' | '"' | '\\' | '|' | '`' => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// The last part of `data/<study>.md`: when the answer was measured, where
/// a configuration was measured more than once (a sentence per
/// configuration, and one per older date its tests come from), and one
/// table of its history: a row per configuration, test and judged
/// metric, with the first and the latest measurement and the change
/// between them (the offering page has every measurement). Empty without
/// a history.
pub fn study_md_history(story: &Story) -> Vec<u8> {
    if story.history.is_empty() && story.history_tables.is_empty() {
        return Vec::new();
    }
    let mut s = String::from("## History\n\n");
    for line in &story.history {
        s.push_str(&format!("{}\n\n", md(line)));
    }
    use crate::report::story::history::HistoryRow;
    let this = story.study.as_str();
    let tables: Vec<(
        &crate::report::story::history::HistoryTable,
        &HistoryRow,
        &HistoryRow,
    )> = story
        .history_tables
        .iter()
        .filter_map(|t| Some((t, t.rows.first()?, t.rows.last()?)))
        .collect();
    if tables.is_empty() {
        return s.into_bytes();
    }
    let when = |r: &HistoryRow| {
        if r.study == this {
            r.date.clone()
        } else {
            format!("{}, study {}", r.date, r.study)
        }
    };
    // the dates in the header where every row shares them, in each cell
    // otherwise; the configuration's column only where there are several
    let shared = |dates: Vec<String>| {
        let first = dates.first().cloned()?;
        dates.iter().all(|d| *d == first).then_some(first)
    };
    let first_date = shared(tables.iter().map(|x| when(x.1)).collect());
    let last_date = shared(tables.iter().map(|x| when(x.2)).collect());
    let several = tables
        .iter()
        .any(|(t, _, _)| t.config != tables[0].0.config);
    let mut columns: Vec<(String, Align)> = vec![
        ("test".into(), Align::Left),
        ("metric".into(), Align::Left),
        (
            first_date
                .as_deref()
                .map_or("first".into(), |d| format!("first ({d})")),
            Align::Right,
        ),
        (
            last_date
                .as_deref()
                .map_or("latest".into(), |d| format!("latest ({d})")),
            Align::Right,
        ),
        ("change".into(), Align::Right),
    ];
    if several {
        columns.insert(0, ("configuration".into(), Align::Left));
    } else {
        s.push_str(&format!(
            "{}, the first and the latest measurement of each test and metric measured more than once (its offering page has every one):\n\n",
            md(&tables[0].0.config)
        ));
    }
    let mut table = Table::new(columns);
    for (t, first, last) in &tables {
        let cell = |r: &HistoryRow, shared: &Option<String>| match shared {
            Some(_) => r.median.clone(),
            None => format!("{} ({})", r.median, when(r)),
        };
        let cells = [
            t.config.clone(),
            t.test.clone(),
            t.human.clone(),
            cell(first, &first_date),
            cell(last, &last_date),
            last.change.clone(),
        ];
        table.row(cells.into_iter().skip(usize::from(!several)));
    }
    s.push_str(&table.render());
    s.push('\n');
    s.into_bytes()
}

/// Text for an HTML attribute in the post.
fn attr(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `data/summary.md`: per study, a value table of the headline verdicts and
/// a table of medians per test, ready to paste into a post.
pub fn summary_md(a: &Analysis) -> Vec<u8> {
    let mut s = String::new();
    for sv in &a.values {
        s.push_str(&format!("## {}\n\n", md(&sv.study)));
        match &sv.baseline {
            Some(b) => s.push_str(&format!(
                "Baseline: {} ({}).\n\n",
                md(b),
                sv.baseline_reason
            )),
            None => s.push_str("No offering has a price: no ratios.\n\n"),
        }
        for line in crate::report::story::rate_sentences(sv)
            .into_iter()
            .chain(crate::report::story::no_rate_sentence(sv))
            .chain(crate::report::story::catalogue_sentence(sv))
        {
            s.push_str(&format!("{}\n\n", md(&line)));
        }
        let mut tests: Vec<&str> = sv.tables.iter().map(|t| t.test.as_str()).collect();
        tests.dedup();
        for test in tests {
            s.push_str(&format!("### {}\n\n", md(test)));
            let mut table = Table::new([
                ("metric", Align::Left),
                ("offering", Align::Left),
                ("median", Align::Right),
                ("runs", Align::Right),
                ("price ratio", Align::Right),
                ("performance ratio", Align::Right),
                ("verdict", Align::Left),
            ]);
            for t in sv.tables.iter().filter(|t| t.test == test) {
                let human = human_name(&t.metric);
                for r in &t.rows {
                    table.row([
                        human.clone(),
                        r.offering.clone(),
                        format::value(r.median, t.unit),
                        r.runs.to_string(),
                        r.price_ratio.map(format::ratio).unwrap_or_default(),
                        r.performance_ratio.map(format::ratio).unwrap_or_default(),
                        r.verdict_text()
                            .or_else(|| r.no_verdict.clone())
                            .unwrap_or_default(),
                    ]);
                }
                for u in &t.unmeasured {
                    let reason = u.reason.clone();
                    table.row([
                        human.clone(),
                        u.offering.clone(),
                        String::new(),
                        String::new(),
                        String::new(),
                        String::new(),
                        reason,
                    ]);
                }
            }
            s.push_str(&table.render());
            s.push('\n');
        }
    }
    s.into_bytes()
}
