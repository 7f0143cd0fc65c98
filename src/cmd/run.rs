//! `diskdash run`: its flags, and how they become [`crate::run::RunOptions`].

use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;

use anyhow::Result;
use clap::Args;

use super::subject::SubjectArgs;
use crate::error::usage;
use crate::run::exec::Executor;
use crate::run::plan::{Selection, MAX_REPEAT};
use crate::run::{self, Out, RunOptions};

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Directory to benchmark (a scratch directory is created inside it).
    #[arg(long, value_name = "DIR")]
    pub target: Option<PathBuf>,
    /// `quick`, `standard`, or a suite file (TOML).
    #[arg(long, default_value = "standard")]
    pub suite: String,
    /// Run the quick suite: the same as `--suite quick`.
    #[arg(long, conflicts_with = "suite")]
    pub quick: bool,
    /// Where records go; `-` streams JSON Lines to stdout.
    #[arg(long, default_value = "results", value_name = "DIR")]
    pub out: PathBuf,
    #[command(flatten)]
    pub subject: SubjectArgs,
    /// The machine's instance type (`m5.large`), for the records; without it the cloud's metadata service is asked (1 s at most).
    #[arg(long, value_name = "TYPE", value_parser = parse_instance)]
    pub instance: Option<String>,
    /// The machine's name for the records (default: its hostname); 1 to 64 characters, no control character.
    #[arg(long, value_name = "NAME", value_parser = parse_host_name)]
    pub host_name: Option<String>,
    /// Record a stable hash of the machine's name (`anon-` and 12 hex digits) instead of the name, for publishing.
    #[arg(long)]
    pub anonymous_host: bool,
    /// Repetitions of each test, 1 to 1000 (default: 3 for standard, 1 for quick; bonnie++ once unless set).
    #[arg(long, value_name = "N", value_parser = parse_repeat)]
    pub repeat: Option<u32>,
    /// Run only these test ids (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "ID,..")]
    pub only: Vec<String>,
    /// Skip these test ids (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "ID,..")]
    pub skip: Vec<String>,
    /// Print what would run (the pre-fill of the sustained tests too), sizes and how long it takes, and touch nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// With --dry-run: measure the target with a few seconds of fio first (a 64 MiB file, removed after) and estimate every test's time from its speed.
    #[arg(long, requires = "dry_run")]
    pub probe: bool,
    /// List the suite's tests with their commands.
    #[arg(long)]
    pub list: bool,
    /// Time limit per test in seconds (overrides the suite's); at least 1.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: Option<u64>,
    /// Longest runtime in minutes of the sustained tests (`fio-sustained-*`), overriding the suite's; they stop earlier once their answer is known.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10080))]
    pub sustained_minutes: Option<u64>,
    /// Run the sustained tests for their whole window, without stopping them early.
    #[arg(long)]
    pub full_sustained: bool,
    /// Published limits (CSV, as `report --limits`): the burst levels of the offering (`--provider`, `--offering`, `--size-gb`), so a flat sustained test can stop early.
    #[arg(long, value_name = "FILE")]
    pub limits: Option<PathBuf>,
    /// Leave the built-in catalogue's limits out: without --limits, nothing is known of the offering's bursts.
    #[arg(long)]
    pub no_catalogue: bool,
    /// Install the tools the selected tests need and that are missing, with this distribution's package manager, before running (the commands are shown first).
    #[arg(long)]
    pub install_tools: bool,
    /// Remove the scratch directories of runs that are gone (killed, crashed) from the target first.
    #[arg(long)]
    pub clean_stale: bool,
    /// Seconds between the "still running" lines when stderr is no terminal (tests shorten it).
    #[arg(long, hide = true, value_name = "SECONDS", default_value_t = crate::run::progress::TICK_S,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub progress_interval: u64,
}

