//! Weapon attacks and the Reposte: what a declared attack, defensive attack or throw needs
//! (a weapon in hand, a foe), the attack roll against Defense with its natural hits, misses and
//! criticals (HAL-R35, HAL-H1, HAL-H3), and the Reposte a creature in full defence makes when
//! attacked (HAL-R14, HAL-H9: a weapon attack within the threat range).
//!
//! The Reposte is a weapon attack, so its offer, its check, its answers and its strike are here
//! with the attack that opens it, rather than in a file that would have to call back in.

use super::hurt::take_action;
use super::weapons::{weapon_reach, weapon_ready, weapon_usable};
use super::{Cx1, damage, dice, no, roll, target_ok};
use crate::command::Command;
use crate::plan::Plan;
use crate::setup::Cid;
use crate::state::{Cap, Conditions, Event, Frame, State};
use crate::{HallowedEarth, codes, odds};
use fray_engine::{Answer, EngineError, Reject};

/// Whether `who` may declare an attack on `target` with weapon `weapon` (`drawing`: the weapon
/// its declared Free action draws, counted as in hand).
pub(crate) fn attack_ok(s: &State, who: Cid, target: Cid, weapon: u8, drawing: Option<u8>) -> Result<(), Reject> {
    weapon_usable(s, who, weapon, drawing)?;
    target_ok(s, who, target, true)
}

/// Whether `who` may declare a defensive attack, on `target` with weapon `weapon` or without an
/// attack (`target` none).
pub(crate) fn defensive_ok(
    s: &State,
    who: Cid,
    target: Option<Cid>,
    weapon: u8,
    drawing: Option<u8>,
) -> Result<(), Reject> {
    match target {
        // HAL-R8: without an attack the weapon does not matter (its speed counts as 0).
        None => Ok(()),
        Some(t) => {
            weapon_usable(s, who, weapon, drawing)?;
            target_ok(s, who, t, true)
        }
    }
}

/// Whether `who` may declare a throw of weapon `weapon` at `target`: a weapon made for throwing.
pub(crate) fn throw_ok(s: &State, who: Cid, weapon: u8, target: Cid, drawing: Option<u8>) -> Result<(), Reject> {
    let w = weapon_usable(s, who, weapon, drawing)?;
    if !w.thrown {
        return Err(no(codes::NO_WEAPON, format!("{} is not made for throwing", w.name)));
    }
    target_ok(s, who, target, true)
}

/// A throw: the weapon leaves the thrower's hand, then strikes as a ranged attack.
pub(crate) fn throw(cx: Cx1<'_, '_>, who: Cid, weapon: u8, target: Cid) -> Result<(), EngineError> {
    cx.emit(Event::Thrown { who, weapon });
    strike(cx, who, target, weapon, false, true)
}

/// A weapon attack (HAL-R35, HAL-H1, HAL-H3) and its damage.
pub(crate) fn strike(
    cx: Cx1<'_, '_>,
    by: Cid,
    target: Cid,
    w: u8,
    reposte: bool,
    thrown: bool,
) -> Result<(), EngineError> {
    let s = &*cx.s;
    let o = &s.options;
    let weapon = s.stats(by).weapons[usize::from(w)].clone();
    let me = s.ch(by);
    let foe = s.ch(target);
    let bonus = odds::attack_bonus(s, by, target, &weapon, thrown);
    let defense = s.defense(target);
    let top = o.check_die;
    let crit_from = weapon.crit_range.unwrap_or(top);
    let why = format!("{}'s {} against {}", me.name, weapon.name, foe.name);
    let natural = dice(cx, 1, top, &why)? as u16;
    let o = &cx.s.options;
    let total = natural as i16 + bonus;
    // HAL-R35: a hit equals or exceeds Defense; HAL-H3: the top face hits, a 1 misses.
    let mut hit = total >= defense;
    if natural == top && o.natural_top_hits {
        hit = true;
    }
    if natural == 1 && o.natural_1_misses {
        hit = false;
    }
    // HAL-H3: a natural roll in the crit range crits, on a hit unless `crit-needs-hit` is off.
    let mut crit = natural >= crit_from && (hit || !o.crit_needs_hit) && !(natural == 1 && o.natural_1_misses);
    if hit && o.paralyzed_auto_crit && cx.s.ch(target).has(Conditions::PARALYZED) {
        crit = true;
    }
    hit |= crit;
    cx.emit(Event::Attacked {
        by,
        target,
        natural,
        total,
        defense,
        hit,
        crit,
        reposte,
    });
    // HAL-R14: a creature in full defence that is attacked may Reposte (after the attack).
    let guarding = cx.s.ch(target).has(Conditions::GUARDING);
    if guarding && can_reposte(&cx.s, target, by) {
        cx.push(Frame::Reposte {
            by: target,
            against: by,
        })?;
    }
    if hit {
        let d = roll(
            cx,
            weapon.damage,
            &format!("{}'s {} damage", cx.s.ch(by).name, weapon.name),
        )?
        .max(0);
        // HAL-R28: the wound keeps every damage type of the weapon.
        let kind = weapon.types.join("/");
        damage::deal(cx, by, target, d, crit.then_some(weapon.crit), &kind, &weapon.types)?;
    }
    Ok(())
}

