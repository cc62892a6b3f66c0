//! `tf-enhance roundtrip DIR`: parse and write back every class under a
//! directory with no edit, and count the classes that do not come out
//! byte-identical.
#![forbid(unsafe_code)]

use crate::write::class_editor::ClassEditor;
use crate::read::class_file::ClassFile;
use crate::code::code_model::{CodeModel, Detail};
use crate::write::pool_builder::PoolBuilder;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The outcome of a round trip over a directory.
#[derive(Debug, Default)]
pub struct RoundtripSummary {
    /// Class files read.
    pub classes: usize,
    /// Bytes read.
    pub bytes: u64,
    /// Classes that could not be parsed or written, or came out different, with why.
    pub mismatches: Vec<(PathBuf, String)>,
}

impl fmt::Display for RoundtripSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "roundtrip: {} classes, {} mismatches", self.classes, self.mismatches.len())
    }
}

/// Why one class failed the round trip; `None` when it passed.
pub fn roundtrip_class(bytes: &[u8]) -> Option<String> {
    let class = match ClassFile::parse(bytes) {
        Ok(class) => class,
        Err(e) => return Some(format!("parse: {e}")),
    };
    match ClassEditor::new(&class).to_bytes() {
        Ok(written) if written == bytes => {}
        Ok(written) => return Some(first_difference(bytes, &written)),
        Err(e) => return Some(format!("write: {e}")),
    }
    code_round_trips(&class).err()
}

/// Lifts every method's code into the code model, instruction by instruction
/// and by runs, and assembles it again with no edit: the Code attribute must
/// come out byte-identical, which exercises labels, relocation of every
/// offset table, and the StackMapTable codec.
fn code_round_trips(class: &ClassFile<'_>) -> Result<(), String> {
    code_round_trips_with(class, Detail::Instructions)?;
    code_round_trips_with(class, Detail::Runs)
}

fn code_round_trips_with(class: &ClassFile<'_>, detail: Detail) -> Result<(), String> {
    let mut pool = PoolBuilder::new(class.constant_pool().clone());
    for method in class.methods() {
        let name = || format!("{}{} ({detail:?})", method.name().unwrap_or_default(), method.descriptor().unwrap_or_default());
        let model = match CodeModel::lift_with(class, method, &mut pool, detail) {
            Ok(Some(model)) => model,
            Ok(None) => continue,
            Err(e) => return Err(format!("lift {}: {e}", name())),
        };
        let original = class.code(method).ok().flatten().map(|c| c.attribute.data()).unwrap_or_default();
        match model.assemble(&mut pool) {
            Ok(code) if code == original => {}
            Ok(code) => return Err(format!("code of {}: {}", name(), first_difference(original, &code))),
            Err(e) => return Err(format!("assemble {}: {e}", name())),
        }
    }
    Ok(())
}

fn first_difference(expected: &[u8], actual: &[u8]) -> String {
    let at = expected.iter().zip(actual).position(|(a, b)| a != b).unwrap_or(expected.len().min(actual.len()));
    format!("written bytes differ from byte {at} (lengths {} and {})", expected.len(), actual.len())
}

/// Round-trips every `*.class` file under `dir`, in path order.
pub fn roundtrip_dir(dir: &Path) -> io::Result<RoundtripSummary> {
    let mut summary = RoundtripSummary::default();
    for file in class_files(dir)? {
        let bytes = std::fs::read(&file)?;
        summary.classes += 1;
        summary.bytes += bytes.len() as u64;
        if let Some(reason) = roundtrip_class(&bytes) {
            summary.mismatches.push((file, reason));
        }
    }
    Ok(summary)
}

/// Every `*.class` file under `dir`, sorted.
pub fn class_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current)? {
            let entry = entry?;
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "class") {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}
