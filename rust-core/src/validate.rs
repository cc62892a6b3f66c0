//! The spec's rules for TF classes. Every offence is reported, each naming the
//! class, the method and the rule; one offence anywhere fails the whole run.
#![forbid(unsafe_code)]

use crate::rule::Rule;
use crate::classfile::{ClassFile, ClassFileError, CodeModel, Insn, PoolBuilder};
use crate::classfile::opcodes::{INVOKESPECIAL, INVOKESTATIC, INVOKEVIRTUAL, RETURN};
use crate::classfile::access::{ACC_ABSTRACT, ACC_BRIDGE, ACC_NATIVE, ACC_PRIVATE, ACC_STATIC, ACC_SYNTHETIC};
use crate::model::{leading_bytes, Role, TfClass, TfMethod};
use crate::request::Diagnostic;
use std::collections::BTreeMap;


/// Checks `tf` (built from `class`); returns every offence.
pub fn validate(class: &ClassFile<'_>, tf: &TfClass) -> Result<Vec<Diagnostic>, ClassFileError> {
    let mut out = Offences { tf, list: Vec::new() };
    for m in &tf.without_code {
        let what = if m.is_info() { "an info method" } else { "a monitored method" };
        out.add(m, Rule::MethodWithoutCode, format!("{what} must have a body: abstract and native methods cannot be enhanced"));
    }
    for m in &tf.methods {
        check_annotations(tf, m, &mut out);
        if m.is_info() && tf.enhanced.is_none() {
            check_info_method(class, m, &mut out)?;
        }
    }
    check_overloads(class, tf, &mut out)?;
    check_tracing_names(tf, &mut out);
    check_info_calls(class, tf, &mut out)?;
    Ok(out.list)
}

/// What the spec allows but is most likely a mistake, one warning each: a
/// class carrying a TF group with no monitored or info method. The spec
/// selects methods by their own annotations; the class's annotation only
/// names the groups its methods may use, so alone it traces nothing.
/// (Selecting every method of an annotated class is a filter's job: `@Group`.)
pub fn advice(tf: &TfClass) -> Vec<Diagnostic> {
    if tf.class_groups.is_empty() || !tf.methods.is_empty() || !tf.without_code.is_empty() {
        return Vec::new();
    }
    let groups = tf.class_groups.iter().map(|g| format!("@{g}")).collect::<Vec<_>>().join(", ");
    vec![Diagnostic {
        file: None,
        class: Some(tf.binary_name()),
        method: None,
        rule: Rule::GroupOnClassOnly,
        message: format!(
            "the class carries {groups} but none of its methods does, so nothing in it is traced: annotate the \
             methods to trace, or select them all with the filter '@{}'",
            tf.class_groups[0]
        ),
    }]
}

struct Offences<'t> {
    /// The class, named only in an offence: most classes have none.
    tf: &'t TfClass<'t>,
    list: Vec<Diagnostic>,
}

impl Offences<'_> {
    fn add(&mut self, m: &TfMethod, rule: Rule, message: String) {
        self.add_for(Some(m.signature()), rule, message);
    }

    fn add_for(&mut self, method: Option<String>, rule: Rule, message: String) {
        self.list.push(Diagnostic { file: None, class: Some(self.tf.binary_name()), method, rule, message });
    }
}

fn check_annotations(tf: &TfClass, m: &TfMethod, out: &mut Offences) {
    if m.tf_annotations.len() > 1 {
        out.add(m, Rule::MultipleTfAnnotations, format!("a method may carry one TF annotation, this one has {}", m.tf_annotations.join(", ")));
    }
    match &m.role {
        Role::Info { .. } if !m.tf_annotations.is_empty() => {
            out.add(m, Rule::InfoMethodWithTfAnnotation, format!("@InfoMethod cannot be combined with a TF annotation ({})", m.tf_annotations.join(", ")));
        }
        Role::Monitored { selected: false, .. } => {
            for group in &m.tf_annotations {
                if !tf.class_groups.contains(group) {
                    out.add(m, Rule::TfAnnotationMissingOnClass, format!("the method is annotated @{group}, so its class must be too"));
                }
            }
        }
        _ => {}
    }
}

fn check_info_method(class: &ClassFile<'_>, m: &TfMethod, out: &mut Offences) -> Result<(), ClassFileError> {
    if m.access_flags & ACC_PRIVATE == 0 {
        out.add(m, Rule::InfoMethodNotPrivate, "an info method must be private".into());
    }
    if m.access_flags & ACC_STATIC != 0 {
        out.add(m, Rule::InfoMethodStatic, "an info method must not be static".into());
    }
    if !m.descriptor.ends_with(")V") {
        out.add(m, Rule::InfoMethodNotVoid, "an info method must return void".into());
    }
    let member = &class.methods()[m.index];
    if let Some(code) = class.code(member)? {
        if code.code != [RETURN] {
            out.add(m, Rule::InfoMethodHasBody, "an info method must have an empty body: TF replaces it".into());
        }
    }
    Ok(())
}

