# shellcheck shell=bash
# What scripts/restv2-contract.sh and scripts/restv2-schemathesis.sh share: Adobe's contract files, a
# venv of hash-pinned wheels, and a passim serve in the background that is stopped on exit. Sourced
# after `set -euo pipefail`, with $tool (the script's name in messages) and $root (the package root).

# Adobe's files are not part of this repository: $PASSIM_ADOBE_OPENAPI_DIR, else the folder CI lays
# beside the clone. Without them the check says so and fails (exit 2) rather than passing.
spec=${PASSIM_ADOBE_OPENAPI_DIR:-$root/../shared/reference/adobe-rest-v2}
need_contract() {
  local f
  for f in restApiV2.json dcrApi.json; do
    if [ ! -r "$spec/$f" ]; then
      echo "$tool: NOT RUN: Adobe's contract $spec/$f is missing (set PASSIM_ADOBE_OPENAPI_DIR to the folder" \
        "holding restApiV2.json and dcrApi.json of AdobeDocs/adobe-pass, docs/spec/reference/rest-api-v2.md 1.2)" >&2
      exit 2
    fi
  done
}

# pinned_venv VENV REQUIREMENTS: a venv holding exactly these wheels, made again when the file changes.
pinned_venv() {
  local venv=$1 requirements=$2 sha
  sha=$(sha256sum "$requirements" | cut -d' ' -f1)
  [ "$(cat "$venv/.installed" 2>/dev/null)" = "$sha" ] && return 0
  rm -rf "$venv"
  "${PYTHON:-python3}" -m venv "$venv" || { echo "$tool: cannot make a venv" >&2; exit 2; }
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary :all: \
    --require-hashes -r "$requirements" || { echo "$tool: installing $requirements failed" >&2; exit 2; }
  echo "$sha" >"$venv/.installed"
}

# A passim serve in the background, stopped on exit: serve_start ARGS... (scripts/serve-lib.sh).
# shellcheck source=scripts/serve-lib.sh
. "$root/scripts/serve-lib.sh"
