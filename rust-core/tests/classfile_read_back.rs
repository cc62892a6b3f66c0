//! `ClassFile::read_back`, the pre-write check's read of a class TF wrote
//! (and `check_extending`, its twin keeping nothing): a member that is byte
//! for byte the original's at the same index, read against the same pool
//! entries, is taken as the original's parse checked it, not read again.
//! Its oracle is the plain `ClassFile::parse`: the methods it keeps are those
//! a full parse finds different from the original's, and it refuses every
//! file a full parse refuses, with the same error.

mod support;

use support::extracted_image;
use tf_core::classfile::{class_files, ClassEditor, ClassFile, ClassFileError, Constant, Member};


/// What the plain parse finds changed: each method of `edited` that is not
/// byte for byte the method of `original` at its index.
fn changed_by_a_full_parse<'e>(original: &ClassFile<'_>, edited: &ClassFile<'e>) -> Vec<(usize, Member<'e>)> {
    let changed = |(index, method): &(usize, &Member<'e>)| original.methods().get(*index).is_none_or(|o| o.raw != method.raw);
    edited.methods().iter().enumerate().filter(changed).map(|(index, method)| (index, method.clone())).collect()
}

/// `bytes` refused by the read-back and by the check as a full parse refuses them.
fn refused_as_a_full_parse_refuses(bytes: &[u8], original: &ClassFile<'_>) -> ClassFileError {
    let full = ClassFile::parse(bytes).expect_err("a full parse refuses it");
    let read_back = ClassFile::read_back(bytes, original).expect_err("so does the read-back");
    let checked = ClassFile::check_extending(bytes, original).expect_err("so does the check");
    assert_eq!(full.to_string(), read_back.to_string());
    assert_eq!(full.to_string(), checked.to_string());
    full
}

/// Every class of JDK 17's java.base, edited (every third method's access
/// flags changed, a field, a method and a pool entry added), read back.
#[test]
fn the_read_back_keeps_the_methods_a_full_parse_finds_changed_in_every_jdk17_base_class() {
    let dir = extracted_image(&support::jdk17_home(), "jdk17").join("java.base");
    let files = class_files(&dir).expect("list java.base");
    assert!(files.len() > 5_000, "only {} classes in {}", files.len(), dir.display());
    let (mut kept, mut skipped) = (0, 0);
    for file in files {
        let bytes = std::fs::read(&file).expect("read a class");
        let original = ClassFile::parse(&bytes).expect("parse a JDK class");
        let mut editor = ClassEditor::new(&original);
        for index in (0..original.methods().len()).step_by(3) {
            editor.edit_method(index).expect("a method").access_flags ^= 0x1000;
        }
        editor.pool.class("tf/AddedByTheEdit").expect("add a class entry");
        editor.add_field(0x0008, "addedByTheEdit", "I").expect("add a field");
        editor.add_method(0x0408, "addedByTheEdit", "()V").expect("add a method");
        let edited = editor.to_bytes().expect("write the edit");
        let full = ClassFile::parse(&edited).expect("full parse of the edit");
        let read_back = ClassFile::read_back(&edited, &original).expect("read back");
        ClassFile::check_extending(&edited, &original).expect("the check passes the edit");
        let expected = changed_by_a_full_parse(&original, &full);
        assert_eq!(read_back.changed_methods(), &expected[..], "{}", file.display());
        let (pool, full_pool) = (read_back.class().constant_pool(), full.constant_pool());
        assert_eq!((pool.count(), pool.raw_bytes()), (full_pool.count(), full_pool.raw_bytes()), "{}", file.display());
        kept += expected.len();
        skipped += full.methods().len() - expected.len();
    }
    assert!(kept > 10_000 && skipped > 20_000, "{kept} methods read, {skipped} taken as the original's");
}

/// A javac-compiled class with a field `ab` nothing in the class uses (its
/// name's Utf8 entry is named by no other entry), and its parse.
fn original() -> Vec<u8> {
    let dir = tempfile::tempdir().expect("temp dir");
    let classes = support::javac(
        dir.path(),
        "11",
        &[("p/Plain.java", "package p; public class Plain implements java.io.Serializable { int ab; public int twice(int v) { return 2 * v; } }")],
    );
    std::fs::read(classes.join("p/Plain.class")).expect("read class")
}

/// An edit copying every member, changing `twice`, adding a pool entry.
fn edit(original: &ClassFile<'_>) -> Vec<u8> {
    let mut editor = ClassEditor::new(original);
    let twice = original.methods().iter().position(|m| m.name_is("twice")).expect("twice");
    editor.edit_method(twice).expect("twice").access_flags |= 0x0010;
    editor.pool.class("p/AddedByTheEdit").expect("add a class entry");
    editor.to_bytes().expect("write the edit")
}

#[test]
fn a_copied_member_naming_a_changed_entry_is_read_again() {
    let original_bytes = original();
    let original = ClassFile::parse(&original_bytes).expect("parse original");
    let mut edited = edit(&original);
    // The field's name, a Utf8 entry of two bytes, made an Integer (as long):
    // the pool is still well formed, the field's bytes are the original's,
    // and it names an entry of the wrong kind.
    let field = &original.fields()[0];
    let at = original.constant_pool().offset_of(field.name_index);
    assert_eq!(edited[at..at + 5], [1, 0, 2, b'a', b'b']);
    edited[at] = 3;
    assert!(matches!(ClassFile::parse(&edited).expect_err("refused").kind, tf_core::classfile::ErrorKind::WrongConstantKind { .. }));
    refused_as_a_full_parse_refuses(&edited, &original);
}

#[test]
fn a_changed_member_is_read_again() {
    let original_bytes = original();
    let original = ClassFile::parse(&original_bytes).expect("parse original");
    let edited = edit(&original);
    let parsed = ClassFile::parse(&edited).expect("parse the edit");
    let class_entry = parsed.this_class_index().to_be_bytes();
    // A copied field's name made a Class entry; a copied method's attribute
    // named by a Class entry; the last attribute cut short.
    let mut bad_field = edited.clone();
    let field = &parsed.fields()[0];
    bad_field[field.offset + 2..field.offset + 4].copy_from_slice(&class_entry);
    let mut bad_attribute = edited.clone();
    let attribute = parsed.methods()[0].attributes[0];
    bad_attribute[attribute.offset..attribute.offset + 2].copy_from_slice(&class_entry);
    let cut = edited[..edited.len() - 1].to_vec();
    for bytes in [bad_field, bad_attribute, cut] {
        refused_as_a_full_parse_refuses(&bytes, &original);
    }
}

#[test]
fn an_edit_of_another_pool_has_every_method_read() {
    let original_bytes = original();
    let original = ClassFile::parse(&original_bytes).expect("parse original");
    let edited = edit(&original);
    // An original Utf8 entry changed in place (same length, still valid):
    // the pool does not begin with the original's, no member is taken as read.
    let mut other = edited.clone();
    let at = original.constant_pool().offset_of(original.fields()[0].name_index);
    other[at + 3] = b'x';
    let full = ClassFile::parse(&other).expect("still a class");
    let read_back = ClassFile::read_back(&other, &original).expect("read back");
    let every: Vec<_> = full.methods().iter().cloned().enumerate().collect();
    assert_eq!(read_back.changed_methods(), &every[..]);
    let Constant::Utf8(name) = full.constant_pool().get(original.fields()[0].name_index).expect("entry") else {
        panic!("still a Utf8 entry")
    };
    assert_eq!(&name[..], b"xb");
}

#[test]
fn a_changed_class_index_is_checked_again() {
    let original_bytes = original();
    let original = ClassFile::parse(&original_bytes).expect("parse original");
    let edited = edit(&original);
    let parsed = ClassFile::parse(&edited).expect("parse the edit");
    let utf8 = parsed.fields()[0].name_index.to_be_bytes();
    // this_class, super_class, then the interface made a Utf8 entry: the
    // pool is the original's, the index is not the one its parse checked.
    let this_at = 10 + parsed.constant_pool().raw_bytes().len() + 2;
    let indexes = [parsed.this_class_index(), parsed.super_class_index(), parsed.interface_indexes()[0]];
    for (at, index) in [this_at, this_at + 2, this_at + 6].into_iter().zip(indexes) {
        let mut bad = edited.clone();
        assert_eq!(bad[at..at + 2], index.to_be_bytes());
        bad[at..at + 2].copy_from_slice(&utf8);
        refused_as_a_full_parse_refuses(&bad, &original);
        let full = ClassFile::parse(&bad).expect_err("refused");
        let extending = ClassFile::parse_extending(&bad, &original).expect_err("refused");
        assert_eq!(full.to_string(), extending.to_string());
    }
    // The same with the layout the scan made of the original: this_class
    // made a Utf8 entry, the pool's bytes unchanged.
    let layout = tf_core::classfile::ClassHead::parse(&original_bytes).expect("head").into_pool_layout();
    let this_at = 10 + original.constant_pool().raw_bytes().len() + 2;
    let mut bad = original_bytes.clone();
    bad[this_at..this_at + 2].copy_from_slice(&original.fields()[0].name_index.to_be_bytes());
    let full = ClassFile::parse(&bad).expect_err("a full parse refuses it");
    let laid_out = ClassFile::parse_with_layout(&bad, &layout).expect_err("so does the parse with the layout");
    assert_eq!(full.to_string(), laid_out.to_string());
}
