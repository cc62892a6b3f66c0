//! The incremental cache of one class directory (one source set):
//! `state` (what TF knows of each class file), `originals/` (the bytes the
//! build handed us, by SHA-256, so a change of settings, of a TF annotation or
//! of TF itself re-enhances from them) and `lock` (held for the whole run, so
//! two builds on one output directory take turns).
//!
//! The cache is only an optimization: a missing or damaged state, or a missing
//! or damaged original, makes TF read the class files again, never produce
//! other bytes.
#![forbid(unsafe_code)]

pub mod readopt;
pub mod state;

use crate::output::{remove_if_present, remove_temporaries_in, write_atomically_via};
use state::{digest, hex, Digest, State, STATE_FORMAT};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

const STATE_FILE: &str = "state";
const LOCK_FILE: &str = "lock";
const ORIGINALS_DIR: &str = "originals";

/// An open cache directory, locked until dropped.
#[derive(Debug)]
pub struct Cache {
    dir: PathBuf,
    /// Holds the exclusive lock; released when the cache is dropped.
    _lock: File,
    /// The state as loaded (empty when there was none or it was damaged).
    pub state: State,
    /// One line saying why the state was discarded, when it was.
    pub discarded: Option<String>,
}

impl Cache {
    /// Opens (creating) the cache in `dir`, waiting for any other run on it,
    /// and loads its state.
    pub fn open(dir: &Path) -> io::Result<Cache> {
        let mut cache = Cache::lock(dir)?;
        cache.load_state()?;
        Ok(cache)
    }

    /// Opens (creating) the cache in `dir` and waits for any other run on it;
    /// the state stays empty until [`Cache::load_state`] (which a run can do
    /// while it walks the class directory).
    pub fn lock(dir: &Path) -> io::Result<Cache> {
        fs::create_dir_all(dir.join(ORIGINALS_DIR))?;
        let lock = File::options().create(true).truncate(false).write(true).open(dir.join(LOCK_FILE))?;
        lock.lock()?;
        // Every write into the cache has its temporary file here (see
        // `keep_original`), so this one small directory holds all a killed run left.
        remove_temporaries_in(dir)?;
        Ok(Cache { dir: dir.to_path_buf(), _lock: lock, state: State::default(), discarded: None })
    }

    /// Reads and checks the saved state; a damaged one is discarded, and said so in `discarded`.
    pub fn load_state(&mut self) -> io::Result<()> {
        let path = self.dir.join(STATE_FILE);
        (self.state, self.discarded) = match fs::read(&path) {
            Ok(bytes) => match State::decode(&bytes) {
                Ok(state) => (state, None),
                Err(reason) => (
                    State::default(),
                    Some(format!("TF: the cache state {} was unusable ({reason}); rebuilding it", path.display())),
                ),
            },
            Err(e) if e.kind() == io::ErrorKind::NotFound => (State::default(), None),
            Err(e) => return Err(e),
        };
        Ok(())
    }

    /// The cache directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Saves `state` atomically; it becomes the cache's state. Returns the one it replaced.
    pub fn save(&mut self, mut state: State) -> io::Result<State> {
        state.format = STATE_FORMAT;
        let bytes = state.encode().map_err(io::Error::other)?;
        write_atomically_via(&self.dir, &self.dir.join(STATE_FILE), &bytes)?;
        Ok(std::mem::replace(&mut self.state, state))
    }

    fn original_path(&self, digest: &Digest) -> PathBuf {
        self.dir.join(ORIGINALS_DIR).join(format!("{}.class", hex(digest)))
    }

    /// The original with this digest, if it is stored and intact.
    pub fn original(&self, wanted: &Digest) -> Option<Vec<u8>> {
        let bytes = fs::read(self.original_path(wanted)).ok()?;
        (digest(&bytes) == *wanted).then_some(bytes)
    }

