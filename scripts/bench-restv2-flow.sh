#!/usr/bin/env bash
# The whole REST API v2 flow per CPU-second of `passim serve` (BENCHMARKS.md, "REST API v2 on `passim serve`"): CONNECTIONS/2
# users loop for DURATION seconds over a session, the user agent's login at the IdP (signed SAML back to the
# SP), the profile and an authorize decision with its media token, a new device each time, every answer
# checked; the figures are flows and requests over the server's user+system CPU time (/proc/PID/stat).
# Loopback only; the server is stopped on exit (scripts/restv2-bench-lib.sh).
#
# Usage: scripts/bench-restv2-flow.sh
# Settings (environment): CONNECTIONS (32), DURATION (20), ROUNDS (3), and those of
# scripts/restv2-bench-lib.sh (SCRATCH, SKIP_BUILD=1, PASSIM). Exits 1 on a wrong answer.
source "$(dirname "$0")/restv2-bench-lib.sh"
rounds="${ROUNDS:-3}"
echo "passim serve pid $pid ($passim); the v2 login-to-media-token flow, $rounds rounds"
status=0
for round in $(seq "$rounds"); do
  echo "round $round:"
  python3 scripts/restv2-load.py flow --sp "$sp" --idp "$idp" --pid "$pid" \
    --connections "${CONNECTIONS:-32}" --duration "${DURATION:-20}" || status=1
done
kill -0 "$pid" 2>/dev/null || die "the server died"
exit "$status"
