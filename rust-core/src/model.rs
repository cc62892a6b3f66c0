//! TF's view of one class: which TF groups it carries, which of its methods
//! are monitored or info methods, and their tracing names and identifiers.
//! Built from the class file alone; [`crate::validate`] judges it.
#![forbid(unsafe_code)]

use crate::classfile::descriptor::{self, split_method, JavaType};
use crate::classfile::{Annotation, ClassFile, ClassFileError, ElementValue, Member};
use crate::filter::{FilterSpec, MethodRef};
use crate::hierarchy::{self, Hierarchy};
use crate::protocol;
use crate::request::Diagnostic;
use crate::rule::Rule;
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::classfile::access::{ACC_ABSTRACT, ACC_BRIDGE, ACC_NATIVE, ACC_SYNTHETIC};

/// The TF annotation types known to a run (binary names): those found in the
/// scanned directory, their subgroups, and those on the class path.
#[derive(Debug, Clone, Default)]
pub struct Groups {
    names: BTreeSet<String>,
    /// Each name by its internal form (`com/ex/IO`), as annotation
    /// descriptors have it: every annotation of every method is looked up.
    by_internal_name: HashMap<String, String>,
}

impl Groups {
    /// The groups of these binary names.
    pub fn new(names: impl IntoIterator<Item = String>) -> Self {
        let names: BTreeSet<String> = names.into_iter().collect();
        let by_internal_name = names.iter().map(|n| (n.replace('.', "/"), n.clone())).collect();
        Groups { names, by_internal_name }
    }

    /// The group an annotation descriptor (`Lcom/ex/IO;`) names, if it is one.
    pub fn of_descriptor(&self, descriptor: &str) -> Option<&str> {
        let internal = descriptor::class_name(descriptor)?;
        self.by_internal_name.get(internal).map(String::as_str)
    }

    /// Resolves a group as a user writes it: a binary name, or a simple name
    /// that only one known group has.
    pub fn resolve(&self, written: &str) -> Result<String, String> {
        if self.names.contains(written) {
            return Ok(written.to_string());
        }
        let simple: Vec<&String> =
            self.names.iter().filter(|n| n.rsplit(['.', '$']).next() == Some(written)).collect();
        match simple.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(format!("'{written}' is not a TF annotation (an annotation type marked @MethodMonitorGroup)")),
            many => Err(format!(
                "'{written}' could be any of {}: write the full name",
                many.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
            )),
        }
    }

    /// Every group's binary name, sorted.
    pub fn names(&self) -> impl Iterator<Item = &String> {
        self.names.iter()
    }
}

/// A filter with its group resolved.
#[derive(Debug)]
pub struct Selection {
    /// The filter as parsed.
    pub spec: FilterSpec,
    /// Binary name of the group the selected methods join.
    pub group: String,
    /// Set once the filter selects a method with code in any class of the
    /// run (classes are modelled in parallel), so that the run can name the
    /// filters that selected nothing.
    matched: AtomicBool,
    /// Set once the filter names a method with code that its own TF
    /// annotation (or `@InfoMethod`) chose already, so that the warning for a
    /// filter that selected nothing does not blame dependencies then.
    named_annotated: AtomicBool,
}

impl Selection {
    /// `spec` with its group resolved to `group`, having matched nothing yet.
    pub fn new(spec: FilterSpec, group: String) -> Selection {
        Selection { spec, group, matched: AtomicBool::new(false), named_annotated: AtomicBool::new(false) }
    }

    /// Has the filter selected a method with code in a class modelled so far?
    pub fn has_matched(&self) -> bool {
        self.matched.load(Ordering::Relaxed)
    }

    /// Has the filter named a method that an annotation had chosen already?
    pub fn has_named_annotated(&self) -> bool {
        self.named_annotated.load(Ordering::Relaxed)
    }
}

/// What a method is to TF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role<'a> {
    /// Monitored under a group.
    Monitored {
        /// Binary name of the group.
        group: &'a str,
        /// A filter, not an annotation, chose it.
        selected: bool,
    },
    /// An `@InfoMethod`.
    Info {
        /// `tpType`: the name of a `TimingPointType` constant, `NONE` when not given.
        tp_type: String,
        /// `tpName`, empty when not given.
        tp_name: String,
    },
}

