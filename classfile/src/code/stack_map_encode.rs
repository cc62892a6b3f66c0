//! The StackMapTable encoder: frames written in their most compact kind,
//! relative to the frame before (decoding: `stack_map.rs`).
#![forbid(unsafe_code)]

use crate::code::encode::Put;
use crate::code::insn::Label;
use crate::code::stack_map::{kind, Frame, FrameView, VType};
use crate::read::error::{ClassFileError, Result};
use crate::read::reader::Reader;

/// Encodes frames, given in increasing code order, as a StackMapTable's content.
pub fn encode(frames: &[(u32, &Frame)], initial: &Frame, offset_of: &dyn Fn(Label) -> Result<u32>) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(frames.len() * 4 + 2);
    encode_into(frames, initial, offset_of, &mut out)?;
    Ok(out)
}

/// [`encode`], appending to `out`.
pub fn encode_into(
    frames: &[(u32, &Frame)],
    initial: &Frame,
    offset_of: &dyn Fn(Label) -> Result<u32>,
    out: &mut Vec<u8>,
) -> Result<()> {
    let count = u16::try_from(frames.len()).map_err(|_| ClassFileError::limit_unlocated("more than 65,535 frames"))?;
    out.u16(count);
    write_frames(frames.iter().map(|&(o, f)| FrameView::of(o, f)), &initial.locals, None, offset_of, out)
}

/// [`encode_into`] of frames given as their parts (a [`FrameList`]'s among
/// them), after the method's first frame, whose locals are `initial`.
pub fn encode_views_into(
    frames: &[FrameView<'_>],
    initial: &[VType],
    offset_of: &dyn Fn(Label) -> Result<u32>,
    out: &mut Vec<u8>,
) -> Result<()> {
    let count = u16::try_from(frames.len()).map_err(|_| ClassFileError::limit_unlocated("more than 65,535 frames"))?;
    out.u16(count);
    write_frames(frames.iter().copied(), initial, None, offset_of, out)
}

/// Frames encoded ahead of the table they go in: they follow a known frame
/// at a known distance (see [`EncodedFrames::after`]).
#[derive(Debug, Clone, Default)]
pub struct EncodedFrames {
    pub(crate) count: u16,
    /// The frames as a StackMapTable holds them.
    pub bytes: Vec<u8>,
}

impl EncodedFrames {
    /// `frames` (in increasing code order) encoded as they are when they
    /// follow `previous` at offset `previous_offset` in a StackMapTable.
    pub fn after(
        frames: &[(u32, &Frame)],
        (previous_offset, previous): (u32, &Frame),
        offset_of: &dyn Fn(Label) -> Result<u32>,
    ) -> Result<EncodedFrames> {
        let count = u16::try_from(frames.len()).map_err(|_| ClassFileError::limit_unlocated("more than 65,535 frames"))?;
        let mut bytes = Vec::with_capacity(frames.len() * 8);
        let frames = frames.iter().map(|&(o, f)| FrameView::of(o, f));
        write_frames(frames, &previous.locals, Some(previous_offset), offset_of, &mut bytes)?;
        Ok(EncodedFrames { count, bytes })
    }

    /// Where the Class constant of each `Object` type is in the bytes;
    /// `None` if they are not well-formed frames.
    pub fn class_operands(&self) -> Option<Vec<usize>> {
        let mut r = Reader::new(&self.bytes);
        let mut found = Vec::new();
        let mut types = |r: &mut Reader<'_>, n: u16| -> Option<()> {
            for _ in 0..n {
                match r.u8().ok()? {
                    7 => {
                        found.push(r.position());
                        r.u16().ok()?;
                    }
                    8 => {
                        r.u16().ok()?;
                    }
                    _ => {}
                }
            }
            Some(())
        };
        for _ in 0..self.count {
            match r.u8().ok()? {
                0..=kind::SAME_MAX => {}
                kind::SAME_LOCALS_1_STACK_ITEM..=kind::SAME_LOCALS_1_STACK_ITEM_MAX => types(&mut r, 1)?,
                kind::SAME_LOCALS_1_STACK_ITEM_EXTENDED => {
                    r.u16().ok()?;
                    types(&mut r, 1)?;
                }
                frame_type @ kind::CHOP_MIN..=kind::APPEND_MAX => {
                    r.u16().ok()?;
                    types(&mut r, u16::from(frame_type.saturating_sub(kind::SAME_FRAME_EXTENDED)))?;
                }
                kind::FULL_FRAME => {
                    r.u16().ok()?;
                    let locals = r.u16().ok()?;
                    types(&mut r, locals)?;
                    let stack = r.u16().ok()?;
                    types(&mut r, stack)?;
                }
                _ => return None,
            }
        }
        r.finish().ok()?;
        Some(found)
    }
}

