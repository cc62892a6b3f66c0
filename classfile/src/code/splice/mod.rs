//! Splicing: editing a method's code without lifting it. The code is scanned
//! once; only the instructions an edit replaces (returns, `athrow`) and those
//! that hold code offsets (branches, switches) are looked at again, and every
//! other byte is copied. Generated code comes encoded, as [`Chunk`]s: a
//! prologue before the first instruction, a replacement for each return and
//! `athrow`, and a tail after the last instruction.
//!
//! Labels: `Label(offset)` names original code offset `offset` (up to the code
//! length), and [`CodeModel::new_label`] gives generated code labels above
//! those. The [`CodeModel`] a splice starts from holds no instructions, only
//! what an edit changes besides code: the exception handlers, max_locals,
//! and the frames an edit adds; the original frames (by original offset) the
//! [`Splice`] holds, as one [`FrameList`] rather than a list per frame.
//!
//! The Code attribute written is the one the general path (lift by runs,
//! [`CodeModel::assemble_owned`]) writes for the same edits. Where the two
//! would differ — a branch that needs widening, two frames at one offset,
//! an `athrow` whose stack depth takes more than falling through from the
//! frame before it — and wherever the code is not what a splice handles
//! (`jsr`/`ret`, `goto_w`, type annotations, anything malformed), a splice
//! declines ([`Prepared::Declined`], or `None` from [`Splice::assemble`]) and
//! the caller takes the general path, which also reports any error.
#![forbid(unsafe_code)]

mod depth;
mod layout;
mod scan;
mod spliced_code;

pub use depth::{peak, replacement_peak};
use layout::Layout;
pub use scan::{Site, SiteKind};
use scan::{scan_into, OffsetBits, Scanned, STARTS};
pub use spliced_code::SplicedCode;

use crate::code::code_attribute_writer::{patch_u16, CodeAttributeWriter};
use crate::read::attribute::name;
use crate::code::chaining;
use crate::code::check::SplicedRegions;
use crate::code::chunk::{patch_branch, write_patched, OperandValue, Placed};
use crate::read::class_file::{ClassFile, Member};
use crate::read::code_attribute::{CodeAttribute, MAX_CODE_LENGTH};
use crate::code::code_model::CodeModel;
use crate::code::insn::{Handler, Insn, Label};
use crate::code::decode::switch_padding;
use crate::read::access::ACC_STATIC;
use crate::read::descriptor::FieldType;
use crate::code::encode::{count16, Put};
use crate::read::error::{ClassFileError, Result};
use crate::read::opcodes as op;
use crate::code::pool::CodePool;
use crate::code::stack_depth;
use crate::code::stack_map::{Frame, FrameList, FrameView, VType};
use crate::code::stack_map_encode::{self, EncodedFrames};

/// What a splice does to the code: generated code as [`Chunk`]s.
pub struct Edits<'e> {
    /// The prologue goes before the instruction at this offset (0: first);
    /// labels at that offset name the first instruction after it.
    pub insert_at: u32,
    /// Generated code before the original code.
    pub prologue: Placed<'e>,
    /// The code in place of every return, and of every `athrow`; `None`
    /// keeps them. A chunk placed at several sites binds no label.
    pub returns: Option<Placed<'e>>,
    /// The code in place of every `athrow`; `None` keeps them.
    pub throws: Option<Placed<'e>>,
    /// After the last instruction.
    pub tail: Placed<'e>,
    /// Frames already encoded that follow the model's frames.
    pub frames_after: Option<FramesAfter<'e>>,
}

/// Encoded frames that follow the frame at `label`, the last of the
/// others in code order, with `patches` written over them as they are
/// copied (a template's frames name the class's constants there); and
/// frames of the generated code lent rather than added to the model (a
/// template's copy lends the method's entry frame for each of its prologue's).
#[derive(Clone, Copy)]
pub struct FramesAfter<'e> {
    /// The frame the encoded ones follow.
    pub label: Label,
    /// The encoded frames.
    pub frames: &'e EncodedFrames,
    /// Operands written over the encoded frames as they are copied.
    pub patches: &'e [OperandValue],
    /// Frames of the generated code lent, each at its label.
    pub lent: &'e [(Label, &'e Frame)],
}

impl<'e> Edits<'e> {
    /// The code in place of a return or `athrow` site.
    fn replacement(&self, kind: SiteKind) -> Option<Placed<'e>> {
        match kind {
            SiteKind::Return(_) => self.returns,
            SiteKind::Throw => self.throws,
            SiteKind::Switch | SiteKind::Insert => None,
        }
    }
}

/// A method's code, scanned for splicing.
pub struct Splice<'a> {
    code: CodeAttribute<'a>,
    sites: Vec<Site>,
    /// The offset of each 16-bit branch, in code order. A branch keeps its
    /// length: it is copied with the code around it, and its offset is
    /// patched once the code is in place (most sites are branches, and
    /// telling each apart from the others was a jump no predictor learns).
    branches: Vec<u32>,
    /// Which code offsets are instruction starts (the other bits are the
    /// scan's, kept rather than copied out).
    starts: Vec<OffsetBits>,
    /// The original frames, labelled by offset: the model holds only those
    /// an edit adds.
    frames: FrameList,
    /// Room for the [`Layout`]'s lists.
    spare: LayoutLists,
}

