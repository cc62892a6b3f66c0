//! How much of a changed method the pre-write check follows.
//!
//! The full check follows every instruction of a method: as costly as
//! enhancing it. Most methods TF changes are spliced from a template
//! (`tracegen/template.rs`): their original code is copied unchanged but for
//! the returns and `athrow`s it re-encodes, and the generated code is the
//! template's, the same bytes for every method of its shape but for pool
//! indexes and the method's identifier. What such a method adds to what the
//! compiler wrote is therefore checked where it varies:
//!
//! - the generated code, once per template: the first method copied from it
//!   gets the full check, and the template remembers that it passed;
//! - the stack at every re-encoded return: the splice declines (and the full
//!   check of the general path follows) unless falling through from the frame
//!   before it leaves exactly the result there (`Splice::max_stack`);
//! - TF's locals in every frame after the prologue: the splice sets them in
//!   each frame of the model it encodes (`tracegen::add_live_locals`);
//! - max_locals and max_stack: checked here, against the template's and the
//!   original's.
//!
//! A new method made of generated code alone is copied likewise when its
//! code is the same for every method of a shape (tf-core's registration in a
//! new `<clinit>`, by its shape): the first gets the full check, the others
//! max_locals and max_stack, against no original code.
//!
//! Every other spliced method (without a template, the first of a template)
//! has only the code the splice wrote followed ([`super::spliced`]); what the
//! general path assembles gets the full check, as every method does with
//! [`PreWriteCheck::Full`]: the plain version, kept beside the targeted ones
//! as their oracle (`tests/pre_write_check_scope.rs` runs both over java.base
//! and the real-world fixtures).
#![forbid(unsafe_code)]

use super::spliced::SplicedRegions;
use super::{Offence, Rule};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How many changed methods took each check (for the tests and benchmarks
/// that compare the two); the caller keeps the sums.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CheckCounts {
    /// Methods copied from a template that passed: the targeted check.
    pub targeted: u64,
    /// Other spliced methods whose generated code alone was followed.
    pub spliced: u64,
    /// Spliced methods that check could not decide on (counted in `full` too).
    pub spliced_undecided: u64,
    /// Every other changed method: the full check.
    pub full: u64,
}

/// Which check a run applies before writing a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PreWriteCheck {
    /// The full check where an edit can break more than its template's
    /// verdict covers, the targeted one elsewhere (see the module).
    #[default]
    Targeted,
    /// Every instruction of every changed method.
    Full,
}

/// What a splice tells the pre-write check about a method it wrote.
#[derive(Debug, Clone, Default)]
pub struct SplicedMethod {
    /// The template the generated code was copied from, if it was.
    pub generated: Option<GeneratedCode>,
    /// Where the splice wrote code of its own.
    pub regions: SplicedRegions,
}

/// A template's generated code as the check found it, shared by the
/// template and every method copied from it (a worker's templates may move
/// with its workspace, hence `Arc`; only that worker reads or sets it).
#[derive(Debug, Clone)]
pub struct GeneratedCode(Arc<Verdict>);

#[derive(Debug)]
struct Verdict {
    /// A method copied from the template passed the full check.
    passed: AtomicBool,
    /// The template's max_locals: the method's before TF's locals, and those.
    max_locals: u16,
}

impl GeneratedCode {
    /// Code generated for methods of `max_locals` local slots (TF's included), not checked yet.
    pub fn unchecked(max_locals: u16) -> GeneratedCode {
        GeneratedCode(Arc::new(Verdict { passed: AtomicBool::new(false), max_locals }))
    }

    pub(super) fn passed(&self) -> bool {
        self.0.passed.load(Ordering::Relaxed)
    }

    pub(super) fn record_pass(&self) {
        self.0.passed.store(true, Ordering::Relaxed);
    }
}

/// The targeted check of a method copied from `generated`, whose code
/// passed once: what varies from one such method to the next besides what the
/// splice ensures — TF's locals fit in the written max_locals, and its
/// max_stack is at least the original's. `original` and `written` are the
/// bodies of the two Code attributes.
pub(super) fn check_copied(generated: &GeneratedCode, original: &[u8], written: &[u8]) -> Result<(), Offence> {
    let (Some((original_stack, _)), Some((max_stack, max_locals))) = (limits(original), limits(written)) else {
        return Err(Offence { rule: Rule::Code, offset: 0, message: "the Code attribute is truncated".to_string() });
    };
    if max_locals < generated.0.max_locals {
        return Err(Offence {
            rule: Rule::MaxLocals,
            offset: 0,
            message: format!(
                "max_locals is {max_locals} where the generated code uses {} local slots",
                generated.0.max_locals
            ),
        });
    }
    if max_stack < original_stack {
        return Err(Offence {
            rule: Rule::MaxStack,
            offset: 0,
            message: format!("max_stack is {max_stack} where the original code needs {original_stack}"),
        });
    }
    Ok(())
}

/// The limits of a method that had no code: no stack, no local.
pub(super) const NO_CODE: [u8; 4] = [0; 4];

/// max_stack and max_locals, the first fields of a Code attribute.
pub(super) fn limits(code: &[u8]) -> Option<(u16, u16)> {
    let header = code.get(..4)?;
    Some((u16::from_be_bytes([header[0], header[1]]), u16::from_be_bytes([header[2], header[3]])))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The body of a Code attribute: max_stack, max_locals, then code that does not matter here.
    fn code(max_stack: u16, max_locals: u16) -> Vec<u8> {
        [max_stack.to_be_bytes(), max_locals.to_be_bytes()].concat()
    }

    #[test]
    fn a_copy_whose_max_locals_leaves_out_the_generated_code_s_locals_is_refused() {
        let template = GeneratedCode::unchecked(5);
        let offence = check_copied(&template, &code(2, 3), &code(4, 4)).unwrap_err();
        assert_eq!(offence.rule, Rule::MaxLocals);
        assert_eq!(offence.message, "max_locals is 4 where the generated code uses 5 local slots");
        assert_eq!(check_copied(&template, &code(2, 3), &code(4, 5)), Ok(()));
    }

    #[test]
    fn a_copy_whose_max_stack_is_below_the_original_s_is_refused() {
        let template = GeneratedCode::unchecked(5);
        let offence = check_copied(&template, &code(6, 3), &code(5, 5)).unwrap_err();
        assert_eq!(offence.rule, Rule::MaxStack);
        assert_eq!(offence.message, "max_stack is 5 where the original code needs 6");
    }

    #[test]
    fn a_truncated_code_attribute_is_refused() {
        let offence = check_copied(&GeneratedCode::unchecked(1), &code(1, 1), &[0, 1]).unwrap_err();
        assert_eq!(offence.rule, Rule::Code);
    }
}
