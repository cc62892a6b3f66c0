//! The one pass a splice makes over a method's code: every instruction
//! start, 16-bit branch and site (a return, `athrow` or switch), read by
//! table, not decoded (decoding every instruction by the JVMS is its
//! oracle: `classfile/tests/splice_scan.rs`).
#![forbid(unsafe_code)]

use crate::code::decode::switch_padding;
use crate::read::code_attribute::MAX_CODE_LENGTH;
use crate::read::opcodes::{self as op, Kind, Operands};

/// An instruction a splice re-encodes or moves the code after (16-bit
/// branches, which only get a new offset, are kept apart: see [`Splice`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SiteKind {
    /// `tableswitch` or `lookupswitch`: padding and offsets are rewritten.
    Switch,
    /// A return (the opcode): replaced by generated code.
    Return(u8),
    /// `athrow`: replaced by generated code.
    Throw,
    /// Not an instruction: where the prologue goes (length 0).
    Insert,
}

/// An instruction a splice re-encodes or moves the code after, at its original offset.
#[derive(Debug, Clone, Copy)]
pub struct Site {
    /// The instruction's offset in the original code.
    pub offset: u32,
    /// What the splice does there.
    pub kind: SiteKind,
    /// The instruction's length in the original code.
    pub(super) length: u32,
}

/// What [`scan`] needs of an opcode: its length, and whether it is a
/// 16-bit branch or a return or `athrow` (a site). Length 0: an opcode
/// taken apart on its own (a switch, `wide`) or one a splice declines.
#[derive(Clone, Copy)]
pub(super) struct ScanEntry {
    length: u8,
    is_branch: u8,
    is_site: u8,
}

pub(super) const SCAN: [ScanEntry; 256] = {
    let none = ScanEntry { length: 0, is_branch: 0, is_site: 0 };
    let mut table = [none; 256];
    let mut opcode = 0;
    while opcode < 256 {
        let row = op::TABLE[opcode];
        table[opcode] = match (row.kind, row.operands) {
            (Kind::Return | Kind::ThrowException, _) => ScanEntry { length: row.length, is_site: 1, ..none },
            // goto and the conditional branches; goto_w is declined.
            (Kind::Branch, Operands::Branch) => ScanEntry { length: row.length, is_branch: 1, ..none },
            _ => ScanEntry { length: op::PLAIN_LENGTHS[opcode], ..none },
        };
        opcode += 1;
    }
    table
};

/// The site a return or `athrow` makes.
pub(super) fn site_kind(opcode: u8) -> SiteKind {
    match op::TABLE[usize::from(opcode)].kind {
        Kind::Return => SiteKind::Return(opcode),
        _ => SiteKind::Throw,
    }
}

/// Bits by code offset, 64 offsets a word: where an instruction starts,
/// where a 16-bit branch does, where a return or `athrow` does (words, not
/// a struct of them: a list of words is allocated zeroed, not filled).
pub(super) type OffsetBits = [u64; 3];
pub(super) const STARTS: usize = 0;
pub(super) const BRANCHES: usize = 1;
pub(super) const SITES: usize = 2;

/// The code's sites, branches and instruction starts (see [`Splice`]).
pub(super) struct Scanned {
    pub(super) sites: Vec<Site>,
    pub(super) branches: Vec<u32>,
    pub(super) starts: Vec<OffsetBits>,
}

/// Finds every instruction start, site and branch; `None` for code a splice
/// does not handle (or that is malformed: the general path reports it).
#[cfg(test)]
pub(super) fn scan(code: &[u8]) -> Option<Scanned> {
    let mut scanned = Scanned { sites: Vec::new(), branches: Vec::new(), starts: Vec::new() };
    scan_into(code, &mut scanned)?;
    Some(scanned)
}

/// [`scan`] into the lists of `scanned`, whatever they held before.
pub(super) fn scan_into(code: &[u8], scanned: &mut Scanned) -> Option<()> {
    let len = code.len();
    if len == 0 || len > MAX_CODE_LENGTH {
        return None;
    }
    // Every instruction sets its bits, whatever it is: whether it is a
    // branch or a site decides no jump (they follow no pattern a branch
    // predictor learns), and the lists are read off the bits at the end.
    let bits = &mut scanned.starts;
    bits.clear();
    bits.resize(len / 64 + 1, [0; 3]);
    let mut switches = Vec::new();
    let u32_at = |at: usize| code.get(at..at + 4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
    let mut at = 0usize;
    // The word being filled, kept in registers and stored once the code
    // moves past its 64 offsets: or-ing into memory made each start wait
    // for the last one's store.
    let (mut word_at, mut word) = (0usize, [0u64; 3]);
    while at < len {
        if at / 64 != word_at {
            if let Some(slot) = bits.get_mut(word_at) {
                *slot = word;
            }
            (word_at, word) = (at / 64, [0; 3]);
        }
        let bit = 1u64 << (at % 64);
        let opcode = code[at];
        let entry = SCAN[usize::from(opcode)];
        word[STARTS] |= bit;
        word[BRANCHES] |= bit & u64::from(entry.is_branch).wrapping_neg();
        word[SITES] |= bit & u64::from(entry.is_site).wrapping_neg();
        if entry.length != 0 {
            at += usize::from(entry.length);
            continue;
        }
        let length = match opcode {
            op::TABLESWITCH | op::LOOKUPSWITCH => {
                let operands = at + 1 + switch_padding(at as u32);
                let entries = if opcode == op::TABLESWITCH {
                    let (low, high) = (u32_at(operands + 4)? as i32, u32_at(operands + 8)? as i32);
                    if high < low {
                        return None;
                    }
                    12 + 4 * (i64::from(high) - i64::from(low) + 1) as usize
                } else {
                    let pairs = u32_at(operands + 4)? as i32;
                    8 + 8 * usize::try_from(pairs).ok()?
                };
                let length = operands + entries - at;
                switches.push(Site { offset: at as u32, kind: SiteKind::Switch, length: length as u32 });
                length
            }
            op::WIDE => match code.get(at + 1).copied()? {
                op::IINC => 6,
                op::ILOAD..=op::ALOAD | op::ISTORE..=op::ASTORE => 4,
                _ => return None,
            },
            // `jsr`, `ret`, `goto_w`, an invalid opcode.
            _ => return None,
        };
        at += length;
    }
    if at != len {
        return None;
    }
    if let Some(slot) = bits.get_mut(word_at) {
        *slot = word;
    }
    let (sites, branches) = (&mut scanned.sites, &mut scanned.branches);
    sites.clear();
    branches.clear();
    for (i, word) in bits.iter().enumerate() {
        for_each_bit(word[BRANCHES], |bit| branches.push((i * 64 + bit) as u32));
        for_each_bit(word[SITES], |bit| {
            let offset = i * 64 + bit;
            let opcode = code.get(offset).copied().unwrap_or(op::RETURN);
            let length = u32::from(SCAN[usize::from(opcode)].length);
            sites.push(Site { offset: offset as u32, kind: site_kind(opcode), length });
        });
    }
    if !switches.is_empty() {
        sites.extend_from_slice(&switches);
        sites.sort_unstable_by_key(|s| s.offset);
    }
    Some(())
}

/// `f` of the index of each bit set in `word`, lowest first.
pub(super) fn for_each_bit(mut word: u64, mut f: impl FnMut(usize)) {
    while word != 0 {
        f(word.trailing_zeros() as usize);
        word &= word - 1;
    }
}
