#!/usr/bin/env bash
# The pre-write check's cost, A/B: tf-enhance binaries over a fresh copy of a
# class directory on /dev/shm (every method monitored, one thread),
# alternating, user time of each run; prints the median per variant.
#   pre-write-check-ab.sh RUNS CLASSES NAME=BINARY[:without-check] ...
# `:without-check` runs the binary with TF_BENCH_WITHOUT_PRE_WRITE_CHECK=1.
# Example (the release binaries copied aside before and after a change):
#   pre-write-check-ab.sh 9 target/tmp/jdk-images/jdk17/java.base \
#     before=/dev/shm/before after=/dev/shm/after off=/dev/shm/after:without-check
set -euo pipefail
runs=$1 classes=$2
shift 2
work=$(mktemp -d /dev/shm/tf-check-ab.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -r "$classes" "$work/pristine"
declare -A times
for ((run = 1; run <= runs; run++)); do
  for variant in "$@"; do
    name=${variant%%=*} spec=${variant#*=}
    binary=${spec%:without-check}
    rm -rf "$work/classes" && cp -r "$work/pristine" "$work/classes"
    env=()
    [[ $spec == *:without-check ]] && env=(TF_BENCH_WITHOUT_PRE_WRITE_CHECK=1)
    env "${env[@]}" /usr/bin/time -o "$work/user" -f %U "$binary" -dir "$work/classes" -filter '**' -threads 1 \
      >/dev/null 2>&1 || true
    times[$name]+="$(tail -1 "$work/user") "
  done
done
for variant in "$@"; do
  name=${variant%%=*}
  # shellcheck disable=SC2086
  median=$(printf '%s\n' ${times[$name]} | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
  echo "$name: median user ${median}s over $runs runs: ${times[$name]}"
done
