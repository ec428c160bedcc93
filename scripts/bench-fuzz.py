#!/usr/bin/env python3
"""Fuzzer throughput: a reference commit against this tree (BENCHMARKS.md, "The state-machine fuzzer").

    scripts/bench-fuzz.py [--ref COMMIT] [--prebuilt-ref] [--this-scratch DIR] [--seeds 7,11,23]
                          [--runs 4000] [--rounds 3] [--mode invariant|parity|differential]

Builds COMMIT (default 68a8bde) in a detached worktree and this tree, both in release (each in its own
scratch folder, kept between calls: SKIP_BUILD=1 reuses them; `--prebuilt-ref` takes the reference's
binary from .build-bench/release-ref as it is, without a worktree or a build, e.g. a link to another
tree's; `--this-scratch DIR` builds this tree in DIR instead of .build-bench/release-this), then runs
`passim fuzz --runs N --jobs 1 --seed S` of each build on every seed, ROUNDS times, the two builds
alternated (which goes first swaps each round, so the machine's other load falls on both alike). The
figure is CPU (user + system, from the process's rusage), never wall time. It prints, per seed, each
build's programs, steps and engine inputs (which must be the same on both: same seed, same programs) and
the median CPU, then the ratio reference/this of CPU per program, per step and per engine input: above
1, this tree is faster. `--mode parity` runs `fuzz --parity --expect Scenarios/wire-v2.expect` instead
(both wires of each build, each with its own tree's expectations), which prints programs only: its ratio
is per program; so is `--mode differential`'s, `fuzz --against BIN` of each build against its own binary
(its engine through its own `shim`, whose CPU is counted). Exit 1 when the two builds ran different
programs (steps or engine inputs differ), 2 when a build or a run fails.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUMMARY = re.compile(r"(\d+) runs \(seed (\d+)\), (\d+) steps, (\d+) failing, (\d+) engine inputs")
# `fuzz --parity` prints programs and outcomes, no steps or engine inputs.
PARITY = re.compile(r"(\d+) runs \(seed (\d+), generated on \w+\): (\d+) agree")
# `fuzz --against` likewise.
DIFFERENTIAL = re.compile(r"(\d+) runs \(seed (\d+); (\d+) not compared")


def die(message):
    print(f"bench-fuzz: {message}", file=sys.stderr)
    sys.exit(2)


def build(tree, scratch):
    """The release passim of `tree`, built into `scratch` unless SKIP_BUILD=1 finds it there."""
    binary = os.path.join(scratch, "release", "passim")
    if os.environ.get("SKIP_BUILD") == "1" and os.access(binary, os.X_OK):
        return binary
    done = subprocess.run(["swift", "build", "-c", "release", "--product", "passim", "--scratch-path", scratch],
                          cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if "error:" in line]
        die(f"the release build of {tree} failed:\n" + ("\n".join(errors[:20]) if errors else done.stderr[-2000:]))
    return binary


def reference_tree(commit):
    """A detached worktree of `commit` beside the build folders (made once, then reused)."""
    path = os.path.join(ROOT, ".build-bench", "ref-" + commit)
    if not os.path.isdir(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        done = subprocess.run(["git", "worktree", "add", "--detach", path, commit], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            die(f"cannot check out {commit}: {done.stderr.strip()}")
    return path


def run(binary, seed, runs, mode, cwd):
    """(programs, steps, engine inputs, CPU seconds) of one fuzz run; CPU from the child's rusage."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    args = [binary, "fuzz", "--runs", str(runs), "--jobs", "1", "--seed", str(seed)]
    if mode == "parity":
        # Each build with its own tree's expectations (the file's syntax moves between commits).
        args += ["--parity", "--expect", "Scenarios/wire-v2.expect"]
    elif mode == "differential":
        # The build against its own engine through `BIN shim`: the port protocol's round trips.
        args += ["--against", binary]
    done = subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    match = {"parity": PARITY, "differential": DIFFERENTIAL}.get(mode, SUMMARY).search(done.stdout)
    if match is None:
        die(f"{' '.join(args)} printed no summary (exit {done.returncode}):\n{done.stdout[-2000:]}")
    if mode != "invariant":
        return int(match.group(1)), 0, 0, cpu
    programs, _, steps, _, inputs = (int(g) for g in match.groups())
    return programs, steps, inputs, cpu


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ref", default="68a8bde")
    p.add_argument("--seeds", default="7,11,23")
    p.add_argument("--runs", type=int, default=4000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--mode", choices=["invariant", "parity", "differential"], default="invariant")
    p.add_argument("--prebuilt-ref", action="store_true",
                   help="use .build-bench/release-ref/release/passim as it is (no worktree, no build)")
    p.add_argument("--this-scratch", default=os.path.join(ROOT, ".build-bench", "release-this"),
                   help="the scratch folder of this tree's release build")
    a = p.parse_args()
    seeds = [int(s) for s in a.seeds.split(",") if s]

    ref_scratch = os.path.join(ROOT, ".build-bench", "release-ref")
    if a.prebuilt_ref:
        # Run from the reference's worktree when there is one (parity reads its expectations file);
        # the invariant fuzzer reads no file, so this tree does too.
        ref_binary = os.path.join(ref_scratch, "release", "passim")
        worktree = os.path.join(ROOT, ".build-bench", "ref-" + a.ref)
        ref_tree = worktree if os.path.isdir(worktree) else ROOT
        if not os.access(ref_binary, os.X_OK):
            die(f"--prebuilt-ref: no binary at {ref_binary}")
    else:
        ref_tree = reference_tree(a.ref)
        ref_binary = build(ref_tree, ref_scratch)
    builds = {
        "ref": (ref_binary, ref_tree),
        "this": (build(ROOT, os.path.abspath(a.this_scratch)), ROOT),
    }
    print(f"passim fuzz --runs {a.runs} --jobs 1 ({a.mode}); {a.ref} (ref) against this tree; "
          f"median CPU of {a.rounds} rounds, alternated; {os.cpu_count()} cores")
    print()
    print("| seed | programs | steps (ref / this) | engine inputs (ref / this) | CPU ref | CPU this | per program | per step | per input |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    same = True
    for seed in seeds:
        cpu = {"ref": [], "this": []}
        counts = {}
        for round_ in range(a.rounds):
            order = ["ref", "this"] if round_ % 2 == 0 else ["this", "ref"]
            for name in order:
                binary, cwd = builds[name]
                programs, steps, inputs, seconds = run(binary, seed, a.runs, a.mode, cwd)
                counts[name] = (programs, steps, inputs)
                cpu[name].append(seconds)
        (rp, rs, ri), (tp, ts, ti) = counts["ref"], counts["this"]
        same = same and (rp, rs, ri) == (tp, ts, ti)
        cr, ct = statistics.median(cpu["ref"]), statistics.median(cpu["this"])
        ratio = lambda per_ref, per_this: (cr / per_ref) / (ct / per_this) if ct and per_ref and per_this else 0
        shown = lambda r, t: f"{r} / {t}" if r or t else "-"
        per = lambda r, t: f"{ratio(r, t):.2f}x" if r and t else "-"
        print(f"| {seed} | {tp} | {shown(rs, ts)} | {shown(ri, ti)} | {cr:.2f} s | {ct:.2f} s | "
              f"{per(rp, tp)} | {per(rs, ts)} | {per(ri, ti)} |")
    if not same:
        print("\nthe builds ran different programs on some seed (steps or engine inputs differ)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
