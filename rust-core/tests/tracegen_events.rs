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
    let classes = compiled(work, release, names);
    enhance(&classes, filters);
    classes
}

fn compiled(work: &Path, release: &str, names: &[&str]) -> std::path::PathBuf {
    let sources: Vec<(String, String)> = names.iter().map(|n| fixture(n)).collect();
    let refs: Vec<(&str, &str)> = sources.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    javac_with(&jdk(release).javac, work, release, &[&tf_runtime_classes()], &refs)
}

fn enhance(classes: &Path, filters: &[&str]) {
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.classpath = vec![tf_runtime_classes().display().to_string()];
    request.filters = filters.iter().map(|f| f.to_string()).collect();
    let report = pipeline::run(&request);
    assert!(report.ok, "{report:#?}");
    assert!(report.classes_enhanced > 0);
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

const TOKEN_EVENTS: &str = "\
# constructors
enter Shapes.<init> [default] #1
exit Shapes.<init> #1
enter Shapes.ShapesDefault [] #2
exit Shapes.ShapesDefault #2
# thrown and propagated
enter Shapes.thrower [] #4
exception Shapes.thrower out
exit Shapes.thrower #4
(caller got out)
# propagated from a callee
enter Shapes.propagates [] #5
enter Shapes.thrower [] #6
exception Shapes.thrower out
exit Shapes.thrower #6
exception Shapes.propagates out
exit Shapes.propagates #5
(caller got out)
# thrown and caught inside
enter Shapes.caught [] #7
exception Shapes.caught inner
exit Shapes.caught = 7 #7
# recursion
enter Shapes.recurse [2] #8
enter Shapes.recurse [1] #9
enter Shapes.recurse [0] #10
exit Shapes.recurse = 0 #10
exit Shapes.recurse = 1 #9
exit Shapes.recurse = 2 #8
# long result, synchronized
enter Shapes.locked [21] #11
exit Shapes.locked = 42 #11
# finally, thrown
enter Shapes.finallyBlock [true] #12
exception Shapes.finallyBlock f
info Shapes.note
exit Shapes.finallyBlock = null #12
(caller got f)
# static
enter Shapes.statik [1.5, a, 2, 3, true] #13
exit Shapes.statik = 104.5 #13
";

/// A monitor overriding the token methods gets, at each exit, the token its
/// enter returned for that invocation: on returns, on throws (explicit,
/// propagated, through `finally`), in recursion, in constructors; and never a
/// plain `enter`/`exit` (TokenRecorder would print those).
#[test]
fn each_exit_gets_the_token_of_its_own_enter_on_every_path() {
    for release in ["8", "11", "17", "25"] {
        let work = tempfile::tempdir().unwrap();
        let classes = enhanced(work.path(), release, &["Traced", "Recorder", "Shapes", "TokenRecorder", "Tokens"]);
        let out = run_verified_with(&jdk(release).java, &[&classes, &tf_runtime_classes()], "fx.Tokens");
        assert_eq!(out, TOKEN_EVENTS, "javac --release {release}");
    }
}

const OLD_EVENTS: &str = "\
# plain monitor
enter Old.<init> [1]
exit Old.<init>
enter Old.add [2, 3.5]
exit Old.add = 6
enter Old.thrower []
exception Old.thrower java.lang.IllegalArgumentException: old
exit Old.thrower
enter Old.recurse [1]
enter Old.recurse [0]
exit Old.recurse = 0
exit Old.recurse = 1
enter Old.twice [ab]
exit Old.twice = abab
# token monitor
enter Old.<init> [1] #1
exit Old.<init> #1
enter Old.add [2, 3.5] #2
exit Old.add = 6 #2
enter Old.thrower [] #3
exception Old.thrower old
exit Old.thrower #3
enter Old.recurse [1] #4
enter Old.recurse [0] #5
exit Old.recurse = 0 #5
exit Old.recurse = 1 #4
enter Old.twice [ab] #6
exit Old.twice = abab #6
";

/// Class files older than version 51 read their monitor from the holder field
/// (no invokedynamic): version 50 with stack map frames (HotSpot would fall back
/// to the old verifier if they were wrong, so its log is checked), 49 without.
#[test]
fn class_files_before_invokedynamic_use_the_holder_and_keep_the_token() {
    for major in [50u16, 49] {
        let work = tempfile::tempdir().unwrap();
        let sources: Vec<(String, String)> =
            ["Traced", "Recorder", "TokenRecorder", "Old", "OldMain"].iter().map(|n| fixture(n)).collect();
        let refs: Vec<(&str, &str)> = sources.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        let classes = javac_with(&jdk("17").javac, work.path(), "8", &[&tf_runtime_classes()], &refs);
        let old = classes.join("fx/Old.class");
        let mut bytes = std::fs::read(&old).unwrap();
        bytes[6..8].copy_from_slice(&major.to_be_bytes());
        std::fs::write(&old, &bytes).unwrap();
        let mut request = EnhanceRequest::new(classes.to_str().unwrap());
        request.classpath = vec![tf_runtime_classes().display().to_string()];
        let report = pipeline::run(&request);
        assert!(report.ok, "{report:#?}");
        let enhanced = std::fs::read(&old).unwrap();
        assert_eq!(enhanced[6..8], major.to_be_bytes(), "the version stays");
        let cp = std::env::join_paths([&classes, &tf_runtime_classes()]).unwrap();
        let log = work.path().join("verification.log");
        let output = std::process::Command::new(&jdk("17").java)
            .args(["-Xverify:all", "-XX:-UseSharedSpaces"])
            .arg(format!("-Xlog:verification=info:file={}", log.display()))
            .arg("-cp")
            .arg(cp)
            .arg("fx.OldMain")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "version {major}:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(stdout, OLD_EVENTS, "version {major}");
        let log: String = std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .filter(|l| l.contains("fx.Old") || l.contains("Fail over"))
            .map(|l| format!("{l}\n"))
            .collect();
        let format = if major >= 50 { "new" } else { "old" };
        assert!(log.contains(&format!("Verifying class fx.Old with {format} format")), "version {major}:\n{log}");
        assert!(!log.contains("Fail over"), "version {major}: the type checker rejected TF's frames:\n{log}");
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
# a filter by annotation
enter Picked.pick [1]
exit Picked.pick = 2
(got 3)
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
            &["fx.Zoo$Plain::<clinit>;fx.Zoo$Plain::<init>", "Filtered=fx.Zoo$Plain::work", "@fx.Zoo$Sampled"],
        );
        let out = run_verified_with(&jdk(release).java, &[&classes, &tf_runtime_classes()], "fx.Zoo");
        assert_eq!(out, ZOO_EVENTS, "javac --release {release}");
    }
}

