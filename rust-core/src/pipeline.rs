//! One enhancement run, the single code path behind the CLI, JNI and the C ABI:
//! request → scan → (validate → schema → tracegen) → atomic writes and
//! metadata → report. Nothing is written unless every stage succeeded.
#![forbid(unsafe_code)]

use crate::classpath;
use rayon::prelude::*;
use crate::enhance::{self, Outcome, Settings};
use crate::filter::FilterSpec;
use crate::metadata;
use crate::model::{Groups, Selection};
use crate::protocol;
use crate::output;
use crate::request::{Diagnostic, EnhanceReport, EnhanceRequest, FORMAT_VERSION};
use crate::scan::{self, Scan, ScannedClass};
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
    if request.debug {
        report.messages.push(format!("debug: MM annotations: {:?}", report.annotations));
    }
    let on_classpath = match classpath::tf_annotations(&request.classpath) {
        Ok(names) => names,
        Err(errors) => {
            report.errors = errors;
            return finish(report, request);
        }
    };
    let builtin = protocol::FILTERED_GROUP.replace('/', ".");
    let groups = Groups::new(report.annotations.iter().cloned().chain(on_classpath).chain([builtin]));
    let selections = match resolve_filters(&request.filters, &groups) {
        Ok(s) => s,
        Err(errors) => {
            report.errors = errors;
            return finish(report, request);
        }
    };

    let settings = Settings { tracegen: request.tracegen, filters: request.filters.clone() };
    let outcomes = match in_parallel(request.threads, || {
        scan.classes.par_iter().map(|class| enhance::enhance_class(class, &groups, &selections, &settings)).collect::<Vec<_>>()
    }) {
        Ok(outcomes) => outcomes,
        Err(message) => {
            report.errors.push(Diagnostic { rule: "threads".into(), message, ..Diagnostic::default() });
            return finish(report, request);
        }
    };
    let mut enhanced = Vec::new();
    for (class, outcome) in scan.classes.iter().zip(outcomes) {
        match outcome {
            Ok(Outcome::Enhanced { bytes, description }) => {
                if request.debug {
                    report.messages.push(format!("debug: {description}"));
                }
                enhanced.push((class, bytes));
            }
            Ok(Outcome::Untouched | Outcome::Current) => report.classes_unchanged += 1,
            Err(errors) => {
                report.classes_failed += 1;
                report.errors.extend(errors);
            }
        }
    }
    if !report.errors.is_empty() {
        // Nothing is written: the classes that were ready stay as they were.
        report.classes_unchanged += enhanced.len() as u64;
        return finish(report, request);
    }
    write_classes(&mut report, request, enhanced);
    if !report.errors.is_empty() {
        return finish(report, request);
    }

    write_resource(&mut report, request, &scan);
    finish(report, request)
}

/// Runs `work` on a pool of `threads` workers (0: one per core).
fn in_parallel<T: Send>(threads: u32, work: impl FnOnce() -> T + Send) -> Result<T, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads as usize)
        .thread_name(|i| format!("tf-core-{i}"))
        .build()
        .map_err(|e| format!("could not start the worker threads: {e}"))?;
    Ok(pool.install(work))
}

/// Writes each enhanced class atomically, in place or as `NAME.class.new`.
fn write_classes(report: &mut EnhanceReport, request: &EnhanceRequest, enhanced: Vec<(&ScannedClass, Vec<u8>)>) {
    for (class, bytes) in enhanced {
        let target = if request.new_out {
            let mut name = class.file.clone().into_os_string();
            name.push(".new");
            PathBuf::from(name)
        } else {
            class.file.clone()
        };
        if request.dry_run {
            report.messages.push(format!("dry run: would enhance {} ({})", class.name, target.display()));
            report.classes_enhanced += 1;
            continue;
        }
        match output::write_atomically(&target, &bytes) {
            Ok(()) => {
                report.classes_enhanced += 1;
                if request.verbose > 1 {
                    report.messages.push(format!("enhanced {}", class.name));
                }
            }
            Err(e) => report.errors.push(Diagnostic {
                file: Some(target.display().to_string()),
                class: Some(class.name.clone()),
                rule: "write".into(),
                message: format!("could not write the enhanced class: {e}"),
                ..Diagnostic::default()
            }),
        }
    }
}

/// Parses every `-filter` and resolves its group; every bad filter is reported.
fn resolve_filters(filters: &[String], groups: &Groups) -> Result<Vec<Selection>, Vec<Diagnostic>> {
    let mut selections = Vec::new();
    let mut errors = Vec::new();
    let filter_error = |message: String| Diagnostic { rule: "filter".into(), message, ..Diagnostic::default() };
    for text in filters {
        let spec = match FilterSpec::parse(text) {
            Ok(spec) => spec,
            Err(e) => {
                errors.push(filter_error(e.to_string()));
                continue;
            }
        };
        let group = match &spec.group {
            Some(written) => match groups.resolve(written) {
                Ok(g) => g,
                Err(message) => {
                    errors.push(filter_error(format!("filter '{text}': {message}")));
                    continue;
                }
            },
            None => protocol::FILTERED_GROUP.replace('/', "."), // always among `groups`
        };
        selections.push(Selection { spec, group });
    }
    if errors.is_empty() {
        Ok(selections)
    } else {
        Err(errors)
    }
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
