//! Records transcribed from published benchmark figures
//! (`sample-results/published/figures.csv`): one record per test execution
//! a post reported, every printed number kept as it was printed.
//!
//! Not part of the shipped crate: the `transcribe` example runs it, and
//! `tests/sample_results.rs` includes this file (`#[path]`) to check that
//! `sample-results/` is exactly what it gives. It uses only diskdash's public
//! API.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use serde_json::Value;

use diskdash::record::{
    self, Host, Metric, Price, PublishedFigure, Record, Source, Subject, Target, TestInfo, Tool,
};
use diskdash::tools;
use diskdash::units::{self, Prefixes, Unit};

/// One row of `figures.csv`: one number as a post printed it.
#[derive(Deserialize, Clone, Debug)]
struct Row {
    study: String,
    provider: String,
    offering: String,
    date: String,
    setup: String,
    price_per_gb_month: String,
    currency: String,
    price_note: String,
    tool: String,
    command: String,
    metric: String,
    value: String,
    unit: String,
    note: String,
}

/// A row and its line in the CSV text, for error messages.
struct Located {
    line: u64,
    row: Row,
}

/// Builds one record per test execution from the text of `figures.csv`
/// (columns as in `sample-results/published/README.md`), sorted by id.
///
/// Rows sharing study, provider, offering, tool and command form one record.
/// Fails, naming the CSV line, on a row whose tool, command, metric, unit or
/// price it cannot map, on rows of one record that disagree about date,
/// setup or price, and on duplicate metrics or ids.
pub fn records_from_figures(csv_text: &str) -> Result<Vec<Record>> {
    let rows = read_rows(csv_text)?;
    let mut groups: BTreeMap<(&str, &str, &str, &str, &str), Vec<&Located>> = BTreeMap::new();
    for located in &rows {
        let r = &located.row;
        groups
            .entry((&r.study, &r.provider, &r.offering, &r.tool, &r.command))
            .or_default()
            .push(located);
    }
    let mut records = Vec::with_capacity(groups.len());
    for ((study, ..), group) in &groups {
        let study_rows: Vec<&Row> = rows
            .iter()
            .map(|l| &l.row)
            .filter(|r| r.study == *study)
            .collect();
        records.push(record_for(group, publication_for(study, &study_rows))?);
    }
    records.sort_by(|a, b| a.id.cmp(&b.id));
    if let Some(pair) = records.windows(2).find(|w| w[0].id == w[1].id) {
        bail!(
            "two records would get the id `{}` (same study, offering and test id)",
            pair[0].id
        );
    }
    Ok(records)
}

/// Where a transcribed record lives below `sample-results/`:
/// `<study>/<offering-slug>/<id>.json`.
pub fn record_path(record: &Record) -> PathBuf {
    record::subject_dir(&record.subject).join(record.file_name())
}

fn read_rows(csv_text: &str) -> Result<Vec<Located>> {
    let mut reader = csv::ReaderBuilder::new().from_reader(csv_text.as_bytes());
    let headers = reader
        .headers()
        .context("figures CSV: expected a header line")?
        .clone();
    let mut rows = Vec::new();
    for result in reader.records() {
        let rec = result.context("figures CSV: malformed line")?;
        let line = rec.position().map_or(0, |p| p.line());
        let row: Row = rec.deserialize(Some(&headers)).with_context(|| {
            format!(
                "figures CSV line {line}: expected the columns study,provider,offering,date,setup,\
                 price_per_gb_month,currency,price_note,tool,command,metric,value,unit,note"
            )
        })?;
        rows.push(Located { line, row });
    }
    if rows.is_empty() {
        bail!("figures CSV: no rows (expected one row per published number)");
    }
    Ok(rows)
}

/// What the post compared, from its rows: the only description the
/// transcription has (no title, author or address was recorded).
fn publication_for(study: &str, rows: &[&Row]) -> String {
    let mut offerings: Vec<String> = Vec::new();
    let mut tools: Vec<&str> = Vec::new();
    for r in rows {
        let name = format!("{} {}", r.provider, r.offering);
        if !offerings.contains(&name) {
            offerings.push(name);
        }
        if !tools.contains(&r.tool.as_str()) {
            tools.push(&r.tool);
        }
    }
    let verb = if offerings.len() > 1 {
        "compared"
    } else {
        "measured"
    };
    format!(
        "public blog post (study `{study}`) that {verb} {} with {}; \
         title, author and address were not transcribed",
        english_list(&offerings),
        english_list(&tools)
    )
}

