//! StackMapTable frames (JVMS 4.7.4): the verification types, frames, and
//! the one table reader ([`decode_table`], `read_table`), which builds
//! either plain frames (a list of each frame's locals and stack: what a lift
//! edits) or a [`FrameList`] (one list of types shared by the frames: what a
//! splice edits); the first is the second's oracle. The encoder, which
//! picks the most compact kind itself, is `stack_map_encode.rs`.
#![forbid(unsafe_code)]

use crate::code::insn::Label;
use crate::read::attribute::Attribute;
use crate::read::constant_pool::ConstantPool;
use crate::read::descriptor::{self, FieldType};
use crate::read::error::{ClassFileError, Result};
use crate::code::pool::CodePool;
use crate::read::reader::Reader;

/// A verification type. `Long` and `Double` stand for both of their slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
// The verification types of JVMS 4.10.1.2, by their names there.
#[allow(missing_docs)]
pub enum VType {
    Top,
    Integer,
    Float,
    Double,
    Long,
    Null,
    UninitializedThis,
    /// A Class constant.
    Object(u16),
    /// The object created by the `new` at this label, before its constructor ran.
    Uninitialized(Label),
}

impl VType {
    /// The `verification_type_info` tag (JVMS 4.7.4).
    pub fn tag(&self) -> u8 {
        match self {
            VType::Top => 0,
            VType::Integer => 1,
            VType::Float => 2,
            VType::Double => 3,
            VType::Long => 4,
            VType::Null => 5,
            VType::UninitializedThis => 6,
            VType::Object(_) => 7,
            VType::Uninitialized(_) => 8,
        }
    }

    /// How many local or stack slots a value of this type takes (2 for long and double).
    pub fn slots(&self) -> usize {
        match self {
            VType::Long | VType::Double => 2,
            _ => 1,
        }
    }

    /// The type of a value of descriptor type `t`.
    pub fn of<'p>(t: FieldType<'_>, pool: &mut impl CodePool<'p>) -> Result<VType> {
        Ok(match t {
            FieldType::Reference(name) => VType::Object(pool.class(name)?),
            _ => VType::of_primitive(t).unwrap_or(VType::Top),
        })
    }

    /// The type of a primitive value of descriptor type `t`; `None` for a reference.
    pub fn of_primitive(t: FieldType<'_>) -> Option<VType> {
        match t {
            FieldType::Int => Some(VType::Integer),
            FieldType::Float => Some(VType::Float),
            FieldType::Long => Some(VType::Long),
            FieldType::Double => Some(VType::Double),
            FieldType::Reference(_) => None,
        }
    }
}

/// A full frame: locals and operand stack, each `Long`/`Double` one entry.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The locals, one entry per value (a long or double is one entry).
    pub locals: Vec<VType>,
    /// The operand stack, bottom first, one entry per value.
    pub stack: Vec<VType>,
}