    /// The intact originals in the store, by binary class name: how
    /// [`readopt::readopt_originals`] finds them again without a state.
    pub fn originals_by_name(&self) -> HashMap<String, Vec<Digest>> {
        let mut by_name: HashMap<String, Vec<Digest>> = HashMap::new();
        let Ok(entries) = fs::read_dir(self.dir.join(ORIGINALS_DIR)) else { return by_name };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(bytes) = fs::read(&path) else { continue };
            let kept = digest(&bytes);
            if path != self.original_path(&kept) {
                continue; // damaged, or not an original
            }
            if let Ok(identity) = crate::scan::identify(&path, &bytes) {
                by_name.entry(identity.name).or_default().push(kept);
            }
        }
        by_name
    }

    /// Stores an original. The caller knows which ones the store holds (every
    /// one the saved state names) and asks for the others only, so no look
    /// comes first: the few already there (a killed run's, or a discarded
    /// state's) are replaced by the same bytes.
    pub fn keep_original(&self, digest: &Digest, bytes: &[u8]) -> io::Result<()> {
        write_atomically_via(&self.dir, &self.original_path(digest), bytes)
    }

    /// Deletes the stored originals that `previous` referred to and the current
    /// state does not (those of removed or recompiled classes). With `sweep`,
    /// deletes every unreferenced file in the store instead (after a discarded
    /// state, or to clear what a killed run left behind).
    pub fn collect_garbage(&self, previous: &State, sweep: bool) -> io::Result<()> {
        let wanted: HashSet<&Digest> = self.state.classes.values().map(|entry| &entry.original).collect();
        let store = self.dir.join(ORIGINALS_DIR);
        let unwanted: Vec<PathBuf> = if sweep {
            let wanted_names: HashSet<String> = wanted.iter().map(|d| format!("{}.class", hex(d))).collect();
            let mut files = Vec::new();
            for file in fs::read_dir(&store)? {
                let file = file?;
                if !wanted_names.contains(file.file_name().to_string_lossy().as_ref()) {
                    files.push(file.path());
                }
            }
            files
        } else {
            let gone: BTreeSet<&Digest> =
                previous.classes.values().map(|entry| &entry.original).filter(|d| !wanted.contains(d)).collect();
            gone.into_iter().map(|d| self.original_path(d)).collect()
        };
        unwanted.iter().try_for_each(|file| remove_if_present(file))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn originals_are_kept_checked_and_collected() {
        let dir = tempfile::tempdir().unwrap();
        let mut cache = Cache::open(dir.path()).unwrap();
        let (a, b) = (digest(b"class a"), digest(b"class b"));
        cache.keep_original(&a, b"class a").unwrap();
        cache.keep_original(&b, b"class b").unwrap();
        assert_eq!(cache.original(&a).as_deref(), Some(&b"class a"[..]));
        // A damaged original is not believed.
        fs::write(cache.original_path(&b), b"class c").unwrap();
        assert_eq!(cache.original(&b), None);

        let mut state = State::default();
        state.classes.insert(
            "A.class".into(),
            state::Entry { stamp: None, original: a, output: a, superseded: None, name: "A".into(), group: None },
        );
        cache.save(state.clone()).unwrap();
        cache.collect_garbage(&State::default(), true).unwrap();
        assert!(cache.original_path(&a).is_file());
        assert!(!cache.original_path(&b).exists());
        drop(cache);

        let reopened = Cache::open(dir.path()).unwrap();
        assert_eq!(reopened.state.classes, state.classes);
        assert_eq!(reopened.discarded, None);
    }

    #[test]
    fn a_damaged_state_is_reported_in_one_line_and_discarded() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(STATE_FILE), b"not a state").unwrap();
        let cache = Cache::open(dir.path()).unwrap();
        assert_eq!(cache.state, State::default());
        let line = cache.discarded.expect("the damage is reported");
        assert!(line.contains("rebuilding") && !line.contains('\n'), "{line}");
    }
}
