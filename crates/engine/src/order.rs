//! Reusable turn-order schemes.
//!
//! [`InitiativeOrder`] is a sorted list of slots with a cursor: each round every active slot
//! takes one turn in order; a slot may delay to a later point (right after a named slot or to
//! the end), which moves it permanently. Each slot keeps a sort key (its initiative total, or
//! the key it inherited by delaying) so that a change of initiative can re-sort the order at the
//! start of the next round while delays keep their place. Ties in keys keep their current
//! relative order (the sort is stable), so the ruleset's initial tie-breaks last for the whole
//! combat. The direction (highest or lowest first) is a parameter so games that act from the
//! lowest count up can reuse it.
//!
//! The order is keyed by slot, not by combatant: a slot belongs to an owner (`who`, the
//! ruleset's index of a combatant, or of a group that shares one slot) and is told apart from
//! the owner's other slots by its number `n` ([`SlotRef`]). So one creature may hold several
//! slots (several initiative cards), a group one slot, a newcomer a second slot for one round
//! (acting twice), and two slots may swap places. With simultaneous ties on, the run of
//! consecutive slots with the current slot's key is one batch ([`InitiativeOrder::current_batch`])
//! whose members act at the same time. The owner-keyed methods (`current`, `delay_after`, ...)
//! address an owner's first slot, which is all a game with one slot per combatant needs.

use serde::{Deserialize, Serialize};

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Which slot: its owner and its number among the owner's slots (0 for the first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SlotRef {
    /// The owner (the ruleset's index of a combatant or a group).
    pub who: u16,
    /// The slot's number among its owner's slots.
    pub n: u8,
}

impl SlotRef {
    /// The first slot of `who`.
    pub fn first(who: u16) -> SlotRef {
        SlotRef { who, n: 0 }
    }
}

/// One place in the order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    /// The owner (the ruleset's index of a combatant, or of a group sharing the slot).
    pub who: u16,
    /// The slot's number among its owner's slots (0 for the first; left out of the JSON).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub n: u8,
    /// The sort key: the initiative total, or the key inherited by delaying.
    pub key: i32,
    /// Whether this slot has taken its turn this round.
    pub acted: bool,
    /// Whether this slot has delayed this round.
    pub delayed: bool,
    /// False once the slot has left the combat: it is skipped.
    pub active: bool,
}

impl Slot {
    /// This slot's reference.
    pub fn at(&self) -> SlotRef {
        SlotRef {
            who: self.who,
            n: self.n,
        }
    }
}

/// Why a delay was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayError {
    /// The slot is not the current one.
    NotCurrent,
    /// It already delayed this round.
    AlreadyDelayed,
    /// The named point is not a later slot that has not acted yet this round.
    NotLater,
    /// There is no later slot to delay behind.
    NothingLater,
}

/// Why a swap was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwapError {
    /// One of the slots does not exist (or both are the same).
    Unknown,
    /// One of the slots has acted this round (a swap exchanges places that are still to come).
    Acted,
}

/// A sorted initiative order with delays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeOrder {
    slots: Vec<Slot>,
    cursor: usize,
    descending: bool,
    /// Whether slots with equal keys act at the same time (left out of the JSON when off).
    #[serde(default, skip_serializing_if = "is_false")]
    simultaneous: bool,
}

impl InitiativeOrder {
    /// An order from `(who, key)` pairs already in acting order (the ruleset applied its
    /// tie-breaks). `descending` says whether higher keys act first. An owner listed several
    /// times gets several slots, numbered in the order listed.
    pub fn new(entries: impl IntoIterator<Item = (u16, i32)>, descending: bool) -> InitiativeOrder {
        let mut slots: Vec<Slot> = Vec::new();
        for (who, key) in entries {
            let n = slots.iter().filter(|s| s.who == who).count() as u8;
            slots.push(Slot {
                who,
                n,
                key,
                acted: false,
                delayed: false,
                active: true,
            });
        }
        let mut order = InitiativeOrder {
            slots,
            cursor: 0,
            descending,
            simultaneous: false,
        };
        order.skip_to_next();
        order
    }

    /// The same order with simultaneous ties on or off: with it on, the slots that follow the
    /// current one with the same key act together with it ([`InitiativeOrder::current_batch`]).
    pub fn with_simultaneous_ties(mut self, on: bool) -> InitiativeOrder {
        self.simultaneous = on;
        self
    }

    /// Every slot in acting order (acted, pending and inactive alike).
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// The owner of the current slot, or `None` when the round is over.
    pub fn current(&self) -> Option<u16> {
        self.slots.get(self.cursor).map(|s| s.who)
    }