/// `--repeat`: a whole number from 1 to [`MAX_REPEAT`].
fn parse_repeat(s: &str) -> std::result::Result<u32, String> {
    let n: u64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a whole number from 1 to {MAX_REPEAT}"))?;
    match u32::try_from(n) {
        Ok(n) if (1..=MAX_REPEAT).contains(&n) => Ok(n),
        _ => Err(format!(
            "{n} repetitions: at most {MAX_REPEAT} (and at least 1), the limit a run plans"
        )),
    }
}

/// `--instance`: an instance type name.
fn parse_instance(s: &str) -> std::result::Result<String, String> {
    let t = s.trim();
    if crate::run::instance::is_instance_type(t) {
        Ok(t.to_string())
    } else {
        Err(format!(
            "expected an instance type such as m5.large, n2-standard-4 or Standard_D2s_v3: \
             letters, digits, `.`, `-` and `_`, 1 to {} characters",
            crate::run::instance::MAX_TYPE_CHARS
        ))
    }
}

/// `--host-name` (of `run` and `import`): a machine name
/// ([`crate::record::host_name`]).
pub(super) fn parse_host_name(s: &str) -> std::result::Result<String, String> {
    crate::record::host_name(s)
}

/// The run's options from its flags; a bad subject flag is a usage error.
pub fn options(args: &RunArgs) -> Result<RunOptions> {
    Ok(RunOptions {
        target: args.target.clone(),
        suite: if args.quick {
            "quick".to_string()
        } else {
            args.suite.clone()
        },
        out: if args.out.as_os_str() == "-" {
            Out::Stdout
        } else {
            Out::Dir(args.out.clone())
        },
        subject: super::subject::from_args(&args.subject).map_err(usage)?,
        selection: Selection {
            repeat: args.repeat,
            only: args.only.clone(),
            skip: args.skip.clone(),
            timeout_s: args.timeout,
            sustained_minutes: args.sustained_minutes,
            full_sustained: args.full_sustained,
        },
        limits: args.limits.clone(),
        catalogue_limits: if args.no_catalogue {
            None
        } else {
            Some(crate::catalogue::limits()?)
        },
        dry_run: args.dry_run,
        list: args.list,
        clean_stale: args.clean_stale,
        tick_s: args.progress_interval,
        instance: args.instance.clone(),
        host_name: args.host_name.clone(),
        anonymous_host: args.anonymous_host,
        probe: args.probe,
    })
}

/// Runs the command with the real tools and signal handling.
pub fn execute(args: &RunArgs) -> Result<u8> {
    let opts = options(args)?;
    if let Some(w) = super::subject::unpriced_warning(&opts.subject).filter(|_| !args.list) {
        crate::tell!("warning: {}", crate::term::shown(&w));
    }
    if args.install_tools && !args.list {
        install_tools(&opts)?;
    }
    run::command(&opts)
}

/// `--install-tools`: installs what the selected tests need, showing each
/// command on standard error (standard output may carry records); a dry
/// run only says what it would install.
fn install_tools(opts: &RunOptions) -> Result<()> {
    use crate::run::doctor;
    let tools = doctor::tools_of(&opts.suite, &opts.selection).map_err(usage)?;
    let missing = doctor::missing(&tools);
    if missing.is_empty() {
        return Ok(());
    }
    if opts.dry_run {
        crate::say!(
            "would install (--install-tools): {}",
            crate::term::shown(doctor::install_hint(&missing))
        );
        return Ok(());
    }
    doctor::install_missing(&missing, &mut std::io::stderr())?;
    Ok(())
}

/// Runs the command with `executor` (a replay in tests); `signal` holds the
/// number of a signal received (0 for none). Returns the exit status as
/// the binary would give it, the error printed.
pub fn run_with(args: &RunArgs, executor: &mut dyn Executor, signal: &AtomicUsize) -> Result<u8> {
    Ok(super::exit_status(
        options(args).and_then(|o| run::run_with(&o, executor, signal)),
    ))
}
