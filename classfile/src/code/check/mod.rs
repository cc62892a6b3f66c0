//! The pre-write check: what a verifier can establish about one method's
//! finished code without loading any other class. Every instruction is
//! decoded; the operand stack depth and the category of every local and
//! stack slot (int, float, long/double pairs, reference, uninitialized,
//! uninitializedThis, top) are followed through the code and compared with
//! the stack map frame at every jump target and exception handler, against
//! max_stack and max_locals, and an object is never used before its
//! constructor ran (`uninitializedThis` does not escape before the chaining
//! call). Whether one class is a subclass of another is never asked: that is
//! the part of verification a class hierarchy is needed for.
//!
//! Class files of version 50 and later are checked in one pass in code order,
//! each frame taking over at its offset (the frames say everything a jump
//! target needs); older ones, without frames, by data flow to a fixed point.
//! Code with `jsr`/`ret` (before version 50 only) is checked for its
//! instructions and jump targets, not for types.
//!
//! What it offers, each a plain operation that knows nothing of who wrote
//! the code:
//! - the full check of a method ([`check_method`], [`ClassCheck::full`]);
//! - the check of what a splice wrote into a method whose original code
//!   passed ([`ClassCheck::spliced`], see [`spliced`]): only the stretches
//!   written are followed, each from the frame before it; it may leave a
//!   method undecided, for the full check;
//! - the check of a Code attribute's max_stack and max_locals against what
//!   is known to be needed ([`check_limits`]).
//!
//! Which to use where is the caller's policy: tf-core's
//! `tracegen::check_scope` (a template's later copies take [`check_limits`]),
//! with the full check as its oracle (`tests/pre_write_check_scope.rs`).
#![forbid(unsafe_code)]

mod flow;
mod frames;
mod limits;
mod spliced;
mod state;

pub use limits::{check_limits, Limits};
pub use spliced::{SplicedRegions, SplicedVerdict};
pub use state::Verifier;

use crate::read::class_file::{ClassFile, Member, ReadBack};
use crate::read::code_attribute::CodeAttribute;
use crate::code::insn::Insn;
use crate::code::decode::decode_at;
use crate::read::descriptor;
use crate::read::opcodes::{self as op, Operands};
use crate::code::pool::CodePool;
use crate::read::access::ACC_STATIC;
use crate::read::constant_pool::ConstantPool;
use crate::code::stack_map::{to_slots, VType};
use state::{Constants, Method, State};

/// Which rule a method's code breaks; [`Rule::id`] names it in diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// An instruction that does not decode, or a jump outside the code.
    Code,
    /// Operand stack depths that disagree (or an underflow).
    StackDepth,
    /// max_stack too small for the stack the code reaches.
    MaxStack,
    /// max_locals too small for the locals the code or its frames use.
    MaxLocals,
    /// A local or stack slot whose type is not the one its stack map frame declares.
    FrameTypes,
    /// A jump target or handler, or code after an unconditional jump, without a frame.
    MissingFrame,
    /// A local read as a type it does not hold.
    LocalType,
    /// An operand of the wrong category.
    OperandType,
    /// An object used before its constructor ran, or a constructor that returns without calling one.
    UninitializedThis,
}

impl Rule {
    /// Every rule, in the order diagnostics list them.
    pub const ALL: [Rule; 9] = [
        Rule::Code,
        Rule::StackDepth,
        Rule::MaxStack,
        Rule::MaxLocals,
        Rule::FrameTypes,
        Rule::MissingFrame,
        Rule::LocalType,
        Rule::OperandType,
        Rule::UninitializedThis,
    ];

    /// The rule's name on the wire (a diagnostic's `rule`).
    pub fn id(self) -> &'static str {
        match self {
            Rule::Code => "check-code",
            Rule::StackDepth => "check-stack-depth",
            Rule::MaxStack => "check-max-stack",
            Rule::MaxLocals => "check-max-locals",
            Rule::FrameTypes => "check-frame-types",
            Rule::MissingFrame => "check-missing-frame",
            Rule::LocalType => "check-local-type",
            Rule::OperandType => "check-operand-type",
            Rule::UninitializedThis => "check-uninitialized-this",
        }
    }
}

/// Why a method's code would not verify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offence {
    /// The rule broken.
    pub rule: Rule,
    /// The code offset of the instruction concerned, if one is (not for a
    /// truncated Code attribute, the method's limits or its descriptor).
    pub offset: Option<u32>,
    /// What is wrong, for a user to read.
    pub message: String,
}

