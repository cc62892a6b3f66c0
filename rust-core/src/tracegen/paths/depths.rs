//! The stack depths of generated code by method shape: found once by a
//! depth pass over the first method of a shape, remembered for the rest
//! (spliced and template paths), so no later method runs the pass.
#![forbid(unsafe_code)]

use crate::classfile::splice;
use crate::classfile::{Handler, Insn, PoolBuilder};
use crate::codegen::Signature;
use crate::model::TfMethod;
use crate::tracegen::generated::monitor::LookupKind;

use crate::classfile::Result;

/// What the stack depths of a method's generated code depend on: whether
/// there are arguments to box, the widest one boxed (a redacted one is a
/// getstatic of the marker), the result's slots, how the monitor is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Shape {
    pub(crate) has_parameters: bool,
    pub(crate) widest_parameter: u16,
    pub(crate) result_slots: u16,
    pub(crate) lookup: LookupKind,
}

impl Shape {
    pub(crate) fn of(signature: &Signature<'_>, method: &TfMethod, lookup: LookupKind) -> Shape {
        let parameters = &signature.parameters;
        let widest_parameter = parameters
            .iter()
            .enumerate()
            .map(|(i, t)| if method.redacted_parameters.contains(&i) { 1 } else { t.slots() })
            .max()
            .unwrap_or(0);
        Shape {
            has_parameters: !parameters.is_empty(),
            widest_parameter,
            result_slots: signature.returns.map_or(0, |t| t.slots()),
            lookup,
        }
    }
}

/// How much deeper than where it starts the stack gets in each chunk of a
/// method's generated code.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GeneratedDepths {
    pub(crate) prologue: u16,
    pub(crate) tail: u16,
    /// Unknown until a method of the shape has an `athrow`.
    pub(crate) throw: Option<u16>,
    pub(crate) ret: u16,
}

/// What earlier methods found of each shape's generated code.
pub(crate) type DepthsByShape = rustc_hash::FxHashMap<Shape, GeneratedDepths>;

impl GeneratedDepths {
    /// What an earlier method of this shape found.
    pub(crate) fn remembered(known: &DepthsByShape, shape: Shape) -> Option<GeneratedDepths> {
        known.get(&shape).copied()
    }

    pub(crate) fn remember(self, known: &mut DepthsByShape, shape: Shape) {
        let throw = self.throw.or_else(|| known.get(&shape).and_then(|earlier| earlier.throw));
        known.insert(shape, GeneratedDepths { throw, ..self });
    }

    /// From the generated instructions (the throw's, if any); `None` if one
    /// is no consistent flow.
    pub(crate) fn of(
        prologue: &[Insn],
        tail: &[Insn],
        throw: Option<&[Insn]>,
        ret: &[Insn],
        handlers: &[Handler],
        pool: &mut PoolBuilder<'_>,
    ) -> Result<Option<GeneratedDepths>> {
        let prologue = splice::peak(prologue, &[], pool)?;
        let (Some(prologue), Some(tail)) = (prologue, splice::peak(tail, handlers, pool)?) else {
            return Ok(None);
        };
        let throw = match throw {
            Some(insns) => Some(splice::replacement_peak(insns, pool)?),
            None => None,
        };
        let ret = splice::replacement_peak(ret, pool)?;
        Ok(Some(GeneratedDepths { prologue, tail, throw, ret }))
    }
}
