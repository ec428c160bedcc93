# shellcheck shell=bash
# A `passim serve` in the background for the client scripts (clients.sh, lint-cards.sh, the REST v2
# checks): started on demand, stopped when the script ends whatever happens. Sourced after
# `set -euo pipefail`, with $tool (the script's name in messages) and $passim (the binary).
#
#   serve_start ARGS...   `passim serve ARGS`, waiting for its admin line; sets hosts ("--host KIND
#                         WORLD_URL LIVE_URL" words, a triple per host), token, admin, and proxy and ca
#                         when it was given --proxy. Returns 1, saying why on standard error, when the
#                         server does not come up.
#   serve_stop            stops it (serve_start stops the one before).
# $work is a private folder, removed on exit.

work=$(mktemp -d)
server=""
serve_stop() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  server=""
}
serve_cleanup() { serve_stop; rm -rf "$work"; }
trap serve_cleanup EXIT
trap 'exit 130' INT TERM

serve_start() {
  serve_stop
  : >"$work/serve.out"
  "$passim" serve "$@" >"$work/serve.out" 2>"$work/serve.err" &
  server=$!
  for _ in $(seq 100); do
    grep -q '^admin http' "$work/serve.out" 2>/dev/null && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
  done
  if ! grep -q '^admin http' "$work/serve.out"; then
    echo "$tool: passim serve did not start (passim serve $*)" >&2
    cat "$work/serve.out" "$work/serve.err" >&2
    return 1
  fi
  # "sp adobe https://sp.auth.adobe.com/adobe-services -> http://127.0.0.1:P/adobe-services"
  hosts=$(awk '($1 == "sp" || $1 == "idp") && $4 == "->" { print "--host", $1, $3, $5 }' "$work/serve.out")
  token=$(awk '$1 == "admin-token" { print $2 }' "$work/serve.out")
  admin=$(awk '$1 == "admin" { print $2 }' "$work/serve.out")
  proxy=$(awk '$1 == "proxy" { print $2 }' "$work/serve.out")
  ca=$(awk '$1 == "ca" { print $2 }' "$work/serve.out")
}
