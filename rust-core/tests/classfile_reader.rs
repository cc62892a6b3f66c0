//! The reader on real class files, and on broken ones: every bad input is an
//! error naming a byte offset, never a panic.

use std::path::Path;
use tf_core::classfile::access::ACC_INTERFACE;
use tf_core::classfile::{
    roundtrip_class, ClassFile, ClassFileError, CodeModel, ElementValue, ErrorKind, PoolBuilder,
};

fn seed(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/classfile/seeds").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

const SEEDS: [&str; 6] =
    ["Seeds.class", "Seeds$Point.class", "Seeds$Named.class", "Tag.class", "Subject.class", "Object17.class"];

#[test]
fn reads_names_annotations_and_members() {
    let bytes = seed("Seeds.class");
    let class = ClassFile::parse(&bytes).expect("parse");
    assert_eq!(class.major_version(), 69);
    assert_eq!(class.this_class().unwrap(), "Seeds");
    assert_eq!(class.super_class().unwrap().as_deref(), Some("java/lang/Object"));
    assert_eq!(class.access_flags() & ACC_INTERFACE, ACC_INTERFACE, "an interface");

    let annotations = class.annotations().expect("annotations");
    let tag = annotations.iter().find(|a| a.type_descriptor == "LTag;").expect("@Tag");
    assert!(tag.visible);
    assert_eq!(tag.element("value"), Some(&ElementValue::String("seeds".into())));
    assert_eq!(tag.element("numbers"), Some(&ElementValue::Array(vec![ElementValue::Int(3)])));
    assert_eq!(tag.element("type"), Some(&ElementValue::Class("Ljava/lang/String;".into())));
    assert_eq!(
        tag.element("kind"),
        Some(&ElementValue::Enum {
            type_descriptor: "Ljava/lang/annotation/ElementType;".into(),
            name: "METHOD".into()
        })
    );

    let loops = class.method("loops", "(I)I").expect("loops");
    let parameters = class.parameter_annotations(loops).expect("parameter annotations");
    assert_eq!(parameters.len(), 1);
    assert_eq!(parameters[0][0].element("value"), Some(&ElementValue::String("p".into())));
    let code = class.code(loops).expect("code").expect("has code");
    // What javap says of loops(int).
    assert_eq!((code.max_stack, code.max_locals, code.code.len(), code.exception_table.len()), (4, 7, 103, 6));
    let first = code.exception_table[0];
    assert_eq!((first.start_pc, first.end_pc, first.handler_pc), (27, 35, 42));
    assert_eq!(class.constant_pool().class_name(first.catch_type).expect("catch type"), "java/lang/ArithmeticException");
    assert_eq!(code.exception_table[5].catch_type, 0, "the last handler catches any");

    let tag_bytes = seed("Tag.class");
    let tag_class = ClassFile::parse(&tag_bytes).expect("parse Tag");
    let numbers = tag_class.method("numbers", "()[I").expect("numbers()");
    assert_eq!(
        tag_class.annotation_default(numbers).expect("default"),
        Some(ElementValue::Array(vec![ElementValue::Int(1), ElementValue::Int(2)]))
    );
}

#[test]
fn seeds_round_trip_through_the_writer_and_the_code_model() {
    for name in SEEDS {
        assert_eq!(roundtrip_class(&seed(name)), None, "{name}");
    }
}

#[test]
fn a_version_after_java_25_is_refused_by_number() {
    let mut bytes = seed("Subject.class");
    bytes[6..8].copy_from_slice(&70u16.to_be_bytes());
    let error = ClassFile::parse(&bytes).expect_err("version 70");
    assert_eq!(error.offset, Some(6));
    assert!(matches!(error.kind, ErrorKind::UnsupportedVersion { major: 70, .. }));
    assert!(error.to_string().contains("70.0 (Java 26)"), "{error}");
}

#[test]
fn every_truncation_is_an_error_at_an_offset_inside_the_file() {
    for name in SEEDS {
        let bytes = seed(name);
        for len in 0..bytes.len() {
            let error = ClassFile::parse(&bytes[..len]).expect_err("truncated");
            let offset = error.offset.unwrap_or_else(|| panic!("{name}[..{len}]: no offset: {error}"));
            assert!(offset <= len, "{name}[..{len}]: offset {offset} past the end");
        }
    }
}

#[test]
fn bad_tags_and_mistyped_references_name_their_offset() {
    let bytes = seed("Subject.class");
    let mut bad_tag = bytes.clone();
    bad_tag[10] = 2; // the first constant's tag; 2 is no tag
    let error = ClassFile::parse(&bad_tag).expect_err("bad tag");
    assert_eq!((error.offset, error.kind.clone()), (Some(10), ErrorKind::BadConstantTag(2)));

    // Point this_class at constant #1, a Methodref in javac's output.
    let class = ClassFile::parse(&bytes).expect("parse");
    let this_at = 10 + class.constant_pool().raw_bytes().len() + 2;
    let mut mistyped = bytes.clone();
    mistyped[this_at..this_at + 2].copy_from_slice(&1u16.to_be_bytes());
    let error = ClassFile::parse(&mistyped).expect_err("mistyped");
    assert_eq!(error.offset, Some(this_at));
    assert!(matches!(error.kind, ErrorKind::WrongConstantKind { index: 1, expected: "Class", .. }), "{error}");

    let mut out_of_range = bytes.clone();
    out_of_range[this_at..this_at + 2].copy_from_slice(&60_000u16.to_be_bytes());
    let error = ClassFile::parse(&out_of_range).expect_err("out of range");
    assert_eq!((error.offset, error.kind), (Some(this_at), ErrorKind::BadConstantIndex(60_000)));
}

#[test]
fn absurd_counts_are_refused_before_allocating() {
    // A pool count of 65,535 in a 14-byte file.
    let tiny = [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0xFF, 0xFF, 1, 0xFF, 0xFF, 0];
    let error = ClassFile::parse(&tiny).expect_err("absurd");
    assert!(error.offset.is_some_and(|o| o >= 10), "{error}");
}

/// Deterministic pseudo-random corruption: parse, lift and assemble any
/// mutant without panicking, every stage reached by some mutants.
#[test]
fn corrupted_classes_never_panic() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut total = Reached::default();
    let mut mutants = 0;
    for name in SEEDS {
        let original = seed(name);
        let unchanged = exercise(&original, true);
        assert!(unchanged.parsed && unchanged.round_trips, "{name}: the seed itself does not round-trip");
        assert_eq!(unchanged.lifted, unchanged.assembled, "{name}: a seed's method does not assemble");
        for _ in 0..1_500 {
            let mut bytes = original.clone();
            for _ in 0..1 + next() % 4 {
                let at = (next() % bytes.len() as u64) as usize;
                bytes[at] = next() as u8;
            }
            total.add(exercise(&bytes, false));
            mutants += 1;
        }
    }
    println!(
        "{mutants} mutants: {} parse, {} methods lifted, {} assembled, {} round-trip",
        total.parsed_count, total.lifted, total.assembled, total.round_trip_count
    );
    // The corruption must not stop everything at the parser: each later
    // stage sees mutants too (figures for these seeds and this generator).
    assert!(total.parsed_count * 10 > mutants, "only {} of {mutants} mutants parse", total.parsed_count);
    assert!(total.lifted > 1_000, "only {} methods of mutants lifted", total.lifted);
    assert!(total.assembled > 1_000, "only {} methods of mutants assembled", total.assembled);
    assert!(total.round_trip_count > 100, "only {} mutants round-trip", total.round_trip_count);
}

