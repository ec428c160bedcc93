#!/usr/bin/env bash
# The pages people look at, in headless Chromium (scripts/check-pages.py): a run's HTML report
# (`passim run --report-html`, with a scenario that fails on purpose, Fixtures/reports/, so its diff
# shows), the SVG sequence diagrams of `passim doc` (a fresh page of one area, and every diagram
# committed under docs/), and a lint report card (`passim lint --format html` of a journal
# scripts/lint-journal.py writes). Each must load with no console error and no request leaving the
# page, and show its elements. The checker proves first that it fails a page that breaks each rule.
#
#   scripts/report-check.sh PASSIM_BINARY
#
# Needs Chromium (`make browser-setup`: Debian's package; $CHROMIUM names another) and installs
# Playwright, pinned with hashes (Fixtures/reports/requirements.txt), in .venv-browser on first use
# (PyPI; Playwright's own browser download is never used). Exit status 1 if a page failed, 2 if the
# set-up failed.
set -euo pipefail

passim=${1:?usage: scripts/report-check.sh PASSIM_BINARY}
root=$(cd "$(dirname "$0")/.." && pwd)
tool=report-check
[ -x "$passim" ] || { echo "$tool: $passim is not an executable" >&2; exit 2; }
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$chromium" ] || { echo "$tool: no chromium (make browser-setup installs Debian's)" >&2; exit 2; }
# shellcheck source=scripts/restv2-lib.sh
. "$root/scripts/restv2-lib.sh"
start=$SECONDS
pinned_venv "$root/.venv-browser" "$root/Fixtures/reports/requirements.txt"

# A run of one area and the failing fixture: exit 1 (a scenario failed) is what is asked for.
area=$root/Scenarios/startup
rc=0
"$passim" run "$area" "$root/Fixtures/reports" --report-html "$work/run" >"$work/run.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$work/run.out" >&2; echo "$tool: passim run exited $rc, expected 1 (the fixture fails)" >&2; exit 2; }
scenarios=$(( $(find "$area" "$root/Fixtures/reports" -name '*.scenario' | wc -l) ))

"$passim" doc "$area" --out "$work/doc" >"$work/doc.out" 2>&1 \
  || { cat "$work/doc.out" >&2; echo "$tool: passim doc failed" >&2; exit 2; }
mapfile -t svgs < <(find "$work/doc" "$root/docs/callbacks/diagrams" "$root/docs/migration/diagrams" -name '*.svg' | sort)
[ "${#svgs[@]}" -gt 0 ] || { echo "$tool: passim doc wrote no SVG diagram" >&2; exit 2; }

python3 "$root/scripts/lint-journal.py" 0.01 >"$work/journal.jsonl"
rc=0
"$passim" lint --format html "$work/journal.jsonl" >"$work/lint.html" 2>"$work/lint.err" || rc=$?
[ "$rc" -le 1 ] || { cat "$work/lint.err" >&2; echo "$tool: passim lint failed ($rc)" >&2; exit 2; }

"$root/.venv-browser/bin/python" "$root/scripts/check-pages.py" --chromium "$chromium" --self-test \
  --run "$work/run/index.html" --scenarios "$scenarios" --failed 1 \
  --svg "${svgs[@]}" --participants App,Engine,Browser/User \
  --lint "$work/lint.html"
echo "$tool: every page passed in $chromium ($((SECONDS - start)) s)"
