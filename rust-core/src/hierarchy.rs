//! Which supertypes a class has, for the filters' `T+` targets.
//!
//! A class file names only its direct supertypes (`super_class` and
//! `interfaces`); the rest of the chain is in other class files, which the
//! caller must supply:
//! - a build ([`Hierarchy::for_build`]) reads the heads of the classes being
//!   enhanced and, for the supertypes they name, of the classes on the compile
//!   class path (directories and jars), as far as the chain goes: a supertype
//!   found in neither (a JDK class, a dependency left off the class path) ends
//!   its branch there;
//! - the agent ([`Hierarchy::of_class`]) sends the whole list with the class,
//!   as its loader or the loaded classes tell it.
#![forbid(unsafe_code)]

use crate::classfile::{ClassFile, ClassFileError};
use crate::inventory::Listed;
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::io::Read;
use std::path::Path;

/// Each known class's direct supertypes (binary names): its superclass first,
/// then its interfaces. A class not in it has no known supertypes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hierarchy {
    direct: BTreeMap<String, Vec<String>>,
}

impl Hierarchy {
    /// A hierarchy that knows one class's supertypes, all of them (the agent's).
    pub fn of_class(class: &str, supertypes: &[String]) -> Hierarchy {
        let mut hierarchy = Hierarchy::default();
        hierarchy.direct.insert(class.to_string(), supertypes.to_vec());
        hierarchy
    }

    /// Records `class`'s direct supertypes.
    pub fn insert(&mut self, class: String, supertypes: Vec<String>) {
        self.direct.insert(class, supertypes);
    }

    /// The hierarchy a build needs: the heads of the class directory's
    /// classes (`listed`: the bytes the inventory read, else the file), and of
    /// the class path's classes their chains pass through, read on demand
    /// (the first entry holding a class wins, as on a JVM's class path). A
    /// class file that cannot be read is passed over: the inventory reports
    /// the class directory's, and a dependency's shape is not ours to judge.
    pub fn for_build(listed: &[Listed], classpath: &[String]) -> Hierarchy {
        let mut hierarchy = Hierarchy::default();
        for class in listed {
            let read;
            let bytes = match &class.bytes {
                Some(bytes) => bytes.as_slice(),
                None => match std::fs::read(&class.file) {
                    Ok(bytes) => {
                        read = bytes;
                        read.as_slice()
                    }
                    Err(_) => continue,
                },
            };
            if let Ok((name, supertypes)) = ClassFile::parse(bytes).and_then(|c| direct_supertypes(&c)) {
                hierarchy.insert(name, supertypes);
            }
        }
        let mut path = ClassPath::open(classpath);
        let mut wanted: VecDeque<String> = hierarchy.direct.values().flatten().cloned().collect();
        let mut looked_for = HashSet::new();
        while let Some(name) = wanted.pop_front() {
            if hierarchy.direct.contains_key(&name) || !looked_for.insert(name.clone()) {
                continue;
            }
            let Some(bytes) = path.class_file(&name) else { continue };
            if let Ok((found, supertypes)) = ClassFile::parse(&bytes).and_then(|c| direct_supertypes(&c)) {
                if found == name {
                    wanted.extend(supertypes.iter().cloned());
                    hierarchy.insert(found, supertypes);
                }
            }
        }
        hierarchy
    }

    /// Every supertype of `class` that this hierarchy reaches from `direct`
    /// (those its class file names) and from what it records for `class`,
    /// each once, nearest first.
    pub fn all_supertypes(&self, class: &str, direct: Vec<String>) -> Vec<String> {
        let mut found: Vec<String> = Vec::new();
        let mut queue: VecDeque<String> = direct.into();
        queue.extend(self.direct.get(class).into_iter().flatten().cloned());
        while let Some(name) = queue.pop_front() {
            if found.contains(&name) {
                continue;
            }
            queue.extend(self.direct.get(&name).into_iter().flatten().cloned());
            found.push(name);
        }
        found
    }

    /// Text that changes when any class's recorded supertypes change: a build
    /// whose hierarchy changed selects anew (the incremental cache's environment).
    pub fn fingerprint(&self) -> String {
        let mut text = String::new();
        for (class, supertypes) in &self.direct {
            text.push_str(class);
            text.push(':');
            text.push_str(&supertypes.join(","));
            text.push('\n');
        }
        text
    }
}

