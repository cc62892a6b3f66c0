//! `tf-enhance` as a user runs it.
mod support;

use std::process::Command;
use support::{files_under, javac, METHOD_MONITOR_GROUP};

fn tf_enhance(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tf-enhance")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const SOURCES: &[(&str, &str)] = &[
    METHOD_MONITOR_GROUP,
    ("a/G.java", "package a; @org.tracingfacility.annotation.MethodMonitorGroup public @interface G {}"),
];

#[test]
fn dir_and_rf_write_the_list_and_print_a_summary() {
    let work = tempfile::tempdir().unwrap();
    let classes = javac(work.path(), "11", SOURCES);
    let rf = work.path().join("out/tf.properties");
    let (code, out, err) = tf_enhance(&["-dir", classes.to_str().unwrap(), "-rf", rf.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "TF: 2 classes scanned, 0 enhanced, 2 unchanged, 0 failed; 1 TF annotations\n");
    assert!(std::fs::read_to_string(rf).unwrap().contains("annotation.1=a.G\n"));
}

#[test]
fn dryrun_writes_nothing() {
    let work = tempfile::tempdir().unwrap();
    let classes = javac(work.path(), "11", SOURCES);
    let before = files_under(work.path());
    let rf = work.path().join("tf.properties");
    let (code, out, _) =
        tf_enhance(&["-dir", classes.to_str().unwrap(), "-rf", rf.to_str().unwrap(), "-dryrun", "true"]);
    assert_eq!(code, 0);
    assert!(out.contains("dry run: would write 1 TF annotations to"), "{out}");
    assert_eq!(files_under(work.path()), before);
}

#[test]
fn a_corrupt_class_exits_1_naming_the_file() {
    let work = tempfile::tempdir().unwrap();
    let classes = javac(work.path(), "11", SOURCES);
    std::fs::write(classes.join("a/Bad.class"), [0xCA, 0xFE, 0xBA, 0xBE, 0, 0]).unwrap();
    let (code, out, err) = tf_enhance(&["-dir", classes.to_str().unwrap(), "-rf", "/dev/null/never"]);
    assert_eq!(code, 1);
    assert!(err.starts_with(&format!("error: {}: not a valid class file: ", classes.join("a/Bad.class").display())), "{err}");
    assert!(out.starts_with("TF: 3 classes scanned, 0 enhanced, 2 unchanged, 1 failed;"), "{out}");
    assert!(out.contains("FAILED: nothing was written"), "{out}");
}

#[test]
fn bad_arguments_exit_2_with_usage() {
    let (code, _, err) = tf_enhance(&["-verbose", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("-verbose takes a whole number from 0 to 4") && err.contains("Legal arguments are:"));
    let (code, out, _) = tf_enhance(&["-help"]);
    assert_eq!((code, out.starts_with("Usage: tf-enhance")), (0, true));
}

#[test]
fn protocol_lists_every_member() {
    let (code, out, _) = tf_enhance(&["-protocol"]);
    assert_eq!(code, 0);
    assert_eq!(out, tf_core::protocol::describe());
}
