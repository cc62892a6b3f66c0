#!/usr/bin/env bash
# The whole of a TF run against the file system's floor (issue 34), in one run:
#  1. the tf-enhance CLI over JDK 17's java.base on a tmpfs, every method
#     monitored, one thread, against `cp -r` of the same tree (each round: the
#     copy, timed, is the tree TF then enhances, timed); medians and their ratio;
#  2. through JNI as the plugins call it (cache on, one worker per core), on the
#     10,000-class project of bench/incremental: clean, nothing changed, one
#     class changed (JniPhases.java).
#   bench/floor/run.sh [ROUNDS]      (default 11)
# Work directory: $TF_FLOOR_DIR (default /dev/shm/tf-floor; it must be a tmpfs).
# Part 2 needs core-jni/target/tf-core-jni-*.jar (mvn -pl core-jni -am package)
# and msgpack-core in ~/.m2 (or TF_CORE_JNI_JAR, TF_RUNTIME_JAR); without them only part 1 runs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rounds="${1:-11}"
work="${TF_FLOOR_DIR:-/dev/shm/tf-floor}"
jdk="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
mkdir -p "$work"
[ "$(stat -f -c %T "$work")" = tmpfs ] || echo "warning: $work is not a tmpfs; disk noise included" >&2

echo "building tf-enhance (release)"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin tf-enhance
tf="$root/target/release/tf-enhance"

if [ ! -d "$work/java.base.tree/java.base" ]; then
    rm -rf "$work/java.base.tree"
    "$jdk/bin/jimage" extract --dir "$work/java.base.tree" --include 'regex:/java\.base/.*' "$jdk/lib/modules"
fi
files=$(find "$work/java.base.tree" -name '*.class' | wc -l)

# ms COMMAND...: runs it, prints its wall time in milliseconds.
ms() {
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    echo $(( (end - start) / 1000000 ))
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
: > "$work/cli.txt"
for _ in $(seq "$rounds"); do
    rm -rf "$work/copy"
    copy_ms=$(ms cp -r "$work/java.base.tree" "$work/copy")
    tf_ms=$(ms "$tf" -dir "$work/copy" -rf "$work/tfannotations.properties" -filter '**' -threads 1)
    echo "$copy_ms $tf_ms" >> "$work/cli.txt"
done
python3 - "$work/cli.txt" "$files" <<'PY'
import statistics, sys
rows = [tuple(map(int, line.split())) for line in open(sys.argv[1])]
cp = statistics.median(r[0] for r in rows)
tf = statistics.median(r[1] for r in rows)
print(f"\nCLI, java.base ({sys.argv[2]} class files), tmpfs, -threads 1, -filter '**', {len(rows)} rounds")
print(f"  cp -r      median {cp:6.0f} ms  min {min(r[0] for r in rows):5d} ms")
print(f"  tf-enhance median {tf:6.0f} ms  min {min(r[1] for r in rows):5d} ms")
print(f"  ratio tf-enhance / cp -r (medians): {tf / cp:.2f}  (per round: {' '.join(f'{r[1] / r[0]:.2f}' for r in rows)})")
PY

core_jar="${TF_CORE_JNI_JAR:-$(ls "$root"/core-jni/target/tf-core-jni-*.jar 2>/dev/null | grep -v sources | head -1 || true)}"
msgpack_jar="$(ls ~/.m2/repository/org/msgpack/msgpack-core/*/msgpack-core-*.jar 2>/dev/null | grep -v sources | tail -1 || true)"
runtime_jar="${TF_RUNTIME_JAR:-$(ls "$root"/runtime/target/tf-runtime-*.jar 2>/dev/null | grep -v sources | head -1 || true)}"
if [ -z "$core_jar" ] || [ -z "$msgpack_jar" ] || [ -z "$runtime_jar" ]; then
    echo "(no JNI figures: needs core-jni/target and runtime/target jars, mvn -pl core-jni,runtime -am package, and msgpack-core in ~/.m2)"
    exit 0
fi
project="$work/project"
changed="gen/p000/C00000.class"
if [ ! -f "$project/javac.done" ]; then
    echo "generating and compiling 10000 classes"
    rm -rf "$project" && mkdir -p "$project"
    python3 "$root/bench/incremental/generate.py" "$project/src" 10000
    find "$project/src" -name '*.java' > "$project/sources.txt"
    javac -J-Xmx2g --release 11 -nowarn -cp "$runtime_jar" -d "$project/javac" @"$project/sources.txt"
    for v in 1 2; do
        python3 "$root/bench/incremental/generate.py" "$project/variant$v/src" 1 "$v"
        javac --release 11 -cp "$runtime_jar" -d "$project/variant$v/classes" \
            "$project/variant$v/src/gen/Traced.java" "$project/variant$v/src/gen/p000/C00000.java"
    done
    touch "$project/javac.done"
fi
echo
java -Dtf.native.dir="$work/native" -cp "$core_jar:$msgpack_jar" "$here/JniPhases.java" "$project/javac" "$project/run" \
    "$runtime_jar" "$changed" "$project/variant1/classes/$changed" "$project/variant2/classes/$changed" "$rounds"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
