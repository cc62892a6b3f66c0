#!/usr/bin/env bash
# Start-up cost of the TF agent on a real application with thousands of classes
# (Maven itself), against the OpenTelemetry Java agent (issue 32, item 6):
#   mvn -v, and a small offline build (project/: clean compile of one class),
# each run with MAVEN_OPTS empty, with -javaagent:tf-agent.jar=filter=org.apache.maven.**
# and with -javaagent:opentelemetry-javaagent.jar (exporters off); rounds
# interleaved, medians, the time each agent adds, and TF's per enhanced class.
#   bench/agent/run.sh [ROUNDS]          (default 11)
# Needs agent/target/tf-agent-*.jar (mvn -pl agent -am package -DskipTests) or
# TF_AGENT_JAR. The OpenTelemetry agent comes from Maven Central through mvn.
# Work directory: $TF_AGENT_BENCH_DIR (default /tmp/tf-agent-bench).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rounds="${1:-11}"
work="${TF_AGENT_BENCH_DIR:-/tmp/tf-agent-bench}"
repo="${TF_BENCH_M2:-$HOME/.m2/repository}"
otel_version=2.33.1
mkdir -p "$work"

tf_jar="${TF_AGENT_JAR:-$(ls "$root"/agent/target/tf-agent-*.jar 2>/dev/null | grep -v original- | head -1 || true)}"
[ -f "$tf_jar" ] || { echo "no tf-agent jar: mvn -pl agent -am package -DskipTests, or set TF_AGENT_JAR" >&2; exit 2; }
otel_jar="$work/opentelemetry-javaagent-$otel_version.jar"
if [ ! -f "$otel_jar" ]; then
    mvn -B -q --no-transfer-progress -Dmaven.repo.local="$repo" dependency:copy \
        -Dartifact=io.opentelemetry.javaagent:opentelemetry-javaagent:$otel_version \
        -DoutputDirectory="$work" >/dev/null
fi
rm -rf "$work/project"
cp -r "$here/project" "$work/project"

declare -A opts
opts[none]=""
opts[tf]="-javaagent:$tf_jar=filter=org.apache.maven.**"
opts[otel]="-javaagent:$otel_jar -Dotel.traces.exporter=none -Dotel.metrics.exporter=none -Dotel.logs.exporter=none"
configs=(none tf otel)

# ms CONFIG ARGS...: runs mvn ARGS under CONFIG's MAVEN_OPTS, prints its wall time in ms.
ms() {
    local config=$1 start end
    shift
    start=$(date +%s%N)
    MAVEN_OPTS="${opts[$config]}" mvn "$@" >/dev/null 2>&1 || { echo "mvn $* failed under $config" >&2; exit 1; }
    end=$(date +%s%N)
    echo $(( (end - start) / 1000000 ))
}
build=(-B -q -o -Dmaven.repo.local="$repo" -f "$work/project/pom.xml" clean compile)

# Warm-up, not timed: plugins into the local repository, each agent's caches
# (TF's native library and runtime jar; the file system's).
mvn -B -q --no-transfer-progress -Dmaven.repo.local="$repo" -f "$work/project/pom.xml" clean compile >/dev/null
for config in "${configs[@]}"; do
    ms "$config" -v >/dev/null
    ms "$config" "${build[@]}" >/dev/null
done

declare -A times
for ((r = 1; r <= rounds; r++)); do
    for config in "${configs[@]}"; do
        times[$config,version]+="$(ms "$config" -v) "
        times[$config,build]+="$(ms "$config" "${build[@]}") "
    done
    echo "round $r/$rounds done" >&2
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2] + a[NR/2+1]) / 2)}'; }

# How many classes TF enhanced in each run (its summary line with verbose).
classes_of() {
    MAVEN_OPTS="-javaagent:$tf_jar=filter=org.apache.maven.**,verbose" mvn "$@" 2>&1 >/dev/null \
        | sed -n 's/^.*TF agent: \([0-9]*\) classes enhanced.*/\1/p' | tail -1
}
MAVEN_OPTS="-javaagent:$tf_jar=filter=org.apache.maven.**,verbose" mvn -v 2>&1 | grep '^TF agent: [0-9]' || true
classes_version=$(classes_of -v)
classes_build=$(classes_of "${build[@]}")

echo
echo "Maven start-up with agents, median of $rounds interleaved rounds (ms); machine: $(nproc) cores, $(uname -r)"
printf '%-8s %10s %10s %10s %10s %10s %14s\n' run none TF OTel "TF adds" "OTel adds" "TF/OTel added"
for run in version build; do
    none=$(echo "${times[none,$run]}" | median)
    tf=$(echo "${times[tf,$run]}" | median)
    otel=$(echo "${times[otel,$run]}" | median)
    printf '%-8s %10s %10s %10s %10s %10s %14s\n' "$run" "$none" "$tf" "$otel" $((tf - none)) $((otel - none)) \
        "$(awk -v a=$((tf - none)) -v b=$((otel - none)) 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')"
done
for run in version build; do
    none=$(echo "${times[none,$run]}" | median)
    tf=$(echo "${times[tf,$run]}" | median)
    classes=$([ $run = version ] && echo "$classes_version" || echo "$classes_build")
    echo "$run: TF enhanced ${classes:-?} classes; $(awk -v a=$((tf - none)) -v n="${classes:-0}" 'BEGIN { if (n > 0) printf "%.2f ms", a / n; else print "?" }') added per enhanced class"
done
echo "raw (ms): $(for k in "${!times[@]}"; do echo "$k=[${times[$k]% }]"; done | sort | tr '\n' ' ')"
