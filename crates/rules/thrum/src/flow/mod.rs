//! The turn flow (THR-R1 to THR-R40): rounds, turns and who decides next.
//!
//! Resolution is a loop ([`advance`], the engine's `settle` repeating one automatic step) over
//! the resolution stack and the turn: the top frame (an ability use, a trigger window, a fixed
//! roll, a start of turn, a prompt) is advanced until it needs a decision or finishes; with an
//! empty stack, the turn moves on (start of turn, end of turn, next slot, next round) until a
//! seat must decide or the combat ends. The files: this one holds the loop and the step of the
//! top frame ([`step_frame`], which hands each kind of frame to its topic); `turn` the start and
//! end of a turn, its fixed rolls and the next slot and round; `end` the stop conditions and End
//! of Combat.
//!
//! The flow is resolution only: the checks of the turn's own commands are `actions::turn`'s,
//! which the loop asks directly (why a slot began by itself), never through the check's
//! dispatcher, so the check depends on nothing here.
//!
//! The rules cited at the code here: THR-R15, THR-R24, THR-R147, THR-R151, THR-R170.

use crate::actions::ability::step_use;
use crate::actions::effects::step_prompt;
use crate::actions::trigger::step_window;
use crate::actions::turn::check_delay;
use crate::codes::Say;
use crate::event::Event;
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::{Cx, Frame, Phase, State, Step};
use fray_engine::resolve::settle;
use fray_engine::{EngineError, Flow};

pub mod end;
pub mod turn;

pub use self::end::{end_combat, stop_check};
pub use self::turn::{end_turn, fixed_roll};

use self::turn::{begin_turn, next_slot, step_roll, step_start_of_turn};

type R<T = ()> = Result<T, EngineError>;

/// Runs automatic steps until a decision is pending or the combat is over (the engine's
/// [`settle`] loop, which reports a step that would repeat forever).
pub fn advance(cx: &mut Cx) -> R {
    settle(cx, step)
}

/// One automatic step: the top frame, or else the turn's next step. [`Flow::Wait`] when a seat
/// must decide or the combat is over.
#[inline]
fn step(cx: &mut Cx) -> R<Flow> {
    if cx.s.outcome.is_some() {
        return Ok(Flow::Wait);
    }
    if !cx.s.stack.is_empty() {
        return step_frame(cx);
    }
    let who = cx.s.turn.who;
    match cx.s.turn.step {
        Step::Slot => {
            if cx.s.phase == Phase::Rounds && slot_needs_decision(&cx.s) {
                return Ok(Flow::Wait);
            }
            // Say why a slot in the rounds began without asking (THR-R15: no Delay was
            // possible); Round Zero slots never offer one.
            let why = (cx.s.phase == Phase::Rounds && cx.s.ch(who).present())
                .then(|| check_delay(&cx.s, who, None, Say::Sentence).err())
                .flatten()
                .map(|r| r.reason);
            begin_turn(cx)?;
            if let Some(why) = why {
                cx.emit(Event::BeganByItself { who, why });
            }
        }
        Step::Place | Step::Move | Step::ActionMove | Step::Stance => {
            let c = cx.s.ch(who);
            if c.removed {
                cx.emit(Event::TurnEnded { who });
            } else if c.incapacitated {
                // THR-R170: an Incapacitated character's turn skips its Move, Action and Stance
                // steps and goes on to End of Turn (where its statuses still tick).
                end_turn(cx, who)?;
            } else if cx.s.phase == Phase::RoundZero
                && cx.s.turn.step == Step::Stance
                && !cx.s.is_pc(who)
                && !cx.s.options.npc_round_zero_stance
            {
                // THR-R24 (option `npc_round_zero_stance` off): no Round Zero Stance for NPCs.
                end_turn(cx, who)?;
            } else {
                return Ok(Flow::Wait);
            }
        }
        Step::Done => next_slot(cx)?,
    }
    Ok(Flow::Go)
}

fn slot_needs_decision(s: &State) -> bool {
    // THR-R15: a slot that may not Delay (it already delayed this round) begins by itself.
    let Some(st) = stage(s) else { return false };
    let who = s.turn.who;
    s.ch(who).present()
        && (delay_allowed(s, &st, None) || s.order.later_waiting().any(|t| delay_allowed(s, &st, Some(t))))
}

/// Whether the check accepts a Delay (after `after`, or to the end of the round) under the stage
/// `st`: what `check::allowed_in` answers for it, asked of the Delay's own check so that the
/// flow does not call the check's dispatcher (which dispatches to actions whose resolution calls
/// the flow). The loop asks only while the combat is not over, and only a slot's stage accepts a
/// Delay; a named character must be a combatant.
fn delay_allowed(s: &State, st: &Stage, after: Option<Cid>) -> bool {
    if after.is_some_and(|t| t as usize >= s.chars.len()) {
        return false;
    }
    match *st {
        Stage::Slot { who } => check_delay(s, who, after, Say::Code).is_ok(),
        _ => false,
    }
}

pub(crate) fn step_frame(cx: &mut Cx) -> R<Flow> {
    // THR-R147, THR-R151: only the top frame moves on, so what a trigger starts resolves fully
    // before the frame under it continues: Z, then the rest of Y, then the rest of X.
    match cx.s.stack.last() {
        Some(Frame::Use(_)) => step_use(cx),
        Some(Frame::Window(_)) => Ok(step_window(cx)),
        Some(Frame::Roll(r)) => {
            let r = *r;
            step_roll(cx, r)
        }
        Some(Frame::StartOfTurn { who, step }) => {
            let (who, step) = (*who, *step);
            step_start_of_turn(cx, who, step)
        }
        Some(Frame::Prompt(p)) => {
            let p = p.clone();
            Ok(step_prompt(cx, &p))
        }
        None => Ok(Flow::Wait),
    }
}
