//! Running the tools: the `Executor` trait, the real implementation
//! (processes with a time limit, stopped on Ctrl-C/SIGTERM) and a replay
//! implementation that plays captured output back for tests.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::bounded::HeadTail;
use crate::record::Tool;
use crate::tools::argv::{Invocation, OutputFrom};

use super::watch::Watcher;

/// What one tool run gave back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, lossily decoded.
    pub stderr: String,
    /// Contents of the tool's output file (fio `--output`), when it wrote one.
    pub output_file: Option<String>,
    /// Exit code; `None` when killed by a signal.
    pub exit_code: Option<i32>,
    /// The signal that ended the tool, if one did.
    pub signal: Option<i32>,
    /// Wall time from spawn to exit.
    pub duration: Duration,
    /// Stopped because it ran past its time limit.
    pub timed_out: bool,
    /// Stopped because diskdash received this signal (SIGINT, SIGTERM, SIGHUP).
    pub interrupted: Option<i32>,
    /// Bytes printed on stdout and stderr, when more than the kept head
    /// and tail ([`crate::bounded::STREAM_LIMIT`]); `None` when whole.
    pub stdout_bytes: Option<u64>,
    /// fio's per-second logs the tool left in the job directory (file
    /// name, bytes), sorted by name; `_slat` logs are not read.
    pub logs: Vec<(String, Vec<u8>)>,
    /// As `stdout_bytes`, for stderr.
    pub stderr_bytes: Option<u64>,
    /// What diskdash wrote to the tool's standard input, when the
    /// invocation asked for a [`Feed`](crate::tools::argv::Feed).
    pub fed: Option<super::feed::FeedDone>,
    /// Why the watcher of a sustained test stopped it before its window
    /// ended ([`Executor::run_watched`]); `None` when it ran to its end.
    pub stopped: Option<crate::record::StopReason>,
}

impl Outcome {
    /// The text the tool's parser reads.
    pub fn parser_input(&self, from: &OutputFrom) -> Option<&str> {
        match from {
            OutputFrom::Stdout => Some(&self.stdout),
            OutputFrom::Stderr => Some(&self.stderr),
            OutputFrom::File(_) => self.output_file.as_deref(),
        }
    }
}

/// Spawns tools. The runner talks to tools only through this.
pub trait Executor {
    /// Whether `program` can be run (found on `PATH`).
    fn available(&self, program: &str) -> bool;
    /// Where a `program` that is not [`available`](Executor::available)
    /// is found without its exec bit, if it is.
    fn not_executable(&self, _program: &str) -> Option<PathBuf> {
        None
    }
    /// The tool's version as it reports it (`fio-3.33` → `3.33`), if it does.
    fn version(&mut self, tool: Tool) -> Option<String>;
    /// Runs `inv` in `dir`, stopping it after `timeout` or when a signal
    /// arrives. Fails only when the tool cannot be started.
    fn run(
        &mut self,
        test_id: &str,
        inv: &Invocation,
        dir: &Path,
        timeout: Duration,
    ) -> Result<Outcome>;
    /// Runs `inv` as [`run`](Executor::run) does, feeding what the tool
    /// appends to its output file to `watcher` as it comes, and stopping
    /// the tool (SIGINT, so that it prints its results and writes its
    /// logs) when the watcher says its answer is known.
    fn run_watched(
        &mut self,
        test_id: &str,
        inv: &Invocation,
        dir: &Path,
        timeout: Duration,
        watcher: &mut Watcher,
    ) -> Result<Outcome> {
        let _ = watcher;
        self.run(test_id, inv, dir, timeout)
    }
    /// Whether the tools it runs load the target's device: a run whose
    /// executor does registers itself ([`super::registry`]) and looks for
    /// other runs on the device; a replay of captured output does not.
    fn measures_device(&self) -> bool {
        true
    }
}

/// Runs real processes.
pub struct RealExecutor {
    signal: Arc<AtomicUsize>,
}

