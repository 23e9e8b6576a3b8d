//! Hazards (EIN-R35 to EIN-R42, EIN-H4, EIN-H8, EIN-H27): Fear tests, fire (catching it, its
//! damage each round, and the `extinguish` manoeuvre that puts it out), and poison.
//!
//! Fire and poison come from several places (a GM ruling, a weapon's hit, the start of a
//! round); each is written once here and called from there, so a flaming sword and the
//! Director's torch set a creature alight the same way. The falls and the deprivation the
//! Director calls are rulings only, and stay with the rulings (`actions::rulings`).

use crate::Einfelst;
use crate::codes;
use crate::command::Command;
use crate::data::Action;
use crate::options::{PoisonZeroTie, Position};
use crate::plan::{Plan, Say, no, not_checked, paid};
use crate::setup::Cid;
use crate::state::{Event, Fire, PushSlot, State, Status};
use fray_engine::{Cx, EngineError, Reject};

use super::harm::harm;
use super::manoeuvres::{slow, spend};
use super::roll::{Kind, offer, pushable, raw, test};

/// A Fear test (EIN-R35 to EIN-R37).
pub fn fear(cx: &mut Cx<'_, Einfelst>, who: Cid, value: u8, position: Position) -> Result<(), EngineError> {
    let s = &*cx.s;
    let me = s.ch(who);
    // EIN-R35, EIN-H8: the player characters in the roller's zone, without Severe Mental Harm.
    let helpers = s
        .ids()
        .filter(|&o| {
            let c = s.ch(o);
            c.pc && c.side == me.side
                && (o != who || s.options.fear_counts_self)
                && !matches!(c.status, Status::Fled | Status::Removed)
                && c.zone == me.zone
                && c.harm.mental[2] == 0
        })
        .count() as u8;
    let help = helpers.min(s.options.fear_help_max);
    let got = test(
        cx,
        who,
        Action::Endure,
        Kind::Fear,
        value,
        crate::state::Why::Fear,
        help,
    )?;
    let i = match position {
        Position::Controlled => 0,
        Position::Risky => 1,
        Position::Desperate => 2,
    };
    // EIN-R36: the test passes on as many successes as the Fear value; a Controlled pass
    // gives the bonus for the next roll.
    if got >= value {
        if position == Position::Controlled && cx.s.options.controlled_bonus > 0 {
            let dice = cx.s.options.controlled_bonus;
            cx.emit(Event::Bonus { who, dice });
        }
        Ok(())
    } else {
        // EIN-R37: a failure deals the Mental Harm of the position (by default 2, 3 or 4).
        let amount = cx.s.options.fear_harm[i];
        harm(cx, who, true, amount)
    }
}

/// Poison (EIN-R41, EIN-R42, EIN-H27).
pub fn poison(cx: &mut Cx<'_, Einfelst>, who: Cid, toxicity: u8, mental: bool) -> Result<(), EngineError> {
    let d = raw(cx, toxicity, crate::state::Why::Toxin, "the poison")?;
    let v = test(cx, who, Action::Endure, Kind::Hazard, 0, crate::state::Why::Poison, 0)?;
    // EIN-R41: the victim ahead takes none, a tie 1, behind the poison's successes.
    let amount = if v > d {
        0
    } else if v == d {
        if d == 0 && cx.s.options.poison_zero_tie == PoisonZeroTie::None {
            0
        } else {
            1
        }
    } else {
        d
    };
    cx.emit(Event::Poisoned {
        who,
        next: amount.saturating_sub(1),
        mental,
    });
    harm(cx, who, mental, amount)
}

/// Catching fire (EIN-R38): the creature burns at `intensity` and takes the ignition's Harm at
/// once (`fire-ignition-harm`), with no roll.
pub(crate) fn ignite(cx: &mut Cx<'_, Einfelst>, who: Cid, intensity: u8) -> Result<(), EngineError> {
    cx.emit(Event::Ignited { who, intensity });
    // EIN-R38: catching fire harms at once, a fixed amount with no roll.
    let h = cx.s.options.fire_ignition_harm;
    harm(cx, who, false, h)
}

/// The successes that put out a fire of its intensity (EIN-R40, EIN-H4).
fn fire_need(s: &State, fire: Fire) -> u8 {
    s.options.fire_extinguish[(fire.intensity.clamp(1, 3) - 1) as usize]
}

/// EIN-R40: extinguishing successes add up until they reach the fire's number.
pub(crate) fn extinguished(cx: &mut Cx<'_, Einfelst>, who: Cid, got: u8) {
    if let Some(fire) = cx.s.ch(who).fire {
        let need = fire_need(&cx.s, fire);
        let saved = fire.saved.saturating_add(got);
        cx.emit(Event::Doused {
            who,
            saved,
            out: saved >= need,
        });
    }
}

/// `extinguish`: a slow manoeuvre of a burning creature (EIN-R40).
pub(crate) fn check_extinguish(s: &State, who: Cid, n: u8, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    let pay = slow(s, who, n, say)?;
    if me.fire.is_none() {
        return Err(no(say, codes::NOT_NOW, || format!("{} is not on fire", me.name)));
    }
    Ok(Plan::Pay(pay))
}

/// Resolves `extinguish`.
pub(crate) fn resolve_extinguish(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    c: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    let fire = cx.s.ch(who).fire;
    // EIN-R40: Finesse; successes build up until they reach the fire's number.
    spend(cx, who, paid(plan, c)?, true);
    let fire = fire.ok_or_else(|| not_checked(c))?;
    let need = fire_need(&cx.s, fire);
    let why = crate::state::Why::Extinguish;
    let (got, push) = pushable(cx, who, Action::Finesse, Kind::Test, need, why, PushSlot::Extinguish)?;
    extinguished(cx, who, got);
    if cx.s.ch(who).fire.is_some() {
        offer(cx, push)?;
    }
    Ok(())
}

/// The next creature whose fire or poison has not yet struck this round (EIN-R39, EIN-R42,
/// EIN-H27), if any.
pub(crate) fn due(s: &State) -> Option<Cid> {
    s.ids().find(|&c| {
        let ch = s.ch(c);
        // The incapacitated keep burning and suffering the poison.
        matches!(ch.status, Status::Fighting | Status::Incapacitated)
            && ch.ticked < s.round
            && (ch.fire.is_some() || ch.poison.is_some())
    })
}

/// Fire, then poison, strike `who` at the start of a round (EIN-R39, EIN-R42, EIN-H27).
pub(crate) fn tick(cx: &mut Cx<'_, Einfelst>, who: Cid) -> Result<(), EngineError> {
    let ch = cx.s.ch(who).clone();
    cx.emit(Event::Ticked { who });
    if let Some(f) = ch.fire {
        let dmg = cx.s.options.fire_damage[(f.intensity.clamp(1, 3) - 1) as usize];
        let got = test(cx, who, Action::Endure, Kind::Hazard, 0, crate::state::Why::Fire, 0)?;
        harm(cx, who, false, dmg.saturating_sub(got))?;
    }
    if let Some(p) = ch.poison {
        cx.emit(Event::Poisoned {
            who,
            next: p.next.saturating_sub(1),
            mental: p.mental,
        });
        harm(cx, who, p.mental, p.next)?;
    }
    Ok(())
}

/// The turn's `extinguish` candidate.
pub(crate) fn list(push: &mut impl FnMut(Command) -> bool) {
    push(Command::Extinguish);
}
