//! Generated code encoded as it is generated, for a splice to drop in.
//!
//! A stage describes the code it adds once, as a sequence of [`Insn`]s sent
//! to an [`InsnSink`]: a `Vec<Insn>` for the code model (the general path), or
//! a [`ChunkWriter`], which encodes each instruction on arrival. Generated code
//! holds no switch, so its bytes do not depend on where it lands: a [`Chunk`]
//! is laid out once and copied into place, and only its jumps to labels
//! outside it are patched there.
#![forbid(unsafe_code)]

use crate::code::assembler::emit;
use crate::code::insn::{Insn, Label};
use crate::code::encode::Put;
use crate::read::error::ClassFileError;
use crate::read::opcodes as op;

/// Where generated instructions go.
pub trait InsnSink {
    /// Takes the next instruction.
    fn push(&mut self, insn: Insn);

    /// Takes each of `insns` in order.
    fn push_all<I: IntoIterator<Item = Insn>>(&mut self, insns: I) {
        for insn in insns {
            self.push(insn);
        }
    }
}

impl InsnSink for Vec<Insn> {
    fn push(&mut self, insn: Insn) {
        Vec::push(self, insn);
    }

    fn push_all<I: IntoIterator<Item = Insn>>(&mut self, insns: I) {
        self.extend(insns);
    }
}

/// Encoded generated code.
#[derive(Debug, Clone, Default)]
pub struct Chunk {
    /// The encoded instructions.
    pub bytes: Vec<u8>,
    /// The labels bound in the chunk, with their offset in it.
    pub labels: Vec<(Label, u32)>,
    /// The 16-bit branches to labels outside the chunk: where each one is in
    /// the chunk, and its target.
    pub jumps: Vec<(u32, Label)>,
    /// The deepest the stack gets in the chunk, over the depth it starts at.
    pub(crate) peak: u16,
}

impl Chunk {
    /// Its length in bytes.
    pub fn len(&self) -> u32 {
        self.bytes.len() as u32
    }

    /// Whether it holds no code.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The chunk borrowed, as a splice places it.
    pub fn view(&self) -> ChunkView<'_> {
        ChunkView { bytes: &self.bytes, labels: &self.labels, jumps: &self.jumps }
    }
}

/// A chunk's bytes, labels and jumps, wherever they are kept (a template
/// packs the tables of its chunks together).
#[derive(Debug, Clone, Copy)]
pub struct ChunkView<'c> {
    /// The encoded instructions.
    pub bytes: &'c [u8],
    /// As [`Chunk::labels`].
    pub labels: &'c [(Label, u32)],
    /// As [`Chunk::jumps`].
    pub jumps: &'c [(u32, Label)],
}

/// A chunk as one method places it: its bytes with some operands replaced
/// and its labels moved. A template's chunk is shared by every method of a
/// shape; each places it with its own pool indexes, identifier and labels,
/// and its bytes are copied once, into the method's code.
#[derive(Debug, Clone, Copy)]
pub struct Placed<'c> {
    chunk: ChunkView<'c>,
    /// Added to every label the chunk binds or jumps to.
    label_shift: u32,
    patches: &'c [OperandValue],
    peak: u16,
}

/// A value written over a chunk's bytes where it is placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OperandValue {
    /// Where the operand is, in the chunk.
    pub at: u32,
    /// The value written there.
    pub value: u16,
    /// One byte (a `bipush` operand) or two.
    pub wide: bool,
}

impl<'c> Placed<'c> {
    /// `chunk` placed with its labels moved up by `label_shift`, the operands of `patches` written over it, its stack `peak` deep at most.
    pub fn new(chunk: ChunkView<'c>, label_shift: u32, patches: &'c [OperandValue], peak: u16) -> Self {
        Placed { chunk, label_shift, patches, peak }
    }

    /// The chunk's length in bytes.
    pub fn len(&self) -> u32 {
        self.chunk.bytes.len() as u32
    }

