//! Field and method descriptors (JVMS 4.3), parsed in this one place: slot
//! sizes for stack depths, parameter types for a method's first frame, and
//! the exact types generated code and user-facing names need.
#![forbid(unsafe_code)]

use crate::read::error::{ClassFileError, Result};

/// One field type of a descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
// The base types of JVMS 4.3.2 (the stack's: int stands for the smaller ones).
#[allow(missing_docs)]
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
    /// How many local or stack slots a value of this type takes (2 for long and double).
    pub fn slots(&self) -> u16 {
        match self {
            FieldType::Long | FieldType::Double => 2,
            _ => 1,
        }
    }
}

/// A type exactly as a descriptor names it, the primitives apart (as boxing
/// and the names users read need them); [`FieldType`] is what the stack holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
// The field types of JVMS 4.3.2, by the Java names of their base types.
#[allow(missing_docs)]
pub enum JavaType<'d> {
    Boolean,
    Byte,
    Char,
    Short,
    Int,
    Long,
    Float,
    Double,
    /// A class's internal name (`java/lang/String`) or an array's whole descriptor (`[I`).
    Reference(&'d str),
}

impl<'d> JavaType<'d> {
    /// The type as the stack holds it: `int` for the types the JVM holds as one.
    pub fn field_type(self) -> FieldType<'d> {
        match self {
            JavaType::Boolean | JavaType::Byte | JavaType::Char | JavaType::Short | JavaType::Int => FieldType::Int,
            JavaType::Long => FieldType::Long,
            JavaType::Float => FieldType::Float,
            JavaType::Double => FieldType::Double,
            JavaType::Reference(name) => FieldType::Reference(name),
        }
    }

    /// How many local or stack slots a value of this type takes (2 for long and double).
    pub fn slots(self) -> u16 {
        match self {
            JavaType::Long | JavaType::Double => 2,
            _ => 1,
        }
    }

    /// The descriptor letter of a primitive; `L` for every reference, arrays too.
    pub fn letter(self) -> u8 {
        match self {
            JavaType::Boolean => b'Z',
            JavaType::Byte => b'B',
            JavaType::Char => b'C',
            JavaType::Short => b'S',
            JavaType::Int => b'I',
            JavaType::Long => b'J',
            JavaType::Float => b'F',
            JavaType::Double => b'D',
            JavaType::Reference(_) => b'L',
        }
    }

    /// The Java keyword of a primitive (`int`); `None` for a reference.
    pub fn keyword(self) -> Option<&'static str> {
        Some(match self {
            JavaType::Boolean => "boolean",
            JavaType::Byte => "byte",
            JavaType::Char => "char",
            JavaType::Short => "short",
            JavaType::Int => "int",
            JavaType::Long => "long",
            JavaType::Float => "float",
            JavaType::Double => "double",
            JavaType::Reference(_) => return None,
        })
    }
}

fn bad(descriptor: &str) -> ClassFileError {
    ClassFileError::malformed_unlocated(format!("bad descriptor '{descriptor}'"))
}

/// Reads one type at the start of `text`, returning it and the rest: the
/// grammar of JVMS 4.3.2, in this one place.
fn java_type<'d>(text: &'d str, whole: &str) -> Result<(JavaType<'d>, &'d str)> {
    let first = text.as_bytes().first().copied().ok_or_else(|| bad(whole))?;
    let rest = text.get(1..).unwrap_or_default();
    Ok(match first {
        b'Z' => (JavaType::Boolean, rest),
        b'B' => (JavaType::Byte, rest),
        b'C' => (JavaType::Char, rest),
        b'S' => (JavaType::Short, rest),
        b'I' => (JavaType::Int, rest),
        b'J' => (JavaType::Long, rest),
        b'F' => (JavaType::Float, rest),
        b'D' => (JavaType::Double, rest),
        b'L' => {
            let end = semicolon(rest.as_bytes()).ok_or_else(|| bad(whole))?;
            (JavaType::Reference(rest.get(..end).unwrap_or_default()), rest.get(end + 1..).unwrap_or_default())
        }
        b'[' => {
            let dims = text.bytes().take_while(|&b| b == b'[').count();
            if dims > 255 {
                return Err(bad(whole));
            }
            let element_rest = text.get(dims..).unwrap_or_default();
            let (element, after) = java_type(element_rest, whole)?;
            if matches!(element, JavaType::Reference(n) if n.starts_with('[')) {
                return Err(bad(whole));
            }
            let len = text.len() - after.len();
            (JavaType::Reference(text.get(..len).unwrap_or_default()), after)
        }
        _ => return Err(bad(whole)),
    })
}

