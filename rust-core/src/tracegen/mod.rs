//! Stage 2, tracegen: the monitoring code of each monitored method.
//!
//! ```text
//! [constructor: up to its super(...)/this(...) call]  [<clinit>: up to registerClass]
//!     mm = <monitor>                 invokedynamic bound to a MutableCallSite (version ≥ 51),
//!                                    else the holder field's content()
//!     reported = null
//!     token = 0L                     (long; dead when mm is null, which C2 drops)
//!     if (mm != null) token = mm.wantsArguments() ? mm.enterWithToken(id, new Object[]{args…})
//!                                                 : mm.enterWithToken(id, NO_ARGS)
//!                                    (no parameters: NO_ARGS, without asking)
//! body:                              ─┐ try (catch-all handler, lowest priority)
//!     info(…, null, 0)  → info(…, mm, id)
//!     throw t           → EnhancedCodeSupport.thrown(t, reported, mm, id); reported = t; throw t
//!     return v          → result = v; goto exit
//!                                    ─┘
//! exit:   if (mm != null) mm.exitWithToken(id, token)                         void
//!         if (mm != null) EnhancedCodeSupport.returned(mm, id, result, token)  any other
//!         return [result]
//! handler(t): EnhancedCodeSupport.failed[WithResult](t, reported, mm, id, token); throw t
//! ```
//!
//! What is not on the disabled path is a call into `EnhancedCodeSupport`
//! (`protocol::RETURNED`, `protocol::FAILED`): boxing the result when the
//! monitor wants it, telling a reported throwable from a new one. Inline, each
//! branch would cost every method stack map frames and code.
//!
//! The token (`protocol::MM_ENTER_WITH_TOKEN`) is the monitor's per-invocation
//! state kept in this frame, a start time for `timing`: set before the
//! protected region on every path, so the exit block and the handler both see
//! it as a `long`, and handed to the one exit call on either path.
//!
//! Frames: only what is known is declared — this stage's own locals, the
//! method's parameters in the prologue, a Throwable in the handler — and every
//! other local is Top, so no class hierarchy is needed. Frames already in the
//! body learn the three locals that live across it (`mm`, `reported`, `token`).
#![forbid(unsafe_code)]

use crate::classfile::chaining::{Chaining, Start};
use crate::classfile::exit_stack::{self, Crowded};
use crate::classfile::splice::{self, Edits, FramesAfter, Prepared, SiteKind, Splice, SplicedCode};
use crate::classfile::{
    BootstrapMethod, ChunkWriter, ClassEditor, ClassFile, ClassFileError, CodeModel, ConstantSource, Frame,
    Handler, Insn, InsnSink, Label, OperandValue, Placed, PoolBuilder, VType,
};
use crate::classfile::access::ACC_STATIC;
use crate::codegen::{self, op, JavaType, Signature};
use crate::model::{TfClass, TfMethod};
use crate::protocol;
use crate::request;
use crate::schema::{self, Bodies, InMethod, Registration, StageError};
use std::rc::Rc;

pub mod retransformable;
mod template;

/// What a worker remembers of generated code from one class to the next:
/// the templates by shape, the numbering of their constants and the stack
/// depths of each shape's generated code. One per worker (its workspace),
/// never shared: output does not depend on it, only speed.
#[derive(Default)]
pub struct Memory {
    templates: template::Templates,
    symbols: template::Symbols,
    depths: DepthsByShape,
    /// Methods given generated code copied from a template.
    copied: u64,
}

impl Memory {
    /// How many methods were given generated code copied from a template
    /// (the rest of the spliced methods have it encoded for them).
    pub fn templated_methods(&self) -> u64 {
        self.copied
    }

    /// Forgets the generated code, as a new worker has none: for benchmarks
    /// of a first build. The count stays.
    pub fn forget(&mut self) {
        *self = Memory { copied: self.copied, ..Memory::default() };
    }
}

use crate::classfile::Result;

/// `REF_invokeStatic` (JVMS 4.4.8).
const REF_INVOKE_STATIC: u8 = 6;

/// Adds the monitoring code to every monitored method of `tf`. `shape`
/// says how the code reaches its monitor: `Standard` through what stage 1
/// added (the `<clinit>` registration, the holder fields before version 51),
/// `Retransformable` through an `invokedynamic` whose bootstrap registers
/// the class ([`retransformable`]).
pub fn apply<'a>(
    class: &ClassFile<'a>,
    tf: &TfClass,
    shape: request::Shape,
    editor: &mut ClassEditor<'a>,
    bodies: &mut Bodies<'a>,
    memory: &mut Memory,
) -> std::result::Result<(), StageError> {
    let mut constants = Constants::default();
    for method in tf.methods.iter().filter(|m| m.is_monitored()) {
        let monitor = monitor_lookup(class, tf, shape, method, editor, &mut constants).in_method(method.index)?;
        // Read once: the splice's first frame, the template and the plan take it.
        let signature = Signature::parse(&method.descriptor).in_method(method.index)?;
        // Most methods are spliced: their code is copied, not lifted. The
        // general path takes the others (classes with info methods, code a
        // splice declines), with the same result.
        let pending = match &*method.name {
            "<clinit>" => bodies.take_pending_registration(method.index),
            _ => None,
        };
        let spliceable = (method.name != "<clinit>" || pending.is_some()) && bodies.may_splice(method.index);
        if let (true, Some(member)) = (spliceable, class.methods().get(method.index)) {
            let parameters = signature.parameters.iter().map(|t| t.field_type());
            if let Prepared::Ready(mut model, mut splice) = splice::prepare(class, member, parameters, &mut editor.pool).in_method(method.index)? {
                let registration = pending.as_ref();
                let spliced = instrument_spliced(
                    class,
                    method,
                    &signature,
                    &monitor,
                    registration,
                    &mut model,
                    &mut splice,
                    &mut editor.pool,
                    &mut constants,
                    memory,
                )
                .in_method(method.index)?;
                if let Some(code) = spliced {
                    bodies.insert_spliced(method.index, code);
                    continue;
                }
            }
        }
        if let Some(registration) = pending {
            // What stage 1 does on the general path.
            schema::insert_registration(class, method.index, registration.insns, editor, bodies)
                .in_method(method.index)?;
        }
        let Some(code) = bodies.get(class, editor, method.index).in_method(method.index)? else {
            continue;
        };
        instrument(class, tf, method, &signature, &monitor, code, &mut editor.pool, &mut constants)
            .in_method(method.index)?;
    }
    Ok(())
}

