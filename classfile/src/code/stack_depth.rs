//! max_stack and max_locals of edited code: a data-flow pass over operand
//! stack depths (not types), so it needs no class hierarchy. The sizes an
//! instruction's descriptor gives are the pool's to answer (`CodePool::field_slots`
//! and the like), which keeps them per entry.
#![forbid(unsafe_code)]

use crate::code::insn::{Handler, Insn};
use crate::read::error::{ClassFileError, Result};
use crate::read::opcodes as op;
use crate::code::pool::CodePool;
use crate::code::stack_map::Frame;

/// Depths along a run of instructions, relative to the depth it starts at.
#[derive(Debug, Clone, Copy)]
struct RunDepths {
    /// The lowest depth after any instruction (below 0: an underflow).
    low: i32,
    /// The highest depth before or after any instruction.
    high: i32,
    /// The depth after the last.
    net: i32,
    /// One past the highest local slot an instruction uses.
    locals: u32,
}

/// Reads the run `start..end` of `code` (plain instructions, checked when the
/// code was lifted) straight from the bytes: the depth pass meets every
/// instruction of a method, and decoding each into an `Insn` costs more than
/// the depth itself.
fn run_depths<'p>(
    code: &[u8],
    start: u32,
    end: u32,
    pool: &mut impl CodePool<'p>,
) -> Result<RunDepths> {
    let (mut depth, mut low, mut high, mut locals) = (0i32, 0i32, 0i32, 0u32);
    let mut at = start as usize;
    while at < end as usize {
        locals = locals.max(local_used_at(code, at));
        let (length, effect) = plain_effect(code, at, pool)?;
        high = high.max(depth + effect);
        depth += effect;
        low = low.min(depth);
        at += length;
    }
    Ok(RunDepths { low, high, net: depth, locals })
}

/// Length and stack effect of each plain instruction whose effect no
/// constant decides; length 0 for the others. Read first for every
/// instruction: one load, where the match below jumps by opcode.
const FIXED_PLAIN: [(u8, i8); 256] = {
    let mut table = [(0u8, 0i8); 256];
    let mut opcode = 0;
    while opcode < 256 {
        if op::TABLE[opcode].stack_effect.is_some() {
            table[opcode] = (op::PLAIN_LENGTHS[opcode], op::FIXED_STACK_EFFECTS[opcode]);
        }
        opcode += 1;
    }
    table
};

/// Length and stack effect of the plain instruction at `at` (one a run may
/// hold: no branch, switch, return, `athrow` or `ret`).
fn plain_effect<'p>(
    code: &[u8],
    at: usize,
    pool: &mut impl CodePool<'p>,
) -> Result<(usize, i32)> {
    let bad = |at: usize| ClassFileError::malformed_unlocated(format!("code offset {at}: not an instruction a run may hold"));
    let u16_at = |at: usize| code.get(at..at + 2).map(|b| u16::from_be_bytes([b[0], b[1]])).ok_or_else(|| bad(at));
    let opcode = code.get(at).copied().ok_or_else(|| bad(at))?;
    if let (length @ 1.., effect) = FIXED_PLAIN[usize::from(opcode)] {
        return Ok((usize::from(length), i32::from(effect)));
    }
    Ok(match opcode {
        op::LDC => (2, pool.loaded_slots(u16::from(code.get(at + 1).copied().ok_or_else(|| bad(at))?))?),
        op::LDC_W => (3, pool.loaded_slots(u16_at(at + 1)?)?),
        op::GETSTATIC | op::PUTSTATIC | op::GETFIELD | op::PUTFIELD => {
            let size = pool.field_slots(u16_at(at + 1)?)?;
            let effect = match opcode {
                op::GETSTATIC => size,
                op::PUTSTATIC => -size,
                op::GETFIELD => size - 1,
                _ => -size - 1,
            };
            (3, effect)
        }
        op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKESTATIC => {
            let (parameters, returns) = pool.method_slots(u16_at(at + 1)?)?;
            let receiver = if opcode == op::INVOKESTATIC { 0 } else { 1 };
            (3, returns - parameters - receiver)
        }
        op::INVOKEINTERFACE | op::INVOKEDYNAMIC => {
            let (parameters, returns) = pool.method_slots(u16_at(at + 1)?)?;
            let receiver = if opcode == op::INVOKEINTERFACE { 1 } else { 0 };
            (5, returns - parameters - receiver)
        }
        op::MULTIANEWARRAY => (4, 1 - i32::from(code.get(at + 3).copied().ok_or_else(|| bad(at))?)),
        op::WIDE => {
            let modified = code.get(at + 1).copied().ok_or_else(|| bad(at))?;
            (if modified == op::IINC { 6 } else { 4 }, op::fixed_stack_effect(modified))
        }
        _ => (op::plain_length(opcode).ok_or_else(|| bad(at))?, op::fixed_stack_effect(opcode)),
    })
}

