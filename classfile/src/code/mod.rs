//! The code layer: method bodies — the code model (lift, assemble), frames
//! (decoding, encoding, inference), stack depths, splicing generated code into
//! copied code, the exit and constructor-chaining analyses and the pre-write
//! check. Depends on the read layer only; the constant pool it reads and adds
//! to is any [`pool::CodePool`] (the write layer's `PoolBuilder` is one).

pub mod assembler;
pub mod chaining;
pub mod check;
pub mod chunk;
pub mod code_attribute_writer;
pub mod code_model;
pub(crate) mod decode;
pub mod encode;
pub mod exit_stack;
pub mod frame_infer;
pub mod insn;
pub mod pool;
pub mod splice;
pub mod stack_depth;
pub mod stack_map;
pub mod stack_map_encode;
