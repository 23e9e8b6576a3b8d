//! Seats: who may decide.
//!
//! A seat is a small number; the ruleset's setup names them (seat 0 is always the GM). Authority
//! checks compare seats, never names, so they cost nothing on the simulation path.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A seat at the table: the GM, a player, or the controller of a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The game master, who may also make rulings at any time.
    pub const GM: Seat = Seat(0);

    /// Whether this is the GM seat.
    pub fn is_gm(self) -> bool {
        self == Seat::GM
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}
