//! `diskdash report`: its flags, what it prints, and the site the library
//! builds from them ([`crate::report::build_into`]).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::analysis::limits::Limits;
use crate::analysis::prices::{PriceBook, Rates};
use crate::report;
use crate::term::shown;

#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// Directories (or files) of records.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Output directory of the site.
    #[arg(long, value_name = "SITE")]
    pub out: PathBuf,
    /// Price list (CSV) overriding the records' prices.
    #[arg(long, value_name = "FILE")]
    pub prices: Option<PathBuf>,
    /// Exchange rates (CSV: from,to,rate,as_of,source) that convert prices in
    /// other currencies into each study baseline's; columns in docs/publishing.md.
    #[arg(long, value_name = "FILE")]
    pub rates: Option<PathBuf>,
    /// Published performance limits (CSV) to put beside burst and sustained levels
    /// ("measured / promised"); columns in docs/publishing.md.
    #[arg(long, value_name = "FILE")]
    pub limits: Option<PathBuf>,
    /// Leave the built-in catalogue out: a configuration without a price in
    /// --prices or its records stays unpriced, and only --limits gives limits.
    #[arg(long)]
    pub no_catalogue: bool,
    /// Offering to compare against (`provider offering` or its slug) instead of the cheapest per GB.
    #[arg(long, value_name = "ID")]
    pub baseline: Option<String>,
    /// Site title.
    #[arg(long, default_value = "Storage benchmark results")]
    pub title: String,
    /// Where the site will be published (`https://example.org/results`):
    /// `data/<study>.md` then links its charts by absolute URL, so a post
    /// pasted elsewhere shows them.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// A study's title (repeatable): `SLUG=TITLE`, the study by its name or
    /// slug; over the title of its study.toml.
    #[arg(long, value_name = "SLUG=TITLE")]
    pub study_title: Vec<String>,
    /// Start each `data/<study>.md` with YAML front matter (title, date)
    /// for Jekyll and Hugo.
    #[arg(long)]
    pub front_matter: bool,
    /// Treat an invalid record as an error instead of leaving it out.
    #[arg(long)]
    pub strict: bool,
    /// Write into a non-empty directory that is not an earlier diskdash site.
    #[arg(long)]
    pub force: bool,
}

/// `--base-url` checked and without its trailing slashes: an `http` or
/// `https` URL with a host, since the post links its charts there.
fn base_url(url: Option<&str>) -> Result<Option<String>> {
    let Some(url) = url else {
        return Ok(None);
    };
    let trimmed = url.trim().trim_end_matches('/');
    let host = trimmed
        .strip_prefix("https://")
        .or_else(|| trimmed.strip_prefix("http://"))
        .map(|rest| rest.split('/').next().unwrap_or(""));
    match host {
        Some(h) if !h.is_empty() && !trimmed.contains(char::is_whitespace) => {
            Ok(Some(trimmed.to_string()))
        }
        _ => anyhow::bail!(
            "--base-url `{url}`: expected an http:// or https:// URL with a host, where the site is published"
        ),
    }
}

/// The study files (`study.toml`) under the inputs, in the order they are
/// walked, with their text.
fn study_files(inputs: &[PathBuf]) -> Result<Vec<(PathBuf, String)>> {
    let mut out = Vec::new();
    for input in inputs {
        if input.is_file() {
            continue;
        }
        for entry in walkdir::WalkDir::new(input)
            .max_depth(crate::walk::MAX_DEPTH)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
            .filter_map(|e| e.ok())
        {
            if entry.file_type().is_file() && entry.file_name() == report::study_file::FILE_NAME {
                let text = std::fs::read_to_string(entry.path()).with_context(|| {
                    format!("cannot read study file `{}`", entry.path().display())
                })?;
                out.push((entry.path().to_path_buf(), text));
            }
        }
    }
    Ok(out)
}

