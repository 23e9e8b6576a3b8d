//! What the game waits for: the pending decision as a typed value, decided in one place.
//!
//! [`stage`] is the one function that reads the attack on top of the stack and the turn to
//! say which decision is open. `Ruleset::pending` is built from it, and `lib.rs` works it out
//! once per call and hands it to the check, the legal list and the resolver, which match on it.
//! A new ruleset gives each kind of decision it asks a variant here, holding what its check,
//! its legal list and its resolution read. GM rulings are no stage: they are accepted whatever
//! the game waits for.

use crate::setup::Cid;
use crate::state::State;

/// The decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The defender of the attack on top of the stack dodges or takes it (SKL-R5).
    Defence {
        /// The defender.
        defender: Cid,
    },
    /// A combatant's turn: move, attack or end it (SKL-R2 to SKL-R4).
    Turn {
        /// Whose turn.
        who: Cid,
        /// Squares of movement left (SKL-R3).
        moves_left: i16,
        /// Whether it has attacked (SKL-R4).
        attacked: bool,
    },
}

impl fray_engine::Stage for Stage {
    fn kind(&self) -> &'static str {
        Stage::kind(self)
    }
    fn actor(&self) -> Option<u16> {
        Stage::actor(self)
    }
}

impl Stage {
    /// The kind of decision, as `Pending.kind` gives it.
    pub fn kind(&self) -> &'static str {
        match self {
            Stage::Defence { .. } => "defence",
            Stage::Turn { .. } => "turn",
        }
    }

    /// The combatant who decides (every skeleton decision has one).
    pub fn actor(&self) -> Option<Cid> {
        match *self {
            Stage::Defence { defender } => Some(defender),
            Stage::Turn { who, .. } => Some(who),
        }
    }
}

/// The decision the game waits for now: `None` once the combat is over, or between turns.
pub fn stage(s: &State) -> Option<Stage> {
    if s.outcome.is_some() {
        return None;
    }
    if let Some(a) = s.frames.last() {
        return Some(Stage::Defence { defender: a.target });
    }
    s.turn.as_ref().map(|t| Stage::Turn {
        who: t.who,
        moves_left: t.moves_left,
        attacked: t.attacked,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Skeleton;
    use crate::check;
    use crate::codes;
    use crate::command::Command;
    use fray_dice::Prng;
    use fray_engine::{Answer, Decision, Game, Policy, RandomLegal, Ruleset};
    use fray_space::Pos;

    /// What the stage promises in one position: `pending` is the stage, asked of the seat that
    /// plays its combatant, with the stage's kind and actor; every listed command is accepted by
    /// the check under the same stage with the plan the list gave; a command of the other kind of
    /// decision is refused as not asked now. How many positions asked something (0 or 1).
    fn position(s: &State) -> usize {
        let st = stage(s);
        let pending = Skeleton::pending(s);
        // Every decision has one decider: the seat that plays the combatant it is about.
        let seat = |st: &Stage| s.seat_of(st.actor().expect("every decision has a decider"));
        assert_eq!(
            pending,
            st.map(|st| fray_engine::Pending::one(seat(&st), st)),
            "pending is not what the stage says: {st:?}"
        );
        assert_eq!(
            pending.map(|p| (p.kind(), p.actor())),
            st.map(|st| (st.kind(), st.actor()))
        );
        let Some(st) = st else { return 0 };
        let mut legal: Vec<Answer<Skeleton>> = Vec::new();
        check::legal(s, &st, &mut legal);
        assert!(!legal.is_empty(), "{st:?} lists nothing");
        for a in &legal {
            assert_eq!(
                check::check(s, Some(&st), &a.command),
                Ok(a.plan),
                "{st:?}: {:?}",
                a.command
            );
        }
        let probes = [
            (Command::Dodge, "defence"),
            (Command::Take, "defence"),
            (Command::End, "turn"),
            (Command::Attack(0), "turn"),
            (Command::Move(Pos::new(0, 0)), "turn"),
        ];
        for (cmd, kind) in probes {
            if kind != st.kind() {
                let r = check::check(s, Some(&st), &cmd).expect_err("another decision's command");
                assert_eq!(r.code, codes::NOT_NOW, "{st:?}: {cmd:?}: {}", r.reason);
            }
        }
        1
    }

    #[test]
    fn stage_agrees_with_pending_and_legal_with_check_over_example_playouts() {
        let mut seen = [0; 2];
        for seed in 0..20 {
            let l = fray_testkit::example::<Skeleton>("duel.toml");
            let mut game = Game::<Skeleton>::new_seeded(l.setup, l.options, seed).expect("the example starts");
            let mut rng = Prng::for_stream(seed, 1);
            let mut random = RandomLegal::<Skeleton>::new();
            let mut heuristic = crate::ai::Heuristic::default();
            // Half the playouts random, half the built-in AI.
            let policy: &mut dyn Policy<Skeleton> = if seed % 2 == 0 { &mut random } else { &mut heuristic };
            for _ in 0..2_000 {
                let Some(p) = game.pending() else { break };
                position(game.state());
                seen[usize::from(p.kind() == "turn")] += 1;
                let seat = p.first();
                let d = Decision::<Skeleton>::with_pending(game.state(), seat, p).expect("a decision");
                let a = policy.choose(&d, &mut rng).expect("a legal answer");
                game.submit(seat, a.command).expect("a listed answer is accepted");
            }
            assert_eq!(position(game.state()), 0, "a settled combat asks nothing");
        }
        // Both kinds of decision come up, or this test checks less than it says.
        assert!(seen.iter().all(|&n| n > 0), "defences and turns: {seen:?}");
    }
}
