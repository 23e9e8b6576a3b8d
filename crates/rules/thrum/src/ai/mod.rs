//! The built-in Thrum AI used by `fray run` (and, later, as the heuristic simulation policy).
//!
//! It plays every decision with simple, explainable rules that use the exact contest odds:
//! pick the defence with the best chance to avoid the hit; on its turn, find the attack (and the
//! square to make it from) with the best expected Fatigue and Stress dealt, weighting Finishers
//! against Exhausted targets, friendly fire in areas and the Banes of Ranged attacks in melee;
//! revive fallen allies and finish fallen enemies when it can; recover from Exhaustion when
//! Recover would end it; otherwise close in; then take the stance that suits its position.
//! Every command it returns is checked, or comes with the plan its own search already found
//! (the path of a move, read off the search of the squares it weighed); if a choice is not legal
//! it falls back to ending the turn.
//!
//! The files follow the decision's concerns: this one holds the policy, the decisions outside
//! a turn (defences, triggers, rerolls, prompts, placement) and the Stance it ends on; `turn`
//! what a turn does (the plan of attacks, support and recovery, closing in); `scan` where from
//! (the search of the squares a plan could be taken from, a cost at a time); `aim` the
//! placements of areas and Terrain Effects and when the aim alone decides whether an action
//! works from another square; `contest` the exact contest odds and the best defence. The split
//! is by concern so that each file answers one question of the decision; they share the
//! policy's private types (`Choice`, `Intent`, `Best`), which stay here.
//!
//! The AI plays by the rules through the check; the rule IDs its files cite are those of what
//! it weighs (`aim` THR-R80, THR-R129; `scan` THR-R51, THR-R80, THR-R129, THR-R218; `turn`
//! THR-R167).

use crate::Thrum;
use crate::ability::{Ability, Defence, Kind, Op, TargetSpec, XStatus};
use crate::calc::{self, range_of};
use crate::check::{self, Plan, action_targets};
use crate::codes;
use crate::command::{Action, Command, Target};
use crate::legal;
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::{Phase, Pick, State};
use fray_dice::Prng;
use fray_engine::{Answer, Decision, Policy};
use fray_space::{PathScratch, Pos, chebyshev};
use std::sync::OnceLock;

mod aim;
mod contest;
mod scan;
mod turn;

pub use self::contest::{ContestOdds, attack_odds, best_defence, contest_odds};

use self::contest::*;
use self::scan::{Scan, ScanMemory};
use self::turn::{adjacent_enemies_at, preferred_range};

/// The built-in heuristic policy.
#[derive(Default)]
pub struct Heuristic {
    scratch: PathScratch,
    buf: Vec<Answer<Thrum>>,
    /// The Action planned when the last turn decision chose to move first: taken after the
    /// move if nothing has changed since (same round, character, square and ability uses).
    planned: Option<(u16, Cid, u32, Pos, Action)>,
    /// The buffers of the last turn's scan, reused by the next.
    memory: ScanMemory,
}

/// What a decision comes to: an answer whose plan the AI already has (the rules' check of an
/// Action it made anyway, the path its search of the squares found), or a command for the
/// rules to check.
enum Choice {
    /// A command with the plan the check gives it.
    Planned(Answer<Thrum>),
    /// A command to check.
    Command(Command),
}

impl From<Command> for Choice {
    fn from(c: Command) -> Choice {
        Choice::Command(c)
    }
}

impl Heuristic {
    /// A new heuristic policy.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Policy<Thrum> for Heuristic {
    fn choose(&mut self, d: &Decision<'_, Thrum>, _rng: &mut Prng) -> Option<Answer<Thrum>> {
        // It plans on the state as its seat may know it (no Hidden enemy's square).
        let view = d.view();
        match self.decide(&view) {
            // A plan made on a state with something masked is the rules' to check.
            Some(Choice::Planned(answer)) if view.masked() => {
                if let Ok(answer) = d.answer(answer.command) {
                    return Some(answer);
                }
            }
            Some(Choice::Planned(answer)) => {
                debug_assert_eq!(
                    d.check(&answer.command).ok().as_ref(),
                    Some(&answer.plan),
                    "the heuristic's plan of {:?}",
                    answer.command
                );
                return Some(answer);
            }
            Some(Choice::Command(c)) => {
                if let Ok(answer) = d.answer(c) {
                    return Some(answer);
                }
            }
            None => {}
        }
        // Fall back to something always sensible: end the turn, begin, pass, or the first legal.
        self.buf.clear();
        d.legal(&mut self.buf);
        let pref = [Command::EndTurn, Command::Begin, Command::Pass];
        let i = pref
            .iter()
            .find_map(|c| self.buf.iter().position(|a| a.command == *c))
            .unwrap_or(0);
        (i < self.buf.len()).then(|| self.buf.swap_remove(i))
    }

