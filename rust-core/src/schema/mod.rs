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

use crate::classfile::descriptor;
use crate::classfile::splice::{self, Edits, Prepared, SplicedCode};
use crate::classfile::{
    attribute_name, Chunk, ClassEditor, ClassFile, ClassFileError, CodeModel, Frame, Insn,
    PoolBuilder,
};
use crate::classfile::access::{ACC_FINAL, ACC_INTERFACE, ACC_PRIVATE, ACC_PUBLIC, ACC_STATIC, ACC_SYNTHETIC};
use crate::classfile::opcodes as op;
use crate::codegen::{self, JavaType, Signature};
use crate::model::{Role, TfClass, TfMethod};
use crate::enhance::bodies::{Bodies, InMethod, StageError};
use crate::protocol;

pub(crate) mod registration;
pub use registration::{Registration, RegistrationVerdicts};
use registration::registration;

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
        bodies.get(class, editor, index)?.ok_or_else(|| ClassFileError::malformed_unlocated("<clinit> has no code"))?;
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
    match splice.assemble(&model, &edits, &mut editor.pool)? {
        Some(code) => {
            bodies.insert_spliced(index, code, None);
            Ok(true)
        }
        None => Ok(false),
    }
}

/// Is `insn` the registration call that stage 1 puts first in `<clinit>`?
/// (A class taken to stage 1 by a TF of an earlier protocol revision has
/// another fingerprint, and is redone from its original, never upgraded.)
pub fn is_registration(insn: &Insn, pool: &PoolBuilder<'_>) -> bool {
    let Insn::Pool { opcode: op::INVOKESTATIC, index } = insn else {
        return false;
    };
    matches!(pool.method_owner_and_name(*index), Ok((_, name)) if name == protocol::REGISTER_CLASS.name)
        && matches!(pool.reference_descriptor(*index), Ok(d) if d == protocol::REGISTER_CLASS.descriptor)
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
        return Err(ClassFileError::malformed_unlocated("an info method has no code"));
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
    let method = editor.edit_method(info.index).ok_or_else(|| ClassFileError::malformed_unlocated("info method vanished"))?;
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
        .ok_or_else(|| ClassFileError::malformed_unlocated("an attribute shorter than its kind"))
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
