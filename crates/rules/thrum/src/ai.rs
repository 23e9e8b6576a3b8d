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

/// Probabilities of the four contest results.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContestOdds {
    /// Attacker wins by the margin or more.
    pub attacker_critical: f64,
    /// Attacker wins by less than the margin.
    pub attacker_success: f64,
    /// Defender wins by less than the margin (ties included under the default tie rule).
    pub defender_success: f64,
    /// Defender wins by the margin or more.
    pub defender_critical: f64,
}

impl ContestOdds {
    /// Probability that the attack hits.
    pub fn hit(&self) -> f64 {
        self.attacker_critical + self.attacker_success
    }
}

/// For every pair of net Boons (attacker, defender) in -8..=8: the cumulative distribution of
/// (attacker's kept dice − defender's kept dice), which runs from -10 to 10. `ge[k]` is
/// P(diff ≥ k − 10). Built once from the exact distributions.
struct DiffTable {
    ge: Vec<[f64; 22]>,
}

fn diff_table() -> &'static DiffTable {
    static T: OnceLock<DiffTable> = OnceLock::new();
    T.get_or_init(|| {
        let rows: Vec<[f64; 13]> = (-8..=8)
            .map(|net| {
                let d = crate::resolve::dist2d6(net);
                let mut row = [0.0; 13];
                for (v, c) in d.iter() {
                    if (0..=12).contains(&v) {
                        row[v as usize] = c as f64 / d.total() as f64;
                    }
                }
                row
            })
            .collect();
        let mut ge = Vec::with_capacity(17 * 17);
        for a in &rows {
            for d in &rows {
                let mut pdf = [0.0f64; 21];
                for (x, pa) in a.iter().enumerate() {
                    for (y, pd) in d.iter().enumerate() {
                        if *pa > 0.0 && *pd > 0.0 {
                            pdf[(x as i32 - y as i32 + 10) as usize] += pa * pd;
                        }
                    }
                }
                let mut cum = [0.0f64; 22];
                for k in (0..21).rev() {
                    cum[k] = cum[k + 1] + pdf[k];
                }
                ge.push(cum);
            }
        }
        DiffTable { ge }
    })
}

/// The odds of a Thrum contest. `reroll_ties` renormalises away the ties.
pub fn contest_odds(
    att_net: i16,
    att_mod: i16,
    def_net: i16,
    def_mod: i16,
    margin: i16,
    defence_margin: i16,
    reroll_ties: bool,
) -> ContestOdds {
    let t = diff_table();
    let row = &t.ge[((att_net.clamp(-8, 8) + 8) * 17 + def_net.clamp(-8, 8) + 8) as usize];
    let delta = att_mod - def_mod;
    // P(kept diff + delta >= k) = P(kept diff >= k - delta).
    let p_ge = |k: i16| -> f64 {
        let idx = (k - delta + 10).clamp(0, 21) as usize;
        row[idx]
    };
    let m = margin.max(1);
    let attacker_critical = p_ge(m);
    let attacker_success = p_ge(1) - attacker_critical;
    let tie = p_ge(0) - p_ge(1);
    let defender_critical = 1.0 - p_ge(-defence_margin.max(1) + 1);
    let defender_success = 1.0 - attacker_critical - attacker_success - defender_critical - tie;
    let mut o = ContestOdds {
        attacker_critical,
        attacker_success,
        defender_success,
        defender_critical,
    };
    if reroll_ties && tie < 1.0 {
        let k = 1.0 / (1.0 - tie);
        o.attacker_critical *= k;
        o.attacker_success *= k;
        o.defender_success *= k;
        o.defender_critical *= k;
    } else {
        o.defender_success += tie;
    }
    o
}

/// The odds of an attack by `user` with ability `a` against `target` defending with `d`,
/// from the user's current square, before any triggers.
pub fn attack_odds(s: &State, user: Cid, a: &Ability, target: Cid, d: Defence) -> ContestOdds {
    let att_net = calc::attack_tally(s, user, a, target).net(s);
    attack_odds_with(s, user, a, target, d, att_net)
}

/// The odds against a declined defence: the attack succeeds, without a roll.
const DECLINED: ContestOdds = ContestOdds {
    attacker_critical: 0.0,
    attacker_success: 1.0,
    defender_success: 0.0,
    defender_critical: 0.0,
};

fn attack_odds_with(s: &State, user: Cid, a: &Ability, target: Cid, d: Defence, att_net: i16) -> ContestOdds {
    if d == Defence::Decline {
        return DECLINED;
    }
    let att_mod = calc::attack_modifier(s, user, a);
    let (margin, defence_margin) = calc::margins(s, user, a);
    let (def_tally, def_mod) = calc::defence_roll(s, target, d, user);
    let def_net = def_tally.net(s);
    contest_odds(
        att_net,
        att_mod,
        def_net,
        def_mod,
        margin,
        defence_margin,
        s.options.tie_rule == crate::options::TieRule::Reroll,
    )
}

