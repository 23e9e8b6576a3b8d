//! What being hurt costs: an action (a Reaction and most Free actions too) costs the
//! Incapacitated and the Dying a Wound Point, and the Stabilized one beyond their first of the
//! round (HAL-R29, HAL-R30, HAL-R33), as untyped damage (HAL-R43); the Dying take one action a
//! round (HAL-R30); and at the end of the round the Dying who are not Stabilized bleed
//! (HAL-R30, HAL-R34).
//!
//! Every action pays these costs the same way, so they are written once here.

use super::{Cx1, no};
use crate::codes;
use crate::setup::Cid;
use crate::state::{Cap, Cause, Conditions, Event, State, Turn};
use fray_engine::{EngineError, Reject};

/// An action (or Reaction) is taken: counted (HAL-R17), and paid for in Wound Points by the
/// Incapacitated and Dying (HAL-R29, HAL-R30) and by the Stabilized beyond their first
/// (HAL-R33); each cost is untyped Wound Point damage (HAL-R43).
pub(crate) fn take_action(cx: Cx1<'_, '_>, who: Cid, reaction: bool) -> Result<(), EngineError> {
    let cost = acting_costs(&cx.s, who);
    cx.emit(Event::Acting { who, reaction });
    pay_strain(cx, who, cost);
    Ok(())
}

/// Whether an action now costs `who` a Wound Point: always while Incapacitated or Dying
/// (HAL-R29, HAL-R30), beyond the first of the round while Stabilized (HAL-R33).
pub(crate) fn acting_costs(s: &State, who: Cid) -> bool {
    match s.cap_now(who) {
        Cap::Incapacitated | Cap::Dying => true,
        Cap::Stable => s.ch(who).actions >= 1,
        Cap::Able | Cap::Out => false,
    }
}

/// The Wound Point an action costs the hurt, as untyped damage (HAL-R43), when `cost`.
pub(crate) fn pay_strain(cx: Cx1<'_, '_>, who: Cid, cost: bool) {
    if cost {
        let kind = cx.s.options.strain_damage_type.clone();
        cx.emit(Event::Damaged {
            who,
            stress: 0,
            wp: 1,
            kind,
            cause: Cause::Strain,
        });
    }
}

/// Whether the turn's creature may still take an action that counts, as far as Dying goes: the
/// Dying take one action a round, and not after moving (HAL-R30).
pub(crate) fn dying_may_act(s: &State, t: &Turn) -> Result<(), Reject> {
    let me = s.ch(t.who);
    // HAL-R30: the Dying take one action a round, and not both move and act.
    if s.cap_now(t.who) == Cap::Dying && (t.moved > 0 || me.actions > 0) {
        return Err(no(
            codes::CANNOT_ACT,
            format!("{} is Dying: one action a round, and not after moving", me.name),
        ));
    }
    Ok(())
}

/// HAL-R30: every Dying creature that is not Stabilized (HAL-R34) loses 1 Wound Point.
pub(crate) fn bleed(cx: Cx1<'_, '_>) {
    let dying: Vec<Cid> =
        cx.s.ids()
            .filter(|&c| {
                let ch = cx.s.ch(c);
                let stable = ch.has(Conditions::STABILIZED) && cx.s.options.stabilized_stops_bleeding;
                !ch.gone() && ch.wp < 0 && !stable
            })
            .collect();
    let kind = cx.s.options.strain_damage_type.clone();
    for who in dying {
        cx.emit(Event::Damaged {
            who,
            stress: 0,
            wp: 1,
            kind: kind.clone(),
            cause: Cause::Bleeding,
        });
    }
}
