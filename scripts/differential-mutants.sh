#!/usr/bin/env bash
# The differential fuzzer against injected bugs: for each chosen patch of Tests/Mutants/, passim is
# built with the bug and kept aside as a "port" (`BIN shim`); then `passim fuzz --against BIN` must
# find a difference within 60 seconds and write a scenario of at most 15 steps that passes on the
# reference and fails on the mutant. The tree is restored after each build, and on exit.
#
# Usage: scripts/differential-mutants.sh [--built DIR] [PASSIM_SCRATCH] [PATCH...]   (default: .build, the ten below)
#        scripts/differential-mutants.sh --list   (the ten patches)
#   --built DIR: take each mutant from DIR/passim-NAME where it is (`scripts/mutants.sh --keep DIR` leaves
#     them there), building only the others.
# Exit status: 0 every bug found, 1 one was not (or its scenario was wrong), 2 a patch did not apply or build.
set -uo pipefail
cd "$(dirname "$0")/.."
built=""
case "${1:-}" in
  --list) list=1; shift ;;
  --built) built=${2:?--built takes a folder}; shift 2 ;;
esac
scratch="${1:-.build}"
shift || true
patches=("$@")
if [ ${#patches[@]} -eq 0 ]; then
  for name in 08-tracking-authn-cached-inverted 09-tracking-guid-unhashed 10-tracking-failure-fields \
              12-tracking-device-os-swapped 13-authz-cache-ignored 16-authz-tracking-before-failure \
              21-preauth-order-sorted 25-logout-keeps-selected 28-picker-no-dismiss 29-picker-cancel-no-n005; do
    patches+=("Tests/Mutants/$name.patch")
  done
fi
if [ -n "${list:-}" ]; then printf '%s\n' "${patches[@]}"; exit 0; fi
if ! git diff --quiet -- Sources/Entitlement; then
  echo "Sources/Entitlement has uncommitted changes: commit or stash them first" >&2; exit 2
fi
work=$(mktemp -d)
applied=""
restore() { if [ -n "$applied" ]; then patch -p1 -R -s --no-backup-if-mismatch < "$applied" || git checkout -- Sources/Entitlement; applied=""; fi; }
cleanup() { restore; rm -rf "$work"; }
# A signal restores the tree and ends the check (a trap alone would restore, then carry on).
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
build() { swift build --product passim --scratch-path "$scratch" >"$work/build.log" 2>&1; }

# The mutants, built one after the other and kept aside (or taken as --built left them).
for p in "${patches[@]}"; do
  name=$(basename "$p" .patch)
  if [ -n "$built" ] && [ -x "$built/passim-$name" ]; then
    ln -s "$(cd "$built" && pwd)/passim-$name" "$work/passim-$name"; continue
  fi
  if ! patch -p1 -s --no-backup-if-mismatch < "$p"; then echo "BROKEN $name: does not apply"; exit 2; fi
  applied="$p"
  if ! build; then cat "$work/build.log"; echo "BROKEN $name: does not build"; exit 2; fi
  cp "$scratch/debug/passim" "$work/passim-$name"
  restore
done
build || { cat "$work/build.log"; echo "the reference does not build"; exit 2; }
passim="$scratch/debug/passim"

missed=0
for p in "${patches[@]}"; do
  name=$(basename "$p" .patch)
  what=$(head -1 "$p" | sed 's/^Mutant: //')
  out="$work/out-$name"
  t0=$(date +%s)
  timeout 60 "$passim" fuzz --against "$work/passim-$name" --runs 2000 --jobs 2 --max-findings 1 --out "$out" >"$work/fuzz.log" 2>&1
  took=$(( $(date +%s) - t0 ))
  found=$(ls "$out"/differential-*.scenario 2>/dev/null | head -1)
  if [ -z "$found" ]; then
    echo "MISSED $name: $what (${took} s)"; missed=$((missed + 1)); continue
  fi
  steps=$(grep -cE '^[a-z0-9_]*> |^user |^clock |^net ' "$found")
  if [ "$steps" -gt 15 ] || ! "$passim" run "$found" >/dev/null 2>&1 \
     || "$passim" run --port "$work/passim-$name shim" "$found" >/dev/null 2>&1; then
    echo "WRONG  $name: the scenario has $steps steps, or does not pass on the reference and fail on the mutant"
    cat "$found"; missed=$((missed + 1)); continue
  fi
  echo "found  $name in ${took} s, $steps steps: $(sed -n 1p "$found" | cut -c1-140)"
done
echo "${#patches[@]} injected bugs: $(( ${#patches[@]} - missed )) found by passim fuzz --against"
[ "$missed" -eq 0 ]
