//! Frame inference without a class hierarchy: the types at a point of
//! straight-line code from the nearest frame before it (what the assembler
//! needs after a widened branch), and, in code without frames, the types
//! along the control flow (what the exit analysis needs of a return reached
//! only by jumps). Seen through the public calls that use them, with the
//! expected frames worked out by hand.

mod support;

use support::{ClassBytes, CodeBody};
use tf_classfile::exit_stack::{crowded_returns, Crowded};
use tf_classfile::opcodes as op;
use tf_classfile::{ClassFile, CodeModel, Frame, Insn, Label, PoolBuilder, VType};

fn pool(bytes: &[u8]) -> PoolBuilder<'_> {
    PoolBuilder::new(ClassFile::parse(bytes).expect("parse").constant_pool().clone())
}

fn model<'a>(descriptor: &str, frames_required: bool, elements: Vec<Insn>, pool: &mut PoolBuilder<'a>) -> CodeModel<'a> {
    let mut model = CodeModel::empty(2, 0x0008, "m", descriptor, frames_required, pool).expect("model");
    model.next_label = 1 + elements.iter().filter_map(|e| if let Insn::Label(l) = e { Some(l.0) } else { None }).max().unwrap_or(0);
    model.elements = elements;
    model
}

/// `before`, `iload_0; ifeq far`, 33,000 nops, `far:`, `after`: the ifeq
/// is widened and the code after the goto_w needs a frame.
fn far_branch(before: Vec<Insn>, after: Vec<Insn>) -> Vec<Insn> {
    let far = Label(0);
    let mut elements = before;
    elements.extend([Insn::Simple(op::ILOAD_0), Insn::Branch { opcode: op::IFEQ, target: far }]);
    elements.extend(std::iter::repeat_n(Insn::Simple(op::NOP), 33_000));
    elements.push(Insn::Label(far));
    elements.extend(after);
    elements
}

#[test]
fn straight_line_code_after_the_nearest_frame_gives_the_locals_stored_and_the_stack_pushed() {
    let bytes = ClassBytes::new().finish(50);
    let mut pool = pool(&bytes);
    let before = vec![Insn::Simple(op::LCONST_1), Insn::Simple(0x40 /* lstore_1 */), Insn::Simple(op::ACONST_NULL)];
    let elements = far_branch(before, vec![Insn::Simple(op::POP), Insn::Simple(op::RETURN)]);
    let mut code = model("(I)V", true, elements, &mut pool);
    code.frames.push((Label(0), Frame { locals: vec![VType::Integer, VType::Long], stack: vec![VType::Null] }));
    let body = CodeBody::read(&code.assemble(&mut pool).expect("assemble"));
    // 4: ifne 12; 7: goto_w 33012; 12: the nops.
    assert_eq!(body.code[..12], [0x0a, 0x40, 0x01, 0x1a, 0x9a, 0x00, 0x08, 0xc8, 0x00, 0x00, 0x80, 0xed]);
    #[rustfmt::skip]
    let frames = [
        0, 2,
        255, 0, 12, 0, 2, 1, 4, 0, 1, 5, // at 12: full, locals int long, stack null
        247, 0x80, 0xe7, 5, // at 33012 (33012 - 12 - 1): same locals, one null
    ];
    assert_eq!(body.attributes[0].1, frames);
    assert_eq!((body.max_stack, body.max_locals), (2, 3));
}

#[test]
fn an_object_not_yet_constructed_is_named_by_the_offset_of_its_new() {
    let mut class = ClassBytes::new();
    let init = class.method_ref("T", "<init>", "()V");
    let bytes = class.finish(50);
    let mut pool = pool(&bytes);
    let created = Label(1);
    let before = vec![Insn::Label(created), Insn::Pool { opcode: op::NEW, index: 2 }, Insn::Simple(op::DUP)];
    let after = vec![Insn::Pool { opcode: op::INVOKESPECIAL, index: init }, Insn::Simple(op::POP), Insn::Simple(op::RETURN)];
    let mut code = model("(I)V", true, far_branch(before, after), &mut pool);
    let uninitialized = VType::Uninitialized(created);
    code.frames.push((Label(0), Frame { locals: vec![VType::Integer], stack: vec![uninitialized; 2] }));
    let body = CodeBody::read(&code.assemble(&mut pool).expect("assemble"));
    // 0: new; 3: dup; 4: iload_0; 5: ifne 13; 8: goto_w 33013; 13: the nops.
    assert_eq!(body.code[..13], [0xbb, 0x00, 0x02, 0x59, 0x1a, 0x9a, 0x00, 0x08, 0xc8, 0x00, 0x00, 0x80, 0xed]);
    #[rustfmt::skip]
    let frames = [
        0, 2,
        255, 0, 13, 0, 1, 1, 0, 2, 8, 0, 0, 8, 0, 0, // at 13: stack uninitialized(0) twice
        255, 0x80, 0xe7, 0, 1, 1, 0, 2, 8, 0, 0, 8, 0, 0, // at 33013: the same types
    ];
    assert_eq!(body.attributes[0].1, frames);
}

