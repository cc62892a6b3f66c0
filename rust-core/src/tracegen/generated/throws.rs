//! What replaces an explicit `athrow`: a static call that reports the
//! throwable unless already reported, so a throw site needs no frame.
#![forbid(unsafe_code)]

use crate::classfile::{ConstantSource, Insn};
use crate::classfile::opcodes as op;
use crate::codegen;
use crate::tracegen::plan::Plan;

use crate::classfile::Result;

/// `throw t` → `EnhancedCodeSupport.thrown(t, reported, mm, id); reported = t; throw t`.
pub(crate) fn replace_throw(plan: &Plan<'_>, thrown: u16, pool: &mut impl ConstantSource) -> Result<[Insn; 8]> {
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
