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

if [ ! -d "$classes" ]; then
    echo "extracting java.base from $jdk17/lib/modules into $here/target/jdk17"
    mkdir -p "$here/target/jdk17"
    # The JDK 17 jimage reads its own image; fall back to the newer one.
    "$jdk17/bin/jimage" extract --dir "$here/target/jdk17" --include 'regex:/java.base/.*' "$jdk17/lib/modules" 2>/dev/null \
        || "$jimage" extract --dir "$here/target/jdk17" --include 'regex:/java.base/.*' "$jdk17/lib/modules"
fi

echo "building the TF benchmark (release)"
CARGO_TARGET_DIR="$here/target/rust" cargo build --quiet --release --manifest-path "$here/rust/Cargo.toml"
echo "building the ASM baseline"
mvn -q -B -f "$here/asm/pom.xml" package

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
log="$here/target/last-run.txt"
{
    "$here/target/rust/release/tf-enhance-bench" "$classes" --passes "$passes" --threads 1,2 --general --cold
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
