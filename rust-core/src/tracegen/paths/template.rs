//! Templates: a spliced method's generated code, encoded once per method
//! shape and copied for every method of that shape, in any class.
//!
//! What tracegen adds to a method depends on its class only through pool
//! indexes, and on the method only through its shape: the kinds of its
//! parameters and result, `static`, max_locals, the width of its identifier.
//! A template is that code generated once against placeholders — a
//! [`Recorder`] hands out a placeholder for each constant asked for and
//! remembers the requests in order — with the places each placeholder and the
//! identifier landed. Copying it for a method asks the class's pool for the
//! same constants in the same order (the pool order, see `CodePool`) and
//! patches them in: no instruction is encoded again.
//!
//! The prologue's frames hold the method's own parameters, so they are
//! taken from the method, not the template. `tests/splice_matches_general_path.rs`
//! checks the copies byte for byte against the general path.
#![forbid(unsafe_code)]

use super::depths::{DepthsByShape, GeneratedDepths, Shape};
use super::placeholders::{Recorder, Symbols, MONITOR, PARAMETER_CLASS, PLACEHOLDER, RESULT_CLASS, RESULT_SYMBOL};
use crate::tracegen::constants::{Constants, Shared};
use crate::tracegen::generated::exits::replace_return;
use crate::tracegen::generated::{surround, Generating};
use crate::tracegen::generated::throws::replace_throw;
use crate::tracegen::plan::plan_for;
use crate::tracegen::check_scope::GeneratedCode;
use crate::classfile::stack_map_encode::EncodedFrames;
use crate::classfile::splice::FramesAfter;
use crate::classfile::opcodes as op;
use crate::classfile::{
    Chunk, ChunkView, ChunkWriter, ClassFileError, CodeModel, Frame, Handler, Insn, InsnSink, Label, Operand,
    OperandValue, Placed, PoolBuilder, VType,
};
use crate::codegen::{JavaType, Signature};
use crate::model::TfMethod;
use rustc_hash::FxHashMap;
use std::cell::{Cell, RefCell};
use std::collections::hash_map::Entry;

use crate::classfile::Result;

/// Identifiers wider than `iconst_<n>` are generated as these and patched.
const BYTE_ID: i16 = -128;
const SHORT_ID: i16 = i16::MIN;

/// What a template's copy patches at one place.
#[derive(Debug, Clone, Copy)]
enum Patch {
    /// The pool index of the template's `n`th constant.
    Constant(u16),
    Monitor,
    /// The method's identifier, the operand of a `bipush`.
    ByteId,
    /// The method's identifier, the operand of a `sipush`.
    ShortId,
}

/// A chunk with placeholders, and where they are.
struct Part {
    chunk: Chunk,
    patches: Vec<(u32, Patch)>,
}

impl Part {
    fn of(writer: ChunkWriter) -> Option<Part> {
        let operands = writer.operands().to_vec();
        let chunk = writer.finish(0)?;
        // The template's width class holds the identifier (see `id_width`):
        // the opcode before the operand tells which width.
        let opcode_before = |at: u32| at.checked_sub(1).and_then(|i| chunk.bytes.get(i as usize)).copied();
        let patches = operands
            .iter()
            .filter_map(|&(at, operand)| match operand {
                Operand::Pool(MONITOR) => Some((at, Patch::Monitor)),
                Operand::Pool(p) if p >= PLACEHOLDER => Some((at, Patch::Constant(p - PLACEHOLDER))),
                Operand::Int(BYTE_ID | SHORT_ID) if opcode_before(at) == Some(op::BIPUSH) => Some((at, Patch::ByteId)),
                Operand::Int(BYTE_ID | SHORT_ID) => Some((at, Patch::ShortId)),
                Operand::Pool(_) | Operand::Int(_) => None,
            })
            .collect();
        Some(Part { chunk, patches })
    }
}

/// The four parts of a template (prologue, tail, return, throw), each table
/// holding the four back to back. A template is mostly met cold (java.base
/// takes thousands, used in turn): a copy then reads four short runs of
/// memory rather than sixteen small allocations.
struct PackedParts {
    bytes: Box<[u8]>,
    labels: Box<[(Label, u32)]>,
    jumps: Box<[(u32, Label)]>,
    patches: Box<[(u32, Patch)]>,
    /// Where part `i` ends in each table (bytes, labels, jumps, patches);
    /// it starts where part `i - 1` ends.
    ends: [[u32; 4]; 4],
}

