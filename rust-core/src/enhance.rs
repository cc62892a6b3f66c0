//! One class through the per-class stages: model → validate → schema →
//! (tracegen). Pure: bytes in, bytes or offences out; the pipeline writes.
#![forbid(unsafe_code)]

use crate::rule::Rule;
use crate::tracegen::check_scope;
pub use crate::tracegen::check_scope::PreWriteCheck;
use crate::classfile::{ClassEditor, ClassFile, ClassFileError};
use crate::skip::{self, Skips};
use crate::hierarchy::Hierarchy;
use crate::model::{self, Groups, Selection};
use crate::request::{Diagnostic, Shape};
use crate::scan::ScannedClass;
use crate::schema;
use crate::workspace::Workspace;
use crate::{protocol, tracegen, validate};
use sha2::{Digest, Sha256};

pub mod bodies;

use bodies::{Bodies, StageError};

/// The settings that shape enhanced output; their fingerprint goes into
/// `@TFEnhanced` so a later run can tell whether a class is current.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Run stage 2 (the tracing code) as well as stage 1 (the holders and the
    /// registration); part of the fingerprint.
    pub tracegen: bool,
    /// The method filters as given (`[Group=]target;…`); part of the
    /// fingerprint, in sorted order.
    pub filters: Vec<String>,
    /// A method selected by a filter that TF cannot enhance fails the run
    /// instead of being left as it is. Shapes no output: not in the fingerprint.
    pub fail_on_skip: bool,
    /// The pre-write check applied (the full one is the targeted one's oracle
    /// in tests). Shapes no output: not in the fingerprint.
    pub pre_write_check: PreWriteCheck,
    /// Splice the methods that can be (the default); off, the general path
    /// does all, with the same output (the test and the benchmark that
    /// compare the two). Shapes no output: not in the fingerprint.
    pub splice: bool,
    /// Whether the class may gain members (`Standard`) or only new method
    /// bodies (`Guarded`, the agent's).
    pub shape: Shape,
    /// The guarded shape's first site (see [`Shape::Guarded`]).
    pub first_site: u32,
}

impl Settings {
    /// Stage 2 with these filters, and every other setting at its default (what
    /// a plugin sends when only filters are given).
    pub fn tracing(filters: &[&str]) -> Settings {
        Settings {
            tracegen: true,
            filters: filters.iter().map(|f| f.to_string()).collect(),
            fail_on_skip: false,
            pre_write_check: PreWriteCheck::Targeted,
            splice: true,
            shape: Shape::Standard,
            first_site: 0,
        }
    }

    /// Stable across runs, paths and filter order. A run computes it once
    /// ([`Run::new`]).
    pub fn fingerprint(&self) -> String {
        let mut filters = self.filters.clone();
        filters.sort();
        // The standard shape adds nothing, so that classes built before
        // shapes existed keep their fingerprint.
        let shape = match self.shape {
            Shape::Standard => "",
            Shape::Guarded => "shape=guarded\n",
        };
        let text = format!(
            "tf-core {} protocol {}\ntracegen={}\nfilters={}\n{shape}",
            env!("CARGO_PKG_VERSION"),
            protocol::REVISION,
            self.tracegen,
            filters.join("\n")
        );
        let digest = Sha256::digest(text.as_bytes());
        digest.iter().take(12).map(|b| format!("{b:02x}")).collect()
    }

    fn stage(&self) -> i32 {
        if self.tracegen {
            protocol::STAGE_TRACEGEN
        } else {
            protocol::STAGE_SCHEMA
        }
    }
}

/// What every class of a run shares: the annotation groups, the filters'
/// selections, the settings and their fingerprints (computed once, here).
pub struct Run<'r> {
    /// The TF annotation types known to the run.
    pub groups: &'r Groups,
    /// The filters, with their groups resolved.
    pub selections: &'r [Selection],
    /// The settings every class of the run is enhanced with.
    pub settings: &'r Settings,
    /// The supertypes class files do not name, for `T+` filters (none known without it).
    pub hierarchy: Option<&'r Hierarchy>,
    fingerprint: String,
    /// Of these settings at stage 1: a class left there is upgraded.
    stage_one_fingerprint: String,
}

