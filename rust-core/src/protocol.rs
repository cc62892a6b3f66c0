//! The call protocol between enhanced classes and `tf-runtime`: every class,
//! member and descriptor that generated code names lives here, and nowhere else.
//!
//! The Java side of each entry is in `runtime/`; `runtime`'s
//! `ProtocolConformanceTest` loads `protocol.txt` (written from this module by
//! `tf-enhance -protocol`) and checks every entry by reflection, so a rename on
//! either side fails the build.
#![forbid(unsafe_code)]

use crate::classfile::KnownTexts;

/// Package of the annotations users write (`@MethodMonitorGroup`, `@InfoMethod`, …).
pub const ANNOTATION_PACKAGE: &str = "org/tracingfacility/annotation/";

/// `@MethodMonitorGroup(Class<? extends Annotation>[] value)`: marks a TF annotation.
pub const METHOD_MONITOR_GROUP: &str = "Lorg/tracingfacility/annotation/MethodMonitorGroup;";
/// `@InfoMethod(TimingPointType tpType() default NONE, String tpName() default "")`.
pub const INFO_METHOD: &str = "Lorg/tracingfacility/annotation/InfoMethod;";
/// `@TracingName(String value)`.
pub const TRACING_NAME: &str = "Lorg/tracingfacility/annotation/TracingName;";
/// `@TFEnhanced(int stage, String fingerprint)`: written by the enhancer on every class it changes.
pub const TF_ENHANCED: &str = "Lorg/tracingfacility/annotation/TFEnhanced;";
/// The element of `@TFEnhanced` that holds the stage reached.
pub const TF_ENHANCED_STAGE: &str = "stage";
/// The element of `@TFEnhanced` that holds the settings' fingerprint.
pub const TF_ENHANCED_FINGERPRINT: &str = "fingerprint";
/// `@Redacted` on a parameter: its value never reaches a monitor.
pub const REDACTED: &str = "Lorg/tracingfacility/annotation/Redacted;";
/// Built-in group for methods selected by a `-filter` without `Group=`.
pub const FILTERED_GROUP: &str = "org/tracingfacility/annotation/Filtered";

/// `@TFEnhanced(stage = 1)`: stage 1, the holders and the `<clinit>` registration.
pub const STAGE_SCHEMA: i32 = 1;
/// `@TFEnhanced(stage = 2)`: stage 2 too, the tracing code.
pub const STAGE_TRACEGEN: i32 = 2;

/// The shape of the generated code. Part of every class's `@TFEnhanced`
/// fingerprint, so that classes an earlier TF of the same version enhanced
/// with another shape count as enhanced with other settings and are redone
/// from their originals. Bump it with every change to what generated code does.
/// 2: `enterWithToken`/`exitWithToken`, the token in a local.
/// 3: what only generated code calls moved to [`SUPPORT_PACKAGE`] (the holder,
/// `EnhancedCodeSupport`, `GuardedSites`); the array registration dropped.
pub const REVISION: u32 = 3;

/// Package of the user API generated code names: [`METHOD_MONITOR`] and [`TIMING_POINT_TYPE`].
pub const RUNTIME_PACKAGE: &str = "org/tracingfacility/runtime/";
/// Package of what only generated code (and the agent) calls, which users never import:
/// [`SYNCHRONIZED_HOLDER`], [`ENHANCED_CODE_SUPPORT`], [`GUARDED_SITES`].
pub const SUPPORT_PACKAGE: &str = "org/tracingfacility/runtime/support/";

