//! The targeted pre-write check (a method copied from a template whose code
//! passed once gets only what varies checked; another spliced method, only
//! the code the splice wrote, each stretch from the frame before it) against
//! the full one, its oracle: every class of the JDK 17 runtime image and of the real-world
//! fixture jars, every method monitored (`-filter '**'`), enhanced with each;
//! the outcomes (bytes, or the diagnostics naming the rule) must be the same,
//! so the targeted check never passes a method the full one rejects.
//!
//! Run it optimized: `cargo test --profile test-release -p tf-core --test pre_write_check_scope`.

mod support;

use std::path::{Path, PathBuf};
use support::extracted_image;
use tf_core::classfile::check::{Rule, SplicedRegions, Verifier};
use tf_core::classfile::{class_files, opcodes as op, ClassFile};
use tf_core::enhance::{self, Outcome, PreWriteCheck, Settings};
use tf_core::filter::FilterSpec;
use tf_core::model::{Groups, Selection};
use tf_core::workspace::Workspace;
use tf_core::tracegen::check_scope::{check_changed_methods, CheckCounts, SplicedMethod};
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
/// compared, how many methods took each targeted check, and the classes
/// whose outcomes differ.
fn compare(dirs: &[PathBuf]) -> (usize, CheckCounts, Vec<String>) {
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
    (compared, workspace.statistics().checks, differing)
}

#[test]
fn the_targeted_check_agrees_with_the_full_one_on_the_jdk17_image() {
    let image = extracted_image(&support::jdk17_home(), "jdk17");
    let (compared, checks, differing) = compare(&[image]);
    println!(
        "jdk17: {compared} classes; methods checked: {} copied from a template, {} spliced otherwise, {} in full \
         (both runs; {} spliced ones undecided); {} differ",
        checks.targeted,
        checks.spliced,
        checks.full,
        checks.spliced_undecided,
        differing.len()
    );
    assert!(compared > 10_000, "only {compared} classes compared");
    // Most methods are copied from a template whose code passed before.
    assert!(checks.targeted > 50_000, "only {} methods took the targeted check", checks.targeted);
    // Each template's first copy and the `<clinit>`s spliced with their registration.
    assert!(checks.spliced > 10_000, "only {} spliced methods had only their generated code followed", checks.spliced);
    assert!(differing.is_empty(), "the two checks differ on {:#?}", &differing[..differing.len().min(10)]);
}

#[test]
fn the_targeted_check_agrees_with_the_full_one_on_the_real_world_jars() {
    let realworld = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/realworld");
    let jars = ["kotlin-stdlib-2.0.20", "asm-9.7.1", "commons-collections-2.1", "groovy-4.0.24"];
    let (compared, checks, differing) = compare(&jars.map(|jar| realworld.join(jar)));
    println!(
        "real-world jars: {compared} classes; methods checked: {} copied from a template, {} spliced otherwise",
        checks.targeted, checks.spliced
    );
    // A few classes picked from each jar (tests/fixtures/realworld/README.md).
    assert!(compared >= 20, "only {compared} classes compared");
    assert!(checks.targeted > 0, "no method took the targeted check");
    assert!(checks.spliced > 0, "no spliced method had only its generated code followed");
    assert!(differing.is_empty(), "the two checks differ on {:#?}", &differing[..differing.len().min(10)]);
}

