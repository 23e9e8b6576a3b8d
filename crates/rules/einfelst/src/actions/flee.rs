//! Fleeing and chasing (EIN-R31 to EIN-R33, EIN-H26): the `flee` manoeuvre, the foes in the
//! fleer's zone asked in turn whether they chase, the flight's roll against the chasers', and
//! where everyone ends up.
//!
//! The way out is found by the movement search (`ways`) when the flight is checked and carried
//! in its plan, so resolution moves the fleer exactly the way the check approved. The chase is
//! a reaction: its check, its legal answers and its resolution sit here with the flight.

use crate::Einfelst;
use crate::codes;
use crate::command::Command;
use crate::data::Action;
use crate::plan::{Plan, Say, no, not_checked};
use crate::setup::Cid;
use crate::state::{Event, FleeFrame, Frame, PushSlot, State};
use crate::ways::{flee_route_in, flee_way_in, flee_ways};
use fray_engine::{Cx, EngineError, Flow, Reject};
use fray_space::ZoneId;

use super::manoeuvres::{may_react, opposing_asked, reaction, slow, spend};
use super::roll::{Kind, offer, pushable, test, test_need};

/// `flee <action> [zone]`: with Finesse or Sneak, not while restrained, by the way out the
/// search finds (or the neighbouring zone named).
pub(crate) fn check_flee(s: &State, who: Cid, n: u8, a: Action, to: Option<ZoneId>, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    if !matches!(a, Action::Finesse | Action::Sneak) {
        return Err(no(say, codes::NOT_NOW, || "flee with finesse or sneak (EIN-R32)"));
    }
    let pay = slow(s, who, n, say)?;
    if me.held_by.is_some() {
        return Err(no(
            say,
            codes::RESTRAINED,
            || "a restrained creature cannot flee (EIN-R31)",
        ));
    }
    let toward = match to {
        // EIN-R32: the way the fleer names.
        Some(z) => flee_way_in(s, who, z, say).map(|()| Some(z))?,
        None => flee_route_in(s, who, say)?,
    };
    Ok(Plan::Flee { pay, toward })
}

/// The turn's flights: each Action a flight may take, and for each the neighbouring zones it
/// may name.
pub(crate) fn list(s: &State, who: Cid, push: &mut impl FnMut(Command) -> bool) {
    let me = s.ch(who);
    // A way named is open only where the shortest way is (flee_way implies flee_route), so
    // only the ways flee_ways finds are tried, and only when a flight is (hot path).
    let mut ways = None;
    for a in [Action::Finesse, Action::Sneak] {
        if !push(Command::Flee(a)) {
            continue;
        }
        let ways = *ways.get_or_insert_with(|| flee_ways(s, who));
        for &z in s.setup.zones.neighbours(me.zone) {
            if ways.contains(z) {
                push(Command::FleeTo(a, z));
            }
        }
    }
}

/// Resolves `flee`: its manoeuvre is spent and the flight's frame goes on the stack.
pub(crate) fn declare(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    action: Action,
    c: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    // EIN-R32: the way the fleer names, or the way out the check found.
    let Plan::Flee { pay, toward } = plan else {
        return Err(not_checked(c));
    };
    spend(cx, who, pay, true);
    cx.push(Frame::Flee(FleeFrame {
        who,
        action,
        toward,
        rolled: None,
        asked: 0,
        chasers: 0,
    }))
}

/// The next creature to ask whether it chases (EIN-R33, EIN-H26): a foe of the fleer in its
/// zone, still in the fight, free, able to react, and not yet asked; only before the roll or
/// only after it, as `opposing-reaction-timing` says.
pub fn next_chaser(s: &State, fl: &FleeFrame) -> Option<Cid> {
    if !opposing_asked(s, fl.rolled.is_some()) {
        return None;
    }
    let zone = s.ch(fl.who).zone;
    s.ids().find(|&c| {
        let ch = s.ch(c);
        fl.asked & (1u64 << c) == 0 && s.foes(c, fl.who) && ch.zone == zone && ch.held_by.is_none() && may_react(s, c)
    })
}

