//! One enhancement run, the single code path behind the CLI, JNI and the C ABI:
//! request → inventory (cache) → scan → (validate → schema → tracegen) →
//! atomic writes, cache and metadata → report. Nothing is written unless every
//! stage succeeded.
#![forbid(unsafe_code)]

use crate::rule::Rule;
use crate::cache::state::{self, Digest, Entry, Stamp, State, STATE_FORMAT};
use crate::cache::Cache;
use crate::classpath;
use crate::enhance::{self, Outcome, PreWriteCheck, Settings};
use crate::filter::FilterSpec;
use crate::hierarchy::Hierarchy;
use crate::in_memory;
use crate::inventory::{self, Listed};
use crate::metadata;
use crate::model::{Groups, Selection};
use crate::output;
use crate::protocol;
use crate::runtime;
use crate::workspace;
use crate::request::{Diagnostic, EnhanceReport, EnhanceRequest, FORMAT_VERSION};
use crate::scan::ScannedClass;
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

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

/// Runs `request` to completion; failures are in the report, never panics.
pub fn run(request: &EnhanceRequest) -> EnhanceReport {
    if let Some(class) = &request.class {
        return in_memory::run(request, class);
    }
    let mut report = EnhanceReport { format_version: FORMAT_VERSION, ..EnhanceReport::default() };
    let class_dir = Path::new(&request.class_dir);
    if !class_dir.is_dir() {
        return fail(report, Diagnostic {
            file: Some(request.class_dir.clone()),
            rule: Rule::ClassDir,
            message: "the class directory does not exist or is not a directory".into(),
            ..Diagnostic::default()
        });
    }
    let pool = match worker_pool(request.threads) {
        Ok(pool) => pool,
        Err(message) => return fail(report, Diagnostic { rule: Rule::Threads, message, ..Diagnostic::default() }),
    };
    // `.class.new` outputs leave the directory as the build wrote it: nothing to remember.
    let cache_dir = request.cache_dir.as_deref().filter(|_| !request.new_out);
    let cache_error = |dir: &str, e: std::io::Error| Diagnostic {
        file: Some(dir.to_string()),
        rule: Rule::Cache,
        message: format!("could not open the incremental cache: {e}"),
        ..Diagnostic::default()
    };
    let mut cache = match cache_dir.map(|dir| Cache::lock(Path::new(dir))).transpose() {
        Ok(cache) => cache,
        Err(e) => return fail(report, cache_error(cache_dir.unwrap_or_default(), e)),
    };
    // Under the lock, the state is checked and decoded while the directory is walked.
    let (loaded, found) =
        pool.install(|| rayon::join(|| cache.as_mut().map_or(Ok(()), Cache::load_state), || inventory::find(class_dir)));
    if let Err(e) = loaded {
        return fail(report, cache_error(cache_dir.unwrap_or_default(), e));
    }
    if let Some(line) = cache.as_ref().and_then(|c| c.discarded.clone()) {
        report.warnings.push(line);
    }
    let found = match found {
        Ok(found) => found,
        Err(errors) => {
            report.classes_failed = errors.len() as u64;
            report.errors = errors;
            return finish(report);
        }
    };
    if let Err(e) = clear_stale_temporaries(&mut report, &found.stale_temporaries, cache.is_some() && !request.dry_run) {
        return fail(report, e);
    }
    let no_state = State::default();
    let known = cache.as_ref().map_or(&no_state, |c| &c.state);
    // Every class file found is scanned, also when some cannot be read.
    let files_found = found.files.len() as u64;
    let (mut listed, unreadable) = pool.install(|| inventory::take(found.files, known, cache.is_some()));
    if let Some(c) = cache.as_ref() {
        // A lost state: the enhanced files get back the originals the store kept.
        crate::cache::readopt::readopt_originals(&mut listed, c);
    }
    report.classes_scanned = files_found;
    if !unreadable.is_empty() {
        report.classes_failed = unreadable.len() as u64;
        report.errors = unreadable;
        if request.fail_on_error {
            report.classes_unchanged = files_found.saturating_sub(report.classes_failed);
            return finish(report);
        }
    }
    report.annotations = inventory::tf_annotation_names(&listed);
    if request.verbose >= VERBOSE_EDITS {
        for name in &report.annotations {
            report.messages.push(format!("TF annotation: {name}"));
        }
    }
    let debug = request.debug || request.verbose >= VERBOSE_ALL;
    if debug {
        report.messages.push(format!("debug: MM annotations: {:?}", report.annotations));
    }
    let on_classpath = match classpath::tf_annotations(&request.classpath) {
        Ok(names) => names,
        Err(errors) => {
            report.errors = errors;
            return finish(report);
        }
    };
    let builtin = protocol::FILTERED_GROUP.replace('/', ".");
    let groups = Groups::new(report.annotations.iter().cloned().chain(on_classpath).chain([builtin]));
    let selections = match resolve_filters(&request.filters, &groups) {
        Ok(s) => s,
        Err(errors) => {
            report.errors = errors;
            return finish(report);
        }
    };
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
        .then(|| pool.install(|| Hierarchy::for_build(&listed, &request.classpath)));
    let environment = environment(&settings, &groups, hierarchy.as_ref());

    // The bytes the inventory read move into the plan rather than being copied.
    let read: Vec<Option<Vec<u8>>> = listed.iter_mut().map(|class| class.bytes.take()).collect();
    let plan = match plan(&listed, read, cache.as_ref(), &environment) {
        Ok(plan) => plan,
        Err(errors) => {
            report.errors = errors;
            return finish(report);
        }
    };
    report.classes_up_to_date = plan.up_to_date.len() as u64;
    let mut run = enhance::Run::new(&groups, &selections, &settings);
    if let Some(hierarchy) = &hierarchy {
        run = run.with_hierarchy(hierarchy);
    }
    let outcomes: Vec<_> = pool.install(|| {
        let mut workspaces = workspace::per_worker();
        workspace::map_per_worker(&plan.work, &mut workspaces, |workspace, work| {
            enhance::enhance_class(&work.class, &run, workspace)
        })
    });

    let mut results = Vec::with_capacity(plan.work.len());
    // A class file found enhanced with these settings (no cache knew it).
    let mut already_enhanced = false;
    for (work, outcome) in plan.work.iter().zip(outcomes) {
        match outcome {
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
                report_skipped(&mut report, skipped);
                report.warnings.extend(advice.into_iter().map(|d| format!("TF: {}", Diagnostic { file: None, ..d })));
                results.push(Finished { work, output: Output::Enhanced(bytes), detail });
            }
            Ok(Outcome::Skipped(skipped)) => {
                report_skipped(&mut report, skipped);
                results.push(Finished { work, output: Output::Original, detail: Vec::new() });
            }
            Ok(Outcome::Current) => {
                already_enhanced = true;
                results.push(Finished { work, output: Output::Original, detail: Vec::new() });
            }
            Ok(Outcome::Untouched) => results.push(Finished { work, output: Output::Original, detail: Vec::new() }),
            Err(errors) => {
                report.classes_failed += 1;
                report.errors.extend(errors);
            }
        }
    }
    report.classes_unchanged = report.classes_scanned - report.classes_failed;
    if request.warn_unused_filters && plan.up_to_date.is_empty() {
        report_unused_filters(&mut report, &selections, &request.class_dir);
    }
    if let Some(runtime_classpath) = &request.runtime_classpath {
        let leaves_enhanced = already_enhanced
            || results.iter().any(|r| matches!(r.output, Output::Enhanced(_)))
            || plan.up_to_date.iter().any(|(_, entry)| entry.output != entry.original);
        if leaves_enhanced {
            if let Err(missing) = runtime::check_on(runtime_classpath, class_dir) {
                // Writing nothing: the build's classes stay as javac left them.
                return fail(report, missing);
            }
        }
    }
    if !report.errors.is_empty() && request.fail_on_error {
        // Nothing is written: the classes that were ready stay as they were.
        return finish(report);
    }
    // Without fail_on_error, the classes that failed are simply not among the
    // results: they stay as they were, and the cache does not record them.
    if request.dry_run {
        for result in &results {
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
        return finish(report);
    }

    if let Err(e) = pool.install(|| commit(&mut report, request, cache.as_mut(), &plan, &results, environment)) {
        report.errors.push(e);
        return finish(report);
    }
    write_resource(&mut report, request);
    finish(report)
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
fn commit(
    report: &mut EnhanceReport,
    request: &EnhanceRequest,
    mut cache: Option<&mut Cache>,
    plan: &Plan<'_>,
    results: &[Finished<'_, '_>],
    environment: String,
) -> Result<(), Diagnostic> {
    let cache_error = |dir: &Path, e: std::io::Error| Diagnostic {
        file: Some(dir.display().to_string()),
        rule: Rule::Cache,
        message: format!("could not update the incremental cache: {e}"),
        ..Diagnostic::default()
    };
    if cache.as_deref().is_some_and(|c| nothing_changed(&c.state, plan, &environment)) {
        return Ok(()); // the state on disk already says all of this, and no file needs writing
    }
    // The entries in one sorted batch: the map is then built in one pass.
    let mut entries: Vec<(String, Entry)> = plan.up_to_date.iter().map(|(c, e)| (c.relative.clone(), e.clone())).collect();
    // Which files to write: with a cache, those not already holding the output
    // (after a change of settings, classes TF now leaves alone get their
    // original back); without one, the enhanced classes.
    let mut to_write = Vec::new();
    match cache.as_deref() {
        Some(c) => {
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
                .map_err(|e| cache_error(c.dir(), e))?;
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
        }
        None => {
            let enhanced = |(i, result): (usize, &Finished<'_, '_>)| matches!(result.output, Output::Enhanced(_)).then_some(i);
            to_write.extend(results.iter().enumerate().filter_map(enhanced));
        }
    }
    // Both runs of `entries` are sorted: collecting merges them.
    let mut next = State { format: STATE_FORMAT, environment, classes: entries.into_iter().collect() };
    if to_write.is_empty() && cache.as_deref().is_some_and(|c| c.state == next) {
        return Ok(()); // nothing changed: the state on disk already says all of this
    }
    let mut previous = State::default();
    if let Some(c) = cache.as_deref_mut() {
        previous = c.save(next.clone()).map_err(|e| cache_error(c.dir(), e))?;
    }

    // The class files, in parallel: each write is atomic, and the state saved
    // above already knows both the old and the new bytes of every one of them.
    let stamps = cache.is_some();
    let written: Vec<(&Finished<'_, '_>, PathBuf, Option<Stamp>)> = to_write
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
        .collect::<Result<_, Diagnostic>>()?;
    for (result, target, stamp) in written {
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
        if let Some(entry) = next.classes.get_mut(&class.relative) {
            entry.superseded = None;
            entry.stamp = stamp;
        }
    }
    if let Some(c) = cache {
        if !to_write.is_empty() || previous.classes.len() != next.classes.len() || !plan.work.is_empty() {
            c.save(next).map_err(|e| cache_error(c.dir(), e))?;
            c.collect_garbage(&previous, previous.classes.is_empty()).map_err(|e| cache_error(c.dir(), e))?;
        }
    }
    Ok(())
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

/// Parses every `-filter` and resolves its group; every bad filter is reported.
pub(crate) fn resolve_filters(filters: &[String], groups: &Groups) -> Result<Vec<Selection>, Vec<Diagnostic>> {
    let mut selections = Vec::new();
    let mut errors = Vec::new();
    let filter_error = |message: String| Diagnostic { rule: Rule::Filter, message, ..Diagnostic::default() };
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
        selections.push(Selection::new(spec, group));
    }
    if errors.is_empty() {
        Ok(selections)
    } else {
        Err(errors)
    }
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

fn fail(mut report: EnhanceReport, diagnostic: Diagnostic) -> EnhanceReport {
    report.errors.push(diagnostic);
    finish(report)
}

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
