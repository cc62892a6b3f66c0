//! A constructor's chaining calls, found by data flow: the `invokespecial
//! <init>` whose receiver is `uninitializedThis` (`super(...)` or
//! `this(...)`), whatever comes before it — branches and ternaries in the
//! arguments (`this(tag, tag == 9)`), switches, objects created as
//! arguments, calls of static helpers.
//!
//! The types are followed from the method's first frame along every path
//! while `this` is uninitialized, in code order (the Class constants the
//! types name reach the pool in the pool order, see [`CodePool`]). At a
//! label with a stack map frame the frame is taken; in a
//! class file without frames (before version 50) a label takes the types
//! the first jump to it brought, which is enough to tell `this` from the
//! rest. A path ends at the chaining call, or at a `throw`. No class
//! hierarchy is needed.
#![forbid(unsafe_code)]

use crate::code::insn::{Handler, Insn, Label};
use crate::code::decode::run_instructions;
use crate::read::descriptor;
use crate::read::error::{ClassFileError, Result};
use crate::code::frame_infer::{Identities, State};
use crate::read::opcodes as op;
use crate::code::pool::CodePool;
use crate::code::stack_map::{self, Frame, VType};

/// What the paths through a constructor before `this` is initialized found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chaining {
    /// Every chaining call, in code order.
    pub calls: Vec<ChainingCall>,
    /// The last element any path reaches with `this` uninitialized.
    pub last_uninitialized: usize,
    /// Whether element `i` is reached with `this` uninitialized (an
    /// instruction; labels are not marked).
    pub uninitialized: Vec<bool>,
    /// Whether some path returns with `this` uninitialized (no verifier
    /// takes that; a path may end in a `throw`).
    pub returns_uninitialized: bool,
}

/// One `super(...)`/`this(...)` call of a constructor and what follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainingCall {
    /// The element index just after the call.
    pub after: usize,
    /// The types just after the call, `this` initialized (javac leaves the
    /// stack empty; groovyc does not).
    pub frame: Frame,
    /// Whether the locals after the call are the parameters, of their
    /// declared types or assigned values of them (`super(p = copy(p))`),
    /// and no other: no local was set before the call, as before Java 25's
    /// statements before `super(...)`.
    pub keeps_parameters: bool,
}

/// Where monitoring of a constructor starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// After the one chaining call every path reaches, with an empty
    /// stack and the parameters as declared, no code reached with `this`
    /// uninitialized after it: as javac compiled every constructor before
    /// Java 25.
    One(usize),
    /// After each of [`Chaining::calls`], each path after its own.
    Each,
}

impl Chaining {
    /// Where monitoring starts; `Err(why)` when some path has no chaining call.
    pub fn start(&self) -> std::result::Result<Start, String> {
        if self.returns_uninitialized {
            return Err("a path returns without calling super(...) or this(...)".into());
        }
        match self.calls.as_slice() {
            [] => Err("no path calls super(...) or this(...)".into()),
            [call] if call.frame.stack.is_empty() && call.keeps_parameters && self.last_uninitialized < call.after => {
                Ok(Start::One(call.after))
            }
            _ => Ok(Start::Each),
        }
    }

    /// Whether element `index` is reached with `this` uninitialized.
    pub fn is_uninitialized(&self, index: usize) -> bool {
        self.uninitialized.get(index).copied().unwrap_or(false)
    }
}

