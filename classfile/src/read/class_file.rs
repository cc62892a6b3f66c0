//! The top-level structure of a class file (JVMS 4.1), read lazily: parsing
//! checks the structure and records where everything is; names, annotations
//! and code are decoded when asked for.
#![forbid(unsafe_code)]

use crate::read::annotations::{self, Annotation, ElementValue};
use crate::read::attribute::{self, name, read_attributes_keeping, Attribute};
use crate::read::code_attribute::CodeAttribute;
use crate::read::constant_pool::{ConstantPool, PoolLayout};
use crate::read::error::{ClassFileError, ErrorKind, Result};
use crate::read::mutf8;
use crate::read::reader::Reader;
use super::{MAX_MAJOR_VERSION, MIN_MAJOR_VERSION};
use std::borrow::Cow;

/// The first four bytes of every class file.
pub const MAGIC: u32 = 0xCAFE_BABE;

/// A parsed class file borrowing the bytes it was read from.
#[derive(Debug, Clone)]
pub struct ClassFile<'a> {
    bytes: &'a [u8],
    minor_version: u16,
    major_version: u16,
    pool: ConstantPool<'a>,
    access_flags: u16,
    this_class: u16,
    super_class: u16,
    interfaces: Vec<u16>,
    fields: Vec<Member<'a>>,
    methods: Vec<Member<'a>>,
    attributes: Vec<Attribute<'a>>,
}

/// What a class file holds up to its name: versions, constant pool, access
/// flags and `this_class`, all checked as [`ClassFile::parse`] checks them.
/// Enough to know what a class is; its layout spares a later full parse
/// reading the pool again ([`ClassFile::parse_with_layout`]).
#[derive(Debug, Clone)]
pub struct ClassHead<'a> {
    minor_version: u16,
    major_version: u16,
    pool: ConstantPool<'a>,
    access_flags: u16,
    this_class: u16,
    /// The name of `this_class`, when the parse decoded it to check it.
    this_name: Option<Cow<'a, str>>,
}

/// What a parse may take as already checked.
#[derive(Clone, Copy)]
enum KnownPool<'k, 'p, 'l> {
    Nothing,
    /// The class the file is an edit of: its pool, which the file's may
    /// begin with (`parse_extending`), and its members.
    Prefix(&'k ClassFile<'p>),
    /// The file's own pool, read before (`parse_with_layout`): borrowed by
    /// the pool parsed, as long as the file's bytes are.
    Layout(&'l PoolLayout),
}

impl<'a> ClassHead<'a> {
    /// Reads the head of a class file: its versions, constant pool, access flags and own name.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        Self::read(bytes, KnownPool::Nothing).map(|(_, head, _)| head)
    }

    /// The head, a reader at the `super_class` item after it, and whether
    /// the pool began with the entries of a [`KnownPool::Prefix`].
    fn read(bytes: &'a [u8], known: KnownPool<'_, '_, 'a>) -> Result<(Reader<'a>, Self, bool)> {
        let mut r = Reader::new(bytes);
        let magic = r.u32()?;
        if magic != MAGIC {
            return Err(ClassFileError::new(0, ErrorKind::BadMagic(magic)));
        }
        let minor_version = r.u16()?;
        let major_version = r.u16()?;
        if !(MIN_MAJOR_VERSION..=MAX_MAJOR_VERSION).contains(&major_version) {
            return Err(ClassFileError::new(
                6,
                ErrorKind::UnsupportedVersion { major: major_version, minor: minor_version },
            ));
        }
        // With the `this_class` a parse of the same entries checked.
        let (pool, same_entries, checked) = match known {
            KnownPool::Nothing => (ConstantPool::parse(&mut r)?, false, None),
            KnownPool::Prefix(original) => {
                let (pool, same_entries) = ConstantPool::parse_extending(&mut r, &original.pool)?;
                (pool, same_entries, same_entries.then_some(original.this_class))
            }
            KnownPool::Layout(layout) => {
                let (pool, fits) = ConstantPool::parse_laid_out(&mut r, layout)?;
                (pool, false, fits.then(|| layout.this_class()))
            }
        };
        let access_flags = r.u16()?;
        let this_at = r.offset();
        let this_class = r.u16()?;
        let this_name = match checked {
            Some(checked) if checked == this_class => None,
            _ => Some(ConstantPool::at(pool.class_name(this_class), this_at)?),
        };
        Ok((r, ClassHead { minor_version, major_version, pool, access_flags, this_class, this_name }, same_entries))
    }

    /// The class's access flags.
    pub fn access_flags(&self) -> u16 {
        self.access_flags
    }

    /// Internal name of this class.
    pub fn this_class(&self) -> Result<Cow<'a, str>> {
        match &self.this_name {
            Some(name) => Ok(name.clone()),
            None => self.pool.class_name(self.this_class),
        }
    }

    /// Where the pool's entries are, for [`ClassFile::parse_with_layout`].
    pub fn into_pool_layout(self) -> PoolLayout {
        self.pool.into_layout(self.this_class)
    }
}