/// The interface generated code reports to: `enter`/`exit` (with token),
/// `exception` and `info` calls on the monitor of a method's group.
pub const METHOD_MONITOR: &str = "org/tracingfacility/runtime/MethodMonitor";
/// Holds a group's monitor in a holder field of the class (one per TF
/// annotation); generated code reads it in class files older than version 51.
pub const SYNCHRONIZED_HOLDER: &str = "org/tracingfacility/runtime/support/SynchronizedHolder";
/// The enum of an info method's timing point, passed to `info`.
pub const TIMING_POINT_TYPE: &str = "org/tracingfacility/runtime/TimingPointType";
/// The one class holding the helpers that only generated code calls.
pub const ENHANCED_CODE_SUPPORT: &str = "org/tracingfacility/runtime/support/EnhancedCodeSupport";
/// The runtime's table of the agent's sites ([`GUARDED_MONITOR`]).
pub const GUARDED_SITES: &str = "org/tracingfacility/runtime/support/GuardedSites";

/// A member that generated code references: owner, name, descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    /// Internal name of the class that declares it.
    pub owner: &'static str,
    /// Its name.
    pub name: &'static str,
    /// Its field or method descriptor.
    pub descriptor: &'static str,
}

/// Holder field added per TF annotation; its name is `HOLDER_FIELD_PREFIX` + the
/// index of the annotation in the class's sorted TF annotation list.
pub const HOLDER_FIELD_PREFIX: &str = "__tf$holder$";

/// Name of the holder field of the TF annotation at `index` in the class's sorted list.
pub fn holder_field(index: usize) -> String {
    format!("{HOLDER_FIELD_PREFIX}{index}")
}
/// Descriptor of every holder field.
pub const HOLDER_FIELD_DESCRIPTOR: &str = "Lorg/tracingfacility/runtime/support/SynchronizedHolder;";
/// Generic signature of every holder field: `SynchronizedHolder<MethodMonitor>`.
pub const HOLDER_FIELD_SIGNATURE: &str =
    "Lorg/tracingfacility/runtime/support/SynchronizedHolder<Lorg/tracingfacility/runtime/MethodMonitor;>;";

/// The holder's constructor: `<clinit>` makes each holder field's holder with it.
pub const HOLDER_INIT: Member = Member { owner: SYNCHRONIZED_HOLDER, name: "<init>", descriptor: "()V" };
/// `Object content()`: the fallback monitor read for class files older than version 51.
pub const HOLDER_CONTENT: Member =
    Member { owner: SYNCHRONIZED_HOLDER, name: "content", descriptor: "()Ljava/lang/Object;" };

/// Static-initializer call: `registerClass(Class cls, String tracingNames,
/// Class[] annotations, SynchronizedHolder[] holders)`; builds the spec's list and
/// map and calls `MethodMonitorRegistry.registerClass`. `tracingNames` is the
/// class's sorted tracing names in one string ([`joined_tracing_names`]): one
/// constant in the pool and one `ldc` in `<clinit>`, where an array took four
/// instructions and two constants per method.
pub const REGISTER_CLASS: Member = Member {
    owner: ENHANCED_CODE_SUPPORT,
    name: "registerClass",
    descriptor: "(Ljava/lang/Class;Ljava/lang/String;[Ljava/lang/Class;[Lorg/tracingfacility/runtime/support/SynchronizedHolder;)V",
};
/// The tracing names as [`REGISTER_CLASS`] takes them: each name preceded by
/// its length in UTF-16 units (Java's `String.length()`) in decimal and a
/// colon, `4:self8:toString`. A length rather than a separator: a name may
/// hold any character, since method names and `@TracingName` values may.
pub fn joined_tracing_names<S: AsRef<str>>(names: &[S]) -> String {
    let mut joined = String::with_capacity(names.iter().map(|n| n.as_ref().len() + 3).sum());
    for name in names.iter().map(AsRef::as_ref) {
        let units = if name.is_ascii() { name.len() } else { name.encode_utf16().count() };
        // By hand rather than `write!`: once per method of every class, the
        // formatting machinery cost more than the rest of the registration.
        push_decimal(&mut joined, units);
        joined.push(':');
        joined.push_str(name);
    }
    joined
}

fn push_decimal(out: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[start..].iter().map(|&d| char::from(d)));
}

