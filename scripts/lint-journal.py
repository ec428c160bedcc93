#!/usr/bin/env python3
"""A request journal for timing `passim lint` (BENCHMARKS.md, "passim lint on one device's journal").

Writes JSON lines as `GET /admin/log` gives them: one REST API v2 device that opens a session, polls
its code (refused: no profile yet) and asks for an authorization (refused), again and again, 1 ms
apart, until the journal holds MEGABYTES of text. One device and a clock that barely moves (a client
as fast as it can go; `passim serve`'s clock held) is the worst case for rules that keep a window per
device: up to 8 MB, every call of the journal is in the same minute's window.

Usage: scripts/lint-journal.py MEGABYTES > journal.jsonl
"""
import base64
import json
import sys

START = 1_767_225_600_000  # 2026-01-01T00:00:00Z, passim's simulation start
STEP = 1  # milliseconds between two calls


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    target = int(float(sys.argv[1]) * 1_000_000)
    device = "fingerprint " + base64.b64encode(b"lint-bench-device").decode()
    headers = [{"name": "AP-Device-Identifier", "value": device}, {"name": "X-Device-Info", "value": "eyJ9"},
               {"name": "Authorization", "value": "Bearer token-1"}]
    written, n, t = 0, 0, START
    out = sys.stdout
    while written < target:
        code = f"C{n:06d}"
        calls = [
            ("POST", "/api/v2/REQ1/sessions",
             [{"name": "mvpd", "value": "Comcast"}, {"name": "domainName", "value": "adobe.com"},
              {"name": "redirectUrl", "value": "https://app.example/done"}], 201, None, None),
            ("GET", f"/api/v2/REQ1/profiles/code/{code}", [], 404, "authenticated_profile_missing", "authentication"),
            ("POST", "/api/v2/REQ1/decisions/authorize/Comcast", [], 200, "authentication_missing", "authentication"),
        ]
        for method, path, parameters, status, error, action in calls:
            line = {"host": "sp:main", "time": t, "method": method, "path": path, "parameters": parameters,
                    "headers": headers, "status": status}
            if error:
                line["errorCode"] = error
                line["errorAction"] = action
            text = json.dumps(line, separators=(",", ":")) + "\n"
            out.write(text)
            written += len(text)
            t += STEP
        n += 1


if __name__ == "__main__":
    main()
