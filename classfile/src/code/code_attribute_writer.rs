//! Writing a Code attribute's content (JVMS 4.7.3): the one writer both the
//! assembler and a splice use, so a method written either way has the same
//! layout byte for byte.
#![forbid(unsafe_code)]

use crate::code::code_model::{Handler, Label};
use crate::code::encode::{count16, Put};
use crate::read::error::{ClassFileError, Result};

/// Writes the exception table of `handlers` (in priority order), dropping
/// the ranges an edit left empty: the JVM refuses them.
pub(crate) fn write_exception_table(
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
pub(crate) fn begin_attribute(out: &mut Vec<u8>, name_index: u16) -> usize {
    out.u16(name_index);
    out.u32(0);
    out.len()
}

pub(crate) fn end_attribute(out: &mut [u8], data_at: usize) -> Result<()> {
    let len = u32::try_from(out.len() - data_at)
        .map_err(|_| ClassFileError::limit(0, "a code attribute longer than 4 GiB"))?;
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
