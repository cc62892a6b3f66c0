//! Adding constants to a class's pool. The original entries keep their
//! indexes and bytes; an addition equal to an existing entry reuses it.
#![forbid(unsafe_code)]

use crate::read::constant_pool::{tag, Constant, ConstantPool};
use crate::code::encode::Put;
use crate::read::error::{ClassFileError, Result};
use crate::read::descriptor;
use crate::read::mutf8;
use std::borrow::Cow;
use crate::code::pool::CodePool;
use super::descriptor_slots::SlotCache;

pub use super::known_texts::{KnownTexts, PreparedText};
use super::pool_index::{constant_key, pair, Index, Key, ADDITIONS_ROOM};

/// `constant_pool_count` is a u16, so the highest usable index is 65,534.
pub const MAX_POOL_COUNT: u32 = 65_535;

/// Method handle kinds (JVMS 5.4.3.5).
#[allow(missing_docs)] // named as in JVMS 5.4.3.5
pub mod handle_kind {
    pub const GET_FIELD: u8 = 1;
    pub const GET_STATIC: u8 = 2;
    pub const PUT_FIELD: u8 = 3;
    pub const PUT_STATIC: u8 = 4;
    pub const INVOKE_VIRTUAL: u8 = 5;
    pub const INVOKE_STATIC: u8 = 6;
    pub const INVOKE_SPECIAL: u8 = 7;
    pub const NEW_INVOKE_SPECIAL: u8 = 8;
    pub const INVOKE_INTERFACE: u8 = 9;
}


/// Marks the second slot of an added Long or Double in `PoolBuilder::added_at`.
const SECOND_SLOT: u32 = u32::MAX;

/// The constants generated code asks for, by value. A [`PoolBuilder`]
/// answers with the class's pool indexes; code generated once for many
/// classes (`tracegen`'s templates) answers with placeholders instead.
pub trait ConstantSource {
    /// The index of a Class entry for `internal_name`.
    fn class(&mut self, internal_name: &str) -> Result<u16>;
    /// The index of an Integer entry for `value`.
    fn integer(&mut self, value: i32) -> Result<u16>;
    /// The index of a Fieldref entry.
    fn field_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<u16>;
    /// The index of a Methodref entry.
    fn method_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<u16>;
    /// The index of an InterfaceMethodref entry.
    fn interface_method_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<u16>;
}

/// The code layer reads and extends the pool through this; each method is
/// the builder's own.
impl<'a> CodePool<'a> for PoolBuilder<'a> {
    fn get(&self, index: u16) -> Result<Constant<'a>> {
        PoolBuilder::get(self, index)
    }

    fn original(&self) -> &ConstantPool<'a> {
        PoolBuilder::original(self)
    }

    fn class(&mut self, internal_name: &str) -> Result<u16> {
        PoolBuilder::class(self, internal_name)
    }

    fn utf8(&mut self, text: &str) -> Result<u16> {
        PoolBuilder::utf8(self, text)
    }

    fn method_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<u16> {
        PoolBuilder::method_ref(self, owner, name, descriptor)
    }

    fn class_name(&self, index: u16) -> Result<Cow<'a, str>> {
        PoolBuilder::class_name(self, index)
    }

    fn reference_descriptor(&self, index: u16) -> Result<Cow<'a, str>> {
        PoolBuilder::reference_descriptor(self, index)
    }

    fn field_slots(&mut self, index: u16) -> Result<i32> {
        PoolBuilder::descriptor_field_slots(self, index)
    }

    fn method_slots(&mut self, index: u16) -> Result<(i32, i32)> {
        PoolBuilder::descriptor_method_slots(self, index)
    }

    fn loaded_slots(&mut self, index: u16) -> Result<i32> {
        PoolBuilder::loaded_slots(self, index)
    }

    #[inline]
    fn known_field_slots(&self, index: u16) -> Option<i32> {
        PoolBuilder::known_field_slots(self, index)
    }

    #[inline]
    fn known_method_slots(&self, index: u16) -> Option<(i32, i32)> {
        PoolBuilder::known_method_slots(self, index)
    }

    fn method_owner_and_name(&self, index: u16) -> Result<(u16, Cow<'a, str>)> {
        PoolBuilder::method_owner_and_name(self, index)
    }

    fn check_class(&mut self, index: u16) -> Result<()> {
        PoolBuilder::check_class(self, index)
    }
}

impl<'a> From<ConstantPool<'a>> for PoolBuilder<'a> {
    fn from(original: ConstantPool<'a>) -> Self {
        PoolBuilder::new(original)
    }
}

impl ConstantSource for PoolBuilder<'_> {
    fn class(&mut self, internal_name: &str) -> Result<u16> {
        PoolBuilder::class(self, internal_name)
    }

    fn integer(&mut self, value: i32) -> Result<u16> {
        PoolBuilder::integer(self, value)
    }

    fn field_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<u16> {
        PoolBuilder::field_ref(self, owner, name, descriptor)
    }

    fn method_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<u16> {
        PoolBuilder::method_ref(self, owner, name, descriptor)
    }

    fn interface_method_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<u16> {
        PoolBuilder::interface_method_ref(self, owner, name, descriptor)
    }
}

/// A class's constant pool being extended: the original entries keep their indexes and bytes, additions go after them, and an addition equal to an existing entry is that entry.
#[derive(Debug, Clone)]
pub struct PoolBuilder<'a> {
    original: ConstantPool<'a>,
    added: Vec<Constant<'a>>,
    /// For each index past the original pool, its position in `added`, so
    /// that code just built can look its new constants up in constant time.
    added_at: Vec<u32>,
    /// `constant_pool_count` after the additions.
    count: u32,
    /// Every entry by value, built on the first addition.
    index: Option<Index>,
    /// A bit per pool index: a Class entry whose name was read and is valid
    /// (see [`PoolBuilder::check_class`]).
    valid_classes: Vec<u64>,
    /// Texts added borrowed rather than copied (see [`KnownTexts`]).
    known_texts: Option<&'static KnownTexts>,
    /// The index of the entry added last; 0 before the first addition.
    last_added: u16,
    /// The descriptor sizes the code layer asked for, by entry
    /// (`descriptor_slots.rs`).
    slots: SlotCache,
}

/// The kinds of member reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemberKind {
    /// A Fieldref.
    Field,
    /// A Methodref.
    Method,
    /// An InterfaceMethodref.
    InterfaceMethod,
}

