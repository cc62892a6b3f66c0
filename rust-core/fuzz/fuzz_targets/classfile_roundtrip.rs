//! Parse, write, parse again, compare; and lift every method's code into the
//! code model and assemble it. Any input may be refused with an error, but
//! nothing may panic, and what is accepted must round-trip:
//! - a parsed class written with no edit is byte-identical to the input;
//! - code that lifts and assembles gives a class that parses, and assembling
//!   that class's code again changes nothing (the encoding is a fixed point).
//!   Only the methods assembled the first time are compared: one whose lift
//!   failed keeps its original code, which may refer to pool entries that
//!   only the other methods' additions create, so that it lifts the second
//!   time and its (invalid) original max_stack is corrected.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tf_core::classfile::{ClassEditor, ClassFile, CodeModel, PoolBuilder};

fuzz_target!(|data: &[u8]| {
    let Ok(class) = ClassFile::parse(data) else { return };
    let _ = class.annotations();
    let written = ClassEditor::new(&class).to_bytes().expect("an unedited class always writes");
    assert_eq!(written, data, "an unedited class must come out byte-identical");

    let mut editor = ClassEditor::new(&class);
    let mut replaced = vec![false; class.methods().len()];
    for index in 0..class.methods().len() {
        if let Some(method) = class.methods().get(index) {
            let _ = class.member_annotations(method);
            let _ = class.parameter_annotations(method);
        }
        let Ok(Some(code)) = editor.lift_code(&class, index) else { continue };
        replaced[index] = editor.replace_code(index, &code).is_ok();
    }
    if !replaced.contains(&true) {
        return;
    }
    let once = editor.to_bytes().expect("an edited class writes");
    let reparsed = ClassFile::parse(&once).expect("assembled code parses again");
    let mut pool = PoolBuilder::new(reparsed.constant_pool().clone());
    for (method, _) in reparsed.methods().iter().zip(&replaced).filter(|(_, &replaced)| replaced) {
        let Ok(Some(model)) = CodeModel::lift(&reparsed, method, &mut pool) else { continue };
        let Ok(code) = model.assemble(&mut pool) else { continue };
        let original = reparsed.code(method).ok().flatten().map(|c| c.attribute.data().to_vec());
        assert_eq!(Some(code), original, "assembling assembled code must not change it");
    }
});