    /// Whether the chunk holds no code.
    pub fn is_empty(&self) -> bool {
        self.chunk.bytes.is_empty()
    }

    /// The deepest the stack gets in the chunk, over the depth it starts at.
    pub fn peak(&self) -> u16 {
        self.peak
    }

    /// The labels bound in the chunk, with their offset in it.
    pub fn labels(&self) -> impl Iterator<Item = (Label, u32)> + 'c {
        let shift = self.label_shift;
        self.chunk.labels.iter().map(move |&(l, at)| (Label(l.0 + shift), at))
    }

    /// The 16-bit branches to labels outside the chunk: where, and the target.
    pub fn jumps(&self) -> impl Iterator<Item = (u32, Label)> + 'c {
        let shift = self.label_shift;
        self.chunk.jumps.iter().map(move |&(at, l)| (at, Label(l.0 + shift)))
    }

    /// Appends the chunk's bytes, operands replaced, to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        write_patched(self.chunk.bytes, self.patches, out);
    }
}

/// Appends `bytes` to `out` with `patches` written over them.
pub fn write_patched(bytes: &[u8], patches: &[OperandValue], out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(bytes);
    let placed = &mut out[start..];
    for patch in patches {
        let at = patch.at as usize;
        if patch.wide {
            if let Some(slot) = placed.get_mut(at..at + 2) {
                slot.copy_from_slice(&patch.value.to_be_bytes());
            }
        } else if let Some(slot) = placed.get_mut(at) {
            *slot = patch.value as u8;
        }
    }
}

impl<'c> From<&'c Chunk> for Placed<'c> {
    /// The chunk as it is.
    fn from(chunk: &'c Chunk) -> Self {
        Placed { chunk: chunk.view(), label_shift: 0, patches: &[], peak: chunk.peak }
    }
}

/// An [`InsnSink`] that encodes: one pass, no layout step.
#[derive(Debug, Default)]
pub struct ChunkWriter {
    chunk: Chunk,
    /// Branches to labels of this chunk not bound yet.
    pending: Vec<(u32, Label)>,
    /// Something a chunk cannot hold (a switch, a run of original code, a
    /// wide branch), or a branch inside it past 16 bits.
    refused: bool,
    /// The instructions (since recording began), kept when the caller needs
    /// them again (to find the chunk's stack depth the first time it meets
    /// its shape).
    recorded: Option<Vec<Insn>>,
    /// Where each pool index and pushed int was written, when asked for
    /// ([`ChunkWriter::logging_operands`]): the places a copy of the chunk
    /// patches.
    operands: Option<Vec<(u32, Operand)>>,
}

/// An operand of an encoded instruction that a copy of a chunk may patch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    /// A two-byte pool index.
    Pool(u16),
    /// The value of a `bipush` (one byte) or `sipush` (two).
    Int(i16),
}

impl ChunkWriter {
    /// `record`: also keep the instructions ([`ChunkWriter::recorded`]).
    pub fn new(record: bool) -> Self {
        // Room for a prologue or a tail: one allocation each.
        let chunk = Chunk { bytes: Vec::with_capacity(128), labels: Vec::with_capacity(8), ..Chunk::default() };
        ChunkWriter {
            chunk,
            pending: Vec::with_capacity(8),
            recorded: record.then(Vec::new),
            refused: false,
            operands: None,
        }
    }

    /// From here on, keeps the instructions (`record`) or not.
    pub fn recording(mut self, record: bool) -> Self {
        self.recorded = record.then(Vec::new);
        self
    }

    /// The instructions kept so far (see [`ChunkWriter::recording`]); `None` when not recording.
    pub fn recorded(&self) -> Option<&[Insn]> {
        self.recorded.as_deref()
    }

    /// From here on, also logs where each operand goes ([`ChunkWriter::operands`]).
    pub fn logging_operands(mut self) -> Self {
        self.operands = Some(Vec::new());
        self
    }

    /// Where each operand logged went (see [`ChunkWriter::logging_operands`]).
    pub fn operands(&self) -> &[(u32, Operand)] {
        self.operands.as_deref().unwrap_or_default()
    }

