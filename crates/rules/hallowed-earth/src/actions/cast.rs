//! Spells: what a declared cast needs (the spell, speech, its cost in Mana and Stress, a fitting
//! target), how the cost is split (HAL-R26: Stress pays for Mana 1:1, as the caster chose), and
//! the cast itself: the casting check, then Stress restored or damage dealt.

use super::{Cx1, bug, concussed_penalty, damage, dice, no, roll, skill_check, speech_ok, target_ok};
use crate::codes;
use crate::plan::SpellCost;
use crate::setup::Cid;
use crate::state::{CheckKind, Event, State};
use fray_engine::{EngineError, Reject};

/// How `who` pays for its spell `spell` now (HAL-R26): the split it chose (`stress`, the part
/// paid in Stress), or by default Mana first and Stress for the rest; `None` for a spell it
/// does not have.
pub fn spell_cost(s: &State, who: Cid, spell: u8, stress: Option<i16>) -> Option<SpellCost> {
    let cost = s.stats(who).spells.get(usize::from(spell))?.mana;
    let mana = match stress {
        Some(paid) => cost - paid,
        None => cost.min(s.ch(who).mana),
    };
    Some(SpellCost {
        mana,
        stress: cost - mana,
    })
}

/// Whether `who` may declare its spell `spell` at `target`, paying `stress` of its cost in
/// Stress (or by default Mana first): a spell it has, spoken, paid for, and aimed at a foe for a
/// damaging spell or at its own side for another.
pub(crate) fn cast_ok(s: &State, who: Cid, spell: u8, target: Cid, stress: Option<i16>) -> Result<(), Reject> {
    let me = s.ch(who);
    let st = s.stats(who);
    let Some(sp) = st.spells.get(usize::from(spell)) else {
        return Err(no(codes::BAD_TARGET, format!("{} has no spell #{spell}", me.name)));
    };
    speech_ok(s, who)?;
    // HAL-R26: Stress may pay in place of Mana, 1:1, as the caster chose.
    if let Some(paid) = stress {
        let mana = sp.mana - paid;
        let refuse = |why: String| Err(no(codes::SPENT, format!("{} costs {}: {why}", sp.name, sp.mana)));
        if !(0..=sp.mana).contains(&paid) {
            return refuse(format!("{paid} Stress is not a part of it"));
        }
        if mana > me.mana {
            return refuse(format!(
                "{} has {} Mana, not the {mana} to pay in Mana",
                me.name, me.mana
            ));
        }
        if paid > me.stress {
            return refuse(format!(
                "{} has {} Stress, not the {paid} to pay in Stress",
                me.name, me.stress
            ));
        }
    } else if me.mana + me.stress < sp.mana {
        return Err(no(
            codes::SPENT,
            format!(
                "{} costs {} and {} has {} Mana and {} Stress",
                sp.name, sp.mana, me.name, me.mana, me.stress
            ),
        ));
    }
    target_ok(s, who, target, sp.damage.is_some())
}

/// A spell cast on the caster's count (HAL-R26): its cost paid as the check found it split, the
/// casting check, then what the spell does: Stress restored, or (after an attack roll unless
/// `spells-hit-automatically`) damage.
pub(crate) fn cast(cx: Cx1<'_, '_>, who: Cid, n: u8, target: Cid, spell: Option<SpellCost>) -> Result<(), EngineError> {
    let s = &*cx.s;
    let name = s.ch(who).name.clone();
    let penalty = concussed_penalty(s, who);
    let sp = s.stats(who).spells[usize::from(n)].clone();
    // HAL-R26: the caster's split of Stress and Mana, 1:1 ([`spell_cost`]).
    let SpellCost { mana, stress } = spell.ok_or_else(|| bug("a spell cast without its cost"))?;
    cx.emit(Event::Spent { who, mana, stress });
    let bonus = cx.s.stats(who).casting - penalty;
    let tn = sp.tn;
    let success = skill_check(
        cx,
        who,
        CheckKind::Casting,
        bonus,
        tn,
        &format!("{name}'s casting of {}", sp.name),
    )?;
    if success {
        if let Some(d) = sp.restores {
            let v = roll(cx, d, &format!("{}'s Stress restored", sp.name))?.max(0);
            cx.emit(Event::Restored { who: target, stress: v });
        } else if let Some(d) = sp.damage {
            let kind = sp.types.join("/");
            let hit = if cx.s.options.spells_hit_automatically {
                true
            } else {
                let defense = cx.s.defense(target);
                let n = dice(
                    cx,
                    1,
                    cx.s.options.check_die,
                    &format!("{name}'s {} against Defense", sp.name),
                )? as u16;
                let total = n as i16 + bonus;
                let hit = total >= defense;
                cx.emit(Event::Attacked {
                    by: who,
                    target,
                    natural: n,
                    total,
                    defense,
                    hit,
                    crit: false,
                    reposte: false,
                });
                hit
            };
            if hit {
                let v = roll(cx, d, &format!("{}'s damage", sp.name))?.max(0);
                damage::deal(cx, who, target, v, None, &kind, &sp.types)?;
            }
        }
    }
    Ok(())
}
