//! Stage 1's registration: the sequence that goes first in `<clinit>`
//! (holders made, `registerClass` called), by shape, with the pre-write
//! check's verdict on the first `<clinit>` made of it alone.
#![forbid(unsafe_code)]

use crate::classfile::mutf8;
use crate::classfile::opcodes as op;
use crate::classfile::{Chunk, ChunkWriter, Insn, InsnSink, PoolBuilder};
use crate::codegen;
use crate::model::TfClass;
use crate::protocol;
use crate::tracegen::check_scope::GeneratedCode;

use crate::classfile::Result;

/// The registration sequence that goes first in `<clinit>`.
#[derive(Debug, Clone)]
pub struct Registration {
    /// The instructions, with pool indexes of the class being enhanced.
    pub insns: Vec<Insn>,
    /// The deepest its stack gets; it ends as it started, empty.
    pub peak: u16,
    pub(super) shape: RegistrationShape,
}

/// What a registration sequence is made of but for its pool indexes: the
/// same shape, the same instructions (`ldc` or `ldc_w` by index aside) and
/// the same peak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct RegistrationShape {
    pub(super) holders: usize,
    pub(super) groups: usize,
    pub(super) name_pieces: usize,
}

/// A worker's registration sequences by shape, each with the pre-write
/// check's verdict on the first `<clinit>` made of it alone: as a template's
/// copies (`tracegen`'s), the `<clinit>`s after it get the targeted check.
/// And each sequence encoded once per layout, the later ones copied from it.
#[derive(Debug, Default)]
pub struct RegistrationVerdicts {
    verdicts: std::collections::HashMap<RegistrationShape, GeneratedCode>,
    chunks: rustc_hash::FxHashMap<ChunkLayout, EncodedRegistration>,
}

/// What decides the bytes of an encoded registration but for its pool
/// indexes: its shape, which `ldc`s are `ldc_w`, and the `return` after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct ChunkLayout {
    shape: RegistrationShape,
    /// A bit per `ldc`, in order: set for an index past 255.
    wide_ldcs: u64,
    returns: bool,
}

/// A registration encoded, with where each of its pool indexes is.
#[derive(Debug)]
struct EncodedRegistration {
    chunk: Chunk,
    sites: Box<[u32]>,
}

impl RegistrationVerdicts {
    pub(super) fn of(&mut self, shape: RegistrationShape) -> GeneratedCode {
        // A new `<clinit>` is static and takes no argument: no local slot.
        self.verdicts.entry(shape).or_insert_with(|| GeneratedCode::unchecked(0)).clone()
    }

    /// `sequence` encoded, followed by a `return` if `returns`: the first of
    /// its layout by the writer, the others copied from it with their own
    /// pool indexes (every class has one; encoding them one instruction at
    /// a time cost more than the rest of the stage but the pool).
    pub(super) fn chunk(&mut self, sequence: &Registration, returns: bool) -> Option<Chunk> {
        let then = returns.then_some(Insn::Simple(op::RETURN));
        let Some(wide_ldcs) = sequence.wide_ldcs() else { return sequence.chunk(then) };
        let layout = ChunkLayout { shape: sequence.shape, wide_ldcs, returns };
        if let Some(encoded) = self.chunks.get(&layout) {
            let mut chunk = encoded.chunk.clone();
            for (&at, (index, wide)) in encoded.sites.iter().zip(sequence.pool_operands()) {
                let at = at as usize;
                let place = if wide { chunk.bytes.get_mut(at..at + 2) } else { chunk.bytes.get_mut(at..at + 1) };
                match place {
                    Some(place) if wide => place.copy_from_slice(&index.to_be_bytes()),
                    Some(place) => place.copy_from_slice(&[index as u8]),
                    None => return sequence.chunk(then),
                }
            }
            debug_assert_eq!(Some(&chunk.bytes), sequence.chunk(then).as_ref().map(|c| &c.bytes), "{layout:?}");
            return Some(chunk);
        }
        let chunk = sequence.chunk(then)?;
        // Kept only if the sites found are where the writer put each index.
        if let Some(sites) = sequence.operand_sites(returns).filter(|(sites, len)| {
            *len == chunk.bytes.len()
                && sites.iter().zip(sequence.pool_operands()).all(|(&at, (index, wide))| {
                    let at = at as usize;
                    if wide {
                        chunk.bytes.get(at..at + 2) == Some(&index.to_be_bytes()[..])
                    } else {
                        chunk.bytes.get(at) == Some(&(index as u8))
                    }
                })
        }) {
            self.chunks.insert(layout, EncodedRegistration { chunk: chunk.clone(), sites: sites.0.into_boxed_slice() });
        }
        Some(chunk)
    }
}

