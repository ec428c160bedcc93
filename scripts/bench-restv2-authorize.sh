#!/usr/bin/env bash
# `POST /api/v2/{serviceProvider}/decisions/authorize/{mvpd}` per CPU-second of `passim serve` (BENCHMARKS.md,
# "REST API v2"): DEVICES devices log in through the v2 flow once, then CONNECTIONS keep-alive connections send
# authorize decisions for DURATION seconds, the devices in turn, each answer checked (authorized, with a media
# token); the figure is the requests answered over the server's user+system CPU time in that window
# (/proc/PID/stat). Loopback only; the server is stopped on exit (scripts/restv2-bench-lib.sh).
#
# Usage: scripts/bench-restv2-authorize.sh
# Settings (environment): DEVICES (1), CONNECTIONS (32), DURATION (20), ROUNDS (3), and those of
# scripts/restv2-bench-lib.sh (SCRATCH, SKIP_BUILD=1, PASSIM). Exits 1 on a wrong answer.
source "$(dirname "$0")/restv2-bench-lib.sh"
devices="${DEVICES:-1}"
rounds="${ROUNDS:-3}"
echo "passim serve pid $pid ($passim); decisions/authorize, $devices device(s), $rounds rounds"
status=0
for round in $(seq "$rounds"); do
  echo "round $round:"
  python3 scripts/restv2-load.py authorize --sp "$sp" --idp "$idp" --pid "$pid" --devices "$devices" \
    --connections "${CONNECTIONS:-32}" --duration "${DURATION:-20}" || status=1
done
kill -0 "$pid" 2>/dev/null || die "the server died"
exit "$status"
