//! One run over a class directory, the code path behind the CLI, JNI and the
//! C ABI for a build (a class in memory, the agent's, goes to
//! [`crate::in_memory`] instead: [`crate::run`] chooses). Four stages, each a
//! function:
//! - `prepare`: the class directory, worker threads, the cache's lock and
//!   state, the inventory, the class path's TF annotations and the filters;
//! - `enhance_all`: every class that needs it, in parallel (scan, validate,
//!   schema, tracegen, check: [`enhance::enhance_class`]);
//! - `report_outcomes`: what each class gave (messages, warnings, counts),
//!   tf-runtime on the runtime class path, and the end of a dry run;
//! - `commit`: atomic writes, cache and metadata.
//!
//! Nothing is written unless every stage succeeded.
#![forbid(unsafe_code)]

use crate::rule::Rule;
use crate::cache::state::{self, Digest, Entry, Stamp, State, STATE_FORMAT};
use crate::cache::Cache;
use crate::classpath;
use crate::enhance::{self, Outcome, PreWriteCheck, Settings};
use crate::hierarchy::Hierarchy;
use crate::inventory::{self, Found, Listed};
use crate::metadata;
use crate::model::{resolve_filters, Groups, Selection};
use crate::output;
use crate::protocol;
use crate::report::{finish, VERBOSE_ALL, VERBOSE_CLASSES, VERBOSE_EDITS, VERBOSE_METHODS};
use crate::runtime;
use crate::workspace;
use crate::request::{Diagnostic, EnhanceReport, EnhanceRequest, FORMAT_VERSION};
use crate::scan::ScannedClass;
use rayon::prelude::*;
use rayon::ThreadPool;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Runs `request`, a class directory's, to completion; failures are in the
/// report, never panics. A request carrying a class in memory is
/// [`crate::in_memory::run`]'s (through [`crate::run`]): here it would name no
/// class directory.
pub fn run(request: &EnhanceRequest) -> EnhanceReport {
    let mut report = EnhanceReport { format_version: FORMAT_VERSION, ..EnhanceReport::default() };
    // A stage that stops the run has said why in the report.
    let _ = stages(request, &mut report);
    finish(report)
}

/// A stage ended the run (it failed, or a dry run is done); the report says
/// what happened.
struct Stop;

/// The four stages, in order.
fn stages(request: &EnhanceRequest, report: &mut EnhanceReport) -> Result<(), Stop> {
    let Prepared { pool, mut cache, listed, read, shaping } = prepare(request, report)?;
    let plan = plan(&listed, read, cache.as_ref(), &shaping.environment).map_err(|errors| stop_with(report, errors))?;
    report.classes_up_to_date = plan.up_to_date.len() as u64;
    let outcomes = enhance_all(&pool, &plan, &shaping);
    let results = report_outcomes(request, report, &plan, outcomes, &shaping.selections)?;
    commit(request, report, &pool, cache.as_mut(), &plan, &results, shaping.environment)
}

/// What [`prepare`] hands on: the classes found and all that decides their output.
struct Prepared {
    pool: ThreadPool,
    cache: Option<Cache>,
    listed: Vec<Listed>,
    /// The bytes the inventory read of each of `listed`, moved out so that
    /// the plan takes them rather than copies them.
    read: Vec<Option<Vec<u8>>>,
    shaping: Shaping,
}

/// What shapes every class's output besides its own bytes.
struct Shaping {
    groups: Groups,
    selections: Vec<Selection>,
    settings: Settings,
    /// The supertypes `T+` filters see beyond those the class files name.
    hierarchy: Option<Hierarchy>,
    /// The fingerprint of all of the above ([`environment`]).
    environment: String,
}

/// Records `diagnostic` as the reason the run stops.
fn stop(report: &mut EnhanceReport, diagnostic: Diagnostic) -> Stop {
    report.errors.push(diagnostic);
    Stop
}

/// Stops the run with `errors` as its errors (in place of any found before).
fn stop_with(report: &mut EnhanceReport, errors: Vec<Diagnostic>) -> Stop {
    report.errors = errors;
    Stop
}

