//! Turning a [`CodeModel`] back into a Code attribute: lay out the code
//! (switch padding, branch widening) until offsets settle, give widened
//! conditional branches the frame they need, keep frames at distinct offsets,
//! then encode instructions, the exception table, and every table that holds
//! a code offset.
#![forbid(unsafe_code)]

use crate::read::code_attribute::MAX_CODE_LENGTH;
use crate::code::code_model::{CodeAttributeModel, CodeModel, CodeTarget, LocalVariable, TypeAnnotation};
use crate::code::insn::{Insn, Label};
use crate::code::decode::{expand_runs, switch_padding};
use crate::code::code_attribute_writer::CodeAttributeWriter;
use crate::code::encode::{count16, Put};
use crate::read::error::{ClassFileError, Result};
use crate::code::frame_infer;
use crate::read::opcodes as op;
use crate::code::pool::CodePool;
use crate::code::stack_depth;
use crate::code::stack_map_encode;
use crate::code::stack_map::{self, Frame};

/// Offsets of one layout pass.
struct Layout {
    /// Offset of each element.
    offsets: Vec<u32>,
    /// Offset of each bound label, by label id.
    labels: Vec<Option<u32>>,
    length: u32,
}

impl Layout {
    fn label(&self, label: Label) -> Result<u32> {
        self.labels
            .get(label.0 as usize)
            .copied()
            .flatten()
            .ok_or_else(|| ClassFileError::malformed_unlocated(format!("label {} is used but never bound", label.0)))
    }
}

/// Encoded size of `insn` at `offset`; `wide` says a short branch was widened.
pub(crate) fn size(insn: &Insn, offset: u32, wide: bool) -> u32 {
    match insn {
        Insn::Label(_) => 0,
        Insn::Raw { start, end } => end.saturating_sub(*start),
        Insn::Simple(_) => 1,
        Insn::Push { opcode, value } => {
            if *opcode == op::BIPUSH && i8::try_from(*value).is_ok() {
                2
            } else {
                3
            }
        }
        Insn::Ldc { opcode, index } => {
            if *opcode == op::LDC && *index <= 255 {
                2
            } else {
                3
            }
        }
        Insn::Local { index, wide: w, .. } => {
            if *w || *index > 255 {
                4
            } else {
                2
            }
        }
        Insn::Iinc { index, delta, wide: w } => {
            if *w || *index > 255 || i8::try_from(*delta).is_err() {
                6
            } else {
                3
            }
        }
        Insn::Pool { .. } => 3,
        Insn::InvokeInterface { .. } | Insn::InvokeDynamic { .. } => 5,
        Insn::NewArray { .. } => 2,
        Insn::MultiANewArray { .. } => 4,
        Insn::Branch { opcode, .. } => match (*opcode, wide) {
            (op::GOTO_W | op::JSR_W, _) => 5,
            (_, false) => 3,
            (op::GOTO | op::JSR, true) => 5,
            // An inverted short branch over a goto_w.
            (_, true) => 8,
        },
        Insn::TableSwitch { targets, .. } => 1 + switch_padding(offset) as u32 + 12 + 4 * targets.len() as u32,
        Insn::LookupSwitch { pairs, .. } => 1 + switch_padding(offset) as u32 + 8 + 8 * pairs.len() as u32,
    }
}

