//! What the game waits for: the pending decision as a typed value, worked out in one place.
//!
//! [`stage`] looks at the top of the resolution stack, or with an empty stack at the turn's
//! step, once; `Ruleset::pending` is built from it, and the check, the legal list and the
//! resolver are handed it and match on it rather than reading the stack top or the turn step
//! again to learn which decision is open. GM rulings are no stage: they are accepted whatever
//! the game waits for.

use crate::ability::AbilityId;
use crate::setup::Cid;
use crate::state::{FixedKind, Frame, Prompt, State, Step, UseStage};

/// The decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A target of the ability use on top of the stack picks its defence (`defend`, or
    /// `defend ... with` its Buff).
    Defence {
        /// The target defending.
        defender: Cid,
        /// Who uses the ability.
        user: Cid,
        /// The ability it defends against.
        ability: AbilityId,
    },
    /// The trigger window on top of the stack asks a holder whether to use a triggered
    /// ability (`trigger`, or `pass`).
    Trigger {
        /// The holder asked.
        holder: Cid,
        /// The triggered ability asked about first (with `controller-orders-own-triggers`, the
        /// holder may use another of its own still on offer: see [`offered`]).
        ability: AbilityId,
    },
    /// A failed Panic or Incapacity Roll: reroll it with the roller's Buff, or `pass`.
    Reroll {
        /// Who rolled.
        who: Cid,
        /// Which roll.
        roll: FixedKind,
    },
    /// A move inside resolution (Interpose, a follow-up): `move` to a square, or `pass`.
    MovePrompt {
        /// Who may move.
        who: Cid,
        /// Squares of movement.
        budget: i16,
        /// The character the move must not end farther from, if any.
        toward: Option<Cid>,
    },
    /// A target already under a Buff is offered another: `accept` or `decline` (THR-R142).
    BuffReplace {
        /// The target.
        target: Cid,
        /// The new Buff's creator.
        creator: Cid,
        /// The new Buff's ability.
        ability: AbilityId,
    },
    /// A used-up Buff: its creator pays to `keep` it, or lets it end (`release`).
    Keep {
        /// The creator.
        creator: Cid,
        /// The Buff's bearer.
        target: Cid,
        /// The Stress to pay.
        cost: i16,
    },
    /// An upkeep Overexert: `keep` paying for it, or `release` it (THR-R135).
    Upkeep {
        /// The creator.
        creator: Cid,
        /// Index of the Terrain Effect in the state's list.
        effect: u8,
        /// The Stress to pay.
        cost: i16,
    },
    /// A slot has come up: `begin` the turn, or `delay` (THR-R13).
    Slot {
        /// Whose slot.
        who: Cid,
    },
    /// Round Zero: a PC picks its starting square (THR-R22).
    Place {
        /// Who places.
        who: Cid,
    },
    /// A turn's Move step (move, step, act, take a Stance or end), or the fresh allowance an
    /// Action granted (Dash: move, take a Stance or end; no Action).
    Turn {
        /// Whose turn.
        who: Cid,
        /// Whether this is the movement an Action granted (`Step::ActionMove`), after the
        /// Action.
        dash: bool,
    },
    /// The Stance step: take a Stance or end the turn.
    Stance {
        /// Whose turn.
        who: Cid,
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
            Stage::Trigger { .. } => "trigger",
            Stage::Reroll { .. } => "reroll",
            Stage::MovePrompt { .. } => "move",
            Stage::BuffReplace { .. } => "buff",
            Stage::Keep { .. } => "keep",
            Stage::Upkeep { .. } => "upkeep",
            Stage::Slot { .. } => "slot",
            Stage::Place { .. } => "place",
            Stage::Turn { .. } => "turn",
            Stage::Stance { .. } => "stance",
        }
    }

    /// The combatant who decides (every Thrum decision has one).
    pub fn actor(&self) -> Option<Cid> {
        Some(match *self {
            Stage::Defence { defender, .. } => defender,
            Stage::Trigger { holder, .. } => holder,
            Stage::Reroll { who, .. } | Stage::MovePrompt { who, .. } => who,
            Stage::BuffReplace { target, .. } => target,
            Stage::Keep { creator, .. } | Stage::Upkeep { creator, .. } => creator,
            Stage::Slot { who } | Stage::Place { who } | Stage::Turn { who, .. } | Stage::Stance { who } => who,
        })
    }

    /// Whether the decision is asked inside resolution (a frame on the stack asks it), not by
    /// the turn.
    pub fn in_resolution(&self) -> bool {
        !matches!(
            self,
            Stage::Slot { .. } | Stage::Place { .. } | Stage::Turn { .. } | Stage::Stance { .. }
        )
    }
}