impl PackedParts {
    fn of(parts: [Part; 4]) -> PackedParts {
        let mut packed = PackedParts {
            bytes: parts.iter().flat_map(|p| p.chunk.bytes.iter().copied()).collect(),
            labels: parts.iter().flat_map(|p| p.chunk.labels.iter().copied()).collect(),
            jumps: parts.iter().flat_map(|p| p.chunk.jumps.iter().copied()).collect(),
            patches: parts.iter().flat_map(|p| p.patches.iter().copied()).collect(),
            ends: [[0; 4]; 4],
        };
        let mut end = [0u32; 4];
        for (part, ends) in parts.iter().zip(&mut packed.ends) {
            let lengths = [part.chunk.bytes.len(), part.chunk.labels.len(), part.chunk.jumps.len(), part.patches.len()];
            for (e, length) in end.iter_mut().zip(lengths) {
                // A chunk is at most a method's code long (64 KiB).
                *e += length as u32;
            }
            *ends = end;
        }
        packed
    }

    /// The range of part `i` in table `table`.
    fn range(&self, i: usize, table: usize) -> std::ops::Range<usize> {
        let end = self.ends.get(i).map_or(0, |e| e[table]);
        let start = i.checked_sub(1).and_then(|p| self.ends.get(p)).map_or(0, |e| e[table]);
        start as usize..end as usize
    }

    fn chunk(&self, i: usize) -> ChunkView<'_> {
        ChunkView {
            bytes: self.bytes.get(self.range(i, 0)).unwrap_or_default(),
            labels: self.labels.get(self.range(i, 1)).unwrap_or_default(),
            jumps: self.jumps.get(self.range(i, 2)).unwrap_or_default(),
        }
    }

    /// What one method writes over the placeholders of all four parts, in
    /// the order of `patches` (part `i`'s are at `range(i, 3)`), into `out`.
    fn operands(&self, values: &MethodValues<'_>, out: &mut Vec<OperandValue>) {
        let MethodValues { constants, monitor, id } = *values;
        out.clear();
        out.extend(self.patches.iter().map(|&(at, patch)| match patch {
            Patch::Constant(n) => {
                OperandValue { at, value: constants.get(usize::from(n)).copied().unwrap_or(0), wide: true }
            }
            Patch::Monitor => OperandValue { at, value: monitor, wide: true },
            Patch::ByteId => OperandValue { at, value: u16::from(id as i8 as u8), wide: false },
            Patch::ShortId => OperandValue { at, value: id as i16 as u16, wide: true },
        }));
    }
}

/// What one method puts in its copy of a template: the class's pool index
/// of each of the template's constants, the monitor's, and its identifier.
pub(crate) struct MethodValues<'v> {
    pub constants: &'v [u16],
    pub monitor: u16,
    pub id: i32,
}

/// `t` with a placeholder class replaced by the class's constant.
fn real_type(t: VType, constants: &[u16]) -> VType {
    match t {
        VType::Object(p) if p >= PLACEHOLDER => {
            VType::Object(constants.get(usize::from(p - PLACEHOLDER)).copied().unwrap_or(0))
        }
        other => other,
    }
}


/// A method's generated code, once per shape.
pub(crate) struct Template {
    /// The constants (as symbols), in the order generating the code asked
    /// for them; the first `planned` before a constructor's chaining call is
    /// looked for.
    requests: Vec<u32>,
    planned: usize,
    /// After the template's locals.
    max_locals: u16,
    labels: u32,
    /// Prologue, tail, return, throw.
    parts: PackedParts,
    /// The labels of the prologue's frames, each the method's entry frame.
    entry_labels: Box<[Label]>,
    /// The tail's first frame (at the label of `tail_frames`), its classes placeholders.
    tail_first: Frame,
    /// The tail's frames after its first (at the label), encoded, and where
    /// their Class constants are.
    tail_frames: (Label, EncodedFrames, Vec<usize>),
    handler: Handler,
    /// The locals that live across the body, with their frame types.
    live: [(u16, VType); 3],
    /// The instructions, kept until the stack depths of the shape are known.
    recorded: RefCell<Option<Box<[Vec<Insn>; 4]>>>,
    /// The stack depths of the shape, once known.
    depths: Cell<Option<GeneratedDepths>>,
    /// What the pre-write check found of the copies' generated code.
    generated: GeneratedCode,
}