/// A constant that the monitoring code of every method uses.
#[derive(Debug, Clone, Copy)]
enum Shared {
    Wants,
    EnterWithToken,
    ExitVoidWithToken,
    Failed,
    FailedWithResult,
    Redacted,
    NoArgs,
    Thrown,
    MethodMonitor,
    Throwable,
}

const SHARED_COUNT: usize = Shared::Throwable as usize + 1;

/// Pool indexes of the constants every monitored method needs, resolved on
/// first use: each method needs a dozen member references and classes, and
/// finding one in the pool means hashing its names. The first use of each
/// still asks the pool where it would without this memo (the pool order,
/// see `CodePool`).
#[derive(Default)]
struct Constants {
    known: [Option<u16>; SHARED_COUNT],
    /// The monitor lookup of each group the class's methods report to.
    /// Shared by the group's methods, not copied for each.
    monitors: Vec<(String, Rc<[Insn]>)>,
    /// The pool indexes of templates' constants, by symbol (0: not asked yet).
    symbols: Vec<u16>,
    /// Lists each method's copy of a template fills, kept for the next
    /// method: one allocation per class rather than one per method.
    resolved: Vec<u16>,
    operands: Vec<OperandValue>,
}

impl Constants {
    fn get(&mut self, shared: Shared, pool: &mut impl ConstantSource) -> Result<u16> {
        if let Some(Some(index)) = self.known.get(shared as usize) {
            return Ok(*index);
        }
        fn interface(member: protocol::Member, pool: &mut impl ConstantSource) -> Result<u16> {
            pool.interface_method_ref(member.owner, member.name, member.descriptor)
        }
        fn field(member: protocol::Member, pool: &mut impl ConstantSource) -> Result<u16> {
            pool.field_ref(member.owner, member.name, member.descriptor)
        }
        fn method(member: protocol::Member, pool: &mut impl ConstantSource) -> Result<u16> {
            pool.method_ref(member.owner, member.name, member.descriptor)
        }
        let index = match shared {
            Shared::Wants => interface(protocol::MM_WANTS_ARGUMENTS, pool)?,
            Shared::EnterWithToken => interface(protocol::MM_ENTER_WITH_TOKEN, pool)?,
            Shared::ExitVoidWithToken => interface(protocol::MM_EXIT_VOID_WITH_TOKEN, pool)?,
            Shared::Failed => method(protocol::FAILED, pool)?,
            Shared::FailedWithResult => method(protocol::FAILED_WITH_RESULT, pool)?,
            Shared::Redacted => field(protocol::REDACTED_VALUE, pool)?,
            Shared::NoArgs => field(protocol::NO_ARGS, pool)?,
            Shared::Thrown => method(protocol::THROWN, pool)?,
            Shared::MethodMonitor => pool.class(protocol::METHOD_MONITOR)?,
            Shared::Throwable => pool.class("java/lang/Throwable")?,
        };
        if let Some(slot) = self.known.get_mut(shared as usize) {
            *slot = Some(index);
        }
        Ok(index)
    }

    /// An `invokeinterface` of a shared MethodMonitor method.
    fn call(&mut self, shared: Shared, count: u8, pool: &mut impl ConstantSource) -> Result<Insn> {
        Ok(Insn::InvokeInterface { index: self.get(shared, pool)?, count })
    }

    fn object(&mut self, shared: Shared, pool: &mut impl ConstantSource) -> Result<VType> {
        Ok(VType::Object(self.get(shared, pool)?))
    }
}

/// The instructions that leave the method's monitor on the stack: the same
/// for every method of one group.
fn monitor_lookup(
    class: &ClassFile<'_>,
    tf: &TfClass,
    shape: request::Shape,
    method: &TfMethod,
    editor: &mut ClassEditor<'_>,
    constants: &mut Constants,
) -> Result<Rc<[Insn]>> {
    let crate::model::Role::Monitored { group, .. } = method.role else {
        return Ok(Rc::new([]));
    };
    if let Some((_, lookup)) = constants.monitors.iter().find(|(g, _)| g == group) {
        return Ok(lookup.clone());
    }
    let lookup: Rc<[Insn]> = match shape {
        request::Shape::Standard => group_monitor_lookup(class, tf, group, editor)?,
        request::Shape::Retransformable => retransformable::monitor_lookup(tf, group, editor)?,
    }
    .into();
    constants.monitors.push((group.to_string(), lookup.clone()));
    Ok(lookup)
}

fn group_monitor_lookup(
    class: &ClassFile<'_>,
    tf: &TfClass,
    group: &str,
    editor: &mut ClassEditor<'_>,
) -> Result<Vec<Insn>> {
    let holder = tf.holder_groups.iter().position(|&g| g == group).unwrap_or(0);
    if class.major_version() >= 51 {
        let pool = &mut editor.pool;
        let link = protocol::LINK_MONITOR;
        let bootstrap = pool.method_ref(link.owner, link.name, link.descriptor)?;
        let handle = pool.method_handle(REF_INVOKE_STATIC, bootstrap)?;
        let group_class = pool.class(&group.replace('.', "/"))?;
        let index =
            editor.add_bootstrap_method(BootstrapMethod { method_handle: handle, arguments: vec![group_class] })?;
        let call = editor.pool.invoke_dynamic(index, protocol::MONITOR_INDY_NAME, protocol::MONITOR_INDY_DESCRIPTOR)?;
        Ok(vec![Insn::InvokeDynamic { index: call }])
    } else {
        let pool = &mut editor.pool;
        let field =
            pool.field_ref(&tf.internal_name, &protocol::holder_field(holder), protocol::HOLDER_FIELD_DESCRIPTOR)?;
        let content = pool.method_ref(
            protocol::HOLDER_CONTENT.owner,
            protocol::HOLDER_CONTENT.name,
            protocol::HOLDER_CONTENT.descriptor,
        )?;
        let monitor_class = pool.class(protocol::METHOD_MONITOR)?;
        Ok(vec![
            Insn::Pool { opcode: op::GETSTATIC, index: field },
            Insn::Pool { opcode: op::INVOKEVIRTUAL, index: content },
            Insn::Pool { opcode: op::CHECKCAST, index: monitor_class },
        ])
    }
}

