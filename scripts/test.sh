#!/usr/bin/env bash
# `make test`: swift test, printing what a person needs. Swift Testing runs quiet (-q: failures,
# known issues and its summary, no line per passing test); XCTest's "started" and "passed" lines for
# each case are dropped, its failures and "Executed" summaries kept. The exit status is swift test's.
# Everything, unfiltered: swift test. Deliberate failures' diffs: PASSIM_SHOW_KNOWN_ISSUES=1.
set -uo pipefail
cd "$(dirname "$0")/.."
swift test -q "$@" 2>&1 | grep --line-buffered -v -E "^Test (Case|Suite) '.*' (started at|passed at|passed \()"
exit "${PIPESTATUS[0]}"
