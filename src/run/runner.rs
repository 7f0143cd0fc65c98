//! The run's loop: each job in turn (and the pre-fill before the first
//! that needs it), each record written as its test ends.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result};

use crate::error::usage;
use crate::record::{self, Record, Status, Tool};
use crate::term::shown;
use crate::tools::fio;

use super::exec::Executor;
use super::outcome::{bytes_moved, run_job};
use super::prefill::{prefill_failed, run_prefill, PrefillDone};
use super::progress::{self, Progress};
use super::scratch::Scratch;
use super::*;

pub(super) fn execute(
    ready: Ready,
    executor: &mut dyn Executor,
    signal: &AtomicUsize,
) -> Result<u8> {
    let Ready {
        target,
        scratch,
        run_id,
        suite,
        subject,
        jobs,
        prefill,
        out,
        clean_stale: opts_clean_stale,
        tick_s,
        instance,
        host_name,
        anonymous_host,
    } = ready;
    let mut host_facts = host::host();
    host_facts.name = machine_name(host_name, anonymous_host);
    host_facts.instance_type = instance_type(instance);
    let target_facts = host::target(&target);
    let dir = match &out {
        Out::Dir(o) => Some(records_dir(o, &subject, &run_id)),
        Out::Stdout => None,
    };
    for found in scratch::scratches(&target) {
        if opts_clean_stale && !found.alive {
            match scratch::remove_stale(&found) {
                Ok(()) => crate::tell!("removed {}", shown(scratch::describe(&found))),
                Err(e) => crate::tell!("warning: {}", shown(&e)),
            }
        } else {
            crate::tell!(
                "warning: scratch directory {}",
                shown(scratch::describe(&found))
            );
        }
    }
    // one run at a time on a volume: a second one stops before it writes
    // (having cleaned what --clean-stale asked for)
    if let Some(other) = scratch::others_alive(&target, &run_id).first() {
        bail!("{}", scratch::busy(&target, other));
    }
    // a target that cannot be written is found first (a usage error, and
    // no empty records directory left behind), and a records directory
    // that cannot be made now, not after the first test
    let scratch = Scratch::create(scratch).map_err(usage)?;
    // two runs started at once both got this far: the later run id stops
    if let Some(other) = scratch::others_alive(&target, &run_id)
        .iter()
        .find(|f| f.run_id < run_id)
    {
        let why = scratch::busy(&target, other);
        scratch.remove()?;
        bail!("{why}");
    }
    // other runs on other directories of the device are not stopped, but
    // the records of the tests they overlap say so
    let registered = executor
        .measures_device()
        .then(|| register(&target, &run_id))
        .flatten();
    let watch = registered.as_ref().map(|r| r.watch(registry::POLL));
    if let (Some(d), Out::Dir(o)) = (&dir, &out) {
        crate::fsio::refuse_links_below(o, d).map_err(usage)?;
    }
    if let Some(d) = &dir {
        crate::fsio::create_dir(d)
            .context("check --out")
            .map_err(usage)?;
    }
    // `--out` is held like the target: a records directory removed or
    // replaced under the run is not made anew, the run stops
    let out_guard = match (&out, &dir) {
        (Out::Dir(o), Some(d)) => Some(
            OutGuard::new(&[("the --out directory", o), ("the records directory", d)])
                .context("check --out")
                .map_err(usage)?,
        ),
        _ => None,
    };
    let mut progress = Progress::new(jobs.len(), tick_s);
    progress.line(&format!(
        "diskdash run {run_id}: {} against `{}`{}",
        crate::format::count_of(jobs.len(), "job", "jobs"),
        shown(&target),
        prefill
            .as_ref()
            .map(|p| format!(
                ", after a pre-fill of {} before {}",
                gib(p.job.invocation.bytes),
                jobs[p.before].test_id
            ))
            .unwrap_or_default()
    ));
    let ctx = Facts {
        run_id: &run_id,
        suite: &suite,
        subject: &subject,
        host: &host_facts,
        target: &target_facts,
    };
    let mut versions: BTreeMap<Tool, Option<String>> = BTreeMap::new();
    let mut records: Vec<Record> = Vec::new();
    let mut stopped_by = None;
    let mut write_error = None;
    let mut vanished_error = None;
    let mut prior = record::PriorIo::default();
    // what the pre-fill did, once it ran; the sustained tests carry it
    let mut prefilled: Option<PrefillDone> = None;
    let mut settled = 0;
    for (index, job) in jobs.iter().enumerate() {
        let sig = signal.load(Ordering::SeqCst);
        if sig != 0 {
            stopped_by = Some(sig as i32);
            break;
        }
        if let Some(why) = settled_by(job, &records) {
            settled += 1;
            progress.line(&format!(
                "[{}/{}] {} r{}/{} not run: {why}",
                index + 1,
                jobs.len(),
                job.test_id,
                job.repetition,
                job.repetitions
            ));
            // a repetition left out may have been the pre-filled file's
            // last reader: the tests after it get the space back all the same
            release_prefill(prefill.as_ref(), index, &scratch, &progress);
            continue;
        }
        if let Some(step) = prefill.as_ref().filter(|p| p.before == index) {
            progress.start_step(
                "pre-fill",
                step.job.invocation.estimate_s + progress.estimate_left(&jobs[index..]),
            );
            let (done, interrupted) = run_prefill(&ctx, step, &scratch, executor, &progress);
            if let Some(d) = &done {
                prior.seconds += d.facts.seconds;
                prior.bytes += d.moved;
            }
            prefilled = done;
            if interrupted.is_some() {
                stopped_by = interrupted;
                break;
            }
        }
        progress.start(index, &jobs);
        let version = versions
            .entry(job.tool)
            .or_insert_with(|| {
                if executor.available(&job.invocation.program) {
                    executor.version(job.tool)
                } else {
                    None
                }
            })
            .clone();
        let sustained = job.reads_prefill().then_some(prefilled.as_ref()).flatten();
        if let Some(w) = &watch {
            w.begin();
        }
        let (mut record, interrupted) = match sustained {
            // no measurement of blocks nobody wrote: the test does not run
            Some(p) if p.facts.error.is_some() => {
                (prefill_failed(&ctx, job, version.as_deref(), p), None)
            }
            _ => run_job(&ctx, job, &scratch, executor, version.as_deref()),
        };
        if let Some(w) = &watch {
            for said in note_shared_device(&mut record, &w.end()) {
                progress.line(&format!(
                    "warning: {} r{}: {}",
                    job.test_id, job.repetition, said
                ));
            }
        }
        if let Some(p) = sustained {
            record.prefill = Some(Box::new(p.facts.clone()));
        }

        record.prior_io = Some(prior.clone());
        prior.seconds += record.duration_s.unwrap_or(0.0);
        prior.bytes += bytes_moved(&record, job);
        // a test whose scratch vanished under it measured nothing we can
        // name (or another disk): its record says so and the run stops
        let vanished = scratch.verify().err();
        if let Some(e) = &vanished {
            record.status = Status::Failed;
            record.metrics.clear();
            if !record
                .error
                .as_deref()
                .is_some_and(|m| m.starts_with("target vanished"))
            {
                record.error = Some(format!("{e:#}"));
            }
        }
        let record = passing_check(record);
        let written = match (&dir, &out_guard) {
            (Some(d), Some(g)) => write_record_file(d, g, &record),
            _ => write_record_line(&record),
        };
        progress.finish_job(index, job, &record);
        // the next test gets the space back; the pre-filled file once the
        // last sustained test is done with it
        if let Err(e) = scratch.clear(&job.dir) {
            progress.line(&format!("warning: {e:#}"));
        }
        release_prefill(prefill.as_ref(), index, &scratch, &progress);
        if let Err(e) = written {
            // the measurement must not be lost with the file: it goes to
            // stderr as the JSON line a `.jsonl` records file holds
            if let Ok(line) = serde_json::to_string(&record).map(|l| crate::term::json(&l)) {
                progress.line(&format!(
                    "error: the record of {} r{} could not be written ({e:#}); here it is, \
                     save it as a .jsonl file:\n{line}",
                    job.test_id, job.repetition
                ));
            }
            records.push(record);
            write_error = Some(e);
            break;
        }
        records.push(record);
        if interrupted.is_some() {
            stopped_by = interrupted;
            break;
        }
        if let Some(e) = vanished {
            vanished_error = Some(e);
            break;
        }
    }
    let wall = progress.done();
    let removed = scratch.remove();
    if let Some(e) = write_error {
        return Err(e.context("the run stopped: a record could not be written"));
    }
    if let Some(e) = vanished_error {
        crate::tell!("\n{}", shown(progress::summary(&jobs, &records).trim_end()));
        return Err(e);
    }
    removed?;
    crate::tell!("\n{}", shown(progress::summary(&jobs, &records).trim_end()));
    let ok = records.iter().filter(|r| r.status == Status::Ok).count();
    let where_ = match &dir {
        Some(d) if !records.is_empty() => format!("records in {}", shown(d)),
        Some(_) => "no records written".to_string(),
        None => "records streamed to stdout".to_string(),
    };
    crate::tell!(
        "{} of {} ok{} in {}; {}",
        ok,
        shown(crate::format::count_of(jobs.len(), "job", "jobs")),
        shown(if settled > 0 {
            format!(" ({settled} not needed: their spread was already known)")
        } else {
            String::new()
        }),
        shown(progress::clock(wall.as_secs_f64())),
        shown(where_)
    );
    if let Some(sig) = stopped_by {
        crate::tell!(
            "interrupted by {}: the scratch directory was removed, finished records are kept",
            shown(signal_name(sig))
        );
        return Ok(128u8.saturating_add(u8::try_from(sig).unwrap_or(0)));
    }
    Ok(if ok + settled == jobs.len() { 0 } else { 1 })
}

