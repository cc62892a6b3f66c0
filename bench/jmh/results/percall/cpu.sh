#!/bin/sh
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
MAIN=/work/main/agent/target/tf-agent-0.1.0-SNAPSHOT.jar
NEW=${NEW:-/work/wt-percall/agent/target/tf-agent-0.1.0-SNAPSHOT.jar}
m=java.util.BitSet::get
for round in $(seq 1 ${ROUNDS:-3}); do
for c in ${CONFIGS:-untraced tfMain tfNew jfr}; do
  arg=
  case $c in
    untraced) a="-Dx=1";;
    clock) a="-Dx=1"; arg=clock;;
    tfMain) a="-javaagent:$MAIN=filter=$m,monitor=Filtered=timing -Dtf.timing.output=/dev/null";;
    tfNew) a="-javaagent:$NEW=filter=$m,monitor=Filtered=timing -Dtf.timing.output=/dev/null";;
    noopMain) a="-javaagent:$MAIN=filter=$m,monitor=Filtered=noOp";;
    noopNew) a="-javaagent:$NEW=filter=$m,monitor=Filtered=noOp";;
    profMain) a="-javaagent:$MAIN=filter=$m,monitor=Filtered=profile -Dtf.profile.output=/tmp/percall-bench/p.folded";;
    profNew) a="-javaagent:$NEW=filter=$m,monitor=Filtered=profile -Dtf.profile.output=/tmp/percall-bench/p.folded";;
    jfr) a="-XX:StartFlightRecording:method-timing=$m,filename=/tmp/percall-bench/c.jfr";;
  esac
  echo "$round $c $(nice -n 10 $J $a -cp /tmp/percall-bench Cpu $arg 2>/dev/null | grep median)"
done; done
