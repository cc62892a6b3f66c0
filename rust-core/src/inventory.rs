//! Stage 0 of an incremental run: every class file in the directory
//! ([`find`]), and what is known of each ([`take`]). A file whose size and modification time are those the
//! cache recorded is not read at all; any other is read, hashed (when there is
//! a cache) and scanned — unless its digest shows it is a file the cache knows.
#![forbid(unsafe_code)]

use crate::rule::Rule;
use crate::cache::state::{self, Digest, Entry, Stamp, State};
use crate::request::Diagnostic;
use crate::output;
use crate::classfile::PoolLayout;
use crate::scan;
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// One class file as found.
#[derive(Debug)]
pub struct Listed {
    /// Relative to the class directory, `/`-separated (the cache's key).
    pub relative: String,
    /// Path of the file.
    pub file: PathBuf,
    /// Binary name.
    pub name: String,
    /// For a TF annotation type, its subgroups (binary names).
    pub group: Option<Vec<String>>,
    /// Size and modification time as the walk found them (`None` when the
    /// system gave no usable modification time).
    pub stamp: Option<Stamp>,
    /// The file's bytes, when they were read.
    pub bytes: Option<Vec<u8>>,
    /// Where the constant pool of `bytes` is, when they were identified.
    pub pool: Option<PoolLayout>,
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

    /// The cache's word that the file holds an enhancement of the original it
    /// kept: the output TF left there, or one a killed run was about to replace.
    pub fn holds_enhancement_of_original(&self) -> bool {
        self.prior.as_ref().zip(self.digest.as_ref()).is_some_and(|(p, d)| p.is_output(d))
    }
}

/// What the walk found: every class file with its stamp, sorted by key, and
/// the temporary files a killed run left behind (see `crate::output`).
#[derive(Debug, Default)]
pub struct Found {
    /// Every class file, sorted by key.
    pub files: Vec<FoundFile>,
    /// Temporary files a killed run left, for the run to remove.
    pub stale_temporaries: Vec<PathBuf>,
}

/// A class file the walk found, with its stamp read through its directory.
#[derive(Debug)]
pub struct FoundFile {
    relative: String,
    file: PathBuf,
    stamp: Option<Stamp>,
    /// The size the walk saw: reading the file then needs no `fstat` of its own.
    size: u64,
}

/// Walks `dir` in parallel on the current rayon pool (one task per directory).
/// Every directory or file that can't be read is reported, not just the first.
pub fn find(dir: &Path) -> Result<Found, Vec<Diagnostic>> {
    let walked = Mutex::new(Walked::default());
    rayon::scope(|scope| walk(scope, dir.to_path_buf(), String::new(), &walked));
    let Walked { mut found, mut errors } = walked.into_inner().unwrap_or_else(|e| e.into_inner());
    if !errors.is_empty() {
        errors.sort_by(|a, b| a.file.cmp(&b.file));
        return Err(errors);
    }
    // By key: the order of paths as strings, which is all determinism needs.
    found.files.par_sort_unstable_by(|a, b| a.relative.cmp(&b.relative));
    found.stale_temporaries.sort();
    Ok(found)
}

/// Reads and scans, where needed, every file found, in parallel on the current
/// rayon pool. `known` is the cache's state (empty without a cache); `hash`
/// says whether digests are wanted (only a cache needs them). Every unreadable
/// or unparsable file is reported, not just the first.
pub fn take(files: Vec<FoundFile>, known: &State, hash: bool) -> (Vec<Listed>, Vec<Diagnostic>) {
    let results: Vec<Result<Listed, Diagnostic>> = files.into_par_iter().map(|file| list_one(file, known, hash)).collect();
    let mut classes = Vec::with_capacity(results.len());
    let mut errors = Vec::new();
    for result in results {
        match result {
            Ok(class) => classes.push(class),
            Err(e) => errors.push(e),
        }
    }
    (classes, errors)
}

#[derive(Default)]
struct Walked {
    found: Found,
    errors: Vec<Diagnostic>,
}