/// A `chase <action>` or `pass` answer of the foe asked (EIN-R33).
pub(crate) fn check_chase(s: &State, chaser: Cid, c: &Command, say: Say) -> Result<Plan, Reject> {
    if let Command::Chase(a) = c
        && !matches!(a, Action::Finesse | Action::Track)
    {
        return Err(no(say, codes::BAD_REACTION, || "chase with finesse or track (EIN-R33)"));
    }
    // The foe asked may react (`next_chaser`): a chase is paid as a reaction (EIN-R19).
    let pay = match c {
        Command::Chase(_) => Some(reaction(s, chaser, say)?),
        _ => None,
    };
    Ok(Plan::Chaser { who: chaser, pay })
}

/// The answers of a foe asked whether it chases.
pub(crate) fn list_chase(push: &mut impl FnMut(Command) -> bool) {
    push(Command::Chase(Action::Finesse));
    push(Command::Chase(Action::Track));
    push(Command::Pass);
}

/// Resolves a chaser's answer: it is asked no more, and a chase spends its reaction.
pub(crate) fn resolve_chase(
    cx: &mut Cx<'_, Einfelst>,
    fl: FleeFrame,
    c: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    // The foe asked, as the check found it (the stage's chaser, `next_chaser`).
    let Plan::Chaser { who, pay } = plan else {
        return Err(not_checked(c));
    };
    let bit = 1u64 << who;
    let mut fl2 = FleeFrame {
        asked: fl.asked | bit,
        ..fl
    };
    if let Command::Chase(action) = c {
        spend(cx, who, pay.ok_or_else(|| not_checked(c))?, true);
        fl2.chasers |= bit;
        cx.emit(Event::Chasing { who, action: *action });
    }
    cx.update(Frame::Flee(fl2));
    Ok(())
}

pub(crate) fn flee_step(cx: &mut Cx<'_, Einfelst>, fl: FleeFrame) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if s.ch(fl.who).out() {
        cx.pop();
        return Ok(Flow::Go);
    }
    if next_chaser(s, &fl).is_some() {
        return Ok(Flow::Wait);
    }
    let need = test_need(s, fl.who, fl.action);
    let Some(got) = fl.rolled else {
        let why = crate::state::Why::Flee;
        let (got, push) = pushable(cx, fl.who, fl.action, Kind::Flee, need, why, PushSlot::Flee)?;
        cx.update(Frame::Flee(FleeFrame {
            rolled: Some(got),
            ..fl
        }));
        offer(cx, push)?;
        return Ok(Flow::Go);
    };
    cx.pop();
    let chasers: Vec<Cid> = cx.s.ids().filter(|&c| fl.chasers & (1u64 << c) != 0).collect();
    let mut cancel = 0u8;
    for &c in &chasers {
        let action = cx.s.chase_action(c);
        cancel = cancel.saturating_add(test(cx, c, action, Kind::Chase, 0, crate::state::Why::Chase, 0)?);
    }
    let net = got.saturating_sub(cancel);
    let along = |cx: &mut Cx<'_, Einfelst>, who: Cid| {
        if let Some(z) = fl.toward {
            cx.emit(Event::entered(who, z));
        }
    };
    if got < need {
        // EIN-R32: a failed flight; it stays where it is.
        cx.emit(Event::FleeFailed {
            who: fl.who,
            caught: false,
        });
    } else if net >= need {
        cx.emit(Event::Fled { who: fl.who });
        if cx.s.options.chaser_moves_on_escape {
            for &c in &chasers {
                along(cx, c);
            }
        }
    } else {
        // EIN-R33: caught; both move one zone along the way out.
        cx.emit(Event::FleeFailed {
            who: fl.who,
            caught: true,
        });
        along(cx, fl.who);
        for &c in &chasers {
            along(cx, c);
        }
    }
    Ok(Flow::Go)
}
