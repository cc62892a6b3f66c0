//! Big-endian output helpers shared by every encoder.
#![forbid(unsafe_code)]

pub(crate) trait Put {
    fn u8(&mut self, v: u8);
    fn u16(&mut self, v: u16);
    fn u32(&mut self, v: u32);
}

impl Put for Vec<u8> {
    fn u8(&mut self, v: u8) {
        self.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.extend_from_slice(&v.to_be_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.extend_from_slice(&v.to_be_bytes());
    }
}

/// A count that must fit the u16 the format gives it.
pub(crate) fn count16(n: usize, what: &str) -> crate::read::error::Result<u16> {
    u16::try_from(n).map_err(|_| crate::read::error::ClassFileError::limit_unlocated(format!("more than 65,535 {what}")))
}
