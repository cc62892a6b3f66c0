//! The runtime's conformance test reads the protocol from a committed file;
//! this test keeps that file equal to what `tf_core::protocol` says.
use std::path::PathBuf;

fn protocol_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../runtime/src/test/resources/org/tracingfacility/runtime/tf-protocol.txt")
}

#[test]
fn committed_protocol_file_matches_the_core() {
    let expected = tf_core::protocol::describe();
    if std::env::var_os("TF_BLESS").is_some() {
        std::fs::write(protocol_file(), &expected).expect("write protocol file");
    }
    let actual = std::fs::read_to_string(protocol_file()).unwrap_or_default();
    assert_eq!(
        actual, expected,
        "runtime/src/test/resources/.../tf-protocol.txt is stale: run `TF_BLESS=1 cargo test --test protocol_file`"
    );
}
