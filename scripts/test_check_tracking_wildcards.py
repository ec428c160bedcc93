"""Tests of scripts/check-tracking-wildcards.py."""
import importlib.util
import os
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("check", os.path.join(HERE, "check-tracking-wildcards.py"))
check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check)


class TrackingWildcardTests(unittest.TestCase):
    def problems(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".scenario", delete=False) as f:
            f.write(text)
        try:
            return check.check_file(f.name)
        finally:
            os.unlink(f.name)

    def test_a_wildcard_without_a_reason_is_listed(self):
        self.assertEqual(len(self.problems('< sendTrackingData(TRACKING_AUTHENTICATION, ["true", "M", _, "false"])\n')), 1)
        self.assertEqual(len(self.problems('second< sendTrackingData(TRACKING_AUTHENTICATION, _)\n')), 1)

    def test_a_reason_above_or_after_is_enough(self):
        self.assertEqual(self.problems('# `_`: issued again\n< sendTrackingData(0, ["true", "M", _])\n'), [])
        self.assertEqual(self.problems('< sendTrackingData(0, ["true", "M", _])   # `_`: issued again\n'), [])
        # A comment that does not name the wildcard is not a reason; a blank line ends the block.
        self.assertEqual(len(self.problems('# the login\n< sendTrackingData(0, ["true", _])\n')), 1)
        self.assertEqual(len(self.problems('# `_`: why\n\n< sendTrackingData(0, ["true", _])\n')), 1)

    def test_bindings_strings_and_other_callbacks_are_not_wildcards(self):
        self.assertEqual(self.problems('< sendTrackingData(0, ["true", "M", $guid, "a_b", "_"])\n'), [])
        self.assertEqual(self.problems('< setToken(_, "CNN")\n'), [])

    def test_md5_is_recomputed_and_found_in_the_scenario(self):
        good = ('# md5("abc") = 900150983cd24fb0d6963f7d28e17f72\n'
                '< setToken("PHNlc3Npb25HVUlEPmFiYzwvc2Vzc2lvbkdVSUQ+", "R")\n'
                '< sendTrackingData(1, ["true", "M", "900150983cd24fb0d6963f7d28e17f72"])\n')
        self.assertEqual(self.problems(good), [])
        self.assertEqual(len(self.problems(good.replace("f72\n", "f73\n", 1))), 2)  # wrong, and in no tracking array
        self.assertEqual(len(self.problems(good.replace("PHNlc3Npb25HVUlEPmFiYzwvc2Vzc2lvbkdVSUQ+", "x"))), 1)


if __name__ == "__main__":
    unittest.main()
