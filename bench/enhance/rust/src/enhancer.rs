//! One pass of TF's per-class work over the whole corpus: scan, then
//! model → validate → schema → tracegen → encode (`enhance_class`), exactly as
//! `pipeline::run` does it, minus the file reads and writes.
#![forbid(unsafe_code)]

use crate::corpus::{ClassFileInput, Corpus};
use tf_core::enhance::{self, Outcome, Settings};
use tf_core::filter::{FilterError, FilterSpec};
use tf_core::model::{Groups, Selection};
use tf_core::protocol;
use tf_core::request::Diagnostic;
use tf_core::scan;
use tf_core::workspace::{self, Workspace};

/// What the enhancer needs besides the class: groups, selections, settings,
/// built the way the pipeline builds them for `-filter FILTER`.
pub struct Job {
    groups: Groups,
    selections: Vec<Selection>,
    settings: Settings,
}

impl Job {
    /// A job monitoring what `filter` selects (no `Group=`: the built-in group).
    pub fn for_filter(filter: &str) -> Result<Job, FilterError> {
        let spec = FilterSpec::parse(filter)?;
        let builtin = protocol::FILTERED_GROUP.replace('/', ".");
        Ok(Job {
            groups: Groups::new([builtin.clone()]),
            selections: vec![Selection::new(spec, builtin)],
            settings: Settings::tracing(&[filter]),
        })
    }

    /// What every class of a pass shares (the settings' fingerprints made once).
    fn run(&self) -> enhance::Run<'_> {
        enhance::Run::new(&self.groups, &self.selections, &self.settings)
    }

    /// This job with splicing on (the default) or off (the general path alone).
    pub fn splicing(mut self, on: bool) -> Job {
        self.settings.splice = on;
        self
    }
}

/// The tally of one pass; equal across passes, so it also checks that the
/// passes did the same work.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    pub enhanced: usize,
    /// Classes with no method the filter selects (`module-info`, interfaces
    /// with only abstract methods, …).
    pub untouched: usize,
    pub failed: usize,
    /// Bytes of the enhanced classes written, a check that the work was done.
    pub output_bytes: usize,
    /// The first few failures, for the report.
    pub first_failures: Vec<String>,
}

const FAILURES_SHOWN: usize = 5;

impl Tally {
    fn add(mut self, result: ClassResult) -> Tally {
        match result {
            ClassResult::Enhanced(bytes) => {
                self.enhanced += 1;
                self.output_bytes += bytes;
            }
            ClassResult::Untouched => self.untouched += 1,
            ClassResult::Failed(message) => {
                self.failed += 1;
                if self.first_failures.len() < FAILURES_SHOWN {
                    self.first_failures.push(message);
                }
            }
        }
        self
    }
}

enum ClassResult {
    Enhanced(usize),
    Untouched,
    Failed(String),
}

/// Enhances every class of `corpus` on the current rayon pool, one of
/// `workspaces` per worker, as the pipeline does (kept from pass to pass, as
/// a build daemon's workers keep theirs); with a one-thread pool this is the
/// sequential run.
pub fn enhance_all(corpus: &Corpus, job: &Job, workspaces: &mut [Workspace]) -> Tally {
    let run = job.run();
    let results: Vec<ClassResult> = workspace::map_per_worker(&corpus.classes, workspaces, |workspace, input| {
        enhance_one(input, &run, workspace).map_or_else(|r| r, |b| ClassResult::Enhanced(b.len()))
    });
    results.into_iter().fold(Tally::default(), Tally::add)
}

/// Writes every enhanced class under `out`, at its path relative to `root`
/// (untimed; to compare the output of two versions of the enhancer with `diff -r`).
pub fn dump_all(corpus: &Corpus, job: &Job, root: &std::path::Path, out: &std::path::Path) -> std::io::Result<Tally> {
    let mut tally = Tally::default();
    let (run, mut workspace) = (job.run(), Workspace::default());
    for input in &corpus.classes {
        match enhance_one(input, &run, &mut workspace) {
            Ok(bytes) => {
                let relative = input.path.strip_prefix(root).unwrap_or(&input.path);
                let target = out.join(relative);
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                std::fs::write(&target, &bytes)?;
                tally = tally.add(ClassResult::Enhanced(bytes.len()));
            }
            Err(result) => tally = tally.add(result),
        }
    }
    Ok(tally)
}

/// One class through scan and enhance: the enhanced bytes, or what became of it.
fn enhance_one(input: &ClassFileInput, run: &enhance::Run, workspace: &mut Workspace) -> Result<Vec<u8>, ClassResult> {
    // scan_class takes ownership of the bytes, as the pipeline hands it a
    // freshly read file; the copy stands in for that read.
    let scanned = scan::scan_class(&input.path, input.bytes.clone()).map_err(|d| ClassResult::Failed(show(&d)))?;
    match enhance::enhance_class(&scanned, run, workspace) {
        Ok(Outcome::Enhanced { bytes, .. }) => Ok(bytes),
        Ok(Outcome::Untouched | Outcome::Current | Outcome::Skipped(_)) => Err(ClassResult::Untouched),
        Err(diagnostics) => Err(ClassResult::Failed(diagnostics.first().map(show).unwrap_or_default())),
    }
}

fn show(d: &Diagnostic) -> String {
    format!(
        "{} {}: [{}] {}",
        d.class.as_deref().unwrap_or("?"),
        d.method.as_deref().unwrap_or(""),
        d.rule,
        d.message
    )
}
