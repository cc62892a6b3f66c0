//! Types at a point of straight-line code, from the nearest frame before it;
//! and, in code without frames, at a point reached by jumps ([`frame_by_flow`]).
//!
//! Needed when the assembler widens a conditional branch into an inverted
//! branch over `goto_w`: the instruction after the `goto_w` becomes a branch
//! target and needs a frame. Between two frames code is straight-line, so the
//! types follow from the earlier frame by simulating each instruction; no
//! merging, hence no class hierarchy.
#![forbid(unsafe_code)]

use crate::code::insn::{Handler, Insn, Label};
use crate::code::decode::run_instructions;
use crate::read::constant_pool::Constant;
use crate::read::descriptor::{self, FieldType};
use crate::read::error::{ClassFileError, Result};
use crate::read::opcodes as op;
use crate::code::pool::CodePool;
use crate::code::stack_map::{self, Frame, VType};

/// The frame in effect just before element `index` executes. Runs
/// ([`Insn::Raw`]) are followed through `code`, their instructions decoded.
pub(crate) fn frame_before<'p>(
    elements: &[Insn],
    code: &[u8],
    index: usize,
    frame_of: &dyn Fn(Label) -> Option<Frame>,
    initial: &Frame,
    this_class: u16,
    pool: &mut impl CodePool<'p>,
) -> Result<Frame> {
    let cannot =
        |why: &str| ClassFileError::malformed_unlocated(format!("cannot infer the frame at instruction {index}: {why}"));
    // Walk back to the nearest frame; the code from there is straight-line.
    let mut start = 0;
    let mut frame = initial.clone();
    for i in (0..index).rev() {
        match elements.get(i) {
            Some(Insn::Label(label)) => {
                if let Some(found) = frame_of(*label) {
                    start = i + 1;
                    frame = found;
                    break;
                }
            }
            Some(insn) if insn.opcode().is_some_and(op::ends_block) => {
                return Err(cannot("unreachable code follows a jump without a frame"))
            }
            _ => {}
        }
    }
    let mut state = State { locals: stack_map::to_slots(&frame.locals), stack: stack_map::to_slots(&frame.stack) };
    let mut last_new: Option<Label> = None;
    // A `new` in a run has no label: an identity of its own while simulating.
    let mut unlabelled = Identities(u32::MAX);
    for insn in elements.get(start..index).unwrap_or_default() {
        match insn {
            Insn::Label(label) => last_new = Some(*label),
            Insn::Raw { start, end } => {
                for insn in run_instructions(code, *start, *end) {
                    let identity = last_new.take().unwrap_or_else(|| unlabelled.next());
                    state.execute(&insn, Some(identity), this_class, pool).map_err(|e| cannot(&e.kind.to_string()))?;
                }
            }
            // A lift by single instructions labels only jump targets, so a `new`
            // may have no label either: it gets an identity of its own too.
            _ => {
                let identity = last_new.take().or_else(|| Some(unlabelled.next()));
                state.execute(insn, identity, this_class, pool).map_err(|e| cannot(&e.kind.to_string()))?
            }
        }
    }
    Ok(Frame { locals: stack_map::from_slots(&state.locals), stack: stack_map::from_slots(&state.stack) })
}

/// Lifted code as the flow through it is followed: its elements, the code
/// bytes their runs are read from, the element index of each label, and
/// the model's exception handlers.
#[derive(Clone, Copy)]
pub(crate) struct Listing<'l> {
    pub elements: &'l [Insn],
    pub code: &'l [u8],
    pub label_index: &'l dyn Fn(Label) -> Option<usize>,
    pub handlers: &'l [Handler],
}

