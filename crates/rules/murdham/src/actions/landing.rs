//! The attack frame, once an attack is declared ([`crate::actions::attack::declare`]): the
//! to-hit save (MUR-R13) and a missed ranged blast's deviation (MUR-R31, MUR-H22), the stunt's
//! approval (MUR-R32), the guards asked in turn (MUR-R24), the target's reaction asked only
//! when one is open (MUR-R19), the landing on each target (a dodge, MUR-R20; a counter,
//! [`crate::actions::counter`]; the hit, [`crate::actions::damage`]). The next target of a
//! blast and the end of the attack are [`crate::actions::attack`]'s, beside the declaration
//! they undo, since the answers to a stunt end a target's part too.
//!
//! The frame moves on by small updates, one automatic step at a time ([`attack_step`], which
//! the turn flow's [`crate::flow::advance`] calls), and waits where a seat must decide.

use crate::Murdham;
use crate::actions::attack::{blast_victims, finish, next_target};
use crate::actions::counter::counter;
use crate::actions::damage::hit_target;
use crate::actions::reactions::{dodge_open, dodge_open_with, guard_ok, may_react, other_reaction_open};
use crate::actions::reveal;
use crate::actions::weapons::profile;
use crate::data::{Ability, Skill};
use crate::options::DeviationDie;
use crate::place::Place;
use crate::roll::{Res, die, save};
use crate::setup::Cid;
use crate::state::{Attack, AttackStage, Condition, Event, Frame, Reaction, Why};
use fray_engine::{Cx, Flow};

/// The attack on top, as far as it goes without a decision.
pub(crate) fn attack_step(cx: &mut Cx<'_, Murdham>, a: Attack) -> Res<Flow> {
    let s = &*cx.s;
    if !s.ch(a.by).up() && !a.counter {
        // The attacker fell before its attack landed (an opportunity attack, a ruling).
        return finish(cx, a);
    }
    match a.stage {
        AttackStage::Aim => aim(cx, a),
        AttackStage::Approve => {
            if !s.options.stunt_needs_gm {
                cx.update(Frame::Attack(Attack {
                    stage: AttackStage::Answer,
                    ..a
                }));
                return Ok(Flow::Go);
            }
            Ok(Flow::Wait)
        }
        AttackStage::Answer | AttackStage::Agree { .. } => Ok(Flow::Wait),
        AttackStage::Guard { next } => {
            let n = s.chars.len() as Cid;
            match (next..n).find(|&g| guard_ok(s, &a, g)) {
                Some(g) if g == next => Ok(Flow::Wait),
                Some(g) => {
                    cx.update(Frame::Attack(Attack {
                        stage: AttackStage::Guard { next: g },
                        ..a
                    }));
                    Ok(Flow::Go)
                }
                None => {
                    cx.update(Frame::Attack(Attack {
                        stage: AttackStage::React,
                        ..a
                    }));
                    Ok(Flow::Go)
                }
            }
        }
        AttackStage::React => {
            // MUR-R19: the target is asked for its reaction here, after the to-hit save (`aim`)
            // and before any damage is rolled (`land`). Only ask a target that has a reaction
            // open; otherwise it simply takes the hit. MUR-R19, MUR-R41: a target unaware of a
            // concealed attacker (surprised) has none open (`dodge_open` refuses it a dodge).
            let t = a.target;
            let any = dodge_open(s, &a).is_some()
                || (!a.surprise && !a.opportunity && may_react(s, t, false) && other_reaction_open(s, &a));
            if any && s.ch(t).up() {
                return Ok(Flow::Wait);
            }
            cx.update(Frame::Attack(Attack {
                reaction: Some(Reaction::Take),
                stage: AttackStage::Land,
                ..a
            }));
            Ok(Flow::Go)
        }
        AttackStage::Land => land(cx, a),
    }
}

/// The to-hit save (MUR-R13) and a ranged blast's deviation (MUR-R31), then on to the stunt,
/// guards and reactions.
fn aim(cx: &mut Cx<'_, Murdham>, a: Attack) -> Res<Flow> {
    let mut a = a;
    // MUR-R12: an attack with no to-hit save called for hits.
    let hit = !a.save || save(cx, a.by, Ability::Wit, Why::Hit)?;
    match a.blast {
        Some(place) if !a.focused => {
            let place = if hit {
                place
            } else if a.ranged {
                // MUR-R31: a missed ranged blast lands in a random neighbouring zone.
                match deviate(cx, a.by, place)? {
                    Some(to) => to,
                    None => return finish(cx, a),
                }
            } else {
                return finish(cx, a);
            };
            let over = profile(&cx.s, a.by, a.with).is_ok_and(|p| p.indirect);
            let victims = blast_victims(&cx.s, a.by, place, !a.ranged, a.sweep, over);
            let Some((&first, rest)) = victims.split_first() else {
                // A blast on an empty place hits nobody.
                return finish(cx, a);
            };
            a.blast = Some(place);
            a.target = first;
            a.queue = rest.to_vec();
        }
        // MUR-H24: a thrown flask that misses is spent all the same.
        _ if !hit => return finish(cx, a),
        _ => {}
    }
    let stage = if a.stunt.is_some() {
        AttackStage::Approve
    } else {
        AttackStage::Guard { next: 0 }
    };
    cx.update(Frame::Attack(Attack { stage, ..a }));
    Ok(Flow::Go)
}

