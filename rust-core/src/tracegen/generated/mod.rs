//! What code tracegen generates, whatever path takes it to the output: the
//! monitor lookup, the prologue, the exits (exit block, return block,
//! catch-all handler), reported throws, info calls. Each sends instructions
//! to an [`InsnSink`], a list for the code model or a chunk for a splice.
#![forbid(unsafe_code)]

pub(crate) mod exits;
pub(crate) mod info;
pub(crate) mod monitor;
pub(crate) mod prologue;
pub(crate) mod throws;

use super::constants::Constants;
use super::plan::Plan;
use crate::classfile::{CodeModel, ConstantSource, Handler, Insn, InsnSink};
use crate::model::TfMethod;
use exits::epilogue;
use prologue::{entry_frame, prologue};

use crate::classfile::Result;

/// The prologue, and the tail (exit block, return block and handler) after
/// the body; registers the catch-all handler and the body's first frame.
#[allow(clippy::too_many_arguments)]
pub(crate) fn surround(
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
