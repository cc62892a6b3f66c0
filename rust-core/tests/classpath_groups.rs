//! TF annotations defined in a dependency (a jar or a directory on the class
//! path) count as groups for the classes being enhanced.
mod support;

use std::path::Path;
use std::process::Command;
use support::{javac, with_tf_api};
use tf_core::pipeline;
use tf_core::request::EnhanceRequest;

fn jar(classes: &Path, jar: &Path) {
    let status = Command::new("jar").arg("cf").arg(jar).arg("-C").arg(classes).arg(".").status().unwrap();
    assert!(status.success());
}

const LIBRARY: &[(&str, &str)] = &[(
    "lib/Remote.java",
    "package lib; @org.tracingfacility.annotation.MethodMonitorGroup public @interface Remote {}",
)];

/// Compiles `source` against the library, then keeps only the app's own classes.
fn app_classes(dir: &Path, source: (&str, &str)) -> std::path::PathBuf {
    let classes = javac(dir, "11", &[LIBRARY.to_vec(), with_tf_api(&[source])].concat());
    std::fs::remove_dir_all(classes.join("lib")).unwrap();
    std::fs::remove_dir_all(classes.join("org")).unwrap();
    classes
}

const HALF: (&str, &str) = ("app/Half.java", "package app; public class Half { @lib.Remote void call() {} }");

fn library_jar(work: &Path) -> std::path::PathBuf {
    let lib = javac(&work.join("lib"), "11", &with_tf_api(LIBRARY));
    let lib_jar = work.join("lib.jar");
    jar(&lib, &lib_jar);
    lib_jar
}

#[test]
fn groups_from_a_jar_without_a_list_are_found_by_parsing() {
    let work = tempfile::tempdir().unwrap();
    let lib_jar = library_jar(work.path());
    let classes = app_classes(&work.path().join("app"), HALF);
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    let without = pipeline::run(&request);
    assert!(without.ok, "without the class path lib.Remote is just an annotation");
    // Missing entries are skipped: build tools list output directories not yet made.
    request.classpath = vec![lib_jar.display().to_string(), "/does/not/exist".into()];
    let with = pipeline::run(&request);
    assert!(!with.ok, "with it, lib.Remote is a group that class Half lacks");
    assert_eq!(with.errors[0].rule, "tf-annotation-missing-on-class");
    assert_eq!(with.errors[0].method.as_deref(), Some("call()V"));
    assert_eq!(with.annotations, Vec::<String>::new(), "the list names only this build's own annotations");
}

#[test]
fn groups_from_a_class_directory_count_too() {
    let work = tempfile::tempdir().unwrap();
    let lib = javac(&work.path().join("lib"), "11", &with_tf_api(LIBRARY));
    let classes = app_classes(&work.path().join("app"), HALF);
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.classpath = vec![lib.display().to_string()];
    let report = pipeline::run(&request);
    assert!(!report.ok, "lib.Remote, found in the class directory, is a group that Half lacks");
    assert_eq!(report.errors[0].rule, "tf-annotation-missing-on-class");
}

#[test]
fn a_jar_with_a_list_is_read_from_its_list() {
    let work = tempfile::tempdir().unwrap();
    let listed = work.path().join("listed");
    std::fs::create_dir_all(listed.join("META-INF/tf")).unwrap();
    std::fs::write(
        listed.join("META-INF/tf/tfannotations.properties"),
        "org.tracingfacility.tf.annotations.size=1\norg.tracingfacility.tf.annotation.1=lib.Remote\n",
    )
    .unwrap();
    let listed_jar = work.path().join("listed.jar");
    jar(&listed, &listed_jar);
    let classes = app_classes(&work.path().join("app"), HALF);
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.classpath = vec![listed_jar.display().to_string()];
    let report = pipeline::run(&request);
    assert!(!report.ok, "the list alone makes lib.Remote a group");
    assert_eq!(report.errors[0].rule, "tf-annotation-missing-on-class");
}

#[test]
fn an_unreadable_jar_is_an_error_naming_it() {
    let work = tempfile::tempdir().unwrap();
    let bad = work.path().join("bad.jar");
    std::fs::write(&bad, b"not a zip").unwrap();
    let classes = work.path().join("classes");
    std::fs::create_dir(&classes).unwrap();
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.classpath = vec![bad.display().to_string()];
    let report = pipeline::run(&request);
    assert!(!report.ok);
    assert_eq!(report.errors[0].file.as_deref(), Some(bad.to_str().unwrap()));
    assert_eq!(report.errors[0].rule, "classpath");
}
