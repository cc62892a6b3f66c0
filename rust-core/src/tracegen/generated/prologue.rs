//! The prologue: find the monitor, set the locals that live across the body,
//! call `enterWithToken` with the arguments boxed when the monitor wants them;
//! and the frame the body starts with.
#![forbid(unsafe_code)]

use crate::classfile::{CodeModel, ConstantSource, Frame, Insn, InsnSink, VType};
use crate::classfile::opcodes as op;
use crate::codegen::{self, JavaType};
use crate::model::TfMethod;
use crate::tracegen::constants::{Constants, Shared};
use super::Generating;

use crate::classfile::Result;

pub(crate) fn prologue(
    what: Generating<'_>,
    entry: &Frame,
    code: &mut CodeModel<'_>,
    pool: &mut impl ConstantSource,
    constants: &mut Constants,
    out: &mut impl InsnSink,
) -> Result<()> {
    let Generating { plan, method, monitor } = what;
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

/// The frame where the body starts: the parameters as declared, `this`
/// initialized, and the locals that live across the body.
pub(crate) fn entry_frame(code: &CodeModel<'_>, method: &TfMethod, this: VType, live: &[(u16, VType)]) -> Frame {
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