const ODD_EVENTS: &str = "\
# an info method taking the odd class
enter Noted.use [odd]
info Noted.seen from Noted.use [odd, 1] NONE
info Noted.listed from Noted.use [[2], odd] NONE
exit Noted.use = odd
(got odd)
# overloads taking the odd class
enter Picked.take(Odd$P)9) [odd]
exit Picked.take(Odd$P)9) = one odd
enter Picked.take(Odd$P)9,long) [odd, 2]
exit Picked.take(Odd$P)9,long) = two odd2
(got one odd two odd2)
private <T> void fx.Odd$Noted.listed(java.util.List<T>,fx.Odd$P)9,org.tracingfacility.runtime.MethodMonitor,int)
";

/// A `)` inside a method descriptor's parameters: a class name may hold one
/// (JVMS 4.2.1), javac cannot write one, so the fixture's class `Pq9` is
/// renamed `P)9` in the class files (same length: every Utf8 entry stays
/// well-formed). Info methods taking it get their two parameters after it,
/// in the descriptor and in a generic one's Signature, and overloads taking
/// it get tracing names that list it.
#[test]
fn a_parenthesis_in_a_class_name() {
    let work = tempfile::tempdir().unwrap();
    let classes = compiled(work.path(), "17", &["Top", "Sub", "Recorder", "Odd"]);
    for entry in std::fs::read_dir(classes.join("fx")).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let mut renamed = bytes.clone();
        for at in 0..bytes.len().saturating_sub(2) {
            if &bytes[at..at + 3] == b"Pq9" {
                renamed[at + 1] = b')';
            }
        }
        std::fs::write(&path, renamed).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        if name.contains("Pq9") {
            std::fs::rename(&path, path.with_file_name(name.replace("Pq9", "P)9"))).unwrap();
        }
    }
    assert!(classes.join("fx/Odd$P)9.class").is_file());
    enhance(&classes, &["fx.Odd$Picked::take"]);
    let out = run_verified_with(&jdk("17").java, &[&classes, &tf_runtime_classes()], "fx.Odd");
    assert_eq!(out, ODD_EVENTS);
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

/// The tracing names reach the runtime whole and in their order, whatever
/// they hold and however many: more than one constant can carry (their
/// modified UTF-8 past 65,535 bytes), and `@TracingName` values with a colon,
/// digits, NUL, a character outside the Basic Multilingual Plane.
#[test]
fn tracing_names_beyond_one_constant_and_of_any_character() {
    let padding = "x".repeat(60);
    let methods: Vec<String> = (0..1_200).map(|i| format!("m{i:04}_{padding}")).collect();
    let odd = [r"12:3", r"a\u0000b", r"\uD835\uDD18 \u00e9"];
    let mut source = String::from(
        "package fx;\nimport org.tracingfacility.annotation.Filtered;\nimport org.tracingfacility.annotation.TracingName;\n\
         import org.tracingfacility.runtime.MethodMonitorRegistry;\npublic class Many {\n    static final class Named {\n",
    );
    for name in &methods {
        source += &format!("        static void {name}() {{}}\n");
    }
    for (i, name) in odd.iter().enumerate() {
        source += &format!("        @TracingName(\"{name}\") static void odd{i}() {{}}\n");
    }
    source += "    }\n    public static void main(String[] args) {\n        MethodMonitorRegistry.register(Filtered.class, Recorder::new);\n";
    for name in &methods {
        source += &format!("        Named.{name}();\n");
    }
    for i in 0..odd.len() {
        source += &format!("        Named.odd{i}();\n");
    }
    // Escaped here: the JVM's stdout encoding depends on the locale.
    source += "        for (String e : Recorder.EVENTS) {\n            StringBuilder out = new StringBuilder();\n            \
               e.chars().forEach(c -> out.append(c >= 32 && c < 127 ? String.valueOf((char) c) : String.format(\"\\\\u%04x\", c)));\n            \
               System.out.println(out);\n        }\n    }\n}\n";
    let work = tempfile::tempdir().unwrap();
    let (recorder_path, recorder) = fixture("Recorder");
    let sources = [(recorder_path.as_str(), recorder.as_str()), ("fx/Many.java", source.as_str())];
    let classes = javac_with(&jdk("17").javac, work.path(), "17", &[&tf_runtime_classes()], &sources);
    enhance(&classes, &["fx.Many$Named"]);
    let out = run_verified_with(&jdk("17").java, &[&classes, &tf_runtime_classes()], "fx.Many");

    let shown = |name: &str| name.replace(r"\uD835\uDD18", r"\ud835\udd18");
    let expected: String = methods
        .iter()
        .map(String::as_str)
        .chain(odd)
        .map(|name| format!("enter Named.{0} []\nexit Named.{0}\n", shown(name)))
        .collect();
    assert_eq!(out, expected);
}