impl std::fmt::Display for Offence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.offset {
            Some(offset) => write!(f, "at code offset {offset}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Checks the code of `member` of `class`; `pool` is a builder over
/// `class`'s constant pool (shared by the methods of one class). A method
/// without code passes.
pub fn check_method<'p>(class: &ClassFile<'_>, member: &Member<'_>, pool: &mut impl CodePool<'p>) -> Result<(), Offence> {
    check_method_with(class, member, pool, &mut Constants::default())
}

/// [`check_method`] with what the class's other methods read of its pool.
fn check_method_with<'p>(
    class: &ClassFile<'_>,
    member: &Member<'_>,
    pool: &mut impl CodePool<'p>,
    constants: &mut Constants,
) -> Result<(), Offence> {
    let Some(Start { code, initial, start, method }) = start(class, member)? else { return Ok(()) };
    if class.major_version() >= 50 {
        frames::check(&code, &initial, start, &method, pool, constants)
    } else {
        flow::check(&code, start, &method, pool, constants)
    }
}

/// The check of what a splice wrote into `member` (see [`spliced`]);
/// `original` is the original code's max_stack and max_locals.
fn check_spliced_with<'p>(
    class: &ClassFile<'_>,
    member: &Member<'_>,
    original: Limits,
    regions: &SplicedRegions,
    pool: &mut impl CodePool<'p>,
    constants: &mut Constants,
) -> Result<SplicedVerdict, Offence> {
    if class.major_version() < 50 {
        return Ok(SplicedVerdict::Undecided);
    }
    let Some(start) = start(class, member)? else { return Ok(SplicedVerdict::Undecided) };
    spliced::check(&start, original, regions, pool, constants)
}

/// A method's code and what the check starts from.
pub(super) struct Start<'c> {
    code: CodeAttribute<'c>,
    initial: crate::code::stack_map::Frame,
    start: State,
    method: Method,
}

/// [`Start`] of `member`'s code; `None` without code.
fn start<'c>(class: &ClassFile<'c>, member: &Member<'c>) -> Result<Option<Start<'c>>, Offence> {
    let at_start = |e: crate::read::error::ClassFileError| state::code_error(None, e);
    let Some(code) = class.code(member).map_err(at_start)? else { return Ok(None) };
    let name = member.name().map_err(at_start)?;
    let method_descriptor = member.descriptor().map_err(at_start)?;
    let is_static = member.access_flags & ACC_STATIC != 0;
    let constructor = name == "<init>";
    // java/lang/Object's constructor has no superclass constructor to call.
    let this_uninitialized = constructor && class.this_class().map_err(at_start)? != "java/lang/Object";
    let initial = state::initial_frame(is_static, this_uninitialized, &method_descriptor).map_err(at_start)?;
    let returns = match descriptor::split_method(&method_descriptor).map(|(_, r)| r) {
        Some("V") => None,
        Some(r) => Some(state::of_descriptor(r).map_err(at_start)?),
        None => return Err(state::code_error(None, crate::read::error::ClassFileError::malformed_unlocated("bad method descriptor"))),
    };
    let method = Method {
        max_stack: usize::from(code.max_stack),
        max_locals: usize::from(code.max_locals),
        returns,
        constructor,
    };
    let start = State { locals: to_slots(&initial.locals), stack: Vec::new() };
    if start.locals.len() > method.max_locals {
        return Err(Offence {
            rule: Rule::MaxLocals,
            offset: None,
            message: format!("the parameters take {} local slots, max_locals is {}", start.locals.len(), method.max_locals),
        });
    }
    Ok(Some(Start { code, initial, start, method }))
}

/// Every instruction of `code` in order with its offset and the next one's.
fn instructions<'c>(code: &'c CodeAttribute<'_>) -> impl Iterator<Item = Result<(u32, Insn, u32), Offence>> + 'c {
    instructions_from(code, 0)
}

