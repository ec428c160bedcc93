"""Tests of scripts/check-provenance.py: the real tree passes, a tree with a good and a bad file fails
naming the bad one, clause names are read from BEHAVIOR.md, and the anchors the script lists are
those of Adobe's pages (when PASSIM_PASS_EN names a checkout of AdobeDocs/pass.en)."""
import importlib.util
import io
import os
import re
import tempfile
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
PASS_EN = os.environ.get("PASSIM_PASS_EN", "")
PAGES_DIR = os.path.join(PASS_EN, "help", "authentication", "integration-guide-programmers", "legacy", "sdks",
                         "ios-tvos-sdk")
BEHAVIOR = """# Reference behaviour

## Startup

## Authentication

**Cancel via nil.** A paragraph.

## Client registration and request signing

## Tracking data (`sendTrackingData(data, forEventType:)`)
"""
spec = importlib.util.spec_from_file_location("check_provenance", os.path.join(HERE, "check-provenance.py"))
provenance = importlib.util.module_from_spec(spec)
spec.loader.exec_module(provenance)

GOOD_SCENARIO = """# Backing out of the dialog resets the flow (BEHAVIOR.md, "Cancel via nil").
scenario "cancel"
requestor REQ1
"""
BAD_SCENARIO = """# Backing out of the dialog resets the flow.
scenario "cancel"
requestor REQ1
"""
GOOD_CHOICES = """# Conformance map

## Startup

| clause | scenarios |
| --- | --- |
| 1. not a choice | `startup/one-sp` |

## Choices

1. **A choice resting on a seed**: `startup/one-sp`.
   Seeds: `api-reference #setReqV3` (the seeds' words).
2. **A choice the seeds do not decide**,
   over two lines. Seeds silent.
"""


def run(root):
    out = io.StringIO()
    with redirect_stdout(out):
        status = provenance.check(root)
    return status, out.getvalue()