/// An edit of a class read back for the pre-write check
/// ([`ClassFile::read_back`]): checked as [`ClassFile::parse`] checks it,
/// keeping its pool and the methods the edit changed or added.
#[derive(Debug, Clone)]
pub struct ReadBack<'a> {
    class: ClassFile<'a>,
    changed_methods: Vec<(usize, Member<'a>)>,
}

impl<'a> ReadBack<'a> {
    /// The class read, its lists (interfaces, members, attributes) left empty.
    pub fn class(&self) -> &ClassFile<'a> {
        &self.class
    }

    /// By index, ascending, each method whose bytes are not those of the
    /// original's method at the same index (every method, when the pool
    /// does not begin with the original's).
    pub fn changed_methods(&self) -> &[(usize, Member<'a>)] {
        &self.changed_methods
    }
}

/// A field or a method.
#[derive(Debug, Clone, PartialEq, Eq)]
// Fields as JVMS 4.5 and 4.6 name them.
#[allow(missing_docs)]
pub struct Member<'a> {
    /// Offset of `access_flags` in the file.
    pub offset: usize,
    /// The whole `field_info`/`method_info` as written.
    pub raw: &'a [u8],
    pub access_flags: u16,
    pub name_index: u16,
    pub descriptor_index: u16,
    name: &'a [u8],
    descriptor: &'a [u8],
    pub attributes: Vec<Attribute<'a>>,
}

