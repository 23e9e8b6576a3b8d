//! The one [`apply`] that changes the state, event by event, with the GM's rulings it
//! applies ([`rule`]) and the small steps they share (taking an item out of a character's
//! hands, letting go of holds).

use super::*;
use crate::data::{Injury, Keyword};
use crate::ruling::Ruling;
use crate::setup::{Cid, Combatant};
use fray_engine::gm::Ruling as R;
use fray_engine::resolve::{FrameOp, apply_frame_op};

/// Applies one event: the only function that changes the state.
pub fn apply(s: &mut State, e: &Event) {
    match e {
        Event::Initiative { side, .. } => s.initiative = *side,
        Event::RoundStarted { round } => {
            s.round = *round;
            s.fat = None;
            s.order.start_round();
            for c in s.chars.iter_mut() {
                c.free_dodge_used = false;
            }
        }
        Event::PhaseStarted { phase, fat } => {
            if *phase == Phase::Ambush {
                s.order.start_round();
            } else if matches!(phase, Phase::Slow) {
                s.order.start_phase();
            }
            s.phase = *phase;
            s.seats_passed = Seats::EMPTY;
            if fat.is_some() {
                s.fat = *fat;
            }
            s.opening = matches!(phase, Phase::Ambush | Phase::Round | Phase::Fast | Phase::Slow);
        }
        Event::Opens { side } => {
            s.order.start_phase_with(Some(*side));
            s.passed.iter_mut().for_each(|p| *p = false);
            s.seats_passed = Seats::EMPTY;
            s.opening = false;
        }
        Event::Passed { side } => {
            let _ = s.order.pass();
            if let Some(p) = s.passed.get_mut(*side as usize) {
                *p = true;
            }
            s.seats_passed = Seats::EMPTY;
        }
        Event::SeatPassed { seat, .. } => s.seats_passed.insert(*seat),
        Event::TurnStarted { who } => {
            s.order.took_turn(*who);
            // MUR-R3: a turn taken clears the passes, so a faction that passed may act again.
            s.passed.iter_mut().for_each(|p| *p = false);
            s.seats_passed = Seats::EMPTY;
            let c = &mut s.chars[*who as usize];
            c.peeking = false;
            let halves = c.turn_halves();
            // MUR-R7: a turn holds two action slots (a bonus action and a main one, or a second
            // bonus action) and a move of one zone (two half zones).
            s.turn = Some(Turn {
                who: *who,
                actions: 2,
                main: false,
                halves,
                moved: false,
            });
        }
        Event::TurnLost { who, .. } => {
            s.order.took_turn(*who);
            s.passed.iter_mut().for_each(|p| *p = false);
            s.seats_passed = Seats::EMPTY;
            s.turn = None;
        }
        Event::TurnEnded { who } => {
            s.turn = None;
            // A taunt binds one turn (MUR-R8).
            s.chars[*who as usize].taunted_by = None;
        }
        Event::Ran { halves, .. } => {
            if let Some(t) = &mut s.turn {
                t.halves = t.halves.saturating_add(*halves);
                t.main = true;
                t.actions = t.actions.saturating_sub(1);
            }
        }
        Event::Moved { who, to, cost } => {
            let c = &mut s.chars[*who as usize];
            c.at = *to;
            c.cover = false;
            c.peeking = false;
            if let Some(t) = &mut s.turn
                && t.who == *who
            {
                t.halves = t.halves.saturating_sub(*cost);
                t.moved = true;
            }
        }
        Event::Covered { who, cover } => {
            s.chars[*who as usize].cover = *cover;
            if let Some(t) = &mut s.turn
                && t.who == *who
            {
                t.halves = t.halves.saturating_sub(1);
            }
        }
        Event::Acted { who, main, .. } => {
            if let Some(t) = &mut s.turn
                && t.who == *who
            {
                t.actions = t.actions.saturating_sub(1);
                t.main |= *main;
            }
        }
        Event::Frame(op) => apply_frame_op(&mut s.frames, op.as_ref()),
        Event::Save { .. } | Event::GroupSave { .. } | Event::DamageRoll { .. } | Event::Deviated { .. } => {}
        Event::Stunt { .. } | Event::Durability { .. } | Event::StandInDeclined { .. } | Event::BlowStopped { .. } => {}
        Event::Reacted { who, free, .. } => {
            if !*free {
                // MUR-R10: a reaction is the character's turn for this round; MUR-R54: so it is
                // in the fast phase too, and no turn is left for the slow one.
                s.order.mark_acted(*who);
            }
        }
        Event::Damaged { who, amount, by, .. } => {
            let c = &mut s.chars[*who as usize];
            c.health = (c.health - amount).max(0);
            if *amount > 0 || by.is_some() {
                c.armour_used |= c.stats.armour > 0;
            }
        }
        Event::Fell { who, status } => {
            let c = &mut s.chars[*who as usize];
            c.status = *status;
            if !c.up() {
                c.cover = false;
                release_grabs(s, *who);
            }
        }
        Event::Healed { who, amount } => {
            let c = &mut s.chars[*who as usize];
            c.health = (c.health + amount).min(c.stats.max_health());
            if matches!(c.status, Status::Dying { .. }) && c.health > 0 {
                // Saved from dying, but still incapacitated until the end of the stretch.
                c.status = Status::Incapacitated;
            }
        }
        Event::Injured { who, loss, lasting, .. } => {
            let c = &mut s.chars[*who as usize];
            if let Some((a, n)) = loss {
                let v = &mut c.stats.abilities[*a as usize];
                *v = v.saturating_sub(*n);
                let l = &mut c.lowered[*a as usize];
                *l = l.saturating_add(*n);
            }
            if let Some(i) = lasting {
                c.injuries.add(*i);
                // An arm it cannot use holds nothing: what it held stays carried (a two-handed
                // item leaves both hands).
                let h = match i {
                    Injury::MainArm => Some(0),
                    Injury::OtherArm => Some(1),
                    _ => None,
                };
                if let Some(item) = h.and_then(|h| c.hands[h]) {
                    for slot in c.hands.iter_mut() {
                        if *slot == Some(item) {
                            *slot = None;
                        }
                    }
                }
            }
        }
        Event::Revealed { who, at, cover } => {
            let c = &mut s.chars[*who as usize];
            c.concealed = false;
            c.at = *at;
            c.cover = *cover;
        }
        Event::Grab { who, by } => {
            s.chars[*who as usize].grabbed_by = *by;
        }
        Event::Dropped { who, item } => {
            let c = &mut s.chars[*who as usize];
            let at = c.at;
            if let Some(it) = take_item(c, *item) {
                s.ground.push((at, it));
            }
        }
        Event::PickedUp { who, ground } => {
            let g = *ground as usize;
            if g < s.ground.len() {
                let (_, it) = s.ground.remove(g);
                s.chars[*who as usize].items.push(it);
            }
        }
        Event::Equipped { who, item, hand } => {
            let c = &mut s.chars[*who as usize];
            let two = s
                .setup
                .items
                .get(c.items.get(*item as usize).map_or("", |i| i.id.as_str()))
                .is_some_and(|d| d.two_handed());
            if two {
                c.hands = [Some(*item), Some(*item)];
            } else {
                c.hands[*hand as usize & 1] = Some(*item);
            }
        }
        Event::Stowed { who, item } => {
            let c = &mut s.chars[*who as usize];
            for h in c.hands.iter_mut() {
                if *h == Some(*item) {
                    *h = None;
                }
            }
        }
        Event::Used { who, item, spent } => {
            let consumable = {
                let c = &s.chars[*who as usize];
                c.items
                    .get(*item as usize)
                    .and_then(|i| s.setup.items.get(&i.id))
                    .is_some_and(|d| d.has(Keyword::Consumable))
            };
            let c = &mut s.chars[*who as usize];
            if let Some(i) = c.items.get_mut(*item as usize) {
                i.used = true;
                if *spent && !consumable {
                    i.spent = Some(0);
                }
            }
            if *spent && consumable && take_item(c, *item).is_some() {
                c.lost.push(*item);
            }
        }
        Event::Reloaded { who, item } => {
            if let Some(i) = s.chars[*who as usize].items.get_mut(*item as usize) {
                i.spent = match i.spent {
                    Some(n) if n + 1 >= crate::RELOAD_ROUNDS => None,
                    Some(n) => Some(n + 1),
                    None => None,
                };
            }
        }
        Event::Worn {
            who, item, destroyed, ..
        } => {
            let c = &mut s.chars[*who as usize];
            match item {
                None if *destroyed => c.armour_lost = true,
                None => c.armour_damaged = true,
                Some(i) if *destroyed => {
                    if take_item(c, *i).is_some() {
                        c.lost.push(*i);
                    }
                }
                Some(i) => {
                    if let Some(it) = c.items.get_mut(*i as usize) {
                        it.damaged = true;
                    }
                }
            }
        }
        Event::Condition { who, condition } => {
            let c = &mut s.chars[*who as usize];
            match *condition {
                Condition::LosesTurn(v) => c.lost_round = v,
                Condition::Frightened(v) => c.frightened_of = v,
                Condition::Taunted(v) => c.taunted_by = v,
                Condition::Poisoned(v) => c.poisoned = v,
                Condition::FreeDodge => c.free_dodge_used = true,
                Condition::Hindered(v) => c.hindered = v,
                Condition::Penetrating(v) => c.penetrating = v,
                Condition::Overwhelming(v) => c.overwhelming = v,
                Condition::Peeking(v) => c.peeking = v,
                Condition::NextHit(v) => c.next_hit = v,
            }
        }
        Event::MoraleProof { who } => s.chars[*who as usize].morale_proof = true,
        Event::Gave { who, status } => {
            let c = &mut s.chars[*who as usize];
            c.status = *status;
            c.cover = false;
            release_grabs(s, *who);
        }
        Event::Resumed { who } => {
            let c = &mut s.chars[*who as usize];
            c.status = Status::Up;
            c.morale_proof = true;
        }
        Event::Ruled(r) => rule(s, r),
        Event::Ended { winner, reason } => {
            s.outcome = Some(Outcome {
                winner: *winner,
                reason: reason.clone(),
            });
            s.turn = None;
        }
    }
    if let Event::Frame(FrameOp::Push(Frame::Morale { .. })) = e {
        s.phase = Phase::Morale;
    }
}

