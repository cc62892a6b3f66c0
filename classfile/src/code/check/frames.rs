//! Code with stack map frames (class files of version 50 and later): one pass
//! in code order. Each frame takes over at its offset, after the state that
//! falls into it was compared with it; every jump and every instruction an
//! exception handler covers is compared with its target's frame.
#![forbid(unsafe_code)]

use super::state::{self, Constants, Method, State};
use super::{agrees, agrees_locals, falls_through, instructions_from, Offence, Rule};
use crate::read::attribute::name;
use crate::read::code_attribute::CodeAttribute;
use crate::code::insn::{Insn, Label};
use crate::read::opcodes as op;
use crate::code::pool::CodePool;
use crate::code::stack_map::{self, to_slots, Frame, VType};

/// More decoded frame entries than this means a broken table, not code.
const FRAME_BUDGET: usize = 1 << 22;

pub(super) fn check<'p>(
    code: &CodeAttribute<'_>,
    initial: &Frame,
    start: State,
    method: &Method,
    pool: &mut impl CodePool<'p>,
    constants: &mut Constants,
) -> Result<(), Offence> {
    let frames = decode_frames(code, initial, method, pool)?;
    let mut walk = Walk::new(code, &frames)?;
    let (_, state) = walk.follow(code, 0..u32::MAX, Some(start), method, pool, constants)?;
    if let Some((offset, _)) = frames.get(walk.next_frame) {
        return Err(Offence { rule: Rule::Code, offset: Some(*offset), message: "a stack map frame past the code".into() });
    }
    if state.is_some() {
        return Err(Offence { rule: Rule::Code, offset: Some(code.code.len() as u32), message: "control falls off the end of the code".into() });
    }
    Ok(())
}

/// A method's frames and handlers, and where a pass through its code is.
pub(super) struct Walk<'f> {
    frames: &'f [(u32, State)],
    /// Each handler's range, offset and frame.
    pub handlers: Vec<(u32, u32, u32, &'f State)>,
    /// The locals change rarely: each handler compares them again only after a change.
    version: u64,
    compared: Vec<u64>,
    /// The first frame the pass has not reached.
    next_frame: usize,
}

impl<'f> Walk<'f> {
    /// The handlers of `code`, each with its frame, which must hold just the exception.
    pub fn new(code: &CodeAttribute<'_>, frames: &'f [(u32, State)]) -> Result<Walk<'f>, Offence> {
        let mut handlers = Vec::with_capacity(code.exception_table.len());
        for h in &code.exception_table {
            let at = u32::from(h.handler_pc);
            let Some(frame) = frame_at(frames, at) else {
                return Err(missing(at, format!("exception handler at offset {at} has no stack map frame")));
            };
            if !matches!(frame.stack.as_slice(), [VType::Object(_)]) {
                return Err(Offence {
                    rule: Rule::StackDepth,
                    offset: Some(at),
                    message: format!("the stack map frame of the exception handler at offset {at} does not hold just the exception"),
                });
            }
            handlers.push((u32::from(h.start_pc), u32::from(h.end_pc), at, frame));
        }
        let compared = vec![0u64; handlers.len()];
        Ok(Walk { frames, handlers, version: 1, compared, next_frame: 0 })
    }

    /// Follows the code of `stretch` from its start (an instruction start)
    /// in `state` (`None`: control reaches the start only through its frame)
    /// up to the first instruction at or past its end: that offset (the
    /// code's length at the end of the code) and the state control brings
    /// there, not yet compared with a frame there.
    pub fn follow<'p>(
        &mut self,
        code: &CodeAttribute<'_>,
        stretch: std::ops::Range<u32>,
        mut state: Option<State>,
        method: &Method,
        pool: &mut impl CodePool<'p>,
        constants: &mut Constants,
    ) -> Result<(u32, Option<State>), Offence> {
        let std::ops::Range { start: from, end: stop } = stretch;
        let frames = self.frames;
        self.next_frame = frames.partition_point(|(o, _)| *o < from);
        self.version += 1;
        for decoded in instructions_from(code, from) {
            let (at, insn, _) = decoded?;
            if at >= stop {
                return Ok((at, state));
            }
            if let Some((offset, _)) = frames.get(self.next_frame).filter(|(o, _)| *o < at) {
                return Err(Offence { rule: Rule::Code, offset: Some(*offset), message: "a stack map frame inside an instruction".into() });
            }
            if let Some((_, frame)) = frames.get(self.next_frame).filter(|(o, _)| *o == at) {
                self.next_frame += 1;
                self.version += 1;
                match state.as_mut() {
                    Some(current) => {
                        agrees(current, frame, at, at)?;
                        current.locals.clone_from(&frame.locals);
                        current.stack.clone_from(&frame.stack);
                    }
                    None => state = Some(frame.clone()),
                }
            }
            let Some(current) = state.as_mut() else {
                return Err(missing(at, "code after an unconditional jump has no stack map frame".into()));
            };
            compare_with_handlers(current, at, &self.handlers, &mut self.compared, self.version)?;
            current.execute(&insn, at, method, pool, constants)?;
            if changes_locals(&insn) {
                self.version += 1;
                compare_with_handlers(current, at, &self.handlers, &mut self.compared, self.version)?;
            }
            let mut result = Ok(());
            insn.for_each_target(|Label(target)| {
                if result.is_ok() {
                    result = match frame_at(frames, target) {
                        Some(frame) => agrees(current, frame, at, target),
                        None => Err(missing(at, format!("the jump target {target} has no stack map frame"))),
                    };
                }
            });
            result?;
            if !falls_through(&insn) {
                state = None;
            }
        }
        Ok((code.code.len() as u32, state))
    }
}

