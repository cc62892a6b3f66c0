//! Stage 1, the schema stage (build time only: it changes the class's shape).
//!
//! - one `private static final` holder field per TF group the class uses;
//! - the start of `<clinit>` (made if missing) creates the holders and calls
//!   `EnhancedCodeSupport.registerClass(class, tracing names, groups, holders)`;
//! - each info method gets two trailing parameters `(MethodMonitor, int callerId)`
//!   and the body `if (mm != null) mm.info(args, callerId, selfId, tpType)`;
//! - each call of an info method from a monitored method passes `(null, 0)`,
//!   whatever the invoke instruction (javac 11+ uses `invokevirtual` for private
//!   methods, older javac `invokespecial`, interfaces `invokeinterface`);
//! - the class is marked `@TFEnhanced(stage = 1, fingerprint = …)`.
#![forbid(unsafe_code)]

use crate::tracegen::check_scope::GeneratedCode;
use crate::classfile::{descriptor, mutf8};
use crate::classfile::splice::{self, Edits, Prepared, SplicedCode};
use crate::classfile::{
    attribute_name, Chunk, ChunkWriter, ClassEditor, ClassFile, ClassFileError, CodeModel, Frame, Insn, InsnSink,
    PoolBuilder,
};
use crate::classfile::access::{ACC_FINAL, ACC_INTERFACE, ACC_PRIVATE, ACC_PUBLIC, ACC_STATIC, ACC_SYNTHETIC};
use crate::classfile::opcodes as op;
use crate::codegen::{self, JavaType, Signature};
use crate::model::{Role, TfClass, TfMethod};
use crate::enhance::bodies::{Bodies, InMethod, StageError};
use crate::protocol;

use crate::classfile::Result;

/// Annotations and `ldc` of a class constant need version 49 (Java 5). An
/// older class (45 to 48: Java 1.1 to 1.4) is raised to it: 49 still takes
/// `jsr`/`ret` and needs no stack map frames, so its code stays valid as it is.
pub const MIN_MAJOR_VERSION: u16 = 49;

/// Applies stage 1 to `editor`, made from `class`; edited code goes to `bodies`.
pub fn apply<'a>(
    class: &ClassFile<'a>,
    tf: &TfClass,
    editor: &mut ClassEditor<'a>,
    bodies: &mut Bodies<'a>,
    registrations: &mut RegistrationVerdicts,
) -> std::result::Result<(), StageError> {
    if editor.major_version < MIN_MAJOR_VERSION {
        editor.major_version = MIN_MAJOR_VERSION;
        editor.minor_version = 0;
    }
    let holders = add_holder_fields(class, tf, editor)?;
    register_in_clinit(class, tf, &holders, editor, bodies, registrations)?;
    for info in tf.methods.iter().filter(|m| m.is_info()) {
        rewrite_info_method(class, info, editor, bodies).in_method(info.index)?;
    }
    for monitored in tf.methods.iter().filter(|m| m.is_monitored()) {
        pass_null_to_info_calls(class, tf, monitored, editor, bodies).in_method(monitored.index)?;
    }
    Ok(())
}

/// The new descriptor of an info method: two parameters appended.
pub fn info_descriptor(descriptor: &str) -> String {
    with_info_parameters(descriptor, descriptor::parameters_end(descriptor))
}

/// The new generic signature of an info method: the same two parameters appended.
fn info_signature(signature: &str) -> String {
    with_info_parameters(signature, descriptor::signature_parameters_end(signature))
}

/// `text` with the info parameters at `end` (where its parameters end);
/// unchanged if that was not found.
fn with_info_parameters(text: &str, end: Option<usize>) -> String {
    match end.and_then(|end| text.split_at_checked(end)) {
        Some((parameters, rest)) => format!("{parameters}{}{rest}", protocol::INFO_EXTRA_PARAMETERS),
        None => text.to_string(),
    }
}

