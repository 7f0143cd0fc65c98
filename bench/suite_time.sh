#!/bin/sh
# Times a whole suite on an emulated flat volume on a small machine: the
# time a user pays for on a rented VM.
#
#   bench/suite_time.sh BIN [SUITE] [-- RUN ARGS..]
#
# BIN      the diskdash binary to time (e.g. target/release/diskdash)
# SUITE    default "standard"
# RUN ARGS more `diskdash run` arguments (e.g. `--limits FILE --provider AWS
#          --offering gp3 --size-gb 16`)
#
# The volume: an ext4 image of IMAGE_GIB (default 16) on a loop device,
# behind a cgroup v1 blkio throttle of IOPS (default 3000) read and write
# IOPS and MBPS (default 125, MiB/s) read and write bandwidth: a gp3-like
# volume at its baseline, which never bursts. The throttle is set twice, on
# the run's own cgroup and on the root cgroup for that one device: v1 does
# not throttle hierarchically, and the kernel's flusher threads, which
# write buffered data back (dd, bonnie++), run in the root cgroup. The machine: a memory cgroup
# of RAM_GIB (default 4), which also holds its page cache, and a private
# /proc/meminfo whose MemTotal says the same, so that the suite's "2xRAM"
# sizes and bonnie++'s -r are those of a 4 GiB VM. Needs root, cgroup v1
# blkio and memory hierarchies, losetup, mkfs.ext4, unshare.
#
# Prints the suite's wall time and writes the records to OUT (default a new
# directory under /var/tmp), so that each test's own runtime can be read.
set -eu

bin=$(realpath "$1")
shift
suite=standard
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  suite=$1
  shift
fi
[ "${1:-}" = "--" ] && shift

image_gib=${IMAGE_GIB:-16}
ram_gib=${RAM_GIB:-4}
iops=${IOPS:-3000}
mbps=${MBPS:-125}
work=$(mktemp -d /var/tmp/suite-time.XXXXXX)
out=${OUT:-$work/records}
name=diskdash-suite-time-$$
blkio=/sys/fs/cgroup/blkio/$name
memory=/sys/fs/cgroup/memory/$name

cleanup() {
  set +e
  umount "$work/mnt" 2>/dev/null
  if [ -n "${majmin:-}" ]; then
    for f in read_iops_device write_iops_device read_bps_device write_bps_device; do
      echo "$majmin 0" > "/sys/fs/cgroup/blkio/blkio.throttle.$f"
    done
  fi
  [ -n "${dev:-}" ] && losetup -d "$dev"
  rmdir "$blkio" "$memory" 2>/dev/null
  rm -f "$work/image" "$work/meminfo"
  rmdir "$work/mnt" 2>/dev/null
  # the work directory stays only where it holds the records (no OUT)
  rmdir "$work" 2>/dev/null
}
trap cleanup EXIT INT TERM

truncate -s "${image_gib}G" "$work/image"
mkfs.ext4 -q -F "$work/image"
dev=$(losetup --find --show "$work/image")
mkdir -p "$work/mnt"
mount "$dev" "$work/mnt"
majmin=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')

mkdir -p "$blkio" "$memory"
bps=$((mbps * 1048576))
for group in "$blkio" /sys/fs/cgroup/blkio; do
  echo "$majmin $iops" > "$group/blkio.throttle.read_iops_device"
  echo "$majmin $iops" > "$group/blkio.throttle.write_iops_device"
  echo "$majmin $bps" > "$group/blkio.throttle.read_bps_device"
  echo "$majmin $bps" > "$group/blkio.throttle.write_bps_device"
done
echo "$((ram_gib * 1073741824))" > "$memory/memory.limit_in_bytes"

awk -v kb=$((ram_gib * 1048576)) '
  /^MemTotal:/ { printf "MemTotal:       %d kB\n", kb; next } { print }
' /proc/meminfo > "$work/meminfo"

echo "suite $suite on a flat ${iops} IOPS / ${mbps} MiB/s volume, ${ram_gib} GiB of memory; records in $out" >&2
start=$(date +%s)
# the shell joins both cgroups, then a private mount namespace shows the
# machine's memory as RAM_GIB; diskdash and its tools run inside all three
unshare -m sh -c '
  echo $$ > "$1/cgroup.procs" && echo $$ > "$2/cgroup.procs" &&
  mount --bind "$3/meminfo" /proc/meminfo &&
  shift 3 && exec "$@"' sh "$blkio" "$memory" "$work" \
  "$bin" run --target "$work/mnt" --suite "$suite" --out "$out" "$@" || status=$?
end=$(date +%s)
secs=$((end - start))
printf 'wall time: %d:%02d:%02d (%d s), exit %s\n' $((secs / 3600)) $((secs % 3600 / 60)) $((secs % 60)) "$secs" "${status:-0}"
