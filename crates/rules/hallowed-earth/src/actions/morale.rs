//! Morale: intimidation (a spoken check whose result sets a monster's morale TN, HAL-R19,
//! HAL-R21) and the morale checks of the end of the round (HAL-R19..R22, HAL-H13..H15): who
//! checks, against what, and what a failure does (flight or surrender, `morale-failure`).

use super::{Cx1, concussed_penalty, dice, no, speech_ok, target_ok};
use crate::codes;
use crate::data::Ability;
use crate::options::MoraleFailure;
use crate::setup::Cid;
use crate::state::{CheckKind, Conditions, Event, State};
use fray_engine::{EngineError, Reject};

/// Whether `who` may declare an intimidation of `target`: spoken, at a foe that checks morale.
pub(crate) fn intimidate_ok(s: &State, who: Cid, target: Cid) -> Result<(), Reject> {
    speech_ok(s, who)?;
    target_ok(s, who, target, true)?;
    // HAL-R19, HAL-H22: only monsters check morale.
    if !s.stats(target).monster && !s.options.pc_morale {
        return Err(no(
            codes::BAD_TARGET,
            format!("{} is not a monster: it checks no morale", s.ch(target).name),
        ));
    }
    Ok(())
}

/// An intimidation check: its result is the TN of the target's morale check at the end of the
/// round.
pub(crate) fn intimidate(cx: Cx1<'_, '_>, who: Cid, target: Cid) -> Result<(), EngineError> {
    let s = &*cx.s;
    let name = s.ch(who).name.clone();
    let penalty = concussed_penalty(s, who);
    let bonus = s.stats(who).intimidation - penalty;
    let r = dice(cx, 1, cx.s.options.check_die, &format!("{name}'s Intimidation check"))? as u16;
    let total = r as i16 + bonus;
    cx.emit(Event::Checked {
        who,
        kind: CheckKind::Intimidation,
        roll: r,
        total,
        tn: 0,
        success: true,
    });
    // HAL-R19, HAL-R21: the target checks morale at the end of the round against it.
    cx.emit(Event::Intimidated { target, result: total });
    Ok(())
}

/// HAL-R19..R22, HAL-H13..H15: each monster still fighting checks morale if a trigger fired
/// this round. The counts are taken once, before any check, so the checks are simultaneous.
pub(crate) fn morale(cx: Cx1<'_, '_>) -> Result<(), EngineError> {
    let s = &*cx.s;
    let fighting = |side: u8, same: bool| {
        s.chars
            .iter()
            .filter(|c| c.fighting(s.options.fleeing_counts_as_fighting) && (c.side == side) == same)
            .count() as i16
    };
    let mut checks = Vec::new();
    for c in s.ids() {
        let ch = s.ch(c);
        // A fleeing monster has broken already: it checks no more.
        if !s.fighting(c) || ch.has(Conditions::FLEEING) || !(s.stats(c).monster || s.options.pc_morale) {
            continue;
        }
        let (own, foes) = (fighting(ch.side, true), fighting(ch.side, false));
        // HAL-H15: one hit this round took more than half its maximum Wound Points.
        let big_hit = ch.worst_hit > s.wp_max(c).max(0) / 2;
        // HAL-H14: outnumbered by hostile creatures still fighting.
        let outnumbered = foes > own;
        if !(big_hit || outnumbered || ch.intimidated.is_some()) {
            continue;
        }
        // HAL-R20: 3d6 + Insight modifier + HD + allies; HAL-R21: TN 11 + opponents, or the
        // Intimidation result.
        // HAL-H6: a concussed monster's check is at −2 too.
        let dazed = concussed_penalty(s, c);
        let bonus = s.modifier(c, Ability::Insight) + i16::from(s.stats(c).hd) + (own - 1) - dazed;
        let tn = ch.intimidated.unwrap_or(11 + foes);
        checks.push((c, bonus, tn, ch.has(Conditions::HOPELESS), ch.name.clone()));
    }
    for (who, bonus, tn, hopeless, name) in checks {
        // HAL-R22: a monster to which the outcome is obvious fails, and no 3d6 is drawn for it
        // (`morale-roll-when-obvious` draws it anyway, as fray 0.1.0 did, and ignores it).
        let success = if hopeless && !cx.s.options.morale_roll_when_obvious {
            cx.emit(Event::MoraleObvious { who });
            false
        } else {
            let r = dice(cx, 3, 6, &format!("{name}'s morale"))? as u16;
            let total = r as i16 + bonus;
            let o = &cx.s.options;
            let success = !hopeless && (total > tn || (total == tn && o.morale_ties_pass));
            cx.emit(Event::Checked {
                who,
                kind: CheckKind::Morale,
                roll: r,
                total,
                tn,
                success,
            });
            success
        };
        if !success {
            match cx.s.options.morale_failure {
                MoraleFailure::Flee => cx.emit(Event::Broke { who }),
                MoraleFailure::Surrender => cx.emit(Event::Surrendered { who }),
            }
        }
    }
    Ok(())
}