/// The lists a splice fills for each method, kept by the caller from one
/// method to the next ([`prepare_reusing`], [`Splice::recycle`]): a worker
/// splices thousands of methods, and each list was an allocation for each.
/// What they held before is never read: each is cleared as it is taken.
#[derive(Debug, Default)]
pub struct SpliceLists {
    sites: Vec<Site>,
    branches: Vec<u32>,
    starts: Vec<OffsetBits>,
    frames: FrameList,
    layout: LayoutLists,
}

/// A [`Layout`]'s lists, kept as room while no layout holds them.
#[derive(Debug, Default)]
struct LayoutLists {
    placed: Vec<(u32, i32)>,
    generated: Vec<Option<u32>>,
}

/// What [`prepare`] made of a method. Not boxed: it is taken apart at
/// once, and a box was an allocation for every method spliced.
#[allow(clippy::large_enum_variant)]
pub enum Prepared<'a> {
    /// Abstract or native.
    NoCode,
    /// A splice does not handle this code: take the general path.
    Declined,
    /// The method's model (no instructions) and its scanned code.
    Ready(CodeModel<'a>, Splice<'a>),
}

/// The code of method `method` of `class`, scanned, and the model an edit
/// changes. `parameters`: the method's parameter types, as the caller has
/// read them from its descriptor. `pool` receives what the general path's
/// lift gives it (the Class constants of the first frame), in the same order.
pub fn prepare<'a, 'd>(
    class: &ClassFile<'a>,
    method: &Member<'a>,
    parameters: impl ExactSizeIterator<Item = FieldType<'d>>,
    pool: &mut impl CodePool<'a>,
) -> Result<Prepared<'a>> {
    prepare_reusing(class, method, parameters, pool, &mut SpliceLists::default())
}

/// [`prepare`], filling the lists `lists` holds (see [`SpliceLists`]);
/// [`Splice::recycle`] gives them back.
pub fn prepare_reusing<'a, 'd>(
    class: &ClassFile<'a>,
    method: &Member<'a>,
    parameters: impl ExactSizeIterator<Item = FieldType<'d>>,
    pool: &mut impl CodePool<'a>,
    lists: &mut SpliceLists,
) -> Result<Prepared<'a>> {
    let Some(code) = class.code(method)? else {
        return Ok(Prepared::NoCode);
    };
    let frames_required = class.major_version() >= 50;
    let has_type_annotations = code
        .attributes
        .iter()
        .any(|a| a.is(name::RUNTIME_VISIBLE_TYPE_ANNOTATIONS) || a.is(name::RUNTIME_INVISIBLE_TYPE_ANNOTATIONS));
    if !frames_required || has_type_annotations {
        return Ok(Prepared::Declined);
    }
    let mut scanned = Scanned {
        sites: std::mem::take(&mut lists.sites),
        branches: std::mem::take(&mut lists.branches),
        starts: std::mem::take(&mut lists.starts),
    };
    if scan_into(code.code, &mut scanned).is_none() {
        (lists.sites, lists.branches, lists.starts) = (scanned.sites, scanned.branches, scanned.starts);
        return Ok(Prepared::Declined);
    }
    let Scanned { sites, branches, starts } = scanned;
    let frames = std::mem::take(&mut lists.frames);
    let mut splice = Splice { code, sites, branches, starts, frames, spare: std::mem::take(&mut lists.layout) };
    let Ok(initial_frame) = Frame::initial_with(
        class.this_class_index(),
        method.access_flags & ACC_STATIC != 0,
        method.name_is("<init>"),
        parameters,
        pool,
    ) else {
        return Ok(Prepared::Declined);
    };
    let Some(()) = splice.decode_frames(&initial_frame, pool) else {
        return Ok(Prepared::Declined);
    };
    let code_len = splice.code_len();
    let mut handlers = Vec::with_capacity(splice.code.exception_table.len());
    for h in &splice.code.exception_table {
        let (start, end, handler) = (u32::from(h.start_pc), u32::from(h.end_pc), u32::from(h.handler_pc));
        if !(splice.is_start(start) && splice.is_position(end) && splice.is_start(handler)) {
            return Ok(Prepared::Declined);
        }
        handlers.push(Handler {
            start: Label(start),
            end: Label(end),
            handler: Label(handler),
            catch_type: h.catch_type,
        });
    }
    let model = CodeModel {
        max_stack: splice.code.max_stack,
        max_locals: splice.code.max_locals,
        elements: Vec::new(),
        handlers,
        attributes: Vec::new(),
        frames: Vec::new(),
        initial_frame,
        frames_required,
        this_class: class.this_class_index(),
        next_label: code_len + 1,
        code: splice.code.code,
    };
    Ok(Prepared::Ready(model, splice))
}