fn list_one(found: FoundFile, known: &State, hash: bool) -> Result<Listed, Diagnostic> {
    let FoundFile { relative, file, stamp, size } = found;
    let prior = known.classes.get(&relative).cloned();
    if let Some(p) = prior.as_ref().filter(|p| p.stamp.is_some() && p.stamp == stamp) {
        let (name, group, digest) = (p.name.clone(), p.group.clone(), Some(p.output));
        return Ok(Listed { relative, file, name, group, stamp, bytes: None, pool: None, digest, prior });
    }
    let bytes = read_sized(&file, size).map_err(|e| io_error(&file, "read the class file", e))?;
    let digest = hash.then(|| state::digest(&bytes));
    let recognised = prior.as_ref().filter(|p| digest.as_ref().is_some_and(|d| p.is_output(d) || *d == p.original));
    let (name, group, pool) = match recognised {
        Some(p) => (p.name.clone(), p.group.clone(), None),
        None => {
            let identity = scan::identify(&file, &bytes)?;
            (identity.name, identity.group, Some(identity.pool))
        }
    };
    Ok(Listed { relative, file, name, group, stamp, bytes: Some(bytes), pool, digest, prior })
}

/// Every `.class` file under `dir`, with its key (`prefix` + relative path,
/// `/`-separated) and metadata; one task per directory. The metadata comes
/// from the directory entry (a `statx` relative to the open directory, no
/// path walk per file), except for symbolic links, which are followed.
fn walk<'s>(scope: &rayon::Scope<'s>, dir: PathBuf, prefix: String, walked: &'s Mutex<Walked>) {
    let mut local = Walked::default();
    let mut entries = || -> std::io::Result<()> {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let file_type = entry.file_type()?;
            if file_type.is_dir() {
                let (sub, sub_prefix) = (entry.path(), format!("{prefix}{name}/"));
                scope.spawn(move |scope| walk(scope, sub, sub_prefix, walked));
            } else if name.ends_with(".class") {
                let file = entry.path();
                let metadata = if file_type.is_symlink() { std::fs::metadata(&file) } else { entry.metadata() };
                match metadata {
                    Ok(metadata) => {
                        let (stamp, size) = (Stamp::of(&metadata), metadata.len());
                        local.found.files.push(FoundFile { relative: format!("{prefix}{name}"), file, stamp, size });
                    }
                    Err(e) => local.errors.push(io_error(&file, "read the class file's metadata", e)),
                }
            } else if output::is_temporary(&name) {
                local.found.stale_temporaries.push(entry.path());
            }
        }
        Ok(())
    };
    if let Err(e) = entries() {
        local.errors.push(io_error(&dir, "list the class files", e));
    }
    let mut all = walked.lock().unwrap_or_else(|e| e.into_inner());
    all.found.files.append(&mut local.found.files);
    all.found.stale_temporaries.append(&mut local.found.stale_temporaries);
    all.errors.append(&mut local.errors);
}

/// Reads a file whose size the walk saw: open, one read of it all, the read
/// that finds its end, close. (`std::fs::read` and `File::read_to_end` first
/// ask the file for its size and position: two more system calls per class.)
/// A file that has grown since the walk is still read whole.
fn read_sized(file: &Path, size: u64) -> std::io::Result<Vec<u8>> {
    let mut reader = File::open(file)?;
    // One byte more than expected, so the read that meets the end has room.
    let mut bytes = vec![0; usize::try_from(size).map_or(0, |size| size.saturating_add(1)).max(1)];
    let mut filled = 0;
    loop {
        match reader.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => {
                filled += n;
                if filled == bytes.len() {
                    bytes.resize(filled * 2, 0);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    bytes.truncate(filled);
    Ok(bytes)
}

fn io_error(file: &Path, what: &str, e: std::io::Error) -> Diagnostic {
    Diagnostic {
        file: Some(file.display().to_string()),
        rule: Rule::Io,
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