/// Picks the neighbouring zone a missed ranged blast lands in (MUR-R31, MUR-H22).
fn deviate(cx: &mut Cx<'_, Murdham>, by: Cid, place: Place) -> Res<Option<Place>> {
    let zones = &cx.s.setup.zones;
    let mut n: Vec<Place> = place
        .zones()
        .flat_map(|z| zones.neighbours(z).iter().copied())
        .filter(|z| !place.touches(*z))
        .map(Place::zone)
        .collect();
    n.sort();
    n.dedup();
    if n.is_empty() {
        return Ok(None);
    }
    let count = n.len() as u16;
    if count == 1 {
        // A single neighbouring zone: nothing to roll for.
        cx.emit(Event::Deviated {
            roll: 1,
            sides: 1,
            to: Some(n[0]),
        });
        return Ok(Some(n[0]));
    }
    let sides = match cx.s.options.deviation_die {
        DeviationDie::Exact => count,
        DeviationDie::Standard => [4u16, 6, 8, 10, 12, 20]
            .into_iter()
            .find(|&d| d >= count)
            .unwrap_or(count),
    };
    loop {
        let roll = if sides == 1 {
            1
        } else {
            die(cx, sides, by, "deviation die")?
        };
        // The zones are numbered in turn along the die's faces: a d4 for two zones gives each
        // two faces; only faces the zones cannot share evenly are rolled again (MUR-H22).
        let share = sides / count;
        if roll <= share * count {
            let to = n[((roll - 1) / share) as usize];
            cx.emit(Event::Deviated {
                roll,
                sides,
                to: Some(to),
            });
            return Ok(Some(to));
        }
        // MUR-H22: a result above the count is rolled again.
        cx.emit(Event::Deviated { roll, sides, to: None });
    }
}

/// Lands the attack on its current target (dodge, counter or none), then the next target of a
/// blast, or pops.
fn land(cx: &mut Cx<'_, Murdham>, a: Attack) -> Res<Flow> {
    let s = &*cx.s;
    let t = a.target;
    let reaction = a.reaction.unwrap_or(Reaction::Take);
    // The attack's weapon as it is in the attacker's hands, worked out once for the dodge, the
    // counter and the hit: nothing the landing does before the hit changes it.
    let p = profile(s, a.by, a.with);
    let mut dodged = false;
    match reaction {
        Reaction::Dodge => {
            let free = p.as_ref().ok().and_then(|&p| dodge_open_with(s, &a, p)) == Some(true);
            // MUR-R60: fleet footed pays for a dodge of an opportunity attack; otherwise a free
            // dodge is the round's one from dodge blows.
            let fleet = a.opportunity && s.ch(t).stats.has(Skill::FleetFooted);
            let blows = free && !fleet;
            cx.emit(Event::Reacted {
                who: t,
                what: "dodges".into(),
                free,
            });
            if blows {
                cx.emit(Event::Condition {
                    who: t,
                    condition: Condition::FreeDodge,
                });
            }
            // MUR-R20: a passed AGI save makes the attack miss.
            dodged = save(cx, t, Ability::Agi, Why::Dodge)?;
        }
        Reaction::Counter { .. } => {
            // MUR-R42: attacking back gives a concealed character away.
            reveal(cx, t);
            cx.emit(Event::Reacted {
                who: t,
                what: "counters".into(),
                free: false,
            });
        }
        Reaction::Take | Reaction::Guard => {}
    }
    let reacted = !matches!(reaction, Reaction::Take);
    if !dodged {
        match reaction {
            Reaction::Counter { with, mode } => {
                // MUR-H8: the attack's roll is kept for the rest of a blast.
                let mut a2 = a.clone();
                if let Some(k) = counter(cx, &a, with, mode, &p)? {
                    k.into(&mut a2);
                }
                return next_target(cx, a2);
            }
            _ => {
                let mut a2 = a.clone();
                if let Some(k) = hit_target(cx, &a, t, reacted, &p)? {
                    k.into(&mut a2);
                }
                return next_target(cx, a2);
            }
        }
    }
    // A dodger is out of the blast (MUR-H8); the others still take the roll when it comes.
    next_target(cx, a)
}
