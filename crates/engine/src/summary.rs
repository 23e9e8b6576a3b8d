//! What simulations and reports need to know about a finished (or cut-off) combat, for any
//! ruleset: sides, rounds, and per combatant whether it went down and its end resources.
//!
//! Kept in the engine so rulesets never depend on the simulation crate.

use crate::{Policy, Ruleset, Seat};

/// One combatant at the end of a combat.
#[derive(Clone, Debug, PartialEq)]
pub struct CombatantEnd {
    /// Its id in the encounter.
    pub id: String,
    /// Its side (index into [`Summarize::sides`]).
    pub side: u8,
    /// Incapacitated (or the ruleset's "down but not out") when the combat ended.
    pub incapacitated: bool,
    /// Removed from combat (fled, three Wounds, Coup de Grace...).
    pub removed: bool,
    /// Dead, in rulesets that have death.
    pub killed: bool,
    /// End-state numbers worth reporting, by name (e.g. `fatigue-load`, `wounds`).
    pub resources: Vec<(&'static str, i64)>,
}

/// A seat and the AI policy the encounter names for it, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatPolicy {
    /// The seat.
    pub seat: Seat,
    /// Its name.
    pub name: String,
    /// The policy named in the encounter (`random`, `heuristic`, `search...`), if any.
    pub policy: Option<String>,
}

/// The report hooks of a ruleset.
pub trait Summarize: Ruleset {
    /// Side names, by index.
    fn sides(state: &Self::State) -> Vec<String>;
    /// The current round number.
    fn round(state: &Self::State) -> u32;
    /// Every combatant now.
    fn combatants(state: &Self::State) -> Vec<CombatantEnd>;
    /// The side of a combatant (the `actor` of a pending decision), for search policies'
    /// rewards.
    fn side_of(state: &Self::State, actor: u16) -> Option<u8>;
    /// Every seat that decides for combatants, with the policy the encounter names for it.
    fn seats(state: &Self::State) -> Vec<SeatPolicy>;
    /// The ruleset's heuristic policy.
    fn heuristic_policy() -> Box<dyn Policy<Self>>;
}
