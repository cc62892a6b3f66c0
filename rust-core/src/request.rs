//! What a caller asks of the core, and what it gets back.
//!
//! Across JNI and the C ABI both travel as one MessagePack map each (field
//! names as keys, `rmp_serde::to_vec_named`). Fields added later get
//! `#[serde(default)]`, so an older plugin's request still decodes; a request
//! whose `format_version` the core does not know is refused.
#![forbid(unsafe_code)]

use crate::rule::Rule;
use serde::{Deserialize, Serialize};

/// The wire format version; bump it when a field changes meaning.
pub const FORMAT_VERSION: u32 = 1;

/// The defaults of the settings every front end offers (the CLI's flags,
/// the plugins' parameters, the agent's options), declared once for the
/// core: [`EnhanceRequest::new`] and a request that leaves a field out both
/// take them. The Java side declares the same values once, in
/// `core-jni`'s `TfSettings`; `tests/defaults_agree.rs` holds the two, the
/// CLI's help and the README's parameter table together.
pub mod defaults {
    /// Run stage 2 (tracing code) after stage 1.
    pub const TRACEGEN: bool = true;
    /// Write the classes (not only report what would change).
    pub const DRY_RUN: bool = false;
    /// The summary line alone.
    pub const VERBOSE: u8 = 0;
    /// One worker per core.
    pub const THREADS: u32 = 0;
    /// A method only a filter selected and TF cannot enhance is skipped, with a warning.
    pub const FAIL_ON_SKIP: bool = false;
    /// A class with errors fails the run, and nothing is written.
    pub const FAIL_ON_ERROR: bool = true;
    /// A filter that selected nothing is warned about.
    pub const WARN_UNUSED_FILTERS: bool = true;

    // What `#[serde(default = "…")]` needs: a function per field.
    pub(super) fn tracegen() -> bool {
        TRACEGEN
    }
    pub(super) fn dry_run() -> bool {
        DRY_RUN
    }
    pub(super) fn verbose() -> u8 {
        VERBOSE
    }
    pub(super) fn threads() -> u32 {
        THREADS
    }
    pub(super) fn fail_on_skip() -> bool {
        FAIL_ON_SKIP
    }
    pub(super) fn fail_on_error() -> bool {
        FAIL_ON_ERROR
    }
    pub(super) fn warn_unused_filters() -> bool {
        WARN_UNUSED_FILTERS
    }
}

/// One enhancement run over one directory of classes (one source set).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct EnhanceRequest {
    /// Must be [`FORMAT_VERSION`]; the core refuses a request of another version.
    pub format_version: u32,
    /// The class directory to scan and enhance in place (`-dir`).
    pub class_dir: String,
    /// Where to write the TF annotation list (`-rf`); default
    /// `<class_dir>/META-INF/tf/tfannotations.properties`.
    #[serde(default)]
    pub resource_file: Option<String>,
    /// Directories and jars searched for TF annotation types defined elsewhere.
    #[serde(default)]
    pub classpath: Vec<String>,
    /// Run stage 2 (tracing code) after stage 1 (schema).
    #[serde(default = "defaults::tracegen")]
    pub tracegen: bool,
    /// Report what would be done; write nothing.
    #[serde(default = "defaults::dry_run")]
    pub dry_run: bool,
    /// Write enhanced classes to `<file>.new` beside the original instead of in place.
    #[serde(default)]
    pub new_out: bool,
    /// 0 (summary only) to 4 (everything).
    #[serde(default = "defaults::verbose")]
    pub verbose: u8,
    #[serde(default)]
    /// Debug lines among the messages (`-debug`); verbose level 4 shows them too.
    pub debug: bool,
    /// Method filters in JEP 520's grammar, each optionally prefixed by `Group=`.
    #[serde(default)]
    pub filters: Vec<String>,
    /// Worker threads; 0 means one per core.
    #[serde(default = "defaults::threads")]
    pub threads: u32,
    /// Directory of the incremental cache; none means no cache.
    #[serde(default)]
    pub cache_dir: Option<String>,
    /// A method selected only by a filter that TF cannot enhance fails the run
    /// (by default it is left as it was, with a warning, and counted as skipped).
    #[serde(default = "defaults::fail_on_skip")]
    pub fail_on_skip: bool,
    /// With errors in some classes, `false` still writes every class without
    /// one (the others stay as they were); `true` (the default) writes nothing.
    #[serde(default = "defaults::fail_on_error")]
    pub fail_on_error: bool,
    /// Warn about each filter that selected no method (the default). Off for
    /// class directories a filter is not usually meant for (test classes),
    /// where every filter naming the main classes would warn.
    #[serde(default = "defaults::warn_unused_filters")]
    pub warn_unused_filters: bool,
    /// The class path the enhanced classes will run with (Maven: the runtime
    /// class path; Gradle: the source set's runtime class path). When given,
    /// a run that leaves any enhanced class fails, writing nothing, unless
    /// tf-runtime is on it: the classes would fail at start with
    /// `NoClassDefFoundError`. `None` (the CLI) checks nothing.
    #[serde(default)]
    pub runtime_classpath: Option<Vec<String>>,
    /// One class in memory (the agent, as a class loads): enhanced alone, no
    /// directory read, nothing written, no cache; the report carries the bytes
    /// back in `class_bytes`. `class_dir` and every file setting are ignored.
    #[serde(default)]
    pub class: Option<ClassInMemory>,
    /// The TF annotation types the caller knows of (binary names), beside
    /// those a directory scan finds: for a class in memory, the groups its
    /// class loader lists in `META-INF/tf/tfannotations.properties`.
    #[serde(default)]
    pub groups: Vec<String>,
    /// What enhanced classes may change: everything (`standard`, build time)
    /// or method bodies only (`guarded`, the agent's, as classes load and
    /// in a running JVM).
    #[serde(default)]
    pub shape: Shape,
    /// The guarded shape's first site: the class's groups get this site
    /// and those after it, in the order of the report's registration.
    #[serde(default)]
    pub first_site: u32,
}

