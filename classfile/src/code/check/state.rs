//! The types one instruction consumes and produces, at the level a verifier
//! can judge without the class hierarchy: int, float, long, double (each a
//! pair of slots), reference, `null`, uninitialized objects and `uninitializedThis`.
//! Which class a reference is of is never asked, so every reference an
//! instruction makes is `Object(0)` and every reference is assignable to every
//! other.
#![forbid(unsafe_code)]

use super::{Offence, Rule};
use crate::code::insn::{Insn, Label};
use crate::read::constant_pool::{tag, Constant, ConstantPool};
use crate::read::descriptor::{self, FieldType};
use crate::read::opcodes as op;
use crate::code::pool::CodePool;
use crate::code::stack_map::{set_slot, VType};

/// Any reference an instruction makes: its class is not needed.
pub(super) const REFERENCE: VType = VType::Object(0);

/// What a method's code may do: its limits and what it returns.
pub(super) struct Method {
    pub max_stack: usize,
    pub max_locals: usize,
    /// What a return must hand back (`None`: `return` without a value).
    pub returns: Option<VType>,
    /// A constructor: it may not return before `this` is initialized.
    pub constructor: bool,
}

/// Locals and operand stack in slot form: a Long or Double is followed by a
/// `Top` for its second slot.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct State {
    pub locals: Vec<VType>,
    pub stack: Vec<VType>,
}

/// Where the verifier's category of a descriptor type lies.
fn of_field(t: FieldType<'_>) -> VType {
    VType::of_primitive(t).unwrap_or(REFERENCE)
}

/// Whether a value of type `value` may stand where `wanted` is declared.
pub(super) fn assignable(value: VType, wanted: VType) -> bool {
    match wanted {
        VType::Top => true,
        VType::Object(_) => matches!(value, VType::Object(_) | VType::Null),
        _ => value == wanted,
    }
}

fn is_uninitialized(t: VType) -> bool {
    matches!(t, VType::UninitializedThis | VType::Uninitialized(_))
}

fn name(t: VType) -> &'static str {
    match t {
        VType::Top => "top (no value)",
        VType::Integer => "int",
        VType::Float => "float",
        VType::Long => "long",
        VType::Double => "double",
        VType::Null => "null",
        VType::UninitializedThis => "uninitializedThis",
        VType::Object(_) => "a reference",
        VType::Uninitialized(_) => "an uninitialized object",
    }
}

pub(super) fn describe(t: VType) -> &'static str {
    name(t)
}

impl State {
    fn offence(at: u32, rule: Rule, message: String) -> Offence {
        Offence { rule, offset: Some(at), message }
    }

    fn push(&mut self, t: VType, at: u32, method: &Method) -> Result<(), Offence> {
        self.stack.push(t);
        if t.slots() == 2 {
            self.stack.push(VType::Top);
        }
        if self.stack.len() > method.max_stack {
            return Err(Self::offence(
                at,
                Rule::MaxStack,
                format!("the operand stack reaches {} slots, max_stack is {}", self.stack.len(), method.max_stack),
            ));
        }
        Ok(())
    }

    /// Pops one value of `wanted`'s category (a reference for `Object`).
    fn pop(&mut self, wanted: VType, at: u32) -> Result<VType, Offence> {
        let slots = wanted.slots();
        let Some(first) = self.stack.len().checked_sub(slots) else {
            return Err(Self::offence(at, Rule::StackDepth, "the operand stack underflows".into()));
        };
        let found = self.stack.get(first).copied().unwrap_or(VType::Top);
        if !assignable(found, wanted) {
            let rule = if is_uninitialized(found) { Rule::UninitializedThis } else { Rule::OperandType };
            let what = if matches!(wanted, VType::Object(_)) { "a reference" } else { name(wanted) };
            return Err(Self::offence(at, rule, format!("expects {what} on the operand stack, finds {}", name(found))));
        }
        self.stack.truncate(first);
        Ok(found)
    }

    /// Pops a reference that may still be uninitialized (`ifnull`, `if_acmp`,
    /// stores to locals, the receiver of a constructor).
    fn pop_any_reference(&mut self, at: u32) -> Result<VType, Offence> {
        match self.stack.last().copied() {
            Some(t) if is_uninitialized(t) => {
                self.stack.pop();
                Ok(t)
            }
            _ => self.pop(REFERENCE, at),
        }
    }

