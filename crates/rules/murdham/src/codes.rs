//! Every code a Murdham rejection carries, besides the engine's own. The strings are stable:
//! scripts match on them, and `docs/commands.md` lists each one (a test in the `fray` crate
//! keeps the list and this module equal).

/// The command does not fit the decision asked for now.
pub const NOT_NOW: &str = "not-now";
/// Not this faction's character, or it has had its turn, or it cannot act in this phase.
pub const CANNOT_ACT: &str = "cannot-act";
/// The turn has no action of that kind left (a main action, a bonus action).
pub const NO_ACTION: &str = "no-action";
/// The step is not one step from here, or there is not enough movement left.
pub const BAD_MOVE: &str = "bad-move";
/// The place has no room (characters, cover spots).
pub const NO_ROOM: &str = "no-room";
/// The character is entangled: it may only try to break free.
pub const ENTANGLED: &str = "entangled";
/// Not a character or place this attack may aim at.
pub const BAD_TARGET: &str = "bad-target";
/// The target is out of reach or range.
pub const OUT_OF_RANGE: &str = "out-of-range";
/// The attack is not allowed in these circumstances (MUR-R14).
pub const NOT_ALLOWED: &str = "not-allowed";
/// The item is not held, not a weapon, spent, or not the character's.
pub const BAD_ITEM: &str = "bad-item";
/// The hands are not free for it.
pub const HANDS_FULL: &str = "hands-full";
/// The reaction is not open to this character (it has had its turn, it is unaware...).
pub const NO_REACTION: &str = "no-reaction";
/// A frightened or taunted character may not do that.
pub const CONDITION: &str = "condition";
/// A GM ruling that cannot apply.
pub const BAD_RULING: &str = "bad-ruling";

/// Every Murdham code, in the order `docs/commands.md` lists them.
pub const ALL: &[&str] = &[
    NOT_NOW,
    CANNOT_ACT,
    NO_ACTION,
    BAD_MOVE,
    NO_ROOM,
    ENTANGLED,
    BAD_TARGET,
    OUT_OF_RANGE,
    NOT_ALLOWED,
    BAD_ITEM,
    HANDS_FULL,
    NO_REACTION,
    CONDITION,
    BAD_RULING,
];

#[cfg(test)]
mod tests {
    #[test]
    fn codes_are_distinct_kebab_case_and_not_the_engines() {
        fray_engine::conformance::check_rejection_codes(super::ALL).unwrap();
    }
}