impl MemberKind {
    fn tag(self) -> u8 {
        match self {
            MemberKind::Field => tag::FIELDREF,
            MemberKind::Method => tag::METHODREF,
            MemberKind::InterfaceMethod => tag::INTERFACE_METHODREF,
        }
    }
}

impl<'a> PoolBuilder<'a> {
    /// A builder over `original`, with nothing added yet.
    pub fn new(original: ConstantPool<'a>) -> Self {
        let count = u32::from(original.count());
        PoolBuilder {
            original,
            added: Vec::new(),
            added_at: Vec::new(),
            count,
            index: None,
            valid_classes: Vec::new(),
            known_texts: None,
            last_added: 0,
            slots: SlotCache::default(),
        }
    }

    /// Makes additions equal to one of `known` borrow it (the pool written
    /// is the same).
    pub fn set_known_texts(&mut self, known: &'static KnownTexts) {
        self.known_texts = Some(known);
    }

    /// The pool as read, without the additions.
    pub fn original(&self) -> &ConstantPool<'a> {
        &self.original
    }

    /// Whether anything was added.
    pub fn is_modified(&self) -> bool {
        !self.added.is_empty()
    }

    /// `constant_pool_count` with the additions (one past the highest index).
    pub fn count(&self) -> u32 {
        self.count
    }

    /// Entry `index`, original or added.
    pub fn get(&self, index: u16) -> Result<Constant<'a>> {
        let Some(past) = index.checked_sub(self.original.count()) else { return self.original.get(index) };
        match self.added_at.get(usize::from(past)).and_then(|&at| self.added.get(at as usize)) {
            Some(constant) => Ok(constant.clone()),
            // The second slot of a Long or Double, or past the end: the
            // original pool reports the bad index.
            None => self.original.get(index),
        }
    }

    /// The index of `constant`, adding it if the pool has no equal entry.
    pub fn add(&mut self, constant: Constant<'a>) -> Result<u16> {
        let constant = match constant {
            Constant::Utf8(bytes) => return self.add_utf8(&bytes, Key::Utf8(&bytes).hash(), None),
            other => other,
        };
        let Some((tag, value)) = constant_key(&constant) else {
            return Err(ClassFileError::malformed_unlocated("a constant without a key"));
        };
        let names_last = self.last_added != 0 && constant.refers_to(self.last_added);
        self.add_keyed(constant, tag, value, names_last)
    }

    /// [`PoolBuilder::add`] of `constant`, no Utf8, whose key (`tag`, `value`)
    /// and whether it names the entry added last the caller knows (reading
    /// them back from a `Constant` is a jump on its kind, twice).
    fn add_keyed(&mut self, constant: Constant<'a>, tag: u8, value: u64, names_last: bool) -> Result<u16> {
        debug_assert_eq!(constant_key(&constant), Some((tag, value)), "the key of {constant:?}");
        debug_assert_eq!(names_last, self.last_added != 0 && constant.refers_to(self.last_added), "{constant:?}");
        let key = Key::Other(tag, value);
        let hash = key.hash();
        // An entry that names the entry added last is not in the pool yet:
        // no entry before that one could refer to it. (A new member
        // reference usually comes right after its new NameAndType, and that
        // right after its new descriptor.)
        if !names_last {
            if let Some(existing) = self.find(key, hash) {
                return Ok(existing);
            }
        }
        let slots = if tag == tag::LONG || tag == tag::DOUBLE { 2 } else { 1 };
        self.push_indexed(constant, hash, slots)
    }

    /// Is `index` the entry added last?
    fn is_last(&self, index: u16) -> bool {
        self.last_added != 0 && index == self.last_added
    }

    /// A Class, String or MethodType entry naming Utf8 entry `text`.
    fn add_naming(&mut self, tag: u8, text: u16) -> Result<u16> {
        let constant = match tag {
            tag::CLASS => Constant::Class { name: text },
            tag::STRING => Constant::String { value: text },
            _ => Constant::MethodType { descriptor: text },
        };
        self.add_keyed(constant, tag, u64::from(text), self.is_last(text))
    }

    /// A member reference of kind `tag` to `class` and `name_and_type`.
    fn add_member(&mut self, tag: u8, class: u16, name_and_type: u16) -> Result<u16> {
        let constant = match tag {
            tag::FIELDREF => Constant::Fieldref { class, name_and_type },
            tag::METHODREF => Constant::Methodref { class, name_and_type },
            _ => Constant::InterfaceMethodref { class, name_and_type },
        };
        let names_last = self.is_last(class) || self.is_last(name_and_type);
        self.add_keyed(constant, tag, pair(class, name_and_type), names_last)
    }

    /// The index of a Utf8 entry of `bytes` (modified UTF-8), of hash `hash`,
    /// adding it if needed: `known`, the same bytes as a known text, when the
    /// caller has found them there.
    fn add_utf8(&mut self, bytes: &[u8], hash: u64, known: Option<&'static [u8]>) -> Result<u16> {
        if bytes.len() > usize::from(u16::MAX) {
            return Err(ClassFileError::limit_unlocated("a string constant longer than 65,535 bytes"));
        }
        if let Some(existing) = self.find(Key::Utf8(bytes), hash) {
            return Ok(existing);
        }
        let entry = match known.or_else(|| self.known_texts.and_then(|texts| texts.get(bytes, hash))) {
            Some(text) => Cow::Borrowed(text),
            None => Cow::Owned(bytes.to_vec()),
        };
        self.push_indexed(Constant::Utf8(entry), hash, 1)
    }

    /// The index of the first entry equal to `key` (of hash `hash`), the
    /// index built first if this is the pool's first lookup.
    fn find(&mut self, key: Key<'_>, hash: u64) -> Option<u16> {
        if self.index.is_none() {
            self.index = Some(Index::of(&self.original));
        }
        self.index.as_ref()?.find(hash, |i| self.holds(i, key))
    }

    /// Does entry `i` equal `key`? Asked only of an entry whose hash looks
    /// like the key's, mostly the entry sought: out of line, it leaves the
    /// walk along a chain small.
    #[inline(never)]
    fn holds(&self, i: u16, key: Key<'_>) -> bool {
        match i.checked_sub(self.original.count()) {
            None => {
                let (file, offsets) = self.original.file_and_offsets();
                offsets.get(usize::from(i)).is_some_and(|&at| key.is_written_at(file, at as usize))
            }
            Some(past) => self
                .added_at
                .get(usize::from(past))
                .and_then(|&at| self.added.get(at as usize))
                .and_then(Key::of)
                .is_some_and(|entry| entry.is(key)),
        }
    }

    /// Adds `constant`, of hash `hash` and taking `slots` pool slots, found
    /// in no entry, and indexes it.
    fn push_indexed(&mut self, constant: Constant<'a>, hash: u64, slots: u8) -> Result<u16> {
        let at = self.count;
        if at + u32::from(slots) > MAX_POOL_COUNT {
            return Err(pool_full(&constant));
        }
        let at = at as u16;
        if let Some(index) = &mut self.index {
            index.link(at, hash);
        }
        if self.added.is_empty() {
            self.added.reserve(ADDITIONS_ROOM);
            self.added_at.reserve(ADDITIONS_ROOM);
        }
        self.added_at.push(self.added.len() as u32);
        if slots == 2 {
            self.added_at.push(SECOND_SLOT);
        }
        self.count += u32::from(slots);
        self.last_added = at;
        self.added.push(constant);
        Ok(at)
    }

    /// The index of a Utf8 entry for `text`, added if missing.
    pub fn utf8(&mut self, text: &str) -> Result<u16> {
        let bytes = text.as_bytes();
        let hash = Key::Utf8(bytes).hash();
        // A known text is its own modified UTF-8 (see `KnownTexts::new`),
        // and most texts added are known: not encoded again on every call.
        if let Some(known) = self.known_texts.and_then(|texts| texts.get(bytes, hash)) {
            return self.add_utf8(known, hash, Some(known));
        }
        match mutf8::encode(text) {
            Cow::Borrowed(plain) => self.add_utf8(plain, hash, None),
            Cow::Owned(encoded) => self.add_utf8(&encoded, Key::Utf8(&encoded).hash(), None),
        }
    }

    /// [`PoolBuilder::utf8`] of a text made ready for it.
    pub fn prepared_utf8(&mut self, text: &PreparedText) -> Result<u16> {
        match text.bytes {
            Cow::Borrowed(known) => self.add_utf8(known, text.hash, Some(known)),
            Cow::Owned(ref bytes) => self.add_utf8(bytes, text.hash, None),
        }
    }

    /// The index of a Class entry for `internal_name`, added if missing.
    pub fn class(&mut self, internal_name: &str) -> Result<u16> {
        let name = self.utf8(internal_name)?;
        self.class_named(name)
    }

    /// The Class entry naming Utf8 entry `name`.
    pub fn class_named(&mut self, name: u16) -> Result<u16> {
        self.add_naming(tag::CLASS, name)
    }

    /// The index of a String entry for `text`, added if missing.
    pub fn string(&mut self, text: &str) -> Result<u16> {
        let value = self.utf8(text)?;
        self.add_naming(tag::STRING, value)
    }

    /// The index of an Integer entry for `value`, added if missing.
    pub fn integer(&mut self, value: i32) -> Result<u16> {
        self.add_keyed(Constant::Integer(value), tag::INTEGER, u64::from(value as u32), false)
    }

    /// The index of a NameAndType entry, added if missing.
    pub fn name_and_type(&mut self, name: &str, descriptor: &str) -> Result<u16> {
        let name = self.utf8(name)?;
        let descriptor = self.utf8(descriptor)?;
        self.name_and_type_of(name, descriptor)
    }

    /// The NameAndType entry of Utf8 entries `name` and `descriptor`.
    pub fn name_and_type_of(&mut self, name: u16, descriptor: u16) -> Result<u16> {
        let names_last = self.is_last(name) || self.is_last(descriptor);
        self.add_keyed(Constant::NameAndType { name, descriptor }, tag::NAME_AND_TYPE, pair(name, descriptor), names_last)
    }

    /// The member reference of kind `kind` to Class entry `class` and
    /// NameAndType entry `name_and_type`.
    pub fn member_of(&mut self, kind: MemberKind, class: u16, name_and_type: u16) -> Result<u16> {
        self.add_member(kind.tag(), class, name_and_type)
    }

    /// The index of a Fieldref entry, added if missing.
    pub fn field_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<u16> {
        let class = self.class(owner)?;
        let name_and_type = self.name_and_type(name, descriptor)?;
        self.add_member(tag::FIELDREF, class, name_and_type)
    }

    /// The index of a Methodref entry, added if missing.
    pub fn method_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<u16> {
        let class = self.class(owner)?;
        let name_and_type = self.name_and_type(name, descriptor)?;
        self.add_member(tag::METHODREF, class, name_and_type)
    }

    /// The index of an InterfaceMethodref entry, added if missing.
    pub fn interface_method_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<u16> {
        let class = self.class(owner)?;
        let name_and_type = self.name_and_type(name, descriptor)?;
        self.add_member(tag::INTERFACE_METHODREF, class, name_and_type)
    }

    /// The index of a MethodType entry, added if missing.
    pub fn method_type(&mut self, descriptor: &str) -> Result<u16> {
        let descriptor = self.utf8(descriptor)?;
        self.add_naming(tag::METHOD_TYPE, descriptor)
    }

    /// A method handle on a member reference already in the pool.
    pub fn method_handle(&mut self, kind: u8, reference: u16) -> Result<u16> {
        self.add(Constant::MethodHandle { kind, reference })
    }

    /// An InvokeDynamic whose bootstrap is entry `bootstrap_method` of the
    /// BootstrapMethods attribute (see `ClassEditor::add_bootstrap_method`).
    pub fn invoke_dynamic(&mut self, bootstrap_method: u16, name: &str, descriptor: &str) -> Result<u16> {
        let name_and_type = self.name_and_type(name, descriptor)?;
        self.add(Constant::InvokeDynamic { bootstrap_method, name_and_type })
    }

    /// No fewer bytes than the additions take when written: every added
    /// Utf8 as it is, any other entry counted as the largest kind.
    pub(crate) fn added_len_hint(&self) -> usize {
        self.added.iter().map(|c| if let Constant::Utf8(b) = c { 3 + b.len() } else { 9 }).sum()
    }

    /// Writes `constant_pool_count` and every entry: the original ones as their
    /// original bytes, then the additions.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.u16(self.count as u16);
        out.extend_from_slice(self.original.raw_bytes());
        for constant in &self.added {
            constant.encode(out);
        }
    }
}