impl Frame {
    /// The first frame of a method, implied by its descriptor (JVMS 4.10.1.6).
    pub fn initial<'p>(
        class_index: u16,
        is_static: bool,
        is_constructor: bool,
        descriptor: &str,
        pool: &mut impl CodePool<'p>,
    ) -> Result<Frame> {
        // Each parameter takes a character or more of "(...)R": room for them and `this`.
        let mut frame = Frame::receiver(class_index, is_static, is_constructor, descriptor.len().saturating_sub(2), pool);
        descriptor::walk_method(descriptor, |parameter| {
            frame.locals.push(VType::of(parameter, pool)?);
            Ok(())
        })?;
        Ok(frame)
    }

    /// [`Frame::initial`] of a method whose descriptor the caller has read
    /// already: `parameters` are its parameter types.
    pub fn initial_with<'p, 'd>(
        class_index: u16,
        is_static: bool,
        is_constructor: bool,
        parameters: impl ExactSizeIterator<Item = FieldType<'d>>,
        pool: &mut impl CodePool<'p>,
    ) -> Result<Frame> {
        let mut frame = Frame::receiver(class_index, is_static, is_constructor, parameters.len() + 1, pool);
        for parameter in parameters {
            frame.locals.push(VType::of(parameter, pool)?);
        }
        Ok(frame)
    }

    /// A first frame's `this` (nothing for a static method), with room for
    /// `room` locals.
    fn receiver<'p>(class_index: u16, is_static: bool, is_constructor: bool, room: usize, pool: &impl CodePool<'p>) -> Frame {
        let mut locals = Vec::with_capacity(room);
        if !is_static {
            // java/lang/Object's constructor has no superclass constructor to call.
            let is_object = || pool.original().class_name(class_index).is_ok_and(|n| n == "java/lang/Object");
            locals.push(if is_constructor && !is_object() {
                VType::UninitializedThis
            } else {
                VType::Object(class_index)
            });
        }
        Frame { locals, stack: Vec::new() }
    }

    /// Locals as one entry per slot: the second slot of a Long/Double is `Top`.
    pub fn local_slots(&self) -> Vec<VType> {
        to_slots(&self.locals)
    }

    /// Sets the locals from one entry per slot (the form [`Frame::local_slots`] gives).
    pub fn set_local_slots(&mut self, slots: &[VType]) {
        self.locals = from_slots(slots);
    }

    /// Number of local slots the frame describes.
    pub fn local_slot_count(&self) -> usize {
        self.locals.iter().map(VType::slots).sum()
    }

    /// Number of operand stack slots the frame describes.
    pub fn stack_slot_count(&self) -> usize {
        self.stack.iter().map(VType::slots).sum()
    }

    /// Sets local `slot` to `t`, padding with `Top` below it and invalidating
    /// any long or double it overwrites half of.
    pub fn set_local(&mut self, slot: usize, t: VType) {
        // The common case, a new local past the others, needs no slot form.
        let count = self.local_slot_count();
        if slot >= count {
            self.push_past(count, slot, t);
            return;
        }
        let mut slots = self.local_slots();
        set_slot(&mut slots, slot, t);
        self.set_local_slots(&slots);
    }

    /// Local `slot`, at or past the `count` slots the locals take, becomes
    /// `t`, with `Top` between: one allocation at most, for both.
    fn push_past(&mut self, count: usize, slot: usize, t: VType) {
        self.locals.reserve(slot - count + 1);
        self.locals.resize(self.locals.len() + (slot - count), VType::Top);
        self.locals.push(t);
    }

    /// [`Frame::set_local`] of each of `locals` in turn, counting the slots
    /// once rather than once per local when each is past the ones before
    /// (the locals instrumentation keeps across a body).
    pub fn set_locals(&mut self, locals: &[(u16, VType)]) {
        let mut count = self.local_slot_count();
        for &(slot, t) in locals {
            let slot = usize::from(slot);
            if slot >= count {
                self.push_past(count, slot, t);
                count = slot + t.slots();
            } else {
                self.set_local(slot, t);
                count = self.local_slot_count();
            }
        }
    }
}

/// Writes `t` into slot form. In slot form the slot after a Long/Double is
/// always `Top`, so only a pair whose second half is overwritten needs care.
pub(crate) fn set_slot(slots: &mut Vec<VType>, slot: usize, t: VType) {
    let needed = slot + t.slots();
    if slots.len() < needed {
        slots.resize(needed, VType::Top);
    }
    if let Some(before) = slot.checked_sub(1).and_then(|b| slots.get_mut(b)) {
        if before.slots() == 2 {
            *before = VType::Top;
        }
    }
    if let Some(target) = slots.get_mut(slot) {
        *target = t;
    }
    if t.slots() == 2 {
        if let Some(second) = slots.get_mut(slot + 1) {
            *second = VType::Top;
        }
    }
}

pub(crate) fn to_slots(entries: &[VType]) -> Vec<VType> {
    let mut slots = Vec::with_capacity(entries.len() + 4);
    for &t in entries {
        slots.push(t);
        if t.slots() == 2 {
            slots.push(VType::Top);
        }
    }
    slots
}

pub(crate) fn from_slots(slots: &[VType]) -> Vec<VType> {
    let mut entries = Vec::with_capacity(slots.len());
    let mut i = 0;
    while let Some(&t) = slots.get(i) {
        entries.push(t);
        i += t.slots();
    }
    entries
}

