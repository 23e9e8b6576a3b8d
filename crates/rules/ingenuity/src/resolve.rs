//! Resolution: turning checked commands into events, and running the combat between decisions.
//!
//! Everything that can wait for a decision is a frame on the state's stack (an attack waiting
//! for Intercept, defences or a block; a readied-action window; the consciousness fortify; the
//! options after a dodge), so a combat can stop at any decision and go on from the record.
//! [`advance`] runs everything automatic until the next decision: frames, turn ends, new rounds
//! and the end of the combat.
//!
//! Dice order (docs/ingenuity.md "Dice order"; tests/it/dice_order.rs checks it): a test rolls its
//! attribute die, its skill die, then the luck d20, then one die per advantage or disadvantage
//! reroll. An attack: readied actions it sets off, Intercept, the defences declared before the
//! roll (each rolls its test), the attack test, a misfire's pick, then damage, the
//! consciousness fortify and a death check.
//!
//! This module is the dispatch: [`resolve`] matches on the stage the command answers, and for a
//! turn's action on the action, and calls its resolution in its module under `crate::actions`
//! (turn starts and rounds in `crate::flow`); [`advance`] steps the top frame through its
//! module, or else the turn and the round. The dice are drawn in `crate::roll`. What a check
//! found out comes in its [`Plan`]; nothing here works it out again.

use crate::actions::{
    after_dodge, attack, command, conscious, defence, downed, end, extended, items, movement, posture, ready, ruling,
    task,
};
use crate::check::{self, Plan};
use crate::command::{Action, Command};
use crate::event::{AutoStep, AutoWhy, Event, TurnEnd};
use crate::flow;
use crate::setup::Cid;
use crate::stage::Stage;
use crate::state::{Ext, Frame};
use fray_engine::resolve::settle;
use fray_engine::{EngineError, Flow};

pub use crate::actions::attack::effective_evasion;
pub use crate::actions::damage::reduction;
pub use crate::roll::roll_test;
pub use crate::state::{Cx, R};

/// Starts the combat: the team order, then the surprise round or round 1.
pub fn start(cx: &mut Cx) -> R {
    flow::open(cx);
    advance(cx)
}

/// Resolves a command with the plan its check gave under `stage` (the
/// [`crate::stage::stage`] it was checked against), then runs on to the next decision. GM
/// rulings are no stage: they are resolved whatever the game waits for.
pub fn resolve(cx: &mut Cx, stage: Option<&Stage>, cmd: &Command, plan: Plan) -> R {
    if let Command::Gm(r) = cmd {
        ruling::resolve(cx, r)?;
        return advance(cx);
    }
    let Some(&stage) = stage else {
        return Err(EngineError::Bug("a command when nothing is asked".into()));
    };
    match (stage, cmd) {
        (Stage::Pick { .. }, Command::Pick(c)) => flow::begin_turn(cx, *c)?,
        (Stage::Extended { who }, Command::Continue) => {
            if let Some(ext) = extended::continue_extended(cx, who) {
                complete(cx, who, ext)?;
            }
        }
        (Stage::Extended { who } | Stage::Turn { who, .. }, Command::Abandon) => extended::abandon(cx, who),
        (Stage::Turn { who, opening }, Command::Act(a)) => {
            if opening {
                cx.emit(Event::OpeningDone);
            }
            act(cx, who, a, None, plan)?;
        }
        (Stage::AfterDodge { who, used }, Command::Act(a)) => after_dodge::resolve(cx, who, used, a, plan)?,
        // `pass`: done.
        (Stage::AfterDodge { .. }, Command::Pass) => cx.pop(),
        (Stage::Intercept { .. } | Stage::Defend { .. } | Stage::Block { .. }, _) => defence::resolve(cx, stage, cmd)?,
        (Stage::Ready { who, subject }, Command::Fire | Command::Hold) => {
            ready::answer(cx, who, subject, matches!(cmd, Command::Fire), plan)?
        }
        (Stage::Fortify { who, missing }, Command::Fortify | Command::Fall) => {
            conscious::answer(cx, who, missing, matches!(cmd, Command::Fortify))?
        }
        _ => {
            return Err(EngineError::Bug(format!(
                "a command that answers no {} decision",
                stage.kind()
            )));
        }
    }
    advance(cx)
}