impl<'a> Splice<'a> {
    /// Gives this splice's lists back to `lists`, for the next method.
    pub fn recycle(self, lists: &mut SpliceLists) {
        (lists.sites, lists.branches, lists.starts, lists.layout) = (self.sites, self.branches, self.starts, self.spare);
        lists.frames = self.frames;
    }

    /// The sites the scan found, in code order.
    pub fn sites(&self) -> &[Site] {
        &self.sites
    }

    fn code_len(&self) -> u32 {
        self.code.code.len() as u32
    }

    fn is_start(&self, offset: u32) -> bool {
        let i = offset as usize;
        self.starts.get(i / 64).is_some_and(|w| w[STARTS] & (1 << (i % 64)) != 0) && offset < self.code_len()
    }

    /// An instruction start or the end of the code.
    fn is_position(&self, offset: u32) -> bool {
        offset == self.code_len() || self.is_start(offset)
    }

    /// The original frames, as [`stack_map::decode`] gives them, labelled by
    /// offset; `None` if they are malformed or off an instruction start.
    fn decode_frames<'p>(&mut self, initial: &Frame, pool: &mut impl CodePool<'p>) -> Option<()> {
        let mut frames = std::mem::take(&mut self.frames);
        let decoded = self.decode_frames_into(&mut frames, initial, pool);
        self.frames = frames;
        decoded
    }

    fn decode_frames_into<'p>(&self, frames: &mut FrameList, initial: &Frame, pool: &mut impl CodePool<'p>) -> Option<()> {
        let Some(attribute) = self.code.attribute(name::STACK_MAP_TABLE) else {
            frames.clear(initial);
            return Some(());
        };
        let budget = 64 * self.code.attribute.raw.len() + 65_536;
        // Every frame, and every uninitialized type, at an instruction start.
        let mut label_at = |offset: u32, at: usize| {
            if self.is_start(offset) {
                Ok(Label(offset))
            } else {
                Err(ClassFileError::malformed(at, "a frame names a code offset that is no instruction start"))
            }
        };
        frames.decode_table(&attribute, initial, budget, pool, &mut label_at).ok()
    }

    /// [`Frame::set_locals`] of `locals` on each original frame at an offset
    /// from `from` on.
    pub fn set_frame_locals(&mut self, from: u32, locals: &[(u16, VType)]) {
        self.frames.set_locals(from, locals);
    }

    /// Where a constructor's body starts: after its `super(...)`/`this(...)`
    /// call, found as the general path finds it (following the types, which
    /// may add Class constants to the pool, in the same order), when the code
    /// up to it runs straight and holds no frame or handler. `None`: take the
    /// general path.
    pub fn chaining_call_end(&self, model: &CodeModel<'a>, pool: &mut impl CodePool<'a>) -> Option<u32> {
        let end = match plain_chaining_call_end(self.code.code, pool) {
            Some(end) => end,
            None => self.followed_chaining_call_end(model, pool)?,
        };
        let frame_before = self.frames.count_before(end) > 0 || model.frames.iter().any(|(l, _)| l.0 < end);
        let handler_before = model.handlers.iter().any(|h| h.start.0 < end || h.handler.0 < end);
        (!frame_before && !handler_before).then_some(end)
    }

    /// The end of the chaining call found by following the types, as the
    /// general path finds it.
    fn followed_chaining_call_end(&self, model: &CodeModel<'a>, pool: &mut impl CodePool<'a>) -> Option<u32> {
        // The straight code at the start as the lift by runs has it: runs,
        // and each invokespecial an element of its own.
        let code = self.code.code;
        let mut elements = Vec::new();
        let mut ends = Vec::new();
        let (mut run_start, mut at) = (0usize, 0usize);
        while let Some(&opcode) = code.get(at) {
            let length = match opcode {
                op::WIDE if code.get(at + 1) == Some(&op::IINC) => 6,
                op::WIDE => 4,
                _ => match op::plain_length(opcode) {
                    Some(length) => length,
                    None => break, // a branch, switch, return, athrow
                },
            };
            if opcode == op::INVOKESPECIAL {
                if run_start < at {
                    elements.push(Insn::Raw { start: run_start as u32, end: at as u32 });
                    ends.push(at as u32);
                }
                let index = u16::from_be_bytes([*code.get(at + 1)?, *code.get(at + 2)?]);
                elements.push(Insn::Pool { opcode: op::INVOKESPECIAL, index });
                ends.push((at + 3) as u32);
                run_start = at + 3;
            }
            at += length;
        }
        let chaining =
            chaining::chaining_calls(&elements, code, &[], &[], &model.initial_frame, model.this_class, pool).ok()?;
        let Ok(chaining::Start::One(after)) = chaining.start() else {
            return None;
        };
        ends.get(after.checked_sub(1)?).copied()
    }

    /// Assembles `model` (the one [`prepare`] gave, edited) with `edits`.
    /// `None`: the general path must assemble this method.
    pub fn assemble(
        &mut self,
        model: &CodeModel<'a>,
        edits: &Edits<'_>,
        pool: &mut impl CodePool<'a>,
    ) -> Result<Option<SplicedCode>> {
        if !self.is_start(edits.insert_at) {
            return Ok(None);
        }
        // The prologue's place goes among the sites for the assembly (in
        // place: a list of its own was an allocation for every method).
        let i = self.sites.partition_point(|s| s.offset < edits.insert_at);
        self.sites.insert(i, Site { offset: edits.insert_at, kind: SiteKind::Insert, length: 0 });
        let sites = std::mem::take(&mut self.sites);
        let mut spare = std::mem::take(&mut self.spare);
        let assembled = self.assemble_at(&sites, model, edits, pool, &mut spare);
        (self.sites, self.spare) = (sites, spare);
        self.sites.remove(i);
        assembled
    }

    fn assemble_at(
        &self,
        sites: &[Site],
        model: &CodeModel<'a>,
        edits: &Edits<'_>,
        pool: &mut impl CodePool<'a>,
        spare: &mut LayoutLists,
    ) -> Result<Option<SplicedCode>> {
        let Some(layout) = self.layout(model, sites, edits, std::mem::take(spare)) else {
            return Ok(None);
        };
        let assembled = self.assemble_laid_out(sites, &layout, model, edits, pool);
        *spare = LayoutLists { placed: layout.placed, generated: layout.generated };
        assembled
    }

    fn assemble_laid_out(
        &self,
        sites: &[Site],
        layout: &Layout,
        model: &CodeModel<'a>,
        edits: &Edits<'_>,
        pool: &mut impl CodePool<'a>,
    ) -> Result<Option<SplicedCode>> {
        let Some(max_stack) = self.max_stack(model, sites, edits, pool)? else {
            return Ok(None);
        };
        let label = |l: Label| layout.label(sites, l);
        let code = self.code.code;

        // The code, the original attribute's tables, and room for the new frames.
        let capacity = layout.length as usize + self.code.attribute.raw.len() + 16 * (self.frames.len() + model.frames.len()) + 64;
        let mut writer = CodeAttributeWriter::new(capacity, max_stack, model.max_locals, layout.length);
        let base = writer.code_start();
        let out = writer.out();
        let mut cursor = 0usize;
        // What the splice writes itself, for the pre-write check.
        let mut regions = SplicedRegions { prologue: (0, 0), returns: Vec::new(), others: Vec::new() };
        for (site, &(new_offset, _)) in sites.iter().zip(&layout.placed) {
            out.extend_from_slice(code.get(cursor..site.offset as usize).unwrap_or_default());
            let at = site.offset as usize;
            let generated = match site.kind {
                SiteKind::Switch => {
                    let Some(()) = self.switch(at, new_offset, sites, layout, out) else {
                        return Ok(None);
                    };
                    None
                }
                SiteKind::Insert => Some(edits.prologue),
                SiteKind::Return(_) | SiteKind::Throw => {
                    let replacement = edits.replacement(site.kind);
                    if replacement.is_none() {
                        out.u8(code[at]);
                    }
                    replacement
                }
            };
            if let Some(chunk) = generated {
                let Some(()) = place(chunk, base, &label, out) else {
                    return Ok(None);
                };
            }
            let region = (new_offset, (out.len() - base) as u32);
            match site.kind {
                SiteKind::Insert => regions.prologue = region,
                SiteKind::Return(opcode) if generated.is_some() => regions.returns.push((region.0, region.1, opcode)),
                SiteKind::Switch => regions.others.push(region),
                SiteKind::Throw if generated.is_some() => regions.others.push(region),
                SiteKind::Return(_) | SiteKind::Throw => {}
            }
            cursor = at + site.length as usize;
        }
        out.extend_from_slice(code.get(cursor..).unwrap_or_default());
        let tail_at = (out.len() - base) as u32;
        let Some(()) = place(edits.tail, base, &label, out) else {
            return Ok(None);
        };
        regions.others.push((tail_at, (out.len() - base) as u32));
        if out.len() - base != layout.length as usize {
            return Ok(None);
        }
        // The branches were copied with the code around them: now their offsets.
        for &at in &self.branches {
            let Some(target) = relative_target(code, at as usize, 2).filter(|&t| self.is_start(t)) else {
                return Ok(None);
            };
            if !patch_branch(&mut out[base..], layout.remap(sites, at), layout.remap(sites, target)) {
                return Ok(None);
            }
        }

        let offset_of = |l: Label| {
            label(l).ok_or_else(|| crate::read::error::ClassFileError::malformed_unlocated(format!("label {} is not bound", l.0)))
        };
        if writer.exception_table(&model.handlers, &offset_of).is_err() {
            return Ok(None);
        }
        let lent = edits.frames_after.map_or(&[][..], |after| after.lent);
        let Ok(frames) = self.frames_in_code_order(sites, layout, model, lent, &offset_of) else {
            return Ok(None);
        };
        // Two different frames at one offset: the general path puts a `nop` between.
        if frames.windows(2).any(|w| w[0].offset == w[1].offset) || frames.last().is_some_and(|v| v.offset >= layout.length) {
            return Ok(None);
        }
        if let Some(after) = edits.frames_after {
            if frames.last().map(|v| v.offset) != Some(offset_of(after.label)?) {
                return Ok(None);
            }
        }

        let mut wrote_frames = false;
        let mut stack_map_name_at = None;
        for attribute in &self.code.attributes {
            let is_frames = attribute.is(name::STACK_MAP_TABLE);
            if is_frames {
                wrote_frames = true;
                if frames.is_empty() {
                    continue;
                }
            }
            writer.begin_attribute(attribute.name_index);
            let out = writer.out();
            if is_frames {
                encode_frames(&frames, model, edits, &offset_of, out)?;
            } else if attribute.is(name::LINE_NUMBER_TABLE) {
                let Some(()) = self.line_numbers(attribute.data(), sites, layout, out) else {
                    return Ok(None);
                };
            } else if attribute.is(name::LOCAL_VARIABLE_TABLE) || attribute.is(name::LOCAL_VARIABLE_TYPE_TABLE) {
                let Some(()) = self.local_variables(attribute.data(), sites, layout, out) else {
                    return Ok(None);
                };
            } else {
                out.extend_from_slice(attribute.data());
            }
            writer.end_attribute()?;
        }
        if !wrote_frames && !frames.is_empty() {
            stack_map_name_at = Some(writer.begin_attribute(0));
            encode_frames(&frames, model, edits, &offset_of, writer.out())?;
            writer.end_attribute()?;
        }
        Ok(Some(SplicedCode { data: writer.finish()?, stack_map_name_at, regions: Some(regions) }))
    }

    /// The original frames, the model's and those `lent`, at their new
    /// offsets in code order, the same frame at one offset once (as
    /// [`frames_in_code_order`](crate::code::assembler::frames_in_code_order) has them on the general path).
    fn frames_in_code_order<'f>(
        &'f self,
        sites: &[Site],
        layout: &Layout,
        model: &'f CodeModel<'a>,
        lent: &[(Label, &'f Frame)],
        offset_of: &dyn Fn(Label) -> Result<u32>,
    ) -> Result<Vec<FrameView<'f>>> {
        let mut sorted: Vec<FrameView<'f>> = Vec::with_capacity(self.frames.len() + model.frames.len() + lent.len());
        // The original frames keep their order (the code around them moves
        // as a whole), each at an offset of its own.
        let (mut site, mut in_order, mut before) = (0, true, None);
        sorted.extend(self.frames.views(|label| {
            let offset = layout.remap_next(sites, label.0, &mut site);
            in_order &= before.is_none_or(|b| b < offset);
            before = Some(offset);
            offset
        }));
        // The few added go in after the frames at or before their offset, in
        // the order they were added, and not at all after one just like them:
        // as a stable sort of all, then dropping each frame equal to the one
        // before, has them.
        for (label, frame) in model.frames.iter().map(|(l, f)| (*l, f)).chain(lent.iter().copied()) {
            let added = FrameView::of(offset_of(label)?, frame);
            if !in_order {
                sorted.push(added);
                continue;
            }
            let at = sorted.partition_point(|v| v.offset <= added.offset);
            if at.checked_sub(1).and_then(|b| sorted.get(b)).is_none_or(|b| !b.is(&added)) {
                sorted.insert(at, added);
            }
        }
        if !in_order {
            sorted.sort_by_key(|v| v.offset);
            sorted.dedup_by(|a, b| a.is(b));
        }
        Ok(sorted)
    }

    fn layout(&self, model: &CodeModel<'a>, sites: &[Site], edits: &Edits<'_>, room: LayoutLists) -> Option<Layout> {
        let code_len = self.code_len();
        let LayoutLists { mut placed, mut generated } = room;
        generated.clear();
        generated.resize((model.next_label - code_len - 1) as usize, None);
        placed.clear();
        let mut bind = |chunk: Placed<'_>, offset: u32| -> Option<u32> {
            for (l, at) in chunk.labels() {
                let slot = generated.get_mut(l.0.checked_sub(code_len + 1)? as usize)?;
                if slot.is_some() {
                    return None;
                }
                *slot = Some(offset + at);
            }
            Some(offset + chunk.len())
        };
        let mut shift = 0i64;
        for site in sites {
            let new_offset = u32::try_from(i64::from(site.offset) + shift).ok()?;
            let new_length = match site.kind {
                SiteKind::Switch => {
                    let old_padding = switch_padding(site.offset);
                    site.length - old_padding as u32 + switch_padding(new_offset) as u32
                }
                SiteKind::Insert => bind(edits.prologue, new_offset)? - new_offset,
                SiteKind::Return(_) | SiteKind::Throw => match edits.replacement(site.kind) {
                    Some(chunk) => bind(chunk, new_offset)? - new_offset,
                    None => site.length,
                },
            };
            shift += i64::from(new_length) - i64::from(site.length);
            placed.push((new_offset, i32::try_from(shift).ok()?));
        }
        let body_end = u32::try_from(i64::from(code_len) + shift).ok()?;
        let length = bind(edits.tail, body_end)?;
        (length as usize <= MAX_CODE_LENGTH).then_some(Layout { code_len, placed, generated, length })
    }

    /// max_stack as the general path computes it: the original's, or more
    /// where generated code goes deeper. Code generated in the middle (the
    /// prologue of a constructor, a replacement that goes deeper than the
    /// instruction it replaces) needs the depth where it goes, found by
    /// falling through from the frame before it.
    fn max_stack(
        &self,
        model: &CodeModel<'a>,
        sites: &[Site],
        edits: &Edits<'_>,
        pool: &mut impl CodePool<'a>,
    ) -> Result<Option<u16>> {
        // The original frames, in offset order as decoded.
        let frames = &self.frames;
        let mut max = i32::from(edits.tail.peak());
        for site in sites {
            // The peak of the generated code over the depth it starts at.
            let peak = match site.kind {
                SiteKind::Insert => i32::from(edits.prologue.peak()),
                SiteKind::Return(_) | SiteKind::Throw => edits.replacement(site.kind).map_or(0, |c| i32::from(c.peak())),
                SiteKind::Switch => 0,
            };
            // A replaced return must hold just its result: values below it
            // would reach the exit block (the general path drains them).
            let result = match site.kind {
                SiteKind::Return(opcode) if edits.returns.is_some() => Some(op::returned_slots(opcode)),
                _ => None,
            };
            if peak == 0 && result.is_none() {
                continue;
            }
            let at_site = if site.offset == 0 {
                0
            } else {
                let i = frames.count_before(site.offset + 1);
                let (from, depth) = match i.checked_sub(1).and_then(|i| frames.get(i)) {
                    Some((label, _, stack)) => (label.0, stack.iter().map(VType::slots).sum::<usize>() as i32),
                    None => (0, 0),
                };
                match stack_depth::depth_by_fall_through(self.code.code, from, site.offset, depth, pool)? {
                    Some(depth) => depth,
                    None => return Ok(None),
                }
            };
            if result.is_some_and(|slots| slots != at_site) {
                return Ok(None);
            }
            max = max.max(at_site + peak);
        }
        Ok(u16::try_from(max).ok().map(|max| model.max_stack.max(max)))
    }

    /// Rewrites the switch at `at`, landing at `new_offset`.
    fn switch(&self, at: usize, new_offset: u32, sites: &[Site], layout: &Layout, out: &mut Vec<u8>) -> Option<()> {
        let code = self.code.code;
        let opcode = code[at];
        let operands = at + 1 + switch_padding(at as u32);
        let u32_at = |i: usize| code.get(i..i + 4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
        let retarget = |i: usize| -> Option<u32> {
            let target = i64::from(at as u32) + i64::from(u32_at(i)? as i32);
            let target = u32::try_from(target).ok().filter(|&t| self.is_start(t))?;
            Some((i64::from(layout.remap(sites, target)) - i64::from(new_offset)) as i32 as u32)
        };
        out.u8(opcode);
        out.extend(std::iter::repeat_n(0, switch_padding(new_offset)));
        out.u32(retarget(operands)?);
        if opcode == op::TABLESWITCH {
            let (low, high) = (u32_at(operands + 4)?, u32_at(operands + 8)?);
            out.u32(low);
            out.u32(high);
            let count = (i64::from(high as i32) - i64::from(low as i32) + 1) as usize;
            for k in 0..count {
                out.u32(retarget(operands + 12 + 4 * k)?);
            }
        } else {
            let pairs = u32_at(operands + 4)?;
            out.u32(pairs);
            for k in 0..pairs as usize {
                out.u32(u32_at(operands + 8 + 8 * k)?);
                out.u32(retarget(operands + 12 + 8 * k)?);
            }
        }
        Some(())
    }

    /// The LineNumberTable `data` with its offsets moved: copied whole, then
    /// each `start_pc` written over.
    fn line_numbers(&self, data: &[u8], sites: &[Site], layout: &Layout, out: &mut Vec<u8>) -> Option<()> {
        let at = out.len();
        out.extend_from_slice(data);
        for entry in table_entries(out.get_mut(at..)?, 4)? {
            let pc = u32::from(u16::from_be_bytes([entry[0], entry[1]]));
            if !self.is_position(pc) {
                return None;
            }
            entry[..2].copy_from_slice(&(layout.remap(sites, pc) as u16).to_be_bytes());
        }
        Some(())
    }

    /// The LocalVariableTable or LocalVariableTypeTable `data` with its
    /// ranges moved: copied whole, then each `start_pc` and `length` written over.
    fn local_variables(&self, data: &[u8], sites: &[Site], layout: &Layout, out: &mut Vec<u8>) -> Option<()> {
        let at = out.len();
        out.extend_from_slice(data);
        for entry in table_entries(out.get_mut(at..)?, 10)? {
            let start = u32::from(u16::from_be_bytes([entry[0], entry[1]]));
            let end = start + u32::from(u16::from_be_bytes([entry[2], entry[3]]));
            if !(self.is_position(start) && self.is_position(end)) {
                return None;
            }
            let (new_start, new_end) = (layout.remap(sites, start), layout.remap(sites, end));
            entry[..2].copy_from_slice(&(new_start as u16).to_be_bytes());
            entry[2..4].copy_from_slice(&(new_end.saturating_sub(new_start) as u16).to_be_bytes());
        }
        Some(())
    }
}