    /// The instructions kept so far, taken out.
    pub fn take_recorded(&mut self) -> Vec<Insn> {
        self.recorded.take().unwrap_or_default()
    }

    /// The chunk, whose stack goes `peak` deeper than where it starts; `None`
    /// if the instructions cannot be encoded ahead of their place.
    pub fn finish(mut self, peak: u16) -> Option<Chunk> {
        if self.refused {
            return None;
        }
        self.chunk.jumps = self.pending;
        self.chunk.peak = peak;
        Some(self.chunk)
    }

    fn bind(&mut self, label: Label, at: u32) {
        self.chunk.labels.push((label, at));
        let bytes = &mut self.chunk.bytes;
        let mut refused = false;
        self.pending.retain(|&(from, target)| {
            if target != label {
                return true;
            }
            refused |= !patch_branch(bytes, from, at);
            false
        });
        self.refused |= refused;
    }
}

/// Writes the offset of the branch at `from` to `to`; false if it needs more than 16 bits.
pub(crate) fn patch_branch(bytes: &mut [u8], from: u32, to: u32) -> bool {
    let Ok(delta) = i16::try_from(i64::from(to) - i64::from(from)) else {
        return false;
    };
    match bytes.get_mut(from as usize + 1..from as usize + 3) {
        Some(operand) => {
            operand.copy_from_slice(&delta.to_be_bytes());
            true
        }
        None => false,
    }
}

