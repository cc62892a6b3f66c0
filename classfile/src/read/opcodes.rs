//! JVM opcodes (JVMS chapter 6): every opcode named once, with its length,
//! kind, operand layout and stack effect, in one table. The tables the
//! per-instruction loops read (lengths, stack effects, a splice's scan) are
//! `const` arrays derived from it, so a lookup is one load.
#![forbid(unsafe_code)]

use crate::read::descriptor::{FieldType, JavaType};

/// What an instruction does, as `java.lang.classfile.Opcode.Kind` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)] // the kinds of java.lang.classfile.Opcode.Kind
pub enum Kind {
    Nop,
    Constant,
    Load,
    Store,
    ArrayLoad,
    ArrayStore,
    Stack,
    Operator,
    Increment,
    Convert,
    /// A conditional branch, `goto` or `goto_w`.
    Branch,
    DiscontinuedJsr,
    DiscontinuedRet,
    TableSwitch,
    LookupSwitch,
    Return,
    ThrowException,
    FieldAccess,
    Invoke,
    InvokeDynamic,
    NewObject,
    NewPrimitiveArray,
    NewRefArray,
    NewMultiArray,
    TypeCheck,
    Monitor,
    /// `wide`, the prefix that widens the next instruction's local index.
    Wide,
    /// Not an opcode a class file may contain.
    Invalid,
}

/// How an opcode's operands are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)] // each named by the operand it is (JVMS 6.5)
pub enum Operands {
    None,
    /// bipush
    Byte,
    /// sipush
    Short,
    /// ldc: a one-byte pool index
    PoolByte,
    /// A two-byte pool index: ldc_w, ldc2_w, field and method instructions, new, …
    Pool,
    /// A local-variable index (widened by `wide`).
    Local,
    Iinc,
    /// A 16-bit branch offset.
    Branch,
    /// A 32-bit branch offset (goto_w, jsr_w).
    BranchWide,
    TableSwitch,
    LookupSwitch,
    InvokeInterface,
    InvokeDynamic,
    NewArray,
    MultiANewArray,
    Wide,
    /// Not an opcode a class file may contain.
    Invalid,
}

/// One opcode's row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opcode {
    /// The JVMS mnemonic, upper case (`INVOKEVIRTUAL`).
    pub name: &'static str,
    /// The opcode byte.
    pub code: u8,
    /// Bytes of the instruction, the opcode included; 0 where its operands
    /// decide (`tableswitch`, `lookupswitch`, `wide`) and for invalid opcodes.
    pub length: u8,
    /// What the instruction does.
    pub kind: Kind,
    /// How its operands are laid out.
    pub operands: Operands,
    /// Slots pushed minus slots popped; `None` where a constant decides it
    /// (`ldc`, `ldc_w`, field and method instructions, `multianewarray`).
    pub stack_effect: Option<i8>,
}

impl Opcode {
    const INVALID: Opcode =
        Opcode { name: "INVALID", code: 0, length: 0, kind: Kind::Invalid, operands: Operands::Invalid, stack_effect: Some(0) };
}

/// A row's stack effect column: a number of slots, or this where a constant decides it.
const VARIES: i8 = i8::MIN;

const fn stack_effect(column: i8) -> Option<i8> {
    if column == VARIES {
        None
    } else {
        Some(column)
    }
}

macro_rules! opcodes {
    ($($name:ident = $code:literal, $length:literal, $kind:ident, $operands:ident, $effect:expr;)*) => {
        $(#[allow(missing_docs)] // the JVMS 6.5 mnemonic
        pub const $name: u8 = $code;)*

        /// Every opcode's row, indexed by opcode; [`Kind::Invalid`] for the
        /// bytes no class file may hold.
        pub const TABLE: [Opcode; 256] = {
            let mut table = [Opcode::INVALID; 256];
            let mut opcode = 0;
            while opcode < 256 {
                table[opcode].code = opcode as u8;
                opcode += 1;
            }
            $(
                table[$code as usize] = Opcode {
                    name: stringify!($name),
                    code: $code,
                    length: $length,
                    kind: Kind::$kind,
                    operands: Operands::$operands,
                    stack_effect: stack_effect($effect),
                };
            )*
            table
        };
    };
}

