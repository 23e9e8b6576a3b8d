//! The flow of the combat: rounds, turns and who decides next. [`advance`] runs every
//! automatic step until a seat must decide or the combat is over: the set-up before round 1
//! (the ambush, the cards, Fear at the start), the hazards at the start of each later round
//! (EIN-R39, EIN-R42, EIN-H27), the swap stage (EIN-R5), and the turns in card order (EIN-R2 to
//! EIN-R4, EIN-R16), with the frame on top of the stack stepped first.
//!
//! The flow knows the order of things and no rule of an action: each step it takes is a call
//! into the action or topic that owns it (`actions::attack` steps an attack, `actions::hazards`
//! burns and poisons, ...). Which member of a group sharing a card acts (EIN-R2) is "who decides
//! next", so that pick's check, list and resolution are here too.

use crate::Einfelst;
use crate::actions::{ambush, attack, cards, flee, harm, hazards, restraint, swaps};
use crate::codes;
use crate::command::Command;
use crate::options::GroupOrder;
use crate::plan::{Plan, Say, no, not_checked};
use crate::state::{Event, Frame, RoundStage, State};
use fray_engine::resolve::settle;
use fray_engine::{Cx, EngineError, Flow, Reject, Seat};

/// Runs the start: the ambush, the cards and Fear, then the first decision.
pub fn start(cx: &mut Cx<'_, Einfelst>) -> Result<(), EngineError> {
    advance(cx)
}

/// Runs automatic steps until a seat must decide or the combat is over.
pub fn advance(cx: &mut Cx<'_, Einfelst>) -> Result<(), EngineError> {
    settle(cx, |cx| {
        let s = &*cx.s;
        if s.outcome.is_some() {
            return Ok(Flow::Wait);
        }
        if let Some(f) = s.frames.last().copied() {
            return frame(cx, f);
        }
        if s.stage != RoundStage::Setup
            && let Some(winner) = s.last_side_standing()
        {
            cx.emit(Event::Ended { winner });
            return Ok(Flow::Go);
        }
        match s.stage {
            RoundStage::Setup => setup_step(cx),
            RoundStage::Hazards => hazard_step(cx),
            RoundStage::Swaps => {
                if s.swapping.is_empty() {
                    cx.emit(Event::Ordered);
                    Ok(Flow::Go)
                } else if let Some(seat) = s.swapping.iter().find(|&x| swaps::swaps_blocked(s, x)) {
                    // EIN-R5: every swap this seat could make needs a seat that is done.
                    cx.emit(Event::Ready { seat: seat.0 });
                    Ok(Flow::Go)
                } else {
                    Ok(Flow::Wait)
                }
            }
            RoundStage::Turns => turn_step(cx),
        }
    })
}

fn setup_step(cx: &mut Cx<'_, Einfelst>) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if !s.ambushed && s.setup.ambush.is_some() {
        ambush::ambush(cx)?;
        return Ok(Flow::Go);
    }
    // EIN-R4: cards are dealt only here, before round 1; later rounds keep them.
    if let Some(who) = cards::next_to_draw(s) {
        cards::deal(cx, who)?;
        return Ok(Flow::Go);
    }
    // Fear at the start (fray's own, option `fear-at-start`): each player character facing a
    // creature with a Fear value tests against the highest.
    let mut tests = Vec::new();
    if s.options.fear_at_start {
        for c in s.ids().filter(|&c| s.ch(c).pc && !s.ch(c).out()) {
            let worst = s
                .ids()
                .filter(|&o| s.foes(c, o) && !s.ch(o).out())
                .map(|o| s.stats(o).fear)
                .max()
                .unwrap_or(0);
            if worst > 0 {
                tests.push((c, worst));
            }
        }
    }
    cx.emit(Event::SetupDone);
    let position = cx.s.options.default_position;
    for (c, v) in tests.into_iter().rev() {
        hazards::fear(cx, c, v, position)?;
    }
    Ok(Flow::Go)
}

fn hazard_step(cx: &mut Cx<'_, Einfelst>) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if s.round == 0 {
        cx.emit(Event::RoundStarted { round: 1 });
        return Ok(Flow::Go);
    }
    // EIN-R39, EIN-R42, EIN-H27: fire, then poison, at the start of each later round.
    if let Some(who) = hazards::due(s) {
        hazards::tick(cx, who)?;
        return Ok(Flow::Go);
    }
    let seats = swaps::seats(s);
    if seats.is_empty() {
        cx.emit(Event::Ordered);
    } else {
        cx.emit(Event::Staged {
            stage: RoundStage::Swaps,
            seats,
        });
    }
    Ok(Flow::Go)
}

