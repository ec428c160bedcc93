"""Tests of scripts/check-links.py: the real tree passes; a broken link, a missing heading, a link
out of the tree and a mention of ../shared each fail by file and line; CI plumbing may name Adobe's
contract folder; links in code are not links."""
import importlib.util
import io
import os
import tempfile
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("check_links", os.path.join(HERE, "check-links.py"))
links = importlib.util.module_from_spec(spec)
spec.loader.exec_module(links)


def run(root):
    out = io.StringIO()
    with redirect_stdout(out):
        status = links.check(root)
    return status, out.getvalue()


class CheckLinksTests(unittest.TestCase):
    def tree(self, files):
        root = tempfile.mkdtemp()
        for path, text in files.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        return root

    def test_the_project_passes(self):
        status, out = run(os.path.join(HERE, ".."))
        self.assertEqual(status, 0, out)

    def test_good_links_pass(self):
        root = self.tree({
            "README.md": "See [the spec](docs/spec/B.md#the-mvpd-object), [a folder](docs/), [Adobe](https://x.test/a).\n"
                         "And [here](#quick-start).\n\n## Quick start\n",
            "docs/spec/B.md": "# B\n\n## The `MVPD` object\n",
        })
        status, out = run(root)
        self.assertEqual(status, 0, out)

    def test_a_missing_file_fails_by_line(self):
        root = self.tree({"README.md": "one\n[x](docs/none.md)\n"})
        status, out = run(root)
        self.assertEqual(status, 1)
        self.assertIn("README.md:2: broken link: docs/none.md (no such file)", out)

    def test_a_missing_heading_fails(self):
        root = self.tree({"README.md": "[x](B.md#nowhere)\n", "B.md": "# B\n## Somewhere\n"})
        status, out = run(root)
        self.assertIn("README.md:1: broken link: B.md#nowhere (no such heading)", out)

    def test_repeated_headings_get_numbered_anchors(self):
        root = self.tree({"README.md": "[x](B.md#usage-1) [y](B.md#usage)\n", "B.md": "## Usage\n## Usage\n"})
        self.assertEqual(run(root)[0], 0)

    def test_a_link_out_of_the_tree_fails(self):
        root = self.tree({"docs/a.md": "[x](../../outside.md)\n"})
        status, out = run(root)
        self.assertEqual(status, 1)
        self.assertIn("docs/a.md:1: links outside the repository: ../../outside.md", out)

    def test_shared_and_seed_files_are_outward_anywhere_but_contract_plumbing(self):
        root = self.tree({
            "README.md": "read `../shared/BEHAVIOR.md`\n",
            "Sources/A.swift": "// seeds/000_08ff75c3dd36b9cd.txt says so\n",
            "Makefile": "OPENAPI ?= ../shared/reference/adobe-rest-v2\nX = ../shared/BEHAVIOR.md\n",
            "docs/x.md": "the contract is in ../shared/reference/adobe-rest-v2\n",
        })
        status, out = run(root)
        self.assertEqual(status, 1)
        self.assertIn("README.md:1: points outside the repository: ../shared", out)
        self.assertIn("Sources/A.swift:1: points outside the repository: seeds/000_08ff75c3dd36b9cd", out)
        self.assertIn("Makefile:2:", out)
        self.assertNotIn("Makefile:1:", out)
        self.assertIn("docs/x.md:1:", out)  # a document, not plumbing

    def test_links_in_code_are_not_checked(self):
        root = self.tree({"README.md": "```\n[x](none.md)\n```\nand `[y](none.md)`\n"})
        self.assertEqual(run(root)[0], 0)


if __name__ == "__main__":
    unittest.main()
