//! Host and target facts read from the machine (`/proc`, `/sys`,
//! `/etc/os-release`, `uname`, `statvfs`, `statfs`,
//! `/proc/self/mountinfo`, `zfs get` on zfs). The
//! parsing is pure functions over text; unknown stays `None`.

use std::path::{Path, PathBuf};

use crate::record::{Host, Target};

/// The model name of the first CPU in `/proc/cpuinfo` (`model name`, or
/// `Processor`/`cpu model` on some ARM and MIPS kernels).
pub fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        let k = k.trim();
        let v = v.trim();
        (matches!(k, "model name" | "Processor" | "cpu model" | "Hardware") && !v.is_empty())
            .then(|| v.to_string())
    })
}

/// Whether `/proc/cpuinfo` flags lists `hypervisor` (x86 guests).
pub fn has_hypervisor_flag(cpuinfo: &str) -> bool {
    cpuinfo.lines().any(|l| {
        l.split_once(':').is_some_and(|(k, v)| {
            k.trim() == "flags" && v.split_whitespace().any(|f| f == "hypervisor")
        })
    })
}

/// `MemTotal` of `/proc/meminfo` in bytes.
pub fn mem_total(meminfo: &str) -> Option<u64> {
    meminfo.lines().find_map(|l| {
        let rest = l.strip_prefix("MemTotal:")?;
        let mut parts = rest.split_whitespace();
        let n: u64 = parts.next()?.parse().ok()?;
        match parts.next() {
            Some("kB") | None => n.checked_mul(1024),
            _ => None,
        }
    })
}

/// A field of `/etc/os-release` (`PRETTY_NAME`, `ID`, `ID_LIKE`), unquoted.
pub fn os_release_field(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once('=')?;
        if k.trim() != key {
            return None;
        }
        let v = v.trim();
        let v = v
            .strip_prefix('"')
            .and_then(|x| x.strip_suffix('"'))
            .or_else(|| v.strip_prefix('\'').and_then(|x| x.strip_suffix('\'')))
            .unwrap_or(v);
        (!v.is_empty()).then(|| v.to_string())
    })
}

/// What the machine looks like from inside, as raw texts (so detection is
/// testable): `/run/systemd/container`, DMI vendor and product, cpuinfo,
/// whether `/.dockerenv` exists.
#[derive(Clone, Debug, Default)]
pub struct VirtEvidence {
    /// Contents of `/run/systemd/container`.
    pub container: Option<String>,
    /// Whether `/.dockerenv` exists.
    pub dockerenv: bool,
    /// `/sys/class/dmi/id/sys_vendor`.
    pub sys_vendor: Option<String>,
    /// `/sys/class/dmi/id/product_name`.
    pub product_name: Option<String>,
    /// `/proc/cpuinfo`.
    pub cpuinfo: Option<String>,
}

/// The hypervisor or container: a container name (`docker`, `lxc`), a
/// hypervisor (`kvm`, `xen`, `vmware`, `hyperv`, `virtualbox`, ...), `vm`
/// when a guest of an unknown hypervisor, `none` on bare metal, `None` when
/// nothing can be told.
pub fn virtualization(e: &VirtEvidence) -> Option<String> {
    if let Some(c) = e
        .container
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        return Some(c.to_string());
    }
    if e.dockerenv {
        return Some("docker".into());
    }
    let vendor = e.sys_vendor.as_deref().unwrap_or("").trim();
    let product = e.product_name.as_deref().unwrap_or("").trim();
    let known = [
        ("QEMU", "kvm"),
        ("KVM", "kvm"),
        ("Xen", "xen"),
        ("VMware", "vmware"),
        ("innotek", "virtualbox"),
        ("Parallels", "parallels"),
        ("Amazon EC2", "kvm"),
        ("Google", "kvm"),
        ("DigitalOcean", "kvm"),
        ("Hetzner", "kvm"),
        ("OpenStack", "kvm"),
        ("Bochs", "bochs"),
    ];
    for (needle, name) in known {
        if vendor.contains(needle) || product.contains(needle) {
            return Some(name.into());
        }
    }
    if vendor.contains("Microsoft") && product.contains("Virtual") {
        return Some("hyperv".into());
    }
    let cpuinfo = e.cpuinfo.as_deref()?;
    if has_hypervisor_flag(cpuinfo) {
        return Some("vm".into());
    }
    // only x86 shows the flag; elsewhere its absence proves nothing
    if cpuinfo.contains("flags") {
        Some("none".into())
    } else {
        None
    }
}

