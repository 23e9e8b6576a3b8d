//! Resolution: commands become events, and the combat runs until the next decision.
//!
//! Everything here goes through the engine's resolution kit: [`Cx`] hands out the state
//! read-only and `emit` applies an event and records it, so the state changes only through
//! `apply`; the resolution stack changes through `push`, `change` and `pop` (Thrum's `Push`,
//! `FrameChanged` and `Pop` events: a frame moves on by a small change, never by a copy of the
//! whole frame). After each command the turn flow's loop ([`advance`], in [`crate::flow`]) runs
//! on until a seat must decide or the combat ends.
//!
//! An ability use goes through stages: defenders pick defences, trigger windows open (one per
//! target, candidates asked in turn order), then each target is rolled and its result lines
//! applied, then the end-of-ability checks (Exhausted user's Incapacity Roll, stop conditions).
//! A trigger that starts another ability (a riposte) pushes a new frame, which resolves fully
//! before the frame under it continues: last in, first out (THR-R146, THR-R147, THR-R151).
//!
//! This module is the dispatch: it matches the command on the [`Stage`] its check accepted it
//! under and hands it, with its checked [`Plan`], to its action in [`crate::actions`] (moves and
//! steps `movement`, Actions `ability` (the interpreter of an ability use), triggers `trigger`,
//! defences `defence`, Stances `stance`, prompts `effects`, GM rulings `ruling`) or to the turn
//! flow ([`crate::flow`]: beginning a turn, rerolls, ending a turn). Result lines are
//! `actions::lines`, Buffs, Terrain Effects, Nova and Minions `actions::effects`, the stop
//! conditions and End of Combat `flow::end`. What other crates and the tests name under
//! `resolve::` is re-exported from where it now lives.

use crate::actions::{ability, defence, effects, movement, ruling, stance, trigger};
use crate::command::Command;
use crate::event::Event;
use crate::plan::Plan;
use crate::stage::{Stage, stage};
use crate::state::Step;
use fray_engine::EngineError;

pub use crate::actions::ability::verdict_of;
pub use crate::actions::effects::{nova_earn, remove};
pub use crate::actions::lines::{add_condition, deal, incapacitate};
pub use crate::actions::movement::drop_odds;
pub use crate::dice::{dist2d6, roll2d6};
pub use crate::flow::advance;
pub use crate::flow::end::{end_combat, stop_check};
pub use crate::flow::turn::{end_turn, fixed_roll};
pub use crate::reach::{StepCost, terrain_step_cost};
pub use crate::state::Cx;
pub use crate::state::{terrain_affects, terrain_covers, terrain_squares};

use crate::flow::turn::{answer_reroll, begin_turn};

type R<T = ()> = Result<T, EngineError>;

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
        ruling::ruling(cx, r)?;
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
            movement::do_move(cx, who, *to, path, cost)?
        }
        (Stage::Turn { who, .. }, Command::Step { dir, roll }) => movement::do_step(cx, who, *dir, *roll, plan)?,
        (Stage::Turn { who, dash: false }, Command::Act(a)) => {
            let Plan::Act { targets } = plan else {
                return Err(unchecked(cmd));
            };
            ability::declare(cx, who, a, &targets)?
        }
        (Stage::Turn { who, .. } | Stage::Stance { who }, Command::Stance(id)) => stance::enter_stance(cx, who, *id)?,
        (Stage::Turn { who, .. } | Stage::Stance { who }, Command::EndTurn) => end_turn(cx, who)?,
        (Stage::Defence { defender, .. }, Command::Defend(d)) => defence::defend(cx, defender, *d),
        (Stage::Defence { defender, .. }, Command::DefendWith(d, _)) => defence::defend_with(cx, defender, *d),
        (Stage::Trigger { .. }, Command::Trigger(id)) => trigger::use_trigger(cx, *id)?,
        (Stage::Trigger { .. }, Command::Pass) => trigger::pass_trigger(cx),
        (Stage::Reroll { .. }, Command::Reroll) => answer_reroll(cx, true)?,
        (Stage::Reroll { .. }, Command::Pass) => answer_reroll(cx, false)?,
        (Stage::MovePrompt { .. }, Command::Move(_) | Command::Pass)
        | (Stage::BuffReplace { .. }, Command::Accept | Command::Decline)
        | (Stage::Keep { .. } | Stage::Upkeep { .. }, Command::Keep | Command::Release) => {
            effects::answer_prompt(cx, cmd, plan)?
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
