//! Whether the enhanced classes will find tf-runtime when they run: every
//! enhanced class calls it (its holder field's type, the monitor calls), so
//! without it the application fails at start with `NoClassDefFoundError`.
//! The build, which knows the class path the classes will run with, says so
//! instead.
#![forbid(unsafe_code)]

use crate::rule::Rule;
use crate::request::Diagnostic;
use std::path::Path;

/// The class that stands for tf-runtime: the interface every monitor implements.
pub const MARKER: &str = "org/tracingfacility/runtime/MethodMonitor.class";

/// `Ok` when a directory or jar of `runtime_classpath`, or `class_dir` itself,
/// holds [`MARKER`]; otherwise the error a build shows. An entry that cannot be
/// read as a jar is passed over: it cannot hold tf-runtime either.
pub fn check_on(runtime_classpath: &[String], class_dir: &Path) -> Result<(), Diagnostic> {
    let found = class_dir.join(MARKER).is_file() || runtime_classpath.iter().any(|entry| holds_marker(Path::new(entry)));
    if found {
        return Ok(());
    }
    Err(Diagnostic {
        file: Some(class_dir.display().to_string()),
        rule: Rule::RuntimeMissing,
        message: "the classes TF enhances here call tf-runtime at run time, but it is not on the class path \
                  they will run with (no org.tracingfacility.runtime.MethodMonitor): add the dependency \
                  org.tracingfacility:tf-runtime with the default scope (Maven: compile, not provided or test; \
                  Gradle: implementation, not compileOnly)"
            .into(),
        ..Diagnostic::default()
    })
}

fn holds_marker(entry: &Path) -> bool {
    if entry.is_dir() {
        return entry.join(MARKER).is_file();
    }
    let Ok(file) = std::fs::File::open(entry) else { return false };
    zip::ZipArchive::new(file).is_ok_and(|mut jar| jar.by_name(MARKER).is_ok())
}
