//! One class through the per-class stages: model → validate → schema →
//! (tracegen). Pure: bytes in, bytes or offences out; the pipeline writes.
#![forbid(unsafe_code)]

use crate::classfile::{ClassEditor, ClassFile, ClassFileError};
use crate::model::{self, Groups, Selection};
use crate::request::Diagnostic;
use crate::scan::ScannedClass;
use crate::schema::{self, Bodies, StageError};
use crate::{protocol, tracegen, validate};
use sha2::{Digest, Sha256};

/// The settings that shape enhanced output; their fingerprint goes into
/// `@TFEnhanced` so a later run can tell whether a class is current.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub tracegen: bool,
    pub filters: Vec<String>,
}

impl Settings {
    /// Stable across runs, paths and filter order.
    pub fn fingerprint(&self) -> String {
        // Every class of a run asks with the same settings: hash them once
        // per thread and settings, not once per class.
        thread_local! {
            static LAST: std::cell::RefCell<Option<(Settings, String)>> = const { std::cell::RefCell::new(None) };
        }
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            match last.as_ref() {
                Some((settings, fingerprint)) if settings == self => fingerprint.clone(),
                _ => {
                    let fingerprint = self.compute_fingerprint();
                    *last = Some((self.clone(), fingerprint.clone()));
                    fingerprint
                }
            }
        })
    }

    fn compute_fingerprint(&self) -> String {
        let mut filters = self.filters.clone();
        filters.sort();
        let text = format!(
            "tf-core {} protocol {}\ntracegen={}\nfilters={}\n",
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

/// What became of one class.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome<'c> {
    /// Nothing of TF in it.
    Untouched,
    /// Already enhanced with these settings.
    Current,
    /// The new bytes, and what TF made of the class (for `-debug`).
    Enhanced { bytes: Vec<u8>, description: Description<'c> },
}

/// What TF made of a class, as a line of text when displayed:
/// `com.ex.Foo: groups [com.ex.IO]; 0=read (monitored, com.ex.IO) 1=note (info)`.
/// Kept as the class's model and written only when shown (`-debug`): most
/// runs never show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Description<'c>(model::TfClass<'c>);

impl std::fmt::Display for Description<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&describe(&self.0))
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

pub fn enhance_class<'c>(
    class: &'c ScannedClass,
    groups: &'c Groups,
    selections: &'c [Selection],
    settings: &Settings,
) -> Result<Outcome<'c>, Vec<Diagnostic>> {
    // The file's name as text only for a diagnostic: most classes make none.
    let file = || Some(class.file.display().to_string());
    let diagnostic = |method: Option<String>, rule: &str, message: String| Diagnostic {
        file: file(),
        class: Some(class.name.clone()),
        method,
        rule: rule.into(),
        message,
    };
    let parse_error = |e: ClassFileError| vec![diagnostic(None, "parse", format!("not a valid class file: {e}"))];

    let parsed = match &class.pool {
        Some(layout) => ClassFile::parse_with_layout(&class.bytes, layout),
        None => ClassFile::parse(&class.bytes),
    }
    .map_err(parse_error)?;
    let tf = model::build(&parsed, groups, selections).map_err(parse_error)?;
    if !tf.is_relevant() {
        return Ok(Outcome::Untouched);
    }
    let fingerprint = settings.fingerprint();
    let mut upgrade = false;
    if let Some(mark) = &tf.enhanced {
        if mark.fingerprint == fingerprint && mark.stage == settings.stage() {
            return Ok(Outcome::Current);
        }
        // A class left at stage 1 with these settings gets stage 2 now.
        let stage_one = Settings { tracegen: false, ..settings.clone() };
        upgrade = settings.tracegen && mark.stage == protocol::STAGE_SCHEMA && mark.fingerprint == stage_one.fingerprint();
        if !upgrade {
            return Err(vec![diagnostic(
                None,
                "enhanced-with-other-settings",
                format!(
                    "the class was enhanced before (stage {}, fingerprint {}) with other settings and its original \
                     is gone: run a clean build",
                    mark.stage, mark.fingerprint
                ),
            )]);
        }
    }
    if !upgrade {
        let offences = validate::validate(&parsed, &tf).map_err(parse_error)?;
        if !offences.is_empty() {
            return Err(offences.into_iter().map(|d| Diagnostic { file: file(), ..d }).collect());
        }
    }
    let enhance_error = |e: ClassFileError| vec![diagnostic(None, "enhance", format!("cannot be enhanced: {e}"))];
    let stage_error = |e: StageError| {
        let method = e.method.map(|i| match parsed.methods().get(i) {
            Some(m) => format!("{}{}", m.name().unwrap_or_default(), m.descriptor().unwrap_or_default()),
            None => "<clinit>()V".to_string(), // the only method TF adds
        });
        vec![diagnostic(method, "enhance", format!("cannot be enhanced: {}", e.error))]
    };
    let mut editor = ClassEditor::new(&parsed);
    editor.pool.set_known_texts(protocol::pool_texts());
    let mut bodies = Bodies::for_class(&tf, settings.tracegen);
    if !upgrade {
        schema::apply(&parsed, &tf, &mut editor, &mut bodies).map_err(stage_error)?;
    }
    if settings.tracegen {
        tracegen::apply(&parsed, &tf, &mut editor, &mut bodies).map_err(stage_error)?;
    }
    bodies.assemble_into(&mut editor).map_err(stage_error)?;
    schema::mark_enhanced(&parsed, settings.stage(), &fingerprint, &mut editor).map_err(enhance_error)?;
    let bytes = editor.to_bytes().map_err(enhance_error)?;
    // Never write a class the engine cannot read back.
    ClassFile::check_extending(&bytes, &parsed)
        .map_err(|e| enhance_error(ClassFileError::malformed(0, format!("enhanced class does not parse: {e}"))))?;
    Ok(Outcome::Enhanced { bytes, description: Description(tf) })
}
