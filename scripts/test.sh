#!/usr/bin/env bash
# Runs every test: cargo tests (through Maven), the bounded fuzz run, Java unit
# tests, the real Maven and Gradle integration builds, and scripts/demo.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

# Lints first, in a minute: clippy on every Rust target with warnings as
# errors, which makes the engine's #![warn(missing_docs)] (classfile/src/lib.rs)
# an error too: no undocumented public item there.
cargo clippy --quiet --workspace --all-targets -- -D warnings

# One Maven invocation builds the native core, runs `cargo test`, builds and tests
# the runtime and both plugins, installs them, then runs the integration builds.
"${MVN[@]}" install

# The README's main command, on what that install just put in the local repository:
# a broken demo fails the test command.
scripts/demo.sh --no-install

# The enhancement benchmark and its ASM baseline still build: their figures
# come from bench/enhance/run.sh, but nothing else compiles them.
CARGO_TARGET_DIR=bench/enhance/target/check cargo check --quiet --manifest-path bench/enhance/rust/Cargo.toml
"${MVN[@]}" -q -f bench/enhance/asm/pom.xml compile

# The class-file reader and writer under libFuzzer, bounded.
scripts/fuzz.sh 60
