//! Legality: the one place that decides whether a command is allowed now.
//!
//! [`check`] returns a typed [`Reject`] with a stable code and a sentence, or the command's
//! [`Plan`] (what it found out that resolving needs), and never changes anything; the
//! legal-command listing filters candidates through it and the resolver relies on it. It is
//! handed the pending decision ([`crate::stage::Stage`]) and matches on it; a command that
//! answers no decision of that stage is refused `not-now`. Stable codes (docs/ingenuity.md,
//! "Refusal codes"): `not-now`, `bad-command`,
//! `unknown-combatant`, `unknown-item`, `no-weapon`, `no-proficiency`, `no-actions`,
//! `no-reaction`, `no-stamina`, `no-focus`, `out-of-range`, `invalid-target`, `blocked`,
//! `already-moved`, `prone`, `not-loaded`, `hands`, `broken`, `bad-ruling`. Text that is not a
//! command never gets here: parsing refuses it with the engine's `unknown-command`.
//!
//! This module is the dispatch: it matches on the stage, and for a turn's action on the action,
//! and calls the check of that decision or action in its module under `crate::actions` (the
//! pick in `crate::flow`); the refusals of a command that answers nothing asked now are here.
//! The checks never name resolution: what resolving needs of them goes through the [`Plan`].

use crate::actions::{
    after_dodge, attack, command, conscious, defence, downed, extended, items, movement, on_map, posture, ready,
    ruling, task,
};
use crate::codes::{self, no};
use crate::command::{Action, Command};
use crate::event::AutoWhy;
use crate::flow;
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::{Frame, State};
use fray_engine::Reject;
use fray_space::Pos;

pub use crate::actions::Plan;
pub use crate::actions::attack::attack_ok;
pub use crate::actions::conscious::fortify_to_stay_ok;
pub use crate::actions::defence::{can_block, can_defend, holds_blocker, intercept_candidates, why_no_defence};
pub use crate::actions::extended::{action_cost, task_cost};
pub use crate::actions::reaction::{can_react, reaction_ok, why_no_reaction};
pub use crate::actions::ready::fire_ok;
pub use crate::actions::trigger::{ready_candidates, ready_triggered};
pub use crate::flow::{opening_action, opening_action_ok};

/// Checks a command against the rules, and gives its plan.
pub fn check(s: &State, cmd: &Command) -> Result<Plan, Reject> {
    check_in(s, stage(s).as_ref(), cmd)
}

/// [`check`] under `stage`, the [`crate::stage::stage`] of `s` that the caller has computed
/// (the ruleset's entry point, and the legal list for all its candidates).
pub fn check_in(s: &State, stage: Option<&Stage>, cmd: &Command) -> Result<Plan, Reject> {
    check_with(s, stage, cmd, None)
}

/// [`check`] of a `move` or `sprint` of the turn whose way to its square the caller has found
/// with the search of the whole move ([`crate::calc::Mapped::reach`] from where the character
/// stands, within its Speed): the legal list, which lists the squares that search reaches. The
/// way is the one [`check`]'s own search would find, and every other condition is checked.
pub(crate) fn check_listed_move(s: &State, stage: Option<&Stage>, cmd: &Command, way: &[Pos]) -> Result<Plan, Reject> {
    check_with(s, stage, cmd, Some(way))
}

