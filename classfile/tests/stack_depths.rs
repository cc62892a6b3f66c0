//! Stack depths: the opcode tables the depth pass reads (against the JVMS,
//! opcode by opcode, written out here as the plain version), max_stack of
//! hand-made code, the broken code the pass refuses, and on java.base the
//! fast path (runs read from the bytes through the table, descriptor sizes
//! remembered per pool) against the plain one (one instruction at a time,
//! a fresh pool per method) and against javac's own max_stack.

mod support;

use support::{decided_by_a_constant, jvms, ClassBytes, CodeBody};
use tf_classfile::exit_stack::crowded_returns;
use tf_classfile::opcodes as op;
use tf_classfile::{ClassFile, CodeModel, Detail, Insn, Label, Member, PoolBuilder};

#[test]
fn the_stack_effect_table_says_what_the_jvms_says_of_every_opcode() {
    let mut checked = 0;
    for opcode in 0..=255u8 {
        if let Some((_, pops, pushes)) = jvms(opcode) {
            assert_eq!(op::fixed_stack_effect(opcode), pushes - pops, "opcode 0x{opcode:02x}");
            checked += 1;
        }
    }
    assert_eq!(checked, 202 - 12, "every opcode but the twelve a constant decides");
}

#[test]
fn the_length_table_knows_every_plain_instruction_and_nothing_else() {
    for opcode in 0..=255u8 {
        let ends_or_jumps = matches!(opcode, 0x99..=0xb1 | 0xbf | 0xc4 | 0xc6..=0xc9);
        let expected = match (jvms(opcode), decided_by_a_constant(opcode)) {
            _ if ends_or_jumps => None,
            (Some((length, _, _)), _) => Some(length),
            (None, length) => length,
        };
        assert_eq!(op::plain_length(opcode), expected, "opcode 0x{opcode:02x}");
    }
}

fn pool(bytes: &[u8]) -> PoolBuilder<'_> {
    PoolBuilder::new(ClassFile::parse(bytes).expect("parse").constant_pool().clone())
}

/// max_stack and max_locals the assembler computes for a new static method.
fn computed(descriptor: &str, elements: Vec<Insn>, labels: u32, class: &[u8]) -> Result<(u16, u16), String> {
    let mut pool = pool(class);
    let mut model = CodeModel::empty(2, 0x0008, "m", descriptor, false, &mut pool).expect("model");
    model.elements = elements;
    model.next_label = labels;
    let body = CodeBody::read(&model.assemble(&mut pool).map_err(|e| e.to_string())?);
    Ok((body.max_stack, body.max_locals))
}