    /// Whether stack slot `i` is the second half of a long or double.
    fn is_second_half(&self, i: usize) -> bool {
        i.checked_sub(1).and_then(|b| self.stack.get(b)).is_some_and(|t| t.slots() == 2)
            && self.stack.get(i) == Some(&VType::Top)
    }

    /// A category-1 value's slot at `from_top` (0: the top), for dup and friends.
    fn single(&self, from_top: usize, at: u32) -> Result<usize, Offence> {
        let i = self
            .stack
            .len()
            .checked_sub(from_top + 1)
            .ok_or_else(|| Self::offence(at, Rule::StackDepth, "the operand stack underflows".into()))?;
        Ok(i)
    }

    fn local(&self, index: usize) -> VType {
        self.locals.get(index).copied().unwrap_or(VType::Top)
    }

    fn check_local_index(index: usize, size: usize, at: u32, method: &Method) -> Result<(), Offence> {
        if index + size > method.max_locals {
            return Err(Self::offence(
                at,
                Rule::MaxLocals,
                format!("uses local {index}, max_locals is {}", method.max_locals),
            ));
        }
        Ok(())
    }

    fn load(&mut self, wanted: VType, index: usize, at: u32, method: &Method) -> Result<(), Offence> {
        Self::check_local_index(index, wanted.slots(), at, method)?;
        let found = self.local(index);
        let ok = match wanted {
            VType::Object(_) => matches!(found, VType::Object(_) | VType::Null) || is_uninitialized(found),
            _ => found == wanted,
        };
        if !ok {
            return Err(Self::offence(
                at,
                Rule::LocalType,
                format!("loads local {index} as {}, but it holds {}", name(wanted), name(found)),
            ));
        }
        self.push(if matches!(wanted, VType::Object(_)) { found } else { wanted }, at, method)
    }

    fn store(&mut self, wanted: VType, index: usize, at: u32, method: &Method) -> Result<(), Offence> {
        Self::check_local_index(index, wanted.slots(), at, method)?;
        let value = if matches!(wanted, VType::Object(_)) { self.pop_any_reference(at)? } else { self.pop(wanted, at)? };
        let t = if matches!(value, VType::Null) { VType::Null } else if matches!(wanted, VType::Object(_)) { value } else { wanted };
        set_slot(&mut self.locals, index, t);
        Ok(())
    }

    /// Replaces every occurrence of an object whose constructor just ran.
    fn initialize(&mut self, receiver: VType) {
        for t in self.locals.iter_mut().chain(self.stack.iter_mut()) {
            if *t == receiver {
                *t = REFERENCE;
            }
        }
    }