pub(crate) mod kind {
    pub const SAME_MAX: u8 = 63;
    pub const SAME_LOCALS_1_STACK_ITEM: u8 = 64;
    pub const SAME_LOCALS_1_STACK_ITEM_MAX: u8 = 127;
    pub const SAME_LOCALS_1_STACK_ITEM_EXTENDED: u8 = 247;
    pub const CHOP_MIN: u8 = 248;
    pub const SAME_FRAME_EXTENDED: u8 = 251;
    pub const APPEND_MAX: u8 = 254;
    pub const FULL_FRAME: u8 = 255;
}

/// Decodes a StackMapTable. `label_at(offset, at)` gives the label of a code
/// offset, failing (with file offset `at`) if it is no instruction boundary.
/// Every Object type read must name a Class constant of `pool` (checked as
/// it is read: a frame's other types come from the frame before, or from
/// `initial`, which the caller vouches for). `budget` bounds the total
/// number of decoded entries. Each frame's locals get room for `locals_room`
/// entries: an editor that gives every frame a local or two more (see
/// `Frame::set_local`) then never reallocates them.
pub(crate) fn decode<'p>(
    r: &mut Reader<'_>,
    initial: &Frame,
    budget: usize,
    locals_room: usize,
    pool: &mut impl CodePool<'p>,
    label_at: &mut dyn FnMut(u32, usize) -> Result<Label>,
) -> Result<Vec<(Label, Frame)>> {
    let mut frames = PlainFrames { initial, locals_room, frames: Vec::new(), current: Frame::default() };
    read_table(r, budget, pool, label_at, &mut frames)?;
    Ok(frames.frames)
}

/// Where [`read_table`], the one reader of a StackMapTable, puts each frame
/// as it decodes it: a frame is the one before with some of its locals
/// (`same`, `chop`), those and more (`append`), or all new (`full`); then
/// its stack; then its label. The two forms are the plain list of frames
/// ([`decode`]) and a [`FrameList`].
trait FrameBuilder {
    /// Room for `frames` more frames.
    fn reserve(&mut self, frames: usize);
    /// How many locals the frame before has.
    fn previous_locals(&self) -> usize;
    /// A frame with the first `keep` locals of the frame before, the stack to come.
    fn keep(&mut self, keep: usize);
    /// A frame with the locals of the frame before and more to come ([`FrameBuilder::local`]).
    fn append(&mut self);
    /// A frame whose locals all come ([`FrameBuilder::local`]).
    fn full(&mut self);
    /// The frame's next local.
    fn local(&mut self, t: VType);
    /// The locals are complete (after `append` or `full`).
    fn end_locals(&mut self);
    /// The frame's next stack entry, bottom first.
    fn stack(&mut self, t: VType);
    /// How many locals and stack entries the frame has.
    fn entries(&self) -> usize;
    /// The frame is complete, at `label`.
    fn finish(&mut self, label: Label);
}

