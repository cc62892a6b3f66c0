//! The spliced path: the body copied, not lifted, with only returns, throws
//! and switches re-encoded around the generated code, which is encoded as it
//! is generated (or copied from a template: `from_template`).
#![forbid(unsafe_code)]

use super::depths::{GeneratedDepths, Shape};
use super::from_template::{instrument_from_template, FromTemplate};
use super::Instrumented;
use crate::tracegen::generated::Generating;
use super::splicing::{add_live_locals, assemble_spliced, body_start_for_splice, SplicedBody};
use crate::classfile::splice::{SiteKind, Splice};
use crate::classfile::{ChunkWriter, CodeModel, Insn, InsnSink, Placed, PoolBuilder};
use crate::schema::Registration;
use crate::tracegen::constants::{Constants, Shared};
use crate::tracegen::generated::exits::replace_return;
use crate::tracegen::generated::monitor::LookupKind;
use crate::tracegen::generated::surround;
use crate::tracegen::generated::throws::replace_throw;
use crate::tracegen::memory::Memory;
use crate::tracegen::plan::plan;

use crate::classfile::Result;

/// [`instrument`](super::general::instrument) by splicing: the same code, frames and pool entries, with
/// the body copied and the generated code copied from its shape's template
/// or encoded as it is generated; `None` if the splice declines (see [`crate::classfile::splice`]).
pub(crate) fn instrument_spliced<'a>(
    target: Instrumented<'_, 'a>,
    registration: Option<&Registration>,
    code: &mut CodeModel<'a>,
    splice: &mut Splice<'a>,
    pool: &mut PoolBuilder<'a>,
    constants: &mut Constants,
    memory: &mut Memory,
) -> Result<Option<SplicedBody>> {
    let Instrumented { class, method, signature, monitor } = target;
    if registration.is_none() {
        match instrument_from_template(target, code, splice, pool, constants, memory)? {
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
    surround(Generating { plan: &plan, method, monitor }, code, pool, constants, &mut prologue, &mut tail)?;
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
    let spliced = assemble_spliced(code, splice, insert_at, chunks, None, pool)?;
    Ok(spliced.map(|code| SplicedBody { code, template: None }))
}
