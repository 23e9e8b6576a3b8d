//! The one `apply`: how each event changes the state. It rolls no dice and decides nothing
//! the resolver has not written into the event; what it works out (the order of a round, what
//! each act of a count can do, HAL-R10) it works out from the state and the event alone, so a
//! record replays to the same position.

use super::{Action, Cap, Cause, Char, Conditions, Event, Free, Phase, State, Turn, hands_of};
use crate::actions::declare::action_ok_with;
use crate::command::{OwnRuling, Ruling};
use crate::data::{Ability, Effect, Wound};
use crate::options::{FullDefenseTiming, Hands};
use crate::setup::{Cid, Combatant};
use fray_engine::Outcome;
use fray_engine::gm::Ruling as R;
use fray_engine::order::InitiativeOrder;
use fray_engine::resolve::apply_frame_op;

/// Applies one event: the only function that changes the state.
pub fn apply(s: &mut State, e: &Event) {
    match e {
        Event::Stress { who, max } => {
            let wp = s.wp_max(*who);
            // What a creature of the encounter brings from earlier fights: Stress lost comes
            // off the maximum just rolled (HAL-R24; fray's reading of HAL-H19), Wound Points
            // start where they were left (HAL-R27).
            let (lost, start_wp) = s
                .setup
                .combatants
                .get(usize::from(*who))
                .map_or((0, None), |k| (k.worn.stress_lost, k.worn.wp));
            let c = &mut s.chars[usize::from(*who)];
            c.stress_max = *max;
            c.stress = (*max - lost).max(0);
            c.wp = start_wp.map_or(wp, |v| v.min(wp));
        }
        Event::Initiative { group, roll } => {
            let Some(&first) = group.first() else { return };
            for &who in group {
                // HAL-R4: d12 − Agility modifier + trait modifiers; HAL-R5: a group shares the
                // d12, each member with its own modifiers unless `group-own-modifiers` is off.
                let from = if s.options.group_own_modifiers { who } else { first };
                let base = *roll as i16 - s.modifier(from, Ability::Agility) + s.stats(from).initiative;
                s.chars[usize::from(who)].base = Some(base);
            }
        }
        Event::RoundStarted { round } => {
            s.round = *round;
            s.phase = Phase::Declaring;
            s.acts.clear();
            s.order = InitiativeOrder::new([], false);
            s.caps.clear();
            s.ready.clear();
            s.last_count = None;
            let first = *round == 1;
            for c in s.chars.iter_mut() {
                c.declared = None;
                c.declared_free = None;
                c.actions = 0;
                c.reacted = false;
                // HAL-R18: a fresh Speed to split into legs each round.
                c.moved = 0;
                c.worst_hit = 0;
                c.intimidated = None;
                c.cond.0 &= !Conditions::GUARDING;
                // HAL-R2: surprise lasts round 1 only (a newcomer's, its arrival round: HAL-H21).
                if !first && c.arrived < *round {
                    c.cond.0 &= !Conditions::SURPRISED;
                }
            }
        }
        Event::Declared { who, action } => {
            let c = &mut s.chars[usize::from(*who)];
            // A secret declaration shown to another seat keeps only that one was made.
            c.declared = Some(action.unwrap_or(Action::Move));
        }
        // A secret one shown to another seat keeps only that one was declared.
        Event::FreeDeclared { who, free } => {
            s.chars[usize::from(*who)].declared_free = Some(free.unwrap_or(Free::Speak));
        }
        Event::Revealed { acts } => {
            s.phase = Phase::Resolving;
            s.acts.clone_from(acts);
            // HAL-R9, HAL-R10: lowest first, equal counts together; `acts` is already sorted.
            let keys = acts.iter().enumerate().map(|(i, a)| (i as u16, a.count));
            s.order = InitiativeOrder::new(keys, false).with_simultaneous_ties(true);
            for a in acts {
                if a.action == Action::FullDefense && s.options.full_defense_timing == FullDefenseTiming::WholeRound {
                    s.chars[usize::from(a.who)].cond.0 |= Conditions::GUARDING;
                }
                if a.catch_up {
                    s.chars[usize::from(a.who)].catch_up = None;
                }
            }
        }
        Event::Scheduled { act, this_round } => {
            if *this_round {
                let i = s.acts.len() as u16;
                s.acts.push(*act);
                let under_way = s.count_under_way();
                if under_way.is_some_and(|k| act.count < k) {
                    // HAL-R42: the count under way had not begun (see `count_begun`): the
                    // newcomer's earlier count comes first.
                    rebuild_order(s);
                    s.turn = None;
                    s.caps.clear();
                    s.ready.clear();
                } else {
                    s.order.add_slot(i, act.count, true);
                    let cap = s.ch(act.who).cap();
                    if let Some(c) = s.caps.get_mut(usize::from(act.who)) {
                        *c = cap;
                    }
                    if !s.caps.is_empty() && action_ok_with(s, act.who, &act.action, act.free).is_ok() {
                        s.ready.push(i);
                    }
                }
            } else {
                s.chars[usize::from(act.who)].catch_up = Some((act.action, act.count, act.free));
            }
        }
        Event::CountStarted { count } => {
            s.caps = s.chars.iter().map(Char::cap).collect();
            // HAL-R10: what each act of this count can do is fixed now.
            let ready: Vec<u16> = (0..s.acts.len() as u16)
                .filter(|&i| {
                    let a = &s.acts[usize::from(i)];
                    a.count == *count && action_ok_with(s, a.who, &a.action, a.free).is_ok()
                })
                .collect();
            s.ready = ready;
        }
        Event::TurnStarted { act } => {
            let who = s.acts[usize::from(*act)].who;
            s.turn = Some(Turn {
                act: *act,
                who,
                acted: false,
                moved: 0,
                freed: false,
            });
        }
        Event::ActLost { act, .. } => finish_act(s, *act),
        Event::Moved { who, to, cost } => {
            let c = &mut s.chars[usize::from(*who)];
            c.at = *to;
            c.moved += cost;
            if let Some(t) = s.turn.as_mut().filter(|t| t.who == *who) {
                t.moved += cost;
            }
        }
        Event::Frame(op) => apply_frame_op(&mut s.frames, op.as_ref()),
        Event::Acting { who, reaction } => {
            let round = s.round;
            let c = &mut s.chars[usize::from(*who)];
            c.actions = c.actions.saturating_add(1);
            c.last_acted = round;
            if *reaction {
                c.reacted = true;
            } else if let Some(t) = &mut s.turn {
                t.acted = true;
            }
        }
        Event::Free { who, free, to } => {
            let round = s.round;
            let two = s.options.hands == Hands::Two;
            let weapons: Vec<u8> = s.stats(*who).weapons.iter().map(hands_of).collect();
            if let Some(t) = s.turn.as_mut().filter(|t| t.who == *who) {
                t.freed = true;
            }
            let c = &mut s.chars[usize::from(*who)];
            if free.is_action() {
                c.actions = c.actions.saturating_add(1);
                c.last_acted = round;
            }
            match *free {
                Free::Step => {
                    if let Some(p) = to {
                        c.at = *p;
                    }
                }
                Free::Draw { weapon } => {
                    let bit = 1u16 << (weapon & 15);
                    c.away &= !bit;
                    // With two hands, what held the hands the weapon needs is put away.
                    let need = weapons.get(usize::from(weapon)).copied().unwrap_or(0);
                    if two && need != 0 {
                        for (i, h) in weapons.iter().enumerate().take(16) {
                            if i != usize::from(weapon) && h & need != 0 {
                                c.away |= 1 << i;
                            }
                        }
                    }
                }
                Free::Drop { weapon } => c.away |= 1 << (weapon & 15),
                Free::Speak => {}
            }
        }
        Event::Guarding { who } => s.chars[usize::from(*who)].cond.0 |= Conditions::GUARDING,
        Event::Attacked { .. } | Event::InjuryRoll { .. } => {}
        Event::Damaged {
            who,
            stress,
            wp,
            kind,
            cause,
        } => damage(s, *who, *stress, *wp, kind, *cause),
        Event::Injured {
            who,
            main,
            loss,
            table,
            entry,
        } => injure(s, *who, table, *entry, *main, loss),
        Event::Checked { .. } | Event::MoraleObvious { .. } => {}
        Event::Intimidated { target, result } => {
            let c = &mut s.chars[usize::from(*target)];
            c.intimidated = Some(c.intimidated.map_or(*result, |r| r.max(*result)));
        }
        Event::Stabilized { who } => s.chars[usize::from(*who)].cond.0 |= Conditions::STABILIZED,
        Event::Spent { who, mana, stress } => {
            let c = &mut s.chars[usize::from(*who)];
            c.mana = (c.mana - mana).max(0);
            c.stress = (c.stress - stress).max(0);
        }
        Event::Restored { who, stress } => {
            let c = &mut s.chars[usize::from(*who)];
            c.stress = (c.stress + stress).min(c.stress_max);
        }
        Event::ItemUsed { who, item } => {
            if let Some(n) = s.chars[usize::from(*who)].used.get_mut(usize::from(*item)) {
                *n = n.saturating_add(1);
            }
        }
        Event::Thrown { who, weapon } => s.chars[usize::from(*who)].thrown |= 1 << (weapon & 15),
        Event::Broke { who } => s.chars[usize::from(*who)].cond.0 |= Conditions::FLEEING,
        Event::Fled { who } => leave(s, *who, Conditions::FLED),
        Event::Surrendered { who } => leave(s, *who, Conditions::SURRENDERED),
        Event::TurnEnded { act } => {
            s.turn = None;
            finish_act(s, *act);
        }
        Event::RoundEnded { .. } => {
            // Full defence lasts to the end of the round (HAL-R14).
            for c in s.chars.iter_mut() {
                c.cond.0 &= !Conditions::GUARDING;
            }
            s.caps.clear();
            s.ready.clear();
        }
        Event::Ruled(r) => rule(s, r),
        Event::Ended { winner } => {
            s.outcome = Some(Outcome {
                winner: *winner,
                reason: if winner.is_some() {
                    "last-side-fighting"
                } else {
                    "nobody-fighting"
                }
                .into(),
            });
        }
    }
}

