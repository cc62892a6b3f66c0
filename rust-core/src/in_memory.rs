//! One class in memory, as the agent hands it over while a JVM loads it:
//! the same per-class stages as a build ([`enhance::enhance_class`]), with
//! no directory, no cache and no file written; the bytes go back in the
//! report. Reached through [`crate::run`] when the request carries a class, so
//! every entry point (JNI, C, tests) shares one request/report path.
//!
//! What a class gets, by what it already carries:
//! - nothing of TF: stages 1 and 2 for what the filters (and TF annotations) select;
//! - `@TFEnhanced(stage = 1)` (built with `tracegen=false`): stage 2 alone, with
//!   the settings it was built with — the agent's filters when they are the
//!   build's, else the annotations alone (the filters of a build without
//!   any); any other stage-1 build is refused, saying why;
//! - `@TFEnhanced(stage = 2)`: left alone (its tracing code is there already).
#![forbid(unsafe_code)]

use crate::rule::Rule;
use crate::classfile::ClassFile;
use crate::enhance::{self, Outcome, Settings};
use crate::hierarchy::Hierarchy;
use crate::model::{self, resolve_filters, EnhancedMark, Groups};
use crate::protocol;
use crate::report::{finish, VERBOSE_CLASSES, VERBOSE_METHODS};
use crate::request::{ClassInMemory, Diagnostic, EnhanceReport, EnhanceRequest, Shape, FORMAT_VERSION};
use crate::scan::{self, ScannedClass};
use crate::workspace::Workspace;
use std::path::PathBuf;

/// Enhances `class` as `request` says; the outcome is in the report
/// (`class_bytes` when it changed), never a panic.
pub fn run(request: &EnhanceRequest, class: &ClassInMemory) -> EnhanceReport {
    let mut report = EnhanceReport { format_version: FORMAT_VERSION, classes_scanned: 1, ..EnhanceReport::default() };
    let located = |d: Diagnostic| Diagnostic { file: None, class: d.class.or_else(|| Some(class.name.clone())), ..d };
    // No file behind the bytes: diagnostics name the class alone.
    let path = PathBuf::from(format!("{}.class", class.name.replace('.', "/")));
    let identity = match scan::identify(&path, &class.bytes) {
        Ok(identity) => identity,
        Err(e) => return failed(report, vec![located(e)]),
    };
    let builtin = protocol::FILTERED_GROUP.replace('/', ".");
    let groups = Groups::new(request.groups.iter().cloned().chain([builtin]));
    let mark = match enhanced_mark(&class.bytes, &identity.pool) {
        Ok(mark) => mark,
        Err(message) => return failed(report, vec![located(rule_error(Rule::Parse, message))]),
    };
    let filters = match &mark {
        None => request.filters.clone(),
        Some(mark) if mark.stage >= protocol::STAGE_TRACEGEN => {
            if request.verbose >= VERBOSE_CLASSES {
                report.messages.push(format!("{}: traced at build time already, left as it is", class.name));
            }
            report.classes_unchanged = 1;
            return finish(report);
        }
        Some(mark) => match build_filters(mark, &request.filters) {
            Some(filters) => filters,
            None => {
                let message = "the class was built at stage 1 (tracegen=false) with filters other than the agent's: \
                               give the agent the build's filters, or build it with tracegen=true"
                    .to_string();
                return failed(report, vec![located(rule_error(Rule::StageOneOtherSettings, message))]);
            }
        },
    };
    let selections = match resolve_filters(&filters, &groups) {
        Ok(selections) => selections,
        Err(errors) => return failed(report, errors),
    };
    let mut settings = settings(request.tracegen, &filters, request.fail_on_skip);
    // The agent's guarded shape, as a class loads and in a running JVM.
    settings.shape = request.shape;
    settings.first_site = request.first_site;
    // A class built at stage 1 gets the standard body (its holders and
    // registration are there): nothing to declare.
    let declares = request.shape == Shape::Guarded && mark.is_none();
    let scanned = ScannedClass {
        file: path,
        name: identity.name,
        group: identity.group,
        bytes: class.bytes.clone(),
        pool: Some(identity.pool),
    };
    // One class a call: a workspace of its own (output never depends on it).
    let hierarchy = Hierarchy::of_class(&class.name, &class.supertypes);
    let run = enhance::Run::new(&groups, &selections, &settings).with_hierarchy(&hierarchy);
    match enhance::enhance_class(&scanned, &run, &mut Workspace::default()) {
        Ok(Outcome::Enhanced { bytes, description, skipped, advice }) => {
            report.methods_skipped = skipped.len() as u64;
            report.warnings.extend(skipped.into_iter().chain(advice).map(|d| format!("TF: {}", located(d))));
            if request.verbose >= VERBOSE_CLASSES {
                report.messages.push(format!("enhanced {}", scanned.name));
            }
            if request.verbose >= VERBOSE_METHODS {
                report.messages.extend(description.method_lines());
            }
            report.classes_enhanced = 1;
            report.class_bytes = Some(bytes);
            if declares {
                report.registration = Some(crate::tracegen::guarded::registration(description.model()));
            }
        }
        Ok(Outcome::Skipped(skipped)) => {
            report.methods_skipped = skipped.len() as u64;
            report.warnings.extend(skipped.into_iter().map(|d| format!("TF: {}", located(d))));
            report.classes_unchanged = 1;
        }
        Ok(Outcome::Current | Outcome::Untouched) => report.classes_unchanged = 1,
        Err(errors) => return failed(report, errors.into_iter().map(located).collect()),
    }
    finish(report)
}

/// The filters a stage-1 class was built with, as far as the fingerprint
/// can confirm them: the agent's own, or none.
fn build_filters(mark: &EnhancedMark, agent_filters: &[String]) -> Option<Vec<String>> {
    [agent_filters.to_vec(), Vec::new()]
        .into_iter()
        .find(|filters| settings(false, filters, false).fingerprint() == mark.fingerprint)
}

fn settings(tracegen: bool, filters: &[String], fail_on_skip: bool) -> Settings {
    // From the defaults, so that settings added later keep theirs here too.
    let mut settings = Settings::tracing(&[]);
    settings.tracegen = tracegen;
    settings.filters = filters.to_vec();
    settings.fail_on_skip = fail_on_skip;
    settings
}

/// The class's `@TFEnhanced` mark, read from its annotations alone.
fn enhanced_mark(bytes: &[u8], pool: &crate::classfile::PoolLayout) -> Result<Option<EnhancedMark>, String> {
    let class = ClassFile::parse_with_layout(bytes, pool).map_err(|e| format!("not a valid class file: {e}"))?;
    let annotations = class.annotations().map_err(|e| format!("not a valid class file: {e}"))?;
    Ok(model::enhanced_mark(&annotations))
}

fn rule_error(rule: Rule, message: String) -> Diagnostic {
    Diagnostic { rule, message, ..Diagnostic::default() }
}

fn failed(mut report: EnhanceReport, errors: Vec<Diagnostic>) -> EnhanceReport {
    report.classes_failed = 1;
    report.errors = errors;
    finish(report)
}
