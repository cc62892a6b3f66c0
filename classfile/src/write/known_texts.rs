//! Texts many classes' pools get (an instrumenter's own names), known for
//! the whole process and added borrowed ([`KnownTexts`]), and a text made
//! ready once to be added to many pools ([`PreparedText`]).
#![forbid(unsafe_code)]

use super::pool_index::Key;
use crate::read::mutf8;
use std::borrow::Cow;

/// Texts that the pools of many classes get, an instrumenter's own names,
/// known for the whole process. A Utf8 entry added with one of them borrows
/// it: enhancing a class adds some forty such names, which would otherwise
/// be copied twice each (the entry and its index key).
#[derive(Debug)]
pub struct KnownTexts {
    /// By the pool index's hash of the text, which an addition has at hand:
    /// no second hash of the whole text for every addition. Open addressing
    /// in a table at most a quarter full: most lookups read one slot (every
    /// text a class adds or looks up is looked up here first). Of two texts
    /// with one hash, the second is left out: it is copied when added.
    slots: Box<[KnownSlot]>,
    /// `slots.len() - 1` (a power of two).
    mask: usize,
}

/// A text of [`KnownTexts`] with its hash; `None`: a free slot.
pub(super) type KnownSlot = Option<(u64, &'static [u8])>;

impl KnownTexts {
    /// The texts whose modified UTF-8 is their UTF-8 (no NUL, no character
    /// outside the Basic Multilingual Plane); the others are left out.
    pub fn new(texts: impl IntoIterator<Item = &'static str>) -> Self {
        let texts: Vec<&'static [u8]> = texts
            .into_iter()
            .filter(|t| matches!(mutf8::encode(t), Cow::Borrowed(_)))
            .map(str::as_bytes)
            .collect();
        let len = (4 * texts.len()).next_power_of_two().max(8);
        let mut known = KnownTexts { slots: vec![None; len].into_boxed_slice(), mask: len - 1 };
        for text in texts {
            let hash = Key::Utf8(text).hash();
            let mut i = hash as usize & known.mask;
            while let Some(Some((taken, _))) = known.slots.get(i) {
                if *taken == hash {
                    break;
                }
                i = (i + 1) & known.mask;
            }
            if let Some(slot @ None) = known.slots.get_mut(i) {
                *slot = Some((hash, text));
            }
        }
        known
    }

    /// Is `text` one of the known texts?
    pub fn contains(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        self.get(bytes, Key::Utf8(bytes).hash()).is_some()
    }

    /// `bytes`, of hash `hash`, as a known text. Most additions of a known
    /// text pass the very constant it was made from: no need to compare
    /// what is the same slice.
    pub(super) fn get(&self, bytes: &[u8], hash: u64) -> Option<&'static [u8]> {
        let mut i = hash as usize & self.mask;
        loop {
            match *self.slots.get(i)? {
                Some((taken, text)) if taken == hash => {
                    return (std::ptr::eq(text, bytes) || text == bytes).then_some(text);
                }
                Some(_) => i = (i + 1) & self.mask,
                None => return None,
            }
        }
    }
}

/// A text added to the pools of many classes, made ready once: its modified
/// UTF-8 and its hash, and whether it is a known text (added borrowed). Adding
/// it ([`PoolBuilder::prepared_utf8`]) neither encodes nor hashes it again.
#[derive(Debug, Clone)]
pub struct PreparedText {
    /// Borrowed: one of the [`KnownTexts`].
    pub(super) bytes: Cow<'static, [u8]>,
    pub(super) hash: u64,
}

impl PreparedText {
    /// `text` made ready: encoded, hashed, and borrowed from `known` if it is one of them.
    pub fn new(text: &str, known: Option<&'static KnownTexts>) -> Self {
        let encoded = mutf8::encode(text);
        let hash = Key::Utf8(&encoded).hash();
        let bytes = match known.and_then(|known| known.get(&encoded, hash)) {
            Some(text) => Cow::Borrowed(text),
            None => Cow::Owned(encoded.into_owned()),
        };
        PreparedText { bytes, hash }
    }
}
