#!/usr/bin/env bash
# `passim serve --proxy` and `--tls` under load (BENCHMARKS.md, "`passim serve`: the login flow"): the SP's
# /config/passimtv of the Adobe world (no added latency), with hey (Go's HTTP client: it speaks CONNECT and sends SNI,
# which wrk does not), in alternating rounds:
#   direct-http   plain HTTP to the SP's own port, keep-alive
#   proxy-tls     https://sp.auth.adobe.com through the proxy (one CONNECT + handshake per connection), keep-alive
#   proxy-connect the same with keep-alive off: a CONNECT, a TLS handshake and one request per connection
#   direct-tls    a `--tls` server's port, keep-alive off: a TLS handshake and one request per connection
#   wrk-http, wrk-tls  wrk -t1 (keep-alive) on the SP's port, plain and on the `--tls` server: wrk costs
#                 less CPU than hey, so these show the server nearer its limit (wrk cannot use a proxy)
# hey skips certificate checks (it has no CA option); curl checks passim's CA in the tests.
# Only loopback traffic; every process it starts is stopped on exit.
#
# Usage: scripts/bench-proxy.sh
# Settings (environment): SCRATCH (.build-bench), CONNS (32), DURATION (5s), ROUNDS (3), SKIP_BUILD=1,
# PASSIM (a binary to measure instead of the release build).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${SCRATCH:-.build-bench}"
conns="${CONNS:-32}"
duration="${DURATION:-5s}"
rounds="${ROUNDS:-3}"

die() { echo "bench-proxy: $*" >&2; exit 1; }

if ! command -v hey >/dev/null || ! command -v wrk >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq hey wrk >/dev/null || die "cannot install hey and wrk"
fi
[ "${SKIP_BUILD:-}" = 1 ] || swift build -c release --scratch-path "$scratch" --product passim >/dev/null
passim="${PASSIM:-$scratch/release/passim}"
[ -x "$passim" ] || die "no release binary at $passim"

tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# serve NAME ARGS...: starts passim serve, waits for its admin line.
serve() {
  local name=$1; shift
  "$passim" serve --world "$tmp/world.scenario" --listen-port 0 "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
  pids+=($!)
  for _ in $(seq 100); do grep -q '^admin http' "$tmp/$name.out" 2>/dev/null && return 0; sleep 0.1; done
  cat "$tmp/$name.out" "$tmp/$name.err" >&2
  die "passim serve $* did not start"
}

# Adobe's layout with no added latency (a world's default is 10 ms a request): the server's own cost.
sed 's/^\(sp [^ ]* "[^"]*"\)$/\1 latency 0ms/' Fixtures/worlds/adobe.scenario >"$tmp/world.scenario"
grep -q 'latency 0ms' "$tmp/world.scenario" || die "could not set latency 0ms in the world"
serve proxy --proxy 0 --ca-out "$tmp/ca.pem"
serve tls --tls --ca "$tmp/ca.pem" --ca-key "$tmp/ca-key.pem"
proxy=$(awk '$1 == "proxy" { print $2 }' "$tmp/proxy.out")
direct=$(awk '$1 == "sp" && $2 == "adobe" { print $5 }' "$tmp/proxy.out")
tls=$(awk '$1 == "sp" && $2 == "adobe" { print $5 }' "$tmp/tls.out")
path=/config/passimtv

# measure KIND: one hey run, prints requests/s.
measure() {
  local out
  case $1 in
    direct-http)   out=$(hey -z "$duration" -c "$conns" "$direct$path") ;;
    proxy-tls)     out=$(hey -z "$duration" -c "$conns" -x "$proxy" "https://sp.auth.adobe.com/adobe-services$path") ;;
    proxy-connect) out=$(hey -z "$duration" -c "$conns" -disable-keepalive -x "$proxy" "https://sp.auth.adobe.com/adobe-services$path") ;;
    direct-tls)    out=$(hey -z "$duration" -c "$conns" -disable-keepalive "$tls$path") ;;
    # wrk (C, keep-alive; it cannot use a proxy): the ceiling hey's own cost hides, plain and over TLS.
    wrk-http|wrk-tls)
      local url=$direct$path
      [ "$1" = wrk-tls ] && url=$tls$path
      out=$(wrk -t1 -c "$conns" -d "$duration" "$url")
      grep -q 'Non-2xx' <<<"$out" && { echo "$out" >&2; die "$1: answers other than 2xx"; }
      awk '/Requests\/sec/ { printf "%d\n", $2 }' <<<"$out"
      return ;;
  esac
  grep -q '\[200\]' <<<"$out" || { echo "$out" >&2; die "$1: no 200 answers"; }
  if grep -A3 'Status code distribution' <<<"$out" | grep -v '\[200\]' | grep -q '\['; then
    echo "$out" >&2; die "$1: answers other than 200"
  fi
  awk '/Requests\/sec/ { printf "%d\n", $2 }' <<<"$out"
}

kinds=(direct-http proxy-tls proxy-connect direct-tls wrk-http wrk-tls)
for kind in "${kinds[@]}"; do measure "$kind" >/dev/null; done  # warm-up
declare -A results
for _ in $(seq "$rounds"); do
  for kind in "${kinds[@]}"; do results[$kind]+="$(measure "$kind") "; done
done
echo "hey -c $conns -z $duration, $rounds rounds, median requests/s (all rounds):"
for kind in "${kinds[@]}"; do
  # shellcheck disable=SC2086 # the rounds are words on purpose
  median=$(printf '%s\n' ${results[$kind]} | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  printf '%-14s %8s   (%s)\n' "$kind" "$median" "${results[$kind]% }"
done