/// One line of `/proc/self/mountinfo`, the fields diskdash uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Mount {
    /// `major:minor` of the filesystem's device.
    pub dev: String,
    /// Where it is mounted.
    pub mount_point: String,
    /// Per-mount options, then filesystem options not already listed.
    pub options: String,
    /// Filesystem type.
    pub fs_type: String,
    /// Mount source (`/dev/vda1`, `tmpfs`, `server:/export`).
    pub source: String,
}

/// Undoes mountinfo's octal escapes (`\040` for a space).
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let esc = b
            .get(i + 1..i + 4)
            .filter(|d| b[i] == b'\\' && d.iter().all(|c| (b'0'..=b'7').contains(c)));
        match esc {
            Some(d) => {
                let v = (d[0] - b'0') as u32 * 64 + (d[1] - b'0') as u32 * 8 + (d[2] - b'0') as u32;
                out.push(v as u8);
                i += 4;
            }
            None => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Parses `/proc/self/mountinfo`; lines that do not fit are left out.
pub fn parse_mountinfo(text: &str) -> Vec<Mount> {
    text.lines()
        .filter_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            let l: Vec<&str> = left.split(' ').collect();
            let r: Vec<&str> = right.split(' ').collect();
            let mut options: Vec<&str> = l.get(5)?.split(',').collect();
            for o in r.get(2).copied().unwrap_or("").split(',') {
                if !o.is_empty() && !options.contains(&o) {
                    options.push(o);
                }
            }
            Some(Mount {
                dev: l.get(2)?.to_string(),
                mount_point: unescape(l.get(4)?),
                options: options.join(","),
                fs_type: r.first()?.to_string(),
                source: unescape(r.get(1)?),
            })
        })
        .collect()
}

/// The mount holding `path` (absolute, symlinks resolved): the last-mounted
/// of the longest mount points that contain it.
pub fn mount_of<'a>(mounts: &'a [Mount], path: &Path) -> Option<&'a Mount> {
    let mut best: Option<&Mount> = None;
    for m in mounts {
        if path.starts_with(&m.mount_point)
            && best.is_none_or(|b| m.mount_point.len() >= b.mount_point.len())
        {
            best = Some(m);
        }
    }
    best
}

/// `f_type` of `statfs` for tmpfs and ramfs (`linux/magic.h`).
const TMPFS_MAGIC: u32 = 0x0102_1994;
const RAMFS_MAGIC: u32 = 0x8584_58f6;

/// What a filesystem does to the numbers measured on it, when it is not
/// plain storage: a sentence saying so, or `None`.
///
/// - tmpfs and ramfs (by `fs_type`, or by `statfs`'s `f_type`,
///   `fs_magic`, where mountinfo gives no type) keep files in memory;
/// - a mount source `/dev/zramN` is a compressed block device in memory;
/// - btrfs mounted with `compress`/`compress-force` (and not `=no`)
///   compresses what it writes;
/// - zfs compresses when its dataset's `compression` property is not
///   `off`: `zfs_compression` asks for it (`zfs get`), and when it gives
///   no answer the sentence says that it is unknown.
pub fn storage_warning(
    mount: Option<&Mount>,
    fs_magic: Option<u32>,
    zfs_compression: impl FnOnce(&str) -> Option<String>,
) -> Option<String> {
    let fs_type = mount.map(|m| m.fs_type.as_str());
    let in_memory = match (fs_type, fs_magic) {
        (Some(t @ ("tmpfs" | "ramfs")), _) => Some(t),
        (_, Some(TMPFS_MAGIC)) => Some("tmpfs"),
        (_, Some(RAMFS_MAGIC)) => Some("ramfs"),
        _ => None,
    };
    if let Some(fs) = in_memory {
        return Some(format!(
            "the target is on {fs}, which keeps its files in memory: the numbers measure RAM, not a disk"
        ));
    }
    let m = mount?;
    let zram = m
        .source
        .strip_prefix("/dev/zram")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if zram {
        return Some(format!(
            "the target is on {}, a compressed block device in memory (zram): the numbers measure RAM and compression, not a disk",
            m.source
        ));
    }
    const COMPRESSES: &str = "what it writes is compressed on its way to the disk, so the numbers depend on how well the test data compresses, not on the disk alone";
    match m.fs_type.as_str() {
        "btrfs" => {
            let option = m.options.split(',').find(|o| {
                let (key, value) = o.split_once('=').unwrap_or((o, ""));
                matches!(key, "compress" | "compress-force") && value != "no"
            })?;
            Some(format!(
                "the target is on btrfs mounted with `{option}`: {COMPRESSES}"
            ))
        }
        "zfs" => match zfs_compression(&m.source).map(|c| c.trim().to_string()) {
            Some(c) if c == "off" => None,
            Some(c) => Some(format!(
                "the target is on zfs dataset `{}` with compression={c}: {COMPRESSES}",
                m.source
            )),
            None => Some(format!(
                "the target is on zfs dataset `{}` and whether it compresses is unknown (`zfs get compression` gave no answer): if it does, the numbers depend on how well the test data compresses, not on the disk alone",
                m.source
            )),
        },
        _ => None,
    }
}

