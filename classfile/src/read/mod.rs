//! The read layer: a class file as it is, read lazily and bounds-checked,
//! without copying — the constant pool, members, attributes, annotations,
//! descriptors and the opcode tables. Depends on nothing else in the crate.

pub mod access;
pub mod annotations;
pub mod attribute;
pub mod class_file;
pub mod code_attribute;
pub mod constant_pool;
pub mod descriptor;
pub mod error;
pub mod mutf8;
pub mod opcodes;
pub mod reader;

/// Java 1.1.
pub const MIN_MAJOR_VERSION: u16 = 45;
/// Java 25.
pub const MAX_MAJOR_VERSION: u16 = 69;