/// Bootstrap of the `invokedynamic` that a monitored method uses to find its monitor
/// (class files of version 51 and later). Static argument: the TF annotation's
/// `CONSTANT_Class`. It returns one `MutableCallSite` per (class, annotation) whose
/// target is a constant handle; registration retargets it, so the JIT folds the
/// disabled check away.
pub const LINK_MONITOR: Member = Member {
    owner: ENHANCED_CODE_SUPPORT,
    name: "linkMonitor",
    descriptor: "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/Class;)Ljava/lang/invoke/CallSite;",
};
/// What a method in the guarded shape (`request::Shape::Guarded`, written
/// by the agent) calls for its monitor: `static MethodMonitor monitor(Class
/// cls, int site)`, with its own class (`ldc`) and its group's site, a slot
/// the agent reserved and declared before the class was defined. It answers
/// null when no monitor is attached and while the calling thread is inside
/// monitoring code already; a non-null answer leaves the thread marked so
/// until the `enterWithToken` that follows returns.
pub const GUARDED_MONITOR: Member = Member {
    owner: GUARDED_SITES,
    name: "monitor",
    descriptor: "(Ljava/lang/Class;I)Lorg/tracingfacility/runtime/MethodMonitor;",
};
/// Name of the `invokedynamic` call itself (its bootstrap: [`LINK_MONITOR`]).
pub const MONITOR_INDY_NAME: &str = "monitor";
/// Type of the `invokedynamic` call: no arguments, the `MethodMonitor` as result.
pub const MONITOR_INDY_DESCRIPTOR: &str = "()Lorg/tracingfacility/runtime/MethodMonitor;";

/// `static void thrown(Throwable t, Throwable lastReported, MethodMonitor mm, int id)`:
/// reports an explicit `throw` when `mm` is not null and `t` is not the
/// throwable this invocation reported last (a `finally` block's rethrow). A
/// call rather than a branch, so the throw site needs no stack map frame
/// whatever else is on the stack.
pub const THROWN: Member = Member {
    owner: ENHANCED_CODE_SUPPORT,
    name: "thrown",
    descriptor: "(Ljava/lang/Throwable;Ljava/lang/Throwable;Lorg/tracingfacility/runtime/MethodMonitor;I)V",
};

/// `static void returned(MethodMonitor mm, int id, T result, long token)`, one
/// per kind of result (`T` one of `boolean`, `byte`, `char`, `short`, `int`,
/// `long`, `float`, `double`, `Object`): the exit of a method that returns a
/// value, `mm.exitWithToken(id, mm.wantsArguments() ? boxed result : null,
/// token)`. A call rather than inline code: the boxing branch would need two
/// stack map frames and a boxing method reference in every such method.
pub const RETURNED: [Member; 9] = [
    returned("(Lorg/tracingfacility/runtime/MethodMonitor;IZJ)V"),
    returned("(Lorg/tracingfacility/runtime/MethodMonitor;IBJ)V"),
    returned("(Lorg/tracingfacility/runtime/MethodMonitor;ICJ)V"),
    returned("(Lorg/tracingfacility/runtime/MethodMonitor;ISJ)V"),
    returned("(Lorg/tracingfacility/runtime/MethodMonitor;IIJ)V"),
    returned("(Lorg/tracingfacility/runtime/MethodMonitor;IJJ)V"),
    returned("(Lorg/tracingfacility/runtime/MethodMonitor;IFJ)V"),
    returned("(Lorg/tracingfacility/runtime/MethodMonitor;IDJ)V"),
    returned("(Lorg/tracingfacility/runtime/MethodMonitor;ILjava/lang/Object;J)V"),
];

const fn returned(descriptor: &'static str) -> Member {
    Member { owner: ENHANCED_CODE_SUPPORT, name: "returned", descriptor }
}