/// Length and stack effect of the field access or invocation at `at` when
/// `pool` knows its entry's sizes already; `None` for any other instruction, or an
/// entry not looked up yet ([`plain_effect`] then finds it). Most of what a
/// walk meets that no constant decides is such an access, met again: this
/// reads the known sizes, without [`plain_effect`]'s look-ups.
#[inline]
fn known_member_effect<'p>(code: &[u8], at: usize, opcode: u8, pool: &impl CodePool<'p>) -> Option<(usize, i32)> {
    if !(op::GETSTATIC..=op::INVOKEDYNAMIC).contains(&opcode) {
        return None;
    }
    let index = u16::from_be_bytes([*code.get(at + 1)?, *code.get(at + 2)?]);
    if opcode <= op::PUTFIELD {
        let size = pool.known_field_slots(index)?;
        let effect = match opcode {
            op::GETSTATIC => size,
            op::PUTSTATIC => -size,
            op::GETFIELD => size - 1,
            _ => -size - 1,
        };
        return Some((3, effect));
    }
    let (parameters, returns) = pool.known_method_slots(index)?;
    let receiver = i32::from(!matches!(opcode, op::INVOKESTATIC | op::INVOKEDYNAMIC));
    let length = if opcode >= op::INVOKEINTERFACE { 5 } else { 3 };
    Some((length, returns - parameters - receiver))
}

/// The operand stack depth at `end`, reached from `start` (where it is
/// `depth`) by falling through every instruction in between; `None` if one
/// of them never falls through (a `goto`, return, `athrow`, switch, `jsr`,
/// `ret`): then `end` is reached only by jumps.
pub(crate) fn depth_by_fall_through<'p>(
    code: &[u8],
    start: u32,
    end: u32,
    depth: i32,
    pool: &mut impl CodePool<'p>,
) -> Result<Option<i32>> {
    let mut depth = depth;
    let mut at = start as usize;
    while at < end as usize {
        let opcode = code.get(at).copied().unwrap_or(op::NOP);
        let (length, effect) = if let (length @ 1.., effect) = FIXED_PLAIN[usize::from(opcode)] {
            (usize::from(length), i32::from(effect))
        } else if let Some(known) = known_member_effect(code, at, opcode, pool) {
            known
        } else if op::is_conditional_branch(opcode) {
            (3, op::fixed_stack_effect(opcode))
        } else if op::ends_block(opcode) || matches!(opcode, op::JSR | op::JSR_W) {
            return Ok(None);
        } else {
            plain_effect(code, at, pool)?
        };
        depth += effect;
        at += length;
    }
    Ok(Some(depth))
}

/// One past the highest local slot the run `start..end` of `code` uses.
fn run_locals(code: &[u8], start: u32, end: u32) -> u32 {
    let mut max = 0;
    let mut at = start as usize;
    while let Some(&opcode) = code.get(at).filter(|_| at < end as usize) {
        max = max.max(local_used_at(code, at));
        at += match opcode {
            op::WIDE if code.get(at + 1) == Some(&op::IINC) => 6,
            op::WIDE => 4,
            _ => op::plain_length(opcode).unwrap_or(1),
        };
    }
    max
}

/// One past the highest local slot the plain instruction at `at` uses (0 for none).
fn local_used_at(code: &[u8], at: usize) -> u32 {
    let opcode = code.get(at).copied().unwrap_or(0);
    let byte = |i: usize| u32::from(code.get(at + i).copied().unwrap_or(0));
    match opcode {
        op::ILOAD..=op::ALOAD | op::ISTORE..=op::ASTORE => byte(1) + u32::from(op::local_size(opcode)),
        op::IINC => byte(1) + 1,
        op::WIDE => {
            let modified = code.get(at + 1).copied().unwrap_or(0);
            let index = (byte(2) << 8) | byte(3);
            if modified == op::IINC {
                index + 1
            } else {
                index + u32::from(op::local_size(modified))
            }
        }
        _ => op::implicit_local(opcode).map_or(0, |i| u32::from(i) + u32::from(op::local_size(opcode))),
    }
}

