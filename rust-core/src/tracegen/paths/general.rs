//! The general path: the body lifted into the code model, its returns,
//! throws and info calls rewritten, the generated code inserted, the whole
//! assembled later. Takes every method the faster paths decline.
#![forbid(unsafe_code)]

use super::body::rewrite_body;
use super::chained::instrument_chained;
use super::Instrumented;
use crate::tracegen::generated::Generating;
use crate::classfile::chaining::{Chaining, Start};
use crate::classfile::exit_stack::{self};
use crate::classfile::{ClassFile, ClassFileError, CodeModel, Insn, PoolBuilder, VType};
use crate::model::{TfClass, TfMethod};
use crate::schema;
use crate::tracegen::constants::Constants;
use crate::tracegen::generated::surround;
use crate::tracegen::plan::plan;

use crate::classfile::Result;

pub(crate) fn instrument<'a>(
    target: Instrumented<'_, 'a>,
    tf: &TfClass,
    code: &mut CodeModel<'a>,
    pool: &mut PoolBuilder<'a>,
    constants: &mut Constants,
) -> Result<()> {
    let Instrumented { class, method, signature, monitor } = target;
    let plan = plan(class, method, signature.clone(), code, pool, constants)?;
    let body_start = match body_start(class, method, code, pool)? {
        BodyStart::At(index) => index,
        BodyStart::AfterEach(chaining) => {
            let what = Generating { plan: &plan, method, monitor };
            return instrument_chained(tf, what, &chaining, code, pool, constants);
        }
    };
    let crowded = exit_stack::crowded_returns(code, body_start, pool)?;
    // Frames in the body learn the locals that live across it; frames before
    // it (a constructor's code before super(...)) must not.
    add_locals_to_body_frames(code, body_start, &plan.live_locals());
    rewrite_body(tf, code, body_start, &crowded, &plan, pool, constants)?;
    // The lookup, about 20 instructions, the argument array; the tail.
    let mut prologue = Vec::with_capacity(monitor.len() + 21 + 5 * plan.signature.parameters.len());
    let mut tail = Vec::with_capacity(48);
    surround(Generating { plan: &plan, method, monitor }, code, pool, constants, &mut prologue, &mut tail)?;
    code.insert(body_start, prologue);
    code.elements.extend(tail);
    Ok(())
}

/// Where the body starts.
pub(crate) enum BodyStart {
    /// At this element: after a constructor's one super(...)/this(...) call,
    /// after the registration in `<clinit>`, else at the first instruction.
    At(usize),
    /// After each of a constructor's chaining calls (see [`instrument_chained`](super::chained::instrument_chained)).
    AfterEach(Chaining),
}

pub(crate) fn body_start<'a>(
    class: &ClassFile<'_>,
    method: &TfMethod,
    code: &CodeModel<'a>,
    pool: &mut PoolBuilder<'a>,
) -> Result<BodyStart> {
    match &*method.name {
        // java.lang.Object's constructor calls no other.
        "<init>" if class.super_class_index() == 0 => Ok(BodyStart::At(0)),
        "<init>" => {
            let chaining = code.constructor_chaining(pool)?;
            match chaining.start() {
                Ok(Start::One(index)) => Ok(BodyStart::At(index)),
                Ok(Start::Each) => Ok(BodyStart::AfterEach(chaining)),
                Err(why) => Err(ClassFileError::malformed_unlocated(
                    format!("cannot start monitoring constructor {}{}: {why}", method.name, method.descriptor),
                )),
            }
        }
        "<clinit>" => {
            Ok(BodyStart::At(code.elements.iter().position(|i| schema::is_registration(i, pool)).map_or(0, |i| i + 1)))
        }
        _ => Ok(BodyStart::At(0)),
    }
}

pub(crate) fn add_locals_to_body_frames(code: &mut CodeModel<'_>, body_start: usize, locals: &[(u16, VType)]) {
    // Labels bound in the body, by label id (labels are numbered densely).
    let mut in_body = Vec::new();
    for insn in code.elements.get(body_start..).unwrap_or_default() {
        if let Insn::Label(l) = insn {
            let i = l.id() as usize;
            if in_body.len() <= i {
                in_body.resize(i + 1, false);
            }
            in_body[i] = true;
        }
    }
    for (label, frame) in &mut code.frames {
        if in_body.get(label.id() as usize).copied().unwrap_or(false) {
            frame.set_locals(locals);
        }
    }
}