/// How the identifier is pushed: `iconst_<n>` (the value is part of the
/// shape), `bipush` or `sipush` (patched); wider identifiers take no template.
fn id_width(id: i32) -> Option<u8> {
    match id {
        -1..=5 => Some((id + 1) as u8),
        -128..=127 => Some(7),
        _ if i16::try_from(id).is_ok() => Some(8),
        _ => None,
    }
}

/// The shape as bytes (the template's key): max_locals, `static`, the
/// identifier's width, the kinds of the parameters and the result, the
/// redacted parameters. Kept inline, so that finding a template reads no
/// memory but the table's; a shape too long for it (some 25 parameters)
/// takes no template. Held as words (the first byte is the length): every
/// method looks its shape up, and words compare and hash without a loop
/// over bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ShapeKey {
    words: [u64; 4],
}

impl std::hash::Hash for ShapeKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for word in self.words {
            state.write_u64(word);
        }
    }
}

impl ShapeKey {
    fn of(wanted: &Wanted<'_>) -> Option<ShapeKey> {
        let Wanted { max_locals, is_static, id, signature, method, .. } = *wanted;
        let mut key = KeyBytes { len: 1, bytes: [0; 32] };
        key.push(&max_locals.to_be_bytes())?;
        key.push(&[u8::from(is_static), id_width(id)?])?;
        for &t in &signature.parameters {
            key.push(&[t.letter()])?;
        }
        key.push(&[b')', signature.returns.map_or(b'V', JavaType::letter)])?;
        for &p in &method.redacted_parameters {
            key.push(&(p as u32).to_be_bytes())?;
        }
        key.bytes[0] = key.len as u8;
        let (chunks, _) = key.bytes.as_chunks::<8>();
        Some(ShapeKey { words: std::array::from_fn(|i| u64::from_le_bytes(chunks[i])) })
    }
}

/// A [`ShapeKey`] being written.
struct KeyBytes {
    len: usize,
    bytes: [u8; 32],
}

impl KeyBytes {
    fn push(&mut self, bytes: &[u8]) -> Option<()> {
        let end = self.len + bytes.len();
        self.bytes.get_mut(self.len..end)?.copy_from_slice(bytes);
        self.len = end;
        Some(())
    }
}

fn stand_in(t: JavaType<'_>, name: &'static str) -> JavaType<'static> {
    match t {
        JavaType::Boolean => JavaType::Boolean,
        JavaType::Byte => JavaType::Byte,
        JavaType::Char => JavaType::Char,
        JavaType::Short => JavaType::Short,
        JavaType::Int => JavaType::Int,
        JavaType::Long => JavaType::Long,
        JavaType::Float => JavaType::Float,
        JavaType::Double => JavaType::Double,
        JavaType::Reference(_) => JavaType::Reference(name),
    }
}

/// At most this many templates per worker (java.base takes some 6,300).
const MAX_TEMPLATES: usize = 32_768;

/// Templates by shape; `None` for a shape that takes none.
pub(crate) type Templates = FxHashMap<ShapeKey, Option<Template>>;

/// The method a template is wanted for.
pub(crate) struct Wanted<'w> {
    /// Before tracegen's locals.
    pub max_locals: u16,
    pub is_static: bool,
    pub id: i32,
    pub signature: &'w Signature<'w>,
    pub method: &'w TfMethod<'w>,
    pub shape: Shape,
}

/// The template of this shape from `templates`, made on first use (its
/// constants numbered in `symbols`); `None` if the shape takes none.
pub(crate) fn for_method<'t>(
    templates: &'t mut Templates,
    symbols: &mut Symbols,
    depths: &DepthsByShape,
    wanted: &Wanted<'_>,
) -> Option<&'t Template> {
    let key = ShapeKey::of(wanted)?;
    // A worker of a long-lived build daemon keeps its templates: bounded,
    // at some cost to a project with this many shapes.
    if templates.len() >= MAX_TEMPLATES && !templates.contains_key(&key) {
        templates.clear();
    }
    match templates.entry(key) {
        Entry::Occupied(known) => known.into_mut().as_ref(),
        Entry::Vacant(slot) => slot.insert(Template::make(wanted, symbols, depths).ok().flatten()).as_ref(),
    }
}