    /// The effect of `insn` (at code offset `at`) on this state. Control
    /// flow is the caller's: this is only what the instruction does to types.
    pub(super) fn execute<'p>(
        &mut self,
        insn: &Insn,
        at: u32,
        method: &Method,
        pool: &mut impl CodePool<'p>,
        constants: &mut Constants,
    ) -> Result<(), Offence> {
        use VType::Integer;
        match insn {
            Insn::Label(_) | Insn::Raw { .. } => {}
            Insn::Simple(o) if op::implicit_local(*o).is_some() => {
                let index = usize::from(op::implicit_local(*o).unwrap_or(0));
                let kind = kind_of((*o - if *o < op::ISTORE_0 { op::ILOAD_0 } else { op::ISTORE_0 }) / 4);
                if *o < op::ISTORE_0 {
                    self.load(kind, index, at, method)?;
                } else {
                    self.store(kind, index, at, method)?;
                }
            }
            Insn::Simple(o) => self.simple(*o, at, method)?,
            Insn::Push { .. } => self.push(Integer, at, method)?,
            Insn::Ldc { index, .. } => {
                let t = constants.loaded(*index, at, pool)?;
                self.push(t, at, method)?;
            }
            Insn::Local { opcode, index, .. } => {
                let index = usize::from(*index);
                match *opcode {
                    op::ILOAD..=op::ALOAD => self.load(kind_of(*opcode - op::ILOAD), index, at, method)?,
                    op::ISTORE..=op::ASTORE => self.store(kind_of(*opcode - op::ISTORE), index, at, method)?,
                    _ => return Err(Self::offence(at, Rule::Code, "ret is not checked".into())),
                }
            }
            Insn::Iinc { index, .. } => {
                let index = usize::from(*index);
                Self::check_local_index(index, 1, at, method)?;
                if self.local(index) != Integer {
                    return Err(Self::offence(at, Rule::LocalType, format!("iinc of local {index}, which holds {}", name(self.local(index)))));
                }
            }
            Insn::Pool { opcode, index } => self.pool_instruction(*opcode, *index, at, method, pool, constants)?,
            Insn::InvokeInterface { index, .. } => self.invoke(op::INVOKEINTERFACE, *index, at, method, pool, constants)?,
            Insn::InvokeDynamic { index } => self.invoke(op::INVOKEDYNAMIC, *index, at, method, pool, constants)?,
            Insn::NewArray { .. } => {
                self.pop(Integer, at)?;
                self.push(REFERENCE, at, method)?;
            }
            Insn::MultiANewArray { dimensions, .. } => {
                for _ in 0..*dimensions {
                    self.pop(Integer, at)?;
                }
                self.push(REFERENCE, at, method)?;
            }
            Insn::Branch { opcode, .. } => match *opcode {
                op::IFEQ..=op::IFLE => drop(self.pop(Integer, at)?),
                op::IF_ICMPEQ..=op::IF_ICMPLE => {
                    self.pop(Integer, at)?;
                    self.pop(Integer, at)?;
                }
                op::IF_ACMPEQ | op::IF_ACMPNE => {
                    self.pop_any_reference(at)?;
                    self.pop_any_reference(at)?;
                }
                op::IFNULL | op::IFNONNULL => drop(self.pop_any_reference(at)?),
                op::GOTO | op::GOTO_W => {}
                _ => return Err(Self::offence(at, Rule::Code, "jsr is not checked".into())),
            },
            Insn::TableSwitch { .. } | Insn::LookupSwitch { .. } => drop(self.pop(Integer, at)?),
        }
        Ok(())
    }

    fn simple(&mut self, opcode: u8, at: u32, method: &Method) -> Result<(), Offence> {
        use VType::{Double, Float, Integer, Long, Null};
        match opcode {
            op::NOP => {}
            op::ACONST_NULL => self.push(Null, at, method)?,
            op::ICONST_M1..=op::ICONST_5 => self.push(Integer, at, method)?,
            op::LCONST_0 | op::LCONST_1 => self.push(Long, at, method)?,
            op::FCONST_0..=op::FCONST_2 => self.push(Float, at, method)?,
            op::DCONST_0 | op::DCONST_1 => self.push(Double, at, method)?,
            op::IALOAD..=op::SALOAD => {
                // xaload: array, index → element
                self.pop(Integer, at)?;
                self.pop(REFERENCE, at)?;
                let element = match opcode {
                    op::LALOAD => Long,
                    op::FALOAD => Float,
                    op::DALOAD => Double,
                    op::AALOAD => REFERENCE,
                    _ => Integer,
                };
                self.push(element, at, method)?;
            }
            op::IASTORE..=op::SASTORE => {
                let value = match opcode {
                    op::LASTORE => Long,
                    op::FASTORE => Float,
                    op::DASTORE => Double,
                    op::AASTORE => REFERENCE,
                    _ => Integer,
                };
                self.pop(value, at)?;
                self.pop(Integer, at)?;
                self.pop(REFERENCE, at)?;
            }
            op::POP => {
                let i = self.single(0, at)?;
                if self.is_second_half(i) {
                    return Err(Self::offence(at, Rule::OperandType, "pop of half a long or double".into()));
                }
                self.stack.truncate(i);
            }
            op::POP2 => {
                let i = self.single(1, at)?;
                self.stack.truncate(i);
            }
            op::DUP..=op::DUP2_X2 | op::SWAP => self.shuffle(opcode, at, method)?,
            op::IADD..=op::DREM => {
                let t = kind_of((opcode - op::IADD) % 4);
                self.pop(t, at)?;
                self.pop(t, at)?;
                self.push(t, at, method)?;
            }
            op::INEG..=op::DNEG => {
                let t = kind_of(opcode - op::INEG);
                self.pop(t, at)?;
                self.push(t, at, method)?;
            }
            op::ISHL..=op::LXOR => {
                let t = if opcode.is_multiple_of(2) { Integer } else { Long };
                // Shifts take an int count; and, or, xor two of a kind.
                self.pop(if opcode <= op::LUSHR { Integer } else { t }, at)?;
                self.pop(t, at)?;
                self.push(t, at, method)?;
            }
            op::I2L..=op::I2S => {
                let (from, to) = op::conversion(opcode).map_or((Integer, Integer), |(f, t)| (of_field(f), of_field(t)));
                self.pop(from, at)?;
                self.push(to, at, method)?;
            }
            op::LCMP..=op::DCMPG => {
                let t = match opcode {
                    op::LCMP => Long,
                    op::FCMPL | op::FCMPG => Float,
                    _ => Double,
                };
                self.pop(t, at)?;
                self.pop(t, at)?;
                self.push(Integer, at, method)?;
            }
            op::IRETURN..=op::RETURN => self.ret(opcode, at, method)?,
            op::ARRAYLENGTH => {
                self.pop(REFERENCE, at)?;
                self.push(Integer, at, method)?;
            }
            op::ATHROW | op::MONITORENTER | op::MONITOREXIT => drop(self.pop(REFERENCE, at)?),
            _ => return Err(Self::offence(at, Rule::Code, format!("opcode {opcode} is not an instruction"))),
        }
        Ok(())
    }

    /// A return: its value of the method's return type (values below it are
    /// discarded, as the JVM allows), and in a constructor `this` initialized.
    fn ret(&mut self, opcode: u8, at: u32, method: &Method) -> Result<(), Offence> {
        let given = match opcode {
            op::IRETURN => Some(VType::Integer),
            op::LRETURN => Some(VType::Long),
            op::FRETURN => Some(VType::Float),
            op::DRETURN => Some(VType::Double),
            op::ARETURN => Some(REFERENCE),
            _ => None,
        };
        let declared = method.returns.map(|t| if matches!(t, VType::Object(_)) { REFERENCE } else { t });
        if given != declared {
            return Err(Self::offence(at, Rule::OperandType, "the return instruction does not match the method's return type".into()));
        }
        if let Some(t) = given {
            self.pop(t, at)?;
        }
        if method.constructor && self.locals.contains(&VType::UninitializedThis) {
            return Err(Self::offence(at, Rule::UninitializedThis, "the constructor returns before this is initialized".into()));
        }
        Ok(())
    }

    /// dup, dup_x1, dup_x2, dup2, dup2_x1, dup2_x2, swap: slots moved as they are.
    fn shuffle(&mut self, opcode: u8, at: u32, method: &Method) -> Result<(), Offence> {
        let (copied, below) = match opcode {
            op::DUP => (1, 0),
            op::DUP_X1 => (1, 1),
            op::DUP_X2 => (1, 2),
            op::DUP2 => (2, 0),
            op::DUP2_X1 => (2, 1),
            op::DUP2_X2 => (2, 2),
            _ => {
                let i = self.single(1, at)?;
                if self.is_second_half(i + 1) || self.is_second_half(i) {
                    return Err(Self::offence(at, Rule::OperandType, "swap of half a long or double".into()));
                }
                self.stack.swap(i, i + 1);
                return Ok(());
            }
        };
        let top = self.single(copied - 1, at)?;
        let insert_at = self.single(copied + below - 1, at)?;
        if copied == 1 && self.is_second_half(top) {
            return Err(Self::offence(at, Rule::OperandType, "dup of half a long or double".into()));
        }
        // The one or two slots copied, without a list made for them.
        let mut values = [VType::Top; 2];
        for (value, &t) in values.iter_mut().zip(self.stack.get(top..).unwrap_or_default()) {
            *value = t;
        }
        for (k, &t) in values.iter().take(copied).enumerate() {
            self.stack.insert(insert_at + k, t);
        }
        if self.stack.len() > method.max_stack {
            return Err(Self::offence(
                at,
                Rule::MaxStack,
                format!("the operand stack reaches {} slots, max_stack is {}", self.stack.len(), method.max_stack),
            ));
        }
        Ok(())
    }

    fn pool_instruction<'p>(
        &mut self,
        opcode: u8,
        index: u16,
        at: u32,
        method: &Method,
        pool: &mut impl CodePool<'p>,
        constants: &mut Constants,
    ) -> Result<(), Offence> {
        match opcode {
            op::GETSTATIC => {
                let t = constants.field(index, at, pool)?;
                self.push(t, at, method)?;
            }
            op::PUTSTATIC => drop(self.pop(constants.field(index, at, pool)?, at)?),
            op::GETFIELD => {
                let t = constants.field(index, at, pool)?;
                self.pop(REFERENCE, at)?;
                self.push(t, at, method)?;
            }
            op::PUTFIELD => {
                self.pop(constants.field(index, at, pool)?, at)?;
                // A constructor may set its own fields before super(...) (JVMS 4.10.1.9.putfield).
                if self.stack.last() == Some(&VType::UninitializedThis) {
                    self.stack.pop();
                } else {
                    self.pop(REFERENCE, at)?;
                }
            }
            op::INVOKEVIRTUAL..=op::INVOKESTATIC => self.invoke(opcode, index, at, method, pool, constants)?,
            op::NEW => self.push(VType::Uninitialized(Label(at)), at, method)?,
            op::ANEWARRAY => {
                self.pop(VType::Integer, at)?;
                self.push(REFERENCE, at, method)?;
            }
            op::CHECKCAST => {
                self.pop(REFERENCE, at)?;
                self.push(REFERENCE, at, method)?;
            }
            op::INSTANCEOF => {
                self.pop(REFERENCE, at)?;
                self.push(VType::Integer, at, method)?;
            }
            _ => return Err(Self::offence(at, Rule::Code, format!("opcode {opcode} is not an instruction"))),
        }
        Ok(())
    }

    fn invoke<'p>(
        &mut self,
        opcode: u8,
        index: u16,
        at: u32,
        method: &Method,
        pool: &mut impl CodePool<'p>,
        constants: &mut Constants,
    ) -> Result<(), Offence> {
        let called = constants.method(index, at, pool)?;
        for &t in constants.parameters(&called).iter().rev() {
            self.pop(t, at)?;
        }
        if opcode != op::INVOKESTATIC && opcode != op::INVOKEDYNAMIC {
            if opcode == op::INVOKESPECIAL && called.constructor {
                let receiver = self.pop_any_reference(at)?;
                if !is_uninitialized(receiver) {
                    return Err(Self::offence(at, Rule::OperandType, "a constructor called on an initialized object".into()));
                }
                self.initialize(receiver);
            } else {
                self.pop(REFERENCE, at)?;
            }
        }
        if let Some(t) = called.returns() {
            self.push(t, at, method)?;
        }
        Ok(())
    }
}

