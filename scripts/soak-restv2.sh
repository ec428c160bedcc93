#!/usr/bin/env bash
# A mixed soak through the forward proxy (BENCHMARKS.md, "REST API v2 on `passim serve`"): CONNECTIONS connections (CONNECT and
# TLS to sp.auth.adobe.com and the IdP, verified with the server's CA) for DURATION seconds, half the users
# looping over the REST API v2 flow (session, login at the IdP, profile, authorize with a media token), half
# over the legacy SDK flow (config, authenticate/saml, the IdP, sessionDevice, authorizeDevice,
# deviceShortAuthorize); requests, errors, p50/p99, the server's RSS, its requests per CPU-second and how
# full its stores are (`GET /admin/stores`) every INTERVAL seconds.
# Loopback only; the server is stopped on exit (scripts/restv2-bench-lib.sh).
#
# Usage: scripts/soak-restv2.sh
# Settings (environment): CONNECTIONS (256), DURATION (720: long enough for the stores a soak fills, 20,000
# entries each, to fill on this machine), INTERVAL (60), and those of scripts/restv2-bench-lib.sh (SCRATCH,
# SKIP_BUILD=1, PASSIM). Exits 1 on a wrong answer or when RSS is not flat: once every store full at the end
# is full, each later interval within 10% of that one (without stores that fill, the last interval within
# 10% of the second).
source "$(dirname "$0")/restv2-bench-lib.sh"
echo "passim serve pid $pid ($passim); soak through the proxy $proxy: ${CONNECTIONS:-256} connections, ${DURATION:-720} s"
status=0
python3 scripts/restv2-load.py soak --proxy "$proxy" --ca "$ca" --pid "$pid" --admin "$admin" \
  --admin-token "$admin_token" --connections "${CONNECTIONS:-256}" --duration "${DURATION:-720}" --interval "${INTERVAL:-60}" || status=1
kill -0 "$pid" 2>/dev/null || die "the server died"
exit "$status"
