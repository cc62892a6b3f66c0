//! `include/tf_core.h` is what cbindgen generates from the C ABI, byte for byte.
use std::path::PathBuf;

#[test]
fn committed_header_matches_the_code() {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("read cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let header = crate_dir.join("include/tf_core.h");
    if std::env::var_os("TF_BLESS").is_some() {
        std::fs::create_dir_all(header.parent().unwrap()).unwrap();
        std::fs::write(&header, &generated).unwrap();
    }
    let committed = std::fs::read(&header).unwrap_or_default();
    assert!(
        committed == generated,
        "rust-core/include/tf_core.h is stale; regenerate with `TF_BLESS=1 cargo test -p tf-core --test c_header`\n\
         generated:\n{}",
        String::from_utf8_lossy(&generated)
    );
}
