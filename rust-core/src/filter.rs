//! Method filters in the grammar of JDK 25's JFR method timing (JEP 520), with
//! package wildcards, each optionally bound to a TF group:
//!
//! ```text
//! spec        ::= [group "="] filter
//! filter      ::= target (";" target)*
//! target      ::= class | class "::" method-name | "::" method-name | "@" class
//! class       ::= name | name "+" | package ".*" | package ".**" | "**"
//! name        ::= identifier ("." identifier)*
//! method-name ::= identifier | "<init>" | "<clinit>"
//! ```
//!
//! `pkg.*` matches the classes directly in `pkg`, `pkg.**` those in `pkg` and
//! its subpackages, `**` every class. `T+` (AspectJ's type pattern) matches `T`
//! and every class that has `T` among its supertypes, transitively (superclasses,
//! interfaces and their superinterfaces): which supertypes a class has is
//! asked of the caller ([`MethodRef::supertypes`], [`crate::hierarchy`]), since
//! a class file names only its direct ones. Only an exact name takes `+`.
//! Class names are binary names
//! (`com.example.Outer$Inner`). `@A` selects every method annotated `@A` and every
//! method of a class annotated `@A`. Without `group=`, selected methods join the
//! built-in group [`crate::protocol::FILTERED_GROUP`].
#![forbid(unsafe_code)]

use std::fmt;

/// A parsed `[group=]filter`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterSpec {
    /// The group as written (`IO` or `com.example.IO`); `None` for the built-in group.
    pub group: Option<String>,
    /// The `;`-separated targets: a method any of them selects is selected.
    pub targets: Vec<Target>,
    /// The text it was parsed from, for messages.
    pub source: String,
}

/// One `;`-separated target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Every method of the matching classes, or only those named `method`.
    Class {
        /// The classes it names.
        class: ClassPattern,
        /// The method name after `::`; `None` for every method.
        method: Option<String>,
    },
    /// `::name` in every class.
    Method(String),
    /// `@annotation`: methods carrying it, or in a class carrying it.
    Annotation(String),
}

/// Which classes a target names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassPattern {
    /// `com.example.Foo`: that class only (binary name).
    Exact(String),
    /// `pkg.*`: classes directly in the package (`""` is the unnamed package).
    Package(String),
    /// `pkg.**`: classes in the package or below it; `**` is every class.
    PackageTree(String),
    /// `T+`: `T` and the classes with `T` among their supertypes.
    Subtypes(String),
}

/// What a filter can be asked about one method.
#[derive(Debug, Clone, Copy)]
pub struct MethodRef<'a> {
    /// Binary class name.
    pub class: &'a str,
    /// Method name.
    pub method: &'a str,
    /// Binary names of the annotations on the class.
    pub class_annotations: &'a [String],
    /// Binary names of the annotations on the method.
    pub method_annotations: &'a [String],
    /// Binary names of every supertype of the class known to the caller
    /// (asked only when a filter has a `T+` target: [`FilterSpec::names_supertypes`]).
    pub supertypes: &'a [String],
}

/// A filter that does not follow the grammar, with the offending part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterError {
    /// The filter as written.
    pub filter: String,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "filter '{}': {}", self.filter, self.message)
    }
}

impl std::error::Error for FilterError {}

impl FilterSpec {
    /// Parses `[group=]target;target;…`; empty targets (a trailing `;`) are
    /// ignored, and at least one target is required.
    pub fn parse(text: &str) -> Result<FilterSpec, FilterError> {
        let error = |message: String| FilterError { filter: text.to_string(), message };
        let (group, body) = match text.split_once('=') {
            Some((group, body)) => {
                let group = group.trim();
                if !is_qualified_name(group) {
                    return Err(error(format!("'{group}' is not an annotation name")));
                }
                (Some(group.to_string()), body)
            }
            None => (None, text),
        };
        let mut targets = Vec::new();
        for part in body.split(';').map(str::trim) {
            if part.is_empty() {
                continue; // JFR's settings files put one target per line, with a trailing ';'.
            }
            targets.push(parse_target(part).map_err(|m| error(format!("'{part}': {m}")))?);
        }
        if targets.is_empty() {
            return Err(error("no target".into()));
        }
        Ok(FilterSpec { group, targets, source: text.to_string() })
    }

    /// Does any target select by annotation (`@A`)?
    pub fn names_annotations(&self) -> bool {
        self.targets.iter().any(|t| matches!(t, Target::Annotation(_)))
    }

