//! The checks of the turn's own commands: `delay` (initiative and delay, THR-R9 to THR-R19),
//! `place` (Round Zero, THR-R20 to THR-R25), and ending a turn without an Action only when none is
//! legal (turn structure, THR-R26 to THR-R40). The rules cited at the code here: THR-R17,
//! THR-R31, THR-R218.
//!
//! Only the checks and the legal candidates are here: what beginning, delaying and ending a
//! turn do is the turn flow's ([`crate::flow`]), which asks the check of a Delay here why a slot
//! began by itself. Keeping the checks apart from the flow keeps the check free of any
//! resolution code. Not stopping in an ally's square, which ending a turn also asks, is
//! `actions::movement`'s.

use crate::actions::action::any_action;
use crate::codes::{self, Say, no};
use crate::command::Command;
use crate::options::{DelayLimit, StartAreaTooSmall};
use crate::plan::Plan;
use crate::setup::Cid;
use crate::stage::Stage;
use crate::state::{Phase, State};
use fray_engine::Reject;
use fray_engine::order::DelayError;
use fray_space::Pos;

pub(crate) fn check_delay(s: &State, who: Cid, after: Option<Cid>, say: Say) -> Result<(), Reject> {
    let c = s.ch(who);
    if c.incapacitated && !s.options.incapacitated_may_delay {
        return Err(no(
            say,
            codes::CANNOT_DELAY,
            || "an Incapacitated character may not Delay",
        ));
    }
    // THR-R17: the Delay limit is per round by default (the order forgets a Delay when a round
    // starts); the option can make it once in the whole combat.
    if s.options.delay_limit == DelayLimit::OncePerCombat && c.delays > 0 {
        return Err(no(
            say,
            codes::CANNOT_DELAY,
            || "a character may Delay only once per combat (delay-limit)",
        ));
    }
    let explain = |e: DelayError| match e {
        DelayError::AlreadyDelayed => no(say, codes::CANNOT_DELAY, || {
            format!("{} has already delayed this round", s.name(who))
        }),
        DelayError::NothingLater => no(say, codes::CANNOT_DELAY, || "nobody acts later this round"),
        DelayError::NotLater => no(
            say,
            codes::CANNOT_DELAY,
            || "a Delay must name someone who acts later and has not acted this round",
        ),
        DelayError::NotCurrent => no(say, codes::CANNOT_DELAY, || "it is not this character's slot"),
    };
    s.order.can_delay(who).map_err(explain)?;
    // THR-R17: the named point is a later slot that has not acted yet, or the end of the round
    // when the option allows it.
    match after {
        None if !s.options.delay_to_end => Err(no(
            say,
            codes::CANNOT_DELAY,
            || "delaying to the end of the round is off (delay-to-end)",
        )),
        None => Ok(()),
        Some(t) => {
            if s.order.later_waiting().any(|x| x == t) {
                Ok(())
            } else {
                Err(explain(DelayError::NotLater))
            }
        }
    }
}

/// A PC's Round Zero placement: an empty, unblocked square of the Starting Area (any
/// empty square when the area is full and `start-area-too-small` allows it).
pub(crate) fn check_place(s: &State, p: Pos, say: Say) -> Result<Plan, Reject> {
    let cell = s
        .setup
        .map
        .get(p)
        .ok_or_else(|| no(say, codes::BLOCKED, || format!("{p} is off the map")))?;
    if cell.blocked {
        return Err(no(say, codes::BLOCKED, || format!("{p} is blocked")));
    }
    if s.occupant(p).is_some() {
        return Err(no(say, codes::OCCUPIED, || format!("{p} is occupied")));
    }
    let fallback = s.options.start_area_too_small == StartAreaTooSmall::AnyEmptySquare && start_area_full(s);
    if !(cell.start || fallback) {
        return Err(no(say, codes::NOT_IN_START_AREA, || {
            format!("{p} is not in the Starting Area")
        }));
    }
    Ok(Plan::Plain)
}

/// The refusal of a Delay outside the slot's decision, in the rounds.
pub(crate) fn delay_refused(s: &State, who: Cid, say: Say) -> Result<Plan, Reject> {
    if s.order.slot(who).is_some_and(|sl| sl.delayed) {
        Err(no(say, codes::CANNOT_DELAY, || {
            format!("{} has already delayed this round and must act now", s.name(who))
        }))
    } else {
        Err(no(
            say,
            codes::CANNOT_DELAY,
            || "a Delay must be declared when the slot comes up, before the turn begins",
        ))
    }
}

/// With `allow-no-action = false` an able character must take its Action before its Stance
/// step or the end of its turn, but only while it has a legal Action: one that can take none
/// (Stunned after moving, THR-R218, or nothing usable) goes on without it, so the turn can
/// always end.
pub(crate) fn no_action_ok(s: &State, st: &Stage, say: Say) -> Result<(), Reject> {
    // THR-R31: the requirement lapses when no Action is legal (THR-R218: Stunned and moved).
    if s.phase == Phase::Rounds
        && matches!(st, Stage::Turn { dash: false, .. })
        && !s.options.allow_no_action
        && s.ch(s.turn.who).able()
        && any_action(s, st, s.turn.who)
    {
        return Err(no(
            say,
            codes::NOT_NOW,
            || "taking no Action is not allowed (allow-no-action = false)",
        ));
    }
    Ok(())
}

fn start_area_full(s: &State) -> bool {
    !s.setup
        .map
        .positions()
        .any(|p| s.setup.map.get(p).is_some_and(|c| c.start && !c.blocked) && s.occupant(p).is_none())
}

/// The candidates of a slot's decision for the legal list, in its order: begin, Delay after each
/// later character, Delay to the end of the round.
pub(crate) fn slot_candidates(s: &State, push: &mut dyn FnMut(Command)) {
    push(Command::Begin);
    let later: Vec<Cid> = s.order.later_waiting().collect();
    for t in later {
        push(Command::Delay(Some(t)));
    }
    push(Command::Delay(None));
}

/// The candidates of a placement for the legal list: every square of the map, in grid order.
pub(crate) fn place_candidates(s: &State, push: &mut dyn FnMut(Command)) {
    for p in s.setup.map.positions() {
        push(Command::Place(p));
    }
}
