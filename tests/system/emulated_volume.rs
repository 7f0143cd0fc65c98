//! An emulated cloud volume: an ext4 image on a loop device whose read IOPS
//! a cgroup throttle limits (cgroup v1 `blkio.throttle.read_iops_device`,
//! or v2 `io.max`), with a controller thread that moves the limit the way a
//! provider's credit bucket or burst cycle would, and optionally a fixed
//! write IOPS limit (`blkio.throttle.write_iops_device`, `io.max` `wiops`).
//!
//! Everything set up is undone by [`Volume`]'s `Drop` (unmount, detach the
//! loop device, remove the cgroup), also when an assertion fails.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the controller reads the served I/O count and sets the limit.
pub const TICK: Duration = Duration::from_millis(100);

/// Serialises `losetup --find` between the scenarios of one test binary.
static LOSETUP: Mutex<()> = Mutex::new(());

/// Which cgroup interface throttles I/O on this machine.
#[derive(Clone, Debug, PartialEq)]
pub enum Flavor {
    /// cgroup v1: the blkio hierarchy's mount point.
    V1(PathBuf),
    /// cgroup v2: the unified hierarchy's mount point.
    V2(PathBuf),
}

/// What the machine lacks to build the volume, in words; `Ok` with the
/// cgroup flavour when nothing is missing.
pub fn requirements() -> Result<Flavor, String> {
    let mut missing = Vec::new();
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        missing.push("root (loop devices, mounts and cgroups need it)".to_string());
    }
    for tool in ["fio", "mkfs.ext4", "losetup", "mount", "umount"] {
        if diskdash::run::exec::which(tool).is_none() {
            missing.push(format!("`{tool}`"));
        }
    }
    if !Path::new("/dev/loop-control").exists() {
        missing.push("/dev/loop-control (the loop driver)".into());
    }
    let flavor = flavor();
    if flavor.is_none() {
        missing
            .push("a cgroup I/O throttle (v1 blkio.throttle.read_iops_device or v2 io.max)".into());
    }
    match flavor {
        Some(f) if missing.is_empty() => Ok(f),
        _ => Err(missing.join(", ")),
    }
}

fn flavor() -> Option<Flavor> {
    let v1 = Path::new("/sys/fs/cgroup/blkio");
    if v1.join("blkio.throttle.read_iops_device").exists() {
        return Some(Flavor::V1(v1.into()));
    }
    // pure v2 at /sys/fs/cgroup, or the unified part of a hybrid setup
    for root in ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"] {
        let root = Path::new(root);
        let controllers = std::fs::read_to_string(root.join("cgroup.controllers"));
        if controllers.is_ok_and(|c| c.split_whitespace().any(|c| c == "io")) {
            return Some(Flavor::V2(root.into()));
        }
    }
    None
}

/// A cgroup of our own, with a read IOPS limit on one device.
#[derive(Debug)]
pub struct Cgroup {
    flavor: Flavor,
    dir: PathBuf,
    /// `MAJ:MIN` of the throttled device.
    dev: String,
}