fn layout(elements: &[Insn], wide: &mut [bool], label_count: usize) -> Result<Layout> {
    loop {
        let mut offsets = Vec::with_capacity(elements.len());
        let mut labels = vec![None; label_count];
        let mut offset: u64 = 0;
        for (insn, &w) in elements.iter().zip(wide.iter()) {
            offsets.push(offset.min(u64::from(u32::MAX)) as u32);
            if let Insn::Label(label) = insn {
                let slot = labels.get_mut(label.0 as usize).ok_or_else(|| {
                    ClassFileError::malformed_unlocated(format!("label {} was not made by this code", label.0))
                })?;
                if slot.is_some() {
                    return Err(ClassFileError::malformed_unlocated(format!("label {} is bound twice", label.0)));
                }
                *slot = Some(offset as u32);
            }
            offset += u64::from(size(insn, offset as u32, w));
            if offset > MAX_CODE_LENGTH as u64 {
                return Err(ClassFileError::limit_unlocated(format!("the method's code would pass {MAX_CODE_LENGTH} bytes")));
            }
        }
        let layout = Layout { offsets, labels, length: offset as u32 };
        let mut changed = false;
        for (i, insn) in elements.iter().enumerate() {
            if let Insn::Branch { opcode, target } = insn {
                let is_short = !matches!(*opcode, op::GOTO_W | op::JSR_W);
                let already = wide.get(i).copied().unwrap_or(true);
                if is_short && !already {
                    let from = i64::from(layout.offsets.get(i).copied().unwrap_or(0));
                    let delta = i64::from(layout.label(*target)?) - from;
                    if i16::try_from(delta).is_err() {
                        if let Some(w) = wide.get_mut(i) {
                            *w = true;
                        }
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return Ok(layout);
        }
    }
}

/// Frames by label id: labels are numbered densely from 0 by their code
/// model, so a vector is both the cheapest map and a deterministic order.
struct FrameTable {
    by_label: Vec<Option<Frame>>,
}

impl FrameTable {
    fn new(frames: Vec<(Label, Frame)>, label_count: u32) -> Self {
        let mut by_label = Vec::new();
        by_label.resize_with(label_count as usize, || None);
        let mut table = FrameTable { by_label };
        // A later frame at the same label replaces an earlier one.
        for (label, frame) in frames {
            table.insert(label, frame);
        }
        table
    }

    fn insert(&mut self, label: Label, frame: Frame) {
        let i = label.0 as usize;
        if self.by_label.len() <= i {
            self.by_label.resize_with(i + 1, || None);
        }
        if let Some(slot) = self.by_label.get_mut(i) {
            *slot = Some(frame);
        }
    }

    fn get(&self, label: Label) -> Option<&Frame> {
        self.by_label.get(label.0 as usize).and_then(Option::as_ref)
    }

    fn iter(&self) -> impl Iterator<Item = (Label, &Frame)> {
        self.by_label.iter().enumerate().filter_map(|(i, f)| f.as_ref().map(|f| (Label(i as u32), f)))
    }
}

impl<'a> CodeModel<'a> {
    /// Assembles the content of the Code attribute (everything after its
    /// 6-byte header). `pool` receives any constants new frames need;
    pub fn assemble(&self, pool: &mut impl CodePool<'a>) -> Result<Vec<u8>> {
        self.clone().assemble_owned(pool)
    }

    /// [`CodeModel::assemble`], consuming the model: the assembler edits the
    /// instruction list (labels before `new`, nops, frames for widened
    /// branches) and takes it over instead of copying it.
    pub fn assemble_owned(self, pool: &mut impl CodePool<'a>) -> Result<Vec<u8>> {
        let CodeModel {
            max_stack,
            max_locals,
            elements,
            handlers,
            attributes,
            frames,
            initial_frame,
            frames_required,
            this_class,
            next_label,
            code,
        } = self;
        let mut next_label = next_label;
        let fresh = |next: &mut u32| {
            let label = Label(*next);
            *next += 1;
            label
        };
        let mut elements = if frames_required { label_each_new(elements, &mut next_label) } else { elements };
        let mut frames = FrameTable::new(frames, next_label);
        let context = Context { initial_frame: &initial_frame, this_class, frames_required };

        let mut wide = vec![false; elements.len()];
        let mut has_runs = elements.iter().any(|e| matches!(e, Insn::Raw { .. }));
        let layout = loop {
            let layout = layout(&elements, &mut wide, next_label as usize)?;
            if has_runs && wide.contains(&true) {
                // A method long enough to need a wide branch may need frames
                // inferred, which follows single instructions: assemble it
                // from the full model (widening starts over; it reaches the
                // same branches).
                elements = full_model(elements, code, frames_required, &mut next_label);
                wide = vec![false; elements.len()];
                has_runs = false;
                continue;
            }
            if let Some((index, insert)) = context.next_fixup(&elements, &wide, &layout, &frames)? {
                match insert {
                    Fixup::Frame => {
                        let label = fresh(&mut next_label);
                        let frame = context.frame_after_branch(&elements, index, &frames, pool)?;
                        frames.insert(label, frame);
                        elements.insert(index + 1, Insn::Label(label));
                        wide.insert(index + 1, false);
                    }
                    Fixup::Nop => {
                        elements.insert(index, Insn::Simple(op::NOP));
                        wide.insert(index, false);
                    }
                }
                continue;
            }
            break layout;
        };

        // Element index of each label, by label id, for the depth pass.
        let label_index = label_indexes(&elements, next_label);
        let mut run_locals = vec![stack_depth::NOT_SEEN; elements.len()];
        let computed_stack = match stack_depth::max_stack(
            &elements,
            code,
            &mut run_locals,
            &handlers,
            &|l| label_index.get(l.0 as usize).copied().flatten(),
            pool,
        ) {
            Err(_) if has_runs => {
                // Report the error as the full model would, with its instruction numbers.
                let full = full_model(elements.clone(), code, frames_required, &mut next_label);
                let label_index = label_indexes(&full, next_label);
                let mut ignored = vec![stack_depth::NOT_SEEN; full.len()];
                stack_depth::max_stack(
                    &full,
                    code,
                    &mut ignored,
                    &handlers,
                    &|l| label_index.get(l.0 as usize).copied().flatten(),
                    pool,
                )?
            }
            result => result?,
        };
        let computed_locals =
            stack_depth::max_locals(&elements, code, &run_locals, frames.iter().map(|(_, f)| f), &initial_frame);
        let max_locals = u16::try_from(computed_locals.max(u32::from(max_locals)))
            .map_err(|_| ClassFileError::limit_unlocated("a method would need more than 65,535 local slots"))?;

        let capacity = layout.length as usize + 64 + 8 * handlers.len();
        let mut writer = CodeAttributeWriter::new(capacity, max_stack.max(computed_stack), max_locals, layout.length);
        for ((insn, &offset), &w) in elements.iter().zip(&layout.offsets).zip(&wide) {
            emit(insn, offset, w, &|l| layout.label(l), code, writer.out())?;
        }

        writer.exception_table(&handlers, &|l| layout.label(l))?;
        let sorted_frames = frames_in_code_order(frames.iter(), &|l| layout.label(l))?;
        if sorted_frames.last().is_some_and(|(offset, _)| *offset >= layout.length) {
            return Err(ClassFileError::malformed_unlocated("a stack map frame after the last instruction"));
        }

        write_attributes(&mut writer, &attributes, &sorted_frames, &initial_frame, &layout, frames_required, pool)?;
        writer.finish()
    }
}

/// The Code attribute's own attributes, in the model's order, each written
/// at the final layout; a `StackMapTable` added after them where frames are
/// required and the model had none.
fn write_attributes<'a>(
    writer: &mut CodeAttributeWriter,
    attributes: &[CodeAttributeModel<'a>],
    sorted_frames: &[(u32, &Frame)],
    initial_frame: &Frame,
    layout: &Layout,
    frames_required: bool,
    pool: &mut impl CodePool<'a>,
) -> Result<()> {
    let mut wrote_frames = false;
    let offset_of = |l: Label| layout.label(l);
    for attribute in attributes {
        let name_index = match attribute {
            CodeAttributeModel::Other(original) => original.name_index,
            CodeAttributeModel::StackMapTable { name_index } => {
                wrote_frames = true;
                if sorted_frames.is_empty() {
                    continue;
                }
                *name_index
            }
            CodeAttributeModel::LineNumbers { name_index, .. }
            | CodeAttributeModel::LocalVariables { name_index, .. }
            | CodeAttributeModel::LocalVariableTypes { name_index, .. }
            | CodeAttributeModel::TypeAnnotations { name_index, .. } => *name_index,
        };
        writer.begin_attribute(name_index);
        let out = writer.out();
        match attribute {
            CodeAttributeModel::Other(original) => out.extend_from_slice(original.data()),
            CodeAttributeModel::StackMapTable { .. } => {
                stack_map_encode::encode_into(sorted_frames, initial_frame, &offset_of, out)?
            }
            CodeAttributeModel::LineNumbers { entries, .. } => {
                out.u16(count16(entries.len(), "line numbers")?);
                for (label, line) in entries {
                    out.u16(layout.label(*label)? as u16);
                    out.u16(*line);
                }
            }
            CodeAttributeModel::LocalVariables { entries, .. }
            | CodeAttributeModel::LocalVariableTypes { entries, .. } => {
                local_variables(entries, layout, out)?
            }
            CodeAttributeModel::TypeAnnotations { entries, .. } => type_annotations(entries, layout, out)?,
        }
        writer.end_attribute()?;
    }
    if !wrote_frames && frames_required && !sorted_frames.is_empty() {
        let name_index = pool.utf8(crate::read::attribute::name::STACK_MAP_TABLE)?;
        writer.begin_attribute(name_index);
        stack_map_encode::encode_into(sorted_frames, initial_frame, &offset_of, writer.out())?;
        writer.end_attribute()?;
    }
    Ok(())
}

/// The element index of each label, by label id (`labels` ids in all).
fn label_indexes(elements: &[Insn], labels: u32) -> Vec<Option<usize>> {
    let mut index = vec![None; labels as usize];
    for (i, e) in elements.iter().enumerate() {
        if let Insn::Label(l) = e {
            if let Some(slot) = index.get_mut(l.0 as usize) {
                *slot = Some(i);
            }
        }
    }
    index
}

/// Frames by code offset, in code order, identical frames at one offset kept once.
pub(crate) fn frames_in_code_order<'f>(
    frames: impl Iterator<Item = (Label, &'f Frame)>,
    offset_of: &dyn Fn(Label) -> Result<u32>,
) -> Result<Vec<(u32, &'f Frame)>> {
    // Sized at once: collecting into a `Result` knows no length, and grew
    // the list several times for every method.
    let mut sorted = Vec::with_capacity(frames.size_hint().0);
    for (label, frame) in frames {
        sorted.push((offset_of(label)?, frame));
    }
    sorted.sort_by_key(|(offset, _)| *offset);
    sorted.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
    Ok(sorted)
}

/// The elements with every run expanded and every `new` labelled, as a lift
/// of single instructions followed by [`label_each_new`] gives them.
fn full_model(elements: Vec<Insn>, code: &[u8], frames_required: bool, next_label: &mut u32) -> Vec<Insn> {
    let elements = expand_runs(elements, code);
    if frames_required {
        label_each_new(elements, next_label)
    } else {
        elements
    }
}

/// Frame inference names each `new` by the label right before it: gives
/// every unlabelled `new` a fresh label, in one pass.
fn label_each_new(elements: Vec<Insn>, next_label: &mut u32) -> Vec<Insn> {
    let unlabelled = |i: usize, e: &Insn| {
        matches!(e, Insn::Pool { opcode: op::NEW, .. })
            && !(i > 0 && matches!(elements.get(i - 1), Some(Insn::Label(_))))
    };
    let missing = elements.iter().enumerate().filter(|(i, e)| unlabelled(*i, e)).count();
    if missing == 0 {
        return elements;
    }
    let mut out = Vec::with_capacity(elements.len() + missing);
    let mut previous_is_label = false;
    for insn in elements {
        if matches!(insn, Insn::Pool { opcode: op::NEW, .. }) && !previous_is_label {
            out.push(Insn::Label(Label(*next_label)));
            *next_label += 1;
        }
        previous_is_label = matches!(insn, Insn::Label(_));
        out.push(insn);
    }
    out
}

fn type_annotations(entries: &[TypeAnnotation<'_>], layout: &Layout, out: &mut Vec<u8>) -> Result<()> {
    out.u16(count16(entries.len(), "type annotations")?);
    for annotation in entries {
        out.u8(annotation.target_type);
        match &annotation.target {
            CodeTarget::LocalVariable(ranges) => {
                out.u16(count16(ranges.len(), "local variable ranges")?);
                for (start, end, index) in ranges {
                    let (s, e) = (layout.label(*start)?, layout.label(*end)?);
                    out.u16(s as u16);
                    out.u16(e.saturating_sub(s) as u16);
                    out.u16(*index);
                }
            }
            CodeTarget::Catch(index) => out.u16(*index),
            CodeTarget::Offset(label) => out.u16(layout.label(*label)? as u16),
            CodeTarget::TypeArgument(label, argument) => {
                out.u16(layout.label(*label)? as u16);
                out.u8(*argument);
            }
        }
        out.extend_from_slice(annotation.rest);
    }
    Ok(())
}

/// What the fixups need of the model besides the instructions and frames.
struct Context<'m> {
    initial_frame: &'m Frame,
    this_class: u16,
    frames_required: bool,
}

impl Context<'_> {
    /// The first place the layout needs a change: a widened conditional branch
    /// whose fall-through has no frame, or two different frames at one offset.
    fn next_fixup(
        &self,
        elements: &[Insn],
        wide: &[bool],
        layout: &Layout,
        frames: &FrameTable,
    ) -> Result<Option<(usize, Fixup)>> {
        if self.frames_required {
            for (i, insn) in elements.iter().enumerate() {
                let widened_conditional = matches!(insn, Insn::Branch { opcode, .. } if op::is_conditional_branch(*opcode))
                    && wide.get(i).copied().unwrap_or(false);
                if widened_conditional {
                    let has_frame = elements
                        .get(i + 1..)
                        .unwrap_or_default()
                        .iter()
                        .take_while(|e| matches!(e, Insn::Label(_)))
                        .any(|e| matches!(e, Insn::Label(l) if frames.get(*l).is_some()));
                    if !has_frame {
                        return Ok(Some((i, Fixup::Frame)));
                    }
                }
            }
        }
        let mut previous: Option<(u32, &Frame)> = None;
        for (i, insn) in elements.iter().enumerate() {
            if let Insn::Label(label) = insn {
                if let Some(frame) = frames.get(*label) {
                    let offset = layout.offsets.get(i).copied().unwrap_or(0);
                    if let Some((previous_offset, previous_frame)) = previous {
                        if previous_offset == offset && previous_frame != frame {
                            return Ok(Some((i, Fixup::Nop)));
                        }
                    }
                    previous = Some((offset, frame));
                }
            }
        }
        Ok(None)
    }

    /// The frame after conditional branch `index` falls through.
    fn frame_after_branch<'p>(
        &self,
        elements: &[Insn],
        index: usize,
        frames: &FrameTable,
        pool: &mut impl CodePool<'p>,
    ) -> Result<Frame> {
        // Frames are inferred in a full model only (no runs): no code to read.
        let mut frame = frame_infer::frame_before(
            elements,
            &[],
            index,
            &|l| frames.get(l).cloned(),
            self.initial_frame,
            self.this_class,
            pool,
        )?;
        let pops =
            (-op::fixed_stack_effect(elements.get(index).and_then(Insn::opcode).unwrap_or(op::NOP))).max(0) as usize;
        let mut stack = stack_map::to_slots(&frame.stack);
        stack.truncate(stack.len().saturating_sub(pops));
        frame.stack = stack_map::from_slots(&stack);
        Ok(frame)
    }
}

enum Fixup {
    /// Bind a label with an inferred frame after the element.
    Frame,
    /// Insert a `nop` before the element so two frames get distinct offsets.
    Nop,
}

fn local_variables(entries: &[LocalVariable], layout: &Layout, data: &mut Vec<u8>) -> Result<()> {
    data.u16(count16(entries.len(), "local variables")?);
    for v in entries {
        let (start, end) = (layout.label(v.start)?, layout.label(v.end)?);
        data.u16(start as u16);
        data.u16(end.saturating_sub(start) as u16);
        data.u16(v.name_index);
        data.u16(v.descriptor_index);
        data.u16(v.index);
    }
    Ok(())
}

/// Appends `insn`, laid out at code `offset`, to `out`; `code` is the code
/// the model was lifted from, which runs copy.
pub(crate) fn emit(
    insn: &Insn,
    offset: u32,
    wide: bool,
    label_offset: &dyn Fn(Label) -> Result<u32>,
    code: &[u8],
    out: &mut Vec<u8>,
) -> Result<()> {
    let relative = |label: Label| -> Result<i32> { Ok(label_offset(label)? as i32 - offset as i32) };
    match insn {
        Insn::Label(_) => {}
        Insn::Raw { start, end } => {
            let run = code
                .get(*start as usize..*end as usize)
                .ok_or_else(|| ClassFileError::malformed_unlocated("a run of instructions outside the original code"))?;
            out.extend_from_slice(run);
        }
        Insn::Simple(opcode) => out.u8(*opcode),
        Insn::Push { opcode, value } => {
            if *opcode == op::BIPUSH && i8::try_from(*value).is_ok() {
                out.u8(op::BIPUSH);
                out.u8(*value as u8);
            } else {
                out.u8(op::SIPUSH);
                out.u16(*value as u16);
            }
        }
        Insn::Ldc { opcode, index } => {
            if *opcode == op::LDC && *index <= 255 {
                out.u8(op::LDC);
                out.u8(*index as u8);
            } else {
                out.u8(if *opcode == op::LDC { op::LDC_W } else { *opcode });
                out.u16(*index);
            }
        }
        Insn::Local { opcode, index, wide: w } => {
            if *w || *index > 255 {
                out.u8(op::WIDE);
                out.u8(*opcode);
                out.u16(*index);
            } else {
                out.u8(*opcode);
                out.u8(*index as u8);
            }
        }
        Insn::Iinc { index, delta, wide: w } => {
            if *w || *index > 255 || i8::try_from(*delta).is_err() {
                out.u8(op::WIDE);
                out.u8(op::IINC);
                out.u16(*index);
                out.u16(*delta as u16);
            } else {
                out.u8(op::IINC);
                out.u8(*index as u8);
                out.u8(*delta as u8);
            }
        }
        Insn::Pool { opcode, index } => {
            out.u8(*opcode);
            out.u16(*index);
        }
        Insn::InvokeInterface { index, count } => {
            out.u8(op::INVOKEINTERFACE);
            out.u16(*index);
            out.u8(*count);
            out.u8(0);
        }
        Insn::InvokeDynamic { index } => {
            out.u8(op::INVOKEDYNAMIC);
            out.u16(*index);
            out.u16(0);
        }
        Insn::NewArray { atype } => {
            out.u8(op::NEWARRAY);
            out.u8(*atype);
        }
        Insn::MultiANewArray { index, dimensions } => {
            out.u8(op::MULTIANEWARRAY);
            out.u16(*index);
            out.u8(*dimensions);
        }
        Insn::Branch { opcode, target } => match (*opcode, wide) {
            (op::GOTO_W | op::JSR_W, _) => {
                out.u8(*opcode);
                out.u32(relative(*target)? as u32);
            }
            (_, false) => {
                out.u8(*opcode);
                out.u16(relative(*target)? as i16 as u16);
            }
            (op::GOTO | op::JSR, true) => {
                out.u8(if *opcode == op::GOTO { op::GOTO_W } else { op::JSR_W });
                out.u32(relative(*target)? as u32);
            }
            (_, true) => {
                out.u8(op::invert_condition(*opcode));
                out.u16(8);
                out.u8(op::GOTO_W);
                out.u32((relative(*target)? - 3) as u32);
            }
        },
        Insn::TableSwitch { default, low, targets } => {
            out.u8(op::TABLESWITCH);
            out.extend(std::iter::repeat_n(0, switch_padding(offset)));
            out.u32(relative(*default)? as u32);
            out.u32(*low as u32);
            let high = i64::from(*low) + targets.len() as i64 - 1;
            let high = i32::try_from(high).map_err(|_| ClassFileError::malformed_unlocated("tableswitch range past i32"))?;
            out.u32(high as u32);
            for t in targets {
                out.u32(relative(*t)? as u32);
            }
        }
        Insn::LookupSwitch { default, pairs } => {
            out.u8(op::LOOKUPSWITCH);
            out.extend(std::iter::repeat_n(0, switch_padding(offset)));
            out.u32(relative(*default)? as u32);
            out.u32(pairs.len() as u32);
            for (key, t) in pairs {
                out.u32(*key as u32);
                out.u32(relative(*t)? as u32);
            }
        }
    }
    Ok(())
}