/// Whether the report carries the debug lines.
fn debug(request: &EnhanceRequest) -> bool {
    request.debug || request.verbose >= VERBOSE_ALL
}

/// Stage 1: the class directory, the worker threads, the cache (locked, its
/// state loaded), the class files found and read as far as needed, and what
/// shapes their output.
fn prepare(request: &EnhanceRequest, report: &mut EnhanceReport) -> Result<Prepared, Stop> {
    if !Path::new(&request.class_dir).is_dir() {
        return Err(stop(report, Diagnostic {
            file: Some(request.class_dir.clone()),
            rule: Rule::ClassDir,
            message: "the class directory does not exist or is not a directory".into(),
            ..Diagnostic::default()
        }));
    }
    let pool = worker_pool(request.threads)
        .map_err(|message| stop(report, Diagnostic { rule: Rule::Threads, message, ..Diagnostic::default() }))?;
    let (cache, found) = lock_and_find(request, &pool, report)?;
    let mut listed = take_inventory(request, &pool, cache.as_ref(), found, report)?;
    let shaping = shaping(request, &pool, &listed, report)?;
    // The bytes the inventory read move into the plan rather than being copied.
    let read = listed.iter_mut().map(|class| class.bytes.take()).collect();
    Ok(Prepared { pool, cache, listed, read, shaping })
}

/// Locks the incremental cache, if the run keeps one, and walks the class
/// directory while its state is checked and decoded; clears what a killed
/// run left.
fn lock_and_find(request: &EnhanceRequest, pool: &ThreadPool, report: &mut EnhanceReport) -> Result<(Option<Cache>, Found), Stop> {
    // `.class.new` outputs leave the directory as the build wrote it: nothing to remember.
    let cache_dir = request.cache_dir.as_deref().filter(|_| !request.new_out);
    let cache_error = |e: std::io::Error| Diagnostic {
        file: Some(cache_dir.unwrap_or_default().to_string()),
        rule: Rule::Cache,
        message: format!("could not open the incremental cache: {e}"),
        ..Diagnostic::default()
    };
    let mut cache = match cache_dir.map(|dir| Cache::lock(Path::new(dir))).transpose() {
        Ok(cache) => cache,
        Err(e) => return Err(stop(report, cache_error(e))),
    };
    let class_dir = Path::new(&request.class_dir);
    let (loaded, found) =
        pool.install(|| rayon::join(|| cache.as_mut().map_or(Ok(()), Cache::load_state), || inventory::find(class_dir)));
    if let Err(e) = loaded {
        return Err(stop(report, cache_error(e)));
    }
    if let Some(line) = cache.as_ref().and_then(|c| c.discarded.clone()) {
        report.warnings.push(line);
    }
    let found = match found {
        Ok(found) => found,
        Err(errors) => {
            report.classes_failed = errors.len() as u64;
            return Err(stop_with(report, errors));
        }
    };
    let remove = cache.is_some() && !request.dry_run;
    clear_stale_temporaries(report, &found.stale_temporaries, remove).map_err(|e| stop(report, e))?;
    Ok((cache, found))
}

/// Lists every class file found (reading those the cache cannot vouch for),
/// and the TF annotations among them. Every class file found is scanned,
/// also when some cannot be read.
fn take_inventory(
    request: &EnhanceRequest,
    pool: &ThreadPool,
    cache: Option<&Cache>,
    found: Found,
    report: &mut EnhanceReport,
) -> Result<Vec<Listed>, Stop> {
    let no_state = State::default();
    let known = cache.map_or(&no_state, |c| &c.state);
    let files_found = found.files.len() as u64;
    let (mut listed, unreadable) = pool.install(|| inventory::take(found.files, known, cache.is_some()));
    if let Some(c) = cache {
        // A lost state: the enhanced files get back the originals the store kept.
        crate::cache::readopt::readopt_originals(&mut listed, c);
    }
    report.classes_scanned = files_found;
    if !unreadable.is_empty() {
        report.classes_failed = unreadable.len() as u64;
        report.errors = unreadable;
        if request.fail_on_error {
            report.classes_unchanged = files_found.saturating_sub(report.classes_failed);
            return Err(Stop);
        }
    }
    report.annotations = inventory::tf_annotation_names(&listed);
    if request.verbose >= VERBOSE_EDITS {
        for name in &report.annotations {
            report.messages.push(format!("TF annotation: {name}"));
        }
    }
    if debug(request) {
        report.messages.push(format!("debug: MM annotations: {:?}", report.annotations));
    }
    Ok(listed)
}

