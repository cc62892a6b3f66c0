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
    ClassDir = "class-dir",
    Threads = "threads",
    Cache = "cache",
    Write = "write",
    Filter = "filter",
    Classpath = "classpath",
    RuntimeMissing = "runtime-missing",
    // A class as it was enhanced before.
    AlreadyTraced = "already-traced",
    EnhancedWithOtherSettings = "enhanced-with-other-settings",
    StageOneOtherSettings = "stage-one-other-settings",
    // The guarded shape (the agent's: no member added).
    RetransformWithoutTracegen = "retransform-without-tracegen",
    RetransformClassVersion = "retransform-class-version",
    RetransformInfoMethod = "retransform-info-method",
    /// Generating a method's code failed (too large, a limit of the class file).
    Enhance = "enhance",
    // The spec's rules for TF classes (validate.rs).
    MethodWithoutCode = "method-without-code",
    MultipleTfAnnotations = "multiple-tf-annotations",
    InfoMethodWithTfAnnotation = "info-method-with-tf-annotation",
    TfAnnotationMissingOnClass = "tf-annotation-missing-on-class",
    InfoMethodNotPrivate = "info-method-not-private",
    InfoMethodStatic = "info-method-static",
    InfoMethodNotVoid = "info-method-not-void",
    InfoMethodHasBody = "info-method-has-body",
    OverloadMixed = "overload-mixed",
    OverloadNeedsTracingName = "overload-needs-tracing-name",
    DuplicateTracingName = "duplicate-tracing-name",
    InfoCallOutsideMonitoredMethod = "info-call-outside-monitored-method",
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