impl InsnSink for ChunkWriter {
    fn push(&mut self, insn: Insn) {
        let at = self.chunk.bytes.len() as u32;
        match &insn {
            Insn::Label(label) => self.bind(*label, at),
            Insn::Branch { opcode, target } if !matches!(*opcode, op::GOTO_W | op::JSR | op::JSR_W) => {
                self.chunk.bytes.u8(*opcode);
                self.chunk.bytes.u16(0);
                match self.chunk.labels.iter().find(|(l, _)| l == target) {
                    Some(&(_, bound)) => self.refused |= !patch_branch(&mut self.chunk.bytes, at, bound),
                    None => self.pending.push((at, *target)),
                }
            }
            Insn::Branch { .. } | Insn::TableSwitch { .. } | Insn::LookupSwitch { .. } | Insn::Raw { .. } => {
                self.refused = true
            }
            _ => {
                let no_label = |l: Label| Err(ClassFileError::malformed_unlocated(format!("label {} in a chunk", l.0)));
                self.refused |= emit(&insn, at, false, &no_label, &[], &mut self.chunk.bytes).is_err();
                if let Some(log) = &mut self.operands {
                    let wide_ldc = self.chunk.bytes.get(at as usize).is_some_and(|&o| o != op::LDC);
                    match insn {
                        Insn::Pool { index, .. }
                        | Insn::InvokeInterface { index, .. }
                        | Insn::InvokeDynamic { index }
                        | Insn::MultiANewArray { index, .. } => log.push((at + 1, Operand::Pool(index))),
                        Insn::Ldc { index, .. } if wide_ldc => log.push((at + 1, Operand::Pool(index))),
                        Insn::Push { value, .. } => log.push((at + 1, Operand::Int(value))),
                        _ => {}
                    }
                }
            }
        }
        if let Some(recorded) = &mut self.recorded {
            recorded.push(insn);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::opcodes as op;

    #[test]
    fn forward_and_backward_branches_inside_resolve_and_outside_ones_wait() {
        let (inside, outside) = (Label(100), Label(101));
        let mut w = ChunkWriter::new(true);
        w.push(Insn::Label(inside));
        w.push(Insn::Simple(op::NOP));
        w.push(Insn::Branch { opcode: op::IFNULL, target: Label(102) });
        w.push(Insn::Branch { opcode: op::GOTO, target: inside });
        w.push(Insn::Branch { opcode: op::GOTO, target: outside });
        w.push(Insn::Label(Label(102)));
        w.push(Insn::Local { opcode: op::ALOAD, index: 300, wide: false });
        assert_eq!(w.recorded().map(<[Insn]>::len), Some(7));
        let chunk = w.finish(1).unwrap();
        assert_eq!(
            chunk.bytes,
            [op::NOP, op::IFNULL, 0, 9, op::GOTO, 0xff, 0xfc, op::GOTO, 0, 0, op::WIDE, op::ALOAD, 0x01, 0x2c]
        );
        assert_eq!(chunk.labels, [(inside, 0), (Label(102), 10)]);
        assert_eq!(chunk.jumps, [(7, outside)]);
        assert_eq!(chunk.peak, 1);
    }

    #[test]
    fn a_placed_chunk_writes_its_operands_and_moves_its_labels() {
        let mut w = ChunkWriter::new(false);
        w.push(Insn::Label(Label(3)));
        w.push(Insn::Pool { opcode: op::GETSTATIC, index: 0xF000 });
        w.push(Insn::Push { opcode: op::BIPUSH, value: 100 });
        w.push(Insn::Branch { opcode: op::GOTO, target: Label(9) });
        let chunk = w.finish(0).unwrap();
        assert_eq!(chunk.bytes, [op::GETSTATIC, 0xF0, 0x00, op::BIPUSH, 100, op::GOTO, 0, 0]);
        let operands =
            [OperandValue { at: 1, value: 0x0123, wide: true }, OperandValue { at: 4, value: 0xFFF9, wide: false }];
        let placed = Placed::new(chunk.view(), 40, &operands, 2);
        let mut out = vec![0xAA];
        placed.write(&mut out);
        assert_eq!(out, [0xAA, op::GETSTATIC, 0x01, 0x23, op::BIPUSH, 0xF9, op::GOTO, 0, 0]);
        assert_eq!(placed.labels().collect::<Vec<_>>(), [(Label(43), 0)]);
        assert_eq!(placed.jumps().collect::<Vec<_>>(), [(5, Label(49))]);
        assert_eq!((placed.len(), placed.peak()), (8, 2));
        let unchanged = Placed::from(&chunk);
        let mut out = Vec::new();
        unchanged.write(&mut out);
        assert_eq!(out, chunk.bytes);
        assert_eq!(unchanged.jumps().collect::<Vec<_>>(), [(5, Label(9))]);
    }

    #[test]
    fn switches_runs_and_far_branches_are_refused() {
        let mut w = ChunkWriter::new(false);
        w.push(Insn::LookupSwitch { default: Label(1), pairs: vec![] });
        assert!(w.finish(0).is_none());
        let mut w = ChunkWriter::new(false);
        w.push(Insn::Branch { opcode: op::GOTO, target: Label(1) });
        for _ in 0..40_000 {
            w.push(Insn::Simple(op::NOP));
        }
        w.push(Insn::Label(Label(1)));
        assert!(w.finish(0).is_none());
    }

    #[test]
    fn the_operand_log_says_where_each_pool_index_and_pushed_int_went() {
        let mut w = ChunkWriter::new(false).logging_operands();
        w.push(Insn::Simple(op::NOP));
        w.push(Insn::InvokeDynamic { index: 0xF001 });
        w.push(Insn::Push { opcode: op::BIPUSH, value: -128 });
        w.push(Insn::InvokeInterface { index: 0x0102, count: 1 });
        w.push(Insn::Push { opcode: op::SIPUSH, value: 300 });
        w.push(Insn::Ldc { opcode: op::LDC, index: 7 });
        assert_eq!(
            w.operands(),
            [(2, Operand::Pool(0xF001)), (7, Operand::Int(-128)), (9, Operand::Pool(0x0102)), (14, Operand::Int(300))]
        );
        let chunk = w.finish(0).unwrap();
        assert_eq!(&chunk.bytes[2..4], [0xF0, 0x01]);
        assert_eq!(chunk.bytes[7], 0x80);
        assert_eq!(&chunk.bytes[9..11], [0x01, 0x02]);
    }
}