/// The groups (the class directory's TF annotations, the class path's, the
/// built-in one), the filters resolved against them, the settings, and for
/// `T+` filters the hierarchy they see.
fn shaping(request: &EnhanceRequest, pool: &ThreadPool, listed: &[Listed], report: &mut EnhanceReport) -> Result<Shaping, Stop> {
    let on_classpath = classpath::tf_annotations(&request.classpath).map_err(|errors| stop_with(report, errors))?;
    let builtin = protocol::FILTERED_GROUP.replace('/', ".");
    let groups = Groups::new(report.annotations.iter().cloned().chain(on_classpath).chain([builtin]));
    let selections = resolve_filters(&request.filters, &groups).map_err(|errors| stop_with(report, errors))?;
    let settings = Settings {
        tracegen: request.tracegen,
        filters: request.filters.clone(),
        fail_on_skip: request.fail_on_skip,
        pre_write_check: PreWriteCheck::Targeted,
        splice: true,
        shape: request.shape,
        first_site: request.first_site,
    };
    // `T+` filters need the supertypes class files do not name: read before
    // the plan, as a changed hierarchy changes what they select.
    let hierarchy = selections
        .iter()
        .any(|s| s.spec.names_supertypes())
        .then(|| pool.install(|| Hierarchy::for_build(listed, &request.classpath)));
    let environment = environment(&settings, &groups, hierarchy.as_ref());
    Ok(Shaping { groups, selections, settings, hierarchy, environment })
}

/// Stage 2: enhances the classes the plan holds, in parallel, one workspace
/// per worker; the outcomes in the plan's order.
fn enhance_all<'a>(
    pool: &ThreadPool,
    plan: &'a Plan<'_>,
    shaping: &'a Shaping,
) -> Vec<Result<Outcome<'a>, Vec<Diagnostic>>> {
    let mut run = enhance::Run::new(&shaping.groups, &shaping.selections, &shaping.settings);
    if let Some(hierarchy) = &shaping.hierarchy {
        run = run.with_hierarchy(hierarchy);
    }
    pool.install(|| {
        let mut workspaces = workspace::per_worker();
        workspace::map_per_worker(&plan.work, &mut workspaces, |workspace, work| {
            enhance::enhance_class(&work.class, &run, workspace)
        })
    })
}

/// Stage 3: what each class gave (messages, warnings, counts) and the
/// filters that selected nothing; then stops a run that must write nothing
/// (enhanced classes without tf-runtime, errors under `fail_on_error`) and a
/// dry run, which says what it would write.
fn report_outcomes<'w, 'l>(
    request: &EnhanceRequest,
    report: &mut EnhanceReport,
    plan: &'w Plan<'l>,
    outcomes: Vec<Result<Outcome<'_>, Vec<Diagnostic>>>,
    selections: &[Selection],
) -> Result<Vec<Finished<'w, 'l>>, Stop> {
    let (results, already_enhanced) = results_of(request, report, plan, outcomes);
    report.classes_unchanged = report.classes_scanned - report.classes_failed;
    if request.warn_unused_filters && plan.up_to_date.is_empty() {
        report_unused_filters(report, selections, &request.class_dir);
    }
    if let Some(runtime_classpath) = &request.runtime_classpath {
        let leaves_enhanced = already_enhanced
            || results.iter().any(|r| matches!(r.output, Output::Enhanced(_)))
            || plan.up_to_date.iter().any(|(_, entry)| entry.output != entry.original);
        if leaves_enhanced {
            // Writing nothing: the build's classes stay as javac left them.
            runtime::check_on(runtime_classpath, Path::new(&request.class_dir)).map_err(|missing| stop(report, missing))?;
        }
    }
    if !report.errors.is_empty() && request.fail_on_error {
        // Nothing is written: the classes that were ready stay as they were.
        return Err(Stop);
    }
    // Without fail_on_error, the classes that failed are simply not among the
    // results: they stay as they were, and the cache does not record them.
    if request.dry_run {
        report_dry_run(request, report, &results);
        return Err(Stop);
    }
    Ok(results)
}