/// The locals this stage adds.
#[derive(Clone)]
struct Locals<'d> {
    monitor: u16,
    reported: u16,
    /// The `long` that `enterWithToken` returned, for `exitWithToken` (two slots).
    token: u16,
    /// The return value's type and slot, for non-void methods.
    result: Option<(JavaType<'d>, u16)>,
}

/// What instrumenting one method adds, decided before its body is touched.
#[derive(Clone)]
struct Plan<'d> {
    signature: Signature<'d>,
    is_static: bool,
    id: i32,
    locals: Locals<'d>,
    types: Types,
    labels: Labels,
    /// Parameters (slot, slot of the copy) that a constructor's code no longer
    /// holds after its chaining call, copied first thing for the prologue.
    kept_parameters: Vec<(u16, u16)>,
}

impl Plan<'_> {
    /// The locals that live across the body, with their frame types.
    fn live_locals(&self) -> [(u16, VType); 3] {
        [
            (self.locals.monitor, self.types.monitor),
            (self.locals.reported, self.types.throwable),
            (self.locals.token, VType::Long),
        ]
    }
}

fn plan<'d>(
    class: &ClassFile<'_>,
    method: &TfMethod,
    signature: Signature<'d>,
    code: &mut CodeModel<'_>,
    pool: &mut PoolBuilder<'_>,
    constants: &mut Constants,
) -> Result<Plan<'d>> {
    let id = method_id(method);
    let is_static = method.access_flags & ACC_STATIC != 0;
    plan_for(signature, is_static, id, class.this_class_index(), code, pool, constants)
}

/// [`plan`] of a method with this signature, `static` or not, identifier
/// and class; the pool is asked for the frame types first.
fn plan_for<'d>(
    signature: Signature<'d>,
    is_static: bool,
    id: i32,
    this_class: u16,
    code: &mut CodeModel<'_>,
    pool: &mut impl ConstantSource,
    constants: &mut Constants,
) -> Result<Plan<'d>> {
    let locals = Locals {
        monitor: code.new_local(1)?,
        reported: code.new_local(1)?,
        token: code.new_local(JavaType::Long.slots())?,
        result: match signature.returns {
            Some(t) => Some((t, code.new_local(t.slots())?)),
            None => None,
        },
    };
    let types = Types {
        monitor: constants.object(Shared::MethodMonitor, pool)?,
        throwable: constants.object(Shared::Throwable, pool)?,
        this: VType::Object(this_class),
    };
    let labels = Labels {
        body: code.new_label(),
        body_end: code.new_label(),
        exit: code.new_label(),
        ret: code.new_label(),
        handler: code.new_label(),
    };
    Ok(Plan { signature, is_static, id, locals, types, labels, kept_parameters: Vec::new() })
}

#[allow(clippy::too_many_arguments)]
fn instrument<'a>(
    class: &ClassFile<'a>,
    tf: &TfClass,
    method: &TfMethod,
    signature: &Signature<'_>,
    monitor: &[Insn],
    code: &mut CodeModel<'a>,
    pool: &mut PoolBuilder<'a>,
    constants: &mut Constants,
) -> Result<()> {
    let plan = plan(class, method, signature.clone(), code, pool, constants)?;
    let body_start = match body_start(class, method, code, pool)? {
        BodyStart::At(index) => index,
        BodyStart::AfterEach(chaining) => {
            return instrument_chained(tf, method, &plan, monitor, &chaining, code, pool, constants);
        }
    };
    let crowded = exit_stack::crowded_returns(code, body_start, pool)?;
    // Frames in the body learn the locals that live across it; frames before
    // it (a constructor's code before super(...)) must not.
    add_locals_to_body_frames(code, body_start, &plan.live_locals());
    rewrite_body(tf, code, body_start, &crowded, &plan, pool, constants)?;
    // The lookup, about 20 instructions, the argument array; the tail.
    let mut prologue = Vec::with_capacity(monitor.len() + 21 + 5 * plan.signature.parameters.len());
    let mut tail = Vec::with_capacity(48);
    surround(&plan, method, monitor, code, pool, constants, &mut prologue, &mut tail)?;
    code.insert(body_start, prologue);
    code.elements.extend(tail);
    Ok(())
}

/// [`instrument`] by splicing: the same code, frames and pool entries, with
/// the body copied and the generated code copied from its shape's template
/// or encoded as it is generated; `None` if the splice declines (see [`splice`]).
#[allow(clippy::too_many_arguments)]
fn instrument_spliced<'a>(
    class: &ClassFile<'a>,
    method: &TfMethod,
    signature: &Signature<'_>,
    monitor: &[Insn],
    registration: Option<&Registration>,
    code: &mut CodeModel<'a>,
    splice: &mut Splice<'a>,
    pool: &mut PoolBuilder<'a>,
    constants: &mut Constants,
    memory: &mut Memory,
) -> Result<Option<SplicedCode>> {
    if registration.is_none() {
        if let Some(spliced) =
            instrument_from_template(class, method, signature, monitor, code, splice, pool, constants, memory)?
        {
            return Ok(spliced);
        }
    }
    let plan = plan(class, method, signature.clone(), code, pool, constants)?;
    let Some(insert_at) = body_start_for_splice(class, method, code, splice, pool) else {
        return Ok(None);
    };
    add_live_locals(code, insert_at, &plan.live_locals());
    // The stack depths of the generated code depend on the method's shape
    // only: known after the first method of a shape, whose chunks keep their
    // instructions to find them. `<clinit>` starts with the registration,
    // which leaves the stack as it found it.
    let registration_peak = registration.map_or(0, |r| r.peak);
    let has_throw = splice.sites().iter().any(|s| s.kind == SiteKind::Throw);
    let shape = Shape::of(&plan.signature, method, is_indy(monitor));
    let known = GeneratedDepths::remembered(&memory.depths, shape).filter(|d| d.throw.is_some() || !has_throw);
    let record = known.is_none();
    let thrown = constants.get(Shared::Thrown, pool)?;
    let mut throw = ChunkWriter::new(record);
    if has_throw {
        throw.push_all(replace_throw(&plan, thrown, pool)?);
    }
    let mut ret = ChunkWriter::new(record);
    ret.push_all(replace_return(&plan));
    let (mut prologue, mut tail) = (ChunkWriter::new(false), ChunkWriter::new(record));
    prologue.push_all(registration.iter().flat_map(|r| r.insns.iter().cloned()));
    let mut prologue = prologue.recording(record);
    surround(&plan, method, monitor, code, pool, constants, &mut prologue, &mut tail)?;
    let depths = match known {
        Some(depths) => depths,
        None => {
            let recorded = |w: &ChunkWriter| w.recorded().unwrap_or_default().to_vec();
            let throw_insns = throw.recorded().filter(|t| !t.is_empty()).map(<[Insn]>::to_vec);
            let Some(depths) = GeneratedDepths::of(
                &recorded(&prologue),
                &recorded(&tail),
                throw_insns.as_deref(),
                &recorded(&ret),
                &code.handlers,
                pool,
            )?
            else {
                return Ok(None);
            };
            depths.remember(&mut memory.depths, shape);
            depths
        }
    };
    let (Some(prologue), Some(tail), Some(throw), Some(ret)) = (
        prologue.finish(depths.prologue.max(registration_peak)),
        tail.finish(depths.tail),
        throw.finish(depths.throw.unwrap_or(0)),
        ret.finish(depths.ret),
    ) else {
        return Ok(None);
    };
    let chunks = [&prologue, &tail, &ret, &throw].map(Placed::from);
    assemble_spliced(code, splice, insert_at, chunks, None, pool)
}