impl RealExecutor {
    /// An executor that stops the running tool when `signal` becomes non-zero.
    pub fn new(signal: Arc<AtomicUsize>) -> Self {
        RealExecutor { signal }
    }
}

/// Directories searched after `PATH`: Debian installs bonnie++ in
/// `/usr/sbin`, which an ordinary user's `PATH` leaves out.
const SBIN: [&str; 3] = ["/usr/local/sbin", "/usr/sbin", "/sbin"];

/// Finds `program` on `PATH` like a shell would, then in the sbin directories.
pub fn which(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return is_executable(&p).then_some(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(SBIN.iter().map(PathBuf::from))
        .map(|d| d.join(program))
        .find(|p| is_executable(p))
}

/// A file named `program` where [`which`] looks that is there but lacks
/// its exec bit (a copied or unpacked tool), for when `which` finds none:
/// such a tool is not missing, it cannot be run.
pub fn not_executable(program: &str) -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = if program.contains('/') {
        vec![PathBuf::from(program)]
    } else {
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path)
            .chain(SBIN.iter().map(PathBuf::from))
            .map(|d| d.join(program))
            .collect()
    };
    candidates
        .into_iter()
        .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()) && !is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

impl Executor for RealExecutor {
    fn available(&self, program: &str) -> bool {
        which(program).is_some()
    }

    fn not_executable(&self, program: &str) -> Option<PathBuf> {
        not_executable(program)
    }

    fn version(&mut self, tool: Tool) -> Option<String> {
        let (program, arg) = crate::tools::install(tool).version_probe()?;
        let probe = Invocation {
            program: program.to_string(),
            args: vec![arg.to_string()],
            env: vec![("LC_ALL".into(), "C".into())],
            output: OutputFrom::Stdout,
            bytes: 0,
            estimate_s: 0.0,
            parameters: Default::default(),
            stdin: None,
        };
        // a tool that hangs on --version must not hang the run
        let dir = std::env::temp_dir();
        let out = self
            .run("version", &probe, &dir, Duration::from_secs(10))
            .ok()?;
        if out.timed_out || out.interrupted.is_some() {
            return None;
        }
        let text = format!("{}{}", out.stdout, out.stderr);
        crate::tools::version_from_text(tool, &text)
    }

    fn run(
        &mut self,
        _test_id: &str,
        inv: &Invocation,
        dir: &Path,
        timeout: Duration,
    ) -> Result<Outcome> {
        self.spawn_and_wait(inv, dir, timeout, None)
    }

    fn run_watched(
        &mut self,
        _test_id: &str,
        inv: &Invocation,
        dir: &Path,
        timeout: Duration,
        watcher: &mut Watcher,
    ) -> Result<Outcome> {
        self.spawn_and_wait(inv, dir, timeout, Some(watcher))
    }
}

/// How long a tool stopped by its watcher has to print its results and
/// write its logs before it is killed.
const WATCH_STOP_GRACE: Duration = Duration::from_secs(60);

