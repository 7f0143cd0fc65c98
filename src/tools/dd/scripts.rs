//! Benchmark scripts that run dd and print its results in their own
//! layout: bench.sh, nench, iobench and yabs's dd tests. What dd command each
//! ran comes from the script's source, so each run gets the test id and
//! parameters of that command, a direction the layout proves, and
//! `runner` (the script) and `run` (its position in the file, 1 for the first).
//!
//! - bench.sh (github.com/teddysun/across, `bench.sh`): `I/O Speed(1st
//!   run) : 1.2 GB/s`, three runs, each dd's own rounded rate (SI units).
//!   Up to v2021 it ran `dd if=/dev/zero of=test_$$ bs=64k count=16k
//!   conv=fdatasync` and printed `Average I/O speed`; from v2022-01-01
//!   `bs=512k count=2048` and `I/O Speed(average)`. The average line tells
//!   the two apart; without it the output is refused rather than guessed.
//!   Its ancestor, freevps.us's bench.sh, and copies of it (such as
//!   github.com/bladeswords/benchmark, `bench.sh`) print one run, `I/O
//!   speed :  31.4 MB/s`, from the same `bs=64k count=16k conv=fdatasync`.
//!   The average is not a record: bench.sh adds `GB/s` figures as 1024
//!   `MB/s`, so it is not dd's figure.
//! - nench (github.com/n-st/nench, `nench.sh`): `dd: sequential write
//!   speed` then `1st run:    894.55 MiB/s` ... from `dd if=/dev/zero
//!   of=test_$$ bs=64k count=16k conv=fdatasync` (every version); nench
//!   turns dd's rounded rate into MiB/s. Its ioping lines are not read here.
//! - iobench (github.com/perryflynn/iobench, `iobench.sh`): numbered
//!   headings (`1. Write benchmark without cache`, `3. Read benchmark with
//!   dropped cache`, `4. Read benchmark without cache drop`) over dd's own
//!   summary lines, `bs=1M count=<Testfile size>`. The heading proves the
//!   direction; the reads without a cache drop measure the page cache
//!   (`dd-read-1m-cached`, parameter `cache: warm`: shown, never judged).
//! - yabs (github.com/masonr/yet-another-bench-script, `yabs.sh`): before
//!   fio (v2020-01-08) and as its fallback since, `dd Sequential Disk Speed
//!   Tests` with a `Write` and a `Read` row of three tests and their
//!   average. The rows prove the direction: `dd if=/dev/zero of=F bs=64k
//!   count=16k oflag=direct` writes, `dd if=F of=/dev/null bs=8k` reads, each
//!   cell dd's own rounded rate. The average is not a record.

use anyhow::{bail, Result};
use serde_json::Value;

use super::{apply_command, command_line, summary, Parsed, SummaryLine};
use crate::record::Metric;
use crate::units::{self, Prefixes, Unit};

/// Which script printed `text`, if one of the known ones did.
pub(super) fn recognised(text: &str) -> Option<Script> {
    let lines = || text.lines().map(str::trim);
    if lines().any(|l| l.starts_with("dd: sequential write speed")) && text.contains("nench") {
        return Some(Script::Nench);
    }
    if lines().any(|l| bench_sh_run(l).is_some()) {
        return Some(Script::BenchSh);
    }
    if lines().any(|l| l.starts_with("dd Sequential Disk Speed Tests")) {
        return Some(Script::YabsDd);
    }
    if lines().any(|l| l.starts_with("Testfile size:"))
        && lines().any(|l| iobench_heading(l).is_some())
    {
        return Some(Script::Iobench);
    }
    None
}

/// A benchmark script whose layout is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Script {
    BenchSh,
    Nench,
    Iobench,
    YabsDd,
}

/// Parses a script's dd runs, one result per run in the order printed.
pub(super) fn parse(script: Script, text: &str) -> Result<Vec<Parsed>> {
    let mut results = match script {
        Script::BenchSh => bench_sh(text)?,
        Script::Nench => nench(text)?,
        Script::Iobench => iobench(text)?,
        Script::YabsDd => yabs_dd(text)?,
    };
    if results.is_empty() {
        bail!("{} output holds no dd run", script.name());
    }
    // the run's position in the file (1 for the first), also when the
    // file holds several reports
    for (k, r) in results.iter_mut().enumerate() {
        r.parameters
            .insert("run_in_file".into(), Value::from(k + 1));
    }
    Ok(results)
}

