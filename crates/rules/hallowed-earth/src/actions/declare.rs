//! Declaring (`declare`, `declare ... free`): whether a seat may declare for a creature now
//! (its declaration due, its seat, the order of the method, HAL-R11), what each action needs to
//! be declared at all (the action's own file says), the declarations the legal list holds, and a
//! newcomer's declaration in the middle of a round, which is scheduled as it is made (HAL-R12,
//! HAL-R13, HAL-R42).
//!
//! Whose declaration is due is part of the round's flow ([`crate::flow`]); what may be declared
//! is here. [`action_ok_with`] is also what fixes, as a count begins, which of its acts can
//! happen (HAL-R10, in `state::apply`).

use super::{Cx1, attack, bug, cast, free, heal, morale, no};
use crate::command::Command;
use crate::flow::{count_of as round_count, declarers, due, may_declare, next_declarer};
use crate::setup::Cid;
use crate::state::{Act, Action, Event, Free, Phase, State};
use crate::{HallowedEarth, codes};
use fray_engine::{Answer, EngineError, Reject, Seat};

/// Whether a creature can declare `action` (what does not depend on where anyone will be on
/// its count).
pub fn action_ok(s: &State, who: Cid, action: &Action) -> Result<(), Reject> {
    action_ok_with(s, who, action, None)
}

/// [`action_ok`] for an action declared with the Free action `free`: a weapon it draws counts
/// as in hand (HAL-R17). Each action's own file says what it needs.
pub fn action_ok_with(s: &State, who: Cid, action: &Action, free: Option<Free>) -> Result<(), Reject> {
    let drawing = match free {
        Some(Free::Draw { weapon }) => Some(weapon),
        _ => None,
    };
    match *action {
        Action::Attack { target, weapon } => attack::attack_ok(s, who, target, weapon, drawing),
        Action::Defensive { target, weapon } => attack::defensive_ok(s, who, target, weapon, drawing),
        Action::Throw { weapon, target } => attack::throw_ok(s, who, weapon, target, drawing),
        Action::Cast { spell, target, stress } => cast::cast_ok(s, who, spell, target, stress),
        Action::Use { item, target } => heal::use_ok(s, who, item, target),
        Action::Heal { target } => heal::heal_ok(s, who, target),
        Action::Intimidate { target } => morale::intimidate_ok(s, who, target),
        Action::FullDefense | Action::Move | Action::Flee => Ok(()),
    }
}

pub(crate) fn declare(s: &State, seat: Seat, who: Cid, action: &Action) -> Result<(), Reject> {
    let Some(c) = s.chars.get(usize::from(who)) else {
        return Err(no(codes::BAD_TARGET, format!("no combatant #{who}")));
    };
    if s.seat_of(who) != seat {
        return Err(not_yours(s, who));
    }
    // HAL-R6: one declared action a round.
    if c.declared.is_some() {
        return Err(no(
            codes::ALREADY_DECLARED,
            format!("{} has declared this round", c.name),
        ));
    }
    may_declare_now(s, seat, who)?;
    // HAL-R17: a weapon its declared Free action draws may be used.
    action_ok_with(s, who, action, c.declared_free)
}

/// Whether `seat` may declare for `who` now, it being its creature yet to declare: its
/// declaration is due, no turn is under way, and the method lets this seat declare for it now.
fn may_declare_now(s: &State, seat: Seat, who: Cid) -> Result<(), Reject> {
    if !due(s, who) {
        return Err(no(
            codes::NOT_NOW,
            format!("{} has no declaration to make now", s.ch(who).name),
        ));
    }
    if s.turn.is_some() && s.phase == Phase::Declaring {
        return Err(no(codes::NOT_NOW, "a turn is under way"));
    }
    if !may_declare(s, seat, who) {
        return Err(no(codes::NOT_YOUR_CREATURE, not_yet(s, seat)));
    }
    Ok(())
}

/// A Free action declared before the creature's action (HAL-R17).
pub(crate) fn declare_free(s: &State, seat: Seat, who: Cid, free: Free) -> Result<(), Reject> {
    let Some(c) = s.chars.get(usize::from(who)) else {
        return Err(no(codes::BAD_TARGET, format!("no combatant #{who}")));
    };
    if !s.options.free_actions {
        return Err(no(codes::NOT_NOW, "there are no Free actions (free-actions = false)"));
    }
    if s.seat_of(who) != seat {
        return Err(not_yours(s, who));
    }
    if c.declared.is_some() {
        return Err(no(
            codes::ALREADY_DECLARED,
            format!(
                "{} has declared this round: a free action is declared before the action",
                c.name
            ),
        ));
    }
    if c.declared_free.is_some() {
        return Err(no(
            codes::ALREADY_DECLARED,
            format!("{} has declared its free action this round", c.name),
        ));
    }
    may_declare_now(s, seat, who)?;
    free::free_ok(s, who, free)
}

/// Why a seat may not declare for `who`: it is another seat's creature, and the reason names
/// that seat. A seat commands only its own creatures, allies of another seat included (the GM's
/// seat too: it rules on any creature, `gm ...`, but declares only for those it runs).
fn not_yours(s: &State, who: Cid) -> Reject {
    no(
        codes::NOT_YOUR_CREATURE,
        format!(
            "{} belongs to seat '{}': only that seat declares for it",
            s.ch(who).name,
            s.seat_name_of(who)
        ),
    )
}