impl Cgroup {
    fn create(flavor: &Flavor, name: &str, dev: &str) -> Result<Cgroup, String> {
        let dir = match flavor {
            Flavor::V1(root) => root.join(name),
            Flavor::V2(root) => {
                // the io controller must be enabled for the children of the root
                let control = root.join("cgroup.subtree_control");
                let enabled = std::fs::read_to_string(&control).unwrap_or_default();
                if !enabled.split_whitespace().any(|c| c == "io") {
                    std::fs::write(&control, "+io")
                        .map_err(|e| format!("enabling io in {}: {e}", control.display()))?;
                }
                root.join(name)
            }
        };
        std::fs::create_dir(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        Ok(Cgroup {
            flavor: flavor.clone(),
            dir,
            dev: dev.into(),
        })
    }

    /// The file a process writes its pid to, to join the group.
    pub fn procs(&self) -> PathBuf {
        self.dir.join("cgroup.procs")
    }

    /// Limits reads on the device to `iops` per second.
    pub fn set_read_iops(&self, iops: u64) -> Result<(), String> {
        let (file, line) = match self.flavor {
            Flavor::V1(_) => (
                self.dir.join("blkio.throttle.read_iops_device"),
                format!("{} {iops}", self.dev),
            ),
            Flavor::V2(_) => (
                self.dir.join("io.max"),
                format!("{} riops={iops}", self.dev),
            ),
        };
        std::fs::write(&file, line).map_err(|e| format!("writing {}: {e}", file.display()))
    }

    /// Limits writes on the device to `iops` per second.
    pub fn set_write_iops(&self, iops: u64) -> Result<(), String> {
        let (file, line) = match self.flavor {
            Flavor::V1(_) => (
                self.dir.join("blkio.throttle.write_iops_device"),
                format!("{} {iops}", self.dev),
            ),
            Flavor::V2(_) => (
                self.dir.join("io.max"),
                format!("{} wiops={iops}", self.dev),
            ),
        };
        std::fs::write(&file, line).map_err(|e| format!("writing {}: {e}", file.display()))
    }

    /// Reads the group's processes have had served on the device so far.
    pub fn reads_served(&self) -> Result<u64, String> {
        let file = match self.flavor {
            Flavor::V1(_) => self.dir.join("blkio.throttle.io_serviced"),
            Flavor::V2(_) => self.dir.join("io.stat"),
        };
        let text = std::fs::read_to_string(&file)
            .map_err(|e| format!("reading {}: {e}", file.display()))?;
        Ok(parse_reads(
            &text,
            &self.dev,
            matches!(self.flavor, Flavor::V1(_)),
        ))
    }
}

/// The read count of device `dev` in v1 `io_serviced` (`7:0 Read 123`) or
/// v2 `io.stat` (`7:0 rbytes=.. wbytes=.. rios=123 ..`) text; 0 before the
/// group has done I/O on it (the line is then absent).
pub fn parse_reads(text: &str, dev: &str, v1: bool) -> u64 {
    for line in text.lines() {
        let mut f = line.split_whitespace();
        if f.next() != Some(dev) {
            continue;
        }
        if v1 {
            if f.next() == Some("Read") {
                return f.next().and_then(|n| n.parse().ok()).unwrap_or(0);
            }
        } else if let Some(n) = f.find_map(|kv| kv.strip_prefix("rios=")) {
            return n.parse().unwrap_or(0);
        }
    }
    0
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        // the group is empty once diskdash and fio have exited; a process
        // still leaving takes a moment
        for _ in 0..50 {
            if std::fs::remove_dir(&self.dir).is_ok() || !self.dir.exists() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        eprintln!("emulated volume: could not remove {}", self.dir.display());
    }
}

/// How the controller sets the read limit.
#[derive(Clone, Copy, Debug)]
pub enum Behaviour {
    /// A credit bucket: `capacity` credits, `initial` of them there at the
    /// start. Each read served spends one; they refill at `baseline` per
    /// second up to `capacity`. The limit is `burst` while credits remain,
    /// else `baseline`.
    Bucket {
        burst: u64,
        baseline: u64,
        capacity: f64,
        initial: f64,
    },
    /// The limit alternates between `high` and `low` every `half_period`.
    Toggle {
        high: u64,
        low: u64,
        half_period: Duration,
    },
}

/// Once a bucket is empty, the limit returns to the burst level only when
/// this share of the capacity has been earned back. A reader at the
/// baseline spends exactly what is refilled, so without this margin the
/// credits would hover around zero and each small surplus (the throttle
/// serves a few I/Os fewer in one tick than in the next) would open a
/// 100 ms burst: a flapping volume no provider sells.
pub const REARM_SHARE: f64 = 0.1;

/// The limit for the next tick: (limit, bursting). Pure, for unit tests.
pub fn bucket_step(
    credits: f64,
    bursting: bool,
    burst: u64,
    baseline: u64,
    capacity: f64,
) -> (u64, bool) {
    let bursting = if bursting {
        credits > 0.0
    } else {
        credits > 0.0 && credits >= REARM_SHARE * capacity
    };
    (if bursting { burst } else { baseline }, bursting)
}

/// The controller thread: sets the limit every [`TICK`] until stopped.
struct Controller {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<Result<(), String>>>,
}

impl Controller {
    fn start(cgroup: Arc<Cgroup>, behaviour: Behaviour) -> Result<Controller, String> {
        // the first limit is in place before anything runs in the group
        let first = match behaviour {
            Behaviour::Bucket {
                burst,
                baseline,
                capacity,
                initial,
            } => {
                bucket_step(
                    initial,
                    initial >= REARM_SHARE * capacity,
                    burst,
                    baseline,
                    capacity,
                )
                .0
            }
            Behaviour::Toggle { high, .. } => high,
        };
        cgroup.set_read_iops(first)?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::spawn(move || run_controller(&cgroup, behaviour, &flag));
        Ok(Controller {
            stop,
            handle: Some(handle),
        })
    }