/// Expected Fatigue plus Stress an ability deals on a hit and on a critical (first-order).
fn damage(s: &State, user: Cid, a: &Ability) -> (f64, f64) {
    let sum = |lines: &[crate::ability::Line]| -> f64 {
        lines
            .iter()
            .map(|l| match &l.op {
                Op::Fatigue(x) | Op::Stress(x) if s.info(user).stats.tier >= l.min_tier as i16 => {
                    calc::eval(s, user, x) as f64
                }
                Op::Condition(_) | Op::Status(..) => 0.3,
                _ => 0.0,
            })
            .sum()
    };
    let hit = sum(&a.success);
    let crit = if a.critical_replaces {
        sum(&a.critical)
    } else {
        hit + sum(&a.critical)
    };
    (hit, crit)
}

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

    /// The turn's decision, with the scan of its squares.
    fn plan_turn(&mut self, s: &State, me: Cid, here: Pos, scan: &mut Scan) -> Option<Choice> {
        let mut best = Best::default();
        let c = s.ch(me);
        // Exhaustion: Recover when it ends Exhaustion (and so the Incapacity Roll). When only
        // attacks call for that roll (incapacity-after-any-action = false, THR-R167), a Recover
        // that leaves the character Exhausted only puts the roll off: taken every turn it would
        // keep a character that is far past its Tolerance up for good, and the fight would never
        // end, so it is not considered then.
        if c.exhausted() {
            if let Some(id) = s.setup.book.find("recover")
                && calc::has_ability(s, me, id)
                && (c.fatigue == c.ft + 1 || s.options.incapacity_after_any_action)
            {
                let action = Action {
                    ability: id,
                    target: Target::None,
                    pick: Pick {
                        option: Some(0),
                        ..Pick::default()
                    },
                    overexert: None,
                };
                let score = if c.fatigue == c.ft + 1 { 5.0 } else { 1.2 };
                best.consider(Intent {
                    score,
                    from: here,
                    action,
                    plan: None,
                });
            }
        } else if c.frayed()
            && let Some(id) = s.setup.book.find("recover")
            && calc::has_ability(s, me, id)
        {
            let action = Action {
                ability: id,
                target: Target::None,
                pick: Pick {
                    option: Some(1),
                    ..Pick::default()
                },
                overexert: None,
            };
            best.consider(Intent {
                score: 0.7,
                from: here,
                action,
                plan: None,
            });
        }
        self.utility(s, me, scan, &mut best);
        for &id in legal::abilities_of(s, me) {
            let a = s.setup.book.get(id);
            if a.kind != Kind::Action {
                continue;
            }
            match &a.target {
                TargetSpec::IncapacitatedAlly | TargetSpec::IncapacitatedEnemy => {
                    let ally = matches!(a.target, TargetSpec::IncapacitatedAlly);
                    for t in s.ids() {
                        let ok = if ally { s.allies(me, t) } else { s.enemies(me, t) };
                        if !ok || !s.ch(t).incapacitated || s.ch(t).removed {
                            continue;
                        }
                        let score = if ally { 2.5 } else { 3.0 };
                        if !best.bettered_by(score) {
                            continue;
                        }
                        let action = Action {
                            ability: id,
                            target: Target::Chars([t].into_iter().collect()),
                            pick: Pick::default(),
                            overexert: None,
                        };
                        if let Some((from, plan)) = from_square(s, me, scan, &action) {
                            best.consider(Intent {
                                score,
                                from,
                                action,
                                plan,
                            });
                        }
                    }
                }
                _ if a.is_attack() => self.attacks(s, me, id, scan, &mut best),
                _ => {}
            }
        }
        if let Some(intent) = best.0 {
            if intent.from != here {
                self.planned = Some((s.round, me, s.uses, intent.from, intent.action));
                // `intent.from` is one of this decision's reachable squares.
                return Some(scan.move_to(s, intent.from));
            }
            // An Action from here: its plan when the decision checked it here already.
            let act = Command::Act(intent.action);
            return Some(match intent.plan {
                Some(plan) => Choice::Planned(Answer::new(act, plan)),
                None => act.into(),
            });
        }
        // Nothing to do from here: close in, or Dash when that helps.
        if let Some((here, want, now)) = closing(s, me)
            && let Some(to) = closest(s, me, here, want, now, scan.all_squares())
        {
            return Some(scan.move_to(s, to));
        }
        if let Some(id) = s.setup.book.find("dash")
            && nearest_enemy_distance(s, me, here) > preferred_range(s, me)
        {
            let action = Action {
                ability: id,
                target: Target::None,
                pick: Pick::default(),
                overexert: None,
            };
            let dash = Command::Act(action);
            if let Some(plan) = check::plan_of(s, &dash) {
                return Some(Choice::Planned(Answer::new(dash, plan)));
            }
        }
        Some(stance(s, me))
    }

    /// Actions that are not attacks: Buffs on allies in melee, Terrain Effects on enemies,
    /// hiding when no foe is near.
    fn utility(&mut self, s: &State, me: Cid, scan: &mut Scan, best: &mut Best) {
        let here = match s.ch(me).pos {
            Some(p) => p,
            None => return,
        };
        for &id in legal::abilities_of(s, me) {
            let a = s.setup.book.get(id);
            if a.kind != Kind::Action || a.is_attack() {
                continue;
            }
            if a.buff_spec.is_some() {
                // The ally (or self) in melee with no Buff, nearest first.
                let mut chosen: Option<(f64, Action, Pos, Option<Plan>)> = None;
                for t in s
                    .ids()
                    .filter(|&t| (t == me || s.allies(me, t)) && s.ch(t).able() && s.ch(t).buff.is_none())
                {
                    let Some(tp) = s.ch(t).pos else { continue };
                    let threat = adjacent_enemies_at(s, t, tp) as f64;
                    if threat == 0.0 {
                        continue;
                    }
                    let action = Action {
                        ability: id,
                        target: Target::Chars([t].into_iter().collect()),
                        pick: Pick::default(),
                        overexert: None,
                    };
                    let score = 0.6 + 0.2 * threat;
                    // A Buff no better than the plan in hand, or than the ally chosen so far,
                    // is not chosen wherever it could be given from.
                    if !best.bettered_by(score) || chosen.as_ref().is_some_and(|b| score <= b.0) {
                        continue;
                    }
                    if let Some((from, plan)) = from_square(s, me, scan, &action) {
                        chosen = Some((score, action, from, plan));
                    }
                }
                if let Some((score, action, from, plan)) = chosen {
                    best.consider(Intent {
                        score,
                        from,
                        action,
                        plan,
                    });
                }
                continue;
            }
            if let Some(spec) = &a.terrain {
                // Not when this character already keeps an effect of the same ability up.
                if s.terrain.iter().any(|t| t.creator == me && t.ability == id) {
                    continue;
                }
                let enemies: Vec<Pos> = s
                    .ids()
                    .filter(|&e| s.enemies(me, e) && s.ch(e).able())
                    .filter_map(|e| s.ch(e).pos)
                    .collect();
                let allies_hurt = matches!(spec.affects, crate::ability::Affects::All);
                let candidates = match a.target {
                    TargetSpec::Aura(_) => vec![placement(id, Target::None)],
                    _ => placements(s, me, id, enemies.iter().copied()),
                };
                let aura = matches!(a.target, TargetSpec::Aura(_));
                // The score of a placement covering `sq`: enemies caught in it or next to it,
                // allies caught in it when it hurts them.
                let score_of = |sq: &[Pos]| {
                    let caught = enemies
                        .iter()
                        .filter(|e| sq.contains(e) || sq.iter().any(|q| chebyshev(*q, **e) == 1))
                        .count() as f64;
                    let own = if allies_hurt {
                        s.ids()
                            .filter(|&o| s.allies(me, o))
                            .filter_map(|o| s.ch(o).pos)
                            .filter(|p| sq.contains(p))
                            .count() as f64
                    } else {
                        0.0
                    };
                    0.35 * caught - 0.5 * own
                };
                for action in candidates {
                    // Only an Aura's squares depend on where it is made from: any other
                    // placement's score is known first, and one that cannot be taken (too low,
                    // or no better than the plan in hand) is not looked for a square for.
                    let early =
                        (!aura).then(|| score_of(&check::shape_squares(s, me, &action, here).unwrap_or_default()));
                    if early.is_some_and(|score| score <= 0.3 || !best.bettered_by(score)) {
                        continue;
                    }
                    let Some((from, _)) = from_square(s, me, scan, &action) else {
                        continue;
                    };
                    let score = match early {
                        Some(score) => score,
                        None => score_of(&check::shape_squares(s, me, &action, from).unwrap_or_default()),
                    };
                    if score > 0.3 {
                        // Keep up an upkeep Overexert only while it cannot fray the user.
                        let over = a
                            .overexert
                            .iter()
                            .position(|o| o.upkeep)
                            .filter(|_| s.ch(me).stress + s.options.overexert_stress < s.ch(me).st);
                        let action = Action {
                            overexert: over.map(|i| i as u8),
                            ..action
                        };
                        // The Overexert may change the check: the Action is checked again here.
                        let plan = if from == here {
                            check::plan_of(s, &Command::Act(action.clone()))
                        } else {
                            None
                        };
                        if plan.is_some() || from != here {
                            best.consider(Intent {
                                score,
                                from,
                                action,
                                plan,
                            });
                        }
                    }
                }
                continue;
            }
            // Hiding (Slip Away): only when no foe is close.
            let hides = a
                .effect
                .iter()
                .any(|l| matches!(l.op, Op::Condition(crate::ability::Cond::Hidden)));
            if hides && !s.ch(me).has(crate::ability::Cond::Hidden) && nearest_enemy_distance(s, me, here) > 2 {
                let action = Action {
                    ability: id,
                    target: Target::None,
                    pick: Pick::default(),
                    overexert: None,
                };
                if let Some(plan) = check::plan_of(s, &Command::Act(action.clone())) {
                    best.consider(Intent {
                        score: 0.5,
                        from: here,
                        action,
                        plan: Some(plan),
                    });
                }
            }
        }
    }

    fn attacks(&mut self, s: &State, me: Cid, id: u16, scan: &mut Scan, best: &mut Best) {
        let a = s.setup.book.get(id);
        let (hit_dmg, crit_dmg) = damage(s, me, a);
        let value = |t: Cid, odds: &ContestOdds| -> f64 {
            let ch = s.ch(t);
            let mut v = odds.attacker_success * hit_dmg + odds.attacker_critical * crit_dmg;
            // Finishing an Exhausted target, or pushing one over its Tolerance, is worth more.
            if a.finisher && (ch.exhausted() || ch.fatigue as f64 + hit_dmg > ch.ft as f64) {
                v *= FINISHER_WEIGHT;
            }
            if ch.incapacitated {
                v *= 0.1;
            }
            v
        };
        if a.target.is_shape() {
            // Areas: try placements that cover each enemy; friendly fire counts against.
            let foes = s
                .ids()
                .filter(|&e| s.enemies(me, e) && s.ch(e).able())
                .filter_map(|e| s.ch(e).pos);
            for action in placements(s, me, id, foes) {
                // Who a placement catches, and so its score, does not depend on the square
                // it is made from: one not worth taking is not placed.
                let Ok(hit) = action_targets(s, me, &action) else {
                    continue;
                };
                let mut score = 0.0;
                for &t in &hit {
                    let odds = scan.odds(s, me, a, t);
                    let v = value(t, &odds);
                    score += if s.enemies(me, t) { v } else { -1.5 * v.max(0.5) };
                }
                let worth_placing = score > 0.05 && best.bettered_by(score);
                if !worth_placing {
                    continue;
                }
                let Some((from, plan)) = from_square(s, me, scan, &action) else {
                    continue;
                };
                best.consider(Intent {
                    score,
                    from,
                    action,
                    plan,
                });
            }
            return;
        }
        // Against any target the attack is worth at most its better outcome (a hit or a
        // critical, times `FINISHER_WEIGHT` for a Finisher): when that cannot beat the plan in
        // hand, no target's odds are worked out. The small margin covers rounding in the
        // weighted sum of `value`.
        let ceiling = hit_dmg.max(crit_dmg).max(0.0) * if a.finisher { FINISHER_WEIGHT } else { 1.0 };
        if !best.bettered_by(ceiling + 1e-6) {
            return;
        }
        for t in s.ids() {
            if !s.enemies(me, t) || !check::targetable(s, t) || s.ch(t).incapacitated {
                continue;
            }
            let target = match a.target {
                TargetSpec::Enemy | TargetSpec::Character | TargetSpec::UpToEnemies(_) => {
                    Target::Chars([t].into_iter().collect())
                }
                TargetSpec::AllEnemies => Target::None,
                _ => continue,
            };
            // The attack's worth against `t` is known before any square is looked at; a
            // square can only lower it (a Ranged user next to enemies), so an attack worth no
            // more than the plan in hand is passed over.
            let odds = scan.odds(s, me, a, t);
            let worth = value(t, &odds);
            if !best.bettered_by(worth) {
                continue;
            }
            let mut picks = legal::pick_candidates(s, me, id, &target);
            picks.sort_by_key(|p| pick_rank(s, a, t, p));
            for pick in picks {
                let action = Action {
                    ability: id,
                    target: target.clone(),
                    pick,
                    overexert: None,
                };
                let Some((from, plan)) = from_square(s, me, scan, &action) else {
                    continue;
                };
                let mut score = worth;
                // Ranged attacks in melee take Banes: the square choice already counted them
                // for the current square; prefer not to stand next to enemies.
                if a.ranged && from != s.ch(me).pos.unwrap_or(from) {
                    score -= 0.05 * adjacent_enemies_at(s, me, from) as f64;
                }
                best.consider(Intent {
                    score,
                    from,
                    action,
                    plan,
                });
                break;
            }
        }
    }

    /// A move toward the nearest enemy when it is farther than the preferred range, after the
    /// Action (the only move of the decision, so its squares are searched here): with the path
    /// read off that search when a `move` is open now (as [`Scan::move_to`]).
    fn close_in(&mut self, s: &State, me: Cid) -> Option<Choice> {
        let (here, want, now) = closing(s, me)?;
        let Some(mut reach) = check::LevelReach::new(s, me, &mut self.memory.levels) else {
            let found = check::reachable(s, me, &mut self.scratch);
            return closest(s, me, here, want, now, &found).map(|to| Command::Move(to).into());
        };
        let mut squares = Vec::new();
        while reach.next_level(&mut squares) {}
        let choice = closest(s, me, here, want, now, &squares).map(|to| match reach.move_plan(to) {
            Some(plan) if check::may_move(s) => Choice::Planned(Answer::new(Command::Move(to), plan)),
            _ => Command::Move(to).into(),
        });
        self.memory.levels = reach.into_memory();
        choice
    }
}

