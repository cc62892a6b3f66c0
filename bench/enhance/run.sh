#!/usr/bin/env bash
# Enhancement throughput: TF (tf-core, 1 and 2 threads) against the ASM 9
# baseline (1 thread, warm JVM) on the JDK 17 java.base classes, -filter '**'.
#   bench/enhance/run.sh [PASSES] [ROUNDS]
# PASSES timed passes per measurement (default 7). TF on one thread and ASM
# are measured in ROUNDS rounds (default 5): in each, a TF process and an ASM
# JVM of its own (a JVM's compiled code differs from one start to the next)
# warm up side by side, then their timed passes alternate, each TF pass
# paired with the ASM pass next to it: the machine's speed drifts over
# seconds, so a pair's two passes see the same machine. A round's ratio is
# the median of its pairs' ratios; the median of the rounds' is reported.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
passes="${1:-7}"
rounds="${2:-5}"
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

# Waits for a paced benchmark (reading fd $1) to finish its warm-up, passing
# on what it prints before.
until_ready() {
    local line
    while IFS= read -r -u "$1" line; do
        [ "$line" = READY ] && return 0
        echo "$line"
    done
    echo "run.sh: a benchmark ended before its warm-up did" >&2
    return 1
}

# One timed pass of a paced benchmark (writing fd $1, reading fd $2): its ms.
one_pass() {
    local line
    echo go >&"$1"
    IFS= read -r -u "$2" line && [[ "$line" == "PASS ms="* ]] || { echo "run.sh: no pass time, got '$line'" >&2; return 1; }
    echo "${line#PASS ms=}"
}

# One round: TF and ASM started side by side, then their passes alternated
# (TF first in odd pairs, ASM in even ones, so that neither always follows).
paced_round() {
    local fifos tf asm i
    fifos="$(mktemp -d)"
    mkfifo "$fifos/tf.in" "$fifos/tf.out" "$fifos/asm.in" "$fifos/asm.out"
    "$tf_bench" "$classes" --passes "$passes" --threads 1 --paced <"$fifos/tf.in" >"$fifos/tf.out" &
    local tf_pid=$!
    "$jdk17/bin/java" -cp "$here/asm/target/classes:$(cat "$here/asm/target/classpath.txt")" \
        org.tracingfacility.bench.asm.AsmBaselineBenchmark "$classes" --warmup 5 --passes "$passes" --paced \
        <"$fifos/asm.in" >"$fifos/asm.out" &
    local asm_pid=$!
    exec 3>"$fifos/tf.in" 4<"$fifos/tf.out" 5>"$fifos/asm.in" 6<"$fifos/asm.out"
    until_ready 4
    until_ready 6
    for i in $(seq "$passes"); do
        if (( i % 2 )); then
            tf="$(one_pass 3 4)"; asm="$(one_pass 5 6)"
        else
            asm="$(one_pass 5 6)"; tf="$(one_pass 3 4)"
        fi
        echo "PAIR tf_ms=$tf asm_ms=$asm"
    done
    exec 3>&- 5>&-
    cat <&4
    cat <&6
    exec 4<&- 6<&-
    wait "$tf_pid"
    wait "$asm_pid"
    rm -rf "$fifos"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
log="$here/target/last-run.txt"
{
    "$tf_bench" "$classes" --passes "$passes" --threads 2 --general --cold
    for round in $(seq "$rounds"); do
        echo "round $round of $rounds"
        paced_round
    done
} | tee "$log"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# The comparison table, from the RESULT lines: each row's median over its
# measurements; TF/ASM from the PAIR lines, as the median of the rounds'
# ratios, each the median of its pairs' ratios.
awk '
function close_round() {
    if (pairs > 0) ratio[++rounds] = median(pair, pairs)
    pairs = 0
}
/^round / { close_round() }
/^PAIR/ { split($2, t, "="); split($3, a, "="); if (t[2] > 0) pair[++pairs] = a[2] / t[2] }
function median(list, n,    sorted, i, j, t) {
    for (i = 1; i <= n; i++) sorted[i] = list[i]
    for (i = 2; i <= n; i++) for (j = i; j > 1 && sorted[j - 1] > sorted[j]; j--) { t = sorted[j]; sorted[j] = sorted[j - 1]; sorted[j - 1] = t }
    return n % 2 ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
}
/^RESULT/ {
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    key = $2 v["threads"]
    ms[key, ++count[key]] = v["median_ms"]
    classes = v["classes"]; megabytes = v["classes"] / v["classes_per_s"] * v["mb_per_s"]
    enhanced[key] = v["enhanced"]; failed[key] = v["failed"]
}
END {
    close_round()
    label["tf1"] = "TF 1 thread"; label["tf2"] = "TF 2 threads"; label["tf-general1"] = "TF general path, 1 thread"
    label["tf-cold1"] = "TF first build, 1 thread"; label["asm1"] = "ASM 1 thread"
    printf "\n%-26s %10s %8s %9s %7s %7s %5s\n", "enhancer", "classes/s", "MB/s", "enhanced", "failed", "ms", "runs"
    split("tf1 tf2 tf-general1 tf-cold1 asm1", order, " ")
    for (r = 1; r <= 5; r++) {
        key = order[r]
        if (!(key in count)) continue
        for (i = 1; i <= count[key]; i++) list[i] = ms[key, i]
        m[key] = median(list, count[key])
        printf "%-26s %10.0f %8.1f %9s %7s %7.1f %5d\n", label[key], classes / m[key] * 1000, megabytes / m[key] * 1000, enhanced[key], failed[key], m[key], count[key]
    }
    if (rounds > 0) {
        line = ""; above = 0
        for (i = 1; i <= rounds; i++) { line = line sprintf(" %.3fx", ratio[i]); if (ratio[i] >= 3) above++ }
        printf "\nTF/ASM, one thread: %.2fx, median of %d rounds of paired passes (target: 3x)\n", median(ratio, rounds), rounds
        printf "  the rounds:%s; %d of %d at 3x or more\n", line, above, rounds
    }
    if (m["tf1"] > 0 && m["tf2"] > 0) printf "TF 2 threads / 1 thread: %.2fx\n", m["tf1"] / m["tf2"]
    if (m["tf-general1"] > 0) printf "TF spliced / general path, one thread: %.2fx\n", m["tf-general1"] / m["tf1"]
    if (m["tf-cold1"] > 0 && m["asm1"] > 0) printf "TF/ASM, one thread, templates made in every pass (a first build): %.2fx\n", m["asm1"] / m["tf-cold1"]
}' "$log"
