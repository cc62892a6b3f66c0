//! The spliced path with the generated code copied from the template of
//! the method's shape ([`template`](super::template)): the pool asked for
//! the same constants in the same order, their indexes patched in.
#![forbid(unsafe_code)]

use super::depths::Shape;
use super::splicing::{add_live_locals, assemble_spliced, body_start_for_splice, SplicedBody};
use super::template;
use super::Instrumented;
use crate::classfile::splice::Splice;
use crate::classfile::{CodeModel, Insn, PoolBuilder, VType};
use crate::classfile::access::ACC_STATIC;
use crate::tracegen::constants::Constants;
use crate::tracegen::generated::monitor::LookupKind;
use crate::tracegen::generated::prologue::entry_frame;
use crate::tracegen::memory::Memory;
use crate::tracegen::plan::method_id;

use crate::classfile::Result;

/// What copying a method's generated code from its shape's template came to.
pub(crate) enum FromTemplate {
    /// The method's shape (or its monitor lookup) takes no template: the
    /// spliced path generates the code itself.
    NoTemplate,
    /// The template applies but the splice declines the method: the general
    /// path takes it, asking the pool what the template asked.
    SpliceDeclined,
    /// The method spliced, its generated code copied from the template.
    Spliced(SplicedBody),
}

/// [`instrument_spliced`](super::spliced::instrument_spliced) with the generated code copied from the template
/// of the method's shape.
pub(crate) fn instrument_from_template<'a>(
    target: Instrumented<'_, 'a>,
    code: &mut CodeModel<'a>,
    splice: &mut Splice<'a>,
    pool: &mut PoolBuilder<'a>,
    constants: &mut Constants,
    memory: &mut Memory,
) -> Result<FromTemplate> {
    let Instrumented { class, method, signature, monitor } = target;
    let [Insn::InvokeDynamic { index: monitor }] = *monitor else {
        return Ok(FromTemplate::NoTemplate);
    };
    let id = method_id(method);
    let is_static = method.access_flags & ACC_STATIC != 0;
    let shape = Shape::of(signature, method, LookupKind::Indy);
    let wanted = template::Wanted { max_locals: code.max_locals, is_static, id, signature, method, shape };
    let Memory { templates, symbols, depths: known_depths, copied, .. } = memory;
    let Some(template) = template::for_method(templates, symbols, known_depths, &wanted) else {
        return Ok(FromTemplate::NoTemplate);
    };
    template.warm();
    // The pool is asked what the general path asks, in its order.
    let (mut resolved, mut operands) = (std::mem::take(&mut constants.resolved), std::mem::take(&mut constants.operands));
    resolved.clear();
    template.resolve(0..template.planned(), signature.returns, pool, symbols, &mut constants.symbols, &mut resolved)?;
    let Some(insert_at) = body_start_for_splice(class, method, code, splice, pool) else {
        return Ok(FromTemplate::SpliceDeclined);
    };
    template.resolve(
        template.planned()..template.constant_count(),
        signature.returns,
        pool,
        symbols,
        &mut constants.symbols,
        &mut resolved,
    )?;
    let Some(depths) = template.depths(shape, &resolved, monitor, pool, known_depths)? else {
        return Ok(FromTemplate::SpliceDeclined);
    };
    let live = template.live_locals(&resolved);
    add_live_locals(code, splice, insert_at, &live);
    let entry = entry_frame(code, method, VType::Object(class.this_class_index()), &live);
    let values = template::MethodValues { constants: &resolved, monitor, id };
    let mut tail_first = std::mem::take(&mut constants.tail_first);
    template.tail_first_frame(&resolved, &mut tail_first);
    let (lent, n) = template.lent_frames(code.next_label, &entry, &tail_first);
    let lent = lent.get(..n).unwrap_or_default();
    let (chunks, frames_after) = template.copy(&values, depths, code, &mut operands, lent);
    *copied += 1;
    let spliced = assemble_spliced(code, splice, insert_at, chunks, Some(frames_after), pool);
    (constants.resolved, constants.operands, constants.tail_first) = (resolved, operands, tail_first);
    Ok(match spliced? {
        Some(code) => FromTemplate::Spliced(SplicedBody { code, template: Some(template.generated_code()) }),
        None => FromTemplate::SpliceDeclined,
    })
}
