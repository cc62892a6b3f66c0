//! Field and method descriptors (JVMS 4.3), as far as the engine needs them:
//! slot sizes for stack depths, and parameter types for a method's first frame.
#![forbid(unsafe_code)]

use super::error::{ClassFileError, Result};

/// One field type of a descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType<'d> {
    /// B, C, I, S or Z: an int on the stack.
    Int,
    Float,
    Long,
    Double,
    /// `Lname;` → the internal name; `[…` → the whole array descriptor.
    Reference(&'d str),
}

impl FieldType<'_> {
    pub fn slots(&self) -> u16 {
        match self {
            FieldType::Long | FieldType::Double => 2,
            _ => 1,
        }
    }
}

fn bad(descriptor: &str) -> ClassFileError {
    ClassFileError::malformed(0, format!("bad descriptor '{descriptor}'"))
}

/// Reads one field type at the start of `text`, returning it and the rest.
fn field_type<'d>(text: &'d str, whole: &str) -> Result<(FieldType<'d>, &'d str)> {
    let first = text.as_bytes().first().copied().ok_or_else(|| bad(whole))?;
    let rest = text.get(1..).unwrap_or_default();
    Ok(match first {
        b'B' | b'C' | b'I' | b'S' | b'Z' => (FieldType::Int, rest),
        b'F' => (FieldType::Float, rest),
        b'J' => (FieldType::Long, rest),
        b'D' => (FieldType::Double, rest),
        b'L' => {
            // Names are short: a byte loop beats `str::find`'s searcher here.
            let end = rest.bytes().position(|b| b == b';').ok_or_else(|| bad(whole))?;
            (FieldType::Reference(rest.get(..end).unwrap_or_default()), rest.get(end + 1..).unwrap_or_default())
        }
        b'[' => {
            let dims = text.bytes().take_while(|&b| b == b'[').count();
            if dims > 255 {
                return Err(bad(whole));
            }
            let element_rest = text.get(dims..).unwrap_or_default();
            let (element, after) = field_type(element_rest, whole)?;
            if matches!(element, FieldType::Reference(n) if n.starts_with('[')) {
                return Err(bad(whole));
            }
            let len = text.len() - after.len();
            (FieldType::Reference(text.get(..len).unwrap_or_default()), after)
        }
        _ => return Err(bad(whole)),
    })
}

/// Parses a field descriptor.
pub fn parse_field(descriptor: &str) -> Result<FieldType<'_>> {
    match field_type(descriptor, descriptor)? {
        (t, "") => Ok(t),
        _ => Err(bad(descriptor)),
    }
}

/// A parsed method descriptor: parameters and the return type (`None` for void).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodType<'d> {
    pub parameters: Vec<FieldType<'d>>,
    pub returns: Option<FieldType<'d>>,
}

impl MethodType<'_> {
    pub fn parameter_slots(&self) -> u16 {
        self.parameters.iter().map(FieldType::slots).sum()
    }

    pub fn return_slots(&self) -> u16 {
        self.returns.as_ref().map_or(0, FieldType::slots)
    }
}

pub fn parse_method(descriptor: &str) -> Result<MethodType<'_>> {
    let mut parameters = Vec::new();
    let returns = walk_method(descriptor, |t| {
        parameters.push(t);
        Ok(())
    })?;
    Ok(MethodType { parameters, returns })
}

/// Walks method descriptor `descriptor`: `each` gets its parameter types in
/// order, and the return type (`None` for void) is returned. What needs the
/// parameters one by one collects nothing.
pub fn walk_method<'d>(
    descriptor: &'d str,
    mut each: impl FnMut(FieldType<'d>) -> Result<()>,
) -> Result<Option<FieldType<'d>>> {
    let mut rest = descriptor.strip_prefix('(').ok_or_else(|| bad(descriptor))?;
    while !rest.starts_with(')') {
        let (t, after) = field_type(rest, descriptor)?;
        each(t)?;
        rest = after;
    }
    let rest = rest.get(1..).unwrap_or_default();
    if rest == "V" {
        Ok(None)
    } else {
        parse_field(rest).map(Some)
    }
}

/// Parameter slots and return slots of a method descriptor.
pub fn method_slot_sizes(descriptor: &str) -> Result<(i32, i32)> {
    let mut parameters: u16 = 0;
    let returns = walk_method(descriptor, |t| {
        parameters = parameters.wrapping_add(t.slots());
        Ok(())
    })?;
    Ok((i32::from(parameters), i32::from(returns.map_or(0, |t| t.slots()))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_method_descriptor() {
        let t = parse_method("(IJLjava/lang/String;[[DZ)[Ljava/lang/Object;").unwrap();
        assert_eq!(
            t.parameters,
            vec![
                FieldType::Int,
                FieldType::Long,
                FieldType::Reference("java/lang/String"),
                FieldType::Reference("[[D"),
                FieldType::Int
            ]
        );
        assert_eq!(t.parameter_slots(), 6);
        assert_eq!(t.returns, Some(FieldType::Reference("[Ljava/lang/Object;")));
        assert_eq!(parse_method("()V").unwrap().return_slots(), 0);
    }

    #[test]
    fn refuses_broken_descriptors() {
        for bad in ["", "(", "(I", "(Ljava/lang/String)V", "()", "()VV", "(Q)V", "I"] {
            assert!(parse_method(bad).is_err(), "{bad}");
        }
    }
}
