#!/usr/bin/env bash
# Installs what a fresh machine of this kind lacks. Sourced by demo.sh and test.sh;
# every step is skipped when its tool is already there.
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# The only Gradle engine these machines can install: Debian's (4.4.1, Groovy DSL).
if ! command -v gradle >/dev/null 2>&1; then
  echo "setup: installing Debian's gradle package"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gradle >/dev/null
fi

# The real backends of the monitor tests (monitors/): Prometheus scrapes the Micrometer
# monitor's metrics, headless Chromium draws the profile's flame graph. (Zipkin's server
# comes from Maven Central with the build.)
missing_packages=()
command -v prometheus >/dev/null 2>&1 || missing_packages+=(prometheus)
command -v chromium >/dev/null 2>&1 || missing_packages+=(chromium)
if [ "${#missing_packages[@]}" -gt 0 ]; then
  echo "setup: installing Debian's ${missing_packages[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing_packages[@]}" >/dev/null
fi

# llvm-profdata of rustc's own LLVM: the release build optimizes tf-core with a
# profile of a training run (scripts/native-release.sh).
source "$(dirname "${BASH_SOURCE[0]}")/llvm-profdata.sh"
install_llvm_profdata

# cargo-fuzz runs the class-file fuzz target (bounded) in the test command.
if ! command -v cargo-fuzz >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/cargo-fuzz" ]; then
  echo "setup: installing cargo-fuzz"
  cargo install --locked cargo-fuzz
fi
export PATH="$HOME/.cargo/bin:$PATH"

# JDK 25 (javac 25 fixtures, JFR method timing) is part of the machine image.
export TF_JDK25_HOME="${TF_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if [ ! -x "$TF_JDK25_HOME/bin/javac" ]; then
  echo "setup: no JDK 25 at $TF_JDK25_HOME (set TF_JDK25_HOME)" >&2
  exit 1
fi

# The local Maven repository every build of the scripts uses (TF_MAVEN_REPOSITORY moves
# it, e.g. to keep a CI job's artifacts apart); Gradle's mavenLocal() is pointed there too.
MAVEN_REPOSITORY="${TF_MAVEN_REPOSITORY:-$HOME/.m2/repository}"
MVN=(mvn -B --no-transfer-progress "-Dmaven.repo.local=$MAVEN_REPOSITORY")