impl Registration {
    /// The sequence encoded, followed by `then` (which takes no stack).
    fn chunk(&self, then: Option<Insn>) -> Option<Chunk> {
        let mut writer = ChunkWriter::new(false);
        writer.push_all(self.insns.iter().cloned().chain(then));
        writer.finish(self.peak)
    }

    /// The pool index of each instruction that has one, in order, and
    /// whether it takes two bytes.
    fn pool_operands(&self) -> impl Iterator<Item = (u16, bool)> + '_ {
        self.insns.iter().filter_map(|insn| match *insn {
            Insn::Pool { index, .. } => Some((index, true)),
            Insn::Ldc { index, .. } => Some((index, index > 255)),
            _ => None,
        })
    }

    /// A bit per `ldc`, set for one that must be `ldc_w`; `None` past 64.
    fn wide_ldcs(&self) -> Option<u64> {
        let mut bits = 0u64;
        let mut n = 0u32;
        for insn in &self.insns {
            if let Insn::Ldc { index, .. } = *insn {
                bits |= u64::from(index > 255).checked_shl(n)?;
                n += 1;
            }
        }
        (n <= 64).then_some(bits)
    }

    /// Where each of [`Registration::pool_operands`] is in the encoded
    /// sequence, and its length (with a `return` if `returns`); `None` for
    /// an instruction of a kind a registration has not.
    fn operand_sites(&self, returns: bool) -> Option<(Vec<u32>, usize)> {
        let mut sites = Vec::with_capacity(self.insns.len());
        let mut at = 0u32;
        for insn in &self.insns {
            let size = match *insn {
                Insn::Simple(_) => 1,
                Insn::Push { opcode: op::BIPUSH, .. } => 2,
                Insn::Push { .. } => 3,
                Insn::Pool { .. } => {
                    sites.push(at + 1);
                    3
                }
                Insn::Ldc { index, .. } => {
                    sites.push(at + 1);
                    if index > 255 { 3 } else { 2 }
                }
                _ => return None,
            };
            at += size;
        }
        Some((sites, at as usize + usize::from(returns)))
    }
}

