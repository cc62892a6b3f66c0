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
    fn non_ascii_names_are_escaped_for_java_properties() {
        assert!(render(&["é.Ü".into()]).contains("annotation.1=\\u00E9.\\u00DC\n"));
    }
}