/// This run's entry in the registry of runs per device, `None` when it
/// cannot be made: then said once, and the run goes on.
fn register(target: &Path, run_id: &str) -> Option<registry::Registered> {
    use std::os::unix::fs::MetadataExt;
    let made = std::fs::metadata(target)
        .with_context(|| format!("cannot read `{}`", target.display()))
        .and_then(|m| registry::Registered::join(&registry::dirs(), m.dev(), run_id, target));
    match made {
        Ok(r) => Some(r),
        Err(e) => {
            crate::tell!(
                "warning: other diskdash runs measuring this device at the same time cannot be \
                 detected ({}; set {} to a writable directory); the run goes on",
                shown(format!("{e:#}")),
                registry::ENV
            );
            None
        }
    }
}

/// Gives a record whose tool ran a warning for each other run seen on the
/// device while it ran; returns the warnings added.
fn note_shared_device(record: &mut Record, others: &[registry::Entry]) -> Vec<String> {
    if record.duration_s.is_none() {
        return Vec::new();
    }
    let room = record::MAX_WARNINGS.saturating_sub(record.warnings.len());
    let added: Vec<String> = others.iter().take(room).map(|o| o.warning()).collect();
    record.warnings.extend(added.iter().cloned());
    added
}

/// Removes the pre-filled file once job `index` was its last reader
/// (whether that job ran or was left out), so that the tests after it get
/// the space back.
fn release_prefill(
    prefill: Option<&PrefillStep>,
    index: usize,
    scratch: &Scratch,
    progress: &Progress,
) {
    if let Some(step) = prefill.filter(|p| p.last == index) {
        if let Err(e) = scratch.clear(&step.job.dir) {
            progress.line(&format!("warning: {e:#}"));
        }
    }
}

