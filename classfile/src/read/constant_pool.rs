//! The constant pool (JVMS 4.4), read lazily: parsing records where each
//! entry starts and checks every cross-reference's kind once; entries are
//! decoded only when asked for.
#![forbid(unsafe_code)]

use crate::read::error::{ClassFileError, ErrorKind, Result};
use crate::read::mutf8;
use crate::read::reader::Reader;
use std::borrow::Cow;

/// The tag of each kind of constant pool entry (JVMS 4.4, Table 4.4-B).
#[allow(missing_docs)] // named as in JVMS 4.4, Table 4.4-B
pub mod tag {
    pub const UTF8: u8 = 1;
    pub const INTEGER: u8 = 3;
    pub const FLOAT: u8 = 4;
    pub const LONG: u8 = 5;
    pub const DOUBLE: u8 = 6;
    pub const CLASS: u8 = 7;
    pub const STRING: u8 = 8;
    pub const FIELDREF: u8 = 9;
    pub const METHODREF: u8 = 10;
    pub const INTERFACE_METHODREF: u8 = 11;
    pub const NAME_AND_TYPE: u8 = 12;
    pub const METHOD_HANDLE: u8 = 15;
    pub const METHOD_TYPE: u8 = 16;
    pub const DYNAMIC: u8 = 17;
    pub const INVOKE_DYNAMIC: u8 = 18;
    pub const MODULE: u8 = 19;
    pub const PACKAGE: u8 = 20;
}

/// One constant, decoded. Floating-point values keep their exact bits so that
/// equal entries compare equal (NaN payloads included) and can be deduplicated.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
// The entries of JVMS 4.4, their fields as named there.
#[allow(missing_docs)]
pub enum Constant<'a> {
    /// Raw modified-UTF-8 bytes; see [`mutf8::decode`].
    Utf8(Cow<'a, [u8]>),
    Integer(i32),
    Float(u32),
    Long(i64),
    Double(u64),
    Class {
        name: u16,
    },
    String {
        value: u16,
    },
    Fieldref {
        class: u16,
        name_and_type: u16,
    },
    Methodref {
        class: u16,
        name_and_type: u16,
    },
    InterfaceMethodref {
        class: u16,
        name_and_type: u16,
    },
    NameAndType {
        name: u16,
        descriptor: u16,
    },
    MethodHandle {
        kind: u8,
        reference: u16,
    },
    MethodType {
        descriptor: u16,
    },
    Dynamic {
        bootstrap_method: u16,
        name_and_type: u16,
    },
    InvokeDynamic {
        bootstrap_method: u16,
        name_and_type: u16,
    },
    Module {
        name: u16,
    },
    Package {
        name: u16,
    },
}

impl Constant<'_> {
    /// The entry's tag ([`tag`]).
    pub fn tag(&self) -> u8 {
        match self {
            Constant::Utf8(_) => tag::UTF8,
            Constant::Integer(_) => tag::INTEGER,
            Constant::Float(_) => tag::FLOAT,
            Constant::Long(_) => tag::LONG,
            Constant::Double(_) => tag::DOUBLE,
            Constant::Class { .. } => tag::CLASS,
            Constant::String { .. } => tag::STRING,
            Constant::Fieldref { .. } => tag::FIELDREF,
            Constant::Methodref { .. } => tag::METHODREF,
            Constant::InterfaceMethodref { .. } => tag::INTERFACE_METHODREF,
            Constant::NameAndType { .. } => tag::NAME_AND_TYPE,
            Constant::MethodHandle { .. } => tag::METHOD_HANDLE,
            Constant::MethodType { .. } => tag::METHOD_TYPE,
            Constant::Dynamic { .. } => tag::DYNAMIC,
            Constant::InvokeDynamic { .. } => tag::INVOKE_DYNAMIC,
            Constant::Module { .. } => tag::MODULE,
            Constant::Package { .. } => tag::PACKAGE,
        }
    }

    /// Does this entry refer to pool entry `index`? (A bootstrap method's
    /// number and a method handle's kind are no pool indexes.)
    pub(crate) fn refers_to(&self, index: u16) -> bool {
        match *self {
            Constant::Class { name: a }
            | Constant::String { value: a }
            | Constant::MethodType { descriptor: a }
            | Constant::Module { name: a }
            | Constant::Package { name: a }
            | Constant::MethodHandle { reference: a, .. }
            | Constant::Dynamic { name_and_type: a, .. }
            | Constant::InvokeDynamic { name_and_type: a, .. } => a == index,
            Constant::Fieldref { class: a, name_and_type: b }
            | Constant::Methodref { class: a, name_and_type: b }
            | Constant::InterfaceMethodref { class: a, name_and_type: b }
            | Constant::NameAndType { name: a, descriptor: b } => a == index || b == index,
            Constant::Utf8(_) | Constant::Integer(_) | Constant::Float(_) | Constant::Long(_) | Constant::Double(_) => {
                false
            }
        }
    }

    /// Long and Double take two pool slots.
    pub fn slots(&self) -> u16 {
        match self {
            Constant::Long(_) | Constant::Double(_) => 2,
            _ => 1,
        }
    }

    /// Appends the entry's encoding (tag and content) to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.push(self.tag());
        let u16s =
            |out: &mut Vec<u8>, values: &[u16]| values.iter().for_each(|v| out.extend_from_slice(&v.to_be_bytes()));
        match self {
            Constant::Utf8(bytes) => {
                out.extend_from_slice(&(bytes.len() as u16).to_be_bytes());
                out.extend_from_slice(bytes);
            }
            Constant::Integer(v) => out.extend_from_slice(&v.to_be_bytes()),
            Constant::Float(bits) => out.extend_from_slice(&bits.to_be_bytes()),
            Constant::Long(v) => out.extend_from_slice(&v.to_be_bytes()),
            Constant::Double(bits) => out.extend_from_slice(&bits.to_be_bytes()),
            Constant::Class { name: a }
            | Constant::String { value: a }
            | Constant::MethodType { descriptor: a }
            | Constant::Module { name: a }
            | Constant::Package { name: a } => u16s(out, &[*a]),
            Constant::Fieldref { class: a, name_and_type: b }
            | Constant::Methodref { class: a, name_and_type: b }
            | Constant::InterfaceMethodref { class: a, name_and_type: b }
            | Constant::NameAndType { name: a, descriptor: b }
            | Constant::Dynamic { bootstrap_method: a, name_and_type: b }
            | Constant::InvokeDynamic { bootstrap_method: a, name_and_type: b } => u16s(out, &[*a, *b]),
            Constant::MethodHandle { kind, reference } => {
                out.push(*kind);
                u16s(out, &[*reference]);
            }
        }
    }
}

