#!/usr/bin/env bash
# `passim serve` under the load a real client makes (BENCHMARKS.md, "`passim serve`: the login flow"): a release
# build serves the starter world; scripts/soak-login.py runs the whole login and authorization flow
# on CONNECTIONS connections for DURATION seconds and prints requests, errors, p50/p99 and the
# server's RSS every INTERVAL seconds; then the isolation check: the IdP's latency while the SP
# chews on an attribute bomb. Loopback only; the server is stopped on exit, whatever happens.
#
# Usage: scripts/soak-serve.sh
# Settings (environment): SCRATCH (build folder, .build-bench), CONNECTIONS (256), DURATION (600),
# INTERVAL (60), SKIP_BUILD=1 (use the existing binary), JSON=FILE (the soak's figures as JSON).
# Exits non-zero when the server does not start, a request fails, RSS is not flat (the last interval
# within 10% of the second), or the attribute bomb adds more than 50 ms to the other host.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${SCRATCH:-.build-bench}"
connections="${CONNECTIONS:-256}"
duration="${DURATION:-600}"
interval="${INTERVAL:-60}"

die() { echo "soak-serve: $*" >&2; exit 1; }

if [[ ${SKIP_BUILD:-0} != 1 ]]; then
  swift build -c release --scratch-path "$scratch" --product passim >/dev/null
fi
passim="$scratch/release/passim"
[[ -x $passim ]] || die "no binary at $passim"

tmp="$(mktemp -d /tmp/soak-serve.XXXXXX)"
pid=""
cleanup() {
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# More descriptors than connections: the server's connection cap follows the descriptor limit.
ulimit -n 4096 2>/dev/null || true
"$passim" serve --world Fixtures/worlds/starter.scenario --listen-port 0 >"$tmp/out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q '^admin ' "$tmp/out" 2>/dev/null && break; sleep 0.1; done
grep -q '^admin ' "$tmp/out" || { cat "$tmp/out" >&2; die "passim serve did not print its ports within 10 s"; }
sp="$(sed -n 's/^sp main .* -> \(http[^ ]*\).*$/\1/p' "$tmp/out")"
idp="$(sed -n 's/^idp Comcast .* -> \(http[^ ]*\).*$/\1/p' "$tmp/out")"
[[ -n $sp && -n $idp ]] || die "cannot read the SP and IdP URLs from: $(cat "$tmp/out")"

echo "soak: $connections connections, ${duration}s, the login flow (scripts/soak-login.py), server pid $pid"
status=0
python3 scripts/soak-login.py soak --sp "$sp" --idp "$idp" --pid "$pid" --connections "$connections" \
  --duration "$duration" --interval "$interval" ${JSON:+--json "$JSON"} || status=1
echo "isolation: the IdP's latency while the SP parses an attribute bomb"
python3 scripts/soak-login.py isolation --sp "$sp" --idp "$idp" || status=1
kill -0 "$pid" 2>/dev/null || die "the server died"
exit "$status"
