//! Every code an Einfelst Wilds rejection carries, besides the engine's own. The strings are
//! stable: scripts match on them, and `docs/commands.md` lists each one (a test in the `fray`
//! crate keeps the list and this module equal).

/// The command does not fit the decision asked for now.
pub const NOT_NOW: &str = "not-now";
/// Not a foe still in the fight (or no such creature or spell).
pub const BAD_TARGET: &str = "bad-target";
/// The manoeuvre it needs is spent this round (EIN-R16, EIN-R19).
pub const NO_MANEUVER: &str = "no-maneuver";
/// The target is in another zone, beyond the weapon's range band, or not a neighbouring zone
/// (EIN-R11, EIN-R12, EIN-R13).
pub const OUT_OF_REACH: &str = "out-of-reach";
/// A close-combat attack on a creature far off or in cover needs closing in first (EIN-R12).
pub const CLOSE_IN: &str = "close-in";
/// No suitable weapon or spell in hand, carried or lying there.
pub const NO_WEAPON: &str = "no-weapon";
/// No free place of cover in the zone (EIN-H15).
pub const NO_COVER: &str = "no-cover";
/// A restrained (or silenced) creature may not do that (EIN-R28, EIN-R31).
pub const RESTRAINED: &str = "restrained";
/// A burning creature may only put out the fire, flee or shout (EIN-R39).
pub const BURNING: &str = "burning";
/// No way out: no exit, or every way passes a zone a foe holds (EIN-R32).
pub const NO_ESCAPE: &str = "no-escape";
/// The target cannot be pushed there.
pub const BAD_PUSH: &str = "bad-push";
/// That reaction does not answer this attack (EIN-R25, EIN-R27, EIN-H14).
pub const BAD_REACTION: &str = "bad-reaction";
/// The extra successes do not cover that, or an option does not apply (EIN-R23, EIN-R6).
pub const BAD_SPEND: &str = "bad-spend";
/// The levels do not add up to the Harm, or are not 1 to 3 (EIN-R34).
pub const BAD_SPLIT: &str = "bad-split";
/// Not one of the cards drawn (EIN-R8).
pub const BAD_CARD: &str = "bad-card";
/// Those two cannot swap cards now (EIN-R5).
pub const BAD_TRADE: &str = "bad-trade";
/// A GM ruling that cannot apply (a creature out of the fight, a value out of range, an
/// unknown template, zone or circumstance, an id in use).
pub const BAD_RULING: &str = "bad-ruling";

/// Every Einfelst code, in the order `docs/commands.md` lists them.
pub const ALL: &[&str] = &[
    NOT_NOW,
    BAD_TARGET,
    NO_MANEUVER,
    OUT_OF_REACH,
    CLOSE_IN,
    NO_WEAPON,
    NO_COVER,
    RESTRAINED,
    BURNING,
    NO_ESCAPE,
    BAD_PUSH,
    BAD_REACTION,
    BAD_SPEND,
    BAD_SPLIT,
    BAD_CARD,
    BAD_TRADE,
    BAD_RULING,
];

#[cfg(test)]
mod tests {
    #[test]
    fn codes_are_distinct_kebab_case_and_not_the_engines() {
        fray_engine::conformance::check_rejection_codes(super::ALL).unwrap();
    }
}