/// The frame at `offset`, if there is one.
pub(super) fn frame_at(frames: &[(u32, State)], offset: u32) -> Option<&State> {
    frames.binary_search_by_key(&offset, |(o, _)| *o).ok().and_then(|i| frames.get(i)).map(|(_, frame)| frame)
}

/// The method's frames in slot form, by offset; each within max_locals and max_stack.
pub(super) fn decode_frames<'p>(
    code: &CodeAttribute<'_>,
    initial: &Frame,
    method: &Method,
    pool: &mut impl CodePool<'p>,
) -> Result<Vec<(u32, State)>, Offence> {
    let Some(table) = code.attribute(name::STACK_MAP_TABLE) else { return Ok(Vec::new()) };
    let decoded = stack_map::decode(&mut table.reader(), initial, FRAME_BUDGET, 0, pool, &mut |offset, _| Ok(Label(offset)))
        .map_err(|e| state::code_error(None, e))?;
    let mut frames = Vec::with_capacity(decoded.len());
    for (Label(offset), frame) in decoded {
        let slots = State { locals: into_slots(frame.locals), stack: into_slots(frame.stack) };
        if slots.locals.len() > method.max_locals {
            return Err(Offence {
                rule: Rule::MaxLocals,
                offset: Some(offset),
                message: format!("the stack map frame declares {} local slots, max_locals is {}", slots.locals.len(), method.max_locals),
            });
        }
        if slots.stack.len() > method.max_stack {
            return Err(Offence {
                rule: Rule::MaxStack,
                offset: Some(offset),
                message: format!("the stack map frame declares {} stack slots, max_stack is {}", slots.stack.len(), method.max_stack),
            });
        }
        frames.push((offset, slots));
    }
    Ok(frames)
}

/// `entries` in slot form, kept as they are when no long or double needs a
/// second slot (most frames): one list fewer to make per frame.
fn into_slots(entries: Vec<VType>) -> Vec<VType> {
    if entries.iter().all(|t| t.slots() == 1) {
        entries
    } else {
        to_slots(&entries)
    }
}

/// The locals at `at` against the frame of every handler covering it whose
/// comparison is older than `version`.
fn compare_with_handlers(
    current: &State,
    at: u32,
    handlers: &[(u32, u32, u32, &State)],
    compared: &mut [u64],
    version: u64,
) -> Result<(), Offence> {
    for (&(start, end, handler, frame), seen) in handlers.iter().zip(compared.iter_mut()) {
        if (start..end).contains(&at) && *seen != version {
            agrees_locals(current, frame, at, handler)?;
            *seen = version;
        }
    }
    Ok(())
}

/// Stores, and a constructor call (which initializes `this` or a `new` object in the locals).
fn changes_locals(insn: &Insn) -> bool {
    match insn {
        Insn::Local { opcode, .. } => (op::ISTORE..=op::ASTORE).contains(opcode),
        Insn::Simple(o) => (op::ISTORE_0..=op::ASTORE_3).contains(o),
        Insn::Pool { opcode, .. } => *opcode == op::INVOKESPECIAL,
        _ => false,
    }
}

pub(super) fn missing(at: u32, message: String) -> Offence {
    Offence { rule: Rule::MissingFrame, offset: Some(at), message }
}
