#!/usr/bin/env bash
# Builds everything, then builds the sample project once with the Maven plugin and
# once with the Gradle plugin, and prints the TF annotation list each build wrote
# into its jar.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
root="$PWD"
version=0.1.0-SNAPSHOT

"${MVN[@]}" -DskipTests install

work="$root/target/demo"
rm -rf "$work" && mkdir -p "$work"
cp -r integration-tests/projects/sample "$work/maven"
cp -r integration-tests/projects/sample "$work/gradle"
rm -f "$work/maven/build.gradle" "$work/maven/settings.gradle" "$work/gradle/pom.xml"

echo "== Maven build of the sample (tf:enhance at process-classes)"
(cd "$work/maven" && "${MVN[@]}" -q package -Dtf.version="$version")
echo "== Gradle build of the sample (TF runs inside compileJava)"
(cd "$work/gradle" && gradle -q --no-daemon jar -PtfVersion="$version")

for build in maven gradle; do
  jar=$(ls "$work/$build"/{target,build/libs}/*.jar 2>/dev/null | head -n 1)
  echo
  echo "== $build: META-INF/tf/tfannotations.properties in ${jar#$root/}"
  unzip -p "$jar" META-INF/tf/tfannotations.properties
done

# The enhanced sample at work: the dprint monitor attached to group IO (and so to
# its subgroups IORead and IOWrite) from the command line, no code changed.
runtime_jar="$HOME/.m2/repository/org/tracingfacility/tf-runtime/$version/tf-runtime-$version.jar"
echo
echo "== java -Dtf.monitor=IO=dprint com.example.Main (the Maven-built jar)"
java -Dtf.monitor=IO=dprint -cp "$(ls "$work"/maven/target/*.jar | head -n 1):$runtime_jar" com.example.Main
