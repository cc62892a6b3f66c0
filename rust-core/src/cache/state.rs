//! The cache's record of one class directory: per class file, the bytes the
//! build handed us (by digest), the bytes TF left there, and what scanning
//! learnt. Saved as MessagePack followed by the SHA-256 of that MessagePack,
//! so a damaged file is detected rather than believed.
#![forbid(unsafe_code)]

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};
use std::collections::BTreeMap;
use std::fs::Metadata;
use std::time::UNIX_EPOCH;

/// Bump when the layout below changes; an older state is then rebuilt.
pub const STATE_FORMAT: u32 = 3;

/// A SHA-256 of a file's bytes.
pub type Digest = [u8; 32];

/// The SHA-256 of `bytes`.
pub fn digest(bytes: &[u8]) -> Digest {
    Sha256::digest(bytes).into()
}

/// `digest` in lower-case hex, 64 characters: the file name of an original
/// in the cache.
pub fn hex(digest: &Digest) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(64);
    for byte in digest {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    text
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
/// What the cache knows of its class directory: the saved `state` file.
pub struct State {
    /// The layout it was saved in; a state of another than [`STATE_FORMAT`] is
    /// discarded.
    pub format: u32,
    /// The fingerprint of everything besides a class's own bytes that shapes
    /// its output (core version, settings, the TF annotations in force). When
    /// it changes, every class is enhanced again from its original.
    pub environment: String,
    /// Keyed by the path relative to the class directory, `/`-separated, so
    /// the state stays valid when the project directory moves. Saved as a
    /// sorted sequence, so loading builds the map in one pass.
    #[serde(with = "sorted_sequence")]
    pub classes: BTreeMap<String, Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
/// What the cache knows of one class file.
pub struct Entry {
    /// Size and modification time of the file as TF left it; when they still
    /// match, the file is not read at all. None: read it next time.
    pub stamp: Option<Stamp>,
    /// The bytes the build handed us (javac's output), kept in the store.
    #[serde(with = "serde_bytes")]
    pub original: Digest,
    /// The bytes TF left in the file (enhanced, or the original when TF had
    /// nothing to do).
    #[serde(with = "serde_bytes")]
    pub output: Digest,
    /// TF's earlier output for this file, which the file may still hold: set
    /// in the state a run saves before it rewrites the file (after a change of
    /// settings), so that a run killed before the rewrite leaves a file the
    /// next run still knows as an enhancement of `original`.
    #[serde(with = "optional_digest")]
    pub superseded: Option<Digest>,
    /// Binary name, as scanning found it.
    pub name: String,
    /// The subgroups, when the class is a TF annotation type.
    pub group: Option<Vec<String>>,
}

impl Entry {
    /// Whether bytes with `digest` are TF's output for this file, current or superseded.
    pub fn is_output(&self, digest: &Digest) -> bool {
        self.output == *digest || self.superseded.as_ref() == Some(digest)
    }
}

/// `Option<Digest>` as MessagePack binary (or nil), like the other digests.
mod optional_digest {
    use super::Digest;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(digest: &Option<Digest>, s: S) -> Result<S::Ok, S::Error> {
        match digest {
            Some(d) => s.serialize_bytes(d),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Digest>, D::Error> {
        let bytes: Option<serde_bytes::ByteBuf> = Option::deserialize(d)?;
        bytes
            .map(|b| Digest::try_from(b.as_slice()).map_err(|_| serde::de::Error::invalid_length(b.len(), &"32 bytes")))
            .transpose()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
/// A file's size and modification time: when both match what was recorded,
/// the file is taken as unchanged without reading it.
pub struct Stamp {
    /// Size in bytes.
    pub len: u64,
    /// Modification time, whole seconds since the Unix epoch.
    pub modified_secs: i64,
    /// The nanoseconds past `modified_secs`.
    pub modified_nanos: u32,
}

impl Stamp {
    /// The stamp in `metadata`; `None` when it has no modification time, or one
    /// before the epoch or out of range.
    pub fn of(metadata: &Metadata) -> Option<Stamp> {
        let modified = metadata.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
        Some(Stamp {
            len: metadata.len(),
            modified_secs: i64::try_from(modified.as_secs()).ok()?,
            modified_nanos: modified.subsec_nanos(),
        })
    }
}

/// A map saved as the sequence of its (key, value) pairs in key order; read
/// back by `BTreeMap`'s bulk construction from sorted input instead of one
/// search per insertion, which a no-change run of many classes feels.
mod sorted_sequence {
    use serde::ser::SerializeSeq;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::collections::BTreeMap;

    pub fn serialize<S: Serializer, K: Serialize, V: Serialize>(map: &BTreeMap<K, V>, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(map.len()))?;
        for pair in map {
            seq.serialize_element(&pair)?;
        }
        seq.end()
    }

    pub fn deserialize<'de, D, K, V>(d: D) -> Result<BTreeMap<K, V>, D::Error>
    where
        D: Deserializer<'de>,
        K: Deserialize<'de> + Ord,
        V: Deserialize<'de>,
    {
        let pairs = Vec::<(K, V)>::deserialize(d)?;
        Ok(pairs.into_iter().collect())
    }
}

impl State {
    /// The bytes to save: the state as MessagePack, then the SHA-256 of that
    /// MessagePack (read back by [`State::decode`]).
    pub fn encode(&self) -> Result<Vec<u8>, String> {
        let mut bytes = rmp_serde::to_vec(self).map_err(|e| e.to_string())?;
        let checksum = digest(&bytes);
        bytes.extend_from_slice(&checksum);
        Ok(bytes)
    }

    /// The state in `bytes`, or why it cannot be trusted.
    pub fn decode(bytes: &[u8]) -> Result<State, String> {
        let split = bytes.len().checked_sub(32).ok_or("the file is truncated")?;
        let (payload, checksum) = bytes.split_at(split);
        if digest(payload).as_slice() != checksum {
            return Err("its checksum does not match its contents".into());
        }
        let state: State = rmp_serde::from_slice(payload).map_err(|e| format!("it does not decode: {e}"))?;
        if state.format != STATE_FORMAT {
            return Err(format!("it has format {}, this TF writes {STATE_FORMAT}", state.format));
        }
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> State {
        let mut state = State { format: STATE_FORMAT, environment: "e".into(), ..State::default() };
        state.classes.insert(
            "com/ex/A.class".into(),
            Entry {
                stamp: Some(Stamp { len: 3, modified_secs: 1, modified_nanos: 2 }),
                original: digest(b"a"),
                output: digest(b"b"),
                superseded: Some(digest(b"c")),
                name: "com.ex.A".into(),
                group: Some(vec!["com.ex.B".into()]),
            },
        );
        state
    }

    #[test]
    fn hex_spells_a_digest_as_sha256sum_does() {
        assert_eq!(hex(&digest(b"")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    #[test]
    fn round_trips() {
        let state = sample();
        assert_eq!(State::decode(&state.encode().unwrap()).unwrap(), state);
    }

    #[test]
    fn any_flipped_byte_is_detected() {
        let bytes = sample().encode().unwrap();
        for i in 0..bytes.len() {
            let mut damaged = bytes.clone();
            damaged[i] ^= 0x40;
            assert!(State::decode(&damaged).is_err(), "flip at {i} went unnoticed");
        }
        assert!(State::decode(&bytes[..bytes.len() - 1]).is_err());
        assert!(State::decode(b"").is_err());
    }

    #[test]
    fn another_format_is_refused() {
        let state = State { format: STATE_FORMAT + 1, ..sample() };
        let message = State::decode(&state.encode().unwrap()).unwrap_err();
        assert!(message.contains("format"), "{message}");
    }
}