/// The weapons `by` could Reposte with against `against`: melee weapons in hand that reach it
/// (HAL-H9: a Reposte is a weapon attack within the threat range).
pub fn reposte_weapons(s: &State, by: Cid, against: Cid) -> impl Iterator<Item = u8> + '_ {
    let d = s.distance(by, against);
    (0..s.stats(by).weapons.len() as u8)
        .filter(move |&w| weapon_ready(s, by, w).is_ok_and(|x| !x.ranged() && weapon_reach(s, x, false) >= d))
}

/// Whether `by` may Reposte now at all (HAL-R17, HAL-R30): its Reaction unused, able to act,
/// and, if Dying, no action taken this round.
pub fn may_react(s: &State, by: Cid) -> bool {
    let c = s.ch(by);
    let cap = s.cap_now(by);
    // HAL-R30: a Dying creature's one action a round, and not on its own turn.
    let dying_busy = cap == Cap::Dying && (c.actions > 0 || s.turn.is_some_and(|t| t.who == by));
    // HAL-R3: nor does a Surprised creature react in round 1.
    !c.gone() && !c.reacted && cap != Cap::Out && !c.has(Conditions::SURPRISED) && !dying_busy
}

/// Whether `by` may Reposte against `against` now: it may react at all ([`may_react`]) and a
/// weapon in hand reaches ([`reposte_weapons`]).
pub fn can_reposte(s: &State, by: Cid, against: Cid) -> bool {
    may_react(s, by) && reposte_weapons(s, by, against).next().is_some()
}

/// The plan of `reposte` (with weapon `w`, or by default the first weapon that reaches) by
/// `by` against `against`: the weapon it strikes with.
pub(crate) fn check_reposte(s: &State, by: Cid, against: Cid, w: Option<u8>) -> Result<Plan, Reject> {
    let mut weapons = reposte_weapons(s, by, against);
    match w {
        Some(w) if weapons.any(|x| x == w) => Some(w),
        // The first weapon that reaches, by default.
        None => weapons.next(),
        _ => None,
    }
    .map(Plan::Reposte)
    .ok_or_else(|| no(codes::OUT_OF_REACH, "no weapon in hand reaches the creature"))
}

/// The answers to a Reposte's offer, in their fixed order: each weapon that reaches, then
/// `pass`; `push` keeps those the check accepts.
pub(crate) fn list_reposte(
    s: &State,
    by: Cid,
    against: Cid,
    out: &mut Vec<Answer<HallowedEarth>>,
    push: impl Fn(&mut Vec<Answer<HallowedEarth>>, Command),
) {
    for w in reposte_weapons(s, by, against) {
        push(out, Command::Reposte(Some(w)));
    }
    push(out, Command::Pass);
}

/// A Reposte taken (HAL-R14, HAL-H9): the offer is closed, the Reaction is an action taken, and
/// the weapon strikes back.
pub(crate) fn reposte(cx: Cx1<'_, '_>, by: Cid, against: Cid, weapon: u8) -> Result<(), EngineError> {
    cx.pop();
    take_action(cx, by, true)?;
    strike(cx, by, against, weapon, true, false)
}
