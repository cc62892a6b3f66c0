//! Every rule a diagnostic names, once: its variant and the identifier the
//! Java side, the build plugins and the tests read as `rule` (a string on the
//! wire, as before).
#![forbid(unsafe_code)]

use crate::classfile::check;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! rules {
    ($($(#[$doc:meta])* $variant:ident = $id:literal,)*) => {
        /// Which rule a diagnostic reports.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub enum Rule {
            $($(#[$doc])* $variant,)*
            /// The pre-write check's rules (`check-…`), the engine's own.
            Check(check::Rule),
        }

        impl Rule {
            /// The rule's identifier on the wire.
            pub fn id(self) -> &'static str {
                match self {
                    $(Rule::$variant => $id,)*
                    Rule::Check(rule) => rule.id(),
                }
            }

            /// The rule an identifier names.
            pub fn from_id(id: &str) -> Option<Rule> {
                match id {
                    $($id => Some(Rule::$variant),)*
                    _ => check::Rule::ALL.into_iter().find(|r| r.id() == id).map(Rule::Check),
                }
            }

            /// Every rule but the check's (see [`check::Rule::ALL`]).
            pub const OWN: &'static [Rule] = &[$(Rule::$variant,)*];
        }
    };
}

rules! {
    // The run and its files.
    /// Reading or listing a file failed.
    #[default]
    Io = "io",
    /// Not a valid class file.
    Parse = "parse",
    /// The class directory does not exist or is not a directory.
    ClassDir = "class-dir",
    /// The worker threads could not be set up.
    Threads = "threads",
    /// The incremental cache could not be opened or used.
    Cache = "cache",
    /// Writing an output, or removing a temporary file, failed.
    Write = "write",
    /// A filter does not parse, or its group is not a TF annotation.
    Filter = "filter",
    /// An entry of the class path could not be read.
    Classpath = "classpath",
    /// Enhanced classes would call tf-runtime, which is not on their class path.
    RuntimeMissing = "runtime-missing",
    // A class as it was enhanced before.
    /// In the guarded shape: the class carries TF's tracing code already
    /// (stage 2), nothing to add.
    AlreadyTraced = "already-traced",
    /// The class was enhanced before with other settings and its original is gone.
    EnhancedWithOtherSettings = "enhanced-with-other-settings",
    /// The class was built at stage 1 with filters other than the agent's.
    StageOneOtherSettings = "stage-one-other-settings",
    // The guarded shape (the agent's: no member added).
    /// The guarded shape was asked for without stage 2.
    RetransformWithoutTracegen = "retransform-without-tracegen",
    /// The class file's version is too old to name its own class in code.
    RetransformClassVersion = "retransform-class-version",
    /// An info method needs stage 1 at build time: a running JVM accepts no new
    /// parameters.
    RetransformInfoMethod = "retransform-info-method",
    /// Generating a method's code failed (too large, a limit of the class file).
    Enhance = "enhance",
    // The spec's rules for TF classes (validate.rs).
    /// A method with a TF annotation or `@InfoMethod` is abstract or native.
    MethodWithoutCode = "method-without-code",
    /// A method carries more than one TF annotation.
    MultipleTfAnnotations = "multiple-tf-annotations",
    /// An info method also carries a TF annotation.
    InfoMethodWithTfAnnotation = "info-method-with-tf-annotation",
    /// A method carries a TF annotation its class does not.
    TfAnnotationMissingOnClass = "tf-annotation-missing-on-class",
    /// An info method is not private.
    InfoMethodNotPrivate = "info-method-not-private",
    /// An info method is static.
    InfoMethodStatic = "info-method-static",
    /// An info method does not return void.
    InfoMethodNotVoid = "info-method-not-void",
    /// An info method's body is not empty.
    InfoMethodHasBody = "info-method-has-body",
    /// The overloads of a name mix monitored, info and plain methods.
    OverloadMixed = "overload-mixed",
    /// TF's overloads of a name lack distinct `@TracingName` values.
    OverloadNeedsTracingName = "overload-needs-tracing-name",
    /// Two methods of a class share a tracing name.
    DuplicateTracingName = "duplicate-tracing-name",
    /// A method that is not monitored calls an info method.
    InfoCallOutsideMonitoredMethod = "info-call-outside-monitored-method",
    /// A class carries a TF annotation that none of its methods does (advice).
    GroupOnClassOnly = "group-on-class-only",
}

impl From<check::Rule> for Rule {
    fn from(rule: check::Rule) -> Self {
        Rule::Check(rule)
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl PartialEq<&str> for Rule {
    fn eq(&self, id: &&str) -> bool {
        self.id() == *id
    }
}

impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Rule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = String::deserialize(d)?;
        Rule::from_id(&id).ok_or_else(|| serde::de::Error::custom(format!("unknown rule '{id}'")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_reads_back_from_its_identifier() {
        let all = Rule::OWN.iter().copied().chain(check::Rule::ALL.into_iter().map(Rule::Check));
        let mut ids = Vec::new();
        for rule in all {
            assert_eq!(Rule::from_id(rule.id()), Some(rule), "{rule}");
            ids.push(rule.id());
        }
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "identifiers are unique");
        assert_eq!(Rule::from_id("no-such-rule"), None);
    }

    #[test]
    fn is_a_string_on_the_wire() {
        assert_eq!(Rule::InfoMethodNotPrivate.id(), "info-method-not-private");
        assert_eq!(Rule::Check(check::Rule::StackDepth).to_string(), "check-stack-depth");
        let packed = rmp_serde::to_vec(&Rule::Parse).expect("serialize");
        assert_eq!(rmp_serde::to_vec("parse").expect("serialize"), packed);
        assert_eq!(rmp_serde::from_slice::<Rule>(&packed).expect("deserialize"), Rule::Parse);
    }
}
