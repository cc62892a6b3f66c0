#!/bin/sh
# Runs each benchmark in turn, one fork at a time, several rounds, so that the load of a
# shared machine falls on all of them alike. Prints one "round,name,score" line per fork.
# A benchmark's own @Fork(jvmArgsAppend = ...) still applies (-f only sets the count).
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
ROUNDS=${ROUNDS:-6}
# The @Param of MonitorOverheadBenchmark.enhancedTimingSampled (1 call in N measured).
SAMPLE_EVERY=${SAMPLE_EVERY:-8}
# Benchmark jars, space-separated: with more than one (say the jar of another commit, to
# compare before and after in the same run) each benchmark runs from each jar in turn and
# its name gets "@" and the jar's file name without ".jar".
JARS=${JARS:-target/benchmarks.jar}
# More JMH options for every fork, e.g. JMH_ARGS="-t 2" for two threads calling at once.
JMH_ARGS=${JMH_ARGS:-}
# A file of our own: other checkouts may run this script at the same time.
csv=$(mktemp /tmp/tf-interleave.XXXXXX.csv)
trap 'rm -f "$csv"' EXIT
count=$(echo $JARS | wc -w)
for round in $(seq 1 "$ROUNDS"); do
  for bench in "$@"; do
    for jar in $JARS; do
      tag=""
      if [ "$count" -gt 1 ]; then
        tag="@$(basename "$jar" .jar)"
      fi
      "$JAVA" -jar "$jar" "$bench" -p sampleEvery="$SAMPLE_EVERY" $JMH_ARGS -f 1 -wi 3 -i 3 -w 1 -r 1 -rf csv -rff "$csv" >/dev/null 2>&1
      tail -n +2 "$csv" | cut -d, -f1,5 | tr -d '"' | sed "s/^/$round,/; s/,\([0-9.]*\)\$/$tag,\1/"
    done
  done
done