/// The `compression` property of zfs dataset `dataset`, from `zfs get`;
/// `None` when `zfs` is missing or does not answer.
fn zfs_compression(dataset: &str) -> Option<String> {
    let out = std::process::Command::new("zfs")
        .args(["get", "-H", "-o", "value", "compression", dataset])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let value = String::from_utf8(out.stdout).ok()?;
    let value = value.trim();
    (out.status.success() && !value.is_empty() && !value.contains('\n')).then(|| value.to_string())
}

/// `f_type` of `statfs` for the filesystem holding `path`.
fn fs_magic(path: &Path) -> Option<u32> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: statfs fills the zeroed struct we pass; `c` is a valid C string.
    let mut s: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(c.as_ptr(), &mut s) } != 0 {
        return None;
    }
    // the magic numbers are 32 bits; the field's width differs by arch
    #[allow(clippy::unnecessary_cast)]
    Some(s.f_type as u32)
}

/// The active scheduler in `queue/scheduler` (`mq-deadline kyber [none]` → `none`).
pub fn active_scheduler(text: &str) -> Option<String> {
    let start = text.find('[')?;
    let end = text.get(start..)?.find(']')? + start;
    let s = text.get(start + 1..end)?.trim();
    (!s.is_empty()).then(|| s.to_string())
}

fn read(path: impl AsRef<Path>) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// Size and free bytes (for unprivileged users) of the filesystem holding `path`.
pub fn fs_space(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs fills the zeroed struct we pass; `c` is a valid C string.
    let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::statvfs(c.as_ptr(), &mut s) };
    if rc != 0 {
        return None;
    }
    let frsize = s.f_frsize as u64;
    Some((
        (s.f_blocks as u64).saturating_mul(frsize),
        (s.f_bavail as u64).saturating_mul(frsize),
    ))
}

/// Free bytes on the filesystem holding `path`.
pub fn free_bytes(path: &Path) -> Option<u64> {
    fs_space(path).map(|(_, free)| free)
}

/// The kernel release, the machine architecture and the node name
/// (the hostname) from `uname`.
fn uname() -> (Option<String>, Option<String>, Option<String>) {
    // SAFETY: uname fills the zeroed struct; its fields are NUL-terminated.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    if unsafe { libc::uname(&mut u) } != 0 {
        return (None, None, None);
    }
    let field = |f: &[libc::c_char]| {
        let bytes: Vec<u8> = f
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8)
            .collect();
        let s = String::from_utf8_lossy(&bytes).into_owned();
        (!s.is_empty()).then_some(s)
    };
    (field(&u.release), field(&u.machine), field(&u.nodename))
}

/// This machine's hostname as the kernel holds it:
/// `/proc/sys/kernel/hostname`, else `uname`'s node name; `None` when
/// neither says one (empty, or the kernel's `(none)` of a name never set).
pub fn hostname() -> Option<String> {
    read("/proc/sys/kernel/hostname")
        .or_else(|| uname().2)
        .as_deref()
        .and_then(hostname_of)
}

