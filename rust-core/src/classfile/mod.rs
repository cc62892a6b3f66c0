//! The class-file engine (JVMS chapter 4): a lazy, zero-copy reader, an
//! encoder that writes untouched parts back as their original bytes, a code
//! model with labels instead of offsets, and StackMapTable frames.
//!
//! # Reading
//! - [`ClassFile::parse`]`(&[u8]) -> Result<ClassFile, ClassFileError>` checks the
//!   structure (versions 45 to 69; a newer version is refused, naming it) and the
//!   kinds of all constant-pool cross-references. [`ClassFileError`] carries the
//!   byte offset and the reason; the caller adds the file name.
//! - [`ClassFile`]: `major_version`, `minor_version`, `access_flags`,
//!   `this_class` / `super_class` / `interfaces` (internal names, `Cow<str>`,
//!   borrowed unless modified UTF-8 needs decoding), `fields`, `methods`,
//!   `attributes`, `constant_pool`, `annotations` (class level, visible then
//!   invisible), `member_annotations(&m)`, `parameter_annotations(&m)`,
//!   `annotation_default(&m)`, `code(&m)` → [`CodeAttribute`].
//! - [`Member`]: `access_flags`, `name()`, `descriptor()`, `name_is`, `attributes`.
//! - [`Annotation`] { `type_descriptor`, `elements: Vec<(name, ElementValue)>`, `visible` };
//!   [`ElementValue`]: typed constants, `String`, `Enum`, `Class`, `Annotation`, `Array`.
//! - [`ConstantPool`]: `get(i) -> Constant`, `utf8`, `class_name`, `member_ref`, …
#![forbid(unsafe_code)]

mod annotations;
mod assembler;
mod attribute;
mod class_editor;
mod class_file;
mod code;
pub mod code_model;
mod constant_pool;
pub mod descriptor;
mod encode;
mod error;
mod frame_infer;
pub mod mutf8;
pub mod opcodes;
mod pool_builder;
mod reader;
mod roundtrip;
mod stack_depth;
pub mod stack_map;

pub use annotations::{Annotation, ElementValue};
pub use attribute::{name as attribute_name, Attribute};
pub use class_editor::{AttributeEntry, BootstrapMethod, ClassEditor, MemberBuilder, MemberEntry};
pub use class_file::{ClassFile, Member, MAGIC};
pub use code_model::{CodeAttributeModel, CodeModel, CodeTarget, Handler, Insn, Label, LocalVariable, TypeAnnotation};
pub use stack_map::{Frame, VType};
pub use code::{CodeAttribute, ExceptionHandler, MAX_CODE_LENGTH};
pub use constant_pool::{tag, tag_name, Constant, ConstantPool, MemberRef};
pub use error::{ClassFileError, ErrorKind};
pub use pool_builder::{handle_kind, PoolBuilder, MAX_POOL_COUNT};
pub use roundtrip::{class_files, roundtrip_class, roundtrip_dir, RoundtripSummary};

/// Java 1.1.
pub const MIN_MAJOR_VERSION: u16 = 45;
/// Java 25.
pub const MAX_MAJOR_VERSION: u16 = 69;
