//! Annotation encoding (JVMS 4.7.16): the inverse of the read layer's
//! decoding, adding the constants an annotation names to the pool.

use crate::code::encode::Put;
use crate::read::annotations::{Annotation, ElementValue};
use crate::read::constant_pool::Constant;
use crate::read::error::{ClassFileError, Result};
use crate::write::pool_builder::PoolBuilder;

/// Appends the encoding of `annotation` (JVMS 4.7.16), adding the constants it
/// needs to `pool`.
pub fn encode_annotation(annotation: &Annotation<'_>, pool: &mut PoolBuilder<'_>, out: &mut Vec<u8>) -> Result<()> {
    out.u16(pool.utf8(&annotation.type_descriptor)?);
    let count = u16::try_from(annotation.elements.len())
        .map_err(|_| ClassFileError::limit_unlocated("an annotation with more than 65,535 elements"))?;
    out.u16(count);
    for (name, value) in &annotation.elements {
        out.u16(pool.utf8(name)?);
        encode_element_value(value, pool, out)?;
    }
    Ok(())
}

fn encode_element_value(value: &ElementValue<'_>, pool: &mut PoolBuilder<'_>, out: &mut Vec<u8>) -> Result<()> {
    let mut constant = |tag: u8, c: Constant<'static>, out: &mut Vec<u8>| -> Result<()> {
        out.u8(tag);
        out.u16(pool.add(c)?);
        Ok(())
    };
    match value {
        ElementValue::Byte(v) => constant(b'B', Constant::Integer(i32::from(*v)), out)?,
        ElementValue::Char(v) => constant(b'C', Constant::Integer(i32::from(*v)), out)?,
        ElementValue::Short(v) => constant(b'S', Constant::Integer(i32::from(*v)), out)?,
        ElementValue::Int(v) => constant(b'I', Constant::Integer(*v), out)?,
        ElementValue::Boolean(v) => constant(b'Z', Constant::Integer(i32::from(*v)), out)?,
        ElementValue::Long(v) => constant(b'J', Constant::Long(*v), out)?,
        ElementValue::Float(v) => constant(b'F', Constant::Float(v.to_bits()), out)?,
        ElementValue::Double(v) => constant(b'D', Constant::Double(v.to_bits()), out)?,
        ElementValue::String(s) => {
            out.u8(b's');
            out.u16(pool.utf8(s)?);
        }
        ElementValue::Enum { type_descriptor, name } => {
            out.u8(b'e');
            out.u16(pool.utf8(type_descriptor)?);
            out.u16(pool.utf8(name)?);
        }
        ElementValue::Class(descriptor) => {
            out.u8(b'c');
            out.u16(pool.utf8(descriptor)?);
        }
        ElementValue::Annotation(nested) => {
            out.u8(b'@');
            encode_annotation(nested, pool, out)?;
        }
        ElementValue::Array(values) => {
            out.u8(b'[');
            let count = u16::try_from(values.len())
                .map_err(|_| ClassFileError::limit_unlocated("an annotation array with more than 65,535 values"))?;
            out.u16(count);
            for v in values {
                encode_element_value(v, pool, out)?;
            }
        }
    }
    Ok(())
}
