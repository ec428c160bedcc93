#!/usr/bin/env bash
# The slow-client attack replayed against a release `passim serve` (docs/LIMITS.md, "HTTP server"; the
# figures in BENCHMARKS.md): scripts/slow-clients.py's CONNECTIONS connections trickling a decisions body
# from ATTACKERS while probes from PROBES ask for /config/REQ1. Loopback only (Linux takes any of
# 127.0.0.0/8 as a source address); the server is stopped on exit (scripts/restv2-bench-lib.sh).
#
# Usage: scripts/slow-clients.sh
# Settings (environment): CONNECTIONS (1100), RATE (1 byte/s), DURATION (60), ATTACKERS (127.0.0.1),
# PROBES (127.0.0.2,127.0.0.1), and those of scripts/restv2-bench-lib.sh (SCRATCH, SKIP_BUILD=1, PASSIM,
# NOFILE: the server's descriptor limit, 4096).
# Exits 1 when a probe from an address that is not an attacker's was not answered.
source "$(dirname "$0")/restv2-bench-lib.sh"
echo "passim serve pid $pid ($passim), SP $sp; $(ulimit -n) descriptors (connection cap: that less 64, at most 1024)"
status=0
python3 scripts/slow-clients.py --sp "$sp" --pid "$pid" --connections "${CONNECTIONS:-1100}" --rate "${RATE:-1}" \
  --duration "${DURATION:-60}" --attackers "${ATTACKERS:-127.0.0.1}" --probes "${PROBES:-127.0.0.2,127.0.0.1}" || status=1
kill -0 "$pid" 2>/dev/null || die "the server died"
exit "$status"
