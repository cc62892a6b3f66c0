//! The spec's rules, broken on purpose in javac-compiled classes: every
//! offence is reported at once, naming class, method and rule, and no file changes.
mod support;

use support::{files_under, javac, with_tf_api};
use tf_core::pipeline;
use tf_core::request::{Diagnostic, EnhanceRequest};

const GROUPS: &[(&str, &str)] = &[
    ("t/A.java", "package t; @org.tracingfacility.annotation.MethodMonitorGroup public @interface A {}"),
    ("t/B.java", "package t; @org.tracingfacility.annotation.MethodMonitorGroup public @interface B {}"),
];

fn run(release: &str, sources: &[(&str, &str)], filters: &[&str]) -> (Vec<Diagnostic>, bool) {
    let work = tempfile::tempdir().unwrap();
    let all: Vec<_> = with_tf_api(GROUPS).into_iter().chain(sources.iter().copied()).collect();
    let classes = javac(work.path(), release, &all);
    let before: Vec<(String, Vec<u8>)> =
        files_under(&classes).into_iter().map(|f| (f.clone(), std::fs::read(classes.join(&f)).unwrap())).collect();
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.filters = filters.iter().map(|f| f.to_string()).collect();
    let report = pipeline::run(&request);
    let after: Vec<(String, Vec<u8>)> =
        files_under(&classes).into_iter().map(|f| (f.clone(), std::fs::read(classes.join(&f)).unwrap())).collect();
    if !report.ok {
        assert_eq!(before, after, "a failed run changes no file");
    }
    (report.errors, report.ok)
}

/// (class, method, rule) of each offence, sorted.
fn offences(errors: &[Diagnostic]) -> Vec<(String, String, String)> {
    let mut v: Vec<_> = errors
        .iter()
        .map(|d| (d.class.clone().unwrap_or_default(), d.method.clone().unwrap_or_default(), d.rule.id().to_string()))
        .collect();
    v.sort();
    v
}

fn o(class: &str, method: &str, rule: &str) -> (String, String, String) {
    (class.into(), method.into(), rule.into())
}

#[test]
fn every_offence_at_once() {
    let bad = "package p; import t.*; import org.tracingfacility.annotation.*;
        @A public class Bad {
            @A @B void twoGroups() {}
            @B void groupNotOnClass() {}
            @InfoMethod public void publicInfo() {}
            @InfoMethod private static void staticInfo() {}
            @InfoMethod private int valueInfo() { return 0; }
            @InfoMethod private void bodyInfo() { System.out.println(); }
            @InfoMethod @A private void infoAndGroup() {}
            @A void over(int i) {}
            void over(String s) {}
            @A void same(int i) {}
            @A void same(long l) {}
            @A @TracingName(\"x\") void one() {}
            @A @TracingName(\"x\") void two() {}
        }";
    let (errors, ok) = run("11", &[("p/Bad.java", bad)], &[]);
    assert!(!ok);
    assert_eq!(
        offences(&errors),
        [
            o("p.Bad", "", "duplicate-tracing-name"),
            o("p.Bad", "bodyInfo()V", "info-method-has-body"),
            o("p.Bad", "groupNotOnClass()V", "tf-annotation-missing-on-class"),
            o("p.Bad", "infoAndGroup()V", "info-method-with-tf-annotation"),
            o("p.Bad", "over", "overload-mixed"),
            o("p.Bad", "publicInfo()V", "info-method-not-private"),
            o("p.Bad", "same", "overload-needs-tracing-name"),
            o("p.Bad", "staticInfo()V", "info-method-static"),
            o("p.Bad", "twoGroups()V", "multiple-tf-annotations"),
            o("p.Bad", "twoGroups()V", "tf-annotation-missing-on-class"),
            o("p.Bad", "valueInfo()I", "info-method-has-body"),
            o("p.Bad", "valueInfo()I", "info-method-not-void"),
        ]
    );
    assert!(errors.iter().all(|e| e.file.as_deref().is_some_and(|f| f.ends_with("p/Bad.class"))));
    let two = errors.iter().find(|e| e.rule == "multiple-tf-annotations").unwrap();
    assert_eq!(two.message, "a method may carry one TF annotation, this one has t.A, t.B");
}

/// javac 11+ calls private methods with invokevirtual (nest mates), javac 8
/// with invokespecial: both are info calls (the original enhancer saw only the latter).
#[test]
fn info_calls_from_unmonitored_methods_whatever_the_invoke() {
    let source = "package p; import t.*; import org.tracingfacility.annotation.*;
        @A public class Calls {
            @InfoMethod private void note(String s) {}
            @A void monitored() { note(\"fine\"); }
            void plain() { note(\"not allowed\"); }
        }";
    for release in ["8", "11", "17"] {
        let (errors, ok) = run(release, &[("p/Calls.java", source)], &[]);
        assert!(!ok, "release {release}");
        assert_eq!(offences(&errors), [o("p.Calls", "plain()V", "info-call-outside-monitored-method")], "release {release}");
        assert_eq!(errors[0].message, "calls info method note(Ljava/lang/String;)V but is not a monitored method");
    }
}

#[test]
fn a_valid_class_passes() {
    let source = "package p; import t.*; import org.tracingfacility.annotation.*;
        @A @B public class Good {
            @InfoMethod private void note(String s) {}
            @A @TracingName(\"readInt\") int read(int i) { note(\"x\"); return i; }
            @A @TracingName(\"readLong\") long read(long l) { return l; }
            @B void write() {}
            void plain() {}
        }";
    let (errors, ok) = run("11", &[("p/Good.java", source)], &[]);
    assert!(ok, "{errors:?}");
}

#[test]
fn bad_filters_are_reported_with_the_filter() {
    let (errors, ok) = run("11", &[], &["Nope=p.X", "p.X::1"]);
    assert!(!ok);
    let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "filter 'Nope=p.X': 'Nope' is not a TF annotation (an annotation type marked @MethodMonitorGroup)",
            "filter 'p.X::1': 'p.X::1': '1' is not a method name (an identifier, <init> or <clinit>)",
        ]
    );
}

#[test]
fn filters_name_overloads_apart() {
    // A filter selecting overloads needs no @TracingName: they get parameter lists.
    let source = "package p; public class Plain { void w(int i) {} void w(String s) {} }";
    let (errors, ok) = run("11", &[("p/Plain.java", source)], &["A=p.Plain::w"]);
    assert!(ok, "{errors:?}");
}
