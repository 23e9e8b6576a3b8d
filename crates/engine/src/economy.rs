//! An action economy: a number of actions per turn, reactions per round, and extended actions
//! that carry their unpaid cost into later turns.
//!
//! The numbers are the ruleset's (three actions and one reaction in Ingenuity); this type only
//! keeps the books. An action that costs more than what is left can still be started: what is
//! left is spent now and the rest is owed, to be paid first thing on later turns until the action
//! completes (its effect happens then), or abandoned at no further cost. The payload `A` says
//! what the extended action is (the ruleset's own type).
//!
//! Reactions are restored to the per-round cap when the owner's turn starts; a temporary extra
//! cap (such as one extra reaction "until your next turn") lasts until then too.

use serde::{Deserialize, Serialize};

/// An action being paid over several turns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Extended<A> {
    /// What it is.
    pub action: A,
    /// Its whole cost in actions.
    pub cost: u8,
    /// Actions still owed before it completes.
    pub owed: u8,
}

/// One combatant's actions and reactions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Economy<A> {
    /// Actions left this turn.
    pub actions: u8,
    /// Reactions used since the last restore.
    pub reactions_used: u8,
    /// Reactions allowed until the next restore (the per-round cap plus any extra).
    pub reaction_cap: u8,
    /// The extended action in progress, if any.
    pub extended: Option<Extended<A>>,
}

/// The result of spending actions on an action that may be extended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paid {
    /// Fully paid now: the action takes effect.
    Complete,
    /// Partly paid: the rest is owed on later turns.
    Started {
        /// Actions still owed.
        owed: u8,
    },
}

impl<A> Default for Economy<A> {
    fn default() -> Self {
        Economy {
            actions: 0,
            reactions_used: 0,
            reaction_cap: 1,
            extended: None,
        }
    }
}

impl<A> Economy<A> {
    /// A fresh economy with `reactions` per round and no actions until a turn starts.
    pub fn new(reactions: u8) -> Self {
        Economy {
            actions: 0,
            reactions_used: 0,
            reaction_cap: reactions,
            extended: None,
        }
    }

    /// The owner's turn starts: `actions` to spend, reactions restored to `reactions` (any
    /// temporary extra ends).
    pub fn start_turn(&mut self, actions: u8, reactions: u8) {
        self.actions = actions;
        self.reactions_used = 0;
        self.reaction_cap = reactions;
    }

    /// The turn ends: actions left are lost.
    pub fn end_turn(&mut self) {
        self.actions = 0;
    }

    /// Whether `n` actions can be spent now.
    pub fn can_spend(&self, n: u8) -> bool {
        self.actions >= n
    }

    /// Spends `n` actions (saturating).
    pub fn spend(&mut self, n: u8) {
        self.actions = self.actions.saturating_sub(n);
    }

    /// Pays for an action that costs `cost`: all of it if enough is left, otherwise everything
    /// left, with the rest owed as an extended action carrying `action`.
    pub fn pay_or_extend(&mut self, cost: u8, action: A) -> Paid {
        if self.actions >= cost {
            self.actions -= cost;
            return Paid::Complete;
        }
        let owed = cost - self.actions;
        self.actions = 0;
        self.extended = Some(Extended { action, cost, owed });
        Paid::Started { owed }
    }

    /// Pays what can be paid now toward the extended action in progress; `Complete` once
    /// nothing is owed (the action is then taken out and returned with the result).
    pub fn continue_extended(&mut self) -> Option<(Paid, Option<A>)> {
        let ext = self.extended.as_mut()?;
        let pay = ext.owed.min(self.actions);
        ext.owed -= pay;
        self.actions -= pay;
        if ext.owed == 0 {
            let done = self.extended.take().map(|e| e.action);
            Some((Paid::Complete, done))
        } else {
            Some((Paid::Started { owed: ext.owed }, None))
        }
    }

    /// Drops the extended action in progress (nothing already spent comes back).
    pub fn abandon(&mut self) -> Option<A> {
        self.extended.take().map(|e| e.action)
    }

    /// Reactions still available.
    pub fn reactions_left(&self) -> u8 {
        self.reaction_cap.saturating_sub(self.reactions_used)
    }

    /// Uses a reaction (a free reaction does not count).
    pub fn use_reaction(&mut self, free: bool) {
        if !free {
            self.reactions_used = self.reactions_used.saturating_add(1);
        }
    }

    /// Raises the reaction cap until the next restore.
    pub fn extra_reaction(&mut self, n: u8) {
        self.reaction_cap = self.reaction_cap.saturating_add(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_action_longer_than_what_is_left_is_carried_and_completed_later() {
        let mut e: Economy<&str> = Economy::new(1);
        e.start_turn(3, 1);
        e.spend(1); // attack
        e.spend(1); // seek cover
        assert_eq!(e.pay_or_extend(2, "reload"), Paid::Started { owed: 1 });
        assert_eq!(e.actions, 0);
        e.start_turn(3, 1);
        assert_eq!(e.continue_extended(), Some((Paid::Complete, Some("reload"))));
        assert_eq!(e.actions, 2);
        assert!(e.extended.is_none());
    }

    #[test]
    fn extended_actions_can_span_turns_and_be_abandoned() {
        let mut e: Economy<u8> = Economy::new(1);
        e.start_turn(3, 1);
        assert_eq!(e.pay_or_extend(7, 9), Paid::Started { owed: 4 });
        e.start_turn(3, 1);
        assert_eq!(e.continue_extended(), Some((Paid::Started { owed: 1 }, None)));
        e.start_turn(3, 1);
        assert_eq!(e.abandon(), Some(9));
        assert_eq!(e.actions, 3);
    }

    #[test]
    fn reactions_restore_at_turn_start_and_extras_last_until_then() {
        let mut e: Economy<()> = Economy::new(1);
        e.start_turn(3, 1);
        e.extra_reaction(1);
        e.use_reaction(false);
        e.use_reaction(true);
        assert_eq!(e.reactions_left(), 1);
        e.use_reaction(false);
        assert_eq!(e.reactions_left(), 0);
        e.start_turn(3, 1);
        assert_eq!(e.reactions_left(), 1);
    }
}