/// [`check`] under `stage`, with the way of a move or sprint of the turn when the caller has
/// found it ([`check_listed_move`]). GM rulings are no stage: they are checked whatever the
/// game waits for.
fn check_with(s: &State, stage: Option<&Stage>, cmd: &Command, listed: Option<&[Pos]>) -> Result<Plan, Reject> {
    if s.outcome.is_some() {
        return Err(no(Reject::GAME_OVER, "the combat is over"));
    }
    if let Command::Gm(r) = cmd {
        return ruling::check(s, r).map(|()| Plan::Plain);
    }
    let Some(&stage) = stage else {
        return check_unasked(s, cmd);
    };
    match stage {
        Stage::Intercept { .. } | Stage::Defend { .. } | Stage::Block { .. } => defence::check(s, stage, cmd),
        Stage::Ready { who, subject } => ready::check_decision(s, who, subject, cmd),
        Stage::Fortify { who, .. } => conscious::check(s, who, cmd),
        Stage::AfterDodge { who, used } => after_dodge::check(s, who, used, cmd),
        Stage::Pick { team } => {
            if let Some(r) = after_automatic(s, Some(&stage), cmd) {
                return Err(r);
            }
            check_pick_stage(s, Some(team), cmd)
        }
        Stage::Extended { .. } => {
            if let Some(r) = after_automatic(s, Some(&stage), cmd) {
                return Err(r);
            }
            extended::check_waiting(cmd)
        }
        Stage::Turn { who, opening } => {
            if let Some(r) = after_automatic(s, Some(&stage), cmd) {
                return Err(r);
            }
            match cmd {
                Command::Act(a) => {
                    if opening
                        && let Some(op) = opening_action(s)
                        && *a != op
                    {
                        return Err(no(
                            codes::NOT_NOW,
                            "the action that started the fight comes first (ING-R69)",
                        ));
                    }
                    action_plan(s, who, a, None, listed)
                }
                Command::Continue | Command::Abandon => extended::check_in_turn(s, who, cmd),
                _ => Err(no(
                    codes::NOT_NOW,
                    format!("it is {}'s turn: take an action or end", s.name(who)),
                )),
            }
        }
    }
}

/// A command when no decision is asked ([`crate::stage::stage`] is `None` though the combat
/// goes on): between an attack's decisions, during a move, in a ready window with nobody left to
/// ask, or when nobody is left to pick. Refused, with what is going on.
fn check_unasked(s: &State, cmd: &Command) -> Result<Plan, Reject> {
    match s.stack.last() {
        Some(Frame::Attack(_)) => Err(no(codes::NOT_NOW, "an attack is being resolved")),
        Some(Frame::Walk(_)) => Err(no(codes::NOT_NOW, "a move is being resolved")),
        Some(Frame::Ready(_)) => match cmd {
            Command::Fire | Command::Hold => Err(no(codes::NOT_NOW, "nobody is asked")),
            _ => Err(no(codes::NOT_NOW, "fire or hold")),
        },
        // Never: these frames always ask their character.
        Some(Frame::Conscious { .. } | Frame::AfterDodge { .. }) => Err(no(codes::NOT_NOW, "nothing is asked now")),
        // No turn and no team with anyone left to pick: a pick is refused as the round over.
        None => {
            if let Some(r) = after_automatic(s, None, cmd) {
                return Err(r);
            }
            check_pick_stage(s, None, cmd)
        }
    }
}

/// A command when no turn is in progress: only a pick; `team` is the team whose pick it is.
fn check_pick_stage(s: &State, team: Option<u8>, cmd: &Command) -> Result<Plan, Reject> {
    match cmd {
        Command::Pick(c) => flow::check_pick(s, team, *c).map(|()| Plan::Plain),
        Command::Act(_) => Err(no(
            codes::NOT_NOW,
            "no turn has begun: the team whose slot it is must first pick who acts (pick <combatant>)",
        )),
        _ => Err(no(codes::NOT_NOW, "a team must pick who acts next: pick <combatant>")),
    }
}

