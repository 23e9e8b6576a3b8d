//! Weapons in hand: drawing one that is carried (or putting the one in hand away)
//! and picking up one that lies in the zone; both fast manoeuvres.
//!
//! The check, the resolution and the legal candidates of the two manoeuvres sit together: what
//! may be drawn is what the list offers, so the two cannot drift apart.

use crate::Einfelst;
use crate::codes;
use crate::command::Command;
use crate::plan::{Plan, Say, no, paid};
use crate::setup::Cid;
use crate::state::{Event, State};
use fray_engine::{Cx, EngineError, Reject};

use super::manoeuvres::{fast, spend};

/// `draw [weapon]`: a weapon carried and not in hand, or (with none named) the one in hand put
/// away; a natural weapon is never put away.
pub(crate) fn check_draw(s: &State, who: Cid, n: u8, w: Option<u8>, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    // EIN-R18: drawing or swapping a weapon is a fast manoeuvre.
    let pay = fast(s, who, n, say)?;
    if w.is_none()
        && let Some(n) = me.wield.and_then(|w| s.weapon(w)).filter(|w| w.natural())
    {
        return Err(no(say, codes::NO_WEAPON, || {
            format!("{} cannot put its {} away", me.name, n.name)
        }));
    }
    match w {
        None if me.wield.is_some() => Ok(Plan::Pay(pay)),
        Some(w) if me.carried.has(w) && me.wield != Some(w) => Ok(Plan::Pay(pay)),
        _ => Err(no(
            say,
            codes::NO_WEAPON,
            || "draw a weapon carried and not in hand, or put the one in hand away",
        )),
    }
}

/// `pick-up <weapon>`: a weapon that lies in the creature's zone.
pub(crate) fn check_pick_up(s: &State, who: Cid, n: u8, w: u8, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    // EIN-R18: picking up a dropped item is a fast manoeuvre.
    let pay = fast(s, who, n, say)?;
    if s.dropped.iter().any(|&(x, z)| x == w && z == me.zone) {
        Ok(Plan::Pay(pay))
    } else {
        Err(no(say, codes::NO_WEAPON, || "no such weapon lies in this zone"))
    }
}

/// The turn's weapon manoeuvres: putting away, each weapon carried (two of a kind once), each
/// weapon lying in the zone (once each).
pub(crate) fn list(s: &State, who: Cid, push: &mut impl FnMut(Command) -> bool) {
    let me = s.ch(who);
    push(Command::Draw(None));
    for (i, &w) in me.carried.items().iter().enumerate() {
        // Two of a kind are one choice.
        if !me.carried.items()[..i].contains(&w) {
            push(Command::Draw(Some(w)));
        }
    }
    let mut seen: Vec<u8> = Vec::new();
    for &(w, z) in &s.dropped {
        if z == me.zone && !seen.contains(&w) {
            seen.push(w);
            push(Command::PickUp(w));
        }
    }
}

/// Resolves `draw`.
pub(crate) fn resolve_draw(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    w: Option<u8>,
    c: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    spend(cx, who, paid(plan, c)?, false);
    cx.emit(Event::Wielded { who, weapon: w });
    Ok(())
}

/// Resolves `pick-up`.
pub(crate) fn resolve_pick_up(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    w: u8,
    c: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    spend(cx, who, paid(plan, c)?, false);
    cx.emit(Event::PickedUp { who, weapon: w });
    Ok(())
}