impl Script {
    fn name(self) -> &'static str {
        match self {
            Script::BenchSh => "bench.sh",
            Script::Nench => "nench",
            Script::Iobench => "iobench",
            Script::YabsDd => "yabs",
        }
    }
}

/// `1st`, `2nd`, `3rd`, `4th` ... as a number.
fn ordinal(word: &str) -> Option<u32> {
    let digits = word.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = word.get(digits.len()..)?;
    ["st", "nd", "rd", "th"]
        .contains(&suffix)
        .then(|| digits.parse().ok())
        .flatten()
}

/// A result with the command's id and parameters and the script.
fn scripted(command: &str, runner: Script) -> Parsed {
    let mut parsed = Parsed::default();
    if let Some(cmd) = command_line(command) {
        apply_command(&mut parsed, cmd);
    }
    parsed
        .parameters
        .insert("runner".into(), Value::from(runner.name()));
    parsed
}

/// One run a script printed as a rate: the command's result with the
/// script's version, `metric` in bytes per second, and the line as its part.
fn rate_run(
    command: &str,
    runner: Script,
    version: Option<&str>,
    metric: &str,
    rate: f64,
    line: &str,
) -> Parsed {
    let mut parsed = scripted(command, runner);
    if let Some(v) = version {
        parsed
            .parameters
            .insert("runner_version".into(), Value::from(v));
    }
    parsed
        .metrics
        .insert(metric.into(), Metric::new(rate, Unit::BytesPerSec));
    parsed.part = Some(format!("{}\n", line.trim_end()));
    parsed
}

// ---------------------------------------------------------------- bench.sh

/// `I/O Speed(1st run) : 1.2 GB/s` (also `I/O speed(...)`), or the one
/// run of the older freevps.us bench.sh and its copies, `I/O speed :  31.4
/// MB/s`: the run and the rate as printed.
fn bench_sh_run(line: &str) -> Option<(u32, &str)> {
    if let Some(value) = line
        .strip_prefix("I/O speed")
        .and_then(|rest| rest.trim_start().strip_prefix(':'))
    {
        return Some((1, value.trim()));
    }
    let rest = line
        .strip_prefix("I/O Speed(")
        .or_else(|| line.strip_prefix("I/O speed("))?;
    let (label, value) = rest.split_once(')')?;
    let run = ordinal(label.strip_suffix(" run")?)?;
    let value = value.trim_start().strip_prefix(':')?.trim();
    Some((run, value))
}

/// dd's rounded rate as bench.sh passes it on: `1.2 GB/s`, `899 MB/s`,
/// `12.4 MB/s`, `956 kB/s`, in SI units as dd prints them.
fn si_rate(text: &str) -> Option<f64> {
    let (number, unit) = text.split_once(' ')?;
    let value: f64 = number.parse().ok()?;
    let rate = units::bytes_per_sec(value, unit, Prefixes::Si)?;
    (rate.is_finite() && rate >= 0.0).then_some(rate)
}

fn bench_sh(text: &str) -> Result<Vec<Parsed>> {
    let trimmed = || text.lines().map(str::trim);
    let new_layout = trimmed().any(|l| l.starts_with("I/O Speed(average)"));
    // every layout spelling `I/O speed` ran bs=64k count=16k
    let old_layout = trimmed().any(|l| l.starts_with("Average I/O speed"))
        || trimmed().any(|l| l.starts_with("I/O speed"));
    let command = if new_layout {
        "dd if=/dev/zero of=benchtest_$$ bs=512k count=2048 conv=fdatasync"
    } else if old_layout {
        "dd if=/dev/zero of=test_$$ bs=64k count=16k conv=fdatasync"
    } else {
        bail!(
            "bench.sh output without its average line: bench.sh ran dd with bs=64k \
             count=16k up to 2021 (`Average I/O speed`) and bs=512k count=2048 from \
             v2022-01-01 (`I/O Speed(average)`); paste the I/O block with its average line"
        );
    };
    let version = trimmed()
        .filter_map(|l| l.strip_prefix("Version"))
        .find_map(|rest| rest.trim_start().strip_prefix(':'))
        .map(|v| v.trim().to_string());
    let mut results = Vec::new();
    for line in text.lines() {
        let Some((run, value)) = bench_sh_run(line.trim()) else {
            continue;
        };
        let Some(rate) = si_rate(value) else {
            bail!(
                "bench.sh output: run {run}'s I/O speed is `{}`: expected dd's rate such \
                 as `1.2 GB/s` or `899 MB/s`",
                crate::term::shown(value)
            );
        };
        results.push(rate_run(
            command,
            Script::BenchSh,
            version.as_deref(),
            "write_bw",
            rate,
            line,
        ));
    }
    Ok(results)
}