/// The instructions of `code` from offset `from` (an instruction start) on.
fn instructions_from<'c>(
    code: &'c CodeAttribute<'_>,
    from: u32,
) -> impl Iterator<Item = Result<(u32, Insn, u32), Offence>> + 'c {
    let mut at = from;
    let end = code.code.len() as u32;
    std::iter::from_fn(move || {
        if at >= end {
            return None;
        }
        let here = at;
        if let Some((insn, next)) = decode_common(code.code, here) {
            at = next;
            return Some(Ok((here, insn, next)));
        }
        Some(match decode_at(code.code, here) {
            Ok((insn, next)) => {
                at = next;
                Ok((here, insn, next))
            }
            Err(e) => {
                at = end;
                Err(state::code_error(Some(here), e))
            }
        })
    })
}

/// The instruction at `at` and the next one's offset when it is of the
/// common fixed-length forms (no operand, a local, a pool index, a 16-bit
/// jump inside the code), decoded as [`decode_at`] does without its reader
/// (`tests::the_common_forms_decode_as_decode_at_does`); `None` for every
/// other instruction, and for what `decode_at` reports.
fn decode_common(code: &[u8], at: u32) -> Option<(Insn, u32)> {
    let start = at as usize;
    let opcode = *code.get(start)?;
    let byte = |k: usize| code.get(start + k).copied();
    let short = || Some(u16::from_be_bytes([byte(1)?, byte(2)?]));
    let insn = match op::operands(opcode) {
        Operands::None => return Some((Insn::Simple(opcode), at + 1)),
        Operands::Local => return Some((Insn::Local { opcode, index: u16::from(byte(1)?), wide: false }, at + 2)),
        Operands::PoolByte => return Some((Insn::Ldc { opcode, index: u16::from(byte(1)?) }, at + 2)),
        Operands::Pool if matches!(opcode, op::LDC_W | op::LDC2_W) => Insn::Ldc { opcode, index: short()? },
        Operands::Pool => Insn::Pool { opcode, index: short()? },
        Operands::Branch => {
            let target = i64::from(at) + i64::from(short()? as i16);
            if !(0..code.len() as i64).contains(&target) {
                return None;
            }
            Insn::Branch { opcode, target: crate::code::insn::Label(target as u32) }
        }
        _ => return None,
    };
    Some((insn, at + 3))
}

/// Whether control goes on to the next instruction after `insn`.
fn falls_through(insn: &Insn) -> bool {
    !insn.opcode().is_some_and(op::ends_block)
}

/// Whether `state` may flow into a point whose frame is `frame` (slot form),
/// reached from the instruction at `from`.
fn agrees(state: &State, frame: &State, from: u32, target: u32) -> Result<(), Offence> {
    if state.stack.len() != frame.stack.len() {
        return Err(Offence {
            rule: Rule::StackDepth,
            offset: Some(from),
            message: format!(
                "the operand stack holds {} slot(s) where the stack map frame at offset {target} declares {}",
                state.stack.len(),
                frame.stack.len()
            ),
        });
    }
    agrees_locals(state, frame, from, target)?;
    for (i, (&value, &wanted)) in state.stack.iter().zip(&frame.stack).enumerate() {
        if !state::assignable(value, wanted) {
            return Err(Offence {
                rule: Rule::FrameTypes,
                offset: Some(from),
                message: format!(
                    "stack slot {i} holds {} where the stack map frame at offset {target} declares {}",
                    state::describe(value),
                    state::describe(wanted)
                ),
            });
        }
    }
    Ok(())
}

fn agrees_locals(state: &State, frame: &State, from: u32, target: u32) -> Result<(), Offence> {
    for (i, &wanted) in frame.locals.iter().enumerate() {
        let value = state.locals.get(i).copied().unwrap_or(VType::Top);
        if !state::assignable(value, wanted) {
            return Err(Offence {
                rule: Rule::FrameTypes,
                offset: Some(from),
                message: format!(
                    "local {i} holds {} where the stack map frame at offset {target} declares {}",
                    state::describe(value),
                    state::describe(wanted)
                ),
            });
        }
    }
    Ok(())
}

/// A method of an edited class whose Code attribute the edit changed.
#[derive(Debug, Clone, Copy)]
pub struct ChangedCode<'r, 'w> {
    /// The method's index in the written class (the original's index of it too).
    pub index: usize,
    /// The method as written.
    pub member: &'r Member<'w>,
    /// The body of the original method's Code attribute; `None` for a method
    /// the original lacks or that had no code.
    pub original: Option<&'r [u8]>,
    /// The body of the written Code attribute.
    pub written: &'r [u8],
}

