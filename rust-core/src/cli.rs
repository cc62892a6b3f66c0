//! `tf-enhance`: the spec's EnhanceTool, with its `-name value` arguments.
//!
//! It builds the same [`EnhanceRequest`] the plugins send over JNI and runs the
//! same [`crate::run`].
#![forbid(unsafe_code)]

use crate::request::{EnhanceReport, EnhanceRequest};
use std::io::Write;

/// The command's help: printed by `-help`, and after the message for a wrong
/// command line.
pub const USAGE: &str = "\
Usage: tf-enhance [-name value ...]      enhance the classes under a directory
       tf-enhance roundtrip DIR          parse and rewrite every class under DIR, unchanged
       tf-enhance -protocol              print the call protocol between enhanced code and tf-runtime

Legal arguments are:
    -dir <directory>          (default .) Directory to scan for class files
    -rf <file>                (default tfannotations.properties) Resource file listing the TF annotations
    -tracegen <true|false>    (default true) Do the second stage (add tracing code)
    -dryrun <true|false>      (default false) Print the planned actions; write nothing
    -newout <true|false>      (default false) Write each enhanced class to NAME.class.new
    -verbose <0..4>           (default 0) 1: each class enhanced; 2: and each method; 3: and the edits
                              and the TF annotations found; 4: everything (with -debug's lines)
    -debug <true|false>       (default false) Debug output
    -filter <spec>            (repeatable) Select methods: [Group=]class|class::method|::method|@annotation;...
                              (Type+ for Type and its subtypes, e.g. java.sql.Connection+::prepareStatement)
    -classpath <path>         Directories and jars (':'-separated) holding TF annotations used here, and
                              the supertypes of the classes here that Type+ filters follow
    -threads <n>              (default 0: one per core) Worker threads
    -cache <directory>        Incremental cache directory (default: none)
    -failOnSkip <true|false>  (default false) Fail when a method selected by a filter cannot be enhanced
                              (otherwise it is left as it was, with a warning)
    -failOnError <true|false> (default true) Write nothing when a class has errors (false: write the others)
    -help                     Print this text
";

/// What the command line asks for.
// One per process, moved once: boxing the request would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    /// Enhance the classes under a directory, as the request built from the
    /// `-name value` arguments says.
    Enhance(EnhanceRequest),
    /// `roundtrip DIR`: parse and rewrite every class under the directory,
    /// unchanged.
    Roundtrip(String),
    /// `-protocol`: print the call protocol between enhanced code and tf-runtime
    /// ([`crate::protocol::describe`]).
    Protocol,
    /// `-help`: print [`USAGE`].
    Help,
}

/// Parses arguments (without the program name) in the spec's `-name value` style.
pub fn parse(args: &[String]) -> Result<Command, String> {
    if args.first().map(String::as_str) == Some("roundtrip") {
        return match args {
            [_, dir] => Ok(Command::Roundtrip(dir.clone())),
            _ => Err("roundtrip takes exactly one directory".into()),
        };
    }
    let mut request = EnhanceRequest::new(".");
    request.resource_file = Some("tfannotations.properties".into());
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let name = arg
            .strip_prefix('-')
            .ok_or_else(|| format!("expected an argument name starting with '-', found '{arg}'"))?;
        match name {
            "help" => return Ok(Command::Help),
            "protocol" => return Ok(Command::Protocol),
            _ => {}
        }
        let value = rest.next().ok_or_else(|| format!("no value supplied for -{name}"))?;
        match name {
            "dir" => request.class_dir = value.clone(),
            "rf" => request.resource_file = Some(value.clone()),
            "tracegen" => request.tracegen = boolean(name, value)?,
            "dryrun" => request.dry_run = boolean(name, value)?,
            "newout" => request.new_out = boolean(name, value)?,
            "debug" => request.debug = boolean(name, value)?,
            "verbose" => request.verbose = number(name, value, 4)? as u8,
            "threads" => request.threads = number(name, value, 1024)?,
            "filter" => request.filters.push(value.clone()),
            "classpath" => request.classpath.extend(value.split(':').filter(|p| !p.is_empty()).map(String::from)),
            "cache" => request.cache_dir = Some(value.clone()),
            "failOnSkip" => request.fail_on_skip = boolean(name, value)?,
            "failOnError" => request.fail_on_error = boolean(name, value)?,
            _ => return Err(format!("unknown argument -{name}")),
        }
    }
    Ok(Command::Enhance(request))
}

