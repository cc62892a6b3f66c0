//! Stack depths: the opcode tables the depth pass reads (against the JVMS,
//! opcode by opcode, written out here as the plain version), max_stack of
//! hand-made code, the broken code the pass refuses, and on java.base the
//! fast path (runs read from the bytes through the table, descriptor sizes
//! remembered per pool) against the plain one (one instruction at a time,
//! a fresh pool per method) and against javac's own max_stack.

mod support;

use support::{ClassBytes, CodeBody};
use tf_classfile::opcodes as op;
use tf_classfile::{ClassFile, CodeModel, Detail, Insn, Label, Member, PoolBuilder};

/// What JVMS chapter 6 says of an opcode whose stack effect no constant
/// decides: its length (0 for a switch or `wide`, whose length varies), the
/// slots it pops and the slots it pushes. `None` for the opcodes whose
/// effect a constant decides and for those a class file may not hold.
fn jvms(opcode: u8) -> Option<(usize, i32, i32)> {
    Some(match opcode {
        0x00 => (1, 0, 0),                                          // nop
        0x01..=0x08 => (1, 0, 1),                                   // aconst_null, iconst_m1..iconst_5
        0x09 | 0x0a => (1, 0, 2),                                   // lconst_0, lconst_1
        0x0b..=0x0d => (1, 0, 1),                                   // fconst_0..2
        0x0e | 0x0f => (1, 0, 2),                                   // dconst_0, dconst_1
        0x10 => (2, 0, 1),                                          // bipush
        0x11 => (3, 0, 1),                                          // sipush
        0x14 => (3, 0, 2),                                          // ldc2_w
        0x15 | 0x17 | 0x19 => (2, 0, 1),                            // iload, fload, aload
        0x16 | 0x18 => (2, 0, 2),                                   // lload, dload
        0x1a..=0x1d | 0x22..=0x25 | 0x2a..=0x2d => (1, 0, 1),       // iload_n, fload_n, aload_n
        0x1e..=0x21 | 0x26..=0x29 => (1, 0, 2),                     // lload_n, dload_n
        0x2e | 0x30 | 0x32..=0x35 => (1, 2, 1),                     // iaload faload aaload baload caload saload
        0x2f | 0x31 => (1, 2, 2),                                   // laload, daload
        0x36 | 0x38 | 0x3a => (2, 1, 0),                            // istore, fstore, astore
        0x37 | 0x39 => (2, 2, 0),                                   // lstore, dstore
        0x3b..=0x3e | 0x43..=0x46 | 0x4b..=0x4e => (1, 1, 0),       // istore_n, fstore_n, astore_n
        0x3f..=0x42 | 0x47..=0x4a => (1, 2, 0),                     // lstore_n, dstore_n
        0x4f | 0x51 | 0x53..=0x56 => (1, 3, 0),                     // iastore fastore aastore bastore castore sastore
        0x50 | 0x52 => (1, 4, 0),                                   // lastore, dastore
        0x57 => (1, 1, 0),                                          // pop
        0x58 => (1, 2, 0),                                          // pop2
        0x59 => (1, 1, 2),                                          // dup
        0x5a => (1, 2, 3),                                          // dup_x1
        0x5b => (1, 3, 4),                                          // dup_x2
        0x5c => (1, 2, 4),                                          // dup2
        0x5d => (1, 3, 5),                                          // dup2_x1
        0x5e => (1, 4, 6),                                          // dup2_x2
        0x5f => (1, 2, 2),                                          // swap
        // add, sub, mul, div, rem: i, l, f, d in turn.
        0x60..=0x73 if opcode % 2 == 0 => (1, 2, 1),
        0x60..=0x73 => (1, 4, 2),
        0x74 | 0x76 => (1, 1, 1),                                   // ineg, fneg
        0x75 | 0x77 => (1, 2, 2),                                   // lneg, dneg
        0x78 | 0x7a | 0x7c => (1, 2, 1),                            // ishl, ishr, iushr
        0x79 | 0x7b | 0x7d => (1, 3, 2),                            // lshl, lshr, lushr: a long and an int
        0x7e | 0x80 | 0x82 => (1, 2, 1),                            // iand, ior, ixor
        0x7f | 0x81 | 0x83 => (1, 4, 2),                            // land, lor, lxor
        0x84 => (3, 0, 0),                                          // iinc
        0x85 | 0x87 => (1, 1, 2),                                   // i2l, i2d
        0x86 => (1, 1, 1),                                          // i2f
        0x88 | 0x89 => (1, 2, 1),                                   // l2i, l2f
        0x8a => (1, 2, 2),                                          // l2d
        0x8b => (1, 1, 1),                                          // f2i
        0x8c | 0x8d => (1, 1, 2),                                   // f2l, f2d
        0x8e | 0x90 => (1, 2, 1),                                   // d2i, d2f
        0x8f => (1, 2, 2),                                          // d2l
        0x91..=0x93 => (1, 1, 1),                                   // i2b, i2c, i2s
        0x94 => (1, 4, 1),                                          // lcmp
        0x95 | 0x96 => (1, 2, 1),                                   // fcmpl, fcmpg
        0x97 | 0x98 => (1, 4, 1),                                   // dcmpl, dcmpg
        0x99..=0x9e => (3, 1, 0),                                   // if<cond>
        0x9f..=0xa6 => (3, 2, 0),                                   // if_icmp<cond>, if_acmp<cond>
        0xa7 => (3, 0, 0),                                          // goto
        0xa8 => (3, 0, 1),                                          // jsr
        0xa9 => (2, 0, 0),                                          // ret
        0xaa | 0xab => (0, 1, 0),                                   // tableswitch, lookupswitch
        0xac | 0xae | 0xb0 => (1, 1, 0),                            // ireturn, freturn, areturn
        0xad | 0xaf => (1, 2, 0),                                   // lreturn, dreturn
        0xb1 => (1, 0, 0),                                          // return
        0xbb => (3, 0, 1),                                          // new
        0xbc => (2, 1, 1),                                          // newarray
        0xbd => (3, 1, 1),                                          // anewarray
        0xbe => (1, 1, 1),                                          // arraylength
        0xbf => (1, 1, 0),                                          // athrow (then the stack is gone)
        0xc0 | 0xc1 => (3, 1, 1),                                   // checkcast, instanceof
        0xc2 | 0xc3 => (1, 1, 0),                                   // monitorenter, monitorexit
        0xc4 => (0, 0, 0),                                          // wide: the effect of what it modifies
        0xc6 | 0xc7 => (3, 1, 0),                                   // ifnull, ifnonnull
        0xc8 => (5, 0, 0),                                          // goto_w
        0xc9 => (5, 0, 1),                                          // jsr_w
        // ldc, ldc_w, fields, invocations, multianewarray; 0xba..0xff but 0xbb..0xc9: not in a class file.
        _ => return None,
    })
}