/// i, l, f, d, a by the order of the typed opcode families.
fn kind_of(k: u8) -> VType {
    match k {
        0 => VType::Integer,
        1 => VType::Long,
        2 => VType::Float,
        3 => VType::Double,
        _ => REFERENCE,
    }
}

/// What the check needs of a field or method reference, read once per
/// class: the methods of a class mostly refer to the same few entries.
#[derive(Debug, Clone, Copy)]
enum Summary {
    Unread,
    /// What an `ldc` of a constant that is not Dynamic pushes.
    Loaded(VType),
    Field(VType),
    Method(Called),
}

/// A method an instruction calls: its descriptor's [`Signature`] and
/// whether it is `<init>`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Called {
    signature: Signature,
    pub constructor: bool,
}

impl Called {
    pub fn returns(&self) -> Option<VType> {
        self.signature.returns
    }
}

/// What a method descriptor says: its parameters (a range of
/// [`Signatures::parameters`]) and what it returns.
#[derive(Debug, Clone, Copy)]
struct Signature {
    start: u32,
    count: u16,
    returns: Option<VType>,
}

/// The method descriptors the check has read, by their text. A worker keeps
/// them from one class to the next (in its [`Verifier`]): classes call the same
/// few methods (TF's runtime among them), and looking a descriptor up costs
/// less than walking it again.
#[derive(Debug, Default)]
pub(super) struct Signatures {
    by_text: rustc_hash::FxHashMap<Box<[u8]>, Signature>,
    parameters: Vec<VType>,
}