/// The order of this round's acts made again from their counts (lowest first, equal counts in
/// encounter order, a catch-up before the creature's own act), keeping which have acted.
fn rebuild_order(s: &mut State) {
    use fray_engine::order::SlotRef;
    let acted: Vec<u16> = s.order.slots().iter().filter(|x| x.acted).map(|x| x.who).collect();
    let mut ids: Vec<u16> = (0..s.acts.len() as u16).collect();
    ids.sort_by_key(|&i| {
        let a = &s.acts[usize::from(i)];
        (a.count, a.who, !a.catch_up)
    });
    let keys = ids.iter().map(|&i| (i, s.acts[usize::from(i)].count));
    s.order = InitiativeOrder::new(keys, false).with_simultaneous_ties(true);
    for i in acted {
        s.order.finish_slot(SlotRef::first(i));
    }
}

/// Marks an act done; once its count has no act left, that count is resolved (HAL-R42).
fn finish_act(s: &mut State, act: u16) {
    let count = s.acts.get(usize::from(act)).map(|a| a.count);
    s.order.finish_slot(fray_engine::order::SlotRef::first(act));
    let next = s.count_under_way();
    if next != count {
        s.last_count = count;
        s.caps.clear();
        s.ready.clear();
    }
}

/// A creature leaves the combat. Its acts stay in the order: one on the count under way still
/// happens (HAL-R10), later ones are lost when their count comes.
fn leave(s: &mut State, who: Cid, flag: u32) {
    s.chars[usize::from(who)].cond.0 |= flag;
}

