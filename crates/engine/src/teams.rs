//! Team alternation: a turn-order scheme where teams, not individuals, hold the initiative.
//!
//! Teams sit in a fixed slot order. When its slot comes up, a team picks one of its members who
//! has not acted this round and can act now; that member takes a whole turn, and the next team in
//! slot order picks. A team with nobody left to pick is skipped, so a lone team takes its
//! remaining turns back to back. When nobody anywhere can be picked the round is over and the
//! next one starts again at slot 1, and members may be picked in a different order every round.
//!
//! Who "can act now" is the ruleset's business (conscious, not surprised in a surprise round,
//! ...), passed in as a predicate on every question, so a member revived in the middle of a round
//! becomes pickable at its team's next opportunity without any bookkeeping here.
//!
//! Members are the ruleset's combatant indices; `team_of[who]` gives each one's team. Teams are
//! small numbers chosen by the ruleset; the slot order lists them.
//!
//! With voluntary passing on ([`TeamOrder::with_passing`]), teams are never skipped: each team
//! in slot order gets the opportunity and either picks a member or passes ([`TeamOrder::pass`]);
//! a team with nobody to pick can only pass. The round ends when every team has passed in a
//! row, so a team that passed may act again if another team acted in between.

use serde::{Deserialize, Serialize};

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A team-alternation turn order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamOrder {
    /// Teams in slot order (slot 1 first).
    slots: Vec<u8>,
    /// The team of each member, indexed by member.
    team_of: Vec<u8>,
    /// Whether each member has taken its turn this round.
    acted: Vec<bool>,
    /// The slot whose team picks next (the search for a team with someone to pick starts here).
    cursor: usize,
    /// Voluntary passing: every team gets its opportunity and may pass (left out of the JSON
    /// when off).
    #[serde(default, skip_serializing_if = "is_false")]
    passing: bool,
    /// With passing: how many teams have passed in a row since someone last acted.
    #[serde(default, skip_serializing_if = "is_zero")]
    passes: u8,
}

/// Why a pick was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickError {
    /// No such member.
    Unknown,
    /// The member is not on the team whose turn it is to pick.
    NotThisTeam,
    /// The member has already taken a turn this round.
    AlreadyActed,
    /// The member cannot act now (the ruleset said so).
    CannotAct,
    /// Nobody can be picked: the round is over.
    RoundOver,
}

/// Why a pass was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassError {
    /// Passing is not part of this order (teams without anyone to pick are skipped instead).
    NoPassing,
    /// Every team has passed in a row: the round is over.
    RoundOver,
}

impl TeamOrder {
    /// An order with teams in `slots` order and each member's team in `team_of`.
    pub fn new(slots: Vec<u8>, team_of: Vec<u8>) -> TeamOrder {
        let n = team_of.len();
        TeamOrder {
            slots,
            team_of,
            acted: vec![false; n],
            cursor: 0,
            passing: false,
            passes: 0,
        }
    }

    /// The same order with voluntary passing on: teams are not skipped, each may pass on its
    /// opportunity, and the round ends when all have passed in a row.
    pub fn with_passing(mut self) -> TeamOrder {
        self.passing = true;
        self
    }

    /// Whether voluntary passing is on.
    pub fn passing(&self) -> bool {
        self.passing
    }

    /// With passing: how many teams have passed in a row.
    pub fn passes_in_a_row(&self) -> u8 {
        self.passes
    }

    /// The teams in slot order.
    pub fn slots(&self) -> &[u8] {
        &self.slots
    }

    /// The team of a member.
    pub fn team_of(&self, who: u16) -> Option<u8> {
        self.team_of.get(who as usize).copied()
    }

    /// Whether a member has taken its turn this round.
    pub fn has_acted(&self, who: u16) -> bool {
        self.acted.get(who as usize).copied().unwrap_or(true)
    }

    /// Members of `team` who have not acted this round and can act now, in member order.
    pub fn candidates<'a>(&'a self, team: u8, can_act: impl Fn(u16) -> bool + 'a) -> impl Iterator<Item = u16> + 'a {
        (0..self.team_of.len() as u16)
            .filter(move |&w| self.team_of[w as usize] == team && !self.acted[w as usize] && can_act(w))
    }

    /// The team whose turn it is to pick: from the current slot on (wrapping around), the first
    /// team with someone to pick. `None` when nobody can be picked (the round is over).
    ///
    /// With passing on, it is the team at the current slot (which may have nobody to pick and
    /// then can only pass), until every team has passed in a row.
    pub fn team_to_pick(&self, can_act: impl Fn(u16) -> bool) -> Option<u8> {
        if self.passing {
            let _ = can_act;
            let all_passed = usize::from(self.passes) >= self.slots.len();
            return (!all_passed).then(|| self.slots.get(self.cursor).copied()).flatten();
        }
        // ING-R9: a team with nobody left to pick is skipped; when one team remains it picks
        // again and again until its members have all acted.
        let n = self.slots.len();
        (0..n)
            .map(|k| self.slots[(self.cursor + k) % n])
            .find(|&t| self.candidates(t, &can_act).next().is_some())
    }

