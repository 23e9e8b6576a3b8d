//! The one [`apply`] that changes the state, and the arithmetic of the Harm track it marks:
//! [`place`] puts levels of Harm on a track, [`splits`] lists the ways an amount of Harm may be
//! split into levels (EIN-R34).
//!
//! The track's arithmetic lives here, beside the code that marks the track, because the check,
//! the command parser, the text and resolution all need it and none of them should depend on
//! another for it.

use super::{Card, Event, Fire, MAX_CARDS, Poison, Proposal, RoundStage, Rows, State, Status, Turn};
use crate::command::{PushTo, Ruling};
use crate::options::SwapTiming;
use crate::setup::{Cid, Combatant};
use fray_engine::Outcome;
use fray_engine::Seats;
use fray_engine::gm::Ruling as R;
use fray_engine::order::{InitiativeOrder, SlotRef};
use fray_engine::resolve::apply_frame_op;

/// The most Harm whose split is asked: beyond it the track overflows whatever the split.
pub const MAX_SPLIT: u8 = 24;

/// Every way `amount` Harm may be split into levels 1 to 3 (EIN-R34), each list largest first,
/// in a fixed order (largest levels first). Beyond [`MAX_SPLIT`] there is one: all severe.
pub fn splits(amount: u8) -> Vec<Vec<u8>> {
    if amount > MAX_SPLIT {
        let mut v = vec![3; (amount / 3) as usize];
        if !amount.is_multiple_of(3) {
            v.push(amount % 3);
        }
        return vec![v];
    }
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut parts = Vec::new();
    fn go(left: u8, max: u8, parts: &mut Vec<u8>, f: &mut dyn FnMut(&[u8])) {
        if left == 0 {
            f(parts);
            return;
        }
        for p in (1..=max.min(left)).rev() {
            parts.push(p);
            go(left - p, p, parts, f);
            parts.pop();
        }
    }
    go(amount, 3, &mut parts, &mut |p: &[u8]| out.push(p.to_vec()));
    out
}

/// Places Harm of `parts` levels on a track (the `[S]` Harm rows): each level goes in its row,
/// or the next row up with room; past the top row it is a critical injury. Returns the rows
/// after and whether it overflowed.
pub fn place(rows: Rows, slots: [u8; 3], parts: &[u8]) -> (Rows, bool) {
    let mut rows = rows;
    let mut over = false;
    for &p in parts {
        let mut r = (p.clamp(1, 3) - 1) as usize;
        while r < 3 && rows[r] >= slots[r] {
            r += 1;
        }
        if r < 3 {
            rows[r] += 1;
        } else {
            over = true;
        }
    }
    (rows, over)
}

/// The status after Harm: broken past the top row, incapacitated by a severe mark (EIN-H2) or
/// by Harm points beyond capacity (EIN-H13).
fn status_after(s: &State, who: Cid, overflow: bool) -> Status {
    let c = s.ch(who);
    if c.status != Status::Fighting && c.status != Status::Incapacitated {
        return c.status;
    }
    if overflow {
        return Status::Broken;
    }
    let severe = c.harm.physical[2] + c.harm.mental[2] > 0;
    let over_points = s.stats(who).harm_points.is_some_and(|cap| c.harm.points > cap);
    if over_points || (severe && s.options.severe_incapacitates) {
        Status::Incapacitated
    } else {
        Status::Fighting
    }
}

