//! The editable form of a method's code: a list of instructions in which
//! branch targets, handler ranges, line numbers, local-variable ranges,
//! type-annotation targets and stack map frames all refer to [`Label`]s, never
//! to offsets. Inserting or replacing instructions needs no fixups; the
//! assembler ([`crate::code::assembler`]) computes offsets, widens branches and
//! re-encodes every table.
#![forbid(unsafe_code)]

use crate::read::annotations::skip_annotation;
use crate::read::attribute::{name, Attribute};
use crate::read::class_file::{ClassFile, Member};
use crate::read::code_attribute::CodeAttribute;
use crate::read::error::{ClassFileError, Result};
use crate::code::chaining::{self, Chaining};
use crate::read::opcodes as op;
use crate::code::pool::CodePool;
use crate::read::access::ACC_STATIC;
use crate::read::reader::Reader;
use crate::code::stack_map::{self, Frame, VType};
use crate::code::insn::{Handler, Insn, Label};
use crate::code::decode::{decode_one, expand_runs};

/// How finely [`CodeModel::lift_with`] decodes the code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// Every instruction is an element of its own.
    Instructions,
    /// Only the instructions that instrumenting control flow edits or
    /// follows are elements of their own: branches, switches, returns,
    /// `athrow`, `ret`, and in a constructor every `invokespecial` (where the
    /// body starts). Every other stretch between two labels is one
    /// [`Insn::Raw`], copied as bytes by the assembler: most of a method's
    /// code is never decoded into instructions, moved or re-encoded.
    Runs,
}

/// A LocalVariableTable or LocalVariableTypeTable entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
// Fields as JVMS 4.7.13 names them, by label.
#[allow(missing_docs)]
pub struct LocalVariable {
    pub start: Label,
    pub end: Label,
    pub name_index: u16,
    /// Descriptor, or signature for the type table.
    pub descriptor_index: u16,
    pub index: u16,
}

/// Where a type annotation in code points (JVMS 4.7.20.1, targets 0x40–0x4B).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeTarget {
    /// Local variable ranges: start, end, local index.
    LocalVariable(Vec<(Label, Label, u16)>),
    /// An index into the exception table.
    Catch(u16),
    /// `instanceof`, `new`, method references.
    Offset(Label),
    /// Casts and type arguments of calls.
    TypeArgument(Label, u8),
}

/// A type annotation on code: its target, relocated, and the rest
/// (type path and annotation) copied as read.
#[derive(Debug, Clone, PartialEq, Eq)]
// Fields as JVMS 4.7.20 names them.
#[allow(missing_docs)]
pub struct TypeAnnotation<'a> {
    pub target_type: u8,
    pub target: CodeTarget,
    pub rest: &'a [u8],
}

/// An attribute of the Code attribute, in its original order.
#[derive(Debug, Clone, PartialEq, Eq)]
// Each variant holds its attribute's name index and entries (JVMS 4.7).
#[allow(missing_docs)]
pub enum CodeAttributeModel<'a> {
    /// Where the StackMapTable goes; its content is [`CodeModel::frames`].
    StackMapTable {
        name_index: u16,
    },
    LineNumbers {
        name_index: u16,
        entries: Vec<(Label, u16)>,
    },
    LocalVariables {
        name_index: u16,
        entries: Vec<LocalVariable>,
    },
    LocalVariableTypes {
        name_index: u16,
        entries: Vec<LocalVariable>,
    },
    TypeAnnotations {
        name_index: u16,
        entries: Vec<TypeAnnotation<'a>>,
    },
    /// Any other attribute, written back as read.
    Other(Attribute<'a>),
}

/// A method's code, ready for editing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeModel<'a> {
    /// The deepest the operand stack gets (recomputed when assembled).
    pub max_stack: u16,
    /// The local slots the code uses (recomputed when assembled).
    pub max_locals: u16,
    /// The instructions and label bindings, in code order.
    pub elements: Vec<Insn>,
    /// In priority order: the first matching entry catches.
    pub handlers: Vec<Handler>,
    /// The Code attribute's own attributes, in their original order.
    pub attributes: Vec<CodeAttributeModel<'a>>,
    /// Stack map frames, each at the label it describes; any order.
    pub frames: Vec<(Label, Frame)>,
    /// The frame implied by the method's descriptor, before the first instruction.
    pub initial_frame: Frame,
    /// Whether the class version needs a StackMapTable (50 and later).
    pub frames_required: bool,
    /// The class this code belongs to (a Class constant), for `this` in frames.
    pub this_class: u16,
    /// The id the next new label gets: labels are numbered densely from 0.
    pub next_label: u32,
    /// The code the model was lifted from, which [`Insn::Raw`] runs refer to
    /// (empty for new code).
    pub(crate) code: &'a [u8],
}

