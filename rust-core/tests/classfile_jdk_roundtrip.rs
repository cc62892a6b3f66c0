//! Every class of the JDK 17 and JDK 25 runtime images on this machine,
//! parsed and written back with no edit, comes out byte-identical; so does
//! the Code attribute of every method lifted into the code model and
//! assembled again (labels, relocated tables, StackMapTable re-encoding).
//!
//! Run it optimized: `cargo test --release -p tf-core --test classfile_jdk_roundtrip`
//! (about 25 s for both images here; a debug build is several times slower).
//!
//! The images are extracted once with `jimage extract` into
//! `CARGO_TARGET_TMPDIR/jdk-images/` and reused by later runs.

mod support;

use std::path::Path;
use support::extracted_image;
use tf_core::classfile::{class_files, roundtrip_dir, ClassFile, CodeModel, PoolBuilder};


fn assert_image_round_trips(java_home: &str, label: &str) {
    let dir = extracted_image(java_home, label);
    let summary = roundtrip_dir(&dir).expect("read the extracted image");
    println!("{label}: {summary}");
    for (file, reason) in summary.mismatches.iter().take(20) {
        println!("  {}: {reason}", file.display());
    }
    assert!(summary.classes > 10_000, "{label}: only {} classes found in {}", summary.classes, dir.display());
    assert!(summary.mismatches.is_empty(), "{label}: {summary}");
    assert_every_constructor_chaining_call_is_found(&dir, label);
}

/// Every constructor but `java/lang/Object`'s calls `super(...)` or `this(...)`;
/// following the types along every path must find where monitoring starts.
fn assert_every_constructor_chaining_call_is_found(dir: &Path, label: &str) {
    let mut constructors = 0;
    let mut missed = Vec::new();
    for file in class_files(dir).expect("list classes") {
        let bytes = std::fs::read(&file).expect("read class");
        let class = ClassFile::parse(&bytes).expect("parse class");
        if class.super_class_index() == 0 {
            continue;
        }
        let mut pool = PoolBuilder::new(class.constant_pool().clone());
        for method in class.methods().iter().filter(|m| m.name_is("<init>")) {
            let Some(code) = CodeModel::lift(&class, method, &mut pool).expect("lift") else {
                continue;
            };
            constructors += 1;
            if !matches!(code.constructor_chaining(&mut pool).map(|c| c.start()), Ok(Ok(_))) {
                missed.push(format!("{} {}", file.display(), method.descriptor().unwrap_or_default()));
            }
        }
    }
    println!("{label}: {constructors} constructors, super(...)/this(...) not found in {}", missed.len());
    assert!(missed.is_empty(), "{label}: {:#?}", &missed[..missed.len().min(20)]);
}

#[test]
fn jdk17_image_round_trips_byte_identical() {
    assert_image_round_trips(&support::jdk17_home(), "jdk17");
}

#[test]
fn jdk25_image_round_trips_byte_identical() {
    assert_image_round_trips(&support::jdk25_home().display().to_string(), "jdk25");
}