/// `static void failed(Throwable t, Throwable lastReported, MethodMonitor mm, int id, long token)`:
/// the end of a void method by a throwable. When `mm` is not null: reports
/// `t` unless it is the throwable this invocation reported last at a throw
/// site, then `mm.exitWithToken(id, token)`. A call rather than inline code,
/// so the catch-all handler needs one stack map frame.
pub const FAILED: Member = Member { owner: ENHANCED_CODE_SUPPORT, name: "failed", descriptor: FAILED_DESCRIPTOR };

/// [`FAILED`] for a method that returns a value: its exit is
/// `mm.exitWithToken(id, null, token)`.
pub const FAILED_WITH_RESULT: Member =
    Member { owner: ENHANCED_CODE_SUPPORT, name: "failedWithResult", descriptor: FAILED_DESCRIPTOR };

const FAILED_DESCRIPTOR: &str =
    "(Ljava/lang/Throwable;Ljava/lang/Throwable;Lorg/tracingfacility/runtime/MethodMonitor;IJ)V";

/// `static final Object[] NO_ARGS`: passed when the monitor does not want values.
pub const NO_ARGS: Member =
    Member { owner: ENHANCED_CODE_SUPPORT, name: "NO_ARGS", descriptor: "[Ljava/lang/Object;" };
/// `static final Object REDACTED`: stands in for a `@Redacted` parameter's value.
pub const REDACTED_VALUE: Member =
    Member { owner: ENHANCED_CODE_SUPPORT, name: "REDACTED", descriptor: "Ljava/lang/Object;" };

/// `void enter(int, Object...)`: called by the runtime's default `enterWithToken`,
/// and by classes enhanced before the token protocol, so it stays checked.
pub const MM_ENTER: Member = Member { owner: METHOD_MONITOR, name: "enter", descriptor: "(I[Ljava/lang/Object;)V" };
/// `void info(Object[] args, int callerIdent, int selfIdent, TimingPointType tpType)`:
/// what an info method's body (written by the schema stage) calls when a
/// monitor is passed: its boxed arguments, the identifier passed in by the
/// caller, its own identifier and its timing point.
pub const MM_INFO: Member = Member {
    owner: METHOD_MONITOR,
    name: "info",
    descriptor: "([Ljava/lang/Object;IILorg/tracingfacility/runtime/TimingPointType;)V",
};
/// `void exit(int ident)`: called by the runtime's default `exitWithToken` of a
/// void method, and by classes enhanced before the token protocol.
pub const MM_EXIT_VOID: Member = Member { owner: METHOD_MONITOR, name: "exit", descriptor: "(I)V" };
/// `void exit(int ident, Object result)`: the same for a method with a result.
pub const MM_EXIT_VALUE: Member =
    Member { owner: METHOD_MONITOR, name: "exit", descriptor: "(ILjava/lang/Object;)V" };
/// `default long enterWithToken(int ident, Object... args)`: what generated code
/// calls at entry. The token it returns stays in a `long` local of the monitored
/// frame and goes to the invocation's one `exitWithToken`, on the normal and on
/// the abrupt path; the monitor decides what it means (timing: the start time),
/// so per-invocation state needs no thread-local look-up. The defaults call
/// `enter` and `exit`, so monitors that know nothing of tokens see the same events.
pub const MM_ENTER_WITH_TOKEN: Member =
    Member { owner: METHOD_MONITOR, name: "enterWithToken", descriptor: "(I[Ljava/lang/Object;)J" };
/// `default void exitWithToken(int ident, long token)`: the exit of a void method.
pub const MM_EXIT_VOID_WITH_TOKEN: Member =
    Member { owner: METHOD_MONITOR, name: "exitWithToken", descriptor: "(IJ)V" };
/// `default void exitWithToken(int ident, Object result, long token)`: the exit of
/// any other method (result null on the abrupt path, or when arguments are not
/// wanted), called by [`RETURNED`] and [`FAILED_WITH_RESULT`].
pub const MM_EXIT_VALUE_WITH_TOKEN: Member =
    Member { owner: METHOD_MONITOR, name: "exitWithToken", descriptor: "(ILjava/lang/Object;J)V" };
