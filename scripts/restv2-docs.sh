#!/usr/bin/env bash
# Adobe's own REST API v2 and DCR samples replayed against passim serve (`make rest-v2-docs`,
# docs/REST-V2-DOCS.md): passim serve on Fixtures/clients/restv2/docs-world.scenario behind its forward
# proxy, then scripts/restv2-docs.py (Python's standard library only) extracts every request/response pair
# of Adobe's API pages, replays each on Adobe's host names with the set-up its example assumes (the world
# reloaded through the admin endpoint before each), and compares the answer with the documented response;
# differences are excused only by the rows of docs/WIRE.md, "Where Adobe's pages disagree with themselves".
# Adobe's pages are not part of this repository: they are read from $PASSIM_ADOBE_DOCS_DIR, else
# shared/reference/adobe-pass-en beside the repository; without them the check says NOT RUN (exit 2).
#
#   scripts/restv2-docs.sh PASSIM_BINARY [--write] [--only GLOB] [--verbose]
#   scripts/restv2-docs.sh PASSIM_BINARY --hostile [--only GLOB] [--verbose]
#
# --write rewrites docs/REST-V2-DOCS.md. Exit status 0 when every sample matches or is covered by a row,
# 1 when one differs, is unsupported or a row is stale, 2 if the set-up (the pages, the server) failed.
# --hostile replays every documented success with one header or field made wrong at a time (`make
# rest-v2-hostile`): exit status 0 when every answer is an acceptable refusal or an allowed success, 1 when
# one is not (a table of sample, mutation, status, code, verdict, then the unacceptable ones), 2 as above.
set -euo pipefail

passim=${1:?usage: scripts/restv2-docs.sh PASSIM_BINARY [--write | --hostile] [--only GLOB] [--verbose]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/Fixtures/clients/restv2
tool=restv2-docs
docs=${PASSIM_ADOBE_DOCS_DIR:-$(dirname "$root")/shared/reference/adobe-pass-en}
# shellcheck source=scripts/serve-lib.sh
. "$root/scripts/serve-lib.sh"

if [ ! -d "$docs/rest-apis/rest-api-v2/apis" ]; then
  echo "$tool: NOT RUN: Adobe's REST API v2 pages are not at $docs/rest-apis/rest-api-v2/apis (set" \
    "PASSIM_ADOBE_DOCS_DIR to a folder holding rest-apis/ of AdobeDocs/pass.en's integration guide)" >&2
  exit 2
fi
[ -x "$passim" ] || { echo "$tool: $passim is not an executable" >&2; exit 2; }
# `--seed`: the same codes and tokens on every run, so docs/REST-V2-DOCS.md is rewritten the same.
# A documented session's address is sent in X-Forwarded-For, as a programmer's server would.
serve_start --world "$dir/docs-world.scenario" --listen-port 0 --proxy 0 --ca-out "$work/ca.pem" --seed 24301 \
  --trusted-proxy 127.0.0.1 || exit 2
[ -n "$admin" ] && [ -n "$token" ] && [ -n "$proxy" ] || { echo "$tool: passim serve printed no proxy" >&2; exit 2; }
PASSIM_ADOBE_DOCS_DIR=$docs "${PYTHON:-python3}" "$root/scripts/restv2-docs.py" --proxy "$proxy" --ca "$work/ca.pem" \
  --admin "$admin" --admin-token "$token" "$@"