/// How far enhancing may change a class.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// Stage 1 adds holder fields, a `<clinit>` registration and changes
    /// info methods' signatures; stage 2 edits bodies.
    #[default]
    Standard,
    /// Method bodies only, what the agent writes as a class loads and into
    /// a running JVM (JVMTI `RetransformClasses` adds no field or method and
    /// changes no signature): no stage 1, no mark; the monitor is read from
    /// the runtime's table of guarded sites, from
    /// [`EnhanceRequest::first_site`] on, and the report's
    /// [`EnhanceReport::registration`] says what the agent declares there.
    /// Needs class files of version 49 or later, and no info methods.
    Guarded,
}

/// A class as a JVM is about to define it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct ClassInMemory {
    /// Binary name as the JVM gives it (`com.example.Foo`), for messages.
    pub name: String,
    #[serde(with = "serde_bytes")]
    /// The class file's bytes.
    pub bytes: Vec<u8>,
    /// Binary names of every supertype of the class the caller knows
    /// (superclasses, interfaces and their superinterfaces): what `T+`
    /// filters match besides the direct supertypes the class file names.
    #[serde(default)]
    pub supertypes: Vec<String>,
}

impl EnhanceRequest {
    /// A request with the spec's defaults for `class_dir`.
    pub fn new(class_dir: impl Into<String>) -> Self {
        EnhanceRequest {
            format_version: FORMAT_VERSION,
            class_dir: class_dir.into(),
            resource_file: None,
            classpath: Vec::new(),
            tracegen: defaults::TRACEGEN,
            dry_run: defaults::DRY_RUN,
            new_out: false,
            verbose: defaults::VERBOSE,
            debug: false,
            filters: Vec::new(),
            threads: defaults::THREADS,
            cache_dir: None,
            fail_on_skip: defaults::FAIL_ON_SKIP,
            fail_on_error: defaults::FAIL_ON_ERROR,
            warn_unused_filters: defaults::WARN_UNUSED_FILTERS,
            runtime_classpath: None,
            class: None,
            groups: Vec::new(),
            shape: Shape::Standard,
            first_site: 0,
        }
    }
}

/// One offence or failure, located as precisely as the core knows it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Default)]
pub struct Diagnostic {
    /// The class file (or jar entry) concerned, as a path.
    #[serde(default)]
    pub file: Option<String>,
    /// The class, in binary name form (`com.example.Foo`).
    #[serde(default)]
    pub class: Option<String>,
    /// The method, as `name(descriptor)`.
    #[serde(default)]
    pub method: Option<String>,
    /// A short rule identifier, e.g. `parse`, `info-method-not-private`.
    pub rule: Rule,
    /// The whole sentence a user reads.
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        if let Some(class) = &self.class {
            write!(f, "{class}")?;
            if let Some(method) = &self.method {
                write!(f, ".{method}")?;
            }
            write!(f, ": ")?;
        }
        write!(f, "{} [{}]", self.message, self.rule)
    }
}

/// What the run did. `ok == false` means `errors` says what failed; nothing
/// was written unless the request had `fail_on_error == false`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Default)]
pub struct EnhanceReport {
    /// The [`FORMAT_VERSION`] of the core that answered.
    pub format_version: u32,
    /// The run succeeded: `errors` is empty.
    pub ok: bool,
    /// TF annotation types found, binary names, sorted.
    pub annotations: Vec<String>,
    /// The annotation list file written, if any.
    #[serde(default)]
    pub resource_file: Option<String>,
    /// Class files found (1 for a class in memory).
    pub classes_scanned: u64,
    /// Classes enhanced (written, or that a dry run would write).
    pub classes_enhanced: u64,
    /// Classes left as they were, failed ones excepted.
    pub classes_unchanged: u64,
    /// Classes with errors.
    pub classes_failed: u64,
    /// Of the unchanged classes, those the incremental cache showed needed no work.
    #[serde(default)]
    pub classes_up_to_date: u64,
    /// What failed, one diagnostic each.
    pub errors: Vec<Diagnostic>,
    /// Methods selected by a filter that TF left as they were (each named by a
    /// line of `warnings`).
    #[serde(default)]
    pub methods_skipped: u64,
    /// Progress lines for the build log, at the requested verbosity.
    pub messages: Vec<String>,
    /// Lines a build log shows as warnings (e.g. a damaged cache was rebuilt).
    #[serde(default)]
    pub warnings: Vec<String>,
    /// Every file the run wrote (classes and the annotation list), for IDE refresh.
    #[serde(default)]
    pub written: Vec<String>,
    /// One line: what a build log shows by default.
    pub summary: String,
    /// For a class in memory: its enhanced bytes, or `None` when it stays as
    /// it was (nothing of TF in it, already traced, or it failed: `errors`).
    #[serde(default, with = "serde_bytes")]
    pub class_bytes: Option<Vec<u8>>,
    /// For a class in memory written in the guarded shape: what the agent
    /// declares at the request's first site before the JVM defines it.
    #[serde(default)]
    pub registration: Option<Registration>,
}

/// A guarded class's registration, as the runtime's table takes it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Default)]
pub struct Registration {
    /// Its TF annotations (binary names), one site each, from the first on.
    pub groups: Vec<String>,
    /// Its tracing names, sorted: a name's index is its identifier.
    pub tracing_names: Vec<String>,
}
