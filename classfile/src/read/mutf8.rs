//! Modified UTF-8 (JVMS 4.4.7): NUL is written as `C0 80` and characters
//! beyond the BMP as two 3-byte surrogates. Most names are plain ASCII, so
//! decoding borrows whenever the bytes already are the standard UTF-8 of the
//! same string.
#![forbid(unsafe_code)]

use std::borrow::Cow;

/// Decodes modified UTF-8. Returns `None` for a byte sequence that is not
/// modified UTF-8 at all.
pub fn decode(bytes: &[u8]) -> Option<Cow<'_, str>> {
    // Bytes that are standard UTF-8 mean the same in modified UTF-8: the two
    // differ only in `C0 80` (NUL) and `ED A0..BF ..` (a surrogate), neither
    // of which standard UTF-8 accepts. One validation, then, for the names
    // of nearly every class file.
    match std::str::from_utf8(bytes) {
        Ok(text) => Some(Cow::Borrowed(text)),
        Err(_) => decode_slow(bytes).map(Cow::Owned),
    }
}

fn decode_slow(bytes: &[u8]) -> Option<String> {
    let mut units: Vec<u16> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b0) = bytes.get(i) {
        let continuation =
            |k: usize| bytes.get(i + k).copied().filter(|b| b & 0xC0 == 0x80).map(|b| u16::from(b & 0x3F));
        if b0 & 0x80 == 0 {
            units.push(u16::from(b0));
            i += 1;
        } else if b0 & 0xE0 == 0xC0 {
            units.push(u16::from(b0 & 0x1F) << 6 | continuation(1)?);
            i += 2;
        } else if b0 & 0xF0 == 0xE0 {
            units.push(u16::from(b0 & 0x0F) << 12 | continuation(1)? << 6 | continuation(2)?);
            i += 3;
        } else {
            return None;
        }
    }
    Some(char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect())
}

/// Encodes a string as modified UTF-8.
// Inline, the test of a literal (`name_is("<init>")`, asked of every
// method) folds away and leaves a comparison of bytes.
#[inline]
pub fn encode(text: &str) -> Cow<'_, [u8]> {
    if is_plain(text.as_bytes()) {
        return Cow::Borrowed(text.as_bytes());
    }
    Cow::Owned(encode_changed(text))
}

/// [`encode`] of a text whose bytes change: a NUL or a character beyond the BMP.
fn encode_changed(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 8);
    for unit in text.encode_utf16() {
        match unit {
            0x0001..=0x007F => out.push(unit as u8),
            0x0000 | 0x0080..=0x07FF => {
                out.push(0xC0 | (unit >> 6) as u8);
                out.push(0x80 | (unit & 0x3F) as u8);
            }
            _ => {
                out.push(0xE0 | (unit >> 12) as u8);
                out.push(0x80 | ((unit >> 6) & 0x3F) as u8);
                out.push(0x80 | (unit & 0x3F) as u8);
            }
        }
    }
    out
}

/// The most bytes of modified UTF-8 one `CONSTANT_Utf8` holds (its length
/// is a u16).
pub const MAX_CONSTANT_BYTES: usize = 65_535;

/// The bytes `c` takes in modified UTF-8: NUL two, a character beyond the
/// BMP six (two surrogates of three).
pub fn encoded_len(c: char) -> usize {
    match u32::from(c) {
        0 => 2,
        1..=0x7F => 1,
        0x80..=0x7FF => 2,
        0x800..=0xFFFF => 3,
        _ => 6,
    }
}

/// `text` cut, between characters, into the fewest pieces whose modified
/// UTF-8 each fits one `CONSTANT_Utf8`.
pub fn constant_pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut bytes = 0;
        let end = rest
            .char_indices()
            .find_map(|(at, c)| {
                bytes += encoded_len(c);
                (bytes > MAX_CONSTANT_BYTES).then_some(at)
            })
            .unwrap_or(rest.len());
        let (piece, after) = rest.split_at(end);
        rest = after;
        Some(piece)
    })
}