/// The hostname in the kernel's text: trimmed; `None` for an empty one or
/// `(none)`, what Linux holds until a name is set.
pub fn hostname_of(text: &str) -> Option<String> {
    let name = text.trim();
    (!name.is_empty() && name != "(none)").then(|| name.to_string())
}

/// Whether the effective user is root.
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Total memory of this machine in bytes, from `/proc/meminfo`.
pub fn read_memory() -> Option<u64> {
    read("/proc/meminfo").as_deref().and_then(mem_total)
}

/// Facts about this machine.
pub fn host() -> Host {
    let cpuinfo = read("/proc/cpuinfo");
    // SAFETY: sysconf has no preconditions.
    let cpus = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    let (kernel, arch, _) = uname();
    let os_release = read("/etc/os-release").or_else(|| read("/usr/lib/os-release"));
    let evidence = VirtEvidence {
        container: read("/run/systemd/container"),
        dockerenv: Path::new("/.dockerenv").exists(),
        sys_vendor: read("/sys/class/dmi/id/sys_vendor"),
        product_name: read("/sys/class/dmi/id/product_name"),
        cpuinfo: cpuinfo.clone(),
    };
    Host {
        cpu_model: cpuinfo.as_deref().and_then(cpu_model),
        cpu_count: u32::try_from(cpus).ok().filter(|&n| n > 0),
        memory_bytes: read_memory(),
        kernel,
        os: os_release
            .as_deref()
            .and_then(|t| os_release_field(t, "PRETTY_NAME")),
        arch,
        virtualization: virtualization(&evidence),
        instance_type: None,
        name: None,
        description: None,
    }
}

/// The `/sys/block` device directory for `dev` (`major:minor`): the disk
/// itself, or the disk holding a partition.
fn sys_block_dir(dev: &str) -> Option<PathBuf> {
    let dir = std::fs::canonicalize(format!("/sys/dev/block/{dev}")).ok()?;
    if dir.join("partition").exists() {
        dir.parent().map(Path::to_path_buf)
    } else {
        Some(dir)
    }
}

