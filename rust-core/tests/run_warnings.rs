//! What a run that succeeds still warns about, so that a setup that traces
//! nothing does not pass in silence: a filter that selects no method (one
//! naming a dependency's class, which a build-time run never sees), and a TF
//! group on a class none of whose methods carries it.
mod support;

use std::path::Path;
use support::{javac, with_tf_api};
use tf_core::pipeline;
use tf_core::request::{EnhanceReport, EnhanceRequest};

const GROUP: (&str, &str) =
    ("t/IO.java", "package t; @org.tracingfacility.annotation.MethodMonitorGroup public @interface IO {}");
const SHOP: (&str, &str) = ("t/Shop.java", "package t; public class Shop { public int pay(int x) { return x + 1; } }");

fn run(classes: &Path, filters: &[&str]) -> EnhanceReport {
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.filters = filters.iter().map(|f| f.to_string()).collect();
    request.threads = 1;
    pipeline::run(&request)
}

fn warnings_naming(report: &EnhanceReport, text: &str) -> Vec<String> {
    report.warnings.iter().filter(|w| w.contains(text)).cloned().collect()
}

#[test]
fn a_filter_that_selects_nothing_is_named_in_one_warning() {
    let work = tempfile::tempdir().unwrap();
    let classes = javac(work.path(), "17", &with_tf_api(&[GROUP, SHOP]));
    let report = run(&classes, &["t.Shop::pay", "com.fasterxml.jackson.databind.ObjectMapper", "::noSuchMethod"]);
    assert!(report.ok, "{:?}", report.errors);
    assert_eq!(report.classes_enhanced, 1, "the filter that matches still enhances: {}", report.summary);
    let dir = classes.display();
    assert_eq!(
        report.warnings,
        [
            format!(
                "TF: filter 'com.fasterxml.jackson.databind.ObjectMapper' selected no method of the classes in {dir}: \
                 TF enhances only the classes compiled here, not those of dependencies (README: \"Tracing dependencies\")"
            ),
            format!(
                "TF: filter '::noSuchMethod' selected no method of the classes in {dir}: TF enhances only the classes \
                 compiled here, not those of dependencies (README: \"Tracing dependencies\")"
            ),
        ]
    );
}

#[test]
fn a_filter_naming_only_annotated_methods_is_told_apart_from_one_naming_nothing_here() {
    const TIMED: (&str, &str) =
        ("t/Clock.java", "package t; @IO public class Clock { @IO public long now() { return 1L; } }");
    let work = tempfile::tempdir().unwrap();
    let classes = javac(work.path(), "17", &with_tf_api(&[GROUP, TIMED]));
    let report = run(&classes, &["t.Clock::now", "t.Gone::now"]);
    assert!(report.ok, "{:?}", report.errors);
    let dir = classes.display();
    assert_eq!(
        report.warnings,
        [
            format!(
                "TF: filter 't.Clock::now' selected no method of the classes in {dir}: the methods it names carry a \
                 TF annotation (or @InfoMethod) already, which chose them and their group before any filter: drop \
                 the filter, or the annotation for the filter's group to apply"
            ),
            format!(
                "TF: filter 't.Gone::now' selected no method of the classes in {dir}: TF enhances only the classes \
                 compiled here, not those of dependencies (README: \"Tracing dependencies\")"
            ),
        ]
    );
}

#[test]
fn a_run_asked_not_to_warn_of_unused_filters_does_not() {
    let work = tempfile::tempdir().unwrap();
    let classes = javac(work.path(), "17", &with_tf_api(&[GROUP, SHOP]));
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.filters = vec!["t.Elsewhere".into()];
    request.threads = 1;
    request.warn_unused_filters = false; // as the plugins ask for test classes
    let report = pipeline::run(&request);
    assert!(report.ok, "{:?}", report.errors);
    assert_eq!(report.warnings, Vec::<String>::new());
}

#[test]
fn a_filter_shadowed_by_an_earlier_one_still_counts_as_selecting() {
    let work = tempfile::tempdir().unwrap();
    let classes = javac(work.path(), "17", &with_tf_api(&[GROUP, SHOP]));
    let report = run(&classes, &["t.**", "t.Shop::pay"]);
    assert!(report.ok, "{:?}", report.errors);
    assert_eq!(warnings_naming(&report, "selected no method"), Vec::<String>::new());
}

#[test]
fn a_group_on_a_class_with_no_annotated_method_is_a_warning() {
    let work = tempfile::tempdir().unwrap();
    let cart = ("t/Cart.java", "package t; @IO public class Cart { public int checkout(int x) { return x; } }");
    let classes = javac(work.path(), "17", &with_tf_api(&[GROUP, cart]));
    let report = run(&classes, &[]);
    assert!(report.ok, "{:?}", report.errors);
    assert_eq!(
        report.warnings,
        ["TF: t.Cart: the class carries @t.IO but none of its methods does, so nothing in it is traced: annotate the \
          methods to trace, or select them all with the filter '@t.IO' [group-on-class-only]"]
    );
}

#[test]
fn a_group_on_a_class_whose_methods_a_filter_selects_is_no_warning() {
    let work = tempfile::tempdir().unwrap();
    let cart = ("t/Cart.java", "package t; @IO public class Cart { public int checkout(int x) { return x; } }");
    let classes = javac(work.path(), "17", &with_tf_api(&[GROUP, cart]));
    let report = run(&classes, &["@t.IO"]);
    assert!(report.ok, "{:?}", report.errors);
    assert_eq!(report.warnings, Vec::<String>::new());
    assert_eq!(report.classes_enhanced, 1, "{}", report.summary);
}
