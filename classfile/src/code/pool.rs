//! What the code layer needs of a constant pool: entries read by index (as
//! read or as added since), the few entries code adds (classes named by
//! frames, method references).
//!
//! The write layer's `PoolBuilder` is the implementation; code is generic
//! over this trait, so the code layer depends on nothing above it and, with
//! that one implementation, compiles to what a concrete type would.

use crate::read::constant_pool::{Constant, ConstantPool};
use crate::read::error::Result;
use std::borrow::Cow;

/// A constant pool that code reads and adds to. Additions must reuse an
/// equal entry when there is one, and every path that adds must ask for the
/// same entries in the same order: the pool order, the invariant every fast
/// path rests on (ARCHITECTURE.md, "Invariants").
pub trait CodePool<'a> {
    /// Entry `index`, as read or as added.
    fn get(&self, index: u16) -> Result<Constant<'a>>;
    /// The pool as read, without the additions.
    fn original(&self) -> &ConstantPool<'a>;
    /// The index of a Class entry for `internal_name`, added if missing.
    fn class(&mut self, internal_name: &str) -> Result<u16>;
    /// The index of a Utf8 entry for `text`, added if missing.
    fn utf8(&mut self, text: &str) -> Result<u16>;
    /// The index of a Methodref entry, added if missing.
    fn method_ref(&mut self, owner: &str, name: &str, descriptor: &str) -> Result<u16>;
    /// The internal name of a Class entry.
    fn class_name(&self, index: u16) -> Result<Cow<'a, str>>;
    /// The descriptor of a field or method reference, or of an (Invoke)Dynamic.
    fn reference_descriptor(&self, index: u16) -> Result<Cow<'a, str>>;
    /// `f` of that descriptor when it is plain ASCII, read in place; `None`
    /// otherwise (then [`CodePool::reference_descriptor`] decodes it or says
    /// what is wrong).
    fn with_ascii_reference_descriptor<T>(&self, index: u16, f: impl FnOnce(&str) -> T) -> Option<T>;
    /// Owner class index and member name of a method reference.
    fn method_owner_and_name(&self, index: u16) -> Result<(u16, Cow<'a, str>)>;
    /// Checks that entry `index` is a Class entry with a valid name, once per entry.
    fn check_class(&mut self, index: u16) -> Result<()>;
}