    /// Whether the round is over: nobody left who can be picked.
    pub fn round_over(&self, can_act: impl Fn(u16) -> bool) -> bool {
        self.team_to_pick(can_act).is_none()
    }

    /// Checks that `who` may be picked now.
    pub fn can_pick(&self, who: u16, can_act: impl Fn(u16) -> bool) -> Result<(), PickError> {
        let Some(&team) = self.team_of.get(who as usize) else {
            return Err(PickError::Unknown);
        };
        let Some(picking) = self.team_to_pick(&can_act) else {
            return Err(PickError::RoundOver);
        };
        if team != picking {
            return Err(PickError::NotThisTeam);
        }
        if self.acted[who as usize] {
            return Err(PickError::AlreadyActed);
        }
        if !can_act(who) {
            return Err(PickError::CannotAct);
        }
        Ok(())
    }

    /// Records that `who` took its turn: it will not be picked again this round, and the slot
    /// after its team's picks next.
    pub fn took_turn(&mut self, who: u16) {
        let Some(&team) = self.team_of.get(who as usize) else {
            return;
        };
        self.acted[who as usize] = true;
        self.passes = 0;
        if let Some(i) = self.slots.iter().position(|&t| t == team) {
            self.cursor = (i + 1) % self.slots.len().max(1);
        }
    }

    /// With passing on: the team whose opportunity it is passes, and the next slot's team
    /// has the opportunity. Refused when passing is off or the round is over.
    pub fn pass(&mut self) -> Result<(), PassError> {
        if !self.passing {
            return Err(PassError::NoPassing);
        }
        if self.team_to_pick(|_| true).is_none() {
            return Err(PassError::RoundOver);
        }
        self.passes = self.passes.saturating_add(1);
        self.cursor = (self.cursor + 1) % self.slots.len().max(1);
        Ok(())
    }

    /// Starts a new round: nobody has acted and slot 1 picks first.
    pub fn start_round(&mut self) {
        self.start_round_with(None);
    }

    /// Starts a new round with `first`'s slot picking first (a team that holds the initiative
    /// may choose who starts each round); `None` or a team without a slot: slot 1.
    pub fn start_round_with(&mut self, first: Option<u8>) {
        self.acted.iter_mut().for_each(|a| *a = false);
        self.passes = 0;
        self.cursor = first.and_then(|t| self.slots.iter().position(|&x| x == t)).unwrap_or(0);
    }

    /// Starts a new phase of the same round (Murdham's fast and slow phases): who has acted
    /// stays marked, the passes in a row start again from none, and slot 1 picks first.
    pub fn start_phase(&mut self) {
        self.start_phase_with(None);
    }

    /// [`TeamOrder::start_phase`] with `first`'s slot picking first; `None` or a team without a
    /// slot: slot 1.
    pub fn start_phase_with(&mut self, first: Option<u8>) {
        self.passes = 0;
        self.cursor = first.and_then(|t| self.slots.iter().position(|&x| x == t)).unwrap_or(0);
    }

    /// Adds a member (a combatant joining mid-combat) to `team`; if the team is new it takes the
    /// last slot. It has not acted this round. Returns its member index.
    pub fn add_member(&mut self, team: u8) -> u16 {
        if !self.slots.contains(&team) {
            self.slots.push(team);
        }
        self.team_of.push(team);
        self.acted.push(false);
        (self.team_of.len() - 1) as u16
    }

    /// Puts a team that has no slot yet at slot index `index` (0 = first; past the end = last).
    /// The team picking next keeps its turn.
    pub fn insert_team(&mut self, team: u8, index: usize) {
        if self.slots.contains(&team) {
            return;
        }
        let index = index.min(self.slots.len());
        self.slots.insert(index, team);
        if index <= self.cursor && self.slots.len() > 1 {
            self.cursor += 1;
        }
    }

    /// Whether a team has a slot.
    pub fn has_team(&self, team: u8) -> bool {
        self.slots.contains(&team)
    }

    /// Replaces the slot order (a ruling between rounds); teams left out lose their slot.
    pub fn set_slots(&mut self, slots: Vec<u8>) {
        self.slots = slots;
        self.cursor = 0;
        self.passes = 0;
    }