    fn stop(&mut self) -> Result<(), String> {
        self.stop.store(true, Ordering::SeqCst);
        match self.handle.take() {
            Some(h) => h
                .join()
                .map_err(|_| "the controller panicked".to_string())?,
            None => Ok(()),
        }
    }
}

impl Drop for Controller {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

fn run_controller(cgroup: &Cgroup, behaviour: Behaviour, stop: &AtomicBool) -> Result<(), String> {
    let start = Instant::now();
    let mut last_t = start;
    let mut last_served = cgroup.reads_served()?;
    let (mut credits, mut bursting, mut limit) = match behaviour {
        Behaviour::Bucket {
            burst,
            baseline,
            capacity,
            initial,
        } => {
            let (l, b) = bucket_step(
                initial,
                initial >= REARM_SHARE * capacity,
                burst,
                baseline,
                capacity,
            );
            (initial, b, l)
        }
        Behaviour::Toggle { high, .. } => (0.0, true, high),
    };
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(TICK);
        let now = Instant::now();
        let next = match behaviour {
            Behaviour::Bucket {
                burst,
                baseline,
                capacity,
                ..
            } => {
                // only reads spend credits: a write pass (fio's layout, a
                // pre-fill) leaves the bucket as it was
                let served = cgroup.reads_served()?;
                let dt = now.duration_since(last_t).as_secs_f64();
                credits = (credits - served.saturating_sub(last_served) as f64
                    + baseline as f64 * dt)
                    .min(capacity);
                last_served = served;
                let (l, b) = bucket_step(credits, bursting, burst, baseline, capacity);
                bursting = b;
                l
            }
            Behaviour::Toggle {
                high,
                low,
                half_period,
            } => {
                let phase = now.duration_since(start).as_secs_f64() / half_period.as_secs_f64();
                if (phase as u64) % 2 == 0 {
                    high
                } else {
                    low
                }
            }
        };
        last_t = now;
        if next != limit {
            cgroup.set_read_iops(next)?;
            limit = next;
        }
    }
    Ok(())
}

/// An ext4 image on a loop device, mounted, with its own cgroup and
/// controller. Dropping it stops the controller, unmounts, detaches the
/// loop device, removes the cgroup and the image.
pub struct Volume {
    controller: Option<Controller>,
    cgroup: Option<Arc<Cgroup>>,
    mounted: bool,
    loop_dev: Option<String>,
    /// The mount point: the `--target` of a run.
    pub mount: PathBuf,
    /// Holds the image and the mount point.
    _dir: tempfile::TempDir,
}

fn sh(program: &str, args: &[&str]) -> Result<String, String> {
    let o = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "{program} {}: {}{}",
            args.join(" "),
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&o.stdout).trim().to_string())
}

