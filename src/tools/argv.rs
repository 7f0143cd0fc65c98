//! The argv interface between the run stage and the tools: what a command
//! builder is told (`BuildCtx`, the suite's `Params`), what it returns
//! (`Invocation`), and the parameter reader and size parser builders share.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use serde_json::Value;

/// A tool's parameters as a suite gives them (and as records store them).
pub type Params = BTreeMap<String, Value>;

/// Where a tool's result text is read from.
#[derive(Clone, Debug, PartialEq)]
pub enum OutputFrom {
    /// Standard output.
    Stdout,
    /// Standard error (dd prints its summary there).
    Stderr,
    /// A file the tool writes (fio `--output`).
    File(PathBuf),
}

/// What the machine and the run tell a command builder.
#[derive(Clone, Debug)]
pub struct BuildCtx<'a> {
    /// The job's own directory inside the scratch directory.
    pub dir: &'a Path,
    /// Total memory in bytes, for sizes given as `NxRAM`.
    pub memory_bytes: Option<u64>,
    /// Whether the runner is root (bonnie++ then needs `-u root`).
    pub is_root: bool,
    /// The test id (fio's job name).
    pub test_id: &'a str,
    /// Free bytes on the target when the run was planned, for fio's
    /// `size = "auto"`; `None` when unknown.
    pub free_bytes: Option<u64>,
    /// The file a fio test reads instead of its own `fio.dat`: the one the
    /// pre-fill wrote, for the sustained tests and those with `prefilled =
    /// true`; `None` for every other test.
    pub data_file: Option<&'a Path>,
}

/// A tool's command line, ready to spawn, with what it will write.
#[derive(Clone, Debug, PartialEq)]
pub struct Invocation {
    /// Program name, looked up on `PATH`.
    pub program: String,
    /// Arguments.
    pub args: Vec<String>,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
    /// Where the parser's input comes from.
    pub output: OutputFrom,
    /// Bytes the test writes at most (for the free-space check).
    pub bytes: u64,
    /// Rough duration in seconds, for the progress display before a measurement.
    pub estimate_s: f64,
    /// The resolved parameters, as the record stores them.
    pub parameters: Params,
    /// What the tool reads on its standard input: nothing (`None`), or
    /// incompressible bytes diskdash makes as it reads them.
    pub stdin: Option<Feed>,
}

/// Incompressible bytes diskdash writes to a tool's standard input
/// (`crate::run::feed`): a xoshiro256++ stream from `seed`, `bytes` long.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Feed {
    /// How many bytes.
    pub bytes: u64,
    /// The generator's seed.
    pub seed: u64,
}

impl Feed {
    /// A seed from a path (FNV-1a of its bytes): the scratch directory
    /// names the run and the job's directory its repetition, so every run
    /// and repetition writes other bytes, while the same plan gives the
    /// same command.
    pub fn seed_for(path: &Path) -> u64 {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str()
            .as_bytes()
            .iter()
            .fold(0xcbf2_9ce4_8422_2325, |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            })
    }

    /// How the command line names the input: what made it, its seed and
    /// length, in words, since no program of its own makes it.
    pub fn display(&self) -> String {
        format!(
            "(diskdash: {} incompressible bytes, xoshiro256++ seed {:#018x})",
            self.bytes, self.seed
        )
    }
}

impl Invocation {
    /// The command line as a shell would take it, environment first; fed
    /// input comes first, in words, piped into the tool
    /// (`(diskdash: 1048576 incompressible bytes, xoshiro256++ seed
    /// 0x...) | LC_ALL=C dd of=F ...`).
    pub fn display(&self) -> String {
        let feed = self.stdin.iter().flat_map(|f| [f.display(), "|".into()]);
        let mut parts: Vec<String> = feed.collect();
        parts.extend(
            self.env
                .iter()
                .map(|(k, v)| format!("{k}={}", shell_quote(v))),
        );
        parts.push(shell_quote(&self.program));
        parts.extend(self.args.iter().map(|a| shell_quote(a)));
        parts.join(" ")
    }
}

/// Quotes `s` for a POSIX shell when it holds anything but plain
/// characters, by [`shlex`]: a word of letters, digits and `-_./=:,+@%`
/// stays bare (`--rw=randread`, which `shlex` would put in quotes for its
/// `=`, is unambiguous after the program's name), any other word is quoted
/// so that [`split_command`] reads it back. A NUL byte, which no argument
/// can carry to a program, is left in place.
pub fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if plain {
        return s.to_string();
    }
    shlex::Quoter::new()
        .allow_nul(true)
        .quote(s)
        .map_or_else(|_| s.to_string(), |q| q.into_owned())
}

/// Splits a command line into its words as a POSIX shell would (quotes
/// and backslashes, a `# comment`), by [`shlex`]; `None` when a quote is
/// left open.
pub fn split_command(line: &str) -> Option<Vec<String>> {
    shlex::split(line)
}

/// Reads tool parameters one by one, resolving sizes, and refuses keys
/// nobody read.
pub struct ParamReader<'a> {
    tool: &'static str,
    params: &'a Params,
    used: BTreeSet<&'a str>,
    memory_bytes: Option<u64>,
}

impl<'a> ParamReader<'a> {
    /// A reader over `params` of `tool`.
    pub fn new(tool: &'static str, params: &'a Params, memory_bytes: Option<u64>) -> Self {
        ParamReader {
            tool,
            params,
            used: BTreeSet::new(),
            memory_bytes,
        }
    }