/// The entries of a table of `size`-byte entries after its u16 count;
/// `None` unless the count says exactly how long it is.
fn table_entries(table: &mut [u8], size: usize) -> Option<std::slice::ChunksExactMut<'_, u8>> {
    let (count, entries) = table.split_first_chunk_mut::<2>()?;
    (usize::from(u16::from_be_bytes(*count)) * size == entries.len()).then(|| entries.chunks_exact_mut(size))
}

/// The end of a constructor's chaining call when its code starts as most
/// do: `aload_0`, loads of locals and constants, `invokespecial <init>`
/// taking just what they pushed. Its receiver is then `uninitializedThis`,
/// and following the types (which these instructions add nothing to the
/// pool for) would find the same call; `None` for any other start.
fn plain_chaining_call_end<'p>(code: &[u8], pool: &mut impl CodePool<'p>) -> Option<u32> {
    if code.first() != Some(&op::ALOAD_0) {
        return None;
    }
    let (mut at, mut pushed) = (1usize, 0i32);
    loop {
        let opcode = *code.get(at)?;
        match opcode {
            op::INVOKESPECIAL => break,
            // Constants (but those `ldc` loads) and loads of locals.
            op::ACONST_NULL..=op::ALOAD_3 if !matches!(opcode, op::LDC | op::LDC_W | op::LDC2_W) => {
                at += op::plain_length(opcode)?;
                pushed += op::fixed_stack_effect(opcode);
            }
            _ => return None,
        }
    }
    let index = u16::from_be_bytes([*code.get(at + 1)?, *code.get(at + 2)?]);
    let (arguments, _) = pool.method_slots(index).ok()?;
    let (_, name) = pool.method_owner_and_name(index).ok()?;
    (name == "<init>" && arguments == pushed).then_some((at + 3) as u32)
}

