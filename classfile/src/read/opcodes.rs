//! JVM opcodes (JVMS chapter 6): names for the ones the engine treats
//! specially, and for every opcode its operand layout and its stack effect.
#![forbid(unsafe_code)]

pub const NOP: u8 = 0;
pub const ACONST_NULL: u8 = 1;
pub const ICONST_0: u8 = 3;
pub const ICONST_1: u8 = 4;
pub const LCONST_0: u8 = 9;
pub const LCONST_1: u8 = 10;
pub const BIPUSH: u8 = 16;
pub const SIPUSH: u8 = 17;
pub const LDC: u8 = 18;
pub const LDC_W: u8 = 19;
pub const LDC2_W: u8 = 20;
pub const ILOAD: u8 = 21;
pub const LLOAD: u8 = 22;
pub const FLOAD: u8 = 23;
pub const DLOAD: u8 = 24;
pub const ALOAD: u8 = 25;
pub const ILOAD_0: u8 = 26;
pub const ALOAD_0: u8 = 42;
pub const ALOAD_3: u8 = 45;
pub const ISTORE: u8 = 54;
pub const LSTORE: u8 = 55;
pub const FSTORE: u8 = 56;
pub const DSTORE: u8 = 57;
pub const ASTORE: u8 = 58;
pub const ISTORE_0: u8 = 59;
pub const ASTORE_3: u8 = 78;
pub const POP: u8 = 87;
pub const POP2: u8 = 88;
pub const DUP: u8 = 89;
pub const SWAP: u8 = 95;
pub const IINC: u8 = 132;
pub const IFEQ: u8 = 153;
pub const IF_ACMPNE: u8 = 166;
pub const GOTO: u8 = 167;
pub const JSR: u8 = 168;
pub const RET: u8 = 169;
pub const TABLESWITCH: u8 = 170;
pub const LOOKUPSWITCH: u8 = 171;
pub const IRETURN: u8 = 172;
pub const LRETURN: u8 = 173;
pub const FRETURN: u8 = 174;
pub const DRETURN: u8 = 175;
pub const ARETURN: u8 = 176;
pub const RETURN: u8 = 177;
pub const GETSTATIC: u8 = 178;
pub const PUTSTATIC: u8 = 179;
pub const GETFIELD: u8 = 180;
pub const PUTFIELD: u8 = 181;
pub const INVOKEVIRTUAL: u8 = 182;
pub const INVOKESPECIAL: u8 = 183;
pub const INVOKESTATIC: u8 = 184;
pub const INVOKEINTERFACE: u8 = 185;
pub const INVOKEDYNAMIC: u8 = 186;
pub const NEW: u8 = 187;
pub const NEWARRAY: u8 = 188;
pub const ANEWARRAY: u8 = 189;
pub const ATHROW: u8 = 191;
pub const CHECKCAST: u8 = 192;
pub const INSTANCEOF: u8 = 193;
pub const MONITORENTER: u8 = 194;
pub const MONITOREXIT: u8 = 195;
pub const WIDE: u8 = 196;
pub const MULTIANEWARRAY: u8 = 197;
pub const IFNULL: u8 = 198;
pub const IFNONNULL: u8 = 199;
pub const GOTO_W: u8 = 200;
pub const JSR_W: u8 = 201;

/// How an opcode's operands are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

pub fn operands(opcode: u8) -> Operands {
    match opcode {
        0..=15 | 26..=53 | 59..=131 | 133..=152 | 172..=177 | 190 | 191 | 194 | 195 => Operands::None,
        BIPUSH => Operands::Byte,
        SIPUSH => Operands::Short,
        LDC => Operands::PoolByte,
        LDC_W | LDC2_W | 178..=184 | NEW | ANEWARRAY | CHECKCAST | INSTANCEOF => Operands::Pool,
        21..=25 | 54..=58 | RET => Operands::Local,
        IINC => Operands::Iinc,
        153..=168 | IFNULL | IFNONNULL => Operands::Branch,
        GOTO_W | JSR_W => Operands::BranchWide,
        TABLESWITCH => Operands::TableSwitch,
        LOOKUPSWITCH => Operands::LookupSwitch,
        INVOKEINTERFACE => Operands::InvokeInterface,
        INVOKEDYNAMIC => Operands::InvokeDynamic,
        NEWARRAY => Operands::NewArray,
        MULTIANEWARRAY => Operands::MultiANewArray,
        WIDE => Operands::Wide,
        _ => Operands::Invalid,
    }
}

/// Slots pushed minus slots popped, for opcodes whose effect does not depend
/// on a constant (ldc, fields, invocations, multianewarray are computed from
/// their descriptors).
pub fn fixed_stack_effect(opcode: u8) -> i32 {
    // The depth pass asks for every instruction: a table read, not a jump
    // through a 256-way match.
    FIXED_STACK_EFFECTS.get(usize::from(opcode)).map_or(0, |&e| i32::from(e))
}

