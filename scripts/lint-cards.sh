#!/usr/bin/env bash
# Report cards for the real and replayed clients CI runs (docs/LINT.md, docs/clients/): each
# client runs against its own `passim serve --lint`, the server's request log is judged by `passim
# lint`: `--format md` writes docs/clients/NAME.md, and scripts/lint_card.py turns `--format json` into
# NAME.json (the verdicts without the wall clock's times). A broken rule in a card is a finding about
# the client, not a failure.
#
#   scripts/lint-cards.sh PASSIM_BINARY            # write the cards
#   scripts/lint-cards.sh PASSIM_BINARY --check    # CI: fail (1) when a committed card is stale
#
# The replays need only python3. The TempPass replay needs Python requests (.venv-restv2, which `make
# rest-v2-contract` installs, else python3's own), the contract walk .venv-restv2 and Adobe's contract
# files, and yt-dlp needs .venv-clients (`make clients`); without them those cards are not
# made (said on standard error) and, with --check, not compared. Exit status 2 if a client or the
# server could not run.
set -euo pipefail

passim=${1:?usage: scripts/lint-cards.sh PASSIM_BINARY [--check]}
mode=${2:-write}
root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
clients=$root/Fixtures/clients
cards=$root/docs/clients
[ -x "$passim" ] || { echo "lint-cards: $passim is not an executable" >&2; exit 2; }
case $mode in write|--check) ;; *) echo "lint-cards: unknown option $mode" >&2; exit 2 ;; esac

tool=lint-cards
# shellcheck source=scripts/serve-lib.sh
. "$(dirname "$0")/serve-lib.sh"
out=$cards
[ "$mode" = --check ] && out=$work/cards

# passim serve --lint on a world (more options go to serve): scripts/serve-lib.sh sets hosts, token,
# admin, proxy, ca. `--seed`: the cards are committed, so the mock's codes and tokens are reproducible
# (without it `serve` draws them from the system's secure source); 24301 is the simulated runs' default.
start() { serve_start --lint --world "$@" --listen-port 0 --seed 24301 --trusted-proxy 127.0.0.1 || exit 2; }

# Judges the running server's log and writes the card: card NAME CLIENT SOURCE HOW.
card() {
  curl -sf -H "Authorization: Bearer $token" "$admin/admin/log?limit=10000" >"$work/$1.jsonl" \
    || { echo "lint-cards: cannot read the log for $1" >&2; exit 2; }
  serve_stop
  local rc=0
  "$passim" lint --json "$work/$1.jsonl" >"$work/$1.lint.json" || rc=$?
  [ "$rc" -le 1 ] || { echo "lint-cards: passim lint refused the journal of $1" >&2; exit 2; }
  "$python" "$root/scripts/lint_card.py" --name "$1" --client "$2" --source "$3" --how "$4" "$work/$1.lint.json" "$out"
  rc=0
  "$passim" lint --format md --title "Report card: $2" \
    --about "Made by passim lint --format md from the request journal of passim serve --lint (scripts/lint-cards.sh); do not edit. Source: $3. Run: $4." \
    "$work/$1.jsonl" >"$out/$1.md" || rc=$?
  [ "$rc" -le 1 ] || { echo "lint-cards: passim lint --format md refused the journal of $1" >&2; exit 2; }
  echo "lint-cards: $1: $(grep -c '"verdict": "broken"' "$out/$1.json") broken, $(grep -c '"verdict": "passed"' "$out/$1.json") passed"
}

# The replays of public clients (Fixtures/clients/replays), standard library only.
for file in "$clients"/replays/*.json; do
  name=replay-$(basename "$file" .json)
  field() { "$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$file" "$1"; }
  world=$(field world)
  start "$clients/replays/$world"
  # shellcheck disable=SC2086
  "$python" "$clients/replays/replay.py" $hosts "$file" >"$work/replay.out" \
    || { cat "$work/replay.out" >&2; echo "lint-cards: the replay $file failed" >&2; exit 2; }
  card "$name" "$(field client)" "$(field source)" \
    "Fixtures/clients/replays/replay.py on $(basename "$file")"
done

# The public TempPass client's REST v2 sequence (Fixtures/clients/restv2/temppass_replay.py, requests).
requests_python=""
if [ -x "$root/.venv-restv2/bin/python" ]; then requests_python=$root/.venv-restv2/bin/python
elif "$python" -c 'import requests' 2>/dev/null; then requests_python=$python; fi
if [ -n "$requests_python" ]; then
  statement=$(sed -n 's/^requestor passimv2 software-statement "\([^"]*\)".*/\1/p' "$clients/restv2/world.scenario")
  start "$clients/restv2/world.scenario" --proxy 0 --ca-out "$work/ca.pem"
  "$requests_python" -W ignore "$clients/restv2/temppass_replay.py" --proxy "$proxy" --ca "$work/ca.pem" \
    --requestor passimv2 --statement "$statement" --mvpd TempPass_TEST40 >"$work/temppass.out" \
    || { cat "$work/temppass.out" >&2; echo "lint-cards: the TempPass replay failed" >&2; exit 2; }
  card restv2-temppass "FOX TempPass client (REST v2)" "docs/spec/reference/rest-api-v2.md 1.9 and 1.11" \
    "Fixtures/clients/restv2/temppass_replay.py (Python requests) through passim serve --proxy"