impl Volume {
    /// Builds a volume of `image_mib` MiB named `name` (the cgroup's name)
    /// whose read limit follows `behaviour`, with writes limited to
    /// `write_iops` a second from the start when given.
    pub fn with_write_limit(
        name: &str,
        image_mib: u64,
        behaviour: Behaviour,
        write_iops: Option<u64>,
    ) -> Result<Volume, String> {
        // under target/, not /tmp: a tmpfs /tmp would hold the image in RAM
        // twice (tmpfs and the loop device's page cache)
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).map_err(|e| e.to_string())?;
        let image = dir.path().join("volume.img");
        let mount = dir.path().join("mnt");
        std::fs::create_dir(&mount).map_err(|e| e.to_string())?;
        let f = std::fs::File::create(&image).map_err(|e| e.to_string())?;
        f.set_len(image_mib << 20).map_err(|e| e.to_string())?;
        drop(f);
        let image_s = image.to_str().ok_or("image path is not UTF-8")?;
        sh("mkfs.ext4", &["-q", "-F", image_s])?;
        let mut v = Volume {
            controller: None,
            cgroup: None,
            mounted: false,
            loop_dev: None,
            mount: mount.clone(),
            _dir: dir,
        };
        // The loop device reads its backing file through the page cache
        // (no --direct-io): the image was just written and stays cached, so
        // the throttle, not the host's disk (shared, of unknown speed), is
        // what limits the emulated volume.
        let dev = {
            let _one_at_a_time = LOSETUP.lock().unwrap_or_else(|e| e.into_inner());
            let mut tries = 0;
            loop {
                match sh("losetup", &["--find", "--show", image_s]) {
                    Ok(d) => break d,
                    Err(e) if tries >= 5 => return Err(e),
                    Err(_) => {
                        tries += 1;
                        std::thread::sleep(Duration::from_millis(200));
                    }
                }
            }
        };
        v.loop_dev = Some(dev.clone());
        let base = Path::new(&dev)
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or("losetup printed no device")?
            .to_string();
        let majmin = std::fs::read_to_string(format!("/sys/block/{base}/dev"))
            .map_err(|e| format!("/sys/block/{base}/dev: {e}"))?
            .trim()
            .to_string();
        sh(
            "mount",
            &[&dev, mount.to_str().ok_or("mount path is not UTF-8")?],
        )?;
        v.mounted = true;
        let flavor = requirements()?;
        let cgroup = Arc::new(Cgroup::create(&flavor, name, &majmin)?);
        v.cgroup = Some(cgroup.clone());
        if let Some(w) = write_iops {
            cgroup.set_write_iops(w)?;
        }
        v.controller = Some(Controller::start(cgroup, behaviour)?);
        Ok(v)
    }

    /// The file to write a pid to, to put a process (and what it starts)
    /// behind the throttle.
    pub fn procs(&self) -> PathBuf {
        self.cgroup.as_ref().expect("a volume has a cgroup").procs()
    }

    /// Stops the controller, returning its error if it had one.
    pub fn stop(&mut self) -> Result<(), String> {
        match self.controller.take() {
            Some(mut c) => c.stop(),
            None => Ok(()),
        }
    }
}

impl Drop for Volume {
    fn drop(&mut self) {
        if let Some(mut c) = self.controller.take() {
            let _ = c.stop();
        }
        if self.mounted {
            let m = self.mount.to_string_lossy().to_string();
            let mut ok = false;
            for _ in 0..20 {
                if sh("umount", &[&m]).is_ok() {
                    ok = true;
                    break;
                }
                std::thread::sleep(Duration::from_millis(250));
            }
            if !ok {
                let _ = sh("umount", &["-l", &m]);
            }
        }
        if let Some(dev) = self.loop_dev.take() {
            if let Err(e) = sh("losetup", &["-d", &dev]) {
                eprintln!("emulated volume: {e}");
            }
        }
        // the cgroup goes with the last Arc (the controller's is gone)
        self.cgroup.take();
    }
}