/// `void exception(int ident, Throwable t)`, called by [`THROWN`] and [`FAILED`].
pub const MM_EXCEPTION: Member =
    Member { owner: METHOD_MONITOR, name: "exception", descriptor: "(ILjava/lang/Throwable;)V" };
/// `default boolean wantsArguments()`: false lets generated code skip boxing
/// arguments and results (it passes `NO_ARGS` and a null result instead).
pub const MM_WANTS_ARGUMENTS: Member =
    Member { owner: METHOD_MONITOR, name: "wantsArguments", descriptor: "()Z" };

/// The two parameters that the schema stage appends to every info method.
pub const INFO_EXTRA_PARAMETERS: &str = "Lorg/tracingfacility/runtime/MethodMonitor;I";

/// Descriptor of the `TimingPointType` constants (static fields of the enum),
/// which an info method's body loads by name.
pub const TIMING_POINT_TYPE_DESCRIPTOR: &str = "Lorg/tracingfacility/runtime/TimingPointType;";
/// The names of the `TimingPointType` constants, which `@InfoMethod(tpType)`
/// names and an info method's body loads.
pub const TIMING_POINT_TYPES: [&str; 3] = ["ENTER", "EXIT", "NONE"];

/// Every member generated code may reference, for the conformance check (with
/// `enter`/`exit`, which older enhanced classes call and the defaults rely on).
pub const MEMBERS: &[Member] = &[
    HOLDER_INIT,
    HOLDER_CONTENT,
    REGISTER_CLASS,
    LINK_MONITOR,
    GUARDED_MONITOR,
    THROWN,
    RETURNED[0],
    RETURNED[1],
    RETURNED[2],
    RETURNED[3],
    RETURNED[4],
    RETURNED[5],
    RETURNED[6],
    RETURNED[7],
    RETURNED[8],
    FAILED,
    FAILED_WITH_RESULT,
    NO_ARGS,
    REDACTED_VALUE,
    MM_ENTER,
    MM_INFO,
    MM_EXIT_VOID,
    MM_EXIT_VALUE,
    MM_ENTER_WITH_TOKEN,
    MM_EXIT_VOID_WITH_TOKEN,
    MM_EXIT_VALUE_WITH_TOKEN,
    MM_EXCEPTION,
    MM_WANTS_ARGUMENTS,
];

/// Every name generated code and the schema stage add to the pools of the
/// classes they enhance, except the settings' fingerprint: the protocol's,
/// the boxing methods', the JDK's and the attributes'. Added borrowed from
/// here (see [`KnownTexts`]); a name missing here is copied instead.
pub fn pool_texts() -> &'static KnownTexts {
    static TEXTS: std::sync::LazyLock<KnownTexts> = std::sync::LazyLock::new(|| {
        use crate::classfile::attribute_name as attribute;
        let members = MEMBERS.iter().flat_map(|m| [m.owner, m.name, m.descriptor]);
        // The first holder fields' names, made once for the process.
        let holders = (0..8).map(|i| &*Box::leak(holder_field(i).into_boxed_str()));
        let protocol = [
            METHOD_MONITOR,
            SYNCHRONIZED_HOLDER,
            ENHANCED_CODE_SUPPORT,
            GUARDED_SITES,
            FILTERED_GROUP,
            TF_ENHANCED,
            TF_ENHANCED_STAGE,
            TF_ENHANCED_FINGERPRINT,
            HOLDER_FIELD_DESCRIPTOR,
            HOLDER_FIELD_SIGNATURE,
            MONITOR_INDY_NAME,
            MONITOR_INDY_DESCRIPTOR,
            TIMING_POINT_TYPE,
            TIMING_POINT_TYPE_DESCRIPTOR,
        ];
        let jdk = ["java/lang/Object", "java/lang/Throwable", "java/lang/Class", "java/lang/String", "[Ljava/lang/Object;"];
        let jdk_members = ["<clinit>", "<init>", "()V"];
        let attributes = [
            attribute::CODE,
            attribute::STACK_MAP_TABLE,
            attribute::BOOTSTRAP_METHODS,
            attribute::RUNTIME_VISIBLE_ANNOTATIONS,
            attribute::SIGNATURE,
            attribute::METHOD_PARAMETERS,
        ];
        KnownTexts::new(
            members
                .chain(holders)
                .chain(protocol)
                .chain(TIMING_POINT_TYPES)
                .chain(crate::codegen::boxing_texts())
                .chain(jdk)
                .chain(jdk_members)
                .chain(attributes),
        )
    });
    &TEXTS
}

