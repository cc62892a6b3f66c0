//! The targeted check of a spliced method whose generated code was made for
//! it (a `<clinit>` spliced with its registration, a shape without a
//! template) or is a template's first copy: only the code the splice wrote is
//! followed, each stretch from the frame before it, since the original code
//! between them is copied unchanged. What the splice ensures of it: it
//! declines (and the full check of the general path follows) unless falling
//! through from the frame before each re-encoded return leaves exactly the
//! result there (`Splice::max_stack`), and it sets TF's locals in each frame
//! after the prologue. The full check stays its oracle
//! (`tests/pre_write_check_scope.rs`).
//!
//! What the original code sees of the edit is established here without
//! following it:
//! - where the prologue ends, the original code resumes in the state it had
//!   where the prologue starts (on the original's locals and stack);
//! - TF's locals (the slots past the original max_locals, which the original
//!   code cannot touch) are the same in every frame of the body, and they
//!   agree with the frame of every handler: so at every instruction of the
//!   body they are what the frame before it says, and every jump, fall
//!   through and handler of the original code finds them as it expects;
//! - max_stack and max_locals are at least the original's.
//!
//! The code in place of a return starts where the original code left just
//! the result on the stack (the splice declines otherwise) and reads no local of the original code: it is followed
//! from there, the original's locals unknown (what that rejects is left to
//! the full check), unless a frame is there or a handler of the original
//! code covers it (its frame may name them); then from the frame before it,
//! as the other stretches are.
//!
//! Anything else (a prologue that ends elsewhere than at a frame, a stretch
//! that falls through into the original code) is left to the full check.
#![forbid(unsafe_code)]

use super::frames::{self, Walk};
use super::limits::Limits;
use super::state::{Constants, State, REFERENCE};
use super::{agrees, agrees_locals, Offence, Rule, Start};
use crate::code::pool::CodePool;
use crate::code::stack_map::VType;
use crate::read::opcodes as op;

/// Where a splice wrote code of its own into a method: `[start, end)` code
/// offsets of the written code.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SplicedRegions {
    /// The prologue: the original code resumes at its end.
    pub prologue: (u32, u32),
    /// The code in place of each return, with the return's opcode, in code order.
    pub returns: Vec<(u32, u32, u8)>,
    /// Every other stretch the splice wrote, in code order: the code in place
    /// of `athrow`s, re-encoded switches, and last the tail.
    pub others: Vec<(u32, u32)>,
}

/// What the check of a splice's code found, short of an offence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplicedVerdict {
    /// What the splice wrote passes, and so does the method.
    Passed,
    /// This check cannot decide: the full check must.
    Undecided,
}