    fn name(&self) -> &str {
        "heuristic"
    }

    fn new_combat(&mut self) {
        self.planned = None;
    }
}

/// One action the turn may take, and where to take it from: with the plan the check gave it
/// there, when that is the current square and the decision has checked it there already.
struct Intent {
    score: f64,
    from: Pos,
    action: Action,
    plan: Option<Plan>,
}

/// How much more the heuristic values an attack that can finish its target (a Finisher against
/// an Exhausted target, or one the hit would push over its Tolerance).
const FINISHER_WEIGHT: f64 = 1.6;

/// The best intent of a decision so far: one replaces it only when it scores more (by more
/// than rounding), so among equal intents the first one considered stays.
#[derive(Default)]
struct Best(Option<Intent>);

impl Best {
    fn consider(&mut self, p: Intent) {
        if self.bettered_by(p.score) {
            self.0 = Some(p);
        }
    }

    /// Whether an intent scoring `score` would replace the one in hand. One whose score can
    /// only come out at or below a bound for which this is false is never chosen, so the
    /// decision skips looking for a square to take it from.
    fn bettered_by(&self, score: f64) -> bool {
        self.0.as_ref().is_none_or(|b| score > b.score + 1e-9)
    }
}

impl Heuristic {
    fn decide(&mut self, s: &State) -> Option<Choice> {
        let st = stage(s)?;
        let command = match st {
            Stage::Defence {
                defender,
                user,
                ability,
            } => {
                let d = best_defence(s, defender, user, s.setup.book.get(ability));
                // A Buff that helps defences is spent on the first attack that may land.
                if let Some(b) = s.ch(defender).buff {
                    let with = Command::DefendWith(d, b.ability);
                    if let Some(plan) = check::plan_in(s, &st, &with) {
                        return Some(Choice::Planned(Answer::new(with, plan)));
                    }
                }
                Command::Defend(d)
            }
            Stage::Trigger { ability, .. } => Command::Trigger(ability),
            Stage::Reroll { .. } => Command::Reroll,
            Stage::MovePrompt { who, budget, toward } => return self.prompt_move(s, who, budget, toward),
            Stage::BuffReplace { .. } => Command::Accept,
            Stage::Keep { creator, cost, .. } | Stage::Upkeep { creator, cost, .. } => {
                // Pay only while it does not make the creator Frayed.
                let c = s.ch(creator);
                if c.stress + cost <= c.st {
                    Command::Keep
                } else {
                    Command::Release
                }
            }
            Stage::Slot { .. } => Command::Begin,
            Stage::Place { who } => self.place(s, who)?,
            Stage::Stance { who } => return Some(stance(s, who)),
            Stage::Turn { who, dash: true } => return self.close_in(s, who).or_else(|| Some(stance(s, who))),
            Stage::Turn { who, dash: false } if s.phase == Phase::Rounds => return self.turn(s, who),
            Stage::Turn { .. } => Command::EndTurn,
        };
        Some(command.into())
    }

    /// A move offered inside resolution: toward the ally being attacked (ending next to it,
    /// ideally between it and the attacker), or, for a follow-up, next to the nearest enemy.
    fn prompt_move(&mut self, s: &State, who: Cid, budget: i16, toward: Option<Cid>) -> Option<Choice> {
        let from = s.ch(who).pos?;
        let ctx = check::MoveCtx::new(s, who);
        let reach = ctx.destinations(from, budget, &mut self.scratch);
        let goal = match toward {
            Some(t) => s.ch(t).pos?,
            None => s
                .ids()
                .filter(|&e| s.enemies(who, e) && s.ch(e).able())
                .filter_map(|e| s.ch(e).pos)
                .min_by_key(|q| calc::distance(s, from, *q))?,
        };
        let best = reach
            .into_iter()
            .map(|(p, c)| (calc::distance(s, p, goal), c, p))
            .filter(|(d, _, _)| *d < calc::distance(s, from, goal))
            .min_by_key(|(d, c, p)| (*d, *c, p.y, p.x));
        // The check finds the path to the square chosen, and the move resolves along it.
        if let Some((_, _, p)) = best
            && let Some(plan) = check::plan_of(s, &Command::Move(p))
        {
            return Some(Choice::Planned(Answer::new(Command::Move(p), plan)));
        }
        Some(Command::Pass.into())
    }

