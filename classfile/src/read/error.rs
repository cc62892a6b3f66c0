//! The one error type of the engine: what went wrong, and at which byte.
#![forbid(unsafe_code)]

use std::fmt;

/// A class file could not be read or written.
///
/// `offset` is the byte offset in the input class file where the problem was
/// found (for writer-side limits, the offset of the element being written),
/// or `None` where there is none: an edit's limit, a label, a constant asked
/// for by index. The caller adds the file path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassFileError {
    /// The file offset the error was found at, if one applies.
    pub offset: Option<usize>,
    /// What went wrong.
    pub kind: ErrorKind,
}

/// Why a class file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[allow(missing_docs)] // each variant's message (`Display`) says what its fields are
pub enum ErrorKind {
    /// The input ended while `needed` more bytes were expected.
    UnexpectedEnd {
        needed: usize,
    },
    BadMagic(u32),
    /// A version this engine does not know (above 69, Java 25) or never existed (below 45).
    UnsupportedVersion {
        major: u16,
        minor: u16,
    },
    BadConstantTag(u8),
    /// A constant-pool index that is zero, past the pool, or the unusable slot after a Long/Double.
    BadConstantIndex(u16),
    /// A constant of the wrong kind at `index`.
    WrongConstantKind {
        index: u16,
        expected: &'static str,
        found: &'static str,
    },
    /// Bytes after the last attribute, or an attribute whose content does not fill its length.
    TrailingBytes {
        count: usize,
    },
    /// An attribute, annotation or instruction that breaks its own format.
    Malformed(String),
    /// A JVM limit would be exceeded (65,535 constants, 65,535 bytes of code, …).
    LimitExceeded(String),
}

impl ClassFileError {
    /// An error of `kind` at file offset `offset`.
    pub fn new(offset: usize, kind: ErrorKind) -> Self {
        ClassFileError { offset: Some(offset), kind }
    }

    /// An error of `kind` at no file offset (what the engine was given or
    /// builds, not bytes it read).
    pub fn unlocated(kind: ErrorKind) -> Self {
        ClassFileError { offset: None, kind }
    }

    /// This error, at file offset `at` unless it has an offset already.
    pub fn located(self, at: usize) -> Self {
        ClassFileError { offset: self.offset.or(Some(at)), ..self }
    }

    /// Bytes that break the class file format at file offset `offset`, and why.
    pub fn malformed(offset: usize, reason: impl Into<String>) -> Self {
        ClassFileError::new(offset, ErrorKind::Malformed(reason.into()))
    }

    /// [`ClassFileError::malformed`] at no file offset: a model, label or
    /// index the engine was given breaks the format.
    pub fn malformed_unlocated(reason: impl Into<String>) -> Self {
        ClassFileError::unlocated(ErrorKind::Malformed(reason.into()))
    }

    /// A limit of the format (65,535 constants, code bytes, stack slots…) that an edit would pass.
    pub fn limit(offset: usize, reason: impl Into<String>) -> Self {
        ClassFileError::new(offset, ErrorKind::LimitExceeded(reason.into()))
    }

    /// [`ClassFileError::limit`] at no file offset: what an edit writes, which
    /// no input byte holds.
    pub fn limit_unlocated(reason: impl Into<String>) -> Self {
        ClassFileError::unlocated(ErrorKind::LimitExceeded(reason.into()))
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::UnexpectedEnd { needed } => {
                write!(f, "the class file ends early ({needed} more byte(s) expected)")
            }
            ErrorKind::BadMagic(magic) => write!(f, "not a class file (magic 0x{magic:08X}, expected 0xCAFEBABE)"),
            ErrorKind::UnsupportedVersion { major, minor } if *major > crate::read::MAX_MAJOR_VERSION => write!(
                f,
                "class file version {major}.{minor} (Java {}) is newer than the newest supported, {}.0 (Java 25)",
                major.saturating_sub(44),
                crate::read::MAX_MAJOR_VERSION
            ),
            ErrorKind::UnsupportedVersion { major, minor } => {
                write!(f, "class file version {major}.{minor} is older than 45.0, the first JVM class file version")
            }
            ErrorKind::BadConstantTag(tag) => write!(f, "unknown constant-pool tag {tag}"),
            ErrorKind::BadConstantIndex(index) => write!(f, "constant-pool index {index} is not a valid entry"),
            ErrorKind::WrongConstantKind { index, expected, found } => {
                write!(f, "constant #{index} is a {found}, expected a {expected}")
            }
            ErrorKind::TrailingBytes { count } => {
                write!(f, "{count} unexpected byte(s) after the end of the structure")
            }
            ErrorKind::Malformed(reason) => f.write_str(reason),
            ErrorKind::LimitExceeded(reason) => f.write_str(reason),
        }
    }
}

impl fmt::Display for ClassFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(offset) => write!(f, "at byte {offset}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl std::error::Error for ClassFileError {}

/// The one result type of the engine and of the stages built on it: a
/// [`ClassFileError`] unless another error is named.
pub type Result<T, E = ClassFileError> = std::result::Result<T, E>;