/// Opcodes whose operands a constant names and decides the effect of.
fn decided_by_a_constant(opcode: u8) -> Option<usize> {
    match opcode {
        0x12 => Some(2),         // ldc
        0x13 => Some(3),         // ldc_w
        0xb2..=0xb8 => Some(3),  // get/put static/field, invokevirtual/special/static
        0xb9 | 0xba => Some(5),  // invokeinterface, invokedynamic
        0xc5 => Some(4),         // multianewarray
        _ => None,
    }
}

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
        Insn::Simple(op::LRETURN),
        Insn::Label(subroutine),
        Insn::Local { opcode: op::ASTORE, index: 0, wide: false },
        Insn::Local { opcode: op::RET, index: 0, wide: false },
    ];
    assert_eq!(computed("()J", elements, 1, &bytes), Ok((3, 1)));
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
/// with none given.
fn maxima<'a>(class: &ClassFile<'a>, method: &Member<'a>, pool: &mut PoolBuilder<'a>, detail: Detail) -> (u16, u16) {
    let mut model = CodeModel::lift_with(class, method, pool, detail).expect("lift").expect("code");
    (model.max_stack, model.max_locals) = (0, 0);
    let body = CodeBody::read(&model.assemble(pool).expect("assemble"));
    (body.max_stack, body.max_locals)
}

/// On every method of java.base, max_stack and max_locals the fast way
/// (runs read through the opcode table, a pool per class remembering the
/// sizes of each descriptor) are the plain way's (every instruction decoded,
/// a fresh pool per method) and javac's (never more; equal but for a few).
#[test]
fn fast_and_plain_depth_passes_agree_with_each_other_and_javac_on_java_base() {
    let (mut methods, mut below_javac) = (0usize, Vec::new());
    for (path, bytes) in support::java_base_classes() {
        let class = ClassFile::parse(&bytes).expect("parse");
        let mut class_pool = PoolBuilder::new(class.constant_pool().clone());
        for method in class.methods() {
            let Some(javac) = class.code(method).expect("code") else { continue };
            let mut fresh_pool = PoolBuilder::new(class.constant_pool().clone());
            let fast = maxima(&class, method, &mut class_pool, Detail::Runs);
            let plain = maxima(&class, method, &mut fresh_pool, Detail::Instructions);
            let name = format!("{} {}", path.display(), method.name().expect("name"));
            assert_eq!(fast, plain, "{name}");
            assert!(fast.0 <= javac.max_stack && fast.1 <= javac.max_locals, "{name}: {fast:?} over javac's");
            if fast.0 < javac.max_stack {
                below_javac.push(name);
            }
            methods += 1;
        }
    }
    assert!(methods > 50_000, "{methods} methods");
    assert!(below_javac.len() * 1000 < methods, "{} of {methods} below javac's: {below_javac:?}", below_javac.len());
}