/// A human name for a tag, for error messages.
pub fn tag_name(tag: u8) -> &'static str {
    match tag {
        tag::UTF8 => "Utf8",
        tag::INTEGER => "Integer",
        tag::FLOAT => "Float",
        tag::LONG => "Long",
        tag::DOUBLE => "Double",
        tag::CLASS => "Class",
        tag::STRING => "String",
        tag::FIELDREF => "Fieldref",
        tag::METHODREF => "Methodref",
        tag::INTERFACE_METHODREF => "InterfaceMethodref",
        tag::NAME_AND_TYPE => "NameAndType",
        tag::METHOD_HANDLE => "MethodHandle",
        tag::METHOD_TYPE => "MethodType",
        tag::DYNAMIC => "Dynamic",
        tag::INVOKE_DYNAMIC => "InvokeDynamic",
        tag::MODULE => "Module",
        tag::PACKAGE => "Package",
        _ => "unknown constant",
    }
}

/// Marks slot 0 and the slot after a Long or Double.
const NO_ENTRY: u32 = u32::MAX;

/// A member reference resolved to names: owner class, member name, descriptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberRef<'a> {
    /// The internal name of the member's class.
    pub owner: Cow<'a, str>,
    /// The member's name.
    pub name: Cow<'a, str>,
    /// The member's descriptor.
    pub descriptor: Cow<'a, str>,
}

/// The bytes an entry takes, tag included, by tag: 0 for a Utf8 entry
/// (its length is in it) and for a byte that is no tag. Every reading of
/// the pool's raw bytes sizes entries by this table.
pub(crate) const ENTRY_SIZE: [u8; 256] = {
    let mut sizes = [0u8; 256];
    sizes[tag::INTEGER as usize] = 5;
    sizes[tag::FLOAT as usize] = 5;
    sizes[tag::LONG as usize] = LONG_ENTRY_SIZE as u8;
    sizes[tag::DOUBLE as usize] = LONG_ENTRY_SIZE as u8;
    let three = [tag::CLASS, tag::STRING, tag::METHOD_TYPE, tag::MODULE, tag::PACKAGE];
    let mut i = 0;
    while i < three.len() {
        sizes[three[i] as usize] = 3;
        i += 1;
    }
    sizes[tag::METHOD_HANDLE as usize] = 4;
    let five = [tag::FIELDREF, tag::METHODREF, tag::INTERFACE_METHODREF, tag::NAME_AND_TYPE, tag::DYNAMIC, tag::INVOKE_DYNAMIC];
    let mut i = 0;
    while i < five.len() {
        sizes[five[i] as usize] = 5;
        i += 1;
    }
    sizes
};

/// The size of a Long or Double entry, the only ones that take two slots
/// (and the only entries of nine bytes but for some Utf8 entries).
const LONG_ENTRY_SIZE: usize = 9;

/// Sets of entry kinds, as masks of tags: the kinds a reference may name.
mod kinds {
    use super::tag;

    const fn of(tags: &[u8]) -> u32 {
        let (mut mask, mut i) = (0u32, 0);
        while i < tags.len() {
            mask |= 1 << tags[i];
            i += 1;
        }
        mask
    }

