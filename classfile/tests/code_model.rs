//! The code model: what a lift makes of a method's code (labels for every
//! offset something names, instructions in the forms read), what an edit of
//! the instruction list does once assembled, and the lift's reused buffers
//! against fresh ones on java.base.

mod support;

use support::{one_method, ClassBytes, CodeBody, MethodBytes};
use tf_classfile::opcodes as op;
use tf_classfile::{ClassFile, CodeAttributeModel, CodeModel, Detail, Insn, Label, Lifter, PoolBuilder, VType};

/// `static int m(int)`: `return x == 0 ? 0 : 1`, as javac writes it.
const CONDITIONAL: [u8; 10] = [
    0x1a, // 0: iload_0
    0x99, 0x00, 0x07, // 1: ifeq 8
    0x04, // 4: iconst_1
    0xa7, 0x00, 0x04, // 5: goto 9
    0x03, // 8: iconst_0
    0xac, // 9: ireturn
];

fn lift<'a>(class: &ClassFile<'a>, detail: Detail) -> (CodeModel<'a>, PoolBuilder<'a>) {
    let mut pool = PoolBuilder::new(class.constant_pool().clone());
    let method = &class.methods()[0];
    let model = CodeModel::lift_with(class, method, &mut pool, detail).expect("lift").expect("code");
    (model, pool)
}

#[test]
fn a_lift_binds_a_label_where_each_branch_lands_numbered_as_they_are_met() {
    let bytes = ClassBytes::new().method(&one_method("(I)I", 1, 1, &CONDITIONAL)).finish(49);
    let class = ClassFile::parse(&bytes).expect("parse");
    let (model, _) = lift(&class, Detail::Instructions);
    let (to_zero, to_return) = (Label(0), Label(1));
    assert_eq!(
        model.elements,
        vec![
            Insn::Simple(op::ILOAD_0),
            Insn::Branch { opcode: op::IFEQ, target: to_zero },
            Insn::Simple(op::ICONST_1),
            Insn::Branch { opcode: op::GOTO, target: to_return },
            Insn::Label(to_zero),
            Insn::Simple(op::ICONST_0),
            Insn::Label(to_return),
            Insn::Simple(op::IRETURN),
        ]
    );
    assert_eq!(model.next_label, 2, "labels are dense: the next new one follows");
    assert!(!model.frames_required, "version 49 has no StackMapTable");
    assert_eq!(model.initial_frame.locals, vec![VType::Integer]);
}

#[test]
fn a_lift_by_runs_keeps_only_what_an_edit_of_control_flow_looks_for_and_expands_to_the_full_lift() {
    let bytes = ClassBytes::new().method(&one_method("(I)I", 1, 1, &CONDITIONAL)).finish(49);
    let class = ClassFile::parse(&bytes).expect("parse");
    let (full, _) = lift(&class, Detail::Instructions);
    let (mut runs, _) = lift(&class, Detail::Runs);
    let (to_zero, to_return) = (Label(0), Label(1));
    assert_eq!(
        runs.elements,
        vec![
            Insn::Raw { start: 0, end: 1 },
            Insn::Branch { opcode: op::IFEQ, target: to_zero },
            Insn::Raw { start: 4, end: 5 },
            Insn::Branch { opcode: op::GOTO, target: to_return },
            Insn::Label(to_zero),
            Insn::Raw { start: 8, end: 9 },
            Insn::Label(to_return),
            Insn::Simple(op::IRETURN),
        ]
    );
    runs.expand_runs();
    assert_eq!(runs, full);
}

#[test]
fn unedited_code_assembles_to_its_own_bytes_with_every_form_kept() {
    let mut class = ClassBytes::new();
    let big = class.integer(100_000);
    assert!(big < 256, "a small index, so that ldc_w is a form kept, not needed");
    #[rustfmt::skip]
    let code = [
        0x13, 0x00, big as u8, // 0: ldc_w (ldc would do)
        0xc4, 0x36, 0x00, 0x03, // 3: wide istore 3 (istore 3 would do)
        0x11, 0x00, 0x05, // 7: sipush 5 (bipush would do)
        0x3c, // 10: istore_1
        0xc8, 0x00, 0x00, 0x00, 0x06, // 11: goto_w 17 (goto would do)
        0x00, // 16: nop, never reached
        0xb1, // 17: return
    ];
    let bytes = class.method(&one_method("()V", 1, 4, &code)).finish(49);
    let class = ClassFile::parse(&bytes).expect("parse");
    for detail in [Detail::Instructions, Detail::Runs] {
        let (model, mut pool) = lift(&class, detail);
        let body = CodeBody::read(&model.assemble(&mut pool).expect("assemble"));
        assert_eq!(body.code, code, "{detail:?}");
        assert_eq!((body.max_stack, body.max_locals), (1, 4), "{detail:?}");
        assert!(!pool.is_modified(), "{detail:?}: nothing added to the pool");
    }
}

