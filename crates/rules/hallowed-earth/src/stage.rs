//! What the game waits for: the pending decision as a typed value, worked out in one place.
//!
//! [`stage`] looks once at the top of the frame stack, then at whose declaration is due, then
//! at the turn under way; `Ruleset::pending` is built from it, and the check, the legal list,
//! the resolver and the AI are handed it and match on it rather than working out again from the
//! phase, the stack top and the count which decision is open. GM rulings are no stage: they are
//! accepted whatever the game waits for.

use crate::flow;
use crate::options::Declaration;
use crate::setup::Cid;
use crate::state::{Frame, Phase, State, Turn};
use fray_engine::{Pending, Seat, Seats};

/// The decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A creature in full defence may Reposte against an attacker that missed it (`reposte`,
    /// or `pass`; HAL-R14, HAL-H9).
    Reposte {
        /// Who may Reposte.
        by: Cid,
        /// The attacker it strikes back at.
        against: Cid,
    },
    /// A critical hit: the attacker's seat picks the injury table among the damage types of the
    /// frame on top of the stack (`injury <type>`; HAL-R39).
    Injury {
        /// The attacker.
        by: Cid,
        /// The creature injured.
        target: Cid,
        /// Whether the attacker is a monster, for which the Referee's seat picks (HAL-R39).
        referee: bool,
    },
    /// Declarations (`declare`, and a Free action first with `declare ... free`; HAL-R11,
    /// HAL-R17): in the one-at-a-time methods, or for a newcomer in the middle of a round
    /// (HAL-R12), the creature due next; in the secret method, every seat with a declaration
    /// due declares at once (`next` is `None`, and the seats asked are read off the state).
    Declare {
        /// The creature whose declaration is due next, or `None` in the secret method.
        next: Option<Cid>,
        /// Whether this is a newcomer's declaration in the middle of a round (HAL-R12): it is
        /// scheduled as it is made.
        newcomer: bool,
    },
    /// A turn on a count: move, act, take the declared Free action, or end (HAL-R9, HAL-R17,
    /// HAL-R18).
    Turn(Turn),
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
            Stage::Reposte { .. } => "reposte",
            Stage::Injury { .. } => "injury",
            Stage::Declare { .. } => "declare",
            Stage::Turn(_) => "turn",
        }
    }

    /// The creature who decides: none for the secret declarations (every seat with a
    /// declaration due decides for its own).
    pub fn actor(&self) -> Option<Cid> {
        match *self {
            Stage::Reposte { by, .. } | Stage::Injury { by, .. } => Some(by),
            Stage::Declare { next, .. } => next,
            Stage::Turn(t) => Some(t.who),
        }
    }

    /// The seats that decide: the actor's (the Referee's for a monster's injury table,
    /// HAL-R39); with secret declarations every seat with a creature whose declaration is due
    /// (HAL-R11).
    pub fn seats(&self, s: &State) -> Seats {
        match *self {
            Stage::Injury { referee: true, .. } => Seats::one(Seat::GM),
            Stage::Declare { next: None, .. } => s.ids().filter(|&c| flow::due(s, c)).map(|c| s.seat_of(c)).collect(),
            _ => self.actor().map_or(Seats::EMPTY, |who| Seats::one(s.seat_of(who))),
        }
    }

    /// The pending decision the engine is told about.
    pub fn pending(&self, s: &State) -> Pending<Stage> {
        Pending {
            seats: self.seats(s),
            stage: *self,
        }
    }
}

