#!/usr/bin/env bash
# `make test`: swift test, printing what a person needs. Swift Testing runs quiet (-q: failures,
# known issues and its summary, no line per passing test); XCTest's "started" and "passed" lines for
# each case are dropped, its failures and "Executed" summaries kept. The exit status is swift test's.
# Everything, unfiltered: swift test. Deliberate failures' diffs: PASSIM_SHOW_KNOWN_ISSUES=1.
#
# scripts/test.sh --bundle FILE runs a built test bundle (a copy of .build/debug/passimPackageTests.xctest)
# itself, without SwiftPM: CI runs the tests beside its mutation check, which rebuilds in .build and
# would wait on swift test's hold of it (the tests then run the passim binary PASSIM_BINARY names).
set -uo pipefail
cd "$(dirname "$0")/.."
quiet() { grep --line-buffered -v -E "^Test (Case|Suite) '.*' (started at|passed at|passed \()"; }
if [ "${1:-}" = --bundle ]; then
  bundle=${2:?--bundle takes a test bundle}
  [ -x "$bundle" ] || { echo "test.sh: no test bundle $bundle (swift build --build-tests makes it)" >&2; exit 2; }
  # What swift test does with the bundle: XCTest's cases, then Swift Testing's.
  "$bundle" --testing-library xctest 2>&1 | quiet
  xctest=${PIPESTATUS[0]}
  "$bundle" --testing-library swift-testing --quiet 2>&1 | quiet
  testing=${PIPESTATUS[0]}
  [ "$xctest" = 0 ] && [ "$testing" = 0 ]
  exit
fi
swift test -q "$@" 2>&1 | quiet
exit "${PIPESTATUS[0]}"
