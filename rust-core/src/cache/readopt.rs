//! Finding the kept originals again after the state was lost.
//!
//! When the `state` file is damaged (or deleted alone), the class files still
//! hold TF's output of the last run and `originals/` still holds what the
//! compiler wrote. The run that rebuilds the state would record each enhanced
//! file as its own original and sweep the true originals away; the next change
//! of settings would then meet a class enhanced with other settings and no
//! original ("run a clean build"). So, before the plan is made, each file that
//! carries TF's `@TFEnhanced` mark and that the state does not know is matched
//! to the one kept original of the same class, which the run then enhances
//! (as after a change of settings) and the rebuilt state names.
#![forbid(unsafe_code)]

use super::state::Entry;
use super::Cache;
use crate::classfile::ClassFile;
use crate::inventory::Listed;
use crate::protocol;

/// Gives each enhanced file the state does not know the original the store
/// keeps for its class, when there is exactly one. Does nothing while the state
/// knows any class: then the store holds only the originals it names.
pub fn readopt_originals(listed: &mut [Listed], cache: &Cache) {
    if !cache.state.classes.is_empty() {
        return;
    }
    let orphans: Vec<usize> = listed
        .iter()
        .enumerate()
        .filter(|(_, class)| class.prior.is_none() && class.bytes.as_deref().is_some_and(carries_tf_mark))
        .map(|(i, _)| i)
        .collect();
    if orphans.is_empty() {
        return;
    }
    let by_name = cache.originals_by_name();
    for i in orphans {
        let Some(class) = listed.get_mut(i) else { continue };
        // Two originals of one class (a killed run's leftovers): which one this
        // file was made from cannot be told, so it stays its own original.
        let (Some(output), Some([original])) = (class.digest, by_name.get(&class.name).map(Vec::as_slice)) else {
            continue;
        };
        if *original == output {
            continue; // an earlier rebuild kept the enhanced bytes as the original
        }
        class.prior = Some(Entry {
            stamp: None,
            original: *original,
            output,
            superseded: None,
            name: class.name.clone(),
            group: class.group.clone(),
        });
    }
}

/// Whether the class carries `@TFEnhanced`, that is, is TF's output rather than a compiler's.
fn carries_tf_mark(bytes: &[u8]) -> bool {
    ClassFile::parse(bytes)
        .and_then(|class| class.annotations())
        .is_ok_and(|annotations| annotations.iter().any(|a| a.type_descriptor == protocol::TF_ENHANCED))
}