/// Facts about the filesystem holding `path` (which must exist).
pub fn target(path: &Path) -> Target {
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mounts = read("/proc/self/mountinfo")
        .map(|t| parse_mountinfo(&t))
        .unwrap_or_default();
    let mount = mount_of(&mounts, &abs);
    let block = mount.and_then(|m| sys_block_dir(&m.dev));
    let queue = |name: &str| {
        block
            .as_ref()
            .and_then(|d| read(d.join("queue").join(name)))
    };
    let space = fs_space(&abs);
    Target {
        path: Some(abs.display().to_string()),
        fs_type: mount.map(|m| m.fs_type.clone()),
        mount_options: mount.map(|m| m.options.clone()),
        mount_point: mount.map(|m| m.mount_point.clone()),
        device: mount.map(|m| m.source.clone()),
        rotational: queue("rotational").and_then(|t| match t.trim() {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        }),
        scheduler: queue("scheduler").as_deref().and_then(active_scheduler),
        size_bytes: space.map(|s| s.0),
        free_bytes: space.map(|s| s.1),
        description: None,
        warning: storage_warning(mount, fs_magic(&abs), zfs_compression),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CPUINFO: &str = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz\nflags\t\t: fpu vme de pse hypervisor lahf_lm\n\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz\n";
    const MOUNTINFO: &str = "\
22 1 252:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,errors=remount-ro
25 22 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw
30 22 0:26 / /tmp rw,nosuid,nodev shared:14 - tmpfs tmpfs rw,size=4096k
41 22 259:3 / /mnt/my\\040data rw,noatime - xfs /dev/nvme0n1p3 rw,attr2,inode64
42 41 0:40 / /mnt/my\\040data/sub rw - nfs4 srv:/export rw,vers=4.2
garbage line
";

    #[test]
    fn cpuinfo_gives_model_and_guest_flag() {
        assert_eq!(
            cpu_model(CPUINFO).as_deref(),
            Some("Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz")
        );
        assert!(has_hypervisor_flag(CPUINFO));
        assert!(!has_hypervisor_flag("flags : fpu vme\n"));
        assert_eq!(cpu_model("processor : 0\n"), None);
    }

    #[test]
    fn meminfo_total_in_bytes() {
        assert_eq!(
            mem_total("MemTotal:       24684092 kB\nMemFree:  1 kB\n"),
            Some(24684092 * 1024)
        );
        assert_eq!(mem_total("MemFree: 1 kB\n"), None);
        assert_eq!(mem_total("MemTotal: lots kB\n"), None);
    }

    #[test]
    fn os_release_fields_unquoted() {
        let t =
            "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\nID_LIKE='rhel fedora'\n";
        assert_eq!(
            os_release_field(t, "PRETTY_NAME").as_deref(),
            Some("Debian GNU/Linux 12 (bookworm)")
        );
        assert_eq!(os_release_field(t, "ID").as_deref(), Some("debian"));
        assert_eq!(
            os_release_field(t, "ID_LIKE").as_deref(),
            Some("rhel fedora")
        );
        assert_eq!(os_release_field(t, "VERSION"), None);
    }

    #[test]
    fn mountinfo_finds_the_deepest_mount() {
        let mounts = parse_mountinfo(MOUNTINFO);
        assert_eq!(mounts.len(), 5);
        let m = mount_of(&mounts, Path::new("/mnt/my data/x/y")).unwrap();
        assert_eq!(m.fs_type, "xfs");
        assert_eq!(m.source, "/dev/nvme0n1p3");
        assert_eq!(m.dev, "259:3");
        assert_eq!(m.options, "rw,noatime,attr2,inode64");
        assert_eq!(
            mount_of(&mounts, Path::new("/mnt/my data/sub/z"))
                .unwrap()
                .fs_type,
            "nfs4"
        );
        // "/tmpfoo" is not under "/tmp"
        assert_eq!(
            mount_of(&mounts, Path::new("/tmpfoo")).unwrap().mount_point,
            "/"
        );
        let root = mount_of(&mounts, Path::new("/home/u")).unwrap();
        assert_eq!(root.options, "rw,relatime,errors=remount-ro");
    }

    /// The warning for the target `/mnt/t` under `line` (a mountinfo line)
    /// with `zfs get` answering `zfs`.
    fn warning_under(line: &str, zfs: Option<&str>) -> Option<String> {
        let mounts = parse_mountinfo(line);
        let m = mount_of(&mounts, Path::new("/mnt/t"));
        assert!(m.is_some(), "{line}");
        storage_warning(m, None, |_| zfs.map(str::to_string))
    }

    #[test]
    fn a_target_in_memory_or_compressed_is_named_from_mountinfo() {
        // lines as the kernel writes them
        assert_eq!(
            warning_under("96 22 0:45 / /mnt/t rw,nosuid,nodev,relatime shared:52 - tmpfs tmpfs rw,size=1048576k,inode64", None).as_deref(),
            Some("the target is on tmpfs, which keeps its files in memory: the numbers measure RAM, not a disk")
        );
        assert_eq!(
            warning_under("97 22 0:46 / /mnt/t rw,relatime shared:53 - ramfs ramfs rw", None).as_deref(),
            Some("the target is on ramfs, which keeps its files in memory: the numbers measure RAM, not a disk")
        );
        assert_eq!(
            warning_under("98 22 0:47 / /mnt/t rw,relatime shared:54 - btrfs /dev/vdb rw,compress=zstd:3,space_cache=v2,subvolid=5,subvol=/", None).as_deref(),
            Some("the target is on btrfs mounted with `compress=zstd:3`: what it writes is compressed on its way to the disk, so the numbers depend on how well the test data compresses, not on the disk alone")
        );
        let w = warning_under(
            "99 22 0:48 / /mnt/t rw,relatime - btrfs /dev/vdb rw,compress-force=lzo,ssd",
            None,
        )
        .unwrap();
        assert!(w.contains("`compress-force=lzo`"), "{w}");
        assert_eq!(
            warning_under("100 22 252:0 / /mnt/t rw,relatime shared:55 - ext4 /dev/zram0 rw", None).as_deref(),
            Some("the target is on /dev/zram0, a compressed block device in memory (zram): the numbers measure RAM and compression, not a disk")
        );
        let zfs = "101 22 0:49 / /mnt/t rw,xattr,noacl shared:56 - zfs tank/data rw,xattr,noacl";
        assert_eq!(
            warning_under(zfs, Some("lz4\n")).as_deref(),
            Some("the target is on zfs dataset `tank/data` with compression=lz4: what it writes is compressed on its way to the disk, so the numbers depend on how well the test data compresses, not on the disk alone")
        );
        assert_eq!(warning_under(zfs, Some("off")), None);
        let w = warning_under(zfs, None).unwrap();
        assert!(w.contains("whether it compresses is unknown"), "{w}");
        // plain storage gets none
        for line in [
            "29 1 259:2 / /mnt/t rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro",
            "98 22 0:47 / /mnt/t rw,relatime - btrfs /dev/vdb rw,compress=no,ssd",
            "98 22 0:47 / /mnt/t rw,relatime - btrfs /dev/vdb rw,ssd,space_cache=v2",
            "41 22 259:3 / /mnt/t rw,noatime - xfs /dev/zram rw,attr2",
        ] {
            assert_eq!(warning_under(line, None), None, "{line}");
        }
        // statfs says tmpfs where mountinfo could not be read
        assert!(storage_warning(None, Some(0x0102_1994), |_| None)
            .unwrap()
            .contains("on tmpfs"));
        assert!(storage_warning(None, Some(0x8584_58f6), |_| None)
            .unwrap()
            .contains("on ramfs"));
        assert_eq!(storage_warning(None, Some(0xEF53), |_| None), None);
    }

    #[test]
    fn scheduler_is_the_bracketed_one() {
        assert_eq!(
            active_scheduler("mq-deadline kyber [none]\n").as_deref(),
            Some("none")
        );
        assert_eq!(
            active_scheduler("[mq-deadline] none").as_deref(),
            Some("mq-deadline")
        );
        assert_eq!(active_scheduler("none"), None);
    }

    #[test]
    fn virtualization_from_evidence() {
        let mut e = VirtEvidence {
            sys_vendor: Some("QEMU\n".into()),
            cpuinfo: Some(CPUINFO.into()),
            ..Default::default()
        };
        assert_eq!(virtualization(&e).as_deref(), Some("kvm"));
        e.container = Some("lxc\n".into());
        assert_eq!(virtualization(&e).as_deref(), Some("lxc"));
        let e = VirtEvidence {
            sys_vendor: Some("Microsoft Corporation".into()),
            product_name: Some("Virtual Machine".into()),
            ..Default::default()
        };
        assert_eq!(virtualization(&e).as_deref(), Some("hyperv"));
        let e = VirtEvidence {
            sys_vendor: Some("Dell Inc.".into()),
            cpuinfo: Some("flags : fpu vme\n".into()),
            ..Default::default()
        };
        assert_eq!(virtualization(&e).as_deref(), Some("none"));
        let e = VirtEvidence {
            cpuinfo: Some(CPUINFO.into()),
            ..Default::default()
        };
        assert_eq!(virtualization(&e).as_deref(), Some("vm"));
        assert_eq!(virtualization(&VirtEvidence::default()), None);
    }

    #[test]
    fn this_machine_has_a_target() {
        let dir = tempfile::tempdir().unwrap();
        let t = target(dir.path());
        assert!(t.fs_type.is_some() && t.mount_point.is_some());
        assert!(t.size_bytes.unwrap() >= t.free_bytes.unwrap());
        assert!(host().memory_bytes.unwrap() > 0);
    }

    #[test]
    fn the_hostname_is_the_kernels_text_trimmed_and_unset_is_none() {
        assert_eq!(hostname_of("web-3\n").as_deref(), Some("web-3"));
        assert_eq!(hostname_of("(none)\n"), None);
        assert_eq!(hostname_of("\n"), None);
        // this machine's, as the kernel and uname say it
        let kernel = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
        assert_eq!(hostname(), hostname_of(&kernel));
        assert_eq!(uname().2.as_deref().and_then(hostname_of), hostname());
    }
}
