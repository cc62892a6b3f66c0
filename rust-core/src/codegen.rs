//! Instruction sequences that the schema and tracegen stages both emit:
//! constants, loads by type, boxing, and `Object[]` of a method's arguments.
#![forbid(unsafe_code)]

use crate::classfile::descriptor;
use crate::classfile::opcodes as op;
use crate::classfile::{ClassFileError, ConstantSource, Insn, InsnSink};
use crate::classfile::Result;

pub use crate::classfile::descriptor::JavaType;

/// `(box class, descriptor of its valueOf)` of a primitive type.
fn boxing(t: JavaType<'_>) -> Option<(&'static str, &'static str)> {
    Some(match t {
        JavaType::Boolean => ("java/lang/Boolean", "(Z)Ljava/lang/Boolean;"),
        JavaType::Byte => ("java/lang/Byte", "(B)Ljava/lang/Byte;"),
        JavaType::Char => ("java/lang/Character", "(C)Ljava/lang/Character;"),
        JavaType::Short => ("java/lang/Short", "(S)Ljava/lang/Short;"),
        JavaType::Int => ("java/lang/Integer", "(I)Ljava/lang/Integer;"),
        JavaType::Long => ("java/lang/Long", "(J)Ljava/lang/Long;"),
        JavaType::Float => ("java/lang/Float", "(F)Ljava/lang/Float;"),
        JavaType::Double => ("java/lang/Double", "(D)Ljava/lang/Double;"),
        JavaType::Reference(_) => return None,
    })
}

/// The name of the boxing methods, `Integer.valueOf(int)` and the others.
const VALUE_OF: &str = "valueOf";

/// The names boxing adds to a pool: each box class, its `valueOf` and that
/// method's descriptor.
pub fn boxing_texts() -> impl Iterator<Item = &'static str> {
    use JavaType::*;
    [Boolean, Byte, Char, Short, Int, Long, Float, Double]
        .into_iter()
        .filter_map(boxing)
        .flat_map(|(class, value_of)| [class, VALUE_OF, value_of])
}

/// A method descriptor's parameter and return types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature<'d> {
    /// The parameter types, in order.
    pub parameters: Vec<JavaType<'d>>,
    /// `None` for void.
    pub returns: Option<JavaType<'d>>,
}

impl<'d> Signature<'d> {
    /// The types in a method descriptor (`(ILjava/lang/String;)V`); a malformed
    /// descriptor is an error.
    pub fn parse(descriptor: &'d str) -> Result<Self> {
        // Each parameter takes a byte at least, past `(`, `)` and the result:
        // room made once for up to eight, none for a method without any.
        let mut parameters = Vec::with_capacity(descriptor.len().saturating_sub(3).min(8));
        let returns = descriptor::walk_method_types(descriptor, |t| {
            parameters.push(t);
            Ok(())
        })
        .map_err(|_| ClassFileError::malformed_unlocated(format!("bad method descriptor '{descriptor}'")))?;
        Ok(Signature { parameters, returns })
    }

    /// Local slots the parameters take (without `this`).
    pub fn parameter_slots(&self) -> u16 {
        self.parameters.iter().map(|t| t.slots()).sum()
    }
}

/// Pushes an int constant with the shortest instruction.
pub fn push_int(value: i32, pool: &mut impl ConstantSource) -> Result<Insn> {
    Ok(match i16::try_from(value) {
        Ok(v) => Insn::int_constant(v),
        Err(_) => Insn::Ldc { opcode: op::LDC, index: pool.integer(value)? },
    })
}

/// Loads the local at `slot` with the load instruction for type `t`.
pub fn load(t: JavaType<'_>, slot: u16) -> Insn {
    Insn::Local { opcode: op::load_of(t), index: slot, wide: false }
}

/// Stores the top of the stack into the local at `slot` with the store
/// instruction for type `t`.
pub fn store(t: JavaType<'_>, slot: u16) -> Insn {
    Insn::Local { opcode: op::store_of(t), index: slot, wide: false }
}

/// Loads the reference in the local at `slot`.
pub fn aload(slot: u16) -> Insn {
    Insn::Local { opcode: op::ALOAD, index: slot, wide: false }
}

