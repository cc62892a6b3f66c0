//! The splice's scan reads each opcode's length and kind from one table
//! and takes only switches and `wide` apart; its plain version, decoding
//! every instruction by the JVMS, must find the same returns, throws and
//! switches at the same offsets, on every method of java.base; a method
//! it declines must hold an instruction it does not handle.

mod support;

use support::instruction_length;
use tf_classfile::splice::{self, Prepared, SiteKind};
use tf_classfile::{descriptor, ClassFile, PoolBuilder};

/// The returns, throws and switches of `code` in code order, decoded one
/// instruction at a time; `None` if it holds `jsr`, `ret`, `goto_w` or
/// `jsr_w`, which a splice leaves to the general path.
fn sites(code: &[u8]) -> Option<Vec<(u32, SiteKind)>> {
    let mut found = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let opcode = code[at];
        match opcode {
            0xa8 | 0xa9 | 0xc8 | 0xc9 => return None,
            0xc4 if code.get(at + 1) == Some(&0xa9) => return None, // wide ret
            0xac..=0xb1 => found.push((at as u32, SiteKind::Return(opcode))),
            0xbf => found.push((at as u32, SiteKind::Throw)),
            0xaa | 0xab => found.push((at as u32, SiteKind::Switch)),
            _ => {}
        }
        at += instruction_length(code, at).expect("an instruction");
    }
    Some(found)
}

#[test]
fn the_scan_finds_what_decoding_every_instruction_finds_on_java_base() {
    let (mut methods, mut ready, mut declined) = (0usize, 0usize, Vec::new());
    // One set of lists for every method, as a worker keeps them: what one
    // method left in them changes nothing for the next.
    let mut lists = splice::SpliceLists::default();
    for (path, bytes) in support::java_base_classes() {
        let class = ClassFile::parse(&bytes).expect("parse");
        let mut pool = PoolBuilder::new(class.constant_pool().clone());
        for method in class.methods() {
            let Some(code) = class.code(method).expect("code") else { continue };
            methods += 1;
            let expected = sites(code.code);
            let descriptor = method.descriptor().expect("descriptor");
            let parameters = descriptor::parse_method(&descriptor).expect("descriptor").parameters;
            let name = format!("{} {}{descriptor}", path.display(), method.name().expect("name"));
            match splice::prepare_reusing(&class, method, parameters.into_iter(), &mut pool, &mut lists).expect("prepare") {
                Prepared::Ready(_, splice) => {
                    let scanned: Vec<(u32, SiteKind)> = splice.sites().iter().map(|s| (s.offset, s.kind)).collect();
                    assert_eq!(Some(scanned), expected, "{name}");
                    splice.recycle(&mut lists);
                    ready += 1;
                }
                Prepared::Declined if expected.is_some() => declined.push(name),
                Prepared::Declined => {}
                Prepared::NoCode => panic!("{name}: code, yet none"),
            }
        }
    }
    // In java.base every method without jsr, ret or a wide jump is one a splice takes.
    assert!(declined.is_empty(), "{} declined: {declined:?}", declined.len());
    assert!(ready * 100 > methods * 95, "{ready} of {methods} methods scanned for splicing");
}
