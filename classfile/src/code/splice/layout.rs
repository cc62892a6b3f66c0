//! Where a splice puts things: the new offset of each original site and
//! instruction, and of each generated label.
#![forbid(unsafe_code)]

use super::scan::{Site, SiteKind};
use crate::code::insn::Label;

/// Where generated labels and the original sites land in the new code.
pub(super) struct Layout {
    pub(super) code_len: u32,
    /// New offset of each site, and the shift of the code after it (code
    /// is at most 65,535 bytes long).
    pub(super) placed: Vec<(u32, i32)>,
    /// Offset of each generated label, by `label - code_len - 1`.
    pub(super) generated: Vec<Option<u32>>,
    pub(super) length: u32,
}

impl Layout {
    /// The new offset of original offset `offset` (an instruction start or the end).
    pub(super) fn remap(&self, sites: &[Site], offset: u32) -> u32 {
        // The last site at or before `offset`.
        self.remap_after(sites, offset, sites.partition_point(|s| s.offset <= offset))
    }

    /// [`Layout::remap`] of offsets in increasing order: each looks for its
    /// site from where the one before found its own (`i`, from 0).
    pub(super) fn remap_next(&self, sites: &[Site], offset: u32, i: &mut usize) -> u32 {
        while sites.get(*i).is_some_and(|s| s.offset <= offset) {
            *i += 1;
        }
        self.remap_after(sites, offset, *i)
    }

    /// `offset` moved as the site before `i` (the last at or before it) moves it.
    pub(super) fn remap_after(&self, sites: &[Site], offset: u32, i: usize) -> u32 {
        if i == 0 {
            return offset;
        }
        let (site, (placed_at, shift)) = (&sites[i - 1], self.placed[i - 1]);
        // Chosen without a jump: whether an offset is a replaced site's
        // follows no pattern.
        let at_replaced = site.offset == offset && !matches!(site.kind, SiteKind::Insert);
        std::hint::select_unpredictable(at_replaced, placed_at, offset.wrapping_add_signed(shift))
    }

    pub(super) fn label(&self, sites: &[Site], label: Label) -> Option<u32> {
        if label.0 <= self.code_len {
            Some(self.remap(sites, label.0))
        } else {
            self.generated.get((label.0 - self.code_len - 1) as usize).copied().flatten()
        }
    }
}