    /// Does any target select by supertype (`T+`)? Only then must the caller
    /// know a class's supertypes.
    pub fn names_supertypes(&self) -> bool {
        self.targets.iter().any(|t| matches!(t, Target::Class { class: ClassPattern::Subtypes(_), .. }))
    }

    /// Does any target select this method?
    pub fn matches(&self, m: &MethodRef<'_>) -> bool {
        self.targets.iter().any(|t| t.matches(m))
    }
}

impl Target {
    /// Does this target select the method?
    pub fn matches(&self, m: &MethodRef<'_>) -> bool {
        match self {
            Target::Class { class, method } => {
                method.as_deref().is_none_or(|name| name == m.method) && class.matches(m.class, m.supertypes)
            }
            Target::Method(name) => name == m.method,
            Target::Annotation(a) => {
                m.method_annotations.iter().any(|x| x == a) || m.class_annotations.iter().any(|x| x == a)
            }
        }
    }
}

impl ClassPattern {
    /// Does the pattern match `class`, whose supertypes are `supertypes`?
    pub fn matches(&self, class: &str, supertypes: &[String]) -> bool {
        let package = || class.rfind('.').map_or("", |i| &class[..i]);
        match self {
            ClassPattern::Exact(name) => name == class,
            ClassPattern::Subtypes(name) => name == class || supertypes.iter().any(|s| s == name),
            ClassPattern::Package(p) => package() == p,
            // `**` matches every class: asked for every method, it looks at none.
            ClassPattern::PackageTree(p) if p.is_empty() => true,
            ClassPattern::PackageTree(p) => {
                let package = package();
                package == p
                    || (package.len() > p.len() && package.starts_with(p.as_str()) && package[p.len()..].starts_with('.'))
            }
        }
    }
}

fn parse_target(part: &str) -> Result<Target, String> {
    if let Some(annotation) = part.strip_prefix('@') {
        return if is_qualified_name(annotation) {
            Ok(Target::Annotation(annotation.to_string()))
        } else {
            Err("expected an annotation's class name after '@'".into())
        };
    }
    let (class, method) = match part.split_once("::") {
        Some((class, method)) => (class, Some(method)),
        None => (part, None),
    };
    let method = match method {
        Some(m) if m == "<init>" || m == "<clinit>" || is_identifier(m) => Some(m.to_string()),
        Some(m) => return Err(format!("'{m}' is not a method name (an identifier, <init> or <clinit>)")),
        None => None,
    };
    if class.is_empty() {
        return match method {
            Some(m) => Ok(Target::Method(m)),
            None => Err("empty target".into()),
        };
    }
    Ok(Target::Class { class: parse_class(class)?, method })
}

fn parse_class(class: &str) -> Result<ClassPattern, String> {
    if class == "**" {
        return Ok(ClassPattern::PackageTree(String::new()));
    }
    if let Some(p) = class.strip_suffix(".**") {
        return package(p).map(ClassPattern::PackageTree);
    }
    if let Some(p) = class.strip_suffix(".*") {
        return package(p).map(ClassPattern::Package);
    }
    if let Some(name) = class.strip_suffix('+') {
        return if is_qualified_name(name) {
            Ok(ClassPattern::Subtypes(name.to_string()))
        } else {
            // `pkg.*+` would select every subtype of every class of a package,
            // which needs every class's whole hierarchy: not offered.
            Err(format!(
                "'{class}': '+' (the type and its subtypes) follows an exact class name only, as in 'java.sql.Connection+'"
            ))
        };
    }
    if is_qualified_name(class) {
        Ok(ClassPattern::Exact(class.to_string()))
    } else {
        Err(format!("'{class}' is not a class name, 'Name+', 'package.*', 'package.**' or '**'"))
    }
}

fn package(p: &str) -> Result<String, String> {
    if is_qualified_name(p) {
        Ok(p.to_string())
    } else {
        Err(format!("'{p}' is not a package name"))
    }
}

fn is_qualified_name(s: &str) -> bool {
    !s.is_empty() && s.split('.').all(is_identifier)
}