/// Lifts methods' code into [`CodeModel`]s, keeping its buffers (a label
/// slot per code byte, the start of every instruction) from one lift to the
/// next, reset only where a lift wrote. A caller that lifts many methods (a
/// worker) keeps one; the models never depend on it.
#[derive(Debug, Default)]
pub struct Lifter {
    by_offset: Vec<Option<Label>>,
    starts: Vec<u32>,
    requested: Vec<(u32, usize)>,
}

/// Labels by code offset while lifting.
struct LabelMap {
    /// At least one more entry than the code has bytes; only the first
    /// `code_len + 1` count (the vector is reused from lift to lift).
    by_offset: Vec<Option<Label>>,
    code_len: usize,
    /// Every (offset, file offset) that received a label, to check boundaries.
    requested: Vec<(u32, usize)>,
    next: u32,
}

impl LabelMap {
    fn label(&mut self, offset: u32, at: usize) -> Result<Label> {
        let slot = self.by_offset.get_mut(offset as usize).filter(|_| offset as usize <= self.code_len).ok_or_else(|| {
            ClassFileError::malformed(at, format!("code offset {offset} lies past the end of the code"))
        })?;
        if let Some(label) = *slot {
            return Ok(label);
        }
        let label = Label(self.next);
        self.next += 1;
        *slot = Some(label);
        self.requested.push((offset, at));
        Ok(label)
    }

    fn relative(&mut self, from: u32, delta: i64, at: usize) -> Result<Label> {
        let target = i64::from(from) + delta;
        let offset = u32::try_from(target)
            .map_err(|_| ClassFileError::malformed(at, format!("branch to code offset {target}")))?;
        self.label(offset, at)
    }
}

impl Lifter {
    /// [`CodeModel::lift_with`] in this lifter's buffers.
    pub fn lift<'a>(
        &mut self,
        class: &ClassFile<'a>,
        method: &Member<'a>,
        pool: &mut impl CodePool<'a>,
        detail: Detail,
    ) -> Result<Option<CodeModel<'a>>> {
        let Some(code) = class.code(method)? else { return Ok(None) };
        let descriptor = method.descriptor()?;
        let initial_frame = Frame::initial(
            class.this_class_index(),
            method.access_flags & ACC_STATIC != 0,
            method.name_is("<init>"),
            &descriptor,
            pool,
        )
        .map_err(|e| ClassFileError::new(method.offset + 4, e.kind))?;
        let runs = match detail {
            Detail::Instructions => None,
            Detail::Runs => Some(Runs { split_invokespecial: method.name_is("<init>") }),
        };
        let frames_required = class.major_version() >= 50;
        let start = CodeStart { code: &code, initial_frame, frames_required, this_class: class.this_class_index() };
        CodeModel::lift_code_with(start, pool, runs, self).map(Some)
    }
}

impl<'a> CodeModel<'a> {
    /// Lifts the code of `method` of `class`. `pool` receives the Class
    /// constants of parameter types that the first frame needs.
    pub fn lift(class: &ClassFile<'a>, method: &Member<'a>, pool: &mut impl CodePool<'a>) -> Result<Option<Self>> {
        Self::lift_with(class, method, pool, Detail::Instructions)
    }

    /// [`CodeModel::lift`] at the given level of detail.
    pub fn lift_with(
        class: &ClassFile<'a>,
        method: &Member<'a>,
        pool: &mut impl CodePool<'a>,
        detail: Detail,
    ) -> Result<Option<Self>> {
        Lifter::default().lift(class, method, pool, detail)
    }

    /// Lifts a Code attribute whose first frame is `initial_frame`.
    pub fn lift_code(
        code: &CodeAttribute<'a>,
        initial_frame: Frame,
        frames_required: bool,
        this_class: u16,
        pool: &mut impl CodePool<'a>,
    ) -> Result<Self> {
        let start = CodeStart { code, initial_frame, frames_required, this_class };
        Self::lift_code_with(start, pool, None, &mut Lifter::default())
    }

