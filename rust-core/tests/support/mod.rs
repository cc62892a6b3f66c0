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
    let javac = std::env::var_os("JAVA_HOME")
        .map(|home| PathBuf::from(home).join("bin/javac"))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from("javac"));
    let output = Command::new(javac)
        .args(["-nowarn", "--release", release, "-d"])
        .arg(&classes)
        .args(&files)
        .output()
        .expect("run javac");
    assert!(output.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&output.stderr));
    classes
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
