#!/usr/bin/env python3
"""The DocC page "Testing your port" is code a port team copies: its package manifest must be exactly
Examples/SwiftPortTests/Package.swift, and its other Swift blocks, in order, exactly
Examples/SwiftPortTests/Tests/MyPortTests/FromTheDocs.swift; `make example` builds and runs that
package. Exit 1 with a diff when they drift.
Usage: check-doc-snippets.py [--write]  (--write regenerates the example's files from the page)."""
import difflib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "Sources/Passim/Passim.docc/TestingYourPort.md"
EXAMPLE = ROOT / "Examples/SwiftPortTests/Tests/MyPortTests/FromTheDocs.swift"
MANIFEST = ROOT / "Examples/SwiftPortTests/Package.swift"
HEADER = "// The Swift blocks of Sources/Passim/Passim.docc/TestingYourPort.md, verbatim and in order\n" \
         "// (scripts/check-doc-snippets.py): what a port team copies from the docs must build and pass.\n\n"


def expected(page: str) -> dict:
    """What each file of the example must hold, from the page."""
    blocks = re.findall(r"^```swift\n(.*?)^```", page, re.S | re.M)
    manifests = [b for b in blocks if b.startswith("// swift-tools-version")]
    code = [b for b in blocks if not b.startswith("// swift-tools-version")]
    if len(manifests) != 1 or not code:
        sys.exit(f"{PAGE}: expected one package manifest and Swift code blocks")
    return {MANIFEST: manifests[0], EXAMPLE: HEADER + "\n".join(code)}


def main() -> int:
    files = expected(PAGE.read_text())
    if "--write" in sys.argv:
        for path, text in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return 0
    drift = 0
    for path, want in files.items():
        have = path.read_text() if path.exists() else ""
        if have == want:
            print(f"{path.relative_to(ROOT)} is the page's code")
            continue
        drift += 1
        sys.stdout.writelines(difflib.unified_diff(have.splitlines(True), want.splitlines(True),
                                                   str(path.relative_to(ROOT)), str(PAGE.relative_to(ROOT))))
    if drift:
        print(f"\nthe example differs from the DocC page: edit the page, then run {Path(__file__).name} --write")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