opcodes! {
//  name = code, length (0: its operands decide), kind, operand layout, stack effect (VARIES: a constant decides)
    NOP             = 0x00, 1, Nop,               None,            0;
    ACONST_NULL     = 0x01, 1, Constant,          None,            1;
    ICONST_M1       = 0x02, 1, Constant,          None,            1;
    ICONST_0        = 0x03, 1, Constant,          None,            1;
    ICONST_1        = 0x04, 1, Constant,          None,            1;
    ICONST_2        = 0x05, 1, Constant,          None,            1;
    ICONST_3        = 0x06, 1, Constant,          None,            1;
    ICONST_4        = 0x07, 1, Constant,          None,            1;
    ICONST_5        = 0x08, 1, Constant,          None,            1;
    LCONST_0        = 0x09, 1, Constant,          None,            2;
    LCONST_1        = 0x0a, 1, Constant,          None,            2;
    FCONST_0        = 0x0b, 1, Constant,          None,            1;
    FCONST_1        = 0x0c, 1, Constant,          None,            1;
    FCONST_2        = 0x0d, 1, Constant,          None,            1;
    DCONST_0        = 0x0e, 1, Constant,          None,            2;
    DCONST_1        = 0x0f, 1, Constant,          None,            2;
    BIPUSH          = 0x10, 2, Constant,          Byte,            1;
    SIPUSH          = 0x11, 3, Constant,          Short,           1;
    LDC             = 0x12, 2, Constant,          PoolByte,        VARIES;
    LDC_W           = 0x13, 3, Constant,          Pool,            VARIES;
    LDC2_W          = 0x14, 3, Constant,          Pool,            2;
    ILOAD           = 0x15, 2, Load,              Local,           1;
    LLOAD           = 0x16, 2, Load,              Local,           2;
    FLOAD           = 0x17, 2, Load,              Local,           1;
    DLOAD           = 0x18, 2, Load,              Local,           2;
    ALOAD           = 0x19, 2, Load,              Local,           1;
    ILOAD_0         = 0x1a, 1, Load,              None,            1;
    ILOAD_1         = 0x1b, 1, Load,              None,            1;
    ILOAD_2         = 0x1c, 1, Load,              None,            1;
    ILOAD_3         = 0x1d, 1, Load,              None,            1;
    LLOAD_0         = 0x1e, 1, Load,              None,            2;
    LLOAD_1         = 0x1f, 1, Load,              None,            2;
    LLOAD_2         = 0x20, 1, Load,              None,            2;
    LLOAD_3         = 0x21, 1, Load,              None,            2;
    FLOAD_0         = 0x22, 1, Load,              None,            1;
    FLOAD_1         = 0x23, 1, Load,              None,            1;
    FLOAD_2         = 0x24, 1, Load,              None,            1;
    FLOAD_3         = 0x25, 1, Load,              None,            1;
    DLOAD_0         = 0x26, 1, Load,              None,            2;
    DLOAD_1         = 0x27, 1, Load,              None,            2;
    DLOAD_2         = 0x28, 1, Load,              None,            2;
    DLOAD_3         = 0x29, 1, Load,              None,            2;
    ALOAD_0         = 0x2a, 1, Load,              None,            1;
    ALOAD_1         = 0x2b, 1, Load,              None,            1;
    ALOAD_2         = 0x2c, 1, Load,              None,            1;
    ALOAD_3         = 0x2d, 1, Load,              None,            1;
    IALOAD          = 0x2e, 1, ArrayLoad,         None,            -1;
    LALOAD          = 0x2f, 1, ArrayLoad,         None,            0;
    FALOAD          = 0x30, 1, ArrayLoad,         None,            -1;
    DALOAD          = 0x31, 1, ArrayLoad,         None,            0;
    AALOAD          = 0x32, 1, ArrayLoad,         None,            -1;
    BALOAD          = 0x33, 1, ArrayLoad,         None,            -1;
    CALOAD          = 0x34, 1, ArrayLoad,         None,            -1;
    SALOAD          = 0x35, 1, ArrayLoad,         None,            -1;
    ISTORE          = 0x36, 2, Store,             Local,           -1;
    LSTORE          = 0x37, 2, Store,             Local,           -2;
    FSTORE          = 0x38, 2, Store,             Local,           -1;
    DSTORE          = 0x39, 2, Store,             Local,           -2;
    ASTORE          = 0x3a, 2, Store,             Local,           -1;
    ISTORE_0        = 0x3b, 1, Store,             None,            -1;
    ISTORE_1        = 0x3c, 1, Store,             None,            -1;
    ISTORE_2        = 0x3d, 1, Store,             None,            -1;
    ISTORE_3        = 0x3e, 1, Store,             None,            -1;
    LSTORE_0        = 0x3f, 1, Store,             None,            -2;
    LSTORE_1        = 0x40, 1, Store,             None,            -2;
    LSTORE_2        = 0x41, 1, Store,             None,            -2;
    LSTORE_3        = 0x42, 1, Store,             None,            -2;
    FSTORE_0        = 0x43, 1, Store,             None,            -1;
    FSTORE_1        = 0x44, 1, Store,             None,            -1;
    FSTORE_2        = 0x45, 1, Store,             None,            -1;
    FSTORE_3        = 0x46, 1, Store,             None,            -1;
    DSTORE_0        = 0x47, 1, Store,             None,            -2;
    DSTORE_1        = 0x48, 1, Store,             None,            -2;
    DSTORE_2        = 0x49, 1, Store,             None,            -2;
    DSTORE_3        = 0x4a, 1, Store,             None,            -2;
    ASTORE_0        = 0x4b, 1, Store,             None,            -1;
    ASTORE_1        = 0x4c, 1, Store,             None,            -1;
    ASTORE_2        = 0x4d, 1, Store,             None,            -1;
    ASTORE_3        = 0x4e, 1, Store,             None,            -1;
    IASTORE         = 0x4f, 1, ArrayStore,        None,            -3;
    LASTORE         = 0x50, 1, ArrayStore,        None,            -4;
    FASTORE         = 0x51, 1, ArrayStore,        None,            -3;
    DASTORE         = 0x52, 1, ArrayStore,        None,            -4;
    AASTORE         = 0x53, 1, ArrayStore,        None,            -3;
    BASTORE         = 0x54, 1, ArrayStore,        None,            -3;
    CASTORE         = 0x55, 1, ArrayStore,        None,            -3;
    SASTORE         = 0x56, 1, ArrayStore,        None,            -3;
    POP             = 0x57, 1, Stack,             None,            -1;
    POP2            = 0x58, 1, Stack,             None,            -2;
    DUP             = 0x59, 1, Stack,             None,            1;
    DUP_X1          = 0x5a, 1, Stack,             None,            1;
    DUP_X2          = 0x5b, 1, Stack,             None,            1;
    DUP2            = 0x5c, 1, Stack,             None,            2;
    DUP2_X1         = 0x5d, 1, Stack,             None,            2;
    DUP2_X2         = 0x5e, 1, Stack,             None,            2;
    SWAP            = 0x5f, 1, Stack,             None,            0;
    IADD            = 0x60, 1, Operator,          None,            -1;
    LADD            = 0x61, 1, Operator,          None,            -2;
    FADD            = 0x62, 1, Operator,          None,            -1;
    DADD            = 0x63, 1, Operator,          None,            -2;
    ISUB            = 0x64, 1, Operator,          None,            -1;
    LSUB            = 0x65, 1, Operator,          None,            -2;
    FSUB            = 0x66, 1, Operator,          None,            -1;
    DSUB            = 0x67, 1, Operator,          None,            -2;
    IMUL            = 0x68, 1, Operator,          None,            -1;
    LMUL            = 0x69, 1, Operator,          None,            -2;
    FMUL            = 0x6a, 1, Operator,          None,            -1;
    DMUL            = 0x6b, 1, Operator,          None,            -2;
    IDIV            = 0x6c, 1, Operator,          None,            -1;
    LDIV            = 0x6d, 1, Operator,          None,            -2;
    FDIV            = 0x6e, 1, Operator,          None,            -1;
    DDIV            = 0x6f, 1, Operator,          None,            -2;
    IREM            = 0x70, 1, Operator,          None,            -1;
    LREM            = 0x71, 1, Operator,          None,            -2;
    FREM            = 0x72, 1, Operator,          None,            -1;
    DREM            = 0x73, 1, Operator,          None,            -2;
    INEG            = 0x74, 1, Operator,          None,            0;
    LNEG            = 0x75, 1, Operator,          None,            0;
    FNEG            = 0x76, 1, Operator,          None,            0;
    DNEG            = 0x77, 1, Operator,          None,            0;
    ISHL            = 0x78, 1, Operator,          None,            -1;
    LSHL            = 0x79, 1, Operator,          None,            -1;
    ISHR            = 0x7a, 1, Operator,          None,            -1;
    LSHR            = 0x7b, 1, Operator,          None,            -1;
    IUSHR           = 0x7c, 1, Operator,          None,            -1;
    LUSHR           = 0x7d, 1, Operator,          None,            -1;
    IAND            = 0x7e, 1, Operator,          None,            -1;
    LAND            = 0x7f, 1, Operator,          None,            -2;
    IOR             = 0x80, 1, Operator,          None,            -1;
    LOR             = 0x81, 1, Operator,          None,            -2;
    IXOR            = 0x82, 1, Operator,          None,            -1;
    LXOR            = 0x83, 1, Operator,          None,            -2;
    IINC            = 0x84, 3, Increment,         Iinc,            0;
    I2L             = 0x85, 1, Convert,           None,            1;
    I2F             = 0x86, 1, Convert,           None,            0;
    I2D             = 0x87, 1, Convert,           None,            1;
    L2I             = 0x88, 1, Convert,           None,            -1;
    L2F             = 0x89, 1, Convert,           None,            -1;
    L2D             = 0x8a, 1, Convert,           None,            0;
    F2I             = 0x8b, 1, Convert,           None,            0;
    F2L             = 0x8c, 1, Convert,           None,            1;
    F2D             = 0x8d, 1, Convert,           None,            1;
    D2I             = 0x8e, 1, Convert,           None,            -1;
    D2L             = 0x8f, 1, Convert,           None,            0;
    D2F             = 0x90, 1, Convert,           None,            -1;
    I2B             = 0x91, 1, Convert,           None,            0;
    I2C             = 0x92, 1, Convert,           None,            0;
    I2S             = 0x93, 1, Convert,           None,            0;
    LCMP            = 0x94, 1, Operator,          None,            -3;
    FCMPL           = 0x95, 1, Operator,          None,            -1;
    FCMPG           = 0x96, 1, Operator,          None,            -1;
    DCMPL           = 0x97, 1, Operator,          None,            -3;
    DCMPG           = 0x98, 1, Operator,          None,            -3;
    IFEQ            = 0x99, 3, Branch,            Branch,          -1;
    IFNE            = 0x9a, 3, Branch,            Branch,          -1;
    IFLT            = 0x9b, 3, Branch,            Branch,          -1;
    IFGE            = 0x9c, 3, Branch,            Branch,          -1;
    IFGT            = 0x9d, 3, Branch,            Branch,          -1;
    IFLE            = 0x9e, 3, Branch,            Branch,          -1;
    IF_ICMPEQ       = 0x9f, 3, Branch,            Branch,          -2;
    IF_ICMPNE       = 0xa0, 3, Branch,            Branch,          -2;
    IF_ICMPLT       = 0xa1, 3, Branch,            Branch,          -2;
    IF_ICMPGE       = 0xa2, 3, Branch,            Branch,          -2;
    IF_ICMPGT       = 0xa3, 3, Branch,            Branch,          -2;
    IF_ICMPLE       = 0xa4, 3, Branch,            Branch,          -2;
    IF_ACMPEQ       = 0xa5, 3, Branch,            Branch,          -2;
    IF_ACMPNE       = 0xa6, 3, Branch,            Branch,          -2;
    GOTO            = 0xa7, 3, Branch,            Branch,          0;
    JSR             = 0xa8, 3, DiscontinuedJsr,   Branch,          1;
    RET             = 0xa9, 2, DiscontinuedRet,   Local,           0;
    TABLESWITCH     = 0xaa, 0, TableSwitch,       TableSwitch,     -1;
    LOOKUPSWITCH    = 0xab, 0, LookupSwitch,      LookupSwitch,    -1;
    IRETURN         = 0xac, 1, Return,            None,            -1;
    LRETURN         = 0xad, 1, Return,            None,            -2;
    FRETURN         = 0xae, 1, Return,            None,            -1;
    DRETURN         = 0xaf, 1, Return,            None,            -2;
    ARETURN         = 0xb0, 1, Return,            None,            -1;
    RETURN          = 0xb1, 1, Return,            None,            0;
    GETSTATIC       = 0xb2, 3, FieldAccess,       Pool,            VARIES;
    PUTSTATIC       = 0xb3, 3, FieldAccess,       Pool,            VARIES;
    GETFIELD        = 0xb4, 3, FieldAccess,       Pool,            VARIES;
    PUTFIELD        = 0xb5, 3, FieldAccess,       Pool,            VARIES;
    INVOKEVIRTUAL   = 0xb6, 3, Invoke,            Pool,            VARIES;
    INVOKESPECIAL   = 0xb7, 3, Invoke,            Pool,            VARIES;
    INVOKESTATIC    = 0xb8, 3, Invoke,            Pool,            VARIES;
    INVOKEINTERFACE = 0xb9, 5, Invoke,            InvokeInterface, VARIES;
    INVOKEDYNAMIC   = 0xba, 5, InvokeDynamic,     InvokeDynamic,   VARIES;
    NEW             = 0xbb, 3, NewObject,         Pool,            1;
    NEWARRAY        = 0xbc, 2, NewPrimitiveArray, NewArray,        0;
    ANEWARRAY       = 0xbd, 3, NewRefArray,       Pool,            0;
    ARRAYLENGTH     = 0xbe, 1, Operator,          None,            0;
    ATHROW          = 0xbf, 1, ThrowException,    None,            -1;
    CHECKCAST       = 0xc0, 3, TypeCheck,         Pool,            0;
    INSTANCEOF      = 0xc1, 3, TypeCheck,         Pool,            0;
    MONITORENTER    = 0xc2, 1, Monitor,           None,            -1;
    MONITOREXIT     = 0xc3, 1, Monitor,           None,            -1;
    WIDE            = 0xc4, 0, Wide,              Wide,            0;
    MULTIANEWARRAY  = 0xc5, 4, NewMultiArray,     MultiANewArray,  VARIES;
    IFNULL          = 0xc6, 3, Branch,            Branch,          -1;
    IFNONNULL       = 0xc7, 3, Branch,            Branch,          -1;
    GOTO_W          = 0xc8, 5, Branch,            BranchWide,      0;
    JSR_W           = 0xc9, 5, DiscontinuedJsr,   BranchWide,      1;
}