/// The frames of a StackMapTable at `r` (its count first), each built by
/// `frames` from the one before; see [`decode`] for the rest.
fn read_table<'p>(
    r: &mut Reader<'_>,
    budget: usize,
    pool: &mut impl CodePool<'p>,
    label_at: &mut dyn FnMut(u32, usize) -> Result<Label>,
    frames: &mut impl FrameBuilder,
) -> Result<()> {
    let count = r.count(1)?;
    // Room for the few frames an edit adds (instrumentation adds about five).
    frames.reserve(count + 8);
    let mut offset: i64 = -1;
    let mut spent = 0usize;
    for _ in 0..count {
        let at = r.offset();
        let frame_type = r.u8()?;
        let delta = match frame_type {
            0..=kind::SAME_MAX => {
                frames.keep(frames.previous_locals());
                u16::from(frame_type)
            }
            kind::SAME_LOCALS_1_STACK_ITEM..=kind::SAME_LOCALS_1_STACK_ITEM_MAX => {
                let item = read_vtype(r, pool, label_at)?;
                frames.keep(frames.previous_locals());
                frames.stack(item);
                u16::from(frame_type - 64)
            }
            kind::SAME_LOCALS_1_STACK_ITEM_EXTENDED => {
                let delta = r.u16()?;
                let item = read_vtype(r, pool, label_at)?;
                frames.keep(frames.previous_locals());
                frames.stack(item);
                delta
            }
            kind::CHOP_MIN..=250 => {
                let delta = r.u16()?;
                let chop = usize::from(kind::SAME_FRAME_EXTENDED - frame_type);
                let previous = frames.previous_locals();
                let keep = previous.checked_sub(chop).ok_or_else(|| {
                    ClassFileError::malformed(at, format!("chop frame removes {chop} locals of {previous}"))
                })?;
                frames.keep(keep);
                delta
            }
            kind::SAME_FRAME_EXTENDED => {
                let delta = r.u16()?;
                frames.keep(frames.previous_locals());
                delta
            }
            252..=kind::APPEND_MAX => {
                let delta = r.u16()?;
                frames.append();
                for _ in 0..frame_type - kind::SAME_FRAME_EXTENDED {
                    frames.local(read_vtype(r, pool, label_at)?);
                }
                frames.end_locals();
                delta
            }
            kind::FULL_FRAME => {
                let delta = r.u16()?;
                frames.full();
                for _ in 0..r.count(1)? {
                    frames.local(read_vtype(r, pool, label_at)?);
                }
                frames.end_locals();
                for _ in 0..r.count(1)? {
                    frames.stack(read_vtype(r, pool, label_at)?);
                }
                delta
            }
            _ => return Err(ClassFileError::malformed(at, format!("reserved stack map frame type {frame_type}"))),
        };
        spent = spent.saturating_add(frames.entries() + 1);
        if spent > budget {
            return Err(ClassFileError::malformed(at, "stack map frames too large to expand"));
        }
        offset += i64::from(delta) + 1;
        frames.finish(label_at(offset as u32, at)?);
    }
    Ok(())
}

/// The plain form: a list of frames, each with lists of its own (the
/// locals with room for `locals_room` entries: an editor that gives every
/// frame a local or two more, see `Frame::set_local`, then never
/// reallocates them).
struct PlainFrames<'i> {
    initial: &'i Frame,
    locals_room: usize,
    frames: Vec<(Label, Frame)>,
    current: Frame,
}

impl PlainFrames<'_> {
    /// The frame before the one being built: each is relative to it.
    fn previous(&self) -> &Frame {
        self.frames.last().map_or(self.initial, |(_, f)| f)
    }

    fn locals_of(&self, locals: &[VType]) -> Vec<VType> {
        let mut out = Vec::with_capacity(self.locals_room.max(locals.len()));
        out.extend_from_slice(locals);
        out
    }
}

impl FrameBuilder for PlainFrames<'_> {
    fn reserve(&mut self, frames: usize) {
        self.frames.reserve(frames);
    }

    fn previous_locals(&self) -> usize {
        self.previous().locals.len()
    }

    fn keep(&mut self, keep: usize) {
        let locals = self.locals_of(self.previous().locals.get(..keep).unwrap_or_default());
        self.current = Frame { locals, stack: Vec::new() };
    }

    fn append(&mut self) {
        let locals = self.locals_of(&self.previous().locals);
        self.current = Frame { locals, stack: Vec::new() };
    }

    fn full(&mut self) {
        self.current = Frame { locals: Vec::with_capacity(self.locals_room), stack: Vec::new() };
    }

    fn local(&mut self, t: VType) {
        self.current.locals.push(t);
    }

    fn end_locals(&mut self) {}

    fn stack(&mut self, t: VType) {
        self.current.stack.push(t);
    }

    fn entries(&self) -> usize {
        self.current.locals.len() + self.current.stack.len()
    }

    fn finish(&mut self, label: Label) {
        self.frames.push((label, std::mem::take(&mut self.current)));
    }
}

/// A method's frames as [`decode`] gives them, but held as records over one
/// list of types rather than as two lists for each frame: what a splice
/// decodes, edits and encodes for every method it takes, with no allocation
/// for each frame (and, kept from one method to the next, none for each
/// method once its lists have grown). A frame that keeps the locals of the
/// frame before (most do), or some of them, names the same types rather
/// than a copy of them. The plain [`Frame`] list is its oracle.
#[derive(Debug, Default)]
pub struct FrameList {
    /// The first frame's locals, then the types the frames name.
    types: Vec<VType>,
    /// How many of `types` are the first frame's locals.
    initial: usize,
    records: Vec<FrameRecord>,
    /// One frame in its plain form, for the edit only the plain form makes.
    scratch: Frame,
}

