//! Moving (EIN-R13, EIN-R15): into a neighbouring zone (over an obstacle, with its
//! manoeuvre and test), clearing an obstacle that blocks the way, and the places inside a zone
//! (closing in beside a creature, standing apart, taking cover).
//!
//! Each manoeuvre's check, resolution and legal candidates sit together here. The check hands
//! on the obstacle it found (its [`Plan::Obstacle`]), so resolution tests exactly the obstacle
//! the check let the creature try; crossing and clearing are also where a pushed obstacle test
//! lands (`actions::push`).

use crate::Einfelst;
use crate::codes;
use crate::command::Command;
use crate::data::{Action, Obstacle};
use crate::plan::{Pay, Plan, Say, no, not_checked, paid};
use crate::setup::Cid;
use crate::state::{Event, PushSlot, State, Why};
use crate::zones::MapExt;
use fray_engine::{Cx, EngineError, Reject};
use fray_space::ZoneId;

use super::harm::harm;
use super::manoeuvres::{fast, slow, spend};
use super::roll::{Kind, circumstance_extra, offer, pushable};

/// Fails unless `z` neighbours `from`.
pub(crate) fn neighbour(s: &State, from: ZoneId, z: ZoneId, say: Say) -> Result<(), Reject> {
    if s.setup.zones.distance(from, z) == Some(1) {
        Ok(())
    } else {
        Err(no(say, codes::OUT_OF_REACH, || {
            format!("{} is not a neighbouring zone", s.setup.zones.id(z))
        }))
    }
}

/// An obstacle's label as words (`fallen-beam` is "fallen beam").
pub fn label_text(label: &str) -> String {
    label.replace(['-', '_'], " ")
}

/// `move <zone>`: into a neighbouring zone, with the manoeuvre its obstacle takes (EIN-R13,
/// EIN-R15).
pub(crate) fn check_move(s: &State, who: Cid, n: u8, z: ZoneId, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    neighbour(s, me.zone, z, say)?;
    let ob = s.obstacle(me.zone, z);
    // A cleared obstacle is no longer crossed (EIN-R15).
    let crossing = ob.map(|(_, o)| *o).filter(|o| !o.clear);
    let cross = |pay: Pay| Plan::Obstacle {
        pay,
        obstacle: crossing,
    };
    match ob {
        // EIN-R15: an obstacle that blocks the way must be cleared first.
        Some((label, ob)) if ob.clear && !s.open(me.zone, z) => {
            let to = s.setup.zones.id(z);
            Err(no(say, codes::OUT_OF_REACH, || {
                format!(
                    "the {} blocks the way to {to}: it must be cleared first (clear {to})",
                    label_text(label)
                )
            }))
        }
        // EIN-R15: some obstacles take the slow manoeuvre to cross (a cleared one none).
        Some((_, ob)) if !ob.clear && ob.slow => slow(s, who, n, say).map(cross),
        // EIN-R13: stepping into a neighbouring zone takes one fast manoeuvre.
        _ => fast(s, who, n, say).map(cross),
    }
}

/// `clear <zone>`: the obstacle that blocks the way there, with its manoeuvre (EIN-R15).
pub(crate) fn check_clear(s: &State, who: Cid, n: u8, z: ZoneId, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    neighbour(s, me.zone, z, say)?;
    // EIN-R15: clearing takes the obstacle's manoeuvre (and, when resolved, its test).
    let clear = |ob: &Obstacle, pay: Pay| Plan::Obstacle {
        pay,
        obstacle: Some(*ob),
    };
    match s.blocking(me.zone, z) {
        Some((_, ob)) if ob.slow => slow(s, who, n, say).map(|pay| clear(ob, pay)),
        Some((_, ob)) => fast(s, who, n, say).map(|pay| clear(ob, pay)),
        None => Err(no(say, codes::NOT_NOW, || {
            format!(
                "nothing blocks the way to {}: there is nothing to clear",
                s.setup.zones.id(z)
            )
        })),
    }
}

/// `close <id>`: beside another creature in the zone.
pub(crate) fn check_close(s: &State, who: Cid, n: u8, x: Cid, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    // EIN-R13: moving within the zone, beside someone, is a fast manoeuvre too.
    let pay = fast(s, who, n, say)?;
    match s.chars.get(x as usize) {
        Some(t) if x != who && !t.out() && t.zone == me.zone && me.beside != Some(x) => Ok(Plan::Pay(pay)),
        _ => Err(no(
            say,
            codes::BAD_TARGET,
            || "close in on another creature in the zone, not already beside it",
        )),
    }
}

/// `withdraw`: apart in the zone.
pub(crate) fn check_withdraw(s: &State, who: Cid, n: u8, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    let pay = fast(s, who, n, say)?;
    if me.far {
        return Err(no(say, codes::NOT_NOW, || format!("{} already stands apart", me.name)));
    }
    Ok(Plan::Pay(pay))
}

