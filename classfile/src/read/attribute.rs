//! Attributes as found in the file (JVMS 4.7): a name and a byte range. Their
//! contents are decoded only by the module that owns that attribute; every
//! attribute nobody decodes is written back as these bytes.
#![forbid(unsafe_code)]

use crate::read::constant_pool::ConstantPool;
use crate::read::error::Result;
use crate::read::mutf8;
use crate::read::reader::Reader;
use std::borrow::Cow;

/// Names of the attributes the engine reads or changes.
pub mod name {
    pub const CODE: &str = "Code";
    pub const STACK_MAP_TABLE: &str = "StackMapTable";
    pub const EXCEPTIONS: &str = "Exceptions";
    pub const LINE_NUMBER_TABLE: &str = "LineNumberTable";
    pub const LOCAL_VARIABLE_TABLE: &str = "LocalVariableTable";
    pub const LOCAL_VARIABLE_TYPE_TABLE: &str = "LocalVariableTypeTable";
    pub const RUNTIME_VISIBLE_ANNOTATIONS: &str = "RuntimeVisibleAnnotations";
    pub const RUNTIME_INVISIBLE_ANNOTATIONS: &str = "RuntimeInvisibleAnnotations";
    pub const RUNTIME_VISIBLE_PARAMETER_ANNOTATIONS: &str = "RuntimeVisibleParameterAnnotations";
    pub const RUNTIME_INVISIBLE_PARAMETER_ANNOTATIONS: &str = "RuntimeInvisibleParameterAnnotations";
    pub const RUNTIME_VISIBLE_TYPE_ANNOTATIONS: &str = "RuntimeVisibleTypeAnnotations";
    pub const RUNTIME_INVISIBLE_TYPE_ANNOTATIONS: &str = "RuntimeInvisibleTypeAnnotations";
    pub const ANNOTATION_DEFAULT: &str = "AnnotationDefault";
    pub const METHOD_PARAMETERS: &str = "MethodParameters";
    pub const SIGNATURE: &str = "Signature";
    pub const BOOTSTRAP_METHODS: &str = "BootstrapMethods";
    pub const NEST_HOST: &str = "NestHost";
    pub const NEST_MEMBERS: &str = "NestMembers";
    pub const RECORD: &str = "Record";
    pub const PERMITTED_SUBCLASSES: &str = "PermittedSubclasses";
}

/// One attribute: where it is, its name, and its content bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attribute<'a> {
    pub name_index: u16,
    /// The name's raw modified-UTF-8 bytes.
    pub name: &'a [u8],
    /// Offset of `attribute_name_index` in the file.
    pub offset: usize,
    /// The whole attribute as written: name index, length and content.
    pub raw: &'a [u8],
}

impl<'a> Attribute<'a> {
    pub fn is(&self, name: &str) -> bool {
        self.name == name.as_bytes()
    }

    pub fn name(&self) -> Cow<'a, str> {
        mutf8::decode(self.name).unwrap_or(Cow::Borrowed("<invalid name>"))
    }

    /// The content after the 6-byte header.
    pub fn data(&self) -> &'a [u8] {
        self.raw.get(6..).unwrap_or_default()
    }

    /// Offset of the content in the file.
    pub fn data_offset(&self) -> usize {
        self.offset + 6
    }

    /// A reader over the content that reports absolute offsets.
    pub(crate) fn reader(&self) -> Reader<'a> {
        Reader::at_offset(self.data(), self.data_offset())
    }
}

/// Reads `attributes_count` and the attributes after it, resolving each name.
pub(crate) fn read_attributes<'a>(reader: &mut Reader<'a>, pool: &ConstantPool<'a>) -> Result<Vec<Attribute<'a>>> {
    read_attributes_keeping::<true>(reader, pool)
}

/// [`read_attributes`], or with `KEEP` false the same checks and nothing
/// kept (an empty list, never allocated).
pub(crate) fn read_attributes_keeping<'a, const KEEP: bool>(
    reader: &mut Reader<'a>,
    pool: &ConstantPool<'a>,
) -> Result<Vec<Attribute<'a>>> {
    let count = reader.count(6)?;
    let mut attributes = Vec::with_capacity(if KEEP { count } else { 0 });
    for _ in 0..count {
        let offset = reader.offset();
        let start = reader.position();
        let name_index = reader.u16()?;
        let name = ConstantPool::at(pool.utf8_bytes(name_index), offset)?;
        let len = reader.u32()? as usize;
        reader.skip(len)?;
        let raw = reader.data().get(start..reader.position()).unwrap_or_default();
        if KEEP {
            attributes.push(Attribute { name_index, name, offset, raw });
        }
    }
    Ok(attributes)
}

/// The first attribute called `name`.
pub fn find<'a>(attributes: &[Attribute<'a>], name: &str) -> Option<Attribute<'a>> {
    attributes.iter().find(|a| a.is(name)).copied()
}
