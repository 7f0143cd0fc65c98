#!/usr/bin/env bash
# The README's test command. On a fresh Debian machine with a Rust
# toolchain, as root: installs what the tests need, then runs both tiers
# (`cargo test -- --include-ignored`; extra arguments go to the test
# binaries, e.g. `tests/run.sh browser`). A system test whose tool is
# missing fails, naming it; this script stops first, naming it.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "tests/run.sh: $*" >&2; }
if [ "$(id -u)" != 0 ]; then
  say "run it as root: it installs Debian packages, and the system tier mounts tmpfs, makes loop devices and throttles I/O"
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# The real-tool tests run fio, ioping, bonnie++ and GNU dd; the browser
# tests open the site in Chromium. The emulated cloud volume
# (tests/system/burst_emulated.rs) is an ext4 image (mkfs.ext4) on a loop
# device (losetup), mounted, under a cgroup I/O throttle.
apt-get install -y -qq --no-install-recommends fio ioping bonnie++ coreutils chromium \
  e2fsprogs util-linux mount ca-certificates >/dev/null

# The fleet test runs deploy/ansible/benchmark.yml over SSH against an sshd
# of its own on 127.0.0.1. Installing openssh-server must not start the
# machine's own ssh service: a policy-rc.d that says no is put in place for
# that install when the machine has none, and removed again.
policy=/usr/sbin/policy-rc.d
made_policy=
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod 755 "$policy" && made_policy=1
fi
apt-get install -y -qq --no-install-recommends ansible-core openssh-server openssh-client python3 >/dev/null
if [ -n "$made_policy" ]; then rm -f "$policy"; fi
# sshd's privilege separation directory, which the ssh service makes at boot
mkdir -p /run/sshd

# The browser check drives Chromium with playwright-core and renders the
# post with marked, both of which need node 20 or later. Debian's own
# nodejs is installed where the machine has no node (Debian 13's is 20;
# Debian 12's is 18, too old: there, install node 20 or later first, e.g.
# from NodeSource, and this script uses it). npm likewise.
node_major() { node -e 'process.stdout.write(process.versions.node.split(".")[0])' 2>/dev/null || echo 0; }
if ! command -v node >/dev/null; then
  apt-get install -y -qq --no-install-recommends nodejs >/dev/null
fi
if ! command -v npm >/dev/null; then
  apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
if [ "$(node_major)" -lt 20 ]; then
  say "node $(node --version 2>/dev/null || echo '(none)') is too old: the browser check (playwright-core, marked) needs node 20 or later; install it and run again"
  exit 1
fi
npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error >/dev/null

for tool in fio ioping bonnie++ dd chromium mkfs.ext4 losetup mount umount ansible-playbook sshd ssh-keygen node; do
  command -v "$tool" >/dev/null || { say "$tool is not installed"; exit 1; }
done

# the fast tier and the system tier (ignored by a plain `cargo test`)
exec cargo test -- --include-ignored "$@"