/// Writes `frames`, each relative to the one before; the first relative to
/// `previous`, at `previous_offset` (`None`: the method's implicit frame).
/// Their bytes are gathered on the stack and copied out in runs (see [`Staged`]).
fn write_frames<'f>(
    frames: impl Iterator<Item = FrameView<'f>>,
    mut previous: &'f [VType],
    mut previous_offset: Option<u32>,
    offset_of: &dyn Fn(Label) -> Result<u32>,
    out: &mut Vec<u8>,
) -> Result<()> {
    let mut staged = Staged::new();
    for FrameView { offset, locals, stack } in frames {
        let delta = match previous_offset {
            None => offset,
            Some(p) if offset > p => offset - p - 1,
            Some(_) => {
                return Err(ClassFileError::malformed_unlocated(format!("two stack map frames at code offset {offset}")));
            }
        };
        let delta = u16::try_from(delta).map_err(|_| ClassFileError::limit_unlocated("a frame offset past 65,535"))?;
        write_frame(&mut staged, out, delta, previous, (locals, stack), offset_of)?;
        previous = locals;
        previous_offset = Some(offset);
    }
    staged.finish(out);
    Ok(())
}

// Inlined into each of the `write_frames` callers: a call per frame was a
// cost every frame of every method paid.
#[inline(always)]
fn write_frame(
    staged: &mut Staged,
    out: &mut Vec<u8>,
    delta: u16,
    previous: &[VType],
    (locals, stack): (&[VType], &[VType]),
    offset_of: &dyn Fn(Label) -> Result<u32>,
) -> Result<()> {
    let same_locals = locals == previous;
    let short = delta <= u16::from(kind::SAME_MAX);
    let [high, low] = delta.to_be_bytes();
    if same_locals && stack.is_empty() {
        if short {
            staged.put(out, [delta as u8, 0, 0], 1);
        } else {
            staged.put(out, [kind::SAME_FRAME_EXTENDED, high, low], 3);
        }
        return Ok(());
    }
    if let (true, [item]) = (same_locals, stack) {
        if short {
            staged.put(out, [kind::SAME_LOCALS_1_STACK_ITEM + delta as u8, 0, 0], 1);
        } else {
            staged.put(out, [kind::SAME_LOCALS_1_STACK_ITEM_EXTENDED, high, low], 3);
        }
        return staged.types(out, std::slice::from_ref(item), offset_of);
    }
    if stack.is_empty() {
        let (now, before) = (locals.len(), previous.len());
        if now > before && now - before <= 3 && locals.starts_with(previous) {
            staged.put(out, [kind::SAME_FRAME_EXTENDED + (now - before) as u8, high, low], 3);
            return staged.types(out, locals.get(before..).unwrap_or_default(), offset_of);
        }
        if now < before && before - now <= 3 && previous.starts_with(locals) {
            staged.put(out, [kind::SAME_FRAME_EXTENDED - (before - now) as u8, high, low], 3);
            return Ok(());
        }
    }
    staged.put(out, [kind::FULL_FRAME, high, low], 3);
    for list in [locals, stack] {
        let count =
            u16::try_from(list.len()).map_err(|_| ClassFileError::limit_unlocated("a frame of more than 65,535 types"))?;
        let [high, low] = count.to_be_bytes();
        staged.put(out, [high, low, 0], 2);
        staged.types(out, list, offset_of)?;
    }
    Ok(())
}

/// Bytes gathered on the stack and copied to `out` at the end (or when it
/// fills up): no room zeroed in `out` for them, no capacity checked for
/// each, and an index masked into the buffer, which takes no bounds check.
struct Staged {
    bytes: [u8; STAGED + 2],
    len: usize,
}

/// What [`Staged`] holds before it is copied out (a power of two: see `put`).
const STAGED: usize = 128;

impl Staged {
    fn new() -> Staged {
        Staged { bytes: [0; STAGED + 2], len: 0 }
    }

    /// The first `n` of `bytes` (all three are written, as one path for
    /// any `n`: the next put writes over what is past `n`).
    fn put(&mut self, out: &mut Vec<u8>, bytes: [u8; 3], n: usize) {
        if self.len > STAGED - 5 {
            out.extend_from_slice(self.bytes.get(..self.len).unwrap_or_default());
            self.len = 0;
        }
        // Below STAGED - 4 here: the mask changes nothing.
        let i = self.len & (STAGED - 1);
        self.bytes[i] = bytes[0];
        self.bytes[i + 1] = bytes[1];
        self.bytes[i + 2] = bytes[2];
        self.len += n;
    }

    /// Each type (JVMS 4.7.4 `verification_type_info`) as its tag, then a
    /// Class constant or a `new`'s offset, in one loop with no call per
    /// type, as every frame of every method written goes through here:
    /// one path for all types, as objects and the others alternate
    /// unpredictably, its tag read from a table (a `match` writing each was
    /// a jump through a table).
    fn types(&mut self, out: &mut Vec<u8>, types: &[VType], offset_of: &dyn Fn(Label) -> Result<u32>) -> Result<()> {
        for &t in types {
            let tag = t.tag();
            let mut operand = if let VType::Object(index) = t { index } else { 0 };
            if let VType::Uninitialized(label) = t {
                operand = offset_of(label)? as u16;
            }
            let [high, low] = operand.to_be_bytes();
            self.put(out, [tag, high, low], if tag >= 7 { 3 } else { 1 });
        }
        Ok(())
    }

