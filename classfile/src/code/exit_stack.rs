//! What lies on the operand stack below the operand of a return.
//!
//! The JVM lets a return leave values below its result (it discards the
//! frame's stack); kotlinc does so in the state machines of suspend
//! functions (`dup; …; if_acmpne; areturn`). An edit that turns a return
//! into a jump to one shared exit block must drain those values first, or
//! the exit block is reached with two stack depths. Found here without a
//! class hierarchy: a depth pass finds the returns with more on the stack
//! than their result (javac's never have: one pass, nothing more), and only
//! for those are the types below followed from the nearest stack map frame,
//! or, in code without frames (before version 50), along the control flow
//! from the method's start.
//! `athrow` needs nothing: an edit keeps it a throw, which discards the
//! stack as a return does.
#![forbid(unsafe_code)]

use crate::code::code_model::CodeModel;
use crate::code::insn::{Insn, Label};
use crate::read::error::{ClassFileError, Result};
use crate::code::frame_infer;
use crate::read::opcodes as op;
use crate::code::pool::CodePool;
use crate::code::stack_depth;
use crate::code::stack_map::VType;

/// A return whose operand stack holds more than its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crowded {
    /// The return's element index in the model.
    pub index: usize,
    /// The size (1 or 2 slots) of each value below the result, bottom first.
    pub below: Vec<usize>,
}

impl Crowded {
    /// `pop` or `pop2` for each value below the result, top first: what
    /// empties the stack once the result is stored.
    pub fn drain(&self) -> impl Iterator<Item = Insn> + '_ {
        self.below.iter().rev().map(|&size| Insn::Simple(if size == 2 { op::POP2 } else { op::POP }))
    }
}

