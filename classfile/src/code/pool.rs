//! What the code layer needs of a constant pool: entries read by index (as
//! read or as added since), the few entries code adds (classes named by
//! frames, method references), and the stack slots descriptors give (which
//! the pool may keep per entry: the depth pass asks for them at every
//! invocation and field access).
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
    /// Operand stack slots of the field descriptor of entry `index` (a field
    /// reference or a Dynamic): what a field access moves.
    fn field_slots(&mut self, index: u16) -> Result<i32>;
    /// Parameter and return slots of the method descriptor of entry `index`
    /// (a method reference or an InvokeDynamic).
    fn method_slots(&mut self, index: u16) -> Result<(i32, i32)>;
    /// Slots an `ldc` or `ldc_w` of entry `index` pushes: 1, or a Dynamic's size.
    fn loaded_slots(&mut self, index: u16) -> Result<i32>;
    /// [`CodePool::field_slots`] when the pool knows it without a look-up
    /// (asked before): the depth pass's inner loop reads these first.
    fn known_field_slots(&self, index: u16) -> Option<i32>;
    /// [`CodePool::method_slots`] when the pool knows it without a look-up.
    fn known_method_slots(&self, index: u16) -> Option<(i32, i32)>;
    /// Owner class index and member name of a method reference.
    fn method_owner_and_name(&self, index: u16) -> Result<(u16, Cow<'a, str>)>;
    /// Checks that entry `index` is a Class entry with a valid name, once per entry.
    fn check_class(&mut self, index: u16) -> Result<()>;
}