// ------------------------------------------------------------------- nench

fn nench(text: &str) -> Result<Vec<Parsed>> {
    const COMMAND: &str = "dd if=/dev/zero of=test_$$ bs=64k count=16k conv=fdatasync";
    let version = text.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("nench.sh v")?;
        Some(format!("v{}", rest.split_whitespace().next()?))
    });
    let mut results = Vec::new();
    let mut in_dd = false;
    // ` benchmark timestamp:    2021-06-15 15:25:52 UTC`
    let mut stamp = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(at) = t.strip_prefix("benchmark timestamp:") {
            stamp = crate::tools::date::line(at);
            continue;
        }
        if t.starts_with("dd: sequential write speed") {
            in_dd = true;
            continue;
        }
        if !in_dd {
            continue;
        }
        let Some((label, value)) = t.split_once(':') else {
            // a blank line or the next block ends the dd block
            in_dd = false;
            continue;
        };
        let Some(run) = label.strip_suffix(" run").and_then(ordinal) else {
            // `average:` is computed by nench from the runs: not a record
            continue;
        };
        let value = value.trim();
        let rate = value
            .strip_suffix(" MiB/s")
            .and_then(|n| n.parse::<f64>().ok())
            .filter(|v| v.is_finite() && *v >= 0.0);
        let Some(rate) = rate else {
            bail!(
                "nench output: the dd {run} run is `{}`: expected a rate such as `894.55 MiB/s` \
                 (nench prints `error` when dd failed)",
                crate::term::shown(value)
            );
        };
        let mut parsed = rate_run(
            COMMAND,
            Script::Nench,
            version.as_deref(),
            "write_bw",
            rate * 1024.0 * 1024.0,
            line,
        );
        parsed.date = stamp.clone();
        results.push(parsed);
    }
    Ok(results)
}

// ----------------------------------------------------------------- iobench

/// What an iobench heading says its dd runs measure.
#[derive(Clone, Copy, Debug, PartialEq)]
enum IobenchTest {
    /// `1. Write benchmark without cache`: `conv=fdatasync,notrunc`.
    SyncedWrite,
    /// `2. Write benchmark with cache`.
    Write,
    /// `3. Read benchmark with dropped cache`.
    ColdRead,
    /// `4. Read benchmark without cache drop`: five reads from memory.
    WarmRead,
}

fn iobench_heading(line: &str) -> Option<IobenchTest> {
    let (number, rest) = line.split_once(". ")?;
    number.parse::<u32>().ok()?;
    Some(match rest.trim() {
        "Write benchmark without cache" => IobenchTest::SyncedWrite,
        "Write benchmark with cache" => IobenchTest::Write,
        "Read benchmark without cache drop" => IobenchTest::WarmRead,
        r if r.starts_with("Read benchmark with dro") => IobenchTest::ColdRead,
        _ => return None,
    })
}

