//! Entry points for foreign callers: JNI (the build plugins) and a C ABI.
//!
//! Both take one MessagePack request and give one MessagePack report (see
//! [`crate::request`]); [`dispatch`] is the code path they share. Nothing here
//! may unwind into the caller: a panic in the core becomes an
//! [`Outcome::Panicked`] that each boundary reports in its own way.
//!
//! Each boundary also has a test hook, outside the request:
//! [`panic_for_test`] panics under the same guard as [`dispatch`], so that a
//! test proves a panic comes back as the boundary's error (a status and a
//! message for C, `NativeCoreException` for Java), never as an unwinding
//! across it.

mod c_abi;
mod jni;

pub use c_abi::{tf_buffer_free, tf_enhance, tf_test_panic, TfBuffer, TfStatus};

use crate::request::{EnhanceReport, EnhanceRequest, FORMAT_VERSION};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The result of one call, before a boundary turns it into its own form.
#[derive(Debug)]
pub enum Outcome {
    /// The MessagePack report; the run itself may still have failed (`ok == false`).
    Report(Vec<u8>),
    /// The request could not be decoded or has an unknown format version.
    BadRequest(String),
    /// The core panicked; the message says where and why.
    Panicked(String),
}

/// Decode, run, encode; never unwinds.
pub fn dispatch(request: &[u8]) -> Outcome {
    guarded(|| dispatch_inner(request))
}

/// Test hook: panics with `message` under [`dispatch`]'s guard, which makes
/// it [`Outcome::Panicked`]. Not reachable through a request, so no run can
/// be made to panic by what it is sent.
pub fn panic_for_test(message: &str) -> Outcome {
    guarded(|| panic!("{message}"))
}

/// Runs `call`, a panic in it becoming [`Outcome::Panicked`].
fn guarded(call: impl FnOnce() -> Outcome) -> Outcome {
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(outcome) => outcome,
        Err(payload) => Outcome::Panicked(format!("tf-core panicked: {}", panic_message(payload.as_ref()))),
    }
}

fn dispatch_inner(request: &[u8]) -> Outcome {
    let request = match decode_request(request) {
        Ok(r) => r,
        Err(message) => return Outcome::BadRequest(message),
    };
    let report: EnhanceReport = crate::run(&request);
    match rmp_serde::to_vec_named(&report) {
        Ok(bytes) => Outcome::Report(bytes),
        // Serializing our own plain struct cannot fail short of a bug.
        Err(e) => Outcome::Panicked(format!("tf-core could not encode its report: {e}")),
    }
}

/// Decodes a request, refusing format versions this core does not know.
pub fn decode_request(bytes: &[u8]) -> Result<EnhanceRequest, String> {
    let request: EnhanceRequest =
        rmp_serde::from_slice(bytes).map_err(|e| format!("tf-core could not decode the request: {e}"))?;
    if request.format_version != FORMAT_VERSION {
        return Err(format!(
            "tf-core speaks request format {FORMAT_VERSION}, the caller sent format {}: \
             the plugin and its native library come from different TF versions",
            request.format_version
        ));
    }
    Ok(request)
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic without a message)".to_string()
    }
}
