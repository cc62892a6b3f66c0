#!/usr/bin/env bash
# Start-up added by the TF agent tracing one method of a hello world (issue 50, item 1):
# paired, interleaved runs of the same class under
#   plain        java -cp . Hello
#   noop-agent   -javaagent:noop.jar, an agent whose premain does nothing: what any agent costs
#                the JVM before it runs (JDK 25 then gives up class-data sharing's archived
#                module graph: "-Xlog:cds" says "full module graph: disabled")
#   tf           -javaagent:tf-agent.jar=filter=Hello::next,monitor=Filtered=timing
#                (the usual case: a JVM started again; the core's replies of earlier runs
#                kept on this machine, so the native library is not loaded)
#   tf-first     the same with an empty cache directory (-Dtf.native.dir): the first run on a
#                machine, which extracts and loads the native library and calls the core
#   tf-nocache   the same with -Dtf.agent.cache=false: the core called every run
#   noop-archive the noop agent with TF's start-up archive of this JDK (java -jar tf-agent.jar
#                archive, once per machine): the JVM keeps its archived module graph
#   tf-archive   the tf run with that archive: what a user who made it once waits for
#   tf-aot       the tf run with JDK 25's AOT cache of this application (JEP 483/514: one training
#                run with the agent, -XX:AOTCacheOutput), which an application may have already
#   jfr          -XX:StartFlightRecording:method-timing=Hello::next (JEP 520), for comparison
#   tf-other     with TF_OTHER_JAR set: the tf run with that agent jar (another commit's), to
#                compare before and after in one run
# Each figure is the median wall time of ROUNDS runs; "added" is the median minus plain's.
#   bench/agent/startup/run.sh [ROUNDS]       (default 21)
# Needs agent/target/tf-agent-*.jar (mvn -pl agent -am package -DskipTests) or TF_AGENT_JAR,
# and JDK 25 (TF_JDK25_HOME) for JFR method timing. Work files go to $TF_STARTUP_DIR
# (default: a directory under /dev/shm, the machine's tmpfs).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
rounds="${1:-21}"
jdk="${TF_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
agent="${TF_AGENT_JAR:-$(ls "$root"/agent/target/tf-agent-*.jar 2>/dev/null | grep -v -e original -e sources | head -1 || true)}"
[ -f "$agent" ] || { echo "no tf-agent jar: mvn -pl agent -am package -DskipTests, or set TF_AGENT_JAR" >&2; exit 2; }
work="${TF_STARTUP_DIR:-$(mktemp -d /dev/shm/tf-startup.XXXXXX)}"
trap 'rm -rf "$work"' EXIT
"$jdk/bin/javac" -d "$work/classes" "$here/Hello.java"
"$jdk/bin/jar" cf "$work/hello.jar" -C "$work/classes" .   # an AOT cache takes jars only
"$jdk/bin/javac" -d "$work/noop" "$here/NoopAgent.java"
printf 'Premain-Class: NoopAgent\n' >"$work/noop.mf"
"$jdk/bin/jar" cfm "$work/noop.jar" "$work/noop.mf" -C "$work/noop" NoopAgent.class
java="$jdk/bin/java"
"$java" -jar "$agent" archive "$work/startup.jsa" >/dev/null
tf_options=(-Dtf.native.dir="$work/native" "-javaagent:$agent=filter=Hello::next,monitor=Filtered=timing")
"$java" -XX:AOTCacheOutput="$work/hello.aot" "${tf_options[@]}" -cp "$work/hello.jar" Hello >/dev/null 2>&1
native="$work/native"
first="$work/first"

run() { # CONFIG: runs Hello under CONFIG, prints its wall time in ms
    local options=()
    case "$1" in
        plain) ;;
        noop-agent) options=("-javaagent:$work/noop.jar") ;;
        tf) options=("${tf_options[@]}") ;;
        noop-archive) options=(-XX:SharedArchiveFile="$work/startup.jsa" "-javaagent:$work/noop.jar") ;;
        tf-archive) options=(-XX:SharedArchiveFile="$work/startup.jsa" "${tf_options[@]}") ;;
        tf-aot) options=(-XX:AOTCache="$work/hello.aot" "${tf_options[@]}") ;;
        tf-first) rm -rf "$first"; options=(-Dtf.native.dir="$first" "-javaagent:$agent=filter=Hello::next,monitor=Filtered=timing") ;;
        tf-nocache) options=(-Dtf.native.dir="$native" -Dtf.agent.cache=false "-javaagent:$agent=filter=Hello::next,monitor=Filtered=timing") ;;
        jfr) options=("-XX:StartFlightRecording:method-timing=Hello::next,filename=$work/hello.jfr") ;;
        tf-other) options=(-Dtf.native.dir="$work/other" "-javaagent:$TF_OTHER_JAR=filter=Hello::next,monitor=Filtered=timing") ;;
    esac
    local start end
    start=$(date +%s%N)
    "$java" "${options[@]}" -cp "$work/hello.jar" Hello >"$work/out" 2>"$work/err" || { echo "$1 failed:" >&2; cat "$work/err" >&2; exit 1; }
    end=$(date +%s%N)
    grep -q "hello 10" "$work/out" || { echo "$1: no greeting" >&2; exit 1; }
    case "$1" in tf*) grep -q "Hello.next(int) *10 " "$work/err" || { echo "$1: no timing row" >&2; cat "$work/err" >&2; exit 1; } ;; esac
    echo $(( (end - start) / 1000000 ))
}

configs=(plain noop-agent tf noop-archive tf-archive tf-aot tf-first tf-nocache jfr)
if [ -n "${TF_OTHER_JAR:-}" ]; then configs+=(tf-other); fi
for config in "${configs[@]}"; do run "$config" >/dev/null; done   # warm-up: caches, page cache
declare -A times
for ((r = 1; r <= rounds; r++)); do
    for config in "${configs[@]}"; do
        times[$config]+="$(run "$config") "
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
echo "JDK: $("$java" -version 2>&1 | head -1); $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds"
plain=$(echo "${times[plain]}" | median)
printf '| %-12s | %8s | %8s |\n' run "median" "added"
printf '| %-12s | %8s | %8s |\n' --- ---: ---:
for config in "${configs[@]}"; do
    m=$(echo "${times[$config]}" | median)
    printf '| %-12s | %6s ms | %6s ms |\n' "$config" "$m" "$((m - plain))"
done