impl Template {
    fn make(wanted: &Wanted<'_>, symbols: &mut Symbols, depths: &DepthsByShape) -> Result<Option<Template>> {
        let Wanted { max_locals, is_static, id, signature, method, shape } = *wanted;
        let signature = Signature {
            parameters: signature.parameters.iter().map(|&t| stand_in(t, PARAMETER_CLASS)).collect(),
            returns: signature.returns.map(|t| stand_in(t, RESULT_CLASS)),
        };
        let stand_in_id = match id_width(id) {
            Some(7) => i32::from(BYTE_ID),
            Some(8) => i32::from(SHORT_ID),
            _ => id,
        };
        let mut code = CodeModel::scratch(max_locals);
        let mut recorder = Recorder::default();
        let mut constants = Constants::default();
        let plan = plan_for(signature, is_static, stand_in_id, 0, &mut code, &mut recorder, &mut constants)?;
        let planned = recorder.requests.len();
        let record = GeneratedDepths::remembered(depths, shape).is_none_or(|d| d.throw.is_none());
        let thrown = constants.get(Shared::Thrown, &mut recorder)?;
        let mut throw = ChunkWriter::new(record).logging_operands();
        throw.push_all(replace_throw(&plan, thrown, &mut recorder)?);
        let mut ret = ChunkWriter::new(record).logging_operands();
        ret.push_all(replace_return(&plan));
        let mut prologue = ChunkWriter::new(record).logging_operands();
        let mut tail = ChunkWriter::new(record).logging_operands();
        let monitor = [Insn::InvokeDynamic { index: MONITOR }];
        let what = Generating { plan: &plan, method, monitor: &monitor };
        surround(what, &mut code, &mut recorder, &mut constants, &mut prologue, &mut tail)?;
        if recorder.unusable {
            return Ok(None);
        }
        let recorded = record
            .then(|| Box::new([prologue.take_recorded(), tail.take_recorded(), throw.take_recorded(), ret.take_recorded()]));
        let (Some(prologue), Some(tail), Some(throw), Some(ret)) =
            (Part::of(prologue), Part::of(tail), Part::of(throw), Part::of(ret))
        else {
            return Ok(None);
        };
        let [handler] = code.handlers[..] else { return Ok(None) };
        let in_prologue = |l: Label| prologue.chunk.labels.iter().any(|&(bound, _)| bound == l);
        let in_tail = |l: Label| tail.chunk.labels.iter().find(|&&(bound, _)| bound == l).map(|&(_, at)| at);
        // The tail's frames follow every other frame in code order: all but
        // the first are encoded here, once.
        let (mut in_tail_frames, frames): (Vec<_>, Vec<_>) =
            code.frames.drain(..).map(|(l, f)| (l, f, in_prologue(l))).partition(|(l, _, _)| in_tail(*l).is_some());
        in_tail_frames.sort_by_key(|(l, _, _)| in_tail(*l));
        let Some(((first_label, first, _), rest)) = in_tail_frames.split_first() else { return Ok(None) };
        let at = |l: &Label| in_tail(*l).unwrap_or(0);
        let rest: Vec<(u32, &Frame)> = rest.iter().map(|(l, f, _)| (at(l), f)).collect();
        let no_label = |l: Label| Err(ClassFileError::malformed_unlocated(format!("label {} in a template's frame", l.0)));
        let encoded = EncodedFrames::after(&rest, (at(first_label), first), &no_label)?;
        let Some(classes) = encoded.class_operands() else { return Ok(None) };
        let placeholder_at = |&at: &usize| encoded.bytes.get(at..at + 2).is_some_and(|b| b[0] >= 0xF0);
        if !classes.iter().all(placeholder_at) {
            return Ok(None);
        }
        // The others are the prologue's, the method's entry frame: lent to
        // the splice, not made for each copy (see `lent_frames`).
        let is_entry = |(_, f, from_entry): &(Label, Frame, bool)| *from_entry && f.stack.is_empty();
        if frames.len() >= LENT || !frames.iter().all(is_entry) {
            return Ok(None);
        }
        let entry_labels = frames.iter().map(|&(label, ..)| label).collect();
        let tail_first = first.clone();
        let tail_frames = (*first_label, encoded, classes);
        Ok(Some(Template {
            requests: recorder.requests.into_iter().map(|r| symbols.number(r)).collect(),
            planned,
            max_locals: code.max_locals,
            labels: code.next_label,
            parts: PackedParts::of([prologue, tail, ret, throw]),
            entry_labels,
            tail_first,
            tail_frames,
            handler,
            live: plan.live_locals(),
            recorded: RefCell::new(recorded),
            depths: Cell::new(None),
            generated: GeneratedCode::unchecked(code.max_locals),
        }))
    }