fn boolean(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("-{name} takes true or false, not '{value}'")),
    }
}

fn number(name: &str, value: &str, max: u32) -> Result<u32, String> {
    match value.parse::<u32>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("-{name} takes a whole number from 0 to {max}, not '{value}'")),
    }
}

/// Runs the command line; returns the process exit code (0 success, 1 the run
/// failed, 2 the arguments were wrong).
pub fn main(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let command = match parse(args) {
        Ok(c) => c,
        Err(message) => {
            let _ = writeln!(err, "tf-enhance: {message}\n\n{USAGE}");
            return 2;
        }
    };
    match command {
        Command::Help => {
            let _ = write!(out, "{USAGE}");
            0
        }
        Command::Protocol => {
            let _ = write!(out, "{}", crate::protocol::describe());
            0
        }
        Command::Roundtrip(dir) => roundtrip(&dir, out, err),
        Command::Enhance(request) => {
            let report = crate::run(&request);
            print_report(&report, out, err);
            if report.ok {
                0
            } else {
                1
            }
        }
    }
}

fn print_report(report: &EnhanceReport, out: &mut dyn Write, err: &mut dyn Write) {
    for line in &report.messages {
        let _ = writeln!(out, "{line}");
    }
    for line in &report.warnings {
        let _ = writeln!(err, "warning: {line}");
    }
    for diagnostic in &report.errors {
        let _ = writeln!(err, "error: {diagnostic}");
    }
    let _ = writeln!(out, "{}", report.summary);
}

fn roundtrip(dir: &str, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    match crate::classfile::roundtrip_dir(std::path::Path::new(dir)) {
        Ok(summary) => {
            for (file, reason) in &summary.mismatches {
                let _ = writeln!(err, "mismatch: {}: {reason}", file.display());
            }
            let _ = writeln!(out, "roundtrip: {} classes, {} mismatches", summary.classes, summary.mismatches.len());
            if summary.mismatches.is_empty() {
                0
            } else {
                1
            }
        }
        Err(e) => {
            let _ = writeln!(err, "tf-enhance: roundtrip of {dir}: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn spec_defaults() {
        let Ok(Command::Enhance(r)) = parse(&[]) else { panic!("no request") };
        assert_eq!(r.class_dir, ".");
        assert_eq!(r.resource_file.as_deref(), Some("tfannotations.properties"));
        assert!(r.tracegen && !r.dry_run && !r.new_out && !r.debug && !r.fail_on_skip && r.fail_on_error);
        assert_eq!(r.verbose, 0);
    }

    #[test]
    fn every_option() {
        let parsed = parse(&args(
            "-dir d -rf r.properties -tracegen false -dryrun TRUE -newout true -verbose 4 -debug true \
             -filter a.B -filter G=::m -classpath x.jar:y -threads 2 -cache c -failOnSkip true -failOnError false",
        ));
        let Ok(Command::Enhance(r)) = parsed else { panic!("no request") };
        assert_eq!(r.class_dir, "d");
        assert_eq!(r.resource_file.as_deref(), Some("r.properties"));
        assert!(!r.tracegen && r.dry_run && r.new_out && r.debug);
        assert_eq!((r.verbose, r.threads), (4, 2));
        assert_eq!(r.filters, ["a.B", "G=::m"]);
        assert_eq!(r.classpath, ["x.jar", "y"]);
        assert_eq!(r.cache_dir.as_deref(), Some("c"));
        assert!(r.fail_on_skip && !r.fail_on_error);
    }

    #[test]
    fn errors_name_the_argument() {
        assert_eq!(parse(&args("-verbose 9")).unwrap_err(), "-verbose takes a whole number from 0 to 4, not '9'");
        assert_eq!(parse(&args("-tracegen yes")).unwrap_err(), "-tracegen takes true or false, not 'yes'");
        assert_eq!(parse(&args("-dir")).unwrap_err(), "no value supplied for -dir");
        assert_eq!(parse(&args("-bogus 1")).unwrap_err(), "unknown argument -bogus");
        assert_eq!(parse(&args("stray")).unwrap_err(), "expected an argument name starting with '-', found 'stray'");
        assert_eq!(parse(&args("-help")), Ok(Command::Help));
    }
}
