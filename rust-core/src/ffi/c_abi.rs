//! The C face of the core; `include/tf_core.h` is generated from this file by
//! cbindgen (a test keeps the committed header current).
#![allow(unsafe_code)] // Raw pointers from C callers.

use super::{dispatch, panic_for_test, Outcome};

/// A byte buffer owned by tf-core; give it back with [`tf_buffer_free`].
#[repr(C)]
pub struct TfBuffer {
    /// The first byte.
    pub data: *mut u8,
    /// The number of bytes at `data`.
    pub len: usize,
}

/// What [`tf_enhance`] put in its `out` buffer.
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TfStatus {
    /// `out` holds the MessagePack report (whose `ok` field says whether the run succeeded).
    Ok = 0,
    /// `out` holds a UTF-8 message: the request could not be decoded.
    BadRequest = 1,
    /// `out` holds a UTF-8 message: the core panicked.
    Panic = 2,
    /// `request` or `out` was null; `out` is untouched.
    NullArgument = 3,
}

/// Runs one enhancement request (a MessagePack `EnhanceRequest`).
///
/// # Safety
/// `request` must point to `request_len` readable bytes and `out` to a writable
/// `TfBuffer`. On return `out` owns a buffer that must be passed to
/// [`tf_buffer_free`] exactly once.
#[no_mangle]
pub unsafe extern "C" fn tf_enhance(request: *const u8, request_len: usize, out: *mut TfBuffer) -> TfStatus {
    if request.is_null() || out.is_null() {
        return TfStatus::NullArgument;
    }
    // SAFETY: the caller promises `request_len` readable bytes at `request`.
    let request = unsafe { std::slice::from_raw_parts(request, request_len) };
    // SAFETY: the caller promises `out` is writable.
    unsafe { answer(dispatch(request), out) }
}

/// Test hook, left out of `tf_core.h`: panics inside the core with the UTF-8
/// `message`, which comes back as [`tf_enhance`]'s would: [`TfStatus::Panic`]
/// and the message in `out`.
///
/// # Safety
/// As [`tf_enhance`]'s, `message` for `request`.
#[no_mangle]
pub unsafe extern "C" fn tf_test_panic(message: *const u8, message_len: usize, out: *mut TfBuffer) -> TfStatus {
    if message.is_null() || out.is_null() {
        return TfStatus::NullArgument;
    }
    // SAFETY: the caller promises `message_len` readable bytes at `message`.
    let message = String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(message, message_len) });
    // SAFETY: the caller promises `out` is writable.
    unsafe { answer(panic_for_test(&message), out) }
}

/// Puts `outcome` in `out` as its status says.
///
/// # Safety
/// `out` must be writable.
unsafe fn answer(outcome: Outcome, out: *mut TfBuffer) -> TfStatus {
    let (status, bytes) = match outcome {
        Outcome::Report(report) => (TfStatus::Ok, report),
        Outcome::BadRequest(message) => (TfStatus::BadRequest, message.into_bytes()),
        Outcome::Panicked(message) => (TfStatus::Panic, message.into_bytes()),
    };
    let mut bytes = bytes.into_boxed_slice();
    let buffer = TfBuffer { data: bytes.as_mut_ptr(), len: bytes.len() };
    std::mem::forget(bytes);
    // SAFETY: the caller promises `out` is writable.
    unsafe { out.write(buffer) };
    status
}

/// Frees a buffer returned by [`tf_enhance`].
///
/// # Safety
/// `buffer` must come from `tf_enhance` and not have been freed before.
#[no_mangle]
pub unsafe extern "C" fn tf_buffer_free(buffer: TfBuffer) {
    if buffer.data.is_null() {
        return;
    }
    // SAFETY: `data`/`len` describe a boxed slice leaked by `tf_enhance`.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(buffer.data, buffer.len)) });
}
