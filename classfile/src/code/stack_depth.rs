//! max_stack and max_locals of edited code: a data-flow pass over operand
//! stack depths (not types), so it needs no class hierarchy.
#![forbid(unsafe_code)]

use crate::code::code_model::{Handler, Insn};
use crate::read::constant_pool::{tag, Constant, ConstantPool};
use crate::read::descriptor;
use crate::read::error::{ClassFileError, Result};
use crate::read::opcodes as op;
use crate::code::pool::CodePool;
use crate::code::stack_map::Frame;

/// Descriptor slot sizes by pool index. Every invocation and field access
/// needs its descriptor's sizes, and a class names the same few members over
/// and over: the descriptor is decoded and parsed once per entry, not once
/// per instruction visit.
///
/// Its indexes are one pool's: whoever holds the class's pool holds its
/// cache beside it (`ClassEditor::slots`) and hands both to the depth pass.
#[derive(Debug, Clone, Default)]
pub struct SlotCache {
    /// What is known of each entry, one word each ([`Slots`], 0: nothing):
    /// the list grows as zeroed memory, for every class.
    by_index: Vec<u32>,
}

/// The slot sizes a pool entry's descriptor gives, as an instruction naming
/// the entry needs them, packed in a word: the kind in the top bits, the
/// sizes below (0: not known yet).
struct Slots;

impl Slots {
    const KIND: u32 = 0xF000_0000;
    /// A field descriptor's size.
    const FIELD: u32 = 0x1000_0000;
    /// A method descriptor's parameter slots (below `KIND`, above 4 bits) and return slots (the low 4 bits).
    const METHOD: u32 = 0x2000_0000;
    /// What an `ldc`/`ldc_w` of the entry pushes (kept apart from `FIELD`:
    /// code that loads a field reference with `ldc` must not get its size).
    const LOADED: u32 = 0x3000_0000;
    /// Kept under a Utf8 entry's index: what it gives as a field descriptor
    /// ([`Slots::FIELD`]'s form) or as a method descriptor ([`Slots::METHOD`]'s).
    /// Members of a class share descriptors (fields of a type, methods of a
    /// signature): each is counted once.
    const FIELD_DESCRIPTOR: u32 = 0x4000_0000;
    const METHOD_DESCRIPTOR: u32 = 0x5000_0000;

    /// The sizes under `kind` of word `word`, if it holds that kind.
    fn of(word: u32, kind: u32) -> Option<u32> {
        (word & Slots::KIND == kind).then_some(word & !Slots::KIND)
    }
}

impl SlotCache {
    fn get(&self, index: u16, kind: u32) -> Option<u32> {
        Slots::of(self.by_index.get(usize::from(index)).copied().unwrap_or(0), kind)
    }

    fn put(&mut self, index: u16, kind: u32, sizes: u32) {
        let i = usize::from(index);
        if self.by_index.len() <= i {
            // Grown by halves at least: a class's code names its entries in
            // no order, and growing to each new index was a copy per miss.
            let len = (i + 1).max(self.by_index.len() * 3 / 2).max(64).min(usize::from(u16::MAX) + 1);
            self.by_index.resize(len, 0);
        }
        if let Some(slot) = self.by_index.get_mut(i) {
            *slot = kind | sizes;
        }
    }
}

/// The descriptor bytes of field or method reference (or (Invoke)Dynamic)
/// `index` when the entry is one of the pool as read and its descriptor is
/// plain ASCII: read from the file's bytes, as
/// [`CodePool::with_ascii_reference_descriptor`] reads them, without making
/// text of them. `None` for anything else (an addition, another kind, a
/// descriptor to decode), which takes that look-up. The depth pass makes it
/// in two steps ([`original_descriptor_slots`]).
#[cfg(test)]
fn original_ascii_descriptor<'a>(pool: &ConstantPool<'a>, index: u16) -> Option<&'a [u8]> {
    original_ascii_utf8(pool, original_descriptor_index(pool, index)?)
}