/// Whether `me` would close in on the nearest enemy at all: it has movement left and stands
/// farther than its preferred range. Where it stands, that range and the distance now.
fn closing(s: &State, me: Cid) -> Option<(Pos, i16, i16)> {
    let here = s.ch(me).pos?;
    if check::movement_left(s) <= 0 {
        return None;
    }
    let want = preferred_range(s, me);
    let now = nearest_enemy_distance(s, me, here);
    (now > want).then_some((here, want, now))
}

/// The square of `squares` (reachable ones, with their costs) a move closing in goes to, when
/// one is nearer the preferred range than `here` (see [`closing`]): the nearest, then the
/// cheapest, then the first in grid order.
fn closest(s: &State, me: Cid, here: Pos, want: i16, now: i16, squares: &[(Pos, u32)]) -> Option<Pos> {
    let best = squares
        .iter()
        .copied()
        .filter(|(p, _)| *p != here)
        .map(|(p, c)| ((nearest_enemy_distance(s, me, p) - want).max(0), c, p))
        .min_by_key(|(d, c, p)| (*d, *c, p.y, p.x))?;
    ((best.0) < (now - want)).then_some(best.2)
}

/// The Action of ability `id` with `target` and no pick or Overexert.
fn placement(id: u16, target: Target) -> Action {
    Action {
        ability: id,
        target,
        pick: Pick::default(),
        overexert: None,
    }
}

