//! `ClassFile::parse_extending` (and `check_extending`, the same keeping
//! nothing: the check of every class TF writes): it takes
//! the original's pool entries as already checked only when they are there
//! byte for byte, and is otherwise exactly as strict as `ClassFile::parse`.
//! The same for `ClassFile::parse_with_layout`, the enhancer's parse of a
//! class whose pool the scan read.

mod support;

use tf_core::classfile::{ClassEditor, ClassFile, ClassFileError, ClassHead, Constant, ErrorKind};

/// `parse` refuses `bytes` with the very error a full parse gives, which it returns.
fn refused_as_a_full_parse_refuses<'b>(
    bytes: &'b [u8],
    parse: impl FnOnce(&'b [u8]) -> Result<ClassFile<'b>, ClassFileError>,
) -> ClassFileError {
    let full = ClassFile::parse(bytes).expect_err("a full parse refuses it");
    let other = parse(bytes).expect_err("so does the other parse");
    assert_eq!(full.to_string(), other.to_string());
    full
}

/// A javac-compiled class, and an edit of it whose pool gained a Class
/// entry (and its Utf8) at the end: (original, edited, index of the Class entry).
fn original_and_edit() -> (Vec<u8>, Vec<u8>, u16) {
    let dir = tempfile::tempdir().expect("temp dir");
    let classes = support::javac(
        dir.path(),
        "11",
        &[(
            "p/Plain.java",
            "package p; public class Plain { String name = \"x\"; public int twice(int v) { return 2 * v; } }",
        )],
    );
    let original = std::fs::read(classes.join("p/Plain.class")).expect("read class");
    let parsed = ClassFile::parse(&original).expect("parse original");
    let mut editor = ClassEditor::new(&parsed);
    let added = editor.pool.class("p/AddedByTheEdit").expect("add a class constant");
    let edited = editor.to_bytes().expect("write the edit");
    (original, edited, added)
}

#[test]
fn an_edit_parses_as_a_full_parse_does() {
    let (original, edited, added) = original_and_edit();
    let original = ClassFile::parse(&original).expect("parse original");
    let full = ClassFile::parse(&edited).expect("full parse");
    let extending = ClassFile::parse_extending(&edited, &original).expect("parse extending");
    assert_eq!(format!("{full:?}"), format!("{extending:?}"));
    assert_eq!(extending.constant_pool().class_name(added).expect("the added entry").as_ref(), "p/AddedByTheEdit");
    assert!(extending.constant_pool().count() > original.constant_pool().count());
}

#[test]
fn an_edit_copying_some_members_and_changing_others_parses_as_a_full_parse_does() {
    let (original, _, _) = original_and_edit();
    let original = ClassFile::parse(&original).expect("parse original");
    // The constructor changed, `twice` and the field copied, a field and a method added.
    let mut editor = ClassEditor::new(&original);
    editor.edit_method(0).expect("the constructor").access_flags |= 0x1000;
    editor.add_field(0x0008, "added", "I").expect("add a field");
    editor.add_method(0x0408, "more", "()V").expect("add a method");
    let edited = editor.to_bytes().expect("write the edit");
    let full = ClassFile::parse(&edited).expect("full parse");
    let extending = ClassFile::parse_extending(&edited, &original).expect("parse extending");
    assert_eq!(format!("{full:?}"), format!("{extending:?}"));
    ClassFile::check_extending(&edited, &original).expect("the edit passes the check");
    // A copied member's bytes changed in the file (the field's name made a
    // Class entry): read again, and refused as a full parse refuses it.
    let mut bad = edited.clone();
    let field = &full.fields()[0];
    bad[field.offset + 2..field.offset + 4].copy_from_slice(&full.this_class_index().to_be_bytes());
    refused_as_a_full_parse_refuses(&bad, |bytes| ClassFile::parse_extending(bytes, &original));
    assert_eq!(
        ClassFile::parse(&bad).expect_err("refused").to_string(),
        ClassFile::check_extending(&bad, &original).expect_err("refused").to_string()
    );
}

#[test]
fn a_bad_new_entry_is_refused() {
    let (original, mut edited, added) = original_and_edit();
    let original = ClassFile::parse(&original).expect("parse original");
    // Point the added Class entry at itself (a Class, not a Utf8).
    let at = ClassFile::parse(&edited).expect("parse").constant_pool().offset_of(added);
    edited[at + 1..at + 3].copy_from_slice(&added.to_be_bytes());
    let full = refused_as_a_full_parse_refuses(&edited, |bytes| ClassFile::parse_extending(bytes, &original));
    assert!(matches!(full.kind, ErrorKind::WrongConstantKind { .. }), "{full}");
}