/// Each class's outcome as what to write, with its lines; failures and
/// skipped methods counted into the report. Also whether some class was
/// found enhanced with these settings already (no cache knew it).
fn results_of<'w, 'l>(
    request: &EnhanceRequest,
    report: &mut EnhanceReport,
    plan: &'w Plan<'l>,
    outcomes: Vec<Result<Outcome<'_>, Vec<Diagnostic>>>,
) -> (Vec<Finished<'w, 'l>>, bool) {
    let debug = debug(request);
    let mut results = Vec::with_capacity(plan.work.len());
    let mut already_enhanced = false;
    for (work, outcome) in plan.work.iter().zip(outcomes) {
        let output = match outcome {
            Ok(Outcome::Enhanced { bytes, description, skipped, advice }) => {
                if debug {
                    report.messages.push(format!("debug: {description}"));
                }
                let mut detail = Vec::new();
                if request.verbose >= VERBOSE_METHODS {
                    detail.extend(description.method_lines());
                }
                if request.verbose >= VERBOSE_EDITS {
                    detail.push(description.edits_line(work.class.bytes.len(), bytes.len()));
                }
                report_skipped(report, skipped);
                report.warnings.extend(advice.into_iter().map(|d| format!("TF: {}", Diagnostic { file: None, ..d })));
                results.push(Finished { work, output: Output::Enhanced(bytes), detail });
                continue;
            }
            Ok(Outcome::Skipped(skipped)) => {
                report_skipped(report, skipped);
                Output::Original
            }
            Ok(Outcome::Current) => {
                already_enhanced = true;
                Output::Original
            }
            Ok(Outcome::Untouched) => Output::Original,
            Err(errors) => {
                report.classes_failed += 1;
                report.errors.extend(errors);
                continue;
            }
        };
        results.push(Finished { work, output, detail: Vec::new() });
    }
    (results, already_enhanced)
}

/// What a dry run would write, in place of writing it.
fn report_dry_run(request: &EnhanceRequest, report: &mut EnhanceReport, results: &[Finished<'_, '_>]) {
    for result in results {
        if let Output::Enhanced(_) = result.output {
            let target = target_file(request, &result.work.listed.file);
            report.messages.push(format!("dry run: would enhance {} ({})", result.work.class.name, target.display()));
            report.messages.extend(result.detail.iter().cloned());
            report.classes_enhanced += 1;
        }
    }
    report.classes_unchanged -= report.classes_enhanced;
    report.messages.push(format!(
        "dry run: would write {} TF annotations to {}",
        report.annotations.len(),
        resource_path(request).display()
    ));
}

/// Stage 4: the classes and the cache ([`write_classes`]), then the TF
/// annotation list.
fn commit(
    request: &EnhanceRequest,
    report: &mut EnhanceReport,
    pool: &ThreadPool,
    cache: Option<&mut Cache>,
    plan: &Plan<'_>,
    results: &[Finished<'_, '_>],
    environment: String,
) -> Result<(), Stop> {
    pool.install(|| write_classes(report, request, cache, plan, results, environment)).map_err(|e| stop(report, e))?;
    write_resource(report, request);
    Ok(())
}

/// One warning line per method a class left as it was, and the count.
fn report_skipped(report: &mut EnhanceReport, skipped: Vec<Diagnostic>) {
    report.methods_skipped += skipped.len() as u64;
    for d in skipped {
        // Class, method, reason and rule; the file adds nothing to a class name.
        report.warnings.push(format!("TF: {}", Diagnostic { file: None, ..d }));
    }
}