/// A monitored or info method. Its texts borrow from the class file and
/// the run's groups and filters: most are never copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TfMethod<'a> {
    /// Index in the class's method table.
    pub index: usize,
    /// Method name.
    pub name: Cow<'a, str>,
    /// Method descriptor.
    pub descriptor: Cow<'a, str>,
    /// Access flags, as in the class file.
    pub access_flags: u16,
    /// Monitored or info method, and under what.
    pub role: Role<'a>,
    /// `@TracingName`, if given.
    pub explicit_tracing_name: Option<Cow<'a, str>>,
    /// The name its monitor knows it by: `@TracingName`, else the method name;
    /// for a method a filter selected, parameter types (and the return type)
    /// are added when its name alone would clash with another's.
    pub tracing_name: Cow<'a, str>,
    /// The index of its tracing name in [`TfClass::tracing_names`], which
    /// lists the names of the methods with code (0 for the others).
    pub identifier: usize,
    /// Every TF annotation on the method (more than one is an error).
    pub tf_annotations: Vec<&'a str>,
    /// Slot indexes in the boxed argument array whose values are `@Redacted`.
    pub redacted_parameters: Vec<usize>,
}

impl TfMethod<'_> {
    /// Chosen by a filter only: TF may leave it as it is when it cannot enhance it.
    pub fn is_selected(&self) -> bool {
        matches!(self.role, Role::Monitored { selected: true, .. })
    }

    /// Name and descriptor (`run(I)V`), how messages name the method.
    pub fn signature(&self) -> String {
        format!("{}{}", self.name, self.descriptor)
    }

    /// Monitored, by an annotation or a filter.
    pub fn is_monitored(&self) -> bool {
        matches!(self.role, Role::Monitored { .. })
    }

    /// An info method.
    pub fn is_info(&self) -> bool {
        matches!(self.role, Role::Info { .. })
    }
}

/// `@TFEnhanced` as found on a class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnhancedMark {
    /// The `stage` element: how far TF enhanced the class
    /// ([`protocol::STAGE_SCHEMA`], [`protocol::STAGE_TRACEGEN`]).
    pub stage: i32,
    /// The `fingerprint` element: the fingerprint of the settings it was
    /// enhanced with (empty when absent).
    pub fingerprint: String,
}

/// TF's view of a class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TfClass<'a> {
    /// Internal name (`com/ex/Foo`).
    pub internal_name: Cow<'a, str>,
    /// TF annotations on the class itself.
    pub class_groups: Vec<&'a str>,
    /// Groups of the holder fields: the class's own plus those filters bring, sorted.
    pub holder_groups: Vec<&'a str>,
    /// The monitored and info methods that have code.
    pub methods: Vec<TfMethod<'a>>,
    /// Methods that carry a TF annotation or `@InfoMethod` but cannot be
    /// enhanced (abstract, native): kept for the validator's message.
    pub without_code: Vec<TfMethod<'a>>,
    /// The sorted tracing names; a method's identifier is its index here.
    pub tracing_names: Vec<Cow<'a, str>>,
    /// `@TFEnhanced`, when the class carries it.
    pub enhanced: Option<EnhancedMark>,
}

impl TfClass<'_> {
    /// Binary name (`com.ex.Foo`).
    pub fn binary_name(&self) -> String {
        self.internal_name.replace('/', ".")
    }

    /// Is there anything for TF to do or check in this class?
    pub fn is_relevant(&self) -> bool {
        !self.class_groups.is_empty() || !self.methods.is_empty() || !self.without_code.is_empty()
    }
}

impl<'a> TfClass<'a> {
    /// The class without the methods at `indexes` (in the class's method
    /// table): TF leaves them as they are. The others keep their tracing
    /// names; identifiers and holder groups follow from the methods left.
    pub fn without(&mut self, indexes: &[usize]) {
        let before = self.methods.len();
        self.methods.retain(|m| !indexes.contains(&m.index));
        // Every class passes here once validated, nearly all with nothing
        // left out: what follows from the methods stands as it was.
        if self.methods.len() == before {
            return;
        }
        self.holder_groups = holder_groups(&self.class_groups, &self.methods);
        self.tracing_names = number_tracing_names(&mut self.methods);
    }
}

/// The groups of the holder fields: the class's own and its monitored methods', sorted.
fn holder_groups<'a>(class_groups: &[&'a str], methods: &[TfMethod<'a>]) -> Vec<&'a str> {
    let mut groups: Vec<&str> = class_groups.to_vec();
    // Most methods of a class share their group (a filter's, say): it is
    // left out where it repeats the one before, so that few are sorted.
    for m in methods {
        if let Role::Monitored { group, .. } = m.role {
            if !groups.last().is_some_and(|last| std::ptr::eq(*last, group) || *last == group) {
                groups.push(group);
            }
        }
    }
    groups.sort_unstable();
    groups.dedup();
    groups
}

/// What filters are asked about the class of a method.
#[derive(Clone, Copy)]
struct ClassFacts<'f> {
    /// Binary name.
    name: &'f str,
    /// Binary names of the annotations on the class.
    annotations: &'f [String],
    /// Binary names of its supertypes, when a filter selects by them (`T+`).
    supertypes: &'f [String],
}

