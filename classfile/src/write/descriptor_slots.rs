//! The operand stack slots the descriptors of a pool's entries give, as the
//! code layer asks for them (`CodePool::field_slots` and the like): every
//! invocation and field access the depth pass meets needs its descriptor's
//! sizes, and a class names the same few members over and over, so each
//! entry's descriptor is read and counted once and the sizes kept in the
//! `PoolBuilder` that holds the pool (its look-ups: `pool_builder.rs`).
//! Descriptors of the pool as read are counted on the file's bytes
//! (`descriptor::*_of_bytes`), without making text of them.
#![forbid(unsafe_code)]

use crate::read::descriptor;

/// Descriptor slot sizes by pool index, one pool's: the memo of its
/// `PoolBuilder`'s look-ups.
#[derive(Debug, Clone, Default)]
pub(crate) struct SlotCache {
    /// What is known of each entry, one word each ([`Slots`], 0: nothing):
    /// the list grows as zeroed memory, for every class.
    by_index: Vec<u32>,
}

/// The slot sizes a pool entry's descriptor gives, as an instruction naming
/// the entry needs them, packed in a word: the kind in the top bits, the
/// sizes below (0: not known yet).
struct Slots;

impl Slots {
    const KIND: u32 = 0xF000_0000;
    /// A field descriptor's size.
    const FIELD: u32 = 0x1000_0000;
    /// A method descriptor's parameter slots (below `KIND`, above 4 bits) and return slots (the low 4 bits).
    const METHOD: u32 = 0x2000_0000;
    /// What an `ldc`/`ldc_w` of the entry pushes (kept apart from `FIELD`:
    /// code that loads a field reference with `ldc` must not get its size).
    const LOADED: u32 = 0x3000_0000;
    /// Kept under a Utf8 entry's index: what it gives as a field descriptor
    /// ([`Slots::FIELD`]'s form) or as a method descriptor ([`Slots::METHOD`]'s).
    /// Members of a class share descriptors (fields of a type, methods of a
    /// signature): each is counted once.
    const FIELD_DESCRIPTOR: u32 = 0x4000_0000;
    const METHOD_DESCRIPTOR: u32 = 0x5000_0000;

    /// The sizes under `kind` of word `word`, if it holds that kind.
    fn of(word: u32, kind: u32) -> Option<u32> {
        (word & Slots::KIND == kind).then_some(word & !Slots::KIND)
    }
}

impl SlotCache {
    fn get(&self, index: u16, kind: u32) -> Option<u32> {
        Slots::of(self.by_index.get(usize::from(index)).copied().unwrap_or(0), kind)
    }

    fn put(&mut self, index: u16, kind: u32, sizes: u32) {
        let i = usize::from(index);
        if self.by_index.len() <= i {
            // Grown by halves at least: a class's code names its entries in
            // no order, and growing to each new index was a copy per miss.
            let len = (i + 1).max(self.by_index.len() * 3 / 2).max(64).min(usize::from(u16::MAX) + 1);
            self.by_index.resize(len, 0);
        }
        if let Some(slot) = self.by_index.get_mut(i) {
            *slot = kind | sizes;
        }
    }
}

/// A field's size in a word of [`SlotCache`].
fn pack_field(size: i32) -> Option<u32> {
    u32::try_from(size).ok()
}

fn unpack_field(word: u32) -> i32 {
    word as i32
}

/// A method's parameter and return slots in a word of [`SlotCache`]; `None`
/// for sizes that do not fit it (no valid descriptor has them).
fn pack_method((parameters, returns): (i32, i32)) -> Option<u32> {
    let fits = (0..1 << 24).contains(&parameters) && (0..16).contains(&returns);
    fits.then_some((parameters as u32) << 4 | returns as u32)
}

fn unpack_method(word: u32) -> (i32, i32) {
    ((word >> 4) as i32, (word & 0xF) as i32)
}

impl SlotCache {
    /// A field access's size, kept under the reference's index.
    pub(super) fn field(&self, index: u16) -> Option<i32> {
        self.get(index, Slots::FIELD).map(unpack_field)
    }

    pub(super) fn keep_field(&mut self, index: u16, size: i32) {
        if let Some(word) = pack_field(size) {
            self.put(index, Slots::FIELD, word);
        }
    }

    /// An invocation's parameter and return slots, kept under the reference's index.
    pub(super) fn method(&self, index: u16) -> Option<(i32, i32)> {
        self.get(index, Slots::METHOD).map(unpack_method)
    }

    /// Sizes that do not fit the word (no valid descriptor has them) are not kept.
    pub(super) fn keep_method(&mut self, index: u16, sizes: (i32, i32)) {
        if let Some(word) = pack_method(sizes) {
            self.put(index, Slots::METHOD, word);
        }
    }

    /// What an `ldc` of the entry pushes, kept under its index.
    pub(super) fn loaded(&self, index: u16) -> Option<i32> {
        self.get(index, Slots::LOADED).map(unpack_field)
    }

    pub(super) fn keep_loaded(&mut self, index: u16, size: i32) {
        if let Some(word) = pack_field(size) {
            self.put(index, Slots::LOADED, word);
        }
    }

    /// The field slots of descriptor entry `at` of the pool as read, whose
    /// bytes are `text` when they are plain ASCII: counted once per entry.
    /// `None` where the descriptor is not read in place (`text` is `None`:
    /// the pool's look-up then decides), `Some(None)` where counting fails.
    pub(super) fn field_descriptor(&mut self, at: u16, text: Option<&[u8]>) -> Option<Option<i32>> {
        self.counted(at, text, Slots::FIELD_DESCRIPTOR, descriptor::field_slots_of_bytes, pack_field, unpack_field)
    }

    /// [`SlotCache::field_descriptor`] of a method descriptor.
    pub(super) fn method_descriptor(&mut self, at: u16, text: Option<&[u8]>) -> Option<Option<(i32, i32)>> {
        self.counted(at, text, Slots::METHOD_DESCRIPTOR, descriptor::method_slots_of_bytes, pack_method, unpack_method)
    }

    fn counted<T: Copy>(
        &mut self,
        at: u16,
        text: Option<&[u8]>,
        kind: u32,
        count: fn(&[u8]) -> Option<T>,
        pack: fn(T) -> Option<u32>,
        unpack: fn(u32) -> T,
    ) -> Option<Option<T>> {
        if let Some(word) = self.get(at, kind) {
            return Some(Some(unpack(word)));
        }
        let counted = count(text?);
        if let Some(word) = counted.and_then(pack) {
            self.put(at, kind, word);
        }
        Some(counted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_gives_back_what_it_was_given_by_kind() {
        let mut cache = SlotCache::default();
        cache.put(300, Slots::METHOD, 255 << 4 | 2);
        cache.put(2, Slots::FIELD, 2);
        assert_eq!(cache.get(300, Slots::METHOD), Some(255 << 4 | 2));
        assert_eq!(cache.get(300, Slots::FIELD), None);
        assert_eq!(cache.get(2, Slots::FIELD), Some(2));
        assert_eq!(cache.get(2, Slots::LOADED), None);
        assert_eq!(cache.get(3, Slots::FIELD), None);
        assert_eq!(cache.get(60_000, Slots::METHOD), None);
    }
}
