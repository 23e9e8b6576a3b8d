//! Pushing a roll (EIN-H20): the answer to the push decision a test offered. The dice that
//! missed are rolled again, the roller takes 1 Harm, and the new successes go where the test
//! was going (an attack or a defence, a flight, a break-free, a fire put out, an obstacle
//! crossed or cleared).
//!
//! The offer is made by the test itself (`actions::roll`); the answer lives here, above every
//! action whose test may be pushed, because it is the one place that sends the result back to
//! each of them.

use crate::Einfelst;
use crate::command::Command;
use crate::state::{AttackFrame, BreakFrame, Event, FleeFrame, Frame, PushFrame, PushSlot};
use fray_engine::{Cx, EngineError};

use super::harm::harm;
use super::hazards::extinguished;
use super::movement::{cleared, crossed};
use super::roll::{Kind, attribute, successes};

/// The answer to a push decision (EIN-H20): the dice that missed are rolled again and the
/// roller takes 1 Harm (Physical for a test of Strength or Dexterity, Mental otherwise); the
/// result goes where the test was going.
pub(crate) fn pushed_or_not(cx: &mut Cx<'_, Einfelst>, p: PushFrame, push: bool) -> Result<(), EngineError> {
    cx.pop();
    if !push {
        return Ok(());
    }
    let dice = p.pool - p.got;
    let text = format!("{}'s pushed {} ({dice} dice)", cx.s.ch(p.who).name, p.action.word());
    let (more, faces) = successes(cx, dice, &text)?;
    cx.emit(Event::Pushed {
        who: p.who,
        dice,
        successes: more,
        faces,
    });
    let got = p.got.saturating_add(more);
    let top = cx.s.frames.last().copied();
    match (p.slot, top) {
        (PushSlot::Attack, Some(Frame::Attack(a))) => cx.update(Frame::Attack(AttackFrame { att: Some(got), ..a })),
        (PushSlot::Defence, Some(Frame::Attack(a))) => cx.update(Frame::Attack(AttackFrame { def: Some(got), ..a })),
        (PushSlot::Flee, Some(Frame::Flee(f))) => cx.update(Frame::Flee(FleeFrame { rolled: Some(got), ..f })),
        (PushSlot::Break, Some(Frame::Break(b))) => cx.update(Frame::Break(BreakFrame { rolled: Some(got), ..b })),
        // The saved successes were counted already; the push adds its own.
        (PushSlot::Extinguish, _) => extinguished(cx, p.who, more),
        (PushSlot::Obstacle(z), _) if p.got < p.need && got >= p.need => crossed(cx, p.who, z)?,
        (PushSlot::Clear(z), _) if p.got < p.need && got >= p.need => cleared(cx, p.who, z),
        _ => {}
    }
    let mental = !attribute(&cx.s, p.who, p.action, Kind::Test).physical();
    harm(cx, p.who, mental, 1)
}

/// The answers to a push decision: push, or accept the roll.
pub(crate) fn list(push: &mut impl FnMut(Command) -> bool) {
    push(Command::Push(true));
    push(Command::Push(false));
}
