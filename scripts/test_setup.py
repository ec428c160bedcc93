"""Tests of scripts/setup.sh, `make setup`, on both of its systems: SETUP_UNAME picks the branch, and
the commands it asks (swift, xcrun, pkg-config, bash, python3, dpkg, apt-get...) are stubs on a PATH
that holds nothing else but the few tools the script itself uses. No Mac is needed to test the Mac's
branch, nor apt to test Linux's: the stubs record what would have been installed.

    python3 -m unittest discover -s scripts -p 'test_setup.py'
"""
import os
import shutil
import stat
import subprocess
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "setup.sh")
# What the script runs that is not under test: real copies, found on this machine's PATH.
TOOLS = ["sh", "sed", "head", "mkdir", "cat", "dirname", "uname"]


class Machine:
    """A temporary machine: a stub for each command given, the real tools, nothing else."""

    def __init__(self, test):
        self.dir = tempfile.mkdtemp(prefix="passim-setup-")
        test.addCleanup(shutil.rmtree, self.dir)
        self.bin = os.path.join(self.dir, "bin")
        os.mkdir(self.bin)
        for tool in TOOLS:
            os.symlink(shutil.which(tool), os.path.join(self.bin, tool))
        self.record = os.path.join(self.dir, "record")
        self.pkgconfig = os.path.join(self.dir, "pkgconfig")

    def stub(self, name, body):
        path = os.path.join(self.bin, name)
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + body + "\n")
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)

    def sdk(self, libxml=True, curl=True):
        """A macOS SDK folder with libxml2's and libcurl's headers, as Xcode's has them."""
        sdk = os.path.join(self.dir, "MacOSX.sdk")
        if libxml:
            os.makedirs(os.path.join(sdk, "usr/include/libxml2/libxml"))
            with open(os.path.join(sdk, "usr/include/libxml2/libxml/xmlversion.h"), "w") as f:
                f.write('#define LIBXML_DOTTED_VERSION "2.9.13"\n')
        if curl:
            os.makedirs(os.path.join(sdk, "usr/include/curl"))
            open(os.path.join(sdk, "usr/include/curl/curl.h"), "w").close()
        os.makedirs(sdk, exist_ok=True)
        self.stub("xcrun", f'[ "$1" = --show-sdk-path ] && echo "{sdk}"')
        return sdk

    def run(self, system, *arguments):
        env = {"PATH": self.bin, "SETUP_UNAME": system, "SETUP_PKGCONFIG_DIR": self.pkgconfig}
        done = subprocess.run([os.path.join(self.bin, "sh"), SCRIPT, *arguments], env=env, capture_output=True, text=True)
        return done.returncode, done.stdout + done.stderr

    def recorded(self):
        if not os.path.exists(self.record):
            return []
        with open(self.record) as f:
            return f.read().splitlines()


class MacTests(unittest.TestCase):
    def well_equipped_mac(self):
        mac = Machine(self)
        mac.stub("swift", 'echo "swift-driver version: 1.120.5 Apple Swift version 6.1 (swiftlang-6.1.0.110.21 clang-1700.0.13.3)"')
        mac.stub("pkg-config", "exit 1")  # Homebrew's pkg-config absent in effect: knows no libxml-2.0
        mac.stub("bash", 'echo "5.2"')
        mac.stub("python3", 'echo "3.9"')
        mac.stub("curl", "exit 0")
        mac.stub("openssl", "exit 0")
        # A Mac has no apt: a call would be recorded.
        mac.stub("apt-get", f'echo "apt-get $*" >> "{mac.record}"')
        mac.stub("dpkg", f'echo "dpkg $*" >> "{mac.record}"')
        return mac

    def test_xcodes_sdk_is_enough_and_described_for_swiftpm(self):
        mac = self.well_equipped_mac()
        sdk = mac.sdk()
        status, output = mac.run("Darwin")
        self.assertEqual(status, 0, output)
        self.assertIn("this Mac has what make suite and make test need", output)
        self.assertIn("skipped on macOS: apt (Linux only), and Chromium", output)
        self.assertEqual(mac.recorded(), [], "nothing Linux-only runs on a Mac")
        with open(os.path.join(mac.pkgconfig, "libxml-2.0.pc")) as f:
            pc = f.read()
        self.assertIn(f"prefix={sdk}/usr\n", pc)
        self.assertIn("Version: 2.9.13\n", pc)
        self.assertIn("Cflags: -I${includedir}/libxml2\n", pc)
        self.assertIn("Libs: -lxml2\n", pc)

    def test_pkg_configs_libxml2_is_used_when_it_knows_one(self):
        mac = self.well_equipped_mac()
        mac.sdk()
        mac.stub("pkg-config", '[ "$1" = --modversion ] && echo 2.13.5; exit 0')
        status, output = mac.run("Darwin")
        self.assertEqual(status, 0, output)
        self.assertIn("libxml2 from pkg-config (2.13.5)", output)
        self.assertFalse(os.path.exists(os.path.join(mac.pkgconfig, "libxml-2.0.pc")))

    def test_each_missing_piece_is_named_with_how_to_install_it(self):
        mac = self.well_equipped_mac()
        mac.sdk(libxml=False, curl=False)
        mac.stub("swift", 'echo "Apple Swift version 5.10 (swiftlang-5.10.0.13 clang-1500.3.9.4)"')
        mac.stub("bash", 'echo "3.2"')
        os.remove(os.path.join(mac.bin, "python3"))
        os.remove(os.path.join(mac.bin, "openssl"))
        status, output = mac.run("Darwin")
        self.assertEqual(status, 2, output)
        for expected in [
            "Swift 6 or later (found: 5.10): Xcode 16 or later",
            "libxml2's headers: none in the SDK",
            "brew install libxml2 pkg-config",
            "libcurl's headers: none in the SDK",
            "bash 5.1 or later first on PATH (found: 3.2): brew install bash",
            "Python 3.9 or later as python3 (found: none)",
            "openssl: brew install openssl",
        ]:
            self.assertIn(expected, output)
        self.assertNotIn("curl: brew install curl", output)
        self.assertEqual(mac.recorded(), [])

    def test_no_command_line_tools_says_xcode_select(self):
        mac = self.well_equipped_mac()  # no xcrun stub: no SDK
        status, output = mac.run("Darwin")
        self.assertEqual(status, 2, output)
        self.assertIn("Xcode's command-line tools (the macOS SDK): xcode-select --install", output)

    def test_bash_5_0_is_too_old_and_5_1_is_not(self):
        for version, ok in [("5.0", False), ("5.1", True), ("6.0", True)]:
            mac = self.well_equipped_mac()
            mac.sdk()
            mac.stub("bash", f'echo "{version}"')
            status, output = mac.run("Darwin")
            self.assertEqual(status == 0, ok, f"bash {version}: {output}")


