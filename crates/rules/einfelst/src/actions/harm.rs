//! Harm (EIN-R34, EIN-R24, EIN-H13, EIN-H22): marking it on the Physical or Mental track,
//! asking how to split it when the split matters, and the critical injury of a creature it
//! breaks.
//!
//! Every action and hazard that deals Harm calls [`harm`]; the split decision it may open is
//! checked, listed and resolved here too. The ways to split an amount are the track's
//! arithmetic and live with it in `state` ([`splits`]), so the command parser and the text can
//! name them without depending on resolution.

use crate::Einfelst;
use crate::codes;
use crate::command::Command;
use crate::plan::{Plan, Say, no, not_checked};
use crate::setup::Cid;
use crate::state::{Event, Frame, SplitFrame, State, Status, place, splits};
use fray_engine::{Cx, EngineError, Flow, Reject};

/// Harm to a creature (EIN-R34): points at once (EIN-R24); on a track at once when there is
/// only one way to mark it, else the creature's seat splits it (a frame).
pub fn harm(cx: &mut Cx<'_, Einfelst>, who: Cid, mental: bool, amount: u8) -> Result<(), EngineError> {
    if amount == 0 || cx.s.ch(who).out() && cx.s.ch(who).status != Status::Incapacitated {
        return Ok(());
    }
    if cx.s.stats(who).harm_points.is_some() {
        cx.emit(Event::Harmed {
            who,
            mental,
            parts: Vec::new(),
            points: amount,
        });
        return Ok(());
    }
    if !split_matters(&cx.s, who, mental, amount) {
        let parts = splits(amount).into_iter().next().unwrap_or_default();
        return marked(cx, who, mental, parts);
    }
    cx.push(Frame::Split(SplitFrame { who, mental, amount }))
}

/// Marks Harm on a track; a creature it breaks rolls its critical injury (EIN-H22).
pub(crate) fn marked(cx: &mut Cx<'_, Einfelst>, who: Cid, mental: bool, parts: Vec<u8>) -> Result<(), EngineError> {
    let before = cx.s.ch(who).status;
    cx.emit(Event::Harmed {
        who,
        mental,
        parts,
        points: 0,
    });
    if before != Status::Broken && cx.s.ch(who).status == Status::Broken {
        let what = format!("{}'s critical injury", cx.s.ch(who).name);
        let roll = fray_dice::roll(cx.dice, 1, 6, fray_dice::Keep::All, &what)?.total as u8;
        cx.emit(Event::Injured { who, roll });
    }
    Ok(())
}

/// Whether splitting the Harm makes any difference on the track: when every way marks the same
/// rows, nobody is asked.
pub fn split_matters(s: &State, who: Cid, mental: bool, amount: u8) -> bool {
    let c = s.ch(who);
    let rows = if mental { c.harm.mental } else { c.harm.physical };
    let ways = splits(amount);
    let first = ways.first().map(|p| place(rows, s.options.harm_slots, p));
    ways.iter().any(|p| Some(place(rows, s.options.harm_slots, p)) != first)
}

/// A `split <levels>` answer (EIN-R34): one of the ways `amount` may be split.
pub(crate) fn check_split(amount: u8, parts: &[u8], say: Say) -> Result<Plan, Reject> {
    if splits(amount).iter().any(|p| p == parts) {
        Ok(Plan::Plain)
    } else {
        let sum: u32 = parts.iter().map(|&p| u32::from(p)).sum();
        Err(no(say, codes::BAD_SPLIT, || {
            format!("the levels add up to {sum}; they must add up to {amount} (and each be 1 to 3)")
        }))
    }
}

/// Every way to split `amount` Harm, as the answers to the decision.
pub(crate) fn list(amount: u8, push: &mut impl FnMut(Command) -> bool) {
    for p in splits(amount) {
        push(Command::Split(p));
    }
}

/// Resolves a `split`: the split decision is done, and the Harm is marked as split.
pub(crate) fn resolve_split(cx: &mut Cx<'_, Einfelst>, who: Cid, mental: bool, c: &Command) -> Result<(), EngineError> {
    let Command::Split(parts) = c else {
        return Err(not_checked(c));
    };
    cx.pop();
    marked(cx, who, mental, parts.clone())
}

/// The split decision on top of the stack: asked while its creature is in the fight (or
/// incapacitated); dropped once it is out otherwise.
pub(crate) fn split_step(cx: &mut Cx<'_, Einfelst>, sp: SplitFrame) -> Result<Flow, EngineError> {
    if cx.s.ch(sp.who).status == Status::Fighting || cx.s.ch(sp.who).status == Status::Incapacitated {
        Ok(Flow::Wait)
    } else {
        cx.pop();
        Ok(Flow::Go)
    }
}