impl RealExecutor {
    fn spawn_and_wait(
        &mut self,
        inv: &Invocation,
        dir: &Path,
        timeout: Duration,
        mut watcher: Option<&mut Watcher>,
    ) -> Result<Outcome> {
        use std::os::unix::process::{CommandExt, ExitStatusExt};

        let program = which(&inv.program).unwrap_or_else(|| PathBuf::from(&inv.program));
        let mut cmd = Command::new(program);
        cmd.args(&inv.args)
            .envs(inv.env.iter().map(|(k, v)| (k, v)))
            .current_dir(dir)
            .stdin(if inv.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // its own process group, so that stopping it also stops what it
            // forked (fio's job processes, a shell's children)
            .process_group(0);
        // SAFETY: the closure runs in the child between fork and exec and
        // calls only async-signal-safe functions (signal, prctl, getppid,
        // _exit).
        let parent = std::process::id() as libc::pid_t;
        unsafe {
            cmd.pre_exec(move || {
                // the tool gets the signals diskdash sends it whatever
                // diskdash was started with: a command started in the
                // background by a script (`cmd &`) ignores SIGINT and
                // SIGQUIT, `nohup` ignores SIGHUP, and an ignored signal
                // stays ignored across exec (a shell cannot even trap it)
                for sig in [libc::SIGINT, libc::SIGQUIT, libc::SIGHUP, libc::SIGTERM] {
                    libc::signal(sig, libc::SIG_DFL);
                }
                // the tool dies with diskdash, even when diskdash is
                // killed with SIGKILL or by the OOM killer
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
                if libc::getppid() != parent {
                    libc::_exit(127);
                }
                Ok(())
            });
        }
        let start = Instant::now();
        let mut child = cmd
            .spawn()
            .with_context(|| format!("failed to start `{}`", inv.program))?;
        let pid = child.id() as libc::pid_t;
        RUNNING_GROUP.store(pid, Ordering::SeqCst);
        let out_reader = child.stdout.take().map(Pipe::spawn);
        let err_reader = child.stderr.take().map(Pipe::spawn);
        // the input is made as the tool reads it; the thread ends when all
        // is written or the tool's end of the pipe closes (it exited or
        // was stopped), so joining it after the tool ends cannot hang
        let feed_stop = Arc::new(AtomicBool::new(false));
        let feeder = match (inv.stdin, child.stdin.take()) {
            (Some(feed), Some(pipe)) => {
                let stop = Arc::clone(&feed_stop);
                Some(std::thread::spawn(move || {
                    super::feed::feed_child(&feed, pipe, &stop)
                }))
            }
            _ => None,
        };

        let mut timed_out = false;
        let mut interrupted = None;
        let mut stop_sent: Option<Instant> = None;
        let mut stopped = None;
        let mut watch_sent: Option<Instant> = None;
        let mut tail = OutputTail::default();
        let mut last_look = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().context("failed to wait for the tool")? {
                break status;
            }
            if let (Some(w), OutputFrom::File(path)) = (watcher.as_deref_mut(), &inv.output) {
                // fio appends a status document a second: looked at twice as often
                if stopped.is_none() && last_look.elapsed() >= Duration::from_millis(500) {
                    last_look = Instant::now();
                    if let Some(why) = w.feed(&tail.read_new(path)) {
                        stopped = Some(why);
                        // the leader only: fio stops its jobs itself
                        // SAFETY: kill(2) on the child we spawned.
                        unsafe {
                            libc::kill(pid, libc::SIGINT);
                        }
                        watch_sent = Some(Instant::now());
                    }
                }
                if stop_sent.is_none() && watch_sent.is_some_and(|t| t.elapsed() > WATCH_STOP_GRACE)
                {
                    kill_group(pid, libc::SIGKILL);
                    stop_sent = Some(Instant::now());
                }
            }
            if stop_sent.is_none() {
                let sig = self.signal.load(Ordering::SeqCst);
                if sig != 0 {
                    interrupted = Some(sig as i32);
                } else if start.elapsed() >= timeout {
                    timed_out = true;
                }
                if timed_out || interrupted.is_some() {
                    kill_group(pid, libc::SIGTERM);
                    stop_sent = Some(Instant::now());
                }
            } else if stop_sent.is_some_and(|t| t.elapsed() > Duration::from_secs(3)) {
                kill_group(pid, libc::SIGKILL);
            }
            // short enough to add nothing measurable to a run, long enough
            // to cost no CPU worth counting
            std::thread::sleep(Duration::from_millis(5));
        };
        let duration = start.elapsed();
        // whatever of the group outlived the leader (a forked child left
        // running) holds the pipes open and would hold the run: it goes too
        kill_group(pid, libc::SIGKILL);
        RUNNING_GROUP.store(0, Ordering::SeqCst);
        // a child that left the group (setsid) may still hold the pipes:
        // what was read by the deadline is kept, the rest is not waited for
        let deadline = Instant::now() + PIPE_DRAIN;
        while [&out_reader, &err_reader]
            .iter()
            .any(|r| r.as_ref().is_some_and(|p| !p.done()))
            && Instant::now() < deadline
            && self.signal.load(Ordering::SeqCst) == 0
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        let (stdout, stdout_bytes) = out_reader.map(|p| p.take()).unwrap_or_default();
        let (stderr, stderr_bytes) = err_reader.map(|p| p.take()).unwrap_or_default();
        let output_file = match (watcher, &inv.output) {
            (Some(w), OutputFrom::File(p)) => {
                // the status documents were read as they came; what fio
                // printed after the last look is read the same way, however
                // long the file grew, and the record keeps what it printed
                // when it ended
                loop {
                    let text = tail.read_new(p);
                    if text.is_empty() {
                        break;
                    }
                    w.finish(&text);
                }
                watched_output(w, || read_output_file(p))
            }
            (None, OutputFrom::File(p)) => read_output_file(p),
            _ => None,
        };
        feed_stop.store(true, Ordering::SeqCst);
        let fed = feeder.and_then(|t| t.join().ok());
        Ok(Outcome {
            fed,
            stopped,
            logs: read_logs(dir),
            stdout,
            stderr,
            output_file,
            exit_code: status.code(),
            signal: status.signal(),
            duration,
            timed_out,
            interrupted,
            stdout_bytes,
            stderr_bytes,
        })
    }
}