class CheckProvenanceTests(unittest.TestCase):
    def tree(self, scenarios, conformance=GOOD_CHOICES):
        root = tempfile.mkdtemp()
        for path, text in scenarios.items():
            full = os.path.join(root, "Scenarios", path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        os.makedirs(os.path.join(root, "docs", "spec"))
        with open(os.path.join(root, "docs", "CONFORMANCE.md"), "w", encoding="utf-8") as f:
            f.write(conformance)
        with open(os.path.join(root, "docs", "spec", "BEHAVIOR.md"), "w", encoding="utf-8") as f:
            f.write(BEHAVIOR)
        return root

    def test_the_project_passes(self):
        status, out = run(os.path.join(HERE, ".."))
        self.assertEqual(status, 0, out)

    def test_a_good_tree_passes(self):
        status, out = run(self.tree({"cancel/good.scenario": GOOD_SCENARIO}))
        self.assertEqual(status, 0, out)
        self.assertTrue(out.startswith("provenance: every scenario cites"), out)

    def test_a_scenario_without_a_citation_fails_by_name(self):
        root = self.tree({"cancel/good.scenario": GOOD_SCENARIO, "cancel/bad.scenario": BAD_SCENARIO})
        status, out = run(root)
        self.assertEqual(status, 1)
        self.assertIn("Scenarios/cancel/bad.scenario: the leading comment cites no clause of BEHAVIOR.md", out)
        self.assertNotIn("good.scenario", out)

    def test_a_clause_behavior_md_does_not_have_fails(self):
        text = GOOD_SCENARIO.replace('"Cancel via nil"', "Deprecated API")
        status, out = run(self.tree({"deprecated/a.scenario": text}))
        self.assertEqual(status, 1)
        self.assertIn("Scenarios/deprecated/a.scenario", out)

    def test_a_citation_after_the_leading_comment_does_not_count(self):
        text = BAD_SCENARIO + "\n# (BEHAVIOR.md, Startup)\n"
        status, out = run(self.tree({"startup/a.scenario": text}))
        self.assertEqual(status, 1)
        self.assertIn("Scenarios/startup/a.scenario", out)

    def test_a_wrapped_citation_and_the_quoted_form_count(self):
        wrapped = "# One sentence that goes on (BEHAVIOR.md,\n# Authentication 4).\nscenario \"x\"\n"
        quoted = "# SDK 3.x (BEHAVIOR.md \"Client registration and request signing\"): a sentence.\n"
        status, out = run(self.tree({"a/w.scenario": wrapped, "a/q.scenario": quoted}))
        self.assertEqual(status, 0, out)
        self.assertTrue(out.startswith("provenance: every scenario cites"), out)

    def test_a_scenario_without_a_comment_fails(self):
        status, out = run(self.tree({"startup/a.scenario": 'scenario "x"\n'}))
        self.assertEqual(status, 1)
        self.assertIn("Scenarios/startup/a.scenario: no leading comment", out)

    def test_a_choice_without_a_seed_passage_fails_by_number(self):
        text = GOOD_CHOICES + "3. **A choice that says nothing of the seeds**. `startup/one-sp`.\n"
        status, out = run(self.tree({"cancel/good.scenario": GOOD_SCENARIO}, text))
        self.assertEqual(status, 1)
        self.assertIn("docs/CONFORMANCE.md: choice 3 cites no passage of Adobe's pages", out)
        self.assertNotIn("choice 1", out)
        self.assertNotIn("choice 2", out)

    def test_a_seed_anchor_that_does_not_exist_fails(self):
        text = GOOD_CHOICES.replace("#setReqV3", "#setRequestorV4")
        status, out = run(self.tree({"cancel/good.scenario": GOOD_SCENARIO}, text))
        self.assertEqual(status, 1)
        self.assertIn("choice 1 cites no such passage of Adobe's pages: api-reference #setRequestorV4", out)

    def test_a_cookbook_anchor_is_not_an_api_reference_anchor(self):
        text = GOOD_CHOICES.replace("api-reference #setReqV3", "api-reference #startup_flow")
        status, out = run(self.tree({"cancel/good.scenario": GOOD_SCENARIO}, text))
        self.assertEqual(status, 1)
        self.assertIn("api-reference #startup_flow", out)

    def test_a_seed_file_citation_no_longer_counts(self):
        text = GOOD_CHOICES.replace("api-reference #setReqV3", "seeds/000 #setReqV3")
        status, out = run(self.tree({"cancel/good.scenario": GOOD_SCENARIO}, text))
        self.assertEqual(status, 1)
        self.assertIn("choice 1 cites no passage of Adobe's pages", out)

    def test_clause_names_come_from_behavior_md(self):
        self.assertEqual(provenance.clause_names(BEHAVIOR),
                         ["Startup", "Authentication", "Cancel via nil", "Client registration and request signing", "Tracking data"])
        for cited in ("Client registration: a quote", "Tracking data, the table", "Startup 3"):
            text = GOOD_SCENARIO.replace('"Cancel via nil"', cited)
            status, out = run(self.tree({"a/x.scenario": text}))
            self.assertEqual(status, 0, cited + ": " + out)
        for cited in ("Client", "Tracking", "Registration"):
            text = GOOD_SCENARIO.replace('"Cancel via nil"', cited)
            status, out = run(self.tree({"a/x.scenario": text}))
            self.assertEqual(status, 1, cited)

    @unittest.skipUnless(os.path.isdir(PAGES_DIR), "set PASSIM_PASS_EN to a checkout of AdobeDocs/pass.en")
    def test_the_anchors_are_those_of_adobes_pages(self):
        for page, (name, anchors) in provenance.PAGES.items():
            with open(os.path.join(PAGES_DIR, name), encoding="utf-8") as f:
                found = set(re.findall(r"\{#([A-Za-z0-9_-]+)\}", f.read()))
            self.assertEqual(found, anchors, page)


if __name__ == "__main__":
    unittest.main()