/// The decision the game waits for now: `None` once the combat is over, while the frame on top
/// of the stack asks nobody (an ability use between its decisions, a roll that did not fail, a
/// start of turn, a trigger window with nobody left to ask), or when the turn is over.
pub fn stage(s: &State) -> Option<Stage> {
    if s.outcome.is_some() {
        return None;
    }
    if let Some(top) = s.stack.last() {
        return match top {
            Frame::Use(u) if u.stage == UseStage::Defences => {
                u.targets.get(u.index as usize).map(|&defender| Stage::Defence {
                    defender,
                    user: u.user,
                    ability: u.ability,
                })
            }
            Frame::Window(w) => w
                .candidates
                .get(w.asked as usize)
                .map(|&(holder, ability)| Stage::Trigger { holder, ability }),
            Frame::Roll(r) if r.asking => Some(Stage::Reroll {
                who: r.who,
                roll: r.kind,
            }),
            Frame::Prompt(p) => Some(match *p {
                Prompt::Move { who, budget, toward } => Stage::MovePrompt { who, budget, toward },
                Prompt::BuffReplace {
                    target,
                    creator,
                    ability,
                } => Stage::BuffReplace {
                    target,
                    creator,
                    ability,
                },
                Prompt::BuffKeep { creator, target, cost } => Stage::Keep { creator, target, cost },
                Prompt::Upkeep { creator, effect, cost } => Stage::Upkeep { creator, effect, cost },
            }),
            Frame::Use(_) | Frame::Roll(_) | Frame::StartOfTurn { .. } => None,
        };
    }
    let who = s.turn.who;
    match s.turn.step {
        Step::Slot => Some(Stage::Slot { who }),
        Step::Place => Some(Stage::Place { who }),
        Step::Move => Some(Stage::Turn { who, dash: false }),
        Step::ActionMove => Some(Stage::Turn { who, dash: true }),
        Step::Stance => Some(Stage::Stance { who }),
        Step::Done => None,
    }
}

