//! The targeted pre-write check (a method copied from a template whose code
//! passed once gets only what varies checked) against the full one, its
//! oracle: every class of the JDK 17 runtime image and of the real-world
//! fixture jars, every method monitored (`-filter '**'`), enhanced with each;
//! the outcomes (bytes, or the diagnostics naming the rule) must be the same,
//! so the targeted check never passes a method the full one rejects.
//!
//! Run it optimized: `cargo test --profile test-release -p tf-core --test pre_write_check_scope`.

mod support;

use std::path::{Path, PathBuf};
use support::extracted_image;
use tf_core::classfile::class_files;
use tf_core::enhance::{self, Outcome, PreWriteCheck, Settings};
use tf_core::filter::FilterSpec;
use tf_core::model::{Groups, Selection};
use tf_core::workspace::Workspace;
use tf_core::{protocol, scan};

/// What enhancing one class gave, comparable across the two checks.
#[derive(Debug, PartialEq, Eq)]
enum Result {
    Enhanced(Vec<u8>),
    Untouched,
    Skipped(Vec<String>),
    Failed(Vec<String>),
}

/// Enhances every class under each of `dirs` with both checks: the classes
/// compared, how many methods took the targeted check, and the classes whose
/// outcomes differ.
fn compare(dirs: &[PathBuf]) -> (usize, u64, Vec<String>) {
    let builtin = protocol::FILTERED_GROUP.replace('/', ".");
    let groups = Groups::new([builtin.clone()]);
    let selections = vec![Selection::new(FilterSpec::parse("**").expect("filter"), builtin)];
    let settings = |pre_write_check| Settings { pre_write_check, ..Settings::tracing(&["**"]) };
    let (targeted, full) = (settings(PreWriteCheck::Targeted), settings(PreWriteCheck::Full));
    let (targeted, full) =
        (enhance::Run::new(&groups, &selections, &targeted), enhance::Run::new(&groups, &selections, &full));
    let mut workspace = Workspace::default();
    let mut enhance_with = |scanned: &scan::ScannedClass, run: &enhance::Run| {
        let lines = |d: &[tf_core::request::Diagnostic]| d.iter().map(|d| format!("{d:?}")).collect();
        match enhance::enhance_class(scanned, run, &mut workspace) {
            Ok(Outcome::Enhanced { bytes, skipped, .. }) if skipped.is_empty() => Result::Enhanced(bytes),
            Ok(Outcome::Enhanced { skipped, .. } | Outcome::Skipped(skipped)) => Result::Skipped(lines(&skipped)),
            Ok(Outcome::Untouched | Outcome::Current) => Result::Untouched,
            Err(diagnostics) => Result::Failed(lines(&diagnostics)),
        }
    };
    let (mut compared, mut differing) = (0usize, Vec::new());
    for dir in dirs {
        for file in class_files(dir).expect("list classes") {
            let Ok(scanned) = scan::scan_class(&file, std::fs::read(&file).expect("read class")) else {
                continue;
            };
            compared += 1;
            // The targeted run first: a template's first method gets the full check in either.
            let with_targeted = enhance_with(&scanned, &targeted);
            let with_full = enhance_with(&scanned, &full);
            if with_targeted != with_full {
                differing.push(format!("{}: targeted {with_targeted:?}, full {with_full:?}", file.display()));
            }
        }
    }
    (compared, workspace.statistics().checks.targeted, differing)
}

#[test]
fn the_targeted_check_agrees_with_the_full_one_on_the_jdk17_image() {
    let image = extracted_image("/usr/lib/jvm/java-17-openjdk-amd64", "jdk17");
    let (compared, targeted, differing) = compare(&[image]);
    println!("jdk17: {compared} classes, {targeted} methods took the targeted check, {} differ", differing.len());
    assert!(compared > 10_000, "only {compared} classes compared");
    // Most methods are copied from a template whose code passed before.
    assert!(targeted > 50_000, "only {targeted} methods took the targeted check");
    assert!(differing.is_empty(), "the two checks differ on {:#?}", &differing[..differing.len().min(10)]);
}

#[test]
fn the_targeted_check_agrees_with_the_full_one_on_the_real_world_jars() {
    let realworld = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/realworld");
    let jars = ["kotlin-stdlib-2.0.20", "asm-9.7.1", "commons-collections-2.1", "groovy-4.0.24"];
    let (compared, targeted, differing) = compare(&jars.map(|jar| realworld.join(jar)));
    println!("real-world jars: {compared} classes, {targeted} methods took the targeted check");
    // A few classes picked from each jar (tests/fixtures/realworld/README.md).
    assert!(compared >= 20, "only {compared} classes compared");
    assert!(targeted > 0, "no method took the targeted check");
    assert!(differing.is_empty(), "the two checks differ on {:#?}", &differing[..differing.len().min(10)]);
}
