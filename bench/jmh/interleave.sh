#!/bin/sh
# Runs each benchmark in turn, one fork at a time, several rounds, so that the load of a
# shared machine falls on all of them alike. Prints one "name score" line per fork.
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
ROUNDS=${ROUNDS:-6}
for round in $(seq 1 "$ROUNDS"); do
  for bench in "$@"; do
    "$JAVA" -jar target/benchmarks.jar "$bench" -p sampleEvery=8 -f 1 -wi 3 -i 3 -w 1 -r 1 -rf csv -rff /tmp/tf-interleave.csv >/dev/null 2>&1
    tail -n +2 /tmp/tf-interleave.csv | cut -d, -f1,5 | tr -d '"' | sed "s/^/$round,/"
  done
done