/// Where the first `;` of `bytes` is, eight bytes at a time: it ends the
/// class name of every reference type of every descriptor read, and names
/// are too short for `str::find`'s searcher to pay for its set-up. The
/// depth walk counts descriptors' slots with it too.
pub(crate) fn semicolon(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    const SEMICOLONS: u64 = ONES * b';' as u64;
    let (words, rest) = bytes.as_chunks::<8>();
    for (i, word) in words.iter().enumerate() {
        let w = u64::from_le_bytes(*word) ^ SEMICOLONS;
        // A high bit for each zero byte of `w`, and maybe for bytes after
        // one (`w - 1` borrows upwards from it): the lowest is exact.
        let zeros = w.wrapping_sub(ONES) & !w & HIGH_BITS;
        if zeros != 0 {
            return Some(i * 8 + (zeros.trailing_zeros() / 8) as usize);
        }
    }
    rest.iter().position(|&b| b == b';').map(|at| words.len() * 8 + at)
}

/// Reads one field type at the start of `text`, returning it and the rest.
fn field_type<'d>(text: &'d str, whole: &str) -> Result<(FieldType<'d>, &'d str)> {
    java_type(text, whole).map(|(t, rest)| (t.field_type(), rest))
}

/// The type at the start of `text` and the text after it; `None` if no type starts it.
pub fn split_type(text: &str) -> Option<(JavaType<'_>, &str)> {
    java_type(text, text).ok()
}

/// An array descriptor's dimensions and element type: `[[Ljava/lang/String;`
/// gives 2 and `java/lang/String`; `None` for anything but an array descriptor.
pub fn array_element(descriptor: &str) -> Option<(usize, JavaType<'_>)> {
    let dims = descriptor.bytes().take_while(|&b| b == b'[').count();
    match split_type(descriptor.get(dims..)?)? {
        (element, "") if dims > 0 => Some((dims, element)),
        _ => None,
    }
}

/// The internal name a class type descriptor names: `Lcom/ex/IO;` gives
/// `com/ex/IO`; `None` for a primitive or array descriptor.
pub fn class_name(descriptor: &str) -> Option<&str> {
    descriptor.strip_prefix('L')?.strip_suffix(';')
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
    /// The parameters' types, in order.
    pub parameters: Vec<FieldType<'d>>,
    /// The result's type; `None` for `void`.
    pub returns: Option<FieldType<'d>>,
}

impl MethodType<'_> {
    /// How many local slots the parameters take (`this` not counted).
    pub fn parameter_slots(&self) -> u16 {
        self.parameters.iter().map(FieldType::slots).sum()
    }

    /// How many stack slots the result takes (0 for `void`).
    pub fn return_slots(&self) -> u16 {
        self.returns.as_ref().map_or(0, FieldType::slots)
    }
}

/// Parses a method descriptor (JVMS 4.3.3).
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
    let returns = walk_method_types(descriptor, |t| each(t.field_type()))?;
    Ok(returns.map(JavaType::field_type))
}