fn damage(s: &mut State, who: Cid, stress: i16, wp: i16, kind: &str, cause: Cause) {
    let strength = s.score(who, Ability::Strength);
    let ends_stable = s.options.damage_ends_stabilized;
    let big_hit_counts_stress = s.options.big_hit_counts_stress;
    let c = &mut s.chars[usize::from(who)];
    c.stress = (c.stress - stress).max(0);
    let hit = matches!(cause, Cause::Hit | Cause::Crit);
    if hit {
        // HAL-H15: the largest single hit this round (Stress too, with the option).
        let counted = if big_hit_counts_stress { wp + stress } else { wp };
        c.worst_hit = c.worst_hit.max(counted);
    }
    if wp > 0 {
        c.wp -= wp;
        // HAL-R28, HAL-R43: every instance of Wound Point damage is a wound.
        c.wounds.push(Wound {
            kind: kind.to_string(),
            amount: wp,
        });
        // HAL-R34: new damage from an attack or effect ends Stabilized.
        if hit && ends_stable {
            c.cond.0 &= !Conditions::STABILIZED;
        }
    }
    // HAL-R31: dead at −Strength.
    if c.wp <= -strength && !c.has(Conditions::DEAD) {
        leave(s, who, Conditions::DEAD);
    }
}

fn injure(s: &mut State, who: Cid, table: &str, entry: u8, main: Option<bool>, loss: &[(Ability, i16)]) {
    let effects = s
        .setup
        .injuries
        .table(table)
        .get(usize::from(entry))
        .map(|e| (e.name.clone(), e.effects.clone()));
    let Some((name, effects)) = effects else { return };
    let old_max = s.wp_max(who);
    let c = &mut s.chars[usize::from(who)];
    c.injuries.push(name);
    for (a, v) in loss {
        c.loss[a.index()] += v;
    }
    // HAL-R40: what the injury entry leaves besides ability damage.
    for e in effects {
        let arm = if main.unwrap_or(true) {
            Conditions::MAIN_ARM
        } else {
            Conditions::OFF_ARM
        };
        c.cond.0 |= match e {
            Effect::Balance(v) => {
                c.balance += v;
                0
            }
            Effect::HalfSpeed => Conditions::LAME,
            Effect::Prone => Conditions::PRONE,
            Effect::EveryOtherTurn => Conditions::EVERY_OTHER,
            Effect::ArmCannotAttack | Effect::ArmCannotHold | Effect::HandUseless => arm,
            Effect::Paralyzed => Conditions::PARALYZED,
            Effect::Mute => Conditions::MUTE,
            Effect::Concussed => Conditions::CONCUSSED,
            Effect::Breathless | Effect::NoChewing | Effect::Anosmia | Effect::OneEye | Effect::OneEar => 0,
        };
    }
    // HAL-H18: a Strength drop lowers maximum Wound Points; current ones cannot exceed it.
    let new_max = s.wp_max(who);
    if new_max < old_max {
        let c = &mut s.chars[usize::from(who)];
        c.wp = c.wp.min(new_max);
        let strength = s.score(who, Ability::Strength);
        if s.ch(who).wp <= -strength && !s.ch(who).has(Conditions::DEAD) {
            leave(s, who, Conditions::DEAD);
        }
    }
    if s.options.agility_loss_rerolls_initiative && loss.iter().any(|(a, _)| *a == Ability::Agility) {
        // HAL-H18 (option): the lower modifier raises Base Initiative at once.
        let d: i16 = loss
            .iter()
            .filter(|(a, _)| *a == Ability::Agility)
            .map(|(_, v)| *v)
            .sum();
        let before = s.options.modifier(s.score(who, Ability::Agility) + d);
        let after = s.modifier(who, Ability::Agility);
        if let Some(b) = &mut s.chars[usize::from(who)].base {
            *b += before - after;
        }
    }
}