/// The `n`th two-byte index in an entry's content.
fn index_in(content: &[u8], n: usize) -> Option<u16> {
    content.get(2 * n..2 * n + 2).map(|b| u16::from_be_bytes([b[0], b[1]]))
}

/// Lookups that see the additions too, for code that was just built. Each
/// reads an original entry from its bytes where it is what the lookup
/// wants, and otherwise decodes it (an addition, or an entry of the wrong
/// kind, which the decoded entry then reports).
impl<'a> PoolBuilder<'a> {
    /// Entry `index` of the original pool as its tag and content bytes
    /// when it is of kind `tag`.
    fn original_entry(&self, index: u16, tag: u8) -> Option<&'a [u8]> {
        self.original.raw_entry(index).filter(|&(t, _)| t == tag).map(|(_, content)| content)
    }

    /// The descriptor index of a member reference or (Invoke)Dynamic of the
    /// original pool, from its bytes and its NameAndType's.
    fn original_reference_descriptor(&self, index: u16) -> Option<u16> {
        let (kind, content) = self.original.raw_entry(index)?;
        let reference = [tag::FIELDREF, tag::METHODREF, tag::INTERFACE_METHODREF, tag::DYNAMIC, tag::INVOKE_DYNAMIC];
        if !reference.contains(&kind) {
            return None;
        }
        index_in(self.original_entry(index_in(content, 1)?, tag::NAME_AND_TYPE)?, 1)
    }

    /// A Utf8 entry as text, borrowed from the class file when it can be.
    pub fn text(&self, index: u16) -> Result<Cow<'a, str>> {
        if let Some(text) = self.original_entry(index, tag::UTF8).and_then(mutf8::decode) {
            return Ok(text);
        }
        let invalid = || ClassFileError::malformed_unlocated(format!("constant #{index} is not valid modified UTF-8"));
        match self.get(index)? {
            Constant::Utf8(Cow::Borrowed(bytes)) => mutf8::decode(bytes).ok_or_else(invalid),
            Constant::Utf8(Cow::Owned(bytes)) => {
                mutf8::decode(&bytes).map(|t| Cow::Owned(t.into_owned())).ok_or_else(invalid)
            }
            other => Err(wrong_kind(index, "Utf8", &other)),
        }
    }

    /// Checks that entry `index` is a Class entry with a valid name. The
    /// frames of every method of a class name the same few classes: each is
    /// read once per class.
    pub(crate) fn check_class(&mut self, index: u16) -> Result<()> {
        let (word, bit) = (usize::from(index / 64), 1u64 << (index % 64));
        if self.valid_classes.get(word).is_some_and(|w| w & bit != 0) {
            return Ok(());
        }
        self.class_name(index)?;
        if self.valid_classes.len() <= word {
            self.valid_classes.resize(word + 1, 0);
        }
        self.valid_classes[word] |= bit;
        Ok(())
    }

    /// The internal name of a Class entry.
    pub fn class_name(&self, index: u16) -> Result<Cow<'a, str>> {
        if let Some(name) = self.original_entry(index, tag::CLASS).and_then(|content| index_in(content, 0)) {
            return self.text(name);
        }
        match self.get(index)? {
            Constant::Class { name } => self.text(name),
            other => Err(wrong_kind(index, "Class", &other)),
        }
    }

    /// The descriptor of a field or method reference, or of an (Invoke)Dynamic.
    pub fn reference_descriptor(&self, index: u16) -> Result<Cow<'a, str>> {
        if let Some(descriptor) = self.original_reference_descriptor(index) {
            return self.text(descriptor);
        }
        let name_and_type = match self.get(index)? {
            Constant::Fieldref { name_and_type, .. }
            | Constant::Methodref { name_and_type, .. }
            | Constant::InterfaceMethodref { name_and_type, .. }
            | Constant::Dynamic { name_and_type, .. }
            | Constant::InvokeDynamic { name_and_type, .. } => name_and_type,
            other => return Err(wrong_kind(index, "reference", &other)),
        };
        match self.get(name_and_type)? {
            Constant::NameAndType { descriptor, .. } => self.text(descriptor),
            other => Err(wrong_kind(name_and_type, "NameAndType", &other)),
        }
    }

    /// Entry `index`, an added one borrowed rather than copied (`get` clones it).
    fn peek<R>(&self, index: u16, f: impl FnOnce(&Constant<'_>) -> R) -> Option<R> {
        match index.checked_sub(self.original.count()) {
            None => self.original.get(index).ok().map(|c| f(&c)),
            Some(past) => {
                let at = *self.added_at.get(usize::from(past))?;
                self.added.get(at as usize).map(f)
            }
        }
    }

    /// `f` of the descriptor of a field or method reference or (Invoke)Dynamic,
    /// when it is plain ASCII: read in place, neither copied nor decoded. `None`
    /// in every other case, where [`PoolBuilder::reference_descriptor`] tells
    /// what is wrong or decodes the text.
    pub fn with_ascii_reference_descriptor<T>(&self, index: u16, f: impl FnOnce(&str) -> T) -> Option<T> {
        if let Some(descriptor) = self.original_reference_descriptor(index) {
            let bytes = self.original_entry(descriptor, tag::UTF8)?;
            return if bytes.is_ascii() { std::str::from_utf8(bytes).ok().map(f) } else { None };
        }
        let name_and_type = self.peek(index, |c| match c {
            Constant::Fieldref { name_and_type, .. }
            | Constant::Methodref { name_and_type, .. }
            | Constant::InterfaceMethodref { name_and_type, .. }
            | Constant::Dynamic { name_and_type, .. }
            | Constant::InvokeDynamic { name_and_type, .. } => Some(*name_and_type),
            _ => None,
        })??;
        let descriptor = self.peek(name_and_type, |c| match c {
            Constant::NameAndType { descriptor, .. } => Some(*descriptor),
            _ => None,
        })??;
        self.peek(descriptor, |c| match c {
            Constant::Utf8(bytes) if bytes.is_ascii() => std::str::from_utf8(bytes).ok().map(f),
            _ => None,
        })?
    }

    /// Slots of the field descriptor of entry `index` (a field reference or
    /// Dynamic), kept per entry ([`SlotCache`]).
    pub(crate) fn descriptor_field_slots(&mut self, index: u16) -> Result<i32> {
        if let Some(size) = self.slots.field(index) {
            return Ok(size);
        }
        let original = match self.original_reference_descriptor(index) {
            Some(at) => {
                let text = self.original_entry(at, tag::UTF8).filter(|text| text.is_ascii());
                self.slots.field_descriptor(at, text)
            }
            None => None,
        };
        let counted = original
            .or_else(|| self.with_ascii_reference_descriptor(index, |d| descriptor::field_slots_of_bytes(d.as_bytes())));
        let size = match counted {
            Some(Some(size)) => size,
            // Errors are reported as the decoding path reports them.
            _ => i32::from(descriptor::parse_field(&self.reference_descriptor(index)?)?.slots()),
        };
        self.slots.keep_field(index, size);
        Ok(size)
    }

    /// Parameter and return slots of the method descriptor of entry `index`,
    /// kept per entry.
    pub(crate) fn descriptor_method_slots(&mut self, index: u16) -> Result<(i32, i32)> {
        if let Some(sizes) = self.slots.method(index) {
            return Ok(sizes);
        }
        let original = match self.original_reference_descriptor(index) {
            Some(at) => {
                let text = self.original_entry(at, tag::UTF8).filter(|text| text.is_ascii());
                self.slots.method_descriptor(at, text)
            }
            None => None,
        };
        let counted = original
            .or_else(|| self.with_ascii_reference_descriptor(index, |d| descriptor::method_slots_of_bytes(d.as_bytes())));
        let sizes = match counted {
            Some(Some(sizes)) => sizes,
            _ => descriptor::method_slot_sizes(&self.reference_descriptor(index)?)?,
        };
        self.slots.keep_method(index, sizes);
        Ok(sizes)
    }

    /// Slots an `ldc` or `ldc_w` of entry `index` pushes: 1, or a Dynamic's size.
    pub(crate) fn loaded_slots(&mut self, index: u16) -> Result<i32> {
        // An entry of the pool as read says what it is by its tag.
        match self.original.raw_entry(index) {
            Some((tag::DYNAMIC, _)) => {}
            Some(_) => return Ok(1),
            None => {}
        }
        if let Some(size) = self.slots.loaded(index) {
            return Ok(size);
        }
        let size = match self.get(index)? {
            Constant::Dynamic { .. } => self.descriptor_field_slots(index)?,
            _ => 1,
        };
        self.slots.keep_loaded(index, size);
        Ok(size)
    }

    /// [`PoolBuilder::descriptor_field_slots`] if it was asked for `index` already.
    #[inline]
    pub(crate) fn known_field_slots(&self, index: u16) -> Option<i32> {
        self.slots.field(index)
    }

    /// [`PoolBuilder::descriptor_method_slots`] if it was asked for `index` already.
    #[inline]
    pub(crate) fn known_method_slots(&self, index: u16) -> Option<(i32, i32)> {
        self.slots.method(index)
    }

    /// Owner class index and member name of a method reference.
    pub fn method_owner_and_name(&self, index: u16) -> Result<(u16, Cow<'a, str>)> {
        let member = self.original.raw_entry(index).filter(|&(t, _)| t == tag::METHODREF || t == tag::INTERFACE_METHODREF);
        if let Some((_, content)) = member {
            let name = index_in(content, 1).and_then(|nat| self.original_entry(nat, tag::NAME_AND_TYPE));
            if let (Some(class), Some(name)) = (index_in(content, 0), name.and_then(|nat| index_in(nat, 0))) {
                return Ok((class, self.text(name)?));
            }
        }
        match self.get(index)? {
            Constant::Methodref { class, name_and_type } | Constant::InterfaceMethodref { class, name_and_type } => {
                match self.get(name_and_type)? {
                    Constant::NameAndType { name, .. } => Ok((class, self.text(name)?)),
                    other => Err(wrong_kind(name_and_type, "NameAndType", &other)),
                }
            }
            other => Err(wrong_kind(index, "Methodref", &other)),
        }
    }
}

