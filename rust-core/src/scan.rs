//! Stage 0: find the class files under a directory and what TF needs to know
//! of each — today, which are TF annotation types (annotation interfaces
//! carrying `@MethodMonitorGroup`) and which subgroups they list.
#![forbid(unsafe_code)]

use crate::rule::Rule;
use crate::classfile::descriptor;
use crate::classfile::{class_files, ClassFile, ClassHead, ElementValue, PoolLayout};
use crate::protocol;
use crate::request::Diagnostic;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::classfile::access::ACC_ANNOTATION;

/// What scanning learnt of one class file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScannedClass {
    /// Path of the file.
    pub file: PathBuf,
    /// Binary name, `com.example.Foo$Bar`.
    pub name: String,
    /// Present when the class is a TF annotation type: the subgroups its
    /// `@MethodMonitorGroup` lists, as binary names.
    pub group: Option<Vec<String>>,
    /// The file's bytes, for the later stages.
    pub bytes: Vec<u8>,
    /// Where the constant pool of `bytes` is, when scanning read it: the
    /// enhancer's parse then neither reads nor checks the pool again.
    pub pool: Option<PoolLayout>,
}

/// Every class under one directory, in path order.
#[derive(Debug, Default)]
pub struct Scan {
    /// The class files, in path order.
    pub classes: Vec<ScannedClass>,
}

impl Scan {
    /// TF annotation types: every `@MethodMonitorGroup` annotation type found,
    /// and every annotation a group lists as a subgroup; sorted.
    pub fn tf_annotation_names(&self) -> Vec<String> {
        let mut names = BTreeSet::new();
        for class in &self.classes {
            if let Some(subgroups) = &class.group {
                names.insert(class.name.clone());
                names.extend(subgroups.iter().cloned());
            }
        }
        names.into_iter().collect()
    }
}

/// Scans every `.class` file under `dir`. Every file that cannot be read or
/// parsed is reported, not just the first.
pub fn scan_directory(dir: &Path) -> Result<Scan, Vec<Diagnostic>> {
    let files = class_files(dir).map_err(|e| {
        vec![Diagnostic {
            file: Some(dir.display().to_string()),
            rule: Rule::Io,
            message: format!("could not list the class files: {e}"),
            ..Diagnostic::default()
        }]
    })?;
    let mut scan = Scan::default();
    let mut errors = Vec::new();
    for file in files {
        match std::fs::read(&file) {
            Ok(bytes) => match scan_class(&file, bytes) {
                Ok(class) => scan.classes.push(class),
                Err(e) => errors.push(e),
            },
            Err(e) => errors.push(Diagnostic {
                file: Some(file.display().to_string()),
                rule: Rule::Io,
                message: format!("could not read the class file: {e}"),
                ..Diagnostic::default()
            }),
        }
    }
    if errors.is_empty() {
        Ok(scan)
    } else {
        Err(errors)
    }
}

/// Reads what scanning needs from one class file.
pub fn scan_class(file: &Path, bytes: Vec<u8>) -> Result<ScannedClass, Diagnostic> {
    let Identity { name, group, pool } = identify(file, &bytes)?;
    Ok(ScannedClass { file: file.to_path_buf(), name, group, bytes, pool: Some(pool) })
}

/// What a class file is, as far as scanning is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// Binary name.
    pub name: String,
    /// For a TF annotation type, the subgroups its `@MethodMonitorGroup` lists.
    pub group: Option<Vec<String>>,
    /// Where the file's constant pool is (see [`ScannedClass::pool`]).
    pub pool: PoolLayout,
}

/// The class's binary name and, when it is a TF annotation type, the
/// subgroups its `@MethodMonitorGroup` lists. Reads the class up to its
/// name (and all of it for an annotation type): what follows is checked
/// when the class is enhanced.
pub fn identify(file: &Path, bytes: &[u8]) -> Result<Identity, Diagnostic> {
    let parse_error = |e: &dyn std::fmt::Display| Diagnostic {
        file: Some(file.display().to_string()),
        rule: Rule::Parse,
        message: format!("not a valid class file: {e}"),
        ..Diagnostic::default()
    };
    let head = ClassHead::parse(bytes).map_err(|e| parse_error(&e))?;
    let name = binary_name(&head.this_class().map_err(|e| parse_error(&e))?);
    let is_annotation = head.access_flags() & ACC_ANNOTATION != 0;
    let pool = head.into_pool_layout();
    let mut group = None;
    if is_annotation {
        let class = ClassFile::parse_with_layout(bytes, &pool).map_err(|e| parse_error(&e))?;
        for annotation in class.annotations().map_err(|e| parse_error(&e))? {
            if annotation.type_descriptor == protocol::METHOD_MONITOR_GROUP {
                let mut subgroups = Vec::new();
                for (element, value) in &annotation.elements {
                    if element == "value" {
                        collect_classes(value, &mut subgroups);
                    }
                }
                group = Some(subgroups);
            }
        }
    }
    Ok(Identity { name, group, pool })
}

fn collect_classes(value: &ElementValue<'_>, out: &mut Vec<String>) {
    match value {
        ElementValue::Class(descriptor) => {
            if let Some(internal) = descriptor::class_name(descriptor) {
                out.push(binary_name(internal));
            }
        }
        ElementValue::Array(values) => values.iter().for_each(|v| collect_classes(v, out)),
        _ => {}
    }
}

/// `com/example/Foo$Bar` → `com.example.Foo$Bar`.
pub fn binary_name(internal: &str) -> String {
    internal.replace('/', ".")
}