/// The row of `opcode`.
pub const fn info(opcode: u8) -> Opcode {
    TABLE[opcode as usize]
}

/// The operands `opcode` takes, from its row of [`TABLE`].
pub fn operands(opcode: u8) -> Operands {
    info(opcode).operands
}

/// Slots pushed minus slots popped, for opcodes whose effect does not depend
/// on a constant (0 for the others: ldc, fields, invocations, multianewarray
/// are computed from their descriptors).
pub fn fixed_stack_effect(opcode: u8) -> i32 {
    i32::from(FIXED_STACK_EFFECTS[usize::from(opcode)])
}

/// [`Opcode::stack_effect`] of every opcode, 0 where a constant decides it.
pub(crate) const FIXED_STACK_EFFECTS: [i8; 256] = {
    let mut table = [0i8; 256];
    let mut opcode = 0;
    while opcode < 256 {
        if let Some(effect) = TABLE[opcode].stack_effect {
            table[opcode] = effect;
        }
        opcode += 1;
    }
    table
};

/// The length of an instruction that reads no code offset and ends no
/// block (what a run of original instructions may hold), `None` for the
/// others (branches, switches, returns, `athrow`, `jsr`, `ret`, `wide`, invalid opcodes).
pub fn plain_length(opcode: u8) -> Option<usize> {
    match PLAIN_LENGTHS[usize::from(opcode)] {
        0 => None,
        length => Some(usize::from(length)),
    }
}

