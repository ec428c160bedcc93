#!/usr/bin/env python3
"""The DocC page "Testing your port" is code a port team copies: its Swift blocks (all but the
package manifest) must be, in order, exactly Examples/SwiftPortTests/Tests/FromTheDocsTests/
FromTheDocs.swift, which `make example` builds and runs. Exit 1 with a diff when they drift.
Usage: check-doc-snippets.py [--write]  (--write regenerates the example file from the page)."""
import difflib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "Sources/Passim/Passim.docc/TestingYourPort.md"
EXAMPLE = ROOT / "Examples/SwiftPortTests/Tests/FromTheDocsTests/FromTheDocs.swift"
HEADER = "// The Swift blocks of Sources/Passim/Passim.docc/TestingYourPort.md, verbatim and in order\n" \
         "// (scripts/check-doc-snippets.py): what a port team copies from the docs must build and pass.\n\n"


def expected(page: str) -> str:
    blocks = re.findall(r"^```swift\n(.*?)^```", page, re.S | re.M)
    code = [b for b in blocks if not b.startswith("// swift-tools-version")]
    if not code:
        sys.exit(f"{PAGE}: no Swift blocks found")
    return HEADER + "\n".join(code)


def main() -> int:
    want = expected(PAGE.read_text())
    if "--write" in sys.argv:
        EXAMPLE.parent.mkdir(parents=True, exist_ok=True)
        EXAMPLE.write_text(want)
        return 0
    have = EXAMPLE.read_text() if EXAMPLE.exists() else ""
    if have == want:
        print(f"{EXAMPLE.relative_to(ROOT)} is the page's code")
        return 0
    sys.stdout.writelines(difflib.unified_diff(have.splitlines(True), want.splitlines(True),
                                               str(EXAMPLE.relative_to(ROOT)), str(PAGE.relative_to(ROOT))))
    print(f"\nthe example differs from the DocC page: edit the page, then run {Path(__file__).name} --write")
    return 1


if __name__ == "__main__":
    sys.exit(main())
