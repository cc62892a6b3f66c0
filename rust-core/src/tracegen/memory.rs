//! What a worker keeps of generated code between classes: the caches the
//! spliced and template paths fill. Held by the worker's workspace; output
//! never depends on it, only speed.
#![forbid(unsafe_code)]

use super::paths::depths::DepthsByShape;
use super::paths::{placeholders, template};
use crate::classfile::splice::SpliceLists;

/// What a worker remembers of generated code from one class to the next:
/// the templates by shape, the numbering of their constants and the stack
/// depths of each shape's generated code. One per worker (its workspace),
/// never shared: output does not depend on it, only speed.
#[derive(Default)]
pub struct Memory {
    pub(crate) templates: template::Templates,
    pub(crate) symbols: placeholders::Symbols,
    pub(crate) depths: DepthsByShape,
    /// Methods given generated code copied from a template.
    pub(crate) copied: u64,
    /// The splice's lists, kept from one method to the next.
    pub(crate) splice_lists: SpliceLists,
}

impl Memory {
    /// How many methods were given generated code copied from a template
    /// (the rest of the spliced methods have it encoded for them).
    pub fn templated_methods(&self) -> u64 {
        self.copied
    }

    /// Forgets the generated code, as a new worker has none: for benchmarks
    /// of a first build. The count stays.
    pub fn forget(&mut self) {
        *self = Memory { copied: self.copied, ..Memory::default() };
    }
}