/// The error of an addition past the last pool index: out of line, it
/// leaves every addition's own code small.
#[cold]
#[inline(never)]
fn pool_full(constant: &Constant<'_>) -> ClassFileError {
    ClassFileError::limit_unlocated(format!("the constant pool would pass 65,535 entries (adding {constant:?})"))
}

fn wrong_kind(index: u16, expected: &'static str, found: &Constant<'_>) -> ClassFileError {
    ClassFileError::unlocated(crate::read::error::ErrorKind::WrongConstantKind {
        index,
        expected,
        found: crate::read::constant_pool::tag_name(found.tag()),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::write::pool_index::entry_hash;
    use crate::read::reader::Reader;

    /// A pool of one Utf8 entry, `Code`.
    fn pool_bytes() -> Vec<u8> {
        let mut bytes = vec![0, 2, crate::tag::UTF8];
        bytes.extend(4u16.to_be_bytes());
        bytes.extend(b"Code");
        bytes
    }

    fn known() -> &'static KnownTexts {
        static KNOWN: std::sync::LazyLock<KnownTexts> =
            std::sync::LazyLock::new(|| KnownTexts::new(["org/example/Monitor", "Code", "nul\0inside"]));
        &KNOWN
    }

    fn written(pool: &PoolBuilder<'_>) -> Vec<u8> {
        let mut out = Vec::new();
        pool.write(&mut out);
        out
    }

    #[test]
    fn a_known_text_is_added_borrowed_and_written_as_any_other() {
        let bytes = pool_bytes();
        let original = ConstantPool::parse(&mut Reader::new(&bytes)).expect("pool");
        let (mut plain, mut knowing) = (PoolBuilder::new(original.clone()), PoolBuilder::new(original));
        knowing.set_known_texts(known());
        for pool in [&mut plain, &mut knowing] {
            assert_eq!(pool.utf8("Code").expect("existing"), 1, "an original entry is reused");
            assert_eq!(pool.class("org/example/Monitor").expect("known"), 3);
            assert_eq!(pool.utf8("org/example/Unknown").expect("unknown"), 4);
            assert_eq!(pool.utf8("org/example/Monitor").expect("again"), 2, "an added entry is reused");
            assert_eq!(pool.utf8("nul\0inside").expect("not plain"), 5);
        }
        assert_eq!(written(&plain), written(&knowing));
        let borrowed = |pool: &PoolBuilder<'_>, index| matches!(pool.get(index), Ok(Constant::Utf8(Cow::Borrowed(_))));
        assert!(!borrowed(&plain, 2));
        assert!(borrowed(&knowing, 2), "a known text is not copied");
        assert!(!borrowed(&knowing, 4), "an unknown text is copied");
        assert!(!borrowed(&knowing, 5), "a text whose modified UTF-8 differs is never known");
    }

    /// A pool of `entries` (each a tag and its content after the tag).
    fn pool_of(entries: &[(u8, Vec<u8>)]) -> Vec<u8> {
        let two_slots = |tag: u8| tag == crate::tag::LONG || tag == crate::tag::DOUBLE;
        let count = 1 + entries.iter().map(|&(tag, _)| if two_slots(tag) { 2 } else { 1 }).sum::<u16>();
        let mut bytes = count.to_be_bytes().to_vec();
        for (tag, content) in entries {
            bytes.push(*tag);
            bytes.extend(content);
        }
        bytes
    }

    fn utf8_entry(text: &str) -> (u8, Vec<u8>) {
        let mut content = (text.len() as u16).to_be_bytes().to_vec();
        content.extend(text.as_bytes());
        (crate::tag::UTF8, content)
    }

    #[test]
    fn an_entry_hashed_where_it_is_in_the_file_hashes_as_its_value() {
        use crate::tag;
        let text = "abcdefghijklmnopqrstu";
        let mut entries: Vec<(u8, Vec<u8>)> = (0..=text.len()).map(|n| utf8_entry(&text[..n])).collect();
        // Texts of 0 to 21 bytes at #1 to #22, then one entry of each size.
        entries.extend([
            (tag::INTEGER, vec![0x80, 1, 2, 0xFF]),        // #23
            (tag::LONG, vec![0xF0, 1, 2, 3, 4, 5, 6, 0x0F]), // #24, #25
            (tag::CLASS, vec![0, 22]),                     // #26
            (tag::NAME_AND_TYPE, vec![0, 2, 0, 1]),        // #27
            (tag::METHODREF, vec![0, 26, 0, 27]),          // #28
            (tag::METHOD_HANDLE, vec![6, 0, 28]),          // #29
        ]);
        // As in a class file: magic and versions before the pool, 14 bytes
        // at least after it.
        let bytes = [vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52], pool_of(&entries), vec![0xEE; 14]].concat();
        let mut reader = Reader::new(&bytes);
        reader.skip(8).expect("header");
        let original = ConstantPool::parse(&mut reader).expect("pool");
        let (file, offsets) = original.file_and_offsets();
        let mut hashed = 0;
        for (i, &at) in offsets.iter().enumerate().skip(1) {
            let Some((tag, content)) = original.raw_entry(i as u16) else { continue }; // a Long's second slot
            let written = file.get(at as usize..at as usize + 1 + content.len() + if tag == tag::UTF8 { 2 } else { 0 });
            let expected = entry_hash(written.expect("the entry's bytes"));
            assert_eq!(Key::of_raw(tag, content).hash(), expected, "entry {i} by its value");
            let size = written.map_or(0, <[u8]>::len);
            assert_eq!(Key::hash_sized(file, at as usize, size), Some(expected), "entry {i} where it is");
            hashed += 1;
        }
        assert_eq!(hashed, entries.len());
    }

    #[test]
    fn an_entry_compared_where_it_is_in_the_file_compares_as_its_value() {
        use crate::tag;
        // Entries alike but for their kind, their length or one byte; the
        // last one ends the pool.
        let entries = [
            utf8_entry("java/lang/Object"),
            utf8_entry("java/lang/Objects"),
            utf8_entry(""),
            (tag::INTEGER, vec![0x40, 0, 0, 0]),
            (tag::FLOAT, vec![0x40, 0, 0, 0]),
            (tag::LONG, vec![0, 0, 0, 0, 0x40, 0, 0, 0]),
            (tag::DOUBLE, vec![0, 0, 0, 0, 0x40, 0, 0, 0]),
            (tag::CLASS, vec![0, 1]),
            (tag::STRING, vec![0, 1]),
            (tag::CLASS, vec![0, 2]),
            (tag::NAME_AND_TYPE, vec![0, 1, 0, 2]),
            (tag::FIELDREF, vec![0, 10, 0, 13]),  // #14
            (tag::METHODREF, vec![0, 10, 0, 13]),
            (tag::METHOD_HANDLE, vec![1, 0, 14]),
            utf8_entry("java/lang/Objecu"),
        ];
        let bytes = [vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52], pool_of(&entries)].concat();
        let mut reader = Reader::new(&bytes);
        reader.skip(8).expect("header");
        let original = ConstantPool::parse(&mut reader).expect("pool");
        let (file, offsets) = original.file_and_offsets();
        let keys: Vec<(usize, Option<Key<'_>>)> = (1..offsets.len())
            .map(|i| (i, original.raw_entry(i as u16).map(|(tag, content)| Key::of_raw(tag, content))))
            .collect();
        for &(i, entry) in &keys {
            for &(_, key) in &keys {
                let Some(key) = key else { continue };
                let expected = entry.is_some_and(|entry| entry.is(key));
                assert_eq!(key.is_written_at(file, offsets[i] as usize), expected, "entry {i}");
            }
        }
        // A key longer than what is left of the file.
        assert!(!Key::Utf8(b"java/lang/Objecu and more").is_written_at(file, offsets[keys.len()] as usize));
    }

    #[test]
    fn every_lookup_finds_the_first_equal_entry_even_among_texts_that_hash_alike() {
        // The same length, first eight and last eight bytes: one hash, one
        // chain, told apart only by comparing them in full.
        let (a, b) = ("java/lang/A/middle/Object", "java/lang/B/middle/Object");
        let entries = [
            utf8_entry(a),
            (crate::tag::LONG, 7u64.to_be_bytes().to_vec()),
            utf8_entry(b),
            utf8_entry(a),
            (crate::tag::CLASS, 4u16.to_be_bytes().to_vec()),
        ];
        let bytes = pool_of(&entries);
        let original = ConstantPool::parse(&mut Reader::new(&bytes)).expect("pool");
        assert_eq!(original.count(), 7);
        let mut pool = PoolBuilder::new(original);
        assert_eq!(pool.utf8(a).expect("a"), 1, "the first of two equal entries");
        assert_eq!(pool.utf8(b).expect("b"), 4);
        assert_eq!(pool.add(Constant::Long(7)).expect("long"), 2);
        assert_eq!(pool.add(Constant::Class { name: 4 }).expect("class of b"), 6);
        let c = "java/lang/C/middle/Object";
        assert_eq!(pool.class(c).expect("class of c"), 8, "its name is added first, at 7");
        assert_eq!(pool.utf8(c).expect("c again"), 7);
        assert_eq!(pool.add(Constant::Long(8)).expect("another long"), 9);
        assert_eq!(pool.add(Constant::Long(8)).expect("that long again"), 9);
        assert_eq!(pool.integer(7).expect("an integer"), 11, "a Long takes two slots");
        assert_eq!(pool.count(), 12);
    }

    #[test]
    fn known_texts_that_hash_alike_are_each_added_as_themselves() {
        // One hash (see the test above): the map keeps the first, and the
        // second, compared in full, is copied.
        let (a, b) = ("java/lang/A/middle/Object", "java/lang/B/middle/Object");
        assert_eq!(Key::Utf8(a.as_bytes()).hash(), Key::Utf8(b.as_bytes()).hash());
        static ALIKE: std::sync::LazyLock<KnownTexts> =
            std::sync::LazyLock::new(|| KnownTexts::new(["java/lang/A/middle/Object", "java/lang/B/middle/Object"]));
        assert!(ALIKE.contains(a));
        assert!(!ALIKE.contains(b), "left out of the map");
        let bytes = pool_bytes();
        let mut pool = PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&bytes)).expect("pool"));
        pool.set_known_texts(&ALIKE);
        assert_eq!((pool.utf8(b).expect("b"), pool.utf8(a).expect("a")), (2, 3));
        assert!(matches!(pool.get(2), Ok(Constant::Utf8(Cow::Owned(ref t))) if t == b.as_bytes()));
        assert!(matches!(pool.get(3), Ok(Constant::Utf8(Cow::Borrowed(t))) if t == a.as_bytes()));
    }

    #[test]
    fn member_references_are_found_again_whether_or_not_their_parts_were_just_added() {
        let bytes = pool_bytes();
        let mut pool = PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&bytes)).expect("pool"));
        // Utf8 2 "Owner", Class 3, Utf8 4 "run", Utf8 5 "()V", NameAndType 6, Methodref 7.
        let run = pool.method_ref("Owner", "run", "()V").expect("run");
        assert_eq!((run, pool.count()), (7, 8));
        assert_eq!(pool.method_ref("Owner", "run", "()V").expect("run again"), 7);
        // Only the descriptor is new (Utf8 8): its NameAndType and Fieldref too.
        assert_eq!(pool.field_ref("Owner", "run", "I").expect("field"), 10);
        assert_eq!(pool.field_ref("Owner", "run", "I").expect("field again"), 10);
        assert_eq!(pool.name_and_type("run", "I").expect("its name and type"), 9);
        // Entries that refer to the entry added last but were there before it.
        assert_eq!(pool.add(Constant::Class { name: 2 }).expect("an earlier class"), 3);
        assert_eq!(pool.utf8("Code").expect("an original text"), 1);
        assert_eq!(pool.count(), 11);
    }

    #[test]
    fn entries_added_from_prepared_texts_and_indexes_are_those_the_plain_calls_add() {
        let bytes = pool_bytes();
        let original = ConstantPool::parse(&mut Reader::new(&bytes)).expect("pool");
        let (mut plain, mut prepared) = (PoolBuilder::new(original.clone()), PoolBuilder::new(original));
        let members = [
            (MemberKind::Method, "org/example/Monitor", "run", "()V"),
            (MemberKind::Field, "org/example/Monitor", "Code", "I"),
            (MemberKind::InterfaceMethod, "org/example/Other", "run", "()V"),
            (MemberKind::Method, "org/example/Monitor", "run", "()V"),
            (MemberKind::Method, "org/example/Monitor", "caf\u{e9}\0", "()V"),
        ];
        let text = |t: &str| PreparedText::new(t, Some(known()));
        for (kind, owner, name, descriptor) in members {
            let expected = match kind {
                MemberKind::Field => plain.field_ref(owner, name, descriptor),
                MemberKind::Method => plain.method_ref(owner, name, descriptor),
                MemberKind::InterfaceMethod => plain.interface_method_ref(owner, name, descriptor),
            };
            let add = |pool: &mut PoolBuilder<'_>| -> Result<u16> {
                let class = pool.prepared_utf8(&text(owner)).and_then(|o| pool.class_named(o))?;
                let (name, descriptor) = (pool.prepared_utf8(&text(name))?, pool.prepared_utf8(&text(descriptor))?);
                let name_and_type = pool.name_and_type_of(name, descriptor)?;
                pool.member_of(kind, class, name_and_type)
            };
            assert_eq!(add(&mut prepared).expect("prepared"), expected.expect("plain"), "{kind:?} {name}");
        }
        assert_eq!(written(&prepared), written(&plain));
        assert!(matches!(prepared.get(2), Ok(Constant::Utf8(Cow::Borrowed(_)))), "a known text is not copied");
    }

    #[test]
    fn only_pool_indexes_count_as_references() {
        let refers = |c: Constant<'_>| c.refers_to(5);
        assert!(refers(Constant::Class { name: 5 }));
        assert!(refers(Constant::NameAndType { name: 1, descriptor: 5 }));
        assert!(refers(Constant::Methodref { class: 5, name_and_type: 1 }));
        assert!(refers(Constant::InvokeDynamic { bootstrap_method: 1, name_and_type: 5 }));
        assert!(!refers(Constant::InvokeDynamic { bootstrap_method: 5, name_and_type: 1 }), "a bootstrap method's number");
        assert!(!refers(Constant::MethodHandle { kind: 5, reference: 1 }), "a handle's kind");
        assert!(!refers(Constant::Integer(5)));
    }

    #[test]
    fn every_original_entry_of_every_kind_is_found_by_its_value() {
        use crate::tag;
        let u16s = |values: &[u16]| values.iter().flat_map(|v| v.to_be_bytes()).collect::<Vec<u8>>();
        let entries = [
            utf8_entry(""),
            utf8_entry("short"),
            utf8_entry("exactly8"),
            utf8_entry("nine char"),
            utf8_entry("a text of more than sixteen bytes"),
            (tag::INTEGER, (-7i32).to_be_bytes().to_vec()),
            (tag::FLOAT, 1.5f32.to_bits().to_be_bytes().to_vec()),
            (tag::LONG, (-3i64).to_be_bytes().to_vec()),
            (tag::DOUBLE, 2.5f64.to_bits().to_be_bytes().to_vec()),
            (tag::CLASS, u16s(&[2])),
            (tag::STRING, u16s(&[1])),
            (tag::NAME_AND_TYPE, u16s(&[2, 3])),
            (tag::FIELDREF, u16s(&[12, 14])),
            (tag::METHODREF, u16s(&[12, 14])),
            (tag::INTERFACE_METHODREF, u16s(&[12, 14])),
            (tag::METHOD_HANDLE, [vec![6], u16s(&[16])].concat()),
            (tag::METHOD_TYPE, u16s(&[4])),
            (tag::DYNAMIC, u16s(&[0, 14])),
            (tag::INVOKE_DYNAMIC, u16s(&[1, 14])),
            (tag::MODULE, u16s(&[2])),
            (tag::PACKAGE, u16s(&[3])),
        ];
        // The class file goes on after its pool; so does this one.
        let bytes = [pool_of(&entries), vec![0; 16]].concat();
        let original = ConstantPool::parse(&mut Reader::new(&bytes)).expect("pool");
        let count = original.count();
        let mut pool = PoolBuilder::new(original.clone());
        for index in 1..count {
            let Ok(constant) = original.get(index) else { continue }; // a Long's second slot
            assert_eq!(pool.add(constant.clone()).expect("lookup"), index, "{constant:?}");
        }
        assert_eq!(u32::from(count), pool.count(), "nothing was added");
    }

    /// A pool of every kind of entry the depth pass looks up, written and
    /// read back (so they are entries of the pool as read), with the same
    /// kinds added after it.
    pub(crate) fn pool_of_every_kind(bytes: &mut Vec<u8>) {
        let empty = [0u8, 1];
        let mut pool = PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&empty)).expect("empty pool"));
        add_every_kind(&mut pool, "");
        pool.write(bytes);
    }

    pub(crate) fn add_every_kind(pool: &mut PoolBuilder<'_>, suffix: &str) {
        let owner = format!("p/Owner{suffix}");
        pool.method_ref(&owner, "m", "(IJ[DLjava/lang/String;)J").expect("method");
        pool.interface_method_ref(&owner, "i", "()V").expect("interface method");
        pool.field_ref(&owner, "f", "D").expect("field");
        pool.field_ref(&owner, "g", "[J").expect("field");
        pool.method_ref(&owner, "u", "(Lp/\u{e9};)V").expect("a descriptor to decode");
        pool.field_ref(&owner, "bad", "(I)V").expect("a method descriptor on a field");
        pool.invoke_dynamic(0, "run", "(I)Ljava/lang/Runnable;").expect("invokedynamic");
        let name_and_type = pool.name_and_type("d", "J").expect("name and type");
        pool.add(Constant::Dynamic { bootstrap_method: 0, name_and_type }).expect("dynamic");
        pool.string("text").expect("string");
        pool.add(Constant::Long(7)).expect("long");
        pool.integer(3).expect("integer");
    }

    /// `pool` as it would be with nothing looked up yet.
    fn fresh<'a>(pool: &PoolBuilder<'a>) -> PoolBuilder<'a> {
        let mut fresh = pool.clone();
        fresh.slots = SlotCache::default();
        fresh
    }

    #[test]
    fn descriptors_read_from_the_file_are_what_the_pool_gives_for_every_entry() {
        let mut bytes = Vec::new();
        pool_of_every_kind(&mut bytes);
        let mut pool = PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&bytes)).expect("pool"));
        add_every_kind(&mut pool, "2");
        let count = pool.count() as u16;
        let mut read_in_place = 0;
        for index in 0..count + 2 {
            let given = pool.with_ascii_reference_descriptor(index, |d| d.as_bytes().to_vec());
            let in_place = pool.original_reference_descriptor(index).and_then(|at| pool.original_entry(at, tag::UTF8));
            if let Some(found) = in_place.filter(|text| text.is_ascii()) {
                assert_eq!(Some(found.to_vec()), given, "entry {index}");
                read_in_place += 1;
            }
            // Each look-up of the depth pass gives what the plain one does.
            let plain_method = pool.reference_descriptor(index).and_then(|d| descriptor::method_slot_sizes(&d));
            let method = fresh(&pool).descriptor_method_slots(index);
            assert_eq!(method.ok(), plain_method.ok(), "method slots of entry {index}");
            let plain_field = pool.reference_descriptor(index).and_then(|d| Ok(i32::from(descriptor::parse_field(&d)?.slots())));
            let field = fresh(&pool).descriptor_field_slots(index);
            assert_eq!(field.ok(), plain_field.ok(), "field slots of entry {index}");
            let plain_loaded = match pool.get(index) {
                Ok(Constant::Dynamic { .. }) => Some(2),
                Ok(_) => Some(1),
                Err(_) => None,
            };
            assert_eq!(fresh(&pool).loaded_slots(index).ok(), plain_loaded, "ldc {index}");
        }
        // The ASCII descriptors of the pool as read: five members, the invokedynamic, the Dynamic.
        assert_eq!(read_in_place, 7);
    }

    /// References naming one descriptor entry (fields of one type, methods
    /// of one signature, a field and a method naming the same text) share
    /// its count, kept once: each gets what the plain look-up gives it.
    #[test]
    fn references_sharing_a_descriptor_get_what_the_plain_look_up_gives_each() {
        let empty = [0u8, 1];
        let mut pool = PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&empty)).expect("empty pool"));
        for owner in ["p/A", "p/B"] {
            pool.method_ref(owner, "m", "(IJ[D)D").expect("method");
            pool.interface_method_ref(owner, "i", "(IJ[D)D").expect("interface method");
            pool.field_ref(owner, "f", "J").expect("field");
            pool.field_ref(owner, "g", "(IJ[D)D").expect("a method descriptor on a field");
            pool.method_ref(owner, "h", "J").expect("a field descriptor on a method");
            pool.field_ref(owner, "u", "Lp/\u{e9};").expect("a descriptor to decode");
        }
        let mut bytes = Vec::new();
        pool.write(&mut bytes);
        let mut pool = PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&bytes)).expect("pool"));
        let count = pool.count() as u16;
        let (mut methods, mut fields) = (0, 0);
        for index in 0..count + 2 {
            let plain_method = pool.reference_descriptor(index).and_then(|d| descriptor::method_slot_sizes(&d)).ok();
            let plain_field =
                pool.reference_descriptor(index).and_then(|d| Ok(i32::from(descriptor::parse_field(&d)?.slots()))).ok();
            // Both look-ups of every entry, through one pool's memo.
            assert_eq!(pool.descriptor_method_slots(index).ok(), plain_method, "method slots of entry {index}");
            assert_eq!(pool.descriptor_field_slots(index).ok(), plain_field, "field slots of entry {index}");
            methods += usize::from(plain_method.is_some());
            fields += usize::from(plain_field.is_some());
        }
        // By descriptor, whatever the reference: `m`, `i` and `g` of each owner; `f`, `h` and `u`.
        assert_eq!((methods, fields), (6, 6));
        // Kept under each descriptor entry: `(IJ[D)D`, `J`, and nothing for the one to decode.
        let kept = (0..count).filter(|&i| {
            pool.slots.method_descriptor(i, None).is_some() || pool.slots.field_descriptor(i, None).is_some()
        });
        assert_eq!(kept.count(), 2);
    }
}