impl<'r> Run<'r> {
    /// The run of `settings` over these groups and filters, with its
    /// fingerprints computed; it knows no hierarchy until [`Run::with_hierarchy`].
    pub fn new(groups: &'r Groups, selections: &'r [Selection], settings: &'r Settings) -> Self {
        // Stage 1 is the standard shape's (holders and registration) whatever
        // the shape asked now.
        let stage_one = Settings { tracegen: false, shape: Shape::Standard, ..settings.clone() };
        Run {
            groups,
            selections,
            settings,
            hierarchy: None,
            fingerprint: settings.fingerprint(),
            stage_one_fingerprint: stage_one.fingerprint(),
        }
    }

    /// The run, told the supertypes its classes' files do not name.
    pub fn with_hierarchy(self, hierarchy: &'r Hierarchy) -> Self {
        Run { hierarchy: Some(hierarchy), ..self }
    }
}

/// What became of one class.
// One per class, moved once into the pipeline's results: boxing the large
// variant would cost an allocation for every enhanced class instead.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome<'c> {
    /// Nothing of TF in it.
    Untouched,
    /// Already enhanced with these settings.
    Current,
    /// Enhanced: the new bytes, and the warnings the class gave.
    Enhanced {
        /// The new bytes.
        bytes: Vec<u8>,
        /// What TF made of the class (for `-debug`).
        description: Description<'c>,
        /// The methods filters selected that TF left as they were, one
        /// warning each.
        skipped: Vec<Diagnostic>,
        /// What in the class is likely a mistake though allowed
        /// ([`validate::advice`]), one warning each.
        advice: Vec<Diagnostic>,
    },
    /// Every method TF would enhance was selected by a filter and had to be
    /// left as it was: the class stays as it is, one warning per method.
    Skipped(Vec<Diagnostic>),
}

/// What TF made of a class, as a line of text when displayed:
/// `com.ex.Foo: groups [com.ex.IO]; 0=read (monitored, com.ex.IO) 1=note (info)`.
/// Kept as the class's model and written only when shown (`-debug`): most
/// runs never show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Description<'c>(model::TfClass<'c>);

impl<'c> Description<'c> {
    /// The model the class was written from.
    pub fn model(&self) -> &model::TfClass<'c> {
        &self.0
    }
}

impl std::fmt::Display for Description<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&describe(&self.0))
    }
}

impl Description<'_> {
    /// One line per method enhanced, in the class's order:
    /// `  com.ex.Foo.read()I: monitored in com.ex.IO`.
    pub fn method_lines(&self) -> Vec<String> {
        let class = self.0.binary_name();
        let mut methods: Vec<&model::TfMethod> = self.0.methods.iter().collect();
        methods.sort_by_key(|m| m.index);
        methods
            .into_iter()
            .map(|m| {
                let role = match &m.role {
                    model::Role::Monitored { group, selected: false } => format!("monitored in {group}"),
                    model::Role::Monitored { group, selected: true } => format!("monitored in {group} (a filter chose it)"),
                    model::Role::Info { tp_type, .. } => format!("info method ({tp_type})"),
                };
                format!("  {class}.{}: {role}", m.signature())
            })
            .collect()
    }

    /// What enhancing changed in the class as a whole:
    /// `  com.ex.Foo: 812 -> 1904 bytes; holder fields for com.ex.IO`.
    pub fn edits_line(&self, before: usize, after: usize) -> String {
        format!(
            "  {}: {before} -> {after} bytes; holder fields for {}",
            self.0.binary_name(),
            self.0.holder_groups.join(", ")
        )
    }
}

fn describe(tf: &model::TfClass) -> String {
    let mut methods: Vec<(usize, String)> = tf
        .methods
        .iter()
        .map(|m| {
            let id = m.identifier;
            let text = match &m.role {
                model::Role::Monitored { group, .. } => format!("{id}={} (monitored, {group})", m.tracing_name),
                model::Role::Info { tp_type, .. } => format!("{id}={} (info, {tp_type})", m.tracing_name),
            };
            (id, text)
        })
        .collect();
    methods.sort();
    let methods: Vec<String> = methods.into_iter().map(|(_, text)| text).collect();
    format!("{}: groups [{}]; {}", tf.binary_name(), tf.holder_groups.join(", "), methods.join(" "))
}

