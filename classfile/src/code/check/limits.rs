//! The narrowest check: a Code attribute's max_stack and max_locals against
//! what its code is known to need, without following the code. It is sound
//! only where the caller knows the code itself passed elsewhere (tf-core:
//! a template's later copies, whose generated code is byte for byte that of
//! a copy that passed the full check).
#![forbid(unsafe_code)]

use super::{Offence, Rule};

/// A Code attribute's max_stack and max_locals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest the operand stack may get, in slots.
    pub max_stack: u16,
    /// How many local variable slots the code may use.
    pub max_locals: u16,
}

impl Limits {
    /// Those of a method that had no code: no stack, no local.
    pub const NO_CODE: Limits = Limits { max_stack: 0, max_locals: 0 };

    /// The first fields of a Code attribute's body; `None` if it is truncated.
    pub fn of_code(code: &[u8]) -> Option<Limits> {
        let header = code.get(..4)?;
        Some(Limits {
            max_stack: u16::from_be_bytes([header[0], header[1]]),
            max_locals: u16::from_be_bytes([header[2], header[3]]),
        })
    }
}

/// Whether `written` (the body of a Code attribute) declares at least the
/// `needed` max_locals and max_stack.
pub fn check_limits(written: &[u8], needed: Limits) -> Result<(), Offence> {
    let Some(limits) = Limits::of_code(written) else {
        return Err(Offence { rule: Rule::Code, offset: None, message: "the Code attribute is truncated".to_string() });
    };
    if limits.max_locals < needed.max_locals {
        return Err(Offence {
            rule: Rule::MaxLocals,
            offset: None,
            message: format!("max_locals is {} where the code uses {} local slots", limits.max_locals, needed.max_locals),
        });
    }
    if limits.max_stack < needed.max_stack {
        return Err(Offence {
            rule: Rule::MaxStack,
            offset: None,
            message: format!("max_stack is {} where the code needs {}", limits.max_stack, needed.max_stack),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The body of a Code attribute: max_stack, max_locals, then code that does not matter here.
    fn code(max_stack: u16, max_locals: u16) -> Vec<u8> {
        [max_stack.to_be_bytes(), max_locals.to_be_bytes()].concat()
    }

    #[test]
    fn fewer_locals_than_needed_are_refused() {
        let needed = Limits { max_stack: 2, max_locals: 5 };
        let offence = check_limits(&code(4, 4), needed).unwrap_err();
        assert_eq!(offence.rule, Rule::MaxLocals);
        assert_eq!(offence.message, "max_locals is 4 where the code uses 5 local slots");
        assert_eq!(check_limits(&code(4, 5), needed), Ok(()));
    }

    #[test]
    fn a_shallower_stack_than_needed_is_refused() {
        let offence = check_limits(&code(5, 5), Limits { max_stack: 6, max_locals: 5 }).unwrap_err();
        assert_eq!(offence.rule, Rule::MaxStack);
        assert_eq!(offence.message, "max_stack is 5 where the code needs 6");
    }

    #[test]
    fn a_truncated_code_attribute_is_refused() {
        let offence = check_limits(&[0, 1], Limits::NO_CODE).unwrap_err();
        assert_eq!(offence.rule, Rule::Code);
    }
}