/// Applies one event: the only function that changes the state.
pub fn apply(s: &mut State, e: &Event) {
    match e {
        Event::Ambushed {
            extra_card_side, bonus, ..
        } => {
            s.ambushed = true;
            s.extra_card_side = *extra_card_side;
            if let Some(a) = &s.setup.ambush {
                let side = a.side;
                for c in s.chars.iter_mut().filter(|c| c.side == side) {
                    c.ambush_bonus = *bonus;
                }
            }
        }
        Event::Drew { card, .. } => {
            s.deck.remove(card.code());
        }
        Event::Kept { who, card, back } => {
            if let Some(b) = back {
                s.deck.put_back(b.code());
            }
            let g = s.ch(*who).group;
            s.chars[*who as usize].cards.push(*card);
            if let Some(g) = g {
                // EIN-R2: the group shares this one card.
                let stats_cards = |s: &State, i: usize| s.blocks[s.chars[i].block as usize].cards as usize;
                for i in 0..s.chars.len() {
                    if s.chars[i].group == Some(g) && (i == *who as usize || s.chars[i].cards.len() < stats_cards(s, i))
                    {
                        if i != *who as usize {
                            s.chars[i].cards.push(*card);
                        }
                        s.chars[i].shares = true;
                    }
                }
            }
        }
        Event::SetupDone => s.stage = RoundStage::Hazards,
        Event::RoundStarted { round } => {
            s.round = *round;
            s.stage = RoundStage::Hazards;
            s.proposals.clear();
            for i in 0..s.chars.len() {
                let m = s.blocks[s.chars[i].block as usize].maneuvers;
                let c = &mut s.chars[i];
                // EIN-R46: each card gets the creature's full allowance for its own turn.
                c.left = [m; MAX_CARDS];
                if *round > 1 {
                    c.ambush_bonus = 0;
                }
            }
        }
        Event::Staged { stage, seats } => {
            s.stage = *stage;
            s.swapping = *seats;
        }
        Event::Ticked { who } => s.chars[*who as usize].ticked = s.round,
        Event::Proposed { seat, pair } => {
            let seat = fray_engine::Seat(*seat);
            match s.proposals.iter_mut().find(|p| p.pair == *pair) {
                Some(p) => p.agreed.insert(seat),
                None => s.proposals.push(Proposal {
                    pair: *pair,
                    agreed: Seats::one(seat),
                }),
            }
        }
        Event::Ready { seat } => s.swapping.remove(fray_engine::Seat(*seat)),
        Event::Swapped {
            a,
            card_a,
            b,
            card_b,
            forced,
        } => swap_cards(s, *a, *card_a, *b, *card_b, *forced),
        Event::Ordered => {
            s.stage = RoundStage::Turns;
            s.swapping = Seats::EMPTY;
            s.proposals.clear();
            // EIN-R4: each round's order comes from the cards already held (nobody redraws), so
            // only a swap changes it.
            s.order = order_from_cards(s);
        }
        Event::TurnStarted { who, n } => {
            let from = s.ch(*who).zone;
            s.turn = Some(Turn { who: *who, n: *n, from });
            s.chars[*who as usize].broke_free = false;
        }
        Event::Spent { who, n, slow } => {
            let l = &mut s.chars[*who as usize].left[(*n as usize).min(MAX_CARDS - 1)];
            let i = if *slow { 0 } else { 1 };
            l[i] = l[i].saturating_sub(1);
        }
        Event::Placed {
            who,
            zone,
            far,
            cover,
            beside,
        } => {
            let moved_zone = s.ch(*who).zone != *zone;
            let c = &mut s.chars[*who as usize];
            c.zone = *zone;
            c.far = *far;
            c.cover = *cover;
            c.beside = *beside;
            // Whoever had closed in beside it must close in again.
            for o in s.chars.iter_mut() {
                if o.beside == Some(*who) {
                    o.beside = None;
                }
            }
            if moved_zone {
                end_holds_apart(s, *who);
            }
        }
        Event::Frame(op) => apply_frame_op(&mut s.frames, op.as_ref()),
        Event::Tested { .. } | Event::AttackResult { .. } | Event::Armoured { .. } => {}
        Event::Harmed {
            who,
            mental,
            parts,
            points,
        } => {
            let slots = s.options.harm_slots;
            let c = &mut s.chars[*who as usize];
            c.harm.points = c.harm.points.saturating_add(*points);
            c.harm.fresh = c.harm.fresh.saturating_add(*points);
            let track = if *mental {
                &mut c.harm.mental
            } else {
                &mut c.harm.physical
            };
            let (rows, over) = place(*track, slots, parts);
            *track = rows;
            let st = status_after(s, *who, over);
            set_status(s, *who, st);
        }
        Event::Restrained { who, by, silenced } => {
            let c = &mut s.chars[*who as usize];
            c.held_by = Some(*by);
            c.silenced = *silenced;
        }
        Event::Freed { who } => {
            let c = &mut s.chars[*who as usize];
            c.held_by = None;
            c.silenced = false;
        }
        Event::Ignited { who, intensity } => {
            s.chars[*who as usize].fire = Some(Fire {
                intensity: *intensity,
                saved: 0,
            })
        }
        Event::Doused { who, saved, out } => {
            let c = &mut s.chars[*who as usize];
            if *out {
                c.fire = None;
            } else if let Some(f) = &mut c.fire {
                f.saved = *saved;
            }
        }
        Event::Poisoned { who, next, mental } => {
            s.chars[*who as usize].poison = (*next > 0).then_some(Poison {
                next: *next,
                mental: *mental,
            })
        }
        Event::Bonus { who, dice } => s.chars[*who as usize].bonus = *dice,
        Event::BonusUsed { who } => {
            let c = &mut s.chars[*who as usize];
            c.bonus = 0;
            c.harm.fresh = 0;
        }
        Event::AmbushUsed { who } => s.chars[*who as usize].ambush_bonus = 0,
        Event::Wielded { who, weapon } => s.chars[*who as usize].wield = *weapon,
        Event::Dropped { who, weapon, zone } => {
            let c = &mut s.chars[*who as usize];
            c.carried.remove(*weapon);
            if c.wield == Some(*weapon) {
                c.wield = None;
            }
            s.dropped.push((*weapon, *zone));
        }
        Event::PickedUp { who, weapon } => {
            let zone = s.ch(*who).zone;
            if let Some(i) = s.dropped.iter().position(|&(w, z)| w == *weapon && z == zone) {
                s.dropped.remove(i);
            }
            let c = &mut s.chars[*who as usize];
            c.carried.push(*weapon);
            c.wield = Some(*weapon);
        }
        Event::Pinned { who, on } => s.chars[*who as usize].pinned = *on,
        Event::Prone { who, on } => s.chars[*who as usize].prone = *on,
        Event::TriedBreak { who } => s.chars[*who as usize].broke_free = true,
        Event::Fled { who } => set_status(s, *who, Status::Fled),
        Event::Chasing { who, action } => s.chars[*who as usize].chase = *action,
        Event::Injured { who, roll } => s.chars[*who as usize].injury = Some(*roll),
        Event::NewDeck => s.deck = fray_dice::Deck::from_cards(11..=20),
        Event::FleeFailed { .. }
        | Event::StillHeld { .. }
        | Event::Quick { .. }
        | Event::Fell { .. }
        | Event::Pushed { .. } => {}
        Event::TurnEnded { who, .. } => {
            s.turn = None;
            // A pin lasts until the target's next zone entry or the end of its next turn (it
            // is always set outside the target's own turn).
            s.chars[*who as usize].pinned = false;
            s.chars[*who as usize].broke_free = false;
            s.order.finish_current();
        }
        Event::Circumstance { name, zone, on } => {
            s.circumstances.retain(|(n, z)| !(n == name && z == zone));
            if *on {
                s.circumstances.push((name.clone(), *zone));
            }
        }
        Event::Cleared { a, b, .. } => {
            if let Some(i) = s.link_index(*a, *b)
                && !s.cleared.contains(&i)
            {
                s.cleared.push(i);
            }
        }
        Event::GroupTurn { who } => {
            // EIN-R2: the member chosen takes the place of the group's slot that is due now.
            if let Some(cur) = s.order.current_slot()
                && cur.who != *who
            {
                let key = s.order.get(cur).map(|x| x.key);
                let at = s
                    .order
                    .slots_of(*who)
                    .find(|x| Some(x.key) == key && x.active && !x.acted)
                    .map(|x| x.at());
                if let Some(at) = at {
                    let _ = s.order.swap(cur, at);
                }
            }
        }
        Event::Ruled(r) => rule(s, r),
        Event::Ended { winner } => {
            s.outcome = Some(Outcome {
                winner: *winner,
                reason: "last-side-standing".into(),
            });
        }
    }
}