/// How far one input got.
#[derive(Default)]
struct Reached {
    parsed: bool,
    round_trips: bool,
    lifted: usize,
    assembled: usize,
    parsed_count: usize,
    round_trip_count: usize,
}

impl Reached {
    fn add(&mut self, one: Reached) {
        self.parsed_count += usize::from(one.parsed);
        self.round_trip_count += usize::from(one.round_trips);
        self.lifted += one.lifted;
        self.assembled += one.assembled;
    }
}

/// Every reading and the code round trip of `bytes`: an error must name a
/// byte inside the input, if it names one, a read of an unchanged seed must succeed, and a
/// method lifted and assembled unedited keeps its length (a seed's, its bytes).
fn exercise(bytes: &[u8], is_seed: bool) -> Reached {
    let inside = |what: &str, e: &ClassFileError| {
        assert!(!is_seed, "{what} of a seed: {e}");
        assert!(e.offset.is_none_or(|o| o <= bytes.len()), "{what}: {e} past the {} bytes", bytes.len());
    };
    let class = match ClassFile::parse(bytes) {
        Ok(class) => class,
        Err(e) => {
            inside("parse", &e);
            return Reached::default();
        }
    };
    let mut reached = Reached { parsed: true, ..Reached::default() };
    if let Err(e) = class.annotations() {
        inside("class annotations", &e);
    }
    let mut pool = PoolBuilder::new(class.constant_pool().clone());
    for method in class.methods() {
        if let Err(e) = class.member_annotations(method) {
            inside("method annotations", &e);
        }
        if let Err(e) = class.parameter_annotations(method) {
            inside("parameter annotations", &e);
        }
        let code = match class.code(method) {
            Ok(Some(code)) => code,
            Ok(None) => continue,
            Err(e) => {
                inside("code", &e);
                continue;
            }
        };
        let model = match CodeModel::lift(&class, method, &mut pool) {
            Ok(model) => model.expect("a method with code lifts to a model"),
            Err(e) => {
                inside("lift", &e);
                continue;
            }
        };
        reached.lifted += 1;
        match model.assemble(&mut pool) {
            Ok(data) => {
                reached.assembled += 1;
                let length = u32::from_be_bytes([data[4], data[5], data[6], data[7]]) as usize;
                assert_eq!(length, code.code.len(), "unedited code keeps its length");
                if is_seed {
                    assert_eq!(&data[8..8 + length], code.code, "unedited code keeps its bytes");
                }
            }
            // Assembly reports no file offsets: it works on labels.
            Err(e) => assert!(!is_seed, "assemble of a seed: {e}"),
        }
    }
    reached.round_trips = roundtrip_class(bytes).is_none();
    reached
}
