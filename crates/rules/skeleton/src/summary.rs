//! The report hooks `fray sim` needs: sides, rounds, and how each combatant ended.

use crate::Skeleton;
use crate::state::State;
use fray_engine::{CombatantEnd, Policy, SeatPolicy, Summarize};

impl Summarize for Skeleton {
    fn sides(s: &State) -> Vec<String> {
        s.setup.sides.iter().map(|x| x.name.clone()).collect()
    }

    fn round(s: &State) -> u32 {
        s.round
    }

    fn combatants(s: &State) -> Vec<CombatantEnd> {
        let end = |c: &crate::state::Char| CombatantEnd {
            id: c.id.clone(),
            side: c.side,
            incapacitated: c.health <= 0 && !c.removed,
            removed: c.removed,
            killed: false,
            resources: vec![("health", c.health.into())],
        };
        s.chars.iter().map(end).collect()
    }

    fn side_of(s: &State, actor: u16) -> Option<u8> {
        s.chars.get(actor as usize).map(|c| c.side)
    }

    /// The sides' seats with their policies, then each seat a combatant names for itself,
    /// which takes no policy from its side (the default plays it unless one is given).
    fn seats(s: &State) -> Vec<SeatPolicy> {
        s.chars.seat_policies(&s.setup.seats, &s.setup.sides)
    }

    fn heuristic_policy() -> Box<dyn Policy<Self>> {
        Box::new(crate::ai::Heuristic::default())
    }
}