#[test]
fn descriptors_decide_what_fields_invocations_and_constants_take() {
    let mut class = ClassBytes::new();
    let field = class.field_ref("T", "f", "D");
    let call = class.interface_method_ref("java/util/Map", "put", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;");
    let long = class.long(7);
    let text = class.string("seven");
    let matrix = class.class("[[[I");
    let bytes = class.finish(49);
    let elements = vec![
        Insn::Simple(op::ALOAD_0),
        Insn::Pool { opcode: op::GETFIELD, index: field }, // 2
        Insn::Ldc { opcode: op::LDC2_W, index: long },     // 4
        Insn::Ldc { opcode: op::LDC, index: text },        // 5
        Insn::Simple(op::POP),
        Insn::Simple(op::POP2),
        Insn::Simple(op::POP2), // 0
        Insn::Simple(op::ICONST_1),
        Insn::Simple(op::ICONST_1),
        Insn::Simple(op::ICONST_1),
        Insn::MultiANewArray { index: matrix, dimensions: 3 }, // 1
        Insn::Simple(op::ACONST_NULL),
        Insn::Simple(op::ACONST_NULL),
        Insn::Simple(op::ACONST_NULL), // 4
        Insn::InvokeInterface { index: call, count: 3 }, // 2
        Insn::Simple(op::POP2),
        Insn::Simple(op::RETURN),
    ];
    assert_eq!(computed("(LT;)V", elements, 0, &bytes), Ok((5, 1)));
}

#[test]
fn a_jsr_pushes_its_return_address_at_its_target_only() {
    let bytes = ClassBytes::new().finish(49);
    let subroutine = Label(0);
    let elements = vec![
        Insn::Simple(op::LCONST_0),
        Insn::Branch { opcode: op::JSR, target: subroutine }, // 3 at the subroutine, 2 after
        Insn::Simple(op::LCONST_1), // 4
        Insn::Simple(op::POP2),
        Insn::Simple(op::LRETURN),
        Insn::Label(subroutine),
        Insn::Local { opcode: op::ASTORE, index: 0, wide: false },
        Insn::Local { opcode: op::RET, index: 0, wide: false },
    ];
    assert_eq!(computed("()J", elements, 1, &bytes), Ok((4, 1)));
}

#[test]
fn code_that_underflows_or_joins_at_two_depths_is_refused_by_instruction() {
    let bytes = ClassBytes::new().finish(49);
    let underflow = vec![Insn::Simple(op::ICONST_1), Insn::Simple(op::POP2), Insn::Simple(op::RETURN)];
    assert_eq!(
        computed("()V", underflow, 0, &bytes).map_err(|e| e.contains("the operand stack underflows at instruction 1")),
        Err(true)
    );
    let join = Label(0);
    let two_depths = vec![
        Insn::Simple(op::ILOAD_0),
        Insn::Simple(op::ILOAD_0),
        Insn::Branch { opcode: op::IFEQ, target: join }, // 1 on the stack
        Insn::Simple(op::ICONST_1), // 2 falling through
        Insn::Label(join),
        Insn::Simple(op::RETURN),
    ];
    let error = computed("(I)V", two_depths, 1, &bytes).expect_err("two depths");
    assert!(error.contains("instruction 4 is reached with stack depths"), "{error}");
}

/// max_stack and max_locals of `method` lifted at `detail` and assembled
/// with none given; lifted by runs, also what lies below each crowded
/// return (the depth pass without the assembler's fallback to single
/// instructions when a pass over runs fails).
fn depths<'a>(class: &ClassFile<'a>, method: &Member<'a>, pool: &mut PoolBuilder<'a>, detail: Detail) -> Depths {
    let mut model = CodeModel::lift_with(class, method, pool, detail).expect("lift").expect("code");
    // (A lift by instructions is not asked: see frame_inference.rs on a `new` without a label.)
    let crowded = match detail {
        Detail::Runs => crowded_returns(&model, 0, pool).expect("depths").into_iter().map(|c| c.below).collect(),
        Detail::Instructions => Vec::new(),
    };
    (model.max_stack, model.max_locals) = (0, 0);
    let body = CodeBody::read(&model.assemble(pool).expect("assemble"));
    (body.max_stack, body.max_locals, crowded)
}

type Depths = (u16, u16, Vec<Vec<usize>>);

/// On every method of java.base, max_stack and max_locals the fast way
/// (runs read through the opcode table, a pool per class remembering the
/// sizes of each descriptor) are the plain way's (every instruction decoded,
/// a fresh pool per method) and javac's (never more; equal but for a few).
#[test]
fn fast_and_plain_depth_passes_agree_with_each_other_and_javac_on_java_base() {
    let (mut methods, mut crowded, mut below_javac) = (0usize, 0usize, Vec::new());
    for (path, bytes) in support::java_base_classes() {
        let class = ClassFile::parse(&bytes).expect("parse");
        let mut class_pool = PoolBuilder::new(class.constant_pool().clone());
        for method in class.methods() {
            let Some(javac) = class.code(method).expect("code") else { continue };
            let mut fresh_pool = PoolBuilder::new(class.constant_pool().clone());
            let fast = depths(&class, method, &mut class_pool, Detail::Runs);
            let plain = depths(&class, method, &mut fresh_pool, Detail::Instructions);
            let name = format!("{} {}", path.display(), method.name().expect("name"));
            assert_eq!((fast.0, fast.1), (plain.0, plain.1), "{name}");
            assert!(fast.0 <= javac.max_stack && fast.1 <= javac.max_locals, "{name}: {fast:?} over javac's");
            crowded += fast.2.len();
            if fast.0 < javac.max_stack {
                below_javac.push(name);
            }
            methods += 1;
        }
    }
    assert!(methods > 50_000, "{methods} methods");
    // jlink's generated SystemModules$all leaves values below a result.
    assert!(crowded > 0 && crowded < 10, "{crowded} crowded returns");
    assert!(below_javac.len() * 1000 < methods, "{} of {methods} below javac's: {below_javac:?}", below_javac.len());
}