impl<'a> ClassFile<'a> {
    /// Checks the structure of `bytes` as a class file of version 45 to 69.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        Self::parse_with::<true>(bytes, KnownPool::Nothing, None)
    }

    /// [`ClassFile::parse`] of an edit of `original` whose constant pool
    /// begins with the original's, byte for byte (as [`ClassEditor`] writes
    /// it): the original entries are not read and checked again. As strict
    /// as a full parse; any other file is parsed in full.
    ///
    /// [`ClassEditor`]: crate::ClassEditor
    pub fn parse_extending(bytes: &'a [u8], original: &ClassFile<'_>) -> Result<Self> {
        Self::parse_with::<true>(bytes, KnownPool::Prefix(original), None)
    }

    /// Checks `bytes` as [`ClassFile::parse_extending`] does, keeping
    /// nothing: no list of members or attributes is made, and a member
    /// that is byte for byte the original's at the same index, read against
    /// the same pool entries, is taken as the original's parse checked it.
    pub fn check_extending(bytes: &[u8], original: &ClassFile<'_>) -> Result<()> {
        ClassFile::parse_with::<false>(bytes, KnownPool::Prefix(original), None).map(drop)
    }

    /// Checks `bytes` as [`ClassFile::check_extending`] does, keeping the
    /// pool and the methods not byte for byte the original's: what the
    /// pre-write check reads of a class before it is written.
    pub fn read_back(bytes: &'a [u8], original: &ClassFile<'_>) -> Result<ReadBack<'a>> {
        let mut changed_methods = Vec::new();
        let class = ClassFile::parse_with::<false>(bytes, KnownPool::Prefix(original), Some(&mut changed_methods))?;
        Ok(ReadBack { class, changed_methods })
    }

    /// [`ClassFile::parse`] of the bytes a [`ClassHead`] was read from,
    /// given its pool's layout: the pool, and `this_class` if the head's, are
    /// not read and checked again. As
    /// strict as a full parse; bytes the layout does not fit are parsed in full.
    pub fn parse_with_layout(bytes: &'a [u8], layout: &'a PoolLayout) -> Result<Self> {
        Self::parse_with::<true>(bytes, KnownPool::Layout(layout), None)
    }

    /// `KEEP` false: the lists (interfaces, members, attributes) are
    /// checked and left empty, each member that is byte for byte the
    /// original's (of a [`KnownPool::Prefix`] whose entries the pool begins
    /// with) is taken as checked, and every other method is added to
    /// `changed` with its index.
    fn parse_with<const KEEP: bool>(
        bytes: &'a [u8],
        known: KnownPool<'_, '_, 'a>,
        changed: Option<&mut Vec<(usize, Member<'a>)>>,
    ) -> Result<Self> {
        let (mut r, ClassHead { major_version, minor_version, pool, access_flags, this_class, .. }, same_entries) =
            ClassHead::read(bytes, known)?;
        // What the original's parse checked against the same entries.
        let same_as = match known {
            KnownPool::Prefix(original) if same_entries => Some(original),
            _ => None,
        };
        // A member's parse reads only its bytes and the pool entries they
        // name: bytes equal to a member the original's parse checked, naming
        // the same entries, would be read and checked alike.
        let original = same_as.filter(|_| !KEEP);
        let super_at = r.offset();
        let super_class = r.u16()?;
        if super_class != 0 && same_as.is_none_or(|o| o.super_class != super_class) {
            ConstantPool::at(pool.class_name(super_class), super_at)?;
        }
        let count = r.count(2)?;
        let mut interfaces = Vec::with_capacity(if KEEP { count } else { 0 });
        for i in 0..count {
            let at = r.offset();
            let index = r.u16()?;
            if same_as.is_none_or(|o| o.interfaces.get(i) != Some(&index)) {
                ConstantPool::at(pool.class_name(index), at)?;
            }
            if KEEP {
                interfaces.push(index);
            }
        }
        let fields = read_members::<KEEP>(&mut r, &pool, original.map_or(&[], |o| &o.fields), None)?;
        let methods = read_members::<KEEP>(&mut r, &pool, original.map_or(&[], |o| &o.methods), changed)?;
        let attributes = read_attributes_keeping::<KEEP>(&mut r, &pool)?;
        r.finish()?;
        Ok(ClassFile {
            bytes,
            minor_version,
            major_version,
            pool,
            access_flags,
            this_class,
            super_class,
            interfaces,
            fields,
            methods,
            attributes,
        })
    }

    /// The bytes the class was parsed from.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The class file's major version (52: Java 8, 61: Java 17).
    pub fn major_version(&self) -> u16 {
        self.major_version
    }

    /// The class file's minor version.
    pub fn minor_version(&self) -> u16 {
        self.minor_version
    }

    /// The class's constant pool, as read.
    pub fn constant_pool(&self) -> &ConstantPool<'a> {
        &self.pool
    }

    /// The class's access flags (`access::ACC_*`).
    pub fn access_flags(&self) -> u16 {
        self.access_flags
    }

    /// The pool index of the class's own Class entry.
    pub fn this_class_index(&self) -> u16 {
        self.this_class
    }

    /// 0 for `java/lang/Object` and `module-info`.
    pub fn super_class_index(&self) -> u16 {
        self.super_class
    }

    /// Internal name of this class, `com/example/Foo$Bar`.
    pub fn this_class(&self) -> Result<Cow<'a, str>> {
        self.pool.class_name(self.this_class)
    }

    /// Internal name of the superclass; `None` for `java/lang/Object` and modules.
    pub fn super_class(&self) -> Result<Option<Cow<'a, str>>> {
        if self.super_class == 0 {
            return Ok(None);
        }
        self.pool.class_name(self.super_class).map(Some)
    }

    /// The pool indexes of the Class entries of the interfaces the class implements.
    pub fn interface_indexes(&self) -> &[u16] {
        &self.interfaces
    }

    /// The internal names of the interfaces the class implements.
    pub fn interfaces(&self) -> Result<Vec<Cow<'a, str>>> {
        self.interfaces.iter().map(|&i| self.pool.class_name(i)).collect()
    }

    /// The class's fields, in file order.
    pub fn fields(&self) -> &[Member<'a>] {
        &self.fields
    }

    /// The class's methods, in file order.
    pub fn methods(&self) -> &[Member<'a>] {
        &self.methods
    }

    /// The class's own attributes, in file order.
    pub fn attributes(&self) -> &[Attribute<'a>] {
        &self.attributes
    }

    /// The class's annotations, visible then invisible.
    pub fn annotations(&self) -> Result<Vec<Annotation<'a>>> {
        annotations::annotations_in(&self.attributes, &self.pool)
    }

    /// The annotations of a field or method of this class.
    pub fn member_annotations(&self, member: &Member<'a>) -> Result<Vec<Annotation<'a>>> {
        annotations::annotations_in(&member.attributes, &self.pool)
    }

    /// A method's parameter annotations, one list per parameter the attributes cover.
    /// Note that javac may leave out synthetic and implicit parameters.
    pub fn parameter_annotations(&self, method: &Member<'a>) -> Result<Vec<Vec<Annotation<'a>>>> {
        annotations::parameter_annotations_in(&method.attributes, &self.pool)
    }

    /// The default value of an annotation interface element.
    pub fn annotation_default(&self, method: &Member<'a>) -> Result<Option<ElementValue<'a>>> {
        annotations::annotation_default_in(&method.attributes, &self.pool)
    }

    /// A method's Code attribute; `None` for abstract and native methods.
    pub fn code(&self, method: &Member<'a>) -> Result<Option<CodeAttribute<'a>>> {
        match attribute::find(&method.attributes, name::CODE) {
            Some(code) => CodeAttribute::parse(code, &self.pool).map(Some),
            None => Ok(None),
        }
    }

    /// The method called `name` with descriptor `descriptor`.
    pub fn method(&self, name: &str, descriptor: &str) -> Option<&Member<'a>> {
        self.methods.iter().find(|m| m.name_is(name) && m.descriptor_is(descriptor))
    }
}

impl<'a> Member<'a> {
    /// The member's name.
    pub fn name(&self) -> Result<Cow<'a, str>> {
        decode(self.name, self.offset + 2)
    }

    /// The member's descriptor.
    pub fn descriptor(&self) -> Result<Cow<'a, str>> {
        decode(self.descriptor, self.offset + 4)
    }

    /// Compares the name without decoding it.
    pub fn name_is(&self, name: &str) -> bool {
        *mutf8::encode(name) == *self.name
    }

    /// Whether the member's descriptor is `descriptor` (compared as bytes, nothing decoded).
    pub fn descriptor_is(&self, descriptor: &str) -> bool {
        *mutf8::encode(descriptor) == *self.descriptor
    }

    /// The member's attribute named `name`, if it has one.
    pub fn attribute(&self, name: &str) -> Option<Attribute<'a>> {
        attribute::find(&self.attributes, name)
    }
}