/// The methods of `written` (an edit of `original` read back) whose Code
/// attribute is not the one of the method at the same index of `original`,
/// in method order; every method but those read back as changed is byte for
/// byte the original's.
pub fn changed_code<'r, 'w>(
    original: &'r ClassFile<'_>,
    written: &'r ReadBack<'w>,
) -> impl Iterator<Item = ChangedCode<'r, 'w>> + 'r {
    written.changed_methods().iter().filter_map(move |(index, member)| {
        let code = member.attribute(crate::read::attribute::name::CODE)?;
        let before = original.methods().get(*index).and_then(|m| m.attribute(crate::read::attribute::name::CODE));
        if before.is_some_and(|b| b.data() == code.data()) {
            return None;
        }
        Some(ChangedCode { index: *index, member, original: before.map(|b| b.data()), written: code.data() })
    })
}

/// The checks of one written class's methods. They share what they read of
/// its pool (through a `P` made of it, the write layer's `PoolBuilder`, on
/// the first method that needs it), and hand what is worth keeping for the
/// next class (the method descriptors read) back to their [`Verifier`] when
/// dropped.
pub struct ClassCheck<'r, 'w, P: CodePool<'w> + From<ConstantPool<'w>>> {
    class: &'r ClassFile<'w>,
    verifier: &'r mut Verifier,
    read: Option<(P, Constants)>,
}

impl Verifier {
    /// The checks of `class`'s methods, with what this verifier kept of the
    /// classes before; `P` is the pool the checks read `class`'s through.
    pub fn class<'r, 'w, P: CodePool<'w> + From<ConstantPool<'w>>>(
        &'r mut self,
        class: &'r ClassFile<'w>,
    ) -> ClassCheck<'r, 'w, P> {
        ClassCheck { class, verifier: self, read: None }
    }
}

impl<'r, 'w, P: CodePool<'w> + From<ConstantPool<'w>>> ClassCheck<'r, 'w, P> {
    fn read(&mut self) -> (&mut P, &mut Constants) {
        let (class, verifier) = (self.class, &mut *self.verifier);
        let (pool, constants) =
            self.read.get_or_insert_with(|| (P::from(class.constant_pool().clone()), Constants::with(verifier)));
        (pool, constants)
    }

    /// The full check of `member` (see the module); a method without code passes.
    pub fn full(&mut self, member: &Member<'_>) -> Result<(), Offence> {
        let class = self.class;
        let (pool, constants) = self.read();
        check_method_with(class, member, pool, constants)
    }

    /// The check of what a splice wrote into `member` (the [`spliced`]
    /// module's), whose original code had the limits `original` and passed;
    /// [`SplicedVerdict::Undecided`] where the full check must decide.
    pub fn spliced(
        &mut self,
        member: &Member<'_>,
        original: Limits,
        regions: &SplicedRegions,
    ) -> Result<SplicedVerdict, Offence> {
        let class = self.class;
        let (pool, constants) = self.read();
        check_spliced_with(class, member, original, regions, pool, constants)
    }
}

impl<'w, P: CodePool<'w> + From<ConstantPool<'w>>> Drop for ClassCheck<'_, 'w, P> {
    fn drop(&mut self) {
        if let Some((_, constants)) = self.read.take() {
            constants.keep(self.verifier);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every opcode, with operand bytes that make small and large indexes
    /// and jumps inside, before and past the code, at several offsets.
    #[test]
    fn the_common_forms_decode_as_decode_at_does() {
        let operands: [&[u8]; 6] = [&[], &[0], &[0, 4], &[0x7f, 0xff], &[0xff, 0xfc], &[1, 0, 0, 0]];
        let mut decided = 0;
        for opcode in 0..=u8::MAX {
            for bytes in operands {
                for lead in [0usize, 3, 6] {
                    let mut code = vec![op::NOP; lead];
                    code.push(opcode);
                    code.extend_from_slice(bytes);
                    code.extend(std::iter::repeat_n(op::NOP, 8));
                    for len in [lead + 1, lead + 2, lead + 3, lead + 4, code.len()] {
                        let code = &code[..len];
                        if let Some(fast) = decode_common(code, lead as u32) {
                            decided += 1;
                            assert_eq!(Some(fast), decode_at(code, lead as u32).ok(), "opcode {opcode}, code {code:?}");
                        }
                    }
                }
            }
        }
        assert!(decided > 10_000, "only {decided} forms decoded");
    }
}