/// One frame of a [`FrameList`]: `locals` types at `start` in the list of
/// types, `stack` types at `stack_start`.
#[derive(Debug, Clone, Copy)]
struct FrameRecord {
    label: Label,
    start: u32,
    locals: u32,
    stack_start: u32,
    stack: u32,
}

/// A frame to encode.
#[derive(Debug, Clone, Copy)]
pub struct FrameView<'f> {
    /// The frame's code offset.
    pub offset: u32,
    /// The locals, as [`Frame::locals`].
    pub locals: &'f [VType],
    /// The operand stack, as [`Frame::stack`].
    pub stack: &'f [VType],
}

impl<'f> FrameView<'f> {
    /// `frame` at `offset`.
    pub fn of(offset: u32, frame: &'f Frame) -> FrameView<'f> {
        FrameView { offset, locals: &frame.locals, stack: &frame.stack }
    }

    /// The same frame at the same offset.
    pub fn is(&self, other: &FrameView<'_>) -> bool {
        self.offset == other.offset && self.locals == other.locals && self.stack == other.stack
    }
}

impl FrameList {
    /// How many frames the list holds.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether the list holds no frame.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Frame `i`: its label, locals and stack.
    pub fn get(&self, i: usize) -> Option<(Label, &[VType], &[VType])> {
        self.records.get(i).map(|r| self.parts(r))
    }

    /// Each frame, in code order: its label, locals and stack.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Label, &[VType], &[VType])> + '_ {
        self.records.iter().map(|r| self.parts(r))
    }

    /// Each frame with its label, and at its label's `offset`, in code order.
    pub fn views<'f, F: FnMut(Label) -> u32>(&'f self, mut offset: F) -> impl Iterator<Item = FrameView<'f>> {
        self.records.iter().map(move |r| {
            let (label, locals, stack) = self.parts(r);
            FrameView { offset: offset(label), locals, stack }
        })
    }

    /// How many frames are at labels before `label` (labels go up with the frames).
    pub fn count_before(&self, label: u32) -> usize {
        self.records.partition_point(|r| r.label.0 < label)
    }

    fn parts(&self, r: &FrameRecord) -> (Label, &[VType], &[VType]) {
        let types = |start: u32, n: u32| self.types.get(start as usize..(start + n) as usize).unwrap_or_default();
        (r.label, types(r.start, r.locals), types(r.stack_start, r.stack))
    }

    /// No frame but the first, whose locals are `initial`'s.
    pub fn clear(&mut self, initial: &Frame) {
        self.types.clear();
        self.records.clear();
        self.types.extend_from_slice(&initial.locals);
        self.initial = initial.locals.len();
    }

    /// [`decode_table`] into this list, whatever it held before.
    pub fn decode_table<'p>(
        &mut self,
        table: &Attribute<'_>,
        initial: &Frame,
        budget: usize,
        pool: &mut impl CodePool<'p>,
        label_at: &mut dyn FnMut(u32, usize) -> Result<Label>,
    ) -> Result<()> {
        let mut r = table.reader();
        self.decode(&mut r, initial, budget, pool, label_at)?;
        r.finish()
    }

    /// [`decode`] into this list, whatever it held before.
    pub(crate) fn decode<'p>(
        &mut self,
        r: &mut Reader<'_>,
        initial: &Frame,
        budget: usize,
        pool: &mut impl CodePool<'p>,
        label_at: &mut dyn FnMut(u32, usize) -> Result<Label>,
    ) -> Result<()> {
        self.clear(initial);
        let previous = (0, initial.locals.len());
        let mut frames = ListFrames { list: self, previous, current: (0, 0), stack_start: 0 };
        read_table(r, budget, pool, label_at, &mut frames)
    }

    /// [`Frame::set_locals`] of `locals` on each frame at a label from `from` on.
    pub fn set_locals(&mut self, from: u32, locals: &[(u16, VType)]) {
        let FrameList { types, records, scratch, .. } = self;
        // The locals a frame before had (where, how many) and has now: a
        // frame that names the same has the same.
        let mut last: Option<((u32, u32), (u32, u32))> = None;
        for record in records.iter_mut() {
            if record.label.0 < from {
                continue;
            }
            let own = (record.start, record.locals);
            let (start, count) = match last {
                Some((before, now)) if before == own => now,
                _ => {
                    let new_start = types.len();
                    let (start, end) = (own.0 as usize, (own.0 + own.1) as usize);
                    if !push_locals_past(types, start..end, locals) {
                        // A local among the others: the plain form's slot edit.
                        types.truncate(new_start);
                        scratch.locals.clear();
                        scratch.locals.extend_from_slice(types.get(start..end).unwrap_or_default());
                        scratch.set_locals(locals);
                        types.extend_from_slice(&scratch.locals);
                    }
                    let now = (new_start as u32, (types.len() - new_start) as u32);
                    last = Some((own, now));
                    now
                }
            };
            (record.start, record.locals) = (start, count);
        }
    }
}

