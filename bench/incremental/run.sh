#!/usr/bin/env bash
# Incremental enhancement on a generated project of 10,000 classes, through the
# tf-enhance CLI (the plugins make the same single call into the core):
#   clean    — an empty cache, every class read and enhanced (both cores)
#   nothing  — nothing changed since the last run
#   one      — javac rewrote one class file (alternately two variants of it)
#   bench/incremental/run.sh [RUNS] [CLASSES]   (defaults: 7 runs, 10000 classes)
# Prints the median wall time of each, CPU use of the clean run (user+sys / wall:
# 2.0 means both cores busy throughout) and the peak resident memory of each kind.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
runs="${1:-7}"
count="${2:-10000}"
work="$here/target"
runtime_jar="$(ls "$root"/runtime/target/tf-runtime-*.jar 2>/dev/null | grep -v sources | head -1 || true)"
if [ -z "$runtime_jar" ]; then
    (cd "$root" && mvn -B -q -N install && cd runtime && mvn -B -q package -DskipTests)
    runtime_jar="$(ls "$root"/runtime/target/tf-runtime-*.jar | grep -v sources | head -1)"
fi

echo "building tf-enhance (release)"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin tf-enhance
tf="$root/target/release/tf-enhance"

if [ ! -f "$work/javac.done.$count" ]; then
    echo "generating and compiling $count classes"
    rm -rf "$work" && mkdir -p "$work"
    python3 "$here/generate.py" "$work/src" "$count"
    find "$work/src" -name '*.java' > "$work/sources.txt"
    javac -J-Xmx2g --release 11 -nowarn -cp "$runtime_jar" -d "$work/javac" @"$work/sources.txt"
    for v in 1 2; do
        python3 "$here/generate.py" "$work/variant$v/src" 1 "$v"
        javac --release 11 -cp "$runtime_jar" -d "$work/variant$v/classes" \
            "$work/variant$v/src/gen/Traced.java" "$work/variant$v/src/gen/p000/C00000.java"
    done
    touch "$work/javac.done.$count"
fi

classes="$work/classes"
cache="$work/cache"
changed="gen/p000/C00000.class"

# run KIND: one tf-enhance run; appends "KIND ms rss_kb cpu_percent" to the log.
run() {
    local start end
    start=$(date +%s%N)
    /usr/bin/time -f "%M %P" -o "$work/time.txt" \
        "$tf" -dir "$classes" -rf "$work/tfannotations.properties" -cache "$cache" -classpath "$runtime_jar" >"$work/last.txt"
    end=$(date +%s%N)
    echo "$1 $(( (end - start) / 1000000 )) $(cat "$work/time.txt" | tr -d '%')" >> "$work/times.txt"
}

rm -f "$work/times.txt"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$runs"); do
    rm -rf "$classes" "$cache" && cp -r "$work/javac" "$classes"
    run clean
    run nothing
    for v in 1 2; do
        cp "$work/variant$v/classes/$changed" "$classes/$changed"
        run one
    done
done

# The same kinds through JNI, as the plugins call the core (no process start),
# on the directory the CLI runs left enhanced and cached.
core_jar="$(ls "$root"/core-jni/target/tf-core-jni-*.jar 2>/dev/null | grep -v sources | head -1 || true)"
msgpack_jar="$(ls ~/.m2/repository/org/msgpack/msgpack-core/*/msgpack-core-*.jar 2>/dev/null | grep -v sources | tail -1 || true)"
if [ -n "$core_jar" ] && [ -n "$msgpack_jar" ]; then
    java -Dtf.native.dir="$work/native" -cp "$core_jar:$msgpack_jar" "$here/JniRuns.java" "$classes" "$cache" "$runtime_jar" \
        "$changed" "$work/variant1/classes/$changed" "$work/variant2/classes/$changed" "$runs" | tee "$work/jni.txt"
else
    echo "(no JNI figures: build core-jni first, mvn -pl core-jni -am package)"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
tail -1 "$work/last.txt"
python3 - "$work/times.txt" "$count" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
print(f"\n{sys.argv[2]} classes   {'median ms':>9} {'min ms':>7} {'peak RSS MB':>11} {'CPU %':>6}  runs")
for kind in ("clean", "nothing", "one"):
    ms = [int(r[1]) for r in rows if r[0] == kind]
    rss = [int(r[2]) for r in rows if r[0] == kind]
    cpu = [int(r[3]) for r in rows if r[0] == kind]
    print(f"{kind:<14} {statistics.median(ms):>9.0f} {min(ms):>7} {max(rss) / 1024:>11.1f} {statistics.median(cpu):>6.0f}  {len(ms)}")
PY
