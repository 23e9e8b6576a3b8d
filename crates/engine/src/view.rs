//! [`Lens`]: a ready-made [`crate::Ruleset::View`] for games whose AIs may read the whole state.

use crate::Seat;
use serde::{Serialize, Serializer};
use std::ops::Deref;

/// A seat's view that serialises through the ruleset's JSON view (what the seat's screen is
/// sent, with what is hidden from it left out) and dereferences to the whole state for the
/// seat's AI. Right for a game whose hidden things the rules still let a seat act on (a Hidden
/// combatant foes may target: the legal targets already say where it is); a game whose hidden
/// characters cannot be targeted gives its AI a view without them instead.
pub struct Lens<'a, S> {
    seat: Seat,
    state: &'a S,
    json: fn(&S, Seat) -> serde_json::Value,
}

impl<'a, S> Lens<'a, S> {
    /// The view of `seat` on `state`, serialised by `json`.
    pub fn new(state: &'a S, seat: Seat, json: fn(&S, Seat) -> serde_json::Value) -> Lens<'a, S> {
        Lens { seat, state, json }
    }

    /// The seat whose view this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }
}

impl<S> Clone for Lens<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Lens<'_, S> {}

impl<S> Deref for Lens<'_, S> {
    type Target = S;
    fn deref(&self) -> &S {
        self.state
    }
}

impl<S> Serialize for Lens<'_, S> {
    fn serialize<Ser: Serializer>(&self, ser: Ser) -> Result<Ser::Ok, Ser::Error> {
        (self.json)(self.state, self.seat).serialize(ser)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lens_lends_the_state_and_serialises_through_the_json_view() {
        let secret = (7u8, 3u8);
        let json = |s: &(u8, u8), seat: Seat| serde_json::json!({ "public": s.0, "seat": seat.0 });
        let lens = Lens::new(&secret, Seat(2), json);
        assert_eq!(lens.1, 3, "the AI reads the whole state");
        assert_eq!(
            serde_json::to_value(lens).unwrap(),
            serde_json::json!({ "public": 7, "seat": 2 })
        );
        assert_eq!(lens.seat(), Seat(2));
    }
}