/// The frame just before element `index` of code without stack map frames
/// (class files before version 50), reached by jumps as well as by falling
/// through: the control flow is followed from the first element, each
/// element taking the types of the first path that reaches it. No merging,
/// hence no class hierarchy: code that verifies has operand stacks of the
/// same shape on every path into a point, so the first path's stack has the
/// right sizes, and it reads no local a path leaves unset. (Types where paths
/// meet may be narrower than a verifier's merge; only the stack's shape is
/// relied on.) A `jsr` is taken to come back with the stack it found.
/// `None` if no path reaches the element (dead code, which a verifier
/// without frames does not look at).
pub(crate) fn frame_by_flow<'p>(
    listing: &Listing<'_>,
    index: usize,
    initial: &Frame,
    this_class: u16,
    pool: &mut impl CodePool<'p>,
) -> Result<Option<Frame>> {
    let Listing { elements, code, label_index, handlers } = *listing;
    let cannot =
        |why: &str| ClassFileError::malformed_unlocated(format!("cannot follow the types to instruction {index}: {why}"));
    let mut reached = vec![false; elements.len()];
    let start = State { locals: stack_map::to_slots(&initial.locals), stack: Vec::new() };
    let mut pending: Vec<(usize, State)> = vec![(0, start)];
    // A `new` without a label still needs an identity of its own while simulating.
    let mut unlabelled = Identities(u32::MAX);
    while let Some((from, mut state)) = pending.pop() {
        let mut last_label = None;
        for i in from..elements.len() {
            if std::mem::replace(&mut reached[i], true) {
                break;
            }
            let insn = &elements[i];
            if i == index {
                let locals = stack_map::from_slots(&state.locals);
                return Ok(Some(Frame { locals, stack: stack_map::from_slots(&state.stack) }));
            }
            for h in handlers {
                let (Some(first), Some(end), Some(at)) =
                    (label_index(h.start), label_index(h.end), label_index(h.handler))
                else {
                    return Err(cannot("an exception handler's label is not bound"));
                };
                if (first..end).contains(&i) && !reached[at] {
                    let caught = match h.catch_type {
                        0 => pool.class("java/lang/Throwable")?,
                        class => class,
                    };
                    pending.push((at, State { locals: state.locals.clone(), stack: vec![VType::Object(caught)] }));
                }
            }
            let opcode = insn.opcode().unwrap_or(op::NOP);
            match insn {
                Insn::Label(label) => {
                    last_label = Some(*label);
                    continue;
                }
                Insn::Raw { start, end } => {
                    for insn in run_instructions(code, *start, *end) {
                        let identity = last_label.take().unwrap_or_else(|| unlabelled.next());
                        state
                            .execute(&insn, Some(identity), this_class, pool)
                            .map_err(|e| cannot(&e.kind.to_string()))?;
                    }
                    continue;
                }
                _ if matches!(opcode, op::JSR | op::JSR_W | op::RET) => {}
                _ => {
                    let identity = last_label.take().or_else(|| Some(unlabelled.next()));
                    state.execute(insn, identity, this_class, pool).map_err(|e| cannot(&e.kind.to_string()))?;
                }
            }
            let mut unbound = false;
            insn.for_each_target(|target| match label_index(target) {
                Some(at) if !reached[at] => {
                    let mut there = state.clone();
                    if matches!(opcode, op::JSR | op::JSR_W) {
                        there.stack.push(VType::Top); // the return address
                    }
                    pending.push((at, there));
                }
                Some(_) => {}
                None => unbound = true,
            });
            if unbound {
                return Err(cannot("a jump to a label that is not bound"));
            }
            if op::ends_block(opcode) {
                break;
            }
        }
    }
    Ok(None)
}

/// Types in slot form: a Long/Double is followed by a `Top` for its second slot.
#[derive(Debug, Clone)]
pub(crate) struct State {
    pub(crate) locals: Vec<VType>,
    pub(crate) stack: Vec<VType>,
}

fn underflow() -> ClassFileError {
    ClassFileError::malformed_unlocated("the operand stack underflows")
}

impl State {
    fn push(&mut self, t: VType) {
        self.stack.push(t);
        if t.slots() == 2 {
            self.stack.push(VType::Top);
        }
    }

    fn pop_slots(&mut self, n: usize) -> Result<Vec<VType>> {
        let keep = self.stack.len().checked_sub(n).ok_or_else(underflow)?;
        Ok(self.stack.split_off(keep))
    }

    fn pop(&mut self) -> Result<VType> {
        self.stack.pop().ok_or_else(underflow)
    }

    fn local(&self, index: u16) -> VType {
        self.locals.get(usize::from(index)).copied().unwrap_or(VType::Top)
    }

