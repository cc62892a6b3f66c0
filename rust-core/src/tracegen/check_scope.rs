//! What the pre-write check follows of each changed method: tf-core's
//! policy over the engine's plain checks (`classfile::check`), which know
//! nothing of templates.
//!
//! The full check follows every instruction of a method: as costly as
//! enhancing it. Most methods TF changes are spliced from a template
//! (`paths/template.rs`): their original code is copied unchanged but for
//! the returns and `athrow`s it re-encodes, and the generated code is the
//! template's, the same bytes for every method of its shape but for pool
//! indexes and the method's identifier. What such a method adds to what the
//! compiler wrote is therefore checked where it varies:
//!
//! - the generated code, once per template: the first method copied from it
//!   gets a check that follows it (below), and the template remembers that
//!   it passed ([`GeneratedCode`]);
//! - the stack at every re-encoded return: the splice declines (and the full
//!   check of the general path follows) unless falling through from the frame
//!   before it leaves exactly the result there (`Splice::max_stack`);
//! - TF's locals in every frame after the prologue: the splice sets them in
//!   each frame of the model it encodes (`paths::splicing::add_live_locals`);
//! - max_locals and max_stack: the engine's [`check_limits`], against the
//!   template's max_locals and the original's max_stack.
//!
//! A new method made of generated code alone is copied likewise when its
//! code is the same for every method of a shape (stage 1's registration in
//! a new `<clinit>`, by its shape, `schema::RegistrationVerdicts`): the first
//! gets the full check, the others max_locals and max_stack, against no
//! original code.
//!
//! Every other spliced method (without a template, the first of a template)
//! has only the code the splice wrote followed ([`ClassCheck::spliced`](crate::classfile::check::ClassCheck::spliced));
//! what the general path assembles gets the full check, as every method does
//! with [`PreWriteCheck::Full`]: the plain version, kept beside the targeted
//! ones as their oracle (`tests/pre_write_check_scope.rs` runs both over
//! java.base and the real-world fixtures).
#![forbid(unsafe_code)]

use crate::classfile::check::{
    changed_code, check_limits, Limits, Offence, SplicedRegions, SplicedVerdict, Verifier,
};
use crate::classfile::{ClassFile, PoolBuilder, ReadBack};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How many changed methods took each check (for the tests and benchmarks
/// that compare the two); the caller keeps the sums.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CheckCounts {
    /// Methods copied from a template that passed: their limits alone checked.
    pub targeted: u64,
    /// Other spliced methods whose written code alone was followed.
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
    /// verdict covers, the narrower ones elsewhere (see the module).
    #[default]
    Targeted,
    /// Every instruction of every changed method.
    Full,
}

/// What the splice and the tracegen paths tell the pre-write check about a
/// method they wrote.
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

    fn passed(&self) -> bool {
        self.0.passed.load(Ordering::Relaxed)
    }

    fn record_pass(&self) {
        self.0.passed.store(true, Ordering::Relaxed);
    }

    /// What a copy of this code needs, copied into code of the limits
    /// `original` (whose own code passed when it was read): TF's locals fit
    /// in max_locals, and max_stack is at least the original's.
    fn needs(&self, original: Limits) -> Limits {
        Limits { max_stack: original.max_stack, max_locals: self.0.max_locals }
    }
}

/// Checks every method of `written` (an edit of `original` read back) whose
/// Code attribute changed ([`changed_code`]): each failing method's index in
/// `written` with its offence. `spliced` lists the methods (by index,
/// ascending) a splice wrote, with what it tells of them; with
/// [`PreWriteCheck::Targeted`] those copied from a template get only their
/// limits checked once their template's code passed, and the others only
/// what the splice wrote followed (see the module). Each method checked is
/// added to `counts`; `verifier` is the worker's.
pub fn check_changed_methods<'w>(
    original: &ClassFile<'_>,
    written: &ReadBack<'w>,
    spliced: &[(usize, SplicedMethod)],
    which: PreWriteCheck,
    counts: &mut CheckCounts,
    verifier: &mut Verifier,
) -> Vec<(usize, Offence)> {
    let mut check = verifier.class::<PoolBuilder>(written.class());
    let mut offences = Vec::new();
    for changed in changed_code(original, written) {
        let splice = match which {
            PreWriteCheck::Targeted => {
                spliced.binary_search_by_key(&changed.index, |(i, _)| *i).ok().map(|i| &spliced[i].1)
            }
            PreWriteCheck::Full => None,
        };
        let copied = splice.and_then(|s| s.generated.as_ref());
        let verdict = match (splice, changed.original) {
            (Some(SplicedMethod { generated: Some(template), .. }), before) if template.passed() => {
                counts.targeted += 1;
                // A new method made of generated code alone has no original
                // code; an original Code attribute too short for its limits
                // is refused as a written one would be.
                match before.map_or(Some(Limits::NO_CODE), Limits::of_code) {
                    Some(original) => check_limits(changed.written, template.needs(original)),
                    None => check_limits(before.unwrap_or_default(), Limits::NO_CODE),
                }
            }
            (Some(splice), Some(before)) => {
                let followed = match Limits::of_code(before) {
                    Some(limits) => check.spliced(changed.member, limits, &splice.regions),
                    None => Ok(SplicedVerdict::Undecided),
                };
                match followed {
                    Ok(SplicedVerdict::Passed) => {
                        counts.spliced += 1;
                        Ok(())
                    }
                    Err(offence) => {
                        counts.spliced += 1;
                        Err(offence)
                    }
                    Ok(SplicedVerdict::Undecided) => {
                        counts.spliced_undecided += 1;
                        counts.full += 1;
                        check.full(changed.member)
                    }
                }
            }
            _ => {
                counts.full += 1;
                check.full(changed.member)
            }
        };
        match verdict {
            Ok(()) => {
                if let Some(template) = copied {
                    template.record_pass();
                }
            }
            Err(offence) => offences.push((changed.index, offence)),
        }
    }
    offences
}
