//! The global allocator: mimalloc (see its dependency's comment in
//! Cargo.toml), entered the way Rust's own `System` allocator enters malloc.
//! A layout whose alignment every mimalloc block has (a pointer's, eight
//! bytes) takes the plain `mi_malloc` family; only a larger alignment takes
//! the `_aligned` one. mimalloc's aligned entry points serve a block above
//! its small sizes (1 KiB) with a larger alignment in mind, over-allocating
//! and realigning even for an alignment of 1 (a `Vec<u8>` growing past
//! 1 KiB), which showed as a fifth of enhancing time.
#![allow(unsafe_code)] // The allocator interface is unsafe by definition; this is its one implementation.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// Every block mimalloc hands out is aligned to at least a pointer's size.
const PLAIN_ALIGNMENT: usize = std::mem::size_of::<usize>();

pub struct MiMalloc;

// SAFETY: each method forwards to the mimalloc function of the same contract
// (a null pointer on failure; `ptr` from this allocator); the plain functions
// are used only for alignments their blocks always have.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= PLAIN_ALIGNMENT {
            unsafe { mi::mi_malloc(layout.size()) as *mut u8 }
        } else {
            unsafe { mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8 }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= PLAIN_ALIGNMENT {
            unsafe { mi::mi_zalloc(layout.size()) as *mut u8 }
        } else {
            unsafe { mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8 }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= PLAIN_ALIGNMENT {
            unsafe { mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8 }
        } else {
            unsafe { mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8 }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of every size class up to past mimalloc's small and medium
    /// sizes, at every alignment up to a page, hold their alignment after
    /// growing and shrinking, and keep their contents.
    #[test]
    fn blocks_keep_their_alignment_and_contents() {
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in (1..4096).step_by(37).chain([1 << 16, 1 << 20]) {
                let layout = Layout::from_size_align(size, align).unwrap();
                unsafe {
                    let p = MiMalloc.alloc(layout);
                    assert!(!p.is_null() && (p as usize).is_multiple_of(align), "alloc {size} aligned {align}");
                    p.write_bytes(0xAB, size);
                    let grown = MiMalloc.realloc(p, layout, size * 3);
                    assert!(!grown.is_null() && (grown as usize).is_multiple_of(align), "realloc {size} aligned {align}");
                    assert!((0..size).all(|i| *grown.add(i) == 0xAB), "contents kept growing {size} aligned {align}");
                    let shrunk = MiMalloc.realloc(grown, Layout::from_size_align(size * 3, align).unwrap(), size / 2 + 1);
                    assert!((shrunk as usize).is_multiple_of(align), "shrunk {size} aligned {align}");
                    MiMalloc.dealloc(shrunk, Layout::from_size_align(size / 2 + 1, align).unwrap());
                    let z = MiMalloc.alloc_zeroed(layout);
                    assert!((z as usize).is_multiple_of(align) && (0..size).all(|i| *z.add(i) == 0), "zeroed {size} aligned {align}");
                    MiMalloc.dealloc(z, layout);
                }
            }
        }
    }
}
