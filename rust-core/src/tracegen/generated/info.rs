//! Which calls in a monitored body are calls of the class's info methods,
//! whose `(null, 0)` stage 1 put there tracegen replaces by the monitor and
//! the method's identifier.
#![forbid(unsafe_code)]

use crate::classfile::PoolBuilder;
use crate::model::TfClass;
use crate::protocol;
use crate::schema;

use crate::classfile::Result;

/// The name and (stage 1) descriptor of each info method of `tf`.
pub(crate) fn info_targets(tf: &TfClass) -> Vec<(String, String)> {
    tf.methods
        .iter()
        .filter(|m| m.is_info())
        .map(|m| {
            let descriptor = if m.descriptor.contains(protocol::INFO_EXTRA_PARAMETERS) {
                m.descriptor.to_string()
            } else {
                schema::info_descriptor(&m.descriptor)
            };
            (m.name.to_string(), descriptor)
        })
        .collect()
}

pub(crate) fn is_info_call(index: u16, tf: &TfClass, targets: &[(String, String)], pool: &PoolBuilder<'_>) -> Result<bool> {
    let (owner, name) = pool.method_owner_and_name(index)?;
    if pool.class_name(owner)? != tf.internal_name {
        return Ok(false);
    }
    let descriptor = pool.reference_descriptor(index)?;
    Ok(targets.iter().any(|(n, d)| *n == name && *d == descriptor))
}
