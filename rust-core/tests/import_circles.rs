//! No two source files name each other, nor any longer ring of files
//! (`a` names `b`, `b` names `c`, `c` names `a`). Each file of the engine
//! (`classfile/src`) and of tf-core (`rust-core/src`) is a module; a path it
//! names (`crate::…`, `super::…`, `self::…`, in a `use` or in code) points at
//! the file of the longest module prefix of that path. Two files pointing at
//! each other are a circle: neither can be read, changed or tested without the
//! other, and a layer between them can no longer be drawn. Unit tests
//! (`#[cfg(test)] mod …`, which end each file) are left out, as in
//! `classfile/tests/layers.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Circles known and owned elsewhere, each to be broken by its owner and
/// then taken out of this list (the test fails on an entry that no longer holds).
/// Empty: the last (`in_memory` and `pipeline`) was broken by dispatching a
/// class in memory before the pipeline (`tf_core::run`).
const KNOWN: &[(&str, &str)] = &[];

fn sources(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            sources(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The module path of `file` under `root` (`a/mod.rs` and `a.rs` are both `a`; `lib.rs` is empty).
fn module_of(root: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(root).expect("under the root").with_extension("");
    let mut segments: Vec<String> = relative.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    if matches!(segments.last().map(String::as_str), Some("mod" | "lib")) {
        segments.pop();
    }
    segments
}

/// The file's text without its unit tests and comments.
fn production_code(text: &str) -> String {
    let end = text.find("#[cfg(test)]\nmod ").unwrap_or(text.len());
    text[..end].lines().map(|line| line.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every path `code` names from `crate`, `super` or `self`, made absolute
/// from `module`, the file's own (`super` of `a.rs` and of `a/mod.rs` alike
/// is `a`'s parent).
fn named_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let starts_word = at == 0 || !is_ident(chars[at - 1]) && chars[at - 1] != ':';
        if !starts_word || !is_ident(chars[at]) {
            at += 1;
            continue;
        }
        let word: String = chars[at..].iter().take_while(|c| is_ident(**c)).collect();
        let after = at + word.len();
        let base = match word.as_str() {
            "crate" => Some(Vec::new()),
            "super" => Some(module[..module.len().saturating_sub(1)].to_vec()),
            "self" => Some(module.to_vec()),
            _ => None,
        };
        match base {
            Some(mut base) if chars[after..].starts_with(&[':', ':']) => {
                let mut i = after + 2;
                // `super::super::…`
                while chars[i..].starts_with(&['s', 'u', 'p', 'e', 'r', ':', ':']) {
                    base.pop();
                    i += 7;
                }
                at = read_tree(&chars, i, base, &mut found);
            }
            _ => at = after,
        }
    }
    found
}

/// Reads a path tree (`a::b`, `a::{b, c::d}`) at `at` below `prefix` into
/// `found`; where it ends.
fn read_tree(chars: &[char], mut at: usize, prefix: Vec<String>, found: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix;
    loop {
        while chars.get(at).is_some_and(|c| c.is_whitespace()) {
            at += 1;
        }
        if chars.get(at) == Some(&'{') {
            at += 1;
            loop {
                at = read_tree(chars, at, path.clone(), found);
                while chars.get(at).is_some_and(|c| c.is_whitespace() || *c == ',') {
                    at += 1;
                }
                match chars.get(at) {
                    Some('}') => return at + 1,
                    None => return at,
                    _ => {}
                }
            }
        }
        let word: String = chars[at.min(chars.len())..].iter().take_while(|c| is_ident(**c)).collect();
        if word.is_empty() {
            found.push(path);
            return at;
        }
        at += word.len();
        path.push(word);
        if chars[at.min(chars.len())..].starts_with(&[':', ':']) {
            at += 2;
        } else {
            found.push(path);
            return at;
        }
    }
}

/// For every file of each crate (`name`, source directory): the files its
/// production code names, as `crate:module`.
fn imports(crates: &[(&str, PathBuf)]) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges = BTreeMap::new();
    for (name, root) in crates {
        let mut files = Vec::new();
        sources(root, &mut files);
        files.retain(|f| !f.starts_with(root.join("bin")));
        let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(root, f)).collect();
        for file in &files {
            let module = module_of(root, file);
            let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let mut named = BTreeSet::new();
            for path in named_paths(&production_code(&text), &module) {
                let target = (0..=path.len()).rev().map(|n| &path[..n]).find(|p| modules.contains(*p));
                if let Some(target) = target.filter(|t| *t != module.as_slice() && !t.is_empty()) {
                    named.insert(format!("{name}:{}", target.join("/")));
                }
            }
            edges.insert(format!("{name}:{}", module.join("/")), named);
        }
    }
    edges
}

