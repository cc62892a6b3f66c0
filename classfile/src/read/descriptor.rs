//! Field and method descriptors (JVMS 4.3), as far as the engine needs them:
//! slot sizes for stack depths, and parameter types for a method's first frame.
#![forbid(unsafe_code)]

use crate::read::error::{ClassFileError, Result};

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

/// A method descriptor's parameter types and return type as texts:
/// `(IJ)V` gives `IJ` and `V`. The `)` that ends the parameters is found by
/// reading them, not by searching: a class name may hold one (JVMS 4.2.1
/// forbids only `.`, `;`, `[` and `/` in its parts).
pub fn split_method(descriptor: &str) -> Option<(&str, &str)> {
    let end = parameters_end(descriptor)?;
    Some((descriptor.get(1..end)?, descriptor.get(end + 1..)?))
}

/// Where the `)` that ends a method descriptor's parameters is.
pub fn parameters_end(descriptor: &str) -> Option<usize> {
    let mut rest = descriptor.strip_prefix('(')?;
    while !rest.starts_with(')') {
        rest = field_type(rest, descriptor).ok()?.1;
    }
    Some(descriptor.len() - rest.len())
}

/// Where the `)` that ends a generic method signature's parameters (JVMS
/// 4.7.9.1) is: `<T:Ljava/lang/Object;>(TT;Ljava/util/List<TT;>;)V` → 36.
/// Names in a signature hold no `<`, `>` or `;`, but may hold a `)`.
pub fn signature_parameters_end(signature: &str) -> Option<usize> {
    let bytes = signature.as_bytes();
    let mut at = 0;
    // Type parameters: up to the matching `>`.
    if bytes.first() == Some(&b'<') {
        let mut depth = 0usize;
        loop {
            match bytes.get(at)? {
                b'<' => depth += 1,
                b'>' => depth -= 1,
                _ => {}
            }
            at += 1;
            if depth == 0 {
                break;
            }
        }
    }
    if bytes.get(at) != Some(&b'(') {
        return None;
    }
    at += 1;
    while *bytes.get(at)? != b')' {
        while bytes.get(at) == Some(&b'[') {
            at += 1;
        }
        match bytes.get(at)? {
            b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' => at += 1,
            // A type variable or a class type, whose type arguments nest:
            // its own `;` is the first outside every `<…>`.
            b'T' | b'L' => {
                let mut depth = 0usize;
                loop {
                    at += 1;
                    match bytes.get(at)? {
                        b'<' => depth += 1,
                        b'>' => depth = depth.checked_sub(1)?,
                        b';' if depth == 0 => break,
                        _ => {}
                    }
                }
                at += 1;
            }
            _ => return None,
        }
    }
    Some(at)
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
    fn splits_at_the_parenthesis_that_ends_the_parameters() {
        assert_eq!(split_method("(IJ)V"), Some(("IJ", "V")));
        assert_eq!(split_method("()[I"), Some(("", "[I")));
        assert_eq!(split_method("(La)b;[La);)La(;"), Some(("La)b;[La);", "La(;")));
        assert_eq!(split_method("(I"), None);
        assert_eq!(split_method("IJ)V"), None);
    }

    #[test]
    fn finds_where_a_generic_signatures_parameters_end() {
        fn end(s: &str) -> Option<&str> {
            signature_parameters_end(s).map(|at| &s[at..])
        }
        assert_eq!(end("<T:Ljava/lang/Object;>(TT;Ljava/util/List<TT;>;)V"), Some(")V"));
        assert_eq!(end("(Ljava/util/Map<Ljava/lang/String;[I>;[[TT;JZ)TT;"), Some(")TT;"));
        assert_eq!(end("<T::Ljava/lang/Comparable<-TT;>;>(Ljava/util/List<+TT;>;Lp/a)b<*>;)V"), Some(")V"));
        assert_eq!(end("(La)b;)V"), Some(")V"));
        for bad in ["", "<T:Ljava/lang/Object;", "(I", "(Ljava/util/List<TT;;)V", "(Q)V", "(La>;)V"] {
            assert_eq!(signature_parameters_end(bad), None, "{bad}");
        }
    }

    #[test]
    fn refuses_broken_descriptors() {
        for bad in ["", "(", "(I", "(Ljava/lang/String)V", "()", "()VV", "(Q)V", "I"] {
            assert!(parse_method(bad).is_err(), "{bad}");
        }
    }
}