pub(crate) const FIXED_STACK_EFFECTS: [i8; 256] = {
    let mut table = [0i8; 256];
    let mut opcode = 0;
    while opcode < 256 {
        table[opcode] = fixed_stack_effect_of(opcode as u8) as i8;
        opcode += 1;
    }
    table
};

const fn fixed_stack_effect_of(opcode: u8) -> i32 {
    match opcode {
        NOP => 0,
        1..=8 => 1,   // aconst_null, iconst_*
        9 | 10 => 2,  // lconst_*
        11..=13 => 1, // fconst_*
        14 | 15 => 2, // dconst_*
        BIPUSH | SIPUSH => 1,
        // Always a long or double, whatever the entry (ldc and ldc_w depend on it).
        LDC2_W => 2,
        ILOAD | FLOAD | ALOAD => 1,
        LLOAD | DLOAD => 2,
        26..=29 | 34..=37 | 42..=45 => 1,
        30..=33 | 38..=41 => 2,
        46 | 48 | 50..=53 => -1, // iaload faload aaload baload caload saload
        47 | 49 => 0,            // laload daload
        ISTORE | FSTORE | ASTORE => -1,
        LSTORE | DSTORE => -2,
        59..=62 | 67..=70 | 75..=78 => -1,
        63..=66 | 71..=74 => -2,
        79 | 81 | 83..=86 => -3, // iastore fastore aastore bastore castore sastore
        80 | 82 => -4,           // lastore dastore
        POP => -1,
        POP2 => -2,
        89..=91 => 1, // dup dup_x1 dup_x2
        92..=94 => 2, // dup2 dup2_x1 dup2_x2
        SWAP => 0,
        96..=115 => {
            if opcode.is_multiple_of(2) {
                -1
            } else {
                -2
            }
        } // add sub mul div rem: i/f pop 1, l/d pop 2
        116..=119 => 0,        // neg
        120..=125 => -1,       // shifts: the shift count is an int
        126 | 128 | 130 => -1, // iand ior ixor
        127 | 129 | 131 => -2, // land lor lxor
        IINC => 0,
        133 | 135 | 140 | 141 => 1,       // i2l i2d f2l f2d
        134 | 139 | 143 | 145..=147 => 0, // i2f f2i d2l i2b i2c i2s
        137 | 142 | 144 => -1,            // l2f d2i d2f
        136 => -1,                        // l2i
        138 => 0,                         // l2d
        148 | 151 | 152 => -3,            // lcmp dcmpl dcmpg
        149 | 150 => -1,                  // fcmpl fcmpg
        153..=158 => -1,
        159..=166 => -2,
        GOTO | GOTO_W | RET => 0,
        JSR | JSR_W => 1,
        TABLESWITCH | LOOKUPSWITCH => -1,
        IRETURN | FRETURN | ARETURN => -1,
        LRETURN | DRETURN => -2,
        RETURN => 0,
        NEW => 1,
        NEWARRAY | ANEWARRAY | 190 | CHECKCAST | INSTANCEOF => 0,
        ATHROW => -1,
        MONITORENTER | MONITOREXIT => -1,
        IFNULL | IFNONNULL => -1,
        _ => 0,
    }
}

/// The length of an instruction that reads no code offset and ends no
/// block (what a run of original instructions may hold), `None` for the
/// others (branches, switches, returns, `athrow`, `ret`, `wide`, invalid opcodes).
pub fn plain_length(opcode: u8) -> Option<usize> {
    match PLAIN_LENGTHS.get(usize::from(opcode)).copied().unwrap_or(0) {
        0 => None,
        length => Some(usize::from(length)),
    }
}

pub(crate) const PLAIN_LENGTHS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut opcode = 0;
    while opcode < 256 {
        let o = opcode as u8;
        table[opcode] = match o {
            GOTO | GOTO_W | RET | TABLESWITCH | LOOKUPSWITCH | IRETURN..=RETURN | ATHROW | WIDE => 0,
            153..=168 | IFNULL | IFNONNULL | JSR_W => 0,
            0..=15 | 26..=53 | 59..=131 | 133..=152 | 190 | 194 | 195 => 1,
            BIPUSH | LDC | 21..=25 | 54..=58 | NEWARRAY => 2,
            SIPUSH | LDC_W | LDC2_W | 178..=184 | NEW | ANEWARRAY | CHECKCAST | INSTANCEOF | IINC => 3,
            MULTIANEWARRAY => 4,
            INVOKEINTERFACE | INVOKEDYNAMIC => 5,
            _ => 0,
        };
        opcode += 1;
    }
    table
};

/// Control never falls through to the next instruction.
pub fn ends_block(opcode: u8) -> bool {
    matches!(opcode, GOTO | GOTO_W | RET | TABLESWITCH | LOOKUPSWITCH | IRETURN..=RETURN | ATHROW)
}

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

/// Slots taken by a load or store of this kind (2 for long and double).
pub fn local_size(opcode: u8) -> u16 {
    match opcode {
        LLOAD | DLOAD | LSTORE | DSTORE => 2,
        30..=33 | 38..=41 | 63..=66 | 71..=74 => 2,
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