    fn get(&mut self, key: &str) -> Option<&'a Value> {
        let (k, v) = self.params.get_key_value(key)?;
        self.used.insert(k.as_str());
        Some(v)
    }

    /// A string (numbers are written out as they are).
    pub fn string(&mut self, key: &str) -> Result<Option<String>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(other) => bail!(
                "{} parameter `{key} = {other}`: expected a string",
                self.tool
            ),
        }
    }

    /// A boolean.
    pub fn flag(&mut self, key: &str) -> Result<bool> {
        match self.get(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => bail!(
                "{} parameter `{key} = {other}`: expected true or false",
                self.tool
            ),
        }
    }

    /// A non-negative whole number.
    pub fn count(&mut self, key: &str) -> Result<Option<u64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => match v.as_u64() {
                Some(n) => Ok(Some(n)),
                None => bail!(
                    "{} parameter `{key} = {v}`: expected a non-negative whole number",
                    self.tool
                ),
            },
        }
    }

    /// A size in bytes: a number, `64M`, `1G`, `4k` (powers of 1024) or
    /// `2xRAM` (a multiple of the machine's memory).
    pub fn size(&mut self, key: &str) -> Result<Option<u64>> {
        let memory = self.memory_bytes;
        let tool = self.tool;
        match self.get(key) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_u64() {
                Some(b) => Ok(Some(b)),
                None => bail!("{tool} parameter `{key} = {n}`: expected a size in bytes"),
            },
            Some(Value::String(s)) => parse_size(s, memory)
                .map(Some)
                .with_context(|| format!("{tool} parameter `{key}`")),
            Some(other) => bail!("{tool} parameter `{key} = {other}`: expected a size"),
        }
    }

    /// The keys nobody read, in order (for tools that pass them through).
    pub fn rest(&self) -> Vec<(&'a String, &'a Value)> {
        self.params
            .iter()
            .filter(|(k, _)| !self.used.contains(k.as_str()))
            .collect()
    }

    /// Fails when a key was not read: a typo must not pass silently.
    pub fn finish(self, known: &[&str]) -> Result<()> {
        if let Some((k, _)) = self.rest().first() {
            bail!(
                "unknown {} parameter `{k}` (expected one of: {})",
                self.tool,
                known.join(", ")
            );
        }
        Ok(())
    }
}

/// Parses a size: whole bytes, a number with `k`/`M`/`G`/`T` (powers of
/// 1024, `KiB` and `MB` alike), or `NxRAM` (needs `memory_bytes`).
pub fn parse_size(text: &str, memory_bytes: Option<u64>) -> Result<u64> {
    let t = text.trim();
    if let Some(factor) = t
        .strip_suffix("xRAM")
        .or_else(|| t.strip_suffix("xram"))
        .or_else(|| t.strip_suffix("*RAM"))
    {
        let f: f64 = factor
            .trim()
            .parse()
            .ok()
            .filter(|f: &f64| f.is_finite() && *f > 0.0)
            .ok_or_else(|| anyhow!("`{text}`: expected a factor before xRAM, as in 2xRAM"))?;
        let mem = memory_bytes.ok_or_else(|| {
            anyhow!("`{text}`: the machine's memory size is unknown; give a size such as 8G")
        })?;
        return Ok((mem as f64 * f).round() as u64);
    }
    let (value, unit) = crate::units::split_number(t)
        .ok_or_else(|| anyhow!("`{text}`: expected a size such as 4k, 64M, 1G or 2xRAM"))?;
    let mult = crate::units::byte_multiplier(unit, crate::units::Prefixes::Binary)
        .ok_or_else(|| anyhow!("`{text}`: unknown size unit `{unit}` (use k, M, G, T)"))?;
    if value < 0.0 {
        bail!("`{text}`: a size cannot be negative");
    }
    Ok((value * mult).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1 << 30;

    #[test]
    fn sizes_parse_binary_and_ram_multiples() {
        assert_eq!(parse_size("64M", None).unwrap(), 64 << 20);
        assert_eq!(parse_size("4k", None).unwrap(), 4096);
        assert_eq!(parse_size("1GiB", None).unwrap(), GIB);
        assert_eq!(parse_size("512", None).unwrap(), 512);
        assert_eq!(parse_size("2xRAM", Some(3 * GIB)).unwrap(), 6 * GIB);
        assert_eq!(parse_size("0.5xRAM", Some(4 * GIB)).unwrap(), 2 * GIB);
        let e = parse_size("2xRAM", None).unwrap_err().to_string();
        assert!(e.contains("memory size is unknown"), "{e}");
        assert!(parse_size("lots", None).is_err());
        assert!(parse_size("3Q", None).is_err());
    }

    #[test]
    fn quoting_only_when_needed() {
        assert_eq!(shell_quote("/a/b-c.d"), "/a/b-c.d");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("--rw=randread"), "--rw=randread");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(split_command(&shell_quote("it's")).unwrap(), ["it's"]);
    }

    #[test]
    fn split_reads_quotes_and_refuses_open_ones() {
        assert_eq!(
            split_command(r#"fio --filename="/mnt/my disk/f" '--rw=read' a\ b"#).unwrap(),
            ["fio", "--filename=/mnt/my disk/f", "--rw=read", "a b"]
        );
        assert_eq!(
            split_command("fio --name=x # a comment").unwrap(),
            ["fio", "--name=x"]
        );
        assert_eq!(split_command("fio --description=it's"), None);
    }
}