/// Builds the TF view of `class`; `hierarchy` tells the supertypes its class
/// file does not name (none known without it).
pub fn build<'a>(
    class: &ClassFile<'a>,
    groups: &'a Groups,
    selections: &'a [Selection],
    hierarchy: Option<&Hierarchy>,
) -> Result<TfClass<'a>, ClassFileError> {
    let internal_name = class.this_class()?;
    let binary_name = internal_name.replace('/', ".");
    let class_annotations = class.annotations()?;
    let class_annotation_names: Vec<String> =
        class_annotations.iter().filter_map(|a| descriptor_to_binary(&a.type_descriptor)).collect();
    // Only a `T+` target asks, and most runs have none.
    let supertypes = if selections.iter().any(|s| s.spec.names_supertypes()) {
        hierarchy::supertypes(class, &binary_name, hierarchy)?
    } else {
        Vec::new()
    };
    let facts = ClassFacts { name: &binary_name, annotations: &class_annotation_names, supertypes: &supertypes };
    let class_groups: Vec<&str> =
        class_annotations.iter().filter_map(|a| groups.of_descriptor(&a.type_descriptor)).collect();
    let enhanced = enhanced_mark(&class_annotations);

    let mut methods = Vec::with_capacity(class.methods().len());
    let mut without_code = Vec::new();
    for (index, member) in class.methods().iter().enumerate() {
        // A bridge forwards to the real method (javac copies its annotations
        // onto the bridge): monitoring both would report every call twice.
        if member.access_flags & ACC_BRIDGE != 0 {
            continue;
        }
        let Some(method) =
            method_role(class, member, index, groups, selections, facts)?
        else {
            continue;
        };
        let has_code = member.access_flags & (ACC_ABSTRACT | ACC_NATIVE) == 0;
        match (&method.role, has_code) {
            (_, true) => methods.push(method),
            // Filters never select what has no bytecode (as in JEP 520).
            (Role::Monitored { selected: true, .. }, false) => {}
            (_, false) => without_code.push(method),
        }
    }
    name_selected_overloads(&mut methods);

    let holder_groups = holder_groups(&class_groups, &methods);
    let tracing_names = number_tracing_names(&mut methods);
    Ok(TfClass {
        internal_name,
        class_groups,
        holder_groups,
        methods,
        without_code,
        tracing_names,
        enhanced,
    })
}

/// The methods' tracing names, sorted and unique (a sorted vector needs one
/// allocation, a set one per name), each method given the index of its
/// own: sorting the methods by name finds both, where finding each
/// method's name again would compare as many texts as the sort.
fn number_tracing_names<'a>(methods: &mut [TfMethod<'a>]) -> Vec<Cow<'a, str>> {
    // Sorted by the names' first eight bytes as one number (they order as
    // the texts do) and by the whole texts only where those tie: most names
    // differ early, and two numbers compare for much less than two texts.
    let mut order: Vec<(u64, usize)> =
        methods.iter().enumerate().map(|(i, m)| (leading_bytes(&m.tracing_name), i)).collect();
    order.sort_unstable_by(|&(a_key, a), &(b_key, b)| {
        a_key.cmp(&b_key).then_with(|| methods[a].tracing_name.cmp(&methods[b].tracing_name))
    });
    let mut names: Vec<Cow<'a, str>> = Vec::with_capacity(methods.len());
    for (_, i) in order {
        let method = &mut methods[i];
        if names.last() != Some(&method.tracing_name) {
            names.push(method.tracing_name.clone());
        }
        method.identifier = names.len() - 1;
    }
    names
}

/// A name to sort by, ordered as the name is: first by its leading bytes
/// (most names differ there, and two numbers compare for much less than two
/// texts), then by the whole text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct NameKey<'n>(u64, &'n str);

impl<'n> NameKey<'n> {
    fn of(name: &'n str) -> Self {
        NameKey(leading_bytes(name), name)
    }
}

/// The first eight bytes of `text` as a big-endian number, zeros past its
/// end: of two texts, the one with the smaller number sorts first (equal
/// numbers tell nothing).
pub(crate) fn leading_bytes(text: &str) -> u64 {
    let mut leading = [0u8; 8];
    let n = text.len().min(8);
    leading[..n].copy_from_slice(&text.as_bytes()[..n]);
    u64::from_be_bytes(leading)
}

