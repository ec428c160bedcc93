#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build of passim's three libFuzzer targets (docs/FUZZING.md, "libFuzzer targets").
# In the builder image, `precompile_swift` sets SWIFTFLAGS for $SANITIZER (libFuzzer plus ASan, or
# coverage). Outside it (verifying this script on a development machine) the same flags are set here.
# Each target goes to $OUT with its seed corpus (<target>_seed_corpus.zip) and the shared libraries
# it needs that a runner image may lack (libxml2), found through an $ORIGIN rpath.
# Run from the package root (the builder image's WORKDIR).
[ -f Package.swift ] || { echo "run build.sh from the package root" >&2; exit 2; }
: "${OUT:?set OUT to where the fuzzers go}"
SANITIZER="${SANITIZER:-address}"
if command -v precompile_swift >/dev/null 2>&1; then
  . precompile_swift
else
  SWIFTFLAGS="-Xswiftc -parse-as-library"
  if [ "$SANITIZER" = coverage ]; then
    SWIFTFLAGS="$SWIFTFLAGS -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping -Xswiftc -sanitize=fuzzer"
  else
    SWIFTFLAGS="$SWIFTFLAGS -Xswiftc -sanitize=fuzzer,$SANITIZER"
  fi
fi
# FUZZING: each target exports LLVMFuzzerTestOneInput and no main (the replayer is left out).
# SwiftPM's own --sanitize=fuzzer as well: without it SwiftPM links an executable target's renamed
# entry point (<target>_main), which a target without main does not have (seen with Swift 6.3).
SPMFLAGS="--sanitize=fuzzer"
[ "$SANITIZER" = coverage ] || SPMFLAGS="$SPMFLAGS --sanitize=$SANITIZER"
SCRATCH="${SCRATCH:-.build-fuzz}"
mkdir -p "$OUT/lib"
for target in FuzzScenarioParser FuzzPassXML FuzzMockRequest; do
  # shellcheck disable=SC2086
  swift build -c release --product "$target" $SWIFTFLAGS $SPMFLAGS -Xswiftc -DFUZZING --scratch-path "$SCRATCH" \
    -Xlinker -rpath -Xlinker '$ORIGIN/lib'
  cp "$SCRATCH/release/$target" "$OUT/"
  # Swift's lazily made globals (a `static let` table) are never freed, and LeakSanitizer reports
  # them at exit (FuzzScenarioParser: 792 bytes in Constants.all): not leaks per input.
  printf '[libfuzzer]\ndetect_leaks=0\n[asan]\ndetect_leaks=0\n' > "$OUT/$target.options"
done
# libxml2 and what it pulls in that is not in every runner image.
for lib in $(ldd "$OUT/FuzzPassXML" | awk '/libxml2|libicu|liblzma/ {print $3}'); do cp -L "$lib" "$OUT/lib/"; done
# Seed corpora: the suite for the parser, the XML samples (good and hostile), the recorded requests.
# Files are named after their path (two folders may hold files of one name).
corpus() {
  local name=$1 dir; shift; dir=$(mktemp -d)
  for f in "$@"; do cp "$f" "$dir/$(echo "$f" | tr '/' '_')"; done
  rm -f "$OUT/${name}_seed_corpus.zip"; (cd "$dir" && zip -q "$OUT/${name}_seed_corpus.zip" ./*); rm -rf "$dir"
}
corpus FuzzScenarioParser $(find Scenarios -name '*.scenario')
corpus FuzzPassXML $(find Fixtures/xml -type f)
corpus FuzzMockRequest $(find Fixtures/requests -type f)
