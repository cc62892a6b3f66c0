//! What a splice writes: a method's new Code attribute, waiting only for
//! the name of a StackMapTable the original did not have.
#![forbid(unsafe_code)]

use crate::code::check::SplicedRegions;
use crate::code::chunk::Chunk;
use crate::code::code_attribute_writer::{patch_u16, CodeAttributeWriter};
use crate::code::pool::CodePool;
use crate::read::attribute::name;
use crate::read::code_attribute::MAX_CODE_LENGTH;
use crate::read::error::Result;

/// The new Code attribute's content, waiting only for the name of a
/// StackMapTable the original did not have (the general path names it when
/// the class's bodies are assembled, in method order; so does
/// [`SplicedCode::finish`]).
#[derive(Debug, Clone)]
pub struct SplicedCode {
    pub(super) data: Vec<u8>,
    pub(super) stack_map_name_at: Option<usize>,
    /// Where the splice wrote code of its own, for the pre-write check
    /// (`None`: the whole code is written).
    pub(super) regions: Option<SplicedRegions>,
}

impl SplicedCode {
    /// The Code attribute of a new method whose code is `chunk` alone: it
    /// must run straight (no branch target, no jump out of it, so no frame),
    /// and use no local past the method's parameters (`max_locals`).
    pub fn straight(chunk: &Chunk, max_locals: u16) -> Option<SplicedCode> {
        let branches = !chunk.labels.is_empty() || !chunk.jumps.is_empty();
        if branches || chunk.bytes.is_empty() || chunk.bytes.len() > MAX_CODE_LENGTH {
            return None;
        }
        let mut writer = CodeAttributeWriter::new(chunk.bytes.len() + 12, chunk.peak, max_locals, chunk.len());
        writer.out().extend_from_slice(&chunk.bytes);
        writer.exception_table(&[], &|l| Ok(l.0)).ok()?;
        Some(SplicedCode { data: writer.finish().ok()?, stack_map_name_at: None, regions: None })
    }

    /// Where the splice wrote code of its own into the original code, taken
    /// out once, for the pre-write check; `None` for code that is all written
    /// ([`SplicedCode::straight`]).
    pub fn take_regions(&mut self) -> Option<SplicedRegions> {
        self.regions.take()
    }

    /// The Code attribute's content, the StackMapTable's name asked of `pool` if the original had none.
    pub fn finish<'p>(mut self, pool: &mut impl CodePool<'p>) -> Result<Vec<u8>> {
        if let Some(at) = self.stack_map_name_at {
            patch_u16(&mut self.data, at, pool.utf8(name::STACK_MAP_TABLE)?);
        }
        Ok(self.data)
    }
}