/// More descriptors than this and the next class starts afresh (a worker
/// may see any number of classes).
const SIGNATURES_KEPT: usize = 1 << 16;

impl Signatures {
    /// The signature of descriptor `d`, the bytes of a Utf8 entry; `None`
    /// when they are not standard UTF-8 (the pool's lookups then decode
    /// them). Only texts are kept, so bytes found among them are text.
    fn of_bytes(&mut self, d: &[u8], at: u32) -> Result<Option<Signature>, Offence> {
        match self.by_text.get(d) {
            Some(&signature) => Ok(Some(signature)),
            None => std::str::from_utf8(d).ok().map(|d| self.walk(d, at)).transpose(),
        }
    }

    /// The signature of descriptor `d`.
    fn of(&mut self, d: &str, at: u32) -> Result<Signature, Offence> {
        match self.by_text.get(d.as_bytes()) {
            Some(&signature) => Ok(signature),
            None => self.walk(d, at),
        }
    }

    /// Reads descriptor `d` and keeps what it says, if it is one.
    fn walk(&mut self, d: &str, at: u32) -> Result<Signature, Offence> {
        let start = self.parameters.len();
        let parameters = &mut self.parameters;
        let walked = descriptor::walk_method(d, |t| {
            parameters.push(of_field(t));
            Ok(())
        });
        let returns = match walked {
            Ok(returns) => returns,
            Err(e) => {
                self.parameters.truncate(start);
                return Err(code_error(Some(at), e));
            }
        };
        let count = (self.parameters.len() - start) as u16;
        let signature = Signature { start: start as u32, count, returns: returns.map(of_field) };
        self.by_text.insert(d.as_bytes().into(), signature);
        Ok(signature)
    }
}

