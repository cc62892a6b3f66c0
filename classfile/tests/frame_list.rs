//! The splice holds a method's frames as records over one list of types
//! (`FrameList`); the plain list of `Frame`s is its oracle. On every method
//! of java.base both must decode the same frames, learn the same locals
//! (past the others, and among them) and encode the same bytes.

mod support;

use tf_classfile::access::ACC_STATIC;
use tf_classfile::stack_map::{self, FrameList, FrameView};
use tf_classfile::stack_map_encode;
use tf_classfile::{attribute_name, ClassFile, Frame, Label, PoolBuilder, VType};

/// The plain frames as the list's parts, to compare.
fn parts(frames: &[(Label, Frame)]) -> Vec<(Label, &[VType], &[VType])> {
    frames.iter().map(|(l, f)| (*l, &f.locals[..], &f.stack[..])).collect()
}

#[test]
fn frames_as_one_list_decode_edit_and_encode_as_the_plain_frames_do_on_java_base() {
    let (mut tables, mut among) = (0usize, 0usize);
    // One list for every method, as a worker keeps it.
    let mut list = FrameList::default();
    for (path, bytes) in support::java_base_classes() {
        let class = ClassFile::parse(&bytes).expect("parse");
        let mut pool = PoolBuilder::new(class.constant_pool().clone());
        for method in class.methods() {
            let Some(code) = class.code(method).expect("code") else { continue };
            let Some(table) = code.attribute(attribute_name::STACK_MAP_TABLE) else { continue };
            tables += 1;
            let descriptor = method.descriptor().expect("descriptor");
            let name = format!("{} {}{descriptor}", path.display(), method.name().expect("name"));
            let is_static = method.access_flags & ACC_STATIC != 0;
            let this = class.this_class_index();
            let initial = Frame::initial(this, is_static, method.name_is("<init>"), &descriptor, &mut pool).expect("first");
            let label_at = &mut |offset: u32, _| Ok(Label(offset));
            let budget = 64 * table.data().len() + 65_536;
            let mut plain = stack_map::decode_table(&table, &initial, budget, &mut pool, label_at).expect("frames");
            list.decode_table(&table, &initial, budget, &mut pool, label_at).expect("frames");
            assert_eq!(list.iter().collect::<Vec<_>>(), parts(&plain), "{name}: decoded");

            // Locals past the others from the middle frame on, as a body's
            // live locals are; then one among them, which the plain form's
            // slot edit makes.
            let from = plain.get(plain.len() / 2).map_or(0, |(l, _)| l.0);
            // Slot 1 is among a frame's locals when it has more than one slot.
            among += usize::from(plain.iter().any(|(l, f)| l.0 >= from && f.local_slot_count() > 1));
            let past = code.max_locals;
            let live = [(past, VType::Object(this)), (past + 1, VType::Long), (past + 4, VType::Integer)];
            let inside = [(1, VType::Float), (past + 2, VType::Null)];
            for locals in [&live[..], &inside[..]] {
                for (label, frame) in &mut plain {
                    if label.0 >= from {
                        frame.set_locals(locals);
                    }
                }
                list.set_locals(from, locals);
                assert_eq!(list.iter().collect::<Vec<_>>(), parts(&plain), "{name}: {locals:?} from {from}");
            }

            let offset_of = |l: Label| Ok(l.0);
            let listed: Vec<(u32, &Frame)> = plain.iter().map(|(l, f)| (l.0, f)).collect();
            let expected = stack_map_encode::encode(&listed, &initial, &offset_of).expect("encode");
            let views: Vec<FrameView<'_>> = list.views(|l| l.0).collect();
            let mut encoded = Vec::new();
            stack_map_encode::encode_views_into(&views, &initial.locals, &offset_of, &mut encoded).expect("encode");
            assert_eq!(encoded, expected, "{name}: encoded");
        }
    }
    assert!(tables > 10_000, "{tables} stack map tables");
    assert!(among > 1_000, "{among} methods had a local set among the others");
}
