//! Every setting's default is declared once per language: for the core in
//! `tf_core::request::defaults` (the CLI, and a request that leaves a field
//! out), for the Java side in `core-jni`'s `TfSettings` (which the Maven and
//! Gradle plugins, the request builder and the agent read). This test holds
//! the two together, with what users read: the CLI's help and the README's
//! table of plugin parameters and Gradle block.

use std::collections::BTreeMap;
use std::path::Path;
use tf_core::cli::USAGE;
use tf_core::request::{defaults, EnhanceRequest};

fn repository_file(path: &str) -> String {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// The core's defaults, by the name the plugins give the setting.
fn core_defaults() -> BTreeMap<&'static str, String> {
    BTreeMap::from([
        ("tracegen", defaults::TRACEGEN.to_string()),
        ("dryRun", defaults::DRY_RUN.to_string()),
        ("verbose", defaults::VERBOSE.to_string()),
        ("threads", defaults::THREADS.to_string()),
        ("failOnSkip", defaults::FAIL_ON_SKIP.to_string()),
        ("failOnError", defaults::FAIL_ON_ERROR.to_string()),
    ])
}

/// `TfSettings`' `public static final … DEFAULT_FAIL_ON_ERROR = true;`, by
/// setting name (`failOnError`).
fn java_defaults() -> BTreeMap<String, String> {
    let source = repository_file("core-jni/src/main/java/org/tracingfacility/core/TfSettings.java");
    let mut found = BTreeMap::new();
    for line in source.lines() {
        let Some((left, value)) = line.trim().strip_prefix("public static final ").and_then(|l| l.split_once(" = ")) else {
            continue;
        };
        let Some(constant) = left.split_whitespace().nth(1).and_then(|n| n.strip_prefix("DEFAULT_")) else {
            continue;
        };
        found.insert(camel_case(constant), value.trim_end_matches(';').to_string());
    }
    found
}

/// `FAIL_ON_ERROR` → `failOnError`.
fn camel_case(constant: &str) -> String {
    let mut name = String::new();
    for (i, word) in constant.split('_').enumerate() {
        let word = word.to_ascii_lowercase();
        if i == 0 {
            name.push_str(&word);
        } else {
            let mut chars = word.chars();
            name.extend(chars.next().map(|c| c.to_ascii_uppercase()));
            name.push_str(chars.as_str());
        }
    }
    name
}

#[test]
fn the_java_side_declares_the_cores_defaults() {
    let java = java_defaults();
    for (setting, value) in core_defaults() {
        assert_eq!(java.get(setting), Some(&value), "TfSettings.DEFAULT_* for {setting}: the core's default is {value}");
    }
}

#[test]
fn a_request_that_leaves_every_setting_out_gets_the_defaults_of_a_new_one() {
    // The smallest request a caller can send: its version and directory.
    #[derive(serde::Serialize)]
    struct Minimal {
        format_version: u32,
        class_dir: String,
    }
    let bytes = rmp_serde::to_vec_named(&Minimal { format_version: tf_core::request::FORMAT_VERSION, class_dir: "d".into() })
        .expect("encodes");
    let decoded: EnhanceRequest = rmp_serde::from_slice(&bytes).expect("decodes");
    assert_eq!(decoded, EnhanceRequest::new("d"));
    assert_eq!(
        (decoded.tracegen, decoded.dry_run, decoded.verbose, decoded.threads),
        (defaults::TRACEGEN, defaults::DRY_RUN, defaults::VERBOSE, defaults::THREADS)
    );
    assert_eq!(
        (decoded.fail_on_skip, decoded.fail_on_error, decoded.warn_unused_filters),
        (defaults::FAIL_ON_SKIP, defaults::FAIL_ON_ERROR, defaults::WARN_UNUSED_FILTERS)
    );
}

#[test]
fn the_cli_help_gives_the_cores_defaults() {
    let flags = [
        ("tracegen", "-tracegen"),
        ("dryRun", "-dryrun"),
        ("verbose", "-verbose"),
        ("threads", "-threads"),
        ("failOnSkip", "-failOnSkip"),
        ("failOnError", "-failOnError"),
    ];
    let core = core_defaults();
    for (setting, flag) in flags {
        let line = USAGE
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{flag} ")))
            .unwrap_or_else(|| panic!("{flag} in the CLI's help"));
        let said = line.split("(default ").nth(1).and_then(|rest| rest.split([')', ':']).next());
        assert_eq!(said, Some(core[setting].as_str()), "the help's default of {flag}: {line}");
    }
}

#[test]
fn the_readme_gives_the_java_sides_defaults() {
    let readme = repository_file("README.md");
    let java = java_defaults();
    // The Maven table: | `failOnSkip` | `tf.failOnSkip` | `false` | meaning |
    let mut checked = 0;
    for line in readme.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let [_, parameter, property, default, ..] = cells.as_slice() else {
            continue;
        };
        let parameter = parameter.trim_matches('`');
        if property.trim_matches('`') != format!("tf.{parameter}") {
            continue;
        }
        if let Some(value) = java.get(parameter) {
            assert_eq!(default.trim_matches('`'), value, "README's Maven table, default of {parameter}");
            checked += 1;
        }
    }
    assert_eq!(checked, java.len(), "every TfSettings default is in README's Maven table");

    // The Gradle block: `    failOnSkip = false` in the `tf { … }` that lists every setting.
    let block = readme.split("tf {\n    skip = ").nth(1).expect("README's Gradle block of every setting");
    let block = format!("skip = {}", &block[..block.find("\n}").expect("the block ends")]);
    for (setting, value) in &java {
        let given = block
            .lines()
            .find_map(|l| l.trim().strip_prefix(&format!("{setting} = ")))
            .map(|v| v.split_whitespace().next().unwrap_or_default());
        assert_eq!(given, Some(value.as_str()), "README's Gradle block, {setting}");
    }
}