    pub const UTF8: u32 = of(&[tag::UTF8]);
    pub const CLASS: u32 = of(&[tag::CLASS]);
    pub const NAME_AND_TYPE: u32 = of(&[tag::NAME_AND_TYPE]);
    pub const FIELDREF: u32 = of(&[tag::FIELDREF]);
    pub const METHODREF: u32 = of(&[tag::METHODREF, tag::INTERFACE_METHODREF]);
    /// No kind: an entry whose references are checked another way.
    pub const NONE: u32 = 1 << 31;
}

/// By tag, the kinds the two-byte fields after the tag (bytes 1 and 2, then
/// 3 and 4) may name, 0 where they are no reference. A method handle's
/// reference is elsewhere: it is checked as [`ConstantPool::check_entry`]
/// checks it.
const REFERENCES: [[u32; 2]; 256] = {
    let mut table = [[0u32; 2]; 256];
    let one = [tag::CLASS, tag::STRING, tag::METHOD_TYPE, tag::MODULE, tag::PACKAGE];
    let mut i = 0;
    while i < one.len() {
        table[one[i] as usize] = [kinds::UTF8, 0];
        i += 1;
    }
    table[tag::NAME_AND_TYPE as usize] = [kinds::UTF8, kinds::UTF8];
    table[tag::FIELDREF as usize] = [kinds::CLASS, kinds::NAME_AND_TYPE];
    table[tag::METHODREF as usize] = [kinds::CLASS, kinds::NAME_AND_TYPE];
    table[tag::INTERFACE_METHODREF as usize] = [kinds::CLASS, kinds::NAME_AND_TYPE];
    table[tag::DYNAMIC as usize] = [0, kinds::NAME_AND_TYPE];
    table[tag::INVOKE_DYNAMIC as usize] = [0, kinds::NAME_AND_TYPE];
    table[tag::METHOD_HANDLE as usize] = [kinds::NONE, 0];
    table
};

/// A class's constant pool as read: entries decoded on demand, in place.
#[derive(Debug, Clone)]
pub struct ConstantPool<'a> {
    data: &'a [u8],
    /// Offset of each entry's tag byte in `data`, by pool index; borrowed
    /// from the [`PoolLayout`] a parse was given, so that every copy of the
    /// pool (an editor's, say) shares it.
    offsets: Cow<'a, [u32]>,
    /// The tag of each entry by pool index, 0 where `offsets` has no entry:
    /// the kind of every reference's target is checked on every parse, and
    /// read here it is one load.
    tags: Cow<'a, [u8]>,
    /// The pool's bytes, from the first entry to the end of the last.
    range: (usize, usize),
}

/// Where the entries of a checked pool are in its class file: kept from one
/// parse of the file so that the next one neither reads nor checks them again
/// ([`ClassFile::parse_with_layout`](crate::ClassFile::parse_with_layout)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolLayout {
    offsets: Vec<u32>,
    tags: Vec<u8>,
    range: (usize, usize),
    /// The length of the file it describes.
    file_len: usize,
    /// A hash of the pool's bytes: a layout handed other bytes than its own
    /// (same length, same count) is refused too.
    hash: u64,
    /// The `this_class` index checked against this pool when the layout was made.
    this_class: u16,
}

impl PoolLayout {
    /// The `this_class` index checked against the pool when the layout was made.
    pub(crate) fn this_class(&self) -> u16 {
        self.this_class
    }
}

fn hash_bytes(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(bytes);
    hasher.finish()
}

impl<'a> ConstantPool<'a> {
    /// Reads `constant_pool_count` and the entries after it.
    pub(crate) fn parse(reader: &mut Reader<'a>) -> Result<Self> {
        Self::parse_after(reader, None).map(|(pool, _)| pool)
    }

    /// [`ConstantPool::parse`] of a pool that may begin with the entries of
    /// `known` (a pool already parsed and checked, from a file of which this
    /// one is an edit), byte for byte and at the same file offset: those are
    /// taken as they are (their references point among themselves, at the
    /// same entries), and only the entries after them are read and checked.
    /// Any other pool is parsed in full. Also tells whether the pool began
    /// with `known`'s entries: then each index below `known`'s count names
    /// the same entry in both.
    pub(crate) fn parse_extending(reader: &mut Reader<'a>, known: &ConstantPool<'_>) -> Result<(Self, bool)> {
        Self::parse_after(reader, Some(known))
    }

    /// Where this pool's entries are, for a later parse of the same bytes,
    /// with the `this_class` index checked against it.
    pub(crate) fn into_layout(self, this_class: u16) -> PoolLayout {
        PoolLayout {
            this_class,
            hash: hash_bytes(self.raw_bytes()),
            offsets: self.offsets.into_owned(),
            tags: self.tags.into_owned(),
            range: self.range,
            file_len: self.data.len(),
        }
    }