fn decode(bytes: &[u8], at: usize) -> Result<Cow<'_, str>> {
    mutf8::decode(bytes).ok_or_else(|| ClassFileError::malformed(at, "a name is not valid modified UTF-8"))
}

/// Reads `fields_count` or `methods_count` and the members after it, kept
/// when `KEEP`. Otherwise a member whose bytes are those of `originals` at
/// its index is skipped, and each other one is added to `changed` (if any)
/// with its index.
fn read_members<'a, const KEEP: bool>(
    r: &mut Reader<'a>,
    pool: &ConstantPool<'a>,
    originals: &[Member<'_>],
    mut changed: Option<&mut Vec<(usize, Member<'a>)>>,
) -> Result<Vec<Member<'a>>> {
    let count = r.count(8)?;
    let mut members = Vec::with_capacity(if KEEP { count } else { 0 });
    for index in 0..count {
        if originals.get(index).is_some_and(|original| r.skip_if_next(original.raw)) {
            continue;
        }
        if KEEP {
            members.push(read_member::<true>(r, pool)?);
        } else if let Some(changed) = changed.as_deref_mut() {
            changed.push((index, read_member::<true>(r, pool)?));
        } else {
            read_member::<false>(r, pool)?;
        }
    }
    Ok(members)
}

/// One `field_info` or `method_info`; with `KEEP` false its attributes are
/// checked and not kept.
#[inline]
fn read_member<'a, const KEEP: bool>(r: &mut Reader<'a>, pool: &ConstantPool<'a>) -> Result<Member<'a>> {
    let offset = r.offset();
    let start = r.position();
    let access_flags = r.u16()?;
    let name_index = r.u16()?;
    let name = ConstantPool::at(pool.utf8_bytes(name_index), offset + 2)?;
    let descriptor_index = r.u16()?;
    let descriptor = ConstantPool::at(pool.utf8_bytes(descriptor_index), offset + 4)?;
    let attributes = read_attributes_keeping::<KEEP>(r, pool)?;
    let raw = if KEEP { r.data().get(start..r.position()).unwrap_or_default() } else { &[] };
    Ok(Member { offset, raw, access_flags, name_index, descriptor_index, name, descriptor, attributes })
}
