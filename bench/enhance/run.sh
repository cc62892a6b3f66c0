#!/usr/bin/env bash
# Enhancement throughput: TF (tf-core, 1 and 2 threads) against the ASM 9
# baseline (1 thread, warm JVM) on the JDK 17 java.base classes, -filter '**'.
#   bench/enhance/run.sh [PASSES]      (default 7 timed passes each)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
passes="${1:-7}"
jdk17="${JDK17_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
jimage="${JIMAGE:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/jimage}"
classes="$here/target/jdk17/java.base"

# java.base is measured; java.xml and jdk.compiler train the profile-guided build.
extract() { # DIR MODULE-REGEX
    [ -d "$1" ] && return
    echo "extracting $2 from $jdk17/lib/modules into $1"
    mkdir -p "$1"
    # The JDK 17 jimage reads its own image; fall back to the newer one.
    "$jdk17/bin/jimage" extract --dir "$1" --include "regex:/($2)/.*" "$jdk17/lib/modules" 2>/dev/null \
        || "$jimage" extract --dir "$1" --include "regex:/($2)/.*" "$jdk17/lib/modules"
}
extract "$here/target/jdk17" 'java\.base'
extract "$here/target/pgo/corpus" 'java\.xml|jdk\.compiler'

# The shipped library is built with a profile (scripts/native-release.sh);
# so is the benchmark, trained the same way on the same two modules (its
# own binary: a profile names functions by crate hashes that differ between
# workspaces). TF_BENCH_PGO=0 measures a build without one.
source "$here/../../scripts/llvm-profdata.sh"
[ "${TF_BENCH_PGO:-1}" = 1 ] && install_llvm_profdata
profdata="$llvm_profdata"
pgo="$here/target/pgo"
if [ "${TF_BENCH_PGO:-1}" = 1 ] && [ -n "$profdata" ]; then
    echo "building the TF benchmark instrumented, training it on $(find "$pgo/corpus" -name '*.class' | wc -l) classes"
    rm -rf "$pgo/raw"
    RUSTFLAGS="-Cprofile-generate=$pgo/build-scripts" CARGO_TARGET_DIR="$here/target/rust-instrumented" \
        cargo build --quiet --release --manifest-path "$here/rust/Cargo.toml"
    LLVM_PROFILE_FILE="$pgo/raw/bench-%p.profraw" \
        "$here/target/rust-instrumented/release/tf-enhance-bench" "$pgo/corpus" --passes 3 --threads 1 --cold >/dev/null
    "$profdata" merge -o "$pgo/bench.profdata" "$pgo/raw"
    echo "building the TF benchmark (release, profile-guided)"
    RUSTFLAGS="-Cprofile-use=$pgo/bench.profdata" CARGO_TARGET_DIR="$here/target/rust-pgo" \
        cargo build --quiet --release --manifest-path "$here/rust/Cargo.toml"
    tf_bench="$here/target/rust-pgo/release/tf-enhance-bench"
    echo "TF build: profile-guided"
else
    echo "building the TF benchmark (release, no profile: ${profdata:+TF_BENCH_PGO=0}${profdata:-no llvm-profdata-$llvm_major})"
    CARGO_TARGET_DIR="$here/target/rust" cargo build --quiet --release --manifest-path "$here/rust/Cargo.toml"
    tf_bench="$here/target/rust/release/tf-enhance-bench"
    echo "TF build: without a profile"
fi
echo "building the ASM baseline"
mvn -q -B -f "$here/asm/pom.xml" package

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
log="$here/target/last-run.txt"
{
    "$tf_bench" "$classes" --passes "$passes" --threads 1,2 --general --cold
    "$jdk17/bin/java" -cp "$here/asm/target/classes:$(cat "$here/asm/target/classpath.txt")" \
        org.tracingfacility.bench.asm.AsmBaselineBenchmark "$classes" --warmup 5 --passes "$passes"
} | tee "$log"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# The comparison table, from the RESULT lines.
awk '
/^RESULT/ {
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    label = toupper($2) " " v["threads"] " thread" (v["threads"] > 1 ? "s" : "")
    rows[++n] = sprintf("%-16s %10s %8s %9s %8s %7s", label, v["classes_per_s"], v["mb_per_s"], v["enhanced"], v["failed"], v["median_ms"])
    cps[$2 v["threads"]] = v["classes_per_s"]
}
END {
    printf "\n%-16s %10s %8s %9s %8s %7s\n", "enhancer", "classes/s", "MB/s", "enhanced", "failed", "ms"
    for (i = 1; i <= n; i++) print rows[i]
    if (cps["asm1"] > 0) printf "\nTF/ASM, one thread: %.2fx (target: 3x)\n", cps["tf1"] / cps["asm1"]
    if (cps["tf1"] > 0) printf "TF 2 threads / 1 thread: %.2fx\n", cps["tf2"] / cps["tf1"]
    if (cps["tf-general1"] > 0) printf "TF spliced / general path, one thread: %.2fx\n", cps["tf1"] / cps["tf-general1"]
    if (cps["tf-cold1"] > 0 && cps["asm1"] > 0) printf "TF/ASM, one thread, templates made in every pass (a first build): %.2fx\n", cps["tf-cold1"] / cps["asm1"]
}' "$log"