fn method_role<'a>(
    class: &ClassFile<'a>,
    member: &Member<'a>,
    index: usize,
    groups: &'a Groups,
    selections: &'a [Selection],
    facts: ClassFacts<'_>,
) -> Result<Option<TfMethod<'a>>, ClassFileError> {
    let annotated = may_carry_annotations(member);
    let annotations = if annotated { class.member_annotations(member)? } else { Vec::new() };
    let tf_annotations: Vec<&str> =
        annotations.iter().filter_map(|a| groups.of_descriptor(&a.type_descriptor)).collect();
    let info = annotations.iter().find(|a| a.type_descriptor == protocol::INFO_METHOD);
    let explicit_tracing_name = annotations
        .iter()
        .find(|a| a.type_descriptor == protocol::TRACING_NAME)
        .and_then(|a| match a.element("value") {
            Some(ElementValue::String(s)) => Some(s.clone()),
            _ => None,
        });
    let name = member.name()?;
    if info.is_some() || !tf_annotations.is_empty() {
        note_filters_naming_annotated(member, selections, facts, &name, &annotations);
    }
    let role = if let Some(info) = info {
        Role::Info { tp_type: enum_element(info, "tpType").unwrap_or_else(|| "NONE".into()), tp_name: string_element(info, "tpName") }
    } else if let Some(&group) = tf_annotations.first() {
        Role::Monitored { group, selected: false }
    } else if let Some(group) = selected_group(member, selections, facts, &name, &annotations) {
        Role::Monitored { group, selected: true }
    } else {
        return Ok(None);
    };
    let redacted_parameters = if annotated {
        class
            .parameter_annotations(member)?
            .iter()
            .enumerate()
            .filter(|(_, anns)| anns.iter().any(|a| a.type_descriptor == protocol::REDACTED))
            .map(|(i, _)| i)
            .collect()
    } else {
        Vec::new()
    };
    let descriptor = member.descriptor()?;
    let tracing_name = explicit_tracing_name.clone().unwrap_or_else(|| name.clone());
    Ok(Some(TfMethod {
        index,
        name,
        descriptor,
        access_flags: member.access_flags,
        role,
        explicit_tracing_name,
        tracing_name,
        identifier: 0,
        tf_annotations,
        redacted_parameters,
    }))
}

/// Whether any attribute of `member` may hold annotations: every annotation
/// attribute's name starts with `Runtime`. Most methods carry none, and their
/// attributes are then looked through once, not once per kind of annotation.
fn may_carry_annotations(member: &Member<'_>) -> bool {
    member.attributes.iter().any(|a| a.name.starts_with(b"Runtime"))
}

/// Marks the filters that name a method its annotation chose already: they
/// select nothing there (the annotation decides the group), and the warning
/// that they selected nothing should say so.
fn note_filters_naming_annotated(
    member: &Member<'_>,
    selections: &[Selection],
    facts: ClassFacts<'_>,
    method_name: &str,
    method_annotations: &[Annotation<'_>],
) {
    let has_code = member.access_flags & (ACC_ABSTRACT | ACC_NATIVE) == 0;
    if !has_code || selections.iter().all(|s| s.has_matched() || s.has_named_annotated()) {
        return; // nothing left to learn (the common case after the first classes)
    }
    for_each_match(member, selections, facts, method_name, method_annotations, |selection| {
        selection.named_annotated.store(true, Ordering::Relaxed);
    });
}

fn selected_group<'s>(
    member: &Member<'_>,
    selections: &'s [Selection],
    facts: ClassFacts<'_>,
    method_name: &str,
    method_annotations: &[Annotation<'_>],
) -> Option<&'s str> {
    // Every filter that matches is marked (not only the first, whose group
    // the method joins), so a filter is reported unused only when it is.
    let has_code = member.access_flags & (ACC_ABSTRACT | ACC_NATIVE) == 0;
    let mut chosen = None;
    for_each_match(member, selections, facts, method_name, method_annotations, |selection| {
        if has_code {
            selection.matched.store(true, Ordering::Relaxed);
        }
        chosen = chosen.or(Some(selection.group.as_str()));
    });
    chosen
}