    /// Reads every cache line of the template's tables, so that the misses
    /// of a template met cold (the usual case: see [`PackedParts`]) are
    /// taken together, as soon as the template is found, rather than one
    /// after the other as its copy reaches each table.
    pub(super) fn warm(&self) {
        let touched = [
            read_lines(&self.requests, |&r| u64::from(r)),
            read_lines(&self.parts.bytes, |&b| u64::from(b)),
            read_lines(&self.parts.labels, |&(l, at)| u64::from(l.0 ^ at)),
            read_lines(&self.parts.jumps, |&(at, l)| u64::from(l.0 ^ at)),
            read_lines(&self.parts.patches, |&(at, _)| u64::from(at)),
            read_lines(&self.entry_labels, |l| u64::from(l.0)),
            read_lines(&self.tail_first.locals, |t| u64::from(matches!(t, VType::Top))),
            read_lines(&self.tail_frames.1.bytes, |&b| u64::from(b)),
            read_lines(&self.tail_frames.2, |&at| at as u64),
        ];
        // Kept from the optimizer: the reads are the point.
        std::hint::black_box(touched);
    }

    /// How many of the constants to ask for before a constructor's chaining call is looked for.
    /// The pre-write check's verdict on this template's code, shared by its copies.
    pub(super) fn generated_code(&self) -> GeneratedCode {
        self.generated.clone()
    }

    pub(super) fn planned(&self) -> usize {
        self.planned
    }

    pub(super) fn constant_count(&self) -> usize {
        self.requests.len()
    }

    /// Asks the pool for the template's constants `range` in their order,
    /// for a method returning `result`, onto `out`. `known`: what the
    /// class's pool answered before, by symbol.
    pub(super) fn resolve(
        &self,
        range: std::ops::Range<usize>,
        result: Option<JavaType<'_>>,
        pool: &mut PoolBuilder<'_>,
        symbols: &Symbols,
        known: &mut Vec<u16>,
        out: &mut Vec<u16>,
    ) -> Result<()> {
        if known.len() < symbols.entries.len() {
            known.resize(symbols.entries.len(), 0);
        }
        for &symbol in self.requests.get(range).unwrap_or_default() {
            let index = if symbol == RESULT_SYMBOL {
                match result {
                    Some(JavaType::Reference(name)) => pool.class(name)?,
                    _ => return Err(ClassFileError::malformed_unlocated("a template's result class without a result")),
                }
            } else {
                // Most are asked again (of a class's methods, many share constants): answered here.
                match known.get(symbol as usize) {
                    Some(&index) if index != 0 => index,
                    _ => symbols.resolve(symbol, pool, known)?,
                }
            };
            out.push(index);
        }
        Ok(())
    }

    /// The stack depths of the shape's generated code, from the template's
    /// instructions with `constants` and `monitor` in place of placeholders
    /// the first time; `None` if they are no consistent flow.
    pub(super) fn depths(
        &self,
        shape: Shape,
        constants: &[u16],
        monitor: u16,
        pool: &mut PoolBuilder<'_>,
        remembered: &mut DepthsByShape,
    ) -> Result<Option<GeneratedDepths>> {
        // Kept here too: the template is at hand, the table by shape is not.
        if let Some(depths) = self.depths.get() {
            return Ok(Some(depths));
        }
        if let Some(depths) = GeneratedDepths::remembered(remembered, shape).filter(|d| d.throw.is_some()) {
            self.depths.set(Some(depths));
            return Ok(Some(depths));
        }
        let Some(mut recorded) = self.recorded.borrow_mut().take() else {
            return Ok(None);
        };
        let real = |index: u16| match index {
            MONITOR => monitor,
            p if p >= PLACEHOLDER => constants.get(usize::from(p - PLACEHOLDER)).copied().unwrap_or(0),
            other => other,
        };
        for insn in recorded.iter_mut().flatten() {
            match insn {
                Insn::Pool { index, .. }
                | Insn::InvokeInterface { index, .. }
                | Insn::InvokeDynamic { index }
                | Insn::MultiANewArray { index, .. }
                | Insn::Ldc { index, .. } => *index = real(*index),
                _ => {}
            }
        }
        let [prologue, tail, throw, ret] = &*recorded;
        let depths = GeneratedDepths::of(prologue, tail, Some(throw), ret, &[self.handler], pool)?;
        if let Some(depths) = depths {
            depths.remember(remembered, shape);
            self.depths.set(Some(depths));
        }
        Ok(depths)
    }

