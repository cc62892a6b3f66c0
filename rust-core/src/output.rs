//! Every file the core writes goes through here: temp file in the same
//! directory, then renamed over the target, so a reader (or a build killed
//! midway) sees the old bytes or the new ones, never a half-written file.
//! No fsync: build outputs need atomicity against a killed process, not
//! durability against power loss, and fsync per class made enhancing the JDK's
//! java.base three times slower.
#![forbid(unsafe_code)]

use std::io::{self, Write};
use std::path::Path;

/// Temporary files are named `.tf-XXXXXX.tmp`, beside their target: never
/// `.class`, so no class loader or scan takes one for a class. A killed run can
/// leave one behind; the next run that holds the cache lock removes it, so it
/// never reaches a jar.
const TEMP_PREFIX: &str = ".tf-";
const TEMP_SUFFIX: &str = ".tmp";

/// Whether a file name is one of the temporary files [`write_atomically`] makes.
pub fn is_temporary(file_name: &str) -> bool {
    file_name.starts_with(TEMP_PREFIX) && file_name.ends_with(TEMP_SUFFIX)
}

/// Replaces `path` with `bytes` atomically, creating missing parent directories.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    write_atomically_via(dir, path, bytes)
}

/// Like [`write_atomically`], with the temporary file in `temp_dir` (which must
/// be on the same file system as `path` and exist).
pub fn write_atomically_via(temp_dir: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut temp = tempfile::Builder::new().prefix(TEMP_PREFIX).suffix(TEMP_SUFFIX).tempfile_in(temp_dir)?;
    temp.write_all(bytes)?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
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
