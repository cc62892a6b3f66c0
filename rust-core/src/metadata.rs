//! The registry metadata resource: the list of TF annotations found in a build,
//! which the runtime reads from the class path (`-Dtf.monitor` resolves simple
//! group names through it).
//!
//! Format (the spec's, in `java.util.Properties` syntax), sorted and without a
//! date, so the same input always gives the same bytes:
//! ```text
//! # TF (Tracing Facility) annotations, written by tf-enhance
//! org.tracingfacility.tf.annotations.size=2
//! org.tracingfacility.tf.annotation.1=com.example.IO
//! org.tracingfacility.tf.annotation.2=com.example.IORead
//! ```
#![forbid(unsafe_code)]

use crate::output::write_atomically;
use std::io;
use std::path::Path;

/// Where the plugins put the resource, relative to a class output directory.
pub const RESOURCE_PATH: &str = "META-INF/tf/tfannotations.properties";
/// Key of the number of TF annotations the resource lists.
pub const SIZE_KEY: &str = "org.tracingfacility.tf.annotations.size";
/// Followed by `.N`, N from 1 to the size.
pub const ENTRY_KEY_PREFIX: &str = "org.tracingfacility.tf.annotation";

/// Renders the resource for binary class names (`com.example.IO`), sorted and de-duplicated.
pub fn render(annotation_names: &[String]) -> String {
    let mut names: Vec<&str> = annotation_names.iter().map(String::as_str).collect();
    names.sort_unstable();
    names.dedup();
    let mut out = String::from("# TF (Tracing Facility) annotations, written by tf-enhance\n");
    out.push_str(&format!("{SIZE_KEY}={}\n", names.len()));
    for (i, name) in names.iter().enumerate() {
        out.push_str(&format!("{ENTRY_KEY_PREFIX}.{}={}\n", i + 1, escape(name)));
    }
    out
}

/// Writes the resource atomically, creating its directory.
pub fn write(path: &Path, annotation_names: &[String]) -> io::Result<()> {
    write_atomically(path, render(annotation_names).as_bytes())
}

/// Writes the resource unless the file already holds exactly these bytes (so
/// an unchanged build leaves it, and its modification time, alone). Returns
/// whether it wrote.
pub fn write_if_changed(path: &Path, annotation_names: &[String]) -> io::Result<bool> {
    let text = render(annotation_names);
    if std::fs::read(path).is_ok_and(|existing| existing == text.as_bytes()) {
        return Ok(false);
    }
    write_atomically(path, text.as_bytes())?;
    Ok(true)
}

/// The annotation names listed in a resource (the inverse of [`render`]).
pub fn parse(text: &str) -> Vec<String> {
    let prefix = format!("{ENTRY_KEY_PREFIX}.");
    text.lines()
        .filter_map(|line| line.split_once('='))
        .filter(|(key, _)| key.trim().strip_prefix(&prefix).is_some_and(|n| n.parse::<u32>().is_ok()))
        .map(|(_, value)| unescape(value.trim()))
        .collect()
}

fn unescape(value: &str) -> String {
    let mut units = Vec::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u16; 2];
            units.extend_from_slice(c.encode_utf16(&mut buf));
            continue;
        }
        match chars.next() {
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                units.push(u16::from_str_radix(&hex, 16).unwrap_or(u16::from(b'?')));
            }
            Some(other) => units.push(other as u16),
            None => {}
        }
    }
    String::from_utf16_lossy(&units)
}

/// Escapes a value for `java.util.Properties` (ISO-8859-1 with `\uXXXX`):
/// class names may hold any Unicode letter.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04X}"));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_numbered_and_deduplicated() {
        let text = render(&["b.Y".into(), "a.X".into(), "b.Y".into()]);
        assert_eq!(
            text,
            "# TF (Tracing Facility) annotations, written by tf-enhance\n\
             org.tracingfacility.tf.annotations.size=2\n\
             org.tracingfacility.tf.annotation.1=a.X\n\
             org.tracingfacility.tf.annotation.2=b.Y\n"
        );
    }

    #[test]
    fn parse_reads_back_what_render_writes() {
        let names = vec!["a.X".to_string(), "b.Y$Z".to_string(), "\u{e9}.\u{1F600}".to_string()];
        assert_eq!(parse(&render(&names)), names);
    }

    #[test]
    fn non_ascii_names_are_escaped_for_java_properties() {
        assert!(render(&["é.Ü".into()]).contains("annotation.1=\\u00E9.\\u00DC\n"));
    }
}