/// The protocol as text, one `owner name descriptor` line per member, then the
/// annotation types; what `tf-enhance -protocol` prints.
pub fn describe() -> String {
    let mut out = String::new();
    for m in MEMBERS {
        out.push_str(&format!("member {} {} {}\n", m.owner, m.name, m.descriptor));
    }
    for a in [METHOD_MONITOR_GROUP, INFO_METHOD, TRACING_NAME, TF_ENHANCED, REDACTED] {
        out.push_str(&format!("annotation {}\n", &a[1..a.len() - 1]));
    }
    out.push_str(&format!("annotation {FILTERED_GROUP}\n"));
    for t in TIMING_POINT_TYPES {
        out.push_str(&format!("enum {TIMING_POINT_TYPE} {t}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joined_tracing_names_prefix_each_name_with_its_utf16_length() {
        let long = "x".repeat(1234);
        let names = ["", "a", "toString", "caf\u{e9}", "\u{1F600}", long.as_str(), "10:tricky", "0123456789"];
        let plain: String = names.iter().map(|n| format!("{}:{n}", n.encode_utf16().count())).collect();
        assert_eq!(joined_tracing_names(&names), plain);
        assert_eq!(joined_tracing_names(&["self", "toString"]), "4:self8:toString");
        assert_eq!(joined_tracing_names::<&str>(&[]), "");
    }

    #[test]
    fn what_only_generated_code_calls_is_in_the_support_package() {
        for support in [SYNCHRONIZED_HOLDER, ENHANCED_CODE_SUPPORT, GUARDED_SITES] {
            assert!(support.strip_prefix(SUPPORT_PACKAGE).is_some_and(|name| !name.contains('/')), "{support}");
        }
        for user in [METHOD_MONITOR, TIMING_POINT_TYPE] {
            assert!(user.strip_prefix(RUNTIME_PACKAGE).is_some_and(|name| !name.contains('/')), "{user}");
        }
        assert_eq!(HOLDER_FIELD_DESCRIPTOR, format!("L{SYNCHRONIZED_HOLDER};"));
        assert_eq!(HOLDER_FIELD_SIGNATURE, format!("L{SYNCHRONIZED_HOLDER}<L{METHOD_MONITOR};>;"));
        for m in MEMBERS {
            for (at, _) in m.descriptor.match_indices("Lorg/tracingfacility/") {
                let name = m.descriptor[at + 1..].split([';', '<']).next().unwrap();
                assert!(
                    [SYNCHRONIZED_HOLDER, ENHANCED_CODE_SUPPORT, GUARDED_SITES, METHOD_MONITOR, TIMING_POINT_TYPE]
                        .contains(&name),
                    "{name} in {m:?}"
                );
            }
        }
    }

    #[test]
    fn push_decimal_writes_every_magnitude() {
        for n in [0, 1, 9, 10, 99, 100, 65_535, 1_000_000, usize::MAX] {
            let mut out = String::from("<");
            push_decimal(&mut out, n);
            assert_eq!(out, format!("<{n}"));
        }
    }
}
