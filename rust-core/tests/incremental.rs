//! The incremental cache: after any sequence of edits — a class changed, added,
//! removed or renamed, a TF annotation's definition changed, a setting changed,
//! the cache damaged or deleted, a build interrupted — the class directory
//! holds exactly what a clean build gives. Each step below plays an
//! incremental compiler (javac's new output copied over the classes it
//! changed, stale classes deleted), runs TF with the cache, and compares with
//! a clean build: javac's output enhanced without a cache.
mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use support::{files_under, javac, with_tf_api};
use tf_core::pipeline;
use tf_core::request::{EnhanceReport, EnhanceRequest};

const IO: (&str, &str) = (
    "fx/IO.java",
    "package fx; import java.lang.annotation.*; import org.tracingfacility.annotation.MethodMonitorGroup;
     @Retention(RetentionPolicy.RUNTIME) @MethodMonitorGroup public @interface IO {}",
);
/// IO after its definition lost `@MethodMonitorGroup`: no longer a TF annotation.
const IO_PLAIN: (&str, &str) = (
    "fx/IO.java",
    "package fx; import java.lang.annotation.*;
     @Retention(RetentionPolicy.RUNTIME) public @interface IO {}",
);
const A1: (&str, &str) = ("fx/A.java", "package fx; @IO public class A { @IO public int read(int n) { return n + 1; } }");
const A2: (&str, &str) = ("fx/A.java", "package fx; @IO public class A { @IO public int read(int n) { return n * 2; } }");
const B: (&str, &str) = ("fx/B.java", "package fx; public class B { public String name() { return \"b\"; } }");
const B_RENAMED: (&str, &str) = ("fx/B2.java", "package fx; public class B2 { public String name() { return \"b\"; } }");
const C: (&str, &str) = ("fx/C.java", "package fx; @IO public class C { @IO void run() { } }");
const D: (&str, &str) = ("fx/D.java", "package fx; @IO public class D { @IO void go(long t) { } }");

type Tree = BTreeMap<String, Vec<u8>>;

fn tree(dir: &Path) -> Tree {
    files_under(dir).into_iter().map(|f| (f.clone(), std::fs::read(dir.join(&f)).unwrap())).collect()
}

