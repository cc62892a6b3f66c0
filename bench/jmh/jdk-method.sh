#!/bin/sh
# A JDK method traced by TF against the same method untraced and under JFR method timing
# (issue 47, item 7): JdkMethodBenchmark.bitSetGet (java.util.BitSet::get) in forks started
#   untraced   as is
#   tfOff      -javaagent:tf-agent.jar=filter=java.util.BitSet::get        (traced, no monitor)
#   tfTiming   -javaagent:tf-agent.jar=filter=java.util.BitSet::get,monitor=Filtered=timing
#   jfrTiming  -XX:StartFlightRecording:method-timing=java.util.BitSet::get  (JEP 520)
#   tfCalls, tfProfile (only when CONFIGS names them) the same under `calls` and `profile`
# one fork of each per round, ROUNDS rounds (default 5), interleaved so that the load of a
# shared machine falls on all alike. Prints "round,config,ns/op" lines, then the medians and
# the ratios asked for: tfOff / untraced (target <= 1.05), and the overheads over untraced of
# tfTiming and jfrTiming with their ratio. With TF_BASELINE_AGENT_JAR set (another build of the
# agent, say main's), baseOff and baseTiming run that jar the same way in the same rounds, for a
# before/after on one machine state. A fork that finds another JMH run holding its lock
# (/tmp/jmh.lock: a shared machine) waits for it and tries again.
#   mvn -B -Pbench -pl bench/jmh -am package -DskipTests; mvn -B -pl agent -am package -DskipTests
#   cd bench/jmh && ./jdk-method.sh
JAVA=${JAVA:-${TF_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java}
ROUNDS=${ROUNDS:-5}
here=$(cd "$(dirname "$0")" && pwd)
AGENT=${TF_AGENT_JAR:-$(ls "$here"/../../agent/target/tf-agent-*.jar | grep -v -e original -e sources | head -1)}
[ -f "$AGENT" ] || { echo "no tf-agent jar: mvn -pl agent -am package -DskipTests, or set TF_AGENT_JAR" >&2; exit 2; }
BASE=${TF_BASELINE_AGENT_JAR:-}
[ -z "$BASE" ] || [ -f "$BASE" ] || { echo "TF_BASELINE_AGENT_JAR: no such file: $BASE" >&2; exit 2; }
configs="untraced tfOff tfTiming jfrTiming"
[ -z "$BASE" ] || configs="untraced tfOff baseOff tfTiming baseTiming jfrTiming"
# CONFIGS="untraced tfOff baseOff": those alone (the summary then names only what ran).
configs=${CONFIGS:-$configs}
method=java.util.BitSet::get
csv=$(mktemp /tmp/tf-jdk-method.XXXXXX.csv)
out=$(mktemp /tmp/tf-jdk-method.XXXXXX.txt)
trap 'rm -f "$csv" "$out"' EXIT
for round in $(seq 1 "$ROUNDS"); do
  for config in $configs; do
    case $config in
      untraced) args="-Dtf.none=1" ;;
      tfOff) args="-javaagent:$AGENT=filter=$method" ;;
      tfTiming) args="-javaagent:$AGENT=filter=$method,monitor=Filtered=timing -Dtf.timing.output=/dev/null" ;;
      baseOff) args="-javaagent:$BASE=filter=$method" ;;
      baseTiming) args="-javaagent:$BASE=filter=$method,monitor=Filtered=timing -Dtf.timing.output=/dev/null" ;;
      jfrTiming) args="-XX:StartFlightRecording:method-timing=$method,filename=/tmp/tf-jdk-method.jfr" ;;
      tfCalls) args="-javaagent:$AGENT=filter=$method,monitor=Filtered=calls -Dtf.calls.output=/tmp/tf-jdk-method.calls" ;;
      tfProfile) args="-javaagent:$AGENT=filter=$method,monitor=Filtered=profile -Dtf.profile.output=/tmp/tf-jdk-method.profile" ;;
    esac
    until "$JAVA" -jar "$here/target/benchmarks.jar" 'JdkMethodBenchmark.bitSetGet$' -jvmArgsAppend "$args" \
        -rf csv -rff "$csv" >"$out" 2>&1; do
      grep -q 'Unable to acquire the JMH lock' "$out" || { cat "$out" >&2; exit 1; }
      sleep 5
    done
    echo "$round,$config,$(tail -n +2 "$csv" | cut -d, -f5 | tr -d '"')"
  done
done | tee "$out.rounds"
python3 - "$out.rounds" <<'PY'
import statistics, sys
from collections import defaultdict
by = defaultdict(list)
for line in open(sys.argv[1]):
    r, config, score = line.strip().split(",")
    by[config].append(float(score))
m = {c: statistics.median(v) for c, v in by.items()}
for c in ("untraced", "tfOff", "tfTiming", "jfrTiming", "baseOff", "baseTiming", "tfCalls", "tfProfile"):
    if c in m:
        print(f"{c:10} median {m[c]:8.3f} ns/op  (min {min(by[c]):.3f}, forks {len(by[c])})")
if "tfOff" in m:
    print(f"tfOff / untraced: {m['tfOff'] / m['untraced']:.3f}  (target <= 1.05)")
if "baseOff" in m:
    print(f"baseOff / untraced: {m['baseOff'] / m['untraced']:.3f}")
if "tfTiming" in m and "jfrTiming" in m:
    tf, jfr = m["tfTiming"] - m["untraced"], m["jfrTiming"] - m["untraced"]
    print(f"timing overhead: TF {tf:.2f} ns, JFR {jfr:.2f} ns, TF / JFR {tf / jfr:.2f}")
    if "baseTiming" in m:
        base = m["baseTiming"] - m["untraced"]
        print(f"baseline timing overhead {base:.2f} ns, / JFR {base / jfr:.2f}")
PY
rm -f "$out.rounds"
