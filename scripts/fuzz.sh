#!/usr/bin/env bash
# Runs the class-file round-trip fuzz target for $1 seconds (default 60):
# parse, write, parse again, compare; any panic or mismatch fails.
set -euo pipefail
cd "$(dirname "$0")/../rust-core"
seconds="${1:-60}"
toolchain=+nightly
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  # No nightly here: let stable accept the -Z flags cargo-fuzz needs.
  toolchain=""
  export RUSTC_BOOTSTRAP=1
fi
# New inputs go to a scratch directory; the kept corpus and the seeds are read only.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cargo $toolchain fuzz run classfile_roundtrip "$scratch" fuzz/corpus/classfile_roundtrip tests/fixtures/classfile/seeds \
  -- -max_total_time="$seconds" -rss_limit_mb=2048
echo "fuzz: classfile_roundtrip ran ${seconds}s with no failure"