/// Why a creature of `seat` may not declare yet: whose declaration is due.
fn not_yet(s: &State, seat: Seat) -> String {
    let mut mine = Vec::new();
    declarers(s, seat, &mut mine);
    let names: Vec<&str> = mine.iter().map(|&c| s.ch(c).name.as_ref()).collect();
    match (next_declarer(s), names.as_slice()) {
        (_, [one]) => format!("it is {one}'s turn to declare"),
        (_, [first, rest @ ..]) if !rest.is_empty() => format!(
            "it is {first}'s turn to declare, or this seat's {} first",
            rest.join(" or ")
        ),
        (Some(next), _) => format!("it is {}'s turn to declare", s.ch(next).name),
        (None, _) => "this seat has no declaration due".into(),
    }
}

/// Every action a creature could declare now, in a fixed order.
pub fn declarable(s: &State, who: Cid, out: &mut Vec<Action>) {
    let st = s.stats(who);
    let all = || s.ids();
    let free = s.ch(who).declared_free;
    let mut push = |a: Action| {
        if action_ok_with(s, who, &a, free).is_ok() {
            out.push(a);
        }
    };
    for w in 0..st.weapons.len() as u8 {
        for t in all() {
            push(Action::Attack { target: t, weapon: w });
        }
    }
    for w in 0..st.weapons.len() as u8 {
        for t in all() {
            push(Action::Defensive {
                target: Some(t),
                weapon: w,
            });
        }
    }
    push(Action::Defensive {
        target: None,
        weapon: 0,
    });
    push(Action::FullDefense);
    for sp in 0..st.spells.len() as u8 {
        for t in all() {
            // HAL-R26: listed with the default split (Mana first); `pay ...` chooses another.
            push(Action::Cast {
                spell: sp,
                target: t,
                stress: None,
            });
        }
    }
    for it in 0..st.items.len() as u8 {
        for t in all() {
            push(Action::Use { item: it, target: t });
        }
    }
    for w in 0..st.weapons.len() as u8 {
        for t in all() {
            push(Action::Throw { weapon: w, target: t });
        }
    }
    for t in all() {
        push(Action::Heal { target: t });
    }
    for t in all() {
        push(Action::Intimidate { target: t });
    }
    push(Action::Move);
    push(Action::Flee);
}

/// Appends every declaration `who` may make now, in a fixed order: its actions, then (with
/// `with_free`) the Free actions it may declare first; `push` keeps those the check accepts, with
/// their plan (what the legal list holds for that creature).
pub(crate) fn list(
    s: &State,
    who: Cid,
    with_free: bool,
    out: &mut Vec<Answer<HallowedEarth>>,
    push: impl Fn(&mut Vec<Answer<HallowedEarth>>, Command),
) {
    let mut actions = Vec::new();
    declarable(s, who, &mut actions);
    for action in actions {
        push(out, Command::Declare { who, action });
    }
    // HAL-R17: the Free actions it may declare first, after the actions.
    if with_free && s.options.free_actions && s.ch(who).declared_free.is_none() {
        free::list_declarations(s, who, out, push);
    }
}

/// A declaration made: logged, and a newcomer's scheduled at once (HAL-R12).
pub(crate) fn declared(cx: Cx1<'_, '_>, who: Cid, action: Action, newcomer: bool) -> Result<(), EngineError> {
    cx.emit(Event::Declared {
        who,
        action: Some(action),
    });
    if newcomer {
        schedule_newcomer(cx, who, action)?;
    }
    Ok(())
}

/// A Free action declared (HAL-R17).
pub(crate) fn free_declared(cx: Cx1<'_, '_>, who: Cid, free: Free) {
    cx.emit(Event::FreeDeclared { who, free: Some(free) });
}

/// HAL-R12, HAL-R13, HAL-R42: a newcomer's declaration in the middle of a round acts this
/// round if its count is still ahead, or is kept for a catch-up turn next round.
fn schedule_newcomer(cx: Cx1<'_, '_>, who: Cid, action: Action) -> Result<(), EngineError> {
    let s = &*cx.s;
    let base = s
        .ch(who)
        .base
        .ok_or_else(|| bug("a newcomer declared before its initiative"))?;
    let count = round_count(s, who, base, &action);
    let at = count_begun(s).then(|| s.count_under_way()).flatten();
    // HAL-R42: passed = at or below the last count fully resolved, or below a count under way
    // that has begun (something happened on it); at that very count it joins it.
    let passed = s.last_count.is_some_and(|l| count <= l) || at.is_some_and(|a| count < a);
    // A newcomer's Free action goes with the action it declared it with, whatever the
    // `free-action-timing`.
    let act = Act {
        who,
        action,
        count,
        catch_up: false,
        was: s.ch(who).cap(),
        free: s.ch(who).declared_free,
        lone: false,
    };
    cx.emit(Event::Scheduled {
        act,
        this_round: !passed,
    });
    Ok(())
}

/// Whether the count under way has begun: a turn of it has done something (moved, acted,
/// raised a decision of another seat) or finished. fray goes from one count to the next without
/// a pause, so the first turn of a count, untouched, stands for the moment between counts
/// (HAL-R42).
fn count_begun(s: &State) -> bool {
    if s.caps.is_empty() {
        return false;
    }
    let Some(key) = s.count_under_way() else {
        return false;
    };
    let untouched = s.turn.is_some_and(|t| t.moved == 0 && !t.acted && !t.freed) && s.frames.is_empty();
    let finished = s.order.slots().iter().any(|x| x.key == key && x.acted);
    !untouched || finished
}