/// The registration sequence, inserted first in `<clinit>`: monitors must be
/// known before any code of the class can run.
pub(super) fn registration(tf: &TfClass, holders: &[String], pool: &mut PoolBuilder<'_>) -> Result<Registration> {
    let this = &tf.internal_name;
    let holder_class = pool.class(protocol::SYNCHRONIZED_HOLDER)?;
    let holder_init = pool.method_ref(protocol::SYNCHRONIZED_HOLDER, "<init>", "()V")?;
    // Four instructions per holder made and per array element, a few more.
    let mut out = Vec::with_capacity(8 * holders.len() + 4 * tf.holder_groups.len() + 12);
    let mut holder_refs = Vec::new();
    for name in holders {
        let field = pool.field_ref(this, name, protocol::HOLDER_FIELD_DESCRIPTOR)?;
        out.extend([
            Insn::Pool { opcode: op::NEW, index: holder_class },
            Insn::Simple(op::DUP),
            Insn::Pool { opcode: op::INVOKESPECIAL, index: holder_init },
            Insn::Pool { opcode: op::PUTSTATIC, index: field },
        ]);
        holder_refs.push(field);
    }
    out.push(Insn::Ldc { opcode: op::LDC, index: pool.class(this)? });
    let name_pieces = push_text(&protocol::joined_tracing_names(&tf.tracing_names), pool, &mut out)?;
    let groups = tf
        .holder_groups
        .iter()
        .map(|g| Ok(Insn::Ldc { opcode: op::LDC, index: pool.class(&g.replace('.', "/"))? }))
        .collect::<Result<Vec<_>>>()?;
    codegen::array_of("java/lang/Class", &groups, pool, &mut out)?;
    let holders: Vec<Insn> = holder_refs.into_iter().map(|f| Insn::Pool { opcode: op::GETSTATIC, index: f }).collect();
    codegen::array_of(protocol::SYNCHRONIZED_HOLDER, &holders, pool, &mut out)?;
    let register = pool.method_ref(
        protocol::REGISTER_CLASS.owner,
        protocol::REGISTER_CLASS.name,
        protocol::REGISTER_CLASS.descriptor,
    )?;
    out.push(Insn::Pool { opcode: op::INVOKESTATIC, index: register });
    // Each holder is made with two slots; then the class, under the names
    // and two arrays in turn, each filled one element at a time (array,
    // array, index, element: three slots over the array).
    let array = |below: u16, len: usize| if len == 0 { below + 1 } else { below + 4 };
    let made = if holders.is_empty() { 0 } else { 2 };
    let names = if name_pieces > 1 { 2 } else { 1 };
    let peak = made.max(1 + names).max(array(2, tf.holder_groups.len())).max(array(3, holders.len()));
    let shape = RegistrationShape { holders: holders.len(), groups: tf.holder_groups.len(), name_pieces };
    Ok(Registration { insns: out, peak, shape })
}

