#!/bin/sh
# `make setup`: what the build and the tests need (README.md), on the system this runs on.
#
#   Linux (Debian, Ubuntu): the missing packages of the list below, through apt-get.
#   macOS: nothing is installed. Xcode's toolchain has what the build needs: Swift, and libxml2 and
#     libcurl in its SDK. The SDK's libxml2 is described for SwiftPM in a pkg-config file of its own
#     (.build-setup/pkgconfig/libxml-2.0.pc, which the Makefile puts on PKG_CONFIG_PATH), unless
#     pkg-config already knows one (Homebrew's). What is missing is named with how to install it, and
#     the Linux-only parts (apt, Chromium) are skipped with a message.
#
# `scripts/setup.sh --browser` (make browser-setup): Chromium from Debian's packages, for the HTML
# reports' check (make report-check); skipped with a message elsewhere.
#
# POSIX sh, not bash: on a Mac this runs before there is a bash new enough for the other scripts.
# SETUP_UNAME stands for `uname -s` and SETUP_PKGCONFIG_DIR for the pkg-config folder: the tests
# (scripts/test_setup.py) run both branches on any system.
# Exit status: 0 ready, 2 something is missing that this could not install.
set -u
cd "$(dirname "$0")/.." || exit 2
system=${SETUP_UNAME:-$(uname -s)}
pkgconfig_dir=${SETUP_PKGCONFIG_DIR:-$PWD/.build-setup/pkgconfig}

linux() {
  packages="libxml2-dev libcurl4-openssl-dev pkg-config xmlsec1 curl openssl"
  if ! command -v dpkg >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: this Linux has no apt: install these with its package manager (names are Debian's):"
    echo "  $packages"
    echo "  (libxml2 and libcurl with their headers; xmlsec1 only for make clients)"
    # Enough for the build when pkg-config finds libxml2 and the curl headers are there.
    if pkg-config --exists libxml-2.0 2>/dev/null && [ -f /usr/include/curl/curl.h ]; then exit 0; fi
    exit 2
  fi
  missing=""
  for p in $packages; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
  [ -n "$missing" ] || exit 0
  echo "installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086 # one word per package
  apt-get update -qq && apt-get install -y -qq $missing || {
    echo "setup: apt-get could not install$missing (as root: apt-get install$missing)"
    exit 2
  }
}

# version_at_least WANT HAVE: HAVE (major.minor) is WANT or later.
version_at_least() {
  want_major=${1%%.*} want_minor=${1#*.} have_major=${2%%.*} have_minor=${2#*.}
  [ "$have_major" -gt "$want_major" ] 2>/dev/null && return 0
  [ "$have_major" -eq "$want_major" ] 2>/dev/null && [ "$have_minor" -ge "$want_minor" ] 2>/dev/null
}

macos() {
  problems=""
  missing() { problems="$problems
  - $1"; }
  # Package.swift's tools version is 6.0.
  swift_version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' | head -n 1)
  if [ -z "$swift_version" ] || ! version_at_least 6.0 "$swift_version"; then
    missing "Swift 6 or later (found: ${swift_version:-none}): Xcode 16 or later from the App Store, or a toolchain from swift.org"
  fi
  sdk=$(xcrun --show-sdk-path 2>/dev/null)
  if [ -z "$sdk" ] || [ ! -d "$sdk" ]; then
    missing "Xcode's command-line tools (the macOS SDK): xcode-select --install"
  else
    if pkg-config --exists libxml-2.0 2>/dev/null; then
      echo "setup: libxml2 from pkg-config ($(pkg-config --modversion libxml-2.0))"
    elif [ -f "$sdk/usr/include/libxml2/libxml/xmlversion.h" ]; then
      version=$(sed -n 's/^#define LIBXML_DOTTED_VERSION "\(.*\)"/\1/p' "$sdk/usr/include/libxml2/libxml/xmlversion.h")
      mkdir -p "$pkgconfig_dir" || exit 2
      # SwiftPM reads this file itself: no pkg-config program is needed.
      cat >"$pkgconfig_dir/libxml-2.0.pc" <<EOF
# Written by make setup (scripts/setup.sh): libxml2 of Xcode's SDK.
prefix=$sdk/usr
includedir=\${prefix}/include

Name: libxml-2.0
Description: libxml2 of the macOS SDK
Version: ${version:-2}
Libs: -lxml2
Cflags: -I\${includedir}/libxml2
EOF
      echo "setup: libxml2 from Xcode's SDK (${version:-unknown version}), described in $pkgconfig_dir/libxml-2.0.pc"
    else
      missing "libxml2's headers: none in the SDK at $sdk; brew install libxml2 pkg-config, then export PKG_CONFIG_PATH=\"\$(brew --prefix libxml2)/lib/pkgconfig\""
    fi
    [ -f "$sdk/usr/include/curl/curl.h" ] || missing "libcurl's headers: none in the SDK at $sdk (xcode-select --install), or brew install curl"
  fi
  # The scripts wait for the first of several jobs (`wait -n -p`): bash 5.1; macOS's own is 3.2.
  bash_version=$(bash -c 'echo "${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}"' 2>/dev/null)
  if [ -z "$bash_version" ] || ! version_at_least 5.1 "$bash_version"; then
    missing "bash 5.1 or later first on PATH (found: ${bash_version:-none}): brew install bash"
  fi
  python_version=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
  if [ -z "$python_version" ] || ! version_at_least 3.9 "$python_version"; then
    missing "Python 3.9 or later as python3 (found: ${python_version:-none}): xcode-select --install, or brew install python"
  fi
  for tool in curl openssl; do
    command -v "$tool" >/dev/null 2>&1 || missing "$tool: brew install $tool"
  done
  echo "setup: skipped on macOS: apt (Linux only), and Chromium (the reports' browser check runs on Linux)."
  echo "  make clients also needs xmlsec1: brew install libxmlsec1"
  if [ -n "$problems" ]; then
    echo "setup: this Mac is missing what make suite and make test need:$problems"
    exit 2
  fi
  echo "setup: this Mac has what make suite and make test need"
}

browser() {
  if [ "$system" != Linux ]; then
    echo "setup: skipped on $system: Chromium (Debian's package) for make report-check, Linux only"
    exit 0
  fi
  command -v chromium >/dev/null 2>&1 && exit 0
  echo "installing chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq chromium || {
    echo "setup: apt-get could not install chromium (as root: apt-get install chromium)"
    exit 2
  }
}

if [ "${1:-}" = --browser ]; then
  browser
  exit 0
fi
case $system in
  Linux) linux ;;
  Darwin) macos ;;
  *) echo "setup: no set-up for $system: Linux (apt) and macOS (Xcode) only; README.md lists what the build needs"; exit 2 ;;
esac