#[test]
fn a_changed_original_entry_is_checked_again() {
    let (original_bytes, mut edited, added) = original_and_edit();
    let original = ClassFile::parse(&original_bytes).expect("parse original");
    // An original Class entry (this class) made to point at a Class entry:
    // the prefix no longer matches, so the whole pool is read and checked.
    let this_class = original.this_class_index();
    let at = original.constant_pool().offset_of(this_class);
    edited[at + 1..at + 3].copy_from_slice(&added.to_be_bytes());
    refused_as_a_full_parse_refuses(&edited, |bytes| ClassFile::parse_extending(bytes, &original));
}

#[test]
fn the_check_that_keeps_nothing_refuses_what_a_full_parse_refuses() {
    let (original, edited, added) = original_and_edit();
    let original = ClassFile::parse(&original).expect("parse original");
    ClassFile::check_extending(&edited, &original).expect("the edit passes the check");
    let parsed = ClassFile::parse(&edited).expect("parse the edit");
    // A new pool entry pointing at itself; a file cut in its last
    // attribute; a method's attribute named by a Class entry, not a Utf8.
    let mut bad_entry = edited.clone();
    let at = parsed.constant_pool().offset_of(added);
    bad_entry[at + 1..at + 3].copy_from_slice(&added.to_be_bytes());
    let cut = edited[..edited.len() - 1].to_vec();
    let mut bad_name = edited.clone();
    let attribute = parsed.methods().iter().flat_map(|m| &m.attributes).next().expect("a method attribute");
    bad_name[attribute.offset..attribute.offset + 2].copy_from_slice(&added.to_be_bytes());
    for bytes in [bad_entry, cut, bad_name] {
        let full = ClassFile::parse(&bytes).expect_err("a full parse refuses it");
        let checked = ClassFile::check_extending(&bytes, &original).expect_err("so does the check");
        assert_eq!(full.to_string(), checked.to_string());
    }
}

// `ClassFile::parse_with_layout`: the enhancer's parse of a class the scan
// read up to its name (`ClassHead`), which does not read the pool again.

#[test]
fn a_parse_with_the_scans_layout_is_a_full_parse() {
    let (original, edited, _) = original_and_edit();
    let layout = ClassHead::parse(&original).expect("head").into_pool_layout();
    let full = ClassFile::parse(&original).expect("full parse");
    let laid_out = ClassFile::parse_with_layout(&original, &layout).expect("parse with layout");
    assert_eq!(format!("{full:?}"), format!("{laid_out:?}"));
    // Other bytes than the layout's are parsed in full, whatever they hold.
    let other = ClassFile::parse_with_layout(&edited, &layout).expect("parse of other bytes");
    assert_eq!(format!("{:?}", ClassFile::parse(&edited).expect("full parse")), format!("{other:?}"));
}

#[test]
fn what_follows_the_head_is_still_checked() {
    let (original, _, _) = original_and_edit();
    // Cut in the last attribute: the pool and the name are whole.
    let cut = &original[..original.len() - 1];
    let layout = ClassHead::parse(cut).expect("the head reads").into_pool_layout();
    refused_as_a_full_parse_refuses(cut, |bytes| ClassFile::parse_with_layout(bytes, &layout));
}

#[test]
fn a_layout_of_another_pool_is_not_taken() {
    let (original, _, _) = original_and_edit();
    let layout = ClassHead::parse(&original).expect("head").into_pool_layout();
    // Same length, same count, a method reference whose class is a Utf8
    // entry: only checking the pool's references finds it.
    let parsed = ClassFile::parse(&original).expect("parse");
    let pool = parsed.constant_pool();
    let (methodref, _) = pool
        .iter()
        .map(|entry| entry.expect("entry"))
        .find(|(_, constant)| matches!(constant, Constant::Methodref { .. }))
        .expect("a method reference");
    let Constant::Class { name: utf8 } = pool.get(parsed.this_class_index()).expect("this class") else {
        panic!("this_class is a Class entry")
    };
    let mut changed = original.clone();
    let at = pool.offset_of(methodref);
    changed[at + 1..at + 3].copy_from_slice(&utf8.to_be_bytes());
    let full = refused_as_a_full_parse_refuses(&changed, |bytes| ClassFile::parse_with_layout(bytes, &layout));
    assert!(matches!(full.kind, ErrorKind::WrongConstantKind { .. }), "{full}");
}
