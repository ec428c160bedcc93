# Sourced by scripts/bench-restv2-authorize.sh, bench-restv2-flow.sh and soak-restv2.sh (BENCHMARKS.md,
# "REST API v2"): builds passim in release (unless SKIP_BUILD=1 or PASSIM names a binary), writes the bench
# world, starts `passim serve` on loopback (its hosts and a forward proxy, all on ports the kernel picks) and
# stops it on exit, whatever happens. Sets: passim, tmp, pid, sp, idp, proxy, ca, admin, admin_token.
# Settings (environment): SCRATCH (build folder, .build-release), SKIP_BUILD=1, PASSIM (a binary to measure),
# NOFILE (the server's descriptor limit, 4096).
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "$(basename "$0"): $*" >&2; exit 1; }

scratch="${SCRATCH:-.build-release}"
if [[ -z ${PASSIM:-} && ${SKIP_BUILD:-0} != 1 ]]; then
  swift build -c release --scratch-path "$scratch" --product passim >/dev/null
fi
passim="${PASSIM:-$scratch/release/passim}"
[[ -x $passim ]] || die "no release binary at $passim"

tmp="$(mktemp -d /tmp/bench-restv2.XXXXXX)"
pid=""
cleanup() {
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The world scripts/restv2-load.py expects: Adobe's SP host, no added latency (the server's own cost), a v2
# programmer with a software statement (DCR and Bearer tokens on every call), a legacy one, and throttling
# off (Adobe's bucket allows one call a second per device: a benchmark from one device would measure 429s).
cat >"$tmp/world.scenario" <<'WORLD'
sp main "https://sp.auth.adobe.com/adobe-services" latency 0ms
mvpd Comcast "Xfinity" at main idp-latency 0ms
user alice "secret" at Comcast allow CNN
requestor REQ1
requestor passimv2 software-statement "bench-statement"
rest-v2 throttling off
WORLD

# More descriptors than connections: the server's connection cap follows the descriptor limit
# (NOFILE, 4096: the cap is then its 1,024; at 1,024, a common default, the cap is 960).
ulimit -Sn "${NOFILE:-4096}" 2>/dev/null || true
"$passim" serve --world "$tmp/world.scenario" --listen-port 0 --proxy 0 --ca-out "$tmp/ca.pem" >"$tmp/out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q '^admin ' "$tmp/out" 2>/dev/null && break; sleep 0.1; done
grep -q '^admin ' "$tmp/out" || { cat "$tmp/out" >&2; die "passim serve did not print its ports within 10 s"; }
sp="$(awk '$1 == "sp" && $2 == "main" { print $5 }' "$tmp/out")"
idp="$(awk '$1 == "idp" && $2 == "Comcast" { print $5 }' "$tmp/out")"
proxy="$(awk '$1 == "proxy" { print $2 }' "$tmp/out")"
admin="$(awk '$1 == "admin" { print $2 }' "$tmp/out")"
admin_token="$(awk '$1 == "admin-token" { print $2 }' "$tmp/out")"
ca="$tmp/ca.pem"
[[ -n $sp && -n $idp && -n $proxy ]] || die "cannot read the SP, IdP and proxy URLs from: $(cat "$tmp/out")"