fn add_holder_fields(class: &ClassFile<'_>, tf: &TfClass, editor: &mut ClassEditor<'_>) -> Result<Vec<String>> {
    let signature = editor.pool.utf8(protocol::HOLDER_FIELD_SIGNATURE)?;
    let signature_name = editor.pool.utf8(attribute_name::SIGNATURE)?;
    // Interface fields must be public (JVMS 4.5); elsewhere the holder is private.
    let visibility = if class.access_flags() & ACC_INTERFACE != 0 { ACC_PUBLIC } else { ACC_PRIVATE };
    let mut names = Vec::new();
    for index in 0..tf.holder_groups.len() {
        let name = protocol::holder_field(index);
        let field = editor.add_field(
            visibility | ACC_STATIC | ACC_FINAL | ACC_SYNTHETIC,
            &name,
            protocol::HOLDER_FIELD_DESCRIPTOR,
        )?;
        field.set_attribute(attribute_name::SIGNATURE, signature_name, signature.to_be_bytes().to_vec());
        names.push(name);
    }
    Ok(names)
}

/// The registration sequence that goes first in `<clinit>`.
#[derive(Debug, Clone)]
pub struct Registration {
    pub insns: Vec<Insn>,
    /// The deepest its stack gets; it ends as it started, empty.
    pub peak: u16,
    shape: RegistrationShape,
}

/// What a registration sequence is made of but for its pool indexes: the
/// same shape, the same instructions (`ldc` or `ldc_w` by index aside) and
/// the same peak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct RegistrationShape {
    holders: usize,
    groups: usize,
    name_pieces: usize,
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
    fn of(&mut self, shape: RegistrationShape) -> GeneratedCode {
        // A new `<clinit>` is static and takes no argument: no local slot.
        self.verdicts.entry(shape).or_insert_with(|| GeneratedCode::unchecked(0)).clone()
    }

    /// `sequence` encoded, followed by a `return` if `returns`: the first of
    /// its layout by the writer, the others copied from it with their own
    /// pool indexes (every class has one; encoding them one instruction at
    /// a time cost more than the rest of the stage but the pool).
    fn chunk(&mut self, sequence: &Registration, returns: bool) -> Option<Chunk> {
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
fn registration(tf: &TfClass, holders: &[String], pool: &mut PoolBuilder<'_>) -> Result<Registration> {
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

fn register_in_clinit<'a>(
    class: &ClassFile<'a>,
    tf: &TfClass,
    holders: &[String],
    editor: &mut ClassEditor<'a>,
    bodies: &mut Bodies<'a>,
    registrations: &mut RegistrationVerdicts,
) -> Result<()> {
    let sequence = registration(tf, holders, &mut editor.pool)?;
    match class.methods().iter().position(|m| m.name_is("<clinit>") && m.descriptor_is("()V")) {
        Some(index) => {
            let monitored = tf.methods.iter().any(|m| m.index == index && m.is_monitored());
            if monitored && bodies.tracegen_follows && bodies.may_splice(index) {
                // Tracegen puts it first, with its prologue (or, declining
                // to splice, calls `insert_registration`).
                bodies.pending_registration = Some((index, sequence));
                return Ok(());
            }
            if !monitored && splice_registration(class, index, &sequence, editor, bodies, registrations)? {
                return Ok(());
            }
            insert_registration(class, index, sequence.insns, editor, bodies)?;
        }
        None => {
            editor.add_method(ACC_STATIC, "<clinit>", "()V")?;
            let index = editor.methods.len() - 1;
            if bodies.splicing {
                // Straight code: encoded at once, without a code model.
                let body = registrations.chunk(&sequence, true);
                if let Some(code) = body.and_then(|c| SplicedCode::straight(&c, 0)) {
                    bodies.insert_spliced(index, code, Some(registrations.of(sequence.shape)));
                    return Ok(());
                }
            }
            let mut code = empty_method_body(class, &mut editor.pool)?;
            code.insert(0, sequence.insns);
            bodies.insert(index, code);
        }
    }
    Ok(())
}

/// Puts the registration first in `<clinit>` (method `index`), lifted.
pub fn insert_registration<'a>(
    class: &ClassFile<'a>,
    index: usize,
    sequence: Vec<Insn>,
    editor: &mut ClassEditor<'a>,
    bodies: &mut Bodies<'a>,
) -> Result<()> {
    let code =
        bodies.get(class, editor, index)?.ok_or_else(|| ClassFileError::malformed(0, "<clinit> has no code"))?;
    code.insert(0, sequence);
    Ok(())
}