/// What the study files and `--study-title` say of each study; a title
/// flag that is not `SLUG=TITLE` is a usage error.
fn study_infos(
    inputs: &[PathBuf],
    titles: &[String],
) -> Result<std::collections::BTreeMap<String, report::study_file::StudyInfo>> {
    let mut infos = report::study_file::collect(&study_files(inputs)?)?;
    for t in titles {
        let Some((slug, title)) = t
            .split_once('=')
            .map(|(s, t)| (s.trim(), t.trim()))
            .filter(|(s, t)| !s.is_empty() && !t.is_empty())
        else {
            return Err(crate::error::usage(anyhow::anyhow!(
                "--study-title `{t}`: expected SLUG=TITLE, the study's name or slug and its title"
            )));
        };
        use super::subject::within;
        within("--study-title", title, crate::record::MAX_NAME_CHARS)
            .map_err(crate::error::usage)?;
        // the flag names a study by its name or slug; a study file's entry
        // under the other spelling gives way to it
        let slugged = crate::record::slug(slug);
        let key = if infos.contains_key(slug) || !infos.contains_key(&slugged) {
            slug.to_string()
        } else {
            slugged
        };
        infos.entry(key).or_default().title = Some(title.to_string());
    }
    Ok(infos)
}

/// Fails when `--out` is an input, lies inside one, or holds one: the
/// site's marker makes every later walk skip that directory, so its
/// records would silently drop out of the next build.
fn out_is_apart_from_inputs(out: &std::path::Path, inputs: &[std::path::PathBuf]) -> Result<()> {
    let out_abs = absolute(out);
    for input in inputs {
        let Ok(input_abs) = std::fs::canonicalize(input) else {
            continue;
        };
        if out_abs.starts_with(&input_abs) || input_abs.starts_with(&out_abs) {
            bail!(
                "--out `{}` and the input `{}` overlap: a site's directory is skipped when \
                 records are read, so records there would drop out of later builds; \
                 build the site into a directory apart from the records",
                out.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// `path` made absolute with symlinks resolved as far as it exists.
fn absolute(path: &std::path::Path) -> std::path::PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => {
            let parent = if parent.as_os_str().is_empty() {
                std::path::Path::new(".")
            } else {
                parent
            };
            absolute(parent).join(name)
        }
        _ => path.to_path_buf(),
    }
}

/// Runs the command; returns the process exit status.
pub fn execute(args: &ReportArgs) -> Result<u8> {
    let start = Instant::now();
    out_is_apart_from_inputs(&args.out, &args.dirs).map_err(crate::error::usage)?;
    use super::subject::within;
    within("--title", &args.title, crate::record::MAX_NAME_CHARS).map_err(crate::error::usage)?;
    if let Some(b) = &args.baseline {
        within("--baseline", b, 2 * crate::record::MAX_NAME_CHARS + 1)
            .map_err(crate::error::usage)?;
    }
    // a records path that is not there is a typo, not an empty study: it
    // stops the build before the site is touched
    for d in &args.dirs {
        if let Err(e) = std::fs::symlink_metadata(d) {
            bail!(
                "records path `{}` cannot be read: {e}; nothing was written to `{}`",
                shown(d.display().to_string()),
                shown(args.out.display().to_string())
            );
        }
    }
    let studies = study_infos(&args.dirs, &args.study_title)?;
    // held without their tool output and series, which only the pages
    // drawing them read again
    let mut loaded = crate::ingest::load_with(&args.dirs, false)?;
    // a path that cannot be read is left out like an invalid record: the
    // rest still makes a site (and --strict refuses)
    for p in &mut loaded.unreadable {
        p.message = format!("cannot read: {}", p.message);
    }
    loaded.problems.append(&mut loaded.unreadable);
    loaded.problems.sort();
    for p in &loaded.problems {
        crate::tell!("left out: {}", shown(crate::check::problem_line(p)));
    }
    let left_out: BTreeSet<(&std::path::Path, Option<usize>)> = loaded
        .problems
        .iter()
        .map(|p| (p.path.as_path(), p.line))
        .collect();
    if args.strict && !loaded.problems.is_empty() {
        bail!(
            "{} record(s) are invalid (listed above); without --strict they would be left out",
            left_out.len()
        );
    }
    // every path given holds a record: one that holds none (a typo for a
    // sibling directory, a directory of something else) would otherwise
    // make the site lose that part of it
    for d in &args.dirs {
        if loaded.records.iter().any(|f| f.path.starts_with(d)) {
            continue;
        }
        let problems = loaded
            .problems
            .iter()
            .filter(|p| p.path.starts_with(d))
            .count();
        bail!(
            "no valid record under `{}`{} (expected *.json or *.jsonl written by `diskdash run` or \
             `diskdash import`); nothing was written to `{}`",
            shown(d.display().to_string()),
            match problems {
                0 => String::new(),
                n => format!(
                    ": {} left out, listed above",
                    crate::format::count_of(n, "file", "files")
                ),
            },
            shown(args.out.display().to_string())
        );
    }
    if loaded.records.is_empty() && loaded.problems.is_empty() {
        let dirs: Vec<String> = args
            .dirs
            .iter()
            .map(|d| format!("`{}`", d.display()))
            .collect();
        bail!(
            "no records found under {} (expected *.json or *.jsonl written by `diskdash run` or `diskdash import`)",
            dirs.join(", ")
        );
    }
    // a study file or title flag for a study no record names is a typo
    let named: BTreeSet<&str> = loaded.records.iter().map(|r| r.summary.study()).collect();
    for key in studies.keys() {
        if !named
            .iter()
            .any(|s| *s == key || crate::record::slug(s) == *key)
        {
            crate::tell!(
                "warning: {}",
                shown(format!(
                    "study `{key}` of a study file or --study-title is in no record (the records' studies: {})",
                    named.iter().copied().collect::<Vec<_>>().join(", ")
                ))
            );
        }
    }
    let prices = match &args.prices {
        Some(p) => PriceBook::load(p)?,
        None => PriceBook::default(),
    };
    let prices = match &args.rates {
        Some(r) => prices.with_rates(Rates::load(r)?),
        None => prices,
    };
    let limits = match &args.limits {
        Some(p) => Limits::load(p)?,
        None => Limits::default(),
    };
    // the catalogue under the user's lists; its figures more than a year
    // older than the build date say so
    let (prices, limits) = if args.no_catalogue {
        (prices, limits)
    } else {
        let today = super::build_day()?;
        (
            prices
                .with_catalogue(crate::catalogue::prices()?, &today)
                .with_catalogue_names(crate::catalogue::names()),
            limits.with_catalogue(crate::catalogue::limits()?, &today),
        )
    };
    for w in report::input_warnings(&loaded.records, &prices, &limits) {
        crate::tell!("warning: {}", shown(&w));
    }
    for n in report::input_notes(&loaded.records, &limits) {
        crate::tell!("note: {}", shown(&n));
    }
    let opts = report::Options {
        title: args.title.clone(),
        baseline: args.baseline.clone(),
        prices,
        limits,
        base_url: base_url(args.base_url.as_deref())?,
        studies,
        front_matter: args.front_matter,
    };
    let site = report::site::Dir::open(&args.out, args.force)?;
    let built = report::build_into(&loaded.records, &loaded.problems, &opts, &site)?;
    // a fleet's machines, so that a bad VM shows before anyone reads the site
    for l in &built.hosts {
        crate::tell!("host {}", shown(report::export::host_text(l)));
    }
    // every page is written: the records are let go before the marker is
    // sorted
    let records = std::mem::take(&mut loaded.records).len();
    let written = site
        .finish()
        .with_context(|| format!("failed to write the site to `{}`", args.out.display()))?;
    for rel in &written.forced {
        crate::tell!(
            "replaced (--force): `{}`, a file the site had not written",
            shown(args.out.join(rel).display().to_string())
        );
    }
    let pages = written.pages;
    crate::say!(
        "report: {} read, {} left out, {} written to `{}` in {:.2} s",
        shown(crate::format::count_of(
            records + left_out.len(),
            "record",
            "records"
        )),
        left_out.len(),
        shown(crate::format::count_of(pages, "page", "pages")),
        shown(&args.out),
        start.elapsed().as_secs_f64()
    );
    Ok(0)
}
