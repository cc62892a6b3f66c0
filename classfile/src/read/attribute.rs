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
#[allow(missing_docs)] // each the attribute's name in JVMS 4.7
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
    /// The pool index of the attribute's name.
    pub name_index: u16,
    /// The name's raw modified-UTF-8 bytes.
    pub name: &'a [u8],
    /// Offset of `attribute_name_index` in the file.
    pub offset: usize,
    /// The whole attribute as written: name index, length and content.
    pub raw: &'a [u8],
}

impl<'a> Attribute<'a> {
    /// Whether the attribute's name is `name` (compared as bytes, nothing decoded).
    pub fn is(&self, name: &str) -> bool {
        self.name == name.as_bytes()
    }

    /// The attribute's name as text.
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
        // Every attribute of a well-formed file is whole: its header and
        // content are taken in one bounds check, and only one cut short is
        // read field by field, to report where.
        let offset = reader.offset();
        let attribute = match reader.sized_item() {
            Some((name_index, raw)) => {
                let name = ConstantPool::at(pool.utf8_bytes(name_index), offset)?;
                Attribute { name_index, name, offset, raw }
            }
            None => read_attribute(reader, pool)?,
        };
        if KEEP {
            attributes.push(attribute);
        }
    }
    Ok(attributes)
}

/// One attribute read field by field: what [`read_attributes_keeping`]
/// reads at once, and how it reports an attribute cut short.
#[cold]
#[inline(never)]
fn read_attribute<'a>(reader: &mut Reader<'a>, pool: &ConstantPool<'a>) -> Result<Attribute<'a>> {
    let offset = reader.offset();
    let start = reader.position();
    let name_index = reader.u16()?;
    let name = ConstantPool::at(pool.utf8_bytes(name_index), offset)?;
    let len = reader.u32()? as usize;
    reader.skip(len)?;
    let raw = reader.data().get(start..reader.position()).unwrap_or_default();
    Ok(Attribute { name_index, name, offset, raw })
}

/// The first attribute called `name`.
pub fn find<'a>(attributes: &[Attribute<'a>], name: &str) -> Option<Attribute<'a>> {
    attributes.iter().find(|a| a.is(name)).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Attributes read field by field, as they were before the fast path.
    fn read_plainly<'a>(reader: &mut Reader<'a>, pool: &ConstantPool<'a>) -> Result<Vec<Attribute<'a>>> {
        let count = reader.count(6)?;
        (0..count).map(|_| read_attribute(reader, pool)).collect()
    }

    #[test]
    fn attributes_read_at_once_are_those_read_field_by_field() {
        // #1 Utf8 "Code", #2 Integer 5.
        let pool_bytes = [0, 3, 1, 0, 4, b'C', b'o', b'd', b'e', 3, 0, 0, 0, 5];
        let pool = ConstantPool::parse(&mut Reader::new(&pool_bytes)).expect("a well-formed pool");
        let well_formed: &[u8] = &[0, 2, 0, 1, 0, 0, 0, 3, 7, 8, 9, 0, 1, 0, 0, 0, 0];
        let mut lists = vec![well_formed.to_vec()];
        for (at, value) in [(3, 2), (3, 9), (11, 2), (4, 0xFF), (12, 0xFF), (7, 4), (7, 2)] {
            let mut list = well_formed.to_vec();
            list[at] = value;
            lists.push(list);
        }
        for list in &lists {
            for len in 0..=list.len() {
                let bytes = &list[..len];
                let (mut fast, mut plain) = (Reader::at_offset(bytes, 100), Reader::at_offset(bytes, 100));
                let read = read_attributes(&mut fast, &pool);
                let expected = read_plainly(&mut plain, &pool);
                assert_eq!(read, expected, "{bytes:?}");
                if read.is_ok() {
                    assert_eq!(fast.offset(), plain.offset(), "{bytes:?}");
                }
                let checked = read_attributes_keeping::<false>(&mut Reader::at_offset(bytes, 100), &pool);
                assert_eq!(checked.map(|_| ()), expected.map(|_| ()), "{bytes:?}");
            }
        }
        let read = read_attributes(&mut Reader::at_offset(well_formed, 100), &pool).expect("two attributes");
        assert_eq!(read.iter().map(|a| (a.name, a.offset, a.data())).collect::<Vec<_>>(), [
            (&b"Code"[..], 102, &[7, 8, 9][..]),
            (&b"Code"[..], 111, &[][..])
        ]);
    }
}