/// A decision typed when nothing asks for it, for a step the rules just took by themselves
/// (the defence, block or fortify nobody could take): refused with what happened and why.
fn after_automatic(s: &State, stage: Option<&Stage>, cmd: &Command) -> Option<Reject> {
    use crate::event::AutoStep;
    let fits = |step: AutoStep| match step {
        AutoStep::NoDefence => matches!(
            cmd,
            Command::Dodge | Command::Parry(_) | Command::Fortify | Command::Resist
        ),
        AutoStep::NoBlock => matches!(cmd, Command::Block(_)),
        AutoStep::NoFortify => matches!(cmd, Command::Fortify | Command::Fall),
        AutoStep::ReadyNotFired => matches!(cmd, Command::Fire | Command::Hold),
        AutoStep::OpeningDropped => false,
    };
    let &(who, step, why) = s.last_auto.iter().rev().find(|(_, step, _)| fits(*step))?;
    // Only when no decision of that kind is pending now.
    let asked_now = matches!(
        (stage, cmd),
        (
            Some(Stage::Intercept { .. } | Stage::Defend { .. } | Stage::Block { .. }),
            Command::Dodge | Command::Parry(_) | Command::Fortify | Command::Resist | Command::Block(_)
        ) | (Some(Stage::Fortify { .. }), Command::Fortify | Command::Fall)
            | (Some(Stage::Ready { .. }), Command::Fire | Command::Hold)
    );
    if asked_now {
        return None;
    }
    let name = s.setup.chars.get(who as usize).map_or("?", |c| c.name.as_str());
    let what = match step {
        AutoStep::NoDefence if why == AutoWhy::DefencesTaken => {
            "had no other defence to take against the last attack, which went on"
        }
        AutoStep::NoDefence => "could not defend against the last attack, which went on without a defence",
        AutoStep::NoBlock => "could not block the last hit, which was dealt at once",
        AutoStep::NoFortify => "could not fortify to stay conscious and fell unconscious",
        AutoStep::ReadyNotFired => "could not act on the readied action",
        AutoStep::OpeningDropped => "could not take the opening action",
    };
    Some(no(
        codes::NOT_NOW,
        format!("{name} {what} ({}): nothing is asked now", why.text()),
    ))
}

/// Checks an action by `who`, and gives its plan; `via` is the commander when it was given by
/// Command.
pub fn check_action(s: &State, who: Cid, a: &Action, via: Option<Cid>) -> Result<Plan, Reject> {
    action_plan(s, who, a, via, None)
}

/// [`check_action`], with the way of a move or sprint of the turn when the caller has found it
/// (see [`check_listed_move`]).
fn action_plan(s: &State, who: Cid, a: &Action, via: Option<Cid>, listed: Option<&[Pos]>) -> Result<Plan, Reject> {
    // The way is known only for the turn's own move.
    let listed = listed.filter(|_| via.is_none());
    let c = s.ch(who);
    if !c.able() {
        return Err(no(codes::NOT_NOW, format!("{} cannot act", s.name(who))));
    }
    let cost = extended::check_cost(s, who, a, via)?;
    if via.is_some() {
        command::check_given(a, cost)?;
    }
    on_map(s, who)?;
    match a {
        Action::Move(p) => movement::check_move(s, who, *p, false, via, listed),
        Action::Sprint(p) => movement::check_move(s, who, *p, true, via, listed),
        Action::Step(p) => movement::check_step(s, who, *p, via),
        Action::Attack {
            target,
            slot,
            attr,
            prof,
        } => attack::check(s, who, *target, *slot, attr, prof),
        Action::Brandish(_) | Action::Interact(_) | Action::PickUp(_) | Action::Drop(_) | Action::Reload(_) => {
            items::check(s, who, a)
        }
        Action::StandUp | Action::DropProne | Action::SeekCover => posture::check(s, who, a),
        Action::Guard | Action::Wait | Action::End => Ok(Plan::Plain),
        Action::Ready(r) => ready::check(s, who, r),
        Action::Resuscitate(t) => downed::check_resuscitate(s, who, *t),
        Action::Kill { target, slot } => downed::check_kill(s, who, *target, *slot),
        Action::Task { difficulty, .. } => task::check(*difficulty),
        Action::Command { ally, action } => {
            command::check(s, who, *ally, action, via)?;
            check_action(s, *ally, action, Some(who))
        }
    }
}
