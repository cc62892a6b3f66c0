//! The write layer: the constant pool being extended (with its own index of
//! entries, so equal entries are reused), the class editor that writes a class
//! (untouched parts as their original bytes) and annotation encoding. Depends
//! on the read and code layers.

pub mod annotations;
pub mod class_editor;
pub(crate) mod descriptor_slots;
mod known_texts;
pub mod pool_builder;
mod pool_index;
pub mod roundtrip;