/// EIN-R29, EIN-H30: a hold ends when holder and held are no longer in one zone (either moved,
/// was pushed, or was put elsewhere by the GM).
fn end_holds_apart(s: &mut State, who: Cid) {
    let zone = s.ch(who).zone;
    let holder = s.ch(who).held_by;
    if holder.is_some_and(|h| s.ch(h).zone != zone) {
        let c = &mut s.chars[who as usize];
        c.held_by = None;
        c.silenced = false;
    }
    for o in s.chars.iter_mut() {
        if o.held_by == Some(who) && o.zone != zone {
            o.held_by = None;
            o.silenced = false;
        }
    }
}

/// A creature's new status: one out of the fight loses its turns and lets go (EIN-H30).
fn set_status(s: &mut State, who: Cid, st: Status) {
    s.chars[who as usize].status = st;
    if st != Status::Fighting {
        s.order.deactivate(who);
        for o in s.chars.iter_mut() {
            if o.held_by == Some(who) {
                o.held_by = None;
                o.silenced = false;
            }
            if o.beside == Some(who) {
                o.beside = None;
            }
        }
        let c = &mut s.chars[who as usize];
        c.held_by = None;
        c.beside = None;
    }
}

/// Exchanges two cards (EIN-R5 to EIN-R7, EIN-H23). A creature that swaps with one member of a
/// group card takes the group's value but no longer shares it, so it sorts just before the
/// group; the member is split off with the other card.
fn swap_cards(s: &mut State, a: Cid, card_a: Card, b: Cid, card_b: Card, forced: bool) {
    let (sa, sb) = (slot_with(s, a, card_a), slot_with(s, b, card_b));
    for (x, old, new) in [(a, card_a, card_b), (b, card_b, card_a)] {
        let c = &mut s.chars[x as usize];
        c.cards.replace(old, new);
        c.shares = false;
    }
    // EIN-H23: by default the order changes from the next round (it is rebuilt from the cards
    // then); `immediate` also swaps the two places this round when neither has acted.
    let immediate = forced && s.options.forced_swap_timing == SwapTiming::Immediate;
    let current = s.order.current_slot();
    if immediate
        && s.stage == RoundStage::Turns
        && let (Some(x), Some(y)) = (sa, sb)
        && current != Some(x)
        && current != Some(y)
    {
        // Only two places both still to come change this round; the turn under way and a place
        // that has acted stay, so nobody acts twice or loses a turn (the change then waits for
        // the next round).
        let _ = s.order.swap(x, y);
    }
}