/// [`instrument_spliced`] with the generated code copied from the template
/// of the method's shape; `None` if the shape takes no template.
#[allow(clippy::too_many_arguments)]
fn instrument_from_template<'a>(
    class: &ClassFile<'a>,
    method: &TfMethod,
    signature: &Signature<'_>,
    monitor: &[Insn],
    code: &mut CodeModel<'a>,
    splice: &mut Splice<'a>,
    pool: &mut PoolBuilder<'a>,
    constants: &mut Constants,
    memory: &mut Memory,
) -> Result<Option<Option<SplicedCode>>> {
    let [Insn::InvokeDynamic { index: monitor }] = *monitor else {
        return Ok(None);
    };
    let id = method_id(method);
    let is_static = method.access_flags & ACC_STATIC != 0;
    let shape = Shape::of(signature, method, true);
    let wanted = template::Wanted { max_locals: code.max_locals, is_static, id, signature, method, shape };
    let Memory { templates, symbols, depths: known_depths, copied } = memory;
    let Some(template) = template::for_method(templates, symbols, known_depths, &wanted) else {
        return Ok(None);
    };
    template.warm();
    // The pool is asked what the general path asks, in its order.
    let (mut resolved, mut operands) = (std::mem::take(&mut constants.resolved), std::mem::take(&mut constants.operands));
    resolved.clear();
    template.resolve(0..template.planned(), signature.returns, pool, symbols, &mut constants.symbols, &mut resolved)?;
    let Some(insert_at) = body_start_for_splice(class, method, code, splice, pool) else {
        return Ok(Some(None));
    };
    template.resolve(
        template.planned()..template.constant_count(),
        signature.returns,
        pool,
        symbols,
        &mut constants.symbols,
        &mut resolved,
    )?;
    let Some(depths) = template.depths(shape, &resolved, monitor, pool, known_depths)? else {
        return Ok(Some(None));
    };
    let live = template.live_locals(&resolved);
    add_live_locals(code, insert_at, &live);
    let entry = entry_frame(code, method, VType::Object(class.this_class_index()), &live);
    let values = template::MethodValues { constants: &resolved, monitor, id };
    let (chunks, frames_after) = template.copy(&values, &entry, depths, code, &mut operands);
    *copied += 1;
    let spliced = assemble_spliced(code, splice, insert_at, chunks, Some(frames_after), pool);
    (constants.resolved, constants.operands) = (resolved, operands);
    spliced.map(|code| Some(code.map(|code| code.copied_from(template.generated_code()))))
}

fn method_id(method: &TfMethod) -> i32 {
    i32::try_from(method.identifier).unwrap_or(0)
}

fn is_indy(monitor: &[Insn]) -> bool {
    matches!(monitor.first(), Some(Insn::InvokeDynamic { .. }))
}

/// Where a splice puts the prologue: after a constructor's chaining call,
/// else first; `None` if a splice cannot find it.
fn body_start_for_splice<'a>(
    class: &ClassFile<'a>,
    method: &TfMethod,
    code: &CodeModel<'a>,
    splice: &Splice<'a>,
    pool: &mut PoolBuilder<'a>,
) -> Option<u32> {
    match &*method.name {
        // java.lang.Object's constructor calls no other.
        "<init>" if class.super_class_index() != 0 => splice.chaining_call_end(code, pool),
        _ => Some(0),
    }
}

/// Frames in the body learn the locals that live across it.
fn add_live_locals(code: &mut CodeModel<'_>, insert_at: u32, live: &[(u16, VType)]) {
    for (label, frame) in &mut code.frames {
        if label.id() >= insert_at {
            frame.set_locals(live);
        }
    }
}

/// The frame where the body starts: the parameters as declared, `this`
/// initialized, and the locals that live across the body.
fn entry_frame(code: &CodeModel<'_>, method: &TfMethod, this: VType, live: &[(u16, VType)]) -> Frame {
    // Room for the padding and the live locals: set_local then never reallocates.
    let room = usize::from(code.max_locals) + 2 * live.len();
    let mut locals = Vec::with_capacity(room.max(code.initial_frame.locals.len()));
    locals.extend_from_slice(&code.initial_frame.locals);
    let mut entry = Frame { locals, stack: Vec::new() };
    if method.name == "<init>" {
        for local in &mut entry.locals {
            if *local == VType::UninitializedThis {
                *local = this;
            }
        }
    }
    entry.set_locals(live);
    entry
}

/// The splice of the generated chunks `[prologue, tail, return, throw]`
/// into the method's code.
fn assemble_spliced<'a>(
    code: &CodeModel<'a>,
    splice: &mut Splice<'a>,
    insert_at: u32,
    [prologue, tail, ret, throw]: [Placed<'_>; 4],
    frames_after: Option<FramesAfter<'_>>,
    pool: &mut PoolBuilder<'a>,
) -> Result<Option<SplicedCode>> {
    let edits = Edits { insert_at, prologue, returns: Some(ret), throws: Some(throw), tail, frames_after };
    splice.assemble(code, &edits, pool)
}

