#!/usr/bin/env bash
# Builds everything, then builds the sample project once with the Maven plugin and
# once with the Gradle plugin (Gradle 8.11.1, TF applied through plugins {} as the
# README shows), prints the TF annotation list each build wrote into its jar, and
# runs the Maven-built jar with a monitor attached.
#   scripts/demo.sh               build and install everything first
#   scripts/demo.sh --no-install  use what the last `mvn install` put in the local
#                                 repository (scripts/test.sh has just run it)
# The tools' own progress goes to logs under target/demo/logs; a step that fails
# prints its log.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
root="$PWD"
version=0.1.0-SNAPSHOT
# Gradle 8.11.1 assembled from Maven Central, beside the repository (as CI has it).
gradle8="$root/../shared/gradle8/gradle8"

work="$root/target/demo"
logs="$work/logs"
rm -rf "$work" && mkdir -p "$logs"

# Runs a step quietly: its output goes to logs/<name>.log, shown only if it fails.
quietly() {
  local name=$1
  shift
  if ! "$@" >"$logs/$name.log" 2>&1; then
    echo "demo: $name failed; its log ($logs/$name.log):" >&2
    cat "$logs/$name.log" >&2
    exit 1
  fi
}

if [ ! -x "$gradle8" ]; then
  echo "demo: no Gradle 8.11.1 at $gradle8 (expected ../shared/gradle8 beside the repository)" >&2
  exit 1
fi

case "${1:-}" in
  --no-install) ;;
  "") echo "== mvn install (everything, tests skipped)"
      quietly install "${MVN[@]}" -DskipTests install ;;
  *) echo "usage: scripts/demo.sh [--no-install]" >&2; exit 2 ;;
esac

cp -r integration-tests/projects/sample "$work/maven"
cp -r integration-tests/projects/sample "$work/gradle"
rm -f "$work/maven/build.gradle" "$work/maven/settings.gradle" "$work/gradle/pom.xml"
# The README's settings.gradle and build.gradle (plugins {} with the -SNAPSHOT version).
cp integration-tests/projects/gradle8-overlays/sample/* "$work/gradle/"

echo "== Maven build of the sample (tf:enhance at process-classes)"
(cd "$work/maven" && quietly maven-build "${MVN[@]}" package -Dtf.version="$version")
echo "== Gradle 8.11.1 build of the sample (TF runs inside compileJava)"
# mavenLocal() reads maven.repo.local as Maven does: both builds use one repository.
(cd "$work/gradle" && quietly gradle-build "$gradle8" --console=plain \
  --gradle-user-home="$work/gradle-user-home" -Dmaven.repo.local="$MAVEN_REPOSITORY" jar)

# Each build names its jar its own way; exactly one jar each is expected.
only_jar() {
  local jars=("$1"/*.jar)
  if [ "${#jars[@]}" -ne 1 ] || [ ! -f "${jars[0]}" ]; then
    echo "demo: expected one jar in $1, found: ${jars[*]}" >&2
    exit 1
  fi
  echo "${jars[0]}"
}
maven_jar=$(only_jar "$work/maven/target")
gradle_jar=$(only_jar "$work/gradle/build/libs")

for jar in "$maven_jar" "$gradle_jar"; do
  echo
  echo "== META-INF/tf/tfannotations.properties in ${jar#$root/}"
  unzip -p "$jar" META-INF/tf/tfannotations.properties
done

# The enhanced sample at work: the dprint monitor attached to group IO (and so to
# its subgroups IORead and IOWrite) from the command line, no code changed.
runtime_jar="$MAVEN_REPOSITORY/org/tracingfacility/tf-runtime/$version/tf-runtime-$version.jar"
echo
echo "== java -Dtf.monitor=IO=dprint com.example.Main (the Maven-built jar)"
java -Dtf.monitor=IO=dprint -cp "$maven_jar:$runtime_jar" com.example.Main