/// Calls `found` with each filter that matches the method, in order.
fn for_each_match<'s>(
    member: &Member<'_>,
    selections: &'s [Selection],
    facts: ClassFacts<'_>,
    method_name: &str,
    method_annotations: &[Annotation<'_>],
    mut found: impl FnMut(&'s Selection),
) {
    // Bridges forward to the real method, and synthetic methods have no source.
    if member.access_flags & (ACC_BRIDGE | ACC_SYNTHETIC) != 0 || selections.is_empty() {
        return;
    }
    // Their binary names only for a filter that asks for annotations.
    let method_annotations: Vec<String> = if selections.iter().any(|s| s.spec.names_annotations()) {
        method_annotations.iter().filter_map(|a| descriptor_to_binary(&a.type_descriptor)).collect()
    } else {
        Vec::new()
    };
    let reference = MethodRef {
        class: facts.name,
        method: method_name,
        class_annotations: facts.annotations,
        method_annotations: &method_annotations,
        supertypes: facts.supertypes,
    };
    selections.iter().filter(|s| s.spec.matches(&reference)).for_each(&mut found);
}

/// Overloads that a filter selected (and that have no `@TracingName`) are told
/// apart by their parameter types, `write(int)`, `write(byte[],int,int)`:
/// the spec's rule that overloads need distinct tracing names would otherwise
/// make every filter over real code fail. Simple type names where they tell
/// the overloads apart; where two overloads' simple names are the same, those
/// overloads get qualified names, `stream(java.util.Optional)` and
/// `stream(com.google.common.base.Optional)`. The names depend on the class
/// alone, so every build gives the same ones.
fn name_selected_overloads(methods: &mut [TfMethod]) {
    // Runs for every class: the names are counted borrowed, and only the
    // methods whose tracing name changes allocate.
    let overloaded = repeated(methods.iter().map(|m| &*m.name));
    let mut renamed = false;
    for (m, overloaded) in methods.iter_mut().zip(overloaded) {
        if m.is_selected() && m.explicit_tracing_name.is_none() && overloaded {
            m.tracing_name = with_parameters(&m.name, &m.descriptor, false).into();
            renamed = true;
        }
    }
    // With every tracing name still the method's name, a clash below is an
    // overload above, and those were all renamed: nothing more to do.
    if !renamed && methods.iter().all(|m| m.explicit_tracing_name.is_none()) {
        return;
    }
    if renamed {
        qualify_clashing_parameters(methods);
    }
    // Overloads that differ only in their return type (the JVM allows them;
    // generated code has them) need it in the name too.
    let clashing = repeated(methods.iter().map(|m| &*m.tracing_name));
    for (m, clashing) in methods.iter_mut().zip(clashing) {
        if m.is_selected() && m.explicit_tracing_name.is_none() && clashing {
            let returns = split_method(&m.descriptor).map_or("V", |(_, returns)| returns);
            m.tracing_name = format!("{}:{}", m.tracing_name, readable_types(returns, false)).into();
        }
    }
}

/// Renamed overloads whose parameter lists read the same with simple type
/// names but are not the same get qualified type names. (Overloads with the
/// same parameters, told apart by their return types below, keep simple ones.)
fn qualify_clashing_parameters(methods: &mut [TfMethod]) {
    let renamed = |m: &TfMethod| m.is_selected() && m.explicit_tracing_name.is_none() && m.tracing_name != m.name;
    // The renamed methods with their parameters, those of one tracing name
    // side by side: a name whose methods' parameters differ is qualified.
    let mut order: Vec<(NameKey, &str, usize)> = methods
        .iter()
        .enumerate()
        .filter(|(_, m)| renamed(m))
        .map(|(i, m)| (NameKey::of(&m.tracing_name), split_method(&m.descriptor).map_or("", |(p, _)| p), i))
        .collect();
    order.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut qualify = vec![false; methods.len()];
    for same_name in order.chunk_by(|a, b| a.0 == b.0) {
        if same_name.iter().any(|m| m.1 != same_name[0].1) {
            same_name.iter().for_each(|m| qualify[m.2] = true);
        }
    }
    for (m, qualify) in methods.iter_mut().zip(qualify) {
        if qualify {
            m.tracing_name = with_parameters(&m.name, &m.descriptor, true).into();
        }
    }
}

/// For each name, whether it occurs more than once (every class of a
/// filtered run asks twice). The names sorted by their first eight bytes
/// as one number, by the whole texts only where those tie, bring equal
/// names side by side: most differ early, and two numbers compare for less
/// than a text is hashed.
fn repeated<'n>(names: impl ExactSizeIterator<Item = &'n str>) -> Vec<bool> {
    let mut repeated = vec![false; names.len()];
    let mut order: Vec<(NameKey, usize)> = names.enumerate().map(|(i, name)| (NameKey::of(name), i)).collect();
    order.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    for pair in order.windows(2) {
        if pair[0].0 == pair[1].0 {
            repeated[pair[0].1] = true;
            repeated[pair[1].1] = true;
        }
    }
    repeated
}