    fn place(&mut self, s: &State, me: Cid) -> Option<Command> {
        let want = preferred_range(s, me);
        let enemies: Vec<Pos> = s
            .ids()
            .filter(|&e| s.enemies(me, e))
            .filter_map(|e| s.ch(e).pos)
            .collect();
        s.setup
            .map
            .positions()
            .filter(|p| check::allowed(s, &Command::Place(*p)))
            .min_by_key(|p| {
                let d = enemies.iter().map(|e| chebyshev(*p, *e) as i16).min().unwrap_or(0);
                ((d - want).abs(), p.y, p.x)
            })
            .map(Command::Place)
    }

    fn turn(&mut self, s: &State, me: Cid) -> Option<Choice> {
        let here = s.ch(me).pos?;
        let can_act = !(s.turn.stunned && s.options.draft_stunned && s.turn.moved);
        if !can_act {
            return Some(stance(s, me));
        }
        if let Some((round, who, uses, from, action)) = self.planned.take()
            && (round, who, uses, Some(from)) == (s.round, me, s.uses, s.ch(me).pos)
        {
            let cmd = Command::Act(action);
            if let Some(plan) = check::plan_of(s, &cmd) {
                return Some(Choice::Planned(Answer::new(cmd, plan)));
            }
        }
        // Squares reachable this turn (the current one included), found as far as asked for.
        let can_move = !(s.turn.stunned && s.options.draft_stunned && s.turn.acted);
        let memory = std::mem::take(&mut self.memory);
        let mut scan = Scan::new(s, me, here, can_move, &mut self.scratch, memory);
        let plan = self.plan_turn(s, me, here, &mut scan);
        self.memory = scan.into_memory();
        plan
    }
}

/// The stance to take now (or `end` to keep the current one).
fn stance(s: &State, me: Cid) -> Choice {
    let here = s.ch(me).pos;
    let adjacent_enemy = here.is_some_and(|p| adjacent_enemies_at(s, me, p) > 0);
    let mut choice: Option<u16> = None;
    let stances: crate::inline::Inline<u16, 8> = legal::abilities_of(s, me)
        .iter()
        .copied()
        .filter(|id| s.setup.book.get(*id).kind == Kind::Stance)
        .collect();
    let by_id = |name: &str| stances.iter().copied().find(|id| s.setup.book.get(*id).id == name);
    // An Art stance with a trigger against attackers (Parry and Riposte) when in melee.
    for &id in &stances {
        let a = s.setup.book.get(id);
        if !a.basic && (a.trigger.is_some() && adjacent_enemy || a.trigger.is_none() && !a.modifiers.is_empty()) {
            choice = Some(id);
            break;
        }
    }
    if choice.is_none() && !adjacent_enemy {
        // Protect an ally who is in melee.
        let ally_in_melee = s.ids().any(|o| {
            s.allies(me, o)
                && s.ch(o).able()
                && s.ch(o)
                    .pos
                    .zip(here)
                    .is_some_and(|(q, p)| chebyshev(p, q) == 1 && adjacent_enemies_at(s, me, q) > 0)
        });
        if ally_in_melee {
            choice = by_id("protect");
        }
    }
    if choice.is_none() {
        let st = &s.info(me).stats;
        // Dodge doubles Evasion's Boon; Brace helps Resilience.
        let evasion_ok = s.ch(me).status(XStatus::Slowed) == 0;
        choice = if evasion_ok && st.evasion + 1 >= st.resilience {
            by_id("dodge")
        } else {
            by_id("brace")
        };
    }
    if let Some(id) = choice
        && s.ch(me).stance != Some(id)
        && let Some(plan) = check::plan_of(s, &Command::Stance(id))
    {
        return Choice::Planned(Answer::new(Command::Stance(id), plan));
    }
    Command::EndTurn.into()
}