/// `java.lang.Boolean`'s `<clinit>` is spliced with its registration (no
/// template): the targeted check follows only what the splice wrote, and a
/// broken instruction there (in the prologue, in the tail) is rejected by it,
/// not left to the full check.
#[test]
fn the_targeted_check_of_a_spliced_clinit_rejects_a_broken_generated_block() {
    let image = extracted_image(&support::jdk17_home(), "jdk17");
    let original = std::fs::read(image.join("java.base/java/lang/Boolean.class")).expect("Boolean.class");
    let scanned = scan::scan_class(Path::new("Boolean.class"), original.clone()).expect("scan");
    let groups = Groups::new([protocol::FILTERED_GROUP.replace('/', ".")]);
    let selections = vec![Selection::new(FilterSpec::parse("**").expect("filter"), protocol::FILTERED_GROUP.replace('/', "."))];
    let settings = Settings::tracing(&["**"]);
    let run = enhance::Run::new(&groups, &selections, &settings);
    let Ok(Outcome::Enhanced { bytes: written, .. }) = enhance::enhance_class(&scanned, &run, &mut Workspace::default()) else {
        panic!("Boolean is enhanced");
    };

    // Where the splice wrote its code, read back from the written `<clinit>`:
    // the prologue up to the catch-all handler's range (the body), the
    // replaced returns (`goto` the exit block, the tail's start), the tail.
    let class = ClassFile::parse(&written).expect("written class");
    let index = class.methods().iter().position(|m| m.name_is("<clinit>")).expect("<clinit>");
    let code = class.code(&class.methods()[index]).expect("code").expect("code");
    let catch_all = code.exception_table.last().filter(|h| h.catch_type == 0).expect("the catch-all handler");
    let (body, tail) = (u32::from(catch_all.start_pc), u32::from(catch_all.end_pc));
    let mut returns = Vec::new();
    let mut at = body as usize;
    while at < tail as usize {
        let opcode = code.code[at];
        let length = match opcode {
            op::GOTO => {
                let target = at as i64 + i64::from(i16::from_be_bytes([code.code[at + 1], code.code[at + 2]]));
                if target == i64::from(tail) {
                    returns.push((at as u32, at as u32 + 3, op::RETURN));
                }
                3
            }
            op::IFEQ..=op::JSR | op::IFNULL | op::IFNONNULL => 3,
            op::IRETURN..=op::RETURN | op::ATHROW => 1,
            _ => op::plain_length(opcode).expect("Boolean's <clinit> has no switch, wide or athrow"),
        };
        at += length;
    }
    assert_eq!(returns.len(), 1, "the one return of Boolean's <clinit> is replaced");
    let regions = SplicedRegions { prologue: (0, body), returns, others: vec![(tail, code.code.len() as u32)] };
    let code_at = code.code.as_ptr() as usize - written.as_ptr() as usize;
    let (body, end) = (code_at + body as usize, code_at + code.code.len());

    let original_class = ClassFile::parse(&original).expect("original class");
    let check_with = |bytes: &[u8], verifier: &mut Verifier| {
        let written = ClassFile::read_back(bytes, &original_class).expect("class");
        let spliced = [(index, SplicedMethod { generated: None, regions: regions.clone() })];
        let mut counts = CheckCounts::default();
        let offences =
            check_changed_methods(&original_class, &written, &spliced, PreWriteCheck::Targeted, &mut counts, verifier);
        assert_eq!(counts.spliced, 1, "the targeted check decides on <clinit>");
        offences.into_iter().map(|(i, offence)| (i, offence.rule)).collect::<Vec<_>>()
    };
    let check = |bytes: &[u8]| check_with(bytes, &mut Verifier::default());
    assert_eq!(check(&written), [], "as written, it passes");

    // The prologue's last instruction stores the token `enterWithToken`
    // returned: `lstore` made `istore` pops a long as an int.
    let lstore_0 = op::ISTORE_0 + 4;
    let (at, istore) = match (written[body - 2], written[body - 1]) {
        (op::LSTORE, _) => (body - 2, op::ISTORE),
        (_, short) if (lstore_0..lstore_0 + 4).contains(&short) => (body - 1, short - 4),
        other => panic!("the prologue ends with lstore, not {other:?}"),
    };
    let mut broken = written.clone();
    broken[at] = istore;
    assert_eq!(check(&broken), [(index, Rule::OperandType)], "a broken prologue is rejected");

    // The tail ends with the catch-all handler's `athrow`: made `areturn`, a
    // void method returns a value.
    assert_eq!(written[end - 1], op::ATHROW, "the tail ends with athrow");
    let mut broken = written.clone();
    broken[end - 1] = op::ARETURN;
    assert_eq!(check(&broken).len(), 1, "a broken tail is rejected");

    // The method descriptors the check read are kept from one class to the
    // next, known by their text: the prologue's `registerClass` made to
    // return an int (left on the stack) is rejected as with none kept,
    // though the cache holds the call's true descriptor.
    let descriptor = protocol::REGISTER_CLASS.descriptor.as_bytes();
    let at = written.windows(descriptor.len()).position(|w| w == descriptor).expect("registerClass's descriptor");
    let mut broken = written.clone();
    broken[at + descriptor.len() - 1] = b'I';
    let mut kept = Verifier::default();
    assert_eq!(check_with(&written, &mut kept), [], "as written, it passes");
    let rejected = check(&broken);
    assert_eq!(rejected.len(), 1, "a call that leaves a value on the stack is rejected");
    assert_eq!(check_with(&broken, &mut kept), rejected, "the descriptors kept do not change the verdict");
}
