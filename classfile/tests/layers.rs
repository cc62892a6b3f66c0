//! The crate's three layers depend only downwards: `read` on nothing else,
//! `code` on `read`, `write` on both. Unit tests (`#[cfg(test)]` modules,
//! which end each file) may build their inputs with a higher layer.

use std::path::{Path, PathBuf};

/// Each layer with the modules its files may name as `crate::…`.
const ALLOWED: [(&str, &[&str]); 2] = [("read", &["read"]), ("code", &["read", "code"])];

fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// Each line of `layer`'s code (comments aside) naming a `crate::` path
/// that does not start with one of `allowed` (a name re-exported at the
/// crate root would hide which layer it comes from), as `file:line: text`.
fn upward_references(layer: &str, allowed: &[&str]) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(layer);
    let mut found = Vec::new();
    for file in sources(&dir) {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let production = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (n, line) in production.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            let named = code.match_indices("crate::").map(|(at, _)| &code[at + "crate::".len()..]);
            if named.into_iter().any(|rest| !allowed.iter().any(|a| rest.starts_with(&format!("{a}::")))) {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn each_layer_names_only_the_layers_below_it() {
    let found: Vec<String> =
        ALLOWED.iter().flat_map(|(layer, allowed)| upward_references(layer, allowed)).collect();
    assert!(found.is_empty(), "upward references:\n{}", found.join("\n"));
}

#[test]
fn every_layer_has_sources() {
    for layer in ["read", "code", "write"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(layer);
        assert!(sources(&dir).len() > 2, "{layer}: too few sources");
    }
}