fn write_tree(dir: &Path, files: &Tree) {
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

/// A project: javac's latest output and the class directory TF works on.
struct Project {
    work: tempfile::TempDir,
    compiled: Tree,
    versions: u32,
    filters: Vec<String>,
}

impl Project {
    fn new() -> Project {
        Project { work: tempfile::tempdir().unwrap(), compiled: Tree::new(), versions: 0, filters: Vec::new() }
    }

    fn classes(&self) -> PathBuf {
        self.work.path().join("project/target/classes")
    }

    fn cache(&self) -> PathBuf {
        self.work.path().join("project/target/tf-cache")
    }

    /// Compiles `sources` and updates the class directory as an incremental
    /// compiler would: only changed and new classes rewritten, stale ones deleted.
    fn compile(&mut self, sources: &[(&str, &str)]) {
        self.versions += 1;
        let out = javac(&self.work.path().join(format!("javac{}", self.versions)), "17", &with_tf_api(sources));
        let fresh: Tree = tree(&out).into_iter().filter(|(f, _)| f.starts_with("fx/")).collect();
        let classes = self.classes();
        for (name, bytes) in &fresh {
            if self.compiled.get(name) != Some(bytes) {
                write_tree(&classes, &BTreeMap::from([(name.clone(), bytes.clone())]));
            }
        }
        for name in self.compiled.keys().filter(|n| !fresh.contains_key(*n)) {
            std::fs::remove_file(classes.join(name)).unwrap();
        }
        self.compiled = fresh;
    }

    fn request(&self, dir: &Path, cache: Option<&Path>) -> EnhanceRequest {
        let mut request = EnhanceRequest::new(dir.to_str().unwrap());
        request.filters = self.filters.clone();
        request.cache_dir = cache.map(|c| c.display().to_string());
        request.resource_file = Some(dir.join("META-INF/tf/tfannotations.properties").display().to_string());
        request
    }

    /// TF with the cache, as the build runs it.
    fn build(&self) -> EnhanceReport {
        let report = pipeline::run(&self.request(&self.classes(), Some(&self.cache())));
        assert!(report.ok, "{report:#?}");
        report
    }

    /// What a clean build gives: javac's output, enhanced without a cache.
    fn clean_build(&self) -> Tree {
        let dir = self.work.path().join(format!("clean{}", self.versions));
        let _ = std::fs::remove_dir_all(&dir);
        write_tree(&dir, &self.compiled);
        let report = pipeline::run(&self.request(&dir, None));
        assert!(report.ok, "{report:#?}");
        tree(&dir)
    }

    fn assert_same_as_clean_build(&self, step: &str) {
        let (incremental, clean) = (tree(&self.classes()), self.clean_build());
        assert_eq!(
            incremental.keys().collect::<Vec<_>>(),
            clean.keys().collect::<Vec<_>>(),
            "{step}: the class directory lists other files than a clean build"
        );
        for (name, bytes) in &clean {
            assert!(incremental.get(name) == Some(bytes), "{step}: {name} differs from a clean build's");
        }
    }
}

#[test]
fn every_edit_sequence_ends_where_a_clean_build_does() {
    let mut p = Project::new();
    p.compile(&[IO, A1, B, C]);
    let first = p.build();
    assert_eq!((first.classes_scanned, first.classes_enhanced, first.classes_up_to_date), (4, 2, 0), "{first:#?}");
    p.assert_same_as_clean_build("first build");

    let nothing = p.build();
    assert_eq!(nothing.classes_up_to_date, 4, "{nothing:#?}");
    assert!(nothing.written.is_empty(), "an unchanged build writes nothing: {:?}", nothing.written);
    assert!(nothing.summary.contains("4 up to date in the cache"), "{}", nothing.summary);
    p.assert_same_as_clean_build("nothing changed");

    p.compile(&[IO, A2, B, C]);
    let one = p.build();
    assert_eq!((one.classes_enhanced, one.classes_up_to_date), (1, 3), "{one:#?}");
    p.assert_same_as_clean_build("one class changed");

    p.compile(&[IO, A2, B, D]);
    p.build();
    p.assert_same_as_clean_build("a class added, another removed");

    p.compile(&[IO, A2, B_RENAMED, D]);
    p.build();
    p.assert_same_as_clean_build("a class renamed");

    p.filters = vec!["fx.B2".into()];
    let filtered = p.build();
    assert_eq!(filtered.classes_up_to_date, 0, "a setting changed: every class is redone from its original");
    assert_eq!(filtered.classes_enhanced, 3, "{filtered:#?}");
    p.assert_same_as_clean_build("a filter added");

    p.filters.clear();
    let unfiltered = p.build();
    assert!(unfiltered.written.iter().any(|f| f.ends_with("B2.class")), "B2 gets its original back");
    p.assert_same_as_clean_build("the filter removed");

    p.compile(&[IO_PLAIN, A2, B_RENAMED, D]);
    let plain = p.build();
    assert!(plain.annotations.is_empty(), "{plain:#?}");
    p.assert_same_as_clean_build("IO no longer a TF annotation");

    p.compile(&[IO, A2, B_RENAMED, D]);
    p.build();
    p.assert_same_as_clean_build("IO a TF annotation again");
    let kept = std::fs::read_dir(p.cache().join("originals")).unwrap().count();
    assert_eq!(kept, 4, "the cache keeps the originals of the four classes there are, and no others");
}

#[test]
fn a_damaged_or_deleted_cache_changes_nothing_but_the_time_taken() {
    let mut p = Project::new();
    p.compile(&[IO, A1, B, C]);
    p.build();

    std::fs::write(p.cache().join("state"), b"\x81\xa6format\x01 and then garbage").unwrap();
    let damaged = p.build();
    assert_eq!(damaged.warnings.len(), 1, "{damaged:#?}");
    assert!(damaged.warnings[0].contains("rebuilding"), "{}", damaged.warnings[0]);
    assert!(damaged.written.is_empty(), "classes already enhanced stay as they are: {:?}", damaged.written);
    p.assert_same_as_clean_build("state damaged");
    assert_eq!(p.build().classes_up_to_date, 4, "the rebuilt state serves the next build");

    std::fs::remove_dir_all(p.cache()).unwrap();
    p.build();
    p.assert_same_as_clean_build("cache deleted");
    p.compile(&[IO, A2, B, C]);
    p.build();
    p.assert_same_as_clean_build("cache deleted, then a class changed");
}

#[test]
fn a_rebuilt_state_finds_the_kept_originals_when_the_settings_change() {
    let mut p = Project::new();
    p.compile(&[IO, A1, B, C]);
    p.build();
    std::fs::write(p.cache().join("state"), b"\x81\xa6format\x01 and then garbage").unwrap();
    p.build();
    p.assert_same_as_clean_build("state damaged and rebuilt");

    // The class files hold TF's output of the old settings; the originals
    // the cache kept are what the new settings start from.
    p.filters = vec!["fx.B".into()];
    let changed = pipeline::run(&p.request(&p.classes(), Some(&p.cache())));
    assert!(changed.ok, "the rebuilt state still knows each class's original: {:#?}", changed.errors);
    assert_eq!(changed.classes_enhanced, 3, "{changed:#?}");
    p.assert_same_as_clean_build("settings changed after the state was rebuilt");
}

#[test]
fn an_interrupted_build_is_finished_by_the_next() {
    let mut p = Project::new();
    p.compile(&[IO, A1, B, C]);
    p.build();
    // A build killed after saving its state but before writing A: the file
    // holds javac's bytes, which the state knows as A's original.
    p.compile(&[IO, A2, B, C]);
    let a = p.classes().join("fx/A.class");
    let javac_bytes = std::fs::read(&a).unwrap();
    p.build();
    std::fs::write(&a, &javac_bytes).unwrap();
    let next = p.build();
    assert_eq!(next.classes_enhanced, 1, "{next:#?}");
    p.assert_same_as_clean_build("after the interrupted build");
}

#[test]
fn settings_changed_with_the_originals_gone_asks_for_a_clean_build() {
    let mut p = Project::new();
    p.compile(&[IO, A1, B, C]);
    p.build();
    let before = tree(&p.classes());
    std::fs::remove_dir_all(p.cache()).unwrap();
    p.filters = vec!["fx.B".into()];
    let report = pipeline::run(&p.request(&p.classes(), Some(&p.cache())));
    assert!(!report.ok);
    let rules: Vec<&str> = report.errors.iter().map(|e| e.rule.id()).collect();
    assert_eq!(rules, ["enhanced-with-other-settings", "enhanced-with-other-settings"], "{report:#?}");
    assert!(report.errors[0].message.contains("clean build"), "{}", report.errors[0]);
    assert_eq!(tree(&p.classes()), before, "nothing was written");
}

#[test]
fn two_builds_at_once_on_one_directory_take_turns() {
    let mut p = Project::new();
    p.compile(&[IO, A1, B, C, D]);
    let p = &p;
    std::thread::scope(|s| {
        let runs: Vec<_> = (0..4).map(|_| s.spawn(move || p.build())).collect();
        for run in runs {
            run.join().unwrap();
        }
    });
    p.assert_same_as_clean_build("four concurrent builds");
}

#[test]
fn temporary_files_a_killed_run_left_are_removed_only_under_the_lock() {
    let mut p = Project::new();
    p.compile(&[IO, A1, B]);
    let stale = [p.classes().join(".tf-a1B2c3.tmp"), p.classes().join("fx/.tf-x9Y8z7.tmp")];
    let create = || stale.iter().for_each(|f| std::fs::write(f, b"half a class").unwrap());
    create();

    // Without a cache there is no lock: another run could be writing them.
    let report = pipeline::run(&p.request(&p.classes(), None));
    assert!(report.ok, "{report:#?}");
    assert!(stale.iter().all(|f| f.is_file()), "left in place without the lock");
    assert!(report.warnings.iter().any(|w| w.contains("2 temporary file(s)") && w.contains("not removed")), "{:?}", report.warnings);

    // A dry run changes nothing either.
    let mut dry = p.request(&p.classes(), Some(&p.cache()));
    dry.dry_run = true;
    assert!(pipeline::run(&dry).ok);
    assert!(stale.iter().all(|f| f.is_file()), "left in place by a dry run");

    let built = p.build();
    assert!(stale.iter().all(|f| !f.exists()), "removed by a run holding the cache lock");
    assert!(built.warnings.iter().any(|w| w.contains("removed 2 temporary file(s)")), "{:?}", built.warnings);
    assert!(p.build().warnings.is_empty(), "reported once");
}