/// Slots pushed minus slots popped by `insn`.
pub(crate) fn stack_effect<'p>(insn: &Insn, pool: &mut impl CodePool<'p>) -> Result<i32> {
    Ok(match insn {
        Insn::Label(_) => 0,
        Insn::Ldc { opcode, index } => {
            if *opcode == op::LDC2_W {
                2
            } else {
                pool.loaded_slots(*index)?
            }
        }
        Insn::Pool { opcode, index } => match *opcode {
            op::GETSTATIC | op::PUTSTATIC | op::GETFIELD | op::PUTFIELD => {
                let size = pool.field_slots(*index)?;
                match *opcode {
                    op::GETSTATIC => size,
                    op::PUTSTATIC => -size,
                    op::GETFIELD => size - 1,
                    _ => -size - 1,
                }
            }
            op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKESTATIC => {
                let method = pool.method_slots(*index)?;
                let receiver = if *opcode == op::INVOKESTATIC { 0 } else { 1 };
                method.1 - method.0 - receiver
            }
            other => op::fixed_stack_effect(other),
        },
        Insn::InvokeInterface { index, .. } => {
            let method = pool.method_slots(*index)?;
            method.1 - method.0 - 1
        }
        Insn::InvokeDynamic { index } => {
            let method = pool.method_slots(*index)?;
            method.1 - method.0
        }
        Insn::MultiANewArray { dimensions, .. } => 1 - i32::from(*dimensions),
        other => op::fixed_stack_effect(other.opcode().unwrap_or(op::NOP)),
    })
}

/// An entry of `run_locals` for a run [`max_stack`] did not reach.
pub(crate) const NOT_SEEN: u32 = u32::MAX;

/// The deepest operand stack any path through the code reaches.
/// `run_locals` (one entry per element) receives, for each run the pass
/// reaches, the locals it uses (see [`max_locals`]).
pub(crate) fn max_stack<'p>(
    elements: &[Insn],
    code: &[u8],
    run_locals: &mut [u32],
    handlers: &[Handler],
    label_index: &dyn Fn(crate::code::insn::Label) -> Option<usize>,
    pool: &mut impl CodePool<'p>,
) -> Result<u16> {
    let (_, max) = depths(elements, code, run_locals, handlers, label_index, pool)?;
    u16::try_from(max).map_err(|_| ClassFileError::limit_unlocated("the operand stack would pass 65,535 slots"))
}

/// The operand stack depth before each element (`None`: not reached), and
/// the deepest any path reaches; `run_locals` as for [`max_stack`].
pub(crate) fn depths<'p>(
    elements: &[Insn],
    code: &[u8],
    run_locals: &mut [u32],
    handlers: &[Handler],
    label_index: &dyn Fn(crate::code::insn::Label) -> Option<usize>,
    pool: &mut impl CodePool<'p>,
) -> Result<(Vec<Option<i32>>, i32)> {
    let mut depth_at: Vec<Option<i32>> = vec![None; elements.len() + 1];
    let mut pending: Vec<(usize, i32)> = vec![(0, 0)];
    for h in handlers {
        if let Some(i) = label_index(h.handler) {
            pending.push((i, 1));
        }
    }
    let mut max = 0i32;
    while let Some((start, depth)) = pending.pop() {
        let mut i = start;
        let mut depth = depth;
        loop {
            // The verifier demands one depth per instruction, so a second
            // arrival either agrees or the code is broken; never iterate.
            match depth_at.get(i).copied() {
                Some(Some(seen)) if seen == depth => break,
                Some(Some(seen)) => {
                    return Err(ClassFileError::malformed_unlocated(
                        format!("instruction {i} is reached with stack depths {seen} and {depth}"),
                    ))
                }
                Some(None) => {}
                None => break,
            }
            if let Some(slot) = depth_at.get_mut(i) {
                *slot = Some(depth);
            }
            let Some(insn) = elements.get(i) else { break };
            if let Insn::Raw { start, end } = insn {
                // No branch, no block end: just the depths along the run.
                let run = run_depths(code, *start, *end, pool)?;
                if let Some(slot) = run_locals.get_mut(i) {
                    *slot = run.locals;
                }
                if depth + run.low < 0 {
                    return Err(ClassFileError::malformed_unlocated(format!("the operand stack underflows in run {i}")));
                }
                max = max.max(depth + run.high);
                depth += run.net;
                i += 1;
                continue;
            }
            let effect = stack_effect(insn, pool)?;
            // dup-like instructions peak before settling; the net effect is also their peak.
            let after = depth + effect;
            if after < 0 {
                return Err(ClassFileError::malformed_unlocated(format!("the operand stack underflows at instruction {i}")));
            }
            max = max.max(after).max(depth);
            let opcode = insn.opcode();
            // A jsr pushes the return address at its target, not on fall-through.
            let target_depth = if matches!(opcode, Some(op::JSR | op::JSR_W)) { depth + 1 } else { after };
            let mut unbound = None;
            insn.for_each_target(|target| match label_index(target) {
                Some(target_index) => pending.push((target_index, target_depth)),
                None => unbound = Some(target),
            });
            if let Some(target) = unbound {
                return Err(ClassFileError::malformed_unlocated(format!("label {} is not bound", target.id())));
            }
            max = max.max(target_depth);
            match opcode {
                Some(o) if op::ends_block(o) => break,
                Some(op::JSR | op::JSR_W) => depth = after - 1,
                _ => depth = after,
            }
            i += 1;
        }
    }
    Ok((depth_at, max))
}