/// One warning per filter that selected no method of any class, naming it:
/// most often it names a class of a dependency, which a build-time run never
/// sees. Only a run that modelled every class can tell; one that took some
/// from the cache says nothing (a changed filter redoes every class, so the
/// warning shows on the first run with the filter).
/// A filter that names only methods their own TF annotation chose already is
/// told so instead: blaming dependencies would send the user looking elsewhere.
fn report_unused_filters(report: &mut EnhanceReport, selections: &[Selection], class_dir: &str) {
    for selection in selections.iter().filter(|s| !s.has_matched()) {
        let why = if selection.has_named_annotated() {
            "the methods it names carry a TF annotation (or @InfoMethod) already, which chose them and their group \
             before any filter: drop the filter, or the annotation for the filter's group to apply"
        } else if selection.spec.names_supertypes() {
            "TF enhances only the classes compiled here, and knows their supertypes from these classes and the class \
             path alone: a chain through a class in neither (a JDK class between, such as java.io.FilterOutputStream) \
             is not followed (README: \"A type and its subtypes\")"
        } else {
            "TF enhances only the classes compiled here, not those of dependencies (README: \"Tracing dependencies\")"
        };
        report.warnings.push(format!(
            "TF: filter '{}' selected no method of the classes in {class_dir}: {why}",
            selection.spec.source
        ));
    }
}

/// Deals with the temporary files a killed run left in the class directory:
/// holding the cache's lock, no other TF run can be writing them, so they go
/// (they must not reach a jar); without it they are only reported.
fn clear_stale_temporaries(report: &mut EnhanceReport, stale: &[PathBuf], remove: bool) -> Result<(), Diagnostic> {
    let Some(first) = stale.first() else { return Ok(()) };
    if remove {
        for file in stale {
            output::remove_if_present(file).map_err(|e| Diagnostic {
                file: Some(file.display().to_string()),
                rule: Rule::Write,
                message: format!("could not remove a temporary file an interrupted run left: {e}"),
                ..Diagnostic::default()
            })?;
        }
    }
    let done = if remove { "removed" } else { "found (not removed without the cache's lock)" };
    report.warnings.push(format!(
        "TF: {done} {} temporary file(s) an interrupted run left in the class directory, such as {}",
        stale.len(),
        first.display()
    ));
    Ok(())
}

/// What one class needs: the bytes to enhance (its original) and where they came from.
struct Work<'l> {
    listed: &'l Listed,
    class: ScannedClass,
    original: Option<Digest>,
}

struct Plan<'l> {
    /// Classes the cache shows need nothing: their entries carry over.
    up_to_date: Vec<(&'l Listed, Entry)>,
    work: Vec<Work<'l>>,
}

enum Output {
    Enhanced(Vec<u8>),
    /// The class stays (or goes back to) what the build handed us.
    Original,
}

struct Finished<'w, 'l> {
    work: &'w Work<'l>,
    output: Output,
    /// The lines `verbose` 2 and 3 show under the class's own line.
    detail: Vec<String>,
}

impl Finished<'_, '_> {
    fn bytes(&self) -> &[u8] {
        match &self.output {
            Output::Enhanced(bytes) => bytes,
            Output::Original => &self.work.class.bytes,
        }
    }
}

/// Everything besides a class's own bytes that shapes its enhanced bytes: TF's
/// version and settings (in the settings fingerprint) and the TF annotations
/// in force, and, for `T+` filters, the class hierarchy they see. A change
/// re-enhances every class from its original.
fn environment(settings: &Settings, groups: &Groups, hierarchy: Option<&Hierarchy>) -> String {
    // failOnSkip shapes no class, but a class whose methods were skipped
    // must be looked at again when skips become failures.
    let fail_on_skip = if settings.fail_on_skip { "\nfailOnSkip" } else { "" };
    let mut text = format!(
        "{}{fail_on_skip}\n{}",
        settings.fingerprint(),
        groups.names().map(String::as_str).collect::<Vec<_>>().join("\n")
    );
    if let Some(hierarchy) = hierarchy {
        text.push_str("\nhierarchy\n");
        text.push_str(&hierarchy.fingerprint());
    }
    state::hex(&state::digest(text.as_bytes()))
}