/// The chaining calls among `elements` (runs of `code` decoded), from
/// `initial`, taking the frames of `frames` where they are bound.
pub fn chaining_calls<'p>(
    elements: &[Insn],
    code: &[u8],
    handlers: &[Handler],
    frames: &[(Label, Frame)],
    initial: &Frame,
    this_class: u16,
    pool: &mut impl CodePool<'p>,
) -> Result<Chaining> {
    let cannot = |i: usize, why: String| {
        ClassFileError::malformed_unlocated(
            format!("cannot follow the types before the super(...) or this(...) call at instruction {i}: {why}"),
        )
    };
    let flow = Flow::new(elements, handlers, frames);
    // The locals where a constructor of javac before Java 25 initializes `this`.
    let this = VType::Object(this_class);
    let declared: Vec<VType> =
        initial.locals.iter().map(|&t| if t == VType::UninitializedThis { this } else { t }).collect();
    let mut found = Chaining {
        calls: Vec::new(),
        last_uninitialized: 0,
        uninitialized: vec![false; elements.len()],
        returns_uninitialized: false,
    };
    // States a jump or a handler brings to a later element, by element index.
    let mut pending: Vec<(usize, State)> = Vec::new();
    let mut state = Some(State { locals: stack_map::to_slots(&initial.locals), stack: Vec::new() });
    let mut last_label = None;
    // A `new` without a label still needs an identity of its own while simulating.
    let mut unlabelled = Identities(u32::MAX);
    for (i, insn) in elements.iter().enumerate() {
        if state.is_none() && pending.iter().all(|(at, _)| *at < i) && flow.last_uninitialized_frame < Some(i) {
            break;
        }
        if let Insn::Label(label) = insn {
            match flow.frame(*label) {
                Some(frame) if frame.is_uninitialized() => {
                    state = Some(State {
                        locals: stack_map::to_slots(&frame.locals),
                        stack: stack_map::to_slots(&frame.stack),
                    })
                }
                Some(_) => state = None,
                None if state.is_none() => state = take_pending(&mut pending, i),
                None => {}
            }
            last_label = Some(*label);
            continue;
        }
        let Some(current) = state.as_mut() else { continue };
        found.last_uninitialized = i;
        if let Some(flag) = found.uninitialized.get_mut(i) {
            *flag = true;
        }
        for &(start, end, handler, catch_type) in &flow.handlers {
            if (start..end).contains(&i) && !pending.iter().any(|(at, _)| *at == handler) {
                let caught = match catch_type {
                    0 => VType::Object(pool.class("java/lang/Throwable")?),
                    class => VType::Object(class),
                };
                pending.push((handler, State { locals: current.locals.clone(), stack: vec![caught] }));
            }
        }
        if let Insn::Raw { start, end } = insn {
            // A run holds no invokespecial in a constructor (see `Detail::Runs`)
            // and no block end: its instructions only change the types.
            for insn in run_instructions(code, *start, *end) {
                let identity = last_label.take().unwrap_or_else(|| unlabelled.next());
                current.execute(&insn, Some(identity), this_class, pool).map_err(|e| cannot(i, e.kind.to_string()))?;
            }
            continue;
        }
        if let Insn::Pool { opcode: op::INVOKESPECIAL, index } = insn {
            if pool.method_owner_and_name(*index)?.1 == "<init>" {
                let arguments = descriptor::parse_method(&pool.reference_descriptor(*index)?)?.parameter_slots();
                let receiver_at = current.stack.len().checked_sub(usize::from(arguments) + 1);
                if receiver_at.and_then(|at| current.stack.get(at)) == Some(&VType::UninitializedThis) {
                    current.execute(insn, None, this_class, pool).map_err(|e| cannot(i, e.kind.to_string()))?;
                    let frame = Frame {
                        locals: stack_map::from_slots(&current.locals),
                        stack: stack_map::from_slots(&current.stack),
                    };
                    let keeps_parameters = keeps_parameters(&declared, &frame.locals);
                    found.calls.push(ChainingCall { after: i + 1, frame, keeps_parameters });
                    // `this` is initialized on this path from here on.
                    state = None;
                    continue;
                }
            }
        }
        let identity = last_label.take().unwrap_or_else(|| unlabelled.next());
        current.execute(insn, Some(identity), this_class, pool).map_err(|e| cannot(i, e.kind.to_string()))?;
        let opcode = insn.opcode().unwrap_or(op::NOP);
        if matches!(opcode, op::JSR | op::JSR_W | op::RET) {
            return Err(cannot(i, "a subroutine before the chaining call".into()));
        }
        let mut unbound = None;
        insn.for_each_target(|target| match flow.index_of(target) {
            Some(at) if at > i && !pending.iter().any(|(p, _)| *p == at) => pending.push((at, current.clone())),
            Some(_) => {}
            None => unbound = Some(target),
        });
        if let Some(target) = unbound {
            return Err(cannot(i, format!("label {} is not bound", target.id())));
        }
        if op::is_return(opcode) {
            found.returns_uninitialized = true;
        }
        if op::ends_block(opcode) {
            state = None;
        }
    }
    Ok(found)
}

