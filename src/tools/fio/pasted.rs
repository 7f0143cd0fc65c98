//! A fio command line or job file pasted above the output.

use anyhow::{bail, Result};

use super::options::{CommandOptions, TestOptions};
use super::text::{job_header, job_result_start};
use crate::tools::argv::split_command;
use crate::tools::Parsed;

/// Options found above the output: a pasted command line and job file text.
#[derive(Clone, Debug, Default)]
pub(super) struct PastedCommand {
    pub(super) command: Option<String>,
    pub(super) options: CommandOptions,
}

/// Finds a pasted fio command line and job file text above the output.
pub(super) fn preamble(text: &str) -> PastedCommand {
    let mut pre = PastedCommand::default();
    let mut section: Option<String> = None;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('{') || job_header(line).is_some() || job_result_start(t).is_some() {
            break;
        }
        if pre.command.is_none() {
            if let Some((cmd, args)) = command_line(t) {
                pre.options.add_args(&args);
                pre.command = Some(cmd);
                section = None;
                continue;
            }
        }
        if t.is_empty() || t.starts_with(';') || t.starts_with('#') {
            continue;
        }
        if let Some(name) = t.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            section = Some(name.trim().to_string());
            continue;
        }
        let Some(sec) = section.as_deref() else {
            continue;
        };
        let (k, v) = t.split_once('=').unwrap_or((t, ""));
        let k = k.trim();
        if k.is_empty() || !k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            section = None;
            continue;
        }
        pre.options.add_line(sec, k, v);
    }
    pre
}

/// Reads one fio command line (`fio --rw=randread --bs=4k --iodepth=64
/// --name=job`, also after a prompt or `sudo`) into its test id (see
/// [`test_id`]), parameters and command, with no metrics: the same reading
/// [`parse`] gives a command line pasted above fio's output. Options before
/// the first `--name` hold for every job; a job file named on the line is
/// not read, so only the options on the line count.
///
/// Fails when the line runs no fio, when it names more than one job (which
/// would be several tests), or when its options state no `rw` and fixed
/// `bs` (so no test id can be given).
pub fn read_command(line: &str) -> Result<Parsed> {
    let Some((command, args)) = command_line(line.trim()) else {
        bail!("`{line}`: expected a fio command line such as `fio --rw=randread --bs=4k`");
    };
    let test = TestOptions::from_args(&args).or_else(|jobs| {
        bail!("`{line}`: expected options for one job, found {jobs} `--name` jobs")
    })?;
    let (parameters, test_id) = test.settings(1);
    if test_id.is_none() {
        bail!("`{line}`: expected `--rw=` and a fixed `--bs=` to name the test");
    }
    Ok(Parsed {
        parameters,
        test_id,
        command: Some(command),
        ..Parsed::default()
    })
}

/// A line that runs fio (`fio ...`, `./fio job.ini`, `$ sudo fio ...`):
/// the command from `fio` on, and its arguments as a shell splits them
/// (`--filename="/mnt/my disk/f"` is one argument). The prompt and `sudo`
/// before `fio` are plain words; a line whose quotes do not close is split
/// on whitespace.
pub(super) fn command_line(t: &str) -> Option<(String, Vec<String>)> {
    let mut rest = t.trim_start();
    loop {
        let word = rest.split_whitespace().next()?;
        if word.rsplit('/').next() == Some("fio") {
            break;
        }
        let prompt =
            matches!(word, "$" | "#" | ">" | "sudo") || word.ends_with('$') || word.ends_with('#');
        if !prompt {
            return None;
        }
        rest = rest.get(word.len()..)?.trim_start();
    }
    let words = split_command(rest)
        .unwrap_or_else(|| rest.split_whitespace().map(str::to_string).collect());
    let args: Vec<String> = words.into_iter().skip(1).collect();
    if args.is_empty() || args.iter().any(|a| a == "--version" || a == "-v") {
        return None;
    }
    Some((rest.to_string(), args))
}

/// The publication's notation for fio, `fio [JOBFILE:] key=value ...` (the
/// job file's name and the options it holds), as the fio command line with
/// the same options, `fio --key=value ...`, which fio's reader takes. The
/// job file's name is dropped: the record keeps the published command
/// verbatim. Any other text is returned unchanged.
pub(super) fn published_command_line(command: &str) -> String {
    let mut words = command.split_whitespace().peekable();
    let Some(program) = words.next() else {
        return command.to_string();
    };
    words.next_if(|w| w.ends_with(':') && !w.contains('='));
    let options: Vec<&str> = words.collect();
    let notation = !options.is_empty()
        && options
            .iter()
            .all(|o| o.contains('=') && !o.starts_with('-'));
    if !notation {
        return command.to_string();
    }
    let mut line = program.to_string();
    for option in options {
        line.push_str(" --");
        line.push_str(option);
    }
    line
}
