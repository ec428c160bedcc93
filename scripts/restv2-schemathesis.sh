#!/usr/bin/env bash
# Schemathesis runs Adobe's own REST v2 and DCR contracts against passim serve: it generates
# requests from restApiV2.json and dcrApi.json (valid and invalid) and fails on a 5xx, a status the
# contract does not declare, an undeclared content type or an answer that does not match its schema.
# The contracts are relaxed only where docs/WIRE.md says the mock follows Adobe's prose
# (Fixtures/clients/restv2/contract_quirks.py); the relaxed copies live in a temporary folder. Adobe's
# files are read from $PASSIM_ADOBE_OPENAPI_DIR, else ../shared/reference/adobe-rest-v2/; without
# them the run says so and fails (exit 2). Deterministic: a fixed seed and example count.
#
#   scripts/restv2-schemathesis.sh PASSIM_BINARY
#
# The world is Fixtures/clients/restv2/world.scenario with `rest-v2 throttling off` (Schemathesis
# sends hundreds of calls a second from one address; throttling has its own checks). Path parameters
# name the world's programmer and MVPD and the device headers are valid, so calls reach the handlers
# rather than stopping at the first check. Installs the pinned wheels into .venv-schemathesis/.
set -euo pipefail

passim=${1:?usage: scripts/restv2-schemathesis.sh PASSIM_BINARY}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/Fixtures/clients/restv2
venv=$root/.venv-schemathesis
python=${PYTHON:-python3}
examples=${SCHEMATHESIS_EXAMPLES:-40}
tool=restv2-schemathesis
# shellcheck source=scripts/restv2-lib.sh
. "$root/scripts/restv2-lib.sh"

[ -x "$passim" ] || { echo "$tool: $passim is not an executable" >&2; exit 2; }
need_contract
pinned_venv "$venv" "$dir/schemathesis-requirements.txt"

{ cat "$dir/world.scenario"; echo "rest-v2 throttling off"; } >"$work/world.scenario"
"$python" "$dir/contract_quirks.py" "$spec/restApiV2.json" "$work/restApiV2.json"
"$python" "$dir/contract_quirks.py" "$spec/dcrApi.json" "$work/dcrApi.json"
cat >"$work/schemathesis.toml" <<'TOML'
[parameters]
"serviceProvider" = "passimtv"
"mvpd" = "PassimCable"
TOML

serve_start --world "$work/world.scenario" --listen-port 0 || exit 2
# "sp adobe https://sp.auth.adobe.com/adobe-services -> http://127.0.0.1:P/adobe-services": REST v2 and
# DCR live at that origin's root.
origin=$(awk '$1 == "sp" && $4 == "->" { print $5; exit }' "$work/serve.out" | sed -E 's#^(https?://[^/]+).*#\1#')
[ -n "$origin" ] || { echo "$tool: passim serve printed no SP" >&2; exit 2; }
info=$("$python" -c 'import base64, json; print(base64.b64encode(json.dumps({"model": "Box", "version": "1.0", "osName": "Linux", "osVersion": "6.1", "connectionType": "LAN", "primaryHardwareType": "SetTopBox"}).encode()).decode())')

status=0
run() {
  local name=$1 url=$2
  if (cd "$work" && "$venv/bin/schemathesis" --config-file "$work/schemathesis.toml" run "$work/$name" --url "$url" \
        -H "X-Device-Info: $info" -H "AP-Device-Identifier: fingerprint c2NoZW1hdGhlc2lz" \
        --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
        --max-examples "$examples" --seed 26 --no-color >"$work/$name.log" 2>&1); then
    echo "ok   schemathesis $name: $(grep -E '^  [0-9]+ generated' "$work/$name.log" | sed 's/^ *//')"
  else
    echo "FAIL schemathesis $name:"; cat "$work/$name.log"; status=1
  fi
}
run restApiV2.json "$origin/api/v2"
run dcrApi.json "$origin/o"
kill -0 "$server" 2>/dev/null || { echo "FAIL passim serve stopped during the run" >&2; status=1; }
exit $status
