//! Annotations (JVMS 4.7.16–4.7.22), decoded into values with their constants
//! resolved. Nesting is bounded so that hostile input cannot exhaust the stack.
#![forbid(unsafe_code)]

use crate::read::attribute::{self, name, Attribute};
use crate::read::constant_pool::{Constant, ConstantPool};
use crate::read::error::{ClassFileError, Result};
use crate::read::reader::Reader;
use std::borrow::Cow;

/// Deeper nesting of annotations in annotations or arrays is refused.
const MAX_DEPTH: usize = 64;

/// One annotation: its type and its element/value pairs in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct Annotation<'a> {
    /// Field descriptor of the annotation type, `Lcom/example/Foo;`.
    pub type_descriptor: Cow<'a, str>,
    /// Each element's name and value, in file order.
    pub elements: Vec<(Cow<'a, str>, ElementValue<'a>)>,
    /// From a `RuntimeVisible…` attribute (retention RUNTIME) rather than an invisible one.
    pub visible: bool,
}

impl<'a> Annotation<'a> {
    /// The value of element `name`, if the annotation gives one.
    pub fn element(&self, name: &str) -> Option<&ElementValue<'a>> {
        self.elements.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

/// An element value (JVMS 4.7.16.1).
#[derive(Debug, Clone, PartialEq)]
// The element values of JVMS 4.7.16.1, by their types.
#[allow(missing_docs)]
pub enum ElementValue<'a> {
    Byte(i8),
    Char(u16),
    Short(i16),
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
    Boolean(bool),
    String(Cow<'a, str>),
    /// An enum constant: the enum's field descriptor and the constant's name.
    Enum {
        type_descriptor: Cow<'a, str>,
        name: Cow<'a, str>,
    },
    /// A class literal, as a return descriptor (`Ljava/lang/String;`, `I`, `V`).
    Class(Cow<'a, str>),
    Annotation(Box<Annotation<'a>>),
    Array(Vec<ElementValue<'a>>),
}

/// Visible then invisible annotations from a list of attributes.
pub fn annotations_in<'a>(attributes: &[Attribute<'a>], pool: &ConstantPool<'a>) -> Result<Vec<Annotation<'a>>> {
    let mut out = Vec::new();
    for (attribute_name, visible) in
        [(name::RUNTIME_VISIBLE_ANNOTATIONS, true), (name::RUNTIME_INVISIBLE_ANNOTATIONS, false)]
    {
        for attribute in attributes.iter().filter(|a| a.is(attribute_name)) {
            let mut r = attribute.reader();
            out.extend(read_annotation_list(&mut r, pool, visible)?);
            r.finish()?;
        }
    }
    Ok(out)
}

/// Parameter annotations, visible and invisible merged: one list per parameter
/// that the attributes describe (the longer attribute decides the length).
pub fn parameter_annotations_in<'a>(
    attributes: &[Attribute<'a>],
    pool: &ConstantPool<'a>,
) -> Result<Vec<Vec<Annotation<'a>>>> {
    let mut out: Vec<Vec<Annotation<'a>>> = Vec::new();
    for (attribute_name, visible) in
        [(name::RUNTIME_VISIBLE_PARAMETER_ANNOTATIONS, true), (name::RUNTIME_INVISIBLE_PARAMETER_ANNOTATIONS, false)]
    {
        if let Some(attribute) = attribute::find(attributes, attribute_name) {
            let mut r = attribute.reader();
            let count = usize::from(r.u8()?);
            if out.len() < count {
                out.resize_with(count, Vec::new);
            }
            for parameter in out.iter_mut().take(count) {
                parameter.extend(read_annotation_list(&mut r, pool, visible)?);
            }
            r.finish()?;
        }
    }
    Ok(out)
}

/// The `AnnotationDefault` of an annotation interface method.
pub fn annotation_default_in<'a>(
    attributes: &[Attribute<'a>],
    pool: &ConstantPool<'a>,
) -> Result<Option<ElementValue<'a>>> {
    let Some(attribute) = attribute::find(attributes, name::ANNOTATION_DEFAULT) else { return Ok(None) };
    let mut r = attribute.reader();
    let value = read_element_value(&mut r, pool, true, 0)?;
    r.finish()?;
    Ok(Some(value))
}

fn read_annotation_list<'a>(r: &mut Reader<'a>, pool: &ConstantPool<'a>, visible: bool) -> Result<Vec<Annotation<'a>>> {
    let count = r.count(4)?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(read_annotation(r, pool, visible, 0)?);
    }
    Ok(out)
}

