//! The C ABI as a C caller uses it: status codes, owned buffers, no unwinding.
use tf_core::ffi::{tf_buffer_free, tf_enhance, TfBuffer, TfStatus};
use tf_core::request::{EnhanceReport, EnhanceRequest};

fn call(request: &[u8]) -> (TfStatus, Vec<u8>) {
    let mut out = TfBuffer { data: std::ptr::null_mut(), len: 0 };
    // SAFETY: valid request slice and out pointer; the buffer is freed once below.
    let status = unsafe { tf_enhance(request.as_ptr(), request.len(), &mut out) };
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
    let mut request = EnhanceRequest::new("/nonexistent");
    request.inject_panic = Some("boom from the test".into());
    let (status, bytes) = call(&rmp_serde::to_vec_named(&request).unwrap());
    assert_eq!(status, TfStatus::Panic);
    assert_eq!(String::from_utf8(bytes).unwrap(), "tf-core panicked: boom from the test");
}
