//! Stage 2 on javac output of several releases: the exact events a recording
//! monitor sees, with every class checked by the HotSpot verifier.
mod support;

use std::path::Path;
use support::{java_tool, javac_with, jdk25_home, run_verified_with, tf_runtime_classes};
use tf_core::pipeline;
use tf_core::request::EnhanceRequest;

fn fixture(name: &str) -> (String, String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tracegen");
    (format!("fx/{name}.java"), std::fs::read_to_string(dir.join(format!("{name}.java"))).unwrap())
}

/// A JDK: its javac and java.
struct Jdk {
    javac: std::path::PathBuf,
    java: std::path::PathBuf,
}

fn jdk(release: &str) -> Jdk {
    if release == "25" {
        Jdk { javac: jdk25_home().join("bin/javac"), java: jdk25_home().join("bin/java") }
    } else {
        Jdk { javac: java_tool("javac"), java: java_tool("java") }
    }
}

fn enhanced(work: &Path, release: &str, names: &[&str]) -> std::path::PathBuf {
    enhanced_with_filters(work, release, names, &[])
}

fn enhanced_with_filters(work: &Path, release: &str, names: &[&str], filters: &[&str]) -> std::path::PathBuf {
    let sources: Vec<(String, String)> = names.iter().map(|n| fixture(n)).collect();
    let refs: Vec<(&str, &str)> = sources.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let classes = javac_with(&jdk(release).javac, work, release, &[&tf_runtime_classes()], &refs);
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.classpath = vec![tf_runtime_classes().display().to_string()];
    request.filters = filters.iter().map(|f| f.to_string()).collect();
    let report = pipeline::run(&request);
    assert!(report.ok, "{report:#?}");
    assert!(report.classes_enhanced > 0);
    classes
}

const SHAPES_EVENTS: &str = "\
# no monitor: no events
# constructors
enter Shapes.<init> [default]
exit Shapes.<init>
enter Shapes.ShapesDefault []
exit Shapes.ShapesDefault
# void
enter Shapes.nothing []
exit Shapes.nothing
# arguments and info
enter Shapes.add [1, 2, 3.5, [4], [x, null]]
info Shapes.note from Shapes.add [adding, 2] ENTER
exit Shapes.add = 9
# conditional null (original bug c)
enter Shapes.maybe [true, x]
exit Shapes.maybe = x
enter Shapes.maybe [false, y]
exit Shapes.maybe = null
# thrown and caught inside
enter Shapes.caught []
exception Shapes.caught java.lang.IllegalStateException: inner
exit Shapes.caught = 7
# thrown and propagated
enter Shapes.thrower []
exception Shapes.thrower java.lang.IllegalArgumentException: out
exit Shapes.thrower
(caller got java.lang.IllegalArgumentException: out)
# propagated from a callee
enter Shapes.propagates []
enter Shapes.thrower []
exception Shapes.thrower java.lang.IllegalArgumentException: out
exit Shapes.thrower
exception Shapes.propagates java.lang.IllegalArgumentException: out
exit Shapes.propagates
(caller got java.lang.IllegalArgumentException: out)
# recursion
enter Shapes.recurse [2]
enter Shapes.recurse [1]
enter Shapes.recurse [0]
exit Shapes.recurse = 0
exit Shapes.recurse = 1
exit Shapes.recurse = 2
# synchronized
enter Shapes.locked [21]
exit Shapes.locked = 42
# loops and switches
enter Shapes.loops [9]
exit Shapes.loops = 333
# lambda inside
enter Shapes.lambda [1]
exit Shapes.lambda = 2
# finally, normal
enter Shapes.finallyBlock [false]
info Shapes.note from Shapes.finallyBlock [finally, 0] ENTER
exit Shapes.finallyBlock = 1
# finally, thrown
enter Shapes.finallyBlock [true]
exception Shapes.finallyBlock java.lang.RuntimeException: f
info Shapes.note from Shapes.finallyBlock [finally, 0] ENTER
exit Shapes.finallyBlock = null
(caller got java.lang.RuntimeException: f)
# static with small primitives
enter Shapes.statik [1.5, a, 2, 3, true]
exit Shapes.statik = 104.5
# cleared: no events
";

