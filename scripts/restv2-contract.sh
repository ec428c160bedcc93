#!/usr/bin/env bash
# REST API v2 and DCR against Adobe's own OpenAPI contract (issue 26; docs/WIRE.md, "REST API v2"):
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
python=${PYTHON:-python3}
spec=${PASSIM_ADOBE_OPENAPI_DIR:-$root/../shared/reference/adobe-rest-v2}

[ -x "$passim" ] || { echo "restv2-contract: $passim is not an executable" >&2; exit 2; }
for f in restApiV2.json dcrApi.json; do
  if [ ! -r "$spec/$f" ]; then
    echo "restv2-contract: NOT RUN: Adobe's contract $spec/$f is missing (set PASSIM_ADOBE_OPENAPI_DIR to the folder" \
      "holding restApiV2.json and dcrApi.json of AdobeDocs/adobe-pass, docs/spec/reference/rest-api-v2.md 1.2)" >&2
    exit 2
  fi
done

sha=$(sha256sum "$dir/requirements.txt" | cut -d' ' -f1)
if [ "$(cat "$venv/.installed" 2>/dev/null)" != "$sha" ]; then
  rm -rf "$venv"
  "$python" -m venv "$venv" || { echo "restv2-contract: cannot make a venv" >&2; exit 2; }
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary :all: \
    --require-hashes -r "$dir/requirements.txt" || { echo "restv2-contract: installing openapi-core failed" >&2; exit 2; }
  echo "$sha" >"$venv/.installed"
fi

work=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$passim" serve --world "$dir/world.scenario" --port 0 --proxy 0 --ca-out "$work/ca.pem" >"$work/serve.out" 2>"$work/serve.err" &
server=$!
for _ in $(seq 100); do
  grep -q '^admin http' "$work/serve.out" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
admin=$(awk '$1 == "admin" { print $2 }' "$work/serve.out")
token=$(awk '$1 == "admin-token" { print $2 }' "$work/serve.out")
proxy=$(awk '$1 == "proxy" { print $2 }' "$work/serve.out")
if [ -z "$admin" ] || [ -z "$token" ] || [ -z "$proxy" ]; then
  echo "restv2-contract: passim serve did not start" >&2; cat "$work/serve.out" "$work/serve.err" >&2; exit 2
fi
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
