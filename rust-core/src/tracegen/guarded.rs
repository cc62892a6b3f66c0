//! The guarded shape (`request::Shape::Guarded`): stage 2 alone, what the
//! agent writes into every class it traces, as it loads or in a running JVM,
//! the JDK's own classes included.
//!
//! JVMTI `RetransformClasses` takes new method bodies, constant pool entries
//! and attributes, but no new field or method and no changed signature; and a
//! class traced at load time must show a program nothing it did not have. So
//! this shape has no stage 1 (no holder field, no `<clinit>` registration, no
//! info method rewritten, no `@TFEnhanced` mark), and each monitored method
//! finds its monitor with
//!
//! ```text
//! ldc <this class>; push <site>; invokestatic GuardedSites.monitor(Class, int)
//! ```
//!
//! where the site (`first_site` + the group's index among the class's
//! groups) is a slot of the runtime's table that the agent reserved and
//! declared (with the class's groups and tracing names, which the report
//! carries back) before the JVM defines the class. Nothing is linked when the
//! method first runs, unlike an `invokedynamic` (whose linking runs
//! `java.lang.invoke` code a filter may trace): the call is to a class the
//! agent initialized before tracing anything, and it answers null, without
//! running any other code, while the thread is already inside monitoring code.
//! That is what keeps any JDK method traceable without recursion (ARCHITECTURE,
//! "Tracing the JDK").
//!
//! `ldc` of a class needs class files of version 49 (Java 5) or later, and
//! info methods need their signatures changed: [`refusal`] says which classes
//! this shape cannot take, in the words a user reads.
#![forbid(unsafe_code)]

use crate::classfile::opcodes as op;
use crate::classfile::{ClassEditor, ClassFileError, Insn};
use crate::codegen;
use crate::model::TfClass;
use crate::protocol;
use crate::rule::Rule;

/// The first class file version whose `ldc` takes a class (Java 5).
pub const MIN_MAJOR_VERSION: u16 = 49;

/// Why this shape cannot take a class of this version with this model, if
/// it cannot: the rule and the sentence a user reads, and the method
/// (`name(descriptor)`) concerned, if one is.
pub fn refusal(major_version: u16, tf: &TfClass) -> Option<(Rule, String, Option<String>)> {
    if major_version < MIN_MAJOR_VERSION {
        return Some((
            Rule::RetransformClassVersion,
            format!(
                "class file version {major_version} cannot name its own class in code (version {MIN_MAJOR_VERSION}, \
                 Java 5, can), which tracing without new members needs: enhance it at build time or as it loads"
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

/// The instructions that leave the monitor of `group` on the stack: the
/// runtime's answer for this class's site of that group.
pub fn monitor_lookup(
    tf: &TfClass,
    group: &str,
    first_site: u32,
    editor: &mut ClassEditor<'_>,
) -> Result<Vec<Insn>, ClassFileError> {
    let index = tf.holder_groups.iter().position(|&g| g == group).unwrap_or(0);
    let site = u32::try_from(index)
        .ok()
        .and_then(|i| first_site.checked_add(i))
        .and_then(|s| i32::try_from(s).ok())
        .ok_or_else(|| ClassFileError::limit_unlocated("more guarded sites than an int counts"))?;
    let pool = &mut editor.pool;
    let this_class = pool.class(&tf.internal_name)?;
    let lookup = protocol::GUARDED_MONITOR;
    let call = pool.method_ref(lookup.owner, lookup.name, lookup.descriptor)?;
    Ok(vec![
        Insn::Ldc { opcode: op::LDC, index: this_class },
        codegen::push_int(site, pool)?,
        Insn::Pool { opcode: op::INVOKESTATIC, index: call },
    ])
}

/// What the agent declares for a class written in this shape: its groups
/// (binary names, in site order from the request's first site) and its
/// tracing names (a name's index is its identifier).
pub fn registration(tf: &TfClass) -> crate::request::Registration {
    crate::request::Registration {
        groups: tf.holder_groups.iter().map(|g| g.to_string()).collect(),
        tracing_names: tf.tracing_names.iter().map(|n| n.to_string()).collect(),
    }
}