pub(crate) fn read_annotation<'a>(
    r: &mut Reader<'a>,
    pool: &ConstantPool<'a>,
    visible: bool,
    depth: usize,
) -> Result<Annotation<'a>> {
    if depth > MAX_DEPTH {
        return Err(ClassFileError::malformed(r.offset(), format!("annotations nested deeper than {MAX_DEPTH}")));
    }
    let type_descriptor = utf8_at(r, pool)?;
    let count = r.count(3)?;
    let mut elements = Vec::with_capacity(count);
    for _ in 0..count {
        let name = utf8_at(r, pool)?;
        elements.push((name, read_element_value(r, pool, visible, depth + 1)?));
    }
    Ok(Annotation { type_descriptor, elements, visible })
}

fn utf8_at<'a>(r: &mut Reader<'a>, pool: &ConstantPool<'a>) -> Result<Cow<'a, str>> {
    let at = r.offset();
    ConstantPool::at(pool.utf8(r.u16()?), at)
}

fn read_element_value<'a>(
    r: &mut Reader<'a>,
    pool: &ConstantPool<'a>,
    visible: bool,
    depth: usize,
) -> Result<ElementValue<'a>> {
    if depth > MAX_DEPTH {
        return Err(ClassFileError::malformed(r.offset(), format!("annotation values nested deeper than {MAX_DEPTH}")));
    }
    let at = r.offset();
    let tag = r.u8()?;
    let constant = |r: &mut Reader<'a>| -> Result<Constant<'a>> {
        let at = r.offset();
        ConstantPool::at(pool.get(r.u16()?), at)
    };
    let mistyped = || {
        ClassFileError::malformed(at, format!("element value '{}' points at a constant of the wrong kind", tag as char))
    };
    Ok(match tag {
        b'B' | b'C' | b'I' | b'S' | b'Z' => {
            let Constant::Integer(v) = constant(r)? else { return Err(mistyped()) };
            match tag {
                b'B' => ElementValue::Byte(v as i8),
                b'C' => ElementValue::Char(v as u16),
                b'S' => ElementValue::Short(v as i16),
                b'Z' => ElementValue::Boolean(v != 0),
                _ => ElementValue::Int(v),
            }
        }
        b'J' => match constant(r)? {
            Constant::Long(v) => ElementValue::Long(v),
            _ => return Err(mistyped()),
        },
        b'F' => match constant(r)? {
            Constant::Float(bits) => ElementValue::Float(f32::from_bits(bits)),
            _ => return Err(mistyped()),
        },
        b'D' => match constant(r)? {
            Constant::Double(bits) => ElementValue::Double(f64::from_bits(bits)),
            _ => return Err(mistyped()),
        },
        b's' => ElementValue::String(utf8_at(r, pool)?),
        b'e' => ElementValue::Enum { type_descriptor: utf8_at(r, pool)?, name: utf8_at(r, pool)? },
        b'c' => ElementValue::Class(utf8_at(r, pool)?),
        b'@' => ElementValue::Annotation(Box::new(read_annotation(r, pool, visible, depth + 1)?)),
        b'[' => {
            let count = r.count(3)?;
            let mut values = Vec::with_capacity(count);
            for _ in 0..count {
                values.push(read_element_value(r, pool, visible, depth + 1)?);
            }
            ElementValue::Array(values)
        }
        other => return Err(ClassFileError::malformed(at, format!("unknown element value tag {other}"))),
    })
}

/// Skips one annotation without resolving anything (used to copy type
/// annotations whose targets are relocated).
pub(crate) fn skip_annotation(r: &mut Reader<'_>, depth: usize) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(ClassFileError::malformed(r.offset(), format!("annotations nested deeper than {MAX_DEPTH}")));
    }
    r.u16()?;
    let count = r.count(3)?;
    for _ in 0..count {
        r.u16()?;
        skip_element_value(r, depth + 1)?;
    }
    Ok(())
}

fn skip_element_value(r: &mut Reader<'_>, depth: usize) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(ClassFileError::malformed(r.offset(), format!("annotation values nested deeper than {MAX_DEPTH}")));
    }
    let at = r.offset();
    match r.u8()? {
        b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' | b's' | b'c' => r.skip(2),
        b'e' => r.skip(4),
        b'@' => skip_annotation(r, depth + 1),
        b'[' => {
            let count = r.count(3)?;
            (0..count).try_for_each(|_| skip_element_value(r, depth + 1))
        }
        other => Err(ClassFileError::malformed(at, format!("unknown element value tag {other}"))),
    }
}
