#!/usr/bin/env bash
# pysaml2 against the mock's SAML (docs/CLIENTS.md): `passim saml-samples` writes the
# messages of one login and one logout as the mock sends them, issued now; Fixtures/clients/saml/
# check_pysaml2.py validates them against the SAML 2.0 schemas and has pysaml2 accept them as SP and
# as IdP, the assertion's signature checked by xmlsec1.
#
#   scripts/saml-clients.sh PASSIM_BINARY
#
# Installs the pinned wheels (hash-checked) into .venv-saml/ on first use. Needs the xmlsec1 binary
# (Debian's xmlsec1, installed by `make setup`). Exit status 1 if a check failed, 2 if the set-up did.
set -euo pipefail

passim=${1:?usage: scripts/saml-clients.sh PASSIM_BINARY}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/Fixtures/clients/saml
venv=$root/.venv-saml
python=${PYTHON:-python3}

[ -x "$passim" ] || { echo "saml-clients: $passim is not an executable" >&2; exit 2; }
command -v xmlsec1 >/dev/null || { echo "saml-clients: xmlsec1 is missing (make setup installs it)" >&2; exit 2; }

sha=$(sha256sum "$dir/requirements.txt" | cut -d' ' -f1)
if [ "$(cat "$venv/.installed" 2>/dev/null)" != "$sha" ]; then
  rm -rf "$venv"
  "$python" -m venv "$venv" || { echo "saml-clients: cannot make a venv" >&2; exit 2; }
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary :all: \
    --require-hashes -r "$dir/requirements.txt" || { echo "saml-clients: installing pysaml2 failed" >&2; exit 2; }
  echo "$sha" >"$venv/.installed"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$passim" saml-samples --out "$work" --at "$(date +%s)" >/dev/null || { echo "saml-clients: saml-samples failed" >&2; exit 2; }
if "$venv/bin/python" -W ignore "$dir/check_pysaml2.py" "$work"; then
  echo "ok   pysaml2: login and logout messages (schemas, SP and IdP, signature)"
else
  echo "FAIL pysaml2: see above"
  exit 1
fi
