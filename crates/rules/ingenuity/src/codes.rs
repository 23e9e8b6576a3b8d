//! Every code an Ingenuity rejection carries (besides the engine's own, such as
//! [`Reject::GAME_OVER`](fray_engine::Reject::GAME_OVER)). The strings are stable: scripts and
//! tests match on them, and `docs/commands.md` lists each one with its meaning (a test in the
//! `fray` crate holds the list and this module equal).

/// The command does not fit this point of the game: another decision is pending, no turn has
/// begun, nothing is asked, or the opening action must come first.
pub const NOT_NOW: &str = "not-now";
/// The command does not fit what it names: an attribute or proficiency the weapon does not
/// take, an item that cannot block, an action Command cannot give, an item named twice.
pub const BAD_COMMAND: &str = "bad-command";
/// A combatant index that names nobody (only from an edited record; typed names that match
/// nobody are `unknown-command`).
pub const UNKNOWN_COMBATANT: &str = "unknown-combatant";
/// An item index that names nothing the character carries (only from an edited record).
pub const UNKNOWN_ITEM: &str = "unknown-item";
/// No weapon in hand to attack, ready or strike with.
pub const NO_WEAPON: &str = "no-weapon";
/// The attacker lacks the proficiency named (ING-R37).
pub const NO_PROFICIENCY: &str = "no-proficiency";
/// Not enough actions left this turn.
pub const NO_ACTIONS: &str = "no-actions";
/// No reaction left (ING-R30).
pub const NO_REACTION: &str = "no-reaction";
/// Not enough stamina to pay (ING-R32).
pub const NO_STAMINA: &str = "no-stamina";
/// Not enough focus to pay (ING-R32).
pub const NO_FOCUS: &str = "no-focus";
/// The target or square is too far.
pub const OUT_OF_RANGE: &str = "out-of-range";
/// Not a valid target or square for this command.
pub const INVALID_TARGET: &str = "invalid-target";
/// The square is taken, blocked or cannot be reached.
pub const BLOCKED: &str = "blocked";
/// Move or Step was already used this turn.
pub const ALREADY_MOVED: &str = "already-moved";
/// A prone character must stand up first.
pub const PRONE: &str = "prone";
/// The weapon must be reloaded first.
pub const NOT_LOADED: &str = "not-loaded";
/// The item is not in hand, or too many hands would be needed.
pub const HANDS: &str = "hands";
/// The item is at 0 durability (ING-R55).
pub const BROKEN: &str = "broken";
/// A GM ruling that cannot apply (a value out of range, an unknown template, a fixed team
/// order).
pub const BAD_RULING: &str = "bad-ruling";

/// Every Ingenuity code, in the order `docs/commands.md` lists them.
pub const ALL: &[&str] = &[
    NOT_NOW,
    BAD_COMMAND,
    UNKNOWN_COMBATANT,
    UNKNOWN_ITEM,
    NO_WEAPON,
    NO_PROFICIENCY,
    NO_ACTIONS,
    NO_REACTION,
    NO_STAMINA,
    NO_FOCUS,
    OUT_OF_RANGE,
    INVALID_TARGET,
    BLOCKED,
    ALREADY_MOVED,
    PRONE,
    NOT_LOADED,
    HANDS,
    BROKEN,
    BAD_RULING,
];

/// A rejection with an Ingenuity code (or the engine's) and its sentence.
pub(crate) fn no(code: &'static str, reason: impl Into<String>) -> fray_engine::Reject {
    fray_engine::Reject::new(code, reason)
}

#[cfg(test)]
mod tests {
    #[test]
    fn codes_are_distinct_kebab_case_and_not_the_engines() {
        fray_engine::conformance::check_rejection_codes(super::ALL).unwrap();
    }
}