/// The placements of shape ability `id` to weigh: those of [`shape_options`] covering each of
/// the squares `at` in turn, each listed once. A placement covering two of them would score the
/// same twice, and only a higher score replaces the plan in hand.
fn placements(s: &State, me: Cid, id: u16, at: impl IntoIterator<Item = Pos>) -> Vec<Action> {
    let mut out: Vec<Action> = Vec::new();
    for p in at {
        for target in shape_options(s, me, id, p) {
            if !out.iter().any(|a| a.target == target) {
                out.push(placement(id, target));
            }
        }
    }
    out
}

/// Ranks the picks of a choice: an option that puts a status the target does not have yet
/// (Slowed takes away its Evasion) comes first; then the listed order.
fn pick_rank(s: &State, a: &Ability, t: Cid, pick: &Pick) -> u8 {
    let Some(i) = pick.option else { return 1 };
    let choice = a.effect.iter().chain(&a.success).find_map(|l| match &l.op {
        Op::Choose(c) => c.get(i as usize),
        _ => None,
    });
    let new_status = choice.is_some_and(|c| {
        c.ops
            .iter()
            .any(|l| matches!(l.op, Op::Status(x, _) if s.ch(t).status(x) == 0))
    });
    if new_status { 0 } else { 1 }
}

fn shape_options(s: &State, me: Cid, id: u16, ep: Pos) -> Vec<Target> {
    let a = s.setup.book.get(id);
    let size = check::area_size(
        s,
        me,
        &Action {
            ability: id,
            target: Target::None,
            pick: Pick::default(),
            overexert: None,
        },
    )
    .max(1);
    match a.target {
        TargetSpec::Area(_) => {
            let mut v = Vec::new();
            for dy in 0..size {
                for dx in 0..size {
                    v.push(Target::Area(Pos::new(ep.x - dx, ep.y - dy)));
                }
            }
            v
        }
        TargetSpec::Aura(_) => vec![Target::None],
        _ => legal::target_candidates(s, me, id, size)
            .into_iter()
            .filter(|t| {
                let act = Action {
                    ability: id,
                    target: t.clone(),
                    pick: Pick::default(),
                    overexert: None,
                };
                check::shape_squares(s, me, &act, s.ch(me).pos.unwrap_or(ep)).is_some_and(|sq| sq.contains(&ep))
            })
            .collect(),
    }
}

/// What one turn decision knows about the squares it could act from, so that the many candidate
/// actions it weighs share the work: the reachable squares in the order they are tried (cheapest
/// first, the current square before others of the same cost), one copy of the state to try them
/// on, and each square's safety, worked out the first time it is asked for.
struct Scan<'a> {
    here: Pos,
    /// No square of the scan is more than this many king steps from `here`: every step costs
    /// at least 1 (THR-R51) and the scan lists squares within the movement left.
    radius: i16,
    /// The search that finds the rest, a cost at a time (kept once all are found: the path
    /// of a move to the square chosen is read off it, [`Scan::move_to`]).
    reach: Option<check::LevelReach<'a>>,
    /// Whether every reachable square has been found.
    reach_done: bool,
    /// Debug builds: every reachable square in order, from [`check::reachable`], which the
    /// squares found a cost at a time must match.
    #[cfg(debug_assertions)]
    expect: Vec<(Pos, u32)>,
    tmp: Option<State>,
    /// The squares found so far and the scan's tables and lists, in buffers kept between turns.
    mem: ScanMemory,
}

/// The buffers of a [`Scan`], kept by the policy from one turn to the next so a turn allocates
/// nothing once they have grown (each is cleared or refilled when a scan starts).
#[derive(Default)]
struct ScanMemory {
    /// The memory of the search of the reachable squares.
    levels: check::LevelMemory,
    /// The reachable squares found so far, in the order they are tried.
    squares: Vec<(Pos, u32)>,
    /// Per grid square: unknown (`u16::MAX`), or enemies it has cover against in the low byte and
    /// adjacent enemies in the high byte.
    safety: Vec<u16>,
    /// Per (target, grid square): what [`calc::aim_from`] needs about the line from the square
    /// to the target where it stands: bit 0 set once known, bit 1 Obstructed, bit 2 a wall.
    aim: Vec<u8>,
    /// Who stands where, for the many cover checks.
    occ: calc::Occupancy,
    /// Per character: the occupied squares around it for cover checks against the deciding
    /// character ([`calc::around_mask`]), once asked for.
    arounds: Vec<Option<u32>>,
    /// The squares [`from_square`] chose for actions aimed at characters, by what the choice
    /// depends on.
    picked: Vec<(AimKey, crate::command::CharList, Option<Pos>)>,
    /// The able enemies of the deciding character that stand on the map, and where.
    foes: Vec<(Cid, Pos, Option<usize>)>,
    /// Net Boons of the deciding character's attack rolls from where it stands, by target and
    /// by what of the ability they depend on (Ranged, Physical).
    nets: Vec<(Cid, bool, bool, i16)>,
    /// What of the deciding character's attack rolls depends on it alone, for abilities that
    /// are not Ranged and for Ranged ones ([`calc::user_tally`]).
    users: [Option<calc::UserTally>; 2],
    /// Net Boons and modifier of each target's defence rolls against the deciding character,
    /// by target and defence.
    defences: Vec<(Cid, Defence, i16, i16)>,
    /// The odds of the deciding character's attacks from where it stands against the target's
    /// best defence ([`Scan::odds`]), by target, attack roll and defences open.
    odds: Vec<(Cid, AttackRoll, &'static [Defence], ContestOdds)>,
}

/// What the choice of a square for an action aimed at characters depends on besides the
/// targets (see [`from_square`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AimKey {
    range: Option<i16>,
    ranged: bool,
    here_ok: bool,
    obstruction: bool,
}

