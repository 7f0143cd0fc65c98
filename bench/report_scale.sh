#!/bin/sh
# Times `diskdash report` against the floor (bench/floor.rs: walk the same
# records, parse each into a serde_json::Value, write as many files of the
# same sizes as the site diskdash wrote) in the same run, interleaved
# (diskdash, floor, floor, diskdash, ...), and prints the medians, their
# ratio and the peak memory of each, for every place, record shape and size.
#
#   bench/report_scale.sh [WORKDIR] [SIZES] [SHAPES] [PLACES]
#
# WORKDIR  where records and sites go on the disk (default: a new temporary
#          directory); SIZES default "1000 10000 100000"; SHAPES "small run"
#          (see examples/gen_records.rs: `run` records carry real tool
#          output, fio's JSON among it; `timeline` ones, 20 KB each, a
#          90-second per-second timeline too, and make five files a record,
#          so that 100,000 of them write a site of about 9 GB a run;
#          `sample` ones spread over 20 studies of 25 configurations);
#          PLACES "disk tmpfs" (tmpfs is a
#          directory under /dev/shm). RUNS (environment) sets the number of
#          runs of each program, default 11 below 10,000 records, 5 from
#          there, 3 at 100,000 and more;
#          OFFERINGS the configurations the records spread over, default 50
#          (500 shows that no page grows with them: the "max page" column).
# Records are read from a warm page cache: the build is measured, not the
# disk's reads. On the disk the outputs of every run are kept until the end
# (about 10 GB with the defaults); start a second bench some minutes after
# the first has deleted them (see the comment in the loop).
set -eu

cd "$(dirname "$0")/.."
work=${1:-$(mktemp -d)}
sizes=${2:-"1000 10000 100000"}
shapes=${3:-"small run"}
places=${4:-"disk tmpfs"}
mkdir -p "$work"

cargo build --release --quiet --bin diskdash --example gen_records --example floor
bin=$PWD/target/release/diskdash
gen=$PWD/target/release/examples/gen_records
floor=$PWD/target/release/examples/floor

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# run_one LOG CMD..: appends "seconds peak_MB" of one run to LOG
run_one() {
    log=$1
    shift
    start=$(date +%s%N)
    /usr/bin/time -f '%M' -o "$log.rss" "$@" >/dev/null
    end=$(date +%s%N)
    echo "$(( (end - start) / 1000 )) $(cat "$log.rss")" |
        awk '{ printf "%.4f %.1f\n", $1 / 1e6, $2 / 1024 }' >>"$log"
}

echo "date: $(date -u +%Y-%m-%d), $(nproc) cores, $(free -g | awk '/^Mem:/ { print $2 }') GiB, diskdash $(git describe --always --dirty 2>/dev/null || echo unknown)"
printf '%-6s %-8s %8s %10s %10s %7s %10s %10s %8s %8s %9s\n' \
    place shape records "report s" "floor s" ratio "report MiB" "floor MiB" files "site MB" "max page"
for place in $places; do
    case $place in
    disk) base=$work ;;
    tmpfs) base=/dev/shm/diskdash-bench-$$; mkdir -p "$base" ;;
    *) echo "unknown place $place" >&2; exit 2 ;;
    esac
    for shape in $shapes; do
        for n in $sizes; do
            # a build of 1,000 records takes a tenth of a second, and this
            # machine's neighbours move that by a fifth: more runs there
            runs=${RUNS:-$(if [ "$n" -ge 100000 ]; then echo 3; elif [ "$n" -ge 10000 ]; then echo 5; else echo 11; fi)}
            offerings=${OFFERINGS:-50}
            input=$base/records-$shape-$n-$offerings
            [ -d "$input" ] || "$gen" "$n" "$input" "$offerings" "$shape" >/dev/null
            site=$base/site-$shape-$n
            rm -rf "$site"
            "$bin" report "$input" --out "$site" >/dev/null
            "$floor" shape "$site" >"$base/shape"
            files=$(wc -l <"$base/shape")
            mb=$(awk '{ s += $1 } END { printf "%.0f", s / 1e6 }' "$base/shape")
            maxpage=$(awk '$2 ~ /\.html$/ && $1 > m { m = $1 } END { printf "%.0fK", m / 1024 }' "$base/shape")
            : >"$base/a"
            : >"$base/b"
            # every run writes a directory of its own, and on the disk nothing
            # is deleted until every shape and size is measured: ext4 will not
            # reuse an inode freed in the last minute (six, while its inode
            # table block is unwritten) and scans past every such inode for
            # each file it creates, so a build right after 100,000 files were
            # deleted takes up to ten times as long, more or less at random
            # (and two threads spin on the directory's lock meanwhile). The
            # order alternates (A B, B A, ...) and the disk is synced before
            # each run, so the writes of one run do not land in the next.
            runs_dir=$base/runs-$shape-$n
            rm -rf "$runs_dir"
            mkdir -p "$runs_dir"
            i=0
            while [ "$i" -lt "$runs" ]; do
                if [ $((i % 2)) -eq 0 ]; then
                    sync; run_one "$base/a" "$bin" report "$input" --out "$runs_dir/report-$i"
                    sync; run_one "$base/b" "$floor" "$input" "$base/shape" "$runs_dir/floor-$i"
                else
                    sync; run_one "$base/b" "$floor" "$input" "$base/shape" "$runs_dir/floor-$i"
                    sync; run_one "$base/a" "$bin" report "$input" --out "$runs_dir/report-$i"
                fi
                i=$((i + 1))
            done
            ta=$(cut -d' ' -f1 "$base/a" | median)
            tb=$(cut -d' ' -f1 "$base/b" | median)
            ma=$(cut -d' ' -f2 "$base/a" | median)
            mb2=$(cut -d' ' -f2 "$base/b" | median)
            printf '%-6s %-8s %8s %10.3f %10.3f %6.2fx %10.0f %10.0f %8s %8s %9s\n' \
                "$place" "$shape" "$n" "$ta" "$tb" "$(echo "$ta $tb" | awk '{ print $1 / $2 }')" \
                "$ma" "$mb2" "$files" "$mb" "$maxpage"
            # tmpfs frees at once; on the disk the files go when the place is
            # done, so that no measurement follows a deletion
            if [ "$place" = tmpfs ]; then rm -rf "$site" "$runs_dir"; fi
        done
    done
    if [ "$place" = tmpfs ]; then rm -rf "$base"; else rm -rf "$base"/site-* "$base"/runs-*; fi
done
echo "work directory: $work"
