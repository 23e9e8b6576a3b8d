//! What the game waits for: the pending decision as a typed value, decided in one place.
//!
//! [`stage`] reads the frame stack top and the turn once; `Ruleset::pending` is built from it,
//! and the check, the legal list and the resolver are handed it and match on it instead of
//! working out again which decision is open. GM rulings are no stage: they are accepted
//! whatever the game waits for.

use crate::setup::Cid;
use crate::state::{Attack, AttackStage, Frame, State};
use fray_engine::{Pending, Seat};

/// The decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// No turn in progress: the team whose slot it is picks who acts (ING-R8).
    Pick {
        /// The picking team.
        team: u8,
    },
    /// A turn: an action, or the end of it.
    Turn {
        /// Whose turn it is.
        who: Cid,
        /// The opening action (ING-R69) must come first this turn.
        opening: bool,
    },
    /// A turn that starts with an extended action in progress: continue or abandon it first
    /// (ING-R34).
    Extended {
        /// Whose turn it is.
        who: Cid,
    },
    /// The attacked character's team names one interceptor or passes (ING-R33); the allies
    /// who may are the attack frame's `intercept` list.
    Intercept {
        /// The attacked character.
        target: Cid,
    },
    /// The target of an attack declares defences or passes.
    Defend {
        /// The attacked character.
        target: Cid,
    },
    /// The target of a hit may block it.
    Block {
        /// The hit character.
        target: Cid,
    },
    /// A readied character is asked whether to act on its trigger (ING-R24).
    Ready {
        /// The readied character asked.
        who: Cid,
        /// The enemy who set the trigger off.
        subject: Cid,
    },
    /// Lost health beyond constitution: fortify to stay conscious or fall (ING-R60).
    Fortify {
        /// Who.
        who: Cid,
        /// Missing health (the difficulty).
        missing: i16,
    },
    /// After a dodge: drop prone, seek cover and/or step 1 m, or pass (ING-R48).
    AfterDodge {
        /// Who dodged.
        who: Cid,
        /// Options already used (bits: 1 prone, 2 cover, 4 step).
        used: u8,
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
            Stage::Pick { .. } => "pick",
            Stage::Turn { .. } => "turn",
            Stage::Extended { .. } => "extended",
            Stage::Intercept { .. } => "intercept",
            Stage::Defend { .. } => "defence",
            Stage::Block { .. } => "block",
            Stage::Ready { .. } => "ready",
            Stage::Fortify { .. } => "fortify",
            Stage::AfterDodge { .. } => "after-dodge",
        }
    }

    /// The combatant the decision is about (none for a pick).
    pub fn actor(&self) -> Option<Cid> {
        match *self {
            Stage::Pick { .. } => None,
            Stage::Turn { who, .. }
            | Stage::Extended { who }
            | Stage::Ready { who, .. }
            | Stage::Fortify { who, .. }
            | Stage::AfterDodge { who, .. } => Some(who),
            Stage::Intercept { target } | Stage::Defend { target } | Stage::Block { target } => Some(target),
        }
    }

    /// The seat that decides: the picking team's for a pick and for an intercept (the
    /// attacked character's team names the interceptor, ING-R33), else the actor's.
    pub fn seat(&self, s: &State) -> Seat {
        let team_seat = |t: u8| s.setup.teams.get(t as usize).map_or(Seat::GM, |t| t.seat);
        match *self {
            Stage::Pick { team } => team_seat(team),
            // ING-R33: the attacked character's team names one interceptor or passes.
            Stage::Intercept { target } => team_seat(s.team(target)),
            _ => self.actor().map_or(Seat::GM, |c| s.info(c).seat),
        }
    }

    /// The pending decision the engine is told about.
    pub fn pending(&self, s: &State) -> Pending<Stage> {
        Pending::one(self.seat(s), *self)
    }
}

/// The decision the game waits for now: `None` once the combat is over, or while something is
/// being resolved that asks nobody (an attack between its decisions, a move, a ready window
/// with nobody left to ask), or when no team has anyone left to pick.
pub fn stage(s: &State) -> Option<Stage> {
    if s.outcome.is_some() {
        return None;
    }
    if let Some(top) = s.stack.last() {
        return match top {
            Frame::Attack(a) => match a.stage {
                AttackStage::Intercept => Some(Stage::Intercept { target: a.target }),
                AttackStage::Defend => Some(Stage::Defend { target: a.target }),
                AttackStage::Block => Some(Stage::Block { target: a.target }),
                AttackStage::Ready | AttackStage::Roll | AttackStage::Done => None,
            },
            Frame::Ready(w) => w.candidates.get(w.asked as usize).map(|&who| Stage::Ready {
                who,
                subject: w.subject,
            }),
            Frame::Conscious { who, missing } => Some(Stage::Fortify {
                who: *who,
                missing: *missing,
            }),
            Frame::AfterDodge { who, used } => Some(Stage::AfterDodge { who: *who, used: *used }),
            Frame::Walk(_) => None,
        };
    }
    match &s.turn {
        Some(t) => {
            let c = s.ch(t.who);
            Some(if c.econ.extended.is_some() && !c.ext_settled {
                Stage::Extended { who: t.who }
            } else {
                Stage::Turn {
                    who: t.who,
                    opening: t.opening,
                }
            })
        }
        None => s
            .order
            .team_to_pick(|w| s.can_take_turn(w))
            .map(|team| Stage::Pick { team }),
    }
}