fn iobench(text: &str) -> Result<Vec<Parsed>> {
    let Some(count) = text.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("Testfile size:")?;
        rest.trim()
            .strip_suffix(" x 1 Megabyte")?
            .trim()
            .parse::<u64>()
            .ok()
    }) else {
        bail!("iobench output: expected `Testfile size: N x 1 Megabyte` above the runs");
    };
    let mut results = Vec::new();
    let mut test: Option<IobenchTest> = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(h) = iobench_heading(t) {
            test = Some(h);
            continue;
        }
        let s = match summary(t) {
            SummaryLine::Yes(s) => s,
            SummaryLine::No => continue,
            SummaryLine::Foreign => bail!(super::locale_error(t)),
            SummaryLine::Bad(e) => return Err(anyhow::Error::new(e).context("iobench output")),
        };
        let Some(test) = test else {
            bail!("iobench output: a dd summary above every numbered heading (`{t}`)");
        };
        let command = match test {
            IobenchTest::SyncedWrite => {
                format!("dd if=/dev/zero of=$TEMPF bs=1M count={count} conv=fdatasync,notrunc")
            }
            IobenchTest::Write => format!("dd if=/dev/zero of=$TEMPF bs=1M count={count}"),
            IobenchTest::ColdRead | IobenchTest::WarmRead => {
                format!("dd if=$TEMPF of=/dev/null bs=1M count={count}")
            }
        };
        let mut parsed = scripted(&command, Script::Iobench);
        match test {
            IobenchTest::ColdRead => {
                parsed
                    .parameters
                    .insert("cache".into(), Value::from("dropped"));
            }
            IobenchTest::WarmRead => {
                parsed
                    .parameters
                    .insert("cache".into(), Value::from("warm"));
                parsed.test_id = parsed.test_id.map(|id| format!("{id}-cached"));
            }
            _ => {}
        }
        let metric = match test {
            IobenchTest::SyncedWrite | IobenchTest::Write => "write_bw",
            IobenchTest::ColdRead | IobenchTest::WarmRead => "read_bw",
        };
        let m = &mut parsed.metrics;
        m.insert("bytes".into(), Metric::new(s.bytes as f64, Unit::Bytes));
        if s.seconds > 0.0 && !s.infinite_rate && s.bytes > 0 {
            m.insert("elapsed".into(), Metric::new(s.seconds, Unit::Seconds));
            m.insert(
                metric.into(),
                Metric::new(s.bytes as f64 / s.seconds, Unit::BytesPerSec),
            );
        }
        parsed.part = Some(format!("{}\n", line.trim_end()));
        results.push(parsed);
    }
    Ok(results)
}

// -------------------------------------------------------------------- yabs

fn yabs_dd(text: &str) -> Result<Vec<Parsed>> {
    const WRITE: &str = "dd if=/dev/zero of=$DISK_PATH/$DATE.test bs=64k count=16k oflag=direct";
    const READ: &str = "dd if=$DISK_PATH/$DATE.test of=/dev/null bs=8k";
    // `#                     v2020-01-08                    #`
    let version = crate::tools::fio::yabs_version(text);
    let mut results = Vec::new();
    let mut in_dd = false;
    // the `date` yabs prints under its header box
    let mut stamp = None;
    for line in text.lines() {
        let t = line.trim();
        if !in_dd {
            if let Some(d) = crate::tools::date::line(t) {
                stamp = Some(d);
                continue;
            }
        }
        if t.starts_with("dd Sequential Disk Speed Tests") {
            in_dd = true;
            continue;
        }
        if !in_dd {
            continue;
        }
        let cells: Vec<&str> = t.split('|').map(str::trim).collect();
        let (command, metric) = match cells.first() {
            Some(&"Write") => (WRITE, "write_bw"),
            Some(&"Read") => (READ, "read_bw"),
            // the header rows; an empty line ends the block
            _ if t.is_empty() => break,
            _ => continue,
        };
        // Test 1, Test 2, Test 3; the last cell is yabs's average
        let tests = cells.get(1..cells.len().saturating_sub(1)).unwrap_or(&[]);
        for (k, cell) in tests.iter().enumerate() {
            let Some(rate) = si_rate(cell) else {
                bail!(
                    "yabs output: the dd {} test {} is `{}`: expected dd's rate such as \
                     `291 MB/s`",
                    cells.first().copied().unwrap_or_default(),
                    k + 1,
                    crate::term::shown(*cell)
                );
            };
            let mut parsed = rate_run(command, Script::YabsDd, version, metric, rate, line);
            parsed.date = stamp.clone();
            results.push(parsed);
        }
    }
    Ok(results)
}