    fn finish(self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.bytes.get(..self.len).unwrap_or_default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_types(out: &mut Vec<u8>, types: &[VType], offset_of: &dyn Fn(Label) -> Result<u32>) -> Result<()> {
        let mut staged = Staged::new();
        staged.types(out, types, offset_of)?;
        staged.finish(out);
        Ok(())
    }

    #[test]
    fn types_are_written_as_their_tag_and_operand_in_any_number_and_mix() {
        let kinds = |i: u16| match i % 11 {
            0 => VType::Object(0x0100 + i),
            1 => VType::Top,
            2 => VType::Integer,
            3 => VType::Object(0xFF00 | i),
            4 => VType::Float,
            5 => VType::Double,
            6 => VType::Long,
            7 => VType::Null,
            8 => VType::UninitializedThis,
            9 => VType::Uninitialized(Label(u32::from(i))),
            _ => VType::Object(7),
        };
        let offset_of = |l: Label| Ok(l.0 * 2);
        // Lengths around the runs the writer takes them in, all objects or none among them.
        for (count, pick) in [(0, 0u16), (1, 0), (15, 0), (16, 1), (17, 0), (40, 0), (33, 3), (50, 2), (130, 0), (90, 3)] {
            let types: Vec<VType> = (0..count).map(|i| if pick == 0 { kinds(i) } else { kinds(pick) }).collect();
            let mut expected = vec![0xAB];
            for &t in &types {
                expected.push(t.tag());
                match t {
                    VType::Object(index) => expected.extend_from_slice(&index.to_be_bytes()),
                    VType::Uninitialized(label) => expected.extend_from_slice(&((label.0 * 2) as u16).to_be_bytes()),
                    _ => {}
                }
            }
            let mut out = vec![0xAB];
            write_types(&mut out, &types, &offset_of).unwrap();
            assert_eq!(out, expected, "{count} types");
        }
        let unbound = |l: Label| Err(ClassFileError::malformed_unlocated(format!("label {}", l.0)));
        assert!(write_types(&mut Vec::new(), &[VType::Top, VType::Uninitialized(Label(3))], &unbound).is_err());
        // A full frame, its counts and types together, long enough to be copied out in parts.
        for (locals, stack) in [(0u16, 0u16), (3, 1), (60, 2), (2, 45)] {
            let frame = Frame {
                locals: (0..locals).map(|i| VType::Object(0x0200 + i)).collect(),
                stack: (0..stack).map(kinds).collect(),
            };
            let mut expected = vec![255, 0x01, 0x2C];
            for list in [&frame.locals, &frame.stack] {
                expected.extend_from_slice(&(list.len() as u16).to_be_bytes());
                write_types(&mut expected, list, &offset_of).unwrap();
            }
            // Five locals before, none kept: a full frame whatever this one holds.
            let previous = Frame { locals: vec![VType::Float; 5], stack: Vec::new() };
            let out = EncodedFrames::after(&[(311, &frame)], (10, &previous), &offset_of).unwrap().bytes;
            assert_eq!(out, expected, "{locals} locals, {stack} on the stack");
        }
    }

    #[test]
    fn frames_encoded_ahead_follow_their_frame_and_know_where_their_classes_are() {
        let monitor = VType::Object(0xF000);
        let before = Frame { locals: vec![VType::Top, monitor, VType::Long], stack: vec![] };
        let same = Frame { locals: before.locals.clone(), stack: vec![] };
        let one = Frame { locals: before.locals.clone(), stack: vec![VType::Object(0x0123)] };
        let full = Frame { locals: vec![monitor], stack: vec![VType::Integer, VType::Object(0xF001)] };
        let no_label = |l: Label| Err(ClassFileError::malformed_unlocated(format!("label {}", l.0)));
        let encoded = EncodedFrames::after(&[(12, &same), (20, &one), (90, &full)], (10, &before), &no_label).unwrap();
        assert_eq!(encoded.count, 3);
        #[rustfmt::skip]
        let expected = [
            1, // same: 12 - 10 - 1
            64 + 7, 7, 0x01, 0x23, // same locals and one stack item: 20 - 12 - 1
            255, 0, 69, 0, 1, 7, 0xF0, 0x00, 0, 2, 1, 7, 0xF0, 0x01, // full: 90 - 20 - 1
        ];
        assert_eq!(encoded.bytes, expected);
        assert_eq!(encoded.class_operands(), Some(vec![3, 11, 17]));
        let cut = EncodedFrames { count: 3, bytes: encoded.bytes[..10].to_vec() };
        assert_eq!(cut.class_operands(), None);
        assert!(EncodedFrames::after(&[(10, &same)], (10, &before), &no_label).is_err());
    }
}
