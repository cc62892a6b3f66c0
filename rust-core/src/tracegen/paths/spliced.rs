//! The spliced path: the body copied, not lifted, with only returns, throws
//! and switches re-encoded around the generated code, which is encoded as it
//! is generated (or copied from a template: `from_template`).
#![forbid(unsafe_code)]

use super::depths::{GeneratedDepths, Shape};
use super::from_template::{instrument_from_template, FromTemplate};
use crate::classfile::splice::{Edits, FramesAfter, SiteKind, Splice, SplicedCode};
use crate::classfile::{ChunkWriter, ClassFile, CodeModel, Insn, InsnSink, Placed, PoolBuilder, SlotCache, VType};
use crate::codegen::Signature;
use crate::model::TfMethod;
use crate::schema::Registration;
use crate::tracegen::constants::{Constants, Shared};
use crate::tracegen::generated::exits::replace_return;
use crate::tracegen::generated::monitor::LookupKind;
use crate::tracegen::generated::surround;
use crate::tracegen::generated::throws::replace_throw;
use crate::tracegen::check_scope::GeneratedCode;
use crate::tracegen::memory::Memory;
use crate::tracegen::plan::plan;

use crate::classfile::Result;

/// A method's spliced code, with the template its generated code was copied
/// from, if it was (the pre-write check's verdict on that code is the template's).
pub(crate) struct SplicedBody {
    pub code: SplicedCode,
    pub template: Option<GeneratedCode>,
}

/// [`instrument`](super::general::instrument) by splicing: the same code, frames and pool entries, with
/// the body copied and the generated code copied from its shape's template
/// or encoded as it is generated; `None` if the splice declines (see [`crate::classfile::splice`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn instrument_spliced<'a>(
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
) -> Result<Option<SplicedBody>> {
    if registration.is_none() {
        match instrument_from_template(class, method, signature, monitor, code, splice, pool, constants, memory)? {
            FromTemplate::Spliced(body) => return Ok(Some(body)),
            FromTemplate::SpliceDeclined => return Ok(None),
            FromTemplate::NoTemplate => {}
        }
    }
    let plan = plan(class, method, signature.clone(), code, pool, constants)?;
    let Some(insert_at) = body_start_for_splice(class, method, code, splice, pool) else {
        return Ok(None);
    };
    add_live_locals(code, splice, insert_at, &plan.live_locals());
    // The stack depths of the generated code depend on the method's shape
    // only: known after the first method of a shape, whose chunks keep their
    // instructions to find them. `<clinit>` starts with the registration,
    // which leaves the stack as it found it.
    let registration_peak = registration.map_or(0, |r| r.peak);
    let has_throw = splice.sites().iter().any(|s| s.kind == SiteKind::Throw);
    let shape = Shape::of(&plan.signature, method, LookupKind::of(monitor));
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
                &mut constants.slots,
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
    let spliced = assemble_spliced(code, splice, insert_at, chunks, None, &mut constants.slots, pool)?;
    Ok(spliced.map(|code| SplicedBody { code, template: None }))
}

/// Where a splice puts the prologue: after a constructor's chaining call,
/// else first; `None` if a splice cannot find it.
pub(crate) fn body_start_for_splice<'a>(
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

/// Frames in the body learn the locals that live across it: the method's
/// own, which the splice holds, and any the model holds.
pub(crate) fn add_live_locals(code: &mut CodeModel<'_>, splice: &mut Splice<'_>, insert_at: u32, live: &[(u16, VType)]) {
    splice.set_frame_locals(insert_at, live);
    for (label, frame) in &mut code.frames {
        if label.id() >= insert_at {
            frame.set_locals(live);
        }
    }
}

/// The splice of the generated chunks `[prologue, tail, return, throw]`
/// into the method's code.
pub(crate) fn assemble_spliced<'a>(
    code: &CodeModel<'a>,
    splice: &mut Splice<'a>,
    insert_at: u32,
    [prologue, tail, ret, throw]: [Placed<'_>; 4],
    frames_after: Option<FramesAfter<'_>>,
    slots: &mut SlotCache,
    pool: &mut PoolBuilder<'a>,
) -> Result<Option<SplicedCode>> {
    let edits = Edits { insert_at, prologue, returns: Some(ret), throws: Some(throw), tail, frames_after };
    splice.assemble(code, &edits, slots, pool)
}
