//! Resolution: commands become events, and the combat runs until the next decision.
//!
//! Everything here goes through the engine's resolution kit: [`Cx`] hands out the state
//! read-only and `emit` applies an event and records it, so the state changes only through
//! `apply`; the resolution stack changes through `push`, `change` and `pop` (Thrum's `Push`,
//! `FrameChanged` and `Pop` events: a frame moves on by a small change, never by a copy of the
//! whole frame). Resolution is a loop ([`advance`], the
//! engine's `settle` repeating one automatic step) over the resolution stack and the turn: the top frame (an ability use, a trigger window) is advanced until it
//! needs a decision or finishes; with an empty stack, the turn moves on (start of turn, end of
//! turn, next slot, next round) until a seat must decide or the combat ends.
//!
//! An ability use goes through stages: defenders pick defences, trigger windows open (one per
//! target, candidates asked in turn order), then each target is rolled and its result lines
//! applied, then the end-of-ability checks (Exhausted user's Incapacity Roll, stop conditions).
//! A trigger that starts another ability (a riposte) pushes a new frame, which resolves fully
//! before the frame under it continues: last in, first out (THR-R146, THR-R147, THR-R151).
//!
//! The files follow the rules' topics: this one holds the context, the dice and the loop;
//! `turn` the turn flow (start and end of turn, next slot, next round), `movement` moves,
//! steps, drops and forced moves, `interpreter` an ability use's stages and the trigger
//! windows, `lines` result lines and what they do (damage, statuses, conditions, Incapacity),
//! `effects` Buffs, Terrain Effects, Nova, Minions and prompts, `end` the stop conditions and
//! End of Combat, and `rulings` the GM's rulings.

use crate::check::{self, Plan};
use crate::command::Command;
use crate::event::Event;
use crate::stage::{Stage, stage};
use crate::state::{Phase, State, Step};
use fray_engine::resolve::settle;
use fray_engine::{EngineError, Flow};

mod effects;
mod end;
mod interpreter;
mod lines;
mod movement;
mod rulings;
mod turn;

pub use self::effects::{nova_earn, remove};
pub use self::end::{end_combat, stop_check};
pub use self::interpreter::verdict_of;
pub use self::lines::{add_condition, deal, incapacitate};
pub use self::movement::drop_odds;
pub use self::turn::{end_turn, fixed_roll};
pub use crate::reach::{StepCost, terrain_step_cost};
pub use crate::state::{terrain_affects, terrain_covers, terrain_squares};

use self::effects::{answer_prompt, buff_on_defence};
use self::interpreter::{declare, pass_trigger, step_frame, use_trigger};
use self::movement::{do_move, do_step};
use self::rulings::ruling;
use self::turn::{answer_reroll, begin_turn, next_slot};

pub use crate::dice::{dist2d6, roll2d6};
pub use crate::state::Cx;

type R<T = ()> = Result<T, EngineError>;

// ---------------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------------

/// Resolves a checked command with the plan its check gave it, and runs on to the next
/// decision. The command answers the [`stage`] the check accepted it under, worked out again
/// here once, and the dispatch matches on it.
pub fn resolve(cx: &mut Cx, cmd: &Command, plan: Plan) -> R {
    let st = stage(&cx.s);
    resolve_in(cx, st, cmd, plan)
}

/// [`resolve`] of a command checked under stage `st` (what the engine hands the ruleset).
pub fn resolve_in(cx: &mut Cx, st: Option<Stage>, cmd: &Command, plan: Plan) -> R {
    // What fray did by itself for the previous command is no longer the latest thing that
    // happened: a command typed for one of those steps gets the usual refusal from now on.
    if !cx.s.auto.is_empty() {
        cx.emit(Event::AutoStepsCleared);
    }
    // GM rulings are no stage: accepted whatever the game waits for.
    if let Command::Gm(r) = cmd {
        ruling(cx, r)?;
        return advance(cx);
    }
    let Some(st) = st else {
        return Err(unasked(cmd));
    };
    match (st, cmd) {
        (Stage::Slot { .. }, Command::Begin) => begin_turn(cx)?,
        // THR-R13: the slot's character takes its turn at the named later point instead.
        (Stage::Slot { who }, Command::Delay(after)) => cx.emit(Event::Delayed { who, after: *after }),
        // THR-R22: a PC's Round Zero turn places it (in the Starting Area, checked), then goes
        // to the Stance step (THR-R23).
        (Stage::Place { who }, Command::Place(p)) => {
            cx.emit(Event::Placed { who, at: *p });
            cx.emit(Event::StepChanged { step: Step::Stance });
        }
        (Stage::Turn { who, .. }, Command::Move(to)) => {
            let Plan::Move { path, cost } = plan else {
                return Err(unchecked(cmd));
            };
            do_move(cx, who, *to, path, cost)?
        }
        (Stage::Turn { who, .. }, Command::Step { dir, roll }) => do_step(cx, who, *dir, *roll, plan)?,
        (Stage::Turn { who, dash: false }, Command::Act(a)) => {
            let Plan::Act { targets } = plan else {
                return Err(unchecked(cmd));
            };
            declare(cx, who, a, &targets)?
        }
        (Stage::Turn { who, .. } | Stage::Stance { who }, Command::Stance(id)) => {
            // THR-R32, THR-R33: entering a Stance first ends the current one, so only one is
            // ever active.
            if let Some(old) = cx.s.ch(who).stance {
                cx.emit(Event::StanceEnded { who, ability: old });
            }
            cx.emit(Event::StanceEntered { who, ability: *id });
            end_turn(cx, who)?;
        }
        (Stage::Turn { who, .. } | Stage::Stance { who }, Command::EndTurn) => end_turn(cx, who)?,
        (Stage::Defence { defender, .. }, Command::Defend(d)) => cx.emit(Event::DefenceChosen {
            who: defender,
            defence: *d,
            only: None,
        }),
        (Stage::Defence { defender, .. }, Command::DefendWith(d, _)) => {
            cx.emit(Event::DefenceChosen {
                who: defender,
                defence: *d,
                only: None,
            });
            buff_on_defence(cx, defender);
        }
        (Stage::Trigger { .. }, Command::Trigger(id)) => use_trigger(cx, *id)?,
        (Stage::Trigger { .. }, Command::Pass) => pass_trigger(cx),
        (Stage::Reroll { .. }, Command::Reroll) => answer_reroll(cx, true)?,
        (Stage::Reroll { .. }, Command::Pass) => answer_reroll(cx, false)?,
        (Stage::MovePrompt { .. }, Command::Move(_) | Command::Pass)
        | (Stage::BuffReplace { .. }, Command::Accept | Command::Decline)
        | (Stage::Keep { .. } | Stage::Upkeep { .. }, Command::Keep | Command::Release) => {
            answer_prompt(cx, cmd, plan)?
        }
        _ => return Err(unasked(cmd)),
    }
    advance(cx)
}

/// The error for a command resolved with a plan its check does not give it (a bug).
fn unchecked(cmd: &Command) -> EngineError {
    EngineError::Bug(format!("{cmd:?} was resolved without the plan its check gives"))
}

/// The error for a command resolved that answers nothing the game asks (a bug: the check
/// refuses it).
fn unasked(cmd: &Command) -> EngineError {
    EngineError::Bug(format!(
        "{cmd:?} was resolved, but it answers nothing the game asks now"
    ))
}

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
                .then(|| check::check(&cx.s, &Command::Delay(None)).err())
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
        && (check::allowed_in(s, &st, &Command::Delay(None))
            || s.order
                .later_waiting()
                .any(|t| check::allowed_in(s, &st, &Command::Delay(Some(t)))))
}