/// The triggered abilities the window on top of the stack still offers `holder` (a
/// [`Stage::Trigger`]'s holder): its candidates from the one being asked on, in asking order.
pub fn offered(s: &State, holder: Cid) -> impl Iterator<Item = AbilityId> + '_ {
    let rest = match s.stack.last() {
        Some(Frame::Window(w)) => w.candidates.get(w.asked as usize..).unwrap_or(&[]),
        _ => &[],
    };
    rest.iter().filter(move |(h, _)| *h == holder).map(|&(_, a)| a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Thrum;
    use crate::ability::Defence;
    use crate::check::{self, Plan};
    use crate::codes;
    use crate::command::{Action, Command, Target};
    use crate::state::Pick;
    use fray_dice::Prng;
    use fray_engine::{Answer, Decision, Game, Policy, RandomLegal, Ruleset};
    use fray_space::{Dir, Pos};
    use std::collections::BTreeSet;

    /// A command of each kind of decision, with the kinds of stage it may answer: under any
    /// other it must be refused as not asked now (a Delay in the rounds as impossible now).
    fn probes() -> Vec<(Command, &'static [&'static str])> {
        let act = Action {
            ability: 0,
            target: Target::None,
            pick: Pick::default(),
            overexert: None,
        };
        vec![
            (Command::Begin, &["slot"]),
            (Command::Delay(None), &["slot"]),
            (Command::Place(Pos::new(0, 0)), &["place"]),
            (Command::Move(Pos::new(0, 0)), &["turn", "move"]),
            (
                Command::Step {
                    dir: Dir::N,
                    roll: None,
                },
                &["turn"],
            ),
            (Command::Act(act), &["turn"]),
            (Command::Stance(0), &["turn", "stance"]),
            (Command::EndTurn, &["turn", "stance"]),
            (Command::Defend(Defence::Resilience), &["defence"]),
            (Command::DefendWith(Defence::Evasion, 0), &["defence"]),
            (Command::Trigger(0), &["trigger"]),
            (Command::Pass, &["trigger", "reroll", "move"]),
            (Command::Reroll, &["reroll"]),
            (Command::Accept, &["buff"]),
            (Command::Decline, &["buff"]),
            (Command::Keep, &["keep", "upkeep"]),
            (Command::Release, &["keep", "upkeep"]),
        ]
    }

    /// What the stage promises in one position: `pending` is the stage, asked of the seat that
    /// plays its combatant, and its kind and actor are the stage's; nothing is asked only once the
    /// combat is over; the legal list under the stage is the list `legal` gives, and each of its
    /// commands is accepted by the check under the same stage with the plan the list gave (and by
    /// the check that works the stage out itself); a command of another kind of decision is
    /// refused.
    fn position(s: &State, kinds: &mut BTreeSet<&'static str>) {
        let st = stage(s);
        let pending = Thrum::pending(s);
        // Every Thrum decision has one decider: the seat of the character it is about.
        let seat = |st: &Stage| s.info(st.actor().expect("every Thrum decision has a decider")).seat;
        assert_eq!(
            pending,
            st.map(|st| fray_engine::Pending::one(seat(&st), st)),
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
        let Some(st) = st else { return };
        kinds.insert(st.kind());
        let mut legal: Vec<Answer<Thrum>> = Vec::new();
        crate::legal::legal_in(s, &st, &mut legal);
        assert!(!legal.is_empty(), "{st:?} lists nothing");
        let mut again = Vec::new();
        crate::legal::legal(s, &mut again);
        assert_eq!(legal, again, "{st:?}: the list under the stage");
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
                Err(r) => assert!(
                    r.code == codes::NOT_NOW || (r.code == codes::CANNOT_DELAY && matches!(cmd, Command::Delay(_))),
                    "{st:?}: {cmd:?} refused with {}: {}",
                    r.code,
                    r.reason
                ),
                Ok(_) => panic!("{st:?} accepted {cmd:?}, which answers only {answers:?}"),
            }
        }
    }

    /// Plays the example `name` with `policy` from `seed`, checking every position on the way.
    fn playout(name: &str, seed: u64, policy: &mut dyn Policy<Thrum>, cap: usize, kinds: &mut BTreeSet<&'static str>) {
        let l = fray_testkit::example::<Thrum>(name);
        let mut game = Game::<Thrum>::new_seeded(l.setup, l.options, seed).expect("the example starts");
        let mut rng = Prng::for_stream(seed, 1);
        policy.new_combat();
        for _ in 0..cap {
            position(game.state(), kinds);
            let Some(p) = game.pending() else { return };
            let seat = p.first();
            let d = Decision::<Thrum>::with_pending(game.state(), seat, p).expect("the pending seat decides");
            let a = policy.choose(&d, &mut rng).expect("a legal answer");
            game.submit(seat, a.command)
                .expect("an answer the rules gave is accepted");
        }
    }

    #[test]
    fn stage_agrees_with_pending_and_legal_with_check_over_example_playouts() {
        let mut kinds = BTreeSet::new();
        for name in ["duel.toml", "skirmish.toml", "last-stand.toml", "ruins.toml"] {
            for seed in 0..4 {
                playout(name, seed, &mut crate::ai::Heuristic::new(), 3_000, &mut kinds);
            }
            for seed in 0..2 {
                playout(name, seed, &mut RandomLegal::<Thrum>::new(), 600, &mut kinds);
            }
        }
        // The playouts reach every kind of decision but an upkeep (the next test plays one), or
        // this test checks less than it says.
        let all = [
            "slot", "place", "turn", "stance", "defence", "trigger", "reroll", "move", "buff", "keep",
        ];
        for k in all {
            assert!(kinds.contains(k), "no {k} decision in the playouts: {kinds:?}");
        }
    }

    /// The decisions the example playouts rarely or never reach, played by hand: an upkeep
    /// Overexert kept up and released (THR-R135), a move after Dash, a Delay.
    #[test]
    fn stage_agrees_with_pending_and_legal_with_check_in_scripted_positions() {
        let toml = r#"ruleset = "thrum"
title = "stages"

[map]
rows = [
  ". . . . . . . .",
  ". . . . . . . .",
  ". . . . . . . .",
  ". . . . . . . .",
]

[[side]]
id = "pcs"
kind = "pc"
seat = "players"

[[side]]
id = "npcs"
kind = "npc"
seat = "gm"

[[combatant]]
id = "c"
side = "pcs"
at = "2,1"
abilities = ["whirling-sleet"]

[[combatant]]
id = "a"
side = "pcs"
at = "0,3"

[[combatant]]
id = "e"
side = "npcs"
at = "3,1"
attack = 3
resilience = 0
evasion = 0
resolve = 0
max-fatigue-tolerance = 6
"#;
        let mut kinds = BTreeSet::new();
        // Initiative: C, then A, then E.
        let mut t = fray_testkit::Table::<Thrum>::load(toml, &[], &[6, 6, 4, 4, 1, 1]);
        fn play(t: &mut fray_testkit::Table<Thrum>, cmd: &str, kinds: &mut BTreeSet<&'static str>) {
            position(t.state(), kinds);
            t.cmd(cmd);
            position(t.state(), kinds);
        }
        while t.state().phase == crate::state::Phase::RoundZero {
            play(&mut t, "end", &mut kinds);
        }
        // Answers slots with `begin` and everything else with `end` until `kind` is asked of
        // `who`.
        fn until(t: &mut fray_testkit::Table<Thrum>, kind: &str, who: Cid, kinds: &mut BTreeSet<&'static str>) {
            for _ in 0..20 {
                match Thrum::pending(t.state()) {
                    Some(p) if p.kind() == kind && p.actor() == Some(who) => return,
                    Some(p) => play(t, if p.kind() == "slot" { "begin" } else { "end" }, kinds),
                    None => break,
                }
            }
            panic!("{kind} was never asked of {who}");
        }
        let (c, a) = (0, 1);
        // Round 1: C puts up the sleet with its upkeep Overexert; A delays, then dashes.
        until(&mut t, "slot", c, &mut kinds);
        play(&mut t, "begin", &mut kinds);
        play(&mut t, "act whirling-sleet overexert biting", &mut kinds);
        until(&mut t, "slot", a, &mut kinds);
        play(&mut t, "delay end", &mut kinds);
        // A slot that delayed already begins by itself (THR-R15).
        until(&mut t, "turn", a, &mut kinds);
        play(&mut t, "act dash", &mut kinds);
        assert_eq!(stage(t.state()), Some(Stage::Turn { who: a, dash: true }));
        // Round 2: C pays again; round 3: it lets the Overexert go.
        until(&mut t, "upkeep", c, &mut kinds);
        play(&mut t, "keep", &mut kinds);
        until(&mut t, "upkeep", c, &mut kinds);
        play(&mut t, "release", &mut kinds);
        assert!(kinds.contains("upkeep") && kinds.contains("turn"), "{kinds:?}");
    }
}
