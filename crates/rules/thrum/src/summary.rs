//! Thrum's report hooks for simulations: sides, rounds, and per combatant whether it ended
//! Incapacitated or removed, with its end-state Loads, lost Tolerance and Wounds.

use crate::Thrum;
use crate::setup::Cid;
use crate::state::State;
use fray_engine::{CombatantEnd, Policy, SeatPolicy, Summarize};

impl Summarize for Thrum {
    fn sides(s: &State) -> Vec<String> {
        s.setup.sides.iter().map(|x| x.name.clone()).collect()
    }

    fn round(s: &State) -> u32 {
        s.round as u32
    }

    fn combatants(s: &State) -> Vec<CombatantEnd> {
        s.ids()
            .map(|c| {
                let ch = s.ch(c);
                let info = s.info(c);
                CombatantEnd {
                    id: info.id.clone(),
                    side: info.side,
                    incapacitated: ch.incapacitated && !ch.removed,
                    removed: ch.removed,
                    killed: false,
                    resources: vec![
                        ("fatigue-load", ch.fatigue as i64),
                        ("stress-load", ch.stress as i64),
                        ("fatigue-tolerance-lost", (info.ft - ch.ft) as i64),
                        ("stress-tolerance-lost", (info.st - ch.st) as i64),
                        ("wounds", ch.wounds as i64),
                        ("nova-potential", ch.nova.iter().map(|n| n.potential as i64).sum()),
                    ],
                }
            })
            .collect()
    }

    fn side_of(s: &State, actor: u16) -> Option<u8> {
        ((actor as usize) < s.chars.len()).then(|| s.info(actor as Cid).side)
    }

    fn seats(s: &State) -> Vec<SeatPolicy> {
        // A member with a seat of its own takes no policy from its side.
        let deciders = s.setup.chars.iter().map(|c| {
            let side = &s.setup.sides[c.side as usize];
            (c.seat, side.policy.as_ref().filter(|_| side.seat == c.seat))
        });
        fray_engine::sides::seat_policies(&s.setup.seats, deciders)
    }

    fn heuristic_policy() -> Box<dyn Policy<Self>> {
        Box::new(crate::ai::Heuristic::new())
    }
}