/// The attack on top of the stack: what an intercept, a defence or a block is about (its
/// allies who may intercept, its defences so far, its damage).
pub fn attack(s: &State) -> Option<&Attack> {
    match s.stack.last() {
        Some(Frame::Attack(a)) => Some(a),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ingenuity;
    use crate::check::{self, Plan};
    use crate::codes;
    use crate::command::{Action, Command};
    use fray_dice::Prng;
    use fray_engine::{Answer, Decision, Game, Policy, RandomLegal, Ruleset};
    use std::collections::BTreeSet;

    /// Commands of every kind of decision, each with the kinds of stage it may answer: under
    /// any other stage it must be refused as not asked now.
    fn probes() -> Vec<(Command, &'static [&'static str])> {
        vec![
            (Command::Pick(0), &["pick"]),
            (Command::Pick(1), &["pick"]),
            (Command::Continue, &["extended"]),
            (Command::Abandon, &["extended", "turn"]),
            (Command::Act(Action::End), &["turn"]),
            (Command::Act(Action::DropProne), &["turn", "after-dodge"]),
            (Command::Intercept(0), &["intercept"]),
            (Command::Intercept(1), &["intercept"]),
            (Command::Dodge, &["defence"]),
            (Command::Parry(0), &["defence"]),
            (Command::Resist, &["defence"]),
            (Command::Fortify, &["defence", "fortify"]),
            (Command::Block(0), &["block"]),
            (Command::Pass, &["intercept", "defence", "block", "after-dodge"]),
            (Command::Fire, &["ready"]),
            (Command::Hold, &["ready"]),
            (Command::Fall, &["fortify"]),
        ]
    }

    /// Everything the stage promises, in one position: `pending` is the one the stage gives (its
    /// seat, kind and actor), with the stage's kind and actor; nothing is asked only once the
    /// combat is over; every listed command is accepted by the check under the same stage with the
    /// plan the list gave; a command of another kind of decision is refused.
    fn position(s: &State, kinds: &mut BTreeSet<&'static str>) {
        let st = stage(s);
        let pending = Ingenuity::pending(s);
        assert_eq!(
            pending,
            st.map(|st| st.pending(s)),
            "pending is not what the stage says: {st:?}"
        );
        assert_eq!(
            pending.as_ref().map(|p| (p.kind(), p.actor())),
            st.map(|st| (st.kind(), st.actor())),
            "pending and stage disagree"
        );
        assert_eq!(
            st.is_none(),
            s.outcome.is_some(),
            "nothing asked in a combat going on: {st:?}"
        );
        let Some(st) = st else { return };
        kinds.insert(st.kind());
        let mut legal: Vec<Answer<Ingenuity>> = Vec::new();
        crate::legal::legal(s, Some(&st), &mut legal);
        assert!(!legal.is_empty(), "{st:?} lists nothing");
        for a in &legal {
            let checked: Result<Plan, _> = check::check_in(s, Some(&st), &a.command);
            assert_eq!(checked.as_ref(), Ok(&a.plan), "{st:?}: listed {:?}", a.command);
            assert_eq!(check::check(s, &a.command), checked, "{st:?}: {:?}", a.command);
        }
        for (cmd, answers) in probes() {
            if answers.contains(&st.kind()) {
                continue;
            }
            match check::check_in(s, Some(&st), &cmd) {
                Err(r) => assert_eq!(r.code, codes::NOT_NOW, "{st:?}: {cmd:?}: {}", r.reason),
                Ok(_) => panic!("{st:?} accepted {cmd:?}, which answers only {answers:?}"),
            }
        }
    }

    /// Plays `name` with `policy` from `seed`, checking every position on the way.
    fn playout(
        name: &str,
        seed: u64,
        policy: &mut dyn Policy<Ingenuity>,
        cap: usize,
        kinds: &mut BTreeSet<&'static str>,
    ) {
        let l = fray_testkit::example::<Ingenuity>(name);
        let mut game = Game::<Ingenuity>::new_seeded(l.setup, l.options, seed).expect("the example starts");
        let mut rng = Prng::from_seed(seed);
        policy.new_combat();
        for _ in 0..cap {
            position(game.state(), kinds);
            let Some(p) = game.pending() else { return };
            let seat = p.first();
            let d = Decision::<Ingenuity>::with_pending(game.state(), seat, p).expect("the pending seat decides");
            let a = policy.choose(&d, &mut rng).expect("a legal answer");
            game.submit(seat, a.command)
                .expect("an answer the rules gave is accepted");
        }
    }

    #[test]
    fn stage_agrees_with_pending_and_legal_with_check_over_example_playouts() {
        let mut kinds = BTreeSet::new();
        for name in ["ambush.toml", "night-raid.toml", "shrine.toml"] {
            for seed in 0..6 {
                playout(name, seed, &mut crate::ai::Heuristic::new(), 5_000, &mut kinds);
            }
            for seed in 0..3 {
                playout(name, seed, &mut RandomLegal::<Ingenuity>::new(), 1_500, &mut kinds);
            }
        }
        eprintln!("stages seen: {kinds:?}");
        // The playouts reach every kind of decision, or this test checks less than it says.
        let all = [
            "pick",
            "turn",
            "extended",
            "intercept",
            "defence",
            "block",
            "ready",
            "fortify",
            "after-dodge",
        ];
        for k in all {
            assert!(kinds.contains(k), "no {k} decision in the playouts: {kinds:?}");
        }
    }
}
