//! What a hit does: damage reduction, the damage through a block or not, and an on-hit effect.
//!
//! Damage is the attack total plus the weapon's damage, less the target's matching deflection
//! (physical and elemental only, ING-R57), at least `min-damage` (ING-R41); it goes to endurance
//! first, then health (ING-R42). A block puts the item in the way (ING-R51), and what its
//! durability cannot hold goes through (ING-R52); a parry adds to deflection (ING-R53). An
//! effect gives its condition unless the target's defence meets its difficulty, one instance of
//! each condition (ING-R66). The decision behind this module: the damage of an attack and of
//! anything else goes through the one [`deal`], which hands health lost on to `conscious`.

use crate::calc;
use crate::data::{DamageClass, EffectDefence, Lasts};
use crate::event::Event;
use crate::options::{DeathCheck, ParryAddsTo};
use crate::setup::Cid;
use crate::state::{Attack, AttackStage, Cx, Frame, R, State};

use super::conscious::{death_check, knock_out};

/// Damage reduction against this attack (ING-R41, ING-R46, ING-R53, ING-R57, ING-H27).
pub fn reduction(s: &State, a: &Attack) -> i16 {
    let Some(item) = s.item(a.attacker, a.slot) else {
        return 0;
    };
    let class = item.damage_type.class();
    // ING-R57: typeless damage is not reduced; physical and elemental damage meet the
    // target's deflection of that family.
    if class == DamageClass::Typeless {
        return 0;
    }
    let t = a.target;
    let mut r = calc::deflection(s, t, class);
    if class == DamageClass::Physical
        && s.options.parry_adds_to == ParryAddsTo::Deflection
        && let Some(slot) = a.defences.parry
    {
        r += s.item(t, slot).map_or(1, |i| i.parry.unwrap_or(1));
    }
    // ING-R46: the size difference shifts deflection the other way from evasion.
    r - calc::size_difference(s, a.attacker, t)
}

/// Deals a hit's damage (through a block if one is given), then its effect.
pub(crate) fn apply_hit(cx: &mut Cx, mut a: Attack, block: Option<u8>) -> R {
    a.stage = AttackStage::Done;
    cx.update(Frame::Attack(Box::new(a.clone())));
    let min = cx.s.options.min_damage;
    let t = a.target;
    let nonlethal = cx.s.item(a.attacker, a.slot).is_some_and(|i| i.nonlethal);
    let reduced_by = reduction(&cx.s, &a);
    let dealt = match block {
        // ING-R41: the matching reduction comes off, but at least `min-damage` (1 by default) is taken.
        None => Some((a.raw - reduced_by).max(min)),
        Some(slot) => {
            // Block (ING-R51, ING-R52): the item takes the hit, reduced by its block value, at
            // least 1; what its durability cannot hold goes through to the blocker.
            let k = cx.s.carried(t, slot).cloned();
            let value = cx.s.item(t, slot).and_then(|i| i.block).unwrap_or(0);
            let durability = k.map_or(0, |k| k.durability);
            let to_item = (a.raw - value).max(1);
            let taken = to_item.min(durability);
            let overflow = to_item - taken;
            cx.emit(Event::Blocked {
                who: t,
                slot,
                to_item,
                overflow,
            });
            cx.emit(Event::ItemDamaged {
                who: t,
                slot,
                amount: taken,
            });
            if overflow > 0 {
                let o = if cx.s.options.block_overflow_reduced {
                    (overflow - reduced_by).max(min)
                } else {
                    overflow
                };
                Some(o)
            } else {
                None
            }
        }
    };
    let Some(amount) = dealt else { return Ok(()) };
    deal(
        cx,
        t,
        amount,
        if block.is_some() { 0 } else { reduced_by },
        nonlethal,
        Some(&a),
    )
}

/// Deals damage: endurance first, then health (ING-R42), with what follows: an effect, the
/// consciousness fortify (ING-R60), unconsciousness and the death check (ING-R61 to ING-R63).
pub(crate) fn deal(cx: &mut Cx, who: Cid, amount: i16, reduced_by: i16, nonlethal: bool, attack: Option<&Attack>) -> R {
    let c = cx.s.ch(who);
    let health_before = c.health;
    // ING-R42: endurance takes the damage first; only what exceeds it reaches health.
    let endurance = amount.min(c.endurance.max(0));
    let to_health = amount - endurance;
    let health = to_health.min(health_before.max(0));
    cx.emit(Event::Damaged {
        who,
        amount,
        endurance,
        health,
        reduced_by,
        nonlethal,
    });
    if let Some(a) = attack {
        effect(cx, a)?;
    }
    if to_health <= 0 {
        return Ok(());
    }
    let c = cx.s.ch(who);
    if health_before <= 0 {
        // More damage at zero health: a death check, nonlethal or not (ING-R63).
        return death_check(cx, who);
    }
    if c.health <= 0 {
        // Reduced to zero: unconscious at once (ING-R61).
        if !c.unconscious {
            knock_out(cx, who);
        }
        let risk = match cx.s.options.death_check {
            DeathCheck::Overflow => to_health > health_before,
            DeathCheck::AnyZero => true,
        };
        if risk {
            if nonlethal {
                cx.emit(Event::SparedByNonlethal { who });
            } else {
                death_check(cx, who)?;
            }
        }
        return Ok(());
    }
    let missing = cx.s.info(who).stats.health - c.health;
    if !c.unconscious && missing > calc::constitution(&cx.s, who) {
        cx.push(Frame::Conscious { who, missing })?;
    }
    Ok(())
}

/// An attack's on-hit effect: its condition unless the target's defence meets the difficulty.
fn effect(cx: &mut Cx, a: &Attack) -> R {
    let Some(e) = cx.s.item(a.attacker, a.slot).and_then(|i| i.effect.clone()) else {
        return Ok(());
    };
    let t = a.target;
    // One instance of each condition (ING-R66): nothing to resist if it is already there,
    // unless this one is stronger (for the scene against one ending with the next turn).
    let c = cx.s.ch(t);
    let shorter = c.conds_until_turn & e.condition.bit() != 0;
    let stronger = shorter && e.lasts == Lasts::Scene;
    if !c.present() || (c.has(e.condition) && !stronger) {
        return Ok(());
    }
    let difficulty = e.difficulty.unwrap_or(a.total.unwrap_or(0));
    let passive = calc::effect_defence(&cx.s, t, e.defence);
    let declared = match e.defence {
        EffectDefence::Constitution => a.defences.fortify,
        EffectDefence::Willpower => a.defences.resist,
    };
    // ING-R49, ING-R50: a declared Fortify or Resist counts as the better of its roll and the
    // passive constitution or willpower.
    let defence = declared.map_or(passive, |r| r.max(passive));
    let resisted = defence >= difficulty;
    cx.emit(Event::EffectTested {
        who: t,
        cond: e.condition,
        difficulty,
        defence,
        resisted,
    });
    if !resisted {
        cx.emit(Event::Condition {
            who: t,
            cond: e.condition,
            on: true,
            until_turn_end: e.lasts == Lasts::NextTurn,
        });
    }
    Ok(())
}