/// The part of a growing output file not read yet.
#[derive(Default)]
struct OutputTail {
    offset: u64,
    /// Bytes of a UTF-8 character cut at the end of the last read.
    partial: Vec<u8>,
}

impl OutputTail {
    /// What was appended to `path` since the last call (nothing when it
    /// cannot be read, or is no regular file), at most 1 MiB at a time.
    fn read_new(&mut self, path: &Path) -> String {
        use std::io::{Seek, SeekFrom};
        use std::os::unix::fs::OpenOptionsExt;
        let Ok(mut file) = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(path)
        else {
            return String::new();
        };
        if !file.metadata().is_ok_and(|m| m.is_file())
            || file.seek(SeekFrom::Start(self.offset)).is_err()
        {
            return String::new();
        }
        let mut bytes = std::mem::take(&mut self.partial);
        let start = bytes.len();
        if file.take(1 << 20).read_to_end(&mut bytes).is_err() {
            bytes.truncate(start);
        }
        self.offset += (bytes.len() - start) as u64;
        match std::str::from_utf8(&bytes) {
            Ok(s) => s.to_string(),
            Err(e) if e.error_len().is_none() => {
                let (good, rest) = bytes.split_at(e.valid_up_to());
                self.partial = rest.to_vec();
                String::from_utf8_lossy(good).into_owned()
            }
            Err(_) => String::from_utf8_lossy(&bytes).into_owned(),
        }
    }
}

/// The largest per-second log read: a day of 1 s rows is about 2 MiB.
const LOG_LIMIT: u64 = 64 << 20;

/// fio's per-second logs in `dir` (see [`crate::tools::fio::log`]), read
/// as the output file is (no symlinks, regular files, at most
/// [`LOG_LIMIT`] bytes each), sorted by name.
fn read_logs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    use std::os::unix::fs::OpenOptionsExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<(String, Vec<u8>)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            crate::tools::fio::log::log_name(&name)?;
            let file = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
                .open(e.path())
                .ok()?;
            if !file.metadata().ok()?.is_file() {
                return None;
            }
            let mut bytes = Vec::new();
            file.take(LOG_LIMIT).read_to_end(&mut bytes).ok()?;
            Some((name, bytes))
        })
        .collect();
    out.sort();
    out
}

/// Reads the tool's output file without following a symlink (a `fio.json`
/// replaced by a link to `/etc/hostname` must not put that file into the
/// record) and only when it is a regular file, at most
/// [`crate::bounded::STREAM_LIMIT`] bytes of it.
fn read_output_file(path: &Path) -> Option<String> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(crate::bounded::STREAM_LIMIT as u64)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The output a watched fio test's record reads: the last whole fio
/// document its watcher read (the final one, or the status document before
/// one cut off); the cut-off document itself where there was none before
/// it, so that the parser names it; else the file as read (`raw`), whatever
/// fio wrote instead of JSON.
fn watched_output(w: &Watcher, raw: impl FnOnce() -> Option<String>) -> Option<String> {
    match w.final_document().or(w.cut_off()) {
        Some(doc) => Some(doc.to_string()),
        None => raw(),
    }
}

