#!/bin/sh
# A/B: BitSet::get untraced, TF timing with main's agent and this branch's, JFR method timing; interleaved.
JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JAR=${JAR:-/work/wt-percall/bench/jmh/target/benchmarks.jar}
MAIN=/work/main/agent/target/tf-agent-0.1.0-SNAPSHOT.jar
NEW=${NEW:-/work/wt-percall/agent/target/tf-agent-0.1.0-SNAPSHOT.jar}
method=java.util.BitSet::get
ROUNDS=${ROUNDS:-3}
CONFIGS=${CONFIGS:-"untraced tfMain tfNew jfr"}
EXTRA=${EXTRA:-}
csv=$(mktemp /tmp/percall-bench/r.XXXXXX.csv)
for round in $(seq 1 $ROUNDS); do
  for config in $CONFIGS; do
    case $config in
      untraced) args="-Dtf.none=1" ;;
      tfMain) args="-javaagent:$MAIN=filter=$method,monitor=Filtered=timing -Dtf.timing.output=/dev/null" ;;
      tfNew) args="-javaagent:$NEW=filter=$method,monitor=Filtered=timing -Dtf.timing.output=/dev/null" ;;
      noopMain) args="-javaagent:$MAIN=filter=$method,monitor=Filtered=noOp" ;;
      noopNew) args="-javaagent:$NEW=filter=$method,monitor=Filtered=noOp" ;;
      offNew) args="-javaagent:$NEW=filter=$method" ;;
      jfr) args="-XX:StartFlightRecording:method-timing=$method,filename=/tmp/percall-bench/jm.jfr" ;;
    esac
    nice -n 10 "$JAVA" -jar "$JAR" 'JdkMethodBenchmark.bitSetGet$' $EXTRA -jvmArgsAppend "$args" -rf csv -rff "$csv" >/tmp/percall-bench/last.txt 2>&1 || { tail -30 /tmp/percall-bench/last.txt; exit 1; }
    echo "$round,$config,$(tail -n +2 "$csv" | cut -d, -f5 | tr -d '"')"
  done
done