/// Puts the registration first in a `<clinit>` (method `index`) that
/// tracegen does not edit, by splicing. `false`: the general path must do
/// it (it also reports any error), with the same result.
fn splice_registration<'a>(
    class: &ClassFile<'a>,
    index: usize,
    sequence: &Registration,
    editor: &mut ClassEditor<'a>,
    bodies: &mut Bodies<'a>,
    registrations: &mut RegistrationVerdicts,
) -> Result<bool> {
    let Some(method) = class.methods().get(index) else { return Ok(false) };
    if bodies.models.contains_key(&index) || !bodies.splicing {
        return Ok(false);
    }
    // The caller found it by its descriptor, `()V`.
    let Ok(Prepared::Ready(model, mut splice)) = splice::prepare(class, method, std::iter::empty(), &mut editor.pool) else { return Ok(false) };
    let Some(prologue) = registrations.chunk(sequence, false) else { return Ok(false) };
    let no_tail = Chunk::default();
    let edits = Edits {
        insert_at: 0,
        prologue: (&prologue).into(),
        returns: None,
        throws: None,
        tail: (&no_tail).into(),
        frames_after: None,
    };
    match splice.assemble(&model, &edits, &mut editor.slots, &mut editor.pool)? {
        Some(code) => {
            bodies.insert_spliced(index, code, None);
            Ok(true)
        }
        None => Ok(false),
    }
}

/// Is `insn` the registration call that stage 1 puts first in `<clinit>`
/// (either form: a class may have reached stage 1 with a TF before the
/// joined tracing names)?
pub fn is_registration(insn: &Insn, pool: &PoolBuilder<'_>) -> bool {
    let Insn::Pool { opcode: op::INVOKESTATIC, index } = insn else {
        return false;
    };
    let forms = [protocol::REGISTER_CLASS, protocol::REGISTER_CLASS_WITH_NAME_ARRAY];
    matches!(pool.method_owner_and_name(*index), Ok((_, name)) if name == protocol::REGISTER_CLASS.name)
        && matches!(pool.reference_descriptor(*index), Ok(d) if forms.iter().any(|f| d == f.descriptor))
}

/// A new `<clinit>` whose body is `return`.
fn empty_method_body<'a>(class: &ClassFile<'a>, pool: &mut PoolBuilder<'a>) -> Result<CodeModel<'a>> {
    let frames_required = class.major_version() >= 50;
    let mut code = CodeModel::empty(class.this_class_index(), ACC_STATIC, "<clinit>", "()V", frames_required, pool)?;
    code.elements.push(Insn::Simple(op::RETURN));
    Ok(code)
}

/// `private void note(String s)` becomes `note(String s, MethodMonitor mm, int callerId)`
/// whose body reports the call to `mm` when there is one.
fn rewrite_info_method<'a>(
    class: &ClassFile<'a>,
    info: &TfMethod,
    editor: &mut ClassEditor<'a>,
    bodies: &mut Bodies<'a>,
) -> Result<()> {
    let Role::Info { tp_type, .. } = &info.role else {
        return Ok(());
    };
    let signature = Signature::parse(&info.descriptor)?;
    let new_descriptor = info_descriptor(&info.descriptor);
    let self_id = info.identifier;
    let monitor_slot = 1 + signature.parameter_slots();
    let caller_slot = monitor_slot + 1;

    let Some(mut code) = editor.lift_code(class, info.index)? else {
        return Err(ClassFileError::malformed(0, "an info method has no code"));
    };
    let pool = &mut editor.pool;
    let done = code.new_label();
    let info_call =
        pool.interface_method_ref(protocol::MM_INFO.owner, protocol::MM_INFO.name, protocol::MM_INFO.descriptor)?;
    let redacted = pool.field_ref(
        protocol::REDACTED_VALUE.owner,
        protocol::REDACTED_VALUE.name,
        protocol::REDACTED_VALUE.descriptor,
    )?;
    let tp = pool.field_ref(protocol::TIMING_POINT_TYPE, tp_type, protocol::TIMING_POINT_TYPE_DESCRIPTOR)?;
    let mut body = vec![
        codegen::aload(monitor_slot),
        Insn::Branch { opcode: op::IFNULL, target: done },
        codegen::aload(monitor_slot),
    ];
    codegen::argument_array(
        &signature.parameters,
        1,
        &[],
        &info.redacted_parameters,
        Some(Insn::Pool { opcode: op::GETSTATIC, index: redacted }),
        pool,
        &mut body,
    )?;
    body.push(codegen::load(JavaType::Int, caller_slot));
    body.push(codegen::push_int(i32::try_from(self_id).unwrap_or(0), pool)?);
    body.push(Insn::Pool { opcode: op::GETSTATIC, index: tp });
    body.push(Insn::InvokeInterface { index: info_call, count: 5 });
    body.push(Insn::Label(done));
    // The old body is a lone `return`: ours goes before it.
    code.insert(0, body);
    code.initial_frame = Frame::initial(class.this_class_index(), false, false, &new_descriptor, pool)?;
    if code.frames_required {
        code.frames.push((done, code.initial_frame.clone()));
    }
    code.max_locals = code.max_locals.max(caller_slot + 1);
    bodies.insert(info.index, code);

    let descriptor_index = editor.pool.utf8(&new_descriptor)?;
    let extra = extended_attributes(class, info, &mut editor.pool)?;
    let method = editor.edit_method(info.index).ok_or_else(|| ClassFileError::malformed(0, "info method vanished"))?;
    method.descriptor_index = descriptor_index;
    for (name, name_index, data) in extra {
        method.set_attribute(name, name_index, data);
    }
    Ok(())
}

