//! Stage 0 of an incremental run: every class file in the directory, and what
//! is known of each. A file whose size and modification time are those the
//! cache recorded is not read at all; any other is read, hashed (when there is
//! a cache) and scanned — unless its digest shows it is a file the cache knows.
#![forbid(unsafe_code)]

use crate::cache::state::{self, Digest, Entry, Stamp, State};
use crate::classfile::class_files;
use crate::request::Diagnostic;
use crate::scan;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// One class file as found.
#[derive(Debug)]
pub struct Listed {
    /// Relative to the class directory, `/`-separated (the cache's key).
    pub relative: String,
    pub file: PathBuf,
    /// Binary name and, for a TF annotation type, its subgroups.
    pub name: String,
    pub group: Option<Vec<String>>,
    pub stamp: Option<Stamp>,
    /// The file's bytes, when they were read.
    pub bytes: Option<Vec<u8>>,
    /// The digest of what the file holds now, when known (always, with a cache).
    pub digest: Option<Digest>,
    /// What the cache recorded for this path, if anything.
    pub prior: Option<Entry>,
}

impl Listed {
    /// The cache's word that the file still holds what TF left there.
    pub fn holds_recorded_output(&self) -> bool {
        self.prior.as_ref().is_some_and(|p| self.digest == Some(p.output))
    }
}

/// Lists and, where needed, reads and scans every class file under `dir`.
/// `known` is the cache's state (empty without a cache); `hash` says whether
/// digests are wanted (only a cache needs them). Every unreadable or
/// unparsable file is reported, not just the first.
pub fn take(dir: &Path, known: &State, hash: bool) -> Result<Vec<Listed>, Vec<Diagnostic>> {
    let io_error = |file: &Path, what: &str, e: std::io::Error| Diagnostic {
        file: Some(file.display().to_string()),
        rule: "io".into(),
        message: format!("could not {what}: {e}"),
        ..Diagnostic::default()
    };
    let files = class_files(dir).map_err(|e| vec![io_error(dir, "list the class files", e)])?;
    let mut listed = Vec::with_capacity(files.len());
    let mut errors = Vec::new();
    for file in files {
        let relative = relative_key(dir, &file);
        let prior = known.classes.get(&relative).cloned();
        let stamp = match std::fs::metadata(&file) {
            Ok(metadata) => Stamp::of(&metadata),
            Err(e) => {
                errors.push(io_error(&file, "read the class file's metadata", e));
                continue;
            }
        };
        if let Some(p) = prior.as_ref().filter(|p| p.stamp.is_some() && p.stamp == stamp) {
            let (name, group, digest) = (p.name.clone(), p.group.clone(), Some(p.output));
            listed.push(Listed { relative, file, name, group, stamp, bytes: None, digest, prior });
            continue;
        }
        let bytes = match std::fs::read(&file) {
            Ok(bytes) => bytes,
            Err(e) => {
                errors.push(io_error(&file, "read the class file", e));
                continue;
            }
        };
        let digest = hash.then(|| state::digest(&bytes));
        let recognised = prior.as_ref().filter(|p| digest == Some(p.output) || digest == Some(p.original));
        let (name, group) = match recognised {
            Some(p) => (p.name.clone(), p.group.clone()),
            None => match scan::identify(&file, &bytes) {
                Ok(found) => found,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            },
        };
        listed.push(Listed { relative, file, name, group, stamp, bytes: Some(bytes), digest, prior });
    }
    if errors.is_empty() {
        Ok(listed)
    } else {
        Err(errors)
    }
}

/// TF annotation types among the listed classes: every `@MethodMonitorGroup`
/// annotation type, and every subgroup one lists; sorted.
pub fn tf_annotation_names(listed: &[Listed]) -> Vec<String> {
    let mut names = BTreeSet::new();
    for class in listed {
        if let Some(subgroups) = &class.group {
            names.insert(class.name.clone());
            names.extend(subgroups.iter().cloned());
        }
    }
    names.into_iter().collect()
}

/// `dir/com/ex/A.class` → `com/ex/A.class`, whatever the platform's separator.
fn relative_key(dir: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(dir).unwrap_or(file);
    let parts: Vec<String> = relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    parts.join("/")
}
