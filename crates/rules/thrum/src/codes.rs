//! Every code a Thrum rejection carries (besides the engine's own, such as
//! [`Reject::GAME_OVER`](fray_engine::Reject::GAME_OVER)). The strings are stable: scripts and
//! tests match on them, and `docs/commands.md` lists each one with its meaning (a test in the
//! `fray` crate holds the list and this module equal).
//!
//! The refusal builders live here too ([`Say`], [`no`], [`on_map`]): every check of every
//! action builds its refusals with them, so they sit below all of those modules rather than in
//! the `check` dispatcher, which the action modules must not depend on.

use crate::state::State;
use fray_engine::Reject;
use fray_space::Pos;

/// The command does not fit this point of the game: another step of the turn, another
/// decision, Round Zero, a character that cannot act, or a step that was taken by itself.
pub const NOT_NOW: &str = "not-now";
/// The ability named is not one the character has.
pub const UNKNOWN_ABILITY: &str = "unknown-ability";
/// A target or square lies beyond the ability's range.
pub const OUT_OF_RANGE: &str = "out-of-range";
/// Not a target the ability may take (wrong kind, wrong count, no such combatant, a shape
/// off the map, the square it already stands on).
pub const INVALID_TARGET: &str = "invalid-target";
/// Obstruction or a wall stands between the user and the target.
pub const OBSTRUCTED: &str = "obstructed";
/// The square is off the map, blocked, or cannot be entered (an enemy stands there, the climb
/// is too steep).
pub const BLOCKED: &str = "blocked";
/// Someone already stands on the square.
pub const OCCUPIED: &str = "occupied";
/// The move costs more movement than is left.
pub const NOT_ENOUGH_MOVEMENT: &str = "not-enough-movement";
/// An Immobilized character tries to move.
pub const IMMOBILIZED: &str = "immobilized";
/// A Stunned character tries to take both its Move and its Action.
pub const STUNNED: &str = "stunned";
/// A Delay that is not allowed (already delayed, nobody later, not this character's slot, an
/// Incapacitated character, end of round when that is off).
pub const CANNOT_DELAY: &str = "cannot-delay";
/// A choice attached to the command is wrong: an Overexert or ability option that does not
/// exist, a missing or superfluous direction or status, a drop roll on the wrong attribute.
pub const BAD_PICK: &str = "bad-pick";
/// A Round Zero placement outside the Starting Area.
pub const NOT_IN_START_AREA: &str = "not-in-start-area";
/// A move would end on a square where the character may not stop (not empty, an ally's).
pub const CANNOT_STOP_HERE: &str = "cannot-stop-here";
/// Overexert would make the user Frayed while `overexert-may-fray` is off.
pub const WOULD_FRAY: &str = "would-fray";
/// A GM ruling that cannot apply (no such combatant, side, template or value).
pub const BAD_RULING: &str = "bad-ruling";

/// Every Thrum code, in the order `docs/commands.md` lists them.
pub const ALL: &[&str] = &[
    NOT_NOW,
    UNKNOWN_ABILITY,
    OUT_OF_RANGE,
    INVALID_TARGET,
    OBSTRUCTED,
    BLOCKED,
    OCCUPIED,
    NOT_ENOUGH_MOVEMENT,
    IMMOBILIZED,
    STUNNED,
    CANNOT_DELAY,
    BAD_PICK,
    NOT_IN_START_AREA,
    CANNOT_STOP_HERE,
    WOULD_FRAY,
    BAD_RULING,
];

// ---------------------------------------------------------------------------------------------
// Refusals
// ---------------------------------------------------------------------------------------------

/// Whether a refusal is wanted with its sentence or only for its code. `check::check` says why a
/// command is refused; the legal list, the AI and the rules' own tests of legality only need
/// the verdict (`check::allowed`) or the code (`check::check_code`), and format no sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Say {
    /// The refusal carries its sentence.
    Sentence,
    /// The refusal carries its code and an empty sentence (no allocation, no formatting).
    Code,
}

/// A refusal with a stable code; `why` is called for the sentence only when `say` asks for it.
#[inline]
pub(crate) fn no<W: Into<String>>(say: Say, code: &'static str, why: impl FnOnce() -> W) -> Reject {
    match say {
        Say::Sentence => Reject::new(code, why()),
        Say::Code => Reject::new(code, String::new()),
    }
}

/// Refuses a square that is not on the map, naming the map's extent.
pub(crate) fn on_map(s: &State, p: Pos, say: Say) -> Result<(), Reject> {
    if s.setup.map.get(p).is_some() {
        return Ok(());
    }
    let (w, h) = (s.setup.map.width(), s.setup.map.height());
    Err(no(say, INVALID_TARGET, || {
        format!(
            "{p} is off the map (it is {w} by {h} squares, 0,0 to {},{})",
            w.saturating_sub(1),
            h.saturating_sub(1)
        )
    }))
}

#[cfg(test)]
mod tests {
    #[test]
    fn codes_are_distinct_kebab_case_and_not_the_engines() {
        fray_engine::conformance::check_rejection_codes(super::ALL).unwrap();
    }
}