impl<'a> Scan<'a> {
    /// The scan of `me`'s turn on `here`; `can_move`: whether other squares count at all.
    fn new(
        s: &'a State,
        me: Cid,
        here: Pos,
        can_move: bool,
        scratch: &mut PathScratch,
        mut memory: ScanMemory,
    ) -> Scan<'a> {
        let m = &mut memory;
        m.squares.clear();
        m.squares.push((here, 0));
        let reach = if can_move {
            let reach = check::LevelReach::new(s, me, &mut m.levels);
            if reach.is_none() {
                m.squares.extend(check::reachable(s, me, scratch));
                sort_squares(&mut m.squares, here);
            }
            reach
        } else {
            None
        };
        #[cfg(debug_assertions)]
        let expect = {
            let mut all = vec![(here, 0)];
            if can_move {
                all.extend(check::reachable(s, me, scratch));
            }
            sort_squares(&mut all, here);
            all
        };
        m.safety.clear();
        m.safety.resize(s.setup.map.len(), u16::MAX);
        m.aim.clear();
        m.aim.resize(s.setup.map.len() * s.chars.len(), 0);
        m.occ.fill(s);
        m.arounds.clear();
        m.arounds.resize(s.chars.len(), None);
        m.picked.clear();
        m.foes.clear();
        m.foes.extend(
            s.ids()
                .filter(|&e| s.enemies(me, e) && s.ch(e).able())
                .filter_map(|e| s.ch(e).pos.map(|q| (e, q, s.setup.map.index(q)))),
        );
        m.nets.clear();
        m.users = [None; 2];
        m.defences.clear();
        m.odds.clear();
        Scan {
            here,
            radius: if can_move { check::movement_left(s).max(0) } else { 0 },
            reach,
            reach_done: false,
            #[cfg(debug_assertions)]
            expect,
            tmp: None,
            mem: memory,
        }
    }

    /// The scan's buffers, for the next turn's scan.
    fn into_memory(mut self) -> ScanMemory {
        if let Some(reach) = self.reach.take() {
            self.mem.levels = reach.into_memory();
        }
        self.mem
    }

    /// The `i`-th square to try (cheapest first, the current square first), searching further
    /// only when the squares found so far run out.
    fn square(&mut self, i: usize) -> Option<(Pos, u32)> {
        while i >= self.mem.squares.len() {
            if self.reach_done {
                return None;
            }
            let reach = self.reach.as_mut()?;
            if !reach.next_level(&mut self.mem.squares) {
                self.reach_done = true;
            }
            #[cfg(debug_assertions)]
            {
                let n = self.mem.squares.len();
                assert_eq!(
                    self.mem.squares[..],
                    self.expect[..n],
                    "the squares found a cost at a time"
                );
                if self.reach_done {
                    assert_eq!(self.mem.squares, self.expect, "every square found a cost at a time");
                }
            }
        }
        let sq = self.mem.squares[i];
        debug_assert!(
            chebyshev(self.here, sq.0) as i16 <= self.radius,
            "{sq:?} beyond the scan's radius"
        );
        Some(sq)
    }

    /// The `move` to `to`, one of the squares found: with the plan read off this scan's search
    /// ([`check::LevelReach::move_plan`]) when a `move` is open now at all ([`check::may_move`]:
    /// then the rest of its check holds for every square the search lists), otherwise left to
    /// the check (which refuses it, or finds the path itself where the scan had no search of
    /// costs: a budget beyond it).
    fn move_to(&self, s: &State, to: Pos) -> Choice {
        let plan = self.reach.as_ref().and_then(|r| r.move_plan(to));
        match plan {
            Some(plan) if check::may_move(s) => Choice::Planned(Answer::new(Command::Move(to), plan)),
            _ => Command::Move(to).into(),
        }
    }

    /// Every reachable square, in the order they are tried.
    fn all_squares(&mut self) -> &[(Pos, u32)] {
        let mut i = self.mem.squares.len();
        while self.square(i).is_some() {
            i += 1;
        }
        &self.mem.squares
    }

    /// [`calc::around_mask`] of `t` where it stands against `me`, worked out once per decision
    /// (`None` when `t` is off the map).
    fn around(&mut self, s: &State, me: Cid, t: Cid) -> Option<u32> {
        let at = s.ch(t).pos?;
        Some(*self.mem.arounds[t as usize].get_or_insert_with(|| calc::around_mask(s, me, at)))
    }

    /// The net Boons of `me`'s attack roll with `a` against `t` from where `me` stands
    /// ([`calc::attack_tally`]), worked out once per target for all abilities alike in what the
    /// tally reads of them: whether they are Ranged and whether they are Physical.
    fn attack_net(&mut self, s: &State, me: Cid, a: &Ability, t: Cid) -> i16 {
        let key = (t, a.ranged, a.is_physical());
        let net = match self.mem.nets.iter().find(|n| (n.0, n.1, n.2) == key) {
            Some(n) => n.3,
            None => {
                let user =
                    *self.mem.users[usize::from(a.ranged)].get_or_insert_with(|| calc::user_tally(s, me, a.ranged));
                let around = self.around(s, me, t);
                let net = calc::attack_tally_with(s, me, &user, a.is_physical(), t, around).net(s);
                self.mem.nets.push((key.0, key.1, key.2, net));
                net
            }
        };
        debug_assert_eq!(net, calc::attack_tally(s, me, a, t).net(s));
        net
    }

    /// The odds of `me`'s attack with `a` on `t` from where `me` stands, against the defence
    /// `t` would choose ([`best_defence_odds_by`] with [`Scan::attack_net`] and the defence
    /// rolls worked out once per target and defence), remembered for the decision by what they
    /// depend on: the target, the attack roll and the defences open to the target. Abilities
    /// alike in those share them, and area placements catch the same targets again and again.
    fn odds(&mut self, s: &State, me: Cid, a: &Ability, t: Cid) -> ContestOdds {
        let roll = AttackRoll::of(s, me, a, self.attack_net(s, me, a, t));
        let options = calc::defences(s, t, a);
        if let Some(&(_, _, _, o)) = self.mem.odds.iter().find(|x| x.0 == t && x.1 == roll && x.2 == options) {
            debug_assert_eq!(o, best_defence_odds(s, t, me, a).1);
            return o;
        }
        let defs = &mut self.mem.defences;
        let (_, o) = best_defence_odds_by(s, t, me, a, roll, options, |d| {
            if let Some(&(_, _, net, modifier)) = defs.iter().find(|x| (x.0, x.1) == (t, d)) {
                return (net, modifier);
            }
            let (tally, modifier) = calc::defence_roll(s, t, d, me);
            let net = tally.net(s);
            defs.push((t, d, net, modifier));
            (net, modifier)
        });
        self.mem.odds.push((t, roll, options, o));
        o
    }

    /// [`calc::aim_from`] for `me` standing on `p`, with the facts about the target worked out
    /// once (`aim`, from [`calc::aim_at`]) and the line facts remembered for the rest of the
    /// decision (the state does not change while it is made).
    #[allow(clippy::too_many_arguments)]
    fn aim(&mut self, s: &State, me: Cid, a: &Ability, range: Option<i16>, t: Cid, aim: &calc::AimAt, p: Pos) -> bool {
        let n = s.setup.map.len();
        let Some(k) = s.setup.map.index(p) else {
            return calc::aim_from(s, me, a, range, t, p).is_ok();
        };
        let memo = &mut self.mem.aim[t as usize * n + k];
        let around = &mut self.mem.arounds[t as usize];
        aim.from(s, p, &mut |at| {
            if *memo == 0 {
                let around = *around.get_or_insert_with(|| calc::around_mask(s, me, at));
                let obstructed = calc::cover_check_around(s, p, at, around).obstructed;
                debug_assert_eq!(obstructed, calc::cover_check(s, me, p, at).obstructed);
                let wall = calc::sight_blocked(s, p, at);
                *memo = 1 | u8::from(obstructed) << 1 | u8::from(wall) << 2;
            }
            (*memo & 2 != 0, *memo & 4 != 0)
        })
        .is_ok()
    }

    /// How safe a square is for `me`: +0.25 per enemy it has cover against, −0.4 per adjacent
    /// enemy for a Ranged user (each gives its attacks a Bane).
    fn position_score(&mut self, s: &State, p: Pos, ranged: bool) -> f64 {
        let Some(k) = s.setup.map.index(p) else { return 0.0 };
        if self.mem.safety[k] == u16::MAX {
            let (mut covered, mut adjacent) = (0u16, 0u16);
            // The map's cover masks when it has them: one look-up per foe.
            let masks = s.setup.cover_masks(s).map(|m| (m.row(s, k), self.mem.occ.around(s, k)));
            for &(e, q, fk) in &self.mem.foes {
                let has = match (masks, fk) {
                    (Some((row, occupied)), Some(fk)) => {
                        let has = row.sources(fk, occupied) != 0;
                        debug_assert_eq!(
                            has,
                            calc::has_cover_with(s, &self.mem.occ, e, q, p),
                            "cover from {q} at {p}"
                        );
                        has
                    }
                    _ => calc::has_cover_with(s, &self.mem.occ, e, q, p),
                };
                if has {
                    covered += 1;
                }
                if chebyshev(p, q) == 1 {
                    adjacent += 1;
                }
            }
            self.mem.safety[k] = covered.min(255) | (adjacent.min(255) << 8);
        }
        let v = self.mem.safety[k];
        let mut score = 0.25 * f64::from(v & 0xff);
        if ranged {
            score -= 0.4 * f64::from(v >> 8);
        }
        score
    }
}