fn turn_step(cx: &mut Cx<'_, Einfelst>) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    match s.turn {
        Some(t) => {
            let c = s.ch(t.who);
            let holds = s.chars.iter().any(|o| o.held_by == Some(t.who));
            let how = if c.out() {
                Some(crate::state::TurnEnd::Out)
            } else if c.left[t.n as usize] == [0, 0] && !holds {
                // The turn ends by itself: nothing is left (EIN-R16).
                Some(crate::state::TurnEnd::Spent)
            } else {
                None
            };
            if let Some(how) = how {
                cx.emit(Event::TurnEnded { who: t.who, how });
                Ok(Flow::Go)
            } else {
                Ok(Flow::Wait)
            }
        }
        None => match s.order.current_slot() {
            // EIN-R2: the group's seat picks which member takes the turn now.
            Some(_) if group_choices(s) != 0 => Ok(Flow::Wait),
            Some(at) => {
                cx.emit(Event::TurnStarted { who: at.who, n: at.n });
                Ok(Flow::Go)
            }
            None => {
                cx.emit(Event::RoundStarted { round: s.round + 1 });
                Ok(Flow::Go)
            }
        },
    }
}

fn frame(cx: &mut Cx<'_, Einfelst>, f: Frame) -> Result<Flow, EngineError> {
    match f {
        Frame::Attack(a) => attack::attack_step(cx, a),
        Frame::Flee(fl) => flee::flee_step(cx, fl),
        Frame::Break(b) => restraint::break_step(cx, b),
        Frame::Split(sp) => harm::split_step(cx, sp),
        Frame::Keep(_) => Ok(Flow::Wait),
        Frame::Push(p) => {
            if cx.s.ch(p.who).out() {
                // Out before deciding (a GM ruling): the roll stands.
                cx.pop();
                Ok(Flow::Go)
            } else {
                Ok(Flow::Wait)
            }
        }
    }
}

/// The members of a group sharing a card (EIN-R2) from which the group's seat picks the one
/// that acts now, a bit per creature: when the card's turn is due, no member has begun it, at
/// least two of them are still to act on it, and `group-order = "director"`. Zero otherwise.
pub fn group_choices(s: &State) -> u64 {
    if s.options.group_order != GroupOrder::Director
        || s.stage != RoundStage::Turns
        || s.turn.is_some()
        || !s.frames.is_empty()
        || s.outcome.is_some()
    {
        return 0;
    }
    let Some(cur) = s.order.current_slot() else { return 0 };
    let Some(me) = s.chars.get(cur.who as usize) else {
        return 0;
    };
    let (Some(group), true) = (me.group, me.shares) else {
        return 0;
    };
    let slots = s.order.slots();
    let Some(i) = s.order.position_of(cur) else { return 0 };
    let key = slots[i].key;
    let seat = s.seat_of(cur.who);
    let mut bits = 0u64;
    for sl in slots[i..].iter().take_while(|sl| sl.key == key) {
        let ok = s
            .chars
            .get(sl.who as usize)
            .is_some_and(|o| o.group == Some(group) && o.shares && !o.out() && s.seat_of(sl.who) == seat);
        if ok && sl.active && !sl.acted && sl.who < 64 {
            bits |= 1 << sl.who;
        }
    }
    if bits.count_ones() >= 2 { bits } else { 0 }
}

/// A group's pick (EIN-R2): `act <id>` naming one of `choices`, the members still to act on
/// the card.
pub(crate) fn group_pick(s: &State, seat: Seat, choices: u64, c: &Command, say: Say) -> Result<Plan, Reject> {
    match c {
        Command::Act(x) => {
            if *x < 64 && choices >> x & 1 == 1 {
                Ok(Plan::Plain)
            } else if let Some(c) = s.chars.get(*x as usize)
                && s.seat_of(*x) != seat
            {
                Err(no(say, codes::BAD_TARGET, || {
                    format!(
                        "{} is {}'s: act <id> names a member of the group still to act on this card (EIN-R2)",
                        c.name,
                        s.seat_name(s.seat_of(*x))
                    )
                }))
            } else {
                Err(no(
                    say,
                    codes::BAD_TARGET,
                    || "act <id>: a member of the group still to act on this card (EIN-R2)",
                ))
            }
        }
        _ => Err(no(
            say,
            codes::NOT_NOW,
            || "the group's seat first picks which member acts now: act <id> (EIN-R2)",
        )),
    }
}

/// The members a group's seat may send, in encounter order (the check keeps those still to act).
pub(crate) fn list_group(s: &State, push: &mut impl FnMut(Command) -> bool) {
    for x in s.ids() {
        push(Command::Act(x));
    }
}

/// Resolves a group's pick: the member sent starts its turn on the card (EIN-R2).
pub(crate) fn resolve_group(cx: &mut Cx<'_, Einfelst>, command: &Command) -> Result<(), EngineError> {
    let Command::Act(who) = command else {
        return Err(not_checked(command));
    };
    // EIN-R2: the member the group's seat sends next.
    cx.emit(Event::GroupTurn { who: *who });
    if let Some(at) = cx.s.order.current_slot() {
        cx.emit(Event::TurnStarted { who: at.who, n: at.n });
    }
    Ok(())
}