/// What the stack depths of a method's generated code depend on: whether
/// there are arguments to box, the widest one boxed (a redacted one is a
/// getstatic of the marker), the result's slots, how the monitor is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Shape {
    has_parameters: bool,
    widest_parameter: u16,
    result_slots: u16,
    indy: bool,
}

impl Shape {
    fn of(signature: &Signature<'_>, method: &TfMethod, indy: bool) -> Shape {
        let parameters = &signature.parameters;
        let widest_parameter = parameters
            .iter()
            .enumerate()
            .map(|(i, t)| if method.redacted_parameters.contains(&i) { 1 } else { t.slots() })
            .max()
            .unwrap_or(0);
        Shape {
            has_parameters: !parameters.is_empty(),
            widest_parameter,
            result_slots: signature.returns.map_or(0, |t| t.slots()),
            indy,
        }
    }
}

/// How much deeper than where it starts the stack gets in each chunk of a
/// method's generated code.
#[derive(Debug, Clone, Copy)]
struct GeneratedDepths {
    prologue: u16,
    tail: u16,
    /// Unknown until a method of the shape has an `athrow`.
    throw: Option<u16>,
    ret: u16,
}

/// What earlier methods found of each shape's generated code.
type DepthsByShape = rustc_hash::FxHashMap<Shape, GeneratedDepths>;

impl GeneratedDepths {
    /// What an earlier method of this shape found.
    fn remembered(known: &DepthsByShape, shape: Shape) -> Option<GeneratedDepths> {
        known.get(&shape).copied()
    }

    fn remember(self, known: &mut DepthsByShape, shape: Shape) {
        let throw = self.throw.or_else(|| known.get(&shape).and_then(|earlier| earlier.throw));
        known.insert(shape, GeneratedDepths { throw, ..self });
    }

    /// From the generated instructions (the throw's, if any); `None` if one
    /// is no consistent flow.
    fn of(
        prologue: &[Insn],
        tail: &[Insn],
        throw: Option<&[Insn]>,
        ret: &[Insn],
        handlers: &[Handler],
        pool: &mut PoolBuilder<'_>,
    ) -> Result<Option<GeneratedDepths>> {
        let (Some(prologue), Some(tail)) = (splice::peak(prologue, &[], pool)?, splice::peak(tail, handlers, pool)?)
        else {
            return Ok(None);
        };
        let throw = match throw {
            Some(insns) => Some(splice::replacement_peak(insns, pool)?),
            None => None,
        };
        let ret = splice::replacement_peak(ret, pool)?;
        Ok(Some(GeneratedDepths { prologue, tail, throw, ret }))
    }
}

/// The prologue, and the tail (exit block, return block and handler) after
/// the body; registers the catch-all handler and the body's first frame.
#[allow(clippy::too_many_arguments)]
fn surround(
    plan: &Plan<'_>,
    method: &TfMethod,
    monitor: &[Insn],
    code: &mut CodeModel<'_>,
    pool: &mut impl ConstantSource,
    constants: &mut Constants,
    prologue_out: &mut impl InsnSink,
    tail_out: &mut impl InsnSink,
) -> Result<()> {
    let (labels, types) = (&plan.labels, &plan.types);
    // The prologue's frames: the parameters as declared, `this` initialized.
    let entry = entry_frame(code, method, types.this, &plan.live_locals());
    prologue(plan, method, monitor, &entry, code, pool, constants, prologue_out)?;
    tail_out.push(Insn::Label(labels.body_end));
    epilogue(plan, code, pool, constants, tail_out)?;
    // Lowest priority: the method's own handlers see their exceptions first.
    code.handlers.push(Handler { start: labels.body, end: labels.body_end, handler: labels.handler, catch_type: 0 });
    if code.frames_required {
        code.frames.push((labels.body, entry));
    }
    Ok(())
}

#[derive(Clone, Copy)]
struct Types {
    monitor: VType,
    throwable: VType,
    this: VType,
}

#[derive(Clone, Copy)]
struct Labels {
    body: Label,
    body_end: Label,
    exit: Label,
    ret: Label,
    handler: Label,
}

/// Where the body starts.
enum BodyStart {
    /// At this element: after a constructor's one super(...)/this(...) call,
    /// after the registration in `<clinit>`, else at the first instruction.
    At(usize),
    /// After each of a constructor's chaining calls (see [`instrument_chained`]).
    AfterEach(Chaining),
}

fn body_start<'a>(
    class: &ClassFile<'_>,
    method: &TfMethod,
    code: &CodeModel<'a>,
    pool: &mut PoolBuilder<'a>,
) -> Result<BodyStart> {
    match &*method.name {
        // java.lang.Object's constructor calls no other.
        "<init>" if class.super_class_index() == 0 => Ok(BodyStart::At(0)),
        "<init>" => {
            let chaining = code.constructor_chaining(pool)?;
            match chaining.start() {
                Ok(Start::One(index)) => Ok(BodyStart::At(index)),
                Ok(Start::Each) => Ok(BodyStart::AfterEach(chaining)),
                Err(why) => Err(ClassFileError::malformed(
                    0,
                    format!("cannot start monitoring constructor {}{}: {why}", method.name, method.descriptor),
                )),
            }
        }
        "<clinit>" => {
            Ok(BodyStart::At(code.elements.iter().position(|i| schema::is_registration(i, pool)).map_or(0, |i| i + 1)))
        }
        _ => Ok(BodyStart::At(0)),
    }
}

