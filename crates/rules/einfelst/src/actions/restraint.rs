//! Restraint (EIN-R28 to EIN-R31, EIN-H9, EIN-H26, EIN-H30): breaking free (as a manoeuvre,
//! once a turn), the holder's answer (hold on, or let the roll decide alone), the opposed roll,
//! and letting go.
//!
//! A grapple that hits restrains (`actions::hit`); everything after that is here, the
//! break-free's check, its legal candidates and its resolution beside the holder's. What a
//! restrained creature may do at all on its turn is the turn's own gate, in `check`.

use crate::Einfelst;
use crate::codes;
use crate::command::Command;
use crate::data::Action;
use crate::options::HoldAction;
use crate::plan::{Plan, Say, no, not_checked, not_now, paid};
use crate::setup::Cid;
use crate::state::{BreakFrame, Event, Frame, PushSlot, State};
use fray_engine::{Cx, EngineError, Flow, Reject};

use super::manoeuvres::{fast, may_react, opposing_asked, reaction, spend};
use super::roll::{Kind, offer, pool, pushable, test};

/// `break-free` on the creature's turn: once a turn, with a fast manoeuvre.
pub(crate) fn check_break_free(s: &State, who: Cid, n: u8, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    if me.held_by.is_none() {
        return Err(no(say, codes::NOT_NOW, || format!("{} is not restrained", me.name)));
    }
    if me.broke_free {
        return Err(no(say, codes::NOT_NOW, || "one attempt to break free a turn (EIN-R30)"));
    }
    fast(s, who, n, say).map(Plan::Pay)
}

/// `release`: let go of everyone the creature holds (free).
pub(crate) fn check_release(s: &State, who: Cid, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    if s.chars.iter().any(|o| o.held_by == Some(who)) {
        Ok(Plan::Plain)
    } else {
        Err(no(say, codes::NOT_NOW, || format!("{} holds nobody", me.name)))
    }
}

/// The turn's `break-free` candidate.
pub(crate) fn list_break_free(push: &mut impl FnMut(Command) -> bool) {
    push(Command::BreakFree);
}

/// The turn's `release` candidate.
pub(crate) fn list_release(push: &mut impl FnMut(Command) -> bool) {
    push(Command::Release);
}

/// Resolves `break-free`: its manoeuvre is spent and the attempt's frame goes on the stack.
pub(crate) fn resolve_break_free(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    c: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    let holder = cx.s.ch(who).held_by;
    spend(cx, who, paid(plan, c)?, true);
    let holder = holder.ok_or_else(|| not_checked(c))?;
    cx.emit(Event::TriedBreak { who });
    cx.push(Frame::Break(BreakFrame {
        who,
        holder,
        rolled: None,
        hold: None,
    }))
}

/// Resolves `release`.
pub(crate) fn resolve_release(cx: &mut Cx<'_, Einfelst>, who: Cid) {
    let held: Vec<Cid> = cx.s.ids().filter(|&o| cx.s.ch(o).held_by == Some(who)).collect();
    for h in held {
        // EIN-R29: the holder letting go ends the hold.
        cx.emit(Event::Freed { who: h });
    }
}

/// A `hold` or `pass` answer of the holder.
pub(crate) fn check_hold(s: &State, holder: Cid, c: &Command, say: Say) -> Result<Plan, Reject> {
    // The holder is asked only when it may react (`asks_holder`): holding on is paid
    // as a reaction (EIN-R19).
    match s.frames.last() {
        Some(Frame::Break(b)) if b.hold.is_none() => match c {
            Command::Hold => reaction(s, holder, say).map(Plan::Pay),
            _ => Ok(Plan::Plain),
        },
        _ => Err(not_now(say)),
    }
}

/// The holder's answers.
pub(crate) fn list_hold(push: &mut impl FnMut(Command) -> bool) {
    push(Command::Hold);
    push(Command::Pass);
}

/// Resolves the holder's answer: a hold spends its reaction.
pub(crate) fn resolve_hold(
    cx: &mut Cx<'_, Einfelst>,
    b: BreakFrame,
    c: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    let hold = *c == Command::Hold;
    if hold {
        spend(cx, b.holder, paid(plan, c)?, true);
    }
    cx.update(Frame::Break(BreakFrame { hold: Some(hold), ..b }));
    Ok(())
}

/// Whether the holder is asked to hold now (EIN-R30, EIN-H26).
pub fn asks_holder(s: &State, b: &BreakFrame) -> bool {
    b.hold.is_none() && opposing_asked(s, b.rolled.is_some()) && may_react(s, b.holder)
}

pub(crate) fn break_step(cx: &mut Cx<'_, Einfelst>, b: BreakFrame) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if s.ch(b.who).out() || s.ch(b.who).held_by != Some(b.holder) {
        cx.pop();
        return Ok(Flow::Go);
    }
    if asks_holder(s, &b) {
        return Ok(Flow::Wait);
    }
    let Some(got) = b.rolled else {
        let why = crate::state::Why::BreakFree;
        let (got, push) = pushable(cx, b.who, Action::Force, Kind::BreakFree, 1, why, PushSlot::Break)?;
        cx.update(Frame::Break(BreakFrame { rolled: Some(got), ..b }));
        offer(cx, push)?;
        return Ok(Flow::Go);
    };
    cx.pop();
    let free = if b.hold == Some(true) {
        // EIN-R30, EIN-H9: an opposed roll; strictly more to get free.
        let action = match cx.s.options.hold_action {
            HoldAction::Endure => Action::Endure,
            HoldAction::Force => Action::Force,
            HoldAction::Larger => {
                let e = pool(&cx.s, b.holder, Action::Endure, Kind::BreakFree, 0).0;
                let f = pool(&cx.s, b.holder, Action::Force, Kind::BreakFree, 0).0;
                if e > f { Action::Endure } else { Action::Force }
            }
        };
        let held = test(cx, b.holder, action, Kind::BreakFree, 0, crate::state::Why::Hold, 0)?;
        got > held
    } else {
        got >= 1
    };
    // EIN-R29: escaping ends the hold; otherwise it goes on.
    cx.emit(if free {
        Event::Freed { who: b.who }
    } else {
        Event::StillHeld { who: b.who }
    });
    Ok(Flow::Go)
}