/// `cover`: a free place of cover in the zone.
pub(crate) fn check_cover(s: &State, who: Cid, n: u8, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    let pay = fast(s, who, n, say)?;
    let spots = s.setup.zones.cover(me.zone);
    let taken = s
        .chars
        .iter()
        .filter(|o| !o.out() && o.zone == me.zone && o.cover)
        .count();
    if me.cover {
        Err(no(say, codes::NOT_NOW, || format!("{} is already in cover", me.name)))
    } else if taken >= spots as usize {
        Err(no(say, codes::NO_COVER, || {
            format!("{} has no free place of cover", s.setup.zones.id(me.zone))
        }))
    } else {
        Ok(Plan::Pay(pay))
    }
}

/// The turn's moves: every neighbouring zone, every way blocked that may be cleared, every
/// creature to close in on, then withdrawing and taking cover.
pub(crate) fn list(s: &State, who: Cid, push: &mut impl FnMut(Command) -> bool) {
    let me = s.ch(who);
    for &z in s.setup.zones.neighbours(me.zone) {
        push(Command::Move(z));
    }
    // Only what blocks the way can be cleared (EIN-R15).
    for &z in s.setup.zones.neighbours(me.zone) {
        if s.blocking(me.zone, z).is_some() {
            push(Command::Clear(z));
        }
    }
    for x in s.ids() {
        push(Command::Close(x));
    }
    for c in [Command::Withdraw, Command::Cover] {
        push(c);
    }
}

/// An obstacle's test (EIN-R15): its successes plus the circumstances; on a failure the push
/// is offered, and the creature stays (unless a push makes it). Whether it passed.
fn obstacle_test(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    ob: &Obstacle,
    a: Action,
    why: Why,
    slot: PushSlot,
) -> Result<bool, EngineError> {
    let need = ob.need + circumstance_extra(&cx.s, who, a, None);
    let (got, push) = pushable(cx, who, a, Kind::Test, need, why, slot)?;
    if got >= need {
        Ok(true)
    } else {
        offer(cx, push)?;
        Ok(false)
    }
}

/// Resolves `move <zone>`.
pub(crate) fn resolve_move(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    z: ZoneId,
    c: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    // The obstacle crossed, if any (a cleared one is no longer crossed: EIN-R15), and
    // its manoeuvre.
    let Plan::Obstacle { pay, obstacle: ob } = plan else {
        return Err(not_checked(c));
    };
    let action = ob.as_ref().and_then(|o| o.action);
    spend(cx, who, pay, action.is_some());
    if let (Some(o), Some(a)) = (&ob, action) {
        // EIN-R15: the obstacle's test; on a failure the creature stays (unless a push
        // makes it).
        if obstacle_test(cx, who, o, a, Why::Obstacle, PushSlot::Obstacle(z))? {
            crossed(cx, who, z)?;
        }
    } else {
        crossed(cx, who, z)?;
    }
    Ok(())
}

/// Resolves `clear <zone>`.
pub(crate) fn resolve_clear(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    z: ZoneId,
    c: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    // EIN-R15: the obstacle's manoeuvre and test clear it, once, for everyone.
    let Plan::Obstacle {
        pay,
        obstacle: Some(ob),
    } = plan
    else {
        return Err(not_checked(c));
    };
    spend(cx, who, pay, ob.action.is_some());
    match ob.action {
        Some(a) => {
            if obstacle_test(cx, who, &ob, a, Why::Clear, PushSlot::Clear(z))? {
                cleared(cx, who, z);
            }
        }
        None => cleared(cx, who, z),
    }
    Ok(())
}

/// Resolves `close <id>`.
pub(crate) fn resolve_close(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    x: Cid,
    c: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    let zone = cx.s.ch(who).zone;
    spend(cx, who, paid(plan, c)?, false);
    cx.emit(Event::Placed {
        who,
        zone,
        far: false,
        cover: false,
        beside: Some(x),
    });
    Ok(())
}

/// Resolves `withdraw` and `cover`.
pub(crate) fn resolve_place(cx: &mut Cx<'_, Einfelst>, who: Cid, c: &Command, plan: Plan) -> Result<(), EngineError> {
    let (zone, far) = (cx.s.ch(who).zone, cx.s.ch(who).far);
    spend(cx, who, paid(plan, c)?, false);
    let cover = *c == Command::Cover;
    cx.emit(Event::Placed {
        who,
        zone,
        far: if cover { far } else { true },
        cover,
        beside: None,
    });
    Ok(())
}

/// EIN-R15: the obstacle between `who`'s zone and `z` is cleared, for everyone.
pub(crate) fn cleared(cx: &mut Cx<'_, Einfelst>, who: Cid, z: ZoneId) {
    let a = cx.s.ch(who).zone;
    cx.emit(Event::Cleared { who, a, b: z });
}

/// Into the next zone (EIN-R13); a pinned creature takes its 1 Harm.
pub(crate) fn crossed(cx: &mut Cx<'_, Einfelst>, who: Cid, z: ZoneId) -> Result<(), EngineError> {
    cx.emit(Event::entered(who, z));
    if cx.s.ch(who).pinned {
        cx.emit(Event::Pinned { who, on: false });
        harm(cx, who, false, 1)?;
    }
    Ok(())
}