    fn push_field_type<'p>(&mut self, t: FieldType<'_>, pool: &mut impl CodePool<'p>) -> Result<()> {
        let t = VType::of(t, pool)?;
        self.push(t);
        Ok(())
    }

    /// `label` is the label bound right before this instruction, if any (the
    /// identity of a `new`).
    pub(crate) fn execute<'p>(
        &mut self,
        insn: &Insn,
        label: Option<Label>,
        this_class: u16,
        pool: &mut impl CodePool<'p>,
    ) -> Result<()> {
        let opcode = insn.opcode().unwrap_or(op::NOP);
        match insn {
            Insn::Label(_) => {}
            // The assembler infers frames only in a model without runs.
            Insn::Raw { .. } => return Err(ClassFileError::malformed_unlocated("a run of instructions to infer types through")),
            Insn::Local { opcode, index, .. } => self.local_access(*opcode, *index)?,
            Insn::Simple(o) if op::implicit_local(*o).is_some() => {
                let index = op::implicit_local(*o).unwrap_or(0);
                let generic = if *o < op::ISTORE_0 {
                    op::ILOAD + (*o - op::ILOAD_0) / 4
                } else {
                    op::ISTORE + (*o - op::ISTORE_0) / 4
                };
                self.local_access(generic, index)?;
            }
            Insn::Iinc { .. } => {}
            Insn::Push { .. } => self.push(VType::Integer),
            Insn::Ldc { index, .. } => {
                let t = match pool.get(*index)? {
                    Constant::Integer(_) => VType::Integer,
                    Constant::Float(_) => VType::Float,
                    Constant::Long(_) => VType::Long,
                    Constant::Double(_) => VType::Double,
                    Constant::String { .. } => VType::Object(pool.class("java/lang/String")?),
                    Constant::Class { .. } => VType::Object(pool.class("java/lang/Class")?),
                    Constant::MethodType { .. } => VType::Object(pool.class("java/lang/invoke/MethodType")?),
                    Constant::MethodHandle { .. } => VType::Object(pool.class("java/lang/invoke/MethodHandle")?),
                    Constant::Dynamic { .. } => {
                        let d = pool.reference_descriptor(*index)?;
                        VType::of(descriptor::parse_field(&d)?, pool)?
                    }
                    _ => return Err(ClassFileError::malformed_unlocated("ldc of a constant that is no value")),
                };
                self.push(t);
            }
            Insn::Pool { opcode, index } => self.pool_instruction(*opcode, *index, label, this_class, pool)?,
            Insn::InvokeInterface { index, .. } => self.invoke(op::INVOKEINTERFACE, *index, this_class, pool)?,
            Insn::InvokeDynamic { index } => self.invoke(op::INVOKEDYNAMIC, *index, this_class, pool)?,
            Insn::NewArray { atype } => {
                self.pop()?;
                let descriptor = op::array_type::descriptor(*atype)
                    .ok_or_else(|| ClassFileError::malformed_unlocated(format!("newarray of type {atype}")))?;
                let t = VType::Object(pool.class(descriptor)?);
                self.push(t);
            }
            Insn::MultiANewArray { index, dimensions } => {
                self.pop_slots(usize::from(*dimensions))?;
                self.push(VType::Object(*index));
            }
            Insn::Branch { .. } | Insn::TableSwitch { .. } | Insn::LookupSwitch { .. } => {
                if matches!(opcode, op::JSR | op::JSR_W) {
                    return Err(ClassFileError::malformed_unlocated("jsr in code with stack map frames"));
                }
                let popped = (-op::fixed_stack_effect(opcode)).max(0) as usize;
                self.pop_slots(popped)?;
            }
            Insn::Simple(o) => self.simple(*o, pool)?,
        }
        Ok(())
    }

    fn local_access(&mut self, opcode: u8, index: u16) -> Result<()> {
        match opcode {
            op::ILOAD => self.push(VType::Integer),
            op::LLOAD => self.push(VType::Long),
            op::FLOAD => self.push(VType::Float),
            op::DLOAD => self.push(VType::Double),
            op::ALOAD => {
                let t = self.local(index);
                self.push(t)
            }
            op::ISTORE | op::LSTORE | op::FSTORE | op::DSTORE | op::ASTORE => {
                let size = usize::from(op::local_size(opcode));
                let value = self.pop_slots(size)?;
                let t = value.first().copied().ok_or_else(underflow)?;
                stack_map::set_slot(&mut self.locals, usize::from(index), t);
            }
            _ => return Err(ClassFileError::malformed_unlocated("ret in code with stack map frames")),
        }
        Ok(())
    }

    fn simple<'p>(&mut self, opcode: u8, pool: &mut impl CodePool<'p>) -> Result<()> {
        use VType::*;
        let s = &mut self.stack;
        let len = s.len();
        let take = |s: &Vec<VType>, from_top: usize| -> Result<VType> {
            s.len().checked_sub(from_top + 1).and_then(|i| s.get(i)).copied().ok_or_else(underflow)
        };
        match opcode {
            op::NOP => {}
            op::ACONST_NULL => self.push(Null),
            op::ICONST_M1..=op::ICONST_5 => self.push(Integer),
            op::LCONST_0 | op::LCONST_1 => self.push(Long),
            op::FCONST_0..=op::FCONST_2 => self.push(Float),
            op::DCONST_0 | op::DCONST_1 => self.push(Double),
            op::IALOAD..=op::SALOAD => {
                // xaload: array, index → element
                self.pop()?;
                let array = self.pop()?;
                let element = match opcode {
                    op::LALOAD => Long,
                    op::FALOAD => Float,
                    op::DALOAD => Double,
                    op::AALOAD => match array {
                        Object(index) => {
                            let name = pool.class_name(index)?;
                            let element = name.strip_prefix('[').unwrap_or("java/lang/Object");
                            match descriptor::parse_field(element)? {
                                FieldType::Reference(n) => Object(pool.class(n)?),
                                _ => return Err(ClassFileError::malformed_unlocated("aaload from a primitive array")),
                            }
                        }
                        _ => Null,
                    },
                    _ => Integer,
                };
                self.push(element);
            }
            op::IASTORE..=op::SASTORE => {
                let value = if matches!(opcode, op::LASTORE | op::DASTORE) { 2 } else { 1 };
                self.pop_slots(2 + value)?;
            }
            op::POP => drop(self.pop_slots(1)?),
            op::POP2 => drop(self.pop_slots(2)?),
            op::DUP => s.push(take(s, 0)?),
            op::DUP_X1 => {
                // dup_x1: ..., b, a → ..., a, b, a
                let a = take(s, 0)?;
                s.insert(len - 2, a);
            }
            op::DUP_X2 => {
                let a = take(s, 0)?;
                take(s, 2)?;
                s.insert(len - 3, a);
            }
            op::DUP2 => {
                let (b, a) = (take(s, 1)?, take(s, 0)?);
                s.push(b);
                s.push(a);
            }
            op::DUP2_X1 => {
                let (b, a) = (take(s, 1)?, take(s, 0)?);
                take(s, 2)?;
                s.insert(len - 3, a);
                s.insert(len - 3, b);
            }
            op::DUP2_X2 => {
                let (b, a) = (take(s, 1)?, take(s, 0)?);
                take(s, 3)?;
                s.insert(len - 4, a);
                s.insert(len - 4, b);
            }
            op::SWAP => {
                let (b, a) = (take(s, 1)?, take(s, 0)?);
                s.truncate(len - 2);
                s.push(a);
                s.push(b);
            }
            op::IADD..=op::LXOR | op::I2L..=op::DCMPG => {
                let (pops, result) = arithmetic(opcode);
                self.pop_slots(pops)?;
                if let Some(t) = result {
                    self.push(t);
                }
            }
            op::IRETURN..=op::RETURN | op::ATHROW => {
                self.stack.clear();
            }
            op::ARRAYLENGTH => {
                self.pop()?;
                self.push(Integer);
            }
            op::MONITORENTER | op::MONITOREXIT => drop(self.pop()?),
            _ => return Err(ClassFileError::malformed_unlocated(format!("opcode {opcode} has no type rule"))),
        }
        Ok(())
    }

    fn pool_instruction<'p>(
        &mut self,
        opcode: u8,
        index: u16,
        label: Option<Label>,
        this_class: u16,
        pool: &mut impl CodePool<'p>,
    ) -> Result<()> {
        match opcode {
            op::GETSTATIC | op::GETFIELD | op::PUTSTATIC | op::PUTFIELD => {
                let d = pool.reference_descriptor(index)?;
                let t = descriptor::parse_field(&d)?;
                match opcode {
                    op::GETSTATIC => self.push_field_type(t, pool)?,
                    op::GETFIELD => {
                        self.pop()?;
                        self.push_field_type(t, pool)?;
                    }
                    op::PUTSTATIC => drop(self.pop_slots(usize::from(t.slots()))?),
                    _ => drop(self.pop_slots(usize::from(t.slots()) + 1)?),
                }
            }
            op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKESTATIC => self.invoke(opcode, index, this_class, pool)?,
            op::NEW => {
                let label = label.ok_or_else(|| ClassFileError::malformed_unlocated("a new without a label"))?;
                self.push(VType::Uninitialized(label));
            }
            op::ANEWARRAY => {
                self.pop()?;
                let element = pool.class_name(index)?;
                let array = if element.starts_with('[') { format!("[{element}") } else { format!("[L{element};") };
                let t = VType::Object(pool.class(&array)?);
                self.push(t);
            }
            op::CHECKCAST => {
                self.pop()?;
                self.push(VType::Object(index));
            }
            op::INSTANCEOF => {
                self.pop()?;
                self.push(VType::Integer);
            }
            _ => return Err(ClassFileError::malformed_unlocated(format!("opcode {opcode} has no type rule"))),
        }
        Ok(())
    }

    fn invoke<'p>(&mut self, opcode: u8, index: u16, this_class: u16, pool: &mut impl CodePool<'p>) -> Result<()> {
        let d = pool.reference_descriptor(index)?;
        let method = descriptor::parse_method(&d)?;
        self.pop_slots(usize::from(method.parameter_slots()))?;
        if opcode != op::INVOKESTATIC && opcode != op::INVOKEDYNAMIC {
            let receiver = self.pop()?;
            if opcode == op::INVOKESPECIAL {
                let (owner, name) = pool.method_owner_and_name(index)?;
                if name == "<init>" {
                    let initialized = match receiver {
                        VType::UninitializedThis => VType::Object(this_class),
                        VType::Uninitialized(_) => VType::Object(owner),
                        _ => receiver,
                    };
                    for t in self.locals.iter_mut().chain(self.stack.iter_mut()) {
                        if *t == receiver {
                            *t = initialized;
                        }
                    }
                }
            }
        }
        if let Some(t) = method.returns {
            self.push_field_type(t, pool)?;
        }
        Ok(())
    }
}

