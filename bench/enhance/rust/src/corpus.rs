//! The input: every class file under a directory, read into memory once so
//! that the timed passes do no file I/O.
#![forbid(unsafe_code)]

use std::io;
use std::path::{Path, PathBuf};

/// One class file's path and bytes.
pub struct ClassFileInput {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

/// All class files under a directory, in path order (so every run sees them
/// in the same order).
pub struct Corpus {
    pub classes: Vec<ClassFileInput>,
}

impl Corpus {
    pub fn load(dir: &Path) -> io::Result<Corpus> {
        let mut paths = Vec::new();
        collect_class_files(dir, &mut paths)?;
        paths.sort();
        let classes = paths
            .into_iter()
            .map(|path| std::fs::read(&path).map(|bytes| ClassFileInput { path, bytes }))
            .collect::<io::Result<Vec<_>>>()?;
        Ok(Corpus { classes })
    }

    pub fn total_bytes(&self) -> usize {
        self.classes.iter().map(|c| c.bytes.len()).sum()
    }
}

fn collect_class_files(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            collect_class_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "class") {
            out.push(path);
        }
    }
    Ok(())
}
