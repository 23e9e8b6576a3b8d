//! The report hooks `fray sim` needs: sides, rounds, and how each character ended.

use crate::Murdham;
use crate::state::{State, Status};
use fray_engine::{CombatantEnd, Policy, SeatPolicy, Summarize};

impl Summarize for Murdham {
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
            incapacitated: matches!(
                c.status,
                Status::Incapacitated | Status::Dying { .. } | Status::Disabled
            ),
            removed: matches!(c.status, Status::Surrendered | Status::Fled | Status::Banished),
            killed: c.status == Status::Dead,
            resources: vec![
                ("health", i64::from(c.health)),
                ("health-lost", i64::from(c.stats.max_health() - c.health)),
            ],
        };
        s.chars.iter().map(end).collect()
    }

    fn side_of(s: &State, actor: u16) -> Option<u8> {
        s.chars.get(actor as usize).map(|c| c.side)
    }

    /// The factions' seats with their policies, then each seat a character names for itself,
    /// which takes no policy from its faction (the default plays it unless one is given).
    fn seats(s: &State) -> Vec<SeatPolicy> {
        let sides = s.setup.sides.iter().map(|x| (x.seat, x.policy.as_ref()));
        let own = s
            .setup
            .combatants
            .iter()
            .filter_map(|c| c.seat)
            .map(|seat| (seat, None));
        fray_engine::sides::seat_policies(&s.setup.seats, sides.chain(own))
    }

    fn heuristic_policy() -> Box<dyn Policy<Self>> {
        Box::new(crate::ai::Heuristic::default())
    }
}
