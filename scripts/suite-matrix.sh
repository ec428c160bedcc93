#!/usr/bin/env bash
# The conformance suite on every runtime CI checks, written once: each row of the table below is one
# `passim run` of Scenarios/ (a wire, a port, a network, how many scenarios at a time, the expectations).
# The make targets (`make suite`, `suite-v2`, `suite-live`, …) run their rows through this script.
#
# Usage: scripts/suite-matrix.sh [--passim BIN] [--parallel N] [--dry-run] [--list] NAME...
#   NAME: a row, or a make target (every row whose target it is), or `all`.
#   --passim BIN: the passim binary (default .build/debug/passim); CI's later lanes give a copy of it.
#   --parallel N: run N rows at a time, each row's output printed whole when it ends (default 1: one
#     after the other, output as it comes). The live rows mostly wait on real latencies and on one long
#     scenario each (a hanging poll waits out its timeout), so they overlap well.
#   --dry-run: print the commands only. --list: print the table.
# Exit status: 0 every row passed, 1 a row failed (the summary names it), 2 a bad argument.
#
# Columns:
#   wire     sdk (each scenario's own wire) or v2 (`--wire v2`: REST API v2, docs/MIGRATION.md)
#   port     engine (passim's own, in process), shim (`passim shim` through the driver protocol,
#            docs/PORTING.md), python (Fixtures/ports/python, an independent port)
#   network  harness (simulated: the harness answers every request), live (a mock server on loopback
#            per scenario), server (one running `passim serve` per shard, scripts/suite-live-server.sh)
#   jobs     scenarios at a time (`--jobs`); for a server row, the number of servers (`--shard i/N`)
#   rest     the run's other options: the expectations file, `--repeat 2`
set -uo pipefail
cd "$(dirname "$0")/.."

# row               target             wire  port    network  jobs  rest
TABLE='
sdk                 suite              sdk   engine  harness  2     --repeat 2
v2                  suite-v2           v2    engine  harness  2     --expect Scenarios/wire-v2.expect
v2-shim             suite-v2           v2    shim    harness  2     --expect Scenarios/wire-v2.expect
v2-live             suite-v2           v2    engine  live     4     --expect Scenarios/wire-v2.expect
live                suite-live         sdk   engine  live     4
live-server         suite-live-server  sdk   engine  server   4
shim                suite-shim         sdk   shim    harness  2
shim-live           suite-shim-live    sdk   shim    live     4
shim-live-server    suite-shim-live    sdk   shim    server   4
python              port-python        sdk   python  harness  2     --expect Fixtures/ports/python/port.expect
python-live         port-python        sdk   python  live     4     --expect Fixtures/ports/python/port.expect
python-v2           port-python-v2     v2    python  harness  2     --expect Scenarios/wire-v2.expect
python-v2-live      port-python-v2     v2    python  live     4     --expect Scenarios/wire-v2.expect
'

passim=.build/debug/passim
parallel=1
dry=0
names=()
while [ $# -gt 0 ]; do
  case $1 in
    --passim) passim=${2:?--passim takes a binary}; shift 2 ;;
    --parallel) parallel=${2:?--parallel takes a number}; shift 2 ;;
    --dry-run) dry=1; shift ;;
    --list) printf '%s\n' "$TABLE" | sed '/^$/d'; exit 0 ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "suite-matrix: unknown option $1" >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
[ ${#names[@]} -gt 0 ] || { echo "usage: scripts/suite-matrix.sh [--passim BIN] [--parallel N] NAME... (--list: the rows)" >&2; exit 2; }
case $parallel in '' | *[!0-9]* | 0) echo "suite-matrix: --parallel takes a number of at least 1" >&2; exit 2 ;; esac

# The selected rows, in the table's order, each once.
rows=()
for name in "${names[@]}"; do
  found=0
  while read -r row target _; do
    [ -n "$row" ] || continue
    if [ "$name" = all ] || [ "$name" = "$row" ] || [ "$name" = "$target" ]; then
      found=1
      case " ${rows[*]} " in *" $row "*) ;; *) rows+=("$row") ;; esac
    fi
  done <<<"$TABLE"
  [ $found = 1 ] || { echo "suite-matrix: no row or target named $name (--list)" >&2; exit 2; }
