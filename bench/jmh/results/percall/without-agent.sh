#!/bin/sh
# Without the agent: build-time enhanced MonitoredWork.work with timing (JFR ticks by --add-exports), main's jar and this branch's,
# against PlainWork.work plain, under JFR method timing, and two clock reads around it. Thread CPU time.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
X=--add-exports=jdk.jfr/jdk.jfr.internal=ALL-UNNAMED
for round in $(seq 1 ${ROUNDS:-3}); do
  echo "$round plain $(nice -n 10 $J -cp /tmp/percall-bench/runs/percall.jar:. Enh plain | grep median)"
  echo "$round clock $(nice -n 10 $J -cp /tmp/percall-bench/runs/percall.jar:. Enh clock | grep median)"
  echo "$round timingMain $(nice -n 10 $J $X -cp /tmp/percall-bench/runs/main.jar:. Enh timing 2>/dev/null | grep median)"
  echo "$round timingNew $(nice -n 10 $J $X -cp /tmp/percall-bench/runs/percall.jar:. Enh timing 2>/dev/null | grep median)"
  echo "$round jfr $(nice -n 10 $J -XX:StartFlightRecording:method-timing=org.tracingfacility.bench.PlainWork::work,filename=/tmp/percall-bench/e.jfr -cp /tmp/percall-bench/runs/percall.jar:. Enh plain 2>/dev/null | grep median)"
done
