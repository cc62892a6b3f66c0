//! The pool builder's index of its entries by value, so that an addition
//! equal to an existing entry reuses it (a plain map from each constant to
//! its first index is its oracle: `classfile/tests/pool_index.rs`).
#![forbid(unsafe_code)]

use crate::read::constant_pool::{tag, Constant, ConstantPool, ENTRY_SIZE};

/// How many additions a pool's tables make room for at once: an enhanced
/// class gets some eighty constants (TF's member references, names and
/// descriptors), and tables grown as they come are copied twice or more.
pub(super) const ADDITIONS_ROOM: usize = 128;

/// Entries by value, as hash chains over pool indexes: a bucket holds the
/// first index of its chain, and each index the next one and a check of its
/// hash. Nothing of an entry is copied: it is compared where it is, in the
/// class file or among the additions, and only when its check matches.
/// Building it is a hash and three stores per entry, into three small
/// arrays; a map holding each entry's bytes as its key cost one allocation
/// per table and a 32-byte slot per entry, for a pool that is mostly never
/// asked about (an enhanced class looks up some 180 constants).
#[derive(Debug, Clone, Default)]
pub(super) struct Index {
    /// For each bucket, the first pool index of its chain; 0 ends a chain
    /// (index 0 holds no entry).
    heads: Vec<u16>,
    /// For each pool index, the next index of its chain and 16 bits of its hash.
    links: Vec<Link>,
    /// `heads.len() - 1` (a power of two).
    mask: usize,
}

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Link {
    next: u16,
    check: u16,
}

/// An entry as a hashable key: its tag and its content bytes read as
/// one big-endian number (every kind but Utf8 has at most 8 bytes), the
/// same key [`raw_key`] makes of an entry's bytes in the file.
pub(super) fn constant_key(constant: &Constant<'_>) -> Option<(u8, u64)> {
    Some((
        constant.tag(),
        match constant {
            Constant::Utf8(_) => return None,
            Constant::Integer(v) => u64::from(*v as u32),
            Constant::Float(bits) => u64::from(*bits),
            Constant::Long(v) => *v as u64,
            Constant::Double(bits) => *bits,
            Constant::Class { name: a }
            | Constant::String { value: a }
            | Constant::MethodType { descriptor: a }
            | Constant::Module { name: a }
            | Constant::Package { name: a } => u64::from(*a),
            Constant::Fieldref { class: a, name_and_type: b }
            | Constant::Methodref { class: a, name_and_type: b }
            | Constant::InterfaceMethodref { class: a, name_and_type: b }
            | Constant::NameAndType { name: a, descriptor: b }
            | Constant::Dynamic { bootstrap_method: a, name_and_type: b }
            | Constant::InvokeDynamic { bootstrap_method: a, name_and_type: b } => pair(*a, *b),
            Constant::MethodHandle { kind, reference } => pair(u16::from(*kind), *reference),
        },
    ))
}

/// The key of an entry holding two indexes (or a handle's kind and index).
pub(super) fn pair(a: u16, b: u16) -> u64 {
    (u64::from(a) << 16) | u64::from(b)
}

/// [`constant_key`] of an entry (other than Utf8) from its tag and content bytes.
pub(super) fn raw_key(tag: u8, content: &[u8]) -> (u8, u64) {
    (tag, content.iter().fold(0u64, |key, &b| (key << 8) | u64::from(b)))
}

/// What an entry is compared by: a Utf8 entry by its bytes, any other by
/// [`constant_key`], a tag and a number.
#[derive(Clone, Copy)]
pub(super) enum Key<'k> {
    Utf8(&'k [u8]),
    Other(u8, u64),
}

/// The hash of an entry from its bytes as written (tag, then content): its
/// first eight bytes and its last eight (fewer for a shorter entry), each
/// read as one big-endian number. Every entry of a pool is hashed when its
/// index is built, and the bytes of any entry are two reads where it is in
/// the file, whatever its kind. A weak hash (a text's middle is not read)
/// only makes a chain longer, never a lookup wrong: entries are compared in
/// full. The plain form, which [`Key::hash`] and [`Key::hash_sized`] follow.
#[cfg(test)]
pub(super) fn entry_hash(entry: &[u8]) -> u64 {
    let number = |bytes: &[u8]| bytes.iter().fold(0u64, |n, &b| (n << 8) | u64::from(b));
    let n = entry.len();
    let head = number(entry.get(..n.min(8)).unwrap_or_default());
    let tail = if n > 8 { number(entry.get(n - 8..).unwrap_or_default()) } else { 0 };
    Key::mix(head, tail)
}

