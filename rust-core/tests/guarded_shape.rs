//! The guarded shape (stage 2 alone, the agent's, as classes load and in a
//! running JVM): at the byte level it adds no field, method or annotation and
//! changes no signature, and HotSpot retransforms a loaded class into it, runs
//! it with the exact events (its sites declared from the report, as the agent
//! does), and back to the original class file. What it cannot take is refused
//! with the reason.
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::{java_tool, javac_with, jdk25_home, tf_runtime_classes};
use tf_core::classfile::ClassFile;
use tf_core::pipeline;
use tf_core::request::{ClassInMemory, EnhanceReport, EnhanceRequest, Shape};

fn source(dir: &str, name: &str) -> (String, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(dir).join(format!("{name}.java"));
    (format!("fx/{name}.java"), std::fs::read_to_string(path).unwrap())
}

/// `javac` and `java` of the JDK that compiles `--release release`.
fn jdk(release: &str) -> (PathBuf, PathBuf) {
    if release == "25" {
        (jdk25_home().join("bin/javac"), jdk25_home().join("bin/java"))
    } else {
        (java_tool("javac"), java_tool("java"))
    }
}

/// The fixtures compiled into `work/classes`.
fn compiled(work: &Path, release: &str) -> PathBuf {
    let sources = [
        source("tracegen", "Traced"),
        source("tracegen", "Recorder"),
        source("tracegen", "Shapes"),
        source("retransform", "Counter"),
        source("retransform", "RetransformMain"),
    ];
    let refs: Vec<(&str, &str)> = sources.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    javac_with(&jdk(release).0, work, release, &[&tf_runtime_classes()], &refs)
}

/// `fx/<name>.class` of `classes` copied alone into `work/<dir>`, enhanced
/// there in the guarded shape (tracegen `true`) or at stage 1
/// (`false`, the standard shape) with the filter that selects `Counter.plain`.
fn enhance_copy(work: &Path, classes: &Path, name: &str, dir: &str, shape: Shape) -> (PathBuf, EnhanceReport) {
    let out = work.join(dir);
    std::fs::create_dir_all(out.join("fx")).unwrap();
    let file = format!("fx/{name}.class");
    std::fs::copy(classes.join(&file), out.join(&file)).unwrap();
    (out.clone(), enhance(&out, shape, true))
}

/// `fx/<name>.class` enhanced in memory, as the agent asks, at site 0: the
/// class written into `work/<dir>/fx`, and the registration the agent would
/// declare into `work/<dir>/registration.txt` (its groups on the first line,
/// comma-separated, then one tracing name a line) for the program to declare.
fn enhance_in_memory(work: &Path, classes: &Path, name: &str, dir: &str) -> PathBuf {
    let out = work.join(dir);
    std::fs::create_dir_all(out.join("fx")).unwrap();
    let file = format!("fx/{name}.class");
    let mut request = EnhanceRequest::new("");
    request.filters = vec!["fx.Counter::plain".to_string()];
    request.shape = Shape::Guarded;
    // The agent lists the TF groups the class's loader knows of.
    request.groups = vec!["fx.Traced".to_string()];
    request.class = Some(ClassInMemory {
        name: format!("fx.{name}"),
        bytes: std::fs::read(classes.join(&file)).unwrap(),
        supertypes: Vec::new(),
    });
    let report = tf_core::run(&request);
    assert!(report.ok, "{report:#?}");
    std::fs::write(out.join(&file), report.class_bytes.expect("enhanced")).unwrap();
    let registration = report.registration.expect("a guarded class's registration");
    let mut text = registration.groups.join(",");
    for tracing_name in &registration.tracing_names {
        text.push('\n');
        text.push_str(tracing_name);
    }
    std::fs::write(out.join("registration.txt"), text).unwrap();
    out
}

fn enhance(dir: &Path, shape: Shape, tracegen: bool) -> EnhanceReport {
    let mut request = EnhanceRequest::new(dir.to_str().unwrap());
    request.classpath = vec![dir.parent().unwrap().join("classes").display().to_string(), tf_runtime_classes().display().to_string()];
    request.filters = vec!["fx.Counter::plain".to_string()];
    request.shape = shape;
    request.tracegen = tracegen;
    request.threads = 1;
    pipeline::run(&request)
}

