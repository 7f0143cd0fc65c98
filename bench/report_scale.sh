#!/bin/sh
# Measures `diskdash report` at 1,000, 10,000 and 100,000 synthetic records
# (50 offerings, the twelve standard tests): median wall time and peak memory
# of three builds each, from /usr/bin/time -v, and the size of index.html.
#
#   bench/report_scale.sh [WORKDIR] [SIZES]
#
# WORKDIR defaults to a fresh temporary directory; SIZES to "1000 10000 100000".
set -eu

cd "$(dirname "$0")/.."
work=${1:-$(mktemp -d)}
sizes=${2:-"1000 10000 100000"}
runs=3

cargo build --release --quiet --bin diskdash --example gen_records
bin=target/release/diskdash
gen=target/release/examples/gen_records

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-9s %12s %14s %16s %12s\n' records "median s" "median MB" "s per 1k recs" "index KB"
for n in $sizes; do
    input="$work/records-$n"
    [ -d "$input" ] || "$gen" "$n" "$input" >/dev/null
    : >"$work/times-$n"
    : >"$work/mem-$n"
    i=0
    while [ "$i" -lt "$runs" ]; do
        site="$work/site-$n-$i"
        rm -rf "$site"
        /usr/bin/time -v "$bin" report "$input" --out "$site" >/dev/null 2>"$work/time.txt"
        # "Elapsed (wall clock) time (h:mm:ss or m:ss): 0:01.23"
        grep 'Elapsed (wall clock)' "$work/time.txt" | awk '{ print $NF }' |
            awk -F: '{ s = 0; for (j = 1; j <= NF; j++) s = s * 60 + $j; print s }' >>"$work/times-$n"
        grep 'Maximum resident set size' "$work/time.txt" | awk '{ print $NF / 1024 }' >>"$work/mem-$n"
        i=$((i + 1))
    done
    t=$(median <"$work/times-$n")
    m=$(median <"$work/mem-$n")
    kb=$(( $(wc -c <"$work/site-$n-0/index.html") / 1024 ))
    printf '%-9s %12s %14.0f %16.3f %12s\n' "$n" "$t" "$m" "$(echo "$t $n" | awk '{ print $1 / $2 * 1000 }')" "$kb"
    rm -rf "$work"/site-"$n"-*
done
echo "work directory: $work"
