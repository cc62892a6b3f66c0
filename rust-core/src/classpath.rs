//! TF annotation types defined outside the scanned directory: in the
//! directories and jars of the compile class path that the plugins pass in.
//!
//! A jar built with TF carries its list in `META-INF/tf/tfannotations.properties`;
//! that is read instead of the jar's classes. Otherwise every annotation type in
//! the entry is parsed, as for the scanned directory.
#![forbid(unsafe_code)]

use crate::rule::Rule;
use crate::metadata;
use crate::request::Diagnostic;
use crate::scan;
use std::collections::BTreeSet;
use std::io::{Read, Seek};
use std::path::Path;

/// Binary names of the TF annotation types on `classpath`. An entry that does
/// not exist is skipped (Maven and Gradle list output directories that may
/// not have been created); one that cannot be read is an error.
pub fn tf_annotations(classpath: &[String]) -> Result<BTreeSet<String>, Vec<Diagnostic>> {
    let mut names = BTreeSet::new();
    let mut errors = Vec::new();
    for entry in classpath {
        let path = Path::new(entry);
        let found = if path.is_dir() {
            from_directory(path)
        } else if path.is_file() {
            from_jar(path)
        } else {
            continue;
        };
        match found {
            Ok(found) => names.extend(found),
            Err(message) => errors.push(Diagnostic {
                file: Some(entry.clone()),
                rule: Rule::Classpath,
                message,
                ..Diagnostic::default()
            }),
        }
    }
    if errors.is_empty() {
        Ok(names)
    } else {
        Err(errors)
    }
}

fn from_directory(dir: &Path) -> Result<Vec<String>, String> {
    let list = dir.join(metadata::RESOURCE_PATH);
    if list.is_file() {
        let text = std::fs::read_to_string(&list).map_err(|e| format!("could not read {}: {e}", list.display()))?;
        return Ok(metadata::parse(&text));
    }
    match scan::scan_directory(dir) {
        Ok(found) => Ok(found.tf_annotation_names()),
        Err(errors) => Err(errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")),
    }
}

/// Jars up to this size are read whole, in two system calls, then taken apart
/// in memory: through the file, the zip reader makes one `lseek` and one `read`
/// per structure it looks at (about 400 for TF's 80 kB runtime jar, on every
/// run). A larger jar is mostly read anyway, unless it lists its TF annotations.
const READ_WHOLE_JAR: u64 = 8 << 20;

fn from_jar(path: &Path) -> Result<Vec<String>, String> {
    let open_error = |e: std::io::Error| format!("could not open the jar: {e}");
    let mut file = std::fs::File::open(path).map_err(open_error)?;
    if file.metadata().map_err(open_error)?.len() <= READ_WHOLE_JAR {
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(|e| format!("could not read the jar: {e}"))?;
        return from_jar_reader(std::io::Cursor::new(bytes));
    }
    from_jar_reader(file)
}

fn from_jar_reader(reader: impl Read + Seek) -> Result<Vec<String>, String> {
    let mut jar = zip::ZipArchive::new(reader).map_err(|e| format!("not a readable jar: {e}"))?;
    if let Ok(mut entry) = jar.by_name(metadata::RESOURCE_PATH) {
        let mut text = String::new();
        entry.read_to_string(&mut text).map_err(|e| format!("could not read {}: {e}", metadata::RESOURCE_PATH))?;
        return Ok(metadata::parse(&text));
    }
    let mut found = scan::Scan::default();
    for i in 0..jar.len() {
        let mut entry = jar.by_index(i).map_err(|e| format!("entry {i}: {e}"))?;
        let name = entry.name().to_string();
        if !name.ends_with(".class") || name.starts_with("META-INF/versions/") {
            continue;
        }
        let mut bytes = Vec::with_capacity(entry.size().min(1 << 24) as usize);
        entry.read_to_end(&mut bytes).map_err(|e| format!("{name}: {e}"))?;
        // Only annotation types matter; other classes of a dependency may be of
        // any version or shape, and are not ours to judge.
        if let Ok(class) = scan::scan_class(Path::new(&name), bytes) {
            found.classes.push(class);
        }
    }
    Ok(found.tf_annotation_names())
}