/// Every supertype of `class` (binary name `binary_name`): those its file
/// names, and those `hierarchy` adds.
pub fn supertypes(
    class: &ClassFile<'_>,
    binary_name: &str,
    hierarchy: Option<&Hierarchy>,
) -> Result<Vec<String>, ClassFileError> {
    let (_, direct) = direct_supertypes(class)?;
    Ok(match hierarchy {
        Some(hierarchy) => hierarchy.all_supertypes(binary_name, direct),
        None => direct,
    })
}

/// The class's binary name and those of its direct supertypes, superclass first.
pub fn direct_supertypes(class: &ClassFile<'_>) -> Result<(String, Vec<String>), ClassFileError> {
    let binary = |internal: &str| internal.replace('/', ".");
    let mut supertypes: Vec<String> = class.super_class()?.iter().map(|s| binary(s)).collect();
    supertypes.extend(class.interfaces()?.iter().map(|i| binary(i)));
    Ok((binary(&class.this_class()?), supertypes))
}

/// The compile class path, its jars opened once, each class looked up by name.
struct ClassPath {
    entries: Vec<Entry>,
}

enum Entry {
    Directory(std::path::PathBuf),
    Jar(zip::ZipArchive<std::fs::File>),
}

impl ClassPath {
    /// The entries that exist and open; others are passed over (the class
    /// path's own check reports a jar that cannot be read).
    fn open(classpath: &[String]) -> ClassPath {
        let mut entries = Vec::new();
        for entry in classpath {
            let path = Path::new(entry);
            if path.is_dir() {
                entries.push(Entry::Directory(path.to_path_buf()));
            } else if let Some(jar) = std::fs::File::open(path).ok().and_then(|f| zip::ZipArchive::new(f).ok()) {
                entries.push(Entry::Jar(jar));
            }
        }
        ClassPath { entries }
    }

    /// The class file of `binary_name` from the first entry that has it.
    fn class_file(&mut self, binary_name: &str) -> Option<Vec<u8>> {
        let relative = format!("{}.class", binary_name.replace('.', "/"));
        for entry in &mut self.entries {
            let bytes = match entry {
                Entry::Directory(dir) => std::fs::read(dir.join(&relative)).ok(),
                Entry::Jar(jar) => jar.by_name(&relative).ok().and_then(|mut file| {
                    let mut bytes = Vec::with_capacity(file.size().min(1 << 24) as usize);
                    file.read_to_end(&mut bytes).ok().map(|_| bytes)
                }),
            };
            if bytes.is_some() {
                return bytes;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_chain_is_followed_as_far_as_the_hierarchy_knows_it() {
        let mut h = Hierarchy::default();
        h.insert("lib.AbstractSink".into(), names(&["java.lang.Object", "lib.Sink"]));
        h.insert("lib.Sink".into(), names(&["java.lang.Object", "java.io.Closeable"]));
        let all = h.all_supertypes("app.FileSink", names(&["lib.AbstractSink", "app.Named"]));
        assert_eq!(all, names(&["lib.AbstractSink", "app.Named", "java.lang.Object", "lib.Sink", "java.io.Closeable"]));
        // A supertype it does not know ends its branch: nothing past `lib2.Missing`.
        assert_eq!(h.all_supertypes("app.Other", names(&["lib2.Missing"])), names(&["lib2.Missing"]));
    }

    #[test]
    fn the_agent_sends_the_whole_list() {
        let sent = names(&["java.lang.Object", "java.sql.Connection", "java.sql.Wrapper"]);
        let h = Hierarchy::of_class("org.h2.jdbc.JdbcConnection", &sent);
        let all = h.all_supertypes("org.h2.jdbc.JdbcConnection", names(&["java.lang.Object", "java.sql.Connection"]));
        assert_eq!(all, names(&["java.lang.Object", "java.sql.Connection", "java.sql.Wrapper"]));
    }

    #[test]
    fn the_fingerprint_follows_the_recorded_supertypes() {
        let mut a = Hierarchy::default();
        a.insert("a.B".into(), names(&["a.C"]));
        let mut b = a.clone();
        assert_eq!(a.fingerprint(), b.fingerprint());
        b.insert("a.B".into(), names(&["a.D"]));
        assert_ne!(a.fingerprint(), b.fingerprint());
    }
}
