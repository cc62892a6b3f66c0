//! Turning a [`CodeModel`] back into a Code attribute: lay out the code
//! (switch padding, branch widening) until offsets settle, give widened
//! conditional branches the frame they need, keep frames at distinct offsets,
//! then encode instructions, the exception table, and every table that holds
//! a code offset.
#![forbid(unsafe_code)]

use super::code::MAX_CODE_LENGTH;
use super::code_model::{switch_padding, CodeAttributeModel, CodeModel, CodeTarget, Insn, Label, LocalVariable};
use super::encode::{count16, Put};
use super::error::{ClassFileError, Result};
use super::frame_infer;
use super::opcodes as op;
use super::pool_builder::PoolBuilder;
use super::stack_depth;
use super::stack_map::{self, Frame};
use std::collections::HashMap;

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
            .ok_or_else(|| ClassFileError::malformed(0, format!("label {} is used but never bound", label.0)))
    }
}

/// Encoded size of `insn` at `offset`; `wide` says a short branch was widened.
fn size(insn: &Insn, offset: u32, wide: bool) -> u32 {
    match insn {
        Insn::Label(_) => 0,
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
                    ClassFileError::malformed(0, format!("label {} was not made by this code", label.0))
                })?;
                if slot.is_some() {
                    return Err(ClassFileError::malformed(0, format!("label {} is bound twice", label.0)));
                }
                *slot = Some(offset as u32);
            }
            offset += u64::from(size(insn, offset as u32, w));
            if offset > MAX_CODE_LENGTH as u64 {
                return Err(ClassFileError::limit(0, format!("the method's code would pass {MAX_CODE_LENGTH} bytes")));
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

impl<'a> CodeModel<'a> {
    /// Assembles the content of the Code attribute (everything after its
    /// 6-byte header). `pool` receives any constants new frames need.
    pub fn assemble(&self, pool: &mut PoolBuilder<'a>) -> Result<Vec<u8>> {
        let mut elements = self.elements.clone();
        let mut frames: HashMap<Label, Frame> = HashMap::with_capacity(self.frames.len());
        for (label, frame) in &self.frames {
            frames.insert(*label, frame.clone());
        }
        let mut next_label = self.label_count();
        let fresh = |next: &mut u32| {
            let label = Label(*next);
            *next += 1;
            label
        };
        if self.frames_required {
            // Frame inference names each `new` by the label right before it.
            let mut i = 0;
            while i < elements.len() {
                let is_new = matches!(elements.get(i), Some(Insn::Pool { opcode: op::NEW, .. }));
                let labelled = i > 0 && matches!(elements.get(i - 1), Some(Insn::Label(_)));
                if is_new && !labelled {
                    elements.insert(i, Insn::Label(fresh(&mut next_label)));
                    i += 1;
                }
                i += 1;
            }
        }

        let mut wide = vec![false; elements.len()];
        let layout = loop {
            let layout = layout(&elements, &mut wide, next_label as usize)?;
            if let Some((index, insert)) = self.next_fixup(&elements, &wide, &layout, &frames)? {
                match insert {
                    Fixup::Frame => {
                        let label = fresh(&mut next_label);
                        let frame = self.frame_after_branch(&elements, index, &frames, pool)?;
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

        let mut code = Vec::with_capacity(layout.length as usize);
        for ((insn, &offset), &w) in elements.iter().zip(&layout.offsets).zip(&wide) {
            emit(insn, offset, w, &layout, &mut code)?;
        }

        let mut out = Vec::with_capacity(code.len() + 64);
        let label_index: HashMap<Label, usize> = elements
            .iter()
            .enumerate()
            .filter_map(|(i, e)| if let Insn::Label(l) = e { Some((*l, i)) } else { None })
            .collect();
        let frame_list: Vec<(Label, Frame)> = frames.iter().map(|(l, f)| (*l, f.clone())).collect();
        let computed_stack =
            stack_depth::max_stack(&elements, &self.handlers, &|l| label_index.get(&l).copied(), pool)?;
        let computed_locals = stack_depth::max_locals(&elements, &frame_list, &self.initial_frame);
        let max_locals = u16::try_from(computed_locals.max(u32::from(self.max_locals)))
            .map_err(|_| ClassFileError::limit(0, "a method would need more than 65,535 local slots"))?;
        out.u16(self.max_stack.max(computed_stack));
        out.u16(max_locals);
        out.u32(code.len() as u32);
        out.extend_from_slice(&code);

        let handlers: Vec<[u16; 4]> = self
            .handlers
            .iter()
            .map(|h| {
                Ok([
                    layout.label(h.start)? as u16,
                    layout.label(h.end)? as u16,
                    layout.label(h.handler)? as u16,
                    h.catch_type,
                ])
            })
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            // Code edits can leave a range empty; the JVM refuses empty ranges.
            .filter(|[start, end, _, _]| start < end)
            .collect();
        out.u16(count16(handlers.len(), "exception handlers")?);
        handlers.iter().flatten().for_each(|&v| out.u16(v));

        let mut sorted_frames: Vec<(u32, &Frame)> =
            frames.iter().map(|(l, f)| Ok((layout.label(*l)?, f))).collect::<Result<Vec<_>>>()?;
        sorted_frames.sort_by_key(|(offset, _)| *offset);
        sorted_frames.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
        if sorted_frames.last().is_some_and(|(offset, _)| *offset >= layout.length) {
            return Err(ClassFileError::malformed(0, "a stack map frame after the last instruction"));
        }

        let mut attributes: Vec<(u16, Vec<u8>)> = Vec::with_capacity(self.attributes.len() + 1);
        let mut wrote_frames = false;
        for attribute in &self.attributes {
            let (name_index, data) = match attribute {
                CodeAttributeModel::Other(original) => {
                    attributes.push((original.name_index, original.data().to_vec()));
                    continue;
                }
                CodeAttributeModel::StackMapTable { name_index } => {
                    wrote_frames = true;
                    if sorted_frames.is_empty() {
                        continue;
                    }
                    let offset_of = |l: Label| layout.label(l);
                    (*name_index, stack_map::encode(&sorted_frames, &self.initial_frame, &offset_of)?)
                }
                CodeAttributeModel::LineNumbers { name_index, entries } => {
                    let mut data = Vec::with_capacity(2 + entries.len() * 4);
                    data.u16(count16(entries.len(), "line numbers")?);
                    for (label, line) in entries {
                        data.u16(layout.label(*label)? as u16);
                        data.u16(*line);
                    }
                    (*name_index, data)
                }
                CodeAttributeModel::LocalVariables { name_index, entries }
                | CodeAttributeModel::LocalVariableTypes { name_index, entries } => {
                    (*name_index, local_variables(entries, &layout)?)
                }
                CodeAttributeModel::TypeAnnotations { name_index, entries } => {
                    let mut data = Vec::new();
                    data.u16(count16(entries.len(), "type annotations")?);
                    for annotation in entries {
                        data.u8(annotation.target_type);
                        match &annotation.target {
                            CodeTarget::LocalVariable(ranges) => {
                                data.u16(count16(ranges.len(), "local variable ranges")?);
                                for (start, end, index) in ranges {
                                    let (s, e) = (layout.label(*start)?, layout.label(*end)?);
                                    data.u16(s as u16);
                                    data.u16(e.saturating_sub(s) as u16);
                                    data.u16(*index);
                                }
                            }
                            CodeTarget::Catch(index) => data.u16(*index),
                            CodeTarget::Offset(label) => data.u16(layout.label(*label)? as u16),
                            CodeTarget::TypeArgument(label, argument) => {
                                data.u16(layout.label(*label)? as u16);
                                data.u8(*argument);
                            }
                        }
                        data.extend_from_slice(annotation.rest);
                    }
                    (*name_index, data)
                }
            };
            attributes.push((name_index, data));
        }
        if !wrote_frames && self.frames_required && !sorted_frames.is_empty() {
            let name_index = pool.utf8(super::attribute::name::STACK_MAP_TABLE)?;
            let offset_of = |l: Label| layout.label(l);
            attributes.push((name_index, stack_map::encode(&sorted_frames, &self.initial_frame, &offset_of)?));
        }
        out.u16(count16(attributes.len(), "code attributes")?);
        for (name_index, data) in attributes {
            out.u16(name_index);
            out.u32(data.len() as u32);
            out.extend_from_slice(&data);
        }
        Ok(out)
    }

    /// The first place the layout needs a change: a widened conditional branch
    /// whose fall-through has no frame, or two different frames at one offset.
    fn next_fixup(
        &self,
        elements: &[Insn],
        wide: &[bool],
        layout: &Layout,
        frames: &HashMap<Label, Frame>,
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
                        .any(|e| matches!(e, Insn::Label(l) if frames.contains_key(l)));
                    if !has_frame {
                        return Ok(Some((i, Fixup::Frame)));
                    }
                }
            }
        }
        let mut previous: Option<(u32, &Frame)> = None;
        for (i, insn) in elements.iter().enumerate() {
            if let Insn::Label(label) = insn {
                if let Some(frame) = frames.get(label) {
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
    fn frame_after_branch(
        &self,
        elements: &[Insn],
        index: usize,
        frames: &HashMap<Label, Frame>,
        pool: &mut PoolBuilder<'a>,
    ) -> Result<Frame> {
        let mut frame = frame_infer::frame_before(
            elements,
            index,
            &|l| frames.get(&l).cloned(),
            &self.initial_frame,
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

fn local_variables(entries: &[LocalVariable], layout: &Layout) -> Result<Vec<u8>> {
    let mut data = Vec::with_capacity(2 + entries.len() * 10);
    data.u16(count16(entries.len(), "local variables")?);
    for v in entries {
        let (start, end) = (layout.label(v.start)?, layout.label(v.end)?);
        data.u16(start as u16);
        data.u16(end.saturating_sub(start) as u16);
        data.u16(v.name_index);
        data.u16(v.descriptor_index);
        data.u16(v.index);
    }
    Ok(data)
}

fn emit(insn: &Insn, offset: u32, wide: bool, layout: &Layout, out: &mut Vec<u8>) -> Result<()> {
    let relative = |label: Label| -> Result<i32> { Ok(layout.label(label)? as i32 - offset as i32) };
    match insn {
        Insn::Label(_) => {}
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
            out.extend(std::iter::repeat(0).take(switch_padding(offset)));
            out.u32(relative(*default)? as u32);
            out.u32(*low as u32);
            let high = i64::from(*low) + targets.len() as i64 - 1;
            let high = i32::try_from(high).map_err(|_| ClassFileError::malformed(0, "tableswitch range past i32"))?;
            out.u32(high as u32);
            for t in targets {
                out.u32(relative(*t)? as u32);
            }
        }
        Insn::LookupSwitch { default, pairs } => {
            out.u8(op::LOOKUPSWITCH);
            out.extend(std::iter::repeat(0).take(switch_padding(offset)));
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
