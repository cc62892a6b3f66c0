#!/usr/bin/env bash
# The whole JDK traced at once (FERRARI's case): javac compiling a small program in process
# on four threads (Compile.java, WholeJdkIT's workload), untraced, with the TF agent tracing
# java.**;javax.**;jdk.**;sun.**;com.sun.** and the application under `calls` (the
# calling-context tree counting calls: FERRARI's metric), `profile` (the same tree, timed) and
# `timing`, and with JDK 25's JFR method timing of what JFR can express (whole classes by
# name: no package wildcards). Wall time of each JVM, median of the rounds, ratio to untraced.
#
#   mvn -B -pl agent -am install -DskipTests      # builds agent/target/tf-agent-*.jar
#   bench/agent/whole-jdk/run.sh [rounds]
#   STEADY=30 bench/agent/whole-jdk/run.sh 1      # and then 30 timed compiles in each JVM:
#     the median of the last half of them is the steady state (JIT done, classes traced),
#     FERRARI's measure, beside the whole run's wall time
#   CONFIGS="tf-calls" bench/agent/whole-jdk/run.sh   # only these runs; tf-off (traced,
#     no monitor) and tf-noop (noOp: a monitor that does nothing) run only when named, to split
#     a monitor's cost from the traced shape's and the guard's
# An untraced JVM runs right before each traced one, and each ratio is the median of the
# traced JVMs' ratios to the untraced JVM run just before them: untraced rounds swing by a
# third between JVMs on this machine, and a pair shares the machine's state of the moment.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
jdk="${TF_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
agent="$(ls "$root"/agent/target/tf-agent-*.jar | grep -v -e sources -e original | head -1)"
rounds="${1:-3}"
work="$(mktemp -d /dev/shm/tf-whole-jdk.XXXXXX 2>/dev/null || mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$jdk/bin/javac" -d "$work/classes" "$here/Compile.java"
jdk_filter='java.**;javax.**;jdk.**;sun.**;com.sun.**;app.**'
jfr_classes='java.util.HashMap;java.util.ArrayList;java.lang.String;java.lang.StringBuilder'

run() { # name, java options...
  local name="$1"; shift
  local start end
  rm -rf "$work/out"
  start=$(date +%s%N)
  "$jdk/bin/java" -Dtf.native.dir="$work/native" "$@" -cp "$work/classes" app.Compile "$work/out" "${STEADY:-0}" \
      >"$work/$name.out" 2>"$work/$name.err"
  end=$(date +%s%N)
  grep -q '^javac 0, 4 classes' "$work/$name.out" || { echo "$name: javac failed"; cat "$work/$name.err" | tail -5; exit 1; }
  echo "$name $(( (end - start) / 1000000 ))" >>"$work/times"
  # The steady state: the median of the last half of the timed rounds.
  grep '^round ' "$work/$name.out" | awk '{print $3}' | tail -n "$(( ${STEADY:-0} / 2 ))" \
      | sort -n | awk -v name="$name" '{v[NR]=$1} END {if (NR) print name, v[int((NR+1)/2)]}' >>"$work/steady"
}

traced() { # the configuration's name, then its java options; an untraced JVM runs before it
  case " ${CONFIGS:-$default} " in *" $1 "*) ;; *) return 0 ;; esac
  run untraced
  run "$@"
}

echo "JDK: $("$jdk/bin/java" -version 2>&1 | head -1); $(nproc) cores; $rounds rounds"
default="tf-calls tf-profile tf-timing tf-timing-4-classes jfr-timing-4-classes"
for round in $(seq "$rounds"); do
  traced "tf-off" "-javaagent:$agent=filter=$jdk_filter"
  traced "tf-noop" "-javaagent:$agent=filter=$jdk_filter,monitor=Filtered=noOp"
  traced "tf-calls" "-javaagent:$agent=filter=$jdk_filter,monitor=Filtered=calls" \
      -Dtf.calls.output="$work/c.folded" -Dtf.exit.wait=1
  traced "tf-profile" "-javaagent:$agent=filter=$jdk_filter,monitor=Filtered=profile" \
      -Dtf.profile.output="$work/p.folded" -Dtf.exit.wait=1
  traced "tf-timing" "-javaagent:$agent=filter=$jdk_filter,monitor=Filtered=timing" -Dtf.timing.output="$work/t.txt"
  traced "tf-timing-4-classes" "-javaagent:$agent=filter=$jfr_classes,monitor=Filtered=timing" -Dtf.timing.output="$work/t4.txt"
  traced "jfr-timing-4-classes" "-XX:StartFlightRecording:method-timing=$jfr_classes,filename=$work/r.jfr"
done
summarize() { # FILE of "name ms" lines in run order: each name's median, and the median of its
  # ratios to the untraced run just before each of its runs
  python3 - "$1" <<'PY'
import sys, statistics, collections
times, ratios, before = collections.defaultdict(list), collections.defaultdict(list), None
for line in open(sys.argv[1]):
    name, ms = line.split(); ms = int(ms)
    times[name].append(ms)
    if name == "untraced":
        before = ms
    elif before:
        ratios[name].append(ms / before)
for name, values in times.items():
    ratio = f"{statistics.median(ratios[name]):5.1f}x untraced, paired" if ratios[name] else "the baseline"
    print(f"{name:22s} median {statistics.median(values):8.0f} ms  ({ratio})  of {values}")
PY
}
echo "the whole JVM, start-up and exit included:"
summarize "$work/times"
if [ -s "$work/steady" ]; then
  echo "steady state (each JVM's median of its last ${STEADY:-0}/2 compile rounds):"
  summarize "$work/steady"
fi