/// Enhances one class. A method TF cannot enhance (an offence of the
/// spec's rules, a stage's error in it, or code the pre-write check
/// rejects) fails the class when the user named it (a TF annotation, an info
/// method); when only a filter selected it, it is left exactly as it was,
/// the rest of the class enhanced without it, and reported as skipped
/// (unless `settings.fail_on_skip`). `workspace`: the calling worker's.
pub fn enhance_class<'c>(
    class: &'c ScannedClass,
    run: &Run<'c>,
    workspace: &mut Workspace,
) -> Result<Outcome<'c>, Vec<Diagnostic>> {
    let Run { groups, selections, settings, .. } = *run;
    // The file's name as text only for a diagnostic: most classes make none.
    let file = || Some(class.file.display().to_string());
    let diagnostic = |method: Option<String>, rule: Rule, message: String| Diagnostic {
        file: file(),
        class: Some(class.name.clone()),
        method,
        rule,
        message,
    };
    let parse_error = |e: ClassFileError| vec![diagnostic(None, Rule::Parse, format!("not a valid class file: {e}"))];

    let parsed = match &class.pool {
        Some(layout) => ClassFile::parse_with_layout(&class.bytes, layout),
        None => ClassFile::parse(&class.bytes),
    }
    .map_err(parse_error)?;
    let mut tf = model::build(&parsed, groups, selections, run.hierarchy).map_err(parse_error)?;
    if !tf.is_relevant() {
        return Ok(Outcome::Untouched);
    }
    let fingerprint = &run.fingerprint;
    let mut upgrade = false;
    if let Some(mark) = &tf.enhanced {
        if mark.fingerprint == *fingerprint && mark.stage == settings.stage() {
            return Ok(Outcome::Current);
        }
        if settings.shape == Shape::Guarded && mark.stage == protocol::STAGE_TRACEGEN {
            return Err(vec![diagnostic(
                None,
                Rule::AlreadyTraced,
                "the class carries TF's tracing code already (built at stage 2): choose its monitors with \
                 monitor=, there is nothing to add"
                    .to_string(),
            )]);
        }
        // A class left at stage 1 with these settings gets stage 2 now (the
        // standard body in either shape: its holders and registration are there).
        upgrade = settings.tracegen
            && mark.stage == protocol::STAGE_SCHEMA
            && mark.fingerprint == run.stage_one_fingerprint;
        if !upgrade {
            return Err(vec![diagnostic(
                None,
                Rule::EnhancedWithOtherSettings,
                format!(
                    "the class was enhanced before (stage {}, fingerprint {}) with other settings and its original \
                     is gone: run a clean build",
                    mark.stage, mark.fingerprint
                ),
            )]);
        }
    }
    if settings.shape == Shape::Guarded && !upgrade {
        if !settings.tracegen {
            let message = "the guarded shape is stage 2 alone: it needs tracegen".to_string();
            return Err(vec![diagnostic(None, Rule::RetransformWithoutTracegen, message)]);
        }
        if let Some((rule, message, method)) = tracegen::guarded::refusal(parsed.major_version(), &tf) {
            return Err(vec![diagnostic(method, rule, message)]);
        }
    }
    let mut skips = Skips::new(settings.fail_on_skip);
    if !upgrade {
        let offences = validate::validate(&parsed, &tf).map_err(parse_error)?;
        let failures = offences.into_iter().map(|d| {
            let methods = skip::methods_named(&tf, d.method.as_deref());
            (methods, Diagnostic { file: file(), ..d })
        });
        skips.judge(&tf, failures.collect())?;
        tf.without(&skips.indexes);
    }
    // Each round leaves out at least one more method, or ends.
    loop {
        if !tf.is_relevant() {
            return Ok(if skips.warnings.is_empty() { Outcome::Untouched } else { Outcome::Skipped(skips.warnings) });
        }
        match write_class(&parsed, &tf, settings, upgrade, fingerprint, workspace) {
            Ok(bytes) => {
                let advice = validate::advice(&tf);
                return Ok(Outcome::Enhanced { bytes, description: Description(tf), skipped: skips.warnings, advice });
            }
            Err(Failed::Class(e)) => return Err(vec![diagnostic(None, Rule::Enhance, format!("cannot be enhanced: {e}"))]),
            Err(Failed::Methods(failures)) => {
                let failures = failures
                    .into_iter()
                    .map(|(index, rule, message)| {
                        let name = method_name(&parsed, index);
                        let methods = skip::methods_at(&tf, index);
                        (methods, diagnostic(Some(name), rule, message))
                    })
                    .collect();
                skips.judge(&tf, failures)?;
                tf.without(&skips.indexes);
            }
        }
    }
}

/// `name(descriptor)` of method `index` of `class`; past its methods, the
/// one TF adds.
fn method_name(class: &ClassFile<'_>, index: usize) -> String {
    match class.methods().get(index) {
        Some(m) => format!("{}{}", m.name().unwrap_or_default(), m.descriptor().unwrap_or_default()),
        None => "<clinit>()V".to_string(), // the only method TF adds
    }
}

