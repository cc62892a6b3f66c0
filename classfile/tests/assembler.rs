//! The assembler: layout (switch padding, branch widening at the exact
//! boundary), frames the layout needs (a `nop` between two different frames
//! at one offset), the exception table, max_stack/max_locals and the limits
//! it refuses. Expected bytes are worked out by hand from the JVMS.

mod support;

use support::{ClassBytes, CodeBody};
use tf_classfile::opcodes as op;
use tf_classfile::{ClassFile, CodeModel, Frame, Handler, Insn, Label, PoolBuilder, VType};

/// An empty class's pool (`T`, `java/lang/Object` and their Class entries).
fn class_bytes() -> Vec<u8> {
    ClassBytes::new().finish(50)
}

fn pool(bytes: &[u8]) -> PoolBuilder<'_> {
    PoolBuilder::new(ClassFile::parse(bytes).expect("parse").constant_pool().clone())
}

/// A new static method `descriptor` holding `elements` (labels below `labels`).
fn model<'a>(
    descriptor: &str,
    frames_required: bool,
    elements: Vec<Insn>,
    labels: u32,
    pool: &mut PoolBuilder<'a>,
) -> CodeModel<'a> {
    let mut model = CodeModel::empty(2, 0x0008, "m", descriptor, frames_required, pool).expect("model");
    model.elements = elements;
    model.next_label = labels;
    model
}

fn nops(count: usize) -> impl Iterator<Item = Insn> {
    std::iter::repeat_n(Insn::Simple(op::NOP), count)
}

#[test]
fn a_switch_is_padded_to_four_bytes_wherever_an_edit_moves_it() {
    let bytes = class_bytes();
    let mut pool = pool(&bytes);
    let (default, one) = (Label(0), Label(1));
    let elements = vec![
        Insn::Simple(op::ILOAD_0),
        Insn::TableSwitch { default, low: 1, targets: vec![one] },
        Insn::Label(one),
        Insn::Simple(op::ICONST_1),
        Insn::Simple(op::IRETURN),
        Insn::Label(default),
        Insn::Simple(op::ICONST_0),
        Insn::Simple(op::IRETURN),
    ];
    let mut code = model("(I)I", false, elements, 2, &mut pool);
    #[rustfmt::skip]
    let at_one = [
        0x1a, // 0: iload_0
        0xaa, 0, 0, // 1: tableswitch, two bytes of padding
        0, 0, 0, 21, // default: 22 - 1
        0, 0, 0, 1, 0, 0, 0, 1, // low, high
        0, 0, 0, 19, // 1: 20 - 1
        0x04, 0xac, // 20
        0x03, 0xac, // 22
    ];
    assert_eq!(CodeBody::read(&code.assemble(&mut pool).expect("assemble")).code, at_one);
    code.insert(0, [Insn::Simple(op::NOP)]);
    #[rustfmt::skip]
    let at_two = [
        0x00, 0x1a, // 0: nop, 1: iload_0
        0xaa, 0, // 2: tableswitch, one byte of padding: the targets stay where they were
        0, 0, 0, 20, // default: 22 - 2
        0, 0, 0, 1, 0, 0, 0, 1,
        0, 0, 0, 18, // 1: 20 - 2
        0x04, 0xac,
        0x03, 0xac,
    ];
    assert_eq!(CodeBody::read(&code.assemble(&mut pool).expect("assemble")).code, at_two);
}

#[test]
fn a_lookupswitch_keeps_its_pairs_and_is_padded_too() {
    let bytes = class_bytes();
    let mut pool = pool(&bytes);
    let (default, minus) = (Label(0), Label(1));
    let elements = vec![
        Insn::Simple(op::ICONST_0),
        Insn::Simple(op::ILOAD_0),
        Insn::LookupSwitch { default, pairs: vec![(-7, minus)] },
        Insn::Label(minus),
        Insn::Label(default),
        Insn::Simple(op::IRETURN),
    ];
    let code = model("(I)I", false, elements, 2, &mut pool);
    #[rustfmt::skip]
    let expected = [
        0x03, 0x1a, // iconst_0, iload_0
        0xab, 0, // 2: lookupswitch, one byte of padding
        0, 0, 0, 18, // default: 20 - 2
        0, 0, 0, 1, // one pair
        0xff, 0xff, 0xff, 0xf9, 0, 0, 0, 18, // -7: 20 - 2
        0xac, // 20
    ];
    assert_eq!(CodeBody::read(&code.assemble(&mut pool).expect("assemble")).code, expected);
}

