//! The instructions that leave a method's monitor on the stack: an
//! `invokedynamic` (version 51 on) or the holder field's content, or the
//! guarded shape's call of the runtime; one lookup per group and class.
#![forbid(unsafe_code)]

use crate::classfile::{BootstrapMethod, ClassEditor, ClassFile, Insn};
use crate::classfile::opcodes as op;
use crate::model::{TfClass, TfMethod};
use crate::protocol;
use crate::classfile::handle_kind;
use crate::tracegen::constants::Constants;
use crate::tracegen::{guarded, MonitorSource};
use std::rc::Rc;

use crate::classfile::Result;

/// The instructions that leave the method's monitor on the stack: the same
/// for every method of one group.
pub(crate) fn monitor_lookup(
    class: &ClassFile<'_>,
    tf: &TfClass,
    source: MonitorSource,
    method: &TfMethod,
    editor: &mut ClassEditor<'_>,
    constants: &mut Constants,
) -> Result<Rc<[Insn]>> {
    let crate::model::Role::Monitored { group, .. } = method.role else {
        return Ok(Rc::new([]));
    };
    if let Some((_, lookup)) = constants.monitors.iter().find(|(g, _)| g == group) {
        return Ok(lookup.clone());
    }
    let lookup: Rc<[Insn]> = match source {
        MonitorSource::Standard => group_monitor_lookup(class, tf, group, editor)?,
        MonitorSource::Guarded { first_site } => guarded::monitor_lookup(tf, group, first_site, editor)?,
    }
    .into();
    constants.monitors.push((group.to_string(), lookup.clone()));
    Ok(lookup)
}

pub(crate) fn group_monitor_lookup(
    class: &ClassFile<'_>,
    tf: &TfClass,
    group: &str,
    editor: &mut ClassEditor<'_>,
) -> Result<Vec<Insn>> {
    let holder = tf.holder_groups.iter().position(|&g| g == group).unwrap_or(0);
    if class.major_version() >= 51 {
        let pool = &mut editor.pool;
        let link = protocol::LINK_MONITOR;
        let bootstrap = pool.method_ref(link.owner, link.name, link.descriptor)?;
        let handle = pool.method_handle(handle_kind::INVOKE_STATIC, bootstrap)?;
        let group_class = pool.class(&group.replace('.', "/"))?;
        let index =
            editor.add_bootstrap_method(BootstrapMethod { method_handle: handle, arguments: vec![group_class] })?;
        let call = editor.pool.invoke_dynamic(index, protocol::MONITOR_INDY_NAME, protocol::MONITOR_INDY_DESCRIPTOR)?;
        Ok(vec![Insn::InvokeDynamic { index: call }])
    } else {
        let pool = &mut editor.pool;
        let field =
            pool.field_ref(&tf.internal_name, &protocol::holder_field(holder), protocol::HOLDER_FIELD_DESCRIPTOR)?;
        let content = pool.method_ref(
            protocol::HOLDER_CONTENT.owner,
            protocol::HOLDER_CONTENT.name,
            protocol::HOLDER_CONTENT.descriptor,
        )?;
        let monitor_class = pool.class(protocol::METHOD_MONITOR)?;
        Ok(vec![
            Insn::Pool { opcode: op::GETSTATIC, index: field },
            Insn::Pool { opcode: op::INVOKEVIRTUAL, index: content },
            Insn::Pool { opcode: op::CHECKCAST, index: monitor_class },
        ])
    }
}

/// How a lookup finds the monitor, which the stack depths of the code
/// around it depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum LookupKind {
    /// One `invokedynamic`.
    Indy,
    /// The holder field's content: three instructions, one value deep.
    Holder,
    /// The guarded shape's call: two values pushed, one left.
    Guarded,
}

impl LookupKind {
    pub(crate) fn of(monitor: &[Insn]) -> LookupKind {
        match monitor.first() {
            Some(Insn::InvokeDynamic { .. }) => LookupKind::Indy,
            Some(Insn::Ldc { .. }) => LookupKind::Guarded,
            _ => LookupKind::Holder,
        }
    }
}
