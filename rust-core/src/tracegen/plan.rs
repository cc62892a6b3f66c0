//! What instrumenting one method adds, decided before any code is
//! generated: its locals, labels and frame types. Every path (general,
//! spliced, template) generates from a plan, so they agree on slots and labels.
#![forbid(unsafe_code)]

use super::constants::{Constants, Shared};
use crate::classfile::access::ACC_STATIC;
use crate::classfile::{ClassFile, CodeModel, ConstantSource, Label, PoolBuilder, VType};
use crate::codegen::{JavaType, Signature};
use crate::model::TfMethod;

use crate::classfile::Result;

/// The locals this stage adds.
#[derive(Clone)]
pub(crate) struct Locals<'d> {
    pub(crate) monitor: u16,
    pub(crate) reported: u16,
    /// The `long` that `enterWithToken` returned, for `exitWithToken` (two slots).
    pub(crate) token: u16,
    /// The return value's type and slot, for non-void methods.
    pub(crate) result: Option<(JavaType<'d>, u16)>,
}

/// What instrumenting one method adds, decided before its body is touched.
#[derive(Clone)]
pub(crate) struct Plan<'d> {
    pub(crate) signature: Signature<'d>,
    pub(crate) is_static: bool,
    pub(crate) id: i32,
    pub(crate) locals: Locals<'d>,
    pub(crate) types: Types,
    pub(crate) labels: Labels,
    /// Parameters (slot, slot of the copy) that a constructor's code no longer
    /// holds after its chaining call, copied first thing for the prologue.
    pub(crate) kept_parameters: Vec<(u16, u16)>,
}

impl Plan<'_> {
    /// The locals that live across the body, with their frame types.
    pub(crate) fn live_locals(&self) -> [(u16, VType); 3] {
        [
            (self.locals.monitor, self.types.monitor),
            (self.locals.reported, self.types.throwable),
            (self.locals.token, VType::Long),
        ]
    }
}

pub(crate) fn plan<'d>(
    class: &ClassFile<'_>,
    method: &TfMethod,
    signature: Signature<'d>,
    code: &mut CodeModel<'_>,
    pool: &mut PoolBuilder<'_>,
    constants: &mut Constants,
) -> Result<Plan<'d>> {
    let id = method_id(method);
    let is_static = method.access_flags & ACC_STATIC != 0;
    plan_for(signature, is_static, id, class.this_class_index(), code, pool, constants)
}

/// [`plan`] of a method with this signature, `static` or not, identifier
/// and class; the pool is asked for the frame types first.
pub(crate) fn plan_for<'d>(
    signature: Signature<'d>,
    is_static: bool,
    id: i32,
    this_class: u16,
    code: &mut CodeModel<'_>,
    pool: &mut impl ConstantSource,
    constants: &mut Constants,
) -> Result<Plan<'d>> {
    let locals = Locals {
        monitor: code.new_local(1)?,
        reported: code.new_local(1)?,
        token: code.new_local(JavaType::Long.slots())?,
        result: match signature.returns {
            Some(t) => Some((t, code.new_local(t.slots())?)),
            None => None,
        },
    };
    let types = Types {
        monitor: constants.object(Shared::MethodMonitor, pool)?,
        throwable: constants.object(Shared::Throwable, pool)?,
        this: VType::Object(this_class),
    };
    let labels = Labels {
        body: code.new_label(),
        body_end: code.new_label(),
        exit: code.new_label(),
        ret: code.new_label(),
        handler: code.new_label(),
    };
    Ok(Plan { signature, is_static, id, locals, types, labels, kept_parameters: Vec::new() })
}

pub(crate) fn method_id(method: &TfMethod) -> i32 {
    i32::try_from(method.identifier).unwrap_or(0)
}

#[derive(Clone, Copy)]
pub(crate) struct Types {
    pub(crate) monitor: VType,
    pub(crate) throwable: VType,
    pub(crate) this: VType,
}

#[derive(Clone, Copy)]
pub(crate) struct Labels {
    pub(crate) body: Label,
    pub(crate) body_end: Label,
    pub(crate) exit: Label,
    pub(crate) ret: Label,
    pub(crate) handler: Label,
}
