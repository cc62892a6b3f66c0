//! Method filters in the grammar of JDK 25's JFR method timing (JEP 520), with
//! package wildcards, each optionally bound to a TF group:
//!
//! ```text
//! spec        ::= [group "="] filter
//! filter      ::= target (";" target)*
//! target      ::= class | class "::" method-name | "::" method-name | "@" class
//! class       ::= identifier ("." identifier)* | package ".*" | package ".**" | "**"
//! method-name ::= identifier | "<init>" | "<clinit>"
//! ```
//!
//! `pkg.*` matches the classes directly in `pkg`, `pkg.**` those in `pkg` and
//! its subpackages, `**` every class. Class names are binary names
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
    pub targets: Vec<Target>,
    /// The text it was parsed from, for messages.
    pub source: String,
}

/// One `;`-separated target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Every method of the matching classes, or only those named `method`.
    Class { class: ClassPattern, method: Option<String> },
    /// `::name` in every class.
    Method(String),
    /// `@annotation`: methods carrying it, or in a class carrying it.
    Annotation(String),
}

/// Which classes a target names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassPattern {
    Exact(String),
    /// `pkg.*`: classes directly in the package (`""` is the unnamed package).
    Package(String),
    /// `pkg.**`: classes in the package or below it; `**` is every class.
    PackageTree(String),
}

/// What a filter can be asked about one method.
#[derive(Debug, Clone, Copy)]
pub struct MethodRef<'a> {
    /// Binary class name.
    pub class: &'a str,
    pub method: &'a str,
    /// Binary names of the annotations on the class.
    pub class_annotations: &'a [String],
    /// Binary names of the annotations on the method.
    pub method_annotations: &'a [String],
}

/// A filter that does not follow the grammar, with the offending part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterError {
    pub filter: String,
    pub message: String,
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "filter '{}': {}", self.filter, self.message)
    }
}

impl std::error::Error for FilterError {}

impl FilterSpec {
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

    /// Does any target select this method?
    pub fn matches(&self, m: &MethodRef<'_>) -> bool {
        self.targets.iter().any(|t| t.matches(m))
    }
}

impl Target {
    pub fn matches(&self, m: &MethodRef<'_>) -> bool {
        match self {
            Target::Class { class, method } => {
                class.matches(m.class) && method.as_deref().is_none_or(|name| name == m.method)
            }
            Target::Method(name) => name == m.method,
            Target::Annotation(a) => {
                m.method_annotations.iter().any(|x| x == a) || m.class_annotations.iter().any(|x| x == a)
            }
        }
    }
}

impl ClassPattern {
    pub fn matches(&self, class: &str) -> bool {
        let package = || class.rfind('.').map_or("", |i| &class[..i]);
        match self {
            ClassPattern::Exact(name) => name == class,
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
    if is_qualified_name(class) {
        Ok(ClassPattern::Exact(class.to_string()))
    } else {
        Err(format!("'{class}' is not a class name, 'package.*', 'package.**' or '**'"))
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
        MethodRef { class, method, class_annotations: &[], method_annotations: &[] }
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
        let on_method = MethodRef { class: "a.B", method: "m", class_annotations: &[], method_annotations: &on };
        let on_class = MethodRef { class: "a.B", method: "m", class_annotations: &on, method_annotations: &[] };
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
}
