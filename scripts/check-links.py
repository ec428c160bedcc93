#!/usr/bin/env python3
"""The repository stands on its own: run by CI as `make links`.

- Every relative link of a Markdown document (`[text](target)`, also in the DocC catalog) resolves to a
  file or folder inside the repository, and a `#fragment` on a Markdown target names one of its headings
  (GitHub's anchors) or an explicit `<a id>`/`{#id}`.
- No tracked file points outside the repository: no `../shared` (the folder the specification was first
  handed over in) and no seed file (`seeds/000_…`), except CI plumbing that reads Adobe's third-party
  contract files (`../shared/reference/adobe-rest-v2`), which is not a document: Makefile, .ci/, scripts/.

Usage: scripts/check-links.py [ROOT]   (ROOT: the package root, default: this script's parent)
Exit status: 0 clean, 1 a broken or outward link (each printed as file:line: what), 2 unusable input.
"""
import os
import re
import subprocess
import sys

LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
OUTWARD = re.compile(r"\.\./shared\b|\bseeds/00\d_[0-9a-f]{8,}")
CONTRACT = re.compile(r"\.\./shared/reference/adobe-rest-v2\b")
PLUMBING = ("Makefile", ".ci/", "scripts/")
EXPLICIT_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"|\{#([A-Za-z0-9_-]+)\}")
SELF = ("scripts/check-links.py", "scripts/test_check_links.py")
FENCE = re.compile(r"^\s*(```|~~~)")


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True, capture_output=True).stdout
        return sorted(p for p in out.decode("utf-8").split("\0") if p)
    except (OSError, subprocess.CalledProcessError):
        found = []
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".build") and d != ".git")
            found += [os.path.relpath(os.path.join(folder, f), root) for f in sorted(files)]
        return found


def github_anchor(heading):
    """GitHub's id for a heading: lower case, markup and punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|__|<[^>]+>", "", heading.strip())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text.lower(), flags=re.UNICODE)
    return text.replace(" ", "-")


def anchors_of(text):
    anchors, counts, fenced = set(), {}, False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in EXPLICIT_ANCHOR.finditer(line):
            anchors.add(m.group(1) or m.group(2))
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            title = re.sub(r"\s*\{#[^}]*\}\s*$", "", heading.group(1))
            base = github_anchor(title)
            n = counts.get(base, 0)
            counts[base] = n + 1
            anchors.add(base if n == 0 else f"{base}-{n}")
    return anchors


def links_of(text):
    """(line number, target) of each link outside code fences and inline code."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        bare = re.sub(r"`[^`]*`", "", line)
        for m in LINK.finditer(bare):
            yield number, m.group(1)
        for m in IMAGE.finditer(bare):
            yield number, m.group(1)


def check(root):
    root = os.path.realpath(root)
    if not os.path.isdir(root):
        print(f"{root}: not a folder", file=sys.stderr)
        return 2
    problems, checked = [], 0
    anchor_cache = {}
    for rel in tracked_files(root):
        path = os.path.join(root, rel)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        if rel in SELF:
            continue  # these name what they forbid
        plumbing = rel.startswith(PLUMBING) and not rel.endswith(".md")
        for number, line in enumerate(text.splitlines(), 1):
            for m in OUTWARD.finditer(line):
                if plumbing and CONTRACT.match(line, m.start()):
                    continue
                problems.append(f"{rel}:{number}: points outside the repository: {m.group(0)}")
        if not rel.endswith(".md"):
            continue
        for number, target in links_of(text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) or target.startswith("<"):
                continue  # https:, mailto:, doc: (DocC) and other schemes
            checked += 1
            file_part, _, fragment = target.partition("#")
            if file_part:
                resolved = os.path.realpath(os.path.join(os.path.dirname(path), file_part))
                if not (resolved == root or resolved.startswith(root + os.sep)):
                    problems.append(f"{rel}:{number}: links outside the repository: {target}")
                    continue
                if not os.path.exists(resolved):
                    problems.append(f"{rel}:{number}: broken link: {target} (no such file)")
                    continue
            else:
                resolved = path
            if fragment and resolved.endswith(".md") and os.path.isfile(resolved):
                if resolved not in anchor_cache:
                    with open(resolved, encoding="utf-8") as f:
                        anchor_cache[resolved] = anchors_of(f.read())
                if fragment not in anchor_cache[resolved]:
                    problems.append(f"{rel}:{number}: broken link: {target} (no such heading)")
    for problem in problems:
        print(problem)
    if not problems:
        print(f"links: {checked} relative links resolve inside the repository, and no file points outside it")
    return 1 if problems else 0


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    sys.exit(check(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..")))
