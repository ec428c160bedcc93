#!/usr/bin/env bash
# The reference REST API v2 client (Examples/restv2-client/client.py, Python requests; docs/V2-CLIENTS.md)
# through passim serve's forward proxy on Adobe's host name, against `passim serve --lint`: its own
# tests first, then its whole journey once per MVPD (SAML, then OAuth2 with PKCE), each on a server of
# its own. The second screen is `passim login` (the server's POST /admin/login), and every wait of the
# client (the 5 s poll, the throttle, Retry-After, the user watching) advances the server's clock
# instead of sleeping, so a journey takes about a second. Each journal must leave `passim lint` with
# nothing broken: exit 0 and no rule broken, recommended ones included.
#
#   scripts/v2-reference-client.sh PASSIM_BINARY
#
# Installs requests, pinned with hashes (Examples/restv2-client/requirements.txt), in .venv-v2client on
# first use (PyPI). Exit status 1 if the client failed or the lint broke a rule, 2 if the set-up failed.
set -euo pipefail

passim=${1:?usage: scripts/v2-reference-client.sh PASSIM_BINARY}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/Examples/restv2-client
venv=$root/.venv-v2client
tool=v2-reference-client
[ -x "$passim" ] || { echo "$tool: $passim is not an executable" >&2; exit 2; }
# The second screen runs passim from the client's own folder: an absolute path.
passim=$(cd "$(dirname "$passim")" && pwd)/$(basename "$passim")
# shellcheck source=scripts/restv2-lib.sh
. "$root/scripts/restv2-lib.sh"
start=$SECONDS

pinned_venv "$venv" "$dir/requirements.txt"
"$venv/bin/python" -m unittest discover -s "$dir" -p 'test_*.py' 2>"$work/unit.err" \
  || { cat "$work/unit.err" >&2; echo "$tool: the client's own tests failed" >&2; exit 1; }
tail -n 1 "$work/unit.err" | sed "s/^/$tool: client tests: /"

statement=$(sed -n 's/^requestor passimv2 software-statement "\([^"]*\)".*/\1/p' "$dir/world.scenario")
status=0
for journey in "PassimCable viewer" "OAuthCable oviewer"; do
  read -r mvpd user <<<"$journey"
  serve_start --lint --world "$dir/world.scenario" --listen-port 0 --proxy 0 --ca-out "$work/ca.pem" || exit 2
  if ! PASSIM_ADMIN_TOKEN=$token "$venv/bin/python" -W ignore "$dir/client.py" --proxy "$proxy" --ca "$ca" \
    --requestor passimv2 --statement "$statement" --mvpd "$mvpd" --temppass TempPass_TEST40 \
    --state "$work/state-$mvpd.json" --clock-admin "$admin" \
    --second-screen "$passim login --server $admin {code} as $user" >"$work/client-$mvpd.out" 2>&1; then
    cat "$work/client-$mvpd.out" >&2
    echo "$tool: the client failed with $mvpd" >&2
    status=1
    continue
  fi
  sed "s/^/  /" "$work/client-$mvpd.out"
  curl -sf -H "Authorization: Bearer $token" "$admin/admin/log?limit=10000" >"$work/$mvpd.jsonl" \
    || { echo "$tool: cannot read the server's log" >&2; exit 2; }
  serve_stop
  rc=0
  "$passim" lint "$work/$mvpd.jsonl" >"$work/$mvpd.lint" || rc=$?
  summary=$(tail -n 1 "$work/$mvpd.lint")
  if [ "$rc" != 0 ] || ! grep -q ' 0 broken' <<<"$summary"; then
    cat "$work/$mvpd.lint" >&2
    echo "$tool: passim lint found the client with $mvpd breaking a rule (exit $rc)" >&2
    status=1
  fi
  echo "$tool: $mvpd: $summary"
done
echo "$tool: $((SECONDS - start)) s"
exit $status