/// The index of the descriptor's Utf8 entry named by field or method
/// reference (or (Invoke)Dynamic) `index` of the pool as read; `None` for
/// an addition or another kind.
fn original_descriptor_index(pool: &ConstantPool<'_>, index: u16) -> Option<u16> {
    let second_index = |content: &[u8]| content.get(2..4).map(|b| u16::from_be_bytes([b[0], b[1]]));
    let (kind, content) = pool.raw_entry(index)?;
    if !matches!(kind, tag::FIELDREF | tag::METHODREF | tag::INTERFACE_METHODREF | tag::DYNAMIC | tag::INVOKE_DYNAMIC) {
        return None;
    }
    let (tag::NAME_AND_TYPE, name_and_type) = pool.raw_entry(second_index(content)?)? else {
        return None;
    };
    second_index(name_and_type)
}

/// The bytes of Utf8 entry `index` of the pool as read, if they are plain ASCII.
fn original_ascii_utf8<'a>(pool: &ConstantPool<'a>, index: u16) -> Option<&'a [u8]> {
    let (tag::UTF8, text) = pool.raw_entry(index)? else {
        return None;
    };
    text.is_ascii().then_some(text)
}

/// What `count` gives for the descriptor of reference `index` of the pool
/// as read, counted once per descriptor entry and kept in `slots` under
/// `kind` (in the word's form, `pack`/`unpack`); `None` where the entry is
/// not one whose descriptor is read in place (an addition, another kind, a
/// descriptor that is not plain ASCII: the pool's look-up then decides),
/// `Some(None)` where `count` fails.
fn original_descriptor_slots<T: Copy>(
    pool: &ConstantPool<'_>,
    index: u16,
    slots: &mut SlotCache,
    kind: u32,
    count: fn(&[u8]) -> Option<T>,
    pack: fn(T) -> Option<u32>,
    unpack: fn(u32) -> T,
) -> Option<Option<T>> {
    let at = original_descriptor_index(pool, index)?;
    if let Some(word) = slots.get(at, kind) {
        return Some(Some(unpack(word)));
    }
    let counted = count(original_ascii_utf8(pool, at)?);
    if let Some(word) = counted.and_then(pack) {
        slots.put(at, kind, word);
    }
    Some(counted)
}

/// A field's size in a word of [`SlotCache`].
fn pack_field(size: i32) -> Option<u32> {
    u32::try_from(size).ok()
}

fn unpack_field(word: u32) -> i32 {
    word as i32
}

/// A method's parameter and return slots in a word of [`SlotCache`]; `None`
/// for sizes that do not fit it (no valid descriptor has them).
fn pack_method((parameters, returns): (i32, i32)) -> Option<u32> {
    let fits = (0..1 << 24).contains(&parameters) && (0..16).contains(&returns);
    fits.then(|| (parameters as u32) << 4 | returns as u32)
}

fn unpack_method(word: u32) -> (i32, i32) {
    ((word >> 4) as i32, (word & 0xF) as i32)
}

/// Slots of the field descriptor of entry `index` (a field reference or Dynamic).
fn field_slots<'p>(index: u16, slots: &mut SlotCache, pool: &mut impl CodePool<'p>) -> Result<i32> {
    if let Some(size) = slots.get(index, Slots::FIELD) {
        return Ok(size as i32);
    }
    let original = original_descriptor_slots(
        pool.original(),
        index,
        slots,
        Slots::FIELD_DESCRIPTOR,
        field_descriptor_slots,
        pack_field,
        unpack_field,
    );
    let counted =
        original.or_else(|| pool.with_ascii_reference_descriptor(index, |d| field_descriptor_slots(d.as_bytes())));
    let size = match counted {
        Some(Some(size)) => size,
        // Errors are reported as the decoding path reports them.
        _ => i32::from(descriptor::parse_field(&pool.reference_descriptor(index)?)?.slots()),
    };
    slots.put(index, Slots::FIELD, size as u32);
    Ok(size)
}

