#!/usr/bin/env bash
# Real clients against `passim serve` (docs/CLIENTS.md): each pinned yt-dlp release runs its own
# AdobePassIE flow (Fixtures/clients/ytdlp/run_adobepass.py) through the forward proxy of a server
# started here (`--proxy`, its CA trusted through SSL_CERT_FILE; yt-dlp keeps Adobe's URLs), then the
# recorded exchanges of other clients (Fixtures/clients/replays/*.json) replay, each on its own server.
#
#   scripts/clients.sh PASSIM_BINARY
#
# Builds nothing: takes the passim binary. Installs the pinned wheels (hash-checked) into
# .venv-clients/ on first use; later runs reuse them. One line per client and flow; exit status 1 if
# any flow or replay failed, 2 if the set-up (install, server start) failed. The server is stopped on every exit.
set -euo pipefail

passim=${1:?usage: scripts/clients.sh PASSIM_BINARY}
root=$(cd "$(dirname "$0")/.." && pwd)
fixtures=$root/Fixtures/clients/ytdlp
replays=$root/Fixtures/clients/replays
venv=$root/.venv-clients
python=${PYTHON:-python3}

[ -x "$passim" ] || { echo "clients: $passim is not an executable" >&2; exit 2; }

# One venv (no system site-packages), each release in its own --target folder so two versions live
# side by side. A folder is complete once its stamp holds the pinned hash (a new pin reinstalls).
# Every step checks its own status: `set -e` does not apply inside a function called with `||`.
install() {
  local version=$1 sha=$2 dir=$venv/yt-dlp-$1 req
  [ "$(cat "$dir/.installed" 2>/dev/null)" = "$sha" ] && return 0
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv" || return 1
  rm -rf "$dir"
  req=$(mktemp) || return 1
  echo "yt-dlp==$version --hash=sha256:$sha" >"$req"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --only-binary :all: \
    --require-hashes --target "$dir" -r "$req" || { rm -f "$req"; return 1; }
  rm -f "$req"
  echo "$sha" >"$dir/.installed"
}

versions=()
while read -r version sha; do
  case $version in ''|'#'*) continue ;; esac
  install "$version" "$sha" || { echo "clients: installing yt-dlp $version failed" >&2; exit 2; }
  versions+=("$version")
done <"$fixtures/versions.txt"

tool=clients
# shellcheck source=scripts/serve-lib.sh
. "$(dirname "$0")/serve-lib.sh"

# passim serve on a world (more options after it go to passim serve); see scripts/serve-lib.sh.
start() {
  serve_start --world "$@" --listen-port 0 || return 1
  if [ -z "$hosts" ] || [ -z "$token" ] || [ -z "$admin" ]; then
    echo "clients: unexpected passim serve output on $1" >&2; cat "$work/serve.out" >&2; return 1
  fi
}

touch "$work/results"
status=0
statement=$(sed -n 's/^requestor passimtv-dcr software-statement "\([^"]*\)".*/\1/p' "$fixtures/world.scenario")
start "$fixtures/world.scenario" --proxy 0 --ca-out "$work/ca.pem" || exit 2
if [ -z "$proxy" ] || [ -z "$ca" ]; then echo "clients: passim serve printed no proxy or ca line" >&2; exit 2; fi
for version in "${versions[@]}"; do
  PYTHONPATH=$venv/yt-dlp-$version "$venv/bin/python" "$fixtures/run_adobepass.py" \
    --label "yt-dlp $version" --proxy "$proxy" --ca "$ca" --admin "$admin" --admin-token "$token" \
    --requestor passimtv --dcr-requestor passimtv-dcr --software-statement "$statement" --mso PassimCable --username viewer --password s3cret \
    --allowed passimtv --denied passimtv-ppv | tee -a "$work/results" || status=1
done

# Recorded exchanges: one server per world the replay files name, a fresh one for each file.
for file in "$replays"/*.json; do
  world=$("$venv/bin/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["world"])' "$file")
  if ! start "$replays/$world"; then
    echo "$(basename "$file") FAIL  passim serve refused its world $world (above)" | tee -a "$work/results"
    status=1; continue
  fi
  # shellcheck disable=SC2086
  "$venv/bin/python" "$replays/replay.py" $hosts "$file" | tee -a "$work/results" || status=1
done
echo "clients: $(grep -c ' ok' "$work/results") ok, $(grep -c ' FAIL' "$work/results") failed"
exit $status