#[test]
fn inserted_instructions_move_branches_handlers_and_line_numbers_with_their_labels() {
    let mut class = ClassBytes::new();
    // Lines 10 and 11 start at 0 and 8; a catch-all covers 0..8 and lands
    // on the return (its exception the value returned: no verifier reads
    // version 49 code by types).
    let lines = [0, 2, 0, 0, 0, 10, 0, 8, 0, 11].to_vec();
    let method = MethodBytes {
        handlers: &[[0, 8, 9, 0]],
        attributes: &[("LineNumberTable", lines)],
        ..one_method("(I)I", 2, 1, &CONDITIONAL)
    };
    let bytes = class.method(&method).finish(49);
    let class = ClassFile::parse(&bytes).expect("parse");
    let (mut model, mut pool) = lift(&class, Detail::Instructions);
    let goto = model.elements.iter().position(|e| e.opcode() == Some(op::GOTO)).expect("the goto");
    model.insert(goto, [Insn::Iinc { index: 0, delta: 1, wide: false }]);
    let body = CodeBody::read(&model.assemble(&mut pool).expect("assemble"));
    #[rustfmt::skip]
    let expected = [
        0x1a, // 0: iload_0
        0x99, 0x00, 0x0a, // 1: ifeq 11
        0x04, // 4: iconst_1
        0x84, 0x00, 0x01, // 5: iinc 0 1
        0xa7, 0x00, 0x04, // 8: goto 12
        0x03, // 11: iconst_0
        0xac, // 12: ireturn
    ];
    assert_eq!(body.code, expected);
    assert_eq!(body.handlers, vec![[0, 11, 12, 0]]);
    assert_eq!(body.attributes.len(), 1);
    assert_eq!(body.attributes[0].1, vec![0, 2, 0, 0, 0, 10, 0, 11, 0, 11]);
}

#[test]
fn a_new_label_bound_in_the_list_is_a_branch_target_like_a_lifted_one() {
    let bytes = ClassBytes::new().method(&one_method("(I)I", 1, 1, &CONDITIONAL)).finish(49);
    let class = ClassFile::parse(&bytes).expect("parse");
    let (mut model, mut pool) = lift(&class, Detail::Instructions);
    // `if (x != 0) return x;` in front of the method.
    let rest = model.bind_label(0);
    assert_eq!(rest, Label(2), "after the lifted ones");
    assert_eq!(model.elements[0], Insn::Label(rest));
    model.insert(
        0,
        [
            Insn::Simple(op::ILOAD_0),
            Insn::Branch { opcode: op::IFEQ, target: rest },
            Insn::Simple(op::ILOAD_0),
            Insn::Simple(op::IRETURN),
        ],
    );
    assert_eq!(model.return_indexes(), vec![3, 12]);
    let body = CodeBody::read(&model.assemble(&mut pool).expect("assemble"));
    assert_eq!(body.code[..6], [0x1a, 0x99, 0x00, 0x05, 0x1a, 0xac]);
    assert_eq!(body.code[6..], CONDITIONAL, "the original code moves as a whole: its jumps are relative");
}

