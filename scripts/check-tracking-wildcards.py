#!/usr/bin/env python3
"""The tracking-wildcard check, run by CI (`make tracking-wildcards`).

BEHAVIOR.md fixes every field of a tracking array ("Tracking data"), so a scenario that writes `_` in
one (or for the whole array) leaves a value unpinned. Each such `_` must say why: a comment on the
same line after the callback, or in the comment block right above the step, that names the wildcard
as `_` in backquotes, e.g.

    # `_`: the GUID of a token the mock issues again after setRequestor, a value of no interest here
    < sendTrackingData(TRACKING_AUTHENTICATION, ["true", "T1", _, "false", "mobile", "ios", "iOS"])

A `$name` binding is not a wildcard (it must be equal at every use). The check also recomputes every
`md5("SESSION-GUID") = HEX` written in a scenario's comments (the tracking GUID is the lowercase md5
hex of the session GUID, BEHAVIOR.md, Tracking data), and fails when one is wrong, when the session
GUID appears nowhere in the scenario's values (as written, or inside a base64 value such as a media
token's `<sessionGUID>`), or when HEX is in no tracking array of the scenario.

Usage: scripts/check-tracking-wildcards.py [PATH...]   (default: Scenarios)
Exit status: 0 clean, 1 a wildcard without a reason or a wrong md5 (each printed).
"""
import base64
import binascii
import hashlib
import os
import re
import sys

STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
WILDCARD = re.compile(r"(?<![\w$])_(?![\w])")
MD5 = re.compile(r'md5\("([^"]*)"\)\s*=\s*([0-9a-fA-F]{32})')
REASON = "`_`"


def split_comment(line):
    """The step and its trailing comment (a `#` outside strings), without the strings' contents."""
    blanked = STRING.sub(lambda m: '"' + " " * (len(m.group(0)) - 2) + '"', line)
    hash_at = blanked.find("#")
    if hash_at < 0:
        return blanked, ""
    return blanked[:hash_at], line[hash_at:]


def decoded_values(lines):
    """Every string value of the steps, and its base64 decoding when it has one."""
    values = []
    for line in lines:
        if line.strip().startswith("#"):
            continue
        for literal in STRING.findall(line):
            text = literal[1:-1]
            values.append(text)
            try:
                values.append(base64.b64decode(text, validate=True).decode("utf-8", "replace"))
            except (binascii.Error, ValueError):
                pass
    return values


def check_file(path):
    problems = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    values = None
    tracking = [l for l in lines if not l.strip().startswith("#") and "sendTrackingData(" in l]
    block = []  # the comment lines right above the current line
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        for session, hexdigest in MD5.findall(line):
            if hashlib.md5(session.encode()).hexdigest() != hexdigest.lower():
                problems.append("%s:%d: md5(\"%s\") is %s, not %s" % (
                    path, number, session, hashlib.md5(session.encode()).hexdigest(), hexdigest))
            if values is None:
                values = decoded_values(lines)
            if not any(session in v for v in values):
                problems.append("%s:%d: the session GUID %s is in none of the scenario's values" % (path, number, session))
            if not any('"%s"' % hexdigest.lower() in t for t in tracking):
                problems.append("%s:%d: %s is in no tracking array of the scenario" % (path, number, hexdigest))
        if stripped.startswith("#"):
            block.append(stripped)
            continue
        step, trailing = split_comment(stripped)
        if re.match(r"^[\w.-]*<\s*sendTrackingData\(", step):
            arguments = step[step.index("(") + 1:]
            if WILDCARD.search(arguments) and REASON not in trailing and not any(REASON in c for c in block):
                problems.append("%s:%d: `_` in a tracking array with no comment saying why: %s" % (path, number, stripped))
        block = []
    return problems


def scenario_files(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith(".scenario"):
                        yield os.path.join(root, name)
        else:
            yield path


def main(argv):
    paths = argv[1:] or [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Scenarios")]
    problems = []
    count = 0
    for path in scenario_files(paths):
        count += 1
        problems += check_file(os.path.relpath(path))
    for p in problems:
        print(p)
    if problems:
        print("%d problem(s) in tracking arrays (scripts/check-tracking-wildcards.py)" % len(problems))
        return 1
    print("tracking arrays: every `_` says why, every md5 is right (%d scenarios)" % count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
