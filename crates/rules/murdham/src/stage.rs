//! What the game waits for: the pending decision as a typed value, decided in one place.
//!
//! [`stage`] reads the frame on top of the stack (an attack's step, a step of movement, the
//! morale choices), else the opening, the turn under way or the faction whose opportunity it
//! is, once; `Ruleset::pending` is built from it, and the check, the legal list and the
//! resolver are handed it and match on it instead of working out again which decision is open.
//! The seats asked come from the state ([`Stage::seats`]): a faction's opportunity
//! and the opening may ask several seats at once. GM rulings are no stage: they are accepted
//! whatever the game waits for.

use crate::flow::{faction_to_pick, openers, seats_asked};
use crate::setup::Cid;
use crate::state::{Attack, AttackStage, Frame, State, Turn};
use fray_engine::{Pending, Seat, Seats};

/// The decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The GM approves or vetoes the stunt `by` proposes against `target` (MUR-R32).
    StuntApproval {
        /// The attacker proposing the stunt.
        by: Cid,
        /// Its target.
        target: Cid,
    },
    /// The target of a stunt accepts or refuses it (MUR-R32).
    Stunt {
        /// The target asked.
        target: Cid,
        /// The attacker.
        by: Cid,
    },
    /// The target of an attack takes it, dodges, counters or hides behind someone (MUR-R19).
    Reaction {
        /// The target reacting.
        target: Cid,
        /// The attacker.
        by: Cid,
    },
    /// A character near the target may guard it, or declines (MUR-R24).
    Guard {
        /// The character asked.
        guard: Cid,
        /// The target it would guard.
        target: Cid,
    },
    /// A character the target would hide behind agrees to stand in, or declines (MUR-R23).
    StandIn {
        /// The character asked.
        who: Cid,
        /// The target hiding.
        hider: Cid,
    },
    /// An enemy of a moving character makes an opportunity attack, or declines (MUR-R25).
    Opportunity {
        /// The enemy asked.
        foe: Cid,
        /// The mover.
        mover: Cid,
    },
    /// A character who failed morale surrenders or retreats (MUR-R44).
    Morale {
        /// The first of those still to choose.
        who: Cid,
    },
    /// The faction holding the initiative chooses which faction acts first (MUR-R6).
    Open {
        /// The faction holding the initiative.
        side: u8,
    },
    /// A character's turn: its actions and movement left (MUR-R7).
    Turn {
        /// The turn.
        turn: Turn,
    },
    /// A faction's opportunity: give the turn to one of its characters, or pass (MUR-R1).
    Faction {
        /// The faction.
        side: u8,
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
            Stage::StuntApproval { .. } => "stunt-approval",
            Stage::Stunt { .. } => "stunt",
            Stage::Reaction { .. } => "reaction",
            Stage::Guard { .. } => "guard",
            Stage::StandIn { .. } => "stand-in",
            Stage::Opportunity { .. } => "opportunity",
            Stage::Morale { .. } => "morale",
            Stage::Open { .. } => "open",
            Stage::Turn { .. } => "turn",
            Stage::Faction { .. } => "faction",
        }
    }

    /// The character the decision is about (none for the opening and a faction's opportunity;
    /// the attacker for a stunt's approval).
    pub fn actor(&self) -> Option<Cid> {
        match *self {
            Stage::StuntApproval { by, .. } => Some(by),
            Stage::Stunt { target, .. } | Stage::Reaction { target, .. } => Some(target),
            Stage::Guard { guard, .. } => Some(guard),
            Stage::StandIn { who, .. } | Stage::Morale { who } => Some(who),
            Stage::Opportunity { foe, .. } => Some(foe),
            Stage::Turn { turn } => Some(turn.who),
            Stage::Open { .. } | Stage::Faction { .. } => None,
        }
    }

    /// The seats asked: the GM for a stunt's approval (MUR-R32); for the opening every seat
    /// with a character of the initiative faction still fighting ([`openers`]); for a
    /// faction's opportunity every seat of it with a character able to take a turn that has not
    /// passed ([`seats_asked`]); else the seat that plays the character ([`State::seat_of`]).
    pub fn seats(&self, s: &State) -> Seats {
        match *self {
            Stage::StuntApproval { .. } => Seats::one(Seat::GM),
            Stage::Open { .. } => openers(s),
            Stage::Faction { side } => seats_asked(s, side),
            Stage::Stunt { target: c, .. }
            | Stage::Reaction { target: c, .. }
            | Stage::Guard { guard: c, .. }
            | Stage::StandIn { who: c, .. }
            | Stage::Morale { who: c }
            | Stage::Opportunity { foe: c, .. } => Seats::one(s.seat_of(c)),
            Stage::Turn { turn } => Seats::one(s.seat_of(turn.who)),
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

/// The decision the game waits for now: `None` once the combat is over, and while the attack
/// on top of the stack asks nobody (its aim and its landing are rolled without a decision).
pub fn stage(s: &State) -> Option<Stage> {
    if s.outcome.is_some() {
        return None;
    }
    if let Some(f) = s.frames.last() {
        return match f {
            Frame::Attack(a) => match a.stage {
                AttackStage::Approve => Some(Stage::StuntApproval {
                    by: a.by,
                    target: a.target,
                }),
                AttackStage::Answer => Some(Stage::Stunt {
                    target: a.target,
                    by: a.by,
                }),
                AttackStage::React => Some(Stage::Reaction {
                    target: a.target,
                    by: a.by,
                }),
                AttackStage::Guard { next } => Some(Stage::Guard {
                    guard: next,
                    target: a.target,
                }),
                AttackStage::Agree { who } => Some(Stage::StandIn { who, hider: a.target }),
                AttackStage::Aim | AttackStage::Land => None,
            },
            Frame::Step(st) => Some(Stage::Opportunity {
                foe: st.next,
                mover: st.who,
            }),
            Frame::Morale { who } => who.first().map(|&who| Stage::Morale { who }),
        };
    }
    if s.opening {
        return Some(Stage::Open { side: s.initiative });
    }
    if let Some(t) = &s.turn {
        return Some(Stage::Turn { turn: *t });
    }
    faction_to_pick(s).map(|side| Stage::Faction { side })
}

/// The attack on top of the stack: what a stunt's approval and answer, a guard, a stand-in
/// and a reaction are about (its weapon, blast, surprise and what has been asked already).
pub fn attack(s: &State) -> Option<&Attack> {
    match s.frames.last() {
        Some(Frame::Attack(a)) => Some(a),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Murdham;
    use crate::check::{self, Plan};
    use crate::codes;
    use crate::command::Command;
    use crate::state::{Mode, With};
    use fray_dice::Prng;
    use fray_engine::{Answer, Decision, Game, Policy, RandomLegal, Ruleset};
    use fray_testkit::Table;
    use std::collections::BTreeSet;

    /// A command of each kind of decision, with the kinds of stage it may answer: under any
    /// other it must be refused as not asked now.
    fn probes() -> Vec<(Command, &'static [&'static str])> {
        let harm = Mode::Harm { hold: false };
        vec![
            (Command::Approve, &["stunt-approval"]),
            (Command::Veto, &["stunt-approval"]),
            (Command::Accept, &["stunt"]),
            (Command::Refuse, &["stunt"]),
            (Command::Guard, &["guard"]),
            (Command::Agree, &["stand-in"]),
            (Command::Decline, &["guard", "stand-in", "opportunity"]),
            (Command::Take, &["reaction"]),
            (Command::Dodge, &["reaction"]),
            (
                Command::Counter {
                    with: With::Unarmed,
                    mode: harm,
                },
                &["reaction"],
            ),
            (Command::HideBehind(0), &["reaction"]),
            (Command::Opportunity(With::Unarmed), &["opportunity"]),
            (Command::Surrender, &["morale", "turn"]),
            (Command::Retreat, &["morale"]),
            (Command::Open(0), &["open"]),
            (Command::Act(0), &["faction"]),
            (Command::Pass, &["faction"]),
            (Command::Run, &["turn"]),
            (Command::TimedOut, &["turn"]),
            (Command::End, &["turn"]),
        ]
    }

    /// What the stage promises in one position: `pending` is the one the stage gives (the seats it
    /// names too), and its kind and actor are the stage's; nothing is asked only once the combat is
    /// over; for every seat asked, the legal list under the stage is the list `legal` gives, and
    /// each of its commands is accepted by the check under the same stage with the plan the list
    /// gave (and by the check that works the stage out itself); a command of another kind of
    /// decision is refused as not asked now (during the turn of a held character, as the hold
    /// allows nothing else: MUR-R39).
    fn position(s: &State, kinds: &mut BTreeSet<&'static str>) {
        let st = stage(s);
        let pending = Murdham::pending(s);
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
            "a settled combat asks nothing, and a combat going on asks something: {st:?}"
        );
        let (Some(st), Some(pending)) = (st, pending) else {
            return;
        };
        kinds.insert(st.kind());
        for seat in pending.seats.iter() {
            let mut legal: Vec<Answer<Murdham>> = Vec::new();
            check::legal_in(s, seat, &st, &mut legal);
            assert!(!legal.is_empty(), "{st:?} lists nothing for {seat}");
            let mut again = Vec::new();
            check::legal(s, seat, &mut again);
            assert_eq!(legal, again, "{st:?}: the list under the stage");
            for a in &legal {
                let checked: Result<Plan, _> = check::check_in(s, seat, Some(&st), &a.command);
                assert_eq!(checked.as_ref(), Ok(&a.plan), "{st:?}: listed {:?}", a.command);
                assert_eq!(check::check(s, seat, &a.command), checked, "{st:?}: {:?}", a.command);
            }
            let held = matches!(st, Stage::Turn { turn } if s.ch(turn.who).grabbed_by.is_some());
            for (cmd, answers) in probes() {
                if answers.contains(&st.kind()) {
                    continue;
                }
                match check::check_in(s, seat, Some(&st), &cmd) {
                    Err(r) => assert!(
                        r.code == codes::NOT_NOW || held && r.code == codes::ENTANGLED,
                        "{st:?}: {cmd:?} refused with {}: {}",
                        r.code,
                        r.reason
                    ),
                    Ok(_) => panic!("{st:?} accepted {cmd:?}, which answers only {answers:?}"),
                }
            }
        }
    }

    /// Plays the example `name` with `policy` on every seat from `seed`, checking every position
    /// on the way; how many it checked.
    fn playout(
        name: &str,
        seed: u64,
        policy: &mut dyn Policy<Murdham>,
        cap: usize,
        kinds: &mut BTreeSet<&'static str>,
    ) -> usize {
        let l = fray_testkit::example::<Murdham>(name);
        let mut game = Game::<Murdham>::new_seeded(l.setup, l.options, seed).expect("the example starts");
        let mut rng = Prng::for_stream(seed, 1);
        policy.new_combat();
        for n in 0..cap {
            position(game.state(), kinds);
            let Some(p) = game.pending() else { return n + 1 };
            let seat = p.first();
            let d = Decision::<Murdham>::with_pending(game.state(), seat, p).expect("the pending seat decides");
            let a = policy.choose(&d, &mut rng).expect("a legal answer");
            game.submit(seat, a.command)
                .expect("an answer the rules gave is accepted");
        }
        panic!("{name}, seed {seed}: no end within {cap} decisions")
    }

    #[test]
    fn stage_agrees_with_pending_and_legal_with_check_over_example_playouts() {
        let mut kinds = BTreeSet::new();
        let mut positions = 0;
        for name in [
            "crossroads.toml",
            "mill-ambush.toml",
            "watchtower.toml",
            "chapel-road.toml",
        ] {
            for seed in 0..4 {
                positions += playout(name, seed, &mut crate::ai::Heuristic::default(), 3_000, &mut kinds);
            }
            for seed in 0..3 {
                positions += playout(name, seed, &mut RandomLegal::<Murdham>::new(), 1_000, &mut kinds);
            }
        }
        eprintln!("{positions} positions, stages seen: {kinds:?}");
        // The playouts reach these kinds of decision (stunts, which no policy proposes, are
        // played in the next test), or this test checks less than it says.
        let all = [
            "faction",
            "turn",
            "reaction",
            "guard",
            "stand-in",
            "opportunity",
            "morale",
            "open",
        ];
        for k in all {
            assert!(kinds.contains(k), "no {k} decision in the playouts: {kinds:?}");
        }
    }

    /// The decisions no policy reaches, played by hand: a stunt's approval and answer (MUR-R32),
    /// vetoed once and approved then refused once, with a guard asked and declining (MUR-R24), a
    /// stand-in who agrees (MUR-R23), after the opening (MUR-R6).
    #[test]
    fn stage_agrees_with_pending_and_legal_with_check_in_scripted_positions() {
        let toml = r#"ruleset = "murdham"
initiative = "pcs"
player-sides = ["pcs"]

[[zone]]
id = "a"
links = ["b"]

[[zone]]
id = "b"

[[side]]
id = "pcs"

[[side]]
id = "foes"

[[combatant]]
id = "ash"
side = "pcs"
at = "a"
str = 10
agi = 10
wit = 10
wield = ["martial-hand"]

[[combatant]]
id = "bo"
side = "foes"
at = "a"
str = 10
agi = 10
wit = 10
wield = ["martial-hand"]

[[combatant]]
id = "dee"
side = "foes"
at = "a"
str = 10
agi = 10
wit = 10
wield = ["martial-hand"]

[[combatant]]
id = "cy"
side = "pcs"
at = "a"
str = 10
agi = 10
wit = 10
wield = ["martial-hand"]
"#;
        let mut kinds = BTreeSet::new();
        let mut t = Table::<Murdham>::load(toml, &[], &[]);
        let mut play = |t: &mut Table<Murdham>, cmd: &str, kind: &str| {
            position(t.state(), &mut kinds);
            assert_eq!(stage(t.state()).map(|st| st.kind()), Some(kind), "before {cmd}");
            t.cmd(cmd);
            position(t.state(), &mut kinds);
        };
        play(&mut t, "open pcs", "open");
        play(&mut t, "act ash", "faction");
        play(&mut t, "attack bo stunt trips him", "turn");
        assert_eq!(stage(t.state()), Some(Stage::StuntApproval { by: 0, target: 1 }));
        play(&mut t, "veto", "stunt-approval");
        play(&mut t, "decline", "guard");
        // bo takes the sword's d6.
        t.dice(&[2]);
        play(&mut t, "take", "reaction");
        play(&mut t, "end", "turn");
        play(&mut t, "act bo", "faction");
        play(&mut t, "attack cy stunt knocks him down", "turn");
        play(&mut t, "approve", "stunt-approval");
        play(&mut t, "refuse", "stunt");
        // Nobody may guard cy (ash has had its turn): cy reacts, hiding behind ash.
        play(&mut t, "hide-behind ash", "reaction");
        assert_eq!(stage(t.state()), Some(Stage::StandIn { who: 0, hider: 3 }));
        // ash, the target now, has no reaction left and takes the sword's d6.
        t.dice(&[3]);
        play(&mut t, "agree", "stand-in");
        t.assert_dice_used();
        for k in [
            "open",
            "faction",
            "turn",
            "stunt-approval",
            "stunt",
            "guard",
            "reaction",
            "stand-in",
        ] {
            assert!(kinds.contains(k), "no {k} decision: {kinds:?}");
        }
    }
}