class BrowserTests(unittest.TestCase):
    """`--browser` (make browser-setup): Chromium for the HTML reports' check, on Linux only."""

    def machine(self):
        machine = Machine(self)
        machine.stub("apt-get", f'echo "apt-get $*" >> "{machine.record}"')
        return machine

    def test_linux_installs_chromium_when_missing(self):
        machine = self.machine()
        status, output = machine.run("Linux", "--browser")
        self.assertEqual(status, 0, output)
        self.assertEqual(machine.recorded(), ["apt-get update -qq", "apt-get install -y -qq chromium"])

    def test_linux_with_chromium_installs_nothing(self):
        machine = self.machine()
        machine.stub("chromium", "exit 0")
        self.assertEqual(machine.run("Linux", "--browser"), (0, ""))
        self.assertEqual(machine.recorded(), [])

    def test_a_mac_skips_it_with_a_message(self):
        machine = self.machine()
        status, output = machine.run("Darwin", "--browser")
        self.assertEqual(status, 0, output)
        self.assertIn("skipped on Darwin: Chromium", output)
        self.assertEqual(machine.recorded(), [])


class LinuxTests(unittest.TestCase):
    def debian(self, installed):
        machine = Machine(self)
        listed = " ".join(installed)
        machine.stub("dpkg", f'for p in {listed}; do [ "$2" = "$p" ] && exit 0; done; exit 1')
        machine.stub("apt-get", f'echo "apt-get $*" >> "{machine.record}"')
        return machine

    def test_only_the_missing_packages_are_installed(self):
        machine = self.debian(["libxml2-dev", "pkg-config", "curl", "openssl"])
        status, output = machine.run("Linux")
        self.assertEqual(status, 0, output)
        self.assertIn("installing libcurl4-openssl-dev xmlsec1", output)
        self.assertEqual(machine.recorded(), ["apt-get update -qq", "apt-get install -y -qq libcurl4-openssl-dev xmlsec1"])

    def test_nothing_missing_installs_nothing(self):
        machine = self.debian(["libxml2-dev", "libcurl4-openssl-dev", "pkg-config", "xmlsec1", "curl", "openssl"])
        status, output = machine.run("Linux")
        self.assertEqual((status, output), (0, ""))
        self.assertEqual(machine.recorded(), [])

    def test_a_failed_install_is_one_message_and_exit_2(self):
        machine = self.debian([])
        machine.stub("apt-get", 'exit 100')
        status, output = machine.run("Linux")
        self.assertEqual(status, 2, output)
        self.assertIn("apt-get could not install libxml2-dev", output)

    def test_a_linux_without_apt_lists_the_packages(self):
        machine = Machine(self)
        status, output = machine.run("Linux")
        self.assertEqual(status, 2, output)
        self.assertIn("this Linux has no apt", output)
        self.assertIn("libxml2-dev libcurl4-openssl-dev pkg-config xmlsec1 curl openssl", output)

    def test_another_system_is_refused_in_one_message(self):
        status, output = Machine(self).run("FreeBSD")
        self.assertEqual(status, 2)
        self.assertEqual(output.count("\n"), 1, output)
        self.assertIn("no set-up for FreeBSD", output)


if __name__ == "__main__":
    unittest.main()