/// Are these UTF-8 bytes their own modified UTF-8: no NUL byte, no lead
/// byte of a character beyond the BMP (`F0`..)? Eight bytes at a time:
/// every text added to a pool is checked, and most are a few dozen bytes,
/// too short for a vectorized loop to pay for its set-up.
#[inline]
fn is_plain(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    // In each byte's high bit: the byte is 0 (exact for the word, as
    // `w - 1` borrows only from a zero byte upwards), or its top four
    // bits are all set (shifts within a byte: the spill is masked off).
    let flagged = |w: u64| (w.wrapping_sub(ONES) & !w) | (w & (w << 1) & (w << 2) & (w << 3));
    let (words, rest) = bytes.as_chunks::<8>();
    let found = words.iter().fold(0, |found, word| found | flagged(u64::from_le_bytes(*word)));
    // The rest: as the last eight bytes, which overlap words already
    // checked (checking a byte twice changes nothing); in a text shorter
    // than eight, put together in a register, above bytes that are
    // neither. (Copied into a padded array, it was a call and a load
    // waiting on the copy's small stores.)
    let last = match bytes.last_chunk::<8>() {
        Some(word) => u64::from_le_bytes(*word),
        None => rest.iter().rev().fold(ONES, |word, &b| (word << 8) | u64::from(b)),
    };
    (found | flagged(last)) & HIGH_BITS == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_means_no_nul_and_no_lead_of_four() {
        let simple = |bytes: &[u8]| bytes.iter().all(|&b| b != 0 && b < 0xF0);
        // Every byte value, at every place of texts of 0 to 19 bytes, among
        // bytes that are plain and bytes that are not.
        for len in 0..20 {
            for at in 0..len {
                for b in 0..=255u8 {
                    for filler in [b'a', 0x80, 0xEF, 0xF0, 0x00, 0x01, 0xFF] {
                        let mut text = vec![filler; len];
                        text[at] = b;
                        assert_eq!(is_plain(&text), simple(&text), "{text:?}");
                    }
                }
            }
        }
        assert!(is_plain(b""));
    }

    #[test]
    fn encoded_len_is_the_length_encode_writes() {
        for c in ['\0', 'a', '\u{7F}', '\u{80}', '\u{7FF}', '\u{800}', '\u{FFFF}', '\u{10000}', '\u{10FFFF}'] {
            assert_eq!(encoded_len(c), encode(c.encode_utf8(&mut [0; 4])).len(), "{c:?}");
        }
    }

    #[test]
    fn constant_pieces_fill_each_constant_and_lose_nothing() {
        let full = "a".repeat(MAX_CONSTANT_BYTES);
        // A text that fits is one piece, the empty text none.
        assert_eq!(constant_pieces(&full).collect::<Vec<_>>(), [full.as_str()]);
        assert_eq!(constant_pieces("").count(), 0);
        // One byte over: the last character starts a piece; a character is
        // never cut, even where its bytes would straddle the limit.
        for tail in ["b", "\0", "\u{20AC}", "\u{1F600}"] {
            let text = format!("{}{tail}", "a".repeat(MAX_CONSTANT_BYTES - 1));
            let pieces: Vec<&str> = constant_pieces(&text).collect();
            assert_eq!(pieces.concat(), text, "{tail:?}");
            assert!(pieces.iter().all(|p| encode(p).len() <= MAX_CONSTANT_BYTES), "{tail:?}");
            let expected = if encoded_len(tail.chars().next().unwrap_or('a')) > 1 { 2 } else { 1 };
            assert_eq!(pieces.len(), expected, "{tail:?}");
        }
    }

    #[test]
    fn ascii_borrows() {
        assert!(matches!(decode(b"java/lang/Object"), Some(Cow::Borrowed("java/lang/Object"))));
    }

    #[test]
    fn nul_and_supplementary_round_trip() {
        let text = "a\0b\u{1F600}é";
        let encoded = encode(text);
        assert!(!encoded.contains(&0));
        assert_eq!(encoded.len(), 1 + 2 + 1 + 6 + 2);
        assert_eq!(decode(&encoded).as_deref(), Some(text));
    }

    #[test]
    fn text_without_nul_or_supplementary_characters_is_borrowed_as_it_is() {
        for text in ["", "java/lang/Object", "\u{7F}\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}"] {
            assert!(matches!(encode(text), Cow::Borrowed(b) if b == text.as_bytes()), "{text:?}");
        }
        for text in ["\0", "ab\0", "\u{10000}", "long enough for a vector loop, then \u{10FFFF}"] {
            assert!(matches!(encode(text), Cow::Owned(_)), "{text:?}");
        }
    }

    #[test]
    fn a_character_between_d000_and_d7ff_decodes_as_itself() {
        // `ED 80..9F` is standard UTF-8 too; `ED A0..` (a surrogate) is not.
        assert_eq!(decode("\u{D000}x".as_bytes()).as_deref(), Some("\u{D000}x"));
        assert_eq!(decode(&[0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]).as_deref(), Some("\u{1F600}"));
    }

    #[test]
    fn broken_sequence_is_refused() {
        assert_eq!(decode(&[0xE0, 0x80]), None);
        assert_eq!(decode(&[0xF8]), None);
    }
}