#[test]
fn new_parameter_slots_move_every_local_above_them() {
    // static void m(int, long): long copy = second; int i = first (javac's forms).
    #[rustfmt::skip]
    let code = [
        0x1f, // lload_1
        0x37, 0x03, // lstore 3
        0x1a, // iload_0
        0x36, 0x05, // istore 5
        0xb1, // return
    ];
    let bytes = ClassBytes::new().method(&one_method("(IJ)V", 2, 6, &code)).finish(49);
    let class = ClassFile::parse(&bytes).expect("parse");
    let (mut model, mut pool) = lift(&class, Detail::Instructions);
    model.insert_local_slots(1, &[VType::Object(2), VType::Double]).expect("room");
    assert_eq!(model.initial_frame.locals, vec![VType::Integer, VType::Object(2), VType::Double, VType::Long]);
    let body = CodeBody::read(&model.assemble(&mut pool).expect("assemble"));
    #[rustfmt::skip]
    let expected = [
        0x16, 0x04, // lload 4: an implicit index widened to an explicit one
        0x37, 0x06, // lstore 6
        0x1a, // iload_0 stays below the new slots
        0x36, 0x08, // istore 8
        0xb1,
    ];
    assert_eq!(body.code, expected);
    assert_eq!(body.max_locals, 9);
}

#[test]
fn a_branch_into_an_instruction_or_past_the_code_is_refused_with_its_place() {
    let into = [0x1a, 0x99, 0x00, 0x01, 0x04, 0xac]; // ifeq 2: inside itself
    let past = [0x1a, 0x99, 0x00, 0x09, 0x04, 0xac]; // ifeq 10: past the end
    for (code, says) in [(into, "code offset 2 is inside an instruction"), (past, "code offset 10 lies past the end")] {
        let bytes = ClassBytes::new().method(&one_method("(I)I", 1, 1, &code)).finish(49);
        let class = ClassFile::parse(&bytes).expect("parse");
        let mut pool = PoolBuilder::new(class.constant_pool().clone());
        let error = CodeModel::lift(&class, &class.methods()[0], &mut pool).expect_err("refused");
        assert!(error.to_string().contains(says), "{error}");
        let code_at = bytes.windows(code.len()).position(|w| w == code).expect("the code in the file");
        assert_eq!(error.offset, Some(code_at + 1), "the offset in the file of the branch");
    }
}

#[test]
fn frames_and_tables_of_a_lift_name_labels_and_survive_an_unedited_assemble() {
    // static int m(int) of version 50 with a StackMapTable: frames at 8 and 9.
    let frames = [0, 2, 8, 64, 1].to_vec(); // same at 8; same locals, one int at 9 (9 - 8 - 1 = 0)
    let method = MethodBytes { attributes: &[("StackMapTable", frames.clone())], ..one_method("(I)I", 1, 1, &CONDITIONAL) };
    let bytes = ClassBytes::new().method(&method).finish(50);
    let class = ClassFile::parse(&bytes).expect("parse");
    let (model, mut pool) = lift(&class, Detail::Instructions);
    assert!(matches!(model.attributes[..], [CodeAttributeModel::StackMapTable { .. }]));
    let at_zero = model.frame_at(Label(0)).expect("a frame where ifeq lands");
    assert_eq!((&at_zero.locals[..], &at_zero.stack[..]), (&[VType::Integer][..], &[][..]));
    let at_return = model.frame_at(Label(1)).expect("a frame where goto lands");
    assert_eq!(at_return.stack, vec![VType::Integer]);
    let body = CodeBody::read(&model.assemble(&mut pool).expect("assemble"));
    assert_eq!((body.code, body.attributes[0].1.clone()), (CONDITIONAL.to_vec(), frames));
}

/// A lift in the buffers of earlier lifts (each worker keeps one) is the
/// lift in fresh ones, method after method of java.base.
#[test]
fn a_lift_in_reused_buffers_equals_a_fresh_lift_on_java_base() {
    let mut lifter = Lifter::default();
    let mut methods = 0usize;
    for (path, bytes) in support::java_base_classes() {
        let class = ClassFile::parse(&bytes).expect("parse");
        for method in class.methods() {
            for detail in [Detail::Runs, Detail::Instructions] {
                let mut fresh_pool = PoolBuilder::new(class.constant_pool().clone());
                let mut reused_pool = PoolBuilder::new(class.constant_pool().clone());
                let fresh = CodeModel::lift_with(&class, method, &mut fresh_pool, detail);
                let reused = lifter.lift(&class, method, &mut reused_pool, detail);
                match (fresh, reused) {
                    (Ok(fresh), Ok(reused)) => assert_eq!(fresh, reused, "{}", path.display()),
                    (fresh, reused) => assert_eq!(fresh.err(), reused.err(), "{}", path.display()),
                }
                methods += 1;
            }
        }
    }
    assert!(methods > 100_000, "{methods} lifts");
}