/// Decides, class by class, what is up to date and what must be enhanced,
/// and from which bytes: the file's own, or the original the cache kept when
/// the file still holds TF's earlier output.
/// `read[i]` holds the bytes the inventory read of `listed[i]`, if it read them.
fn plan<'l>(
    listed: &'l [Listed],
    read: Vec<Option<Vec<u8>>>,
    cache: Option<&Cache>,
    environment: &str,
) -> Result<Plan<'l>, Vec<Diagnostic>> {
    let same_environment = cache.is_some_and(|c| c.state.environment == environment);
    let mut plan = Plan { up_to_date: Vec::new(), work: Vec::new() };
    let mut errors = Vec::new();
    for (class, read) in listed.iter().zip(read) {
        let holds_output = class.holds_recorded_output();
        if let Some(prior) = class.prior.as_ref().filter(|_| same_environment && holds_output) {
            plan.up_to_date.push((class, Entry { stamp: class.stamp, superseded: None, ..prior.clone() }));
            continue;
        }
        // A file holding an enhancement is redone from the original the cache kept.
        let enhanced_copy = class.holds_enhancement_of_original() && class.prior.as_ref().map(|p| p.original) != class.digest;
        let kept = class
            .prior
            .as_ref()
            .filter(|_| enhanced_copy)
            .and_then(|p| cache.and_then(|c| c.original(&p.original)).map(|bytes| (bytes, p.original)));
        // The pool layout the inventory found holds for the bytes it read, and no others.
        let (bytes, original, pool) = match (kept, read) {
            (Some((bytes, digest)), _) => (bytes, Some(digest), None),
            (None, Some(bytes)) => (bytes, class.digest, class.pool.clone()),
            (None, None) => match read_file(class) {
                Ok(bytes) => (bytes, class.digest, None),
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            },
        };
        let scanned =
            ScannedClass { file: class.file.clone(), name: class.name.clone(), group: class.group.clone(), bytes, pool };
        plan.work.push(Work { listed: class, class: scanned, original });
    }
    if errors.is_empty() {
        Ok(plan)
    } else {
        Err(errors)
    }
}

/// Reads a file the inventory did not (the cache had vouched for it, but the
/// original it kept is gone).
fn read_file(class: &Listed) -> Result<Vec<u8>, Diagnostic> {
    std::fs::read(&class.file).map_err(|e| Diagnostic {
        file: Some(class.file.display().to_string()),
        rule: Rule::Io,
        message: format!("could not read the class file: {e}"),
        ..Diagnostic::default()
    })
}

/// Writes the run's results so that a build killed at any point leaves each
/// class file original or fully enhanced, and a cache that knows both:
/// originals first, then the state naming every file's original and expected
/// output, then the class files, then the files' new stamps.
fn write_classes(
    report: &mut EnhanceReport,
    request: &EnhanceRequest,
    mut cache: Option<&mut Cache>,
    plan: &Plan<'_>,
    results: &[Finished<'_, '_>],
    environment: String,
) -> Result<(), Diagnostic> {
    if cache.as_deref().is_some_and(|c| nothing_changed(&c.state, plan, &environment)) {
        return Ok(()); // the state on disk already says all of this, and no file needs writing
    }
    let (entries, to_write) = next_entries(cache.as_deref(), plan, results)?;
    // Both runs of `entries` are sorted: collecting merges them.
    let mut next = State { format: STATE_FORMAT, environment, classes: entries.into_iter().collect() };
    if to_write.is_empty() && cache.as_deref().is_some_and(|c| c.state == next) {
        return Ok(()); // nothing changed: the state on disk already says all of this
    }
    let mut previous = State::default();
    if let Some(c) = cache.as_deref_mut() {
        previous = c.save(next.clone()).map_err(|e| cache_update_error(c.dir(), e))?;
    }
    // The class files, in parallel: each write is atomic, and the state saved
    // above already knows both the old and the new bytes of every one of them.
    let written = write_files(request, results, &to_write, cache.is_some())?;
    for (result, target, stamp) in written {
        record_written(report, request, result, target);
        if let Some(entry) = next.classes.get_mut(&result.work.listed.relative) {
            entry.superseded = None;
            entry.stamp = stamp;
        }
    }
    if let Some(c) = cache {
        if !to_write.is_empty() || previous.classes.len() != next.classes.len() || !plan.work.is_empty() {
            c.save(next).map_err(|e| cache_update_error(c.dir(), e))?;
            c.collect_garbage(&previous, previous.classes.is_empty()).map_err(|e| cache_update_error(c.dir(), e))?;
        }
    }
    Ok(())
}

