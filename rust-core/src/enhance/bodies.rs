//! The per-class state of the enhance stage: each method body being edited
//! (lifted, or spliced by tracegen) until the class is written, and the error
//! of a stage with the method it arose in. Both stages (schema, tracegen)
//! edit it; `enhance` creates it for a class and assembles it at the end.
#![forbid(unsafe_code)]

use crate::classfile::splice::SplicedCode;
use crate::classfile::{ClassEditor, ClassFile, ClassFileError, CodeModel, Detail, Lifter};
use crate::model::TfClass;
use crate::schema::registration::Registration;
use crate::tracegen::check_scope::{GeneratedCode, SplicedMethod};

use crate::classfile::Result;

/// An error of a stage, with the method (by index in the class's method
/// table) it arose in, so the user's message can name it.
#[derive(Debug)]
pub struct StageError {
    /// Index in the class's method table of the method the error arose in;
    /// `None` when no one method is to blame.
    pub method: Option<usize>,
    /// The error itself.
    pub error: ClassFileError,
}

impl From<ClassFileError> for StageError {
    fn from(error: ClassFileError) -> Self {
        StageError { method: None, error }
    }
}

/// Attaches the method an error arose in.
pub trait InMethod<T> {
    /// The error, if any, as one that arose in the method at `index` of the
    /// class's method table.
    fn in_method(self, index: usize) -> std::result::Result<T, StageError>;
}

impl<T> InMethod<T> for Result<T> {
    fn in_method(self, index: usize) -> std::result::Result<T, StageError> {
        self.map_err(|error| StageError { method: Some(index), error })
    }
}

/// Method bodies being edited, by method index: both stages edit the same
/// model of a method, and the caller assembles each once, at the end.
#[derive(Default)]
pub struct Bodies<'a> {
    pub(crate) models: std::collections::BTreeMap<usize, CodeModel<'a>>,
    /// A monitored `<clinit>` (by index) and the registration stage 1 left
    /// for tracegen to put first, in one splice with its own prologue.
    pub(crate) pending_registration: Option<(usize, Registration)>,
    /// Whether tracegen runs after this stage.
    pub(crate) tracegen_follows: bool,
    /// Bodies edited by splicing, by method index, each with the template
    /// its generated code was copied from, if it was.
    spliced: std::collections::BTreeMap<usize, (SplicedCode, Option<GeneratedCode>)>,
    /// Whether bodies may be lifted by runs ([`Detail::Runs`]).
    runs: bool,
    /// Whether methods are spliced where they can be ([`Settings::splice`]).
    ///
    /// [`Settings::splice`]: crate::enhance::Settings::splice
    pub splicing: bool,
    /// The worker's lifter, lent by its workspace.
    lifter: Lifter,
}

impl<'a> Bodies<'a> {
    /// The bodies of `tf`'s class. Tracegen edits returns, throws and the
    /// constructor's chaining call, all of which a lift by runs keeps apart;
    /// only calls of info methods (and `<clinit>`'s registration) are
    /// looked for among single instructions, so a class without info
    /// methods has its bodies, but `<clinit>`, lifted by runs.
    /// `tracegen_follows`: tracegen edits these bodies after stage 1;
    /// `splicing`: methods are spliced where they can be; `lifter`: the
    /// worker's (given back by [`Bodies::take_lifter`]).
    pub fn for_class(tf: &TfClass, tracegen_follows: bool, splicing: bool, lifter: Lifter) -> Self {
        Bodies {
            models: Default::default(),
            pending_registration: None,
            tracegen_follows,
            spliced: Default::default(),
            runs: !tf.methods.iter().any(|m| m.is_info()),
            splicing,
            lifter,
        }
    }

    /// The lifter, for the next class.
    pub fn take_lifter(&mut self) -> Lifter {
        std::mem::take(&mut self.lifter)
    }

    /// How many methods were spliced.
    pub fn spliced_methods(&self) -> usize {
        self.spliced.len()
    }

    /// The registration stage 1 left for `<clinit>` (method `index`), if any.
    pub fn take_pending_registration(&mut self, index: usize) -> Option<Registration> {
        match self.pending_registration.take() {
            Some((i, registration)) if i == index => Some(registration),
            other => {
                self.pending_registration = other;
                None
            }
        }
    }

    /// Whether method `index` may be edited by splicing: splicing is on, no
    /// stage has lifted it, and its class has no info methods (whose calls a
    /// splice does not look for).
    pub fn may_splice(&self, index: usize) -> bool {
        self.splicing && self.runs && !self.models.contains_key(&index)
    }

    /// The spliced code of method `index`, in place of a model, with the
    /// template its generated code was copied from, if it was.
    pub fn insert_spliced(&mut self, index: usize, code: SplicedCode, template: Option<GeneratedCode>) {
        self.spliced.insert(index, (code, template));
    }

    /// The methods (by index, ascending) spliced, with what the splice tells
    /// the pre-write check of each (taken out: call once).
    pub fn take_check_scopes(&mut self) -> Vec<(usize, SplicedMethod)> {
        let scope = |(code, template): &mut (SplicedCode, Option<GeneratedCode>)| {
            // Code all generated (no regions) is checked as its template's copy, or in full.
            let regions = match code.take_regions() {
                Some(regions) => regions,
                None => {
                    template.as_ref()?;
                    Default::default()
                }
            };
            Some(SplicedMethod { generated: template.clone(), regions })
        };
        self.spliced.iter_mut().filter_map(|(&i, code)| Some((i, scope(code)?))).collect()
    }

    /// The model of method `index`, lifted on first use; `None` without code.
    pub fn get(
        &mut self,
        class: &ClassFile<'a>,
        editor: &mut ClassEditor<'a>,
        index: usize,
    ) -> Result<Option<&mut CodeModel<'a>>> {
        if !self.models.contains_key(&index) {
            let is_clinit = class.methods().get(index).is_some_and(|m| m.name_is("<clinit>"));
            let detail = if self.runs && !is_clinit { Detail::Runs } else { Detail::Instructions };
            match editor.lift_code_with(class, index, detail, &mut self.lifter)? {
                Some(model) => {
                    self.models.insert(index, model);
                }
                None => return Ok(None),
            }
        }
        Ok(self.models.get_mut(&index))
    }

    pub(crate) fn insert(&mut self, index: usize, model: CodeModel<'a>) {
        self.models.insert(index, model);
    }

    /// Assembles every edited body into its method's Code attribute.
    /// In method order: what each adds to the pool comes in that order.
    pub fn assemble_into(self, editor: &mut ClassEditor<'a>) -> std::result::Result<(), StageError> {
        let mut spliced = self.spliced.into_iter().peekable();
        for (index, model) in self.models {
            while let Some((i, (code, _))) = spliced.next_if(|(i, _)| *i < index) {
                let data = code.finish(&mut editor.pool).in_method(i)?;
                editor.set_code_bytes(i, data).in_method(i)?;
            }
            editor.set_code(index, model).in_method(index)?;
        }
        for (i, (code, _)) in spliced {
            let data = code.finish(&mut editor.pool).in_method(i)?;
            editor.set_code_bytes(i, data).in_method(i)?;
        }
        Ok(())
    }
}
