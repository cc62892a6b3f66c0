//! A C program compiled against `include/tf_core.h` and linked to the cdylib
//! calls the ABI: the header is usable from C, not only current.
use std::path::{Path, PathBuf};
use std::process::Command;

fn cdylib_dir() -> PathBuf {
    // Integration tests run from target/<profile>/deps, where cargo also puts the cdylib.
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().to_path_buf()
}

#[test]
fn a_c_caller_gets_statuses_and_buffers() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let libs = cdylib_dir();
    assert!(libs.join("libtf_core.so").is_file(), "no cdylib in {}", libs.display());
    let work = tempfile::tempdir().unwrap();
    let exe = work.path().join("smoke");
    let compiled = Command::new("cc")
        .args(["-std=c11", "-Wall", "-Werror", "-I"])
        .arg(crate_dir.join("include"))
        .arg(crate_dir.join("tests/c/smoke.c"))
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}", libs.display()))
        .arg("-ltf_core")
        .arg(format!("-Wl,-rpath,{}", libs.display()))
        .status()
        .expect("run cc");
    assert!(compiled.success(), "cc failed");
    let classes = work.path().join("classes");
    std::fs::create_dir(&classes).unwrap();
    let output = Command::new(&exe).arg(&classes).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert_eq!(lines[0], "status=0 report_is_map=1");
    assert!(lines[1].starts_with("status=1 message=tf-core could not decode the request: "), "{stdout}");
    assert_eq!(lines[2], "null=3");
    assert!(classes.join("META-INF/tf/tfannotations.properties").is_file());
}
