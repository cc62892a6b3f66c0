//! The C ABI as a C caller uses it: status codes, owned buffers, no unwinding.
use tf_core::ffi::{tf_buffer_free, tf_enhance, tf_test_panic, TfBuffer, TfStatus};
use tf_core::request::{EnhanceReport, EnhanceRequest};

fn call(request: &[u8]) -> (TfStatus, Vec<u8>) {
    call_with(tf_enhance, request)
}

/// Calls `entry` (`tf_enhance` or the test hook `tf_test_panic`) as a C caller does.
fn call_with(entry: unsafe extern "C" fn(*const u8, usize, *mut TfBuffer) -> TfStatus, input: &[u8]) -> (TfStatus, Vec<u8>) {
    let mut out = TfBuffer { data: std::ptr::null_mut(), len: 0 };
    // SAFETY: valid input slice and out pointer; the buffer is freed once below.
    let status = unsafe { entry(input.as_ptr(), input.len(), &mut out) };
    // SAFETY: `out` was filled by tf_enhance.
    let bytes = unsafe { std::slice::from_raw_parts(out.data, out.len) }.to_vec();
    unsafe { tf_buffer_free(out) };
    (status, bytes)
}

#[test]
fn a_request_gets_a_messagepack_report() {
    let dir = tempfile::tempdir().unwrap();
    let request = rmp_serde::to_vec_named(&EnhanceRequest::new(dir.path().to_str().unwrap())).unwrap();
    let (status, bytes) = call(&request);
    assert_eq!(status, TfStatus::Ok);
    let report: EnhanceReport = rmp_serde::from_slice(&bytes).unwrap();
    assert!(report.ok, "{report:?}");
    assert_eq!(report.classes_scanned, 0);
    assert!(dir.path().join("META-INF/tf/tfannotations.properties").is_file());
}

#[test]
fn garbage_is_a_bad_request_with_a_message() {
    let (status, bytes) = call(b"\xc1 not messagepack");
    assert_eq!(status, TfStatus::BadRequest);
    assert!(String::from_utf8(bytes).unwrap().starts_with("tf-core could not decode the request"));
}

#[test]
fn an_unknown_format_version_is_refused() {
    let mut request = EnhanceRequest::new("/nonexistent");
    request.format_version = 99;
    let (status, bytes) = call(&rmp_serde::to_vec_named(&request).unwrap());
    assert_eq!(status, TfStatus::BadRequest);
    assert!(String::from_utf8(bytes).unwrap().contains("the caller sent format 99"));
}

#[test]
fn a_panic_comes_back_as_a_status_and_message() {
    // The test hook panics inside the core, under the guard every entry shares.
    let (status, bytes) = call_with(tf_test_panic, b"boom from the test");
    assert_eq!(status, TfStatus::Panic);
    assert_eq!(String::from_utf8(bytes).unwrap(), "tf-core panicked: boom from the test");
    // And the core still answers.
    let dir = tempfile::tempdir().unwrap();
    let (status, _) = call(&rmp_serde::to_vec_named(&EnhanceRequest::new(dir.path().to_str().unwrap())).unwrap());
    assert_eq!(status, TfStatus::Ok);
}
