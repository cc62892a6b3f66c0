//! The names enhancing adds to every class's pool are known to the pool
//! builder (`protocol::pool_texts`), which adds them borrowed instead of
//! copying them for each class: a name added to the protocol but not to that
//! list would make every enhanced class copy it again.
mod support;

use std::collections::BTreeSet;
use std::path::Path;
use support::{files_under, javac_against, tf_runtime_classes};
use tf_core::classfile::{ClassFile, Constant, ConstantPool};
use tf_core::request::EnhanceRequest;
use tf_core::{pipeline, protocol};

fn utf8_texts(pool: &ConstantPool<'_>) -> BTreeSet<String> {
    (1..pool.count())
        .filter(|&i| matches!(pool.get(i), Ok(Constant::Utf8(_))))
        .filter_map(|i| pool.utf8(i).ok().map(|t| t.into_owned()))
        .collect()
}

/// For each class file under `dir`, its pool's Utf8 texts.
fn texts_by_class(dir: &Path) -> Vec<(String, BTreeSet<String>)> {
    files_under(dir)
        .into_iter()
        .filter(|f| f.ends_with(".class"))
        .map(|f| {
            let bytes = std::fs::read(dir.join(&f)).unwrap();
            let texts = utf8_texts(ClassFile::parse(&bytes).unwrap().constant_pool());
            (f, texts)
        })
        .collect()
}

#[test]
fn every_name_enhancing_adds_to_every_class_is_known() {
    let work = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tracegen");
    let sources: Vec<(String, String)> = ["Traced", "Top", "Sub", "Other", "Recorder", "Shapes", "Zoo"]
        .iter()
        .map(|n| (format!("fx/{n}.java"), std::fs::read_to_string(fixtures.join(format!("{n}.java"))).unwrap()))
        .collect();
    let refs: Vec<(&str, &str)> = sources.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let classes = javac_against(&work.path().join("javac"), "17", &[&tf_runtime_classes()], &refs);
    let before = texts_by_class(&classes);

    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.classpath = vec![tf_runtime_classes().display().to_string()];
    request.filters = vec!["fx.**".into()];
    let report = pipeline::run(&request);
    assert!(report.ok, "{report:#?}");
    let after = texts_by_class(&classes);

    let added: Vec<BTreeSet<String>> =
        before.iter().zip(&after).map(|((_, b), (_, a))| a.difference(b).cloned().collect()).collect();
    let enhanced: Vec<&BTreeSet<String>> = added.iter().filter(|a| !a.is_empty()).collect();
    assert!(enhanced.len() >= 5, "the fixtures were enhanced: {} classes got names", enhanced.len());
    let in_every = enhanced.iter().skip(1).fold(enhanced[0].clone(), |all, a| all.intersection(a).cloned().collect());
    let fingerprint = |t: &String| t.len() == 24 && t.bytes().all(|b| b.is_ascii_hexdigit());
    // TF's own names, but for info methods' new descriptors (each its own).
    let info_descriptor = |t: &&String| t.contains(protocol::INFO_EXTRA_PARAMETERS);
    let ours = enhanced.iter().flat_map(|a| a.iter()).filter(|t| t.contains("tracingfacility") && !info_descriptor(t));
    let unknown: BTreeSet<&String> =
        in_every.iter().chain(ours).filter(|t| !fingerprint(t) && !protocol::pool_texts().contains(t)).collect();
    assert!(
        unknown.is_empty(),
        "names every enhanced class gets, or TF's own, missing from protocol::pool_texts: {unknown:?}"
    );
    assert!(in_every.contains(protocol::TF_ENHANCED), "{in_every:?}");
}