/// Whether `after` (the locals after the chaining call) holds the `declared`
/// parameters and no more: each parameter still a value of its kind, nothing
/// where no parameter is. A parameter assigned before the call holds a value
/// of its declared type (javac checks it), so the declared types stay true.
/// One the code no longer holds (a shrinker's frames declare a parameter
/// that is not read again `top`) cannot be read after the call.
fn keeps_parameters(declared: &[VType], after: &[VType]) -> bool {
    let same = declared.len() <= after.len()
        && declared.iter().zip(after).all(|(&d, &a)| if d == VType::Top { a == VType::Top } else { holds(d, a) });
    same && after.iter().skip(declared.len()).all(|t| *t == VType::Top)
}

/// Whether a local of type `now` still holds a value that a parameter
/// declared `declared` can be read as (the same primitive type, or a reference).
pub(crate) fn holds(declared: VType, now: VType) -> bool {
    let is_reference = |t: VType| matches!(t, VType::Object(_) | VType::Null);
    match declared {
        VType::Object(_) => is_reference(now),
        VType::Top => false,
        primitive => now == primitive,
    }
}

impl Chaining {
    /// The parameters (by local slot) that the locals after some chaining
    /// call no longer hold: their values are to be kept from the method's
    /// start to be read after it. `declared` is the method's first frame.
    pub fn parameters_lost(&self, declared: &Frame) -> Vec<u16> {
        let declared = stack_map::to_slots(&declared.locals);
        let mut lost = Vec::new();
        for call in &self.calls {
            let after = stack_map::to_slots(&call.frame.locals);
            for (slot, &d) in declared.iter().enumerate() {
                let gone = !matches!(d, VType::Top | VType::UninitializedThis)
                    && !after.get(slot).is_some_and(|&a| holds(d, a));
                if let (true, Ok(slot)) = (gone, u16::try_from(slot)) {
                    if !lost.contains(&slot) {
                        lost.push(slot);
                    }
                }
            }
        }
        lost.sort_unstable();
        lost
    }
}

fn take_pending(pending: &mut Vec<(usize, State)>, at: usize) -> Option<State> {
    let i = pending.iter().position(|(p, _)| *p == at)?;
    Some(pending.swap_remove(i).1)
}

/// Where labels, frames and handlers are, by element index.
struct Flow<'f> {
    index_by_label: Vec<Option<usize>>,
    frame_by_label: Vec<Option<&'f Frame>>,
    /// The last element bound to a frame in which `this` is uninitialized.
    last_uninitialized_frame: Option<usize>,
    /// (start, end, handler) element indexes and the catch type of each handler.
    handlers: Vec<(usize, usize, usize, u16)>,
}

impl<'f> Flow<'f> {
    fn new(elements: &[Insn], handlers: &[Handler], frames: &'f [(Label, Frame)]) -> Self {
        let mut index_by_label = Vec::new();
        for (i, e) in elements.iter().enumerate() {
            if let Insn::Label(l) = e {
                let id = l.id() as usize;
                if index_by_label.len() <= id {
                    index_by_label.resize(id + 1, None);
                }
                index_by_label[id] = Some(i);
            }
        }
        let mut frame_by_label = Vec::new();
        let mut last_uninitialized_frame = None;
        for (label, frame) in frames {
            let id = label.id() as usize;
            if frame_by_label.len() <= id {
                frame_by_label.resize(id + 1, None);
            }
            frame_by_label[id] = Some(frame);
            if frame.is_uninitialized() {
                let at = index_by_label.get(id).copied().flatten();
                last_uninitialized_frame = last_uninitialized_frame.max(at);
            }
        }
        let index = |l: Label| index_by_label.get(l.id() as usize).copied().flatten();
        let handlers = handlers
            .iter()
            .filter_map(|h| Some((index(h.start)?, index(h.end)?, index(h.handler)?, h.catch_type)))
            .collect();
        Flow { index_by_label, frame_by_label, last_uninitialized_frame, handlers }
    }