#[test]
fn a_point_reached_only_past_a_jump_without_a_frame_is_refused_not_guessed() {
    let bytes = ClassBytes::new().finish(50);
    let mut pool = pool(&bytes);
    let (far, elsewhere) = (Label(0), Label(1));
    let before = vec![Insn::Branch { opcode: op::GOTO, target: elsewhere }];
    let after = vec![Insn::Label(elsewhere), Insn::Simple(op::RETURN)];
    let mut code = model("(I)V", true, far_branch(before, after), &mut pool);
    code.frames.push((far, Frame { locals: vec![VType::Integer], stack: vec![] }));
    let error = code.assemble(&mut pool).expect_err("no frame to start from");
    let text = error.to_string();
    assert!(text.contains("cannot infer the frame at instruction 2"), "{text}");
    assert!(text.contains("unreachable code follows a jump without a frame"), "{text}");
}

#[test]
fn without_frames_the_types_below_a_return_follow_switch_targets() {
    let bytes = ClassBytes::new().finish(49);
    let mut pool = pool(&bytes);
    let (one, default) = (Label(0), Label(1));
    let elements = vec![
        Insn::Simple(op::LCONST_0), // a long stays below every result
        Insn::Simple(op::ILOAD_0),
        Insn::LookupSwitch { default, pairs: vec![(1, one)] },
        Insn::Label(one),
        Insn::Simple(op::LCONST_1),
        Insn::Simple(op::LRETURN), // 5: a long below
        Insn::Label(default),
        Insn::Simple(op::POP2),
        Insn::Simple(0x0b), // fconst_0
        Insn::Simple(op::LCONST_1),
        Insn::Simple(op::LRETURN), // 10: a float below
    ];
    let code = model("(I)J", false, elements, &mut pool);
    let crowded = crowded_returns(&code, 0, &mut pool).expect("followed");
    assert_eq!(crowded, vec![Crowded { index: 5, below: vec![2] }, Crowded { index: 10, below: vec![1] }]);
    assert!(!pool.is_modified(), "following the types adds nothing to the class's pool");
}

#[test]
fn without_frames_a_jsr_comes_back_with_the_stack_it_found() {
    let bytes = ClassBytes::new().finish(49);
    let mut pool = pool(&bytes);
    let subroutine = Label(0);
    let elements = vec![
        Insn::Simple(op::ICONST_1),
        Insn::Branch { opcode: op::JSR, target: subroutine },
        Insn::Simple(op::LCONST_1),
        Insn::Simple(op::LRETURN), // 3: the int below
        Insn::Label(subroutine),
        Insn::Simple(0x4c), // astore_1: the return address
        Insn::Local { opcode: op::RET, index: 1, wide: false },
    ];
    let code = model("(I)J", false, elements, &mut pool);
    let crowded = crowded_returns(&code, 0, &mut pool).expect("followed");
    assert_eq!(crowded, vec![Crowded { index: 3, below: vec![1] }]);
}

#[test]
fn without_frames_a_handler_starts_with_its_exception_alone() {
    let bytes = ClassBytes::new().finish(49);
    let mut pool = pool(&bytes);
    let (start, end, handler) = (Label(0), Label(1), Label(2));
    let elements = vec![
        Insn::Simple(op::ICONST_1),
        Insn::Label(start),
        Insn::Simple(op::LCONST_1),
        Insn::Simple(op::LRETURN), // 3: the int below
        Insn::Label(end),
        Insn::Label(handler),
        Insn::Simple(op::LCONST_0),
        Insn::Simple(op::LRETURN), // 7: the exception below
    ];
    let mut code = model("()J", false, elements, &mut pool);
    code.handlers = vec![tf_classfile::Handler { start, end, handler, catch_type: 0 }];
    let crowded = crowded_returns(&code, 0, &mut pool).expect("followed");
    assert_eq!(crowded, vec![Crowded { index: 3, below: vec![1] }, Crowded { index: 7, below: vec![1] }]);
}

/// A lift by single instructions (a `<clinit>`, a class with an info
/// method) labels no `new`; following the types to a crowded return must
/// still give each object of its own, as it does inside a run. Seen on
/// jdk/internal/module/SystemModules$all.moduleDescriptors (jlink's).
#[test]
fn a_new_without_a_label_before_a_crowded_return_is_followed_as_in_a_run() {
    let mut class = ClassBytes::new();
    let init = class.method_ref("T", "<init>", "()V");
    let bytes = class.finish(50);
    let mut pool = pool(&bytes);
    let elements = vec![
        Insn::Simple(op::ICONST_1), // stays below the result
        Insn::Pool { opcode: op::NEW, index: 2 },
        Insn::Simple(op::DUP),
        Insn::Pool { opcode: op::INVOKESPECIAL, index: init },
        Insn::Simple(op::ARETURN),
    ];
    let code = model("()LT;", true, elements, &mut pool);
    let crowded = crowded_returns(&code, 0, &mut pool).expect("followed");
    assert_eq!(crowded, vec![Crowded { index: 4, below: vec![1] }]);
}
