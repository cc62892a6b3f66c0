//! How the method is left: each return becomes a jump to one exit block
//! (which reports the exit and returns), and the catch-all handler reports a
//! failure and rethrows; with their frames.
#![forbid(unsafe_code)]

use crate::classfile::exit_stack::Crowded;
use crate::classfile::{CodeModel, ConstantSource, Frame, Insn, InsnSink, VType};
use crate::classfile::opcodes as op;
use crate::codegen::{self, JavaType};
use crate::protocol;
use crate::tracegen::constants::{Constants, Shared};
use crate::tracegen::plan::Plan;

use crate::classfile::Result;

/// `return v` → `result = v; goto exit`.
pub(crate) fn replace_return(plan: &Plan<'_>) -> impl Iterator<Item = Insn> {
    let store = plan.locals.result.map(|(t, slot)| codegen::store(t, slot));
    store.into_iter().chain([Insn::Branch { opcode: op::GOTO, target: plan.labels.exit }])
}

/// `return v` with values below `v` → `result = v; pop…; goto exit`: the
/// exit block is entered with an empty stack from every return.
pub(crate) fn replace_crowded_return<'c>(plan: &Plan<'_>, crowded: &'c Crowded) -> impl Iterator<Item = Insn> + 'c {
    let store = plan.locals.result.map(|(t, slot)| codegen::store(t, slot));
    let jump = Insn::Branch { opcode: op::GOTO, target: plan.labels.exit };
    store.into_iter().chain(crowded.drain()).chain([jump])
}

/// The exit block, the return block and the catch-all handler.
pub(crate) fn epilogue(
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
pub(crate) fn returned_member(t: JavaType<'_>) -> protocol::Member {
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

pub(crate) fn verification_type(t: JavaType<'_>, pool: &mut impl ConstantSource) -> Result<VType> {
    Ok(match t {
        JavaType::Long => VType::Long,
        JavaType::Double => VType::Double,
        JavaType::Float => VType::Float,
        JavaType::Reference(name) => VType::Object(pool.class(name)?),
        _ => VType::Integer,
    })
}

pub(crate) fn return_opcode(t: JavaType<'_>) -> u8 {
    match t {
        JavaType::Long => op::LRETURN,
        JavaType::Float => op::FRETURN,
        JavaType::Double => op::DRETURN,
        JavaType::Reference(_) => op::ARETURN,
        _ => op::IRETURN,
    }
}