    fn lift_code_with(
        start: CodeStart<'_, 'a>,
        pool: &mut impl CodePool<'a>,
        runs: Option<Runs>,
        lifter: &mut Lifter,
    ) -> Result<Self> {
        let code = start.code;
        let Lifter { mut by_offset, mut starts, mut requested } = std::mem::take(lifter);
        if by_offset.len() <= code.code.len() {
            by_offset.resize(code.code.len() + 1, None);
        }
        starts.clear();
        requested.clear();
        let mut labels = LabelMap { by_offset, code_len: code.code.len(), requested, next: 0 };
        let result = Self::lift_labelled(start, pool, runs, &mut labels, &mut starts);
        for &(offset, _) in &labels.requested {
            if let Some(slot) = labels.by_offset.get_mut(offset as usize) {
                *slot = None;
            }
        }
        let LabelMap { by_offset, requested, .. } = labels;
        *lifter = Lifter { by_offset, starts, requested };
        result
    }

    fn lift_labelled(
        start: CodeStart<'_, 'a>,
        pool: &mut impl CodePool<'a>,
        runs: Option<Runs>,
        labels: &mut LabelMap,
        starts: &mut Vec<u32>,
    ) -> Result<Self> {
        let CodeStart { code, initial_frame, frames_required, this_class } = start;
        let code_len = code.code.len() as u32;
        let insns = decode_instructions(code, labels, runs, starts)?;

        let mut handlers = Vec::with_capacity(code.exception_table.len());
        for (i, h) in code.exception_table.iter().enumerate() {
            let at = code.code_offset + code.code.len() + 2 + i * 8;
            handlers.push(Handler {
                start: labels.label(u32::from(h.start_pc), at)?,
                end: labels.label(u32::from(h.end_pc), at)?,
                handler: labels.label(u32::from(h.handler_pc), at)?,
                catch_type: h.catch_type,
            });
        }

        let mut frames = Vec::new();
        let mut attributes = Vec::with_capacity(code.attributes.len());
        for attribute in &code.attributes {
            let mut r = attribute.reader();
            let name_index = attribute.name_index;
            let model = if attribute.is(name::STACK_MAP_TABLE) {
                let budget = 64 * code.attribute.raw.len() + 65_536;
                // Room for every local the method has and the few an edit adds,
                // within reason: the room of all frames stays of the order of
                // the entries the budget allows.
                let room = (usize::from(code.max_locals) + 4).min(64);
                let decoded =
                    stack_map::decode(&mut r, &initial_frame, budget, room, pool, &mut |o, at| labels.label(o, at))?;
                frames.extend(decoded);
                CodeAttributeModel::StackMapTable { name_index }
            } else if attribute.is(name::LINE_NUMBER_TABLE) {
                let count = r.count(4)?;
                let mut entries = Vec::with_capacity(count);
                for _ in 0..count {
                    let at = r.offset();
                    let pc = r.u16()?;
                    entries.push((labels.label(u32::from(pc), at)?, r.u16()?));
                }
                CodeAttributeModel::LineNumbers { name_index, entries }
            } else if attribute.is(name::LOCAL_VARIABLE_TABLE) || attribute.is(name::LOCAL_VARIABLE_TYPE_TABLE) {
                let count = r.count(10)?;
                let mut entries = Vec::with_capacity(count);
                for _ in 0..count {
                    let at = r.offset();
                    let start = r.u16()?;
                    let length = r.u16()?;
                    entries.push(LocalVariable {
                        start: labels.label(u32::from(start), at)?,
                        end: labels.label(u32::from(start) + u32::from(length), at)?,
                        name_index: r.u16()?,
                        descriptor_index: r.u16()?,
                        index: r.u16()?,
                    });
                }
                if attribute.is(name::LOCAL_VARIABLE_TABLE) {
                    CodeAttributeModel::LocalVariables { name_index, entries }
                } else {
                    CodeAttributeModel::LocalVariableTypes { name_index, entries }
                }
            } else if attribute.is(name::RUNTIME_VISIBLE_TYPE_ANNOTATIONS)
                || attribute.is(name::RUNTIME_INVISIBLE_TYPE_ANNOTATIONS)
            {
                CodeAttributeModel::TypeAnnotations { name_index, entries: read_type_annotations(&mut r, labels)? }
            } else {
                attributes.push(CodeAttributeModel::Other(*attribute));
                continue;
            };
            r.finish()?;
            attributes.push(model);
        }

        // Every label must sit on an instruction boundary (or the end of the code).
        for &(offset, at) in &labels.requested {
            if offset != code_len && starts.binary_search(&offset).is_err() {
                return Err(ClassFileError::malformed(at, format!("code offset {offset} is inside an instruction")));
            }
        }

        let elements = match runs {
            None => {
                let mut elements = Vec::with_capacity(insns.len() + labels.requested.len());
                for (offset, insn) in insns {
                    if let Some(Some(label)) = labels.by_offset.get(offset as usize) {
                        elements.push(Insn::Label(*label));
                    }
                    elements.push(insn);
                }
                elements
            }
            Some(_) => with_runs(starts, &insns, labels, code_len),
        };
        let mut elements = elements;
        if let Some(Some(label)) = labels.by_offset.get(code_len as usize) {
            elements.push(Insn::Label(*label));
        }
        Ok(CodeModel {
            max_stack: code.max_stack,
            max_locals: code.max_locals,
            elements,
            handlers,
            attributes,
            frames,
            initial_frame,
            frames_required,
            this_class,
            next_label: labels.next,
            code: code.code,
        })
    }

