//! Access and property flags (JVMS tables 4.1-B, 4.5-A, 4.6-A), named once.
//! Some bits mean different things on classes, fields and methods; each
//! constant says where it applies.

/// Class, field, method: declared public.
pub const ACC_PUBLIC: u16 = 0x0001;
/// Field, method: declared private.
pub const ACC_PRIVATE: u16 = 0x0002;
/// Field, method: declared protected.
pub const ACC_PROTECTED: u16 = 0x0004;
/// Field, method: declared static.
pub const ACC_STATIC: u16 = 0x0008;
/// Class, field, method: declared final.
pub const ACC_FINAL: u16 = 0x0010;
/// Method: declared synchronized.
pub const ACC_SYNCHRONIZED: u16 = 0x0020;
/// Method: a bridge the compiler generated.
pub const ACC_BRIDGE: u16 = 0x0040;
/// Method: declared native.
pub const ACC_NATIVE: u16 = 0x0100;
/// Class: an interface.
pub const ACC_INTERFACE: u16 = 0x0200;
/// Class, method: declared abstract.
pub const ACC_ABSTRACT: u16 = 0x0400;
/// Class, field, method: not in the source.
pub const ACC_SYNTHETIC: u16 = 0x1000;
/// Class: an annotation interface.
pub const ACC_ANNOTATION: u16 = 0x2000;
