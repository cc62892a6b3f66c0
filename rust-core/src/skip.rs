//! Which failures of a class leave methods as they were instead of failing
//! the run. A method the user named (a TF annotation, `@InfoMethod`) that TF
//! cannot enhance fails the build; one that only a filter selected is left
//! exactly as it was, with a warning naming class, method and rule, and the
//! rest of its class is enhanced without it. `failOnSkip` makes those
//! failures too.
#![forbid(unsafe_code)]

use crate::model::TfClass;
use crate::request::Diagnostic;

/// The methods left out of a class so far, and the warning for each.
#[derive(Debug, Default)]
pub struct Skips {
    fail_on_skip: bool,
    /// Indexes in the class's method table.
    pub indexes: Vec<usize>,
    /// One warning per skipped method, naming it and why it was left.
    pub warnings: Vec<Diagnostic>,
}

impl Skips {
    /// No skips yet; with `fail_on_skip` a failure that would be a skip fails
    /// the class instead.
    pub fn new(fail_on_skip: bool) -> Self {
        Skips { fail_on_skip, ..Skips::default() }
    }

    /// Takes in `failures`, each with the methods (by index) it concerns:
    /// those concerning only filter-selected methods become skips; any
    /// other fails the class, with every failure that is not a skip.
    pub fn judge(&mut self, tf: &TfClass, failures: Vec<(Vec<usize>, Diagnostic)>) -> Result<(), Vec<Diagnostic>> {
        let mut errors = Vec::new();
        for (methods, failure) in failures {
            let selected = |i: &usize| tf.methods.iter().any(|m| m.index == *i && m.is_selected());
            if methods.is_empty() || !methods.iter().all(selected) {
                errors.push(failure);
                continue;
            }
            if self.fail_on_skip {
                errors.push(Diagnostic {
                    message: format!("{} (a method selected by a filter; failOnSkip is set)", failure.message),
                    ..failure
                });
                continue;
            }
            for m in tf.methods.iter().filter(|m| methods.contains(&m.index)) {
                self.indexes.push(m.index);
                self.warnings.push(Diagnostic {
                    method: Some(m.signature()),
                    message: format!("not enhanced, left as it was: {}", failure.message),
                    ..failure.clone()
                });
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

/// The methods an offence of the spec's rules names: by signature
/// (`name(descriptor)`), or every overload by name; `None` (the class as a
/// whole): all of them.
pub fn methods_named(tf: &TfClass, method: Option<&str>) -> Vec<usize> {
    let named = |m: &&crate::model::TfMethod| match method {
        None => true,
        Some(text) => *m.name == *text || m.signature() == text,
    };
    tf.methods.iter().filter(named).map(|m| m.index).collect()
}

/// The methods a failure in method `index` concerns: that method if TF
/// enhances it, else (code TF adds to the class, such as `<clinit>`) all of them.
pub fn methods_at(tf: &TfClass, index: usize) -> Vec<usize> {
    if tf.methods.iter().any(|m| m.index == index) {
        vec![index]
    } else {
        tf.methods.iter().map(|m| m.index).collect()
    }
}
