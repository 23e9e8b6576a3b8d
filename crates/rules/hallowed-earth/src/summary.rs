//! The report hooks `fray sim` needs: sides, rounds, and how each combatant ended.

use crate::HallowedEarth;
use crate::state::{Conditions, State};
use fray_engine::{CombatantEnd, Policy, SeatPolicy, Summarize};

impl Summarize for HallowedEarth {
    fn sides(s: &State) -> Vec<String> {
        s.setup.sides.iter().map(|x| x.name.clone()).collect()
    }

    fn round(s: &State) -> u32 {
        s.round
    }

    fn combatants(s: &State) -> Vec<CombatantEnd> {
        s.ids()
            .map(|i| {
                let c = s.ch(i);
                CombatantEnd {
                    id: c.id.to_string(),
                    side: c.side,
                    incapacitated: !s.fighting(i) && !c.has(Conditions::REMOVED),
                    removed: c.has(Conditions::REMOVED),
                    killed: c.has(Conditions::DEAD),
                    resources: vec![
                        ("stress", c.stress.into()),
                        ("wp", c.wp.into()),
                        ("wounds", c.wounds.len() as i64),
                        ("injuries", c.injuries.len() as i64),
                    ],
                }
            })
            .collect()
    }

    fn side_of(s: &State, actor: u16) -> Option<u8> {
        s.chars.get(usize::from(actor)).map(|c| c.side)
    }

    /// The sides' seats that decide for someone, in the order of the sides, then the seats
    /// combatants name for themselves (a player's seat), in encounter order. A combatant's own
    /// seat takes no policy from its side (unless it is the side's seat).
    fn seats(s: &State) -> Vec<SeatPolicy> {
        let deciding = |seat| s.ids().any(|c| s.seat_of(c) == seat);
        let sides = s
            .setup
            .sides
            .iter()
            .filter(|x| deciding(x.seat))
            .map(|x| (x.seat, x.policy.as_ref()));
        let own = s.ids().map(|c| {
            let side = &s.setup.sides[usize::from(s.ch(c).side)];
            let seat = s.seat_of(c);
            (seat, side.policy.as_ref().filter(|_| side.seat == seat))
        });
        fray_engine::sides::seat_policies(&s.setup.seats, sides.chain(own))
    }

    fn heuristic_policy() -> Box<dyn Policy<Self>> {
        Box::new(crate::ai::Heuristic::default())
    }
}