/// Takes an item from a character: it is marked gone (the list keeps its place) and leaves
/// the hands; returns it as it was.
fn take_item(c: &mut Char, item: u8) -> Option<Item> {
    let it = c.items.get_mut(item as usize).filter(|it| !it.gone)?;
    let taken = it.clone();
    it.gone = true;
    for h in c.hands.iter_mut() {
        if *h == Some(item) {
            *h = None;
        }
    }
    Some(taken)
}

/// Whoever `who` held is free, and `who` is free of whoever held it.
fn release_grabs(s: &mut State, who: Cid) {
    s.chars[who as usize].grabbed_by = None;
    for c in s.chars.iter_mut() {
        if c.grabbed_by == Some(who) {
            c.grabbed_by = None;
        }
    }
}

fn rule(s: &mut State, r: &Ruling) {
    use crate::ruling::OwnRuling as O;
    match r {
        R::Adjust { who, gauge, by } => {
            let c = &mut s.chars[*who as usize];
            match gauge {
                crate::ruling::Gauge::Health => c.health = i32::from(by.apply(c.health as i16)),
                crate::ruling::Gauge::Ability(a) => {
                    let v = &mut c.stats.abilities[*a as usize];
                    let before = *v;
                    *v = by.apply(i16::from(*v)).clamp(0, 19) as u8;
                    // A score the GM lowers is lowered until a full rest, as an injury's is;
                    // raising it gives back what was lowered first.
                    let l = &mut c.lowered[*a as usize];
                    if *v < before {
                        *l = l.saturating_add(before - *v);
                    } else {
                        *l = l.saturating_sub(*v - before);
                    }
                }
            }
        }
        R::Move { who, to } => {
            let c = &mut s.chars[*who as usize];
            c.at = *to;
            c.cover = false;
        }
        R::Add { id, template, side, at } => {
            let Some(stats) = s.setup.templates.get(template).cloned() else {
                return;
            };
            let c = Combatant {
                id: id.clone(),
                name: id.clone(),
                side: *side,
                at: *at,
                concealed: false,
                cover: false,
                health: None,
                stats,
                worn: Default::default(),
                seat: None,
            };
            s.chars.push(Char::new(&c, &s.setup.items));
            s.order.add_member(*side);
            // A newcomer acts from the next round.
            s.order.mark_acted((s.chars.len() - 1) as u16);
        }
        R::Remove { who } => {
            s.chars[*who as usize].status = Status::Fled;
            release_grabs(s, *who);
        }
        // The end itself (after the gear's durability rolls) is the `Ended` event.
        R::End { .. } => {}
        R::Other(o) => match o {
            O::Conceal { who, on } => s.chars[*who as usize].concealed = *on,
            O::Hinder { who } => s.chars[*who as usize].hindered = true,
            O::Penetrate { who } => s.chars[*who as usize].penetrating = true,
            O::Overwhelm { who } => s.chars[*who as usize].overwhelming = true,
            O::Frighten { who, of } => s.chars[*who as usize].frightened_of = Some(*of),
            O::Calm { who } => s.chars[*who as usize].frightened_of = None,
            O::Poison { who, on } => s.chars[*who as usize].poisoned = *on,
            O::Stun { who } => s.chars[*who as usize].lost_round = Some(s.round_to_lose(*who)),
            // One more enhancement or impairment of the next hit; the two cancel, a second
            // enhancement adds nothing, two impairments leave no damage.
            O::Enhance { who } => {
                let c = &mut s.chars[*who as usize];
                c.next_hit = (c.next_hit + 1).min(1);
            }
            O::Impair { who } => {
                let c = &mut s.chars[*who as usize];
                c.next_hit = (c.next_hit - 1).max(-2);
            }
            O::Chase { .. } | O::Heal { .. } => {}
        },
    }
}
