#!/usr/bin/env bash
# How long the differential fuzzer takes to find each mutation patch of Tests/Mutants/
# (BENCHMARKS.md, "The differential fuzzer against the mutants"). As scripts/mutants.sh does, each
# patch is applied and passim rebuilt incrementally, here in a copy of the committed tree
# (SCRATCH/src, so the working tree stays free) with its own build folder; the mutant binary is kept
# aside, and the reference (the unpatched build) runs
#   passim fuzz --against MUTANT [--compare mock] --seed 1 --time BUDGET --max-findings 1 [--jobs JOBS]
# (`--compare mock` for the patches whose first line says `Mutant (mock)`: the mutant serves the
# worlds; `--wire v2` for those whose first line names REST API v2 or OAuth2: the programs' engines speak
# REST API v2, their worlds with v2's own settings). The time is from the fuzzer's start to the line reporting the first difference; the
# fuzzer is stopped there (shrinking is not timed). A patch not found within BUDGET is a miss.
#
# Usage: scripts/mutant-findings.sh [-i] [-c debug|release] [-b SECONDS] [-j JOBS] [-o TABLE] [SCRATCH] [PATCH...]
#   -i: in place, as scripts/mutants.sh does: the patches go to the working tree (Sources/ must have
#       no uncommitted change) and the builds to SCRATCH itself (e.g. .build, already built);
#   -c: the build configuration (default debug: incremental builds of one patch take about a
#       minute; release rebuilds whole modules); -b: the budget per patch (default 30);
#   -j: the fuzzer's --jobs (default 1; a mock comparison mostly waits on latencies, so more
#       workers than cores still pay);
#   -o: where the Markdown table goes (default SCRATCH/findings.md); SCRATCH default .build-mutant.
# Everything runs under `nice`. Exit status: 0 every patch found, 1 one was missed, 2 a patch
# did not apply or build.
set -uo pipefail
cd "$(dirname "$0")/.."
config=debug budget=30 table="" inplace="" jobs=1
while getopts "ic:b:j:o:" opt; do
  case $opt in
    i) inplace=1 ;;
    c) config=$OPTARG ;;
    b) budget=$OPTARG ;;
    j) jobs=$OPTARG ;;
    o) table=$OPTARG ;;
    *) echo "usage: $0 [-i] [-c debug|release] [-b SECONDS] [-j JOBS] [-o TABLE] [SCRATCH] [PATCH...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
scratch="${1:-.build-mutant}"
shift || true
patches=("$@")
[ ${#patches[@]} -gt 0 ] || patches=(Tests/Mutants/*.patch)
[ -n "$table" ] || table="$scratch/findings.md"

root=$(pwd)
mkdir -p "$scratch/bin"
if [ -n "$inplace" ]; then
  if ! git diff --quiet -- Sources; then echo "Sources/ has uncommitted changes: commit or stash them first" >&2; exit 2; fi
  src=.
  builddir="$root/$scratch"
else
  src="$scratch/src"
  builddir="$root/$scratch/build"
  mkdir -p "$src"
  # The committed tree, copied; a file unchanged keeps its time stamp, so the build stays incremental
  # from one run of this script to the next.
  git archive HEAD | tar -x -C "$src" --keep-newer-files 2>/dev/null || git archive HEAD | tar -x -C "$src"
fi
build() { (cd "$src" && nice -n 10 swift build -c "$config" --product passim --scratch-path "$builddir") >"$scratch/build.log" 2>&1; }
applied=""
restore() { if [ -n "$applied" ]; then (cd "$src" && patch -p1 -R -s --no-backup-if-mismatch < "$root/$applied"); applied=""; fi; }
finish() { restore; [ -z "$inplace" ] || build || true; }   # in place: leave the build as the tree is
trap finish EXIT
trap 'exit 130' INT   # a signal ends the run (a trap alone would restore, then carry on)
trap 'exit 143' TERM

build || { cat "$scratch/build.log" >&2; echo "the reference does not build" >&2; exit 2; }
cp "$builddir/$config/passim" "$scratch/bin/passim-reference"
reference="$scratch/bin/passim-reference"

echo "| patch | compared | found after | runs | |" >"$table"
echo "| --- | --- | --- | --- | --- |" >>"$table"
missed=0 broken=0
for p in "${patches[@]}"; do
  name=$(basename "$p" .patch)
  if ! (cd "$src" && patch -p1 -s --no-backup-if-mismatch < "$root/$p"); then
    echo "BROKEN $name: does not apply"; broken=$((broken + 1)); continue
  fi
  applied="$p"
  if ! build; then echo "BROKEN $name: does not build"; broken=$((broken + 1)); restore; continue; fi
  cp "$builddir/$config/passim" "$scratch/bin/passim-$name"
  restore
  compare=engine
  head -1 "$p" | grep -q '^Mutant (mock)' && compare=mock
  wire=()
  head -1 "$p" | grep -q 'REST API v2\|OAuth2' && wire=(--wire v2)
  log="$scratch/fuzz-$name.log"
  # Each line of the fuzzer's stderr stamped with the seconds since its start; stopped at the first difference.
  start=$(date +%s.%N)
  found=""
  exec 3< <(exec nice -n 10 timeout $((budget + 60)) "$reference" fuzz --against "$root/$scratch/bin/passim-$name" \
              --compare "$compare" "${wire[@]}" --seed 1 --time "${budget}s" --max-findings 1 --jobs "$jobs" \
              --out "$scratch/out-$name" 2>&1 >/dev/null)
  fuzzer=$!
  : >"$log"
  while IFS= read -r line <&3; do
    now=$(date +%s.%N)
    printf '%.1f %s\n' "$(echo "$now - $start" | bc)" "$line" >>"$log"
    case $line in
      *" differs: "*) found=$(printf '%.1f' "$(echo "$now - $start" | bc)"); break ;;
    esac
  done
  # Found: the fuzzer would go on shrinking, which is not timed; it stops its served mock on SIGTERM.
  kill -TERM "$fuzzer" 2>/dev/null || true
  exec 3<&-
  wait "$fuzzer" 2>/dev/null || true
  what=$(head -1 "$p" | sed 's/^Mutant[^:]*: //')
  if [ -n "$found" ]; then
    run=$(tail -1 "$log" | sed -n 's/^[0-9.]* run \([0-9]*\) .*/\1/p')
    echo "found  $name ($compare) in $found s, run $run"
    echo "| $name | $compare | $found s | $((run + 1)) | $( awk -v f="$found" -v b="$budget" 'BEGIN { print (f > b ? "**over " b " s**" : "") }') |" >>"$table"
  else
    echo "MISSED $name ($compare): $what"
    echo "| $name | $compare | **not found in $budget s** | | $what |" >>"$table"
    missed=$((missed + 1))
  fi
done
echo "${#patches[@]} patches: $(( ${#patches[@]} - missed - broken )) found, $missed missed, $broken broken; table in $table"
[ "$broken" -eq 0 ] || exit 2
[ "$missed" -eq 0 ]