    /// Replaces every [`Insn::Raw`] run by its instructions, one element each.
    pub fn expand_runs(&mut self) {
        if self.elements.iter().any(|e| matches!(e, Insn::Raw { .. })) {
            self.elements = expand_runs(std::mem::take(&mut self.elements), self.code);
        }
    }

    /// A model to generate code into apart from any method: no code, no
    /// frame at entry, `max_locals` locals in use, frames required.
    pub fn scratch(max_locals: u16) -> Self {
        CodeModel {
            max_stack: 0,
            max_locals,
            elements: Vec::new(),
            handlers: Vec::new(),
            attributes: Vec::new(),
            frames: Vec::new(),
            initial_frame: Frame::default(),
            frames_required: true,
            this_class: 0,
            next_label: 0,
            code: &[],
        }
    }

    /// Code for a new method (a `<clinit>`, a helper): no instructions yet.
    /// `this_class` is the class's Class constant; `frames_required` is true
    /// for class files of version 50 and later.
    pub fn empty(
        this_class: u16,
        access_flags: u16,
        name: &str,
        descriptor: &str,
        frames_required: bool,
        pool: &mut impl CodePool<'a>,
    ) -> Result<Self> {
        let initial_frame =
            Frame::initial(this_class, access_flags & ACC_STATIC != 0, name == "<init>", descriptor, pool)?;
        Ok(CodeModel {
            max_stack: 0,
            max_locals: initial_frame.local_slot_count() as u16,
            elements: Vec::new(),
            handlers: Vec::new(),
            attributes: Vec::new(),
            frames: Vec::new(),
            initial_frame,
            frames_required,
            this_class,
            next_label: 0,
            code: &[],
        })
    }

