//! The Code attribute (JVMS 4.7.3) as found in the file. The editable form,
//! with labels instead of offsets, is [`crate::code::code_model`].
#![forbid(unsafe_code)]

use crate::read::attribute::{self, read_attributes, Attribute};
use crate::read::constant_pool::ConstantPool;
use crate::read::error::{ClassFileError, Result};

/// Largest `code_length` the JVM accepts.
pub const MAX_CODE_LENGTH: usize = 65_535;

/// A Code attribute read (JVMS 4.7.3): its limits, code, exception table and attributes.
#[derive(Debug, Clone, PartialEq, Eq)]
// Fields as JVMS 4.7.3 names them.
#[allow(missing_docs)]
pub struct CodeAttribute<'a> {
    /// The attribute itself, to write it back untouched.
    pub attribute: Attribute<'a>,
    pub max_stack: u16,
    pub max_locals: u16,
    pub code: &'a [u8],
    /// Offset of the first instruction in the file.
    pub code_offset: usize,
    pub exception_table: Vec<ExceptionHandler>,
    pub attributes: Vec<Attribute<'a>>,
}

/// One exception-table entry, in code offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
// Fields as JVMS 4.7.3 names them.
#[allow(missing_docs)]
pub struct ExceptionHandler {
    pub start_pc: u16,
    pub end_pc: u16,
    pub handler_pc: u16,
    /// A Class constant, or 0 to catch everything.
    pub catch_type: u16,
}

impl<'a> CodeAttribute<'a> {
    /// Reads the Code attribute `attribute` against `pool`.
    pub fn parse(attribute: Attribute<'a>, pool: &ConstantPool<'a>) -> Result<Self> {
        let mut r = attribute.reader();
        let max_stack = r.u16()?;
        let max_locals = r.u16()?;
        let length_at = r.offset();
        let code_length = r.u32()? as usize;
        if code_length == 0 || code_length > MAX_CODE_LENGTH {
            return Err(ClassFileError::malformed(length_at, format!("code length {code_length} is not 1 to 65535")));
        }
        let code_offset = r.offset();
        let code = r.bytes(code_length)?;
        let count = r.count(8)?;
        let mut exception_table = Vec::with_capacity(count);
        for _ in 0..count {
            let at = r.offset();
            let handler =
                ExceptionHandler { start_pc: r.u16()?, end_pc: r.u16()?, handler_pc: r.u16()?, catch_type: r.u16()? };
            let in_code = |pc: u16| usize::from(pc) < code_length;
            if !(in_code(handler.start_pc)
                && handler.start_pc < handler.end_pc
                && usize::from(handler.end_pc) <= code_length
                && in_code(handler.handler_pc))
            {
                return Err(ClassFileError::malformed(at, "an exception handler's range lies outside the code"));
            }
            if handler.catch_type != 0 {
                ConstantPool::at(pool.class_name(handler.catch_type), at + 6)?;
            }
            exception_table.push(handler);
        }
        let attributes = read_attributes(&mut r, pool)?;
        r.finish()?;
        Ok(CodeAttribute { attribute, max_stack, max_locals, code, code_offset, exception_table, attributes })
    }

    /// The Code attribute's own attribute named `name`, if it has one.
    pub fn attribute(&self, name: &str) -> Option<Attribute<'a>> {
        attribute::find(&self.attributes, name)
    }
}
