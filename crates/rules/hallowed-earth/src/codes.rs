//! Every code a Hallowed Earth rejection carries, besides the engine's own. The strings are
//! stable: scripts match on them, and `docs/commands.md` lists each one (a test in the `fray`
//! crate keeps the list and this module equal).

/// The command does not fit the decision asked for now.
pub const NOT_NOW: &str = "not-now";
/// The creature is not one this seat declares for, or another creature's declaration is due
/// first (the one-at-a-time order between seats, HAL-R11).
pub const NOT_YOUR_CREATURE: &str = "not-your-creature";
/// The creature has declared this round already.
pub const ALREADY_DECLARED: &str = "already-declared";
/// The target is not one the action may aim at (gone, on the wrong side, not hurt, not a
/// monster).
pub const BAD_TARGET: &str = "bad-target";
/// The weapon cannot be used: thrown away, its arm injured, or not made for throwing.
pub const NO_WEAPON: &str = "no-weapon";
/// Not enough Mana and Stress together for the spell, or not enough of one of them for the part
/// of the cost the caster chose to pay with it (HAL-R26); or the item is used up.
pub const SPENT: &str = "spent";
/// The creature cannot speak, and the action needs speech.
pub const CANNOT_SPEAK: &str = "cannot-speak";
/// The target is beyond the reach or range of the action.
pub const OUT_OF_REACH: &str = "out-of-reach";
/// The square is off the map, blocked, taken, or cannot be reached through open squares.
pub const BLOCKED: &str = "blocked";
/// The move needs more movement than is left this round.
pub const TOO_FAR: &str = "too-far";
/// The creature may not move now (Dying after acting, or no movement left at all).
pub const CANNOT_MOVE: &str = "cannot-move";
/// The declared action has been taken, or cannot be taken now (Dying after moving, one action
/// a round, an action with nothing to do).
pub const CANNOT_ACT: &str = "cannot-act";
/// The injury table named is not one of the attack's damage types.
pub const BAD_INJURY_TYPE: &str = "bad-injury-type";
/// A GM ruling that cannot apply (a combatant out of the fight, a taken square, a value out of
/// range, an unknown template, an id in use).
pub const BAD_RULING: &str = "bad-ruling";

/// Every Hallowed Earth code, in the order `docs/commands.md` lists them.
pub const ALL: &[&str] = &[
    NOT_NOW,
    NOT_YOUR_CREATURE,
    ALREADY_DECLARED,
    BAD_TARGET,
    NO_WEAPON,
    SPENT,
    CANNOT_SPEAK,
    OUT_OF_REACH,
    BLOCKED,
    TOO_FAR,
    CANNOT_MOVE,
    CANNOT_ACT,
    BAD_INJURY_TYPE,
    BAD_RULING,
];

#[cfg(test)]
mod tests {
    #[test]
    fn codes_are_distinct_kebab_case_and_not_the_engines() {
        fray_engine::conformance::check_rejection_codes(super::ALL).unwrap();
    }
}