    /// The current slot, or `None` when the round is over.
    pub fn current_slot(&self) -> Option<SlotRef> {
        self.slots.get(self.cursor).map(Slot::at)
    }

    /// The slots that act now: the current one and, with simultaneous ties, every later slot
    /// that has not acted, is active and has the same key, up to the first that differs.
    pub fn current_batch(&self) -> impl Iterator<Item = SlotRef> + '_ {
        let key = self.slots.get(self.cursor).map(|s| s.key);
        let together = self.simultaneous;
        self.slots
            .iter()
            .skip(self.cursor)
            .take_while(move |s| Some(s.key) == key)
            .enumerate()
            .filter(move |(i, s)| (*i == 0 || together) && s.active && !s.acted)
            .map(|(_, s)| s.at())
    }

    /// Index of an owner's first slot in the current order.
    pub fn position(&self, who: u16) -> Option<usize> {
        self.slots.iter().position(|s| s.who == who)
    }

    /// Index of a slot in the current order.
    pub fn position_of(&self, at: SlotRef) -> Option<usize> {
        self.slots.iter().position(|s| s.at() == at)
    }

    /// The first slot of an owner.
    pub fn slot(&self, who: u16) -> Option<&Slot> {
        self.slots.iter().find(|s| s.who == who)
    }

    /// A slot.
    pub fn get(&self, at: SlotRef) -> Option<&Slot> {
        self.slots.iter().find(|s| s.at() == at)
    }

    /// Every slot of an owner, in acting order.
    pub fn slots_of(&self, who: u16) -> impl Iterator<Item = &Slot> + '_ {
        self.slots.iter().filter(move |s| s.who == who)
    }

    /// Whether every active slot has acted this round.
    pub fn round_over(&self) -> bool {
        self.cursor >= self.slots.len()
    }

    fn skip_to_next(&mut self) {
        while let Some(s) = self.slots.get(self.cursor) {
            if s.active && !s.acted {
                break;
            }
            self.cursor += 1;
        }
    }

    /// Marks the current slot as having acted and moves to the next one that has not.
    pub fn finish_current(&mut self) {
        if let Some(s) = self.slots.get_mut(self.cursor) {
            // THR-R3: each slot acts once a round; the cursor never returns to an acted slot.
            s.acted = true;
        }
        self.skip_to_next();
    }

    /// Marks one slot of the current batch (or any slot) as having acted; the cursor moves on
    /// once the current slot has acted, so a batch ends when its last member finishes.
    pub fn finish_slot(&mut self, at: SlotRef) {
        if let Some(s) = self.slots.iter_mut().find(|s| s.at() == at) {
            s.acted = true;
        }
        self.skip_to_next();
    }

    /// Starts a new round: clears the per-round flags and re-sorts by key (stably, so ties and
    /// delays keep their relative places).
    pub fn start_round(&mut self) {
        // THR-R3: a new round gives every slot one turn again; THR-R17: and a new Delay, the
        // limit being per round.
        for s in &mut self.slots {
            s.acted = false;
            s.delayed = false;
        }
        // THR-R11: the stored order carries over; only changed keys (Initiative changes) move
        // slots, and the stable sort keeps delayed slots where their delay put them (THR-R14).
        // THR-R18: so a changed Initiative re-sorts the order here, at the next round's start.
        if self.descending {
            self.slots.sort_by_key(|s| std::cmp::Reverse(s.key));
        } else {
            self.slots.sort_by_key(|s| s.key);
        }
        self.cursor = 0;
        self.skip_to_next();
    }

    /// Whether the owner of the current slot may still delay this round.
    pub fn can_delay(&self, who: u16) -> Result<(), DelayError> {
        match self.current_slot() {
            Some(at) if at.who == who => self.can_delay_slot(at),
            _ => Err(DelayError::NotCurrent),
        }
    }

    /// Whether the current slot `at` may still delay this round.
    pub fn can_delay_slot(&self, at: SlotRef) -> Result<(), DelayError> {
        let Some(cur) = self.slots.get(self.cursor) else {
            return Err(DelayError::NotCurrent);
        };
        if cur.at() != at {
            return Err(DelayError::NotCurrent);
        }
        // THR-R15, THR-R16: one Delay per round; a slot that delayed must act when it comes up.
        if cur.delayed {
            return Err(DelayError::AlreadyDelayed);
        }
        if self.later_waiting().next().is_none() {
            return Err(DelayError::NothingLater);
        }
        Ok(())
    }

    /// The owners of the slots after the current one that have not acted this round (the
    /// legal points to delay behind), in order.
    pub fn later_waiting(&self) -> impl Iterator<Item = u16> + '_ {
        self.later_waiting_slots().map(|s| s.who)
    }

    /// The slots after the current one that have not acted this round, in order.
    pub fn later_waiting_slots(&self) -> impl Iterator<Item = SlotRef> + '_ {
        self.slots
            .iter()
            .skip(self.cursor + 1)
            .filter(|s| s.active && !s.acted)
            .map(Slot::at)
    }

    /// Moves the current owner's slot to just after `target`'s first slot, for good. The cursor
    /// stays put, so the slot that followed becomes current.
    pub fn delay_after(&mut self, who: u16, target: u16) -> Result<(), DelayError> {
        self.can_delay(who)?;
        let at = self.current_slot().ok_or(DelayError::NotCurrent)?;
        let target = self
            .later_waiting_slots()
            .find(|t| t.who == target)
            .ok_or(DelayError::NotLater)?;
        self.delay_slot_after(at, target)
    }

    /// Moves the current slot `at` to just after the slot `target`, for good.
    pub fn delay_slot_after(&mut self, at: SlotRef, target: SlotRef) -> Result<(), DelayError> {
        self.can_delay_slot(at)?;
        if !self.later_waiting_slots().any(|t| t == target) {
            return Err(DelayError::NotLater);
        }
        // THR-R14: the slot moves for good: it takes the key of the slot it now follows, so later
        // rounds keep the new place (THR-R16's Bob and Alice end as Bob, Alice).
        let mut slot = self.slots.remove(self.cursor);
        let i = self.position_of(target).ok_or(DelayError::NotLater)?;
        slot.key = self.slots[i].key;
        slot.delayed = true;
        self.slots.insert(i + 1, slot);
        self.skip_to_next();
        Ok(())
    }

    /// Moves the current owner's slot to the end of the order, for good.
    pub fn delay_to_end(&mut self, who: u16) -> Result<(), DelayError> {
        self.can_delay(who)?;
        let mut slot = self.slots.remove(self.cursor);
        let last_key = self
            .slots
            .iter()
            .map(|s| s.key)
            .reduce(|a, b| if self.descending { a.min(b) } else { a.max(b) });
        slot.key = last_key.unwrap_or(slot.key);
        slot.delayed = true;
        self.slots.push(slot);
        self.skip_to_next();
        Ok(())
    }

    /// Adds a first slot for an owner that joins mid-combat, at the place its key gives it. With
    /// `this_round` false it counts as having acted this round, so its first turn comes next
    /// round; with `this_round` true it acts this round if its place is still ahead.
    pub fn insert_joined(&mut self, who: u16, key: i32, this_round: bool) {
        self.add_slot(who, key, this_round);
    }

    /// Adds a slot for `who` (its first, or another one: a second card, a catch-up turn) at the
    /// place its key gives it (after the slots with the same key), and returns it. With
    /// `this_round` false it counts as having acted this round.
    pub fn add_slot(&mut self, who: u16, key: i32, this_round: bool) -> SlotRef {
        let n = self
            .slots
            .iter()
            .filter(|s| s.who == who)
            .map(|s| s.n + 1)
            .max()
            .unwrap_or(0);
        let at = self
            .slots
            .iter()
            .position(|s| if self.descending { s.key < key } else { s.key > key })
            .unwrap_or(self.slots.len());
        self.slots.insert(
            at,
            Slot {
                who,
                n,
                key,
                acted: !this_round || at <= self.cursor,
                delayed: false,
                active: true,
            },
        );
        if at <= self.cursor && self.cursor < self.slots.len() - 1 {
            self.cursor += 1;
        }
        self.skip_to_next();
        SlotRef { who, n }
    }

    /// Removes a slot for good (a catch-up turn that has been taken). The current slot keeps
    /// its turn unless it is the one removed.
    pub fn remove_slot(&mut self, at: SlotRef) {
        let Some(i) = self.position_of(at) else { return };
        self.slots.remove(i);
        if i < self.cursor {
            self.cursor -= 1;
        }
        self.skip_to_next();
    }

    /// Exchanges the places of two slots that have not acted this round (a card swap): each
    /// owner takes the other's place and key.
    pub fn swap(&mut self, a: SlotRef, b: SlotRef) -> Result<(), SwapError> {
        let (Some(i), Some(j)) = (self.position_of(a), self.position_of(b)) else {
            return Err(SwapError::Unknown);
        };
        if i == j {
            return Err(SwapError::Unknown);
        }
        if self.slots[i].acted || self.slots[j].acted {
            return Err(SwapError::Acted);
        }
        let (ki, kj) = (self.slots[i].key, self.slots[j].key);
        self.slots.swap(i, j);
        self.slots[i].key = ki;
        self.slots[j].key = kj;
        Ok(())
    }

    /// Takes an owner out of the order: its slots are skipped from now on. If its slot is the
    /// current one, it stays current until [`InitiativeOrder::finish_current`] (so the ruleset
    /// can close the turn that was under way).
    pub fn deactivate(&mut self, who: u16) {
        for s in self.slots.iter_mut().filter(|s| s.who == who) {
            s.active = false;
        }
    }

    /// Changes the key of an owner's slots by `delta`; the order is re-sorted at the next
    /// round start.
    pub fn adjust_key(&mut self, who: u16, delta: i32) {
        for s in self.slots.iter_mut().filter(|s| s.who == who) {
            s.key += delta;
        }
    }

    /// Changes one slot's key by `delta`; the order is re-sorted at the next round start.
    pub fn adjust_slot_key(&mut self, at: SlotRef, delta: i32) {
        if let Some(s) = self.slots.iter_mut().find(|s| s.at() == at) {
            s.key += delta;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order() -> InitiativeOrder {
        // Bob (0) 12, Alice (1) 10, Carol (2) 7.
        InitiativeOrder::new([(0, 12), (1, 10), (2, 7)], true)
    }

    #[test]
    fn bob_and_alice_delay_once_each() {
        let mut o = order();
        assert_eq!(o.current(), Some(0));
        o.delay_after(0, 1).unwrap();
        assert_eq!(o.current(), Some(1));
        o.delay_after(1, 0).unwrap();
        assert_eq!(o.current(), Some(0));
        assert_eq!(o.can_delay(0), Err(DelayError::AlreadyDelayed));
        o.finish_current();
        assert_eq!(o.current(), Some(1));
        o.finish_current();
        assert_eq!(o.current(), Some(2));
        o.finish_current();
        assert!(o.round_over());
        o.start_round();
        let who: Vec<u16> = o.slots().iter().map(|s| s.who).collect();
        assert_eq!(who, vec![0, 1, 2]);
        // The limit is per round.
        assert_eq!(o.can_delay(0), Ok(()));
    }

    #[test]
    fn delay_to_end_stays_last_and_adjusted_keys_resort_next_round() {
        let mut o = order();
        o.delay_to_end(0).unwrap();
        assert_eq!(o.slots().iter().map(|s| s.who).collect::<Vec<_>>(), vec![1, 2, 0]);
        o.adjust_key(2, 10);
        o.finish_current();
        o.finish_current();
        o.finish_current();
        o.start_round();
        assert_eq!(o.slots().iter().map(|s| s.who).collect::<Vec<_>>(), vec![2, 1, 0]);
    }

    #[test]
    fn cannot_delay_behind_someone_who_acted_or_when_last() {
        let mut o = order();
        o.finish_current();
        assert_eq!(o.delay_after(1, 0), Err(DelayError::NotLater));
        o.finish_current();
        assert_eq!(o.can_delay(2), Err(DelayError::NothingLater));
    }

    #[test]
    fn joiners_wait_for_next_round_and_inactive_slots_are_skipped() {
        let mut o = order();
        o.finish_current();
        o.insert_joined(3, 20, false);
        assert_eq!(o.current(), Some(1));
        o.deactivate(2);
        o.finish_current();
        assert!(o.round_over());
        o.start_round();
        assert_eq!(o.current(), Some(3));
    }

    #[test]
    fn a_creature_may_hold_several_slots_each_with_its_own_turn() {
        // Several initiative cards (as in Einfelst Wilds): owner 0 holds cards 2 and 7, owner 1 card 4; lowest acts first.
        let mut o = InitiativeOrder::new([(0, 2), (1, 4), (0, 7)], false);
        let order: Vec<SlotRef> = o.slots().iter().map(Slot::at).collect();
        assert_eq!(
            order,
            vec![
                SlotRef { who: 0, n: 0 },
                SlotRef { who: 1, n: 0 },
                SlotRef { who: 0, n: 1 }
            ]
        );
        assert_eq!(o.slots_of(0).count(), 2);
        let mut turns = Vec::new();
        while let Some(at) = o.current_slot() {
            turns.push(at);
            o.finish_current();
        }
        assert_eq!(turns, order, "each slot is a separate turn");
        // Taking the owner out skips all its slots (the current one closes its turn first).
        o.start_round();
        o.deactivate(0);
        o.finish_current();
        assert_eq!(o.current_slot(), Some(SlotRef::first(1)));
        o.finish_current();
        assert!(o.round_over(), "owner 0's second slot is skipped too");
    }

    #[test]
    fn two_slots_that_have_not_acted_swap_places_and_keys() {
        let mut o = InitiativeOrder::new([(0, 1), (1, 5), (2, 9)], false);
        o.swap(SlotRef::first(0), SlotRef::first(2)).unwrap();
        let who: Vec<(u16, i32)> = o.slots().iter().map(|s| (s.who, s.key)).collect();
        assert_eq!(who, vec![(2, 1), (1, 5), (0, 9)]);
        // The swap lasts: the next round keeps it.
        while o.current_slot().is_some() {
            o.finish_current();
        }
        o.start_round();
        assert_eq!(o.current(), Some(2));
        o.finish_current();
        assert_eq!(o.swap(SlotRef::first(2), SlotRef::first(1)), Err(SwapError::Acted));
        assert_eq!(o.swap(SlotRef::first(1), SlotRef::first(1)), Err(SwapError::Unknown));
        assert_eq!(o.swap(SlotRef::first(1), SlotRef::first(9)), Err(SwapError::Unknown));
    }

    #[test]
    fn equal_keys_act_as_one_batch_when_ties_are_simultaneous() {
        // Lowest first; owners 1 and 2 tie at 8.
        let entries = [(0, 5), (1, 8), (2, 8), (3, 12)];
        let mut o = InitiativeOrder::new(entries, false).with_simultaneous_ties(true);
        assert_eq!(o.current_batch().collect::<Vec<_>>(), vec![SlotRef::first(0)]);
        o.finish_current();
        assert_eq!(
            o.current_batch().collect::<Vec<_>>(),
            vec![SlotRef::first(1), SlotRef::first(2)]
        );
        // Either member may finish first; the batch ends with the last.
        o.finish_slot(SlotRef::first(2));
        assert_eq!(o.current_batch().collect::<Vec<_>>(), vec![SlotRef::first(1)]);
        o.finish_slot(SlotRef::first(1));
        assert_eq!(o.current_batch().collect::<Vec<_>>(), vec![SlotRef::first(3)]);
        // Without simultaneous ties a batch is the current slot alone.
        let o = InitiativeOrder::new(entries, false);
        let mut o = o;
        o.finish_current();
        assert_eq!(o.current_batch().collect::<Vec<_>>(), vec![SlotRef::first(1)]);
    }

    #[test]
    fn a_newcomer_acts_twice_through_a_second_slot_that_is_then_removed() {
        // A newcomer acting twice (as in Hallowed Earth): owner 9 joins with a catch-up slot at key -4 and its own at 8 (lowest
        // first), for next round.
        let mut o = InitiativeOrder::new([(0, 3), (1, 10)], false);
        o.finish_current();
        o.finish_current();
        let own = o.add_slot(9, 8, false);
        let catch_up = o.add_slot(9, -4, false);
        assert_eq!((own.n, catch_up.n), (0, 1));
        o.start_round();
        let mut turns = Vec::new();
        while let Some(at) = o.current_slot() {
            turns.push(at);
            o.finish_current();
            if at == catch_up {
                o.remove_slot(catch_up);
            }
        }
        assert_eq!(turns, vec![catch_up, SlotRef::first(0), own, SlotRef::first(1)]);
        o.start_round();
        assert_eq!(o.slots_of(9).count(), 1, "from then on it acts once a round");
    }

    #[test]
    fn the_json_of_single_slot_orders_is_unchanged() {
        // Records store orders inside events: slots numbered 0 and orders without simultaneous
        // ties serialise exactly as before slots had numbers.
        let o = order();
        let json = serde_json::to_string(&o).unwrap();
        assert!(!json.contains("\"n\"") && !json.contains("simultaneous"), "{json}");
        assert_eq!(serde_json::from_str::<InitiativeOrder>(&json).unwrap(), o);
        let two = InitiativeOrder::new([(0, 1), (0, 2)], true).with_simultaneous_ties(true);
        let json = serde_json::to_string(&two).unwrap();
        assert_eq!(serde_json::from_str::<InitiativeOrder>(&json).unwrap(), two);
    }
}
