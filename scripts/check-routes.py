#!/usr/bin/env python3
"""The typed-routes check, run by CI (`make routes-check`).

Every path of the wire (the SDK's endpoints, the web family, REST API v1 and v2, client registration,
the IdPs' pages) is spelled once, in PassModel's route files (`Route`, `V2Route`, `ServiceRoute`,
`IdPRoute`, `RoutePrefix`, and passim serve's own `AdminRoute`); everything else builds and
recognises paths through them. This check
reads the wire path literals off those files (every string literal that starts with `/`) and fails
when a string literal elsewhere in Sources starts with one of them, or is the start of one (`"/api/v"`),
outside comments. What is legitimately left is in ALLOWED, each with its reason.

Usage: scripts/check-routes.py [ROOT]   (default: the repository)
Exit status: 0 clean, 1 a wire path literal outside the route files (each printed with file:line).
"""
import os
import re
import sys

ROUTE_FILES = [
    "Sources/PassModel/Route.swift",
    "Sources/PassModel/V2Route.swift",
    "Sources/PassModel/ServiceRoute.swift",
    "Sources/PassModel/AdminRoute.swift",
]
LITERAL = re.compile(r'"(/(?:[^"\\]|\\.)*)"')
# A literal made only of these is no path of the wire ("/" alone, a version segment's digits).
TOO_SHORT = 2

# (file, literal) -> why it may stay. Keep it short: each entry is a path someone must move one day.
ALLOWED = {
    # Empty: every path is spelled in the route files (the fuzz generator's were the last).
}


def wire_literals(root):
    """Every path literal of the route files, longest first."""
    found = set()
    for rel in ROUTE_FILES:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            for line in f:
                if line.lstrip().startswith("//"):
                    continue
                for m in LITERAL.finditer(line):
                    text = m.group(1).split("\\(")[0]
                    if len(text) >= TOO_SHORT:
                        found.add(text)
    return sorted(found, key=lambda s: (-len(s), s))


def is_wire(literal, wire):
    """Whether `literal` (a string literal's text, starting with `/`) spells a wire path."""
    head = literal.split("\\(")[0]
    for w in wire:
        if head.startswith(w):
            return True
        if len(head) >= TOO_SHORT + 1 and w.startswith(head) and "/" in head[1:]:
            return True
    return False


def check_text(rel, text, wire):
    """The problems of one file: (rel, line number, literal)."""
    problems = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("//"):
            continue
        code = line.split(" //")[0] if '"' not in line.split(" //")[-1] else line
        for m in LITERAL.finditer(code):
            literal = m.group(1)
            if is_wire(literal, wire) and (rel, literal.split("\\(")[0]) not in ALLOWED:
                problems.append((rel, number, literal))
    return problems


def check(root):
    wire = wire_literals(root)
    problems = []
    for directory, _, files in os.walk(os.path.join(root, "Sources")):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            rel = os.path.relpath(path, root)
            if rel in ROUTE_FILES:
                continue
            with open(path, encoding="utf-8") as f:
                problems += check_text(rel, f.read(), wire)
    return sorted(problems)


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    wire = wire_literals(root)
    problems = check(root)
    for rel, number, literal in problems:
        print(f"{rel}:{number}: the wire path \"{literal}\" is spelled outside the route files "
              f"(build or recognise it through PassModel's Route, V2Route, ServiceRoute, IdPRoute, RoutePrefix or AdminRoute)")
    if problems:
        print(f"routes-check: {len(problems)} wire path literal(s) outside {', '.join(ROUTE_FILES)}")
        return 1
    print(f"routes-check: no wire path literal outside the route files ({len(wire)} paths known)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
