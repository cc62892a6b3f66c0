#!/usr/bin/env bash
# Builds the release tf-core (the JNI library and the CLI) that the Maven build
# packages, optimized with a profile of its own work (PGO): an instrumented
# tf-enhance enhances a training corpus, every method monitored, and the
# release build uses what it recorded. The corpus is two JDK modules, java.xml
# and jdk.compiler, so that bench/enhance (java.base) does not measure the
# classes it was trained on. PGO takes a sixth off the benchmark's time and a
# tenth off a CLI run over java.base (bench/enhance/README.md), and changes no
# output byte.
#
# Without llvm-profdata for rustc's LLVM (scripts/setup.sh installs it) or
# without a JDK's jimage, it says why and builds without a profile.
#   scripts/native-release.sh TARGET_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p "${1:?usage: scripts/native-release.sh TARGET_DIR}"
target="$(cd "$1" && pwd)"
pgo="$target/pgo"
profile="$pgo/tf-core.profdata"

without_profile() {
  echo "native-release: $1: building without a profile (no PGO)" >&2
  exec cargo build --release -p tf-core --target-dir "$target"
}

source scripts/llvm-profdata.sh
profdata="$llvm_profdata"
[ -n "$profdata" ] || without_profile "no llvm-profdata-$llvm_major (rustc's LLVM is $llvm_major)"
javac_path="$(command -v javac || true)"
[ -n "$javac_path" ] || without_profile "no JDK (javac) on the PATH"
jdk="$(dirname "$(dirname "$(readlink -f "$javac_path")")")"
[ -x "$jdk/bin/jimage" ] || without_profile "no jimage in $jdk"

# The training: two JDK modules, every method monitored, one thread. (Each
# step checks itself: errexit does not hold in a function called before `||`.)
record_profile() {
  local corpus="$pgo/corpus"
  if [ ! -d "$corpus/java.xml" ]; then
    rm -rf "$corpus" && mkdir -p "$corpus" || return 1
    "$jdk/bin/jimage" extract --dir "$corpus" --include 'regex:/(java\.xml|jdk\.compiler)/.*' "$jdk/lib/modules" \
      || { rm -rf "$corpus"; return 1; }
  fi
  echo "native-release: recording a profile (instrumented tf-enhance on $(find "$corpus" -name '*.class' | wc -l) JDK classes)" >&2
  rm -rf "$pgo/raw" "$pgo/work" || return 1
  # Build scripts run instrumented too; LLVM_PROFILE_FILE keeps the training
  # run's profile apart from theirs.
  RUSTFLAGS="-Cprofile-generate=$pgo/build-scripts" \
    cargo build --release -p tf-core --bin tf-enhance --target-dir "$pgo/instrumented" || return 1
  cp -r "$corpus" "$pgo/work" || return 1
  LLVM_PROFILE_FILE="$pgo/raw/tf-enhance-%p.profraw" \
    "$pgo/instrumented/release/tf-enhance" -dir "$pgo/work" -rf "$pgo/work/tfannotations.properties" \
      -filter '**' -threads 1 >/dev/null || return 1
  "$profdata" merge -o "$profile.new" "$pgo/raw" && mv "$profile.new" "$profile" || return 1
  rm -rf "$pgo/work"
}

# A profile is recorded again when a source is newer than it: a stale one
# still builds, but optimizes code it no longer describes.
sources=(classfile/src classfile/Cargo.toml rust-core/src rust-core/Cargo.toml Cargo.toml Cargo.lock)
if [ ! -f "$profile" ] || [ -n "$(find "${sources[@]}" -newer "$profile" -print -quit)" ]; then
  # A failed training costs speed, not correctness: said loudly, then built without.
  record_profile || without_profile "recording the profile failed (see above)"
fi

RUSTFLAGS="-Cprofile-use=$profile" exec cargo build --release -p tf-core --target-dir "$target"
