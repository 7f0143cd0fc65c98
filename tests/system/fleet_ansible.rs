//! deploy/ansible/benchmark.yml for real: an sshd of the test's own on
//! 127.0.0.1 with a key made for the test, and an inventory of four hosts:
//! two that are this machine over SSH (different targets and subjects),
//! one whose target is a device, and one that is unreachable. The two good
//! hosts' records arrive under `results/<study>/<offering>/<run id>/`,
//! pass `diskdash check` and give a site with both configurations; the
//! other two fail alone, each with its reason; a second run adds records
//! beside the first's; nothing is left on the hosts. Every record names
//! its host by its inventory name, or (`diskdash_anonymous_host`) by the
//! hash of it. Another inventory names its hosts `x/../../../../OUT` and
//! with a Jinja lookup: the first lands nothing outside the results and
//! its records arrive, the second runs nothing and is refused alone.
//!
//! Needs ansible-playbook, sshd and ssh-keygen (`tests/run.sh` installs them);
//! a missing one fails the test.

use crate::require;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_diskdash");

fn sshd_path() -> Option<PathBuf> {
    diskdash::run::exec::which("sshd")
}

fn need_tools() {
    require::need(
        "Ansible fleet test",
        &require::programs_missing(&["ansible-playbook", "sshd", "ssh-keygen", "ssh"]),
        "apt-get install ansible-core openssh-server",
    );
}

/// The test's sshd, stopped when dropped (also when the test fails).
struct Sshd {
    child: Child,
    port: u16,
}

