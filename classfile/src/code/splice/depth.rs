//! Stack depths of generated code a splice places: what a [`Chunk`] records
//! of its instructions.
//!
//! [`Chunk`]: crate::code::chunk::Chunk
#![forbid(unsafe_code)]

use crate::code::insn::{Handler, Insn, Label};
use crate::code::pool::CodePool;
use crate::code::stack_depth;
use crate::read::error::Result;
use crate::read::opcodes as op;

/// The deepest stack of generated instructions entered at the first with an
/// empty stack, and at the label of each of `handlers` among them with the
/// exception: what a [`Chunk`] records.
pub fn peak<'p>(
    insns: &[Insn],
    handlers: &[Handler],
    pool: &mut impl CodePool<'p>,
) -> Result<Option<u16>> {
    let inside: Vec<Handler> = handlers.iter().filter(|h| insns.contains(&Insn::Label(h.handler))).copied().collect();
    depth_of_list(insns, &inside, pool)
}

/// How much deeper than where it starts the stack gets in straight code
/// that replaces an instruction (and may pop what is below its start).
pub fn replacement_peak<'p>(insns: &[Insn], pool: &mut impl CodePool<'p>) -> Result<u16> {
    let (mut depth, mut peak) = (0i32, 0i32);
    for insn in insns {
        let after = depth + stack_depth::stack_effect(insn, pool)?;
        peak = peak.max(after).max(depth);
        depth = after;
    }
    Ok(u16::try_from(peak).unwrap_or(u16::MAX))
}

/// The deepest stack of a list of generated instructions entered at its
/// first element with an empty stack (and at each handler's label with the
/// exception), as [`stack_depth::max_stack`] finds it; `None` if that is no
/// consistent flow. Generated code only branches forward, to a handful of
/// labels, so one linear pass does.
fn depth_of_list<'p>(
    insns: &[Insn],
    handlers: &[Handler],
    pool: &mut impl CodePool<'p>,
) -> Result<Option<u16>> {
    // Depths known at labels: from branches to them, and the handlers'.
    let mut known: Vec<(Label, i32)> = handlers.iter().map(|h| (h.handler, 1)).collect();
    let mut depth = Some(0i32);
    let mut max = 0i32;
    for insn in insns {
        if let Insn::Label(label) = insn {
            if let Some(&(_, at_label)) = known.iter().find(|(l, _)| l == label) {
                if depth.is_some_and(|d| d != at_label) {
                    return Ok(None);
                }
                depth = Some(at_label);
            }
            continue;
        }
        let Some(before) = depth else { return Ok(None) };
        let after = before + stack_depth::stack_effect(insn, pool)?;
        if after < 0 || matches!(insn.opcode(), Some(op::JSR | op::JSR_W)) {
            return Ok(None);
        }
        max = max.max(after).max(before);
        let mut consistent = true;
        insn.for_each_target(|target| match known.iter().find(|(l, _)| *l == target) {
            Some(&(_, d)) => consistent &= d == after,
            None => known.push((target, after)),
        });
        if !consistent {
            return Ok(None);
        }
        depth = if insn.opcode().is_some_and(op::ends_block) { None } else { Some(after) };
    }
    Ok(u16::try_from(max).ok())
}
