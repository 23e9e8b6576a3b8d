//! The report hooks `fray sim` needs: sides, rounds, and how each combatant ended.

use crate::Einfelst;
use crate::state::State;
use fray_engine::{CombatantEnd, Policy, SeatPolicy, Summarize};

impl Summarize for Einfelst {
    fn sides(s: &State) -> Vec<String> {
        s.setup.sides.iter().map(|x| x.name.clone()).collect()
    }

    fn round(s: &State) -> u32 {
        s.round
    }

    fn combatants(s: &State) -> Vec<CombatantEnd> {
        use crate::state::Status;
        let end = |c: &crate::state::Char| {
            let h = &c.harm;
            let marks = |r: &[u8; 3]| i64::from(r[0]) + 2 * i64::from(r[1]) + 3 * i64::from(r[2]);
            CombatantEnd {
                id: c.id.clone(),
                side: c.side,
                incapacitated: matches!(c.status, Status::Incapacitated | Status::Broken),
                removed: matches!(c.status, Status::Removed | Status::Fled),
                killed: c.status == Status::Broken,
                resources: vec![
                    ("physical-harm", marks(&h.physical)),
                    ("mental-harm", marks(&h.mental)),
                    ("harm-points", i64::from(h.points)),
                ],
            }
        };
        s.chars.iter().map(end).collect()
    }

    fn side_of(s: &State, actor: u16) -> Option<u8> {
        s.chars.get(actor as usize).map(|c| c.side)
    }

    fn seats(s: &State) -> Vec<SeatPolicy> {
        // Each side's seat with its policy (when some creature is played by it), then the
        // seats creatures have of their own, which take no policy from their side.
        let sides = s
            .setup
            .sides
            .iter()
            .filter(|x| s.ids().any(|c| s.seat_of(c) == x.seat))
            .map(|x| (x.seat, x.policy.as_ref()));
        let own = s.ids().map(|c| (s.seat_of(c), None));
        fray_engine::sides::seat_policies(&s.setup.seats, sides.chain(own))
    }

    fn heuristic_policy() -> Box<dyn Policy<Self>> {
        Box::new(crate::ai::Heuristic::default())
    }
}
