//! Triggers: which readied characters an event sets off, and the window that asks them.
//!
//! A readied action waits for its trigger (an enemy's turn, an attack, an enemy coming within
//! reach) and fires as a reaction (ING-R24); one whose character has no reaction left with
//! `ready-uses-reaction` is not asked, and the log says why (ING-H15). Turn starts, steps and
//! attacks open these windows; the Ready action itself (readying, firing, holding) is in
//! `ready`. The decision behind the split: the window is opened from three topics, which then
//! need only this small module and not the actions a readied character may fire.

use crate::calc::distance;
use crate::event::{AutoStep, Event};
use crate::setup::Cid;
use crate::state::{Cx, Frame, R, ReadyAction, ReadyWindow, State, Trigger};
use fray_space::Pos;

use super::reaction::why_no_reaction;

/// Readied characters a trigger sets off: enemies of `subject` with that trigger whose action
/// could be taken now. For [`Trigger::Approach`], `from` is where the subject came from: the
/// subject must have come within reach with this step.
pub fn ready_candidates(s: &State, trigger: Trigger, subject: Cid, from: Option<Pos>) -> Vec<Cid> {
    ready_triggered(s, trigger, subject, from)
        .into_iter()
        .filter(|&c| may_fire(s, c))
        .collect()
}

/// Readied characters whose trigger this is, whether or not they have a reaction left to act
/// on it (see [`ready_candidates`]). The approach of a `hidden` character triggers nobody.
pub fn ready_triggered(s: &State, trigger: Trigger, subject: Cid, from: Option<Pos>) -> Vec<Cid> {
    // ING-R24: a readied action waits for something its character sees; a `hidden` subject is
    // unseen by its enemies, so its approach sets nothing off (and its seat's squares stay
    // secret).
    if trigger == Trigger::Approach && s.ch(subject).has(crate::data::Cond::Hidden) {
        return Vec::new();
    }
    s.ids()
        .filter(|&c| s.enemies(c, subject))
        .filter(|&c| s.ch(c).ready.as_ref().is_some_and(|r| r.trigger == trigger))
        .filter(|&c| s.ch(c).able())
        .filter(|&c| {
            let Some(r) = &s.ch(c).ready else { return false };
            match (&r.action, trigger) {
                (ReadyAction::Attack { target: Some(t), .. }, _) if *t != subject => false,
                (ReadyAction::Attack { slot, .. }, Trigger::Approach) => {
                    let range = s.item(c, *slot).map_or(1, |i| i.range);
                    came_within(s, c, subject, from, range)
                }
                (ReadyAction::Move { .. }, Trigger::Approach) => came_within(s, c, subject, from, 1),
                _ => true,
            }
        })
        .collect()
}

/// Whether readied `c` has what acting on its trigger takes: a reaction left, with
/// `ready-uses-reaction`.
fn may_fire(s: &State, c: Cid) -> bool {
    !s.options.ready_uses_reaction || s.can_react(c)
}

/// Whether `subject`, coming from `from`, has just come within `range` of `c`.
fn came_within(s: &State, c: Cid, subject: Cid, from: Option<Pos>, range: i16) -> bool {
    let (Some(cp), Some(sp), Some(f)) = (s.ch(c).pos, s.ch(subject).pos, from) else {
        return false;
    };
    distance(s, cp, sp) <= range && distance(s, cp, f) > range
}

/// Asks the readied characters a trigger sets off (ING-R24); those whose trigger it is but who
/// cannot act on it (no reaction left with `ready-uses-reaction`, ING-H15) get a log line saying
/// so.
pub(crate) fn ready_window(cx: &mut Cx, trigger: Trigger, subject: Cid, from: Option<Pos>) -> R {
    let triggered = ready_triggered(&cx.s, trigger, subject, from);
    let cands: Vec<Cid> = triggered.iter().copied().filter(|&c| may_fire(&cx.s, c)).collect();
    for c in triggered {
        if !cands.contains(&c) {
            let why = why_no_reaction(&cx.s, c, false);
            cx.emit(Event::Automatic {
                who: c,
                step: AutoStep::ReadyNotFired,
                why,
            });
        }
    }
    if !cands.is_empty() {
        cx.push(Frame::Ready(ReadyWindow {
            trigger,
            subject,
            candidates: cands,
            asked: 0,
        }))?;
    }
    Ok(())
}