/// `goto` over `filler` nops to a `return`.
fn goto_over(filler: usize) -> Vec<u8> {
    let bytes = class_bytes();
    let mut pool = pool(&bytes);
    let end = Label(0);
    let mut elements = vec![Insn::Branch { opcode: op::GOTO, target: end }];
    elements.extend(nops(filler));
    elements.extend([Insn::Label(end), Insn::Simple(op::RETURN)]);
    let code = model("()V", false, elements, 1, &mut pool);
    CodeBody::read(&code.assemble(&mut pool).expect("assemble")).code
}

#[test]
fn a_goto_is_widened_exactly_when_its_offset_passes_32767() {
    let reach = goto_over(32_764); // the return at 32767
    assert_eq!(reach[..3], [0xa7, 0x7f, 0xff]);
    assert_eq!(reach.len(), 32_768);
    let past = goto_over(32_765); // the return at 32768 as a goto; at 32770 as a goto_w
    assert_eq!(past[..5], [0xc8, 0x00, 0x00, 0x80, 0x02]);
    assert_eq!(past.len(), 32_771);
}

#[test]
fn a_far_conditional_branch_becomes_its_inverse_over_a_goto_w_with_a_frame_after_it() {
    let bytes = class_bytes();
    let mut pool = pool(&bytes);
    let far = Label(0);
    let mut elements = vec![Insn::Simple(op::ILOAD_0), Insn::Branch { opcode: op::IFEQ, target: far }];
    elements.extend(nops(33_000));
    elements.extend([Insn::Label(far), Insn::Simple(op::RETURN)]);
    let mut code = model("(I)V", true, elements, 1, &mut pool);
    code.frames.push((far, Frame { locals: vec![VType::Integer], stack: vec![] }));
    let body = CodeBody::read(&code.assemble(&mut pool).expect("assemble"));
    // 1: ifne 9 (over the goto_w); 4: goto_w 33009; 9: the nops.
    assert_eq!(body.code[..9], [0x1a, 0x9a, 0x00, 0x08, 0xc8, 0x00, 0x00, 0x80, 0xed]);
    assert_eq!(body.code.len(), 9 + 33_000 + 1);
    let (name, frames) = &body.attributes[0];
    assert_eq!(pool.text(*name).expect("name"), "StackMapTable");
    // same_frame at 9; same_frame_extended 33009 - 9 - 1 = 32999 later.
    assert_eq!(frames, &[0, 2, 9, 251, 0x80, 0xe7]);
}

/// `goto second; first: second: return` with a frame at each of the two
/// labels (which fall at one offset), assembled.
fn two_frames_at_one_offset(descriptor: &str, first_frame: Frame, second_frame: Frame) -> CodeBody {
    let bytes = class_bytes();
    let mut pool = pool(&bytes);
    let (first, second) = (Label(0), Label(1));
    let elements = vec![
        Insn::Branch { opcode: op::GOTO, target: second },
        Insn::Label(first),
        Insn::Label(second),
        Insn::Simple(op::RETURN),
    ];
    let mut code = model(descriptor, true, elements, 2, &mut pool);
    code.frames.push((first, first_frame));
    code.frames.push((second, second_frame));
    CodeBody::read(&code.assemble(&mut pool).expect("assemble"))
}

#[test]
fn two_different_frames_at_one_offset_are_kept_apart_by_a_nop() {
    let body = two_frames_at_one_offset("(I)V", Frame { locals: vec![VType::Integer], stack: vec![] }, Frame::default());
    assert_eq!(body.code, [0xa7, 0x00, 0x04, 0x00, 0xb1], "goto 4; nop; return");
    // same_frame at 3; chop_frame of one local at 4 (4 - 3 - 1 = 0).
    assert_eq!(body.attributes[0].1, [0, 2, 3, 250, 0, 0]);
}

