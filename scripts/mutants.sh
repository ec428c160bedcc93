#!/usr/bin/env bash
# The mutation check: each patch under Tests/Mutants/ is one realistic port bug in the engine, the
# mock or the lint (its first line says which). For each, the patch is applied to the working tree,
# passim is rebuilt incrementally (only the patched module, then the link), and the conformance suite
# runs until its first failure (`-x`: one failing scenario catches the mutant); a mutant the suite
# survives on the SDK's wire gets a second chance on REST API v2's (`--wire v2 --expect
# Scenarios/wire-v2.expect`, also `-x`), where the SDK-wire scenarios run on the other wire: a bug in
# the engine's v2 wire may show only there. Only survivors pay for that run (most v2 patches are caught
# on the first run by a `wire v2` or raw REST v2 scenario), and the unmutated v2 suite is checked once,
# the first time a survivor needs it. The check fails unless every mutant fails one suite or the other.
# The tree is restored after each one, and on exit whatever happens.
#
# Usage: scripts/mutants.sh [--keep DIR] [PASSIM_SCRATCH] [PATCH...]
#   --keep DIR: also keep the mutants the differential check uses (scripts/differential-mutants.sh
#     --list) as DIR/passim-NAME, so `scripts/differential-mutants.sh --built DIR` builds none again.
#   PASSIM_SCRATCH: the build folder to reuse (default .build, as `make build` leaves it; debug).
#   PATCH...: only these patches (default every Tests/Mutants/*.patch).
# Exit status: 0 every mutant caught, 1 a mutant survived, 2 a patch no longer applies or builds.
set -uo pipefail
cd "$(dirname "$0")/.."
keep=""
if [ "${1:-}" = --keep ]; then
  keep=${2:?--keep takes a folder}; shift 2
  mkdir -p "$keep" || exit 2
  kept=$(scripts/differential-mutants.sh --list | xargs -n1 basename | sed 's/\.patch$//')
fi
scratch="${1:-.build}"
shift || true
patches=("$@")
[ ${#patches[@]} -gt 0 ] || patches=(Tests/Mutants/*.patch)

# The patches change the engine, the mock (`Mutant (mock)`) or the lint (`Mutant (lint)`): all three
# must be as committed.
mutable=(Sources/Entitlement Sources/MockPass Sources/Lint)
if ! git diff --quiet -- "${mutable[@]}"; then
  echo "Sources/Entitlement, Sources/MockPass or Sources/Lint has uncommitted changes: commit or stash them first" >&2
  exit 2
fi
applied=""
restore() { if [ -n "$applied" ]; then patch -p1 -R -s --no-backup-if-mismatch < "$applied" || git checkout -- "${mutable[@]}"; applied=""; fi; }
# A signal restores the tree and ends the check (a trap alone would restore, then carry on).
trap restore EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

build() { swift build --product passim --scratch-path "$scratch" >"$log" 2>&1; }
run_suite() { "$scratch/debug/passim" run --jobs 2 "$@" Scenarios >/dev/null 2>&1; }
v2_suite=(--wire v2 --expect Scenarios/wire-v2.expect)

log=$(mktemp)
start=$(date +%s)
if ! build || ! run_suite; then
  echo "the unmutated engine does not build or pass the suite" >&2; cat "$log" >&2; exit 2
fi
# The unmutated passim, kept for the v2 suite's own baseline (run only if a survivor needs the v2 suite).
unmutated=$(mktemp -d)
cp "$scratch/debug/passim" "$unmutated/passim"
v2_baseline=""
# The v2 suite passes unmutated (checked once); else no v2 failure could be blamed on a mutant.
check_v2_baseline() {
  [ -z "$v2_baseline" ] || return 0
  if "$unmutated/passim" run --jobs 2 "${v2_suite[@]}" Scenarios >/dev/null 2>&1; then v2_baseline=ok; return 0; fi
  echo "the unmutated engine does not pass the suite on REST API v2's wire" >&2; exit 2
}

caught=0; survived=(); broken=()
for p in "${patches[@]}"; do
  name=$(basename "$p" .patch)
  what=$(head -1 "$p" | sed 's/^Mutant: //')
  t0=$(date +%s)
  if ! patch -p1 -s --dry-run < "$p" >/dev/null 2>&1; then
    broken+=("$name (does not apply)"); echo "BROKEN   $name: the patch does not apply"; continue
  fi
  patch -p1 -s --no-backup-if-mismatch < "$p"; applied="$p"
  if ! build; then
    broken+=("$name (does not build)"); echo "BROKEN   $name: does not build"; restore; continue
  fi
  if [ -n "$keep" ] && grep -qx "$name" <<<"$kept"; then cp "$scratch/debug/passim" "$keep/passim-$name"; fi
  if ! run_suite --fail-fast; then
    caught=$((caught + 1)); echo "caught   $name ($(( $(date +%s) - t0 )) s)"
  elif check_v2_baseline && ! run_suite --fail-fast "${v2_suite[@]}"; then
    caught=$((caught + 1)); echo "caught   $name on v2 ($(( $(date +%s) - t0 )) s)"
  else
    survived+=("$name: $what"); echo "SURVIVED $name: $what ($(( $(date +%s) - t0 )) s)"
  fi
  restore
done
build >/dev/null 2>&1 || true   # leave the build as the tree is
rm -f "$log"; rm -rf "$unmutated"

echo "${#patches[@]} mutants: $caught caught, ${#survived[@]} survived, ${#broken[@]} broken ($(( $(date +%s) - start )) s)"
for s in "${survived[@]}"; do echo "  survived: $s"; done
[ ${#broken[@]} -eq 0 ] || exit 2
[ ${#survived[@]} -eq 0 ] || exit 1