/// How long the pipes are read after the tool exited.
const PIPE_DRAIN: Duration = Duration::from_secs(2);

/// The process group of the tool running now (0 for none), for the signal
/// handler to kill when a second signal ends diskdash at once.
pub static RUNNING_GROUP: AtomicI32 = AtomicI32::new(0);

/// Installs the handlers of SIGINT, SIGTERM and SIGHUP: the first signal
/// is stored in `signal` (and decides the exit status); a second one kills
/// the running tool's process group and exits at once with 128 + the
/// first signal's number, leaving the scratch directory behind.
pub fn install_signal_handlers(signal: &Arc<AtomicUsize>) -> Result<()> {
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let flag = Arc::clone(signal);
        let handler = move || {
            if flag
                .compare_exchange(0, sig as usize, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
            let first = flag.load(Ordering::SeqCst) as i32;
            let group = RUNNING_GROUP.load(Ordering::SeqCst);
            const MSG: &[u8] = b"\ndiskdash: second signal, stopping at once (the scratch directory is left behind)\n";
            // SAFETY: kill(2), write(2) and _exit(2) are async-signal-safe;
            // MSG is a static buffer.
            unsafe {
                if group > 0 {
                    libc::kill(-group, libc::SIGKILL);
                }
                libc::write(2, MSG.as_ptr().cast(), MSG.len());
                libc::_exit(128 + first);
            }
        };
        // SAFETY: the handler only uses atomics and async-signal-safe calls.
        unsafe { signal_hook::low_level::register(sig, handler) }
            .context("cannot install the signal handler")?;
    }
    Ok(())
}

fn kill_group(pid: libc::pid_t, sig: libc::c_int) {
    // SAFETY: kill(2) with a negative pid signals the process group we
    // created for the child; it has no memory-safety preconditions.
    unsafe {
        libc::kill(-pid, sig);
    }
}

/// A tool's stdout or stderr, read on its own thread into a buffer the
/// runner can take at any time (a pipe held open by an escaped child never
/// reaches its end).
struct Pipe {
    buf: Arc<Mutex<HeadTail>>,
    done: Arc<AtomicBool>,
}

impl Pipe {
    fn spawn<R: Read + Send + 'static>(mut r: R) -> Pipe {
        let buf = Arc::new(Mutex::new(HeadTail::new(crate::bounded::STREAM_LIMIT)));
        let done = Arc::new(AtomicBool::new(false));
        let (b, d) = (Arc::clone(&buf), Arc::clone(&done));
        std::thread::spawn(move || {
            let mut chunk = vec![0u8; 64 * 1024];
            loop {
                match r.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => b
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(&chunk[..n]),
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                }
            }
            d.store(true, Ordering::SeqCst);
        });
        Pipe { buf, done }
    }

    fn done(&self) -> bool {
        self.done.load(Ordering::SeqCst)
    }

    /// What was read so far (head and tail), lossily decoded, and the
    /// number of bytes read when some were left out.
    fn take(&self) -> (String, Option<u64>) {
        let buf = self.buf.lock().unwrap_or_else(|e| e.into_inner());
        (buf.text(), buf.truncated().then_some(buf.total()))
    }
}

/// One captured tool run, played back by [`ReplayExecutor`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Capture {
    /// What the tool printed on stdout.
    pub stdout: String,
    /// What the tool printed on stderr.
    pub stderr: String,
    /// The output file's contents (fio).
    pub output_file: Option<String>,
    /// Exit code.
    pub exit_code: i32,
    /// Reported duration in seconds.
    pub duration_s: f64,
    /// fio's per-second logs (file name, text).
    pub logs: Vec<(String, String)>,
}