    /// Makes room for new locals at `slot` (new parameters of a changed
    /// descriptor): every local at or above `slot` moves up by the slots of
    /// `types`, in instructions, frames and local-variable tables, and every
    /// frame and the initial frame get `types` there.
    pub fn insert_local_slots(&mut self, slot: u16, types: &[VType]) -> Result<()> {
        // Runs hold local indexes too.
        self.expand_runs();
        let by: u16 = types.iter().map(|t| t.slots() as u16).sum();
        let moved = |index: u16| -> Result<u16> {
            if index < slot {
                return Ok(index);
            }
            index.checked_add(by).ok_or_else(|| ClassFileError::limit_unlocated("a local index past 65,535"))
        };
        for insn in &mut self.elements {
            match insn {
                Insn::Local { index, .. } | Insn::Iinc { index, .. } => *index = moved(*index)?,
                Insn::Simple(opcode) => {
                    if let Some(index) = op::implicit_local(*opcode) {
                        let generic = if *opcode < op::ISTORE_0 {
                            op::ILOAD + (*opcode - op::ILOAD_0) / 4
                        } else {
                            op::ISTORE + (*opcode - op::ISTORE_0) / 4
                        };
                        let new_index = moved(index)?;
                        if new_index != index {
                            *insn = Insn::Local { opcode: generic, index: new_index, wide: false };
                        }
                    }
                }
                _ => {}
            }
        }
        for attribute in &mut self.attributes {
            match attribute {
                CodeAttributeModel::LocalVariables { entries, .. }
                | CodeAttributeModel::LocalVariableTypes { entries, .. } => {
                    for entry in entries {
                        entry.index = moved(entry.index)?;
                    }
                }
                CodeAttributeModel::TypeAnnotations { entries, .. } => {
                    for entry in entries {
                        if let CodeTarget::LocalVariable(ranges) = &mut entry.target {
                            for range in ranges {
                                range.2 = moved(range.2)?;
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        let insert = |frame: &mut Frame| {
            let mut slots = frame.local_slots();
            let at = usize::from(slot).min(slots.len());
            if slots.len() < usize::from(slot) {
                slots.resize(usize::from(slot), VType::Top);
            }
            let inserted = stack_map::to_slots(types);
            slots.splice(at..at, inserted);
            frame.set_local_slots(&slots);
        };
        for (_, frame) in &mut self.frames {
            insert(frame);
        }
        insert(&mut self.initial_frame);
        self.max_locals = self
            .max_locals
            .checked_add(by)
            .ok_or_else(|| ClassFileError::limit_unlocated("a method would need more than 65,535 local slots"))?;
        Ok(())
    }

    /// In a constructor, its `super(...)` or `this(...)` calls, where `this`
    /// becomes initialized, found by following the types along every path
    /// (no class hierarchy needed, see [`chaining`]).
    pub fn constructor_chaining(&self, pool: &mut impl CodePool<'a>) -> Result<Chaining> {
        chaining::chaining_calls(
            &self.elements,
            self.code,
            &self.handlers,
            &self.frames,
            &self.initial_frame,
            self.this_class,
            pool,
        )
    }

    /// A label not yet bound anywhere.
    pub fn new_label(&mut self) -> Label {
        let label = Label(self.next_label);
        self.next_label += 1;
        label
    }

    /// Reserves `slots` new local slots (2 for long/double) and returns the first.
    pub fn new_local(&mut self, slots: u16) -> Result<u16> {
        let index = self.max_locals;
        self.max_locals = index
            .checked_add(slots)
            .ok_or_else(|| ClassFileError::limit_unlocated("a method would need more than 65,535 local slots"))?;
        Ok(index)
    }

    /// Gives local `slot` the type `t` in every existing frame, so that a local
    /// the instrumentation keeps stays typed at every branch target.
    pub fn add_local_to_all_frames(&mut self, slot: u16, t: VType) {
        for (_, frame) in &mut self.frames {
            frame.set_local(usize::from(slot), t);
        }
    }

    /// Inserts `insns` before element `index` (`elements.len()` appends).
    pub fn insert(&mut self, index: usize, insns: impl IntoIterator<Item = Insn>) {
        let index = index.min(self.elements.len());
        let insns = insns.into_iter();
        // Room for the insertion and for the tail a stage appends after it
        // (a splice that runs out of room moves the rest of the code twice).
        self.elements.reserve(insns.size_hint().0 + 64);
        self.elements.splice(index..index, insns);
    }

    /// Indexes of every return instruction, in code order.
    pub fn return_indexes(&self) -> Vec<usize> {
        self.elements.iter().enumerate().filter(|(_, i)| i.is_return()).map(|(i, _)| i).collect()
    }

    /// Inserts a label binding before element `index` and returns the label.
    pub fn bind_label(&mut self, index: usize) -> Label {
        let label = self.new_label();
        self.insert(index, [Insn::Label(label)]);
        label
    }

    /// The frame registered at `label`, if any.
    pub fn frame_at(&self, label: Label) -> Option<&Frame> {
        self.frames.iter().find(|(l, _)| *l == label).map(|(_, f)| f)
    }
}

/// What a lift starts from: the Code attribute, the method's first frame,
/// whether the class file needs frames (version 50 on), and the class's
/// Class constant.
struct CodeStart<'c, 'a> {
    code: &'c CodeAttribute<'a>,
    initial_frame: Frame,
    frames_required: bool,
    this_class: u16,
}

/// Which instructions a lift by runs keeps as elements of their own.
#[derive(Debug, Clone, Copy)]
struct Runs {
    /// In a constructor, `invokespecial` (the super(...)/this(...) call).
    split_invokespecial: bool,
}

impl Runs {
    fn keeps(&self, insn: &Insn) -> bool {
        match insn {
            Insn::Branch { .. } | Insn::TableSwitch { .. } | Insn::LookupSwitch { .. } => true,
            Insn::Simple(opcode) => op::ends_block(*opcode),
            Insn::Local { opcode, .. } => *opcode == op::RET,
            Insn::Pool { opcode, .. } => self.split_invokespecial && *opcode == op::INVOKESPECIAL,
            _ => false,
        }
    }
}

/// Decodes the instructions of a Code attribute: appends where each starts
/// to `starts`, and returns the instructions themselves (all of them, or
/// with [`Runs`] only those kept).
fn decode_instructions(
    code: &CodeAttribute<'_>,
    labels: &mut LabelMap,
    runs: Option<Runs>,
    starts: &mut Vec<u32>,
) -> Result<Vec<(u32, Insn)>> {
    let mut r = Reader::at_offset(code.code, code.code_offset);
    let mut insns = Vec::with_capacity(if runs.is_some() { 16 } else { code.code.len() / 2 + 1 });
    while !r.is_empty() {
        let offset = r.position() as u32;
        if let Some(runs) = runs {
            // Most instructions only need their length here: a table read.
            let opcode = code.code.get(offset as usize).copied().unwrap_or(0);
            if let Some(length) = op::plain_length(opcode).filter(|&l| l <= r.remaining()) {
                if !(runs.split_invokespecial && opcode == op::INVOKESPECIAL) {
                    starts.push(offset);
                    r.skip(length)?;
                    continue;
                }
            }
        }
        let insn = decode_one(&mut r, &mut |from, delta, at| labels.relative(from, delta, at))?;
        starts.push(offset);
        if runs.is_none_or(|runs| runs.keeps(&insn)) {
            insns.push((offset, insn));
        }
    }
    Ok(insns)
}

/// The elements of a lift by runs: the kept instructions, label bindings,
/// and a [`Insn::Raw`] for each stretch between them.
fn with_runs(starts: &[u32], insns: &[(u32, Insn)], labels: &LabelMap, code_len: u32) -> Vec<Insn> {
    let mut elements = Vec::with_capacity(2 * insns.len() + labels.requested.len() + 2);
    let mut kept = insns.iter().peekable();
    let mut run: Option<u32> = None;
    for &offset in starts {
        let label = labels.by_offset.get(offset as usize).copied().flatten();
        let insn = kept.next_if(|(at, _)| *at == offset).map(|(_, insn)| insn);
        if label.is_some() || insn.is_some() {
            if let Some(start) = run.take() {
                elements.push(Insn::Raw { start, end: offset });
            }
        }
        if let Some(label) = label {
            elements.push(Insn::Label(label));
        }
        match insn {
            Some(insn) => elements.push(insn.clone()),
            None => {
                run.get_or_insert(offset);
            }
        }
    }
    if let Some(start) = run {
        elements.push(Insn::Raw { start, end: code_len });
    }
    elements
}

fn read_type_annotations<'a>(r: &mut Reader<'a>, labels: &mut LabelMap) -> Result<Vec<TypeAnnotation<'a>>> {
    let count = r.count(8)?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let at = r.offset();
        let target_type = r.u8()?;
        let target = match target_type {
            0x40 | 0x41 => {
                let n = r.count(6)?;
                let mut ranges = Vec::with_capacity(n);
                for _ in 0..n {
                    let at = r.offset();
                    let start = u32::from(r.u16()?);
                    let length = u32::from(r.u16()?);
                    ranges.push((labels.label(start, at)?, labels.label(start + length, at)?, r.u16()?));
                }
                CodeTarget::LocalVariable(ranges)
            }
            0x42 => CodeTarget::Catch(r.u16()?),
            0x43..=0x46 => CodeTarget::Offset(labels.label(u32::from(r.u16()?), at)?),
            0x47..=0x4B => {
                let label = labels.label(u32::from(r.u16()?), at)?;
                CodeTarget::TypeArgument(label, r.u8()?)
            }
            other => {
                return Err(ClassFileError::malformed(
                    at,
                    format!("type annotation target 0x{other:02X} is not a code target"),
                ))
            }
        };
        let rest_start = r.position();
        let path_length = usize::from(r.u8()?);
        r.skip(path_length * 2)?;
        skip_annotation(r, 0)?;
        let rest = r.data().get(rest_start..r.position()).unwrap_or_default();
        out.push(TypeAnnotation { target_type, target, rest });
    }
    Ok(out)
}