/// A worker's pre-write check: it checks one class after another
/// ([`Verifier::class`]), keeping what is worth keeping from one to the next
/// (the method descriptors it has read). The verdicts never depend on what
/// it kept.
#[derive(Debug, Default)]
pub struct Verifier {
    signatures: Signatures,
}

/// Field and method references of one class's pool, summarized on first use.
/// A map, not a table by pool index: a class uses a few of its pool's
/// entries, and a table as long as the pool would be cleared for each class.
#[derive(Debug, Default)]
pub(super) struct Constants {
    summaries: rustc_hash::FxHashMap<u16, Summary>,
    signatures: Signatures,
}

impl Constants {
    /// Constants of a new class, with the descriptors `verifier` holds.
    pub fn with(verifier: &mut Verifier) -> Constants {
        let mut signatures = std::mem::take(&mut verifier.signatures);
        if signatures.by_text.len() > SIGNATURES_KEPT {
            signatures = Signatures::default();
        }
        // Room for what a class's methods mostly refer to: the map is not grown step by step.
        let summaries = rustc_hash::FxHashMap::with_capacity_and_hasher(32, Default::default());
        Constants { summaries, signatures }
    }

    /// Hands the descriptors read back to `verifier`.
    pub fn keep(self, verifier: &mut Verifier) {
        verifier.signatures = self.signatures;
    }
}

impl Constants {
    fn summary(&mut self, index: u16) -> &mut Summary {
        self.summaries.entry(index).or_insert(Summary::Unread)
    }

    /// The verifier's type of field (or Dynamic constant) `index`.
    fn field<'p>(&mut self, index: u16, at: u32, pool: &mut impl CodePool<'p>) -> Result<VType, Offence> {
        if let Summary::Field(t) = *self.summary(index) {
            return Ok(t);
        }
        let plain = plain_reference(pool.original(), index, &[tag::FIELDREF, tag::DYNAMIC]);
        let t = match plain.and_then(|(_, d, _)| std::str::from_utf8(d).ok()) {
            Some(d) => of_descriptor(d),
            None => pool.reference_descriptor(index).and_then(|d| of_descriptor(&d)),
        }
        .map_err(|e| code_error(Some(at), e))?;
        *self.summary(index) = Summary::Field(t);
        Ok(t)
    }

    /// The type an `ldc` of entry `index` pushes.
    fn loaded<'p>(&mut self, index: u16, at: u32, pool: &mut impl CodePool<'p>) -> Result<VType, Offence> {
        match *self.summary(index) {
            Summary::Loaded(t) | Summary::Field(t) => return Ok(t),
            _ => {}
        }
        let t = match pool.get(index).map_err(|e| code_error(Some(at), e))? {
            Constant::Integer(_) => VType::Integer,
            Constant::Float(_) => VType::Float,
            Constant::Long(_) => VType::Long,
            Constant::Double(_) => VType::Double,
            Constant::Dynamic { .. } => return self.field(index, at, pool),
            _ => REFERENCE,
        };
        *self.summary(index) = Summary::Loaded(t);
        Ok(t)
    }

    /// The method (or call site) `index` refers to.
    fn method<'p>(&mut self, index: u16, at: u32, pool: &mut impl CodePool<'p>) -> Result<Called, Offence> {
        if let Summary::Method(called) = *self.summary(index) {
            return Ok(called);
        }
        let plain = match plain_method_reference(pool.original(), index) {
            Some((d, constructor)) => self.signatures.of_bytes(d, at)?.map(|signature| Called { signature, constructor }),
            None => None,
        };
        let called = match plain {
            Some(called) => called,
            None => {
                let d = pool.reference_descriptor(index).map_err(|e| code_error(Some(at), e))?;
                let signature = self.signatures.of(&d, at)?;
                let constructor = match pool.get(index).map_err(|e| code_error(Some(at), e))? {
                    Constant::Methodref { .. } | Constant::InterfaceMethodref { .. } => {
                        pool.method_owner_and_name(index).map_err(|e| code_error(Some(at), e))?.1 == "<init>"
                    }
                    _ => false,
                };
                Called { signature, constructor }
            }
        };
        *self.summary(index) = Summary::Method(called);
        Ok(called)
    }

    fn parameters(&self, called: &Called) -> &[VType] {
        let start = called.signature.start as usize;
        self.signatures.parameters.get(start..start + usize::from(called.signature.count)).unwrap_or_default()
    }
}