/// Plays captured output back, keyed by test id, so the whole run path can
/// be tested without the tools. Every program counts as installed unless
/// marked missing; a test without a capture fails to start.
#[derive(Clone, Debug, Default)]
pub struct ReplayExecutor {
    captures: BTreeMap<String, Capture>,
    versions: BTreeMap<Tool, String>,
    missing: BTreeSet<String>,
    /// Test ids run, in order (for assertions).
    pub ran: Vec<String>,
    /// The argv of each run, program first, in the order of `ran`.
    pub argv: Vec<Vec<String>>,
}

impl ReplayExecutor {
    /// An executor with nothing captured.
    pub fn new() -> Self {
        Self::default()
    }

    /// Plays `capture` back for every run of `test_id`.
    pub fn capture(mut self, test_id: &str, capture: Capture) -> Self {
        self.captures.insert(test_id.to_string(), capture);
        self
    }

    /// Reports `version` for `tool`.
    pub fn version_of(mut self, tool: Tool, version: &str) -> Self {
        self.versions.insert(tool, version.to_string());
        self
    }

    /// Makes `program` look not installed.
    pub fn without(mut self, program: &str) -> Self {
        self.missing.insert(program.to_string());
        self
    }

    /// Loads captures from `dir/<test-id>/` with files `stdout`, `stderr`,
    /// `output` (fio's JSON), `exit_code` and fio's per-second logs
    /// (`fio_iops.1.log`, ...), each optional.
    pub fn load_dir(mut self, dir: &Path) -> Result<Self> {
        let entries =
            std::fs::read_dir(dir).with_context(|| format!("cannot read `{}`", dir.display()))?;
        for e in entries {
            let e = e.with_context(|| format!("cannot read `{}`", dir.display()))?;
            if !e.path().is_dir() {
                continue;
            }
            let read = |name: &str| std::fs::read_to_string(e.path().join(name)).ok();
            let capture = Capture {
                stdout: read("stdout").unwrap_or_default(),
                stderr: read("stderr").unwrap_or_default(),
                output_file: read("output"),
                exit_code: read("exit_code")
                    .and_then(|s| s.trim().parse().ok())
                    .unwrap_or(0),
                duration_s: 1.0,
                logs: {
                    let mut logs: Vec<(String, String)> = std::fs::read_dir(e.path())
                        .into_iter()
                        .flatten()
                        .filter_map(|f| f.ok())
                        .map(|f| f.file_name().to_string_lossy().into_owned())
                        .filter(|n| crate::tools::fio::log::log_name(n).is_some())
                        .filter_map(|n| Some((n.clone(), read(&n)?)))
                        .collect();
                    logs.sort();
                    logs
                },
            };
            let id = e.file_name().to_string_lossy().into_owned();
            self.captures.insert(id, capture);
        }
        Ok(self)
    }
}

impl Executor for ReplayExecutor {
    fn available(&self, program: &str) -> bool {
        !self.missing.contains(program)
    }

    fn measures_device(&self) -> bool {
        false
    }

    fn version(&mut self, tool: Tool) -> Option<String> {
        self.versions.get(&tool).cloned()
    }

    fn run(
        &mut self,
        test_id: &str,
        inv: &Invocation,
        _dir: &Path,
        _timeout: Duration,
    ) -> Result<Outcome> {
        self.ran.push(test_id.to_string());
        self.argv.push(
            std::iter::once(inv.program.clone())
                .chain(inv.args.iter().cloned())
                .collect(),
        );
        let c = self
            .captures
            .get(test_id)
            .with_context(|| format!("no captured output for test `{test_id}`"))?;
        Ok(Outcome {
            logs: c
                .logs
                .iter()
                .map(|(n, t)| (n.clone(), t.clone().into_bytes()))
                .collect(),
            stdout: c.stdout.clone(),
            stderr: c.stderr.clone(),
            output_file: c.output_file.clone(),
            exit_code: Some(c.exit_code),
            signal: None,
            duration: Duration::from_secs_f64(c.duration_s),
            timed_out: false,
            interrupted: None,
            stdout_bytes: None,
            stderr_bytes: None,
            fed: None,
            stopped: None,
        })
    }

