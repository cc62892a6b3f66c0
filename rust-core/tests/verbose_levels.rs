//! What each `verbose` level adds to a run's messages, on one class: 1 the
//! class, 2 its methods, 3 the edits and the TF annotations found, 4 the
//! debug lines besides.
mod support;

use std::path::Path;
use support::{javac, with_tf_api};
use tf_core::pipeline;
use tf_core::request::EnhanceRequest;

const GROUP: (&str, &str) =
    ("t/IO.java", "package t; @org.tracingfacility.annotation.MethodMonitorGroup public @interface IO {}");
const READER: (&str, &str) = (
    "t/Reader.java",
    "package t; @IO public class Reader {
         @IO public int read() { note(); return 1; }
         public int write() { return 2; }
         @org.tracingfacility.annotation.InfoMethod private void note() {}
     }",
);

/// The messages of a run at `verbose` over a fresh copy of the classes, with
/// the byte counts of the edits line (which depend on javac) masked.
fn messages(verbose: u8) -> Vec<String> {
    let work = tempfile::tempdir().unwrap();
    let classes = javac(work.path(), "17", &with_tf_api(&[GROUP, READER]));
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.threads = 1;
    request.verbose = verbose;
    request.filters = vec!["t.Reader::write".into()];
    let report = pipeline::run(&request);
    assert!(report.ok, "{:?}", report.errors);
    let resource = Path::new(&classes).join("META-INF/tf/tfannotations.properties");
    assert!(resource.is_file());
    report.messages.iter().map(|m| mask_sizes(m)).collect()
}

fn mask_sizes(line: &str) -> String {
    match line.split_once(": ").filter(|(_, rest)| rest.contains(" bytes;")) {
        Some((class, rest)) => format!("{class}: N -> N bytes;{}", rest.split_once(" bytes;").unwrap().1),
        None => line.to_string(),
    }
}

#[test]
fn verbose_zero_says_nothing_beyond_the_summary() {
    assert_eq!(messages(0), Vec::<String>::new());
}

#[test]
fn verbose_one_lists_each_class_enhanced() {
    assert_eq!(messages(1), ["enhanced t.Reader"]);
}

#[test]
fn verbose_two_adds_each_method_with_its_role() {
    assert_eq!(
        messages(2),
        [
            "enhanced t.Reader",
            "  t.Reader.read()I: monitored in t.IO",
            "  t.Reader.write()I: monitored in org.tracingfacility.annotation.Filtered (a filter chose it)",
            "  t.Reader.note()V: info method (NONE)",
        ]
    );
}

#[test]
fn verbose_three_adds_the_edits_and_the_annotations_found() {
    assert_eq!(
        messages(3),
        [
            "TF annotation: t.IO",
            "enhanced t.Reader",
            "  t.Reader.read()I: monitored in t.IO",
            "  t.Reader.write()I: monitored in org.tracingfacility.annotation.Filtered (a filter chose it)",
            "  t.Reader.note()V: info method (NONE)",
            "  t.Reader: N -> N bytes; holder fields for org.tracingfacility.annotation.Filtered, t.IO",
        ]
    );
}

#[test]
fn verbose_four_adds_the_debug_lines() {
    let four = messages(4);
    let three = messages(3);
    assert!(four.len() > three.len(), "{four:?}");
    assert!(three.iter().all(|line| four.contains(line)), "{four:?}");
    assert!(four.iter().any(|line| line.starts_with("debug: t.Reader: groups")), "{four:?}");
}