impl Key<'_> {
    /// [`entry_hash`] of the entry this key stands for.
    pub(super) fn hash(self) -> u64 {
        match self {
            Key::Utf8(text) => {
                let n = text.len();
                // The tag and the text's length, the entry's first three bytes.
                let header = (u64::from(tag::UTF8) << 16) | (n as u64 & 0xFFFF);
                match (text.first_chunk::<8>(), text.last_chunk::<8>()) {
                    (Some(head), Some(tail)) => {
                        Self::mix((header << 40) | (u64::from_be_bytes(*head) >> 24), u64::from_be_bytes(*tail))
                    }
                    // A text of fewer than eight bytes: its entry, of at
                    // most ten, read as one number.
                    _ => {
                        let entry = text.iter().fold(u128::from(header), |e, &b| (e << 8) | u128::from(b));
                        let size = 3 + n;
                        let head = (entry >> (8 * size.saturating_sub(8))) as u64;
                        Self::mix(head, if size > 8 { entry as u64 } else { 0 })
                    }
                }
            }
            // The entry is the tag and `size - 1` bytes of the key: nine
            // bytes (a Long or Double) or at most five.
            Key::Other(tag, key) => match ENTRY_SIZE[usize::from(tag)] {
                9 => Self::mix((u64::from(tag) << 56) | (key >> 8), key),
                size => Self::mix(u64::from(tag).checked_shl(8 * u32::from(size.saturating_sub(1))).unwrap_or(0) | key, 0),
            },
        }
    }

    const K: u64 = 0x9E37_79B9_7F4A_7C15;

    /// The hash of an entry's first eight bytes and its last eight (0 for
    /// an entry of at most eight bytes).
    pub(super) fn mix(head: u64, tail: u64) -> u64 {
        let x = head.wrapping_mul(Self::K) ^ tail;
        let x = x.wrapping_mul(Self::K);
        x ^ (x >> 29)
    }

    /// [`entry_hash`] of the entry of `size` bytes whose tag is at `at` in
    /// `file`. `None` for a size no entry has or where the file ends before
    /// eight bytes from the tag (the caller hashes that entry as read).
    #[inline]
    pub(super) fn hash_sized(file: &[u8], at: usize, size: usize) -> Option<u64> {
        // From a Class entry (three bytes) to a Utf8 entry of 65,535 bytes.
        if size.wrapping_sub(3) > usize::from(u16::MAX) {
            return None;
        }
        let bytes = file.get(at..at.checked_add(size.max(8))?)?;
        let first = u64::from_be_bytes(*bytes.first_chunk::<8>()?);
        let last = u64::from_be_bytes(*bytes.last_chunk::<8>()?);
        let head = first >> (64 - 8 * size.min(8));
        Some(Self::mix(head, if size > 8 { last } else { 0 }))
    }

    /// The key of an entry added or about to be.
    pub(super) fn of<'b>(constant: &'b Constant<'_>) -> Option<Key<'b>> {
        match constant {
            Constant::Utf8(bytes) => Some(Key::Utf8(bytes)),
            other => constant_key(other).map(|(tag, key)| Key::Other(tag, key)),
        }
    }

    /// The key of an entry as it is in the class file.
    pub(super) fn of_raw<'b>(tag: u8, content: &'b [u8]) -> Key<'b> {
        if tag == crate::read::constant_pool::tag::UTF8 {
            Key::Utf8(content)
        } else {
            let (tag, key) = raw_key(tag, content);
            Key::Other(tag, key)
        }
    }

    /// Is the entry whose tag is at `at` in `file` the one this key stands
    /// for? Its bytes are compared where they are, not decoded first: the
    /// tag, then a text's length and bytes or the key's bytes. False where
    /// the file ends first, as for the slot after a Long or Double.
    pub(super) fn is_written_at(self, file: &[u8], at: usize) -> bool {
        match self {
            Key::Utf8(text) => {
                let Ok(n) = u16::try_from(text.len()) else { return false };
                let entry = at.checked_add(3 + text.len()).and_then(|end| file.get(at..end));
                let Some(([tag, high, low], bytes)) = entry.and_then(<[u8]>::split_first_chunk::<3>) else {
                    return false;
                };
                *tag == tag::UTF8 && u16::from_be_bytes([*high, *low]) == n && bytes == text
            }
            Key::Other(tag, key) => {
                let size = usize::from(ENTRY_SIZE[usize::from(tag)]);
                let Some((&written, content)) =
                    at.checked_add(size).and_then(|end| file.get(at..end)).and_then(<[u8]>::split_first)
                else {
                    return false;
                };
                written == tag && raw_key(tag, content).1 == key
            }
        }
    }

    pub(super) fn is(self, other: Key<'_>) -> bool {
        match (self, other) {
            (Key::Utf8(a), Key::Utf8(b)) => a == b,
            (Key::Other(t, k), Key::Other(u, l)) => t == u && k == l,
            _ => false,
        }
    }
}

