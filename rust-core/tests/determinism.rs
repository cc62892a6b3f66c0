//! The same input bytes and settings give byte-identical output whatever the
//! directory path and the number of threads.
mod support;

use std::path::Path;
use support::{files_under, javac_against, tf_runtime_classes};
use tf_core::pipeline;
use tf_core::request::EnhanceRequest;

fn fixture(name: &str) -> (String, String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tracegen");
    (format!("fx/{name}.java"), std::fs::read_to_string(dir.join(format!("{name}.java"))).unwrap())
}

fn copy_tree(from: &Path, to: &Path) {
    for file in files_under(from) {
        let target = to.join(&file);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(from.join(&file), target).unwrap();
    }
}

fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files_under(dir).into_iter().map(|f| (f.clone(), std::fs::read(dir.join(&f)).unwrap())).collect()
}

fn enhance(dir: &Path, threads: u32) {
    let mut request = EnhanceRequest::new(dir.to_str().unwrap());
    request.classpath = vec![tf_runtime_classes().display().to_string()];
    request.filters = vec!["fx.Zoo$Plain".into(), "Top=fx.Recorder::dump".into()];
    request.threads = threads;
    let report = pipeline::run(&request);
    assert!(report.ok, "{report:#?}");
    assert!(report.classes_enhanced >= 10, "{report:#?}");
}

#[test]
fn output_does_not_depend_on_path_or_threads() {
    let work = tempfile::tempdir().unwrap();
    let sources: Vec<(String, String)> =
        ["Traced", "Top", "Sub", "Other", "Recorder", "Shapes", "Zoo"].iter().map(|n| fixture(n)).collect();
    let refs: Vec<(&str, &str)> = sources.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let compiled = javac_against(&work.path().join("javac"), "17", &[&tf_runtime_classes()], &refs);

    let one = work.path().join("a");
    let two = work.path().join("somewhere/else/entirely");
    copy_tree(&compiled, &one);
    copy_tree(&compiled, &two);
    enhance(&one, 1);
    enhance(&two, 2);
    let (a, b) = (contents(&one), contents(&two));
    assert_eq!(a.len(), b.len());
    for ((fa, ba), (fb, bb)) in a.iter().zip(&b) {
        assert_eq!(fa, fb);
        assert!(ba == bb, "{fa} differs between the two runs");
    }
    assert_ne!(contents(&compiled), a, "the runs did enhance something");
}
