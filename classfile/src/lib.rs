//! The class-file engine (JVMS chapter 4): a lazy, zero-copy reader, an
//! encoder that writes untouched parts back as their original bytes, a code
//! model with labels instead of offsets, and StackMapTable frames kept valid
//! through edits without any knowledge of the class hierarchy.
//!
//! # Where things live
//! Three layers, each naming only the ones above it in this table
//! (`tests/layers.rs` checks it), as gimli and object split `read` and `write`:
//!
//! | layer | module | owns |
//! |---|---|---|
//! | [`read`] | `reader`, `error` | bounds-checked input; [`ClassFileError`] = byte offset + [`ErrorKind`] |
//! | | `constant_pool`, [`mutf8`] | the pool, read lazily ([`ConstantPool`], [`Constant`]) |
//! | | `class_file`, `attribute`, `annotations`, `code_attribute` | the reader's views ([`ClassFile`], [`Member`], [`Attribute`], [`Annotation`], [`CodeAttribute`]) |
//! | | [`opcodes`], [`descriptor`] | opcode tables, descriptors |
//! | [`code`] | `pool` | what code needs of a constant pool ([`CodePool`]; the write layer's [`PoolBuilder`] is one) |
//! | | `code_model`, `assembler` | editable code ([`CodeModel`], [`Insn`], [`Label`]) and its encoding |
//! | | `chunk`, [`splice`] | generated code encoded as it is generated ([`Chunk`], [`InsnSink`]), and splicing it into code that is copied, not lifted |
//! | | [`stack_map`], `frame_infer`, `stack_depth` | frames ([`Frame`], [`VType`]), the types of straight-line code, max_stack/max_locals |
//! | | [`chaining`], [`exit_stack`], [`check`] | constructor chaining, crowded returns, the pre-write check |
//! | [`write`](mod@write) | `pool_builder` | pool additions with reuse of equal entries and the 65,535 limit ([`PoolBuilder`]) |
//! | | `class_editor`, `annotations` | writing a class, edited or not ([`ClassEditor`]); annotation encoding |
//! | | `roundtrip` | `tf-enhance roundtrip DIR` ([`roundtrip_dir`]) |
//!
//! # Reading
//! - [`ClassFile::parse`]`(&[u8])` checks the structure (versions 45 to 69; a newer
//!   one is refused, naming it) and the kinds of all constant-pool cross-references.
//!   Errors carry the byte offset; the caller adds the file name.
//! - [`ClassFile`]: `major_version`, `access_flags`, `this_class` / `super_class` /
//!   `interfaces` (internal names as `Cow<str>`, borrowed unless modified UTF-8 needs
//!   decoding), `fields`, `methods`, `method(name, descriptor)`, `attributes`,
//!   `constant_pool`, `annotations()` (class level, visible then invisible),
//!   `member_annotations(&m)`, `parameter_annotations(&m)`, `annotation_default(&m)`,
//!   `code(&m)`.
//! - [`Member`]: `access_flags`, `name()`, `descriptor()`, `name_is`, `attributes`.
//! - [`Annotation`] { `type_descriptor`, `elements: Vec<(name, ElementValue)>`, `visible` };
//!   [`ElementValue`]: typed constants, `String`, `Enum`, `Class` (a descriptor),
//!   `Annotation`, `Array`.
//!
//! # Writing and editing
//! - [`ClassEditor::new`]`(&class)`, then `to_bytes()`: with no edit the output is
//!   byte-identical (checked on every class of the JDK 17 and 25 images).
//! - Pool: `editor.pool.{utf8, class, string, integer, field_ref, method_ref,
//!   interface_method_ref, name_and_type, method_type, method_handle, invoke_dynamic}`;
//!   `editor.add_bootstrap_method(..)` for the BootstrapMethods entry.
//! - Members: `add_field`, `add_method` (then `set_attribute("Code", ..)` with
//!   [`CodeModel::assemble`]), `edit_method(i)` (name, descriptor, flags, attributes),
//!   `lift_code(&class, i)` / `replace_code(i, &model)`, `add_class_annotation`,
//!   `set_attribute`.
//!
//! # Code
//! - [`CodeModel`]: `elements: Vec<Insn>` (instructions and [`Insn::Label`] bindings;
//!   lifted with [`Detail::Runs`], the stretches no control-flow edit touches
//!   stay [`Insn::Raw`] runs of original bytes, `expand_runs` decodes them),
//!   `handlers` (first match wins: append catch-alls), `frames: Vec<(Label, Frame)>`,
//!   `initial_frame`, tables holding offsets in `attributes`. Every offset is a
//!   label, so `insert`, `splice` or removal needs no fixup.
//! - Helpers: `new_label`, `bind_label`, `insert`, `return_indexes`, `new_local`,
//!   `add_local_to_all_frames`, `insert_local_slots` (new parameters), `empty` (a new
//!   method's code).
//! - [`CodeModel::assemble`]: lays out the code, widens branches (`goto_w`, or an
//!   inverted short branch over `goto_w` whose fall-through frame is inferred from
//!   the nearest earlier frame), re-pads switches, inserts a `nop` where two
//!   different frames would share an offset, relocates the exception table, line
//!   numbers, local-variable (type) tables, type annotations and frames, encodes
//!   frames compactly, recomputes max_stack/max_locals and refuses code past 65,535 bytes.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod code;
pub mod read;
pub mod write;

pub use code::code_model::{
    CodeAttributeModel, CodeModel, CodeTarget, Detail, Lifter, LocalVariable, TypeAnnotation,
};
pub use code::insn::{Handler, Insn, Label};
pub use code::chunk::{Chunk, ChunkView, ChunkWriter, InsnSink, Operand, OperandValue, Placed};
pub use code::pool::CodePool;
pub use code::stack_map::{Frame, VType};
pub use code::{chaining, check, exit_stack, splice, stack_map, stack_map_encode};
pub use read::annotations::{Annotation, ElementValue};
pub use read::attribute::{name as attribute_name, Attribute};
pub use read::class_file::{ClassFile, ClassHead, Member, ReadBack, MAGIC};
pub use read::code_attribute::{CodeAttribute, ExceptionHandler, MAX_CODE_LENGTH};
pub use read::constant_pool::{tag, tag_name, Constant, ConstantPool, MemberRef, PoolLayout};
pub use read::error::{ClassFileError, ErrorKind, Result};
pub use read::{access, descriptor, mutf8, opcodes, MAX_MAJOR_VERSION, MIN_MAJOR_VERSION};
pub use write::class_editor::{AttributeEntry, BootstrapMethod, ClassEditor, MemberBuilder, MemberEntry};
pub use write::pool_builder::{handle_kind, ConstantSource, KnownTexts, PoolBuilder, MAX_POOL_COUNT};
pub use write::roundtrip::{class_files, roundtrip_class, roundtrip_dir, RoundtripSummary};
