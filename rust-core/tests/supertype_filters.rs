//! `Type+` targets: a class is selected when the named type is among its
//! supertypes. A build knows them from its own classes and the class path (a
//! chain through a class in neither is not followed, and the filter that then
//! selects nothing says why); the agent sends them with a class in memory.
mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use support::{javac_against, run_verified, tf_runtime_classes};
use tf_core::pipeline;
use tf_core::request::{ClassInMemory, EnhanceReport, EnhanceRequest};

/// A library: `lib.Sink`, `lib.AbstractSink implements Sink`, and
/// `lib2.Missing implements Sink`, which the builds below leave off their class path.
const LIBRARY: &[(&str, &str)] = &[
    ("lib/Sink.java", "package lib; public interface Sink extends java.io.Closeable { void write(int b); }"),
    (
        "lib/AbstractSink.java",
        "package lib; public abstract class AbstractSink implements Sink { public void close() {} }",
    ),
    ("lib2/Missing.java", "package lib2; public abstract class Missing implements lib.Sink { }"),
];

/// The application: one sink through the library's abstract class, one
/// direct, one through the missing class, and one that is no sink.
const APPLICATION: &[(&str, &str)] = &[
    (
        "app/FileSink.java",
        "package app; public class FileSink extends lib.AbstractSink { public void write(int b) {} public void flush() {} }",
    ),
    ("app/Direct.java", "package app; public class Direct implements lib.Sink { public void write(int b) {} public void close() {} }"),
    ("app/Far.java", "package app; public class Far extends lib2.Missing { public void write(int b) {} public void close() {} }"),
    ("app/Plain.java", "package app; public class Plain { public void write(int b) {} }"),
    (
        "app/Main.java",
        "package app;
         import org.tracingfacility.runtime.*;
         public class Main {
           public static void main(String[] args) {
             java.util.List<String> entered = new java.util.ArrayList<>();
             MethodMonitorRegistry.register(org.tracingfacility.annotation.Filtered.class, cls -> new MethodMonitor() {
               public Class<?> myClass() { return cls; }
               public void enter(int id, Object... a) { entered.add(cls.getSimpleName() + '.' + MethodMonitorRegistry.methodName(cls, id)); }
               public void info(Object[] a, int caller, int self, TimingPointType tp) {}
               public void exit(int id) {}
               public void exit(int id, Object result) {}
               public void exception(int id, Throwable t) {}
               public void clear() {}
             });
             new FileSink().write(1); new Direct().write(2); new Far().write(3); new Plain().write(4);
             System.out.println(entered);
           }
         }",
    ),
];

/// The library compiled and packed into `lib.jar` (without `lib2`), and the
/// application compiled against all of it and tf-runtime.
fn compiled(work: &Path) -> (PathBuf, PathBuf) {
    let library = javac_against(&work.join("lib"), "11", &[], LIBRARY);
    let jar = work.join("lib.jar");
    jar_of(&library, &["lib/Sink.class", "lib/AbstractSink.class"], &jar);
    let classes = javac_against(&work.join("app"), "11", &[&library, &tf_runtime_classes()], APPLICATION);
    (classes, jar)
}

fn jar_of(classes: &Path, entries: &[&str], jar: &Path) {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(jar).unwrap());
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for entry in entries {
        zip.start_file(*entry, options).unwrap();
        zip.write_all(&std::fs::read(classes.join(entry)).unwrap()).unwrap();
    }
    zip.finish().unwrap();
}

fn build(classes: &Path, classpath: &[&Path], filters: &[&str], cache: Option<&Path>) -> EnhanceReport {
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.classpath = classpath.iter().map(|p| p.display().to_string()).collect();
    request.filters = filters.iter().map(|f| f.to_string()).collect();
    request.cache_dir = cache.map(|c| c.display().to_string());
    request.verbose = 2;
    request.threads = 1;
    let report = pipeline::run(&request);
    assert!(report.ok, "{report:#?}");
    report
}

/// The methods a run traced, as its `verbose=2` lines name them.
fn traced(report: &EnhanceReport) -> Vec<String> {
    let mut methods: Vec<String> = report
        .messages
        .iter()
        .filter_map(|m| m.trim().split_once(": monitored").map(|(method, _)| method.to_string()))
        .collect();
    methods.sort();
    methods
}

