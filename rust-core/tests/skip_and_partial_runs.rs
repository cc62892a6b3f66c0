//! What TF does with a method it cannot enhance: a method only a filter
//! selected is left exactly as it was (one warning, counted in the summary)
//! while the rest of its class is enhanced; one the user annotated fails the
//! run; `fail_on_skip` makes every skip a failure; and `fail_on_error =
//! false` still writes every class without errors.
//!
//! The method TF cannot enhance is one javac compiles to 65,462 bytes of
//! code: with TF's additions it would pass the JVM's 65,535.
mod support;

use std::path::Path;
use support::{files_under, javac, with_tf_api};
use tf_core::classfile::ClassFile;
use tf_core::pipeline;
use tf_core::request::{EnhanceReport, EnhanceRequest};

const GROUP: (&str, &str) =
    ("t/A.java", "package t; @org.tracingfacility.annotation.MethodMonitorGroup public @interface A {}");

/// A class `t.{name}` with `big(int)` (65,462 bytes of code) and `small(int)`,
/// each preceded by `annotation` (and the class too when it is not empty).
fn source(name: &str, annotation: &str) -> (String, String) {
    let statements = "        x ^= 0x1234;\n".repeat(10_910);
    let text = format!(
        "package t;\n{annotation} public class {name} {{\n    {annotation} public static int big(int x) {{\n{statements}        return x;\n    }}\n    {annotation} public static int small(int x) {{ return x + 1; }}\n}}\n"
    );
    (format!("t/{name}.java"), text)
}

fn compile(work: &Path, classes: &[(String, String)]) -> std::path::PathBuf {
    let mut sources: Vec<(&str, &str)> = vec![GROUP];
    sources.extend(classes.iter().map(|(p, t)| (p.as_str(), t.as_str())));
    javac(work, "17", &with_tf_api(&sources))
}

fn run(classes: &Path, filters: &[&str], edit: impl FnOnce(&mut EnhanceRequest)) -> EnhanceReport {
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.filters = filters.iter().map(|f| f.to_string()).collect();
    request.threads = 1;
    edit(&mut request);
    pipeline::run(&request)
}

fn read(classes: &Path, name: &str) -> Vec<u8> {
    std::fs::read(classes.join(format!("t/{name}.class"))).unwrap()
}

/// The Code attribute of method `name` as written.
fn code_of(bytes: &[u8], name: &str) -> Vec<u8> {
    let class = ClassFile::parse(bytes).unwrap();
    let method = class.methods().iter().find(|m| m.name_is(name)).unwrap();
    class.code(method).unwrap().unwrap().attribute.raw.to_vec()
}

fn snapshot(classes: &Path) -> Vec<(String, Vec<u8>)> {
    files_under(classes).into_iter().map(|f| (f.clone(), std::fs::read(classes.join(&f)).unwrap())).collect()
}

#[test]
fn a_filter_selected_method_tf_cannot_enhance_is_left_as_it_was_and_the_rest_enhanced() {
    let work = tempfile::tempdir().unwrap();
    let classes = compile(work.path(), &[source("Big", "")]);
    let before = read(&classes, "Big");
    let report = run(&classes, &["t.Big"], |_| {});
    assert!(report.ok, "{:?}", report.errors);
    assert_eq!(report.methods_skipped, 1);
    assert_eq!(
        report.warnings,
        ["TF: t.Big.big(I)I: not enhanced, left as it was: cannot be enhanced: the method's code would pass \
          65535 bytes [enhance]"]
    );
    assert_eq!(
        report.summary,
        "TF: 6 classes scanned, 1 enhanced, 5 unchanged, 0 failed, 1 method skipped; 1 TF annotations"
    );
    let after = read(&classes, "Big");
    assert_eq!(code_of(&after, "big"), code_of(&before, "big"), "big(int) is left exactly as it was");
    assert_ne!(code_of(&after, "small"), code_of(&before, "small"), "small(int) is enhanced");
}

