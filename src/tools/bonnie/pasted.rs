//! A bonnie++ command line pasted above its output, read into the
//! parameters and test id it states.

use std::collections::BTreeMap;

use anyhow::{bail, Result};
use serde_json::Value;

use super::{size_bytes, test_id, whole};
use crate::tools::argv::split_command;
use crate::tools::Parsed;

/// The bonnie++ command line pasted above the CSV lines, with what the
/// text around them says about the run they belong to.
#[derive(Default, Clone)]
pub(super) struct PastedCommand {
    /// The bonnie++ command line pasted above the output.
    pub(super) command: Option<String>,
    /// The version from the text table's `Version 1.03` line.
    pub(super) table_version: Option<String>,
}

/// The command if `line` is a pasted bonnie++ command line: the text from
/// the `bonnie++` word on (a prompt or `sudo` before it is dropped).
pub(super) fn command_line(line: &str) -> Option<&str> {
    for word in line.split_whitespace().take(4) {
        let base = word.rsplit('/').next().unwrap_or(word);
        if base == "bonnie++" {
            let start = (word.as_ptr() as usize).checked_sub(line.as_ptr() as usize)?;
            return line.get(start..).map(str::trim_end);
        }
    }
    None
}

/// Reads one bonnie++ command line (`bonnie++ -d /mnt -s 16g -n 256 -b`,
/// also after a prompt or `sudo`) into the test id `bonnie`, the parameters
/// [`parse`] takes from a pasted command line (without a CSV line to
/// prefer) and the command, with no metrics.
///
/// Fails when the line runs no bonnie++.
pub fn read_command(line: &str) -> Result<Parsed> {
    let Some(cmd) = command_line(line.trim()) else {
        bail!("`{line}`: expected a bonnie++ command line such as `bonnie++ -d /mnt -s 16g`");
    };
    let mut parsed = Parsed {
        test_id: Some(test_id().to_string()),
        command: Some(cmd.to_string()),
        ..Parsed::default()
    };
    command_parameters(cmd, &mut parsed.parameters);
    Ok(parsed)
}

/// The file size of `-s SIZE[:CHUNK]` in bytes: bonnie++ reads a bare
/// number as MiB (`-s 3400`) and takes `k`, `m`, `g`, `t` suffixes (`16g`).
fn command_file_size(arg: &str) -> Option<u64> {
    let size = arg.split(':').next()?;
    match whole(size) {
        Some(mib) => mib.checked_mul(1 << 20),
        None => size_bytes(size, true),
    }
}

/// The chunk size of `-s SIZE:CHUNK` on a bonnie++ command line, in bytes.
pub(super) fn command_chunk_size(cmd: &str) -> Option<u64> {
    let s = option_value(cmd, 's')?;
    let (_, chunk) = s.split_once(':')?;
    size_bytes(chunk, false)
}

/// The arguments of a command line, as a shell splits them (see
/// [`split_command`]; a line whose quotes do not close is split on
/// whitespace), without the program.
fn arguments(cmd: &str) -> Vec<String> {
    let mut words =
        split_command(cmd).unwrap_or_else(|| cmd.split_whitespace().map(str::to_string).collect());
    if !words.is_empty() {
        words.remove(0);
    }
    words
}

/// The value of single-letter option `-x` (`-x VALUE` or `-xVALUE`).
fn option_value(cmd: &str, letter: char) -> Option<String> {
    let mut words = arguments(cmd).into_iter();
    while let Some(w) = words.next() {
        let Some(rest) = w.strip_prefix('-') else {
            continue;
        };
        let mut chars = rest.chars();
        if chars.next() == Some(letter) {
            let attached = chars.as_str();
            return if attached.is_empty() {
                words.next()
            } else {
                Some(attached.to_string())
            };
        }
    }
    None
}

/// Whether single-letter flag `-x` is on the command line (alone or with a value).
fn has_flag(cmd: &str, letter: char) -> bool {
    arguments(cmd)
        .iter()
        .any(|w| w.strip_prefix('-').and_then(|r| r.chars().next()) == Some(letter))
}

/// Parameters the command line states: `directory` (`-d`), `ram_size`
/// (`-r`, MiB on the command line, bytes here), `iterations` (`-x`),
/// `skip_char_tests` (`-f`), `fsync_each_write` (`-b`), `direct_io` (`-D`);
/// and, only where `params` (from a CSV line) lacks them, `file_size` and
/// `chunk_size` (`-s SIZE[:CHUNK]`, see [`command_file_size`]) and, for a
/// plain `-n N`, `num_files` (`N` as written) and `file_count` (`N` × 1024).
/// The CSV wins because it is what bonnie++ ran with.
pub(super) fn command_parameters(cmd: &str, params: &mut BTreeMap<String, Value>) {
    let sizes = option_value(cmd, 's');
    let mut fill = |key: &str, value: Option<u64>| {
        if let Some(v) = value {
            params.entry(key.to_string()).or_insert(Value::from(v));
        }
    };
    fill("file_size", sizes.as_deref().and_then(command_file_size));
    fill("chunk_size", command_chunk_size(cmd));
    if let Some(n) = option_value(cmd, 'n').filter(|n| whole(n).is_some()) {
        if !params.contains_key("num_files") {
            let count = whole(&n).and_then(|n| n.checked_mul(1024));
            params.insert("num_files".into(), Value::from(n));
            if let Some(count) = count {
                params.insert("file_count".into(), Value::from(count));
            }
        }
    }
    if let Some(d) = option_value(cmd, 'd') {
        params.insert("directory".into(), Value::from(d));
    }
    if let Some(mib) = option_value(cmd, 'r').and_then(|r| r.parse::<u64>().ok()) {
        if let Some(bytes) = mib.checked_mul(1024 * 1024) {
            params.insert("ram_size".into(), Value::from(bytes));
        }
    }
    if let Some(x) = option_value(cmd, 'x').and_then(|x| x.parse::<u64>().ok()) {
        params.insert("iterations".into(), Value::from(x));
    }
    for (letter, key) in [
        ('f', "skip_char_tests"),
        ('b', "fsync_each_write"),
        ('D', "direct_io"),
    ] {
        if has_flag(cmd, letter) {
            params.insert(key.into(), Value::from(true));
        }
    }
}
