//! What every run's report shares, whichever entry ran it (a class
//! directory's [`crate::pipeline`], a class in memory's [`crate::in_memory`]):
//! the `verbose` levels and the summary line.
#![forbid(unsafe_code)]

use crate::request::EnhanceReport;

/// `verbose` levels, each showing what the ones below it show: one line per
/// class enhanced (or given back its original); one per method enhanced; what
/// enhancing changed in each class, and the TF annotations found; everything,
/// the debug lines included.
pub const VERBOSE_CLASSES: u8 = 1;
/// Level 2: also one line per method enhanced.
pub const VERBOSE_METHODS: u8 = 2;
/// Level 3: also what enhancing changed in each class, and the TF annotations
/// found.
pub const VERBOSE_EDITS: u8 = 3;
/// Level 4: everything, the debug lines included.
pub const VERBOSE_ALL: u8 = 4;

/// Sets what follows from the report's errors and counts: `ok` and the summary line.
pub(crate) fn finish(mut report: EnhanceReport) -> EnhanceReport {
    report.ok = report.errors.is_empty();
    report.summary = summary_line(&report);
    report
}

/// The one line a build log shows by default.
pub fn summary_line(report: &EnhanceReport) -> String {
    let verdict = match (report.ok, report.classes_enhanced > 0 || !report.written.is_empty()) {
        (true, _) => "",
        (false, false) => " (FAILED: nothing was written)",
        (false, true) => " (FAILED: the classes with errors were left as they were)",
    };
    let skipped = match report.methods_skipped {
        0 => String::new(),
        1 => ", 1 method skipped".to_string(),
        n => format!(", {n} methods skipped"),
    };
    let cached = if report.classes_up_to_date > 0 {
        format!(" ({} up to date in the cache)", report.classes_up_to_date)
    } else {
        String::new()
    };
    format!(
        "TF: {} classes scanned, {} enhanced, {} unchanged{cached}, {} failed{skipped}; {} TF annotations{verdict}",
        report.classes_scanned,
        report.classes_enhanced,
        report.classes_unchanged,
        report.classes_failed,
        report.annotations.len(),
    )
}
