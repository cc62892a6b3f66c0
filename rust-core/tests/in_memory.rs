//! One class in memory (the agent's request): the same enhancer as a build,
//! so its bytes are the bytes a directory run writes for that class; a class
//! at stage 1 gets stage 2, one at stage 2 is left alone, bad bytes are an
//! error naming the class. Through `ffi::dispatch`, as JNI calls it.
mod support;

use std::path::{Path, PathBuf};
use support::{files_under, javac_against, tf_runtime_classes};
use tf_core::ffi::{dispatch, Outcome};
use tf_core::pipeline;
use tf_core::request::{ClassInMemory, EnhanceReport, EnhanceRequest};

const SHAPES: &str = "fx/Shapes.class";
const RECORDER: &str = "fx/Recorder.class";

fn fixture(name: &str) -> (String, String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tracegen");
    (format!("fx/{name}.java"), std::fs::read_to_string(dir.join(format!("{name}.java"))).unwrap())
}

/// javac's output for Traced (the group), Recorder and Shapes, in `work/classes`.
fn compiled(work: &Path) -> PathBuf {
    let sources: Vec<(String, String)> = ["Traced", "Recorder", "Shapes"].iter().map(|n| fixture(n)).collect();
    let refs: Vec<(&str, &str)> = sources.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    javac_against(work, "11", &[&tf_runtime_classes()], &refs)
}

fn copy_of(classes: &Path, name: &str) -> PathBuf {
    let copy = classes.with_file_name(name);
    for file in files_under(classes) {
        let target = copy.join(&file);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(classes.join(&file), target).unwrap();
    }
    copy
}

/// A directory run, as a build plugin makes it.
fn build(classes: &Path, tracegen: bool, filters: &[&str]) -> EnhanceReport {
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.classpath = vec![tf_runtime_classes().display().to_string()];
    request.tracegen = tracegen;
    request.filters = filters.iter().map(|f| f.to_string()).collect();
    let report = pipeline::run(&request);
    assert!(report.ok, "{report:#?}");
    report
}

/// The agent's request for one class, through the MessagePack entry point.
fn in_memory(name: &str, bytes: Vec<u8>, filters: &[&str]) -> EnhanceReport {
    let mut request = EnhanceRequest::new("");
    request.class = Some(ClassInMemory { name: name.into(), bytes, supertypes: Vec::new() });
    request.groups = vec!["fx.Traced".into()];
    request.filters = filters.iter().map(|f| f.to_string()).collect();
    match dispatch(&rmp_serde::to_vec_named(&request).unwrap()) {
        Outcome::Report(report) => rmp_serde::from_slice(&report).unwrap(),
        other => panic!("the core answered {other:?}"),
    }
}

fn read(dir: &Path, file: &str) -> Vec<u8> {
    std::fs::read(dir.join(file)).unwrap()
}

#[test]
fn a_class_in_memory_gets_the_bytes_a_build_writes() {
    let work = tempfile::tempdir().unwrap();
    let javac = compiled(work.path());
    let built = copy_of(&javac, "built");
    build(&built, true, &[]);
    let before = files_under(&javac);

    let report = in_memory("fx.Shapes", read(&javac, SHAPES), &[]);
    assert!(report.ok, "{report:#?}");
    assert_eq!((report.classes_enhanced, report.classes_unchanged), (1, 0));
    assert_eq!(report.class_bytes.as_deref(), Some(&read(&built, SHAPES)[..]), "the build's bytes for Shapes");
    assert!(report.written.is_empty(), "nothing written");
    assert_eq!(files_under(&javac), before, "no file appeared beside the classes");

    // Nothing of TF and no filter naming it: no bytes, unchanged.
    let plain = in_memory("fx.Recorder", read(&javac, RECORDER), &[]);
    assert!(plain.ok && plain.class_bytes.is_none() && plain.classes_unchanged == 1, "{plain:#?}");
}

#[test]
fn a_class_a_filter_selects_gets_the_bytes_a_build_with_that_filter_writes() {
    let work = tempfile::tempdir().unwrap();
    let javac = compiled(work.path());
    let built = copy_of(&javac, "built");
    build(&built, true, &["fx.Recorder"]);
    let report = in_memory("fx.Recorder", read(&javac, RECORDER), &["fx.Recorder"]);
    assert!(report.ok, "{report:#?}");
    assert_eq!(report.class_bytes.as_deref(), Some(&read(&built, RECORDER)[..]));
}

#[test]
fn stage_one_gets_stage_two_and_stage_two_is_left_alone() {
    let work = tempfile::tempdir().unwrap();
    let javac = compiled(work.path());
    let stage_one = copy_of(&javac, "stage-one");
    build(&stage_one, false, &[]);
    let upgraded = copy_of(&stage_one, "upgraded");
    build(&upgraded, true, &[]);

    // The agent's own filters differ from the build's (none): the class gets
    // stage 2 for its annotations, as the build would have given it.
    for filters in [&[][..], &["fx.Elsewhere"][..]] {
        let report = in_memory("fx.Shapes", read(&stage_one, SHAPES), filters);
        assert!(report.ok, "{report:#?}");
        assert_eq!(report.class_bytes.as_deref(), Some(&read(&upgraded, SHAPES)[..]), "filters {filters:?}");
    }

    let report = in_memory("fx.Shapes", read(&upgraded, SHAPES), &["fx.**"]);
    assert!(report.ok, "{report:#?}");
    assert!(report.class_bytes.is_none(), "stage 2 already: left as it is");
    assert_eq!(report.classes_unchanged, 1);
}

#[test]
fn a_stage_one_class_built_with_other_filters_is_refused_by_name() {
    let work = tempfile::tempdir().unwrap();
    let javac = compiled(work.path());
    build(&javac, false, &["fx.Recorder"]);
    let report = in_memory("fx.Recorder", read(&javac, RECORDER), &["fx.Shapes"]);
    assert!(!report.ok && report.class_bytes.is_none(), "{report:#?}");
    assert_eq!(report.errors.len(), 1);
    let error = &report.errors[0];
    assert_eq!((error.class.as_deref(), error.rule.id()), (Some("fx.Recorder"), "stage-one-other-settings"));
    assert_eq!(error.file, None, "no file behind a class in memory");
}

#[test]
fn bytes_that_are_no_class_file_are_an_error_naming_the_class() {
    let report = in_memory("com.example.Broken", vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0], &["**"]);
    assert!(!report.ok && report.class_bytes.is_none(), "{report:#?}");
    assert_eq!(report.classes_failed, 1);
    let error = &report.errors[0];
    assert_eq!((error.class.as_deref(), error.rule.id(), error.file.as_deref()), (Some("com.example.Broken"), "parse", None));
}