/// Resolves an action by `who` with its plan; `via` is the commander when given by Command.
fn act(cx: &mut Cx, who: Cid, a: &Action, via: Option<Cid>, plan: Plan) -> R {
    match a {
        Action::Move(_) => movement::resolve_move(cx, who, via, false, plan)?,
        Action::Sprint(_) => movement::resolve_move(cx, who, via, true, plan)?,
        Action::Step(_) => movement::begin_walk(cx, who, "step", plan)?,
        Action::Attack {
            target,
            slot,
            attr,
            prof,
        } => attack::resolve(cx, who, via, *target, *slot, *attr, prof.clone())?,
        Action::Brandish(_) | Action::Interact(_) | Action::PickUp(_) | Action::Drop(_) | Action::Reload(_) => {
            items::resolve(cx, who, via, a)
        }
        Action::StandUp | Action::DropProne | Action::SeekCover => posture::resolve(cx, who, via, a),
        Action::Guard | Action::Wait | Action::End => end::resolve(cx, who, via, a),
        Action::Ready(r) => ready::resolve(cx, who, via, r),
        Action::Resuscitate(t) => downed::resolve_resuscitate(cx, who, *t)?,
        Action::Kill { target, slot } => downed::resolve_kill(cx, who, *target, *slot)?,
        Action::Task {
            attr,
            skill,
            prof,
            difficulty,
            seconds,
        } => task::resolve(cx, who, *attr, skill, prof, *difficulty, *seconds)?,
        Action::Command { ally, action } => {
            command::resolve(cx, who, *ally, action);
            act(cx, *ally, action, Some(who), plan)?;
        }
    }
    Ok(())
}

/// The effect of an extended action whose whole cost has now been paid (ING-R34).
fn complete(cx: &mut Cx, who: Cid, ext: Ext) -> R {
    match ext {
        Ext::Reload { slot } => items::loaded(cx, who, slot),
        Ext::Resuscitate { target } => downed::resuscitate(cx, who, target)?,
        Ext::Task {
            attr,
            skill,
            prof,
            difficulty,
        } => task::test(cx, who, attr, &skill, &prof, difficulty)?,
        Ext::Kill { target, slot } => downed::killing_strike(cx, who, target, slot)?,
    }
    Ok(())
}

/// Runs everything automatic until the next decision or the end.
pub fn advance(cx: &mut Cx) -> R {
    settle(cx, step)
}

/// One automatic step: the top frame, a turn that cannot go on, an opening action that cannot
/// be taken, or a new round; [`Flow::Wait`] at a decision or the end.
fn step(cx: &mut Cx) -> Result<Flow, EngineError> {
    if cx.s.outcome.is_some() || flow::end_check(cx) {
        return Ok(Flow::Wait);
    }
    if let Some(top) = cx.top().cloned() {
        return step_frame(cx, top);
    }
    if let Some(t) = cx.s.turn.clone() {
        let who = t.who;
        if !cx.s.ch(who).able() {
            cx.emit(Event::TurnEnded {
                who,
                how: TurnEnd::Lost,
            });
            return Ok(Flow::Go);
        }
        if t.opening {
            let ok = check::opening_action(&cx.s).is_some_and(|a| check::check_action(&cx.s, who, &a, None).is_ok());
            if !ok {
                // ING-R69: the action that started the fight cannot be taken any more.
                cx.emit(Event::Automatic {
                    who,
                    step: AutoStep::OpeningDropped,
                    why: AutoWhy::NotLegal,
                });
                cx.emit(Event::OpeningDone);
                return Ok(Flow::Go);
            }
        }
        return Ok(Flow::Wait);
    }
    flow::next_round(cx)
}

/// Steps the top frame.
fn step_frame(cx: &mut Cx, top: Frame) -> Result<Flow, EngineError> {
    match top {
        Frame::Attack(a) => attack::attack_step(cx, *a),
        Frame::Walk(w) => movement::walk_step(cx, w),
        Frame::Ready(w) => ready::step(cx, w),
        Frame::Conscious { who, .. } => conscious::step(cx, who),
        Frame::AfterDodge { who, used } => after_dodge::step(cx, who, used),
    }
}
