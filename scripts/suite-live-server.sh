#!/usr/bin/env bash
# The suite over loopback HTTP against one running `passim serve` (passim run --live --server URL):
# starts the server on free ports with a starter world, runs every scenario through its admin
# endpoint (each scenario's world is loaded with POST /admin/world), stops the server whatever happens.
# The admin token the server prints (`admin-token TOKEN`, before the `admin URL` line) reaches
# `passim run` through PASSIM_ADMIN_TOKEN, not the command line, so `ps` does not show it.
# Usage: scripts/suite-live-server.sh [PASSIM] [RUN-ARGUMENT...]   (default: .build/debug/passim Scenarios)
# The run arguments go to `passim run --live --server URL`: paths, and options such as --port COMMAND.
set -euo pipefail
cd "$(dirname "$0")/.."
passim="${1:-.build/debug/passim}"
shift || true
arguments=("${@:-Scenarios}")

out="$(mktemp /tmp/passim-serve.XXXXXX)"
# The run on loopback plays Adobe's edge: its X-Forwarded-For names the simulated device or second screen.
"$passim" serve --world Fixtures/worlds/starter.scenario --listen-port 0 --trusted-proxy 127.0.0.1 >"$out" 2>&1 &
server=$!
trap 'kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$out"' EXIT

admin=""
for _ in $(seq 1 100); do
  admin="$(sed -n 's/^admin \(http:[^ ]*\)$/\1/p' "$out")"
  [[ -n $admin ]] && break
  kill -0 "$server" 2>/dev/null || { cat "$out" >&2; echo "suite-live-server: passim serve did not start" >&2; exit 1; }
  sleep 0.1
done
[[ -n $admin ]] || { cat "$out" >&2; echo "suite-live-server: no admin URL after 10 s" >&2; exit 1; }
token="$(sed -n 's/^admin-token \([^ ]*\)$/\1/p' "$out")"
[[ -n $token ]] || { cat "$out" >&2; echo "suite-live-server: no admin-token line" >&2; exit 1; }
echo "passim serve: admin $admin"
PASSIM_ADMIN_TOKEN="$token" "$passim" run --live --server "$admin" "${arguments[@]}"
