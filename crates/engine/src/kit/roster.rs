//! The combatants of a fight, in encounter order with the GM's additions after: a
//! [`Roster`] of the ruleset's own combatant type, which tells the roster what it needs
//! through [`Member`]. A combatant is named by its index (`u16`), as events and commands name
//! it.
//!
//! The roster serialises as the plain list it holds, so a state that keeps its combatants in
//! one reads and writes the same JSON as one that keeps a `Vec`.

use crate::sides::Side;
use crate::{Seat, SeatPolicy};
use serde::{Deserialize, Serialize};
use std::ops::{Deref, DerefMut};

/// What a roster reads of a combatant.
pub trait Member {
    /// The id typed in commands.
    fn id(&self) -> &str;
    /// The name in logs.
    fn name(&self) -> &str;
    /// The index of its side.
    fn side(&self) -> u8;
    /// The seat it names for itself (one player's character); `None`: its side's seat decides.
    fn seat(&self) -> Option<Seat> {
        None
    }
    /// Whether it is out of the fight (it counts for no side).
    fn out(&self) -> bool;
}

/// The combatants of a fight. It dereferences to the list, so it is read and pushed onto
/// like a `Vec`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Roster<C>(Vec<C>);

impl<C> Roster<C> {
    /// A roster of these combatants, in this order.
    pub fn new(members: Vec<C>) -> Roster<C> {
        Roster(members)
    }

    /// A combatant (the index must be valid: check commands first).
    pub fn ch(&self, c: u16) -> &C {
        &self.0[usize::from(c)]
    }

    /// A combatant, to change (the index must be valid).
    pub fn ch_mut(&mut self, c: u16) -> &mut C {
        &mut self.0[usize::from(c)]
    }

    /// Every combatant's index.
    pub fn ids(&self) -> impl Iterator<Item = u16> + use<C> {
        0..self.0.len() as u16
    }
}

impl<C: Member> Roster<C> {
    /// The combatant with this id (typed ids ignore case).
    pub fn find(&self, id: &str) -> Option<u16> {
        crate::encounter::find_id(self.0.iter().map(Member::id), id).map(|i| i as u16)
    }

    /// The seat that decides for a combatant: its own, if it names one, else its side's (one
    /// of `sides`).
    pub fn seat_of(&self, c: u16, sides: &[Side]) -> Seat {
        let m = self.ch(c);
        m.seat().unwrap_or_else(|| sides[usize::from(m.side())].seat)
    }

    /// `Some(winner)` once at most one side has anyone in the fight: that side, or nobody.
    pub fn last_side_standing(&self) -> Option<Option<u8>> {
        let mut sides = self.0.iter().filter(|c| !c.out()).map(Member::side);
        match sides.next() {
            None => Some(None),
            Some(first) => sides.all(|x| x == first).then_some(Some(first)),
        }
    }

    /// For `Summarize::seats`: the sides' seats with the policies the file names, then each
    /// seat a combatant names for itself, which takes no policy from its side.
    pub fn seat_policies(&self, seats: &[String], sides: &[Side]) -> Vec<SeatPolicy> {
        let sides = sides.iter().map(|x| (x.seat, x.policy.as_ref()));
        let own = self.0.iter().filter_map(Member::seat).map(|seat| (seat, None));
        crate::sides::seat_policies(seats, sides.chain(own))
    }
}

impl<C> Deref for Roster<C> {
    type Target = Vec<C>;
    fn deref(&self) -> &Vec<C> {
        &self.0
    }
}

impl<C> DerefMut for Roster<C> {
    fn deref_mut(&mut self) -> &mut Vec<C> {
        &mut self.0
    }
}

impl<C> FromIterator<C> for Roster<C> {
    fn from_iter<I: IntoIterator<Item = C>>(iter: I) -> Self {
        Roster(iter.into_iter().collect())
    }
}

impl<'a, C> IntoIterator for &'a Roster<C> {
    type Item = &'a C;
    type IntoIter = std::slice::Iter<'a, C>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