else
  echo "lint-cards: NOT RUN: the TempPass card (no Python requests: make rest-v2-contract installs it in .venv-restv2)" >&2
fi

# The REST v2 contract walk `make rest-v2-contract` runs (Fixtures/clients/restv2/check_contract.py,
# requests and openapi-core from .venv-restv2), on a server of its own: every operation of Adobe's two
# contracts, good calls and deliberately bad ones. It reads Adobe's contract files, which are not in
# this repository (scripts/restv2-lib.sh): without them, or without the venv, no card.
spec=${PASSIM_ADOBE_OPENAPI_DIR:-$root/../shared/reference/adobe-rest-v2}
walk_python=$root/.venv-restv2/bin/python
if [ -x "$walk_python" ] && "$walk_python" -c 'import openapi_core' 2>/dev/null \
   && [ -r "$spec/restApiV2.json" ] && [ -r "$spec/dcrApi.json" ]; then
  statement() { sed -n "s/^requestor $1 software-statement \"\([^\"]*\)\".*/\1/p" "$clients/restv2/world.scenario"; }
  start "$clients/restv2/world.scenario" --proxy 0 --ca-out "$work/ca.pem"
  "$walk_python" -W ignore "$clients/restv2/check_contract.py" --proxy "$proxy" --ca "$work/ca.pem" --admin "$admin" \
    --admin-token "$token" --spec-dir "$spec" --requestor passimv2 --statement "$(statement passimv2)" \
    --other-statement "$(statement other)" >"$work/contract.out" \
    || { cat "$work/contract.out" >&2; echo "lint-cards: the contract walk failed" >&2; exit 2; }
  card restv2-contract-walk "REST v2 contract walk (Python requests, openapi-core)" \
    "Adobe's restApiV2.json and dcrApi.json (docs/WIRE.md, \"REST API v2\"); scripts/restv2-contract.sh" \
    "Fixtures/clients/restv2/check_contract.py through passim serve --proxy: every operation, good and bad calls"
else
  echo "lint-cards: NOT RUN: the contract walk card (needs .venv-restv2 with openapi-core, which make rest-v2-contract installs, and Adobe's contract in $spec)" >&2
fi

# yt-dlp's Adobe Pass flows, each pinned release on its own server (Fixtures/clients/ytdlp).
while read -r version _; do
  case $version in ''|'#'*) continue ;; esac
  if [ ! -d "$root/.venv-clients/yt-dlp-$version" ]; then
    echo "lint-cards: NOT RUN: yt-dlp $version (no .venv-clients: make clients installs it)" >&2; continue
  fi
  statement=$(sed -n 's/^requestor passimtv-dcr software-statement "\([^"]*\)".*/\1/p' "$clients/ytdlp/world.scenario")
  start "$clients/ytdlp/world.scenario" --proxy 0 --ca-out "$work/ca.pem"
  PYTHONPATH=$root/.venv-clients/yt-dlp-$version "$root/.venv-clients/bin/python" "$clients/ytdlp/run_adobepass.py" \
    --label "yt-dlp $version" --proxy "$proxy" --ca "$ca" --admin "$admin" --admin-token "$token" \
    --requestor passimtv --dcr-requestor passimtv-dcr --software-statement "$statement" --mso PassimCable \
    --username viewer --password s3cret --allowed passimtv --denied passimtv-ppv >"$work/ytdlp.out" \
    || { cat "$work/ytdlp.out" >&2; echo "lint-cards: yt-dlp $version failed" >&2; exit 2; }
  card "ytdlp-$version" "yt-dlp $version (legacy web flow)" "PyPI yt-dlp $version, yt_dlp/extractor/adobepass.py" \
    "Fixtures/clients/ytdlp/run_adobepass.py: authn, authz-allowed, media-token, cached-call, authz-denied"
done <"$clients/ytdlp/versions.txt"

if [ "$mode" = --check ]; then
  status=0
  for f in "$out"/*; do
    committed=$cards/$(basename "$f")
    if ! cmp -s "$f" "$committed"; then
      echo "lint-cards: docs/clients/$(basename "$f") is stale: run scripts/lint-cards.sh $passim and commit it" >&2
      diff -u "$committed" "$f" >&2 || true
      status=1
    fi
  done
  exit $status
fi
