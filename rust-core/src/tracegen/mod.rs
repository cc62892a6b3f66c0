//! Stage 2, tracegen: the monitoring code of each monitored method.
//!
//! ```text
//! [constructor: up to its super(...)/this(...) call]  [<clinit>: up to registerClass]
//!     mm = <monitor>                 invokedynamic bound to a MutableCallSite (version ≥ 51),
//!                                    else the holder field's content()
//!     reported = null
//!     token = 0L                     (long; dead when mm is null, which C2 drops)
//!     if (mm != null) token = mm.wantsArguments() ? mm.enterWithToken(id, new Object[]{args…})
//!                                                 : mm.enterWithToken(id, NO_ARGS)
//!                                    (no parameters: NO_ARGS, without asking)
//! body:                              ─┐ try (catch-all handler, lowest priority)
//!     info(…, null, 0)  → info(…, mm, id)
//!     throw t           → EnhancedCodeSupport.thrown(t, reported, mm, id); reported = t; throw t
//!     return v          → result = v; goto exit
//!                                    ─┘
//! exit:   if (mm != null) mm.exitWithToken(id, token)                         void
//!         if (mm != null) EnhancedCodeSupport.returned(mm, id, result, token)  any other
//!         return [result]
//! handler(t): EnhancedCodeSupport.failed[WithResult](t, reported, mm, id, token); throw t
//! ```
//!
//! What is not on the disabled path is a call into `EnhancedCodeSupport`
//! (`protocol::RETURNED`, `protocol::FAILED`): boxing the result when the
//! monitor wants it, telling a reported throwable from a new one. Inline, each
//! branch would cost every method stack map frames and code.
//!
//! The token (`protocol::MM_ENTER_WITH_TOKEN`) is the monitor's per-invocation
//! state kept in this frame, a start time for `timing`: set before the
//! protected region on every path, so the exit block and the handler both see
//! it as a `long`, and handed to the one exit call on either path.
//!
//! Frames: only what is known is declared — this stage's own locals, the
//! method's parameters in the prologue, a Throwable in the handler — and every
//! other local is Top, so no class hierarchy is needed. Frames already in the
//! body learn the three locals that live across it (`mm`, `reported`, `token`).
#![forbid(unsafe_code)]

use crate::classfile::splice::{self, Prepared};
use crate::classfile::{ClassEditor, ClassFile};
use crate::codegen::Signature;
use crate::model::TfClass;
use crate::enhance::bodies::{Bodies, InMethod, StageError};
use crate::schema;

pub mod check_scope;
mod constants;
mod generated;
mod memory;
mod paths;
mod plan;
pub mod guarded;

use constants::Constants;
use generated::monitor::monitor_lookup;
pub use memory::Memory;
use paths::general::instrument;
use paths::Instrumented;
use paths::spliced::instrument_spliced;
use paths::splicing::SplicedBody;

/// Where generated code finds its monitor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MonitorSource {
    /// Through what stage 1 added (the `<clinit>` registration, the holder
    /// fields before version 51).
    Standard,
    /// From the runtime's table of guarded sites, the class's groups at
    /// `first_site` on ([`guarded`]).
    Guarded {
        /// The site of the class's first group; the others follow in order.
        first_site: u32,
    },
}

/// Adds the monitoring code to every monitored method of `tf`, reaching its
/// monitor from `source`.
pub fn apply<'a>(
    class: &ClassFile<'a>,
    tf: &TfClass,
    source: MonitorSource,
    editor: &mut ClassEditor<'a>,
    bodies: &mut Bodies<'a>,
    memory: &mut Memory,
) -> std::result::Result<(), StageError> {
    let mut constants = Constants::default();
    for method in tf.methods.iter().filter(|m| m.is_monitored()) {
        let monitor = monitor_lookup(class, tf, source, method, editor, &mut constants).in_method(method.index)?;
        // Read once: the splice's first frame, the template and the plan take it.
        let signature = Signature::parse(&method.descriptor).in_method(method.index)?;
        // Most methods are spliced: their code is copied, not lifted. The
        // general path takes the others (classes with info methods, code a
        // splice declines), with the same result.
        let pending = match &*method.name {
            "<clinit>" => bodies.take_pending_registration(method.index),
            _ => None,
        };
        let spliceable = (method.name != "<clinit>" || pending.is_some()) && bodies.may_splice(method.index);
        if let (true, Some(member)) = (spliceable, class.methods().get(method.index)) {
            let parameters = signature.parameters.iter().map(|t| t.field_type());
            let prepared = splice::prepare_reusing(class, member, parameters, &mut editor.pool, &mut memory.splice_lists)
                .in_method(method.index)?;
            if let Prepared::Ready(mut model, mut splice) = prepared {
                let registration = pending.as_ref();
                let target = Instrumented { class, method, signature: &signature, monitor: &monitor };
                let spliced = instrument_spliced(
                    target,
                    registration,
                    &mut model,
                    &mut splice,
                    &mut editor.pool,
                    &mut constants,
                    memory,
                )
                .in_method(method.index)?;
                splice.recycle(&mut memory.splice_lists);
                if let Some(SplicedBody { code, template }) = spliced {
                    bodies.insert_spliced(method.index, code, template);
                    continue;
                }
            }
        }
        if let Some(registration) = pending {
            // What stage 1 does on the general path.
            schema::insert_registration(class, method.index, registration.insns, editor, bodies)
                .in_method(method.index)?;
        }
        let Some(code) = bodies.get(class, editor, method.index).in_method(method.index)? else {
            continue;
        };
        let target = Instrumented { class, method, signature: &signature, monitor: &monitor };
        instrument(target, tf, code, &mut editor.pool, &mut constants)
            .in_method(method.index)?;
    }
    Ok(())
}