/// The check of what the splice wrote, from `start` (the method's code and
/// initial state); `original` is the original code's max_stack and max_locals.
pub(super) fn check<'p>(
    start: &Start<'_>,
    original: Limits,
    regions: &SplicedRegions,
    pool: &mut impl CodePool<'p>,
    constants: &mut Constants,
) -> Result<SplicedVerdict, Offence> {
    use SplicedVerdict::{Passed, Undecided};
    let Start { code, initial, start, method } = start;
    let (original_stack, original_locals) = (usize::from(original.max_stack), usize::from(original.max_locals));
    if method.max_locals < original_locals {
        return Err(Offence {
            rule: Rule::MaxLocals,
            offset: None,
            message: format!("max_locals is {} where the original code uses {original_locals}", method.max_locals),
        });
    }
    if method.max_stack < original_stack {
        return Err(Offence {
            rule: Rule::MaxStack,
            offset: None,
            message: format!("max_stack is {} where the original code needs {original_stack}", method.max_stack),
        });
    }
    let code_len = code.code.len() as u32;
    let frames = frames::decode_frames(code, initial, method, pool)?;
    let mut walk = Walk::new(code, &frames)?;

    let (prologue_start, body_start) = regions.prologue;
    let (from, state) = frame_before(&frames, prologue_start, start);
    let (at, before) = walk.follow(code, from..prologue_start, state, method, pool, constants)?;
    let Some(before) = before.filter(|_| at == prologue_start) else { return Ok(Undecided) };
    let (at, after) = walk.follow(code, prologue_start..body_start, Some(before.clone()), method, pool, constants)?;
    let (Some(after), Some(entry)) = (after, frames::frame_at(&frames, at).filter(|_| at == body_start)) else {
        return Ok(Undecided);
    };
    agrees(&after, entry, at, at)?;
    if !resumes(&before, entry, original_locals) {
        return Ok(Undecided);
    }

    let body_end = regions.others.last().map_or(code_len, |&(tail, _)| tail);
    let in_body = |offset: &u32| (body_start..body_end).contains(offset);
    if !frames.iter().filter(|(o, _)| in_body(o)).all(|(_, frame)| same_past(frame, entry, original_locals)) {
        return Ok(Undecided);
    }
    let tf_locals = State { locals: past(&entry.locals, original_locals), stack: Vec::new() };
    for &(handler_start, handler_end, handler, frame) in &walk.handlers {
        if handler_start < body_end && body_start < handler_end {
            let wanted = State { locals: past(&frame.locals, original_locals), stack: Vec::new() };
            agrees_locals(&tf_locals, &wanted, handler_start.max(body_start), handler)?;
        }
    }

    let returns = regions.returns.iter().map(|&(region_start, region_end, opcode)| (region_start, region_end, Some(opcode)));
    let others = regions.others.iter().map(|&(region_start, region_end)| (region_start, region_end, None));
    for (region_start, region_end, returned) in returns.chain(others) {
        let names_original_locals = |&&(handler_start, handler_end, _, frame): &&(u32, u32, u32, &State)| {
            handler_start < region_end
                && region_start < handler_end
                && frame.locals.iter().take(original_locals).any(|&t| t != VType::Top)
        };
        let from_result = returned.and_then(result).filter(|_| {
            frames::frame_at(&frames, region_start).is_none() && !walk.handlers.iter().any(|h| names_original_locals(&h))
        });
        let (at, state) = match from_result {
            // Stricter than the state there (the original's locals unknown):
            // what it rejects, the full check decides.
            Some(stack) => {
                let state = Some(State { locals: tf_locals.locals.clone(), stack });
                match walk.follow(code, region_start..region_end, state, method, pool, constants) {
                    Ok(reached) => reached,
                    Err(_) => return Ok(Undecided),
                }
            }
            None => {
                let (from, state) = frame_before(&frames, region_start, start);
                walk.follow(code, from..region_end, state, method, pool, constants)?
            }
        };
        match state {
            Some(_) if at >= code_len => {
                return Err(Offence { rule: Rule::Code, offset: Some(code_len), message: "control falls off the end of the code".into() });
            }
            Some(_) => return Ok(Undecided),
            None if at < code_len && frames::frame_at(&frames, at).is_none() => {
                return Err(frames::missing(at, "code after an unconditional jump has no stack map frame".into()));
            }
            None => {}
        }
    }
    Ok(Passed)
}

/// The stack (slot form) at a return of `opcode` that leaves just its result.
fn result(opcode: u8) -> Option<Vec<VType>> {
    Some(match opcode {
        op::IRETURN => vec![VType::Integer],
        op::LRETURN => vec![VType::Long, VType::Top],
        op::FRETURN => vec![VType::Float],
        op::DRETURN => vec![VType::Double, VType::Top],
        op::ARETURN => vec![REFERENCE],
        op::RETURN => Vec::new(),
        _ => return None,
    })
}

/// Where following the code up to `offset` starts: the last frame at or
/// before it (`None`: the frame takes over there), else the method's start.
fn frame_before(frames: &[(u32, State)], offset: u32, start: &State) -> (u32, Option<State>) {
    match frames.partition_point(|(o, _)| *o <= offset).checked_sub(1).and_then(|i| frames.get(i)) {
        Some(&(at, _)) if at > 0 => (at, None),
        _ => (0, Some(start.clone())),
    }
}

/// Whether the original code, resuming in `entry`, finds what it had in
/// `before` on its `original_locals` slots and stack: the same types, a
/// reference of any class for a reference.
fn resumes(before: &State, entry: &State, original_locals: usize) -> bool {
    let same = |a: VType, b: VType| a == b || matches!((a, b), (VType::Object(_), VType::Object(_)));
    let local = |s: &State, i: usize| s.locals.get(i).copied().unwrap_or(VType::Top);
    before.stack.len() == entry.stack.len()
        && before.stack.iter().zip(&entry.stack).all(|(&a, &b)| same(a, b))
        && (0..original_locals).all(|i| same(local(before, i), local(entry, i)))
}

/// Whether `frame` holds what `entry` holds past the first `original_locals` slots.
fn same_past(frame: &State, entry: &State, original_locals: usize) -> bool {
    let width = frame.locals.len().max(entry.locals.len());
    let local = |s: &State, i: usize| s.locals.get(i).copied().unwrap_or(VType::Top);
    (original_locals..width).all(|i| local(frame, i) == local(entry, i))
}

/// `locals` with the first `original_locals` slots unknown (`Top`).
fn past(locals: &[VType], original_locals: usize) -> Vec<VType> {
    locals.iter().enumerate().map(|(i, &t)| if i < original_locals { VType::Top } else { t }).collect()
}