/// [`instrument`] of a constructor whose paths call `super(...)` or
/// `this(...)` at different places (groovyc selects the superclass
/// constructor at run time, one call per case of a switch), or leave values
/// on the stack across the call: a prologue after each call, its frames
/// holding the types there, and the catch-all handler covering only code
/// run with `this` initialized. Code still reached with `this`
/// uninitialized keeps its throws as they are (no monitor is there yet).
#[allow(clippy::too_many_arguments)]
fn instrument_chained<'a>(
    tf: &TfClass,
    method: &TfMethod,
    plan: &Plan<'_>,
    monitor: &[Insn],
    chaining: &Chaining,
    code: &mut CodeModel<'a>,
    pool: &mut PoolBuilder<'a>,
    constants: &mut Constants,
) -> Result<()> {
    let first = chaining.calls.first().map_or(0, |c| c.after);
    let crowded = exit_stack::crowded_returns(code, first, pool)?;
    let kept = keep_lost_parameters(chaining, code)?;
    let plan = &Plan { kept_parameters: kept.slots, ..plan.clone() };
    let live = plan.live_locals();
    // Frames where `this` is initialized learn the live locals; the others
    // are reached before any prologue ran.
    let mut index_of_label = vec![None; code.next_label as usize];
    for (i, insn) in code.elements.iter().enumerate() {
        if let Insn::Label(l) = insn {
            if let Some(slot) = index_of_label.get_mut(l.id() as usize) {
                *slot = Some(i);
            }
        }
    }
    // A label is reached as the instruction after it (labels are not marked).
    let instruction_at = |at: usize| {
        code.elements.get(at..).and_then(|rest| rest.iter().position(|e| !matches!(e, Insn::Label(_)))).map(|k| at + k)
    };
    let initialized: Vec<bool> = code
        .frames
        .iter()
        .map(|(label, _)| {
            let at = index_of_label.get(label.id() as usize).copied().flatten();
            at.and_then(instruction_at).is_some_and(|at| at >= first && !chaining.is_uninitialized(at))
        })
        .collect();
    for ((_, frame), initialized) in code.frames.iter_mut().zip(initialized) {
        if initialized {
            frame.set_locals(&live);
        }
    }
    // A prologue for each call, each with labels of its own.
    let mut prologues = Vec::with_capacity(chaining.calls.len());
    for (k, call) in chaining.calls.iter().enumerate() {
        let mut site = plan.clone();
        if k > 0 {
            site.labels.body = code.new_label();
        }
        let mut entry = call.frame.clone();
        entry.set_locals(&live);
        let mut insns = Vec::with_capacity(monitor.len() + 21 + 5 * plan.signature.parameters.len());
        prologue(&site, method, monitor, &entry, code, pool, constants, &mut insns)?;
        if code.frames_required {
            code.frames.push((site.labels.body, entry));
        }
        prologues.push((call.after, site.labels.body, insns));
    }

    let thrown = constants.get(Shared::Thrown, pool)?;
    let info_targets = info_targets(tf);
    let body = code.elements.split_off(first.min(code.elements.len()));
    code.elements.reserve(body.len() + 64 * prologues.len());
    let mut prologues = prologues.into_iter().peekable();
    let mut crowded = crowded.iter().peekable();
    // The start of the protected range being laid out, and the ranges laid out.
    let mut open: Option<Label> = None;
    let mut ranges = Vec::new();
    for (index, insn) in (first..).zip(body) {
        if let Some((_, body_label, insns)) = prologues.next_if(|(after, _, _)| *after == index) {
            code.elements.extend(insns);
            open = Some(body_label);
        }
        let uninitialized = chaining.is_uninitialized(index);
        if let (true, Some(start)) = (uninitialized && !matches!(insn, Insn::Label(_)), open) {
            let end = code.new_label();
            code.elements.push(Insn::Label(end));
            ranges.push((start, end));
            open = None;
        }
        if uninitialized {
            code.elements.push(insn);
            continue;
        }
        if insn.is_return() {
            match crowded.next_if(|c| c.index == index) {
                Some(c) => code.elements.extend(replace_crowded_return(plan, c)),
                None => code.elements.extend(replace_return(plan)),
            }
            continue;
        }
        rewrite_one(insn, &info_targets, tf, plan, thrown, code, pool)?;
    }
    if let Some(start) = open {
        ranges.push((start, plan.labels.body_end));
    }

    let mut tail = Vec::with_capacity(48);
    tail.push(Insn::Label(plan.labels.body_end));
    epilogue(plan, code, pool, constants, &mut tail)?;
    code.elements.extend(tail);
    // Lowest priority: the method's own handlers see their exceptions first.
    for (start, end) in ranges {
        code.handlers.push(Handler { start, end, handler: plan.labels.handler, catch_type: 0 });
    }
    code.insert(0, kept.copying);
    Ok(())
}

/// Copies of the parameters a constructor no longer holds after its chaining
/// call (a shrinker's frames declare a parameter that is not read again
/// `top`; a slot may be reused before the call), for the prologue to read.
struct KeptParameters {
    /// The loads and stores that make the copies, to go first in the method.
    copying: Vec<Insn>,
    /// (parameter slot, copy slot) pairs.
    slots: Vec<(u16, u16)>,
}

/// Locals of their own for the parameters some chaining call leaves behind,
/// set in every frame: the copies are made before any instruction of the method.
fn keep_lost_parameters(chaining: &Chaining, code: &mut CodeModel<'_>) -> Result<KeptParameters> {
    let lost = chaining.parameters_lost(&code.initial_frame);
    let declared = code.initial_frame.local_slots();
    let mut kept =
        KeptParameters { copying: Vec::with_capacity(2 * lost.len()), slots: Vec::with_capacity(lost.len()) };
    for slot in lost {
        let Some(&t) = declared.get(usize::from(slot)) else { continue };
        let copy = code.new_local(t.slots() as u16)?;
        let (load, store) = match t {
            VType::Integer => (op::ILOAD, op::ISTORE),
            VType::Float => (op::FLOAD, op::FSTORE),
            VType::Long => (op::LLOAD, op::LSTORE),
            VType::Double => (op::DLOAD, op::DSTORE),
            _ => (op::ALOAD, op::ASTORE),
        };
        kept.copying.push(Insn::Local { opcode: load, index: slot, wide: false });
        kept.copying.push(Insn::Local { opcode: store, index: copy, wide: false });
        code.add_local_to_all_frames(copy, t);
        kept.slots.push((slot, copy));
    }
    Ok(kept)
}

