"""Tests of scripts/check-routes.py: it fails on a wire path spelled outside the route files."""
import importlib.util
import os
import shutil
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("check", os.path.join(HERE, "check-routes.py"))
check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check)
ROOT = os.path.join(HERE, "..")


class RoutesCheckTests(unittest.TestCase):
    def setUp(self):
        self.wire = check.wire_literals(ROOT)

    def problems(self, text, rel="Sources/MockPass/X.swift"):
        return check.check_text(rel, text, self.wire)

    def test_the_route_files_give_the_wire_paths(self):
        for path in ["/authorizeDevice", "/api/v2/", "/reggie/v1/", "/o/client/token", "/sso", "/session"]:
            self.assertIn(path, self.wire)

    def test_a_wire_path_literal_is_found(self):
        self.assertEqual(len(self.problems('    case "/authorizeDevice": return x\n')), 1)
        self.assertEqual(len(self.problems('let u = sp.url + "/api/v2/\\(sp)/configuration"\n')), 1)
        self.assertEqual(len(self.problems('if path.hasPrefix("/reggie/v1/") {}\n')), 1)
        self.assertEqual(len(self.problems('if path.hasPrefix("/api/v") {}\n')), 1)  # the start of one

    def test_comments_and_other_paths_are_not(self):
        self.assertEqual(self.problems('    /// `POST /authorizeDevice`: "/authorizeDevice"\n'), [])
        self.assertEqual(self.problems('let sh = "/bin/sh"; let p = "/proc/\\(n)/stat"; let a = "/ca.pem"\n'), [])
        # passim serve's admin paths are defined once too (AdminRoute).
        self.assertEqual(len(self.problems('let a = "/admin/log"\n')), 1)
        self.assertEqual(self.problems('let s = "https://sp.test/authorizeDevice"\n'), [])

    def test_the_allow_list_says_why(self):
        for (rel, literal), reason in check.ALLOWED.items():
            self.assertTrue(reason.strip(), (rel, literal))
        # The allow list is empty since the generator reads its routes from Route too: a path spelled
        # there is refused like anywhere else.
        self.assertEqual(len(self.problems('x.hasSuffix("/regcode")\n', rel="Sources/Fuzz/StepGenerator.swift")), 1)

    def test_the_repository_fails_once_a_path_is_spelled_outside(self):
        """The check on a copy of Sources with one literal put back: it fails, and names it."""
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(os.path.join(ROOT, "Sources"), os.path.join(tmp, "Sources"))
            self.assertEqual(check.check(tmp), [])
            with open(os.path.join(tmp, "Sources/MockPass/SDK/SDKFamily+Web.swift"), "a", encoding="utf-8") as f:
                f.write('let session = "/session"\n')
            found = check.check(tmp)
            self.assertEqual([(rel, literal) for rel, _, literal in found],
                             [("Sources/MockPass/SDK/SDKFamily+Web.swift", "/session")])


if __name__ == "__main__":
    unittest.main()
