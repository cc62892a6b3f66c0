//! Class files nobody here wrote, taken from jars on Maven Central
//! (`tests/fixtures/realworld/README.md` names each), enhanced with every
//! method monitored and then judged by HotSpot: each class defined by a
//! child-first class loader and linked (`VerifyAll`), and where the classes
//! can run on their own, run with a recording monitor and their events
//! asserted. Each test is a kind of code the engine once failed on.
mod support;

use std::path::{Path, PathBuf};
use support::{files_under, java_tool, javac_against, run_verified, tf_runtime_classes};
use tf_core::classfile::class_files;
use tf_core::enhance::{self, Outcome, Settings};
use tf_core::filter::FilterSpec;
use tf_core::model::{Groups, Selection};
use tf_core::pipeline;
use tf_core::request::EnhanceRequest;
use tf_core::workspace::Workspace;
use tf_core::{protocol, scan};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A copy of the fixture jar content `name` under `work/classes`.
fn copied(work: &Path, name: &str) -> PathBuf {
    let from = fixtures().join("realworld").join(name);
    let to = work.join("classes");
    for file in files_under(&from) {
        let target = to.join(&file);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(from.join(&file), target).unwrap();
    }
    to
}

/// Enhances `classes` with `filter` (the built-in Filtered group) and
/// returns the run's diagnostics if it failed.
fn enhance_with(classes: &Path, filter: &str) -> Result<usize, Vec<String>> {
    let mut request = EnhanceRequest::new(classes.to_str().unwrap());
    request.classpath = vec![tf_runtime_classes().display().to_string()];
    request.filters = vec![filter.to_string()];
    let report = pipeline::run(&request);
    if report.ok {
        Ok(report.classes_enhanced as usize)
    } else {
        Err(report.errors.iter().map(|d| d.to_string()).collect())
    }
}