fn add_locals_to_body_frames(code: &mut CodeModel<'_>, body_start: usize, locals: &[(u16, VType)]) {
    // Labels bound in the body, by label id (labels are numbered densely).
    let mut in_body = Vec::new();
    for insn in code.elements.get(body_start..).unwrap_or_default() {
        if let Insn::Label(l) = insn {
            let i = l.id() as usize;
            if in_body.len() <= i {
                in_body.resize(i + 1, false);
            }
            in_body[i] = true;
        }
    }
    for (label, frame) in &mut code.frames {
        if in_body.get(label.id() as usize).copied().unwrap_or(false) {
            frame.set_locals(locals);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn prologue(
    plan: &Plan<'_>,
    method: &TfMethod,
    monitor: &[Insn],
    entry: &Frame,
    code: &mut CodeModel<'_>,
    pool: &mut impl ConstantSource,
    constants: &mut Constants,
    out: &mut impl InsnSink,
) -> Result<()> {
    let (signature, is_static, locals, labels, id) =
        (&plan.signature, plan.is_static, &plan.locals, &plan.labels, plan.id);
    let enter_call = constants.call(Shared::EnterWithToken, 3, pool)?;
    let no_args_field = constants.get(Shared::NoArgs, pool)?;
    out.push_all(monitor.iter().cloned());
    out.push_all([
        codegen::astore(locals.monitor),
        Insn::Simple(op::ACONST_NULL),
        codegen::astore(locals.reported),
        // Before the branch: `body` is reached with the token set on both paths.
        Insn::Simple(op::LCONST_0),
        codegen::store(JavaType::Long, locals.token),
        codegen::aload(locals.monitor),
        Insn::Branch { opcode: op::IFNULL, target: labels.body },
    ]);
    let receiver_and_id = [codegen::aload(locals.monitor), codegen::push_int(id, pool)?];
    let call_and_keep_token = [enter_call, codegen::store(JavaType::Long, locals.token)];
    let no_args = Insn::Pool { opcode: op::GETSTATIC, index: no_args_field };
    if signature.parameters.is_empty() {
        // No arguments to box: the shared empty array whether the monitor wants them or not.
        out.push_all(receiver_and_id);
        out.push(no_args);
        out.push_all(call_and_keep_token);
        out.push(Insn::Label(labels.body));
        return Ok(());
    }
    // Two calls rather than one after a choice of array: the frame where
    // the paths meet would hold the monitor, the id and the array.
    let unwanted = code.new_label();
    let wants = constants.call(Shared::Wants, 1, pool)?;
    let redacted = constants.get(Shared::Redacted, pool)?;
    out.push_all([codegen::aload(locals.monitor), wants, Insn::Branch { opcode: op::IFEQ, target: unwanted }]);
    out.push_all(receiver_and_id.clone());
    let first_slot = if is_static { 0 } else { 1 };
    codegen::argument_array(
        &signature.parameters,
        first_slot,
        &plan.kept_parameters,
        &method.redacted_parameters,
        Some(Insn::Pool { opcode: op::GETSTATIC, index: redacted }),
        pool,
        out,
    )?;
    out.push_all(call_and_keep_token.clone());
    out.push_all([Insn::Branch { opcode: op::GOTO, target: labels.body }, Insn::Label(unwanted)]);
    out.push_all(receiver_and_id);
    out.push(no_args);
    out.push_all(call_and_keep_token);
    out.push(Insn::Label(labels.body));
    if code.frames_required {
        code.frames.push((unwanted, Frame { locals: entry.locals.clone(), stack: entry.stack.clone() }));
    }
    Ok(())
}

/// Returns become jumps to the exit block (draining what `crowded` returns
/// leave below their result), explicit throws are reported, and info calls
/// get the monitor and this method's identifier.
fn rewrite_body(
    tf: &TfClass,
    code: &mut CodeModel<'_>,
    body_start: usize,
    crowded: &[Crowded],
    plan: &Plan<'_>,
    pool: &mut PoolBuilder<'_>,
    constants: &mut Constants,
) -> Result<()> {
    let thrown = constants.get(Shared::Thrown, pool)?;
    let info_targets = info_targets(tf);
    // One pass that moves the body into a new list: splicing each
    // replacement in place would move the rest of the code every time.
    let body_start = body_start.min(code.elements.len());
    let body = code.elements.split_off(body_start);
    code.elements.reserve(body.len() + 16);
    let mut crowded = crowded.iter().peekable();
    for (index, insn) in (body_start..).zip(body) {
        if insn.is_return() {
            match crowded.next_if(|c| c.index == index) {
                Some(c) => code.elements.extend(replace_crowded_return(plan, c)),
                None => code.elements.extend(replace_return(plan)),
            }
            continue;
        }
        rewrite_one(insn, &info_targets, tf, plan, thrown, code, pool)?;
    }
    Ok(())
}

/// The name and (stage 1) descriptor of each info method of `tf`.
fn info_targets(tf: &TfClass) -> Vec<(String, String)> {
    tf.methods
        .iter()
        .filter(|m| m.is_info())
        .map(|m| {
            let descriptor = if m.descriptor.contains(protocol::INFO_EXTRA_PARAMETERS) {
                m.descriptor.to_string()
            } else {
                schema::info_descriptor(&m.descriptor)
            };
            (m.name.to_string(), descriptor)
        })
        .collect()
}

/// Appends `insn` of the body, or what replaces it: an explicit throw is
/// reported, an info call gets the monitor and this method's identifier.
fn rewrite_one(
    insn: Insn,
    info_targets: &[(String, String)],
    tf: &TfClass,
    plan: &Plan<'_>,
    thrown: u16,
    code: &mut CodeModel<'_>,
    pool: &mut PoolBuilder<'_>,
) -> Result<()> {
    match insn {
        Insn::Simple(op::ATHROW) => code.elements.extend(replace_throw(plan, thrown, pool)?),
        Insn::Pool { opcode: op::INVOKEVIRTUAL | op::INVOKESPECIAL, index } | Insn::InvokeInterface { index, .. }
            if !info_targets.is_empty() =>
        {
            // Stage 1 put `aconst_null, iconst_0` right before each info call.
            let n = code.elements.len();
            let passes_null_zero = n >= 2
                && code.elements[n - 2] == Insn::Simple(op::ACONST_NULL)
                && code.elements[n - 1] == Insn::Simple(op::ICONST_0);
            if passes_null_zero && is_info_call(index, tf, info_targets, pool)? {
                code.elements[n - 2] = codegen::aload(plan.locals.monitor);
                code.elements[n - 1] = codegen::push_int(plan.id, pool)?;
            }
            code.elements.push(insn);
        }
        other => code.elements.push(other),
    }
    Ok(())
}

/// `return v` → `result = v; goto exit`.
fn replace_return(plan: &Plan<'_>) -> impl Iterator<Item = Insn> {
    let store = plan.locals.result.map(|(t, slot)| codegen::store(t, slot));
    store.into_iter().chain([Insn::Branch { opcode: op::GOTO, target: plan.labels.exit }])
}

/// `return v` with values below `v` → `result = v; pop…; goto exit`: the
/// exit block is entered with an empty stack from every return.
fn replace_crowded_return<'c>(plan: &Plan<'_>, crowded: &'c Crowded) -> impl Iterator<Item = Insn> + 'c {
    let store = plan.locals.result.map(|(t, slot)| codegen::store(t, slot));
    let jump = Insn::Branch { opcode: op::GOTO, target: plan.labels.exit };
    store.into_iter().chain(crowded.drain()).chain([jump])
}

/// `throw t` → `EnhancedCodeSupport.thrown(t, reported, mm, id); reported = t; throw t`.
fn replace_throw(plan: &Plan<'_>, thrown: u16, pool: &mut impl ConstantSource) -> Result<[Insn; 8]> {
    let locals = &plan.locals;
    Ok([
        Insn::Simple(op::DUP),
        codegen::aload(locals.reported),
        codegen::aload(locals.monitor),
        codegen::push_int(plan.id, pool)?,
        Insn::Pool { opcode: op::INVOKESTATIC, index: thrown },
        Insn::Simple(op::DUP),
        codegen::astore(locals.reported),
        Insn::Simple(op::ATHROW),
    ])
}

fn is_info_call(index: u16, tf: &TfClass, targets: &[(String, String)], pool: &PoolBuilder<'_>) -> Result<bool> {
    let (owner, name) = pool.method_owner_and_name(index)?;
    if pool.class_name(owner)? != tf.internal_name {
        return Ok(false);
    }
    let descriptor = pool.reference_descriptor(index)?;
    Ok(targets.iter().any(|(n, d)| *n == name && *d == descriptor))
}

/// The exit block, the return block and the catch-all handler.
fn epilogue(
    plan: &Plan<'_>,
    code: &mut CodeModel<'_>,
    pool: &mut impl ConstantSource,
    constants: &mut Constants,
    out: &mut impl InsnSink,
) -> Result<()> {
    let (locals, labels, types, id) = (&plan.locals, &plan.labels, &plan.types, plan.id);
    let token = codegen::load(JavaType::Long, locals.token);

    // exit: if (mm != null) mm.exitWithToken(id, token)
    //       or EnhancedCodeSupport.returned(mm, id, result, token); return [result]
    out.push_all([
        Insn::Label(labels.exit),
        codegen::aload(locals.monitor),
        Insn::Branch { opcode: op::IFNULL, target: labels.ret },
        codegen::aload(locals.monitor),
        codegen::push_int(id, pool)?,
    ]);
    match locals.result {
        Some((t, slot)) => {
            let returned = returned_member(t);
            let index = pool.method_ref(returned.owner, returned.name, returned.descriptor)?;
            out.push_all([codegen::load(t, slot), token.clone(), Insn::Pool { opcode: op::INVOKESTATIC, index }]);
        }
        // invokeinterface's count: the receiver, the int, the long's two slots.
        None => out.push_all([token.clone(), constants.call(Shared::ExitVoidWithToken, 4, pool)?]),
    }
    out.push(Insn::Label(labels.ret));
    match locals.result {
        Some((t, slot)) => out.push_all([codegen::load(t, slot), Insn::Simple(return_opcode(t))]),
        None => out.push(Insn::Simple(op::RETURN)),
    }

    // handler(t): EnhancedCodeSupport.failed[WithResult](t, reported, mm, id, token); throw t
    let failed = if locals.result.is_some() { Shared::FailedWithResult } else { Shared::Failed };
    out.push_all([
        Insn::Label(labels.handler),
        Insn::Simple(op::DUP),
        codegen::aload(locals.reported),
        codegen::aload(locals.monitor),
        codegen::push_int(id, pool)?,
        token,
        Insn::Pool { opcode: op::INVOKESTATIC, index: constants.get(failed, pool)? },
        Insn::Simple(op::ATHROW),
    ]);

    if code.frames_required {
        // Only this stage's locals are known here; everything else is Top.
        let mut exit = Frame::default();
        exit.set_local(usize::from(locals.monitor), types.monitor);
        exit.set_local(usize::from(locals.token), VType::Long);
        if let Some((t, slot)) = locals.result {
            exit.set_local(usize::from(slot), verification_type(t, pool)?);
        }
        code.frames.push((labels.exit, exit.clone()));
        code.frames.push((labels.ret, exit));
        let mut handler = Frame::default();
        handler.set_local(usize::from(locals.monitor), types.monitor);
        handler.set_local(usize::from(locals.reported), types.throwable);
        handler.set_local(usize::from(locals.token), VType::Long);
        handler.stack.push(types.throwable);
        code.frames.push((labels.handler, handler));
    }
    Ok(())
}

/// The `EnhancedCodeSupport.returned` overload for a result of type `t`.
fn returned_member(t: JavaType<'_>) -> protocol::Member {
    let kind = match t {
        JavaType::Boolean => 0,
        JavaType::Byte => 1,
        JavaType::Char => 2,
        JavaType::Short => 3,
        JavaType::Int => 4,
        JavaType::Long => 5,
        JavaType::Float => 6,
        JavaType::Double => 7,
        JavaType::Reference(_) => 8,
    };
    protocol::RETURNED[kind]
}

fn verification_type(t: JavaType<'_>, pool: &mut impl ConstantSource) -> Result<VType> {
    Ok(match t {
        JavaType::Long => VType::Long,
        JavaType::Double => VType::Double,
        JavaType::Float => VType::Float,
        JavaType::Reference(name) => VType::Object(pool.class(name)?),
        _ => VType::Integer,
    })
}

fn return_opcode(t: JavaType<'_>) -> u8 {
    match t {
        JavaType::Long => op::LRETURN,
        JavaType::Float => op::FRETURN,
        JavaType::Double => op::DRETURN,
        JavaType::Reference(_) => op::ARETURN,
        _ => op::IRETURN,
    }
}