    /// The locals that live across the body, with the class's frame types.
    pub(super) fn live_locals(&self, constants: &[u16]) -> [(u16, VType); 3] {
        self.live.map(|(slot, t)| (slot, real_type(t, constants)))
    }

    /// The tail's first frame for a method of the class whose constants are `constants`, into `out`.
    pub(super) fn tail_first_frame(&self, constants: &[u16], out: &mut Frame) {
        let real = |t: &VType| real_type(*t, constants);
        out.locals.clear();
        out.locals.extend(self.tail_first.locals.iter().map(real));
        out.stack.clear();
        out.stack.extend(self.tail_first.stack.iter().map(real));
    }

    /// The generated code's frames but the tail's encoded ones, lent to the
    /// splice rather than added to the model: each of the prologue's is
    /// `entry`, the tail's first is `tail_first` ([`Template::tail_first_frame`]).
    /// `first`: the method's label the template's labels count from (its
    /// `next_label` before [`Template::copy`]). The first `n` of the list.
    pub(super) fn lent_frames<'f>(
        &self,
        first: u32,
        entry: &'f Frame,
        tail_first: &'f Frame,
    ) -> ([(Label, &'f Frame); LENT], usize) {
        let mut lent = [(Label(0), entry); LENT];
        let labels = self.entry_labels.iter().map(|&l| (l, entry)).chain([(self.tail_frames.0, tail_first)]);
        let mut n = 0;
        for (slot, (label, frame)) in lent.iter_mut().zip(labels) {
            *slot = (Label(label.0 + first), frame);
            n += 1;
        }
        (lent, n)
    }

    /// The generated code of one method: adds the template's locals, labels
    /// and handler to `code` and returns the prologue, tail, return and
    /// throw chunks as the method places them, and the tail's frames after
    /// its first, encoded (the operands of both written into `operands`),
    /// with the `lent` frames ([`Template::lent_frames`]).
    pub(super) fn copy<'t>(
        &'t self,
        values: &MethodValues<'_>,
        depths: GeneratedDepths,
        code: &mut CodeModel<'_>,
        operands: &'t mut Vec<OperandValue>,
        lent: &'t [(Label, &'t Frame)],
    ) -> ([Placed<'t>; 4], FramesAfter<'t>) {
        let constants = values.constants;
        let first = code.next_label;
        code.next_label += self.labels;
        code.max_locals = self.max_locals;
        let moved = |l: Label| Label(l.0 + first);
        let h = self.handler;
        code.handlers.push(Handler { start: moved(h.start), end: moved(h.end), handler: moved(h.handler), ..h });
        self.parts.operands(values, operands);
        // The tail frames' classes are patched as they are copied, not in a
        // copy of their own.
        let in_chunks = operands.len();
        let (after, encoded, classes) = &self.tail_frames;
        for &at in classes {
            let Some(&[high, low]) = encoded.bytes.get(at..at + 2) else { continue };
            let VType::Object(class) = real_type(VType::Object(u16::from_be_bytes([high, low])), constants) else {
                continue;
            };
            operands.push(OperandValue { at: at as u32, value: class, wide: true });
        }
        let operands: &'t [OperandValue] = operands;
        let peaks = [depths.prologue, depths.tail, depths.ret, depths.throw.unwrap_or(0)];
        let placed = |i: usize| {
            let patches = operands.get(self.parts.range(i, 3)).unwrap_or_default();
            Placed::new(self.parts.chunk(i), first, patches, peaks[i])
        };
        let patches = operands.get(in_chunks..).unwrap_or_default();
        let frames_after = FramesAfter { label: moved(*after), frames: encoded, patches, lent };
        ([placed(0), placed(1), placed(2), placed(3)], frames_after)
    }
}

/// At most this many frames a template lends a copy: the prologue's two and the tail's first.
const LENT: usize = 3;

/// `read` of one item in each 64-byte cache line `items` spans, summed.
fn read_lines<T>(items: &[T], read: impl Fn(&T) -> u64) -> u64 {
    let per_line = (64 / std::mem::size_of::<T>().max(1)).max(1);
    items.iter().step_by(per_line).map(read).fold(0, u64::wrapping_add)
}