/// [`plain_length`] of every opcode, 0 for `None`.
pub(crate) const PLAIN_LENGTHS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut opcode = 0;
    while opcode < 256 {
        let row = &TABLE[opcode];
        let plain = !matches!(
            row.kind,
            Kind::Branch
                | Kind::DiscontinuedJsr
                | Kind::DiscontinuedRet
                | Kind::TableSwitch
                | Kind::LookupSwitch
                | Kind::Return
                | Kind::ThrowException
                | Kind::Wide
                | Kind::Invalid
        );
        if plain {
            table[opcode] = row.length;
        }
        opcode += 1;
    }
    table
};

/// Control never falls through to the next instruction.
pub fn ends_block(opcode: u8) -> bool {
    matches!(opcode, GOTO | GOTO_W | RET | TABLESWITCH | LOOKUPSWITCH | IRETURN..=RETURN | ATHROW)
}

/// Whether `opcode` is one of the return instructions (`ireturn` … `return`).
pub fn is_return(opcode: u8) -> bool {
    (IRETURN..=RETURN).contains(&opcode)
}

/// Stack slots of the value a return opcode returns.
pub fn returned_slots(opcode: u8) -> i32 {
    match opcode {
        LRETURN | DRETURN => 2,
        RETURN => 0,
        _ => 1,
    }
}