/// A Java identifier (JLS 3.8), with `$` as nested-class binary names use it.
fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' || c == '$' => {}
        _ => return false,
    }
    chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn method<'a>(class: &'a str, method: &'a str) -> MethodRef<'a> {
        MethodRef { class, method, class_annotations: &[], method_annotations: &[], supertypes: &[] }
    }

    fn selects(filter: &str, class: &str, name: &str) -> bool {
        FilterSpec::parse(filter).unwrap().matches(&method(class, name))
    }

    #[test]
    fn jep_520_forms() {
        assert!(selects("java.util.HashMap::resize", "java.util.HashMap", "resize"));
        assert!(!selects("java.util.HashMap::resize", "java.util.HashMap", "put"));
        assert!(selects("java.util.HashMap", "java.util.HashMap", "put"));
        assert!(!selects("java.util.HashMap", "java.util.HashMapX", "put"));
        assert!(selects("::<clinit>", "a.B", "<clinit>"));
        assert!(selects("a.B::<init>", "a.B", "<init>"));
        assert!(selects("a.B::x;c.D::y", "c.D", "y"));
        assert!(selects("a.B::x;c.D::y;", "a.B", "x"));
    }

    #[test]
    fn package_wildcards() {
        assert!(selects("com.ex.*", "com.ex.A", "m"));
        assert!(!selects("com.ex.*", "com.ex.sub.A", "m"));
        assert!(selects("com.ex.**", "com.ex.sub.A", "m"));
        assert!(selects("com.ex.**", "com.ex.A", "m"));
        assert!(!selects("com.ex.**", "com.exa.A", "m"));
        assert!(selects("**", "A", "m"));
        assert!(selects("com.ex.**::run", "com.ex.sub.A", "run"));
        assert!(!selects("com.ex.**::run", "com.ex.sub.A", "walk"));
    }

    #[test]
    fn annotations_on_method_or_class() {
        let spec = FilterSpec::parse("@com.ex.Timed").unwrap();
        let on = ["com.ex.Timed".to_string()];
        let on_method = MethodRef { method_annotations: &on, ..method("a.B", "m") };
        let on_class = MethodRef { class_annotations: &on, ..method("a.B", "m") };
        assert!(spec.matches(&on_method) && spec.matches(&on_class));
        assert!(!spec.matches(&method("a.B", "m")));
    }

    #[test]
    fn groups() {
        let spec = FilterSpec::parse("IO=com.ex.Stream::read").unwrap();
        assert_eq!(spec.group.as_deref(), Some("IO"));
        assert_eq!(FilterSpec::parse("a.B").unwrap().group, None);
    }

    #[test]
    fn errors_name_the_filter_and_the_part() {
        let e = FilterSpec::parse("a.B::1x").unwrap_err();
        assert_eq!(e.to_string(), "filter 'a.B::1x': 'a.B::1x': '1x' is not a method name (an identifier, <init> or <clinit>)");
        assert!(FilterSpec::parse("").is_err());
        assert!(FilterSpec::parse("a..B").is_err());
        assert!(FilterSpec::parse("@").is_err());
        assert!(FilterSpec::parse("bad group=a.B").is_err());
        assert!(FilterSpec::parse("a.*.B").is_err());
    }

    #[test]
    fn a_type_and_its_subtypes() {
        let spec = FilterSpec::parse("java.sql.Connection+::prepareStatement").unwrap();
        assert!(spec.names_supertypes());
        assert!(!FilterSpec::parse("java.sql.Connection::prepareStatement").unwrap().names_supertypes());
        let supertypes = ["java.lang.Object".to_string(), "java.sql.Connection".to_string(), "java.lang.AutoCloseable".to_string()];
        let h2 = MethodRef { supertypes: &supertypes, ..method("org.h2.jdbc.JdbcConnection", "prepareStatement") };
        assert!(spec.matches(&h2), "a class with the type among its supertypes");
        assert!(!spec.matches(&MethodRef { method: "close", ..h2 }), "another method of it");
        assert!(!spec.matches(&method("org.h2.jdbc.JdbcConnection", "prepareStatement")), "no such supertype");
        assert!(spec.matches(&method("java.sql.Connection", "prepareStatement")), "the type itself");
        let every = FilterSpec::parse("IO=java.io.OutputStream+").unwrap();
        let out = ["java.io.OutputStream".to_string()];
        assert!(every.matches(&MethodRef { supertypes: &out, ..method("a.Out", "flush") }));
        let writer = ["java.io.Writer".to_string()];
        assert!(!every.matches(&MethodRef { supertypes: &writer, ..method("java.io.OutputStreamWriter", "flush") }));
    }

    #[test]
    fn only_an_exact_name_takes_a_plus() {
        let e = FilterSpec::parse("java.sql.*+::prepareStatement").unwrap_err();
        assert_eq!(
            e.to_string(),
            "filter 'java.sql.*+::prepareStatement': 'java.sql.*+::prepareStatement': 'java.sql.*+': '+' (the type and \
             its subtypes) follows an exact class name only, as in 'java.sql.Connection+'"
        );
        for bad in ["java.**+", "**+", "+", "a.B++", "@a.B+", "a.B+::m+", "::m+"] {
            assert!(FilterSpec::parse(bad).is_err(), "{bad}");
        }
    }
}
