//! Modified UTF-8 (JVMS 4.4.7): NUL is written as `C0 80` and characters
//! beyond the BMP as two 3-byte surrogates. Most names are plain ASCII, so
//! decoding borrows whenever the bytes already are the standard UTF-8 of the
//! same string.
#![forbid(unsafe_code)]

use std::borrow::Cow;

/// Decodes modified UTF-8. Returns `None` for a byte sequence that is not
/// modified UTF-8 at all.
pub fn decode(bytes: &[u8]) -> Option<Cow<'_, str>> {
    // `C0` (the first byte of an encoded NUL) and `ED` (the first byte of a
    // surrogate) are the only bytes whose meaning differs from standard UTF-8.
    if !bytes.iter().any(|&b| b == 0xC0 || b == 0xED) {
        if let Ok(text) = std::str::from_utf8(bytes) {
            return Some(Cow::Borrowed(text));
        }
    }
    decode_slow(bytes).map(Cow::Owned)
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
pub fn encode(text: &str) -> Cow<'_, [u8]> {
    if !text.bytes().any(|b| b == 0 || b >= 0xF0) {
        return Cow::Borrowed(text.as_bytes());
    }
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
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn broken_sequence_is_refused() {
        assert_eq!(decode(&[0xE0, 0x80]), None);
        assert_eq!(decode(&[0xF8]), None);
    }
}
