//! Code without stack map frames (class files before version 50): the state
//! at every instruction found by data flow to a fixed point. Where two paths
//! meet, locals of different types become `Top` (unusable), references of
//! any classes a reference; operand stacks must agree in depth and category.
#![forbid(unsafe_code)]

use super::state::{self, Constants, Method, State, REFERENCE};
use super::{falls_through, instructions, Offence, Rule};
use crate::read::code_attribute::CodeAttribute;
use crate::code::insn::{Insn, Label};
use crate::read::opcodes as op;
use crate::code::pool::CodePool;
use crate::code::stack_map::VType;

/// Not an instruction boundary.
const NONE: u32 = u32::MAX;

pub(super) fn check<'p>(
    code: &CodeAttribute<'_>,
    start: State,
    method: &Method,
    pool: &mut impl CodePool<'p>,
    constants: &mut Constants,
) -> Result<(), Offence> {
    let decoded: Vec<(u32, Insn, u32)> = instructions(code).collect::<Result<_, _>>()?;
    // Instruction index by code offset.
    let mut index_of = vec![NONE; code.code.len()];
    for (i, (at, _, _)) in decoded.iter().enumerate() {
        if let Some(slot) = index_of.get_mut(*at as usize) {
            *slot = i as u32;
        }
    }
    let index = |offset: u32, from: u32| match index_of.get(offset as usize) {
        Some(&i) if i != NONE => Ok(i as usize),
        _ => Err(Offence { rule: Rule::Code, offset: Some(from), message: format!("the jump target {offset} is not an instruction") }),
    };
    let mut handlers = Vec::with_capacity(code.exception_table.len());
    for h in &code.exception_table {
        handlers.push((u32::from(h.start_pc), u32::from(h.end_pc), index(u32::from(h.handler_pc), u32::from(h.handler_pc))?));
    }
    let subroutines = decoded.iter().any(|(_, insn, _)| {
        matches!(insn.opcode(), Some(op::JSR | op::JSR_W | op::RET))
    });
    if subroutines {
        // Types through jsr/ret need subroutine analysis; the targets are checked.
        for (at, insn, _) in &decoded {
            let mut result = Ok(());
            insn.for_each_target(|Label(t)| result = result.clone().and(index(t, *at).map(drop)));
            result?;
        }
        return Ok(());
    }
    let mut states: Vec<Option<State>> = vec![None; decoded.len()];
    let mut pending = Vec::new();
    merge(&mut states, 0, &start, 0, &mut pending)?;
        while let Some(i) = pending.pop() {
        let (Some((at, insn, next)), Some(Some(entry))) = (decoded.get(i), states.get(i)) else { continue };
        let (at, next) = (*at, *next);
        let mut current = entry.clone();
        let into_handlers = |current: &State, states: &mut Vec<Option<State>>, pending: &mut Vec<usize>| {
            for &(start, end, handler) in &handlers {
                if (start..end).contains(&at) {
                    let caught = State { locals: current.locals.clone(), stack: vec![REFERENCE] };
                    merge(states, handler, &caught, at, pending)?;
                }
            }
            Ok::<(), Offence>(())
        };
        into_handlers(&current, &mut states, &mut pending)?;
        current.execute(insn, at, method, pool, constants)?;
        into_handlers(&current, &mut states, &mut pending)?;
        let mut targets = Vec::new();
        insn.for_each_target(|Label(t)| targets.push(t));
        for target in targets {
            let target_index = index(target, at)?;
            merge(&mut states, target_index, &current, at, &mut pending)?;
        }
        if falls_through(insn) {
            let Ok(following) = index(next, at) else {
                return Err(Offence { rule: Rule::Code, offset: Some(at), message: "control falls off the end of the code".into() });
            };
            merge(&mut states, following, &current, at, &mut pending)?;
        }
    }
    Ok(())
}

/// Merges `incoming` (from the instruction at `from`) into the state of
/// instruction `i`, queuing it again when its state changed.
fn merge(states: &mut [Option<State>], i: usize, incoming: &State, from: u32, pending: &mut Vec<usize>) -> Result<(), Offence> {
    let Some(slot) = states.get_mut(i) else { return Ok(()) };
    let Some(known) = slot.as_mut() else {
        *slot = Some(incoming.clone());
        pending.push(i);
        return Ok(());
    };
    if known.stack.len() != incoming.stack.len() {
        return Err(Offence {
            rule: Rule::StackDepth,
            offset: Some(from),
            message: format!(
                "paths meet with operand stacks of {} and {} slot(s)",
                known.stack.len(),
                incoming.stack.len()
            ),
        });
    }
    let mut changed = false;
    for (k, (a, &b)) in known.stack.iter_mut().zip(&incoming.stack).enumerate() {
        let merged = join(*a, b);
        if merged == VType::Top && *a != VType::Top {
            return Err(Offence {
                rule: Rule::FrameTypes,
                offset: Some(from),
                message: format!("paths meet with {} and {} in stack slot {k}", state::describe(*a), state::describe(b)),
            });
        }
        changed |= merged != *a;
        *a = merged;
    }
    let width = known.locals.len().max(incoming.locals.len());
    known.locals.resize(width, VType::Top);
    for (k, a) in known.locals.iter_mut().enumerate() {
        let merged = join(*a, incoming.locals.get(k).copied().unwrap_or(VType::Top));
        changed |= merged != *a;
        *a = merged;
    }
    if changed {
        pending.push(i);
    }
    Ok(())
}

/// The type both `a` and `b` are: equal types stay, references of any
/// classes are a reference, anything else is unusable.
fn join(a: VType, b: VType) -> VType {
    match (a, b) {
        _ if a == b => a,
        (VType::Object(_) | VType::Null, VType::Object(_) | VType::Null) => REFERENCE,
        _ => VType::Top,
    }
}
