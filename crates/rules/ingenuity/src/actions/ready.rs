//! Ready: the action that ends the turn waiting for a trigger, and firing or holding it.
//!
//! Ready costs 1 action, ends the turn and records an action (an attack with a weapon in hand,
//! or a move) and a trigger; the action fires as a reaction when the trigger happens, and the
//! readying expires at the start of the character's next turn (ING-R24). Which readied
//! characters a trigger sets off, and the window that asks them, are in `trigger`. The
//! decision behind this module: readying, the fire-or-hold decision and what firing does are
//! one action's check, listing and resolution; firing reuses the checks and the resolution of
//! the attack and the move it stands for.

use crate::codes::{self, no};
use crate::command::{Action, Command};
use crate::event::{Cost, Event, TurnEnd};
use crate::setup::Cid;
use crate::state::{AttackKind, Cx, Frame, R, Readied, ReadyAction, ReadyWindow, State, Trigger};
use fray_engine::{EngineError, Flow, Reject};

use super::attack::{attack_ok, declare_attack, weapon_in_hand};
use super::movement::{begin_walk, not_prone, way};
use super::{Plan, charge, end_turn, known, on_map, pay};

/// The check of a Ready action by `who`: what it readies.
pub(crate) fn check(s: &State, who: Cid, r: &Readied) -> Result<Plan, Reject> {
    let verdict = match &r.action {
        ReadyAction::Attack { target, slot } => {
            weapon_in_hand(s, who, *slot, "a readied attack needs a weapon in hand")?;
            if let Some(t) = target
                && (!known(s, *t) || *t == who || !s.enemies(who, *t) || !s.ch(*t).present())
            {
                return Err(no(
                    codes::INVALID_TARGET,
                    "a readied attack names an enemy in the fight",
                ));
            }
            Ok(())
        }
        ReadyAction::Move { to } => {
            if !s.setup.map.contains(*to) || s.setup.map.get(*to).is_some_and(|c| c.blocked) {
                return Err(no(codes::INVALID_TARGET, format!("{to} cannot be moved to")));
            }
            Ok(())
        }
    };
    verdict.map(|()| Plan::Plain)
}

/// The readied attacks of `me`'s turn, in their order: each weapon in hand, each trigger.
pub(crate) fn list(s: &State, me: Cid, out: &mut Vec<Action>) {
    // Ready an attack with a weapon in hand.
    for slot in super::attack::held_weapons(s, me) {
        for trigger in [Trigger::Approach, Trigger::Attack, Trigger::Turn] {
            out.push(Action::Ready(Readied {
                action: ReadyAction::Attack { target: None, slot },
                trigger,
            }));
        }
    }
}

/// Resolves a Ready action: 1 action (unless commanded, `via`), the readied action recorded,
/// and the turn ends.
pub(crate) fn resolve(cx: &mut Cx, who: Cid, via: Option<Cid>, r: &Readied) {
    charge(cx, who, via, 1);
    cx.emit(Event::ReadySet {
        who,
        readied: r.clone(),
    });
    end_turn(cx, who, TurnEnd::Ready);
}

/// Whether a readied action can be taken against `subject` now, and its plan.
pub fn fire_ok(s: &State, who: Cid, subject: Cid) -> Result<Plan, Reject> {
    if s.options.ready_uses_reaction && !s.can_react(who) {
        return Err(no(codes::NO_REACTION, "no reaction left to act on the readied action"));
    }
    let Some(r) = &s.ch(who).ready else {
        return Err(no(codes::NOT_NOW, "nothing is readied"));
    };
    match &r.action {
        ReadyAction::Attack { target, slot } => {
            let t = target.unwrap_or(subject);
            attack_ok(s, who, t, *slot).map(|()| Plan::Plain)
        }
        ReadyAction::Move { to } => {
            let from = on_map(s, who)?;
            not_prone(s, who)?;
            way(s, who, from, *to, s.info(who).stats.speed, None).map(Plan::Walk)
        }
    }
}

/// The check of the fire-or-hold decision (`Stage::Ready`) of `who`, set off by `subject`.
pub(crate) fn check_decision(s: &State, who: Cid, subject: Cid, cmd: &Command) -> Result<Plan, Reject> {
    match cmd {
        Command::Hold => Ok(Plan::Plain),
        Command::Fire => fire_ok(s, who, subject),
        _ => Err(no(codes::NOT_NOW, "fire or hold")),
    }
}

/// The answers of `Stage::Ready`, in their order.
pub(crate) fn answers(out: &mut Vec<Command>) {
    out.push(Command::Fire);
    out.push(Command::Hold);
}

/// Steps a ready window (`Frame::Ready`): its next candidate who can still act on the trigger
/// is asked; the others are passed over; with none left the window closes.
pub(crate) fn step(cx: &mut Cx, w: ReadyWindow) -> Result<Flow, EngineError> {
    if let Some(&c) = w.candidates.get(w.asked as usize) {
        let still = cx.s.ch(c).ready.as_ref().is_some_and(|r| r.trigger == w.trigger)
            && cx.s.ch(w.subject).present()
            && fire_ok(&cx.s, c, w.subject).is_ok();
        if still {
            return Ok(Flow::Wait);
        }
        let mut w = w;
        w.asked += 1;
        cx.update(Frame::Ready(w));
        return Ok(Flow::Go);
    }
    cx.pop();
    Ok(Flow::Go)
}

/// The answer to the fire-or-hold decision of `who` (`fire`: fire, else hold): the window asks
/// its next candidate next.
pub(crate) fn answer(cx: &mut Cx, who: Cid, subject: Cid, fire_it: bool, plan: Plan) -> R {
    let Some(Frame::Ready(mut w)) = cx.top().cloned() else {
        return Err(EngineError::Bug("a ready decision without its window".into()));
    };
    w.asked += 1;
    cx.update(Frame::Ready(w));
    if fire_it {
        fire(cx, who, subject, plan)?;
    }
    Ok(())
}

/// Fires `who`'s readied action at `subject`, who set it off.
fn fire(cx: &mut Cx, who: Cid, subject: Cid, plan: Plan) -> R {
    let Some(r) = cx.s.ch(who).ready.clone() else {
        return Ok(());
    };
    cx.emit(Event::ReadyUsed { who, fired: true });
    if cx.s.options.ready_uses_reaction {
        pay(
            cx,
            who,
            Cost {
                reaction: true,
                ..Cost::default()
            },
        );
    }
    match r.action {
        ReadyAction::Attack { target, slot } => {
            let t = target.unwrap_or(subject);
            let attr = crate::command::default_attr(&cx.s, who, slot);
            let prof = crate::command::default_prof(&cx.s, who, slot);
            declare_attack(cx, who, t, slot, attr, prof, AttackKind::Readied)?;
        }
        ReadyAction::Move { .. } => {
            begin_walk(cx, who, "ready-move", plan)?;
        }
    }
    Ok(())
}