/// A conditional branch (if*, if_*cmp*, ifnull, ifnonnull).
pub fn is_conditional_branch(opcode: u8) -> bool {
    (IFEQ..=IF_ACMPNE).contains(&opcode) || opcode == IFNULL || opcode == IFNONNULL
}

/// The conditional branch taken exactly when `opcode`'s is not.
pub fn invert_condition(opcode: u8) -> u8 {
    match opcode {
        IFNULL => IFNONNULL,
        IFNONNULL => IFNULL,
        // ifeq/ifne, iflt/ifge, ifgt/ifle, if_icmp pairs and if_acmp pairs are adjacent, odd-even.
        _ if opcode % 2 == 1 => opcode + 1,
        _ => opcode - 1,
    }
}

/// The opcode that loads a local of type `t`.
pub fn load_of(t: JavaType<'_>) -> u8 {
    match t {
        JavaType::Long => LLOAD,
        JavaType::Float => FLOAD,
        JavaType::Double => DLOAD,
        JavaType::Reference(_) => ALOAD,
        _ => ILOAD,
    }
}

/// The opcode that stores a local of type `t`.
pub fn store_of(t: JavaType<'_>) -> u8 {
    match t {
        JavaType::Long => LSTORE,
        JavaType::Float => FSTORE,
        JavaType::Double => DSTORE,
        JavaType::Reference(_) => ASTORE,
        _ => ISTORE,
    }
}