fn english_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => {
            let head: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} and {}", head.join(", "), last.as_ref())
        }
    }
}

fn record_for(group: &[&Located], publication: String) -> Result<Record> {
    let Some(first) = group.first() else {
        bail!("empty group of figures");
    };
    let r = &first.row;
    for other in group {
        let o = &other.row;
        if (
            &o.date,
            &o.setup,
            &o.price_per_gb_month,
            &o.currency,
            &o.price_note,
        ) != (
            &r.date,
            &r.setup,
            &r.price_per_gb_month,
            &r.currency,
            &r.price_note,
        ) {
            bail!(
                "figures CSV line {}: date, setup or price differ from line {} of the same \
                 test execution ({} {} `{}`)",
                other.line,
                first.line,
                r.provider,
                r.offering,
                r.command
            );
        }
    }
    let at = |line: u64| format!("figures CSV line {line}");
    let tool = parse_tool(&r.tool).with_context(|| at(first.line))?;
    let (test_id, parameters) = parse_command(tool, &r.command).with_context(|| at(first.line))?;

    let mut metrics = BTreeMap::new();
    let mut figures = Vec::new();
    for located in group {
        let row = &located.row;
        let mapped = map_figure(tool, &test_id, row).with_context(|| at(located.line))?;
        for (name, metric, figure) in mapped {
            if metrics.insert(name.clone(), metric).is_some() {
                bail!(
                    "{}: metric `{name}` appears twice in one test execution",
                    at(located.line)
                );
            }
            figures.push(figure);
        }
    }

    let facts = setup_facts(&r.setup).with_context(|| at(first.line))?;
    let mut labels = BTreeMap::new();
    let price = parse_price(r).with_context(|| at(first.line))?;
    if price.is_none() && !r.price_note.is_empty() {
        labels.insert("price_note".to_string(), r.price_note.clone());
    }

    let id = format!(
        "{}.{}.{}",
        record::slug(&r.study),
        record::slug(&r.offering),
        test_id
    );
    if !record::is_valid_id(&id) {
        bail!("{}: `{id}` is not a valid record id", at(first.line));
    }
    let source = Source::Transcribed {
        publication,
        url: None,
        measured: non_empty(&r.date),
        figures,
    };
    let subject = Subject {
        study: Some(r.study.clone()),
        provider: Some(r.provider.clone()),
        offering: Some(r.offering.clone()),
        region: facts.region,
        size_gb: facts.size_gb,
        price,
        labels,
    };
    let test = TestInfo {
        id: test_id,
        suite: None,
        tool,
        tool_version: None,
        parameters,
        command: Some(r.command.clone()),
    };
    Ok(Record {
        host: Host {
            cpu_model: facts.cpu_model,
            cpu_count: facts.cpu_count,
            memory_bytes: facts.memory_bytes,
            description: non_empty(&r.setup),
            ..Host::default()
        },
        target: Target {
            fs_type: facts.fs_type,
            mount_options: facts.mount_options,
            device: facts.device,
            description: non_empty(&r.setup),
            ..Target::default()
        },
        run_id: Some(r.study.clone()),
        metrics: metrics.into_iter().collect(),
        // as published, with what a reader must know of it (dd from /dev/zero)
        warnings: diskdash::tools::judge(tool)
            .caveat(&test.parameters)
            .map(str::to_string)
            .into_iter()
            .collect(),
        ..Record::new(id, source, subject, test)
    })
}

fn non_empty(s: &str) -> Option<String> {
    (!s.trim().is_empty()).then(|| s.to_string())
}

fn parse_tool(name: &str) -> Result<Tool> {
    Tool::ALL
        .into_iter()
        .find(|t| t.name() == name)
        .with_context(|| format!("tool `{name}`: expected dd, fio, ioping or bonnie++"))
}