    /// [`ConstantPool::parse`] of the pool `layout` describes, taken as it is
    /// (it was checked when the layout was made); a pool it does not fit
    /// (another count, start, file length or content) is parsed in full. Also
    /// tells whether the layout fit.
    pub(crate) fn parse_laid_out(reader: &mut Reader<'a>, layout: &'a PoolLayout) -> Result<(Self, bool)> {
        let data = reader.data();
        let (from, to) = layout.range;
        let fits = layout.file_len == data.len()
            && from == reader.offset() + 2
            && data.get(reader.position()..reader.position() + 2) == Some(&(layout.offsets.len() as u16).to_be_bytes()[..])
            && data.get(from..to).is_some_and(|pool| hash_bytes(pool) == layout.hash);
        if !fits {
            return Self::parse(reader).map(|pool| (pool, false));
        }
        reader.skip(2 + layout.range.1 - layout.range.0)?;
        let pool = ConstantPool {
            data: reader.data(),
            offsets: Cow::Borrowed(&layout.offsets),
            tags: Cow::Borrowed(&layout.tags),
            range: layout.range,
        };
        Ok((pool, true))
    }

    fn parse_after(reader: &mut Reader<'a>, known: Option<&ConstantPool<'_>>) -> Result<(Self, bool)> {
        let count = reader.u16()?;
        let start = reader.offset();
        // Each entry takes at least 3 bytes: never reserve more than the input can hold.
        let room = usize::from(count).min(reader.remaining() / 3 + 1);
        let (mut offsets, mut tags) = (Vec::with_capacity(room), Vec::with_capacity(room));
        let known = known.filter(|k| {
            let (from, to) = k.range;
            from == start
                && k.offsets.len() <= usize::from(count)
                && reader.data().get(reader.position()..reader.position() + (to - from)) == k.data.get(from..to)
        });
        let checked_entries = match known {
            Some(k) => {
                offsets.extend_from_slice(&k.offsets);
                tags.extend_from_slice(&k.tags);
                reader.skip(k.range.1 - k.range.0)?;
                k.offsets.len()
            }
            None => {
                offsets.push(NO_ENTRY);
                tags.push(0);
                0
            }
        };
        Self::scan_entries(reader, usize::from(count), &mut offsets, &mut tags)?;
        // What the fast scan left (an entry it does not vouch for) is read
        // and reported here.
        while offsets.len() < usize::from(count) {
            let at = reader.offset();
            let tag = reader.u8()?;
            let fixed = usize::from(ENTRY_SIZE[usize::from(tag)]);
            let content = match (tag, fixed) {
                (tag::UTF8, _) => usize::from(reader.u16()?),
                (_, 0) => return Err(ClassFileError::new(at, ErrorKind::BadConstantTag(tag))),
                (_, size) => size - 1,
            };
            reader.skip(content)?;
            offsets.push(at as u32);
            tags.push(tag);
            if fixed == LONG_ENTRY_SIZE {
                if offsets.len() >= usize::from(count) {
                    return Err(ClassFileError::malformed(at, "a Long or Double constant takes the last pool slot"));
                }
                offsets.push(NO_ENTRY);
                tags.push(0);
            }
        }
        let (offsets, tags) = (Cow::Owned(offsets), Cow::Owned(tags));
        let pool = ConstantPool { data: reader.data(), offsets, tags, range: (start, reader.offset()) };
        pool.check_references(checked_entries)?;
        Ok((pool, known.is_some()))
    }

    /// Records the offsets of well-formed entries straight from the bytes,
    /// up to the first entry that is not (a bad tag, one cut short, a Long
    /// or Double in the last slot), which the caller then reads and reports.
    /// Every class is parsed several times: this loop is most of it.
    fn scan_entries(reader: &mut Reader<'a>, count: usize, offsets: &mut Vec<u32>, tags: &mut Vec<u8>) -> Result<()> {
        let data = reader.data();
        let start = reader.position();
        let base = reader.offset() - start;
        let window = data.get(start..start + reader.remaining()).unwrap_or_default();
        let mut pos = 0usize;
        while offsets.len() < count {
            // Every entry takes at least three bytes; a Utf8 entry's length
            // is in the two after its tag. Both sizes are found and one is
            // kept, so that the entries' tags (in no order a predictor
            // learns) decide no jump.
            let Some(&[tag, high, low]) = window.get(pos..pos + 3) else { break };
            let utf8 = 3 + usize::from(u16::from_be_bytes([high, low]));
            let fixed = usize::from(ENTRY_SIZE[usize::from(tag)]);
            let size = if tag == tag::UTF8 { utf8 } else { fixed };
            let two_slots = fixed == LONG_ENTRY_SIZE;
            if size == 0 || pos + size > window.len() || (two_slots && offsets.len() + 1 >= count) {
                break;
            }
            offsets.push((base + start + pos) as u32);
            tags.push(tag);
            if two_slots {
                offsets.push(NO_ENTRY);
                tags.push(0);
            }
            pos += size;
        }
        reader.skip(pos)
    }

