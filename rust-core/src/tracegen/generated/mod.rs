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

/// What generated code is made for: the method's plan (its signature,
/// locals and labels), what TF knows of the method, and the instructions
/// that find its monitor.
#[derive(Clone, Copy)]
pub(crate) struct Generating<'g> {
    pub plan: &'g Plan<'g>,
    pub method: &'g TfMethod<'g>,
    pub monitor: &'g [Insn],
}

/// The prologue, and the tail (exit block, return block and handler) after
/// the body; registers the catch-all handler and the body's first frame.
pub(crate) fn surround(
    what: Generating<'_>,
    code: &mut CodeModel<'_>,
    pool: &mut impl ConstantSource,
    constants: &mut Constants,
    prologue_out: &mut impl InsnSink,
    tail_out: &mut impl InsnSink,
) -> Result<()> {
    let Generating { plan, method, .. } = what;
    let (labels, types) = (&plan.labels, &plan.types);
    // The prologue's frames: the parameters as declared, `this` initialized.
    let entry = entry_frame(code, method, types.this, &plan.live_locals());
    prologue(what, &entry, code, pool, constants, prologue_out)?;
    tail_out.push(Insn::Label(labels.body_end));
    epilogue(plan, code, pool, constants, tail_out)?;
    // Lowest priority: the method's own handlers see their exceptions first.
    code.handlers.push(Handler { start: labels.body, end: labels.body_end, handler: labels.handler, catch_type: 0 });
    if code.frames_required {
        code.frames.push((labels.body, entry));
    }
    Ok(())
}
