#!/usr/bin/env bash
# `passim serve` under HTTP load (BENCHMARKS.md): the SP's /config/REQ1 against nginx serving the
# same bytes as a static file, side by side with wrk, then a soak run against passim alone.
# Only loopback traffic; every process it starts is stopped on exit (also on Ctrl-C or failure).
# Exits non-zero when a server does not start or a measurement cannot be read.
#
# Usage: scripts/bench-serve.sh
# Settings (environment): SCRATCH (build folder, .build-bench), THREADS (wrk -t, 1), CONNS (wrk -c, 32),
# DURATION (10s), WARMUP (3s), ROUNDS (alternating passim/nginx measurements, median reported; 3),
# SOAK_THREADS (2), SOAK_CONNS (256), SOAK_DURATION (60s; 0 skips the soak),
# NGINX_WORKERS (1: passim serves on one event loop), SKIP_BUILD=1 (use the existing binary),
# PIN=1 (each server on CPU 1 and wrk on CPU 0, with taskset: on a 2-core machine the scheduler otherwise
# moves the server and the load generator onto one core now and then, which scatters rounds by ±20%),
# KEEP_TMP=1 (keep the temp folder: world file, nginx config, every wrk output).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch="${SCRATCH:-.build-bench}"
threads="${THREADS:-1}"
conns="${CONNS:-32}"
duration="${DURATION:-10s}"
warmup="${WARMUP:-3s}"
rounds="${ROUNDS:-3}"
soak_threads="${SOAK_THREADS:-2}"
soak_conns="${SOAK_CONNS:-256}"
soak_duration="${SOAK_DURATION:-60s}"
nginx_workers="${NGINX_WORKERS:-1}"

die() { echo "bench-serve: $*" >&2; exit 1; }

# --- 1. Tools -----------------------------------------------------------------------------------
if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null; then
  [[ $(id -u) == 0 ]] || die "wrk and nginx are missing; run as root or: apt-get install -y wrk nginx"
  had_nginx_pid=$([[ -e /run/nginx.pid ]] && echo yes || echo no)
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q wrk nginx >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q wrk nginx >/dev/null; }
  # Where the package's service was allowed to start (port 80), stop it: this script starts its own.
  if [[ $had_nginx_pid == no && -s /run/nginx.pid ]]; then nginx -s quit 2>/dev/null || true; fi
fi
command -v wrk >/dev/null && command -v nginx >/dev/null || die "cannot install wrk and nginx"

