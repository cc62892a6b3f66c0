//! Real class files (tests/fixtures/realworld) through a whole run with
//! every method selected (`-filter '**'`).
use std::path::{Path, PathBuf};
use tf_core::classfile::check::check_method;
use tf_core::classfile::{ClassFile, PoolBuilder};
use tf_core::pipeline;
use tf_core::request::{EnhanceReport, EnhanceRequest};

/// A class directory holding `fixture` as `class_file`, enhanced with `-filter '**'`.
fn enhance(fixture: &str, class_file: &str) -> (tempfile::TempDir, PathBuf, EnhanceReport) {
    let work = tempfile::tempdir().unwrap();
    let target = work.path().join(class_file);
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/realworld").join(fixture);
    std::fs::copy(&source, &target).unwrap();
    let mut request = EnhanceRequest::new(work.path().to_str().unwrap());
    request.filters = vec!["**".into()];
    request.threads = 1;
    request.debug = true;
    let report = pipeline::run(&request);
    (work, target, report)
}

#[test]
fn guava_overloads_whose_simple_type_names_clash_get_qualified_tracing_names() {
    let (_work, _, report) = enhance("guava-Streams.class", "com/google/common/collect/Streams.class");
    assert!(report.ok, "{:?}", report.errors);
    let description = report.messages.iter().find(|m| m.starts_with("debug: com.google.common.collect.Streams:")).unwrap();
    let names: Vec<&str> = description
        .split(' ')
        .filter_map(|part| part.split_once('=').map(|(_, name)| name))
        .filter(|name| name.starts_with("stream("))
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            "stream(Collection)",
            "stream(Iterable)",
            "stream(Iterator)",
            "stream(OptionalDouble)",
            "stream(OptionalInt)",
            "stream(OptionalLong)",
            "stream(com.google.common.base.Optional)",
            "stream(java.util.Optional)",
        ]
    );
}

/// Every method of the written class passes the pre-write check, and every
/// method TF left out is named by a warning with the rule that kept it out.
fn assert_written_code_checks_and_skips_are_explained(target: &Path, report: &EnhanceReport, class: &str) {
    assert!(report.ok, "{:?}", report.errors);
    let bytes = std::fs::read(target).unwrap();
    let written = ClassFile::parse(&bytes).unwrap();
    let mut pool = PoolBuilder::new(written.constant_pool().clone());
    for method in written.methods() {
        assert_eq!(check_method(&written, method, &mut pool), Ok(()), "{}", method.name().unwrap());
    }
    assert_eq!(report.methods_skipped as usize, report.warnings.len());
    for warning in &report.warnings {
        assert!(warning.starts_with(&format!("TF: {class}.")), "{warning}");
        assert!(warning.contains("not enhanced, left as it was: "), "{warning}");
        assert!(warning.ends_with(']'), "a rule: {warning}");
    }
}

#[test]
fn kotlin_suspend_lambda_is_written_verifiable_or_its_method_skipped() {
    let class = "kotlin.sequences.SequencesKt__SequencesKt$ifEmpty$1";
    let (_work, target, report) =
        enhance("kotlin-SequencesKt__SequencesKt$ifEmpty$1.class", "kotlin/sequences/SequencesKt__SequencesKt$ifEmpty$1.class");
    assert_written_code_checks_and_skips_are_explained(&target, &report, class);
    assert_eq!(report.classes_enhanced, 1, "the rest of the class is enhanced");
}

#[test]
fn groovy_constructors_are_written_verifiable_or_skipped() {
    let (_work, target, report) = enhance("groovy-CliBuilderException.class", "groovy/cli/CliBuilderException.class");
    assert_written_code_checks_and_skips_are_explained(&target, &report, "groovy.cli.CliBuilderException");
    assert_eq!(report.classes_enhanced, 1, "the rest of the class is enhanced");
}
