//! Records transcribed from published benchmark figures
//! (`sample-results/published/figures.csv`): one record per test execution
//! a post reported, every printed number kept as it was printed.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use serde_json::Value;

use crate::record::{
    self, Host, Metric, Price, PublishedFigure, Record, Source, Status, Subject, Target, TestInfo,
    Tool,
};
use crate::units::{self, Prefixes, Unit};

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
    let offering = record.subject.offering.as_deref().unwrap_or("unknown");
    PathBuf::from(record::slug(record.study()))
        .join(record::slug(offering))
        .join(format!("{}.json", record.id))
}

/// The record as written to disk: pretty-printed JSON with a trailing newline.
pub fn to_json(record: &Record) -> Result<String> {
    let mut text = serde_json::to_string_pretty(record)
        .with_context(|| format!("failed to serialise record `{}`", record.id))?;
    text.push('\n');
    Ok(text)
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
    let command = parse_command(tool, &r.command).with_context(|| at(first.line))?;

    let mut metrics = BTreeMap::new();
    let mut figures = Vec::new();
    for located in group {
        let row = &located.row;
        let mapped = map_figure(tool, &command.test_id, row).with_context(|| at(located.line))?;
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
        command.test_id
    );
    if !record::is_valid_id(&id) {
        bail!("{}: `{id}` is not a valid record id", at(first.line));
    }
    Ok(Record {
        schema: record::SCHEMA.to_string(),
        id,
        source: Source::Transcribed {
            publication,
            url: None,
            measured: non_empty(&r.date),
            figures,
        },
        subject: Subject {
            study: Some(r.study.clone()),
            provider: Some(r.provider.clone()),
            offering: Some(r.offering.clone()),
            region: facts.region,
            size_gb: facts.size_gb,
            price,
            labels,
        },
        host: Host {
            cpu_model: facts.cpu_model,
            cpu_count: facts.cpu_count,
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
        test: TestInfo {
            id: command.test_id,
            tool,
            tool_version: None,
            parameters: command.parameters,
            command: Some(r.command.clone()),
        },
        run_id: Some(r.study.clone()),
        repetition: 1,
        started_at: None,
        duration_s: None,
        status: Status::Ok,
        error: None,
        metrics,
        raw: None,
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
    device: Option<String>,
    region: Option<String>,
}

enum Fact {
    FsType(&'static str),
    MountOptions(&'static str),
    SizeGb(f64),
    CpuModel(&'static str),
    CpuCount(u32),
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

/// A published command line, understood.
struct Command {
    test_id: String,
    parameters: BTreeMap<String, Value>,
}

/// The stable test id (DESIGN.md) for a published command line of `tool`.
///
/// - dd: `bs=1M` with `conv=fdatasync` is `dd-write-bulk`; otherwise
///   `dd-write-<bs>` plus `-fdatasync` (`conv=fdatasync`) or `-dsync`
///   (`oflag=dsync`), bs lowercased: `bs=8k count=16k oflag=dsync` is
///   `dd-write-8k-dsync`, `bs=1M count=20k` is `dd-write-1m`.
/// - fio: `fio-<rw>-<bs>-qd<iodepth>`, plus `-j<N>` when numjobs is above 1:
///   `rw=randread bs=4k iodepth=64` is `fio-randread-4k-qd64`.
/// - ioping: `-R` is `ioping-seek`, `-RL` `ioping-seq`, `-RLC`
///   `ioping-seq-cached`, none of these (`-c 5`) `ioping-latency`.
/// - bonnie++: always `bonnie`.
///
/// Fails on a command it cannot read or whose options name no test id
/// (another sync flag for dd, `-L` without `-R` for ioping, ...).
pub fn test_id_for(tool: Tool, command: &str) -> Result<String> {
    Ok(parse_command(tool, command)?.test_id)
}

fn parse_command(tool: Tool, command: &str) -> Result<Command> {
    let mut words = command.split_whitespace();
    let program = words.next().unwrap_or("");
    let program = program.rsplit('/').next().unwrap_or(program);
    if program != tool.name() {
        bail!(
            "command `{command}`: expected it to start with `{}`",
            tool.name()
        );
    }
    let args: Vec<&str> = words.collect();
    let parsed = match tool {
        Tool::Dd => dd_command(&args),
        Tool::Fio => fio_command(&args),
        Tool::Ioping => ioping_command(&args),
        Tool::Bonnie => bonnie_command(&args),
    };
    parsed.with_context(|| format!("command `{command}`"))
}

/// A parameter value: a JSON number when the text is a plain integer, the
/// text otherwise (`128k`, `1024MB` keep their suffixes as printed).
fn param_value(text: &str) -> Value {
    match text.parse::<u64>() {
        Ok(n) => Value::from(n),
        Err(_) => Value::from(text),
    }
}

fn key_values<'a>(args: &[&'a str]) -> Result<BTreeMap<&'a str, &'a str>> {
    let mut map = BTreeMap::new();
    for arg in args {
        let Some((k, v)) = arg.split_once('=') else {
            bail!("`{arg}`: expected KEY=VALUE");
        };
        if map.insert(k, v).is_some() {
            bail!("`{k}` given twice");
        }
    }
    Ok(map)
}

fn dd_command(args: &[&str]) -> Result<Command> {
    let kv = key_values(args)?;
    let Some(bs) = kv.get("bs") else {
        bail!("expected a bs= operand");
    };
    let mut sync = None;
    for (operand, flag) in [("conv", "fdatasync"), ("oflag", "dsync")] {
        for item in kv.get(operand).map_or("", |v| v).split(',') {
            if item == flag {
                if sync.replace(flag).is_some() {
                    bail!("expected one of conv=fdatasync and oflag=dsync, not both");
                }
            } else if matches!(
                item,
                "fsync" | "sync" | "direct" | "nocache" | "fdatasync" | "dsync"
            ) {
                bail!("{operand}={item} names no test id (expected conv=fdatasync or oflag=dsync)");
            }
        }
    }
    let bs = bs.to_ascii_lowercase();
    let test_id = match sync {
        Some("fdatasync") if bs == "1m" => "dd-write-bulk".to_string(),
        Some(s) => format!("dd-write-{}-{s}", record::slug(&bs)),
        None => format!("dd-write-{}", record::slug(&bs)),
    };
    let parameters = kv
        .iter()
        .map(|(k, v)| (k.to_string(), param_value(v)))
        .collect();
    Ok(Command {
        test_id,
        parameters,
    })
}

fn fio_command(args: &[&str]) -> Result<Command> {
    let mut parameters = BTreeMap::new();
    let mut rest = args;
    // a job file named before the options the post quotes from it
    if let Some((file, tail)) = args.split_first() {
        if !file.contains('=') {
            let file = file.trim_end_matches(':');
            parameters.insert("job_file".to_string(), Value::from(file));
            rest = tail;
        }
    }
    let kv = key_values(rest)?;
    let get = |key: &str| {
        kv.get(key)
            .copied()
            .with_context(|| format!("expected a {key}= option"))
    };
    let rw = get("rw")?;
    if !matches!(
        rw,
        "read" | "write" | "randread" | "randwrite" | "rw" | "randrw"
    ) {
        bail!("rw={rw}: expected read, write, randread, randwrite, rw or randrw");
    }
    let bs = get("bs")?.to_ascii_lowercase();
    let iodepth = get("iodepth")?;
    if iodepth.parse::<u32>().is_err() {
        bail!("iodepth={iodepth}: expected a whole number");
    }
    let mut test_id = format!("fio-{rw}-{}-qd{iodepth}", record::slug(&bs));
    if let Some(jobs) = kv.get("numjobs") {
        match jobs.parse::<u32>() {
            Ok(1) => {}
            Ok(n) => test_id.push_str(&format!("-j{n}")),
            Err(_) => bail!("numjobs={jobs}: expected a whole number"),
        }
    }
    for (k, v) in &kv {
        parameters.insert(k.to_string(), param_value(v));
    }
    Ok(Command {
        test_id,
        parameters,
    })
}

fn ioping_command(args: &[&str]) -> Result<Command> {
    let mut parameters = BTreeMap::new();
    let (mut seek, mut seq, mut cached) = (false, false, false);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let Some(flags) = arg.strip_prefix('-') else {
            parameters.insert("directory".to_string(), Value::from(*arg));
            continue;
        };
        for (i, flag) in flags.char_indices() {
            match flag {
                'R' => seek = true,
                'L' => seq = true,
                'C' => cached = true,
                'c' => {
                    // `-c 5` or `-c5`
                    let attached = &flags[i + 1..];
                    let value = if attached.is_empty() {
                        it.next().copied().context("-c: expected a count")?
                    } else {
                        attached
                    };
                    let count: u64 = value
                        .parse()
                        .ok()
                        .with_context(|| format!("-c {value}: expected a whole number"))?;
                    parameters.insert("count".to_string(), Value::from(count));
                    break;
                }
                _ => bail!("option -{flag}: expected -c, -R, -L or -C"),
            }
        }
    }
    for (name, on) in [("seek_rate", seek), ("sequential", seq), ("cached", cached)] {
        if on {
            parameters.insert(name.to_string(), Value::from(true));
        }
    }
    let test_id = match (seek, seq, cached) {
        (false, false, false) => "ioping-latency",
        (true, false, false) => "ioping-seek",
        (true, true, false) => "ioping-seq",
        (true, true, true) => "ioping-seq-cached",
        _ => bail!("expected -R, -RL, -RLC or none of them; these options name no test id"),
    };
    Ok(Command {
        test_id: test_id.to_string(),
        parameters,
    })
}

fn bonnie_command(args: &[&str]) -> Result<Command> {
    let mut parameters = BTreeMap::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (name, takes_value) = match *arg {
            "-s" => ("size", true),
            "-r" => ("ram", true),
            "-n" => ("files", true),
            "-u" => ("user", true),
            "-d" => ("directory", true),
            "-m" => ("machine", true),
            "-x" => ("runs", true),
            "-b" => ("no_write_buffering", false),
            "-f" => ("fast", false),
            "-q" => ("quiet", false),
            _ => bail!("option `{arg}`: expected one of -s -r -n -u -d -m -x -b -f -q"),
        };
        let value = if takes_value {
            let v = it
                .next()
                .with_context(|| format!("{arg}: expected a value"))?;
            param_value(v)
        } else {
            Value::from(true)
        };
        parameters.insert(name.to_string(), value);
    }
    Ok(Command {
        test_id: "bonnie".to_string(),
        parameters,
    })
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
             (add it to the mapping in src/transcribe.rs)"
        )
    })?;

    let value = parse_value(&row.value)?;
    let unit = row.unit.trim();
    let scaled = |multiplier: Option<f64>| multiplier.and_then(|m| scale_exactly(&row.value, m));
    let metric = match kind {
        Kind::Bandwidth(prefixes) => scaled(units::bytes_per_sec(1.0, unit, prefixes))
            .map(|v| Metric::new(v, Unit::BytesPerSec)),
        Kind::Iops => (unit == "IOPS").then(|| Metric::new(value, Unit::Iops)),
        Kind::OpsPerSec => {
            matches!(unit, "/sec" | "/s" | "files/sec").then(|| Metric::new(value, Unit::OpsPerSec))
        }
        Kind::Latency => {
            scaled(units::seconds_multiplier(unit)).map(|v| Metric::new(v, Unit::Seconds))
        }
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

/// `text` (a published decimal) times `multiplier`, rounded once: a power
/// of ten shifts the decimal point before parsing, so `388.4` us becomes the
/// double nearest 0.0003884 s rather than 388.4 * 1e-6 with its second
/// rounding; a power of two (1024-based units) multiplies exactly.
fn scale_exactly(text: &str, multiplier: f64) -> Option<f64> {
    let value = parse_value(text).ok()?;
    let power_of_two = multiplier.is_normal()
        && multiplier > 0.0
        && multiplier.to_bits() & ((1u64 << 52) - 1) == 0;
    if power_of_two {
        return Some(value * multiplier);
    }
    let power = (-12..=18).find(|k| format!("1e{k}").parse::<f64>() == Ok(multiplier))?;
    format!("{}e{power}", text.trim()).parse().ok()
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
    fn dd_ids_follow_the_published_rules() {
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
        let e = test_id_for(Tool::Dd, "dd if=/dev/zero of=f bs=8k oflag=direct").unwrap_err();
        assert!(format!("{e:#}").contains("oflag=direct"), "{e:#}");
        assert!(test_id_for(Tool::Dd, "dd if=/dev/zero of=f").is_err());
        let both = "dd of=f bs=8k conv=fdatasync oflag=dsync";
        assert!(format!("{:#}", test_id_for(Tool::Dd, both).unwrap_err()).contains("not both"));
        assert!(test_id_for(Tool::Dd, "fio bs=1M").is_err());
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
        assert!(test_id_for(Tool::Fio, "fio job.ini: rw=randread bs=4k").is_err());
        let io = |c: &str| test_id_for(Tool::Ioping, c).unwrap();
        assert_eq!(io("ioping -c 5"), "ioping-latency");
        assert_eq!(io("ioping -R"), "ioping-seek");
        assert_eq!(io("ioping -RL /mnt"), "ioping-seq");
        assert_eq!(io("ioping -RLC"), "ioping-seq-cached");
        assert!(test_id_for(Tool::Ioping, "ioping -L").is_err());
        assert_eq!(
            test_id_for(Tool::Bonnie, "bonnie++ -u 0 -r 1700 -s 3400 -n 256 -b -d /").unwrap(),
            "bonnie"
        );
    }

    #[test]
    fn parameters_come_from_the_command() {
        let c = parse_command(
            Tool::Fio,
            "fio reads.ini: rw=randread bs=4k ioengine=libaio iodepth=64 size=1024MB",
        )
        .unwrap();
        assert_eq!(c.parameters["job_file"], Value::from("reads.ini"));
        assert_eq!(c.parameters["iodepth"], Value::from(64));
        assert_eq!(c.parameters["size"], Value::from("1024MB"));
        let c =
            parse_command(Tool::Dd, "dd if=/dev/zero of=x bs=8k count=16k oflag=dsync").unwrap();
        assert_eq!(c.parameters["bs"], Value::from("8k"));
        assert_eq!(c.parameters["count"], Value::from("16k"));
        assert_eq!(c.parameters["oflag"], Value::from("dsync"));
        let c = parse_command(Tool::Ioping, "ioping -c 5").unwrap();
        assert_eq!(c.parameters.len(), 1);
        assert_eq!(c.parameters["count"], Value::from(5));
        let c =
            parse_command(Tool::Bonnie, "bonnie++ -u 0 -r 1700 -s 3400 -n 256 -b -d /").unwrap();
        assert_eq!(c.parameters["ram"], Value::from(1700));
        assert_eq!(c.parameters["directory"], Value::from("/"));
        assert_eq!(c.parameters["no_write_buffering"], Value::from(true));
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
            r.metrics["read_bw"],
            Metric::new(1_024_000.0, Unit::BytesPerSec)
        );
        assert_eq!(r.metrics["read_iops"], Metric::new(250.0, Unit::Iops));
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
            r.metrics["seq_stat"],
            Metric::new(158584.0, Unit::OpsPerSec)
        );
        assert_eq!(r.metrics["seq_stat_cpu"], Metric::new(39.0, Unit::Percent));
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
    fn decimal_scaling_rounds_once() {
        assert_eq!(scale_exactly("388.4", 1e-6), Some(0.0003884));
        assert_ne!(388.4 * 1e-6, 0.0003884);
        assert_eq!(scale_exactly("1.6", 1e6), Some(1_600_000.0));
        assert_eq!(
            scale_exactly("4.03", 1073741824.0),
            Some(4.03 * 1073741824.0)
        );
        assert_eq!(scale_exactly("95981", 1024.0), Some(98_284_544.0));
        assert_eq!(scale_exactly("1", 3.0), None);
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