/// What a conversion (`i2l` … `i2s`) takes and gives; `i2b`, `i2c` and
/// `i2s` give an int. `None` for any other opcode.
pub fn conversion(opcode: u8) -> Option<(FieldType<'static>, FieldType<'static>)> {
    use FieldType::{Double, Float, Int, Long};
    Some(match opcode {
        I2L => (Int, Long),
        I2F => (Int, Float),
        I2D => (Int, Double),
        L2I => (Long, Int),
        L2F => (Long, Float),
        L2D => (Long, Double),
        F2I => (Float, Int),
        F2L => (Float, Long),
        F2D => (Float, Double),
        D2I => (Double, Int),
        D2L => (Double, Long),
        D2F => (Double, Float),
        I2B | I2C | I2S => (Int, Int),
        _ => return None,
    })
}

/// Slots taken by a load or store of this kind (2 for long and double).
pub fn local_size(opcode: u8) -> u16 {
    match opcode {
        LLOAD | DLOAD | LSTORE | DSTORE => 2,
        LLOAD_0..=LLOAD_3 | DLOAD_0..=DLOAD_3 | LSTORE_0..=LSTORE_3 | DSTORE_0..=DSTORE_3 => 2,
        _ => 1,
    }
}

/// The local index implied by xload_n / xstore_n.
pub fn implicit_local(opcode: u8) -> Option<u16> {
    match opcode {
        ILOAD_0..=ALOAD_3 => Some(u16::from((opcode - ILOAD_0) % 4)),
        ISTORE_0..=ASTORE_3 => Some(u16::from((opcode - ISTORE_0) % 4)),
        _ => None,
    }
}

/// The `atype` operand of `newarray` (JVMS 6.5, Table 6.5.newarray-A).
#[allow(missing_docs)] // named as in JVMS 6.5
pub mod array_type {
    pub const T_BOOLEAN: u8 = 4;
    pub const T_CHAR: u8 = 5;
    pub const T_FLOAT: u8 = 6;
    pub const T_DOUBLE: u8 = 7;
    pub const T_BYTE: u8 = 8;
    pub const T_SHORT: u8 = 9;
    pub const T_INT: u8 = 10;
    pub const T_LONG: u8 = 11;

    /// The descriptor of the array `newarray atype` creates.
    pub fn descriptor(atype: u8) -> Option<&'static str> {
        Some(match atype {
            T_BOOLEAN => "[Z",
            T_CHAR => "[C",
            T_FLOAT => "[F",
            T_DOUBLE => "[D",
            T_BYTE => "[B",
            T_SHORT => "[S",
            T_INT => "[I",
            T_LONG => "[J",
            _ => return None,
        })
    }
}