#[test]
fn fail_on_skip_turns_the_skip_into_a_failure() {
    let work = tempfile::tempdir().unwrap();
    let classes = compile(work.path(), &[source("Big", "")]);
    let before = snapshot(&classes);
    let report = run(&classes, &["t.Big"], |r| r.fail_on_skip = true);
    assert!(!report.ok);
    assert_eq!(report.methods_skipped, 0);
    let [error] = report.errors.as_slice() else { panic!("one error: {:?}", report.errors) };
    assert_eq!((error.class.as_deref(), error.method.as_deref(), error.rule.id()), (Some("t.Big"), Some("big(I)I"), "enhance"));
    assert!(error.message.ends_with("(a method selected by a filter; failOnSkip is set)"), "{}", error.message);
    assert_eq!(snapshot(&classes), before, "nothing is written");
}

#[test]
fn an_annotated_method_tf_cannot_enhance_fails_the_run() {
    let work = tempfile::tempdir().unwrap();
    let classes = compile(work.path(), &[source("Big", "@A")]);
    let before = snapshot(&classes);
    let report = run(&classes, &[], |_| {});
    assert!(!report.ok);
    let [error] = report.errors.as_slice() else { panic!("one error: {:?}", report.errors) };
    assert_eq!((error.method.as_deref(), error.rule.id()), (Some("big(I)I"), "enhance"));
    assert_eq!(report.methods_skipped, 0);
    assert_eq!(snapshot(&classes), before, "nothing is written");
}

#[test]
fn with_fail_on_error_false_every_class_without_errors_is_enhanced() {
    // Issue 35 5c: one bad class no longer keeps the others from being enhanced.
    let work = tempfile::tempdir().unwrap();
    let good = (
        "t/Good.java".to_string(),
        "package t; @A public class Good { @A public int twice(int x) { return 2 * x; } }".to_string(),
    );
    let classes = compile(work.path(), &[source("Big", "@A"), good]);
    let (big_before, good_before) = (read(&classes, "Big"), read(&classes, "Good"));

    let report = run(&classes, &[], |_| {});
    assert!(!report.ok);
    assert_eq!(read(&classes, "Good"), good_before, "by default nothing is written");

    let report = run(&classes, &[], |r| r.fail_on_error = false);
    assert!(!report.ok, "the error is still reported");
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    assert_eq!(report.errors[0].class.as_deref(), Some("t.Big"));
    assert_eq!(read(&classes, "Big"), big_before, "the class with the error stays as it was");
    assert_ne!(read(&classes, "Good"), good_before, "the other class is enhanced");
    assert!(report.written.iter().any(|f| f.ends_with("Good.class")), "{:?}", report.written);
    assert_eq!(report.classes_enhanced, 1);
    assert!(report.summary.ends_with("(FAILED: the classes with errors were left as they were)"), "{}", report.summary);
}

#[test]
fn with_fail_on_error_false_a_class_file_that_cannot_be_read_does_not_stop_the_others() {
    let work = tempfile::tempdir().unwrap();
    let good = (
        "t/Good.java".to_string(),
        "package t; @A public class Good { @A public int twice(int x) { return 2 * x; } }".to_string(),
    );
    let classes = compile(work.path(), &[good]);
    let truncated = [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 55, 0, 7];
    std::fs::write(classes.join("t/Broken.class"), truncated).unwrap();
    let good_before = read(&classes, "Good");

    let report = run(&classes, &[], |r| r.fail_on_error = false);
    assert!(!report.ok);
    let [error] = report.errors.as_slice() else { panic!("one error: {:?}", report.errors) };
    assert!(error.file.as_deref().unwrap().ends_with("Broken.class"), "{error:?}");
    assert_eq!(std::fs::read(classes.join("t/Broken.class")).unwrap(), truncated);
    assert_ne!(read(&classes, "Good"), good_before, "the readable class is enhanced");
    assert_eq!((report.classes_scanned, report.classes_failed, report.classes_enhanced), (7, 1, 1));
}