/// Pushes the string `text`: one `ldc`, or, for a text longer than one
/// constant holds, its pieces joined by `String.concat` (taking the stack
/// one deeper). Returns the number of pieces.
fn push_text(text: &str, pool: &mut PoolBuilder<'_>, out: &mut Vec<Insn>) -> Result<usize> {
    let mut pieces = mutf8::constant_pieces(text);
    let first = pieces.next().unwrap_or_default();
    out.push(Insn::Ldc { opcode: op::LDC, index: pool.string(first)? });
    let mut count = 1;
    for piece in pieces {
        let concat = pool.method_ref("java/lang/String", "concat", "(Ljava/lang/String;)Ljava/lang/String;")?;
        out.push(Insn::Ldc { opcode: op::LDC, index: pool.string(piece)? });
        out.push(Insn::Pool { opcode: op::INVOKEVIRTUAL, index: concat });
        count += 1;
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classfile::ClassFile;

    /// `class p/C extends java/lang/Object {}`: a pool to add to.
    const CLASS: &[u8] = &[
        0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0, 5, 7, 0, 2, 1, 0, 3, b'p', b'/', b'C', 7, 0, 4, 1, 0, 16, b'j', b'a', b'v',
        b'a', b'/', b'l', b'a', b'n', b'g', b'/', b'O', b'b', b'j', b'e', b'c', b't', 0, 0x21, 0, 1, 0, 3, 0, 0, 0, 0, 0, 0,
        0, 0,
    ];

    /// A class named `name` whose registration has `groups` holder groups and these tracing names.
    fn registered_class<'n>(name: &str, groups: &[&'static str], names: &'n [String]) -> TfClass<'n> {
        TfClass {
            internal_name: name.to_string().into(),
            class_groups: Vec::new(),
            holder_groups: groups.to_vec(),
            methods: Vec::new(),
            without_code: Vec::new(),
            tracing_names: names.iter().map(|n| n.as_str().into()).collect(),
            enhanced: None,
        }
    }

    /// The registration of a class named `name` with `groups` holder groups
    /// (and as many holders) and these tracing names, as opcodes: what does
    /// not depend on pool indexes (`ldc_w` counted as `ldc`).
    fn registration_opcodes(name: &str, groups: &[&'static str], names: &[String]) -> (RegistrationShape, u16, Vec<String>) {
        let class = ClassFile::parse(CLASS).expect("a class");
        let mut pool = PoolBuilder::new(class.constant_pool().clone());
        let tf = registered_class(name, groups, names);
        let holders: Vec<String> = (0..groups.len()).map(protocol::holder_field).collect();
        let sequence = registration(&tf, &holders, &mut pool).expect("registration");
        let shown = sequence
            .insns
            .iter()
            .map(|insn| match insn {
                Insn::Ldc { .. } => "ldc".to_string(),
                Insn::Pool { opcode, .. } => format!("pool {opcode}"),
                other => format!("{other:?}"),
            })
            .collect();
        (sequence.shape, sequence.peak, shown)
    }

    /// A `<clinit>` made of the registration alone takes the verdict of the
    /// first of its shape: two registrations of one shape must be the same
    /// instructions, with the same peak, whatever the names, the class and
    /// the pool indexes.
    #[test]
    fn registrations_of_one_shape_are_the_same_instructions() {
        let few = |prefix: &str, n: usize| (0..n).map(|i| format!("{prefix}{i}")).collect::<Vec<_>>();
        let long = |n: usize| (0..n).map(|i| format!("m{i:05}_{}", "\u{e9}".repeat(40))).collect::<Vec<_>>();
        let groups: [&[&'static str]; 4] = [&[], &["a.A"], &["a.A", "b.B"], &["a.A", "b.B", "c.C", "d.D", "e.E", "f.F", "g.G"]];
        let names = [Vec::new(), few("x", 1), few("method", 300), few("\u{1d518}:", 3), long(1_900), long(2_000), long(4_000)];
        let mut by_shape: std::collections::HashMap<RegistrationShape, (u16, Vec<String>)> = Default::default();
        for (c, groups) in groups.iter().enumerate() {
            for names in &names {
                let (shape, peak, opcodes) = registration_opcodes(&format!("p/C{c}"), groups, names);
                match by_shape.get(&shape) {
                    Some(first) => assert_eq!(first, &(peak, opcodes), "{shape:?}"),
                    None => {
                        by_shape.insert(shape, (peak, opcodes));
                    }
                }
            }
        }
        assert!(by_shape.keys().any(|s| s.name_pieces > 2), "names long enough for three constants");
    }

    /// A registration encoded once per layout and copied after that, with
    /// the pool indexes of each class, is what the writer encodes for it.
    #[test]
    fn registrations_copied_from_one_of_their_layout_are_those_encoded_alone() {
        let class = ClassFile::parse(CLASS).expect("a class");
        let names: Vec<String> = (0..40).map(|i| format!("m{i}")).collect();
        let mut registrations = RegistrationVerdicts::default();
        let mut copies = 0;
        for (c, groups) in [&["a.A"][..], &["a.A", "b.B"], &["a.A"], &["a.A", "b.B"]].into_iter().enumerate() {
            // Pools of growing size: the later classes' indexes pass 255.
            for filler in [0, 150, 300, 600] {
                let mut pool = PoolBuilder::new(class.constant_pool().clone());
                for i in 0..filler {
                    pool.utf8(&format!("filler{i}")).expect("a filler");
                }
                let tf = registered_class(&format!("p/C{c}"), groups, &names);
                let holders: Vec<String> = (0..groups.len()).map(protocol::holder_field).collect();
                let sequence = registration(&tf, &holders, &mut pool).expect("registration");
                for returns in [false, true] {
                    let copied = sequence.wide_ldcs().is_some_and(|wide_ldcs| {
                        registrations.chunks.contains_key(&ChunkLayout { shape: sequence.shape, wide_ldcs, returns })
                    });
                    copies += usize::from(copied);
                    let chunk = registrations.chunk(&sequence, returns).expect("encoded");
                    let alone = sequence.chunk(returns.then_some(Insn::Simple(op::RETURN))).expect("encoded alone");
                    assert_eq!(chunk.bytes, alone.bytes, "class {c}, {filler} fillers, return: {returns}");
                }
            }
        }
        assert!(copies >= 8, "{copies} copies");
    }
}
