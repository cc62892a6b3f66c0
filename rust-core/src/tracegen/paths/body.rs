//! The rewrite of a lifted body that the general and chained paths share:
//! returns become jumps to the exit block, explicit throws are reported, info
//! calls get the monitor and the method's identifier.
#![forbid(unsafe_code)]

use crate::classfile::exit_stack::Crowded;
use crate::classfile::opcodes as op;
use crate::classfile::{CodeModel, Insn, PoolBuilder};
use crate::codegen;
use crate::model::TfClass;
use crate::tracegen::constants::{Constants, Shared};
use crate::tracegen::generated::exits::{replace_crowded_return, replace_return};
use crate::tracegen::generated::info::{info_targets, is_info_call};
use crate::tracegen::generated::throws::replace_throw;
use crate::tracegen::plan::Plan;

use crate::classfile::Result;
use std::iter::Peekable;

/// Returns become jumps to the exit block (draining what `crowded` returns
/// leave below their result), explicit throws are reported, and info calls
/// get the monitor and this method's identifier.
pub(crate) fn rewrite_body(
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
            rewrite_return(index, &mut crowded, plan, code);
            continue;
        }
        rewrite_one(insn, &info_targets, tf, plan, thrown, code, pool)?;
    }
    Ok(())
}

/// Appends what replaces the return at element `index`: a jump to the exit
/// block, after draining what a crowded return leaves below its result.
pub(crate) fn rewrite_return<'c>(
    index: usize,
    crowded: &mut Peekable<impl Iterator<Item = &'c Crowded>>,
    plan: &Plan<'_>,
    code: &mut CodeModel<'_>,
) {
    match crowded.next_if(|c| c.index == index) {
        Some(c) => code.elements.extend(replace_crowded_return(plan, c)),
        None => code.elements.extend(replace_return(plan)),
    }
}

/// Appends `insn` of the body, or what replaces it: an explicit throw is
/// reported, an info call gets the monitor and this method's identifier.
pub(crate) fn rewrite_one(
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