/// Local slots used by the instructions and frames, at least `initial`'s.
/// `run_locals` holds what [`max_stack`] found of the runs it reached
/// (`NOT_SEEN` for the others): each run is read once.
pub(crate) fn max_locals<'f>(
    elements: &[Insn],
    code: &[u8],
    run_locals: &[u32],
    frames: impl Iterator<Item = &'f Frame>,
    initial: &Frame,
) -> u32 {
    let mut max = initial.local_slot_count() as u32;
    for (i, insn) in elements.iter().enumerate() {
        if let Insn::Raw { start, end } = insn {
            let used = match run_locals.get(i) {
                Some(&used) if used != NOT_SEEN => used,
                _ => self::run_locals(code, *start, *end),
            };
            max = max.max(used);
            continue;
        }
        max = max.max(local_used(insn));
    }
    for frame in frames {
        max = max.max(frame.local_slot_count() as u32);
    }
    max
}

/// One past the highest local slot `insn` reads or writes (0 for none).
fn local_used(insn: &Insn) -> u32 {
    match insn {
        Insn::Local { opcode, index, .. } => u32::from(*index) + u32::from(op::local_size(*opcode)),
        Insn::Iinc { index, .. } => u32::from(*index) + 1,
        Insn::Simple(opcode) => match op::implicit_local(*opcode) {
            Some(index) => u32::from(index) + u32::from(op::local_size(*opcode)),
            None => 0,
        },
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::constant_pool::ConstantPool;
    use crate::read::reader::Reader;
    use crate::write::pool_builder::tests::{add_every_kind, pool_of_every_kind};
    use crate::write::pool_builder::PoolBuilder;

    #[test]
    fn a_member_access_read_from_the_cache_has_the_effect_the_plain_look_up_gives() {
        let mut bytes = Vec::new();
        pool_of_every_kind(&mut bytes);
        let mut known = 0;
        for opcode in (op::GETSTATIC..=op::INVOKEDYNAMIC).chain([op::LDC_W, op::NEW, op::NOP, op::CHECKCAST]) {
            // A pool with nothing looked up yet.
            let mut pool = PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&bytes)).expect("pool"));
            add_every_kind(&mut pool, "2");
            let count = pool.count() as u16;
            for index in 0..count + 2 {
                let [high, low] = index.to_be_bytes();
                let code = [opcode, high, low, 1, 0];
                // Nothing known before the plain look-up has been made.
                assert_eq!(known_member_effect(&code, 0, opcode, &pool), None, "{opcode:#x} {index} first");
                let plain = plain_effect(&code, 0, &mut pool).ok();
                let is_member = (op::GETSTATIC..=op::INVOKEDYNAMIC).contains(&opcode);
                let found = known_member_effect(&code, 0, opcode, &pool);
                // Every access the plain look-up sizes is read from the memo after it.
                assert_eq!(found, plain.filter(|_| is_member), "{opcode:#x} of entry {index}");
                known += usize::from(found.is_some());
            }
        }
        assert_eq!(known, 65, "accesses read from the cache");
    }
}
