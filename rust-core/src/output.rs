//! Every file the core writes goes through here: temp file in the same
//! directory, then renamed over the target, so a reader (or a build killed
//! midway) sees the old bytes or the new ones, never a half-written file.
//! No fsync: build outputs need atomicity against a killed process, not
//! durability against power loss, and an fsync per class costs more than
//! enhancing the class.
//!
//! A write costs four system calls (create, write, rename, close): the
//! temporary file's name comes from the process id and a counter, made unique
//! by `O_EXCL` alone, and class files are written into the directory they were
//! found in, which exists, so nothing is created or checked first.
#![forbid(unsafe_code)]

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Temporary files are named `.tf-PID-N.tmp`, beside their target: never
/// `.class`, so no class loader or scan takes one for a class. A killed run can
/// leave one behind; the next run that holds the cache lock removes it, so it
/// never reaches a jar.
const TEMP_PREFIX: &str = ".tf-";
const TEMP_SUFFIX: &str = ".tmp";

/// How many names [`create_temporary`] tries before giving up: a name is only
/// taken by a file a killed process with the same id left, or by another copy
/// of this library in the same process (one per class loader), each of which
/// takes a run of consecutive names.
const TEMP_ATTEMPTS: u32 = 1 << 16;

/// The counter behind temporary names, shared by every thread of the process.
static NEXT_TEMP: AtomicU64 = AtomicU64::new(0);

/// Whether a file name is one of the temporary files [`write_atomically`] makes.
pub fn is_temporary(file_name: &str) -> bool {
    file_name.starts_with(TEMP_PREFIX) && file_name.ends_with(TEMP_SUFFIX)
}

/// Replaces `path` with `bytes` atomically, creating missing parent directories.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = parent_of(path);
    std::fs::create_dir_all(dir)?;
    write_atomically_via(dir, path, bytes)
}

/// Like [`write_atomically`], with the temporary file in `temp_dir` (which must
/// be on the same file system as `path` and exist).
pub fn write_atomically_via(temp_dir: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace_via(temp_dir, path, bytes, |_| Ok(()))
}

/// Replaces `path`, whose directory exists (a class file beside the one the
/// walk found), with `bytes` atomically; `inspect` sees the new file, written
/// and not yet renamed (an `fstat` there costs no path lookup, and renaming
/// changes neither size nor modification time).
pub fn replace_in_place<T>(path: &Path, bytes: &[u8], inspect: impl FnOnce(&File) -> io::Result<T>) -> io::Result<T> {
    replace_via(parent_of(path), path, bytes, inspect)
}

fn replace_via<T>(
    temp_dir: &Path,
    path: &Path,
    bytes: &[u8],
    inspect: impl FnOnce(&File) -> io::Result<T>,
) -> io::Result<T> {
    let (temp, mut file) = create_temporary(temp_dir)?;
    let written = file.write_all(bytes).and_then(|()| inspect(&file));
    drop(file);
    match written.and_then(|seen| std::fs::rename(&temp, path).map(|()| seen)) {
        Ok(seen) => Ok(seen),
        Err(e) => {
            // Best effort: a temporary file left behind is cleared by the next run.
            let _ = std::fs::remove_file(&temp);
            Err(e)
        }
    }
}

/// A new, empty temporary file in `dir`, by `O_EXCL` under the next free name.
fn create_temporary(dir: &Path) -> io::Result<(PathBuf, File)> {
    // Asked once: `std::process::id` is a system call each time.
    static PID: OnceLock<u32> = OnceLock::new();
    let pid = *PID.get_or_init(std::process::id);
    for _ in 0..TEMP_ATTEMPTS {
        let n = NEXT_TEMP.fetch_add(1, Ordering::Relaxed);
        let temp = dir.join(format!("{TEMP_PREFIX}{pid}-{n}{TEMP_SUFFIX}"));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("no free temporary file name in {} after {TEMP_ATTEMPTS} attempts", dir.display()),
    ))
}

fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Removes the temporary files a killed run left directly in `dir`; returns how many.
pub fn remove_temporaries_in(dir: &Path) -> io::Result<usize> {
    let mut removed = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if is_temporary(&entry.file_name().to_string_lossy()) {
            remove_if_present(&entry.path())?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// Deletes a file; one already gone is not an error.
pub fn remove_if_present(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temporaries_in(dir: &Path) -> Vec<String> {
        let names = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned());
        names.filter(|name| is_temporary(name)).collect()
    }

    #[test]
    fn names_a_killed_run_left_are_passed_over_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        // The names this process would take next, as a killed process with
        // the same id would have left them.
        let next = NEXT_TEMP.load(Ordering::Relaxed);
        let taken: Vec<PathBuf> = (next..next + 64)
            .map(|n| dir.path().join(format!("{TEMP_PREFIX}{}-{n}{TEMP_SUFFIX}", std::process::id())))
            .collect();
        for file in &taken {
            std::fs::write(file, b"left by a killed run").unwrap();
        }
        let target = dir.path().join("A.class");
        write_atomically_via(dir.path(), &target, b"new bytes").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new bytes");
        for file in &taken {
            assert_eq!(std::fs::read(file).unwrap(), b"left by a killed run");
        }
        assert_eq!(temporaries_in(dir.path()).len(), taken.len());
    }

    #[test]
    fn a_write_that_fails_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        // A non-empty directory where the file should go: the rename fails.
        let target = dir.path().join("A.class");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("inside"), b"x").unwrap();
        assert!(replace_in_place(&target, b"new bytes", |_| Ok(())).is_err());
        assert_eq!(temporaries_in(dir.path()), Vec::<String>::new());
        assert_eq!(std::fs::read(target.join("inside")).unwrap(), b"x");
    }
}