/// The [`FrameList`] form: a frame that keeps locals of the frame before
/// names the same types; one that appends to them names them too when they
/// end the list of types, else a copy of them at its end.
struct ListFrames<'l> {
    list: &'l mut FrameList,
    /// The frame before's locals: where they start in the types, and how many.
    previous: (usize, usize),
    /// The frame being built's locals, as `previous`.
    current: (usize, usize),
    /// Where its stack starts in the types.
    stack_start: usize,
}

impl FrameBuilder for ListFrames<'_> {
    fn reserve(&mut self, frames: usize) {
        self.list.records.reserve(frames);
    }

    fn previous_locals(&self) -> usize {
        self.previous.1
    }

    fn keep(&mut self, keep: usize) {
        self.current = (self.previous.0, keep);
        self.stack_start = self.list.types.len();
    }

    fn append(&mut self) {
        let types = &mut self.list.types;
        let (previous, count) = self.previous;
        let start = if previous + count == types.len() {
            previous
        } else {
            types.extend_from_within(previous..previous + count);
            types.len() - count
        };
        self.current = (start, 0);
    }

    fn full(&mut self) {
        self.current = (self.list.types.len(), 0);
    }

    fn local(&mut self, t: VType) {
        self.list.types.push(t);
    }

    fn end_locals(&mut self) {
        self.stack_start = self.list.types.len();
        self.current.1 = self.stack_start - self.current.0;
    }

    fn stack(&mut self, t: VType) {
        self.list.types.push(t);
    }

    fn entries(&self) -> usize {
        self.current.1 + (self.list.types.len() - self.stack_start)
    }

    fn finish(&mut self, label: Label) {
        let (start, locals) = self.current;
        let stack = self.list.types.len() - self.stack_start;
        // Within the budget, which keeps the list far below 2^32 types.
        self.list.records.push(FrameRecord {
            label,
            start: start as u32,
            locals: locals as u32,
            stack_start: self.stack_start as u32,
            stack: stack as u32,
        });
        self.previous = self.current;
    }
}

/// [`Frame::set_locals`] of `locals` on the frame locals at `own` in
/// `list`, copied to its end, when each is past the ones before it (the
/// locals instrumentation keeps across a body); `false` if one is not.
fn push_locals_past(list: &mut Vec<VType>, own: std::ops::Range<usize>, locals: &[(u16, VType)]) -> bool {
    let mut count: usize = list.get(own.clone()).unwrap_or_default().iter().map(VType::slots).sum();
    list.extend_from_within(own);
    for &(slot, t) in locals {
        let slot = usize::from(slot);
        if slot < count {
            return false;
        }
        list.resize(list.len() + (slot - count), VType::Top);
        list.push(t);
        count = slot + t.slots();
    }
    true
}

/// The frames of StackMapTable `table`, as [`decode`] gives them with no
/// room asked for; an error too if bytes are left after them.
pub fn decode_table<'p>(
    table: &Attribute<'_>,
    initial: &Frame,
    budget: usize,
    pool: &mut impl CodePool<'p>,
    label_at: &mut dyn FnMut(u32, usize) -> Result<Label>,
) -> Result<Vec<(Label, Frame)>> {
    let mut r = table.reader();
    let frames = decode(&mut r, initial, budget, 0, pool, label_at)?;
    r.finish()?;
    Ok(frames)
}

