//! Reusable turn-order schemes.
//!
//! [`InitiativeOrder`] is a sorted list of slots with a cursor: each round every active slot
//! takes one turn in order; a character may delay to a later point (right after a named slot or
//! to the end), which moves its slot permanently. Each slot keeps a sort key (its initiative
//! total, or the key it inherited by delaying) so that a change of initiative can re-sort the
//! order at the start of the next round while delays keep their place. Ties in keys keep their
//! current relative order (the sort is stable), so the ruleset's initial tie-breaks last for the
//! whole combat. The direction (highest or lowest first) is a parameter so games that act from
//! the lowest count up can reuse it.

use serde::{Deserialize, Serialize};

/// One combatant's place in the order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    /// The combatant (the ruleset's index).
    pub who: u16,
    /// The sort key: the initiative total, or the key inherited by delaying.
    pub key: i32,
    /// Whether this slot has taken its turn this round.
    pub acted: bool,
    /// Whether this slot has delayed this round.
    pub delayed: bool,
    /// False once the combatant has left the combat: its slot is skipped.
    pub active: bool,
}

/// Why a delay was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayError {
    /// The combatant is not the one whose slot is current.
    NotCurrent,
    /// It already delayed this round.
    AlreadyDelayed,
    /// The named point is not a later slot that has not acted yet this round.
    NotLater,
    /// There is no later slot to delay behind.
    NothingLater,
}

/// A sorted initiative order with delays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeOrder {
    slots: Vec<Slot>,
    cursor: usize,
    descending: bool,
}

impl InitiativeOrder {
    /// An order from `(who, key)` pairs already in acting order (the ruleset applied its
    /// tie-breaks). `descending` says whether higher keys act first.
    pub fn new(entries: impl IntoIterator<Item = (u16, i32)>, descending: bool) -> InitiativeOrder {
        let slots = entries
            .into_iter()
            .map(|(who, key)| Slot {
                who,
                key,
                acted: false,
                delayed: false,
                active: true,
            })
            .collect();
        let mut order = InitiativeOrder {
            slots,
            cursor: 0,
            descending,
        };
        order.skip_to_next();
        order
    }

    /// Every slot in acting order (acted, pending and inactive alike).
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// The combatant whose slot is current, or `None` when the round is over.
    pub fn current(&self) -> Option<u16> {
        self.slots.get(self.cursor).map(|s| s.who)
    }

    /// Index of a combatant's slot in the current order.
    pub fn position(&self, who: u16) -> Option<usize> {
        self.slots.iter().position(|s| s.who == who)
    }

    /// The slot of a combatant.
    pub fn slot(&self, who: u16) -> Option<&Slot> {
        self.slots.iter().find(|s| s.who == who)
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

    /// Starts a new round: clears the per-round flags and re-sorts by key (stably, so ties and
    /// delays keep their relative places).
    pub fn start_round(&mut self) {
        // THR-R3: a new round gives every slot one turn again.
        for s in &mut self.slots {
            s.acted = false;
            s.delayed = false;
        }
        // THR-R11: the stored order carries over; only changed keys (Initiative changes) move
        // slots, and the stable sort keeps delayed slots where their delay put them (THR-R14).
        if self.descending {
            self.slots.sort_by_key(|s| std::cmp::Reverse(s.key));
        } else {
            self.slots.sort_by_key(|s| s.key);
        }
        self.cursor = 0;
        self.skip_to_next();
    }

    /// Whether the current combatant may still delay this round, and to where.
    pub fn can_delay(&self, who: u16) -> Result<(), DelayError> {
        let Some(cur) = self.slots.get(self.cursor) else {
            return Err(DelayError::NotCurrent);
        };
        if cur.who != who {
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

    /// The combatants after the current slot that have not acted this round (the legal points to
    /// delay behind), in order.
    pub fn later_waiting(&self) -> impl Iterator<Item = u16> + '_ {
        self.slots
            .iter()
            .skip(self.cursor + 1)
            .filter(|s| s.active && !s.acted)
            .map(|s| s.who)
    }

    /// Moves the current combatant's slot to just after `target`'s, for good. The cursor stays
    /// put, so the slot that followed becomes current.
    pub fn delay_after(&mut self, who: u16, target: u16) -> Result<(), DelayError> {
        self.can_delay(who)?;
        if !self.later_waiting().any(|t| t == target) {
            return Err(DelayError::NotLater);
        }
        // THR-R14: the slot moves for good: it takes the key of the slot it now follows, so later
        // rounds keep the new place (THR-R16's Bob and Alice end as Bob, Alice).
        let mut slot = self.slots.remove(self.cursor);
        let at = self.position(target).ok_or(DelayError::NotLater)?;
        slot.key = self.slots[at].key;
        slot.delayed = true;
        self.slots.insert(at + 1, slot);
        self.skip_to_next();
        Ok(())
    }

    /// Moves the current combatant's slot to the end of the order, for good.
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

    /// Adds a combatant that joins mid-combat at the place its key gives it. With
    /// `this_round` false it counts as having acted this round, so its first turn comes next
    /// round; with `this_round` true it acts this round if its place is still ahead.
    pub fn insert_joined(&mut self, who: u16, key: i32, this_round: bool) {
        let at = self
            .slots
            .iter()
            .position(|s| if self.descending { s.key < key } else { s.key > key })
            .unwrap_or(self.slots.len());
        self.slots.insert(
            at,
            Slot {
                who,
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
    }

    /// Takes a combatant out of the order: its slot is skipped from now on. If its slot is the
    /// current one, it stays current until [`InitiativeOrder::finish_current`] (so the ruleset
    /// can close the turn that was under way).
    pub fn deactivate(&mut self, who: u16) {
        if let Some(s) = self.slots.iter_mut().find(|s| s.who == who) {
            s.active = false;
        }
    }

    /// Changes a combatant's key by `delta`; the order is re-sorted at the next round start.
    pub fn adjust_key(&mut self, who: u16, delta: i32) {
        if let Some(s) = self.slots.iter_mut().find(|s| s.who == who) {
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
}