    /// Checks that every reference inside the pool, from the entry at index
    /// `from` on, points at an entry of the right kind. Runs on every parse:
    /// each entry's references are read as one number and their targets'
    /// kinds from `tags`, with no jump on the entry's kind; an entry this
    /// does not vouch for (a method handle, a reference that fails) is
    /// checked again by [`ConstantPool::check_entry`], which reports it.
    fn check_references(&self, from: usize) -> Result<()> {
        let (data, offsets, tags) = (self.data, &*self.offsets, &*self.tags);
        let kind_of = |index: u16| tags.get(usize::from(index)).copied().unwrap_or(0);
        // A target of a kind in `kinds` (0: no reference to check).
        let passes = |kinds: u32, target: u16| kinds == 0 || kinds.checked_shr(u32::from(kind_of(target))).unwrap_or(0) & 1 != 0;
        for (index, &tag) in tags.iter().enumerate().skip(from) {
            let [first, second] = REFERENCES[usize::from(tag)];
            if first | second == 0 {
                continue;
            }
            let fields = offsets
                .get(index)
                .and_then(|&at| data.get(at as usize + 1..at as usize + 5))
                .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
            let vouched = fields.is_some_and(|f| passes(first, (f >> 16) as u16) && passes(second, f as u16));
            if !vouched {
                self.check_entry(index)?;
            }
        }
        Ok(())
    }

