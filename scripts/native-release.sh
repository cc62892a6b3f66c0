#!/usr/bin/env bash
# Builds the release tf-core (the JNI library and the CLI) that the Maven build
# packages, optimized with a profile of its own work (PGO): an instrumented
# tf-enhance enhances a training corpus, every method monitored, and the
# release build uses what it recorded. The corpus is two JDK modules, java.xml
# and jdk.compiler, so that bench/enhance (java.base) does not measure the
# classes it was trained on. PGO takes a sixth off the benchmark's time and a
# tenth off a CLI run over java.base (bench/enhance/README.md), and changes no
# output byte. When llvm-bolt is there (scripts/llvm-bolt.sh), the linked
# library and CLI are then laid out by a profile of the same training (BOLT):
# the library trained through its C ABI (scripts/bolt-train.c), the CLI
# directly. A failed layout keeps the profile-guided build, said loudly.
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

source scripts/llvm-bolt.sh
if [ -z "$llvm_bolt" ]; then
  echo "native-release: no llvm-bolt-$llvm_major: profile-guided, not laid out (scripts/setup.sh installs it)" >&2
  RUSTFLAGS="-Cprofile-use=$profile" exec cargo build --release -p tf-core --target-dir "$target"
fi
RUSTFLAGS="-Cprofile-use=$profile $bolt_link_flags" cargo build --release -p tf-core --target-dir "$target"

# The layout. Cargo links its outputs into release/ again at every build,
# fresh or not, so the laid-out copy is kept beside the profile, under the hash
# of the binary it was made from, and laid out again only when that changes.
# A laid-out binary must enhance the training corpus to the same bytes as the
# plain CLI; if not, the plain binary stays.
library="$target/release/libtf_core.so" cli="$target/release/tf-enhance"
kept="$pgo/bolt" train="$pgo/bolt-train" plain_output="$pgo/plain-output"
by_cli() { "$1" -dir "$2" -rf "$2/tfannotations.properties" -filter '**' -threads 1 >/dev/null; }
by_library() { LD_LIBRARY_PATH="$(dirname "$1")" "$train" "$2" "$2/tfannotations.properties"; }
enhance_corpus() { # BY BINARY OUT
  rm -rf "$3" && cp -r "$pgo/corpus" "$3" && "$1" "$2" "$3"
}
lay_out() { # BY BINARY
  local by="$1" binary="$2" copy="$kept/$(basename "$2")" hash
  hash="$(sha256sum <"$binary" | cut -d' ' -f1)" || return 1
  if [ -f "$copy" ] && [ "$(cat "$copy.source-sha256" 2>/dev/null)" = "$hash" ]; then
    cp "$copy" "$binary.laid-out" && mv -f "$binary.laid-out" "$binary"
    return
  fi
  echo "native-release: laying out $(basename "$binary") (BOLT, trained on $(find "$pgo/corpus" -name '*.class' | wc -l) JDK classes)" >&2
  [ -d "$plain_output" ] || enhance_corpus by_cli "$cli.plain" "$plain_output" || return 1
  rm -rf "$pgo/work" && cp -r "$pgo/corpus" "$pgo/work" && cp "$binary" "$binary.plain" || return 1
  bolt_layout "$binary" "$by" {} "$pgo/work" || return 1
  if ! enhance_corpus "$by" "$binary" "$pgo/check" || ! diff -r -q "$plain_output" "$pgo/check" >/dev/null; then
    echo "native-release: laid out, $(basename "$binary") enhances the corpus differently" >&2
    mv -f "$binary.plain" "$binary"
    return 1
  fi
  rm -f "$binary.plain" && mkdir -p "$kept" && cp "$binary" "$copy" && echo "$hash" >"$copy.source-sha256"
}
if ! bolt_laid_out "$library" || ! bolt_laid_out "$cli"; then
  if ! cc -O2 -I rust-core/include -o "$train" scripts/bolt-train.c -L "$target/release" -ltf_core; then
    echo "native-release: no C compiler for the library's training: not laid out" >&2
    exit 0
  fi
  rm -rf "$plain_output" && cp "$cli" "$cli.plain"
  bolt_laid_out "$library" || lay_out by_library "$library" \
    || echo "native-release: the library stays profile-guided, not laid out" >&2
  bolt_laid_out "$cli" || lay_out by_cli "$cli" \
    || echo "native-release: the CLI stays profile-guided, not laid out" >&2
  rm -rf "$pgo/work" "$pgo/check" "$plain_output" "$cli.plain"
fi
