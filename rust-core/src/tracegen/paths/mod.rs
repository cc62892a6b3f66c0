//! The three ways generated code reaches a method's output, each giving the
//! same bytes (`tests/splice_matches_general_path.rs`): `general` lifts the
//! body into the code model and assembles it (`chained` for constructors
//! calling `super(...)` at several places); `spliced` copies the body and
//! encodes the generated code around it; `from_template` copies the generated
//! code too, from the template of the method's shape. `depths` and
//! `template` are the caches the last two keep between methods.
#![forbid(unsafe_code)]

pub(crate) mod body;
pub(crate) mod chained;
pub(crate) mod depths;
pub(crate) mod from_template;
pub(crate) mod general;
pub(crate) mod placeholders;
pub(crate) mod spliced;
pub(crate) mod splicing;
pub(crate) mod template;

use crate::classfile::{ClassFile, Insn};
use crate::codegen::Signature;
use crate::model::TfMethod;

/// The method a path instruments: its class, what TF knows of it, its
/// parsed descriptor, and the instructions that find its monitor.
#[derive(Clone, Copy)]
pub(crate) struct Instrumented<'t, 'a> {
    pub class: &'t ClassFile<'a>,
    pub method: &'t TfMethod<'t>,
    pub signature: &'t Signature<'t>,
    pub monitor: &'t [Insn],
}
