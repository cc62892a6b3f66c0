//! Stage 0 of an incremental run: every class file in the directory, and what
//! is known of each. A file whose size and modification time are those the
//! cache recorded is not read at all; any other is read, hashed (when there is
//! a cache) and scanned — unless its digest shows it is a file the cache knows.
#![forbid(unsafe_code)]

use crate::cache::state::{self, Digest, Entry, Stamp, State};
use crate::request::Diagnostic;
use crate::scan;
use rayon::prelude::*;
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

/// Lists and, where needed, reads and scans every class file under `dir`, in
/// parallel on the current rayon pool. `known` is the cache's state (empty
/// without a cache); `hash` says whether digests are wanted (only a cache needs
/// them). Every unreadable or unparsable file is reported, not just the first.
pub fn take(dir: &Path, known: &State, hash: bool) -> Result<Vec<Listed>, Vec<Diagnostic>> {
    let mut files = Vec::new();
    walk(dir, "", &mut files).map_err(|e| vec![io_error(dir, "list the class files", e)])?;
    // By key: the order of paths as strings, which is all determinism needs.
    files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let results: Vec<Result<Listed, Diagnostic>> =
        files.into_par_iter().map(|(relative, file)| list_one(relative, file, known, hash)).collect();
    let mut listed = Vec::with_capacity(results.len());
    let mut errors = Vec::new();
    for result in results {
        match result {
            Ok(class) => listed.push(class),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(listed)
    } else {
        Err(errors)
    }
}

fn list_one(relative: String, file: PathBuf, known: &State, hash: bool) -> Result<Listed, Diagnostic> {
    let prior = known.classes.get(&relative).cloned();
    let metadata = std::fs::metadata(&file).map_err(|e| io_error(&file, "read the class file's metadata", e))?;
    let stamp = Stamp::of(&metadata);
    if let Some(p) = prior.as_ref().filter(|p| p.stamp.is_some() && p.stamp == stamp) {
        let (name, group, digest) = (p.name.clone(), p.group.clone(), Some(p.output));
        return Ok(Listed { relative, file, name, group, stamp, bytes: None, digest, prior });
    }
    let bytes = std::fs::read(&file).map_err(|e| io_error(&file, "read the class file", e))?;
    let digest = hash.then(|| state::digest(&bytes));
    let recognised = prior.as_ref().filter(|p| digest == Some(p.output) || digest == Some(p.original));
    let (name, group) = match recognised {
        Some(p) => (p.name.clone(), p.group.clone()),
        None => scan::identify(&file, &bytes)?,
    };
    Ok(Listed { relative, file, name, group, stamp, bytes: Some(bytes), digest, prior })
}

/// Every `.class` file under `dir`, with its key (`prefix` + relative path, `/`-separated).
fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if entry.file_type()?.is_dir() {
            walk(&entry.path(), &format!("{prefix}{name}/"), out)?;
        } else if name.ends_with(".class") {
            out.push((format!("{prefix}{name}"), entry.path()));
        }
    }
    Ok(())
}

fn io_error(file: &Path, what: &str, e: std::io::Error) -> Diagnostic {
    Diagnostic {
        file: Some(file.display().to_string()),
        rule: "io".into(),
        message: format!("could not {what}: {e}"),
        ..Diagnostic::default()
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
