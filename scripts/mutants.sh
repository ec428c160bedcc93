#!/usr/bin/env bash
# The mutation check: each patch under Tests/Mutants/ is one realistic port bug in the engine or the
# mock (its first line says which). For each, the patch is applied to the working tree, passim is
# rebuilt incrementally (only the patched module, then the link), and the conformance suite runs until
# its first failure (`-x`: one failing scenario catches the mutant); the check fails unless the suite
# fails on every mutant. The tree is restored after each one, and on exit whatever happens.
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

# The patches change the engine or the mock (`Mutant (mock)`): both must be as committed.
if ! git diff --quiet -- Sources/Entitlement Sources/MockPass; then
  echo "Sources/Entitlement or Sources/MockPass has uncommitted changes: commit or stash them first" >&2
  exit 2
fi
applied=""
restore() { if [ -n "$applied" ]; then patch -p1 -R -s --no-backup-if-mismatch < "$applied" || git checkout -- Sources/Entitlement Sources/MockPass; applied=""; fi; }
# A signal restores the tree and ends the check (a trap alone would restore, then carry on).
trap restore EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

build() { swift build --product passim --scratch-path "$scratch" >"$log" 2>&1; }
run_suite() { "$scratch/debug/passim" run --jobs 2 "$@" Scenarios >/dev/null 2>&1; }

log=$(mktemp)
start=$(date +%s)
if ! build || ! run_suite; then
  echo "the unmutated engine does not build or pass the suite" >&2; cat "$log" >&2; exit 2
fi

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
  if run_suite --fail-fast; then
    survived+=("$name: $what"); echo "SURVIVED $name: $what ($(( $(date +%s) - t0 )) s)"
  else
    caught=$((caught + 1)); echo "caught   $name ($(( $(date +%s) - t0 )) s)"
  fi
  restore
done
build >/dev/null 2>&1 || true   # leave the build as the tree is
rm -f "$log"

echo "${#patches[@]} mutants: $caught caught, ${#survived[@]} survived, ${#broken[@]} broken ($(( $(date +%s) - start )) s)"
for s in "${survived[@]}"; do echo "  survived: $s"; done
[ ${#broken[@]} -eq 0 ] || exit 2
[ ${#survived[@]} -eq 0 ] || exit 1