/// `write` and `(I[BLjava/lang/String;)V` → `write(int,byte[],String)`
/// (`qualified`: `…,java.lang.String)`), written in one string as the
/// descriptor is read: every selected overload of every class is named so.
/// A descriptor whose parameters do not read as types lists none.
fn with_parameters(name: &str, descriptor: &str, qualified: bool) -> String {
    let mut out = String::with_capacity(name.len() + descriptor.len() + 18);
    out.push_str(name);
    out.push('(');
    let start = out.len();
    let rest = push_types_read(&mut out, descriptor.strip_prefix('(').unwrap_or_default(), qualified);
    if !rest.starts_with(')') {
        out.truncate(start);
    }
    out.push(')');
    out
}

/// `(I[BLjava/lang/String;)V` → `int,byte[],String`.
pub fn readable_parameters(descriptor: &str) -> String {
    readable_types(split_method(descriptor).map_or("", |(parameters, _)| parameters), false)
}

/// `(I[BLjava/lang/String;)V` → `int,byte[],java.lang.String`.
pub fn qualified_parameters(descriptor: &str) -> String {
    readable_types(split_method(descriptor).map_or("", |(parameters, _)| parameters), true)
}

/// `I[BLjava/lang/String;` → `int,byte[],String` (`qualified`:
/// `…,java.lang.String`); from the first text that starts no type on, the
/// text as it is (the descriptors given here hold only types).
fn readable_types(types: &str, qualified: bool) -> String {
    let mut out = String::with_capacity(types.len() + 16);
    push_readable_types(&mut out, types, qualified);
    out
}

/// [`readable_types`] added to `out`.
fn push_readable_types(out: &mut String, types: &str, qualified: bool) {
    let rest = push_types_read(out, types, qualified);
    out.push_str(rest);
}

/// The types `text` begins with, readable and separated by commas, added to
/// `out`; the rest of `text` from the first place that starts no type (a
/// method descriptor's `)`, its end, or what is not a descriptor).
fn push_types_read<'t>(out: &mut String, text: &'t str, qualified: bool) -> &'t str {
    let mut rest = text;
    while let Some((t, after)) = descriptor::split_type(rest) {
        if rest.len() != text.len() {
            out.push(',');
        }
        push_readable_type(out, t, qualified);
        rest = after;
    }
    rest
}

/// One type as a user reads it: `int`, `String[]` (`qualified`: `java.lang.String[]`).
fn push_readable_type(out: &mut String, t: JavaType<'_>, qualified: bool) {
    let (dims, element) = match t {
        JavaType::Reference(array) if array.starts_with('[') => descriptor::array_element(array).unwrap_or((0, t)),
        _ => (0, t),
    };
    match element {
        // Binary names, as a user writes them: `java.util.Map$Entry`.
        JavaType::Reference(name) if qualified => {
            for (i, part) in name.split('/').enumerate() {
                if i > 0 {
                    out.push('.');
                }
                out.push_str(part);
            }
        }
        JavaType::Reference(name) => out.push_str(name.rsplit('/').next().unwrap_or("")),
        primitive => out.push_str(primitive.keyword().unwrap_or_default()),
    }
    for _ in 0..dims {
        out.push_str("[]");
    }
}

