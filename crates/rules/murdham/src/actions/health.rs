//! Health: damage taken ([`hurt`]: health lost, critical damage at half the health left or
//! more, a helmet's +1, dying, death, a single hit of the maximum killing outright, MUR-H20,
//! and a surrendered character harmed by an enemy fighting again, MUR-R46), and healing
//! ([`heal`]: a dying character saved rolls an injury, with the lasting conditions of the
//! Health chapter).
//!
//! Its own file because everything that harms or heals comes here: hits, hazards, throws,
//! poison at the end of the round, drinks and the GM's rulings.

use crate::Murdham;
use crate::data::{Ability, Injury, Kind, Skill, div_up};
use crate::roll::{Res, die};
use crate::setup::Cid;
use crate::state::{Event, Phase, Status};
use fray_engine::Cx;

/// Damage to `who`: health lost, critical damage, dying, death (MUR health rules), and a
/// surrendered character harmed by an enemy fighting again (MUR-R46).
pub fn hurt(cx: &mut Cx<'_, Murdham>, who: Cid, by: Option<Cid>, raw: i32, armour: i32, direct: bool) -> Res<()> {
    let s = &*cx.s;
    let c = s.ch(who);
    if matches!(
        c.status,
        Status::Dead | Status::Banished | Status::Fled | Status::Disabled
    ) {
        return Ok(());
    }
    let amount = (raw - armour).max(0);
    let before = c.health;
    cx.emit(Event::Damaged {
        who,
        by,
        amount,
        raw,
        armour,
    });
    if amount == 0 {
        return Ok(());
    }
    let s = &*cx.s;
    let c = s.ch(who);
    // MUR-R46: harmed by an enemy, a surrendered character fights again (after a failed
    // morale check too).
    if c.status == Status::Surrendered && by.is_some_and(|b| s.enemies(b, who)) {
        cx.emit(Event::Resumed { who });
    }
    let s = &*cx.s;
    let c = s.ch(who);
    let kind = c.stats.kind;
    let max = if s.options.death_at_max_health {
        c.stats.max_health()
    } else {
        i32::from(c.ability(Ability::Str)) + if c.stats.has(Skill::Tough) { 2 } else { 0 }
    };
    let helmet = i32::from(c.stats.helmet && !direct);
    let critical_at = div_up(before.max(0), 2) + helmet;
    let fell = if amount >= max {
        // One hit of at least the maximum health kills outright.
        Some(if kind == Kind::Demon {
            Status::Banished
        } else {
            Status::Dead
        })
    } else if c.health <= 0 {
        Some(match kind {
            // Dying ends at the end of the next round: the ambush turn has no end of its own,
            // so a character dying in it dies at the end of round 1.
            Kind::Creature => Status::Dying {
                rounds: s.options.dying_rounds - u8::from(s.phase == Phase::Ambush),
            },
            Kind::Construct => Status::Disabled,
            Kind::Demon => Status::Banished,
            Kind::Undead => Status::Dead,
        })
    } else if amount >= critical_at && matches!(c.status, Status::Up | Status::Surrendered) {
        match kind {
            Kind::Creature => Some(Status::Incapacitated),
            Kind::Construct => Some(Status::Disabled),
            Kind::Demon | Kind::Undead => None,
        }
    } else {
        None
    };
    let already_dying = matches!(c.status, Status::Dying { .. });
    if let Some(status) = fell
        && status != c.status
        && !(already_dying && matches!(status, Status::Dying { .. } | Status::Incapacitated))
    {
        cx.emit(Event::Fell { who, status });
    }
    Ok(())
}

/// Healing: health back; a dying character healed by 1 or more is saved and rolls an injury.
pub(crate) fn heal(cx: &mut Cx<'_, Murdham>, who: Cid, amount: i32) -> Res<()> {
    let dying = matches!(cx.s.ch(who).status, Status::Dying { .. });
    cx.emit(Event::Healed { who, amount });
    if dying && amount >= 1 {
        let roll = die(cx, 6, who, "injury (d6)")?;
        let ability = match roll {
            2 => Some(Ability::Str),
            3 => Some(Ability::Wit),
            4 => Some(Ability::Agi),
            _ => None,
        };
        let loss = match ability {
            Some(a) => Some((a, die(cx, 4, who, "ability lost (d4)")? as u8)),
            None => None,
        };
        // The condition it leaves until a full rest (the Health chapter's injuries 4 to 6):
        // a hobbled leg once, an arm (a d2 picks which the first time, the other the second),
        // an eye (both the second time: blind). fray 0.1.0 tracked none of them.
        let had = cx.s.ch(who).injuries;
        let mut arm = None;
        let lasting = match roll {
            _ if !cx.s.options.injury_effects => None,
            4 => (!had.hobbled).then_some(Injury::Hobbled),
            5 => match had.arms {
                [false, false] => {
                    let d2 = die(cx, 2, who, "injured arm (d2: 1 the other, 2 the main)")?;
                    arm = Some(d2);
                    Some(if d2 == 2 { Injury::MainArm } else { Injury::OtherArm })
                }
                [true, false] => Some(Injury::OtherArm),
                [false, true] => Some(Injury::MainArm),
                [true, true] => None,
            },
            6 => match had.eyes {
                0 => Some(Injury::Eye),
                1 => Some(Injury::Blind),
                _ => None,
            },
            _ => None,
        };
        cx.emit(Event::Injured {
            who,
            roll,
            loss,
            arm,
            lasting,
        });
        if let Some((a, _)) = loss
            && cx.s.ch(who).ability(a) == 0
        {
            // An ability at 0 kills.
            cx.emit(Event::Fell {
                who,
                status: Status::Dead,
            });
        }
    }
    Ok(())
}
