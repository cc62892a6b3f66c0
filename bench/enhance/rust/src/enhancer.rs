//! One pass of TF's per-class work over the whole corpus: scan, then
//! model → validate → schema → tracegen → encode (`enhance_class`), exactly as
//! `pipeline::run` does it, minus the file reads and writes.
#![forbid(unsafe_code)]

use crate::corpus::Corpus;
use rayon::prelude::*;
use tf_core::enhance::{self, Outcome, Settings};
use tf_core::filter::{FilterError, FilterSpec};
use tf_core::model::{Groups, Selection};
use tf_core::protocol;
use tf_core::request::Diagnostic;
use tf_core::scan;

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
            selections: vec![Selection { spec, group: builtin }],
            settings: Settings { tracegen: true, filters: vec![filter.to_string()] },
        })
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

/// Enhances every class of `corpus` on the current rayon pool (`par_iter`,
/// as the pipeline does); with a one-thread pool this is the sequential run.
pub fn enhance_all(corpus: &Corpus, job: &Job) -> Tally {
    let results: Vec<ClassResult> = corpus
        .classes
        .par_iter()
        .map(|input| {
            // scan_class takes ownership of the bytes, as the pipeline hands
            // it a freshly read file; the copy stands in for that read.
            let scanned = match scan::scan_class(&input.path, input.bytes.clone()) {
                Ok(scanned) => scanned,
                Err(diagnostic) => return ClassResult::Failed(show(&diagnostic)),
            };
            match enhance::enhance_class(&scanned, &job.groups, &job.selections, &job.settings) {
                Ok(Outcome::Enhanced { bytes, .. }) => ClassResult::Enhanced(bytes.len()),
                Ok(Outcome::Untouched | Outcome::Current) => ClassResult::Untouched,
                Err(diagnostics) => ClassResult::Failed(diagnostics.first().map(show).unwrap_or_default()),
            }
        })
        .collect();
    results.into_iter().fold(Tally::default(), Tally::add)
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
