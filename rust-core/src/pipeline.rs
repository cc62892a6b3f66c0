//! One enhancement run, the single code path behind the CLI, JNI and the C ABI:
//! request → scan → (validate → schema → tracegen) → atomic writes and
//! metadata → report. Nothing is written unless every stage succeeded.
#![forbid(unsafe_code)]

use crate::metadata;
use crate::request::{Diagnostic, EnhanceReport, EnhanceRequest, FORMAT_VERSION};
use crate::scan::{self, Scan};
use std::path::{Path, PathBuf};

/// Runs `request` to completion; failures are in the report, never panics.
pub fn run(request: &EnhanceRequest) -> EnhanceReport {
    if let Some(message) = &request.inject_panic {
        panic!("{message}");
    }
    let mut report = EnhanceReport { format_version: FORMAT_VERSION, ..EnhanceReport::default() };
    let class_dir = Path::new(&request.class_dir);
    if !class_dir.is_dir() {
        return failed(report, Diagnostic {
            file: Some(request.class_dir.clone()),
            rule: "class-dir".into(),
            message: "the class directory does not exist or is not a directory".into(),
            ..Diagnostic::default()
        });
    }

    let scan = match scan::scan_directory(class_dir) {
        Ok(scan) => scan,
        Err(errors) => {
            report.classes_failed = errors.len() as u64;
            report.errors = errors;
            return finish(report, request);
        }
    };
    report.classes_scanned = scan.classes.len() as u64;
    report.annotations = scan.tf_annotation_names();
    if request.verbose > 0 {
        for name in &report.annotations {
            report.messages.push(format!("TF annotation: {name}"));
        }
    }
    // The enhancement stages (validate, schema, tracegen) come with the enhancer;
    // until then every class is left as it is.
    report.classes_unchanged = report.classes_scanned;

    write_resource(&mut report, request, &scan);
    finish(report, request)
}

fn write_resource(report: &mut EnhanceReport, request: &EnhanceRequest, scan: &Scan) {
    let path = resource_path(request);
    let shown = path.display().to_string();
    if request.dry_run {
        report.messages.push(format!("dry run: would write {} TF annotations to {shown}", report.annotations.len()));
        return;
    }
    match metadata::write(&path, &scan.tf_annotation_names()) {
        Ok(()) => report.resource_file = Some(shown),
        Err(e) => report.errors.push(Diagnostic {
            file: Some(shown),
            rule: "write".into(),
            message: format!("could not write the TF annotation list: {e}"),
            ..Diagnostic::default()
        }),
    }
}

fn resource_path(request: &EnhanceRequest) -> PathBuf {
    match &request.resource_file {
        Some(rf) => PathBuf::from(rf),
        None => Path::new(&request.class_dir).join(metadata::RESOURCE_PATH),
    }
}

fn failed(mut report: EnhanceReport, diagnostic: Diagnostic) -> EnhanceReport {
    report.errors.push(diagnostic);
    report.ok = false;
    report.summary = summary_line(&report);
    report
}

fn finish(mut report: EnhanceReport, _request: &EnhanceRequest) -> EnhanceReport {
    report.ok = report.errors.is_empty();
    report.summary = summary_line(&report);
    report
}

/// The one line a build log shows by default.
pub fn summary_line(report: &EnhanceReport) -> String {
    let verdict = if report.ok { "" } else { " (FAILED: nothing was written)" };
    format!(
        "TF: {} classes scanned, {} enhanced, {} unchanged, {} failed; {} TF annotations{verdict}",
        report.classes_scanned,
        report.classes_enhanced,
        report.classes_unchanged,
        report.classes_failed,
        report.annotations.len(),
    )
}