/// Slots popped and the type pushed by arithmetic, conversion and comparison opcodes.
fn arithmetic(opcode: u8) -> (usize, Option<VType>) {
    use VType::*;
    let by_kind = |k: u8| match k % 4 {
        0 => Integer,
        1 => Long,
        2 => Float,
        _ => Double,
    };
    match opcode {
        op::IADD..=op::DREM => {
            let t = by_kind(opcode - op::IADD);
            (2 * t.slots(), Some(t))
        }
        op::INEG..=op::DNEG => {
            let t = by_kind(opcode - op::INEG);
            (t.slots(), Some(t))
        }
        op::ISHL..=op::LUSHR => {
            let t = if opcode.is_multiple_of(2) { Integer } else { Long };
            (t.slots() + 1, Some(t))
        }
        op::IAND..=op::LXOR => {
            let t = if opcode.is_multiple_of(2) { Integer } else { Long };
            (2 * t.slots(), Some(t))
        }
        op::I2L..=op::I2S => match op::conversion(opcode) {
            Some((from, to)) => (usize::from(from.slots()), VType::of_primitive(to)),
            None => (1, Some(Integer)),
        },
        op::LCMP => (4, Some(Integer)),
        op::FCMPL | op::FCMPG => (2, Some(Integer)),
        _ => (4, Some(Integer)), // dcmpl, dcmpg
    }
}

/// Label ids no code model hands out (they count down from the top).
pub(crate) struct Identities(pub(crate) u32);

impl Identities {
    pub(crate) fn next(&mut self) -> Label {
        self.0 = self.0.saturating_sub(1);
        Label(self.0)
    }
}