#[test]
fn a_build_follows_the_chain_through_its_classes_and_the_class_path() {
    let work = tempfile::tempdir().unwrap();
    let (classes, jar) = compiled(work.path());
    let report = build(&classes, &[&jar], &["lib.Sink+::write"], None);
    assert_eq!(traced(&report), ["app.Direct.write(I)V", "app.FileSink.write(I)V"], "{report:#?}");
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    // Run, the monitor sees the sinks' writes only (lib2's classes last on the class path).
    let library = work.path().join("lib/classes");
    let out = run_verified(&[&classes, &jar, &library, &tf_runtime_classes()], "app.Main");
    assert_eq!(out, "[FileSink.write, Direct.write]\n");

    // Every method of the subtypes; `Far` only by the type its own file names.
    let report = build(&classes, &[&jar], &["lib2.Missing+"], None);
    assert_eq!(traced(&report), ["app.Far.<init>()V", "app.Far.close()V", "app.Far.write(I)V"]);
}

#[test]
fn without_the_jar_only_the_direct_supertypes_are_known_and_the_warning_says_why() {
    let work = tempfile::tempdir().unwrap();
    let (classes, _) = compiled(work.path());
    let report = build(&classes, &[], &["lib.Sink+::write", "java.io.Closeable+::close"], None);
    assert_eq!(traced(&report), ["app.Direct.write(I)V"], "{report:#?}");
    assert_eq!(
        report.warnings,
        [format!(
            "TF: filter 'java.io.Closeable+::close' selected no method of the classes in {}: TF enhances only the \
             classes compiled here, and knows their supertypes from these classes and the class path alone: a \
             chain through a class in neither (a JDK class between, such as java.io.FilterOutputStream) is not \
             followed (README: \"A type and its subtypes\")",
            classes.display()
        )]
    );
}

#[test]
fn a_changed_hierarchy_selects_anew_on_an_incremental_build() {
    let work = tempfile::tempdir().unwrap();
    let (classes, jar) = compiled(work.path());
    let cache = work.path().join("cache");
    let first = build(&classes, &[&jar], &["lib.Sink+::write"], Some(&cache));
    assert_eq!(first.classes_enhanced, 2, "{}", first.summary);
    let again = build(&classes, &[&jar], &["lib.Sink+::write"], Some(&cache));
    assert_eq!(again.classes_up_to_date, 6, "nothing changed: {}", again.summary);
    // The library's abstract class no longer implements Sink: FileSink is no sink any more.
    let changed = javac_against(
        &work.path().join("lib-changed"),
        "11",
        &[],
        &[("lib/AbstractSink.java", "package lib; public abstract class AbstractSink { public void close() {} }")],
    );
    let original = work.path().join("lib");
    std::fs::copy(changed.join("lib/AbstractSink.class"), original.join("classes/lib/AbstractSink.class")).unwrap();
    jar_of(&original.join("classes"), &["lib/Sink.class", "lib/AbstractSink.class"], &jar);
    let after = build(&classes, &[&jar], &["lib.Sink+::write"], Some(&cache));
    assert_eq!(after.classes_up_to_date, 0, "{}", after.summary);
    // Direct keeps the same output (not written again); FileSink gets its original back.
    assert_eq!(after.messages, ["restored the original of app.FileSink"], "{after:#?}");
}

#[test]
fn a_class_in_memory_is_selected_by_the_supertypes_the_agent_sends() {
    let work = tempfile::tempdir().unwrap();
    let (classes, _) = compiled(work.path());
    let in_memory = |supertypes: &[&str]| {
        let mut request = EnhanceRequest::new("");
        request.class = Some(ClassInMemory {
            name: "app.FileSink".into(),
            bytes: std::fs::read(classes.join("app/FileSink.class")).unwrap(),
            supertypes: supertypes.iter().map(|s| s.to_string()).collect(),
        });
        request.filters = vec!["java.io.Closeable+::write".into()];
        request.verbose = 2;
        tf_core::run(&request)
    };
    let told = in_memory(&["lib.AbstractSink", "java.lang.Object", "lib.Sink", "java.io.Closeable", "java.lang.AutoCloseable"]);
    assert!(told.ok, "{told:#?}");
    assert_eq!(told.classes_enhanced, 1, "{told:#?}");
    assert_eq!(traced(&told), ["app.FileSink.write(I)V"]);
    let untold = in_memory(&[]);
    assert!(untold.ok && untold.classes_enhanced == 0 && untold.class_bytes.is_none(), "{untold:#?}");
}