/// A price only when the post gives one; an empty price is unknown, and a
/// zero or negative one is refused rather than stored.
fn parse_price(r: &Row) -> Result<Option<Price>> {
    let text = r.price_per_gb_month.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let value: f64 = text
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v > 0.0)
        .with_context(|| {
            format!("price_per_gb_month `{text}`: expected a positive number or nothing")
        })?;
    if r.currency.trim().is_empty() {
        bail!("price {text} has no currency (expected e.g. USD)");
    }
    Ok(Some(Price {
        per_gb_month: value,
        currency: r.currency.trim().to_string(),
        note: non_empty(&r.price_note),
    }))
}

// ------------------------------------------------------------- setup text

/// The structured facts a setup text states.
#[derive(Default, Debug, PartialEq)]
struct SetupFacts {
    fs_type: Option<String>,
    mount_options: Option<String>,
    size_gb: Option<f64>,
    cpu_model: Option<String>,
    cpu_count: Option<u32>,
    memory_bytes: Option<u64>,
    device: Option<String>,
    region: Option<String>,
}

enum Fact {
    FsType(&'static str),
    MountOptions(&'static str),
    SizeGb(f64),
    CpuModel(&'static str),
    CpuCount(u32),
    MemoryBytes(u64),
    Device(&'static str),
    Region(&'static str),
}

/// Phrases the published setups use, and the fact each states. A fact is
/// set only when its phrase stands in the setup text as whole words, so a
/// record never claims more than the post said: EC2's "160 GB instance
/// storage" is not the tested root volume, so it maps to no size.
const FACTS: &[(&str, Fact)] = &[
    ("xfs", Fact::FsType("xfs")),
    ("ext4", Fact::FsType("ext4")),
    (
        "noatime,nodiratime,allocsize=512m",
        Fact::MountOptions("noatime,nodiratime,allocsize=512m"),
    ),
    ("100 GB volume", Fact::SizeGb(100.0)),
    ("20 GB local SSD", Fact::SizeGb(20.0)),
    ("20 GB Block Storage volume", Fact::SizeGb(20.0)),
    ("Xeon E5-2697 v4", Fact::CpuModel("Xeon E5-2697 v4")),
    ("1 vCPU", Fact::CpuCount(1)),
    // memory is sized in binary units whatever the post calls it: the
    // 8 GB Rackspace server had 8,192 MiB (the m1.small's "1.7 GB" is left
    // out: its post ran bonnie++ with -r 1700, not 1.7 GiB)
    ("8 GB RAM", Fact::MemoryBytes(8 << 30)),
    ("/dev/sda1", Fact::Device("/dev/sda1")),
    ("Newark NJ", Fact::Region("Newark NJ")),
];

fn setup_facts(setup: &str) -> Result<SetupFacts> {
    fn set<T: PartialEq + std::fmt::Debug>(slot: &mut Option<T>, value: T) -> Result<()> {
        match slot {
            Some(old) if *old != value => bail!("setup states both {old:?} and {value:?}"),
            _ => {
                *slot = Some(value);
                Ok(())
            }
        }
    }
    let mut f = SetupFacts::default();
    for (phrase, fact) in FACTS {
        if !contains_words(setup, phrase) {
            continue;
        }
        match fact {
            Fact::FsType(v) => set(&mut f.fs_type, v.to_string())?,
            Fact::MountOptions(v) => set(&mut f.mount_options, v.to_string())?,
            Fact::SizeGb(v) => set(&mut f.size_gb, *v)?,
            Fact::CpuModel(v) => set(&mut f.cpu_model, v.to_string())?,
            Fact::CpuCount(v) => set(&mut f.cpu_count, *v)?,
            Fact::MemoryBytes(v) => set(&mut f.memory_bytes, *v)?,
            Fact::Device(v) => set(&mut f.device, v.to_string())?,
            Fact::Region(v) => set(&mut f.region, v.to_string())?,
        }
    }
    Ok(f)
}

/// Whether `phrase` occurs in `text` not glued to a letter or digit on
/// either side (so `xfs` does not match inside `xfsprogs`).
fn contains_words(text: &str, phrase: &str) -> bool {
    text.match_indices(phrase).any(|(start, _)| {
        let before = text[..start].chars().next_back();
        let after = text[start + phrase.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

// ---------------------------------------------------------- command lines

/// The test id and parameters of a published command line of `tool`.
fn parse_command(tool: Tool, command: &str) -> Result<(String, BTreeMap<String, Value>)> {
    let program = command.split_whitespace().next().unwrap_or("");
    let program = program.rsplit('/').next().unwrap_or(program);
    if program != tool.name() {
        bail!(
            "command `{command}`: expected it to start with `{}`",
            tool.name()
        );
    }
    let parsed = tools::output(tool).read_published_command(command)?;
    let test_id = parsed
        .test_id
        .with_context(|| format!("command `{command}`: expected options that name a test"))?;
    Ok((test_id, parsed.parameters))
}

// ---------------------------------------------------------------- metrics

/// How a published number converts to its canonical unit.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// A bandwidth; the prefixes say what a bare `K`/`MB` meant to the tool.
    Bandwidth(Prefixes),
    /// I/O operations per second, printed as `IOPS`.
    Iops,
    /// Other operations per second (`/sec`, `files/sec`).
    OpsPerSec,
    /// A latency in a time unit.
    Latency,
}

/// Published labels of dd, fio and bonnie++ rows and the metric each
/// becomes (DESIGN.md names). ioping labels are handled by `ioping_metric`.
const METRICS: &[(Tool, &str, &str, Kind)] = &[
    (
        Tool::Dd,
        "sequential write",
        "write_bw",
        Kind::Bandwidth(Prefixes::Si),
    ),
    // fio 2.x printed KB/s meaning KiB/s
    (
        Tool::Fio,
        "read bandwidth",
        "read_bw",
        Kind::Bandwidth(Prefixes::Binary),
    ),
    (
        Tool::Fio,
        "write bandwidth",
        "write_bw",
        Kind::Bandwidth(Prefixes::Binary),
    ),
    (Tool::Fio, "read IOPS", "read_iops", Kind::Iops),
    (Tool::Fio, "write IOPS", "write_iops", Kind::Iops),
    // bonnie++ K/sec is KiB/s
    (
        Tool::Bonnie,
        "sequential block input",
        "seq_block_read_bw",
        Kind::Bandwidth(Prefixes::Binary),
    ),
    (
        Tool::Bonnie,
        "sequential block output",
        "seq_block_write_bw",
        Kind::Bandwidth(Prefixes::Binary),
    ),
    (
        Tool::Bonnie,
        "sequential output",
        "seq_write_bw",
        Kind::Bandwidth(Prefixes::Binary),
    ),
    (
        Tool::Bonnie,
        "random seeks",
        "random_seeks",
        Kind::OpsPerSec,
    ),
    (
        Tool::Bonnie,
        "sequential create",
        "seq_create",
        Kind::OpsPerSec,
    ),
    (
        Tool::Bonnie,
        "random create",
        "random_create",
        Kind::OpsPerSec,
    ),
    (
        Tool::Bonnie,
        "sequential read (stat)",
        "seq_stat",
        Kind::OpsPerSec,
    ),
    (
        Tool::Bonnie,
        "random read (stat)",
        "random_stat",
        Kind::OpsPerSec,
    ),
    (
        Tool::Bonnie,
        "sequential delete",
        "seq_delete",
        Kind::OpsPerSec,
    ),
    (
        Tool::Bonnie,
        "random delete",
        "random_delete",
        Kind::OpsPerSec,
    ),
];

/// Why the Rackspace post's "sequential output" is not a bonnie++ column name.
const SEQ_OUTPUT_NOTE: &str = "diskdash: stored as seq_write_bw rather than guessing \
     seq_char_write_bw or seq_block_write_bw";

/// Why a bonnie++ rate a post printed in MB/s is read as MiB/s.
const BONNIE_MB_NOTE: &str = "diskdash: read as binary, 1 MB/s = 1048576 B/s, because the \
     post rescaled bonnie++ output, which counts in 1024-byte K (its K/sec is KiB/s); an SI \
     reading would be 4.6% lower";

/// The published ioping labels start with the mode the command ran.
fn ioping_mode_prefix(test_id: &str) -> Option<&'static str> {
    Some(match test_id {
        "ioping-latency" => "default (4 KiB requests) ",
        "ioping-seek" => "seek rate ",
        "ioping-seq" => "sequential ",
        "ioping-seq-cached" => "sequential cached ",
        _ => return None,
    })
}

fn ioping_metric(test_id: &str, label: &str) -> Option<(&'static str, Kind)> {
    let what = label.strip_prefix(ioping_mode_prefix(test_id)?)?;
    Some(match what {
        // ioping prints binary units (MiB/s, GiB/s) whatever the convention
        "bandwidth" => ("bw", Kind::Bandwidth(Prefixes::Binary)),
        "IOPS" => ("iops", Kind::Iops),
        "average latency" => ("lat_avg", Kind::Latency),
        _ => return None,
    })
}

/// The metric (and, for bonnie++, a CPU twin stated in the note) one row
/// becomes, each with the figure that records it as printed.
fn map_figure(
    tool: Tool,
    test_id: &str,
    row: &Row,
) -> Result<Vec<(String, Metric, PublishedFigure)>> {
    let label = row.metric.as_str();
    let (name, kind) = match tool {
        Tool::Ioping => ioping_metric(test_id, label),
        _ => METRICS
            .iter()
            .find(|(t, l, _, _)| *t == tool && *l == label)
            .map(|(_, _, name, kind)| (*name, *kind)),
    }
    .with_context(|| {
        format!(
            "metric `{label}` of {tool} test {test_id}: no metric name known for it \
             (add it to the mapping in examples/transcribe/figures.rs)"
        )
    })?;

    let value = parse_value(&row.value)?;
    let unit = row.unit.trim();
    let metric = match kind {
        Kind::Bandwidth(prefixes) => {
            units::bytes_per_sec(value, unit, prefixes).map(|v| Metric::new(v, Unit::BytesPerSec))
        }
        Kind::Iops => (unit == "IOPS").then(|| Metric::new(value, Unit::Iops)),
        Kind::OpsPerSec => {
            matches!(unit, "/sec" | "/s" | "files/sec").then(|| Metric::new(value, Unit::OpsPerSec))
        }
        Kind::Latency => units::seconds(value, unit).map(|v| Metric::new(v, Unit::Seconds)),
    }
    .with_context(|| format!("metric `{label}`: unit `{unit}` does not fit a {kind:?} value"))?;

    let ours = match (name, tool, unit) {
        ("seq_write_bw", _, _) => Some(SEQ_OUTPUT_NOTE),
        (_, Tool::Bonnie, "MB/s") => Some(BONNIE_MB_NOTE),
        _ => None,
    };
    let mut out = vec![(
        name.to_string(),
        metric,
        PublishedFigure {
            metric: name.to_string(),
            label: label.to_string(),
            value: row.value.clone(),
            unit: row.unit.clone(),
            note: join_notes(&row.note, ours),
        },
    )];

    if let Some(cpu) = cpu_percent(&row.note)? {
        if tool != Tool::Bonnie {
            bail!(
                "note `{}`: a CPU share is only known for bonnie++",
                row.note
            );
        }
        let cpu_name = format!("{name}_cpu");
        out.push((
            cpu_name.clone(),
            Metric::new(parse_value(cpu)?, Unit::Percent),
            PublishedFigure {
                metric: cpu_name,
                label: format!("{label} CPU"),
                value: cpu.to_string(),
                unit: "%".to_string(),
                note: Some(format!("stated in the note of `{label}`: {}", row.note)),
            },
        ));
    }
    Ok(out)
}

fn parse_value(text: &str) -> Result<f64> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)
        .with_context(|| format!("value `{text}`: expected a non-negative number"))
}

/// The `N` of an "at N% CPU" in a note, as printed.
fn cpu_percent(note: &str) -> Result<Option<&str>> {
    let Some(end) = note.find("% CPU") else {
        return Ok(None);
    };
    let head = &note[..end];
    let start = head
        .trim_end_matches(|c: char| c.is_ascii_digit() || c == '.')
        .len();
    let number = &head[start..];
    if number.is_empty() || !head[..start].ends_with("at ") {
        bail!("note `{note}`: expected `at N% CPU`");
    }
    Ok(Some(number))
}

fn join_notes(published: &str, ours: Option<&str>) -> Option<String> {
    match (published.trim(), ours) {
        ("", None) => None,
        ("", Some(o)) => Some(o.to_string()),
        (p, None) => Some(p.to_string()),
        (p, Some(o)) => Some(format!("{p}. {o}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stable test id (DESIGN.md) of a published command line of `tool`,
    /// as the tool's own command reader gives it (`Output::read_published_command`,
    /// the reading `import` gives the same line pasted above output): for
    /// example `dd if=/dev/zero of=f bs=8k count=16k oflag=dsync` is
    /// `dd-write-8k-dsync`, `ioping -RL` is `ioping-seq`, and
    /// `fio reads.ini: rw=randread bs=4k iodepth=64` is `fio-randread-4k-qd64`.
    ///
    /// Fails on a command that does not start with the tool or that its reader
    /// cannot turn into a test id.
    fn test_id_for(tool: Tool, command: &str) -> Result<String> {
        Ok(parse_command(tool, command)?.0)
    }

    const HEADER: &str = "study,provider,offering,date,setup,price_per_gb_month,currency,\
                          price_note,tool,command,metric,value,unit,note\n";

    fn csv(rows: &[&str]) -> String {
        let mut s = HEADER.to_string();
        for r in rows {
            s.push_str(r);
            s.push('\n');
        }
        s
    }

    #[test]
    fn dd_ids_are_the_dd_readers() {
        let id = |c: &str| test_id_for(Tool::Dd, c).unwrap();
        assert_eq!(
            id("dd if=/dev/zero of=f bs=128k count=1k conv=fdatasync"),
            "dd-write-128k-fdatasync"
        );
        assert_eq!(
            id("dd if=/dev/zero of=f bs=8k count=16k oflag=dsync"),
            "dd-write-8k-dsync"
        );
        assert_eq!(id("dd if=/dev/zero of=f bs=1M count=20k"), "dd-write-1m");
        assert_eq!(
            id("dd if=/dev/zero of=f bs=1M count=2048 conv=fdatasync"),
            "dd-write-bulk"
        );
        // the same rules as `import`: every sync mode is part of the id
        assert_eq!(
            id("dd if=/dev/zero of=f bs=8k oflag=direct"),
            "dd-write-8k-direct"
        );
        assert_eq!(id("dd if=/dev/zero of=f"), "dd-write-512");
        let e = test_id_for(Tool::Dd, "dd if=/dev/zero of=f bs=lots").unwrap_err();
        assert!(format!("{e:#}").contains("block size"), "{e:#}");
        let e = test_id_for(Tool::Dd, "fio bs=1M").unwrap_err();
        assert!(format!("{e:#}").contains("start with `dd`"), "{e:#}");
    }

    #[test]
    fn fio_ioping_and_bonnie_ids() {
        assert_eq!(
            test_id_for(
                Tool::Fio,
                "fio reads.ini: rw=randread bs=4k ioengine=libaio iodepth=64 size=1024MB"
            )
            .unwrap(),
            "fio-randread-4k-qd64"
        );
        assert_eq!(
            test_id_for(Tool::Fio, "fio rw=randwrite bs=4K iodepth=64 numjobs=4").unwrap(),
            "fio-randwrite-4k-qd64-j4"
        );
        // fio's default iodepth is 1
        assert_eq!(
            test_id_for(Tool::Fio, "fio job.ini: rw=randread bs=4k").unwrap(),
            "fio-randread-4k-qd1"
        );
        let e = test_id_for(Tool::Fio, "fio job.ini: bs=4k iodepth=8").unwrap_err();
        assert!(format!("{e:#}").contains("--rw="), "{e:#}");
        let io = |c: &str| test_id_for(Tool::Ioping, c).unwrap();
        assert_eq!(io("ioping -c 5"), "ioping-latency");
        assert_eq!(io("ioping -R"), "ioping-seek");
        assert_eq!(io("ioping -RL /mnt"), "ioping-seq");
        assert_eq!(io("ioping -RLC"), "ioping-seq-cached");
        assert_eq!(io("ioping -L"), "ioping-L");
        assert!(test_id_for(Tool::Ioping, "ioping").is_err());
        assert_eq!(
            test_id_for(Tool::Bonnie, "bonnie++ -u 0 -r 1700 -s 3400 -n 256 -b -d /").unwrap(),
            "bonnie"
        );
    }

    #[test]
    fn parameters_are_the_tool_readers() {
        let (_, p) = parse_command(
            Tool::Fio,
            "fio reads.ini: rw=randread bs=4k ioengine=libaio iodepth=64 size=1024MB",
        )
        .unwrap();
        let expected: BTreeMap<String, Value> = [
            ("bs", Value::from(4096)),
            ("iodepth", Value::from(64)),
            ("ioengine", Value::from("libaio")),
            ("numjobs", Value::from(1)),
            ("rw", Value::from("randread")),
            // fio reads MB as 1024 * 1024 bytes unless kb_base=1000
            ("size", Value::from(1024u64 << 20)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        assert_eq!(p, expected);
        let (_, p) =
            parse_command(Tool::Dd, "dd if=/dev/zero of=x bs=8k count=16k oflag=dsync").unwrap();
        assert_eq!(p["bs"], Value::from(8192));
        assert_eq!(p["count"], Value::from(16384));
        assert_eq!(p["oflag"], Value::from("dsync"));
        assert_eq!(p.len(), 5);
        let (_, p) = parse_command(Tool::Ioping, "ioping -c 5").unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p["count"], Value::from(5));
        assert_eq!(p["flags"], Value::from(""));
        let (_, p) =
            parse_command(Tool::Bonnie, "bonnie++ -u 0 -r 1700 -s 3400 -n 256 -b -d /").unwrap();
        assert_eq!(p["ram_size"], Value::from(1700u64 << 20));
        assert_eq!(p["file_size"], Value::from(3400u64 << 20));
        assert_eq!(p["num_files"], Value::from("256"));
        assert_eq!(p["file_count"], Value::from(256 * 1024));
        assert_eq!(p["directory"], Value::from("/"));
        assert_eq!(p["fsync_each_write"], Value::from(true));
        assert_eq!(p.len(), 6);
    }

    #[test]
    fn rows_of_one_execution_form_one_record() {
        let text = csv(&[
            "s,P,Vol A,2017-07,\"20 GB local SSD, ext4; Newark NJ\",0.25,USD,list,fio,fio r.ini: rw=randread bs=4k iodepth=64,read bandwidth,1000,KB/s,",
            "s,P,Vol A,2017-07,\"20 GB local SSD, ext4; Newark NJ\",0.25,USD,list,fio,fio r.ini: rw=randread bs=4k iodepth=64,read IOPS,250,IOPS,",
        ]);
        let records = records_from_figures(&text).unwrap();
        assert_eq!(records.len(), 1);
        let r = &records[0];
        assert_eq!(r.id, "s.vol-a.fio-randread-4k-qd64");
        assert_eq!(
            r.metrics.get("read_bw").unwrap(),
            Metric::new(1_024_000.0, Unit::BytesPerSec)
        );
        assert_eq!(
            r.metrics.get("read_iops").unwrap(),
            Metric::new(250.0, Unit::Iops)
        );
        assert_eq!(r.subject.size_gb, Some(20.0));
        assert_eq!(r.subject.region.as_deref(), Some("Newark NJ"));
        assert_eq!(r.target.fs_type.as_deref(), Some("ext4"));
        assert_eq!(r.target.mount_options, None);
        assert_eq!(r.host.cpu_model, None);
        assert_eq!(r.subject.price.as_ref().unwrap().per_gb_month, 0.25);
        assert_eq!(
            record_path(r),
            PathBuf::from("s/vol-a/s.vol-a.fio-randread-4k-qd64.json")
        );
    }

    #[test]
    fn cpu_in_a_note_becomes_the_cpu_twin() {
        let text = csv(&[
            "s,P,O,2009-06,x,,,included,bonnie++,bonnie++ -s 3400,sequential read (stat),158584,files/sec,at 39% CPU",
        ]);
        let r = &records_from_figures(&text).unwrap()[0];
        assert_eq!(
            r.metrics.get("seq_stat").unwrap(),
            Metric::new(158584.0, Unit::OpsPerSec)
        );
        assert_eq!(
            r.metrics.get("seq_stat_cpu").unwrap(),
            Metric::new(39.0, Unit::Percent)
        );
        assert_eq!(r.subject.price, None);
        assert_eq!(r.subject.labels["price_note"], "included");
        let Source::Transcribed { figures, .. } = &r.source else {
            panic!("not transcribed");
        };
        assert_eq!(figures.len(), 2);
        assert_eq!(figures[1].value, "39");
        assert_eq!(figures[1].metric, "seq_stat_cpu");
    }

    #[test]
    fn unmappable_rows_fail_loudly_naming_the_line() {
        let unknown_metric = csv(&[
            "s,P,O,2013-01,x,,,n,dd,dd if=/dev/zero of=f bs=1M count=1k,sequential write,1,MB/s,",
            "s,P,O,2013-01,x,,,n,dd,dd if=/dev/zero of=f bs=1M count=1k,sequential read,1,MB/s,",
        ]);
        let e = format!("{:#}", records_from_figures(&unknown_metric).unwrap_err());
        assert!(e.contains("line 3") && e.contains("sequential read"), "{e}");

        let bad_unit =
            csv(&["s,P,O,2013-01,x,,,n,fio,fio rw=read bs=4k iodepth=1,read IOPS,1,ops,"]);
        let e = format!("{:#}", records_from_figures(&bad_unit).unwrap_err());
        assert!(e.contains("unit `ops`"), "{e}");

        let zero_price =
            csv(&["s,P,O,2013-01,x,0,USD,n,dd,dd of=f bs=1M,sequential write,1,MB/s,"]);
        let e = format!("{:#}", records_from_figures(&zero_price).unwrap_err());
        assert!(e.contains("price_per_gb_month `0`"), "{e}");

        let disagree = csv(&[
            "s,P,O,2013-01,x,0.1,USD,n,fio,fio rw=read bs=4k iodepth=1,read IOPS,1,IOPS,",
            "s,P,O,2013-01,x,0.2,USD,n,fio,fio rw=read bs=4k iodepth=1,read bandwidth,1,KB/s,",
        ]);
        let e = format!("{:#}", records_from_figures(&disagree).unwrap_err());
        assert!(e.contains("line 3") && e.contains("differ"), "{e}");

        let twice = csv(&[
            "s,P,O,2013-01,x,,,n,fio,fio rw=read bs=4k iodepth=1,read IOPS,1,IOPS,",
            "s,P,O,2013-01,x,,,n,fio,fio rw=read bs=4k iodepth=1,read IOPS,2,IOPS,",
        ]);
        assert!(records_from_figures(&twice).is_err());
        assert!(records_from_figures(HEADER).is_err());
    }

    #[test]
    fn setup_facts_are_whole_words_only() {
        assert!(contains_words("ext4 on /", "ext4"));
        assert!(!contains_words("xfsprogs", "xfs"));
        let f = setup_facts("160 GB instance storage; test ran on / (/dev/sda1, 15 GB)").unwrap();
        assert_eq!(
            f,
            SetupFacts {
                device: Some("/dev/sda1".into()),
                ..SetupFacts::default()
            }
        );
        assert!(setup_facts("xfs or ext4").is_err());
    }

    #[test]
    fn cpu_percent_reads_the_number_after_at() {
        assert_eq!(
            cpu_percent("published as ~52 MB/s at 6% CPU").unwrap(),
            Some("6")
        );
        assert_eq!(cpu_percent("no cpu here").unwrap(), None);
        assert!(cpu_percent("100% CPU").is_err());
        assert!(cpu_percent("at …5% CPU").is_err());
        assert_eq!(cpu_percent("at 1.5% CPU").unwrap(), Some("1.5"));
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC*") {
            let _ = records_from_figures(&text);
        }

        #[test]
        fn arbitrary_fields_never_panic(
            fields in proptest::collection::vec("[ -~é…%]{0,12}", 14),
            tool in proptest::sample::select(vec!["dd", "fio", "ioping", "bonnie++"]),
        ) {
            let mut fields = fields;
            fields[9] = format!("{tool} {}", fields[9]);
            fields[8] = tool.to_string();
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(HEADER.trim().split(',')).unwrap();
            w.write_record(&fields).unwrap();
            let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
            let _ = records_from_figures(&text);
        }
    }
}
