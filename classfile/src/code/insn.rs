//! Instructions as the code model holds them: [`Insn`], the [`Label`]s
//! branches, handlers and tables refer to, and exception [`Handler`]s. The
//! code model (`code_model.rs`) lists them; the decoder (`decode.rs`) reads
//! them from bytes; the assembler writes them.
#![forbid(unsafe_code)]

use crate::read::opcodes as op;

/// A position in the code, bound where its [`Insn::Label`] sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label(pub u32);

impl Label {
    /// The label's number: its dense id in a lifted model, its code offset in a splice.
    pub fn id(&self) -> u32 {
        self.0
    }
}

/// One element of the code: an instruction, or a label binding.
///
/// Forms are kept as read (`ldc_w` for a small index, `wide iload 3`,
/// `goto_w`), so that unedited code assembles to the same bytes; new code may
/// use any form, the assembler picks the encoding the operands need.
#[derive(Debug, Clone, PartialEq, Eq)]
// Operands as JVMS 6.5 names them for each instruction.
#[allow(missing_docs)]
pub enum Insn {
    Label(Label),
    /// An instruction without operands (`iadd`, `aload_0`, `areturn`, …).
    Simple(u8),
    /// `bipush` or `sipush`.
    Push {
        opcode: u8,
        value: i16,
    },
    /// `ldc`, `ldc_w` or `ldc2_w`; `ldc` is widened when the index needs it.
    Ldc {
        opcode: u8,
        index: u16,
    },
    /// A load, store or `ret` with an explicit local index.
    Local {
        opcode: u8,
        index: u16,
        wide: bool,
    },
    Iinc {
        index: u16,
        delta: i16,
        wide: bool,
    },
    /// An instruction with a two-byte pool index: field access, invocation
    /// (but invokeinterface/invokedynamic), `new`, `anewarray`, `checkcast`, `instanceof`.
    Pool {
        opcode: u8,
        index: u16,
    },
    InvokeInterface {
        index: u16,
        count: u8,
    },
    InvokeDynamic {
        index: u16,
    },
    NewArray {
        atype: u8,
    },
    MultiANewArray {
        index: u16,
        dimensions: u8,
    },
    /// Any jump; a short form is widened when its target is too far.
    Branch {
        opcode: u8,
        target: Label,
    },
    TableSwitch {
        default: Label,
        low: i32,
        targets: Vec<Label>,
    },
    LookupSwitch {
        default: Label,
        pairs: Vec<(i32, Label)>,
    },
    /// Original instructions at code offsets `start..end` of the code the
    /// model was lifted from ([`Detail::Runs`]), written back as those bytes.
    /// A run holds no label binding and none of the instructions an edit of
    /// control flow looks for (see [`Detail::Runs`]); it is position-independent,
    /// so it needs no relocation. [`CodeModel::expand_runs`] decodes runs
    /// into single instructions.
    Raw {
        start: u32,
        end: u32,
    },
}

impl Insn {
    /// The opcode, `None` for a label or a run of original instructions.
    pub fn opcode(&self) -> Option<u8> {
        Some(match self {
            Insn::Label(_) | Insn::Raw { .. } => return None,
            Insn::Simple(o)
            | Insn::Push { opcode: o, .. }
            | Insn::Ldc { opcode: o, .. }
            | Insn::Local { opcode: o, .. }
            | Insn::Pool { opcode: o, .. }
            | Insn::Branch { opcode: o, .. } => *o,
            Insn::Iinc { .. } => op::IINC,
            Insn::InvokeInterface { .. } => op::INVOKEINTERFACE,
            Insn::InvokeDynamic { .. } => op::INVOKEDYNAMIC,
            Insn::NewArray { .. } => op::NEWARRAY,
            Insn::MultiANewArray { .. } => op::MULTIANEWARRAY,
            Insn::TableSwitch { .. } => op::TABLESWITCH,
            Insn::LookupSwitch { .. } => op::LOOKUPSWITCH,
        })
    }

    /// Whether this is one of the return instructions (`ireturn` … `return`).
    pub fn is_return(&self) -> bool {
        self.opcode().is_some_and(op::is_return)
    }

    /// Loads an int constant with the shortest instruction (constants
    /// outside the short range need a pool entry: use `ldc`).
    pub fn int_constant(value: i16) -> Insn {
        match value {
            -1..=5 => Insn::Simple((i32::from(op::ICONST_0) + i32::from(value)) as u8),
            -128..=127 => Insn::Push { opcode: op::BIPUSH, value },
            _ => Insn::Push { opcode: op::SIPUSH, value },
        }
    }

    /// Labels this instruction may jump to.
    pub fn targets(&self) -> Vec<Label> {
        let mut out = Vec::new();
        self.for_each_target(|l| out.push(l));
        out
    }

    /// Calls `f` with each label this instruction may jump to.
    pub fn for_each_target(&self, mut f: impl FnMut(Label)) {
        match self {
            Insn::Branch { target, .. } => f(*target),
            Insn::TableSwitch { default, targets, .. } => {
                f(*default);
                targets.iter().for_each(|&t| f(t));
            }
            Insn::LookupSwitch { default, pairs } => {
                f(*default);
                pairs.iter().for_each(|&(_, t)| f(t));
            }
            _ => {}
        }
    }
}

/// An exception-table entry: `[start, end)` is covered, control goes to `handler`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
// Fields as the exception table's (JVMS 4.7.3), by label.
#[allow(missing_docs)]
pub struct Handler {
    pub start: Label,
    pub end: Label,
    pub handler: Label,
    /// A Class constant, or 0 for any throwable.
    pub catch_type: u16,
}