/// Overloading is all or nothing: all overloads of a name monitored, or all
/// info methods, or none; and TF overloads need distinct tracing names.
fn check_overloads(class: &ClassFile<'_>, tf: &TfClass, out: &mut Offences) -> Result<(), ClassFileError> {
    // What TF made of each method, by index (the first entry of a method counts).
    let mut by_index: Vec<Option<&TfMethod>> = vec![None; class.methods().len()];
    for m in tf.methods.iter().chain(&tf.without_code) {
        if let Some(slot) = by_index.get_mut(m.index) {
            slot.get_or_insert(m);
        }
    }
    // Every method by name, a method's overloads in index order: one sort,
    // where a map would allocate a list per name for every class. Sorted by
    // the names' first eight bytes as one number first, the texts compared
    // only where those tie.
    let mut by_name: Vec<(u64, std::borrow::Cow<'_, str>, usize, Option<&TfMethod>)> =
        Vec::with_capacity(class.methods().len());
    for (index, member) in class.methods().iter().enumerate() {
        // Bridges and other compiler-made methods are not the user's overloads.
        if member.access_flags & (ACC_BRIDGE | ACC_SYNTHETIC) != 0 {
            continue;
        }
        let tf_method = by_index.get(index).copied().flatten();
        // Methods without code can never be monitored: an unannotated abstract
        // overload does not make its monitored siblings "mixed".
        if tf_method.is_none() && member.access_flags & (ACC_ABSTRACT | ACC_NATIVE) != 0 {
            continue;
        }
        // The model decoded the names of its methods already.
        let name = match tf_method {
            Some(m) => m.name.clone(),
            None => member.name()?,
        };
        by_name.push((leading_bytes(&name), name, index, tf_method));
    }
    // Unstable with the index as tie-break: a stable sort allocates its scratch.
    by_name.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    for group in by_name.chunk_by(|a, b| a.0 == b.0 && a.1 == b.1).filter(|g| g.len() > 1) {
        let name = &group[0].1;
        let overloads: Vec<Option<&TfMethod>> = group.iter().map(|(_, _, _, m)| *m).collect();
        let kinds: Vec<&str> = overloads
            .iter()
            .map(|m| match m {
                Some(m) if m.is_info() => "info",
                Some(_) => "monitored",
                None => "plain",
            })
            .collect();
        if kinds.iter().any(|k| *k != kinds[0]) {
            out.add_for(
                Some(name.to_string()),
                Rule::OverloadMixed,
                format!("overloads of {name} must all be monitored, all be info methods, or none be either; found {}", kinds.join(", ")),
            );
            continue;
        }
        let tf_overloads: Vec<&TfMethod> = overloads.iter().flatten().copied().collect();
        let mut names: Vec<&str> = tf_overloads.iter().map(|m| &*m.tracing_name).collect();
        names.sort_unstable();
        names.dedup();
        if !tf_overloads.is_empty() && names.len() != tf_overloads.len() {
            out.add_for(
                Some(name.to_string()),
                Rule::OverloadNeedsTracingName,
                format!("the {} overloads of {name} need distinct @TracingName values", tf_overloads.len()),
            );
        }
    }
    Ok(())
}

fn check_tracing_names(tf: &TfClass, out: &mut Offences) {
    // As many distinct tracing names as methods: none is shared.
    if tf.tracing_names.len() == tf.methods.len() {
        return;
    }
    let mut by_tracing_name: BTreeMap<&str, Vec<&TfMethod>> = BTreeMap::new();
    for m in &tf.methods {
        by_tracing_name.entry(&m.tracing_name).or_default().push(m);
    }
    for (tracing_name, methods) in by_tracing_name {
        // Overloads of one name are reported by check_overloads.
        if methods.len() > 1 && methods.iter().any(|m| m.name != methods[0].name) {
            let who: Vec<String> = methods.iter().map(|m| m.signature()).collect();
            out.add_for(None, Rule::DuplicateTracingName, format!("tracing name '{tracing_name}' is used by {}", who.join(", ")));
        }
    }
}

/// An info method may be called only from a monitored method of its class.
fn check_info_calls(class: &ClassFile<'_>, tf: &TfClass, out: &mut Offences) -> Result<(), ClassFileError> {
    let infos: Vec<&TfMethod> = tf.methods.iter().filter(|m| m.is_info()).collect();
    if infos.is_empty() {
        return Ok(());
    }
    let mut pool = PoolBuilder::new(class.constant_pool().clone());
    for (index, member) in class.methods().iter().enumerate() {
        let caller = tf.methods.iter().find(|m| m.index == index);
        if caller.is_some_and(|m| m.is_monitored()) {
            continue;
        }
        let Some(code) = CodeModel::lift(class, member, &mut pool)? else { continue };
        for insn in &code.elements {
            let Insn::Pool { opcode: INVOKEVIRTUAL | INVOKESPECIAL | INVOKESTATIC, index: reference } = insn else {
                continue;
            };
            let target = class.constant_pool().member_ref(*reference)?;
            if target.owner != *tf.internal_name {
                continue;
            }
            if let Some(info) = infos.iter().find(|i| target.name == *i.name && target.descriptor == *i.descriptor) {
                let caller_name = format!("{}{}", member.name()?, member.descriptor()?);
                out.add_for(
                    Some(caller_name),
                    Rule::InfoCallOutsideMonitoredMethod,
                    format!("calls info method {} but is not a monitored method", info.signature()),
                );
            }
        }
    }
    Ok(())
}