/// The returns among `model`'s elements from `from` on that leave values
/// below their result, in element order (none for almost every method).
pub fn crowded_returns<'a, P: CodePool<'a> + Clone>(
    model: &CodeModel<'_>,
    from: usize,
    pool: &mut P,
) -> Result<Vec<Crowded>> {
    let elements = &model.elements;
    if !elements.get(from..).unwrap_or_default().iter().any(Insn::is_return) {
        return Ok(Vec::new());
    }
    let mut label_index = vec![None; model.next_label as usize];
    for (i, e) in elements.iter().enumerate() {
        if let Insn::Label(l) = e {
            if let Some(slot) = label_index.get_mut(l.0 as usize) {
                *slot = Some(i);
            }
        }
    }
    let mut run_locals = vec![stack_depth::NOT_SEEN; elements.len()];
    let (depths, _) = stack_depth::depths(
        elements,
        model.code,
        &mut run_locals,
        &model.handlers,
        &|l| label_index.get(l.0 as usize).copied().flatten(),
        pool,
    )?;
    let mut crowded = Vec::new();
    // Following the types names classes, which would add them to the pool;
    // only the sizes are needed, so a copy of the pool takes them and the
    // class's pool stays as it would be without this pass.
    let mut scratch: Option<P> = None;
    for (index, insn) in elements.iter().enumerate().skip(from) {
        let Some(opcode) = insn.opcode().filter(|&o| op::is_return(o)) else {
            continue;
        };
        let result = op::returned_slots(opcode);
        let depth = match depths.get(index).copied().flatten() {
            Some(depth) if depth > result => depth,
            _ => continue,
        };
        let frame_of = |label| model.frame_at(label).cloned();
        let scratch = scratch.get_or_insert_with(|| pool.clone());
        let label_at = |l: Label| label_index.get(l.0 as usize).copied().flatten();
        let cannot = |e: ClassFileError| {
            ClassFileError::malformed_unlocated(
                format!("cannot find the types of the values a return leaves below its result: {}", e.kind),
            )
        };
        // Code without frames (before version 50) may reach the return only
        // by a jump: the types are then followed along the control flow.
        let frame = if model.frames_required {
            let frame = frame_infer::frame_before(
                elements,
                model.code,
                index,
                &frame_of,
                &model.initial_frame,
                model.this_class,
                scratch,
            );
            Some(frame.map_err(cannot)?)
        } else {
            let listing =
                frame_infer::Listing { elements, code: model.code, label_index: &label_at, handlers: &model.handlers };
            frame_infer::frame_by_flow(&listing, index, &model.initial_frame, model.this_class, scratch)
            .map_err(cannot)?
        };
        let below = match frame {
            Some(frame) => {
                let mut below: Vec<usize> = frame.stack.iter().map(VType::slots).collect();
                if result > 0 {
                    below.pop();
                }
                below
            }
            // Dead code, never verified nor run: what the depth pass counted
            // below the result, drained a slot at a time.
            None => vec![1; usize::try_from(depth - result).unwrap_or(0)],
        };
        crowded.push(Crowded { index, below });
    }
    Ok(crowded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::write::pool_builder::PoolBuilder;
    use crate::code::insn::{Handler, Label};
    use crate::read::constant_pool::ConstantPool;
    use crate::read::access::ACC_STATIC;
    use crate::read::reader::Reader;
    use crate::code::stack_map::Frame;

    fn pool() -> PoolBuilder<'static> {
        static EMPTY: [u8; 2] = [0, 1];
        PoolBuilder::new(ConstantPool::parse(&mut Reader::new(&EMPTY)).expect("empty pool"))
    }

    /// A static method `(I)J` with `elements` and frames at `frames`.
    fn model(elements: Vec<Insn>, frames: Vec<(Label, Frame)>, pool: &mut impl CodePool<'static>) -> CodeModel<'static> {
        let mut model = CodeModel::empty(1, ACC_STATIC, "m", "(I)J", true, pool).expect("model");
        model.next_label = 10;
        model.elements = elements;
        model.frames = frames;
        model
    }

    #[test]
    fn returns_with_only_their_result_on_the_stack_are_not_crowded() {
        let mut pool = pool();
        let code = model(vec![Insn::Simple(op::LCONST_1), Insn::Simple(op::LRETURN)], vec![], &mut pool);
        assert_eq!(crowded_returns(&code, 0, &mut pool).expect("depths"), vec![]);
    }

    #[test]
    fn values_below_a_result_are_found_and_drained_by_their_size() {
        let mut pool = pool();
        // int, long, int below the long result; a branch and a frame on the way.
        let target = Label(0);
        let at_target = Frame { locals: vec![VType::Integer], stack: vec![VType::Integer, VType::Long] };
        let elements = vec![
            Insn::Simple(op::ICONST_0),
            Insn::Simple(op::LCONST_0),
            Insn::Local { opcode: op::ILOAD, index: 0, wide: false },
            Insn::Branch { opcode: op::IFEQ, target },
            Insn::Label(target),
            Insn::Simple(op::ICONST_1),
            Insn::Simple(op::LCONST_1),
            Insn::Simple(op::LRETURN),
        ];
        let code = model(elements, vec![(target, at_target)], &mut pool);
        let crowded = crowded_returns(&code, 0, &mut pool).expect("depths");
        assert_eq!(crowded, vec![Crowded { index: 7, below: vec![1, 2, 1] }]);
        let drain: Vec<Insn> = crowded[0].drain().collect();
        assert_eq!(drain, [op::POP, op::POP2, op::POP].map(Insn::Simple));
        // Only returns from `from` on count.
        assert_eq!(crowded_returns(&code, 8, &mut pool).expect("depths"), vec![]);
    }

    #[test]
    fn in_code_without_frames_a_return_reached_only_by_a_jump_is_followed_there() {
        let mut pool = pool();
        let jumped = Label(0);
        let elements = vec![
            Insn::Simple(op::ICONST_1),
            Insn::Local { opcode: op::ILOAD, index: 0, wide: false },
            Insn::Branch { opcode: op::IFEQ, target: jumped },
            Insn::Simple(op::LCONST_1),
            Insn::Simple(op::LRETURN),
            // Reached only by the jump, with the int below; a long joins it.
            Insn::Label(jumped),
            Insn::Simple(op::LCONST_1),
            Insn::Simple(op::LCONST_0),
            Insn::Simple(op::LRETURN),
        ];
        let mut code = model(elements, vec![], &mut pool);
        code.frames_required = false; // a class file before version 50
        let crowded = crowded_returns(&code, 0, &mut pool).expect("followed");
        assert_eq!(crowded, vec![Crowded { index: 4, below: vec![1] }, Crowded { index: 8, below: vec![1, 2] }]);
    }

    #[test]
    fn in_code_without_frames_a_dead_crowded_return_is_drained_by_its_depth() {
        let mut pool = pool();
        // A handler whose range holds only dead code (a `goto` after a
        // return, as ASM leaves it in a class without frames) is never
        // reached, nor is the return after it; the depth pass still counts
        // the handler's stack.
        let (start, end, handler, after) = (Label(0), Label(1), Label(2), Label(3));
        let elements = vec![
            Insn::Simple(op::LCONST_0),
            Insn::Simple(op::LRETURN),
            Insn::Label(start),
            Insn::Branch { opcode: op::GOTO, target: after },
            Insn::Label(end),
            Insn::Label(handler),
            // The caught exception stays below the result.
            Insn::Simple(op::LCONST_1),
            Insn::Simple(op::LRETURN),
            Insn::Label(after),
            Insn::Simple(op::LCONST_1),
            Insn::Simple(op::LRETURN),
        ];
        let mut code = model(elements, vec![], &mut pool);
        code.frames_required = false;
        code.handlers = vec![Handler { start, end, handler, catch_type: 0 }];
        let crowded = crowded_returns(&code, 0, &mut pool).expect("followed");
        assert_eq!(crowded, vec![Crowded { index: 7, below: vec![1] }]);
    }
}
