//! A bounds-checked big-endian cursor over a window of the class file. Every
//! read either succeeds or reports the absolute byte offset where it failed.
#![forbid(unsafe_code)]

use crate::read::error::{ClassFileError, ErrorKind, Result};

#[derive(Debug, Clone, Copy)]
pub(crate) struct Reader<'a> {
    /// The bytes read, usually the whole class file.
    data: &'a [u8],
    pos: usize,
    end: usize,
    /// Added to positions in `data` to give offsets in the class file.
    base: usize,
}

// The small reads are `#[inline]`: every parse runs through them, and the
// compiler left them calls from the other crate's code.
impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Reader { data, pos: 0, end: data.len(), base: 0 }
    }

    /// A reader over `bytes`, a piece of the class file starting at `base`.
    pub fn at_offset(bytes: &'a [u8], base: usize) -> Self {
        Reader { data: bytes, pos: 0, end: bytes.len(), base }
    }

    /// A reader over `data[start..start + len]`, offsets still absolute.
    pub fn window(data: &'a [u8], start: usize, len: usize) -> Result<Self> {
        let end = start
            .checked_add(len)
            .filter(|&end| end <= data.len())
            .ok_or_else(|| ClassFileError::new(start, ErrorKind::UnexpectedEnd { needed: len }))?;
        Ok(Reader { data, pos: start, end, base: 0 })
    }

    /// Offset of the next byte in the class file.
    #[inline]
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// Position of the next byte in `data`.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    #[inline]
    pub fn remaining(&self) -> usize {
        self.end - self.pos
    }

    pub fn is_empty(&self) -> bool {
        self.pos == self.end
    }

    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    #[inline]
    pub fn bytes(&mut self, len: usize) -> Result<&'a [u8]> {
        if len > self.remaining() {
            return Err(ClassFileError::new(
                self.offset(),
                ErrorKind::UnexpectedEnd { needed: len - self.remaining() },
            ));
        }
        let slice = self.data.get(self.pos..self.pos + len).unwrap_or_default();
        self.pos += len;
        Ok(slice)
    }

    #[inline]
    pub fn skip(&mut self, len: usize) -> Result<()> {
        self.bytes(len).map(|_| ())
    }

    /// Moves past the next bytes if they are `bytes`; otherwise reads nothing.
    #[inline]
    pub fn skip_if_next(&mut self, bytes: &[u8]) -> bool {
        let next = bytes.len() <= self.remaining() && self.data.get(self.pos..self.pos + bytes.len()) == Some(bytes);
        if next {
            self.pos += bytes.len();
        }
        next
    }

    /// The next item laid out as an attribute is (a `u16`, a `u32` length,
    /// that many bytes), taken at once when all of it is in the window:
    /// the `u16` and the whole item. `None`, nothing read, when it is cut
    /// short; reading it field by field then reports where.
    #[inline]
    pub fn sized_item(&mut self) -> Option<(u16, &'a [u8])> {
        let window = self.data.get(self.pos..self.end)?;
        let &[high, low, l0, l1, l2, l3] = window.first_chunk::<6>()?;
        let len = usize::try_from(u32::from_be_bytes([l0, l1, l2, l3])).ok()?.checked_add(6)?;
        let item = window.get(..len)?;
        self.pos += len;
        Some((u16::from_be_bytes([high, low]), item))
    }

    #[inline]
    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }

    #[inline]
    pub fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_be_bytes(self.array()?))
    }

    #[inline]
    pub fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_be_bytes(self.array()?))
    }

    pub fn i32(&mut self) -> Result<i32> {
        Ok(self.u32()? as i32)
    }

    pub fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_be_bytes(self.array()?))
    }

    #[inline]
    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.bytes(N)?);
        Ok(out)
    }

    /// Fails unless the window has been read to its end.
    pub fn finish(&self) -> Result<()> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(ClassFileError::new(self.offset(), ErrorKind::TrailingBytes { count: self.remaining() }))
        }
    }

    /// A count read from the input, checked against the bytes left: each of the
    /// `count` items takes at least `min_item_size` bytes, so a count that
    /// cannot fit is refused before anything is allocated for it.
    pub fn count(&mut self, min_item_size: usize) -> Result<usize> {
        let at = self.offset();
        let count = usize::from(self.u16()?);
        if count.saturating_mul(min_item_size) > self.remaining() {
            return Err(ClassFileError::malformed(
                at,
                format!("count {count} cannot fit in the {} byte(s) left", self.remaining()),
            ));
        }
        Ok(count)
    }
}
