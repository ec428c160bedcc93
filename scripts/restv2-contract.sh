#!/usr/bin/env bash
# REST API v2 and DCR against Adobe's own OpenAPI contract (docs/WIRE.md, "REST API v2"):
# passim serve on Fixtures/clients/restv2/world.scenario behind its forward proxy, then
# Fixtures/clients/restv2/check_contract.py (Python requests + openapi-core, pinned with hashes) walks
# every operation on Adobe's host names and validates every answer against restApiV2.json and
# dcrApi.json, after a replay of the public TempPass client's exact sequence (temppass_replay.py). Adobe's files are not part of this repository: they are read from
# $PASSIM_ADOBE_OPENAPI_DIR, else ../shared/reference/adobe-rest-v2/ beside the repository; without
# them the check says so and fails (exit 2) rather than passing.
#
#   scripts/restv2-contract.sh PASSIM_BINARY
#
# Installs the pinned wheels into .venv-restv2/ on first use. Exit status 1 if a check failed, 2 if
# the set-up (the contract files, the install, the server) did.
set -euo pipefail

passim=${1:?usage: scripts/restv2-contract.sh PASSIM_BINARY}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/Fixtures/clients/restv2
venv=$root/.venv-restv2
tool=restv2-contract
# shellcheck source=scripts/restv2-lib.sh
. "$root/scripts/restv2-lib.sh"

[ -x "$passim" ] || { echo "$tool: $passim is not an executable" >&2; exit 2; }
need_contract
pinned_venv "$venv" "$dir/requirements.txt"
# The checker names each device's address in X-Forwarded-For, as a programmer's server would.
serve_start --world "$dir/world.scenario" --listen-port 0 --proxy 0 --ca-out "$work/ca.pem" \
  --trusted-proxy 127.0.0.1 || exit 2
[ -n "$admin" ] && [ -n "$token" ] && [ -n "$proxy" ] || { echo "$tool: passim serve printed no proxy" >&2; exit 2; }
statement() { sed -n "s/^requestor $1 software-statement \"\([^\"]*\)\".*/\1/p" "$dir/world.scenario"; }

status=0
# The TempPass client's exact sequence first, on a fresh server's clock; then the contract check
# (which holds the clock for the throttling table at its end).
"$venv/bin/python" -W ignore "$dir/temppass_replay.py" --proxy "$proxy" --ca "$work/ca.pem" --requestor passimv2 \
  --statement "$(statement passimv2)" --mvpd TempPass_TEST40 || status=1
"$venv/bin/python" -W ignore "$dir/check_contract.py" --proxy "$proxy" --ca "$work/ca.pem" --admin "$admin" \
  --admin-token "$token" --spec-dir "$spec" --requestor passimv2 --statement "$(statement passimv2)" \
  --other-statement "$(statement other)" || status=1
exit $status