    /// Checks the references of entry `index` one by one, reporting the
    /// first that names no entry or one of the wrong kind.
    #[cold]
    #[inline(never)]
    fn check_entry(&self, index: usize) -> Result<()> {
        let (data, offsets) = (self.data, &*self.offsets);
        // The tag of entry `index`; 0 (no tag) for an index that holds none.
        let tag_of = |index: u16| -> u8 {
            match offsets.get(usize::from(index)) {
                Some(&offset) if offset != NO_ENTRY => data.get(offset as usize).copied().unwrap_or(0),
                _ => 0,
            }
        };
        let offset = offsets.get(index).copied().unwrap_or(NO_ENTRY);
        if offset == NO_ENTRY {
            return Ok(());
        }
        let at = offset as usize;
        let field = |i: usize| data.get(at + i..at + i + 2).map_or(0, |b| u16::from_be_bytes([b[0], b[1]]));
        let expect = |target: u16, kinds: u32, expected: &'static str| -> Result<()> {
            match tag_of(target) {
                0 => Err(ClassFileError::new(at, ErrorKind::BadConstantIndex(target))),
                found if found < 32 && kinds & 1 << found != 0 => Ok(()),
                found => Err(ClassFileError::new(
                    at,
                    ErrorKind::WrongConstantKind { index: target, expected, found: tag_name(found) },
                )),
            }
        };
        match data.get(at).copied().unwrap_or(0) {
            tag::CLASS | tag::STRING | tag::METHOD_TYPE | tag::MODULE | tag::PACKAGE => expect(field(1), kinds::UTF8, "Utf8"),
            tag::NAME_AND_TYPE => {
                expect(field(1), kinds::UTF8, "Utf8")?;
                expect(field(3), kinds::UTF8, "Utf8")
            }
            tag::FIELDREF | tag::METHODREF | tag::INTERFACE_METHODREF => {
                expect(field(1), kinds::CLASS, "Class")?;
                expect(field(3), kinds::NAME_AND_TYPE, "NameAndType")
            }
            tag::DYNAMIC | tag::INVOKE_DYNAMIC => expect(field(3), kinds::NAME_AND_TYPE, "NameAndType"),
            tag::METHOD_HANDLE => {
                let kind = data.get(at + 1).copied().unwrap_or(0);
                let reference = field(2);
                match kind {
                    1..=4 => expect(reference, kinds::FIELDREF, "Fieldref"),
                    5..=9 => expect(reference, kinds::METHODREF, "Methodref"),
                    _ => Err(ClassFileError::malformed(
                        at,
                        format!("constant #{index}: method handle kind {kind} is not 1 to 9"),
                    )),
                }
            }
            _ => Ok(()),
        }
    }

    /// `constant_pool_count`: one more than the highest index.
    pub fn count(&self) -> u16 {
        self.offsets.len() as u16
    }

    /// The bytes of every entry, as they appear in the file.
    pub fn raw_bytes(&self) -> &'a [u8] {
        self.data.get(self.range.0..self.range.1).unwrap_or_default()
    }

    /// The bytes the pool was read from (the whole class file), and where
    /// each entry's tag is in them by index (`u32::MAX`: no entry).
    pub(crate) fn file_and_offsets(&self) -> (&'a [u8], &[u32]) {
        (self.data, &self.offsets)
    }

    /// Where entry `index` starts in the file (0 for an invalid index).
    pub fn offset_of(&self, index: u16) -> usize {
        match self.offsets.get(usize::from(index)) {
            Some(&offset) if offset != NO_ENTRY => offset as usize,
            _ => 0,
        }
    }

    /// Decodes entry `index`; `None` for the unusable slot after a Long/Double and slot 0.
    fn get_opt(&self, index: u16) -> Result<Option<Constant<'a>>> {
        let offset = match self.offsets.get(usize::from(index)) {
            Some(&offset) if offset != NO_ENTRY => offset as usize,
            Some(_) => return Ok(None),
            None => return Err(ClassFileError::unlocated(ErrorKind::BadConstantIndex(index))),
        };
        // Every lookup of the pool comes through here: the entries made of
        // indexes, and Utf8 entries, are read in place; the others, and
        // anything unexpected, take the reader, which reports it.
        let entry = self.data.get(offset..self.range.1).unwrap_or_default();
        if let Some(&[tag, high, low]) = entry.get(..3) {
            let first = u16::from_be_bytes([high, low]);
            let second = || entry.get(3..5).map(|b| u16::from_be_bytes([b[0], b[1]]));
            let constant = match tag {
                tag::UTF8 => entry.get(3..3 + usize::from(first)).map(|text| Constant::Utf8(Cow::Borrowed(text))),
                tag::CLASS => Some(Constant::Class { name: first }),
                tag::STRING => Some(Constant::String { value: first }),
                tag::METHOD_TYPE => Some(Constant::MethodType { descriptor: first }),
                tag::MODULE => Some(Constant::Module { name: first }),
                tag::PACKAGE => Some(Constant::Package { name: first }),
                tag::FIELDREF => second().map(|b| Constant::Fieldref { class: first, name_and_type: b }),
                tag::METHODREF => second().map(|b| Constant::Methodref { class: first, name_and_type: b }),
                tag::INTERFACE_METHODREF => {
                    second().map(|b| Constant::InterfaceMethodref { class: first, name_and_type: b })
                }
                tag::NAME_AND_TYPE => second().map(|b| Constant::NameAndType { name: first, descriptor: b }),
                tag::DYNAMIC => second().map(|b| Constant::Dynamic { bootstrap_method: first, name_and_type: b }),
                tag::INVOKE_DYNAMIC => {
                    second().map(|b| Constant::InvokeDynamic { bootstrap_method: first, name_and_type: b })
                }
                _ => None,
            };
            if let Some(constant) = constant {
                return Ok(Some(constant));
            }
        }
        self.read_entry(offset).map(Some)
    }

    /// [`ConstantPool::get_opt`] of the entry at `offset`, read field by field.
    fn read_entry(&self, offset: usize) -> Result<Constant<'a>> {
        let mut r = Reader::window(self.data, offset, self.range.1.saturating_sub(offset))?;
        let tag = r.u8()?;
        Ok(match tag {
            tag::UTF8 => {
                let len = usize::from(r.u16()?);
                Constant::Utf8(Cow::Borrowed(r.bytes(len)?))
            }
            tag::INTEGER => Constant::Integer(r.i32()?),
            tag::FLOAT => Constant::Float(r.u32()?),
            tag::LONG => Constant::Long(r.u64()? as i64),
            tag::DOUBLE => Constant::Double(r.u64()?),
            tag::CLASS => Constant::Class { name: r.u16()? },
            tag::STRING => Constant::String { value: r.u16()? },
            tag::FIELDREF => Constant::Fieldref { class: r.u16()?, name_and_type: r.u16()? },
            tag::METHODREF => Constant::Methodref { class: r.u16()?, name_and_type: r.u16()? },
            tag::INTERFACE_METHODREF => Constant::InterfaceMethodref { class: r.u16()?, name_and_type: r.u16()? },
            tag::NAME_AND_TYPE => Constant::NameAndType { name: r.u16()?, descriptor: r.u16()? },
            tag::METHOD_HANDLE => Constant::MethodHandle { kind: r.u8()?, reference: r.u16()? },
            tag::METHOD_TYPE => Constant::MethodType { descriptor: r.u16()? },
            tag::DYNAMIC => Constant::Dynamic { bootstrap_method: r.u16()?, name_and_type: r.u16()? },
            tag::INVOKE_DYNAMIC => Constant::InvokeDynamic { bootstrap_method: r.u16()?, name_and_type: r.u16()? },
            tag::MODULE => Constant::Module { name: r.u16()? },
            tag::PACKAGE => Constant::Package { name: r.u16()? },
            other => return Err(ClassFileError::new(offset, ErrorKind::BadConstantTag(other))),
        })
    }

    /// Entry `index`. The error's offset is 0 for an index that names no entry:
    /// callers that know where the index was read use [`ConstantPool::at`].
    pub fn get(&self, index: u16) -> Result<Constant<'a>> {
        self.get_opt(index)?.ok_or(ClassFileError::unlocated(ErrorKind::BadConstantIndex(index)))
    }

    /// Entry `index`'s tag and content bytes (for Utf8, the text after its
    /// length), read straight from the file, as indexing the pool needs them
    /// (no entry decoded); `None` for an index that holds no entry.
    pub(crate) fn raw_entry(&self, index: u16) -> Option<(u8, &'a [u8])> {
        let offset = *self.offsets.get(usize::from(index))?;
        if offset == NO_ENTRY {
            return None;
        }
        let (data, at) = (self.data, offset as usize);
        let tag = *data.get(at)?;
        let content = match tag {
            tag::UTF8 => {
                let len = usize::from(u16::from_be_bytes([*data.get(at + 1)?, *data.get(at + 2)?]));
                data.get(at + 3..at + 3 + len)?
            }
            _ => match usize::from(ENTRY_SIZE[usize::from(tag)]) {
                0 => return None,
                size => data.get(at + 1..at + size)?,
            },
        };
        Some((tag, content))
    }

    /// Every entry with its index, in pool order.
    pub fn iter(&self) -> impl Iterator<Item = Result<(u16, Constant<'a>)>> + '_ {
        (1..self.count()).filter_map(move |i| self.get_opt(i).transpose().map(|c| c.map(|c| (i, c))))
    }

    /// Re-reports an error of a lookup made for an index read at byte `at`.
    pub fn at<T>(result: Result<T>, at: usize) -> Result<T> {
        result.map_err(|e| e.located(at))
    }

    fn wrong(&self, index: u16, expected: &'static str, found: &Constant<'_>) -> ClassFileError {
        ClassFileError::unlocated(ErrorKind::WrongConstantKind { index, expected, found: tag_name(found.tag()) })
    }

    /// The raw modified-UTF-8 bytes of a Utf8 entry.
    // Inlined: every name of every member and attribute comes through here,
    // and a call returning the full `Result` cost more than the bytes read.
    #[inline]
    pub fn utf8_bytes(&self, index: u16) -> Result<&'a [u8]> {
        match self.utf8_in_place(index) {
            Some(bytes) => Ok(bytes),
            None => self.utf8_bytes_decoded(index),
        }
    }

    /// The bytes of Utf8 entry `index` read in place; `None` for anything
    /// unexpected, which [`ConstantPool::utf8_bytes_decoded`] reports.
    #[inline]
    fn utf8_in_place(&self, index: u16) -> Option<&'a [u8]> {
        let at = *self.offsets.get(usize::from(index)).filter(|&&offset| offset != NO_ENTRY)? as usize;
        let Some(&[tag::UTF8, high, low]) = self.data.get(at..at + 3) else { return None };
        let end = at + 3 + usize::from(u16::from_be_bytes([high, low]));
        self.data.get(at + 3..end).filter(|_| end <= self.range.1)
    }

    /// [`ConstantPool::utf8_bytes`] through the decoding path.
    #[cold]
    #[inline(never)]
    fn utf8_bytes_decoded(&self, index: u16) -> Result<&'a [u8]> {
        match self.get(index)? {
            Constant::Utf8(Cow::Borrowed(bytes)) => Ok(bytes),
            other => Err(self.wrong(index, "Utf8", &other)),
        }
    }

    /// A Utf8 entry as text.
    pub fn utf8(&self, index: u16) -> Result<Cow<'a, str>> {
        let bytes = self.utf8_bytes(index)?;
        mutf8::decode(bytes).ok_or_else(|| {
            ClassFileError::malformed(self.offset_of(index), format!("constant #{index} is not valid modified UTF-8"))
        })
    }

    /// The internal name of a Class entry (`java/lang/String`, or an array descriptor).
    pub fn class_name(&self, index: u16) -> Result<Cow<'a, str>> {
        match self.get(index)? {
            Constant::Class { name } => self.utf8(name),
            other => Err(self.wrong(index, "Class", &other)),
        }
    }

    /// Name and descriptor of a NameAndType entry.
    pub fn name_and_type(&self, index: u16) -> Result<(Cow<'a, str>, Cow<'a, str>)> {
        match self.get(index)? {
            Constant::NameAndType { name, descriptor } => Ok((self.utf8(name)?, self.utf8(descriptor)?)),
            other => Err(self.wrong(index, "NameAndType", &other)),
        }
    }

    /// A Fieldref, Methodref or InterfaceMethodref resolved to names.
    pub fn member_ref(&self, index: u16) -> Result<MemberRef<'a>> {
        match self.get(index)? {
            Constant::Fieldref { class, name_and_type }
            | Constant::Methodref { class, name_and_type }
            | Constant::InterfaceMethodref { class, name_and_type } => {
                let (name, descriptor) = self.name_and_type(name_and_type)?;
                Ok(MemberRef { owner: self.class_name(class)?, name, descriptor })
            }
            other => Err(self.wrong(index, "member reference", &other)),
        }
    }

    /// Name and descriptor of a Dynamic or InvokeDynamic entry, with its bootstrap index.
    pub fn dynamic(&self, index: u16) -> Result<(u16, Cow<'a, str>, Cow<'a, str>)> {
        match self.get(index)? {
            Constant::Dynamic { bootstrap_method, name_and_type }
            | Constant::InvokeDynamic { bootstrap_method, name_and_type } => {
                let (name, descriptor) = self.name_and_type(name_and_type)?;
                Ok((bootstrap_method, name, descriptor))
            }
            other => Err(self.wrong(index, "Dynamic", &other)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of entry, written by [`Constant::encode`], among them a
    /// Utf8 entry as long as a Long (nine bytes) and both two-slot kinds.
    fn every_kind() -> Vec<(u16, Constant<'static>)> {
        let utf8 = |text: &'static str| Constant::Utf8(Cow::Borrowed(text.as_bytes()));
        vec![
            (1, utf8("abcdef")),
            (2, Constant::Long(-7)),
            (4, utf8("()V")),
            (5, Constant::Class { name: 1 }),
            (6, Constant::NameAndType { name: 1, descriptor: 4 }),
            (7, Constant::Methodref { class: 5, name_and_type: 6 }),
            (8, Constant::Integer(42)),
            (9, Constant::Double(1.5f64.to_bits())),
            (11, Constant::MethodHandle { kind: 6, reference: 7 }),
            (12, Constant::String { value: 1 }),
            (13, Constant::MethodType { descriptor: 4 }),
            (14, Constant::Float(2.5f32.to_bits())),
            (15, Constant::Fieldref { class: 5, name_and_type: 6 }),
            (16, Constant::InterfaceMethodref { class: 5, name_and_type: 6 }),
            (17, Constant::InvokeDynamic { bootstrap_method: 0, name_and_type: 6 }),
            (18, Constant::Dynamic { bootstrap_method: 0, name_and_type: 6 }),
            (19, Constant::Module { name: 1 }),
            (20, Constant::Package { name: 1 }),
            (21, utf8("")),
        ]
    }

    /// `every_kind()` and the pool's bytes: its count, then the entries.
    fn every_kind_encoded() -> (Vec<(u16, Constant<'static>)>, Vec<u8>) {
        let entries = every_kind();
        let mut bytes = 22u16.to_be_bytes().to_vec();
        entries.iter().for_each(|(_, constant)| constant.encode(&mut bytes));
        (entries, bytes)
    }

    #[test]
    fn every_kind_of_entry_is_found_where_it_was_written() {
        let (entries, bytes) = every_kind_encoded();
        let pool = ConstantPool::parse(&mut Reader::new(&bytes)).expect("a well-formed pool");
        assert_eq!(pool.count(), 22);
        for (index, constant) in &entries {
            assert_eq!(pool.get(*index).as_ref(), Ok(constant), "entry #{index}");
        }
        for second_slot in [3, 10] {
            assert!(pool.get(second_slot).is_err(), "#{second_slot} is a Long's or Double's second slot");
        }
    }

    #[test]
    fn entries_read_in_place_are_those_the_reader_reads() {
        let (entries, bytes) = every_kind_encoded();
        let pool = ConstantPool::parse(&mut Reader::new(&bytes)).expect("a well-formed pool");
        for (index, _) in &entries {
            let read = pool.read_entry(pool.offset_of(*index)).map(Some);
            assert_eq!(pool.get_opt(*index), read, "entry #{index}");
        }
        // An entry cut short by the pool's end (no parse makes one: the
        // layout of another file could) is reported as the reader reports it.
        let cut = ConstantPool { range: (pool.range.0, pool.offset_of(7) + 3), ..pool.clone() };
        assert_eq!(cut.get_opt(7), cut.read_entry(cut.offset_of(7)).map(Some));
        assert!(cut.get_opt(7).is_err());
    }

    #[test]
    fn references_checked_at_once_are_refused_as_checked_one_by_one() {
        let (entries, bytes) = every_kind_encoded();
        let pool = ConstantPool::parse(&mut Reader::new(&bytes)).expect("a well-formed pool");
        let one_by_one = |pool: &ConstantPool<'_>| (1..usize::from(pool.count())).try_for_each(|i| pool.check_entry(i));
        // Every byte of every entry but a Utf8 one (its tag and text stay,
        // so the entries stay where they are), set to a number that names
        // each kind of entry, none, or one past the pool.
        let mut refused = 0;
        for (index, constant) in entries.iter().filter(|(_, c)| !matches!(c, Constant::Utf8(_))) {
            let at = pool.offset_of(*index);
            let size = usize::from(ENTRY_SIZE[usize::from(constant.tag())]);
            for byte in at + 1..at + size {
                for value in [0u8, 1, 2, 3, 4, 5, 6, 7, 9, 11, 12, 15, 16, 17, 21, 22, 0xFF] {
                    let mut changed = bytes.clone();
                    changed[byte] = value;
                    let changed = ConstantPool { data: &changed, ..pool.clone() };
                    let at_once = changed.check_references(1);
                    assert_eq!(at_once, one_by_one(&changed), "entry #{index}, byte {byte} set to {value}");
                    refused += usize::from(at_once.is_err());
                }
            }
        }
        assert!(refused > 100, "only {refused} changes refused");
        assert_eq!(pool.check_references(1), Ok(()));
    }

    #[test]
    fn utf8_bytes_read_in_place_are_those_decoding_finds() {
        let (_, bytes) = every_kind_encoded();
        let pool = ConstantPool::parse(&mut Reader::new(&bytes)).expect("a well-formed pool");
        // Every index: Utf8 entries, other kinds, a Long's second slot, slot 0, past the pool.
        for index in 0..=23 {
            assert_eq!(pool.utf8_bytes(index), pool.utf8_bytes_decoded(index), "entry #{index}");
        }
        assert_eq!(pool.utf8_bytes(21), Ok(&b""[..]));
        // A Utf8 entry cut short by the pool's end is reported as decoding reports it.
        let cut = ConstantPool { range: (pool.range.0, pool.offset_of(1) + 5), ..pool.clone() };
        assert_eq!(cut.utf8_bytes(1), cut.utf8_bytes_decoded(1));
        assert!(cut.utf8_bytes(1).is_err());
    }
}
