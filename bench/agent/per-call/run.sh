#!/usr/bin/env bash
# Per-call cost of tracing added to a running JVM: TF (java -jar tf-agent.jar <pid> start)
# against JDK 25's JFR method timing (jcmd <pid> JFR.start method-timing=...), on the same
# method, in the same JVM, in one run; each phase measured after the previous one was undone.
#
#   mvn -B -pl agent -am package -DskipTests      # builds agent/target/tf-agent-*.jar
#   bench/agent/per-call/run.sh [repeats]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
jdk="${TF_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
agent="$(ls "$root"/agent/target/tf-agent-*.jar | grep -v -e sources -e original | head -1)"
repeats="${1:-2}"
method='bench.Work::work'

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$jdk/bin/javac" -d "$work" "$here/PerCall.java"

# TARGET_OPTS: more options of the target JVM, e.g. --add-exports=jdk.jfr/jdk.jfr.internal=ALL-UNNAMED
# (TF's timing then reads JFR's tick counter instead of System.nanoTime()).
coproc TARGET { exec "$jdk/bin/java" ${TARGET_OPTS:-} -XX:+EnableDynamicAgentLoading -Dtf.native.dir="$work/native" -cp "$work" bench.PerCall 2>"$work/target.err"; }
read -r ready pid <&"${TARGET[0]}"
[ "$ready" = ready ] || { echo "target did not start"; cat "$work/target.err"; exit 1; }

measure() { echo "measure $1" >&"${TARGET[1]}"; read -r line <&"${TARGET[0]}"; echo "$line"; }
tf() { "$jdk/bin/java" -jar "$agent" "$pid" "$@" >/dev/null; }
jfr() { "$jdk/bin/jcmd" "$pid" "$@" >/dev/null; }

echo "JDK: $("$jdk/bin/java" -version 2>&1 | head -1); $(nproc) cores; method $method"
for round in $(seq "$repeats"); do
  measure "untraced"
  tf start "filter=$method" monitor=Filtered=timing
  measure "TF timing (attached)"
  tf stop
  measure "untraced after TF stop"
  jfr JFR.start name=pc "method-timing=$method"
  measure "JFR method timing"
  jfr JFR.stop name=pc
  measure "untraced after JFR stop"
  tf start "filter=$method" monitor=Filtered=noOp
  measure "TF noOp (attached)"
  tf stop
done
echo exit >&"${TARGET[1]}"
wait