done

# command ROW: the row's command line, as words in the array `cmd`.
command_of() {
  local row target wire port network jobs rest
  read -r row target wire port network jobs rest < <(grep -E "^$1 " <<<"$TABLE")
  cmd=()
  [ "$network" = server ] && cmd=(scripts/suite-live-server.sh "$passim") || cmd=("$passim" run)
  [ "$wire" = v2 ] && cmd+=(--wire v2)
  case $port in
    shim) cmd+=(--port "$passim shim") ;;
    python) cmd+=(--port 'python3 Fixtures/ports/python/port.py') ;;
  esac
  [ "$network" = live ] && cmd+=(--live)
  # shellcheck disable=SC2206  # rest is a list of plain words
  [ -n "$rest" ] && cmd+=($rest)
  [ "$network" = server ] || cmd+=(--jobs "$jobs")
  cmd+=(Scenarios)
  shards=1
  [ "$network" = server ] && shards=$jobs
}

quoted() { local w out=""; for w in "$@"; do case $w in *' '*) out+=" '$w'" ;; *) out+=" $w" ;; esac; done; echo "${out# }"; }

# run_row ROW: runs it, its output on standard output; a server row runs its shards side by side, each
# against its own server, and prints them in order. Exit status: the row's.
run_row() {
  local cmd shards i status=0 pids=() tmp
  command_of "$1"
  if [ "$shards" = 1 ]; then
    "${cmd[@]}"
    return
  fi
  tmp=$(mktemp -d)
  for ((i = 1; i <= shards; i++)); do
    "${cmd[@]:0:${#cmd[@]}-1}" --shard "$i/$shards" Scenarios >"$tmp/$i" 2>&1 &
    pids+=($!)
  done
  for ((i = 1; i <= shards; i++)); do
    wait "${pids[i - 1]}" || status=1
    echo "-- shard $i/$shards"
    cat "$tmp/$i"
  done
  rm -rf "$tmp"
  return $status
}

describe() {
  local cmd shards
  command_of "$1"
  if [ "$shards" = 1 ]; then quoted "${cmd[@]}"; else echo "$(quoted "${cmd[@]}") --shard i/$shards, i = 1…$shards side by side"; fi
}

if [ $dry = 1 ]; then
  for row in "${rows[@]}"; do echo "$row: $(describe "$row")"; done
  exit 0
fi
[ -x "$passim" ] || { echo "suite-matrix: $passim is not an executable (swift build first)" >&2; exit 2; }

failed=()
declare -A started
if [ "$parallel" = 1 ]; then
  for row in "${rows[@]}"; do
    echo "== $row: $(describe "$row")"
    t0=$SECONDS
    run_row "$row" || failed+=("$row")
    echo "== $row: $((SECONDS - t0)) s"
  done
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  declare -A row_of
  next=0
  running=0
  while [ $next -lt ${#rows[@]} ] || [ $running -gt 0 ]; do
    while [ $running -lt "$parallel" ] && [ $next -lt ${#rows[@]} ]; do
      row=${rows[next]}
      run_row "$row" >"$out/$row" 2>&1 &
      row_of[$!]=$row
      started[$row]=$SECONDS
      next=$((next + 1)); running=$((running + 1))
    done
    wait -n -p done_pid; status=$?
    running=$((running - 1))
    row=${row_of[$done_pid]}
    echo "== $row: $(describe "$row")"
    cat "$out/$row"
    [ $status = 0 ] || failed+=("$row")
    echo "== $row: $((SECONDS - started[$row])) s$([ $status = 0 ] || echo ", FAILED")"
  done
fi

if [ ${#failed[@]} -gt 0 ]; then
  echo "suite-matrix: ${#failed[@]} of ${#rows[@]} rows failed: ${failed[*]}"
  exit 1
fi
[ ${#rows[@]} = 1 ] || echo "suite-matrix: ${#rows[@]} rows passed: ${rows[*]}"
