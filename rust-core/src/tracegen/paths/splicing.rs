//! What the spliced path and its template copy share: where the prologue
//! goes, the locals every frame of the body learns, the splice of the
//! generated chunks, and what a spliced method comes to.
#![forbid(unsafe_code)]

use crate::classfile::splice::{Edits, FramesAfter, Splice, SplicedCode};
use crate::classfile::{ClassFile, CodeModel, Placed, PoolBuilder, VType};
use crate::model::TfMethod;
use crate::tracegen::check_scope::GeneratedCode;

use crate::classfile::Result;

/// A method's spliced code, with the template its generated code was copied
/// from, if it was (the pre-write check's verdict on that code is the template's).
pub(crate) struct SplicedBody {
    pub code: SplicedCode,
    pub template: Option<GeneratedCode>,
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
    pool: &mut PoolBuilder<'a>,
) -> Result<Option<SplicedCode>> {
    let edits = Edits { insert_at, prologue, returns: Some(ret), throws: Some(throw), tail, frames_after };
    splice.assemble(code, &edits, pool)
}