/// What a retransformation must keep: version, flags, names, super and
/// interfaces, every field and method with its flags and descriptor.
fn class_shape(bytes: &[u8]) -> Vec<String> {
    let class = ClassFile::parse(bytes).unwrap();
    let mut shape = vec![
        format!("version {}.{}", class.major_version(), class.minor_version()),
        format!("class {:#06x} {} extends {:?}", class.access_flags(), class.this_class().unwrap(), class.super_class().unwrap()),
        format!("implements {:?}", class.interfaces().unwrap()),
        format!("annotations {:?}", class.annotations().unwrap().iter().map(|a| a.type_descriptor.to_string()).collect::<Vec<_>>()),
    ];
    for (kind, members) in [("field", class.fields()), ("method", class.methods())] {
        for m in members {
            shape.push(format!("{kind} {:#06x} {}{}", m.access_flags, m.name().unwrap(), m.descriptor().unwrap()));
        }
    }
    shape
}

#[test]
fn guarded_shape_adds_no_member_and_changes_no_signature() {
    for release in ["8", "17", "25"] {
        let work = tempfile::tempdir().unwrap();
        let classes = compiled(work.path(), release);
        let (enhanced, report) = enhance_copy(work.path(), &classes, "Counter", "enhanced", Shape::Guarded);
        assert!(report.ok, "{report:#?}");
        assert_eq!(report.classes_enhanced, 1, "{}", report.summary);
        let original = std::fs::read(classes.join("fx/Counter.class")).unwrap();
        let written = std::fs::read(enhanced.join("fx/Counter.class")).unwrap();
        assert_ne!(original, written, "--release {release}: the bodies change");
        assert_eq!(class_shape(&written), class_shape(&original), "--release {release}");
    }
}