/// A generic info method's Signature and its MethodParameters must list the
/// two new parameters too, or reflection on the method fails.
fn extended_attributes(
    class: &ClassFile<'_>,
    info: &TfMethod,
    pool: &mut PoolBuilder<'_>,
) -> Result<Vec<(&'static str, u16, Vec<u8>)>> {
    let member = &class.methods()[info.index];
    let mut out = Vec::new();
    if let Some(signature) = member.attribute(attribute_name::SIGNATURE) {
        let index = u16::from_be_bytes(fixed(signature.data())?);
        let text = class.constant_pool().utf8(index)?;
        let new_text = info_signature(&text);
        out.push((
            attribute_name::SIGNATURE,
            pool.utf8(attribute_name::SIGNATURE)?,
            pool.utf8(&new_text)?.to_be_bytes().to_vec(),
        ));
    }
    if let Some(parameters) = member.attribute(attribute_name::METHOD_PARAMETERS) {
        let data = parameters.data();
        let count =
            *data.first().ok_or_else(|| ClassFileError::malformed(parameters.offset, "empty MethodParameters"))?;
        let count = count
            .checked_add(2)
            .ok_or_else(|| ClassFileError::limit(parameters.offset, "an info method with 254 parameters"))?;
        let mut new_data = vec![count];
        new_data.extend_from_slice(&data[1..]);
        // Nameless, synthetic: the monitor and the caller's identifier.
        new_data.extend_from_slice(&[0, 0, 0x10, 0x00, 0, 0, 0x10, 0x00]);
        out.push((attribute_name::METHOD_PARAMETERS, pool.utf8(attribute_name::METHOD_PARAMETERS)?, new_data));
    }
    Ok(out)
}

fn fixed<const N: usize>(data: &[u8]) -> Result<[u8; N]> {
    data.get(..N)
        .and_then(|d| d.try_into().ok())
        .ok_or_else(|| ClassFileError::malformed(0, "an attribute shorter than its kind"))
}

/// In a monitored method, every call of an info method passes `(null, 0)`;
/// tracegen later replaces them by the monitor and the caller's identifier.
fn pass_null_to_info_calls<'a>(
    class: &ClassFile<'a>,
    tf: &TfClass,
    monitored: &TfMethod,
    editor: &mut ClassEditor<'a>,
    bodies: &mut Bodies<'a>,
) -> Result<()> {
    let infos: Vec<&TfMethod> = tf.methods.iter().filter(|m| m.is_info()).collect();
    if infos.is_empty() {
        return Ok(());
    }
    let Some(code) = bodies.get(class, editor, monitored.index)? else {
        return Ok(());
    };
    let mut i = 0;
    while i < code.elements.len() {
        let reference = match &code.elements[i] {
            Insn::Pool { opcode: op::INVOKEVIRTUAL | op::INVOKESPECIAL, index } => *index,
            Insn::InvokeInterface { index, .. } => *index,
            _ => {
                i += 1;
                continue;
            }
        };
        let target = class.constant_pool().member_ref(reference)?;
        let is_info = target.owner == *tf.internal_name
            && infos.iter().any(|m| target.name == *m.name && target.descriptor == *m.descriptor);
        if !is_info {
            i += 1;
            continue;
        }
        let new_descriptor = info_descriptor(&target.descriptor);
        let interface = matches!(editor.pool.get(reference)?, crate::classfile::Constant::InterfaceMethodref { .. });
        let new_reference = if interface {
            editor.pool.interface_method_ref(&tf.internal_name, &target.name, &new_descriptor)?
        } else {
            editor.pool.method_ref(&tf.internal_name, &target.name, &new_descriptor)?
        };
        code.elements[i] = match &code.elements[i] {
            Insn::InvokeInterface { count, .. } => Insn::InvokeInterface { index: new_reference, count: count + 2 },
            Insn::Pool { opcode, .. } => Insn::Pool { opcode: *opcode, index: new_reference },
            other => other.clone(),
        };
        code.insert(i, [Insn::Simple(op::ACONST_NULL), Insn::Simple(op::ICONST_0)]);
        i += 3;
    }
    Ok(())
}