#[test]
fn equal_frames_at_one_offset_need_no_nop() {
    let body = two_frames_at_one_offset("()V", Frame::default(), Frame::default());
    assert_eq!(body.code, [0xa7, 0x00, 0x03, 0xb1]);
    assert_eq!(body.attributes[0].1, [0, 1, 3], "one frame written");
}

#[test]
fn handlers_keep_their_priority_and_a_range_an_edit_emptied_is_dropped() {
    let bytes = class_bytes();
    let mut pool = pool(&bytes);
    let labels: Vec<Label> = (0..4).map(Label).collect();
    let elements = vec![
        Insn::Label(labels[0]),
        Insn::Label(labels[1]),
        Insn::Simple(op::RETURN),
        Insn::Label(labels[2]),
        Insn::Label(labels[3]),
        Insn::Simple(op::ATHROW),
    ];
    let mut code = model("()V", false, elements, 4, &mut pool);
    code.handlers = vec![
        Handler { start: labels[0], end: labels[1], handler: labels[3], catch_type: 4 },
        Handler { start: labels[1], end: labels[2], handler: labels[3], catch_type: 4 },
        Handler { start: labels[0], end: labels[2], handler: labels[3], catch_type: 0 },
    ];
    let body = CodeBody::read(&code.assemble(&mut pool).expect("assemble"));
    assert_eq!(body.handlers, vec![[0, 1, 1, 4], [0, 1, 1, 0]]);
    assert_eq!(body.max_stack, 1, "a handler starts with its exception on the stack");
}

#[test]
fn max_stack_and_max_locals_are_computed_and_never_lowered() {
    let mut class = ClassBytes::new();
    let max = class.method_ref("java/lang/Math", "max", "(JJ)J");
    let bytes = class.finish(50);
    let mut pool = pool(&bytes);
    let elements = vec![
        Insn::Simple(op::LCONST_1),
        Insn::Simple(op::LCONST_1),
        Insn::Simple(0x5e), // dup2_x2
        Insn::Pool { opcode: op::INVOKESTATIC, index: max },
        Insn::Pool { opcode: op::INVOKESTATIC, index: max },
        Insn::Local { opcode: op::LSTORE, index: 5, wide: false },
        Insn::Simple(op::RETURN),
    ];
    let mut code = model("()V", false, elements, 0, &mut pool);
    let body = CodeBody::read(&code.assemble(&mut pool).expect("assemble"));
    assert_eq!((body.max_stack, body.max_locals), (6, 7), "three longs; a long in 5 and 6");
    code.max_stack = 9;
    code.max_locals = 10;
    let body = CodeBody::read(&code.assemble(&mut pool).expect("assemble"));
    assert_eq!((body.max_stack, body.max_locals), (9, 10), "what the model says, when more");
}

#[test]
fn code_past_65535_bytes_and_unbound_or_twice_bound_labels_are_refused() {
    let bytes = class_bytes();
    let mut pool = pool(&bytes);
    let mut long = model("()V", false, nops(65_535).collect(), 0, &mut pool);
    long.elements.push(Insn::Simple(op::RETURN));
    let error = long.assemble(&mut pool).expect_err("too long");
    assert!(error.to_string().contains("would pass 65535 bytes"), "{error}");
    long.elements.remove(0);
    assert_eq!(CodeBody::read(&long.assemble(&mut pool).expect("65,535 bytes fit")).code.len(), 65_535);

    let unbound = model("()V", false, vec![Insn::Branch { opcode: op::GOTO, target: Label(0) }], 1, &mut pool);
    let error = unbound.assemble(&mut pool).expect_err("unbound");
    assert!(error.to_string().contains("label 0 is used but never bound"), "{error}");
    let twice = vec![Insn::Label(Label(0)), Insn::Simple(op::NOP), Insn::Label(Label(0)), Insn::Simple(op::RETURN)];
    let error = model("()V", false, twice, 1, &mut pool).assemble(&mut pool).expect_err("bound twice");
    assert!(error.to_string().contains("label 0 is bound twice"), "{error}");
}