/// What HotSpot says of every class under `classes` (or of those named),
/// linked one by one.
fn verify_all(work: &Path, classes: &Path, names: &[&str]) -> String {
    let harness = javac_against(
        &work.join("harness"),
        "17",
        &[],
        &[("fx/VerifyAll.java", &std::fs::read_to_string(fixtures().join("realworld/VerifyAll.java")).unwrap())],
    );
    let output = std::process::Command::new(java_tool("java"))
        .arg("-cp")
        .arg(std::env::join_paths([harness, tf_runtime_classes()]).unwrap())
        .arg("fx.VerifyAll")
        .arg(classes)
        .args(names)
        .output()
        .expect("run java");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A fixture `main` (with the tracegen Recorder) compiled against `classes`
/// as they were before enhancing.
fn compiled_main(work: &Path, classes: &Path, main: &str) -> PathBuf {
    compiled_main_with(work, classes, main, None)
}

/// [`compiled_main`] with the Java sources under fixture directory `beside`
/// compiled with it (stand-ins for a library the classes call).
fn compiled_main_with(work: &Path, classes: &Path, main: &str, beside: Option<&str>) -> PathBuf {
    let read = |p: PathBuf| std::fs::read_to_string(p).unwrap();
    let mut sources = vec![
        (format!("fx/{main}.java"), read(fixtures().join(format!("realworld/{main}.java")))),
        ("fx/Recorder.java".to_string(), read(fixtures().join("tracegen/Recorder.java"))),
    ];
    if let Some(dir) = beside {
        let root = fixtures().join("realworld").join(dir);
        for file in files_under(&root) {
            let text = read(root.join(&file));
            sources.push((file, text));
        }
    }
    let refs: Vec<(&str, &str)> = sources.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    javac_against(&work.join("main"), "17", &[classes, &tf_runtime_classes()], &refs)
}

fn major_version(class: &Path) -> u16 {
    let bytes = std::fs::read(class).unwrap();
    u16::from_be_bytes([bytes[6], bytes[7]])
}

/// kotlinc's suspend lambdas return with values left below the result
/// (`dup; …; if_acmpne; areturn`); a jump to one exit block carried them
/// along and HotSpot refused the class ("Inconsistent stackmap frames").
#[test]
fn kotlin_state_machines_returning_over_a_full_stack_still_verify() {
    let work = tempfile::tempdir().unwrap();
    let classes = copied(work.path(), "kotlin-stdlib-2.0.20");
    assert_eq!(enhance_with(&classes, "**"), Ok(5));
    let out = verify_all(work.path(), &classes, &[]);
    assert!(out.ends_with("15 verified, 0 failed\n"), "{out}");
    assert!(out.contains("verified kotlin.sequences.SequencesKt__SequencesKt$ifEmpty$1\n"), "{out}");
}

/// ASM's `Handle(int, String, String, String)` calls
/// `this(tag, owner, name, descriptor, tag == H_INVOKEINTERFACE)`: a branch
/// before the chaining call, in a class file of version 49 (no frames).
/// Refused before ("cannot find the super(...) or this(...) call"); now
/// monitored from just after the call, on both arms of the branch.
#[test]
fn a_branch_in_the_arguments_of_this_is_followed_to_the_chaining_call() {
    let work = tempfile::tempdir().unwrap();
    let classes = copied(work.path(), "asm-9.7.1");
    let main = compiled_main(work.path(), &classes, "HandleMain");
    assert_eq!(enhance_with(&classes, "org.objectweb.asm.Handle::<init>"), Ok(1));
    let out = run_verified(&[&main, &classes, &tf_runtime_classes()], "fx.HandleMain");
    assert_eq!(
        out,
        "# constructors\n\
         enter Handle.<init>(int,String,String,String,boolean) [9, o/Owner, m, ()V, true]\n\
         exit Handle.<init>(int,String,String,String,boolean)\n\
         enter Handle.<init>(int,String,String,String) [9, o/Owner, m, ()V]\n\
         exit Handle.<init>(int,String,String,String)\n\
         enter Handle.<init>(int,String,String,String,boolean) [6, o/Owner, n, ()I, false]\n\
         exit Handle.<init>(int,String,String,String,boolean)\n\
         enter Handle.<init>(int,String,String,String) [6, o/Owner, n, ()I]\n\
         exit Handle.<init>(int,String,String,String)\n\
         true false\n"
    );
}

/// Commons Collections 2.1 is made of Java 1.1 class files (version 45)
/// whose `finally` blocks are `jsr`/`ret` subroutines. Refused before
/// ("class file version 45 is older than Java 5"); now raised to 49, which
/// keeps subroutines and needs no stack map frames, and run.
#[test]
fn java_1_1_class_files_with_subroutines_are_raised_to_java_5_and_run() {
    let work = tempfile::tempdir().unwrap();
    let classes = copied(work.path(), "commons-collections-2.1");
    let class = classes.join("org/apache/commons/collections/FastHashMap.class");
    assert_eq!(major_version(&class), 45);
    let main = compiled_main(work.path(), &classes, "FastHashMapMain");
    assert_eq!(enhance_with(&classes, "org.apache.commons.collections.FastHashMap::put;::get;::setFast"), Ok(1));
    assert_eq!(major_version(&class), 49);
    let bytes = std::fs::read(&class).unwrap();
    assert!(!bytes.windows(13).any(|w| w == b"StackMapTable"), "a StackMapTable below version 50");
    let out = run_verified(&[&main, &classes, &tf_runtime_classes()], "fx.FastHashMapMain");
    assert_eq!(
        out,
        "# slow, then fast\n\
         enter FastHashMap.put [a, 1]\n\
         exit FastHashMap.put = null\n\
         enter FastHashMap.setFast [true]\n\
         exit FastHashMap.setFast\n\
         enter FastHashMap.put [b, 2]\n\
         exit FastHashMap.put = null\n\
         enter FastHashMap.get [a]\n\
         exit FastHashMap.get = 1\n\
         1 2\n"
    );
}

/// Groovy selects the superclass constructor at run time and calls
/// `super(...)` in each case of a switch, with the argument array left on
/// the stack below: five chaining calls, one per path. Monitoring started
/// after the first of them, so the other paths reached the body without its
/// locals, and HotSpot refused the class ("Inconsistent stackmap frames",
/// "Type top (current frame, locals[3]) is not assignable to
/// MethodMonitor"). Now each path starts monitoring after its own call.
/// (The three `groovy.lang` interfaces are there for HotSpot to load.)
#[test]
fn a_constructor_chaining_in_each_case_of_a_switch_is_monitored_after_each_call() {
    let work = tempfile::tempdir().unwrap();
    let classes = copied(work.path(), "groovy-4.0.24");
    assert_eq!(enhance_with(&classes, "groovy.cli.CliBuilderException"), Ok(1));
    let out = verify_all(work.path(), &classes, &["groovy.cli.CliBuilderException"]);
    assert_eq!(out, "verified groovy.cli.CliBuilderException\n1 verified, 0 failed\n");
}

/// kotlin-reflect is shrunk by ProGuard, whose stack map frames declare a
/// parameter the code does not read again `top`: after `super(...)` in
/// `CallerImpl.FieldGetter(Field, boolean)`, `CallerImpl.FieldSetter(Field,
/// boolean, boolean)` and `CallerImpl.Method(Method, boolean, Type[])` the
/// parameters are gone. The prologue read them there; the pre-write check
/// refused that code ("local 1 holds top (no value) where the stack map frame
/// at offset 110 declares a reference") and the constructors were skipped,
/// 11 in the jar. Now the parameters are copied first thing and reported from
/// the copies. (kotlin-stdlib is stood in for by the few members the
/// constructors call, `kotlin-stubs/`.)
#[test]
fn parameters_a_shrinker_drops_before_super_are_still_reported() {
    let work = tempfile::tempdir().unwrap();
    let classes = copied(work.path(), "kotlin-reflect-2.2.21");
    let main = compiled_main_with(work.path(), &classes, "KotlinReflectMain", Some("kotlin-stubs"));
    assert_eq!(enhance_with(&classes, "**"), Ok(6));
    let out = verify_all(work.path(), &classes, &[]);
    assert!(out.ends_with("7 verified, 0 failed\n"), "{out}");
    let out = run_verified(&[&main, &classes, &tf_runtime_classes()], "fx.KotlinReflectMain");
    // The Field and `false` that FieldGetter's frames declare gone after super(...).
    assert_eq!(
        out,
        "# constructors\n\
         enter CallerImpl.<clinit> []\n\
         enter Companion.<init> []\n\
         exit Companion.<init>\n\
         exit CallerImpl.<clinit>\n\
         enter CallerImpl.<init> [public static int fx.KotlinReflectMain.answer, int, null, []]\n\
         exit CallerImpl.<init>\n\
         enter FieldGetter.<init> [public static int fx.KotlinReflectMain.answer, false]\n\
         exit FieldGetter.<init>\n\
         enter Static.<init> [public static int fx.KotlinReflectMain.answer]\n\
         exit Static.<init>\n\
         public static int fx.KotlinReflectMain.answer []\n"
    );
}

/// Java 25 runs statements before `super(...)` (JEP 513): a local set
/// there, in a try/catch, is read after the call. Monitoring started with
/// the parameters only, so HotSpot refused the class ("Type top (current
/// frame, locals[2]) is not assignable to integer"); now the prologue's
/// frames hold the locals as the call left them. A throw before the call
/// is no event: monitoring starts after it.
#[test]
fn java_25_statements_before_super_keep_their_locals() {
    let work = tempfile::tempdir().unwrap();
    let read = |p: PathBuf| std::fs::read_to_string(p).unwrap();
    let sources = [
        ("fx/Early.java".to_string(), read(fixtures().join("realworld/Early.java"))),
        ("fx/Recorder.java".to_string(), read(fixtures().join("tracegen/Recorder.java"))),
    ];
    let refs: Vec<(&str, &str)> = sources.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let classes = support::javac_with(
        &support::jdk25_home().join("bin/javac"),
        work.path(),
        "25",
        &[&tf_runtime_classes()],
        &refs,
    );
    assert_eq!(enhance_with(&classes, "fx.Early::<init>"), Ok(1));
    let java = support::jdk25_home().join("bin/java");
    let out = support::run_verified_with(&java, &[&classes, &tf_runtime_classes()], "fx.Early");
    assert_eq!(
        out,
        "12 -1\nrefused\n# early\n\
         enter Early.<init> [12]\nexit Early.<init>\n\
         enter Early.<init> [x]\nexit Early.<init>\n"
    );
}

/// The splice (tracegen's fast path) and the general path write the same
/// bytes for every fixture class, failures included.
#[test]
fn splicing_matches_the_general_path_on_real_world_classes() {
    let builtin = protocol::FILTERED_GROUP.replace('/', ".");
    let groups = Groups::new([builtin.clone()]);
    let selections = vec![Selection::new(FilterSpec::parse("**").expect("filter"), builtin)];
    let spliced_settings = Settings::tracing(&["**"]);
    let general_settings = Settings { splice: false, ..spliced_settings.clone() };
    let spliced_run = enhance::Run::new(&groups, &selections, &spliced_settings);
    let general_run = enhance::Run::new(&groups, &selections, &general_settings);
    let mut workspace = Workspace::default();
    let mut compared = 0;
    for jar in
        ["kotlin-stdlib-2.0.20", "asm-9.7.1", "commons-collections-2.1", "groovy-4.0.24", "kotlin-reflect-2.2.21"]
    {
        for file in class_files(&fixtures().join("realworld").join(jar)).expect("list classes") {
            let scanned = scan::scan_class(&file, std::fs::read(&file).unwrap()).expect("scan");
            let mut enhance_with = |run: &enhance::Run| {
                match enhance::enhance_class(&scanned, run, &mut workspace) {
                    Ok(Outcome::Enhanced { bytes, .. }) => Ok(Some(bytes)),
                    Ok(_) => Ok(None),
                    Err(diagnostics) => Err(format!("{diagnostics:?}")),
                }
            };
            let (spliced, general) = (enhance_with(&spliced_run), enhance_with(&general_run));
            assert_eq!(spliced, general, "{}", file.display());
            compared += 1;
        }
    }
    assert_eq!(compared, 28);
}