/// Size of the `@TFEnhanced(stage, fingerprint)` annotation as TF writes it.
const MARK_LEN: usize = 2 + 2 + (2 + 1 + 2) + (2 + 1 + 2);

/// Where TF's own `@TFEnhanced` starts in a RuntimeVisibleAnnotations body, if
/// it is there: TF always writes it last, in its fixed form.
fn previous_mark(class: &ClassFile<'_>, data: &[u8]) -> Option<usize> {
    let start = data.len().checked_sub(MARK_LEN).filter(|s| *s >= 2)?;
    let type_index = u16::from_be_bytes([data[start], data[start + 1]]);
    let is_mark = class.constant_pool().utf8(type_index).is_ok_and(|t| t == protocol::TF_ENHANCED);
    is_mark.then_some(start)
}

/// Adds `@TFEnhanced(stage, fingerprint)` to the class's visible annotations,
/// replacing the mark an earlier stage left.
pub fn mark_enhanced<'a>(
    class: &ClassFile<'a>,
    stage: i32,
    fingerprint: &str,
    editor: &mut ClassEditor<'a>,
) -> Result<()> {
    let pool = &mut editor.pool;
    let mut annotation = Vec::new();
    annotation.extend(pool.utf8(protocol::TF_ENHANCED)?.to_be_bytes());
    annotation.extend(2u16.to_be_bytes());
    annotation.extend(pool.utf8(protocol::TF_ENHANCED_STAGE)?.to_be_bytes());
    annotation.push(b'I');
    annotation.extend(pool.integer(stage)?.to_be_bytes());
    annotation.extend(pool.utf8(protocol::TF_ENHANCED_FINGERPRINT)?.to_be_bytes());
    annotation.push(b's');
    annotation.extend(pool.utf8(fingerprint)?.to_be_bytes());

    let existing = class.attributes().iter().find(|a| a.is(attribute_name::RUNTIME_VISIBLE_ANNOTATIONS));
    let data = match existing {
        Some(attribute) => {
            let data = attribute.data();
            let count = u16::from_be_bytes(fixed(data)?);
            let (count, kept) = match previous_mark(class, data) {
                // Upgrading a stage-1 class: our old mark is the last annotation.
                Some(start) => (count, &data[2..start]),
                None => (
                    count
                        .checked_add(1)
                        .ok_or_else(|| ClassFileError::limit(attribute.offset, "a class with 65,535 annotations"))?,
                    &data[2..],
                ),
            };
            let mut out = count.to_be_bytes().to_vec();
            out.extend_from_slice(kept);
            out.extend(annotation);
            out
        }
        None => {
            let mut out = 1u16.to_be_bytes().to_vec();
            out.extend(annotation);
            out
        }
    };
    editor.set_attribute(attribute_name::RUNTIME_VISIBLE_ANNOTATIONS, data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classfile::{ClassFile, Insn};

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

    #[test]
    fn an_info_method_gets_its_two_parameters_after_the_others() {
        let extra = protocol::INFO_EXTRA_PARAMETERS;
        assert_eq!(info_descriptor("()V"), format!("({extra})V"));
        assert_eq!(info_descriptor("(J[I)V"), format!("(J[I{extra})V"));
        // A class name may hold a parenthesis (JVMS 4.2.1).
        assert_eq!(info_descriptor("(La)b;)V"), format!("(La)b;{extra})V"));
        assert_eq!(
            info_signature("<T:Ljava/lang/Object;>(Ljava/util/List<Lp/a)b;>;TT;)V"),
            format!("<T:Ljava/lang/Object;>(Ljava/util/List<Lp/a)b;>;TT;{extra})V")
        );
    }
}