/// Sorts squares by cost, the current square before others of the same cost, keeping the
/// given order otherwise: the stable sort by `(cost, square != here)`, done as a counting sort
/// when the costs are small (movement costs are).
fn sort_squares(squares: &mut Vec<(Pos, u32)>, here: Pos) {
    let key = |(p, c): &(Pos, u32)| 2 * *c as usize + usize::from(*p != here);
    let max = squares.iter().map(key).max().unwrap_or(0);
    if max > 256 {
        squares.sort_by_key(key);
        return;
    }
    let mut start = [0u32; 258];
    for sq in squares.iter() {
        start[key(sq) + 1] += 1;
    }
    for k in 1..start.len() {
        start[k] += start[k - 1];
    }
    let mut out = vec![(here, 0); squares.len()];
    for sq in squares.iter() {
        let slot = &mut start[key(sq)];
        out[*slot as usize] = *sq;
        *slot += 1;
    }
    *squares = out;
}

/// The cheapest reachable square from which the action would be legal (the current square
/// first), checking range and Obstruction with the user moved there; when that is the current
/// square, with the plan the check of the action there gave.
///
/// For actions aimed at characters, whether the action is legal from another square depends
/// only on range, Obstruction and walls as long as the check from the current square fails for
/// one of those reasons or none: the other squares are tried with [`calc::aim_from`] alone and
/// the chosen one is confirmed with the full check (falling back to full checks if it fails).
fn from_square(s: &State, me: Cid, scan: &mut Scan, action: &Action) -> Option<(Pos, Option<Plan>)> {
    let cmd = Command::Act(action.clone());
    let checked = check::check_code(s, &cmd);
    let here_ok = checked.as_ref().map(|_| ()).map_err(|code| *code);
    let p = square_for(s, me, scan, action, &cmd, here_ok)?;
    // The current square is chosen only when the check there passed.
    Some((p, if p == scan.here { checked.ok() } else { None }))
}

