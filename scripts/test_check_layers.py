"""Tests of scripts/check-layers.py: the real tree passes, and each kind of forbidden import fails."""
import importlib.util
import io
import os
import tempfile
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("check_layers", os.path.join(HERE, "check-layers.py"))
layers = importlib.util.module_from_spec(spec)
spec.loader.exec_module(layers)


def run(root):
    out = io.StringIO()
    with redirect_stdout(out):
        status = layers.check(root)
    return status, out.getvalue()


class CheckLayersTests(unittest.TestCase):
    def tree(self, files):
        root = tempfile.mkdtemp()
        for path, text in files.items():
            full = os.path.join(root, "Sources", path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        return root

    def test_the_project_passes(self):
        status, out = run(os.path.join(HERE, ".."))
        self.assertEqual(status, 0, out)

    def test_the_engine_importing_the_mock_fails(self):
        status, out = run(self.tree({"Entitlement/Engine.swift": "import PassModel\nimport MockPass\n"}))
        self.assertEqual(status, 1)
        self.assertIn("Sources/Entitlement/Engine.swift:2: Entitlement may not import MockPass", out)

    def test_the_mock_importing_the_engine_fails(self):
        status, out = run(self.tree({"MockPass/M.swift": "@testable import Entitlement\n"}))
        self.assertEqual(status, 1)
        self.assertIn("MockPass may not import Entitlement", out)

    def test_libxml2_outside_passxml_fails_even_above_it(self):
        status, out = run(self.tree({"Simulation/S.swift": "import CLibXML2\n"}))
        self.assertEqual(status, 1)
        self.assertIn("Simulation imports CLibXML2, which only PassXML may import", out)

    def test_libcurl_outside_live_fails(self):
        status, out = run(self.tree({"Port/P.swift": "import struct CCurl.Handle\n"}))
        self.assertEqual(status, 1)
        self.assertIn("Port imports CCurl, which only Live may import", out)

    def test_an_unplaced_module_fails(self):
        status, out = run(self.tree({"Extra/E.swift": "import PassModel\n"}))
        self.assertEqual(status, 1)
        self.assertIn("Sources/Extra: a module ARCHITECTURE.md does not place", out)

    def test_the_dsl_building_runtimes_fails(self):
        status, out = run(self.tree({"Scenario/S.swift": "import Harness\nimport Live\n",
                                     "Scenario/T.swift": "@testable import Port\n"}))
        self.assertEqual(status, 1)
        self.assertIn("Sources/Scenario/S.swift:2: Scenario may not import Live: the runtimes are composed by Harness", out)
        self.assertIn("Sources/Scenario/T.swift:1: Scenario may not import Port", out)

    def test_a_flow_naming_a_wire_fails(self):
        status, out = run(self.tree({
            "Entitlement/LoginFlow.swift": "import PassModel\n// V2Route. in a comment is fine\nif core.isRESTv2 {\n",
            "Entitlement/Other.swift": "let u = Route.config.url(sp)\n",
            "Entitlement/Dialects/SDKDialect.swift": "let u = Route.config.url(sp)\nlet x = V2Answer.profiles(r)\n"}))
        self.assertEqual(status, 1)
        self.assertIn("Sources/Entitlement/LoginFlow.swift:3: a flow names the wire (isRESTv2)", out)
        self.assertIn("Sources/Entitlement/Other.swift:1: a flow names the wire (Route.)", out)
        self.assertNotIn("Dialects", out.replace("Sources/Entitlement/Dialects/)", ""))

    def test_what_is_below_is_allowed(self):
        status, out = run(self.tree({"Scenario/S.swift": "import Foundation\nimport Simulation\nimport PassXML\n",
                                     "Harness/H.swift": "import Live\nimport Port\n",
                                     "Simulation/S.swift": "import PassModel\nimport PassXML\n"}))
        self.assertEqual(status, 0, out)


if __name__ == "__main__":
    unittest.main()
