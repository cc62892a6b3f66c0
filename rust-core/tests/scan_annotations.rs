//! Scanning real javac output for TF annotation types and writing the list.
mod support;

use std::path::Path;
use support::{files_under, javac, METHOD_MONITOR_GROUP};
use tf_core::pipeline;
use tf_core::request::EnhanceRequest;

const SOURCES: &[(&str, &str)] = &[
    METHOD_MONITOR_GROUP,
    ("com/example/trace/IO.java",
     "package com.example.trace; import org.tracingfacility.annotation.MethodMonitorGroup;
      @MethodMonitorGroup({IORead.class, IOWrite.class}) public @interface IO {}"),
    // Subgroups are TF annotations even without the meta-annotation (the spec's example).
    ("com/example/trace/IORead.java", "package com.example.trace; public @interface IORead {}"),
    ("com/example/trace/IOWrite.java", "package com.example.trace; public @interface IOWrite {}"),
    // CLASS retention works too; non-ASCII names are escaped in the properties file.
    ("com/example/trace/Zeit\u{e4}.java",
     "package com.example.trace; import java.lang.annotation.*; import org.tracingfacility.annotation.MethodMonitorGroup;
      @Retention(RetentionPolicy.CLASS) @MethodMonitorGroup public @interface Zeit\u{e4} {}"),
    ("com/example/trace/NotTf.java", "package com.example.trace; public @interface NotTf {}"),
    ("com/example/Stream.java",
     "package com.example; import com.example.trace.*;
      @IO @IORead public class Stream { @IORead int read() { return 1; } class Inner {} }"),
];

fn enhance(classes: &Path) -> tf_core::request::EnhanceReport {
    pipeline::run(&EnhanceRequest::new(classes.to_str().unwrap()))
}

#[test]
fn finds_groups_and_subgroups_and_writes_them_sorted() {
    let work = tempfile::tempdir().unwrap();
    let classes = javac(work.path(), "11", SOURCES);
    let report = enhance(&classes);
    assert!(report.ok, "{report:?}");
    assert_eq!(
        report.annotations,
        ["com.example.trace.IO", "com.example.trace.IORead", "com.example.trace.IOWrite", "com.example.trace.Zeit\u{e4}"]
    );
    assert_eq!(report.classes_scanned, 8);
    let written = std::fs::read_to_string(classes.join("META-INF/tf/tfannotations.properties")).unwrap();
    assert_eq!(
        written,
        "# TF (Tracing Facility) annotations, written by tf-enhance\n\
         org.tracingfacility.tf.annotations.size=4\n\
         org.tracingfacility.tf.annotation.1=com.example.trace.IO\n\
         org.tracingfacility.tf.annotation.2=com.example.trace.IORead\n\
         org.tracingfacility.tf.annotation.3=com.example.trace.IOWrite\n\
         org.tracingfacility.tf.annotation.4=com.example.trace.Zeit\\u00E4\n"
    );
}

#[test]
fn same_input_same_bytes_whatever_the_directory() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let first = javac(&a.path().join("one/deeper"), "17", SOURCES);
    let second = javac(b.path(), "17", SOURCES);
    assert!(enhance(&first).ok && enhance(&second).ok);
    let read = |d: &Path| std::fs::read(d.join("META-INF/tf/tfannotations.properties")).unwrap();
    assert_eq!(read(&first), read(&second));
    assert!(enhance(&first).ok);
    assert_eq!(read(&first), read(&second), "a second run changes nothing");
}

#[test]
fn a_corrupt_class_fails_the_run_naming_the_file_and_writes_nothing() {
    let work = tempfile::tempdir().unwrap();
    let classes = javac(work.path(), "11", SOURCES);
    let good = std::fs::read(classes.join("com/example/Stream.class")).unwrap();
    let broken = classes.join("com/example/Broken.class");
    std::fs::write(&broken, &good[..good.len() / 2]).unwrap();
    let also_broken = classes.join("com/example/NotAClass.class");
    std::fs::write(&also_broken, b"hello").unwrap();
    let before = files_under(&classes);

    let report = enhance(&classes);
    assert!(!report.ok);
    let files: Vec<_> = report.errors.iter().map(|e| e.file.clone().unwrap()).collect();
    assert_eq!(files, [broken.display().to_string(), also_broken.display().to_string()], "every bad file, at once");
    assert!(report.errors.iter().all(|e| e.rule == "parse"));
    assert!(report.errors[0].message.contains("at byte "), "{}", report.errors[0].message);
    assert_eq!(files_under(&classes), before, "nothing written, no temp files");
    assert_eq!(std::fs::read(&broken).unwrap(), &good[..good.len() / 2]);
}