/// Each pair of files that name each other, the lesser first.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<(String, String)> {
    let mut pairs = BTreeSet::new();
    for (from, targets) in edges {
        for to in targets {
            if from < to && edges.get(to).is_some_and(|back| back.contains(from)) {
                pairs.insert((from.clone(), to.clone()));
            }
        }
    }
    pairs
}

/// Each set of two or more files that reach one another through what they
/// name (a strongly connected component, Tarjan's algorithm), each sorted.
fn rings(edges: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<Vec<String>> {
    struct Search<'e> {
        edges: &'e BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'e str, usize>,
        low: BTreeMap<&'e str, usize>,
        stack: Vec<&'e str>,
        found: BTreeSet<Vec<String>>,
    }
    impl<'e> Search<'e> {
        fn visit(&mut self, file: &'e str) {
            let n = self.index.len();
            self.index.insert(file, n);
            self.low.insert(file, n);
            self.stack.push(file);
            let edges = self.edges;
            for next in edges.get(file).into_iter().flatten() {
                let next = next.as_str();
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[file].min(self.low[next]);
                    self.low.insert(file, low);
                } else if self.stack.contains(&next) {
                    let low = self.low[file].min(self.index[next]);
                    self.low.insert(file, low);
                }
            }
            if self.low[file] == self.index[file] {
                let at = self.stack.iter().rposition(|f| *f == file).expect("on the stack");
                let ring: Vec<String> = self.stack.drain(at..).map(str::to_string).collect();
                if ring.len() > 1 {
                    let mut ring = ring;
                    ring.sort();
                    self.found.insert(ring);
                }
            }
        }
    }
    let mut search = Search { edges, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: BTreeSet::new() };
    for file in edges.keys() {
        if !search.index.contains_key(file.as_str()) {
            search.visit(file);
        }
    }
    search.found
}

fn workspace_crates() -> Vec<(&'static str, PathBuf)> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    vec![("classfile", here.join("../classfile/src")), ("rust-core", here.join("src"))]
}

#[test]
fn no_two_files_name_each_other() {
    let found = circles(&imports(&workspace_crates()));
    let known: BTreeSet<(String, String)> = KNOWN.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    let new: Vec<_> = found.difference(&known).map(|(a, b)| format!("{a} <-> {b}")).collect();
    let gone: Vec<_> = known.difference(&found).map(|(a, b)| format!("{a} <-> {b}")).collect();
    assert!(new.is_empty(), "files that name each other:\n{}", new.join("\n"));
    assert!(gone.is_empty(), "circles broken, to be taken out of KNOWN:\n{}", gone.join("\n"));
}

#[test]
fn no_longer_ring_of_files_names_itself() {
    let known: BTreeSet<Vec<String>> = KNOWN.iter().map(|(a, b)| vec![a.to_string(), b.to_string()]).collect();
    let found = rings(&imports(&workspace_crates()));
    let new: Vec<String> = found.difference(&known).map(|ring| ring.join(" -> ")).collect();
    assert!(new.is_empty(), "files that reach one another:\n{}", new.join("\n"));
}

#[test]
fn the_reader_of_paths_sees_groups_super_and_self() {
    let module = vec!["code".to_string(), "check".to_string(), "spliced".to_string()];
    let code = "use crate::code::{stack_map::{Frame, VType}, pool::CodePool};\nuse super::frames::{self, Walk};\n\
                fn f() { self::g(); crate::read::opcodes::NOP; x::crate_like(); }";
    let paths: BTreeSet<String> = named_paths(code, &module).into_iter().map(|p| p.join("::")).collect();
    let expected = [
        "code::stack_map::Frame",
        "code::stack_map::VType",
        "code::pool::CodePool",
        "code::check::frames::self",
        "code::check::frames::Walk",
        "code::check::spliced::g",
        "read::opcodes::NOP",
    ];
    assert_eq!(paths, expected.iter().map(|s| s.to_string()).collect());
}

#[test]
fn a_circle_is_found() {
    let edge = |from: &str, to: &[&str]| (from.to_string(), to.iter().map(|t| t.to_string()).collect());
    let edges: BTreeMap<String, BTreeSet<String>> = [edge("a", &["b"]), edge("b", &["a", "c"]), edge("c", &[])].into();
    assert_eq!(circles(&edges), [("a".to_string(), "b".to_string())].into());
    let ring: BTreeMap<String, BTreeSet<String>> = [edge("a", &["b"]), edge("b", &["c"]), edge("c", &["a"]), edge("d", &["a"])].into();
    assert!(circles(&ring).is_empty());
    assert_eq!(rings(&ring), [vec!["a".to_string(), "b".to_string(), "c".to_string()]].into());
}