/// [`from_square`], with the action as a command and what its check on the current square said.
fn square_for(
    s: &State,
    me: Cid,
    scan: &mut Scan,
    action: &Action,
    cmd: &Command,
    here_ok: Result<(), &'static str>,
) -> Option<Pos> {
    // Refusals that no square can change (not the time for an Action, an ability the user
    // lacks or cannot use, a Stunned user that moved: the copy the other squares are checked
    // on has moved too): every other square would be refused as well.
    if here_ok
        .as_ref()
        .is_err_and(|code| matches!(*code, codes::NOT_NOW | codes::UNKNOWN_ABILITY | codes::STUNNED))
    {
        return None;
    }
    let a = s.setup.book.get(action.ability);
    let stunned_stop = s.turn.stunned && s.options.draft_stunned;
    if stunned_stop {
        // A Stunned character that moves may not take its Action (THR-R218): every other
        // square is refused (they are checked on a copy that has moved), so the current
        // square is the only one.
        return here_ok.is_ok().then_some(scan.here);
    }
    if let Target::Chars(targets) = &action.target
        && !stunned_stop
        && here_ok
            .as_ref()
            .err()
            .is_none_or(|code| *code == codes::OUT_OF_RANGE || *code == codes::OBSTRUCTED)
    {
        let range = range_of(s, me, a);
        // The square chosen depends only on the targets, the range, whether the user is Ranged,
        // whether Obstruction applies and whether the current square works: actions alike in
        // those share one search of the squares.
        let key = AimKey {
            range,
            ranged: a.ranged,
            here_ok: here_ok.is_ok(),
            obstruction: calc::obstruction_applies(s, a),
        };
        let pick = match scan.mem.picked.iter().find(|(k, t, _)| *k == key && t == targets) {
            Some((_, _, p)) => *p,
            None => {
                let aims: smallvec::SmallVec<[(Cid, Option<calc::AimAt>); 4]> =
                    targets.iter().map(|&t| (t, calc::aim_at(s, me, a, range, t))).collect();
                let aimed = |scan: &mut Scan, p: Pos| {
                    aims.iter()
                        .all(|(t, aim)| aim.as_ref().is_some_and(|aim| scan.aim(s, me, a, range, *t, aim, p)))
                };
                // A target out of range of every square the scan could list: no square but the
                // current one can pass, so the squares are not searched.
                let beyond = aims.iter().any(|(_, aim)| {
                    aim.as_ref()
                        .is_none_or(|aim| !aim.may_reach_within(scan.here, scan.radius))
                });
                let p = if beyond {
                    key.here_ok.then_some(scan.here)
                } else {
                    best_square(s, scan, a.ranged, key.here_ok, aimed)
                };
                scan.mem.picked.push((key, targets.clone(), p));
                p
            }
        };
        match pick {
            Some(p) if p == scan.here => return Some(p),
            Some(p) => {
                if aim_decides(s, action, targets, here_ok.is_ok()) {
                    debug_assert!(
                        try_from(s, me, scan, p, cmd),
                        "the full check refuses {cmd:?} from {p}, which aiming alone accepted"
                    );
                    return Some(p);
                }
                if try_from(s, me, scan, p, cmd) {
                    return Some(p);
                }
            }
            None => return None,
        }
    }
    let area_decides = area_decides(s, a, action, &here_ok);
    let here_ok = here_ok.is_ok();
    let range = range_of(s, me, a);
    let chars = match &action.target {
        Target::Chars(l) => Some(l.clone()),
        _ => None,
    };
    // An area must have a square within range of where the user stands (THR-R80): a square
    // failing that fails the full check too, so it is passed over without one.
    let area = match &action.target {
        Target::Area(_) => check::shape_squares(s, me, action, scan.here),
        _ => None,
    };
    let area_in_range = |p: Pos| match (&area, range.unwrap_or(0)) {
        (None, _) => true,
        (Some(sq), 0) => sq.contains(&p),
        (Some(sq), _) => sq.iter().any(|q| calc::in_range_from(s, range, p, *q)),
    };
    // The full check from another square, or for an area that [`area_decides`] covers, what
    // of it depends on the square: some square of the area not Obstructed from it (THR-R129).
    let rolls = calc::rolls(s, a);
    let works_from = |scan: &mut Scan, p: Pos| -> bool {
        if !area_in_range(p) {
            return false;
        }
        match &area {
            Some(sq) if area_decides => {
                let ok = !rolls || sq.iter().any(|q| !calc::obstructed_from(s, me, a, p, *q));
                debug_assert_eq!(ok, try_from(s, me, scan, p, cmd), "{cmd:?} from {p}");
                ok
            }
            _ => try_from(s, me, scan, p, cmd),
        }
    };
    best_square(s, scan, a.ranged, here_ok, |_, p| {
        // A quick range pre-check before the full check on a moved copy.
        if let (Some(r), Some(l)) = (range, &chars)
            && l.iter()
                .any(|t| s.ch(*t).pos.is_none_or(|tp| calc::distance(s, p, tp) > r.max(1)))
        {
            return false;
        }
        true
    })
    .filter(|p| *p == scan.here || works_from(scan, *p))
    .or_else(|| {
        // The quick pass found a square the full check refuses: check every square fully.
        let mut best: Option<(f64, Pos)> = None;
        let mut found = 0;
        let mut i = 0;
        while let Some((p, cost)) = scan.square(i) {
            i += 1;
            let ok = if p == scan.here { here_ok } else { works_from(scan, p) };
            if !ok {
                continue;
            }
            let score = scan.position_score(s, p, a.ranged) - 0.05 * cost as f64;
            if best.is_none_or(|(b, _)| score > b + 1e-9) {
                best = Some((score, p));
            }
            found += 1;
            if found >= FROM_SQUARES {
                break;
            }
        }
        best.map(|(_, p)| p)
    })
}

/// How many squares the action works from are weighed before choosing among them.
const FROM_SQUARES: usize = 6;

/// Among the first [`FROM_SQUARES`] squares (in the scan's order) that pass `ok` (the current
/// square passes when `here_ok`), the safest: cover against more enemies, and (for Ranged
/// users) no enemy next to it; moving costs a little.
fn best_square(
    s: &State,
    scan: &mut Scan,
    ranged: bool,
    here_ok: bool,
    mut ok: impl FnMut(&mut Scan, Pos) -> bool,
) -> Option<Pos> {
    let mut best: Option<(f64, Pos)> = None;
    let mut found = 0;
    let mut i = 0;
    while let Some((p, cost)) = scan.square(i) {
        i += 1;
        let pass = if p == scan.here { here_ok } else { ok(scan, p) };
        if !pass {
            continue;
        }
        let score = scan.position_score(s, p, ranged) - 0.05 * cost as f64;
        if best.is_none_or(|(b, _)| score > b + 1e-9) {
            best = Some((score, p));
        }
        found += 1;
        if found >= FROM_SQUARES {
            break;
        }
    }
    best.map(|(_, p)| p)
}

/// Whether the full check of an Action aimed at characters, with its user moved to a square
/// it may stop on (one of the scan's), accepts it exactly when aiming from that square does
/// ([`calc::aim_from`]), given that the check from the current square accepted it
/// (`here_ok`) or refused it only for range or Obstruction. Then everything else the check
/// asks is answered alike on both squares:
/// - the turn, the ability, its user, Nova and Overexert: the same state (a Stunned user, for
///   whom moving matters, is never tried elsewhere);
/// - stopping on the square: nobody else fills a square of the scan;
/// - the target's kind and side (checked before aiming): one target, the same state;
/// - the pick: statuses and options do not depend on where the user stands, and it is known
///   to pass (`here_ok`, or [`check::pick_allowed`] now). A pick with a direction is left to
///   the full check: whether the shifted target may land depends on the squares the user
///   leaves and takes.
fn aim_decides(s: &State, action: &Action, targets: &[Cid], here_ok: bool) -> bool {
    targets.len() == 1 && action.pick.dir.is_none() && (here_ok || check::pick_allowed(s, action, targets))
}