fn cache_update_error(dir: &Path, e: std::io::Error) -> Diagnostic {
    Diagnostic {
        file: Some(dir.display().to_string()),
        rule: Rule::Cache,
        message: format!("could not update the incremental cache: {e}"),
        ..Diagnostic::default()
    }
}

/// A state's entries by relative path, in sorted batches.
type Entries = Vec<(String, Entry)>;

/// The next state's entries, one sorted batch for the classes up to date and
/// one for the results, and which results to write (their indexes): with a
/// cache, those whose file does not hold the output already (after a change
/// of settings, classes TF now leaves alone get their original back);
/// without one, the enhanced classes.
fn next_entries(
    cache: Option<&Cache>,
    plan: &Plan<'_>,
    results: &[Finished<'_, '_>],
) -> Result<(Entries, Vec<usize>), Diagnostic> {
    // The entries in one sorted batch: the map is then built in one pass.
    let mut entries: Entries = plan.up_to_date.iter().map(|(c, e)| (c.relative.clone(), e.clone())).collect();
    let mut to_write = Vec::new();
    let Some(c) = cache else {
        let enhanced = |(i, result): (usize, &Finished<'_, '_>)| matches!(result.output, Output::Enhanced(_)).then_some(i);
        to_write.extend(results.iter().enumerate().filter_map(enhanced));
        return Ok((entries, to_write));
    };
    // Digests and originals, in parallel: a clean build keeps every class's original.
    // Those the saved state names are in the store already (they go
    // there before the state that names them), so need no look.
    let stored: HashSet<&Digest> = match results {
        [] => HashSet::new(),
        _ => c.state.classes.values().map(|entry| &entry.original).collect(),
    };
    let digests = results
        .par_iter()
        .map(|result| {
            let original = result.work.original.unwrap_or_else(|| state::digest(&result.work.class.bytes));
            if !stored.contains(&original) {
                c.keep_original(&original, &result.work.class.bytes)?;
            }
            Ok((original, state::digest(result.bytes())))
        })
        .collect::<std::io::Result<Vec<_>>>()
        .map_err(|e| cache_update_error(c.dir(), e))?;
    for (i, (result, (original, output))) in results.iter().zip(digests).enumerate() {
        let listed = result.work.listed;
        let write = listed.digest != Some(output);
        let stamp = if write { None } else { listed.stamp };
        // Until it is rewritten, the file may keep the enhancement it holds now.
        let superseded = listed.digest.filter(|d| write && *d != original);
        let (name, group) = (listed.name.clone(), listed.group.clone());
        let entry = Entry { stamp, original, output, superseded, name, group };
        entries.push((listed.relative.clone(), entry));
        if write {
            to_write.push(i);
        }
    }
    Ok((entries, to_write))
}

/// A result written: the file and, with the cache (`stamps`), its stamp.
type Written<'r, 'w, 'l> = (&'r Finished<'w, 'l>, PathBuf, Option<Stamp>);

/// Writes `results[i]` for every `i` of `to_write`, in parallel, each file
/// atomically; the first failure is the error.
fn write_files<'r, 'w, 'l>(
    request: &EnhanceRequest,
    results: &'r [Finished<'w, 'l>],
    to_write: &[usize],
    stamps: bool,
) -> Result<Vec<Written<'r, 'w, 'l>>, Diagnostic> {
    to_write
        .par_iter()
        .filter_map(|&i| results.get(i))
        .map(|result| {
            let class = result.work.listed;
            let target = target_file(request, &class.file);
            // Only the cache keeps stamps; the written file's own, before its rename.
            let stamp_of = |file: &std::fs::File| Ok(if stamps { file.metadata().ok().and_then(|m| Stamp::of(&m)) } else { None });
            let stamp = output::replace_in_place(&target, result.bytes(), stamp_of).map_err(|e| Diagnostic {
                file: Some(target.display().to_string()),
                class: Some(class.name.clone()),
                rule: Rule::Write,
                message: format!("could not write the enhanced class: {e}"),
                ..Diagnostic::default()
            })?;
            Ok((result, target, stamp))
        })
        .collect()
}

