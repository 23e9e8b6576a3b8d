//! What the game waits for: the pending decision as a typed value, worked out in one place.
//!
//! [`stage`] reads the frame on top of the stack, or with an empty stack the part of the round
//! (`State::stage`, a [`RoundStage`]) and the turn, once; `Ruleset::pending` is built from it,
//! and the check, the legal list, the resolver and the AI are handed it and match on it rather
//! than working out again which decision is open. GM rulings are no stage: they are accepted
//! whatever the game waits for.

use crate::actions::{defence, flee};
use crate::flow;
use crate::setup::Cid;
use crate::state::{Card, Frame, RoundStage, State};
use fray_engine::{Pending, Seats};

/// The decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The target of the attack on top of the stack reacts (dodge, parry, break-free, resist)
    /// or passes (EIN-R19, EIN-R25).
    Reaction {
        /// The attacked creature.
        target: Cid,
        /// The attacker.
        by: Cid,
    },
    /// The defender beat the attack: it may take one of the attacker's cards for one of its own,
    /// or pass (EIN-R7).
    Swap {
        /// The defender.
        target: Cid,
        /// The attacker, whose cards it may take.
        by: Cid,
    },
    /// The attacker spends the attack's extra successes (with no extra success left to spend,
    /// every `spend` is refused as not asked now).
    ExtraSuccesses {
        /// The attacker.
        by: Cid,
        /// The attacked creature.
        target: Cid,
    },
    /// A foe in a fleer's zone is asked whether it chases (EIN-R33).
    Chase {
        /// The foe asked (`flee::next_chaser`).
        chaser: Cid,
        /// The fleer.
        fleer: Cid,
    },
    /// The holder of a creature breaking free holds on or lets it try (EIN-R30).
    Hold {
        /// The holder.
        holder: Cid,
        /// The creature breaking free.
        breaker: Cid,
    },
    /// Harm is split into levels (EIN-R34).
    Harm {
        /// Who takes it.
        who: Cid,
        /// Mental Harm rather than Physical.
        mental: bool,
        /// How much.
        amount: u8,
    },
    /// A creature that drew two cards keeps one (EIN-H25).
    Card {
        /// Who drew them.
        who: Cid,
        /// The two cards.
        drawn: [Card; 2],
    },
    /// A failed test may be pushed, or accepted.
    Push {
        /// Who tested.
        who: Cid,
    },
    /// The swap stage of a round: the seats still deciding (`State::swapping`, several at
    /// once) propose swaps of cards or are ready (EIN-R5).
    CardSwaps,
    /// The seat of a group sharing a card picks which member acts on it now (EIN-R2).
    GroupTurn {
        /// The members it may pick, a bit per creature ([`flow::group_choices`]).
        choices: u64,
    },
    /// A creature's turn, on its `n`-th card.
    Turn {
        /// Whose turn.
        who: Cid,
        /// The card the turn is on.
        n: u8,
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
            Stage::Reaction { .. } => "reaction",
            Stage::Swap { .. } => "swap",
            Stage::ExtraSuccesses { .. } => "extra-successes",
            Stage::Chase { .. } => "chase",
            Stage::Hold { .. } => "hold",
            Stage::Harm { .. } => "harm",
            Stage::Card { .. } => "card",
            Stage::Push { .. } => "push",
            Stage::CardSwaps => "card-swaps",
            Stage::GroupTurn { .. } => "group-turn",
            Stage::Turn { .. } => "turn",
        }
    }

    /// The creature who decides: none for the swap stage (seats decide for their characters)
    /// or a group's pick (the group's seat decides which member).
    pub fn actor(&self) -> Option<Cid> {
        match *self {
            Stage::Reaction { target, .. } | Stage::Swap { target, .. } => Some(target),
            Stage::ExtraSuccesses { by, .. } => Some(by),
            Stage::Chase { chaser, .. } => Some(chaser),
            Stage::Hold { holder, .. } => Some(holder),
            Stage::Harm { who, .. } | Stage::Card { who, .. } | Stage::Push { who } | Stage::Turn { who, .. } => {
                Some(who)
            }
            Stage::CardSwaps | Stage::GroupTurn { .. } => None,
        }
    }

    /// The seats that decide: the actor's; at the swap stage every seat still deciding; for a
    /// group's pick the group's seat (its members' seat, EIN-R2).
    pub fn seats(&self, s: &State) -> Seats {
        match *self {
            Stage::CardSwaps => s.swapping,
            Stage::GroupTurn { choices } => Seats::one(s.seat_of(choices.trailing_zeros() as Cid)),
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

/// The decision the game waits for now: `None` once the combat is over, while the frame on top
/// of the stack asks nobody (a flight with no foe left to ask about a chase), at the swap stage
/// once every seat is done, or with no turn under way and no group's pick.
pub fn stage(s: &State) -> Option<Stage> {
    if s.outcome.is_some() {
        return None;
    }
    if let Some(f) = s.frames.last() {
        return match f {
            Frame::Attack(a) if a.defence.is_none() => Some(Stage::Reaction {
                target: a.target,
                by: a.by,
            }),
            Frame::Attack(a) if a.defender_swap.is_none() && defence::defender_may_swap(s, a) => Some(Stage::Swap {
                target: a.target,
                by: a.by,
            }),
            Frame::Attack(a) => Some(Stage::ExtraSuccesses {
                by: a.by,
                target: a.target,
            }),
            Frame::Flee(fl) => flee::next_chaser(s, fl).map(|chaser| Stage::Chase { chaser, fleer: fl.who }),
            Frame::Break(b) => Some(Stage::Hold {
                holder: b.holder,
                breaker: b.who,
            }),
            Frame::Split(sp) => Some(Stage::Harm {
                who: sp.who,
                mental: sp.mental,
                amount: sp.amount,
            }),
            Frame::Keep(k) => Some(Stage::Card {
                who: k.who,
                drawn: k.drawn,
            }),
            Frame::Push(p) => Some(Stage::Push { who: p.who }),
        };
    }
    if s.stage == RoundStage::Swaps {
        return (!s.swapping.is_empty()).then_some(Stage::CardSwaps);
    }
    match s.turn {
        Some(t) => Some(Stage::Turn { who: t.who, n: t.n }),
        None => {
            // EIN-R2: the group's seat picks the member that acts now.
            let choices = flow::group_choices(s);
            (choices != 0).then_some(Stage::GroupTurn { choices })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Einfelst;
    use crate::check::{self, Plan};
    use crate::codes;
    use crate::command::{Command, PushTo, Spend};
    use crate::data::Action;
    use fray_dice::Prng;
    use fray_engine::gm::Ruling as R;
    use fray_engine::{Answer, Decision, Game, Policy, RandomLegal, Ruleset, Seat};
    use fray_space::ZoneId;
    use std::collections::BTreeSet;

    /// A command of each kind of decision, with the kinds of stage it may answer: under any
    /// other it must be refused as not asked now (under a turn, a restrained or burning
    /// creature is told first what it may do, as always).
    fn probes() -> Vec<(Command, &'static [&'static str])> {
        let z = ZoneId::new(0).expect("zone 0");
        let card = crate::state::Card::default();
        vec![
            (Command::Strike(0), &["turn"]),
            (Command::Shoot(0), &["turn"]),
            (Command::Punch(0), &["turn"]),
            (Command::Grapple(0), &["turn"]),
            (Command::Shove(0, PushTo::Far), &["turn"]),
            (Command::Cast(0, 0), &["turn"]),
            (Command::Flee(Action::Finesse), &["turn"]),
            (Command::FleeTo(Action::Sneak, z), &["turn"]),
            (Command::Extinguish, &["turn"]),
            (Command::Test(Action::Force), &["turn"]),
            (Command::Move(z), &["turn"]),
            (Command::Clear(z), &["turn"]),
            (Command::Close(0), &["turn"]),
            (Command::Withdraw, &["turn"]),
            (Command::Cover, &["turn"]),
            (Command::Draw(None), &["turn"]),
            (Command::PickUp(0), &["turn"]),
            (Command::Stand, &["turn"]),
            (Command::Shout, &["turn"]),
            (Command::Interact, &["turn"]),
            (Command::BreakFree, &["turn", "reaction"]),
            (Command::Release, &["turn"]),
            (Command::End, &["turn"]),
            (Command::Dodge, &["reaction"]),
            (Command::Parry, &["reaction"]),
            (Command::Resist, &["reaction"]),
            (Command::Pass, &["reaction", "swap", "chase", "hold"]),
            (Command::Chase(Action::Finesse), &["chase"]),
            (Command::Hold, &["hold"]),
            (Command::Swap(card, card), &["swap"]),
            (Command::Spend(Spend::default()), &["extra-successes"]),
            (Command::Split(vec![1]), &["harm"]),
            (Command::Keep(card), &["card"]),
            (Command::Push(true), &["push"]),
            (Command::Push(false), &["push"]),
            (Command::Trade(0, 1), &["card-swaps"]),
            (Command::Ready, &["card-swaps"]),
            (Command::Act(0), &["group-turn"]),
        ]
    }

    /// The check under `st`, in both modes, for one candidate: the same verdict, the same plan,
    /// the same code (the code-only mode formats nothing, so its sentence is empty).
    fn both_modes(s: &State, seat: Seat, st: &Stage, c: &Command) -> Option<Plan> {
        let said = check::check_in(s, seat, Some(st), c);
        let coded = check::plan_in(s, seat, st, c);
        assert_eq!(said.as_ref().ok(), coded.as_ref(), "{st:?}: {c:?} in the two modes");
        assert_eq!(
            check::check_code(s, seat, c),
            said.as_ref().map(|p| *p).map_err(|r| r.code),
            "{st:?}: {c:?}'s code"
        );
        if let Err(r) = &said {
            assert!(!r.reason.is_empty(), "{st:?}: {c:?} refused without a sentence");
        }
        coded
    }

    /// What the stage promises in one position: `pending` is the one the stage gives (the seats it
    /// names), its kind and actor are the stage's; nothing is asked once the combat is over, and
    /// only then; for every seat asked, the legal list under the stage is the list `legal` gives,
    /// every candidate gets the same verdict and code from the check with and without its sentence,
    /// and each listed command is accepted by the check under the same stage with the plan the list
    /// gave (and by the check that works the stage out itself); a command of another kind of
    /// decision is refused; a GM ruling is accepted whatever the stage.
    fn position(s: &State, kinds: &mut BTreeSet<&'static str>) {
        let st = stage(s);
        let pending = Einfelst::pending(s);
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
        kinds.insert(st.kind());
        for seat in pending.seats.iter() {
            let mut legal: Vec<Answer<Einfelst>> = Vec::new();
            check::legal_in(s, seat, &st, &mut legal);
            assert!(!legal.is_empty(), "{st:?} lists nothing for {seat:?}");
            let mut again = Vec::new();
            check::legal(s, seat, &mut again);
            assert_eq!(legal, again, "{st:?}: the list under the stage");
            let mut checked = Vec::new();
            check::listing(s, &st, &mut checked, |c| both_modes(s, seat, &st, c));
            assert_eq!(legal, checked, "{st:?}: the list with both modes compared");
            for a in &legal {
                let got = check::check_in(s, seat, Some(&st), &a.command);
                assert_eq!(got.as_ref(), Ok(&a.plan), "{st:?}: listed {:?}", a.command);
                assert_eq!(check::check(s, seat, &a.command), got, "{st:?}: {:?}", a.command);
            }
            for (cmd, answers) in probes() {
                if answers.contains(&st.kind()) {
                    continue;
                }
                match check::check_in(s, seat, Some(&st), &cmd) {
                    Err(r) => assert!(
                        r.code == codes::NOT_NOW
                            || (matches!(st, Stage::Turn { .. })
                                && (r.code == codes::RESTRAINED || r.code == codes::BURNING)),
                        "{st:?}: {cmd:?} refused with {}: {}",
                        r.code,
                        r.reason
                    ),
                    Ok(_) => panic!("{st:?} accepted {cmd:?}, which answers only {answers:?}"),
                }
            }
        }
    }

    /// Plays the example `name` (with `options` changed by `tweak`) with `policy` from `seed`,
    /// checking every position on the way; the seat to answer is the first of those asked, or
    /// in turn each of them.
    fn playout(
        name: &str,
        tweak: fn(&mut crate::options::Options),
        seed: u64,
        policy: &mut dyn Policy<Einfelst>,
        cap: usize,
        kinds: &mut BTreeSet<&'static str>,
    ) {
        let mut l = fray_testkit::example::<Einfelst>(name);
        tweak(&mut l.options);
        let mut game = Game::<Einfelst>::new_seeded(l.setup, l.options, seed).expect("the example starts");
        let mut rng = Prng::for_stream(seed, 1);
        policy.new_combat();
        for i in 0..cap {
            position(game.state(), kinds);
            let Some(p) = game.pending() else { return };
            let seats: Vec<Seat> = p.seats.iter().collect();
            let seat = seats[i % seats.len()];
            let d = Decision::<Einfelst>::with_pending(game.state(), seat, p).expect("the pending seat decides");
            let a = policy.choose(&d, &mut rng).expect("a legal answer");
            game.submit(seat, a.command)
                .expect("an answer the rules gave is accepted");
        }
    }

    #[test]
    fn stage_agrees_with_pending_and_legal_with_check_over_example_playouts() {
        let mut kinds = BTreeSet::new();
        // The options as the examples give them; chases and holds asked after the roll, with
        // pushed tests (EIN-H20, EIN-H26).
        let variants: [fn(&mut crate::options::Options); 2] = [
            |_| {},
            |o| {
                o.opposing_reaction_timing = crate::options::OpposingTiming::AfterRoll;
                o.push_rolls = true;
            },
        ];
        for name in ["barrow.toml", "ford.toml", "mill.toml", "tollwood.toml"] {
            for tweak in variants {
                for seed in 0..4 {
                    playout(
                        name,
                        tweak,
                        seed,
                        &mut crate::ai::Heuristic::default(),
                        2_000,
                        &mut kinds,
                    );
                }
                for seed in 0..6 {
                    playout(name, tweak, seed, &mut RandomLegal::<Einfelst>::new(), 600, &mut kinds);
                }
            }
        }
        // The playouts reach every kind of decision, or this test checks less than it says.
        let all = [
            "reaction",
            "swap",
            "extra-successes",
            "chase",
            "hold",
            "harm",
            "card",
            "push",
            "card-swaps",
            "group-turn",
            "turn",
        ];
        for k in all {
            assert!(kinds.contains(k), "no {k} decision in the playouts: {kinds:?}");
        }
    }
}