/// `TF_BENCH_WITHOUT_PRE_WRITE_CHECK` set: for measuring what the check costs
/// (bench/enhance), never for a build — read once.
fn pre_write_check_disabled() -> bool {
    static DISABLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *DISABLED.get_or_init(|| std::env::var_os("TF_BENCH_WITHOUT_PRE_WRITE_CHECK").is_some())
}

/// Stage 1 (unless the class is only upgraded) and stage 2 (if on) into
/// `editor` and `bodies`.
fn stages<'a>(
    parsed: &ClassFile<'a>,
    tf: &model::TfClass<'_>,
    settings: &Settings,
    upgrade: bool,
    editor: &mut ClassEditor<'a>,
    bodies: &mut Bodies<'a>,
    workspace: &mut Workspace,
) -> Result<(), StageError> {
    let Workspace { generated, registrations, .. } = workspace;
    // A stage-1 class being upgraded has its holders and registration: it
    // gets the standard body in either shape.
    let source = match settings.shape {
        Shape::Guarded if !upgrade => tracegen::MonitorSource::Guarded { first_site: settings.first_site },
        _ => tracegen::MonitorSource::Standard,
    };
    if source == tracegen::MonitorSource::Standard && !upgrade {
        schema::apply(parsed, tf, editor, bodies, registrations)?;
    }
    if settings.tracegen {
        tracegen::apply(parsed, tf, source, editor, bodies, generated)?;
    }
    Ok(())
}

/// Why a class could not be written.
enum Failed {
    /// Of the class as a whole.
    Class(ClassFileError),
    /// Of methods (by index): the rule and the sentence a user reads.
    Methods(Vec<(usize, Rule, String)>),
}

/// Stages 1 and 2 over `tf`, the class written, read back and its changed
/// methods checked: the bytes, or what failed.
fn write_class(
    parsed: &ClassFile<'_>,
    tf: &model::TfClass<'_>,
    settings: &Settings,
    upgrade: bool,
    fingerprint: &str,
    workspace: &mut Workspace,
) -> Result<Vec<u8>, Failed> {
    let stage_error = |e: StageError| match e.method {
        Some(index) => Failed::Methods(vec![(index, Rule::Enhance, format!("cannot be enhanced: {}", e.error))]),
        None => Failed::Class(e.error),
    };
    let mut editor = ClassEditor::new(parsed);
    editor.pool.set_known_texts(protocol::pool_texts());
    let lifter = std::mem::take(&mut workspace.lifter);
    let mut bodies = Bodies::for_class(tf, settings.tracegen, settings.splice, lifter);
    let staged = stages(parsed, tf, settings, upgrade, &mut editor, &mut bodies, workspace);
    workspace.lifter = bodies.take_lifter();
    workspace.statistics.spliced_methods += bodies.spliced_methods() as u64;
    staged.map_err(stage_error)?;
    let spliced = bodies.take_check_scopes();
    bodies.assemble_into(&mut editor).map_err(stage_error)?;
    // The guarded shape shows a program nothing it did not have; the agent
    // never sees its own output again (the JVM hands a retransformation the
    // class as loaded), so it needs no mark to recognize it.
    if settings.shape != Shape::Guarded || upgrade {
        schema::mark_enhanced(parsed, settings.stage(), fingerprint, &mut editor).map_err(Failed::Class)?;
    }
    let bytes = editor.to_bytes().map_err(Failed::Class)?;
    // Never write a class the engine cannot read back, nor a method that would not verify.
    let unreadable = |e| Failed::Class(ClassFileError::malformed_unlocated(format!("enhanced class does not parse: {e}")));
    if pre_write_check_disabled() {
        ClassFile::check_extending(&bytes, parsed).map_err(unreadable)?;
        return Ok(bytes);
    }
    let written = ClassFile::read_back(&bytes, parsed).map_err(unreadable)?;
    let offences = check_scope::check_changed_methods(
        parsed,
        &written,
        &spliced,
        settings.pre_write_check,
        &mut workspace.statistics.checks,
        &mut workspace.verifier,
    );
    if !offences.is_empty() {
        let failures = offences
            .into_iter()
            .map(|(index, offence)| {
                (index, Rule::Check(offence.rule), format!("the enhanced code would not verify, {offence}"))
            })
            .collect();
        return Err(Failed::Methods(failures));
    }
    Ok(bytes)
}
