//! Damage and injuries: a hit's damage comes off Armour (HAL-R36) and goes to Stress first, the
//! rest to Wound Points (HAL-R25); a critical hit is multiplied and goes to Wound Points, then
//! the injury chance is rolled (HAL-R37, HAL-R38, HAL-H4, HAL-H5); an injury comes from the
//! table of a damage type (HAL-R39..R41, HAL-H8, HAL-H25), the attacker's seat picking the table
//! when the weapon has several (the `injury` answer).
//!
//! Weapon attacks and damaging spells both end here, so it is a topic of its own.

use super::{Cx1, dice, no, not_now, roll};
use crate::command::Command;
use crate::options::{CritArmourOrder, DualAbilityDamage, InjuryChance};
use crate::plan::Plan;
use crate::setup::Cid;
use crate::state::{Cause, Conditions, Event, Frame, State};
use crate::{HallowedEarth, codes, odds};
use fray_engine::{Answer, EngineError, Reject};

/// Damage of one hit: Armour off each hit (HAL-R36), Stress first and the rest to Wound Points
/// (HAL-R25); a critical hit multiplied, all to Wound Points (HAL-R37, HAL-H4), then the injury
/// roll (HAL-R38, HAL-H5).
pub(crate) fn deal(
    cx: Cx1<'_, '_>,
    by: Cid,
    target: Cid,
    d: i16,
    crit: Option<u8>,
    kind: &str,
    types: &[String],
) -> Result<(), EngineError> {
    let s = &*cx.s;
    let armour = s.stats(target).armour;
    let Some(mult) = crit else {
        // HAL-R36: Armour off each hit; HAL-R25: Stress first, the rest (with the option) to
        // Wound Points.
        let floor = i64::from(s.options.armour_floor);
        let dmg = odds::after_armour(d.into(), armour.into(), floor) as i16;
        let now = s.ch(target).stress;
        let stress = dmg.min(now);
        let overflow = if now > 0 && !s.options.stress_overflow {
            0
        } else {
            dmg - stress
        };
        cx.emit(Event::Damaged {
            who: target,
            stress,
            wp: overflow,
            kind: kind.into(),
            cause: Cause::Hit,
        });
        return Ok(());
    };
    let m = i16::from(mult);
    let floor = i64::from(s.options.armour_floor);
    let after = |v: i16| odds::after_armour(v.into(), armour.into(), floor) as i16;
    // HAL-R37: a crit multiplies the damage by the weapon's multiplier, and all of it goes to
    // Wound Points (no Stress below).
    let wp = match s.options.crit_armour_order {
        CritArmourOrder::MultiplyThenReduce => after(d.saturating_mul(m)),
        CritArmourOrder::ReduceThenMultiply => after(d).saturating_mul(m),
    };
    let chance = match s.options.injury_chance {
        InjuryChance::WoundDamage => wp,
        InjuryChance::RolledDamage => d.saturating_mul(m),
    };
    cx.emit(Event::Damaged {
        who: target,
        stress: 0,
        wp,
        kind: kind.into(),
        cause: Cause::Crit,
    });
    // The dead suffer no injury worth rolling for.
    if cx.s.ch(target).has(Conditions::DEAD) {
        return Ok(());
    }
    let name = cx.s.ch(target).name.clone();
    let r = dice(cx, 1, 100, &format!("injury chance for {name}"))? as u16;
    cx.emit(Event::InjuryRoll {
        who: target,
        roll: r,
        chance,
    });
    // HAL-R38: a d100 at or under the crit's damage means a Combat Injury.
    if i16::try_from(r).unwrap_or(i16::MAX) <= chance {
        if types.len() > 1 {
            // HAL-R39: the attacker's seat picks the table.
            cx.push(Frame::InjuryType {
                by,
                target,
                types: types.to_vec(),
            })?;
        } else {
            injure(cx, target, types.first().map_or("blunt", String::as_str))?;
        }
    }
    Ok(())
}

/// A combat injury from the table of `kind` (HAL-R39..R41, HAL-H8, HAL-H25).
pub(crate) fn injure(cx: Cx1<'_, '_>, target: Cid, kind: &str) -> Result<(), EngineError> {
    let s = &*cx.s;
    let table = s.setup.injuries.table(kind).to_vec();
    let name = s.ch(target).name.clone();
    let shared = &cx.s.setup.injuries;
    let table_name = if shared.0.contains_key(kind) {
        kind.to_string()
    } else {
        "blunt".to_string()
    };
    let n = table.len().min(100) as u16;
    let entry = dice(cx, 1, n, &format!("{name}'s {table_name} injury"))? as u16 - 1;
    let e = table[usize::from(entry)].clone();
    // HAL-R41: a d4 for the arm or hand: 1–2 the main one.
    let main = if e.side {
        Some(dice(cx, 1, 4, &format!("which arm of {name}"))? <= 2)
    } else {
        None
    };
    let mut loss = Vec::new();
    if let Some(d) = e.damage {
        let why = format!("{name}'s {} ability damage", e.name);
        // HAL-R40: an entry naming two abilities (Cracked Skull) damages both.
        match cx.s.options.dual_ability_damage {
            DualAbilityDamage::OneRoll => {
                let v = roll(cx, d, &why)?.max(0);
                loss.extend(e.abilities.iter().map(|&a| (a, v)));
            }
            DualAbilityDamage::SeparateRolls => {
                for &a in &e.abilities {
                    let v = roll(cx, d, &why)?.max(0);
                    loss.push((a, v));
                }
            }
        }
    }
    cx.emit(Event::Injured {
        who: target,
        table: table_name,
        entry: entry as u8,
        main,
        loss,
    });
    Ok(())
}

/// An injury table picked (HAL-R39): one of the damage types of the frame on top of the stack.
pub(crate) fn injury_type(s: &State, t: &str) -> Result<Plan, Reject> {
    let Some(Frame::InjuryType { types, .. }) = s.frames.last() else {
        return Err(not_now());
    };
    if types.iter().any(|x| x == t) {
        Ok(Plan::Plain)
    } else {
        Err(no(
            codes::BAD_INJURY_TYPE,
            format!(
                "'{t}' is not one of the damage types{}: {}",
                fray_engine::diag::suggestion(t, types.iter().map(String::as_str)),
                types.join(", ")
            ),
        ))
    }
}

/// The answers to an injury table's pick (HAL-R39): each damage type of the frame on top of the
/// stack.
pub(crate) fn list_injury(
    s: &State,
    out: &mut Vec<Answer<HallowedEarth>>,
    push: impl Fn(&mut Vec<Answer<HallowedEarth>>, Command),
) {
    if let Some(Frame::InjuryType { types, .. }) = s.frames.last() {
        for t in types {
            push(out, Command::Injury(t.clone()));
        }
    }
}

/// The injury table picked (HAL-R39): the pick is closed and the injury rolled on that table.
pub(crate) fn picked(cx: Cx1<'_, '_>, target: Cid, kind: &str) -> Result<(), EngineError> {
    cx.pop();
    injure(cx, target, kind)
}