impl Index {
    /// Built from the entries' bytes as they are in the file: no entry is
    /// decoded (the first addition to a class's pool pays for this, and
    /// every class TF enhances gets additions). Out of line: the lookups
    /// that call it once per class stay small.
    #[inline(never)]
    pub(super) fn of(original: &ConstantPool<'_>) -> Self {
        // Room for the additions too, and at least two buckets per entry: a
        // lookup that walks past an entry mispredicts its way out of the
        // chain, and half of the lookups find nothing.
        let count = usize::from(original.count());
        let buckets = (2 * (count + ADDITIONS_ROOM)).next_power_of_two();
        let mut heads = vec![0u16; buckets];
        let mut links = Vec::with_capacity(count + ADDITIONS_ROOM);
        links.resize(count, Link::default());
        let mask = buckets - 1;
        let (file, offsets) = original.file_and_offsets();
        // The entries lie end to end: each one's size is where the next
        // starts less where it starts, and the last one's where the pool
        // ends. No entry's kind is read to size it.
        let mut next = offsets.get(1).map_or(0, |&first| first as usize + original.raw_bytes().len());
        // Linked from the last entry to the first, so that the first of
        // equal entries heads its chain and is the one reused.
        for (i, (&at, link)) in offsets.iter().zip(links.iter_mut()).enumerate().skip(1).rev() {
            let (at, size) = (at as usize, next.wrapping_sub(at as usize));
            next = at;
            // A Long or Double, followed by a slot with no entry (`u32::MAX`),
            // or that slot, gets a size no entry has, and is hashed as read.
            let hash = if let Some(hash) = Key::hash_sized(file, at, size) {
                hash
            } else if let Some(hash) = Self::hash_as_read(original, i) {
                hash
            } else {
                continue;
            };
            debug_assert_eq!(Some(hash), Self::hash_as_read(original, i), "entry {i} sized by the next one");
            let Some(head) = heads.get_mut((hash >> 32) as usize & mask) else { continue };
            *link = Link { next: *head, check: hash as u16 };
            *head = i as u16; // a pool has at most 65,535 slots
        }
        Index { heads, links, mask }
    }

    /// The hash of entry `i` from its value (a Long or Double, or an entry
    /// the file ends less than eight bytes after); `None` for a slot with no entry. Out of line:
    /// the loop over every entry keeps its registers.
    #[cold]
    #[inline(never)]
    pub(super) fn hash_as_read(original: &ConstantPool<'_>, i: usize) -> Option<u64> {
        let (tag, content) = original.raw_entry(u16::try_from(i).ok()?)?;
        Some(Key::of_raw(tag, content).hash())
    }

    /// Puts index `i`, of hash `hash`, at the head of its chain (an
    /// addition, at the end of `links` but after a Long or Double).
    pub(super) fn link(&mut self, i: u16, hash: u64) {
        let Some(head) = self.heads.get_mut((hash >> 32) as usize & self.mask) else { return };
        let link = Link { next: *head, check: hash as u16 };
        *head = i;
        let slot = usize::from(i);
        if slot == self.links.len() {
            self.links.push(link);
            return;
        }
        // Past the second slot of a Long or Double added just before.
        if self.links.len() < slot {
            self.links.resize(slot + 1, Link::default());
        }
        if let Some(place) = self.links.get_mut(slot) {
            *place = link;
        }
    }

    /// The first index of `hash` in its chain for which `is` holds.
    pub(super) fn find(&self, hash: u64, is: impl Fn(u16) -> bool) -> Option<u16> {
        let mut i = *self.heads.get((hash >> 32) as usize & self.mask)?;
        while i != 0 {
            let link = self.links.get(usize::from(i))?;
            if link.check == hash as u16 && is(i) {
                return Some(i);
            }
            i = link.next;
        }
        None
    }
}
