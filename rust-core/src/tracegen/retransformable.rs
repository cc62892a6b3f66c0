//! The retransformable shape (`request::Shape::Retransformable`): stage 2
//! that a running JVM accepts when an agent retransforms a loaded class.
//!
//! JVMTI `RetransformClasses` takes new method bodies, constant pool entries
//! and attributes, but no new field or method and no changed signature. So
//! this shape has no stage 1: no holder field, no `<clinit>` registration, no
//! info method rewritten. What those carry travels in the bootstrap arguments
//! of the `invokedynamic` through which each monitored method finds its
//! monitor (`protocol::LINK_RETRANSFORMED`): the group, the class's groups and
//! its tracing names. The bootstrap registers the class with the registry on
//! its first link, so the class is known before any of its monitored code runs.
//!
//! `invokedynamic` needs class files of version 51 (Java 7) or later, and
//! info methods need their signatures changed: [`refusal`] says which classes
//! this shape cannot take, in the words a user reads.
#![forbid(unsafe_code)]

use crate::rule::Rule;
use crate::classfile::{handle_kind, BootstrapMethod, ClassEditor, ClassFileError, Insn};
use crate::model::TfClass;
use crate::protocol;

/// The first class file version with `invokedynamic` (Java 7).
pub const MIN_MAJOR_VERSION: u16 = 51;

/// Why this shape cannot take a class of this version with this model, if
/// it cannot: the rule and the sentence a user reads, and the method
/// (`name(descriptor)`) concerned, if one is.
pub fn refusal(major_version: u16, tf: &TfClass) -> Option<(Rule, String, Option<String>)> {
    if major_version < MIN_MAJOR_VERSION {
        return Some((
            Rule::RetransformClassVersion,
            format!(
                "class file version {major_version} has no invokedynamic (version {MIN_MAJOR_VERSION}, Java 7, \
                 introduced it), which tracing added to a running JVM needs: enhance it at build time or at \
                 class load (-javaagent)"
            ),
            None,
        ));
    }
    let info = tf.methods.iter().find(|m| m.is_info())?;
    Some((
        Rule::RetransformInfoMethod,
        "an info method needs stage 1 at build time: it gains two parameters, and a running JVM accepts no \
         changed signature; build the class with tracegen=false to trace it at run time"
            .to_string(),
        Some(format!("{}{}", info.name, info.descriptor)),
    ))
}

/// The `invokedynamic` that leaves the monitor of `group` on the stack,
/// with the bootstrap arguments that register `tf`'s class.
pub fn monitor_lookup(tf: &TfClass, group: &str, editor: &mut ClassEditor<'_>) -> Result<Vec<Insn>, ClassFileError> {
    let pool = &mut editor.pool;
    let link = protocol::LINK_RETRANSFORMED;
    let bootstrap = pool.method_ref(link.owner, link.name, link.descriptor)?;
    let handle = pool.method_handle(handle_kind::INVOKE_STATIC, bootstrap)?;
    let group_count = i32::try_from(tf.holder_groups.len())
        .map_err(|_| ClassFileError::limit(0, "more TF groups than an int counts"))?;
    let mut arguments = Vec::with_capacity(2 + tf.holder_groups.len() + tf.tracing_names.len());
    arguments.push(pool.class(&group.replace('.', "/"))?);
    arguments.push(pool.integer(group_count)?);
    for g in &tf.holder_groups {
        arguments.push(pool.class(&g.replace('.', "/"))?);
    }
    for name in &tf.tracing_names {
        arguments.push(pool.string(name)?);
    }
    if arguments.len() > usize::from(u16::MAX) {
        return Err(ClassFileError::limit(0, "more than 65,535 bootstrap arguments (groups and tracing names)"));
    }
    let index = editor.add_bootstrap_method(BootstrapMethod { method_handle: handle, arguments })?;
    let call = editor.pool.invoke_dynamic(index, protocol::MONITOR_INDY_NAME, protocol::MONITOR_INDY_DESCRIPTOR)?;
    Ok(vec![Insn::InvokeDynamic { index: call }])
}