    /// Marks a member as having acted (for example one who may not act in a surprise round is
    /// simply never pickable instead; this is for rulings that use up a member's turn).
    pub fn mark_acted(&mut self, who: u16) {
        if let Some(a) = self.acted.get_mut(who as usize) {
            *a = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Players (team 0): members 0, 1, 2, 3. Guards (team 1): members 4, 5.
    fn order() -> TeamOrder {
        TeamOrder::new(vec![0, 1], vec![0, 0, 0, 0, 1, 1])
    }

    #[test]
    fn teams_alternate_then_the_larger_team_finishes() {
        let mut o = order();
        let all = |_: u16| true;
        let mut seq = Vec::new();
        while let Some(t) = o.team_to_pick(all) {
            let who = o.candidates(t, all).next().unwrap();
            o.took_turn(who);
            seq.push(who);
        }
        assert_eq!(seq, vec![0, 4, 1, 5, 2, 3]);
        o.start_round();
        assert_eq!(o.team_to_pick(all), Some(0));
    }

    #[test]
    fn a_new_phase_keeps_who_acted_and_clears_the_passes() {
        let mut o = TeamOrder::new(vec![0, 1], vec![0, 0, 1]).with_passing();
        o.took_turn(0);
        o.pass().unwrap();
        o.pass().unwrap();
        assert_eq!(
            o.team_to_pick(|_| true),
            None,
            "both passed in a row: the phase is over"
        );
        o.start_phase_with(Some(1));
        assert_eq!(o.team_to_pick(|_| true), Some(1));
        assert!(o.has_acted(0));
        assert_eq!(o.candidates(0, |_| true).collect::<Vec<_>>(), vec![1]);
    }

    #[test]
    fn a_revived_member_is_picked_at_the_next_opportunity() {
        let mut o = order();
        let mut down = [false; 6];
        down[0] = true; // member 0 is unconscious
        let can = |d: [bool; 6]| move |w: u16| !d[w as usize];
        o.took_turn(1);
        o.took_turn(4);
        o.took_turn(2);
        o.took_turn(5);
        o.took_turn(3);
        // Guards are out; player 0 cannot act: the round is over.
        assert!(o.round_over(can(down)));
        // Revived before the round ended (for example by member 3's action): it may act now.
        down[0] = false;
        assert_eq!(o.team_to_pick(can(down)), Some(0));
        assert_eq!(o.can_pick(0, can(down)), Ok(()));
        assert_eq!(o.can_pick(4, can(down)), Err(PickError::NotThisTeam));
    }

    #[test]
    fn picks_are_checked() {
        let o = order();
        let all = |_: u16| true;
        assert_eq!(o.can_pick(4, all), Err(PickError::NotThisTeam));
        assert_eq!(o.can_pick(9, all), Err(PickError::Unknown));
        assert_eq!(o.can_pick(2, |w| w != 2), Err(PickError::CannotAct));
    }

    #[test]
    fn a_team_inserted_mid_round_keeps_the_pick_where_it_was() {
        let mut o = order();
        let all = |_: u16| true;
        o.took_turn(0); // players picked; guards pick next
        o.insert_team(2, 1); // a new team right after the players
        let w = o.add_member(2);
        assert_eq!(o.slots(), &[0, 2, 1]);
        assert_eq!(o.team_to_pick(all), Some(1));
        o.took_turn(4);
        assert_eq!(o.team_to_pick(all), Some(0));
        o.took_turn(1);
        assert_eq!(o.team_to_pick(all), Some(2));
        assert_eq!(o.candidates(2, all).collect::<Vec<_>>(), vec![w]);
    }

    #[test]
    fn joining_teams_take_the_last_slot() {
        let mut o = order();
        let w = o.add_member(2);
        assert_eq!(w, 6);
        assert_eq!(o.slots(), &[0, 1, 2]);
        assert_eq!(o.team_of(6), Some(2));
    }

    #[test]
    fn with_passing_the_round_ends_when_every_team_passes_in_a_row() {
        // MUR-style: factions 0 and 1; members 0, 1 (faction 0) and 2 (faction 1).
        let mut o = TeamOrder::new(vec![0, 1], vec![0, 0, 1]).with_passing();
        let all = |_: u16| true;
        assert_eq!(o.team_to_pick(all), Some(0));
        o.took_turn(0);
        assert_eq!(o.team_to_pick(all), Some(1));
        o.pass().unwrap(); // faction 1 waits
        assert_eq!(o.team_to_pick(all), Some(0));
        o.pass().unwrap(); // faction 0 waits too: two passes in a row
        assert_eq!(o.team_to_pick(all), None, "both passed in a row: the round is over");
        assert!(o.round_over(all));
        assert_eq!(o.pass(), Err(PassError::RoundOver));
        o.start_round_with(Some(1));
        assert_eq!(o.team_to_pick(all), Some(1), "the chosen faction starts the round");
    }

    #[test]
    fn with_passing_a_team_that_passed_acts_again_after_another_acted() {
        let mut o = TeamOrder::new(vec![0, 1], vec![0, 0, 1]).with_passing();
        let all = |_: u16| true;
        o.pass().unwrap(); // faction 0 passes
        o.took_turn(2); // faction 1 acts: the run of passes is broken
        assert_eq!(o.passes_in_a_row(), 0);
        assert_eq!(o.team_to_pick(all), Some(0));
        o.took_turn(1);
        // Faction 1 has nobody left: it is not skipped but can only pass.
        assert_eq!(o.team_to_pick(all), Some(1));
        assert_eq!(o.candidates(1, all).count(), 0);
        o.pass().unwrap();
        o.pass().unwrap();
        assert!(o.round_over(all));
    }

    #[test]
    fn passing_is_refused_when_off_and_the_json_is_unchanged_then() {
        let mut o = order();
        assert_eq!(o.pass(), Err(PassError::NoPassing));
        let json = serde_json::to_string(&o).unwrap();
        assert!(!json.contains("passing") && !json.contains("passes"), "{json}");
        assert_eq!(serde_json::from_str::<TeamOrder>(&json).unwrap(), o);
    }
}
