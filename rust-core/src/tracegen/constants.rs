//! The pool indexes every monitored method's generated code uses, asked of
//! the pool once per class: a memo that keeps the order in which the pool
//! is first asked, so every path writes the same pool.
#![forbid(unsafe_code)]

use crate::classfile::{ConstantSource, Frame, Insn, OperandValue, VType};
use crate::protocol;
use std::rc::Rc;

use crate::classfile::Result;

/// A constant that the monitoring code of every method uses.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Shared {
    Wants,
    EnterWithToken,
    ExitVoidWithToken,
    Failed,
    FailedWithResult,
    Redacted,
    NoArgs,
    Thrown,
    MethodMonitor,
    Throwable,
}

pub(crate) const SHARED_COUNT: usize = Shared::Throwable as usize + 1;

/// Pool indexes of the constants every monitored method needs, resolved on
/// first use: each method needs a dozen member references and classes, and
/// finding one in the pool means hashing its names. The first use of each
/// still asks the pool where it would without this memo (the pool order,
/// see `CodePool`).
#[derive(Default)]
pub(crate) struct Constants {
    pub(crate) known: [Option<u16>; SHARED_COUNT],
    /// The monitor lookup of each group the class's methods report to.
    /// Shared by the group's methods, not copied for each.
    pub(crate) monitors: Vec<(String, Rc<[Insn]>)>,
    /// The pool indexes of templates' constants, by symbol (0: not asked yet).
    pub(crate) symbols: Vec<u16>,
    /// Lists each method's copy of a template fills, kept for the next
    /// method: one allocation per class rather than one per method.
    pub(crate) resolved: Vec<u16>,
    pub(crate) operands: Vec<OperandValue>,
    /// A template's tail's first frame with the class's constants.
    pub(crate) tail_first: Frame,
}

impl Constants {
    pub(crate) fn get(&mut self, shared: Shared, pool: &mut impl ConstantSource) -> Result<u16> {
        if let Some(Some(index)) = self.known.get(shared as usize) {
            return Ok(*index);
        }
        fn interface(member: protocol::Member, pool: &mut impl ConstantSource) -> Result<u16> {
            pool.interface_method_ref(member.owner, member.name, member.descriptor)
        }
        fn field(member: protocol::Member, pool: &mut impl ConstantSource) -> Result<u16> {
            pool.field_ref(member.owner, member.name, member.descriptor)
        }
        fn method(member: protocol::Member, pool: &mut impl ConstantSource) -> Result<u16> {
            pool.method_ref(member.owner, member.name, member.descriptor)
        }
        let index = match shared {
            Shared::Wants => interface(protocol::MM_WANTS_ARGUMENTS, pool)?,
            Shared::EnterWithToken => interface(protocol::MM_ENTER_WITH_TOKEN, pool)?,
            Shared::ExitVoidWithToken => interface(protocol::MM_EXIT_VOID_WITH_TOKEN, pool)?,
            Shared::Failed => method(protocol::FAILED, pool)?,
            Shared::FailedWithResult => method(protocol::FAILED_WITH_RESULT, pool)?,
            Shared::Redacted => field(protocol::REDACTED_VALUE, pool)?,
            Shared::NoArgs => field(protocol::NO_ARGS, pool)?,
            Shared::Thrown => method(protocol::THROWN, pool)?,
            Shared::MethodMonitor => pool.class(protocol::METHOD_MONITOR)?,
            Shared::Throwable => pool.class("java/lang/Throwable")?,
        };
        if let Some(slot) = self.known.get_mut(shared as usize) {
            *slot = Some(index);
        }
        Ok(index)
    }

    /// An `invokeinterface` of a shared MethodMonitor method.
    pub(crate) fn call(&mut self, shared: Shared, count: u8, pool: &mut impl ConstantSource) -> Result<Insn> {
        Ok(Insn::InvokeInterface { index: self.get(shared, pool)?, count })
    }

    pub(crate) fn object(&mut self, shared: Shared, pool: &mut impl ConstantSource) -> Result<VType> {
        Ok(VType::Object(self.get(shared, pool)?))
    }
}
