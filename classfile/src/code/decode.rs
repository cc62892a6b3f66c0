//! The one instruction decoder: an instruction from its bytes, for the lift
//! (`code_model.rs`), the analyses that walk runs of original code, and the
//! pre-write check.
#![forbid(unsafe_code)]

use crate::code::insn::{Insn, Label};
use crate::read::error::{ClassFileError, Result};
use crate::read::opcodes::{self as op, Operands};
use crate::read::reader::Reader;

/// The instructions of the run `start..end` of `code`, which holds no branch.
pub(crate) fn run_instructions(code: &[u8], start: u32, end: u32) -> impl Iterator<Item = Insn> + '_ {
    let mut r = Reader::window(code, start as usize, end.saturating_sub(start) as usize).ok();
    std::iter::from_fn(move || {
        let reader = r.as_mut()?;
        if reader.is_empty() {
            return None;
        }
        // Checked when the code was lifted; a run never holds a branch.
        decode_one(reader, &mut |_, _, at| Err(ClassFileError::malformed(at, "a branch in a run"))).ok()
    })
}

pub(crate) fn expand_runs(elements: Vec<Insn>, code: &[u8]) -> Vec<Insn> {
    let mut out = Vec::with_capacity(elements.len() + code.len() / 2);
    for insn in elements {
        match insn {
            Insn::Raw { start, end } => out.extend(run_instructions(code, start, end)),
            other => out.push(other),
        }
    }
    out
}

/// The instruction at code offset `at` of `code` and the offset of the next
/// one; a branch target is the label of its code offset (`Label(offset)`),
/// checked to lie inside the code. For readers of finished code (the
/// pre-write check) that walk it once, without a model.
pub(crate) fn decode_at(code: &[u8], at: u32) -> Result<(Insn, u32)> {
    let mut r = Reader::window(code, at as usize, code.len().saturating_sub(at as usize))?;
    let length = code.len() as i64;
    let insn = decode_one(&mut r, &mut |from, delta, file_at| {
        let target = i64::from(from) + delta;
        if (0..length).contains(&target) {
            Ok(Label(target as u32))
        } else {
            Err(ClassFileError::malformed(file_at, format!("a jump from code offset {from} to {target}, outside the code")))
        }
    })?;
    Ok((insn, r.position() as u32))
}

/// Decodes the instruction at the reader's position (a code offset);
/// `target(from, delta, at)` makes the label of a branch target.
pub(crate) fn decode_one(r: &mut Reader<'_>, target: &mut dyn FnMut(u32, i64, usize) -> Result<Label>) -> Result<Insn> {
    let offset = r.position() as u32;
    let at = r.offset();
    let opcode = r.u8()?;
    Ok(match op::operands(opcode) {
        Operands::None => Insn::Simple(opcode),
        Operands::Byte => Insn::Push { opcode, value: i16::from(r.u8()? as i8) },
        Operands::Short => Insn::Push { opcode, value: r.u16()? as i16 },
        Operands::PoolByte => Insn::Ldc { opcode, index: u16::from(r.u8()?) },
        Operands::Pool if matches!(opcode, op::LDC_W | op::LDC2_W) => Insn::Ldc { opcode, index: r.u16()? },
        Operands::Pool => Insn::Pool { opcode, index: r.u16()? },
        Operands::Local => Insn::Local { opcode, index: u16::from(r.u8()?), wide: false },
        Operands::Iinc => Insn::Iinc { index: u16::from(r.u8()?), delta: i16::from(r.u8()? as i8), wide: false },
        Operands::Branch => {
            let delta = i64::from(r.u16()? as i16);
            Insn::Branch { opcode, target: target(offset, delta, at)? }
        }
        Operands::BranchWide => {
            let delta = i64::from(r.u32()? as i32);
            Insn::Branch { opcode, target: target(offset, delta, at)? }
        }
        Operands::TableSwitch => {
            r.skip(switch_padding(offset))?;
            let default = target(offset, i64::from(r.u32()? as i32), at)?;
            let low = r.u32()? as i32;
            let high = r.u32()? as i32;
            let count = i64::from(high) - i64::from(low) + 1;
            if count < 1 || count * 4 > r.remaining() as i64 {
                return Err(ClassFileError::malformed(at, format!("tableswitch range {low}..{high} does not fit")));
            }
            let mut targets = Vec::with_capacity(count as usize);
            for _ in 0..count {
                targets.push(target(offset, i64::from(r.u32()? as i32), at)?);
            }
            Insn::TableSwitch { default, low, targets }
        }
        Operands::LookupSwitch => {
            r.skip(switch_padding(offset))?;
            let default = target(offset, i64::from(r.u32()? as i32), at)?;
            let count = i64::from(r.u32()? as i32);
            if count < 0 || count * 8 > r.remaining() as i64 {
                return Err(ClassFileError::malformed(at, format!("lookupswitch with {count} pairs does not fit")));
            }
            let mut pairs = Vec::with_capacity(count as usize);
            for _ in 0..count {
                let key = r.u32()? as i32;
                pairs.push((key, target(offset, i64::from(r.u32()? as i32), at)?));
            }
            Insn::LookupSwitch { default, pairs }
        }
        Operands::InvokeInterface => {
            let index = r.u16()?;
            let count = r.u8()?;
            r.u8()?;
            Insn::InvokeInterface { index, count }
        }
        Operands::InvokeDynamic => {
            let index = r.u16()?;
            r.u16()?;
            Insn::InvokeDynamic { index }
        }
        Operands::NewArray => Insn::NewArray { atype: r.u8()? },
        Operands::MultiANewArray => Insn::MultiANewArray { index: r.u16()?, dimensions: r.u8()? },
        Operands::Wide => {
            let opcode = r.u8()?;
            match op::operands(opcode) {
                Operands::Local => Insn::Local { opcode, index: r.u16()?, wide: true },
                Operands::Iinc => Insn::Iinc { index: r.u16()?, delta: r.u16()? as i16, wide: true },
                _ => return Err(ClassFileError::malformed(at, format!("wide cannot modify opcode {opcode}"))),
            }
        }
        Operands::Invalid => return Err(ClassFileError::malformed(at, format!("invalid opcode {opcode}"))),
    })
}

/// Bytes between a switch opcode at `offset` and its 4-byte-aligned operands.
pub(crate) fn switch_padding(offset: u32) -> usize {
    ((4 - (offset + 1) % 4) % 4) as usize
}
