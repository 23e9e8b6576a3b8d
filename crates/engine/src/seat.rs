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

/// A set of seats: who may answer the pending decision. Most decisions have one decider; some
/// (secret declarations, card swaps) let several seats answer in any order, each once.
///
/// A fixed-size bit set (every `u8` seat fits), so it is `Copy` and costs no allocation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seats([u64; 4]);

impl Seats {
    /// No seat.
    pub const EMPTY: Seats = Seats([0; 4]);

    /// Just `seat`.
    pub fn one(seat: Seat) -> Seats {
        let mut s = Seats::EMPTY;
        s.insert(seat);
        s
    }

    /// Adds `seat`.
    pub fn insert(&mut self, seat: Seat) {
        self.0[usize::from(seat.0 >> 6)] |= 1 << (seat.0 & 63);
    }

    /// Takes `seat` out.
    pub fn remove(&mut self, seat: Seat) {
        self.0[usize::from(seat.0 >> 6)] &= !(1 << (seat.0 & 63));
    }

    /// Whether `seat` is in the set.
    pub fn contains(self, seat: Seat) -> bool {
        self.0[usize::from(seat.0 >> 6)] & (1 << (seat.0 & 63)) != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == [0; 4]
    }

    /// How many seats are in the set.
    pub fn len(self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The lowest seat in the set: the one a single-screen table asks first.
    pub fn first(self) -> Option<Seat> {
        let (i, w) = self.0.iter().enumerate().find(|(_, w)| **w != 0)?;
        Some(Seat((i * 64) as u8 + w.trailing_zeros() as u8))
    }

    /// The seats in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..=255u8).map(Seat).filter(move |s| self.contains(*s))
    }
}

impl FromIterator<Seat> for Seats {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Seats {
        let mut s = Seats::EMPTY;
        for seat in iter {
            s.insert(seat);
        }
        s
    }
}

impl fmt::Display for Seats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for s in self.iter() {
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            write!(f, "{s}")?;
        }
        if first {
            f.write_str("no seat")?;
        }
        Ok(())
    }
}

impl Serialize for Seats {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Seats {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Seats, D::Error> {
        let v: Vec<Seat> = Vec::deserialize(de)?;
        Ok(v.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_hold_any_u8_seat_in_order() {
        let s: Seats = [Seat(200), Seat(0), Seat(64), Seat(3)].into_iter().collect();
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            vec![Seat(0), Seat(3), Seat(64), Seat(200)]
        );
        assert_eq!(s.len(), 4);
        assert_eq!(s.first(), Some(Seat(0)));
        let mut t = s;
        t.remove(Seat(0));
        assert!(!t.contains(Seat(0)) && t.contains(Seat(255 - 55)));
        assert_eq!(t.to_string(), "seat 3, seat 64, seat 200");
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, "[0,3,64,200]");
        assert_eq!(serde_json::from_str::<Seats>(&json).unwrap(), s);
        assert!(Seats::EMPTY.is_empty() && Seats::EMPTY.first().is_none());
        assert_eq!(Seats::one(Seat(200)).first(), Some(Seat(200)));
        assert_eq!(t.first(), Some(Seat(3)));
    }
}
