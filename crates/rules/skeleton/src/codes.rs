//! Every code a skeleton rejection carries, besides the engine's own. The strings are stable:
//! scripts match on them, and `docs/commands.md` lists each one (a test in the `fray` crate
//! keeps the list and this module equal).

/// The command does not fit the decision asked for now.
pub const NOT_NOW: &str = "not-now";
/// The square is off the map, blocked, taken, or cannot be reached through open squares.
pub const BLOCKED: &str = "blocked";
/// The move needs more movement than is left this turn.
pub const TOO_FAR: &str = "too-far";
/// Not a foe still in the fight.
pub const BAD_TARGET: &str = "bad-target";
/// The foe is not on one of the eight squares around the attacker.
pub const NOT_ADJACENT: &str = "not-adjacent";
/// The combatant has already attacked this turn.
pub const ALREADY_ATTACKED: &str = "already-attacked";
/// A GM ruling that cannot apply (a combatant out of the fight, a taken square, a value out of
/// range, an unknown template, an id in use).
pub const BAD_RULING: &str = "bad-ruling";

/// Every skeleton code, in the order `docs/commands.md` lists them.
pub const ALL: &[&str] = &[
    NOT_NOW,
    BLOCKED,
    TOO_FAR,
    BAD_TARGET,
    NOT_ADJACENT,
    ALREADY_ATTACKED,
    BAD_RULING,
];

#[cfg(test)]
mod tests {
    #[test]
    fn codes_are_distinct_kebab_case_and_not_the_engines() {
        fray_engine::conformance::check_rejection_codes(super::ALL).unwrap();
    }
}
