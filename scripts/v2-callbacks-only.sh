#!/usr/bin/env bash
# Which of the scenarios that differ on REST API v2 (the `fail` lines of Scenarios/wire-v2.expect)
# show the app the same callbacks: the same ones, in the same order, with the same values, once the
# lines about requests (`seen`, `unseen`) and the pinned instants (`< … at T`) are left out. Those
# differ on v2 only in what goes over the wire and when; the others show the app something else
# (docs/MIGRATION.md, "What the app sees differently"). Each such scenario is copied without those
# lines to a scratch folder and run on v2 with the expectations file's other lines (its request
# mapping, equivalences and masks), not its `fail` lines.
#
# Usage: scripts/v2-callbacks-only.sh [PASSIM] (default .build/debug/passim). Prints the scenarios
# whose callbacks agree, then a count. Exit status 0, or 2 when passim is not built.
set -euo pipefail
cd "$(dirname "$0")/.."
passim="${1:-.build/debug/passim}"
[ -x "$passim" ] || { echo "no $passim: build it first (swift build)" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

grep -v '^fail ' Scenarios/wire-v2.expect >"$scratch/rules.expect"
total=0
while read -r _ name _; do
  total=$((total + 1))
  mkdir -p "$scratch/s/$(dirname "$name")"
  sed -E -e '/^[[:space:]]*(seen|unseen) /d' -e 's/^([A-Za-z0-9_-]*<.*) at [0-9]+(ms|s|m|h)$/\1/' \
    "Scenarios/$name.scenario" >"$scratch/s/$name.scenario"
done < <(grep '^fail ' Scenarios/wire-v2.expect)

"$passim" run --wire v2 --expect "$scratch/rules.expect" --jobs 2 --json "$scratch/s" >"$scratch/out.json" || true
same=$(python3 - "$scratch/out.json" "$scratch/s/" <<'EOF'
import json, sys
prefix = sys.argv[2]
names = []
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get("status") == "passed" and "file" in o:
        names.append(o["file"].replace(prefix, "").removesuffix(".scenario"))
for n in sorted(names):
    print(n)
EOF
)
[ -z "$same" ] || echo "$same"
count=$(printf '%s' "$same" | grep -c . || true)
echo "$count of $total scenarios that differ on v2 show the app the same callbacks (only requests or instants differ)"