/// The target of the branch at `at`, whose offset has `width` bytes.
fn relative_target(code: &[u8], at: usize, width: usize) -> Option<u32> {
    let bytes = code.get(at + 1..at + 1 + width)?;
    let delta = i64::from(i16::from_be_bytes([bytes[0], bytes[1]]));
    u32::try_from(at as i64 + delta).ok()
}

/// The StackMapTable's content: the model's frames, then those the edits
/// bring encoded.
fn encode_frames(
    frames: &[FrameView<'_>],
    model: &CodeModel<'_>,
    edits: &Edits<'_>,
    offset_of: &dyn Fn(Label) -> Result<u32>,
    out: &mut Vec<u8>,
) -> Result<()> {
    let count_at = out.len();
    stack_map_encode::encode_views_into(frames, &model.initial_frame.locals, offset_of, out)?;
    if let Some(after) = edits.frames_after {
        let count = count16(frames.len() + usize::from(after.frames.count), "frames")?;
        write_patched(&after.frames.bytes, after.patches, out);
        patch_u16(out, count_at, count);
    }
    Ok(())
}

/// Copies `chunk` to the end of `out` (code starting at `base`) and points
/// its jumps at their labels; `None` if one does not fit 16 bits (the
/// general path would widen it).
fn place(chunk: Placed<'_>, base: usize, label: &dyn Fn(Label) -> Option<u32>, out: &mut Vec<u8>) -> Option<()> {
    let at = out.len();
    chunk.write(out);
    for (from, target) in chunk.jumps() {
        let from = (at - base) as u32 + from;
        if !patch_branch(&mut out[base..], from, label(target)?) {
            return None;
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use super::scan::scan;
    use crate::write::pool_builder::PoolBuilder;
    use crate::read::constant_pool::ConstantPool;
    use crate::read::reader::Reader;

    #[test]
    fn a_plain_chaining_call_is_the_first_init_taking_just_what_was_pushed_after_this() {
        let empty = [0u8, 1];
        let mut pool = PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&empty)).expect("empty pool"));
        let [none, int_long, other] =
            [("<init>", "()V"), ("<init>", "(IJ)V"), ("helper", "()V")].map(|(name, descriptor)| {
                pool.method_ref("p/Super", name, descriptor).expect("method ref").to_be_bytes()
            });
        let call = |index: [u8; 2]| [op::INVOKESPECIAL, index[0], index[1]];
        let code = |parts: &[&[u8]]| parts.concat();
        let mut end = |code: Vec<u8>| plain_chaining_call_end(&code, &mut pool);
        // super(); super(i, l), the long pushed as two slots
        assert_eq!(end(code(&[&[op::ALOAD_0], &call(none)])), Some(4));
        assert_eq!(end(code(&[&[op::ALOAD_0, op::ILOAD_0 + 1, op::LLOAD, 2], &call(int_long)])), Some(7));
        assert_eq!(end(code(&[&[op::ALOAD_0, op::ICONST_0, op::LCONST_1], &call(int_long)])), Some(6));
        let lload_2 = op::ILOAD_0 + 4 + 2;
        assert_eq!(end(code(&[&[op::ALOAD_0, op::ILOAD_0 + 1, lload_2], &call(int_long)])), Some(6));
        // The receiver would not be `this`: more or fewer slots than the call takes.
        assert_eq!(end(code(&[&[op::ALOAD_0, op::ALOAD_0 + 1], &call(none)])), None);
        assert_eq!(end(code(&[&[op::ALOAD_0, op::ILOAD_0 + 1, op::ILOAD_0 + 2], &call(int_long)])), None);
        // Not `this` first; not a constructor; anything else before the call.
        assert_eq!(end(code(&[&[op::ALOAD_0 + 1, op::ALOAD_0], &call(none)])), None);
        assert_eq!(end(code(&[&[op::ALOAD_0], &call(other)])), None);
        assert_eq!(end(code(&[&[op::ALOAD_0, op::NOP], &call(none)])), None);
    }

    #[test]
    fn the_scan_finds_every_site_and_branch_in_code_order_and_every_instruction_start() {
        // Forty sites and branches (over several 64-byte words of its
        // bits), then a tableswitch, then more: branches, returns,
        // athrow, among plain instructions of each length and a `wide iinc`.
        let mut code = Vec::new();
        let mut expected = Vec::new();
        let mut branches = Vec::new();
        let mut starts = Vec::new();
        let mut put = |code: &mut Vec<u8>, bytes: &[u8], site: Option<SiteKind>| {
            starts.push(code.len() as u32);
            if let Some(kind) = site {
                expected.push((code.len() as u32, kind, bytes.len() as u32));
            }
            if [op::IFEQ, op::GOTO, op::IFNONNULL].contains(&bytes[0]) {
                branches.push(code.len() as u32);
            }
            code.extend_from_slice(bytes);
        };
        for i in 0..40u8 {
            put(&mut code, &[op::NOP], None);
            put(&mut code, &[op::SIPUSH, 0, i], None);
            match i % 5 {
                0 => put(&mut code, &[op::IFEQ, 0, 0], None),
                1 => put(&mut code, &[op::ARETURN], Some(SiteKind::Return(op::ARETURN))),
                2 => put(&mut code, &[op::ATHROW], Some(SiteKind::Throw)),
                3 => put(&mut code, &[op::IFNONNULL, 0, 0], None),
                _ => put(&mut code, &[op::GOTO, 0, 0], None),
            }
        }
        let at = code.len() as u32;
        let padding = vec![0u8; switch_padding(at)];
        // default, low 0, high 1, two offsets
        let switch = [&[op::TABLESWITCH][..], &padding, &[0, 0, 0, 0], &[0, 0, 0, 0], &[0, 0, 0, 1], &[0; 8]].concat();
        put(&mut code, &switch, Some(SiteKind::Switch));
        put(&mut code, &[op::WIDE, op::IINC, 1, 0, 0, 1], None);
        put(&mut code, &[op::INVOKEINTERFACE, 0, 1, 1, 0], None);
        put(&mut code, &[op::RETURN], Some(SiteKind::Return(op::RETURN)));

        put(&mut code, &[op::GOTO, 0xFF, 0xFF], None);
        let Scanned { sites, branches: found_branches, starts: bits } = scan(&code).expect("code a splice takes");
        let found: Vec<_> = sites.iter().map(|s| (s.offset, s.kind, s.length)).collect();
        assert_eq!(found, expected);
        assert_eq!(found_branches, branches);
        let found_starts: Vec<u32> =
            (0..code.len() as u32).filter(|&i| bits[i as usize / 64][STARTS] & (1 << (i % 64)) != 0).collect();
        assert_eq!(found_starts, starts);
    }

    #[test]
    fn the_scan_declines_subroutines_wide_branches_and_bad_code() {
        for code in [
            vec![op::JSR, 0, 3, op::RETURN],
            vec![op::GOTO_W, 0, 0, 0, 5, op::RETURN],
            vec![op::RET, 1],
            vec![op::NOP, 0xCB], // not an opcode
            vec![op::WIDE, op::NOP, 0, 0],
            vec![op::NOP, op::SIPUSH, 0], // cut short
            vec![op::TABLESWITCH, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0], // high < low
        ] {
            assert!(scan(&code).is_none(), "{code:?}");
        }
    }
}
