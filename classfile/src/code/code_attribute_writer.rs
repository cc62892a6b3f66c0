//! Writing a Code attribute's content (JVMS 4.7.3): the one writer both the
//! assembler and a splice use, so a method written either way has the same
//! layout byte for byte.
#![forbid(unsafe_code)]

use crate::code::insn::{Handler, Label};
use crate::code::encode::{count16, Put};
use crate::read::error::{ClassFileError, Result};

/// A Code attribute's content (everything after its 6-byte header) being
/// written, in the format's order: max_stack, max_locals and the code's
/// length; the code; the exception table; the attributes, each framed by
/// its name and length and counted.
pub(crate) struct CodeAttributeWriter {
    out: Vec<u8>,
    /// Where the attribute count goes, once the exception table is written.
    count_at: usize,
    /// Attributes ended so far.
    count: usize,
    /// Where the open attribute's data starts.
    data_at: usize,
}

impl CodeAttributeWriter {
    /// Starts the content with room for `capacity` bytes; the code, of
    /// `code_length` bytes, comes next, appended to [`Self::out`].
    pub(crate) fn new(capacity: usize, max_stack: u16, max_locals: u16, code_length: u32) -> Self {
        let mut out = Vec::with_capacity(capacity);
        out.u16(max_stack);
        out.u16(max_locals);
        out.u32(code_length);
        CodeAttributeWriter { out, count_at: 0, count: 0, data_at: 0 }
    }

    /// Where the code starts in the content: code offsets count from here.
    pub(crate) fn code_start(&self) -> usize {
        8
    }

    /// The content written so far, for the code and the open attribute's data.
    pub(crate) fn out(&mut self) -> &mut Vec<u8> {
        &mut self.out
    }

    /// The exception table of `handlers`, after the code; the attributes follow.
    pub(crate) fn exception_table(
        &mut self,
        handlers: &[Handler],
        offset_of: &dyn Fn(Label) -> Result<u32>,
    ) -> Result<()> {
        write_exception_table(handlers, offset_of, &mut self.out)?;
        self.count_at = self.out.len();
        self.out.u16(0);
        Ok(())
    }

    /// Opens an attribute named by `name_index`, its data to be appended to
    /// [`Self::out`]; returns where the name index is, for a name not yet in
    /// the pool to be patched in later.
    pub(crate) fn begin_attribute(&mut self, name_index: u16) -> usize {
        let name_at = self.out.len();
        self.data_at = begin_attribute(&mut self.out, name_index);
        name_at
    }

    /// Closes the open attribute: its length, and one more in the count.
    pub(crate) fn end_attribute(&mut self) -> Result<()> {
        end_attribute(&mut self.out, self.data_at)?;
        self.count += 1;
        Ok(())
    }

    /// The content, with the count of its attributes.
    pub(crate) fn finish(mut self) -> Result<Vec<u8>> {
        patch_u16(&mut self.out, self.count_at, count16(self.count, "code attributes")?);
        Ok(self.out)
    }
}

/// Writes the exception table of `handlers` (in priority order), dropping
/// the ranges an edit left empty: the JVM refuses them.
fn write_exception_table(
    handlers: &[Handler],
    offset_of: &dyn Fn(Label) -> Result<u32>,
    out: &mut Vec<u8>,
) -> Result<()> {
    let count_at = out.len();
    out.u16(0);
    let mut kept = 0usize;
    for h in handlers {
        let (start, end, handler) = (offset_of(h.start)? as u16, offset_of(h.end)? as u16, offset_of(h.handler)? as u16);
        if start < end {
            out.u16(start);
            out.u16(end);
            out.u16(handler);
            out.u16(h.catch_type);
            kept += 1;
        }
    }
    patch_u16(out, count_at, count16(kept, "exception handlers")?);
    Ok(())
}

/// Writes an attribute's name and a length to be patched by [`end_attribute`];
/// returns where the data starts.
fn begin_attribute(out: &mut Vec<u8>, name_index: u16) -> usize {
    out.u16(name_index);
    out.u32(0);
    out.len()
}

fn end_attribute(out: &mut [u8], data_at: usize) -> Result<()> {
    let len = u32::try_from(out.len() - data_at)
        .map_err(|_| ClassFileError::limit_unlocated("a code attribute longer than 4 GiB"))?;
    if let Some(slot) = out.get_mut(data_at - 4..data_at) {
        slot.copy_from_slice(&len.to_be_bytes());
    }
    Ok(())
}

pub(crate) fn patch_u16(out: &mut [u8], at: usize, value: u16) {
    if let Some(slot) = out.get_mut(at..at + 2) {
        slot.copy_from_slice(&value.to_be_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::attribute::Attribute;
    use crate::read::code_attribute::{CodeAttribute, ExceptionHandler};
    use crate::read::constant_pool::ConstantPool;
    use crate::read::reader::Reader;

    #[test]
    fn a_code_attribute_written_reads_back_as_written() {
        // #1 Utf8 "Foo", #2 Utf8 "Code", #3 Utf8 "Bar".
        let pool_bytes = [0, 4, 1, 0, 3, b'F', b'o', b'o', 1, 0, 4, b'C', b'o', b'd', b'e', 1, 0, 3, b'B', b'a', b'r'];
        let pool = ConstantPool::parse(&mut Reader::new(&pool_bytes)).expect("pool");
        let code = [0x00, 0x04, 0xac]; // nop, iconst_1, ireturn
        let mut writer = CodeAttributeWriter::new(16, 3, 2, code.len() as u32);
        assert_eq!(writer.code_start(), 8);
        writer.out().extend_from_slice(&code);
        let handler = |from, to, at| Handler { start: Label(from), end: Label(to), handler: Label(at), catch_type: 0 };
        // The second range is empty: dropped, as the JVM refuses it.
        writer.exception_table(&[handler(0, 2, 2), handler(1, 1, 2)], &|l| Ok(l.0)).expect("exception table");
        writer.begin_attribute(1);
        writer.out().extend_from_slice(&[1, 2, 3]);
        writer.end_attribute().expect("Foo");
        // A name not in the pool yet, patched in afterwards.
        let name_at = writer.begin_attribute(0);
        writer.out().push(9);
        writer.end_attribute().expect("Bar");
        let mut content = writer.finish().expect("content");
        patch_u16(&mut content, name_at, 3);

        let mut raw = vec![0, 2];
        raw.extend_from_slice(&(content.len() as u32).to_be_bytes());
        raw.extend_from_slice(&content);
        let attribute = Attribute { name_index: 2, name: b"Code", offset: 0, raw: &raw };
        let read = CodeAttribute::parse(attribute, &pool).expect("a well-formed Code attribute");
        assert_eq!((read.max_stack, read.max_locals, read.code), (3, 2, &code[..]));
        let kept = ExceptionHandler { start_pc: 0, end_pc: 2, handler_pc: 2, catch_type: 0 };
        assert_eq!(read.exception_table, vec![kept]);
        let attributes: Vec<_> = read.attributes.iter().map(|a| (a.name().into_owned(), a.data().to_vec())).collect();
        assert_eq!(attributes, vec![("Foo".to_string(), vec![1, 2, 3]), ("Bar".to_string(), vec![9])]);
    }
}