/// The slot of `who` that holds `card` in this round's order, if any.
fn slot_with(s: &State, who: Cid, card: Card) -> Option<SlotRef> {
    let key = card.key(s.ch(who).shares);
    s.order.slots_of(who).find(|sl| sl.key == key).map(|sl| sl.at())
}

/// This round's order from the cards (EIN-R3, EIN-R4): lowest first, a group's members one
/// after another in encounter order (EIN-R2), one slot per card (EIN-R46).
pub fn order_from_cards(s: &State) -> InitiativeOrder {
    let mut entries: Vec<(i32, Cid, u8)> = Vec::new();
    for (i, c) in s.chars.iter().enumerate() {
        if c.out() {
            continue;
        }
        // EIN-R46: every card a creature holds is a turn of its own.
        for (n, card) in c.cards.cards().iter().enumerate() {
            entries.push((card.key(c.shares), i as Cid, n as u8));
        }
    }
    // EIN-R3: the lowest card acts first, then upward.
    entries.sort_by_key(|&(k, who, n)| (k, who, n));
    // An owner's slots are numbered in the order listed, so slot n is its n-th lowest card,
    // and card n's allowance is `left[n]` for the whole round.
    let mut order = InitiativeOrder::new(entries.iter().map(|&(k, who, _)| (who, k)), false);
    order.start_round();
    order
}