#[test]
fn every_shape_reports_exactly_its_events() {
    for release in ["8", "11", "17", "25"] {
        let work = tempfile::tempdir().unwrap();
        let classes = enhanced(work.path(), release, &["Traced", "Recorder", "Shapes"]);
        let out = run_verified_with(&jdk(release).java, &[&classes, &tf_runtime_classes()], "fx.Shapes");
        assert_eq!(out, SHAPES_EVENTS, "javac --release {release}");
    }
}

const ZOO_EVENTS: &str = "\
# record
enter Point.sum []
exit Point.sum = 3
(got 3)
# enum
enter Color.lower []
exit Color.lower = green
(got green)
# interface static and default
enter Shape.triangle []
exit Shape.triangle = triangle
enter Shape.describe []
exit Shape.describe = shape 3
(got shape 3)
# bridge: one enter per call
enter Version.compareTo [v2]
exit Version.compareTo = -1
(got -1)
# group Top reaches subgroup Sub, not Other
enter Multi.a []
exit Multi.a = 1
enter Multi.b []
exit Multi.b = 2
(got 6)
# inner and anonymous classes
enter Inner.get []
exit Inner.get = 5
enter Outer.anonymous []
exit Outer.anonymous = anonymous supplier
(got 5anon)
# redacted parameter, null info argument
enter Secrets.login [bob, <redacted>]
info Secrets.note from Secrets.login [checked, null] NONE
exit Secrets.login = true
(got true)
# filters: <clinit>, <init> and a method
enter Plain.<clinit> []
exit Plain.<clinit>
enter Plain.<init> []
exit Plain.<init>
enter Plain.work [4]
exit Plain.work = 8
enter Plain.<init> []
exit Plain.<init>
(got 9)
# a factory on Other
enter Multi.c []
exit Multi.c = 3
(got 3)
";

/// Records need javac 16+, so 17 and 25.
#[test]
fn records_enums_interfaces_bridges_groups_filters_and_redaction() {
    for release in ["17", "25"] {
        let work = tempfile::tempdir().unwrap();
        let classes = enhanced_with_filters(
            work.path(),
            release,
            &["Top", "Sub", "Other", "Recorder", "Zoo"],
            &["fx.Zoo$Plain::<clinit>;fx.Zoo$Plain::<init>", "Filtered=fx.Zoo$Plain::work"],
        );
        let out = run_verified_with(&jdk(release).java, &[&classes, &tf_runtime_classes()], "fx.Zoo");
        assert_eq!(out, ZOO_EVENTS, "javac --release {release}");
    }
}

/// A class left at stage 1 (`tracegen = false`) is upgraded by a later run,
/// and behaves exactly as if enhanced in one step.
#[test]
fn stage_one_then_stage_two_equals_one_step() {
    let work = tempfile::tempdir().unwrap();
    let sources: Vec<(String, String)> = ["Traced", "Recorder", "Shapes"].iter().map(|n| fixture(n)).collect();
    let refs: Vec<(&str, &str)> = sources.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let classes = javac_with(&jdk("11").javac, work.path(), "11", &[&tf_runtime_classes()], &refs);
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.classpath = vec![tf_runtime_classes().display().to_string()];
    request.tracegen = false;
    let first = pipeline::run(&request);
    assert!(first.ok && first.classes_enhanced == 1, "{first:#?}");
    request.tracegen = true;
    let second = pipeline::run(&request);
    assert!(second.ok && second.classes_enhanced == 1, "{second:#?}");
    let out = run_verified_with(&jdk("11").java, &[&classes, &tf_runtime_classes()], "fx.Shapes");
    assert_eq!(out, SHAPES_EVENTS);
    // (Not byte-identical to a one-step run: stage 1's unused pool entries
    // stay. Builds with the cache re-enhance from the original instead.)
    assert!(pipeline::run(&request).classes_enhanced == 0, "a third run finds it current");
}