impl Drop for Sshd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port on 127.0.0.1 that was free a moment ago.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn run_ok(cmd: &mut Command) -> Output {
    let o = cmd.output().unwrap();
    assert!(
        o.status.success(),
        "{cmd:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn keygen(path: &Path) {
    run_ok(
        Command::new("ssh-keygen")
            .args(["-q", "-t", "ed25519", "-N", "", "-C", "diskdash-test", "-f"])
            .arg(path),
    );
}

/// Starts sshd on 127.0.0.1 that lets in `key.pub` and nothing else.
fn start_sshd(dir: &Path, key: &Path) -> Sshd {
    // sshd refuses to start without its privilege separation directory,
    // which the ssh service creates at boot
    if !Path::new("/run/sshd").exists() && diskdash::run::host::is_root() {
        std::fs::create_dir_all("/run/sshd").unwrap();
    }
    keygen(&dir.join("host_key"));
    std::fs::copy(key.with_extension("pub"), dir.join("authorized_keys")).unwrap();
    let port = free_port();
    let config = dir.join("sshd_config");
    std::fs::write(
        &config,
        format!(
            "Port {port}\nListenAddress 127.0.0.1\nHostKey {host}\nAuthorizedKeysFile {auth}\n\
             PidFile {pid}\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n\
             PubkeyAuthentication yes\nPermitRootLogin prohibit-password\nStrictModes no\n\
             UsePAM no\nSubsystem sftp internal-sftp\nLogLevel ERROR\n",
            host = dir.join("host_key").display(),
            auth = dir.join("authorized_keys").display(),
            pid = dir.join("sshd.pid").display(),
        ),
    )
    .unwrap();
    let log = std::fs::File::create(dir.join("sshd.log")).unwrap();
    let child = Command::new(sshd_path().unwrap())
        .args(["-D", "-e", "-f"])
        .arg(&config)
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap();
    let mut sshd = Sshd { child, port };
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = sshd.child.try_wait() {
            panic!(
                "sshd exited with {status}: {}",
                std::fs::read_to_string(dir.join("sshd.log")).unwrap_or_default()
            );
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "sshd did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    sshd.port = port;
    sshd
}

fn user() -> String {
    let o = run_ok(Command::new("id").arg("-un"));
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

/// The inventory: two hosts that are this machine, one with a device as
/// its target, one that cannot be reached.
fn inventory(sshd: &Sshd, key: &Path, targets: &[PathBuf; 2], closed_port: u16) -> String {
    let ssh_args = "-o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=no \
                    -o IdentitiesOnly=yes -o ConnectTimeout=5";
    format!(
        r#"all:
  vars:
    ansible_user: {user}
    ansible_ssh_private_key_file: {key}
    ansible_ssh_common_args: "{ssh_args}"
    ansible_python_interpreter: auto_silent
    ansible_pipelining: true
    diskdash_study: Fleet test
    # one quick test (a host may choose its own)
    diskdash_only: dd-write-8k-fdatasync
  hosts:
    volume-a:
      ansible_host: 127.0.0.1
      ansible_port: {port}
      diskdash_target: {a}
      diskdash_subject:
        provider: Loopback
        offering: Volume A
        region: lo
        size_gb: 10
        price_per_gb_month: 0.1
        currency: USD
        labels:
          provisioned_iops: 3000
    volume-b:
      ansible_host: 127.0.0.1
      ansible_port: {port}
      diskdash_target: {b}
      diskdash_subject:
        provider: Loopback
        offering: Volume B
        size_gb: 20
        price_per_gb_month: 0.2
      # the sustained read takes 20 s: stopped after 3, its record says
      # failed (skipped without fio), and the run exits 1, which must not
      # fail the host
      diskdash_only: dd-write-8k-fdatasync,fio-sustained-randread-4k-qd32
      diskdash_run_args: ["--timeout", "3"]
    a-device:
      ansible_host: 127.0.0.1
      ansible_port: {port}
      diskdash_target: /dev/null
      diskdash_subject:
        offering: Not a directory
    gone:
      ansible_host: 127.0.0.1
      ansible_port: {closed_port}
      diskdash_target: /mnt/volume
      diskdash_subject:
        offering: Unreachable
"#,
        user = user(),
        key = key.display(),
        port = sshd.port,
        a = targets[0].display(),
        b = targets[1].display(),
    )
}

fn playbook(work: &Path, extra: &[String]) -> (Option<i32>, String) {
    playbook_env(work, extra, &[])
}

/// [`playbook`], with more variables in ansible-playbook's environment.
fn playbook_env(work: &Path, extra: &[String], env: &[(&str, &Path)]) -> (Option<i32>, String) {
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/ansible/benchmark.yml");
    let ansible = work.join("ansible");
    let mut cmd = Command::new("ansible-playbook");
    cmd.current_dir(work)
        .env("PWD", work)
        // everything Ansible keeps goes into the test's directory
        .env("ANSIBLE_HOME", &ansible)
        .env("ANSIBLE_LOCAL_TEMP", ansible.join("tmp"))
        .env("ANSIBLE_REMOTE_TEMP", ansible.join("remote-tmp"))
        .env("ANSIBLE_SSH_CONTROL_PATH_DIR", ansible.join("cp"))
        .env("ANSIBLE_CONFIG", work.join("no-ansible.cfg"))
        .env("ANSIBLE_NOCOLOR", "1")
        .env("ANSIBLE_HOST_KEY_CHECKING", "False")
        .env("ANSIBLE_FORKS", "4")
        .arg("-i")
        .arg(work.join("inventory.yml"))
        .arg(book)
        .args(["-e", "diskdash_install_tools=false"])
        .args(["-e", "diskdash_poll=1"])
        .arg("-e")
        .arg(format!("diskdash_binary={BIN}"))
        .arg("-e")
        .arg(format!("diskdash_controller_bin={BIN}"))
        .arg("-e")
        .arg(format!(
            "diskdash_remote_tmp={}",
            work.join("on-host").display()
        ))
        .args(extra)
        .envs(env.iter().copied())
        .stdin(Stdio::null());
    let o = cmd.output().unwrap();
    (
        o.status.code(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    )
}

/// The PLAY RECAP line of `host`: its counters by name.
fn recap(out: &str, host: &str) -> std::collections::BTreeMap<String, u32> {
    let recap = out.split("PLAY RECAP").nth(1).expect(out);
    let line = recap
        .lines()
        .find(|l| l.split_whitespace().next() == Some(host))
        .unwrap_or_else(|| panic!("no recap for {host}: {out}"));
    line.split_whitespace()
        .filter_map(|w| w.split_once('='))
        .map(|(k, v)| (k.to_string(), v.parse().unwrap()))
        .collect()
}

fn records(dir: &Path) -> Vec<(PathBuf, diskdash::record::Record)> {
    let mut out: Vec<_> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dir).unwrap().to_path_buf();
            let rec = serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap())
                .unwrap_or_else(|err| panic!("{}: {err}", e.path().display()));
            (rel, rec)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn is_empty_dir(p: &Path) -> bool {
    std::fs::read_dir(p).unwrap().next().is_none()
}

#[test]
#[ignore = "system tier: needs ansible-playbook, sshd, ssh-keygen and ssh"]
fn the_playbook_benchmarks_two_hosts_over_ssh_and_publishes_one_site() {
    need_tools();
    let started = Instant::now();
    // under target/, not /tmp: the records' targets are real directories
    // on a real filesystem, as on a rented machine
    let work = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let work = work.path();
    let key = work.join("id_ed25519");
    keygen(&key);
    let sshd = start_sshd(work, &key);
    let targets = [work.join("volume-a"), work.join("volume-b")];
    for t in &targets {
        std::fs::create_dir(t).unwrap();
    }
    std::fs::create_dir(work.join("on-host")).unwrap();
    std::fs::write(
        work.join("inventory.yml"),
        inventory(&sshd, &key, &targets, free_port()),
    )
    .unwrap();

    let (code, out) = playbook(work, &[]);
    eprintln!(
        "fleet test: first run after {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // the unreachable host makes the playbook fail (4: a host was unreachable)
    assert_eq!(code, Some(4), "{out}");
    for good in ["volume-a", "volume-b"] {
        let r = recap(&out, good);
        assert_eq!((r["failed"], r["unreachable"]), (0, 0), "{good}: {out}");
    }
    assert_eq!(recap(&out, "gone")["unreachable"], 1, "{out}");
    assert_eq!(recap(&out, "a-device")["failed"], 1, "{out}");
    assert!(
        out.contains("target /dev/null on a-device is a device; diskdash never writes to devices"),
        "{out}"
    );

    let results = work.join("results");
    let recs = records(&results);
    assert_eq!(recs.len(), 3, "{recs:#?}\n{out}");
    let (path_a, a) = &recs[0];
    let (path_b, b) = recs
        .iter()
        .find(|(_, r)| {
            r.subject.offering.as_deref() == Some("Volume B")
                && r.test.tool == diskdash::record::Tool::Dd
        })
        .unwrap();
    let (_, stopped) = recs
        .iter()
        .find(|(_, r)| r.test.id == "fio-sustained-randread-4k-qd32")
        .unwrap();
    assert_eq!(stopped.subject.offering.as_deref(), Some("Volume B"));
    assert_ne!(stopped.status, diskdash::record::Status::Ok);
    // results/<study>/<offering>/<run id>/<record>.json
    let parts =
        |p: &Path| -> Vec<String> { p.iter().map(|c| c.to_string_lossy().into_owned()).collect() };
    assert_eq!(parts(path_a)[..2], ["fleet-test", "volume-a"]);
    assert_eq!(parts(path_b)[..2], ["fleet-test", "volume-b"]);
    assert_eq!(parts(path_a).len(), 4);
    assert_ne!(parts(path_a)[2], parts(path_b)[2], "each host its own run");
    // the host whose run exited 1 says so, and was not failed for it
    assert!(out.contains("1 of 2 jobs ok"), "{out}");
    assert_eq!(a.test.id, "dd-write-8k-fdatasync");
    assert_eq!(a.status, diskdash::record::Status::Ok);
    assert_eq!(a.subject.study.as_deref(), Some("Fleet test"));
    assert_eq!(a.subject.provider.as_deref(), Some("Loopback"));
    assert_eq!(a.subject.region.as_deref(), Some("lo"));
    assert_eq!(a.subject.size_gb, Some(10.0));
    assert_eq!(a.subject.price.as_ref().unwrap().per_gb_month, 0.1);
    assert_eq!(a.subject.labels["provisioned_iops"], "3000");
    assert_eq!(
        a.target.path.as_deref(),
        std::fs::canonicalize(&targets[0]).unwrap().to_str()
    );
    // each host's records carry its inventory name
    for (_, r) in &recs {
        let host = match r.subject.offering.as_deref() {
            Some("Volume A") => "volume-a",
            Some("Volume B") => "volume-b",
            other => panic!("{other:?}"),
        };
        assert_eq!(r.host.name.as_deref(), Some(host), "{}", r.id);
    }
    assert_eq!(b.subject.offering.as_deref(), Some("Volume B"));
    assert_eq!(b.subject.size_gb, Some(20.0));
    assert_eq!(b.subject.region, None);
    assert!(b.subject.labels.is_empty());
    assert!(b.metrics.get("write_bw").unwrap().value > 0.0);

    // after the report, a line per host: its tests ok and failed, outlier or not
    for (host, config, counts) in [
        ("volume-a", "Loopback Volume A", "1 ok, 0 failed"),
        ("volume-b", "Loopback Volume B", "1 ok, 1 failed"),
    ] {
        let line = out
            .lines()
            .find(|l| l.contains(&format!("\"host {host} ({config}")))
            .unwrap_or_else(|| panic!("no line for {host}: {out}"));
        assert!(
            line.contains(&format!("study Fleet test): {counts}; no outlier")),
            "{line}"
        );
    }

    // the records pass check; the site has both configurations
    run_ok(Command::new(BIN).arg("check").arg(&results));
    let site = work.join("site");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("Fleet test"), "{index}");
    let pages: Vec<String> = std::fs::read_dir(site.join("offerings/fleet-test"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(pages.len(), 2, "a page per configuration");
    for offering in ["Volume A", "Volume B"] {
        assert_eq!(
            pages.iter().filter(|p| p.contains(offering)).count(),
            1,
            "{offering}"
        );
    }
    let value = std::fs::read_to_string(site.join("data/value.csv")).unwrap();
    for row in ["Loopback,Volume A,10,3000,", "Loopback,Volume B,20,,"] {
        assert!(value.contains(row), "{row}: {value}");
    }

    // nothing left on the hosts: no binary, no records, no scratch
    assert!(is_empty_dir(&work.join("on-host")));
    for t in &targets {
        assert!(is_empty_dir(t), "{} not empty", t.display());
    }

    // a second run adds records beside the first's; published anonymously,
    // its record names the host by `anon-` and the start of the SHA-256 of
    // its inventory name
    let (code, out) = playbook(
        work,
        &[
            "--limit".into(),
            "volume-a,gone".into(),
            "-e".into(),
            "diskdash_anonymous_host=true".into(),
        ],
    );
    assert_eq!(code, Some(4), "{out}");
    let again = records(&results);
    assert_eq!(again.len(), 4, "{again:#?}");
    let sha: String = {
        use sha2::Digest;
        sha2::Sha256::digest(b"volume-a")
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let anon = format!("anon-{}", &sha[..12]);
    let names: Vec<_> = again
        .iter()
        .map(|(_, r)| r.host.name.as_deref().unwrap())
        .collect();
    assert_eq!(names.iter().filter(|n| **n == anon).count(), 1, "{names:?}");
    assert_eq!(
        names.iter().filter(|n| **n == "volume-a").count(),
        1,
        "{names:?}"
    );
    let runs_a: std::collections::BTreeSet<_> = again
        .iter()
        .filter(|(p, _)| parts(p)[1] == "volume-a")
        .map(|(p, _)| parts(p)[2].clone())
        .collect();
    assert_eq!(runs_a.len(), 2, "{runs_a:?}");
    assert_eq!(recap(&out, "volume-a")["failed"], 0, "{out}");
    eprintln!("fleet test: {:.1} s", started.elapsed().as_secs_f64());
}

/// An inventory name is text: one with `/` and `..` names no file outside
/// the results, and its records arrive naming the host exactly as the
/// inventory does; one with `{{ }}` runs nothing on the controller (Ansible
/// would, on connecting to it): that host is refused, saying why, before
/// anything connects to it, and fails alone.
#[test]
#[ignore = "system tier: needs ansible-playbook, sshd, ssh-keygen and ssh"]
fn an_inventory_name_is_neither_a_path_nor_a_template() {
    need_tools();
    let started = Instant::now();
    let work = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let work = work.path();
    let key = work.join("id_ed25519");
    keygen(&key);
    let sshd = start_sshd(work, &key);
    let targets = [work.join("slash"), work.join("braces")];
    for t in &targets {
        std::fs::create_dir(t).unwrap();
    }
    std::fs::create_dir(work.join("on-host")).unwrap();
    // deep enough that `../../../../` from inside it stays in `work`
    let results = work.join("r1/r2/r3/r4/results");
    // run by a lookup in the name if the name were a template; through a
    // variable, as a name holds at most 64 characters
    let marker = work.join("MARKER");
    let escape = "x/../../../../OUT";
    let jinja = "j{{ lookup('pipe','touch $DISKDASH_TEST_MARKER') }}";
    let ssh_args = "-o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=no \
                    -o IdentitiesOnly=yes -o ConnectTimeout=5";
    let host = |name: &str, target: &Path, offering: &str| {
        format!(
            "    {name:?}:\n      ansible_host: 127.0.0.1\n      ansible_port: {port}\n      \
             diskdash_target: {target}\n      diskdash_subject:\n        offering: {offering}\n",
            port = sshd.port,
            target = target.display(),
        )
    };
    std::fs::write(
        work.join("inventory.yml"),
        format!(
            "all:\n  vars:\n    ansible_user: {user}\n    ansible_ssh_private_key_file: {key}\n    \
             ansible_ssh_common_args: \"{ssh_args}\"\n    ansible_python_interpreter: auto_silent\n    \
             ansible_pipelining: true\n    diskdash_study: Names\n    \
             diskdash_only: dd-write-8k-fdatasync\n  hosts:\n{a}{b}",
            user = user(),
            key = key.display(),
            a = host(escape, &targets[0], "Slash"),
            b = host(jinja, &targets[1], "Braces"),
        ),
    )
    .unwrap();

    let results_arg = format!("diskdash_results={}", results.display());
    let site_arg = format!("diskdash_site={}", work.join("site").display());
    let (code, out) = playbook_env(
        work,
        &["-e".into(), results_arg, "-e".into(), site_arg],
        &[("DISKDASH_TEST_MARKER", &marker)],
    );
    eprintln!(
        "fleet names test: run after {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(!marker.exists(), "the name's lookup ran: {out}");
    // 2: a host failed
    assert_eq!(code, Some(2), "{out}");
    let r = recap(&out, escape);
    assert_eq!((r["ok"] > 0, r["failed"]), (true, 0), "{out}");
    let refused = out
        .split("PLAY RECAP")
        .nth(1)
        .unwrap()
        .lines()
        .find(|l| l.starts_with(jinja))
        .unwrap_or_else(|| panic!("no recap for {jinja}: {out}"));
    assert!(
        refused.contains(" ok=0 ") && refused.contains(" failed=1 "),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "skipping {jinja}: the name holds a Jinja delimiter (an opening brace followed by a brace, % or #)"
        )),
        "{out}"
    );

    // nothing outside the results directory: no OUT.tar in any parent
    let strays: Vec<_> = walkdir::WalkDir::new(work)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| !e.path().starts_with(&results) && !e.path().starts_with(work.join("ansible")))
        .filter(|e| {
            let name = e.file_name().to_string_lossy();
            name.contains("OUT") || name.contains("incoming")
        })
        .map(|e| e.path().to_path_buf())
        .collect();
    assert!(strays.is_empty(), "{strays:?}\n{out}");
    // and no packed copy left inside it
    let left: Vec<_> = walkdir::WalkDir::new(&results)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().contains("incoming"))
        .map(|e| e.path().to_path_buf())
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // the host's records arrived, naming it as written
    let recs = records(&results);
    let mut names: Vec<_> = recs
        .iter()
        .map(|(_, r)| {
            (
                r.subject.offering.clone().unwrap(),
                r.host.name.clone().unwrap(),
            )
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [("Slash".to_string(), escape.to_string())],
        "{recs:#?}\n{out}"
    );
    assert!(
        out.contains(&format!("1 records from {escape} in")),
        "{out}"
    );
    run_ok(Command::new(BIN).arg("check").arg(&results));
    assert!(!marker.exists(), "the name's lookup ran: {out}");
    eprintln!("fleet names test: {:.1} s", started.elapsed().as_secs_f64());
}