fn rule(s: &mut State, r: &Ruling) {
    use crate::command::{Gauge, Own};
    match r {
        R::Adjust { who, gauge, by } => {
            let c = &mut s.chars[*who as usize];
            let v = |x: u8| by.apply(i16::from(x)).clamp(0, 20) as u8;
            match gauge {
                Gauge::Lesser(m) => {
                    let t = if *m { &mut c.harm.mental } else { &mut c.harm.physical };
                    t[0] = v(t[0]);
                }
                Gauge::Moderate(m) => {
                    let t = if *m { &mut c.harm.mental } else { &mut c.harm.physical };
                    t[1] = v(t[1]);
                }
                Gauge::Severe(m) => {
                    let t = if *m { &mut c.harm.mental } else { &mut c.harm.physical };
                    t[2] = v(t[2]);
                }
                Gauge::Points => c.harm.points = v(c.harm.points),
                Gauge::Bonus => c.bonus = v(c.bonus),
            }
            let st = status_after(s, *who, false);
            set_status(s, *who, st);
        }
        R::Move { who, to } => {
            let c = &mut s.chars[*who as usize];
            c.zone = *to;
            c.far = false;
            c.cover = false;
            c.beside = None;
            for o in s.chars.iter_mut() {
                if o.beside == Some(*who) {
                    o.beside = None;
                }
            }
            end_holds_apart(s, *who);
        }
        R::Add { id, template, side, at } => {
            let Some(i) = s.setup.templates.keys().position(|k| k == template) else {
                return;
            };
            let block = (s.setup.combatants.len() + i) as u16;
            let stats = s.blocks[block as usize].clone();
            let pc = s.setup.player_sides.contains(side);
            let c = Combatant {
                id: id.clone(),
                name: id.clone(),
                side: *side,
                pc,
                zone: *at,
                far: false,
                cover: false,
                prone: false,
                group: None,
                // A creature the GM brings in is played by its side's seat.
                seat: None,
                stats,
                worn: Default::default(),
            };
            let mut ch = s.new_char(&c, block);
            let m = s.blocks[block as usize].maneuvers;
            ch.left = [m; MAX_CARDS];
            s.chars.push(ch);
        }
        R::Remove { who } => set_status(s, *who, Status::Removed),
        R::End { winner } => {
            s.outcome = Some(Outcome {
                winner: *winner,
                reason: "gm-ended".into(),
            })
        }
        R::Other(o) => match o {
            Own::Prone { who, on } => s.chars[*who as usize].prone = *on,
            Own::Douse { who } => s.chars[*who as usize].fire = None,
            Own::Antidote { who } => s.chars[*who as usize].poison = None,
            Own::Release { who } => {
                let c = &mut s.chars[*who as usize];
                c.held_by = None;
                c.silenced = false;
            }
            // The rest roll dice: resolution emits their events after the ruling.
            _ => {}
        },
    }
}

/// Pushes target somewhere: a zone, far off in its zone, or down.
pub fn pushed(s: &State, who: Cid, to: PushTo) -> Event {
    let c = s.ch(who);
    match to {
        PushTo::Zone(z) => Event::entered(who, z),
        PushTo::Far => Event::Placed {
            who,
            zone: c.zone,
            far: true,
            cover: false,
            beside: None,
        },
        PushTo::Down => Event::Prone { who, on: true },
    }
}