# --- Cleanup: everything started below is recorded here and stopped on exit --------------------
tmp="$(mktemp -d /tmp/bench-serve.XXXXXX)"
chmod 755 "$tmp"  # nginx's workers run as an unprivileged user
passim_pid=""
nginx_pid=""
stop() { # $1 = pid; TERM, then KILL after 5 s
  local pid="$1" i
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  stop "$passim_pid"
  stop "$nginx_pid"
  [[ ${KEEP_TMP:-0} == 1 ]] && echo "kept $tmp" >&2 || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 2. passim ----------------------------------------------------------------------------------
if [[ ${SKIP_BUILD:-0} != 1 ]]; then
  swift build -c release --scratch-path "$scratch" --product passim >"$tmp/build.log" 2>&1 \
    || { tail -30 "$tmp/build.log" >&2; die "release build failed"; }
fi
passim="$scratch/release/passim"
[[ -x $passim ]] || die "no binary at $passim"

# latency 0ms: the scenario default (10 ms a request) would measure the delay, not the server.
cat >"$tmp/world.scenario" <<'EOF'
sp main "https://sp.auth.test" latency 0ms
mvpd Comcast "Xfinity" at main idp-latency 0ms
mvpd Dish "DISH" at main idp-latency 0ms
mvpd Verizon "Verizon Fios" at main idp-latency 0ms
mvpd Cox "Cox" at main idp-latency 0ms
user alice "secret" at Comcast allow CNN
requestor REQ1
EOF

"$passim" serve --world "$tmp/world.scenario" --listen-port 0 >"$tmp/passim.out" 2>"$tmp/passim.err" &
passim_pid=$!
for ((i = 0; i < 100; i++)); do
  grep -q '^admin ' "$tmp/passim.out" 2>/dev/null && break
  kill -0 "$passim_pid" 2>/dev/null || { cat "$tmp/passim.err" >&2; die "passim serve exited at start"; }
  sleep 0.1
done
grep -q '^admin ' "$tmp/passim.out" || die "passim serve did not print its ports within 10 s"
sp_url="$(awk '$1 == "sp" && $2 == "main" { print $5 }' "$tmp/passim.out")"
[[ $sp_url == http://127.0.0.1:* ]] || die "no loopback URL for sp main in: $(cat "$tmp/passim.out")"
passim_target="$sp_url/config/REQ1"

mkdir -p "$tmp/www/config"
curl -sS --max-time 5 -D "$tmp/passim.headers" -o "$tmp/www/config/REQ1" "$passim_target" \
  || die "cannot fetch $passim_target"
head -1 "$tmp/passim.headers" | grep -q ' 200' || die "$passim_target answered: $(head -1 "$tmp/passim.headers")"
content_type="$(awk 'tolower($1) == "content-type:" { sub(/^[^:]*:[ \t]*/, ""); sub(/\r$/, ""); print; exit }' "$tmp/passim.headers")"
[[ -n $content_type ]] || die "passim's answer has no Content-Type"
chmod -R a+rX "$tmp/www"
body_bytes=$(wc -c <"$tmp/www/config/REQ1")

# --- 3. nginx: the same bytes as a static file ----------------------------------------------------
free_port() { # the first port from $1 that nothing listens on
  local p
  for ((p = $1; p < $1 + 200; p++)); do
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
  done
  return 1
}
nginx_port="$(free_port 18480)" || die "no free port for nginx"
mkdir -p "$tmp/nginx"
cat >"$tmp/nginx/nginx.conf" <<EOF
worker_processes $nginx_workers;
daemon off;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $tmp/nginx/body;
    proxy_temp_path $tmp/nginx/proxy;
    fastcgi_temp_path $tmp/nginx/fastcgi;
    uwsgi_temp_path $tmp/nginx/uwsgi;
    scgi_temp_path $tmp/nginx/scgi;
    keepalive_requests 1000000;
    types { }
    default_type "$content_type";
    server {
        listen 127.0.0.1:$nginx_port;
        root $tmp/www;
    }
}
EOF
nginx -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" -e "$tmp/nginx/error.log" &
nginx_pid=$!
nginx_target="http://127.0.0.1:$nginx_port/config/REQ1"
for ((i = 0; i < 50; i++)); do
  curl -s --max-time 1 -o /dev/null "$nginx_target" && break
  kill -0 "$nginx_pid" 2>/dev/null || { cat "$tmp/nginx/error.log" >&2; die "nginx exited at start"; }
  sleep 0.1
done
curl -sS --max-time 5 -D "$tmp/nginx.headers" -o "$tmp/nginx.body" "$nginx_target" || die "nginx does not answer"
cmp -s "$tmp/nginx.body" "$tmp/www/config/REQ1" || die "nginx does not serve the same bytes"
grep -qiF "content-type: $content_type" "$tmp/nginx.headers" || die "nginx's Content-Type differs"

# --- 4. Side by side ----------------------------------------------------------------------------
to_ms() { # wrk's 812.00us / 1.23ms / 2.01s / 1.00m -> milliseconds
  awk -v v="$1" 'BEGIN {
    n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
    f = (u == "us") ? 0.001 : (u == "ms") ? 1 : (u == "s") ? 1000 : (u == "m") ? 60000 : -1
    if (f < 0) exit 1
    printf "%.3f", n * f }'
}
# wrk's output -> "requests/s p50-ms p99-ms requests socket-errors non-2xx"
summarize() {
  local out="$1" rps p50 p99 reqs errs non2xx
  rps=$(awk '/^Requests\/sec:/ { print $2 }' "$out")
  p50=$(awk '$1 == "50%" { print $2 }' "$out")
  p99=$(awk '$1 == "99%" { print $2 }' "$out")
  reqs=$(awk '/requests in/ { print $1 }' "$out")
  errs=$(awk '/Socket errors:/ { gsub(/,/, ""); print $4 + $6 + $8 + $10 }' "$out")
  non2xx=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' "$out")
  [[ -n $rps && -n $p50 && -n $p99 && -n $reqs ]] || { cat "$out" >&2; return 1; }
  echo "$rps $(to_ms "$p50") $(to_ms "$p99") $reqs ${errs:-0} ${non2xx:-0}"
}
# CPU time (user + system, in clock ticks) of the given processes: how much a server spent, which a
# busy shared machine distorts less than requests/s.
# (Fields counted after the command name, which may hold spaces: utime and stime are the 12th and 13th.)
cpu_ticks() {
  local p t=0
  for p in "$@"; do t=$((t + $(awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$p/stat"))); done
  echo "$t"
}
ticks_per_s=$(getconf CLK_TCK)
run_wrk() { # $1 = name, $2 = URL, $3 = duration, $4 = threads, $5 = connections, $6... = server pids
  local out="$tmp/wrk-$1.txt" before after summary
  before=$(cpu_ticks "${@:6}")
  $wrk_prefix wrk -t"$4" -c"$5" -d"$3" --latency "$2" >"$out" 2>&1 || { cat "$out" >&2; die "wrk failed against $1"; }
  after=$(cpu_ticks "${@:6}")
  summary=$(summarize "$out") || die "cannot read wrk's output for $1"
  # appends the server's CPU microseconds per request
  awk -v s="$summary" -v t=$((after - before)) -v hz="$ticks_per_s" \
    'BEGIN { split(s, f, " "); printf "%s %.1f\n", s, (f[4] > 0) ? t * 1e6 / hz / f[4] : 0 }'
}
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
med() { printf '%s\n' "$@" | median; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$passim_pid/status"; }
# nginx's master and its workers (processes whose parent is the master)
nginx_pids=("$nginx_pid" $(awk -v p="$nginx_pid" '{ pid = $1; sub(/.*\) /, ""); if ($2 == p) print pid }' /proc/[0-9]*/stat 2>/dev/null))

wrk_prefix=""
if [[ ${PIN:-0} == 1 ]]; then
  command -v taskset >/dev/null || die "PIN=1 needs taskset (util-linux)"
  (( $(nproc) >= 2 )) || die "PIN=1 needs 2 cores"
  for p in "$passim_pid" "${nginx_pids[@]}"; do taskset -a -pc 1 "$p" >/dev/null || die "cannot pin $p"; done
  wrk_prefix="taskset -c 0"
  echo "pinned: servers on CPU 1, wrk on CPU 0"
fi
echo "passim: $passim_target ($body_bytes bytes, $content_type), one event loop"
echo "nginx:  $nginx_target (worker_processes $nginx_workers)"
echo "machine: $(nproc) cores, Linux $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "load: wrk -t$threads -c$conns -d$duration --latency; warm-up $warmup each; $rounds alternating rounds, medians"
line=$(run_wrk passim-warmup "$passim_target" "$warmup" "$threads" "$conns" "$passim_pid")
line=$(run_wrk nginx-warmup "$nginx_target" "$warmup" "$threads" "$conns" "${nginx_pids[@]}")

p_rps=() p_p50=() p_p99=() p_cpu=() n_rps=() n_p50=() n_p99=() n_cpu=() bad=()
for ((r = 1; r <= rounds; r++)); do
  for name in passim nginx; do
    if [[ $name == passim ]]; then
      line=$(run_wrk "$name-$r" "$passim_target" "$duration" "$threads" "$conns" "$passim_pid")
    else
      line=$(run_wrk "$name-$r" "$nginx_target" "$duration" "$threads" "$conns" "${nginx_pids[@]}")
    fi
    read -r rps p50 p99 _ errs non2xx cpu <<<"$line"
    echo "  round $r $name: $rps req/s, p50 $p50 ms, p99 $p99 ms, $cpu us CPU/request, errors $errs, non-2xx $non2xx"
    [[ $errs == 0 && $non2xx == 0 ]] || bad+=("$name round $r: $errs socket errors, $non2xx non-2xx")
    if [[ $name == passim ]]; then p_rps+=("$rps"); p_p50+=("$p50"); p_p99+=("$p99"); p_cpu+=("$cpu")
    else n_rps+=("$rps"); n_p50+=("$p50"); n_p99+=("$p99"); n_cpu+=("$cpu"); fi
  done
done
pr=$(med "${p_rps[@]}"); pp50=$(med "${p_p50[@]}"); pp99=$(med "${p_p99[@]}"); pc=$(med "${p_cpu[@]}")
nr=$(med "${n_rps[@]}"); np50=$(med "${n_p50[@]}"); np99=$(med "${n_p99[@]}"); nc=$(med "${n_cpu[@]}")

# --- 5. Soak ------------------------------------------------------------------------------------
soak=""
if [[ $soak_duration != 0 ]]; then
  echo "soak: wrk -t$soak_threads -c$soak_conns -d$soak_duration against passim"
  rss_before=$(rss_kb)
  wrk -t"$soak_threads" -c"$soak_conns" -d"$soak_duration" --latency "$passim_target" >"$tmp/wrk-soak.txt" 2>&1 \
    || { cat "$tmp/wrk-soak.txt" >&2; die "wrk failed in the soak run"; }
  kill -0 "$passim_pid" 2>/dev/null || die "passim serve died during the soak run"
  rss_after=$(rss_kb)
  curl -sS --max-time 5 -o /dev/null "$passim_target" || die "passim does not answer after the soak run"
  line=$(summarize "$tmp/wrk-soak.txt") || die "cannot read the soak run"
  read -r s_rps s_p50 s_p99 s_reqs _ s_non2xx <<<"$line"
  s_errs=$(awk '/Socket errors:/ { gsub(/,/, ""); printf "connect %s, read %s, write %s, timeout %s", $4, $6, $8, $10 }' "$tmp/wrk-soak.txt")
  soak=1
fi

# --- 6. Table -----------------------------------------------------------------------------------
echo
echo "| server | requests/s | p50 | p99 | server CPU per request |"
echo "| --- | ---: | ---: | ---: | ---: |"
awk -v r="$pr" -v a="$pp50" -v b="$pp99" -v c="$pc" 'BEGIN { printf "| passim serve | %.0f | %.2f ms | %.2f ms | %.0f us |\n", r, a, b, c }'
awk -v r="$nr" -v a="$np50" -v b="$np99" -v c="$nc" 'BEGIN { printf "| nginx (static file) | %.0f | %.2f ms | %.2f ms | %.0f us |\n", r, a, b, c }'
awk -v p="$pr" -v n="$nr" -v pc="$pc" -v nc="$nc" \
  'BEGIN { printf "\npassim/nginx requests/s: %.2f (target >= 0.60); nginx/passim CPU per request: %.2f\n", p / n, nc / pc }'
if [[ -n $soak ]]; then
  echo
  echo "| soak (wrk -t$soak_threads -c$soak_conns -d$soak_duration) | value |"
  echo "| --- | ---: |"
  echo "| requests | $s_reqs |"
  awk -v r="$s_rps" 'BEGIN { printf "| requests/s | %.0f |\n", r }'
  echo "| p50 / p99 | $s_p50 ms / $s_p99 ms |"
  echo "| socket errors | ${s_errs:-none} |"
  echo "| non-2xx responses | $s_non2xx |"
  echo "| passim RSS before / after | $((rss_before / 1024)) MiB / $((rss_after / 1024)) MiB |"
  awk -v a="$rss_after" -v b="$rss_before" -v n="$s_reqs" 'BEGIN { printf "| RSS growth per request | %.0f bytes |\n", (a - b) * 1024 / n }'
fi
if ((${#bad[@]})); then
  echo
  printf 'errors in the side-by-side runs: %s\n' "${bad[@]}"
fi