/// The decision the game waits for now: `None` once the combat is over, or with no frame open,
/// no declaration due and no turn under way.
pub fn stage(s: &State) -> Option<Stage> {
    if s.outcome.is_some() {
        return None;
    }
    if let Some(f) = s.frames.last() {
        return Some(match *f {
            Frame::Reposte { by, against } => Stage::Reposte { by, against },
            // HAL-R39: the Referee picks for monsters.
            Frame::InjuryType { by, target, .. } => Stage::Injury {
                by,
                target,
                referee: s.stats(by).monster,
            },
        });
    }
    if let Some(c) = flow::next_declarer(s) {
        return Some(Stage::Declare {
            next: Some(c),
            newcomer: s.phase == Phase::Resolving,
        });
    }
    // HAL-R11: every seat with a declaration due declares at once.
    if s.phase == Phase::Declaring && s.options.declaration == Declaration::Secret && s.ids().any(|c| flow::due(s, c)) {
        return Some(Stage::Declare {
            next: None,
            newcomer: false,
        });
    }
    s.turn.map(Stage::Turn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HallowedEarth;
    use crate::check::{self, Plan};
    use crate::codes;
    use crate::command::Command;
    use crate::options::{FreeActionTiming, Options};
    use crate::setup::Setup;
    use crate::state::{Action, Free};
    use fray_dice::Prng;
    use fray_engine::gm::Ruling as R;
    use fray_engine::{Answer, Decision, Game, Policy, RandomLegal, Ruleset};
    use fray_space::Pos;
    use std::collections::BTreeSet;

    /// A command of each kind of decision, with the kinds of stage it may answer: under any
    /// other it must be refused as not asked now (under a turn, a declaration is told why its
    /// creature may not declare: it has declared, or is another seat's).
    fn probes() -> Vec<(Command, &'static [&'static str])> {
        vec![
            (
                Command::Declare {
                    who: 0,
                    action: Action::Move,
                },
                &["declare"],
            ),
            (
                Command::DeclareFree {
                    who: 0,
                    free: Free::Speak,
                },
                &["declare"],
            ),
            (Command::Free, &["turn"]),
            (Command::Step(Pos::new(0, 0)), &["turn"]),
            (Command::Move(Pos::new(0, 0)), &["turn"]),
            (Command::Act(None), &["turn"]),
            (Command::End, &["turn"]),
            (Command::Reposte(None), &["reposte"]),
            (Command::Pass, &["reposte"]),
            (Command::Injury("slashing".into()), &["injury"]),
        ]
    }

    /// What the stage promises in one position: `pending` is the one the stage gives (the seats it
    /// names), its kind and actor are the stage's; nothing is asked once the combat is over, and
    /// only then; for every seat asked, the legal list under the stage is the list `legal` gives,
    /// and each listed command is accepted by the check under the same stage with the plan the list
    /// gave (and by the check that works the stage out itself); a command of another kind of
    /// decision is refused; a GM ruling is accepted whatever the stage.
    fn position(s: &State, kinds: &mut BTreeSet<String>) {
        let st = stage(s);
        let pending = HallowedEarth::pending(s);
        assert_eq!(
            pending,
            st.map(|st| st.pending(s)),
            "pending is not what the stage says: {st:?}"
        );
        assert_eq!(
            pending.as_ref().map(|p| (p.kind(), p.actor())),
            st.map(|st| (st.kind(), st.actor())),
            "pending and the stage disagree"
        );
        assert_eq!(
            st.is_none(),
            s.outcome.is_some(),
            "a settled combat asks nothing: {st:?}"
        );
        let ruling = Command::Gm(R::End { winner: None });
        assert_eq!(check::check_in(s, Seat::GM, st.as_ref(), &ruling), Ok(Plan::Plain));
        let (Some(st), Some(pending)) = (st, pending) else {
            return;
        };
        kinds.insert(st.kind().to_string());
        match st {
            Stage::Declare { next: None, .. } => kinds.insert("declare at once".into()),
            Stage::Declare { newcomer: true, .. } => kinds.insert("declare newcomer".into()),
            Stage::Declare { .. } => kinds.insert("declare in turn".into()),
            Stage::Injury { referee: true, .. } => kinds.insert("injury by the referee".into()),
            _ => false,
        };
        if pending.seats.iter().count() > 1 {
            kinds.insert("several seats".into());
        }
        for seat in pending.seats.iter() {
            let mut legal: Vec<Answer<HallowedEarth>> = Vec::new();
            check::legal_in(s, seat, &st, &mut legal);
            assert!(!legal.is_empty(), "{st:?} lists nothing for {seat:?}");
            let mut again = Vec::new();
            check::legal(s, seat, &mut again);
            assert_eq!(legal, again, "{st:?}: the list under the stage");
            for a in &legal {
                let got = check::check_in(s, seat, Some(&st), &a.command);
                assert_eq!(got.as_ref(), Ok(&a.plan), "{st:?}: listed {:?}", a.command);
                assert_eq!(check::check(s, seat, &a.command), got, "{st:?}: {:?}", a.command);
                assert_eq!(check::plan_in(s, seat, &st, &a.command).as_ref(), Some(&a.plan));
            }
            for (cmd, answers) in probes() {
                if answers.contains(&st.kind()) {
                    continue;
                }
                match check::check_in(s, seat, Some(&st), &cmd) {
                    Err(r) => assert!(
                        r.code == codes::NOT_NOW
                            || (matches!(st, Stage::Turn(_))
                                && matches!(cmd, Command::Declare { .. } | Command::DeclareFree { .. })
                                && (r.code == codes::ALREADY_DECLARED || r.code == codes::NOT_YOUR_CREATURE)),
                        "{st:?}: {cmd:?} refused with {}: {}",
                        r.code,
                        r.reason
                    ),
                    Ok(_) => panic!("{st:?} accepted {cmd:?}, which answers only {answers:?}"),
                }
            }
        }
    }

    /// A change to an example's options, and to its setup.
    type Variant = (fn(&mut Options), fn(&mut Setup));

    /// Every weapon of every stat block with a second damage type, so that critical hits ask
    /// which injury table (HAL-R39): no example has such a weapon.
    fn two_types(setup: &mut Setup) {
        for w in setup.blocks.iter_mut().flat_map(|b| b.weapons.iter_mut()) {
            let second = if w.types.iter().any(|t| t == "piercing") {
                "blunt"
            } else {
                "piercing"
            };
            w.types.push(second.into());
        }
    }

    /// Plays the example `name` (with its options changed by `tweak`, its weapons by `arms`)
    /// with `policy` from
    /// `seed`, checking every position on the way; the seat to answer is in turn each of those
    /// asked.
    fn playout(
        name: &str,
        (tweak, arms): Variant,
        seed: u64,
        policy: &mut dyn Policy<HallowedEarth>,
        cap: usize,
        kinds: &mut BTreeSet<String>,
    ) {
        let mut l = fray_testkit::example::<HallowedEarth>(name);
        tweak(&mut l.options);
        arms(&mut l.setup);
        let mut game = Game::<HallowedEarth>::new_seeded(l.setup, l.options, seed).expect("the example starts");
        let mut rng = Prng::for_stream(seed, 1);
        policy.new_combat();
        for i in 0..cap {
            position(game.state(), kinds);
            let Some(p) = game.pending() else { return };
            let seats: Vec<Seat> = p.seats.iter().collect();
            let seat = seats[i % seats.len()];
            let d = Decision::<HallowedEarth>::with_pending(game.state(), seat, p).expect("the pending seat decides");
            let a = policy.choose(&d, &mut rng).expect("a legal answer");
            game.submit(seat, a.command)
                .expect("an answer the rules gave is accepted");
        }
    }

    #[test]
    fn stage_agrees_with_pending_and_legal_with_check_over_example_playouts() {
        let mut kinds = BTreeSet::new();
        // The options as the examples give them; declarations one at a time in three methods,
        // retargeting, Free actions on a count of their own, a seat's creatures in a fixed order.
        let same: fn(&mut Setup) = |_| {};
        let variants: [Variant; 5] = [
            (|_| {}, same),
            (
                |o| {
                    o.declaration = Declaration::Agility;
                    o.retarget = true;
                },
                same,
            ),
            (
                |o| {
                    o.declaration = Declaration::Clockwise;
                    o.free_action_timing = FreeActionTiming::OwnCount;
                },
                same,
            ),
            (
                |o| {
                    o.declaration = Declaration::Counterclockwise;
                    o.seat_picks_declaration_order = false;
                },
                same,
            ),
            // Critical hits that ask for the injury table.
            (|_| {}, two_types),
        ];
        for name in ["crypt.toml", "duel.toml", "ferry.toml", "roadside.toml"] {
            for tweak in variants {
                for seed in 0..3 {
                    playout(
                        name,
                        tweak,
                        seed,
                        &mut crate::ai::Heuristic::default(),
                        1_500,
                        &mut kinds,
                    );
                }
                for seed in 0..3 {
                    playout(
                        name,
                        tweak,
                        seed,
                        &mut RandomLegal::<HallowedEarth>::new(),
                        400,
                        &mut kinds,
                    );
                }
            }
        }
        // The playouts reach every kind of decision and both ways of declaring, with several
        // seats asked at once, or this test checks less than it says.
        let all = [
            "declare",
            "declare at once",
            "declare in turn",
            "turn",
            "reposte",
            "injury",
            "injury by the referee",
            "several seats",
        ];
        for k in all {
            assert!(kinds.contains(k), "no {k} decision in the playouts: {kinds:?}");
        }
    }
}