    fn index_of(&self, label: Label) -> Option<usize> {
        self.index_by_label.get(label.id() as usize).copied().flatten()
    }

    fn frame(&self, label: Label) -> Option<&'f Frame> {
        self.frame_by_label.get(label.id() as usize).copied().flatten()
    }
}

trait Uninitialized {
    /// Whether `this` is uninitialized where this frame is.
    fn is_uninitialized(&self) -> bool;
}

impl Uninitialized for Frame {
    fn is_uninitialized(&self) -> bool {
        self.locals.iter().chain(&self.stack).any(|t| *t == VType::UninitializedThis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write::pool_builder::PoolBuilder;
    use crate::code::code_model::CodeModel;
    use crate::read::constant_pool::ConstantPool;
    use crate::read::reader::Reader;

    fn pool() -> PoolBuilder<'static> {
        static EMPTY: [u8; 2] = [0, 1];
        PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&EMPTY)).expect("empty pool"))
    }

    /// The chaining of a constructor `(I)V` of `p/Me` (no frames, as before
    /// version 50) whose code is `elements`.
    fn chaining(elements: &[Insn], pool: &mut impl CodePool<'static>) -> Chaining {
        let this = pool.class("p/Me").expect("class");
        let model = CodeModel::empty(this, 0, "<init>", "(I)V", false, pool).expect("model");
        chaining_calls(elements, &[], &[], &[], &model.initial_frame, this, pool).expect("followed")
    }

    fn super_call(descriptor: &str, pool: &mut impl CodePool<'static>) -> Insn {
        Insn::Pool { opcode: op::INVOKESPECIAL, index: pool.method_ref("p/Super", "<init>", descriptor).expect("ref") }
    }

    fn load_int() -> Insn {
        Insn::Local { opcode: op::ILOAD, index: 1, wide: false }
    }

    const TERNARY_JOIN: Label = Label(1);

    /// `super(i != 0 ? 1 : 0)` in a constructor `(I)V`.
    fn ternary_super_call(pool: &mut PoolBuilder<'static>) -> [Insn; 10] {
        let otherwise = Label(0);
        [
            Insn::Simple(op::ALOAD_0),
            load_int(),
            Insn::Branch { opcode: op::IFEQ, target: otherwise },
            Insn::Simple(op::ICONST_1),
            Insn::Branch { opcode: op::GOTO, target: TERNARY_JOIN },
            Insn::Label(otherwise),
            Insn::Simple(op::ICONST_0),
            Insn::Label(TERNARY_JOIN),
            super_call("(Z)V", pool),
            Insn::Simple(op::RETURN),
        ]
    }

    #[test]
    fn a_ternary_in_the_arguments_is_followed_to_the_one_call() {
        let mut pool = pool();
        let code = ternary_super_call(&mut pool);
        let found = chaining(&code, &mut pool);
        assert_eq!(found.start(), Ok(Start::One(9)));
        assert_eq!(found.calls.len(), 1);
        let this = VType::Object(pool.class("p/Me").expect("class"));
        assert_eq!(found.calls[0].frame.locals, [this, VType::Integer]);
        assert!(found.calls[0].frame.stack.is_empty());
    }

    #[test]
    fn a_call_on_each_path_is_found_with_the_code_before_each() {
        let mut pool = pool();
        let (other, join) = (Label(0), Label(1));
        // if (i == 0) super() else super(): one call per path
        let code = [
            Insn::Simple(op::ALOAD_0),
            load_int(),
            Insn::Branch { opcode: op::IFEQ, target: other },
            super_call("()V", &mut pool),
            Insn::Branch { opcode: op::GOTO, target: join },
            Insn::Label(other),
            super_call("()V", &mut pool),
            Insn::Label(join),
            Insn::Simple(op::RETURN),
        ];
        let found = chaining(&code, &mut pool);
        assert_eq!(found.start(), Ok(Start::Each));
        assert_eq!(found.calls.iter().map(|c| c.after).collect::<Vec<_>>(), [4, 7]);
        // The goto runs after the first call; the second call before any.
        assert!(!found.is_uninitialized(4) && found.is_uninitialized(6) && !found.is_uninitialized(8));
    }

    #[test]
    fn values_left_below_the_receiver_make_a_start_after_each_call() {
        let mut pool = pool();
        // iconst_0; aload_0; super(); … the int stays below
        let code = [Insn::Simple(op::ICONST_0), Insn::Simple(op::ALOAD_0), super_call("()V", &mut pool)];
        let found = chaining(&code, &mut pool);
        assert_eq!(found.start(), Ok(Start::Each));
        assert_eq!(found.calls[0].frame.stack, [VType::Integer]);
    }

    #[test]
    fn a_local_set_before_the_call_makes_a_start_after_each_call_but_a_parameter_assigned_does_not() {
        let mut pool = pool();
        // int y = 1; super(); (Java 25: statements before super)
        let store = Insn::Local { opcode: op::ISTORE, index: 2, wide: false };
        let code = [Insn::Simple(op::ICONST_1), store, Insn::Simple(op::ALOAD_0), super_call("()V", &mut pool)];
        let found = chaining(&code, &mut pool);
        assert_eq!(found.start(), Ok(Start::Each));
        assert_eq!(found.calls[0].frame.locals[2], VType::Integer);
        // i = 1; super(): the parameter keeps its declared type.
        let assign = Insn::Local { opcode: op::ISTORE, index: 1, wide: false };
        let code = [Insn::Simple(op::ICONST_1), assign, Insn::Simple(op::ALOAD_0), super_call("()V", &mut pool)];
        assert_eq!(chaining(&code, &mut pool).start(), Ok(Start::One(4)));
    }

    #[test]
    fn a_parameter_the_frames_drop_before_the_call_is_lost_after_it() {
        let mut pool = pool();
        // The frame where the arms join declares the parameter `top` (a
        // shrinker's frames keep only what is read again).
        let code = ternary_super_call(&mut pool);
        let join = TERNARY_JOIN;
        let this = pool.class("p/Me").expect("class");
        let model = CodeModel::empty(this, 0, "<init>", "(I)V", false, &mut pool).expect("model");
        let dropped = Frame {
            locals: vec![VType::UninitializedThis, VType::Top],
            stack: vec![VType::UninitializedThis, VType::Integer],
        };
        let frames = [(join, dropped)];
        let found = chaining_calls(&code, &[], &[], &frames, &model.initial_frame, this, &mut pool).expect("followed");
        assert_eq!(found.start(), Ok(Start::Each));
        assert_eq!(found.parameters_lost(&model.initial_frame), [1]);
        // Without that frame the parameter is still there after the call.
        let kept = chaining(&code, &mut pool);
        assert_eq!(kept.start(), Ok(Start::One(9)));
        assert!(kept.parameters_lost(&model.initial_frame).is_empty());
    }

    #[test]
    fn a_path_that_throws_needs_no_call_but_one_that_returns_does() {
        let mut pool = pool();
        let fine = Label(0);
        let throws_first = [
            load_int(),
            Insn::Branch { opcode: op::IFEQ, target: fine },
            Insn::Simple(op::ACONST_NULL),
            Insn::Simple(op::ATHROW),
            Insn::Label(fine),
            Insn::Simple(op::ALOAD_0),
            super_call("()V", &mut pool),
            Insn::Simple(op::RETURN),
        ];
        assert_eq!(chaining(&throws_first, &mut pool).start(), Ok(Start::One(7)));
        let mut returns_first = throws_first.clone();
        returns_first[3] = Insn::Simple(op::RETURN);
        returns_first[2] = Insn::Simple(op::NOP);
        let why = chaining(&returns_first, &mut pool).start().expect_err("refused");
        assert_eq!(why, "a path returns without calling super(...) or this(...)");
        let none = [Insn::Simple(op::ACONST_NULL), Insn::Simple(op::ATHROW)];
        assert_eq!(chaining(&none, &mut pool).start(), Err("no path calls super(...) or this(...)".into()));
    }
}