/// The report's account of one file written: the file, the counts, and at
/// `verbose` 1 and up its lines.
fn record_written(report: &mut EnhanceReport, request: &EnhanceRequest, result: &Finished<'_, '_>, target: PathBuf) {
    let class = result.work.listed;
    report.written.push(target.display().to_string());
    if let Output::Enhanced(_) = result.output {
        report.classes_enhanced += 1;
        report.classes_unchanged -= 1;
        if request.verbose >= VERBOSE_CLASSES {
            report.messages.push(format!("enhanced {}", class.name));
            report.messages.extend(result.detail.iter().cloned());
        }
    } else if request.verbose >= VERBOSE_CLASSES {
        report.messages.push(format!("restored the original of {}", class.name));
    }
}

/// Whether the run found what `state` records, class for class: nothing to
/// enhance, every class up to date with its entry unchanged, in the same
/// environment, and no class gone (the entries come from `state` by distinct
/// keys, so equal counts mean the same keys). Cheaper than building the next
/// state to compare it, which a run where nothing changed would then drop.
fn nothing_changed(state: &State, plan: &Plan<'_>, environment: &str) -> bool {
    plan.work.is_empty()
        && state.environment == environment
        && state.classes.len() == plan.up_to_date.len()
        && plan.up_to_date.iter().all(|(listed, entry)| listed.prior.as_ref() == Some(entry))
}

/// In place, or `NAME.class.new` beside it (`-newout`).
fn target_file(request: &EnhanceRequest, file: &Path) -> PathBuf {
    if request.new_out {
        let mut name = file.as_os_str().to_owned();
        name.push(".new");
        PathBuf::from(name)
    } else {
        file.to_path_buf()
    }
}

/// A pool of `threads` workers (0: one per core) for reading and enhancing.
fn worker_pool(threads: u32) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads as usize)
        .thread_name(|i| format!("tf-core-{i}"))
        .build()
        .map_err(|e| format!("could not start the worker threads: {e}"))
}

/// Writes the TF annotation list, unless the file already says the same.
fn write_resource(report: &mut EnhanceReport, request: &EnhanceRequest) {
    let path = resource_path(request);
    let shown = path.display().to_string();
    match metadata::write_if_changed(&path, &report.annotations) {
        Ok(written) => {
            if written {
                report.written.push(shown.clone());
            }
            report.resource_file = Some(shown);
        }
        Err(e) => report.errors.push(Diagnostic {
            file: Some(shown),
            rule: Rule::Write,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(stamp_secs: i64) -> Entry {
        Entry {
            stamp: Some(Stamp { len: 10, modified_secs: stamp_secs, modified_nanos: 0 }),
            original: state::digest(b"original"),
            output: state::digest(b"output"),
            superseded: None,
            name: "A".into(),
            group: None,
        }
    }

    fn listed(prior: Entry) -> Listed {
        Listed {
            relative: "A.class".into(),
            file: PathBuf::from("A.class"),
            name: prior.name.clone(),
            group: None,
            stamp: prior.stamp,
            bytes: None,
            pool: None,
            digest: Some(prior.output),
            prior: Some(prior),
        }
    }

    #[test]
    fn only_a_run_that_found_what_the_state_records_changes_nothing() {
        let mut state = State { format: STATE_FORMAT, environment: "e".into(), ..State::default() };
        state.classes.insert("A.class".into(), entry(1));
        let class = listed(entry(1));
        let same = Plan { up_to_date: vec![(&class, entry(1))], work: Vec::new() };
        assert!(nothing_changed(&state, &same, "e"));
        // Touched, same bytes: the new stamp must be saved, or every run reads the file again.
        let touched = Plan { up_to_date: vec![(&class, entry(2))], work: Vec::new() };
        assert!(!nothing_changed(&state, &touched, "e"));
        assert!(!nothing_changed(&state, &same, "other settings"));
        let gone = Plan { up_to_date: Vec::new(), work: Vec::new() };
        assert!(!nothing_changed(&state, &gone, "e"));
    }
}