    /// Plays the capture back as [`run`](Executor::run) does, its output
    /// file fed to `watcher` whole: a capture of a stopped run says why.
    fn run_watched(
        &mut self,
        test_id: &str,
        inv: &Invocation,
        dir: &Path,
        timeout: Duration,
        watcher: &mut Watcher,
    ) -> Result<Outcome> {
        let mut o = self.run(test_id, inv, dir, timeout)?;
        if let Some(text) = o.output_file.take() {
            o.stopped = watcher.feed(&text);
            o.output_file = watched_output(watcher, || Some(text));
        }
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inv(program: &str, args: &[&str]) -> Invocation {
        Invocation {
            program: program.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
            env: vec![("DISKDASH_T".into(), "x y".into())],
            output: OutputFrom::Stdout,
            bytes: 0,
            estimate_s: 0.0,
            parameters: Default::default(),
            stdin: None,
        }
    }

    #[test]
    fn real_run_captures_output_exit_code_and_env() {
        let dir = tempfile::tempdir().unwrap();
        let mut ex = RealExecutor::new(Arc::new(AtomicUsize::new(0)));
        let o = ex
            .run(
                "t",
                &inv(
                    "sh",
                    &["-c", "echo out $DISKDASH_T; echo err >&2; pwd; exit 3"],
                ),
                dir.path(),
                Duration::from_secs(10),
            )
            .unwrap();
        let cwd = dir.path().canonicalize().unwrap();
        assert_eq!(o.stdout, format!("out x y\n{}\n", cwd.display()));
        assert_eq!(o.stderr, "err\n");
        assert_eq!(o.exit_code, Some(3));
        assert!(!o.timed_out);
    }

    #[test]
    fn a_hanging_tool_and_its_children_are_stopped_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let mut ex = RealExecutor::new(Arc::new(AtomicUsize::new(0)));
        let start = Instant::now();
        // the child `sleep` keeps stdout open: only a group kill lets this return
        let o = ex
            .run(
                "t",
                &inv("sh", &["-c", "echo started; sleep 30; echo never"]),
                dir.path(),
                Duration::from_millis(300),
            )
            .unwrap();
        assert!(o.timed_out);
        assert_eq!(o.exit_code, None);
        assert_eq!(o.signal, Some(libc::SIGTERM));
        assert_eq!(o.stdout, "started\n");
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_fed_tool_that_stops_reading_does_not_hold_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let mut ex = RealExecutor::new(Arc::new(AtomicUsize::new(0)));
        let mut fed = inv("sh", &["-c", "head -c 1000 >/dev/null; echo read"]);
        fed.stdin = Some(crate::tools::argv::Feed {
            bytes: 1 << 30,
            seed: 1,
        });
        let o = ex
            .run("t", &fed, dir.path(), Duration::from_secs(10))
            .unwrap();
        assert_eq!(o.stdout, "read\n");
        assert!(o.fed.unwrap().bytes < 1 << 30);
        // one that never reads, and leaves a process holding its input
        // open outside its group (a shell gives a background job
        // /dev/null, hence fd 3): stopped at the limit, the feed gives up
        let start = Instant::now();
        let mut held = inv("sh", &["-c", "exec 3<&0; setsid sleep 30 <&3 & sleep 30"]);
        held.stdin = fed.stdin;
        let o = ex
            .run("t", &held, dir.path(), Duration::from_millis(300))
            .unwrap();
        assert!(o.timed_out);
        assert!(o.fed.unwrap().bytes < 1 << 30);
        assert!(
            start.elapsed() < Duration::from_secs(6),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn a_pending_signal_stops_the_tool() {
        let dir = tempfile::tempdir().unwrap();
        let flag = Arc::new(AtomicUsize::new(libc::SIGINT as usize));
        let mut ex = RealExecutor::new(flag);
        let o = ex
            .run(
                "t",
                &inv("sleep", &["30"]),
                dir.path(),
                Duration::from_secs(60),
            )
            .unwrap();
        assert_eq!(o.interrupted, Some(libc::SIGINT));
        assert!(o.duration < Duration::from_secs(5));
    }

    #[test]
    fn a_watched_tool_is_stopped_with_sigint_and_keeps_its_final_document() {
        use crate::record::StopReason;
        use crate::run::watch::Watch;
        use crate::timeline::stop::Bursting;
        let dir = tempfile::tempdir().unwrap();
        // fio's way: a cumulative status document per (claimed) second
        // appended to its output file, and on SIGINT its final results
        let script = r#"
            doc() { echo "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"read\": {\"total_ios\": $1, \"io_bytes\": $(($1 * 4096)), \"runtime\": $2}}]$3}" >> fio.json; }
            trap 'echo "fio: terminating on signal 2" >> fio.json; doc $((i * 200)) $((i * 1000)) ", \"final\": 1"; exit 128' INT
            i=0
            while [ $i -lt 3000 ]; do i=$((i + 1)); doc $((i * 200)) $((i * 1000)) ""; sleep 0.01; done
        "#;
        let mut run = inv("sh", &["-c", script]);
        run.output = OutputFrom::File(dir.path().join("fio.json"));
        let mut watcher = Watcher::new(Watch {
            window_s: 60.0,
            by_bw: false,
            bursting: Bursting::Never,
            full: false,
        });
        let mut ex = RealExecutor::new(Arc::new(AtomicUsize::new(0)));
        let o = ex
            .run_watched("t", &run, dir.path(), Duration::from_secs(60), &mut watcher)
            .unwrap();
        assert_eq!(o.stopped, Some(StopReason::FlatNoBurstPossible));
        assert_eq!(o.exit_code, Some(128));
        assert!(!o.timed_out && o.interrupted.is_none());
        let out = o.output_file.unwrap();
        assert_eq!(out.matches("fio version").count(), 1, "{out}");
        assert!(out.contains("\"final\": 1"), "{out}");
        // a flat 200 IOPS is answered after the rule's 15 s minimum
        assert!(watcher.elapsed_s() >= 15.0);
        assert!(o.duration < Duration::from_secs(30));
    }

    #[test]
    fn a_tool_gets_default_signal_dispositions_even_when_diskdash_ignores_sigint() {
        // as when diskdash is started in the background by a script: SIGINT
        // ignored, which a child would inherit, and which its shell could
        // not even trap; set for this test only, then put back as it was
        // SAFETY: sigaction(2) with a zeroed struct and SIG_IGN, then the
        // saved action restored.
        let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
        unsafe {
            let mut ign: libc::sigaction = std::mem::zeroed();
            ign.sa_sigaction = libc::SIG_IGN;
            libc::sigaction(libc::SIGINT, &ign, &mut old);
        }
        let dir = tempfile::tempdir().unwrap();
        let mut ex = RealExecutor::new(Arc::new(AtomicUsize::new(0)));
        let o = ex.run(
            "t",
            &inv(
                "sh",
                &["-c", "trap 'exit 7' INT; kill -INT $$; sleep 2; exit 0"],
            ),
            dir.path(),
            Duration::from_secs(30),
        );
        unsafe {
            libc::sigaction(libc::SIGINT, &old, std::ptr::null_mut());
        }
        // the shell's trap ran: SIGINT reached it
        assert_eq!(o.unwrap().exit_code, Some(7));
    }

    #[test]
    fn a_missing_program_is_an_error_and_not_available() {
        let ex = RealExecutor::new(Arc::new(AtomicUsize::new(0)));
        assert!(!ex.available("diskdash-no-such-tool"));
        assert!(ex.available("sh"));
        let mut ex = ex;
        let dir = tempfile::tempdir().unwrap();
        let e = ex
            .run(
                "t",
                &inv("diskdash-no-such-tool", &[]),
                dir.path(),
                Duration::from_secs(1),
            )
            .unwrap_err();
        assert!(format!("{e:#}").contains("failed to start `diskdash-no-such-tool`"));
    }
}
