//! The general path for a constructor that calls `super(...)`/`this(...)`
//! at several places or over a non-empty stack: a prologue after each call,
//! the catch-all covering only code run with `this` initialized.
#![forbid(unsafe_code)]

use super::body::{rewrite_one, rewrite_return};
use crate::classfile::chaining::Chaining;
use crate::classfile::exit_stack;
use crate::classfile::{CodeModel, Handler, Insn, Label, PoolBuilder, VType};
use crate::classfile::opcodes as op;
use crate::model::TfClass;
use crate::tracegen::constants::{Constants, Shared};
use crate::tracegen::generated::exits::epilogue;
use crate::tracegen::generated::info::info_targets;
use crate::tracegen::generated::prologue::prologue;
use crate::tracegen::generated::Generating;
use crate::tracegen::plan::Plan;

use crate::classfile::Result;

/// [`instrument`](super::general::instrument) of a constructor whose paths call `super(...)` or
/// `this(...)` at different places (groovyc selects the superclass
/// constructor at run time, one call per case of a switch), or leave values
/// on the stack across the call: a prologue after each call, its frames
/// holding the types there, and the catch-all handler covering only code
/// run with `this` initialized. Code still reached with `this`
/// uninitialized keeps its throws as they are (no monitor is there yet).
pub(crate) fn instrument_chained<'a>(
    tf: &TfClass,
    what: Generating<'_>,
    chaining: &Chaining,
    code: &mut CodeModel<'a>,
    pool: &mut PoolBuilder<'a>,
    constants: &mut Constants,
) -> Result<()> {
    let Generating { plan, method, monitor } = what;
    let first = chaining.calls.first().map_or(0, |c| c.after);
    let crowded = exit_stack::crowded_returns(code, first, pool)?;
    let kept = keep_lost_parameters(chaining, code)?;
    let plan = &Plan { kept_parameters: kept.slots, ..plan.clone() };
    let live = plan.live_locals();
    // Frames where `this` is initialized learn the live locals; the others
    // are reached before any prologue ran.
    let mut index_of_label = vec![None; code.next_label as usize];
    for (i, insn) in code.elements.iter().enumerate() {
        if let Insn::Label(l) = insn {
            if let Some(slot) = index_of_label.get_mut(l.id() as usize) {
                *slot = Some(i);
            }
        }
    }
    // A label is reached as the instruction after it (labels are not marked).
    let instruction_at = |at: usize| {
        code.elements.get(at..).and_then(|rest| rest.iter().position(|e| !matches!(e, Insn::Label(_)))).map(|k| at + k)
    };
    let initialized: Vec<bool> = code
        .frames
        .iter()
        .map(|(label, _)| {
            let at = index_of_label.get(label.id() as usize).copied().flatten();
            at.and_then(instruction_at).is_some_and(|at| at >= first && !chaining.is_uninitialized(at))
        })
        .collect();
    for ((_, frame), initialized) in code.frames.iter_mut().zip(initialized) {
        if initialized {
            frame.set_locals(&live);
        }
    }
    // A prologue for each call, each with labels of its own.
    let mut prologues = Vec::with_capacity(chaining.calls.len());
    for (k, call) in chaining.calls.iter().enumerate() {
        let mut site = plan.clone();
        if k > 0 {
            site.labels.body = code.new_label();
        }
        let mut entry = call.frame.clone();
        entry.set_locals(&live);
        let mut insns = Vec::with_capacity(monitor.len() + 21 + 5 * plan.signature.parameters.len());
        prologue(Generating { plan: &site, method, monitor }, &entry, code, pool, constants, &mut insns)?;
        if code.frames_required {
            code.frames.push((site.labels.body, entry));
        }
        prologues.push((call.after, site.labels.body, insns));
    }

    let thrown = constants.get(Shared::Thrown, pool)?;
    let info_targets = info_targets(tf);
    let body = code.elements.split_off(first.min(code.elements.len()));
    code.elements.reserve(body.len() + 64 * prologues.len());
    let mut prologues = prologues.into_iter().peekable();
    let mut crowded = crowded.iter().peekable();
    // The start of the protected range being laid out, and the ranges laid out.
    let mut open: Option<Label> = None;
    let mut ranges = Vec::new();
    for (index, insn) in (first..).zip(body) {
        if let Some((_, body_label, insns)) = prologues.next_if(|(after, _, _)| *after == index) {
            code.elements.extend(insns);
            open = Some(body_label);
        }
        let uninitialized = chaining.is_uninitialized(index);
        if let (true, Some(start)) = (uninitialized && !matches!(insn, Insn::Label(_)), open) {
            let end = code.new_label();
            code.elements.push(Insn::Label(end));
            ranges.push((start, end));
            open = None;
        }
        if uninitialized {
            code.elements.push(insn);
            continue;
        }
        if insn.is_return() {
            rewrite_return(index, &mut crowded, plan, code);
            continue;
        }
        rewrite_one(insn, &info_targets, tf, plan, thrown, code, pool)?;
    }
    if let Some(start) = open {
        ranges.push((start, plan.labels.body_end));
    }

    let mut tail = Vec::with_capacity(48);
    tail.push(Insn::Label(plan.labels.body_end));
    epilogue(plan, code, pool, constants, &mut tail)?;
    code.elements.extend(tail);
    // Lowest priority: the method's own handlers see their exceptions first.
    for (start, end) in ranges {
        code.handlers.push(Handler { start, end, handler: plan.labels.handler, catch_type: 0 });
    }
    code.insert(0, kept.copying);
    Ok(())
}

/// Copies of the parameters a constructor no longer holds after its chaining
/// call (a shrinker's frames declare a parameter that is not read again
/// `top`; a slot may be reused before the call), for the prologue to read.
pub(crate) struct KeptParameters {
    /// The loads and stores that make the copies, to go first in the method.
    pub(crate) copying: Vec<Insn>,
    /// (parameter slot, copy slot) pairs.
    pub(crate) slots: Vec<(u16, u16)>,
}

/// Locals of their own for the parameters some chaining call leaves behind,
/// set in every frame: the copies are made before any instruction of the method.
pub(crate) fn keep_lost_parameters(chaining: &Chaining, code: &mut CodeModel<'_>) -> Result<KeptParameters> {
    let lost = chaining.parameters_lost(&code.initial_frame);
    let declared = code.initial_frame.local_slots();
    let mut kept =
        KeptParameters { copying: Vec::with_capacity(2 * lost.len()), slots: Vec::with_capacity(lost.len()) };
    for slot in lost {
        let Some(&t) = declared.get(usize::from(slot)) else { continue };
        let copy = code.new_local(t.slots() as u16)?;
        let (load, store) = match t {
            VType::Integer => (op::ILOAD, op::ISTORE),
            VType::Float => (op::FLOAD, op::FSTORE),
            VType::Long => (op::LLOAD, op::LSTORE),
            VType::Double => (op::DLOAD, op::DSTORE),
            _ => (op::ALOAD, op::ASTORE),
        };
        kept.copying.push(Insn::Local { opcode: load, index: slot, wide: false });
        kept.copying.push(Insn::Local { opcode: store, index: copy, wide: false });
        code.add_local_to_all_frames(copy, t);
        kept.slots.push((slot, copy));
    }
    Ok(kept)
}