/// Why `job` need not run, its spread being known (`None` when it runs):
///
/// - a second (or later) repetition of a fio test that is not watched,
///   whose first repetition ran ok and held its headline IOPS or bandwidth
///   in fio's own per-interval samples: their standard deviation at most
///   [`plan::SETTLED_SPREAD`] of their mean over at least
///   [`plan::HELD_SAMPLES`] samples ([`fio::held_level`]);
/// - a third (or later) repetition whose first two ran ok with headline
///   figures within [`plan::SETTLED_SPREAD`] of each other.
fn settled_by(job: &plan::Job, records: &[Record]) -> Option<String> {
    if !job.may_settle || job.repetition < 2 {
        return None;
    }
    let ok = |rep: u32| {
        records
            .iter()
            .find(|r| r.test.id == job.test_id && r.repetition == rep)
            .filter(|r| r.status == Status::Ok)
    };
    let all = format!("(--repeat {} runs them all)", job.repetitions);
    if job.tool == Tool::Fio && job.watch.is_none() {
        let held = ok(1)
            .and_then(|r| r.raw.as_ref()?.stdout.as_deref())
            .and_then(|out| fio::held_level(out, &job.headline))
            .filter(|h| h.samples >= plan::HELD_SAMPLES && h.spread <= plan::SETTLED_SPREAD);
        if let Some(h) = held {
            return Some(format!(
                "r1 held its level ({} varied {:.1}% over {} of fio's own samples, at most {:.0}%), so the spread is known {all}",
                job.headline,
                h.spread * 100.0,
                h.samples,
                plan::SETTLED_SPREAD * 100.0,
            ));
        }
    }
    if job.repetition < 3 {
        return None;
    }
    let figure = |rep: u32| {
        ok(rep)
            .and_then(|r| r.metrics.get(&job.headline))
            .map(|m| m.value)
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    let (a, b) = (figure(1)?, figure(2)?);
    let spread = (a - b).abs() / a.max(b);
    (spread <= plan::SETTLED_SPREAD).then(|| {
        format!(
            "r1 and r2 agree within {:.0}% ({} {:.1}% apart), so the spread is known {all}",
            plan::SETTLED_SPREAD * 100.0,
            job.headline,
            spread * 100.0,
        )
    })
}

/// The machine's name for the records: `--host-name`, else the hostname
/// ([`host::hostname`]); under `--anonymous-host` its anonymous form
/// ([`record::anonymous_host_name`]). Said on stderr; a hostname that is
/// no machine name ([`record::host_name`]) is told and not recorded.
fn machine_name(flag: Option<String>, anonymous: bool) -> Option<String> {
    // where the name came from, and what its hash is a hash of
    let (name, from, of) = match flag {
        Some(n) => (n, "--host-name", "the name given"),
        None => match host::hostname().map(|h| (record::host_name(&h), h)) {
            Some((Ok(n), _)) => (n, "the hostname", "the hostname"),
            Some((Err(why), h)) => {
                crate::tell!(
                    "warning: the hostname `{}` is not recorded: {}; give --host-name NAME",
                    shown(&h),
                    shown(&why)
                );
                return None;
            }
            None => {
                crate::tell!(
                    "warning: this machine has no hostname; the records name no machine (give --host-name NAME)"
                );
                return None;
            }
        },
    };
    if anonymous {
        let anon = record::anonymous_host_name(&name);
        crate::tell!(
            "host name {} (--anonymous-host: a hash of {}, which is not recorded)",
            shown(&anon),
            of
        );
        Some(anon)
    } else {
        crate::tell!("host name {} ({})", shown(&name), from);
        Some(name)
    }
}

/// The machine's instance type: `--instance`, else what the cloud's
/// metadata service says (within [`instance::METADATA_BUDGET`]), said on
/// stderr either way; an answer that is no instance type name is told and
/// not recorded.
fn instance_type(flag: Option<String>) -> Option<String> {
    use super::instance::{self, Found};
    if let Some(t) = flag {
        crate::tell!("instance type {} (--instance)", shown(&t));
        return Some(t);
    }
    match instance::lookup() {
        Some(Found::Type(t, p)) => {
            crate::tell!("instance type {} ({} metadata)", shown(&t), p.name());
            Some(t)
        }
        Some(Found::NotAName(p, text)) => {
            crate::tell!(
                "warning: {} metadata gave `{}` for the instance type, which is no instance type name; not recorded (give --instance TYPE)",
                p.name(),
                shown(&text)
            );
            None
        }
        None => None,
    }
}

/// The record as written: validated with the code `check` uses, on the
/// JSON text itself (a value that overflowed to infinity is written as
/// `null`). A measurement `check` would refuse becomes a `failed` record
/// saying why, its metrics and timeline dropped and the tool's raw output
/// kept.
fn passing_check(mut rec: Record) -> Record {
    // what the machine and the tool say of themselves, within the limits
    record::cut_to_limits(&mut rec);
    if let Err(why) = record::would_pass_check(&rec) {
        rec.status = Status::Failed;
        rec.metrics.clear();
        rec.timeline = None;
        rec.error = Some(format!(
            "the result would not pass `diskdash check` ({why}); the tool's raw output is kept"
        ));
    }
    rec
}

/// Writes the record into `dir`, which `guard` checks is still the
/// records directory the run made, before and after: never into a
/// directory made anew or put in its place.
fn write_record_file(dir: &Path, guard: &OutGuard, record: &Record) -> Result<()> {
    let text = record::to_json(record)?;
    guard.verify()?;
    crate::fsio::write_new_in_dir(&dir.join(record.file_name()), text.as_bytes())?;
    guard.verify()
}

/// `--out` and the run's records directory in it, each with the device
/// and inode it had when the run began, and held open: a directory removed
/// keeps its inode while the run holds it, so one made anew in its place
/// never gets the same number.
struct OutGuard {
    dirs: Vec<(&'static str, PathBuf, (u64, u64))>,
    _held: Vec<std::fs::File>,
}

impl OutGuard {
    fn new(dirs: &[(&'static str, &PathBuf)]) -> Result<OutGuard> {
        let mut guard = OutGuard {
            dirs: Vec::new(),
            _held: Vec::new(),
        };
        for &(what, d) in dirs {
            let cannot = || format!("cannot read the directory `{}`", d.display());
            guard
                ._held
                .push(std::fs::File::open(d).with_context(cannot)?);
            guard
                .dirs
                .push((what, d.clone(), dir_dev_ino(d).with_context(cannot)?));
        }
        Ok(guard)
    }

    /// Fails naming the first of them that is gone or is another directory.
    fn verify(&self) -> Result<()> {
        for (what, d, id) in &self.dirs {
            match dir_dev_ino(d) {
                Ok(now) if now == *id => {}
                Ok(_) => anyhow::bail!(
                    "{what} `{}` was replaced during the run (it is not the \
                     directory the run began with); the run stopped",
                    d.display()
                ),
                Err(e) => anyhow::bail!(
                    "{what} `{}` is missing or was removed during the run ({e}); \
                     the run stopped",
                    d.display()
                ),
            }
        }
        Ok(())
    }
}

/// Device and inode of the directory at `path` (a link to one followed).
fn dir_dev_ino(path: &Path) -> std::io::Result<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path)?;
    if !m.is_dir() {
        return Err(std::io::Error::other("not a directory"));
    }
    Ok((m.dev(), m.ino()))
}

fn write_record_line(record: &Record) -> Result<()> {
    let line = serde_json::to_string(record).context("cannot serialise a record")?;
    let line = crate::term::json(&line);
    // a record is data, not text for people: written whole, its control
    // characters escaped by JSON
    let mut out = std::io::stdout().lock();
    out.write_all(line.as_bytes())
        .and_then(|_| out.write_all(b"\n"))
        .and_then(|_| out.flush())
        .context("cannot write a record to stdout")
}