#[test]
fn a_running_jvm_retransforms_a_class_into_the_shape_and_back_to_the_class_as_loaded() {
    // One round of calls, as each traced run sees it.
    const TRACED: &str = "\
enter Counter.<init> [1]
exit Counter.<init>
enter Counter.add [2]
exit Counter.add = 3
enter Counter.twice [21]
exit Counter.twice = 42
enter Counter.fail [no]
exception Counter.fail java.lang.IllegalStateException: no
exit Counter.fail
enter Counter.plain []
exit Counter.plain = plain 3
";
    let events = format!(
        "# as loaded\n# retransformed\n{TRACED}(the JVM holds the class as loaded: false)\n\
         # restored\n(the JVM holds the class as loaded: true)\n\
         # retransformed again\n{TRACED}(the JVM holds the class as loaded: false)\n\
         (static initializer runs: 4 counters, counter 1)\n"
    );
    for release in ["17", "25"] {
        let work = tempfile::tempdir().unwrap();
        let classes = compiled(work.path(), release);
        let enhanced = enhance_in_memory(work.path(), &classes, "Counter", "enhanced");
        // premain is found on the class path; the jar only names it.
        let agent = work.path().join("agent.jar");
        let mut jar = zip::ZipWriter::new(std::fs::File::create(&agent).unwrap());
        jar.start_file("META-INF/MANIFEST.MF", zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(
            &mut jar,
            b"Manifest-Version: 1.0\r\nPremain-Class: fx.RetransformMain\r\nCan-Retransform-Classes: true\r\n\r\n",
        )
        .unwrap();
        jar.finish().unwrap();
        let cp = std::env::join_paths([&classes, &tf_runtime_classes()]).unwrap();
        let output = Command::new(jdk(release).1)
            .args(["-Xverify:all", "-XX:-UseSharedSpaces"])
            .arg(format!("-javaagent:{}", agent.display()))
            .arg("-cp")
            .arg(cp)
            .args(["fx.RetransformMain"])
            .arg(&enhanced)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
        assert_eq!(stdout, events, "--release {release}");
    }
}

#[test]
fn class_files_before_version_49_are_refused_with_the_reason_and_left_as_they_were() {
    let work = tempfile::tempdir().unwrap();
    let classes = compiled(work.path(), "8");
    let dir = work.path().join("old");
    std::fs::create_dir_all(dir.join("fx")).unwrap();
    let mut bytes = std::fs::read(classes.join("fx/Counter.class")).unwrap();
    bytes[6..8].copy_from_slice(&48u16.to_be_bytes());
    std::fs::write(dir.join("fx/Counter.class"), &bytes).unwrap();
    let report = enhance(&dir, Shape::Guarded, true);
    assert!(!report.ok);
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    let error = &report.errors[0];
    assert_eq!(error.class.as_deref(), Some("fx.Counter"));
    assert_eq!(error.rule, "retransform-class-version");
    assert!(error.message.starts_with("class file version 48 cannot name its own class"), "{}", error.message);
    assert_eq!(std::fs::read(dir.join("fx/Counter.class")).unwrap(), bytes, "left as it was");
}

#[test]
fn info_methods_are_refused_with_the_method_and_the_reason() {
    let work = tempfile::tempdir().unwrap();
    let classes = compiled(work.path(), "17");
    let (dir, report) = enhance_copy(work.path(), &classes, "Shapes", "shapes", Shape::Guarded);
    assert!(!report.ok);
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    let error = &report.errors[0];
    assert_eq!((error.class.as_deref(), error.rule.id()), (Some("fx.Shapes"), "retransform-info-method"));
    assert!(error.method.as_deref().is_some_and(|m| m.starts_with("note(")), "{error:?}");
    assert!(error.message.contains("needs stage 1 at build time"), "{}", error.message);
    let original = std::fs::read(classes.join("fx/Shapes.class")).unwrap();
    assert_eq!(std::fs::read(dir.join("fx/Shapes.class")).unwrap(), original, "left as it was");
}

#[test]
fn a_class_built_at_stage_one_gets_the_standard_stage_two_and_keeps_its_shape() {
    let work = tempfile::tempdir().unwrap();
    let classes = compiled(work.path(), "17");
    let dir = work.path().join("stage1");
    std::fs::create_dir_all(dir.join("fx")).unwrap();
    std::fs::copy(classes.join("fx/Counter.class"), dir.join("fx/Counter.class")).unwrap();
    let report = enhance(&dir, Shape::Standard, false);
    assert!(report.ok, "{report:#?}");
    let stage_one = std::fs::read(dir.join("fx/Counter.class")).unwrap();
    assert!(class_shape(&stage_one).iter().any(|m| m.contains("__tf$holder$")), "stage 1 adds holders");
    let report = enhance(&dir, Shape::Guarded, true);
    assert!(report.ok, "{report:#?}");
    assert_eq!(report.classes_enhanced, 1, "{}", report.summary);
    let stage_two = std::fs::read(dir.join("fx/Counter.class")).unwrap();
    assert_ne!(stage_two, stage_one);
    assert_eq!(class_shape(&stage_two), class_shape(&stage_one));
}

#[test]
fn a_class_in_memory_gets_the_bytes_a_directory_run_writes() {
    let work = tempfile::tempdir().unwrap();
    let classes = compiled(work.path(), "17");
    let (dir, report) = enhance_copy(work.path(), &classes, "Counter", "enhanced", Shape::Guarded);
    assert!(report.ok, "{report:#?}");
    let mut request = EnhanceRequest::new("");
    request.class = Some(ClassInMemory {
        name: "fx.Counter".to_string(),
        bytes: std::fs::read(classes.join("fx/Counter.class")).unwrap(),
        supertypes: Vec::new(),
    });
    request.groups = vec!["fx.Traced".to_string()];
    request.filters = vec!["fx.Counter::plain".to_string()];
    request.shape = Shape::Guarded;
    let report = tf_core::run(&request);
    assert!(report.ok, "{report:#?}");
    assert_eq!(report.class_bytes, Some(std::fs::read(dir.join("fx/Counter.class")).unwrap()));
}
