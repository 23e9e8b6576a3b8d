//! The movement search: the way out of the fight for a fleer (EIN-R32, EIN-R15), through the
//! zone map, past the zones its foes hold and the obstacles that block the way.
//!
//! A flight's check asks here whether the way is open (the shortest one, or the one the fleer
//! names), its plan carries the next zone found, and the legal list asks which neighbouring
//! zones lead out; the search is kept apart from the flight (`actions::flee`) because it is
//! graph work on the map rather than a rule of the flight, and it allocates nothing (the legal
//! list runs it every turn).

use crate::actions::movement::label_text;
use crate::codes;
use crate::plan::{Say, no};
use crate::setup::Cid;
use crate::state::State;
use crate::zones::MapExt;
use fray_engine::Reject;
use fray_space::{ZoneId, ZoneSet};

/// Zones held by the foes of `who` (those still in the fight).
pub fn enemy_zones(s: &State, who: Cid) -> ZoneSet {
    let mut z = ZoneSet::EMPTY;
    for (i, c) in s.chars.iter().enumerate() {
        if !c.out() && s.foes(who, i as Cid) {
            z.insert(c.zone);
        }
    }
    z
}

/// The zone a fleer stands in and the zones its flight may not pass (EIN-R32): those its foes
/// hold, but for the zone its turn began in; refused when foes hold the zone it moved into.
fn flee_from(s: &State, who: Cid, say: Say) -> Result<(ZoneId, ZoneSet), Reject> {
    let here = s.ch(who).zone;
    // Only the zone the turn began in may hold foes (EIN-R32).
    let start = s.turn.filter(|t| t.who == who).map_or(here, |t| t.from);
    let mut blocked = enemy_zones(s, who);
    blocked.remove(start);
    if here != start && blocked.contains(here) {
        return Err(no(
            say,
            codes::NO_ESCAPE,
            || "foes hold this zone, and it is not where the turn began (EIN-R32)",
        ));
    }
    Ok((here, blocked))
}

/// The first zone of the shortest way from `from` to an exit that enters no zone of `blocked`
/// and crosses no obstacle that blocks the way (EIN-R32, EIN-R15).
fn way_out(s: &State, from: ZoneId, blocked: ZoneSet) -> Option<ZoneId> {
    let zones = &s.setup.zones;
    if s.any_blocked() {
        zones.first_step_open(from, zones.exits(), blocked, |a, b| s.open(a, b))
    } else {
        zones.first_step(from, zones.exits(), blocked)
    }
}

/// The way out for a fleer (EIN-R32): `Ok(None)` when it stands in an exit zone, `Ok(Some(z))`
/// the next zone of the shortest way to an exit that passes no zone a foe holds (its own zone
/// does not count) and no obstacle not yet cleared (EIN-R15).
pub fn flee_route(s: &State, who: Cid) -> Result<Option<ZoneId>, Reject> {
    flee_route_in(s, who, Say::Sentence)
}

/// [`flee_route`], saying why it refuses as `say` asks.
pub(crate) fn flee_route_in(s: &State, who: Cid, say: Say) -> Result<Option<ZoneId>, Reject> {
    let zones = &s.setup.zones;
    let (here, blocked) = flee_from(s, who, say)?;
    // A map without exits: the fight's edge is everywhere, so the way out is open.
    if zones.is_exit(here) || zones.exits().is_empty() {
        return Ok(None);
    }
    match way_out(s, here, blocked) {
        Some(z) => Ok(Some(z)),
        None => Err(no(
            say,
            codes::NO_ESCAPE,
            || "every way to an exit passes through a zone a foe holds, or an obstacle not cleared (EIN-R32)",
        )),
    }
}

/// Whether a fleer may flee by way of the neighbouring zone `z` (EIN-R32): the link is open
/// (EIN-R15), no foe holds `z`, and from there an exit is reached without a zone a foe holds
/// (on a map without exits, any such neighbour). A fleer in an exit zone leaves from there.
pub fn flee_way(s: &State, who: Cid, z: ZoneId) -> Result<(), Reject> {
    flee_way_in(s, who, z, Say::Sentence)
}

/// [`flee_way`], saying why it refuses as `say` asks.
pub(crate) fn flee_way_in(s: &State, who: Cid, z: ZoneId, say: Say) -> Result<(), Reject> {
    let zones = &s.setup.zones;
    let (here, mut blocked) = flee_from(s, who, say)?;
    let to = zones.id(z);
    if zones.is_exit(here) {
        return Err(no(say, codes::NO_ESCAPE, || {
            format!(
                "{} stands at a way out: it flees from here, not by way of {to}",
                s.ch(who).name
            )
        }));
    }
    if zones.distance(here, z) != Some(1) {
        return Err(no(say, codes::OUT_OF_REACH, || {
            format!("{to} is not a neighbouring zone")
        }));
    }
    if let Some((label, _)) = s.blocking(here, z) {
        return Err(no(say, codes::NO_ESCAPE, || {
            format!("the {} blocks the way to {to} (EIN-R15)", label_text(label))
        }));
    }
    if blocked.contains(z) {
        return Err(no(say, codes::NO_ESCAPE, || format!("a foe holds {to} (EIN-R32)")));
    }
    // Not back through the zone it flees from.
    blocked.insert(here);
    if leads_out(s, z, blocked) {
        Ok(())
    } else {
        Err(no(say, codes::NO_ESCAPE, || {
            format!("no way to an exit goes on from {to} but through a zone a foe holds (EIN-R32)")
        }))
    }
}

/// Whether a flight that has reached `z` goes on to an exit without entering `blocked`: always
/// on a map without exits (EIN-R32).
fn leads_out(s: &State, z: ZoneId, blocked: ZoneSet) -> bool {
    let zones = &s.setup.zones;
    zones.exits().is_empty() || zones.is_exit(z) || way_out(s, z, blocked).is_some()
}

/// Every neighbouring zone [`flee_way`] accepts for `who`, without building a refusal for the
/// others (the legal list asks this on every turn).
pub fn flee_ways(s: &State, who: Cid) -> ZoneSet {
    let zones = &s.setup.zones;
    let Ok((here, mut blocked)) = flee_from(s, who, Say::Code) else {
        return ZoneSet::EMPTY;
    };
    if zones.is_exit(here) {
        return ZoneSet::EMPTY;
    }
    let open: ZoneSet = zones
        .neighbours(here)
        .iter()
        .copied()
        .filter(|&z| !blocked.contains(z) && s.open(here, z))
        .collect();
    blocked.insert(here);
    open.iter().filter(|&z| leads_out(s, z, blocked)).collect()
}