/// Slots an `ldc` or `ldc_w` of entry `index` pushes: 1, or a Dynamic's size.
fn loaded_slots<'p>(index: u16, slots: &mut SlotCache, pool: &mut impl CodePool<'p>) -> Result<i32> {
    // An entry of the pool as read says what it is by its tag.
    match pool.original().raw_entry(index) {
        Some((tag::DYNAMIC, _)) => {}
        Some(_) => return Ok(1),
        None => {}
    }
    if let Some(size) = slots.get(index, Slots::LOADED) {
        return Ok(size as i32);
    }
    let size = match pool.get(index)? {
        Constant::Dynamic { .. } => field_slots(index, slots, pool)?,
        _ => 1,
    };
    slots.put(index, Slots::LOADED, size as u32);
    Ok(size)
}

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
    slots: &mut SlotCache,
    pool: &mut impl CodePool<'p>,
) -> Result<RunDepths> {
    let (mut depth, mut low, mut high, mut locals) = (0i32, 0i32, 0i32, 0u32);
    let mut at = start as usize;
    while at < end as usize {
        locals = locals.max(local_used_at(code, at));
        let (length, effect) = plain_effect(code, at, slots, pool)?;
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
    slots: &mut SlotCache,
    pool: &mut impl CodePool<'p>,
) -> Result<(usize, i32)> {
    let bad = |at: usize| ClassFileError::malformed(0, format!("code offset {at}: not an instruction a run may hold"));
    let u16_at = |at: usize| code.get(at..at + 2).map(|b| u16::from_be_bytes([b[0], b[1]])).ok_or_else(|| bad(at));
    let opcode = code.get(at).copied().ok_or_else(|| bad(at))?;
    if let (length @ 1.., effect) = FIXED_PLAIN[usize::from(opcode)] {
        return Ok((usize::from(length), i32::from(effect)));
    }
    Ok(match opcode {
        op::LDC => (2, loaded_slots(u16::from(code.get(at + 1).copied().ok_or_else(|| bad(at))?), slots, pool)?),
        op::LDC_W => (3, loaded_slots(u16_at(at + 1)?, slots, pool)?),
        op::GETSTATIC | op::PUTSTATIC | op::GETFIELD | op::PUTFIELD => {
            let size = field_slots(u16_at(at + 1)?, slots, pool)?;
            let effect = match opcode {
                op::GETSTATIC => size,
                op::PUTSTATIC => -size,
                op::GETFIELD => size - 1,
                _ => -size - 1,
            };
            (3, effect)
        }
        op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKESTATIC => {
            let (parameters, returns) = method_slots(u16_at(at + 1)?, slots, pool)?;
            let receiver = if opcode == op::INVOKESTATIC { 0 } else { 1 };
            (3, returns - parameters - receiver)
        }
        op::INVOKEINTERFACE | op::INVOKEDYNAMIC => {
            let (parameters, returns) = method_slots(u16_at(at + 1)?, slots, pool)?;
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
/// `slots` knows its entry's sizes; `None` for any other instruction, or an
/// entry not looked up yet ([`plain_effect`] then finds it). Most of what a
/// walk meets that no constant decides is such an access, met again: this
/// reads the known sizes in place, without [`plain_effect`]'s two calls.
#[inline]
fn known_member_effect(code: &[u8], at: usize, opcode: u8, slots: &SlotCache) -> Option<(usize, i32)> {
    if !(op::GETSTATIC..=op::INVOKEDYNAMIC).contains(&opcode) {
        return None;
    }
    let index = u16::from_be_bytes([*code.get(at + 1)?, *code.get(at + 2)?]);
    if opcode <= op::PUTFIELD {
        let size = slots.get(index, Slots::FIELD)? as i32;
        let effect = match opcode {
            op::GETSTATIC => size,
            op::PUTSTATIC => -size,
            op::GETFIELD => size - 1,
            _ => -size - 1,
        };
        return Some((3, effect));
    }
    let sizes = slots.get(index, Slots::METHOD)?;
    let (parameters, returns) = ((sizes >> 4) as i32, (sizes & 0xF) as i32);
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
    slots: &mut SlotCache,
    pool: &mut impl CodePool<'p>,
) -> Result<Option<i32>> {
    let mut depth = depth;
    let mut at = start as usize;
    while at < end as usize {
        let opcode = code.get(at).copied().unwrap_or(op::NOP);
        let (length, effect) = if let (length @ 1.., effect) = FIXED_PLAIN[usize::from(opcode)] {
            (usize::from(length), i32::from(effect))
        } else if let Some(known) = known_member_effect(code, at, opcode, slots) {
            known
        } else if op::is_conditional_branch(opcode) {
            (3, op::fixed_stack_effect(opcode))
        } else if op::ends_block(opcode) || matches!(opcode, op::JSR | op::JSR_W) {
            return Ok(None);
        } else {
            plain_effect(code, at, slots, pool)?
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

/// Parameter and return slots of the method descriptor of entry `index`.
fn method_slots<'p>(index: u16, slots: &mut SlotCache, pool: &mut impl CodePool<'p>) -> Result<(i32, i32)> {
    if let Some(sizes) = slots.get(index, Slots::METHOD) {
        return Ok(unpack_method(sizes));
    }
    let original = original_descriptor_slots(
        pool.original(),
        index,
        slots,
        Slots::METHOD_DESCRIPTOR,
        method_descriptor_slots,
        pack_method,
        unpack_method,
    );
    let counted =
        original.or_else(|| pool.with_ascii_reference_descriptor(index, |d| method_descriptor_slots(d.as_bytes())));
    let sizes = match counted {
        Some(Some(sizes)) => sizes,
        _ => descriptor::method_slot_sizes(&pool.reference_descriptor(index)?)?,
    };
    // Sizes that do not fit the word (no valid descriptor has them) are not kept.
    if let Some(word) = pack_method(sizes) {
        slots.put(index, Slots::METHOD, word);
    }
    Ok(sizes)
}

/// The slots of the field type that starts `bytes` at `at`, and where it
/// ends; `None` where [`descriptor::parse_field`] would find no type.
fn type_slots(bytes: &[u8], at: usize) -> Option<(u16, usize)> {
    let dims = bytes.get(at..)?.iter().take_while(|&&b| b == b'[').count();
    if dims > 255 {
        return None;
    }
    let element = at + dims;
    let (slots, end) = match *bytes.get(element)? {
        b'Z' | b'B' | b'C' | b'S' | b'I' | b'F' => (1, element + 1),
        b'J' | b'D' => (2, element + 1),
        // An array's element class may not be named as an array.
        b'L' if dims > 0 && bytes.get(element + 1) == Some(&b'[') => return None,
        b'L' => (1, element + 1 + descriptor::semicolon(bytes.get(element + 1..)?)? + 1),
        _ => return None,
    };
    Some((if dims > 0 { 1 } else { slots }, end))
}

/// [`descriptor::parse_field`]'s slots, counted on the bytes: every field
/// access the depth pass meets first in a class needs them, and parsing
/// the type cost more than the rest of the look-up. `None` where the parse
/// fails (its error is then the parse's).
fn field_descriptor_slots(bytes: &[u8]) -> Option<i32> {
    let (slots, end) = type_slots(bytes, 0)?;
    (end == bytes.len()).then_some(i32::from(slots))
}

/// [`descriptor::method_slot_sizes`], counted on the bytes (see
/// [`field_descriptor_slots`]); `None` where it fails.
fn method_descriptor_slots(bytes: &[u8]) -> Option<(i32, i32)> {
    if bytes.first() != Some(&b'(') {
        return None;
    }
    let (mut parameters, mut at) = (0u16, 1usize);
    while *bytes.get(at)? != b')' {
        let (slots, end) = type_slots(bytes, at)?;
        parameters = parameters.wrapping_add(slots);
        at = end;
    }
    let returns = match bytes.get(at + 1..)? {
        b"V" => 0,
        _ => {
            let (slots, end) = type_slots(bytes, at + 1)?;
            if end != bytes.len() {
                return None;
            }
            slots
        }
    };
    Some((i32::from(parameters), i32::from(returns)))
}

/// Slots pushed minus slots popped by `insn`.
pub(crate) fn stack_effect<'p>(insn: &Insn, slots: &mut SlotCache, pool: &mut impl CodePool<'p>) -> Result<i32> {
    Ok(match insn {
        Insn::Label(_) => 0,
        Insn::Ldc { opcode, index } => {
            if *opcode == op::LDC2_W {
                2
            } else {
                loaded_slots(*index, slots, pool)?
            }
        }
        Insn::Pool { opcode, index } => match *opcode {
            op::GETSTATIC | op::PUTSTATIC | op::GETFIELD | op::PUTFIELD => {
                let size = field_slots(*index, slots, pool)?;
                match *opcode {
                    op::GETSTATIC => size,
                    op::PUTSTATIC => -size,
                    op::GETFIELD => size - 1,
                    _ => -size - 1,
                }
            }
            op::INVOKEVIRTUAL | op::INVOKESPECIAL | op::INVOKESTATIC => {
                let method = method_slots(*index, slots, pool)?;
                let receiver = if *opcode == op::INVOKESTATIC { 0 } else { 1 };
                method.1 - method.0 - receiver
            }
            other => op::fixed_stack_effect(other),
        },
        Insn::InvokeInterface { index, .. } => {
            let method = method_slots(*index, slots, pool)?;
            method.1 - method.0 - 1
        }
        Insn::InvokeDynamic { index } => {
            let method = method_slots(*index, slots, pool)?;
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
    label_index: &dyn Fn(crate::code::code_model::Label) -> Option<usize>,
    slots: &mut SlotCache,
    pool: &mut impl CodePool<'p>,
) -> Result<u16> {
    let (_, max) = depths(elements, code, run_locals, handlers, label_index, slots, pool)?;
    u16::try_from(max).map_err(|_| ClassFileError::limit(0, "the operand stack would pass 65,535 slots"))
}

/// The operand stack depth before each element (`None`: not reached), and
/// the deepest any path reaches; `run_locals` as for [`max_stack`].
pub(crate) fn depths<'p>(
    elements: &[Insn],
    code: &[u8],
    run_locals: &mut [u32],
    handlers: &[Handler],
    label_index: &dyn Fn(crate::code::code_model::Label) -> Option<usize>,
    slots: &mut SlotCache,
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
                    return Err(ClassFileError::malformed(
                        0,
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
                let run = run_depths(code, *start, *end, slots, pool)?;
                if let Some(slot) = run_locals.get_mut(i) {
                    *slot = run.locals;
                }
                if depth + run.low < 0 {
                    return Err(ClassFileError::malformed(0, format!("the operand stack underflows in run {i}")));
                }
                max = max.max(depth + run.high);
                depth += run.net;
                i += 1;
                continue;
            }
            let effect = stack_effect(insn, slots, pool)?;
            // dup-like instructions peak before settling; the net effect is also their peak.
            let after = depth + effect;
            if after < 0 {
                return Err(ClassFileError::malformed(0, format!("the operand stack underflows at instruction {i}")));
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
                return Err(ClassFileError::malformed(0, format!("label {} is not bound", target.id())));
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
    use crate::read::reader::Reader;
    use crate::write::pool_builder::PoolBuilder;

    /// Every string of up to `max_len` characters of `alphabet`.
    fn every_string(alphabet: &[u8], max_len: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..max_len {
            last = last.iter().flat_map(|s| alphabet.iter().map(move |&c| format!("{s}{}", c as char))).collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    /// A pool of every kind of entry the depth pass looks up, written and
    /// read back (so they are entries of the pool as read), with the same
    /// kinds added after it.
    fn pool_of_every_kind(bytes: &mut Vec<u8>) {
        let empty = [0u8, 1];
        let mut pool = PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&empty)).expect("empty pool"));
        add_every_kind(&mut pool, "");
        pool.write(bytes);
    }

    fn add_every_kind(pool: &mut PoolBuilder<'_>, suffix: &str) {
        let owner = format!("p/Owner{suffix}");
        pool.method_ref(&owner, "m", "(IJ[DLjava/lang/String;)J").expect("method");
        pool.interface_method_ref(&owner, "i", "()V").expect("interface method");
        pool.field_ref(&owner, "f", "D").expect("field");
        pool.field_ref(&owner, "g", "[J").expect("field");
        pool.method_ref(&owner, "u", "(Lp/\u{e9};)V").expect("a descriptor to decode");
        pool.field_ref(&owner, "bad", "(I)V").expect("a method descriptor on a field");
        pool.invoke_dynamic(0, "run", "(I)Ljava/lang/Runnable;").expect("invokedynamic");
        let name_and_type = pool.name_and_type("d", "J").expect("name and type");
        pool.add(Constant::Dynamic { bootstrap_method: 0, name_and_type }).expect("dynamic");
        pool.string("text").expect("string");
        pool.add(Constant::Long(7)).expect("long");
        pool.integer(3).expect("integer");
    }

    #[test]
    fn descriptors_read_from_the_file_are_what_the_pool_gives_for_every_entry() {
        let mut bytes = Vec::new();
        pool_of_every_kind(&mut bytes);
        let mut pool = PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&bytes)).expect("pool"));
        add_every_kind(&mut pool, "2");
        let count = pool.count() as u16;
        let mut read_in_place = 0;
        for index in 0..count + 2 {
            let given = pool.with_ascii_reference_descriptor(index, |d| d.as_bytes().to_vec());
            if let Some(found) = original_ascii_descriptor(pool.original(), index) {
                assert_eq!(Some(found.to_vec()), given, "entry {index}");
                read_in_place += 1;
            }
            // Each look-up of the depth pass gives what the plain one does.
            let plain_method = pool.reference_descriptor(index).and_then(|d| descriptor::method_slot_sizes(&d));
            let method = method_slots(index, &mut SlotCache::default(), &mut pool);
            assert_eq!(method.ok(), plain_method.ok(), "method slots of entry {index}");
            let plain_field = pool.reference_descriptor(index).and_then(|d| Ok(i32::from(descriptor::parse_field(&d)?.slots())));
            let field = field_slots(index, &mut SlotCache::default(), &mut pool);
            assert_eq!(field.ok(), plain_field.ok(), "field slots of entry {index}");
            let plain_loaded = match pool.get(index) {
                Ok(Constant::Dynamic { .. }) => Some(2),
                Ok(_) => Some(1),
                Err(_) => None,
            };
            assert_eq!(loaded_slots(index, &mut SlotCache::default(), &mut pool).ok(), plain_loaded, "ldc {index}");
        }
        // The ASCII descriptors of the pool as read: five members, the invokedynamic, the Dynamic.
        assert_eq!(read_in_place, 7);
    }

    /// References naming one descriptor entry (fields of one type, methods
    /// of one signature, a field and a method naming the same text) share
    /// its count, kept once: each gets what the plain look-up gives it.
    #[test]
    fn references_sharing_a_descriptor_get_what_the_plain_look_up_gives_each() {
        let empty = [0u8, 1];
        let mut pool = PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&empty)).expect("empty pool"));
        for owner in ["p/A", "p/B"] {
            pool.method_ref(owner, "m", "(IJ[D)D").expect("method");
            pool.interface_method_ref(owner, "i", "(IJ[D)D").expect("interface method");
            pool.field_ref(owner, "f", "J").expect("field");
            pool.field_ref(owner, "g", "(IJ[D)D").expect("a method descriptor on a field");
            pool.method_ref(owner, "h", "J").expect("a field descriptor on a method");
            pool.field_ref(owner, "u", "Lp/\u{e9};").expect("a descriptor to decode");
        }
        let mut bytes = Vec::new();
        pool.write(&mut bytes);
        let mut pool = PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&bytes)).expect("pool"));
        let count = pool.count() as u16;
        let mut slots = SlotCache::default();
        let (mut methods, mut fields) = (0, 0);
        for index in 0..count + 2 {
            let plain_method = pool.reference_descriptor(index).and_then(|d| descriptor::method_slot_sizes(&d)).ok();
            let plain_field =
                pool.reference_descriptor(index).and_then(|d| Ok(i32::from(descriptor::parse_field(&d)?.slots()))).ok();
            // Both look-ups of every entry, through one cache.
            assert_eq!(method_slots(index, &mut slots, &mut pool).ok(), plain_method, "method slots of entry {index}");
            assert_eq!(field_slots(index, &mut slots, &mut pool).ok(), plain_field, "field slots of entry {index}");
            methods += usize::from(plain_method.is_some());
            fields += usize::from(plain_field.is_some());
        }
        // By descriptor, whatever the reference: `m`, `i` and `g` of each owner; `f`, `h` and `u`.
        assert_eq!((methods, fields), (6, 6));
        // Kept under each descriptor entry: `(IJ[D)D`, `J`, and nothing for the one to decode.
        let kept = (0..count).filter(|&i| {
            slots.get(i, Slots::METHOD_DESCRIPTOR).is_some() || slots.get(i, Slots::FIELD_DESCRIPTOR).is_some()
        });
        assert_eq!(kept.count(), 2);
    }

    #[test]
    fn a_member_access_read_from_the_cache_has_the_effect_the_plain_look_up_gives() {
        let mut bytes = Vec::new();
        pool_of_every_kind(&mut bytes);
        let mut pool = PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&bytes)).expect("pool"));
        add_every_kind(&mut pool, "2");
        let count = pool.count() as u16;
        let mut known = 0;
        for opcode in (op::GETSTATIC..=op::INVOKEDYNAMIC).chain([op::LDC_W, op::NEW, op::NOP, op::CHECKCAST]) {
            let mut slots = SlotCache::default();
            for index in 0..count + 2 {
                let [high, low] = index.to_be_bytes();
                let code = [opcode, high, low, 1, 0];
                // Nothing known before the plain look-up has been made.
                assert_eq!(known_member_effect(&code, 0, opcode, &slots), None, "{opcode:#x} {index} first");
                let plain = plain_effect(&code, 0, &mut slots, &mut pool).ok();
                let is_member = (op::GETSTATIC..=op::INVOKEDYNAMIC).contains(&opcode);
                let found = known_member_effect(&code, 0, opcode, &slots);
                // Every access the plain look-up sizes is read from the cache after it.
                assert_eq!(found, plain.filter(|_| is_member), "{opcode:#x} of entry {index}");
                known += usize::from(found.is_some());
            }
        }
        assert_eq!(known, 65, "accesses read from the cache");
    }

    #[test]
    fn the_cache_gives_back_what_it_was_given_by_kind() {
        let mut cache = SlotCache::default();
        cache.put(300, Slots::METHOD, 255 << 4 | 2);
        cache.put(2, Slots::FIELD, 2);
        assert_eq!(cache.get(300, Slots::METHOD), Some(255 << 4 | 2));
        assert_eq!(cache.get(300, Slots::FIELD), None);
        assert_eq!(cache.get(2, Slots::FIELD), Some(2));
        assert_eq!(cache.get(2, Slots::LOADED), None);
        assert_eq!(cache.get(3, Slots::FIELD), None);
        assert_eq!(cache.get(60_000, Slots::METHOD), None);
    }

    #[test]
    fn slots_counted_on_the_bytes_are_the_parsed_descriptors_and_fail_where_parsing_fails() {
        let mut descriptors = every_string(b"()[LJDIV;Z", 5);
        descriptors.extend(
            [
                "(Ljava/lang/String;[[DJ)[Ljava/lang/Object;",
                "(IJLjava/util/List;)J",
                "([J[[Ljava/lang/String;D)D",
                "(L;)V",
                "(La)b;[La);)La(;",
                "(Ljava/lang/String)V",
                "(I)VV",
                "(I)",
                "Ljava/lang/String;",
                "Ljava/lang/String;J",
                "[[[[J",
                "[L[a;",
                "([L[;)V",
            ]
            .map(String::from),
        );
        // Class names of every length up to a few words, at every alignment,
        // ended or not: the `;` is looked for eight bytes at a time.
        for prefix in ["(", "(I", "(JZ", "([[", "(BCSI", "(IIIIIII", "Ljava/la"] {
            for len in 0..=27 {
                let name: String = (0..len).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
                descriptors.push(format!("{prefix}L{name};)V"));
                descriptors.push(format!("{prefix}L{name})V"));
                descriptors.push(format!("{prefix})L{name};"));
                descriptors.push(format!("{prefix})L{name}"));
                descriptors.push(format!("L{name};"));
                descriptors.push(format!("[L{name};"));
                descriptors.push(format!("L{name}"));
            }
        }
        descriptors.push(format!("({}I)V", "[".repeat(255)));
        descriptors.push(format!("({}I)V", "[".repeat(256)));
        descriptors.push(format!("{}J", "[".repeat(256)));
        for d in &descriptors {
            let parsed = descriptor::method_slot_sizes(d).ok();
            assert_eq!(method_descriptor_slots(d.as_bytes()), parsed, "method {d:?}");
            let parsed = descriptor::parse_field(d).ok().map(|t| i32::from(t.slots()));
            assert_eq!(field_descriptor_slots(d.as_bytes()), parsed, "field {d:?}");
        }
    }
}