/// The `@TFEnhanced` mark among a class's annotations, if it carries one.
pub fn enhanced_mark(annotations: &[Annotation<'_>]) -> Option<EnhancedMark> {
    let a = annotations.iter().find(|a| a.type_descriptor == protocol::TF_ENHANCED)?;
    let stage = match a.element(protocol::TF_ENHANCED_STAGE) {
        Some(ElementValue::Int(s)) => *s,
        _ => 0,
    };
    Some(EnhancedMark { stage, fingerprint: string_element(a, protocol::TF_ENHANCED_FINGERPRINT) })
}

fn enum_element(a: &Annotation<'_>, name: &str) -> Option<String> {
    match a.element(name) {
        Some(ElementValue::Enum { name, .. }) => Some(name.to_string()),
        _ => None,
    }
}

fn string_element(a: &Annotation<'_>, name: &str) -> String {
    match a.element(name) {
        Some(ElementValue::String(s)) => s.to_string(),
        _ => String::new(),
    }
}

/// `Lcom/ex/IO;` → `com.ex.IO`.
pub fn descriptor_to_binary(descriptor: &str) -> Option<String> {
    descriptor::class_name(descriptor).map(|n| n.replace('/', "."))
}

/// Parses every `-filter` and resolves its group; every bad filter is reported.
pub fn resolve_filters(filters: &[String], groups: &Groups) -> Result<Vec<Selection>, Vec<Diagnostic>> {
    let mut selections = Vec::new();
    let mut errors = Vec::new();
    let filter_error = |message: String| Diagnostic { rule: Rule::Filter, message, ..Diagnostic::default() };
    for text in filters {
        let spec = match FilterSpec::parse(text) {
            Ok(spec) => spec,
            Err(e) => {
                errors.push(filter_error(e.to_string()));
                continue;
            }
        };
        let group = match &spec.group {
            Some(written) => match groups.resolve(written) {
                Ok(g) => g,
                Err(message) => {
                    errors.push(filter_error(format!("filter '{text}': {message}")));
                    continue;
                }
            },
            None => protocol::FILTERED_GROUP.replace('/', "."), // always among `groups`
        };
        selections.push(Selection::new(spec, group));
    }
    if errors.is_empty() {
        Ok(selections)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn method<'a>(name: &'a str, descriptor: &'a str, selected: bool, explicit: Option<&'a str>) -> TfMethod<'a> {
        TfMethod {
            index: 0,
            name: name.into(),
            descriptor: descriptor.into(),
            access_flags: 0,
            role: Role::Monitored { group: "g.G", selected },
            explicit_tracing_name: explicit.map(Cow::Borrowed),
            tracing_name: explicit.unwrap_or(name).into(),
            identifier: 0,
            tf_annotations: Vec::new(),
            redacted_parameters: Vec::new(),
        }
    }

    fn tracing_names(mut methods: Vec<TfMethod>) -> Vec<String> {
        name_selected_overloads(&mut methods);
        methods.into_iter().map(|m| m.tracing_name.into_owned()).collect()
    }

    #[test]
    fn selected_overloads_and_clashes_get_told_apart() {
        // Overloads get their parameters; overloads by result alone, their result too.
        let overloads = vec![method("w", "(I)V", true, None), method("w", "(Ljava/lang/String;)V", true, None)];
        assert_eq!(tracing_names(overloads), ["w(int)", "w(String)"]);
        // Simple names that clash: those overloads get qualified names, the others keep simple ones.
        let optionals = vec![
            method("stream", "(Ljava/util/Optional;)Ljava/util/stream/Stream;", true, None),
            method("stream", "(Lcom/google/common/base/Optional;)Ljava/util/stream/Stream;", true, None),
            method("stream", "(Ljava/util/Iterator;)Ljava/util/stream/Stream;", true, None),
            method("stream", "([Ljava/util/Map$Entry;[Lp/Map$Entry;)V", true, None),
            method("stream", "([Lq/Map$Entry;[Lp/Map$Entry;)V", true, None),
        ];
        assert_eq!(
            tracing_names(optionals),
            [
                "stream(java.util.Optional)",
                "stream(com.google.common.base.Optional)",
                "stream(Iterator)",
                "stream(java.util.Map$Entry[],p.Map$Entry[])",
                "stream(q.Map$Entry[],p.Map$Entry[])",
            ]
        );
        // Same parameters, other results: no qualification, the result tells them apart.
        let same_parameters = vec![
            method("m", "(Ljava/lang/Object;)I", true, None),
            method("m", "(Ljava/lang/Object;)J", true, None),
            method("m", "(I)V", true, None),
        ];
        assert_eq!(tracing_names(same_parameters), ["m(Object):int", "m(Object):long", "m(int)"]);
        let by_result = vec![method("m", "()I", true, None), method("m", "()J", true, None)];
        assert_eq!(tracing_names(by_result), ["m():int", "m():long"]);
        // No overload, but an annotated method took the name with @TracingName.
        let taken = vec![method("read", "()V", true, None), method("load", "()V", false, Some("read"))];
        assert_eq!(tracing_names(taken), ["read:V", "read"]);
        // Nothing to tell apart: names stay as they are.
        let plain = vec![method("a", "()V", true, None), method("b", "()V", false, Some("c"))];
        assert_eq!(tracing_names(plain), ["a", "c"]);
    }

    #[test]
    fn each_method_gets_the_index_of_its_tracing_name_among_the_sorted_unique_names() {
        // Two methods share "b" (an info method and a monitored one may).
        let mut methods = vec![
            method("c", "()V", false, None),
            method("x", "()V", false, Some("b")),
            method("a", "()V", false, None),
            method("b", "()V", false, None),
        ];
        let names = number_tracing_names(&mut methods);
        assert_eq!(names, ["a", "b", "c"]);
        let identifiers: Vec<usize> = methods.iter().map(|m| m.identifier).collect();
        assert_eq!(identifiers, [2, 1, 0, 1]);
        assert_eq!(number_tracing_names(&mut []), Vec::<String>::new());
    }

    #[test]
    fn tracing_names_sort_as_texts_whatever_their_first_eight_bytes() {
        // Names that tie on their first eight bytes, one a prefix of
        // another, one with a NUL (modified UTF-8 allows it), and non-ASCII.
        let texts = ["readAllBytes", "readAll", "readAllBytes\0", "readAll\0x", "read", "", "é", "z", "readAllBytez", "read\0"];
        let mut methods: Vec<TfMethod> = texts.iter().map(|t| method(t, "()V", false, None)).collect();
        let names = number_tracing_names(&mut methods);
        let mut sorted: Vec<&str> = texts.to_vec();
        sorted.sort();
        assert_eq!(names, sorted);
        for (m, text) in methods.iter().zip(texts) {
            assert_eq!(names[m.identifier], text);
        }
    }

    #[test]
    fn names_repeat_as_counted_whatever_their_first_eight_bytes() {
        // Ties on the first eight bytes, prefixes, a NUL, non-ASCII, the empty name.
        let names = ["readAllBytes", "readAll", "readAllBytes", "readAll\0", "readAll", "", "é", "readAllBytez", "", "é"];
        let counted: Vec<bool> = names.iter().map(|n| names.iter().filter(|m| *m == n).count() > 1).collect();
        assert_eq!(repeated(names.iter().copied()), counted);
        assert_eq!(repeated(std::iter::empty()), Vec::<bool>::new());
    }

    #[test]
    fn overload_names_read_as_the_parameters_split_from_the_descriptor() {
        let descriptors = [
            "()V",
            "(I[BLjava/lang/String;[[J)V",
            "([[Ljava/util/Map$Entry;ZCDFS)I",
            "(Lp/a)b;I)V",
            "(Lp/Unterminated)V",
            "(I",
            "I)V",
            "",
            "(Q)V",
            "(I)",
        ];
        for descriptor in descriptors {
            for qualified in [false, true] {
                let parameters = split_method(descriptor).map_or("", |(parameters, _)| parameters);
                let expected = format!("m({})", readable_types(parameters, qualified));
                assert_eq!(with_parameters("m", descriptor, qualified), expected, "{descriptor} {qualified}");
            }
        }
    }

    #[test]
    fn every_annotation_attribute_is_one_a_method_may_carry() {
        use crate::classfile::attribute_name as name;
        // What may_carry_annotations relies on to skip a method's annotations.
        for attribute in [
            name::RUNTIME_VISIBLE_ANNOTATIONS,
            name::RUNTIME_INVISIBLE_ANNOTATIONS,
            name::RUNTIME_VISIBLE_PARAMETER_ANNOTATIONS,
            name::RUNTIME_INVISIBLE_PARAMETER_ANNOTATIONS,
        ] {
            assert!(attribute.starts_with("Runtime"), "{attribute}");
        }
    }

    #[test]
    fn readable_parameter_lists() {
        assert_eq!(readable_parameters("()V"), "");
        assert_eq!(readable_parameters("(I[BLjava/lang/String;[[J)V"), "int,byte[],String,long[][]");
        assert_eq!(readable_parameters("(LFoo;[Ljava/util/Map$Entry;ZCDFS)V"), "Foo,Map$Entry[],boolean,char,double,float,short");
        assert_eq!(readable_parameters("(Lp/a)b;I)V"), "a)b,int");
        // Malformed: enhancing the method reports it; its name lists nothing.
        assert_eq!(readable_parameters("(Lp/Unterminated)V"), "");
        assert_eq!(qualified_parameters("(I[Ljava/util/Map$Entry;LFoo;)V"), "int,java.util.Map$Entry[],Foo");
    }

    #[test]
    fn groups_resolve_by_full_or_unique_simple_name() {
        let g = Groups::new(["a.IO".to_string(), "b.IO".to_string(), "a.Timing".to_string()]);
        assert_eq!(g.resolve("a.IO").unwrap(), "a.IO");
        assert_eq!(g.resolve("Timing").unwrap(), "a.Timing");
        assert!(g.resolve("IO").unwrap_err().contains("could be any of a.IO, b.IO"));
        assert!(g.resolve("Nope").unwrap_err().contains("is not a TF annotation"));
        assert_eq!(g.of_descriptor("La/IO;"), Some("a.IO"));
        assert_eq!(g.of_descriptor("La/Other;"), None);
    }
}