/// The descriptor bytes of method reference or InvokeDynamic `index`, and
/// whether it names a constructor, read in place (see [`plain_reference`]).
fn plain_method_reference<'p>(pool: &ConstantPool<'p>, index: u16) -> Option<(&'p [u8], bool)> {
    let (kind, descriptor, name) =
        plain_reference(pool, index, &[tag::METHODREF, tag::INTERFACE_METHODREF, tag::INVOKE_DYNAMIC])?;
    let constructor = kind != tag::INVOKE_DYNAMIC && std::str::from_utf8(plain_utf8(pool, name)?).ok()? == "<init>";
    Some((descriptor, constructor))
}

/// The kind, descriptor bytes and name index of reference `index`, read in
/// place from the pool's bytes when the entries are of the kinds a lookup
/// wants (the reference of one of `kinds`); `None` otherwise: the pool's
/// lookups then decode the entries, or say what is wrong with them. A
/// class's references are mostly read once, by the one method the check
/// follows: decoding each entry on the way was most of their cost.
fn plain_reference<'p>(pool: &ConstantPool<'p>, index: u16, kinds: &[u8]) -> Option<(u8, &'p [u8], u16)> {
    let index_at = |content: &[u8], n: usize| content.get(2 * n..2 * n + 2).map(|b| u16::from_be_bytes([b[0], b[1]]));
    let (kind, content) = pool.raw_entry(index).filter(|(kind, _)| kinds.contains(kind))?;
    let name_and_type = match pool.raw_entry(index_at(content, 1)?)? {
        (tag::NAME_AND_TYPE, name_and_type) => name_and_type,
        _ => return None,
    };
    Some((kind, plain_utf8(pool, index_at(name_and_type, 1)?)?, index_at(name_and_type, 0)?))
}

/// The bytes of Utf8 entry `index`: the text when they are standard UTF-8
/// (modified UTF-8 decodes those as they are).
fn plain_utf8<'p>(pool: &ConstantPool<'p>, index: u16) -> Option<&'p [u8]> {
    match pool.raw_entry(index)? {
        (tag::UTF8, text) => Some(text),
        _ => None,
    }
}

pub(super) fn code_error(at: Option<u32>, e: crate::read::error::ClassFileError) -> Offence {
    Offence { rule: Rule::Code, offset: at, message: e.kind.to_string() }
}

/// The verifier's type of a value of field descriptor `d`.
pub(super) fn of_descriptor(d: &str) -> crate::read::error::Result<VType> {
    descriptor::parse_field(d).map(of_field)
}

/// A method's first frame (JVMS 4.10.1.6) as the check sees it: `this` (an
/// uninitialized one in a constructor), then the parameters, every
/// reference a reference of no particular class.
pub(super) fn initial_frame(
    is_static: bool,
    this_uninitialized: bool,
    method_descriptor: &str,
) -> crate::read::error::Result<crate::code::stack_map::Frame> {
    let mut locals = Vec::with_capacity(method_descriptor.len());
    if !is_static {
        locals.push(if this_uninitialized { VType::UninitializedThis } else { REFERENCE });
    }
    descriptor::walk_method(method_descriptor, |t| {
        locals.push(of_field(t));
        Ok(())
    })?;
    Ok(crate::code::stack_map::Frame { locals, stack: Vec::new() })
}
