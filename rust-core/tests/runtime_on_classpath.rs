//! A build that leaves enhanced classes fails, writing nothing, when tf-runtime
//! is not on the class path they will run with: otherwise the application
//! would fail at start with `NoClassDefFoundError`.
mod support;

use std::io::Write;
use std::path::Path;
use support::{files_under, javac, with_tf_api};
use tf_core::pipeline;
use tf_core::request::{EnhanceReport, EnhanceRequest};
use tf_core::runtime::MARKER;

const GROUP: (&str, &str) =
    ("t/IO.java", "package t; @org.tracingfacility.annotation.MethodMonitorGroup public @interface IO {}");
const READER: (&str, &str) = ("t/Reader.java", "package t; @IO public class Reader { @IO public int read() { return 1; } }");

fn run(classes: &Path, runtime_classpath: Vec<String>) -> EnhanceReport {
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.threads = 1;
    request.runtime_classpath = Some(runtime_classpath);
    pipeline::run(&request)
}

fn snapshot(classes: &Path) -> Vec<(String, Vec<u8>)> {
    files_under(classes).into_iter().map(|f| (f.clone(), std::fs::read(classes.join(&f)).unwrap())).collect()
}

/// A jar holding only the class that stands for tf-runtime.
fn runtime_jar(dir: &Path) -> String {
    let path = dir.join("tf-runtime.jar");
    let mut jar = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    jar.start_file(MARKER, zip::write::SimpleFileOptions::default()).unwrap();
    jar.write_all(b"\xca\xfe\xba\xbe").unwrap();
    jar.finish().unwrap();
    path.display().to_string()
}

#[test]
fn enhancing_without_tf_runtime_on_the_runtime_class_path_fails_and_writes_nothing() {
    let work = tempfile::tempdir().unwrap();
    let classes = javac(work.path(), "17", &with_tf_api(&[GROUP, READER]));
    let before = snapshot(&classes);
    let report = run(&classes, vec![work.path().join("no-such.jar").display().to_string()]);
    assert!(!report.ok);
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    let error = report.errors[0].to_string();
    assert!(error.starts_with(&format!("{}: the classes TF enhances here call", classes.display())), "{error}");
    assert!(error.contains("add the dependency org.tracingfacility:tf-runtime"), "{error}");
    assert!(error.ends_with("[runtime-missing]"), "{error}");
    assert_eq!(snapshot(&classes), before, "nothing is written");
}

#[test]
fn tf_runtime_in_a_jar_of_the_runtime_class_path_is_found() {
    let work = tempfile::tempdir().unwrap();
    let classes = javac(work.path(), "17", &with_tf_api(&[GROUP, READER]));
    let report = run(&classes, vec![runtime_jar(work.path())]);
    assert!(report.ok, "{:?}", report.errors);
    assert_eq!(report.classes_enhanced, 1, "{}", report.summary);
}

#[test]
fn a_class_directory_with_nothing_to_enhance_needs_no_tf_runtime() {
    let work = tempfile::tempdir().unwrap();
    let plain = ("t/Plain.java", "package t; public class Plain { public int read() { return 1; } }");
    let classes = javac(work.path(), "17", &[plain]);
    let report = run(&classes, Vec::new());
    assert!(report.ok, "{:?}", report.errors);
}
