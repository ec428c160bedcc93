#!/usr/bin/env python3
"""Writes a client's report card as data from `passim lint --json`: NAME.json (NAME.md is `passim lint
--format md`'s, scripts/lint-cards.sh).

    scripts/lint_card.py --name NAME --client "TITLE" --source "WHERE" --how "HOW IT RAN" LINT.json OUTDIR

The card keeps what is the same on every run: rules, verdicts, reasons, and each violation's requests
by sequence number, method, path and answer (not their times: `passim serve` runs on the wall clock).
A broken rule is a finding about the client, not a failure of passim. Exit 2 on unusable input.
"""
import argparse
import json
import os
import sys


def main():
    p = argparse.ArgumentParser()
    for name in ("--name", "--client", "--source", "--how"):
        p.add_argument(name, required=True)
    p.add_argument("report")
    p.add_argument("outdir")
    a = p.parse_args()
    try:
        with open(a.report, encoding="utf-8") as f:
            report = json.load(f)
        rules = report["rules"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"lint_card: {a.report}: not a passim lint --json report ({e})", file=sys.stderr)
        return 2

    def request(r):
        line = f"#{r['sequence']} {r['method']} {r['path']}"
        if "status" in r:
            line += f" -> {r['status']}"
        if "errorCode" in r:
            line += f" {r['errorCode']}"
        return line

    card = {"client": a.client, "source": a.source, "how": a.how, "requests": report.get("requests", 0), "rules": []}
    for r in rules:
        entry = {"id": r["id"], "severity": r["severity"], "citation": r["citation"], "verdict": r["verdict"]}
        if r["verdict"] == "passed":
            entry["checked"] = r.get("checked", 0)
        if r["verdict"] == "not applicable":
            entry["reason"] = r.get("reason", "")
        if r["verdict"] == "broken":
            entry["violations"] = [{"message": v["message"], "requests": [request(x) for x in v["requests"]]}
                                   for v in r.get("violations", [])]
        card["rules"].append(entry)

    counts = {k: sum(1 for r in card["rules"] if r["verdict"] == k) for k in ("passed", "broken", "not applicable")}
    card["summary"] = counts
    os.makedirs(a.outdir, exist_ok=True)
    with open(os.path.join(a.outdir, a.name + ".json"), "w", encoding="utf-8") as f:
        json.dump(card, f, indent=2, ensure_ascii=False)
        f.write("\n")

    return 0


if __name__ == "__main__":
    sys.exit(main())
