//! The JNI face of the core, bound to `org.tracingfacility.core.NativeCore`.
//!
//! Paths and settings travel inside the MessagePack request, never as JNI
//! strings (those are modified UTF-8). No Java call is made from worker threads:
//! the pipeline gathers everything and this thread returns it.
#![allow(unsafe_code)] // `#[no_mangle]` exports are the JNI boundary.

use super::{dispatch, panic_for_test, Outcome};
use jni::objects::{JByteArray, JClass};
use jni::sys::{jbyteArray, jstring};
use jni::JNIEnv;

/// The exception a panic becomes; falls back to `RuntimeException` if the
/// caller's class loader cannot see it.
const PANIC_EXCEPTION: &str = "org/tracingfacility/core/NativeCoreException";
const BAD_REQUEST_EXCEPTION: &str = "java/lang/IllegalArgumentException";

/// `static native byte[] enhance(byte[] request)`.
#[no_mangle]
pub extern "system" fn Java_org_tracingfacility_core_NativeCore_enhance<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    request: JByteArray<'local>,
) -> jbyteArray {
    let bytes = match env.convert_byte_array(&request) {
        Ok(b) => b,
        // A Java exception (e.g. NullPointerException) is already pending.
        Err(_) => return std::ptr::null_mut(),
    };
    answer(&mut env, dispatch(&bytes))
}

/// `static native void panicForTest(byte[] message)`: a test hook, outside
/// the request. The core panics with the UTF-8 `message`, which reaches Java
/// as [`enhance`](Java_org_tracingfacility_core_NativeCore_enhance)'s panic
/// would: a `NativeCoreException`.
#[no_mangle]
pub extern "system" fn Java_org_tracingfacility_core_NativeCore_panicForTest<'local>(
    mut env: JNIEnv<'local>,
    _class: JClass<'local>,
    message: JByteArray<'local>,
) {
    let Ok(bytes) = env.convert_byte_array(&message) else {
        return; // A Java exception (e.g. NullPointerException) is already pending.
    };
    answer(&mut env, panic_for_test(&String::from_utf8_lossy(&bytes)));
}

/// The report as a Java array, or the outcome's exception thrown (null returned).
fn answer(env: &mut JNIEnv<'_>, outcome: Outcome) -> jbyteArray {
    match outcome {
        Outcome::Report(report) => match env.byte_array_from_slice(&report) {
            Ok(array) => array.into_raw(),
            Err(_) => std::ptr::null_mut(), // OutOfMemoryError is pending.
        },
        Outcome::BadRequest(message) => throw(env, BAD_REQUEST_EXCEPTION, &message),
        Outcome::Panicked(message) => throw(env, PANIC_EXCEPTION, &message),
    }
}

/// `static native String version()`.
#[no_mangle]
pub extern "system" fn Java_org_tracingfacility_core_NativeCore_version<'local>(
    env: JNIEnv<'local>,
    _class: JClass<'local>,
) -> jstring {
    match env.new_string(env!("CARGO_PKG_VERSION")) {
        Ok(s) => s.into_raw(),
        Err(_) => std::ptr::null_mut(),
    }
}

fn throw(env: &mut JNIEnv<'_>, class: &str, message: &str) -> jbyteArray {
    if env.throw_new(class, message).is_err() {
        // The class was not found: a NoClassDefFoundError is pending; replace it.
        let _ = env.exception_clear();
        let _ = env.throw_new("java/lang/RuntimeException", message);
    }
    std::ptr::null_mut()
}