fn read_vtype<'p>(
    r: &mut Reader<'_>,
    pool: &mut impl CodePool<'p>,
    label_at: &mut dyn FnMut(u32, usize) -> Result<Label>,
) -> Result<VType> {
    let at = r.offset();
    Ok(match r.u8()? {
        0 => VType::Top,
        1 => VType::Integer,
        2 => VType::Float,
        3 => VType::Double,
        4 => VType::Long,
        5 => VType::Null,
        6 => VType::UninitializedThis,
        7 => {
            let index = r.u16()?;
            ConstantPool::at(pool.check_class(index), at)?;
            VType::Object(index)
        }
        8 => VType::Uninitialized(label_at(u32::from(r.u16()?), at)?),
        tag => return Err(ClassFileError::malformed(at, format!("unknown verification type tag {tag}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::stack_map_encode::encode;
    use crate::write::pool_builder::PoolBuilder;

    #[test]
    fn decoding_checks_that_every_object_type_names_a_class_constant() {
        // #1 Utf8 "A", #2 Class #1.
        let pool_bytes = [0, 3, 1, 0, 1, b'A', 7, 0, 1];
        let pool = ConstantPool::parse(&mut Reader::new(&pool_bytes)).expect("pool");
        let mut pool = PoolBuilder::new(pool);
        let initial = Frame { locals: vec![], stack: vec![] };
        let label = &mut |offset: u32, _| Ok(Label(offset));
        // Two frames of one stack item: an Object of #2, then of #1.
        let table = [0, 2, 64, 7, 0, 2, 64 + 3, 7, 0, 1];
        let one = [0, 1, 64, 7, 0, 2];
        let frames = decode(&mut Reader::new(&one), &initial, 100, 4, &mut pool, label).expect("a Class constant");
        assert_eq!(frames[0].1.stack, vec![VType::Object(2)]);
        let error = decode(&mut Reader::new(&table), &initial, 100, 4, &mut pool, label).expect_err("#1 is a Utf8");
        assert!(
            matches!(error.kind, crate::ErrorKind::WrongConstantKind { index: 1, expected: "Class", .. }),
            "{error}"
        );
        assert_eq!(error.offset, Some(7), "the offset of the second frame's type");
    }

    #[test]
    fn frames_of_every_kind_near_and_far_apart_decode_as_they_were_encoded() {
        // #1 Utf8 "A", #2 Class #1.
        let pool_bytes = [0, 3, 1, 0, 1, b'A', 7, 0, 1];
        let mut pool = PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&pool_bytes)).expect("pool"));
        let frame = |locals: &[VType], stack: &[VType]| Frame { locals: locals.to_vec(), stack: stack.to_vec() };
        let (a, l, i) = (VType::Object(2), VType::Long, VType::Integer);
        let initial = frame(&[a], &[]);
        let kinds = [
            frame(&[a], &[]),                   // same
            frame(&[a], &[i]),                  // one stack item
            frame(&[a, l, i], &[]),             // append
            frame(&[a], &[]),                   // chop
            frame(&[a, i, i, i, i], &[]),       // full: four more
            frame(&[i], &[a, VType::Null]),     // full: a stack
            frame(&[i], &[VType::Uninitialized(Label(0))]), // one stack item, a `new`'s
        ];
        for gap in [1u32, 70, 400] {
            let frames: Vec<(u32, Frame)> = kinds.iter().enumerate().map(|(n, f)| (n as u32 * gap, f.clone())).collect();
            let listed: Vec<(u32, &Frame)> = frames.iter().map(|(o, f)| (*o, f)).collect();
            let bytes = encode(&listed, &initial, &|l| Ok(l.0)).unwrap();
            let decoded = decode(&mut Reader::new(&bytes), &initial, 1000, 4, &mut pool, &mut |o, _| Ok(Label(o)))
                .expect("frames as encoded");
            let decoded: Vec<(u32, Frame)> = decoded.into_iter().map(|(l, f)| (l.0, f)).collect();
            assert_eq!(decoded, frames, "{gap} apart");
        }
    }
}
