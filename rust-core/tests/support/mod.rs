//! Shared by the integration tests: Java fixtures compiled by the real javac.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The TF annotation the fixtures meta-annotate with (a copy of tf-runtime's).
pub const METHOD_MONITOR_GROUP: (&str, &str) = (
    "org/tracingfacility/annotation/MethodMonitorGroup.java",
    "package org.tracingfacility.annotation;
     import java.lang.annotation.*;
     @Retention(RetentionPolicy.RUNTIME) @Target(ElementType.ANNOTATION_TYPE)
     public @interface MethodMonitorGroup { Class<? extends Annotation>[] value() default {}; }",
);

/// Copies of tf-runtime's annotations, for fixtures that use info methods and tracing names.
pub const TF_API: &[(&str, &str)] = &[
    METHOD_MONITOR_GROUP,
    (
        "org/tracingfacility/runtime/TimingPointType.java",
        "package org.tracingfacility.runtime; public enum TimingPointType { ENTER, EXIT, NONE }",
    ),
    (
        "org/tracingfacility/annotation/InfoMethod.java",
        "package org.tracingfacility.annotation; import java.lang.annotation.*;
         import org.tracingfacility.runtime.TimingPointType;
         @Retention(RetentionPolicy.RUNTIME) @Target(ElementType.METHOD)
         public @interface InfoMethod { TimingPointType tpType() default TimingPointType.NONE; String tpName() default \"\"; }",
    ),
    (
        "org/tracingfacility/annotation/TracingName.java",
        "package org.tracingfacility.annotation; import java.lang.annotation.*;
         @Retention(RetentionPolicy.RUNTIME) @Target(ElementType.METHOD)
         public @interface TracingName { String value(); }",
    ),
];

/// `TF_API` plus `sources`.
pub fn with_tf_api<'a>(sources: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    TF_API.iter().copied().chain(sources.iter().copied()).collect()
}

/// Writes `sources` (path, text) under `dir/src`, compiles them with `javac`
/// (from `$JAVA_HOME` or PATH) into `dir/classes`, and returns that directory.
pub fn javac(dir: &Path, release: &str, sources: &[(&str, &str)]) -> PathBuf {
    javac_against(dir, release, &[], sources)
}

/// [`javac`] with a class path to compile against.
pub fn javac_against(dir: &Path, release: &str, classpath: &[&Path], sources: &[(&str, &str)]) -> PathBuf {
    javac_with(&java_tool("javac"), dir, release, classpath, sources)
}

/// [`javac_against`] with a given `javac` executable.
pub fn javac_with(javac: &Path, dir: &Path, release: &str, classpath: &[&Path], sources: &[(&str, &str)]) -> PathBuf {
    let src = dir.join("src");
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).unwrap();
    let mut files = Vec::new();
    for (path, text) in sources {
        let file = src.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, text).unwrap();
        files.push(file);
    }
    let mut command = Command::new(javac);
    command.args(["-nowarn", "--release", release, "-d"]).arg(&classes);
    if !classpath.is_empty() {
        command.arg("-cp").arg(std::env::join_paths(classpath).unwrap());
    }
    let output = command.args(&files).output().expect("run javac");
    assert!(output.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&output.stderr));
    classes
}

/// tf-runtime's classes, compiled once per test binary as `runtime/pom.xml`
/// compiles them: `runtime/src/main/jdk-internal` first, with the JDK package
/// it names exported (which `--release` forbids), then `runtime/src/main/java`.
pub fn tf_runtime_classes() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/src/main");
        let out = std::env::temp_dir().join(format!("tf-runtime-classes-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).unwrap();
        let internal = ["-source", "11", "-target", "11", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"];
        javac_tree(&runtime.join("jdk-internal"), &internal, &out);
        javac_tree(&runtime.join("java"), &["--release", "11", "-cp", &out.to_string_lossy()], &out);
        out
    })
    .clone()
}

/// Compiles every source under `root` with `options` into `out`.
fn javac_tree(root: &Path, options: &[&str], out: &Path) {
    let sources: Vec<PathBuf> = files_under(root)
        .into_iter()
        .filter(|f| f.ends_with(".java") && !f.ends_with("module-info.java"))
        .map(|f| root.join(f))
        .collect();
    let output = Command::new(java_tool("javac"))
        .arg("-nowarn")
        .args(options)
        .arg("-d")
        .arg(out)
        .args(&sources)
        .output()
        .expect("run javac");
    assert!(output.status.success(), "javac of tf-runtime failed:\n{}", String::from_utf8_lossy(&output.stderr));
}

/// The JDK 17 whose image the corpus tests read: `$TF_JDK17_HOME`, else
/// Debian's OpenJDK 17 where these machines have it.
pub fn jdk17_home() -> String {
    std::env::var("TF_JDK17_HOME").unwrap_or_else(|_| "/usr/lib/jvm/java-17-openjdk-amd64".to_string())
}

/// The Temurin JDK 25 on these machines (javac 25, JFR method timing):
/// `$TF_JDK25_HOME` (scripts/setup.sh exports it), else its usual place.
pub fn jdk25_home() -> PathBuf {
    std::env::var_os("TF_JDK25_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/lib/jvm/temurin-25-jdk-amd64"))
}

/// A JDK tool from `$JAVA_HOME/bin`, or PATH.
pub fn java_tool(name: &str) -> PathBuf {
    std::env::var_os("JAVA_HOME")
        .map(|home| PathBuf::from(home).join("bin").join(name))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from(name))
}

/// Runs `main` with the HotSpot verifier on for every class; returns stdout,
/// failing the test with stderr if the JVM fails.
pub fn run_verified(classpath: &[&Path], main: &str) -> String {
    run_verified_with(&java_tool("java"), classpath, main)
}

/// [`run_verified`] with a given `java` executable.
pub fn run_verified_with(java: &Path, classpath: &[&Path], main: &str) -> String {
    let cp = std::env::join_paths(classpath).unwrap();
    let output = Command::new(java)
        .args(["-Xverify:all", "-XX:-UseSharedSpaces", "-cp"])
        .arg(cp)
        .arg(main)
        .output()
        .expect("run java");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "java {main} failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    stdout
}

/// Every file under `dir`, relative, sorted.
pub fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                out.push(path.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

/// The extracted classes of the JDK at `java_home`, extracting them on first use.
pub fn extracted_image(java_home: &str, label: &str) -> PathBuf {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("jdk-images");
    let dir = cache.join(label);
    if dir.is_dir() {
        return dir;
    }
    std::fs::create_dir_all(&cache).expect("create the image cache");
    // Extract beside the final name and rename, so that an interrupted run
    // never leaves a partial image that a later run would trust.
    let partial = cache.join(format!("{label}.partial.{}", std::process::id()));
    let status = Command::new(Path::new(java_home).join("bin/jimage"))
        .arg("extract")
        .arg("--dir")
        .arg(&partial)
        .arg(Path::new(java_home).join("lib/modules"))
        .status()
        .unwrap_or_else(|e| panic!("run jimage of {java_home}: {e}"));
    assert!(status.success(), "jimage extract failed for {java_home}");
    if std::fs::rename(&partial, &dir).is_err() {
        // Another test process finished first; its copy is as good.
        let _ = std::fs::remove_dir_all(&partial);
    }
    dir
}