/// [`walk_method`] with the types as the descriptor names them.
pub fn walk_method_types<'d>(
    descriptor: &'d str,
    mut each: impl FnMut(JavaType<'d>) -> Result<()>,
) -> Result<Option<JavaType<'d>>> {
    let mut rest = descriptor.strip_prefix('(').ok_or_else(|| bad(descriptor))?;
    while !rest.starts_with(')') {
        let (t, after) = java_type(rest, descriptor)?;
        each(t)?;
        rest = after;
    }
    match rest.get(1..).unwrap_or_default() {
        "V" => Ok(None),
        returned => match java_type(returned, returned)? {
            (t, "") => Ok(Some(t)),
            _ => Err(bad(returned)),
        },
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

/// The slots of the field type that starts `bytes` at `at`, and where it
/// ends; `None` where [`parse_field`] would find no type.
fn type_slots(bytes: &[u8], at: usize) -> Option<(u16, usize)> {
    let dims = bytes.get(at..)?.iter().take_while(|&&b| b == b'[').count();
    if dims > 255 {
        return None;
    }
    let element = at + dims;
    let (slots, end) = match *bytes.get(element)? {
        b'Z' | b'B' | b'C' | b'S' | b'I' | b'F' => (1, element + 1),
        b'J' | b'D' => (2, element + 1),
        // An array's element class may not be named as an array.
        b'L' if dims > 0 && bytes.get(element + 1) == Some(&b'[') => return None,
        b'L' => (1, element + 1 + semicolon(bytes.get(element + 1..)?)? + 1),
        _ => return None,
    };
    Some((if dims > 0 { 1 } else { slots }, end))
}

/// [`parse_field`]'s slots, counted on a descriptor's bytes as the pool
/// holds them (plain ASCII): every field access the depth pass meets first
/// in a class needs them, and parsing the type cost more than the rest of
/// the look-up. `None` where the parse
/// fails (its error is then the parse's).
pub fn field_slots_of_bytes(bytes: &[u8]) -> Option<i32> {
    let (slots, end) = type_slots(bytes, 0)?;
    (end == bytes.len()).then_some(i32::from(slots))
}

/// [`method_slot_sizes`], counted on the bytes (see
/// [`field_slots_of_bytes`]); `None` where it fails.
pub fn method_slots_of_bytes(bytes: &[u8]) -> Option<(i32, i32)> {
    if bytes.first() != Some(&b'(') {
        return None;
    }
    let (mut parameters, mut at) = (0u16, 1usize);
    while *bytes.get(at)? != b')' {
        let (slots, end) = type_slots(bytes, at)?;
        parameters = parameters.wrapping_add(slots);
        at = end;
    }
    let returns = match bytes.get(at + 1..)? {
        b"V" => 0,
        _ => {
            let (slots, end) = type_slots(bytes, at + 1)?;
            if end != bytes.len() {
                return None;
            }
            slots
        }
    };
    Some((i32::from(parameters), i32::from(returns)))
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
    fn keeps_the_primitives_apart_where_asked() {
        let mut parameters = Vec::new();
        let returns = walk_method_types("(ZBCSI[ZLa/B;)C", |t| {
            parameters.push(t);
            Ok(())
        })
        .unwrap();
        use JavaType::*;
        assert_eq!(parameters, [Boolean, Byte, Char, Short, Int, Reference("[Z"), Reference("a/B")]);
        assert_eq!(returns, Some(Char));
        let letters: Vec<u8> = parameters.iter().map(|t| t.letter()).collect();
        assert_eq!(letters, *b"ZBCSILL");
        assert_eq!(parameters.iter().map(|t| t.field_type()).filter(|t| *t == FieldType::Int).count(), 5);
        assert_eq!((Long.slots(), Double.keyword(), Reference("a/B").keyword()), (2, Some("double"), None));
    }

    #[test]
    fn the_first_semicolon_is_found_as_a_byte_loop_finds_it() {
        // Every place in texts of 0 to 19 bytes, among bytes that differ from
        // `;` in one bit, the high bit among them, and a second `;` after.
        for len in 0..20 {
            for at in 0..=len {
                for filler in [b'a', b';' ^ 0x80, b';' ^ 0x01, 0x3A, 0x00, 0xFF] {
                    let mut text = vec![filler; len];
                    if at < len {
                        text[at] = b';';
                        text[len - 1] = b';';
                    }
                    assert_eq!(semicolon(&text), text.iter().position(|&b| b == b';'), "{text:?}");
                }
            }
        }
    }

    #[test]
    fn splits_types_arrays_and_class_names() {
        assert_eq!(split_type("[[JI"), Some((JavaType::Reference("[[J"), "I")));
        assert_eq!(split_type("Q"), None);
        assert_eq!(array_element("[[Ljava/lang/String;"), Some((2, JavaType::Reference("java/lang/String"))));
        assert_eq!(array_element("[I"), Some((1, JavaType::Int)));
        assert_eq!(array_element("I"), None);
        assert_eq!(array_element("[II"), None);
        assert_eq!(class_name("Lcom/ex/IO;"), Some("com/ex/IO"));
        assert_eq!(class_name("[Lcom/ex/IO;"), None);
    }

    #[test]
    fn refuses_broken_descriptors() {
        for bad in ["", "(", "(I", "(Ljava/lang/String)V", "()", "()VV", "(Q)V", "I"] {
            assert!(parse_method(bad).is_err(), "{bad}");
        }
    }

    /// Every string of up to `max_len` characters of `alphabet`.
    fn every_string(alphabet: &[u8], max_len: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..max_len {
            last = last.iter().flat_map(|s| alphabet.iter().map(move |&c| format!("{s}{}", c as char))).collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn slots_counted_on_the_bytes_are_the_parsed_descriptors_and_fail_where_parsing_fails() {
        let mut descriptors = every_string(b"()[LJDIV;Z", 5);
        descriptors.extend(
            [
                "(Ljava/lang/String;[[DJ)[Ljava/lang/Object;",
                "(IJLjava/util/List;)J",
                "([J[[Ljava/lang/String;D)D",
                "(L;)V",
                "(La)b;[La);)La(;",
                "(Ljava/lang/String)V",
                "(I)VV",
                "(I)",
                "Ljava/lang/String;",
                "Ljava/lang/String;J",
                "[[[[J",
                "[L[a;",
                "([L[;)V",
            ]
            .map(String::from),
        );
        // Class names of every length up to a few words, at every alignment,
        // ended or not: the `;` is looked for eight bytes at a time.
        for prefix in ["(", "(I", "(JZ", "([[", "(BCSI", "(IIIIIII", "Ljava/la"] {
            for len in 0..=27 {
                let name: String = (0..len).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
                descriptors.push(format!("{prefix}L{name};)V"));
                descriptors.push(format!("{prefix}L{name})V"));
                descriptors.push(format!("{prefix})L{name};"));
                descriptors.push(format!("{prefix})L{name}"));
                descriptors.push(format!("L{name};"));
                descriptors.push(format!("[L{name};"));
                descriptors.push(format!("L{name}"));
            }
        }
        descriptors.push(format!("({}I)V", "[".repeat(255)));
        descriptors.push(format!("({}I)V", "[".repeat(256)));
        descriptors.push(format!("{}J", "[".repeat(256)));
        for d in &descriptors {
            let parsed = method_slot_sizes(d).ok();
            assert_eq!(method_slots_of_bytes(d.as_bytes()), parsed, "method {d:?}");
            let parsed = parse_field(d).ok().map(|t| i32::from(t.slots()));
            assert_eq!(field_slots_of_bytes(d.as_bytes()), parsed, "field {d:?}");
        }
    }
}