fn rule(s: &mut State, r: &Ruling) {
    use crate::command::Gauge;
    match r {
        R::Adjust { who, gauge, by } => {
            let strength = s.score(*who, Ability::Strength);
            let c = &mut s.chars[usize::from(*who)];
            match gauge {
                Gauge::Stress => c.stress = by.apply(c.stress),
                Gauge::Wp => c.wp = by.apply(c.wp),
                Gauge::Mana => c.mana = by.apply(c.mana),
            }
            if c.wp <= -strength && !c.has(Conditions::DEAD) {
                leave(s, *who, Conditions::DEAD);
            }
        }
        R::Move { who, to } => s.chars[usize::from(*who)].at = *to,
        R::Add { id, template, side, at } => {
            let Some(&block) = s.setup.templates.get(template) else {
                return;
            };
            let c = Combatant {
                name: id.clone(),
                id: id.clone(),
                side: *side,
                at: *at,
                block,
                group: None,
                surprised: false,
                // Its side's seat decides for it.
                seat: None,
                worn: Default::default(),
            };
            // HAL-R12: it joins now; its Stress and Base Initiative are rolled next.
            let round = s.round.max(1);
            let ch = Char::new(&c, &s.setup.blocks[usize::from(block)], round, &s.options);
            s.chars.push(ch);
            if !s.caps.is_empty() {
                s.caps.push(Cap::Out);
            }
        }
        R::Remove { who } => leave(s, *who, Conditions::REMOVED),
        R::End { winner } => {
            s.outcome = Some(Outcome {
                winner: *winner,
                reason: "gm-ended".into(),
            })
        }
        R::Other(OwnRuling::Unaware(who)) => {
            let c = &mut s.chars[usize::from(*who)];
            c.cond.0 |= Conditions::SURPRISED;
            c.declared = None;
        }
        R::Other(OwnRuling::Obvious(who)) => s.chars[usize::from(*who)].cond.0 ^= Conditions::HOPELESS,
        R::Other(OwnRuling::Blind(who)) => s.chars[usize::from(*who)].cond.0 ^= Conditions::BLINDED,
    }
}