/// Stores the reference on top of the stack into the local at `slot`.
pub fn astore(slot: u16) -> Insn {
    Insn::Local { opcode: op::ASTORE, index: slot, wide: false }
}

/// Boxes the value on the stack if `t` is primitive.
pub fn box_value(t: JavaType<'_>, pool: &mut impl ConstantSource, out: &mut impl InsnSink) -> Result<()> {
    if let Some((class, value_of)) = boxing(t) {
        let index = pool.method_ref(class, VALUE_OF, value_of)?;
        out.push(Insn::Pool { opcode: op::INVOKESTATIC, index });
    }
    Ok(())
}

/// `new Object[] { args… }` from the parameters in their slots, starting at
/// `first_slot`; a parameter whose slot is the first of a pair in `kept_in`
/// is read from the second (where its value was kept); a parameter whose index
/// is in `redacted` is replaced by `redacted_marker` (a getstatic of the
/// runtime's marker).
pub fn argument_array(
    parameters: &[JavaType<'_>],
    first_slot: u16,
    kept_in: &[(u16, u16)],
    redacted: &[usize],
    redacted_marker: Option<Insn>,
    pool: &mut impl ConstantSource,
    out: &mut impl InsnSink,
) -> Result<()> {
    let object = pool.class("java/lang/Object")?;
    let count = i32::try_from(parameters.len()).unwrap_or(i32::MAX);
    out.push_all([push_int(count, pool)?, Insn::Pool { opcode: op::ANEWARRAY, index: object }]);
    let mut slot = first_slot;
    for (i, t) in parameters.iter().enumerate() {
        out.push(Insn::Simple(op::DUP));
        out.push(push_int(i32::try_from(i).unwrap_or(i32::MAX), pool)?);
        match (&redacted_marker, redacted.contains(&i)) {
            (Some(marker), true) => out.push(marker.clone()),
            _ => {
                let from = kept_in.iter().find(|(parameter, _)| *parameter == slot).map_or(slot, |&(_, copy)| copy);
                out.push(load(*t, from));
                box_value(*t, pool, out)?;
            }
        }
        out.push(Insn::Simple(op::AASTORE));
        slot += t.slots();
    }
    Ok(())
}

/// `new T[] { … }` whose elements are each pushed by one instruction.
pub fn array_of(
    element_class: &str,
    elements: &[Insn],
    pool: &mut impl ConstantSource,
    out: &mut impl InsnSink,
) -> Result<()> {
    let class = pool.class(element_class)?;
    let count = i32::try_from(elements.len()).unwrap_or(i32::MAX);
    out.push_all([push_int(count, pool)?, Insn::Pool { opcode: op::ANEWARRAY, index: class }]);
    for (i, element) in elements.iter().enumerate() {
        out.push(Insn::Simple(op::DUP));
        out.push(push_int(i32::try_from(i).unwrap_or(i32::MAX), pool)?);
        out.push(element.clone());
        out.push(Insn::Simple(op::AASTORE));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_keep_primitive_kinds() {
        let s = Signature::parse("(ZBCSIJFD[[ILjava/lang/String;)Ljava/util/List;").unwrap();
        use JavaType::*;
        assert_eq!(
            s.parameters,
            [Boolean, Byte, Char, Short, Int, Long, Float, Double, Reference("[[I"), Reference("java/lang/String")]
        );
        assert_eq!(s.returns, Some(Reference("java/util/List")));
        assert_eq!(s.parameter_slots(), 12);
        assert_eq!(Signature::parse("()V").unwrap().returns, None);
        assert!(Signature::parse("(Q)V").is_err());
        assert!(Signature::parse("(I").is_err());
        assert!(Signature::parse("(I)").is_err());
        assert!(Signature::parse("(I)VV").is_err());
    }

    #[test]
    fn a_class_name_may_hold_a_parenthesis() {
        // JVMS 4.2.1 forbids only `.`, `;`, `[` and `/` in a name's parts.
        let s = Signature::parse("(La)b;I)La(;").unwrap();
        assert_eq!(s.parameters, [JavaType::Reference("a)b"), JavaType::Int]);
        assert_eq!(s.returns, Some(JavaType::Reference("a(")));
    }
}
