//! Splicing — tracegen's fast path, which copies a method's code and
//! rewrites only its returns, throws, branches and switches, instead of
//! lifting it into the code model — writes exactly what the general path
//! writes. Every class of the JDK 17 and JDK 25 runtime images, every method
//! monitored (`-filter '**'`), is enhanced both ways and compared byte for
//! byte, failures included; and the JDK 17 image with only constructors
//! monitored, where stage 1 puts its registration in `<clinit>` alone.
//!
//! Run it optimized: `cargo test --profile test-release -p tf-core --test splice_matches_general_path`.

mod support;

use support::extracted_image;
use tf_core::classfile::class_files;
use tf_core::enhance::{self, Outcome, Settings};
use tf_core::filter::FilterSpec;
use tf_core::model::{Groups, Selection};
use tf_core::workspace::Workspace;
use tf_core::{protocol, scan};


/// What enhancing one class gave, comparable across the two paths.
#[derive(Debug, PartialEq, Eq)]
enum Result {
    Enhanced(Vec<u8>),
    Untouched,
    Failed(Vec<String>),
}

fn assert_splicing_matches(java_home: &str, label: &str, filter: &str) {
    let dir = extracted_image(java_home, label);
    let builtin = protocol::FILTERED_GROUP.replace('/', ".");
    let groups = Groups::new([builtin.clone()]);
    let selections = vec![Selection::new(FilterSpec::parse(filter).expect("filter"), builtin)];
    let spliced_settings = Settings::tracing(&[filter]);
    let general_settings = Settings { splice: false, ..spliced_settings.clone() };
    let spliced_run = enhance::Run::new(&groups, &selections, &spliced_settings);
    let general_run = enhance::Run::new(&groups, &selections, &general_settings);
    // One workspace each, so that the counts are the spliced run's alone.
    let (mut spliced_workspace, mut general_workspace) = (Workspace::default(), Workspace::default());

    let enhance_with = |scanned: &scan::ScannedClass, run: &enhance::Run, workspace: &mut Workspace| {
        match enhance::enhance_class(scanned, run, workspace) {
            Ok(Outcome::Enhanced { bytes, .. }) => Result::Enhanced(bytes),
            Ok(Outcome::Untouched | Outcome::Current | Outcome::Skipped(_)) => Result::Untouched,
            Err(diagnostics) => Result::Failed(diagnostics.iter().map(|d| format!("{d:?}")).collect()),
        }
    };

    let (mut enhanced, mut failed) = (0usize, 0usize);
    let mut differing = Vec::new();
    for file in class_files(&dir).expect("list classes") {
        let bytes = std::fs::read(&file).expect("read class");
        let Ok(scanned) = scan::scan_class(&file, bytes) else {
            continue;
        };
        let spliced = enhance_with(&scanned, &spliced_run, &mut spliced_workspace);
        let general = enhance_with(&scanned, &general_run, &mut general_workspace);
        match &spliced {
            Result::Enhanced(_) => enhanced += 1,
            Result::Failed(_) => failed += 1,
            Result::Untouched => {}
        }
        if spliced != general {
            differing.push(file.display().to_string());
        }
    }
    let statistics = spliced_workspace.statistics();
    let (spliced_methods, templated) = (statistics.spliced_methods, statistics.templated_methods);
    assert_eq!(general_workspace.statistics().spliced_methods, 0, "{label}: splicing off, yet methods spliced");
    println!(
        "{label}: {enhanced} classes enhanced, {failed} failed, {spliced_methods} methods spliced \
         ({templated} from templates), {} differ",
        differing.len()
    );
    // Most spliced methods copy their shape's template, so the comparison covers templates.
    assert!(templated > spliced_methods / 2, "{label}: only {templated} of {spliced_methods} methods from templates");
    assert!(enhanced > 10_000, "{label}: only {enhanced} classes enhanced");
    if filter != "**" {
        assert!(spliced_methods > enhanced as u64 / 2, "{label}: only {spliced_methods} methods spliced");
        assert!(differing.is_empty(), "{label}: splicing and the general path differ on {:#?}", &differing[..differing.len().min(20)]);
        return;
    }
    // Most methods take the fast path (the rest: code it declines).
    assert!(
        spliced_methods > 5 * enhanced as u64,
        "{label}: only {spliced_methods} methods spliced in {enhanced} classes"
    );
    assert!(
        differing.is_empty(),
        "{label}: splicing and the general path differ on {:#?}",
        &differing[..differing.len().min(20)]
    );
}

#[test]
fn splicing_matches_the_general_path_on_the_jdk17_image() {
    assert_splicing_matches(&support::jdk17_home(), "jdk17", "**");
}

#[test]
fn splicing_matches_the_general_path_on_the_jdk25_image() {
    assert_splicing_matches(&support::jdk25_home().display().to_string(), "jdk25", "**");
}

/// Constructors only: every `<clinit>` gets stage 1's registration alone.
#[test]
fn splicing_matches_the_general_path_on_constructors_of_the_jdk17_image() {
    assert_splicing_matches(&support::jdk17_home(), "jdk17", "::<init>");
}
