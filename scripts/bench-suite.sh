#!/usr/bin/env bash
# Suite throughput in a release build (BENCHMARKS.md): scenarios/s and steps/s, wall and CPU time,
# for --jobs 1 and --jobs 2. Usage: scripts/bench-suite.sh [RUNS] (default 10; the median is reported).
# SCRATCH=.build-x uses another build folder; SUITE=path another suite.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-10}"
scratch="${SCRATCH:-.build}"
suite="${SUITE:-Scenarios}"

swift build -c release --scratch-path "$scratch" >/dev/null
passim="$scratch/release/passim"

# What one run does: scenarios, and steps summed from the JSON lines.
json="$("$passim" run --json "$suite")"
scenarios=$(grep -c '"title"' <<<"$json")
steps=$(grep -o '"steps":[0-9]*' <<<"$json" | cut -d: -f2 | awk '{ s += $1 } END { print s }')
echo "suite: $suite, $scenarios scenarios, $steps steps; $(nproc) cores; median of $runs runs"

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

measure() { # $1 = jobs; prints "median-wall min-wall median-cpu"
  local walls=() cpus=() t
  TIMEFORMAT='%R %U %S'
  "$passim" run --jobs "$1" "$suite" >/dev/null   # warm-up (page cache)
  for ((i = 0; i < runs; i++)); do
    t=$( { time "$passim" run --jobs "$1" "$suite" >/dev/null; } 2>&1 )
    walls+=("$(cut -d' ' -f1 <<<"$t")")
    cpus+=("$(awk '{ print $2 + $3 }' <<<"$t")")
  done
  echo "$(printf '%s\n' "${walls[@]}" | median) $(printf '%s\n' "${walls[@]}" | sort -g | head -1) $(printf '%s\n' "${cpus[@]}" | median)"
}

read -r wall1 min1 cpu1 <<<"$(measure 1)"
read -r wall2 min2 cpu2 <<<"$(measure 2)"
row() { awk -v j="$1" -v w="$2" -v m="$3" -v c="$4" -v n="$scenarios" -v s="$steps" \
  'BEGIN { printf "| --jobs %d | %.3f s (min %.3f s) | %.3f s | %.0f | %.0f |\n", j, w, m, c, n / w, s / w }'; }
echo
echo "| run | wall, median (min) | CPU user+sys, median | scenarios/s | steps/s |"
echo "| --- | --- | --- | --- | --- |"
row 1 "$wall1" "$min1" "$cpu1"
row 2 "$wall2" "$min2" "$cpu2"
awk -v a="$wall1" -v b="$wall2" -v c="$min1" -v d="$min2" \
  'BEGIN { printf "\n--jobs 2 speed-up: %.2fx on medians, %.2fx on minimums\n", a / b, c / d }'

if command -v hyperfine >/dev/null; then
  echo
  hyperfine -N --warmup 3 --runs "$runs" "$passim run --jobs 1 $suite" "$passim run --jobs 2 $suite"
fi