/// Whether the full check of an Action aimed at an area (`Target::Area`), with its user moved
/// to a square it may stop on (one of the scan's), depends on that square only through the
/// range of the area (THR-R80, the `area_in_range` of [`from_square`]) and whether every square
/// of the area is Obstructed from it (THR-R129), given the check from the current square
/// (`here`) accepted it or refused it only for one of those two. An area is placed by its
/// corner, so its squares do not move with the user; the rest of the check is answered alike on
/// both squares:
/// - the turn, the ability, its user, Nova, Overexert and stopping on the square: as in
///   [`aim_decides`];
/// - the characters caught: the user may stand in the area on one square and not the other,
///   but nothing refuses an Action for whom it catches, only the pick could;
/// - the pick: one with neither a direction nor a status is accepted or refused whoever the
///   area catches, and it is known to pass (`here`, or [`check::pick_allowed`] now).
fn area_decides(s: &State, a: &Ability, action: &Action, here: &Result<(), &'static str>) -> bool {
    matches!((&a.target, &action.target), (TargetSpec::Area(_), Target::Area(_)))
        && action.pick.dir.is_none()
        && action.pick.status.is_none()
        && match here {
            Ok(()) => true,
            Err(code) => {
                (*code == codes::OUT_OF_RANGE || *code == codes::OBSTRUCTED) && check::pick_allowed(s, action, &[])
            }
        }
}

/// The full check of an action with the user moved to `p`.
fn try_from(s: &State, me: Cid, scan: &mut Scan, p: Pos, cmd: &Command) -> bool {
    let tmp = scan.tmp.get_or_insert_with(|| {
        let mut t = s.clone();
        t.turn.moved = true;
        t
    });
    tmp.chars[me as usize].pos = Some(p);
    check::allowed(tmp, cmd)
}

fn adjacent_enemies_at(s: &State, me: Cid, p: Pos) -> usize {
    s.ids()
        .filter(|&e| s.enemies(me, e) && s.ch(e).able() && s.ch(e).pos.is_some_and(|q| chebyshev(p, q) == 1))
        .count()
}

fn nearest_enemy_distance(s: &State, me: Cid, p: Pos) -> i16 {
    s.ids()
        .filter(|&e| s.enemies(me, e) && s.ch(e).able())
        .filter_map(|e| s.ch(e).pos)
        .map(|q| calc::distance(s, p, q))
        .min()
        .unwrap_or(0)
}

/// The range the character likes to fight at: its longest attack range if all its own attacks
/// are Ranged, otherwise 1.
fn preferred_range(s: &State, me: Cid) -> i16 {
    let own: Vec<&Ability> = s
        .info(me)
        .abilities
        .iter()
        .map(|a| s.setup.book.get(*a))
        .filter(|a| a.is_attack())
        .collect();
    if !own.is_empty() && own.iter().all(|a| a.ranged) {
        own.iter().filter_map(|a| range_of(s, me, a)).max().unwrap_or(1).max(1)
    } else {
        1
    }
}

/// The defence with the best chance to avoid the effect; Evasion pays a small price for the
/// Vulnerable it risks.
pub fn best_defence(s: &State, t: Cid, attacker: Cid, a: &Ability) -> Defence {
    best_defence_odds(s, t, attacker, a).0
}

/// [`best_defence`] and the odds of the attack against it (what [`attack_odds`] gives for
/// that defence), from one tally of the attack.
fn best_defence_odds(s: &State, t: Cid, attacker: Cid, a: &Ability) -> (Defence, ContestOdds) {
    best_defence_odds_net(s, t, attacker, a, calc::attack_tally(s, attacker, a, t).net(s))
}

/// [`best_defence_odds`] with the net Boons of the attack roll (`att_net`) already known.
fn best_defence_odds_net(s: &State, t: Cid, attacker: Cid, a: &Ability, att_net: i16) -> (Defence, ContestOdds) {
    let roll = AttackRoll::of(s, attacker, a, att_net);
    best_defence_odds_by(s, t, attacker, a, roll, calc::defences(s, t, a), |d| {
        let (tally, modifier) = calc::defence_roll(s, t, d, attacker);
        (tally.net(s), modifier)
    })
}

/// What the odds of an attack roll depend on besides the defence: its net Boons, its
/// modifier and the two Critical margins ([`calc::margins`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AttackRoll {
    net: i16,
    modifier: i16,
    margin: i16,
    defence_margin: i16,
}

impl AttackRoll {
    /// The roll of `attacker`'s attack with `a`, whose net Boons are `net`.
    fn of(s: &State, attacker: Cid, a: &Ability, net: i16) -> AttackRoll {
        let (margin, defence_margin) = calc::margins(s, attacker, a);
        AttackRoll {
            net,
            modifier: calc::attack_modifier(s, attacker, a),
            margin,
            defence_margin,
        }
    }
}

/// [`best_defence_odds_net`] with the attack's `roll`, the defences `options` open to `t`
/// against it ([`calc::defences`]), and each defence roll's net Boons and modifier given by
/// `defence` (the AI remembers them for the rest of a decision: they depend on the defender, the
/// defence and the attacker, not on the ability). The choice depends on nothing else.
fn best_defence_odds_by(
    s: &State,
    t: Cid,
    attacker: Cid,
    a: &Ability,
    roll: AttackRoll,
    options: &[Defence],
    mut defence: impl FnMut(Defence) -> (i16, i16),
) -> (Defence, ContestOdds) {
    debug_assert_eq!(options, calc::defences(s, t, a));
    debug_assert_eq!(roll, AttackRoll::of(s, attacker, a, roll.net));
    let reroll = s.options.tie_rule == crate::options::TieRule::Reroll;
    options
        .iter()
        .copied()
        .map(|d| {
            let o = if d == Defence::Decline {
                DECLINED
            } else {
                let (def_net, def_mod) = defence(d);
                contest_odds(
                    roll.net,
                    roll.modifier,
                    def_net,
                    def_mod,
                    roll.margin,
                    roll.defence_margin,
                    reroll,
                )
            };
            debug_assert_eq!(o, attack_odds_with(s, attacker, a, t, d, roll.net));
            let mut score = 1.0 - o.hit();
            if d == Defence::Evasion {
                score -= 0.1 * (1.0 - o.defender_critical);
            }
            (d, score, o)
        })
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map_or((Defence::Decline, DECLINED), |(d, _, o)| (d, o))
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
