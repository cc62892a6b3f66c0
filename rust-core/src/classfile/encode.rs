//! Big-endian output helpers shared by every encoder.
#![forbid(unsafe_code)]

pub(crate) trait Put {
    fn u8(&mut self, v: u8);
    fn u16(&mut self, v: u16);
    fn u32(&mut self, v: u32);
    /// Reserves a u32 length, to be filled by [`Put::end_length`].
    fn begin_length(&mut self) -> usize;
    /// Fills the length reserved at `at` with the bytes written since.
    fn end_length(&mut self, at: usize);
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
    fn begin_length(&mut self) -> usize {
        self.u32(0);
        self.len()
    }
    fn end_length(&mut self, at: usize) {
        let len = (self.len() - at) as u32;
        if let Some(slot) = self.get_mut(at - 4..at) {
            slot.copy_from_slice(&len.to_be_bytes());
        }
    }
}
