//! Resolution: turning checked commands into events, and running the combat between decisions.
//!
//! Everything that can wait for a decision is a frame on the state's stack (an attack waiting
//! for Intercept, defences or a block; a readied-action window; the consciousness fortify; the
//! options after a dodge), so a combat can stop at any decision and go on from the record.
//! [`advance`] runs everything automatic until the next decision: frames, turn ends, new rounds
//! and the end of the combat.
//!
//! Dice order (docs/ingenuity.md "Dice order"; tests/dice_order.rs checks it): a test rolls its
//! attribute die, its skill die, then the luck d20, then one die per advantage or disadvantage
//! reroll. An attack: readied actions it sets off, Intercept, the defences declared before the
//! roll (each rolls its test), the attack test, a misfire's pick, then damage, the
//! consciousness fortify and a death check.

use crate::Ingenuity;
use crate::calc;
use crate::check::{self, Plan, action_cost};
use crate::command::{Action, Command, Ruling};
use crate::data::{Attr, Cond, DamageClass, EffectDefence, Lasts};
use crate::event::{AutoStep, AutoWhy, Cost, DefenceKind, Die, Event, Reroll, TestRoll, TurnEnd};
use crate::options::{
    DamageTotal, DeathCheck, DefenceTiming, EndWhen, JoiningTeams, ObjectiveChanges, ParryAddsTo, SizeShift,
};
use crate::setup::{Cid, Objective};
use crate::stage::{Stage, stage};
use crate::state::{
    Attack, AttackKind, AttackStage, Defences, Ext, Frame, Phase, ReadyAction, ReadyWindow, State, Trigger, Walk,
};
use fray_dice::{Dice, Faces};
use fray_engine::resolve::settle;
use fray_engine::{EngineError, Flow, Outcome};
use std::fmt;

/// What resolution works with: the engine's context (the state read-only, changed only by
/// [`fray_engine::Cx::emit`]; the dice; the frame stack through [`crate::event`]'s
/// `Frames` impl).
pub type Cx<'a> = fray_engine::Cx<'a, Ingenuity>;

/// Resolution result.
pub type R = Result<(), EngineError>;

/// Rolls one die.
fn die(dice: &mut dyn Dice, sides: u16, why: &dyn fmt::Display) -> Result<u16, EngineError> {
    let mut f = Faces::new();
    dice.roll(1, sides, why, &mut f)?;
    Ok(f.iter().next().unwrap_or(1))
}

/// Why a die is rolled: "<name>'s <what>", then which die of a test, if any. Formatted only
/// when someone is asked or shown (a seeded roll never formats it).
struct Why<'a>(&'a str, &'a str, Part);

/// Which die of a test is rolled.
#[derive(Clone, Copy)]
enum Part {
    /// A die alone (a luck test, a misfire's pick).
    Whole,
    /// The attribute die, with its sides.
    Attribute(u8),
    /// The skill die, with its sides.
    Skill(u8),
    /// The luck die of a test.
    Luck,
    /// A reroll for advantage or disadvantage, with the sides of the die rerolled.
    Reroll(u8),
}

impl fmt::Display for Why<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}'s {}", self.0, self.1)?;
        match self.2 {
            Part::Whole => Ok(()),
            Part::Attribute(n) => write!(f, " (attribute d{n})"),
            Part::Skill(n) => write!(f, " (skill d{n})"),
            Part::Luck => write!(f, " (luck d20)"),
            Part::Reroll(n) => write!(f, " (reroll d{n})"),
        }
    }
}

/// Rolls a test: attribute die + skill die + `bonus`, the luck die beside it, then rerolls for
/// the net advantage (core rules 1 to 4). `attack`: the luck die never adds +4 (ING-R38).
#[allow(clippy::too_many_arguments)]
pub fn roll_test(
    cx: &mut Cx,
    who: Cid,
    attr_die: u8,
    skill_die: u8,
    bonus: i16,
    advantage: i8,
    attack: bool,
    what: &str,
) -> Result<TestRoll, EngineError> {
    let name = cx.s.name(who);
    let a = die(
        &mut *cx.dice,
        u16::from(attr_die),
        &Why(name, what, Part::Attribute(attr_die)),
    )?;
    let k = die(
        &mut *cx.dice,
        u16::from(skill_die),
        &Why(name, what, Part::Skill(skill_die)),
    )?;
    let luck = die(&mut *cx.dice, 20, &Why(name, what, Part::Luck))?;
    let mut dice = [
        Die {
            sides: attr_die,
            face: a,
        },
        Die {
            sides: skill_die,
            face: k,
        },
    ];
    let mut rerolls = Vec::new();
    for _ in 0..advantage.unsigned_abs() {
        let adv = advantage > 0;
        // Advantage: the die whose reroll gains most on average (ties: the attribute die).
        // Disadvantage: the die showing the highest value (ties: the attribute die).
        let which = if adv {
            let g0 = calc::reroll_gain(dice[0].sides, dice[0].face);
            let g1 = calc::reroll_gain(dice[1].sides, dice[1].face);
            usize::from(g1 > g0 + 1e-12)
        } else {
            usize::from(dice[1].face > dice[0].face)
        };
        let sides = dice[which].sides;
        let new = die(&mut *cx.dice, u16::from(sides), &Why(name, what, Part::Reroll(sides)))?;
        let old = dice[which].face;
        dice[which].face = if adv { old.max(new) } else { old.min(new) };
        rerolls.push(Reroll {
            die: which as u8,
            old,
            new,
            advantage: adv,
        });
    }
    let luck_total = luck as i16 + cx.s.options.luck_modifier + cx.s.info(who).stats.luck_modifier;
    let luck_bonus = if !attack && luck_total >= 20 { 4 } else { 0 };
    let total = dice[0].face as i16 + dice[1].face as i16 + bonus + luck_bonus;
    Ok(TestRoll {
        dice,
        rerolls,
        bonus,
        luck,
        luck_total,
        luck_bonus,
        total,
    })
}

/// A luck test: the luck die alone (core rule 3).
fn luck_test(cx: &mut Cx, who: Cid, what: &str) -> Result<(u16, i16), EngineError> {
    let luck = die(&mut *cx.dice, 20, &Why(cx.s.name(who), what, Part::Whole))?;
    Ok((
        luck,
        luck as i16 + cx.s.options.luck_modifier + cx.s.info(who).stats.luck_modifier,
    ))
}

/// A defensive or other test by name of attribute, skill and proficiency.
fn named_test(
    cx: &mut Cx,
    who: Cid,
    attr: Attr,
    skill: &str,
    prof: &str,
    extra: i16,
    what: &str,
) -> Result<TestRoll, EngineError> {
    let st = &cx.s.info(who).stats;
    let (a, k, p) = (st.attr(attr), st.skill(skill), st.prof(prof));
    roll_test(cx, who, a, k, p + extra, 0, false, what)
}

// ---------------------------------------------------------------------------------------------
// Start, resolve, advance
// ---------------------------------------------------------------------------------------------

/// Starts the combat: the team order, then the surprise round or round 1.
pub fn start(cx: &mut Cx) -> R {
    let order = cx.s.setup.order.clone();
    cx.emit(Event::OrderSet { order });
    if cx.s.setup.surprise.is_some() {
        cx.emit(Event::RoundStarted {
            round: 0,
            surprise: true,
        });
    } else {
        cx.emit(Event::RoundStarted {
            round: 1,
            surprise: false,
        });
    }
    advance(cx)
}

/// Resolves a command with the plan its check gave under `stage` (the
/// [`crate::stage::stage`] it was checked against), then runs on to the next decision. GM
/// rulings are no stage: they are resolved whatever the game waits for.
pub fn resolve(cx: &mut Cx, stage: Option<&Stage>, cmd: &Command, plan: Plan) -> R {
    if let Command::Gm(r) = cmd {
        ruling(cx, r)?;
        return advance(cx);
    }
    let Some(&stage) = stage else {
        return Err(EngineError::Bug("a command when nothing is asked".into()));
    };
    match (stage, cmd) {
        (Stage::Pick { .. }, Command::Pick(c)) => begin_turn(cx, *c)?,
        (Stage::Extended { who }, Command::Continue) => continue_extended(cx, who)?,
        (Stage::Extended { who } | Stage::Turn { who, .. }, Command::Abandon) => {
            let refund = if cx.s.options.refund_abandoned {
                cx.s.ch(who).econ.extended.as_ref().map_or(0, |e| e.cost - e.owed)
            } else {
                0
            };
            let left = cx.s.ch(who).econ.actions;
            cx.emit(Event::ExtendedAbandoned {
                who,
                refund: refund.min(crate::state::ACTIONS_PER_TURN.saturating_sub(left)),
            });
        }
        (Stage::Turn { who, opening }, Command::Act(a)) => {
            if opening {
                cx.emit(Event::OpeningDone);
            }
            act(cx, who, a, None, plan)?;
        }
        (Stage::AfterDodge { who, used }, Command::Act(a)) => after_dodge(cx, who, used, a, plan)?,
        // `pass`: done.
        (Stage::AfterDodge { .. }, Command::Pass) => cx.pop(),
        (Stage::Intercept { .. } | Stage::Defend { .. } | Stage::Block { .. }, _) => attack_decision(cx, stage, cmd)?,
        (Stage::Ready { who, subject }, Command::Fire | Command::Hold) => {
            let Some(Frame::Ready(mut w)) = cx.top().cloned() else {
                return Err(EngineError::Bug("a ready decision without its window".into()));
            };
            w.asked += 1;
            cx.update(Frame::Ready(w));
            if matches!(cmd, Command::Fire) {
                fire(cx, who, subject, plan)?;
            }
        }
        (Stage::Fortify { who, missing }, Command::Fortify | Command::Fall) => {
            cx.pop();
            stay_conscious(cx, who, missing, matches!(cmd, Command::Fortify))?;
        }
        _ => {
            return Err(EngineError::Bug(format!(
                "a command that answers no {} decision",
                stage.kind()
            )));
        }
    }
    advance(cx)
}

/// The way of a move in its plan (the check found it).
fn way(plan: Plan) -> Result<Vec<fray_space::Pos>, EngineError> {
    match plan {
        Plan::Walk(way) => Ok(way),
        Plan::Plain => Err(EngineError::Bug("a move was resolved without its way".into())),
    }
}

/// Runs everything automatic until the next decision or the end.
pub fn advance(cx: &mut Cx) -> R {
    settle(cx, step)
}

/// One automatic step: the top frame, a turn that cannot go on, an opening action that cannot
/// be taken, or a new round; [`Flow::Wait`] at a decision or the end.
fn step(cx: &mut Cx) -> Result<Flow, EngineError> {
    if cx.s.outcome.is_some() || end_check(cx) {
        return Ok(Flow::Wait);
    }
    if let Some(top) = cx.top().cloned() {
        return step_frame(cx, top);
    }
    if let Some(t) = cx.s.turn.clone() {
        let who = t.who;
        if !cx.s.ch(who).able() {
            cx.emit(Event::TurnEnded {
                who,
                how: TurnEnd::Lost,
            });
            return Ok(Flow::Go);
        }
        if t.opening {
            let ok = check::opening_action(&cx.s).is_some_and(|a| check::check_action(&cx.s, who, &a, None).is_ok());
            if !ok {
                // ING-R69: the action that started the fight cannot be taken any more.
                cx.emit(Event::Automatic {
                    who,
                    step: AutoStep::OpeningDropped,
                    why: AutoWhy::NotLegal,
                });
                cx.emit(Event::OpeningDone);
                return Ok(Flow::Go);
            }
        }
        return Ok(Flow::Wait);
    }
    if cx.s.order.team_to_pick(|w| cx.s.can_take_turn(w)).is_some() {
        return Ok(Flow::Wait);
    }
    // ING-R10: every eligible participant has acted: the next round starts at slot 1
    // (`TeamOrder::start_round`).
    new_round(cx)?;
    if cx.s.outcome.is_none() && cx.s.order.team_to_pick(|w| cx.s.can_take_turn(w)).is_none() {
        // Nobody can be given a turn in a fresh round: nothing can ever change.
        let outcome = Outcome {
            winner: None,
            reason: "no-one-can-act".into(),
        };
        cx.emit(Event::Ended { outcome });
        return Ok(Flow::Wait);
    }
    Ok(Flow::Go)
}

fn new_round(cx: &mut Cx) -> R {
    // Conditions lasting "until the end of its next turn" end for those who could not take one.
    for c in cx.s.ids() {
        let until = cx.s.ch(c).conds_until_turn;
        if until != 0 && !cx.s.order.has_acted(c) {
            for cond in Cond::ALL {
                if until & cond.bit() != 0 {
                    cx.emit(Event::Condition {
                        who: c,
                        cond,
                        on: false,
                        until_turn_end: false,
                    });
                }
            }
        }
    }
    // Survive objectives (ING-R13, ING-H1): the rounds have ended with the team standing.
    if cx.s.phase == Phase::Rounds {
        let done = cx.s.round;
        for t in 0..cx.s.setup.teams.len() as u8 {
            if let Some(Objective::Survive { rounds }) = cx.s.objectives.get(t as usize).cloned().flatten()
                && done >= rounds
                && team_standing(&cx.s, t)
            {
                cx.emit(Event::Ended {
                    outcome: Outcome {
                        winner: Some(t),
                        reason: "objective".into(),
                    },
                });
                return Ok(());
            }
        }
    }
    // ING-R17: normal rounds follow the surprise round, starting with round 1.
    let next = if cx.s.phase == Phase::Surprise {
        1
    } else {
        cx.s.round + 1
    };
    cx.emit(Event::RoundStarted {
        round: next,
        surprise: false,
    });
    Ok(())
}

fn team_standing(s: &State, t: u8) -> bool {
    s.ids().any(|c| s.team(c) == t && s.ch(c).standing())
}

/// Ends the combat when an objective is met or one team is left standing (ING-R13, ING-H1).
fn end_check(cx: &mut Cx) -> bool {
    let s = &*cx.s;
    let mut outcome = None;
    for t in 0..s.setup.teams.len() as u8 {
        let met = match s.objectives.get(t as usize).cloned().flatten() {
            Some(Objective::Reach { squares, who }) => s.ids().any(|c| {
                s.team(c) == t
                    && who.is_none_or(|w| w == c)
                    && s.ch(c).standing()
                    && s.ch(c).pos.is_some_and(|p| squares.contains(&p))
            }),
            Some(Objective::Down { who }) => (who as usize) < s.chars.len() && !s.ch(who).standing(),
            _ => false,
        };
        if met {
            outcome = Some(Outcome {
                winner: Some(t),
                reason: "objective".into(),
            });
            break;
        }
    }
    if outcome.is_none() && s.options.end_when == EndWhen::OneTeamStanding {
        let standing: Vec<u8> = (0..s.setup.teams.len() as u8)
            .filter(|t| team_standing(s, *t))
            .collect();
        if standing.len() <= 1 {
            outcome = Some(Outcome {
                winner: standing.first().copied(),
                reason: if standing.is_empty() {
                    "all-down".into()
                } else {
                    "last-team-standing".into()
                },
            });
        }
    }
    match outcome {
        Some(o) => {
            cx.emit(Event::Ended { outcome: o });
            true
        }
        None => false,
    }
}

/// Steps the top frame.
fn step_frame(cx: &mut Cx, top: Frame) -> Result<Flow, EngineError> {
    match top {
        Frame::Attack(a) => attack_step(cx, *a),
        Frame::Walk(w) => walk_step(cx, w),
        Frame::Ready(w) => {
            if let Some(&c) = w.candidates.get(w.asked as usize) {
                let still = cx.s.ch(c).ready.as_ref().is_some_and(|r| r.trigger == w.trigger)
                    && cx.s.ch(w.subject).present()
                    && check::fire_ok(&cx.s, c, w.subject).is_ok();
                if still {
                    return Ok(Flow::Wait);
                }
                let mut w = w;
                w.asked += 1;
                cx.update(Frame::Ready(w));
                return Ok(Flow::Go);
            }
            cx.pop();
            Ok(Flow::Go)
        }
        Frame::Conscious { who, .. } => {
            if !cx.s.ch(who).present() || cx.s.ch(who).unconscious {
                cx.pop();
                return Ok(Flow::Go);
            }
            if check::fortify_to_stay_ok(&cx.s, who) {
                return Ok(Flow::Wait);
            }
            // No reaction or stamina left: unconscious (ING-R60, ING-H8); the log says why.
            let why = check::why_no_reaction(&cx.s, who, false);
            cx.pop();
            cx.emit(Event::Automatic {
                who,
                step: AutoStep::NoFortify,
                why,
            });
            knock_out(cx, who);
            Ok(Flow::Go)
        }
        Frame::AfterDodge { who, used } => {
            let st = stage(&cx.s);
            let any = [Command::Act(Action::DropProne), Command::Act(Action::SeekCover)]
                .iter()
                .any(|c| check::check_in(&cx.s, st.as_ref(), c).is_ok())
                || (used & 4 == 0 && cx.s.ch(who).able());
            if cx.s.ch(who).able() && any {
                return Ok(Flow::Wait);
            }
            cx.pop();
            Ok(Flow::Go)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Turns
// ---------------------------------------------------------------------------------------------

fn begin_turn(cx: &mut Cx, who: Cid) -> R {
    if cx.s.ch(who).ready.is_some() {
        cx.emit(Event::ReadyUsed { who, fired: false });
    }
    cx.emit(Event::TurnStarted { who });
    // The ally-actions debt of Command (ING-H14 alternative) is paid first.
    let owed = cx.s.ch(who).owed;
    if owed > 0 {
        cx.emit(Event::Paid {
            who,
            cost: Cost {
                actions: owed,
                ..Cost::default()
            },
        });
        cx.emit(Event::OwedPaid { who });
    }
    // Readied actions that wait for an enemy's turn (ING-R24).
    ready_window(cx, Trigger::Turn, who, None)?;
    Ok(())
}

/// Asks the readied characters a trigger sets off (ING-R24); those whose trigger it is but who
/// cannot act on it (no reaction left with `ready-uses-reaction`, ING-H15) get a log line saying
/// so.
fn ready_window(cx: &mut Cx, trigger: Trigger, subject: Cid, from: Option<fray_space::Pos>) -> R {
    let cands = check::ready_candidates(&cx.s, trigger, subject, from);
    for c in check::ready_triggered(&cx.s, trigger, subject, from) {
        if !cands.contains(&c) {
            let why = check::why_no_reaction(&cx.s, c, false);
            cx.emit(Event::Automatic {
                who: c,
                step: AutoStep::ReadyNotFired,
                why,
            });
        }
    }
    if !cands.is_empty() {
        cx.push(Frame::Ready(ReadyWindow {
            trigger,
            subject,
            candidates: cands,
            asked: 0,
        }))?;
    }
    Ok(())
}

fn end_turn(cx: &mut Cx, who: Cid, how: TurnEnd) {
    cx.emit(Event::TurnEnded { who, how });
}

fn pay(cx: &mut Cx, who: Cid, cost: Cost) {
    if cost != Cost::default() {
        cx.emit(Event::Paid { who, cost });
    }
}

fn continue_extended(cx: &mut Cx, who: Cid) -> R {
    let c = cx.s.ch(who);
    let Some(ext) = c.econ.extended.clone() else {
        return Ok(());
    };
    let paid = ext.owed.min(c.econ.actions);
    let owed = ext.owed - paid;
    cx.emit(Event::ExtendedContinued { who, paid, owed });
    if owed == 0 {
        complete(cx, who, ext.action)?;
    }
    Ok(())
}

/// Pays for an action that may run over several turns; runs it now if fully paid.
fn pay_or_extend(cx: &mut Cx, who: Cid, cost: u8, ext: Ext) -> R {
    let left = cx.s.ch(who).econ.actions;
    if left >= cost {
        pay(
            cx,
            who,
            Cost {
                actions: cost,
                ..Cost::default()
            },
        );
        complete(cx, who, ext)
    } else {
        cx.emit(Event::ExtendedStarted {
            who,
            action: ext,
            cost,
            owed: cost - left,
        });
        Ok(())
    }
}

/// The effect of an action whose whole cost has been paid.
fn complete(cx: &mut Cx, who: Cid, ext: Ext) -> R {
    match ext {
        Ext::Reload { slot } => cx.emit(Event::Loaded {
            who,
            slot,
            loaded: true,
        }),
        Ext::Resuscitate { target } => {
            let t = cx.s.ch(target);
            let near = match (cx.s.ch(who).pos, t.pos) {
                (Some(a), Some(b)) => fray_space::chebyshev(a, b) <= 1,
                _ => false,
            };
            if !t.present() || !t.unconscious || t.dead || !near {
                cx.emit(Event::Interacted {
                    who,
                    what: format!("cannot resuscitate {} any more", cx.s.name(target)),
                });
                return Ok(());
            }
            let o = cx.s.options.clone();
            // Checked when the options were loaded (Options::check).
            let attr = Attr::parse(&o.resuscitate_attribute).unwrap_or(Attr::Int);
            let roll = named_test(
                cx,
                who,
                attr,
                &o.resuscitate_skill,
                &o.resuscitate_proficiency,
                0,
                "resuscitate",
            )?;
            let success = roll.total >= o.resuscitate_difficulty;
            cx.emit(Event::Tested {
                who,
                what: format!("resuscitate {}", cx.s.name(target)),
                roll,
                difficulty: o.resuscitate_difficulty,
                success,
            });
            if success {
                cx.emit(Event::Revived { who: target });
            }
        }
        Ext::Task {
            attr,
            skill,
            prof,
            difficulty,
        } => {
            let p = prof.clone().unwrap_or_default();
            let roll = named_test(cx, who, attr, &skill, &p, 0, "task")?;
            let success = roll.total >= difficulty;
            cx.emit(Event::Tested {
                who,
                what: format!("task ({} + {skill})", attr.name()),
                roll,
                difficulty,
                success,
            });
        }
        Ext::Kill { target, slot } => killing_strike(cx, who, target, slot)?,
    }
    Ok(())
}

/// Resolves an action by `who` with its plan; `via` is the commander when given by Command.
fn act(cx: &mut Cx, who: Cid, a: &Action, via: Option<Cid>, plan: Plan) -> R {
    let charge = |cx: &mut Cx, n: u8| {
        if via.is_none() && n > 0 {
            cx.emit(Event::Paid {
                who,
                cost: Cost {
                    actions: n,
                    ..Cost::default()
                },
            });
        }
    };
    match a {
        Action::Move(_) | Action::Sprint(_) => {
            let sprint = matches!(a, Action::Sprint(_));
            charge(cx, 1);
            if sprint {
                pay(
                    cx,
                    who,
                    Cost {
                        stamina: 1,
                        ..Cost::default()
                    },
                );
            }
            cx.emit(Event::MoveBegun {
                who,
                kind: if sprint { "sprint" } else { "move" }.into(),
            });
            walk(cx, who, way(plan)?)?;
        }
        Action::Step(_) => {
            cx.emit(Event::MoveBegun {
                who,
                kind: "step".into(),
            });
            walk(cx, who, way(plan)?)?;
        }
        Action::Attack {
            target,
            slot,
            attr,
            prof,
        } => {
            charge(cx, 1);
            declare_attack(cx, who, *target, *slot, *attr, prof.clone(), AttackKind::Normal)?;
        }
        Action::Brandish(slots) => {
            charge(cx, 1);
            cx.emit(Event::Held {
                who,
                slots: slots.clone(),
            });
        }
        Action::Interact(what) => {
            charge(cx, 1);
            cx.emit(Event::Interacted {
                who,
                what: what.clone(),
            });
        }
        Action::PickUp(i) => {
            charge(cx, 1);
            cx.emit(Event::PickedUp { who, index: *i });
        }
        Action::Guard => {
            charge(cx, 1);
            cx.emit(Event::Condition {
                who,
                cond: Cond::Guarding,
                on: true,
                until_turn_end: false,
            });
            end_turn(cx, who, TurnEnd::Guard);
        }
        Action::Wait => {
            charge(cx, 1);
            end_turn(cx, who, TurnEnd::Wait);
        }
        Action::Ready(r) => {
            charge(cx, 1);
            cx.emit(Event::ReadySet {
                who,
                readied: r.clone(),
            });
            end_turn(cx, who, TurnEnd::Ready);
        }
        Action::Resuscitate(t) => {
            // Go prone, then test (ING-R25).
            if !cx.s.ch(who).has(Cond::Prone) {
                cx.emit(Event::Condition {
                    who,
                    cond: Cond::Prone,
                    on: true,
                    until_turn_end: false,
                });
            }
            pay_or_extend(cx, who, 2, Ext::Resuscitate { target: *t })?;
        }
        Action::SeekCover => {
            charge(cx, 1);
            cx.emit(Event::Condition {
                who,
                cond: Cond::Cover,
                on: true,
                until_turn_end: false,
            });
        }
        Action::Task {
            attr,
            skill,
            prof,
            difficulty,
            seconds,
        } => {
            let cost = check::task_cost(&cx.s, *seconds);
            pay_or_extend(
                cx,
                who,
                cost,
                Ext::Task {
                    attr: *attr,
                    skill: skill.clone(),
                    prof: prof.clone(),
                    difficulty: *difficulty,
                },
            )?;
        }
        Action::StandUp => {
            charge(cx, 1);
            cx.emit(Event::Condition {
                who,
                cond: Cond::Prone,
                on: false,
                until_turn_end: false,
            });
        }
        Action::Drop(slot) => cx.emit(Event::Dropped { who, slot: *slot }),
        Action::DropProne => cx.emit(Event::Condition {
            who,
            cond: Cond::Prone,
            on: true,
            until_turn_end: false,
        }),
        Action::Reload(slot) => {
            let (cost, _) = action_cost(&cx.s, who, a);
            if via.is_some() {
                complete(cx, who, Ext::Reload { slot: *slot })?;
            } else {
                pay_or_extend(cx, who, cost, Ext::Reload { slot: *slot })?;
            }
        }
        Action::Kill { target, slot } => {
            let cost = cx.s.options.killing_strike_actions.max(1);
            pay_or_extend(
                cx,
                who,
                cost,
                Ext::Kill {
                    target: *target,
                    slot: *slot,
                },
            )?;
        }
        Action::Command { ally, action } => {
            pay(
                cx,
                who,
                Cost {
                    actions: 1,
                    focus: 2,
                    ..Cost::default()
                },
            );
            cx.emit(Event::Commanded {
                commander: who,
                ally: *ally,
            });
            if cx.s.options.command_uses_ally_actions && action_cost(&cx.s, *ally, action).0 > 0 {
                cx.emit(Event::Owed { who: *ally });
            }
            act(cx, *ally, action, Some(who), plan)?;
        }
        Action::End => end_turn(cx, who, TurnEnd::End),
    }
    Ok(())
}

/// Starts a walk along `path`, the way the check found (the squares after the start).
fn walk(cx: &mut Cx, who: Cid, path: Vec<fray_space::Pos>) -> R {
    let Some(from) = cx.s.ch(who).pos else { return Ok(()) };
    let costs = calc::step_costs(&cx.s, from, &path);
    cx.push(Frame::Walk(Walk {
        who,
        path,
        next: 0,
        costs,
    }))
}

fn walk_step(cx: &mut Cx, mut w: Walk) -> Result<Flow, EngineError> {
    let who = w.who;
    let i = w.next as usize;
    // Knocked prone part-way (a readied attack's effect): the move stops there, as a prone
    // character cannot move on without standing up (`prone-blocks-movement`).
    let felled = i > 0 && cx.s.options.prone_blocks_movement && cx.s.ch(who).has(Cond::Prone);
    if !cx.s.ch(who).able() || i >= w.path.len() || felled {
        cx.pop();
        return Ok(Flow::Go);
    }
    let to = w.path[i];
    let last = i + 1 == w.path.len();
    let blocked = match cx.s.occupant(to) {
        Some(o) if o != who => !calc::passable(&cx.s, who, o) || last,
        _ => false,
    };
    let Some(from) = cx.s.ch(who).pos else {
        cx.pop();
        return Ok(Flow::Go);
    };
    if blocked {
        // Someone moved into the way since the move began: it stops here.
        cx.pop();
        return Ok(Flow::Go);
    }
    w.next += 1;
    cx.update(Frame::Walk(w.clone()));
    cx.emit(Event::Moved {
        who,
        from,
        to,
        metres: w.costs.get(i).copied().unwrap_or(1),
    });
    ready_window(cx, Trigger::Approach, who, Some(from))?;
    Ok(Flow::Go)
}

fn after_dodge(cx: &mut Cx, who: Cid, used: u8, a: &Action, plan: Plan) -> R {
    let bit = match a {
        Action::DropProne => 1,
        Action::SeekCover => 2,
        _ => 4,
    };
    cx.update(Frame::AfterDodge { who, used: used | bit });
    match a {
        Action::DropProne => cx.emit(Event::Condition {
            who,
            cond: Cond::Prone,
            on: true,
            until_turn_end: false,
        }),
        Action::SeekCover => cx.emit(Event::Condition {
            who,
            cond: Cond::Cover,
            on: true,
            until_turn_end: false,
        }),
        Action::Step(_) => {
            cx.emit(Event::MoveBegun {
                who,
                kind: "dodge-step".into(),
            });
            walk(cx, who, way(plan)?)?;
        }
        _ => {}
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Decisions inside frames
// ---------------------------------------------------------------------------------------------

/// An intercept, a defence or a block (`stage`), on the attack on top of the stack.
fn attack_decision(cx: &mut Cx, stage: Stage, cmd: &Command) -> R {
    let Some(Frame::Attack(mut a)) = cx.top().cloned() else {
        return Err(EngineError::Bug("an attack decision without its attack".into()));
    };
    match (stage, cmd) {
        (Stage::Intercept { .. }, Command::Intercept(who)) => {
            let who = *who;
            let ally = a.target;
            // Intercept: 1 stamina and the reaction (ING-R31).
            pay(
                cx,
                who,
                Cost {
                    stamina: 1,
                    reaction: true,
                    ..Cost::default()
                },
            );
            cx.emit(Event::Swapped { a: who, b: ally });
            cx.emit(Event::Intercepted { who, ally });
            a.target = who;
            a.defences = Defences {
                free: 1,
                ..Defences::default()
            };
            a.stage = AttackStage::Defend;
            cx.update(Frame::Attack(a));
        }
        (Stage::Intercept { .. }, Command::Pass) => {
            // Nobody intercepts: the target defends itself.
            a.stage = AttackStage::Defend;
            cx.update(Frame::Attack(a));
        }
        (Stage::Defend { .. }, Command::Pass) => {
            // Before the roll: the roll comes next; after it: the hit is decided.
            a.stage = AttackStage::Roll;
            cx.update(Frame::Attack(a));
        }
        (Stage::Defend { .. }, c) => defend(cx, *a, c)?,
        (Stage::Block { .. }, Command::Pass) => {
            cx.update(Frame::Attack(a.clone()));
            apply_hit(cx, *a, None)?;
        }
        (Stage::Block { .. }, Command::Block(slot)) => {
            let free = a.defences.free > 0;
            let who = a.target;
            reaction_paid(cx, who, free, 1, 0); // Block: 1 stamina (ING-R31)
            if free {
                a.defences.free -= 1;
            }
            cx.emit(Event::Defended {
                who,
                kind: DefenceKind::Block,
                roll: None,
                slot: Some(*slot),
                free,
            });
            cx.update(Frame::Attack(a.clone()));
            apply_hit(cx, *a, Some(*slot))?;
        }
        _ => return Err(EngineError::Bug("unexpected decision in an attack".into())),
    }
    Ok(())
}

/// The consciousness fortify (`fortify`) or falling unconscious (ING-R60).
fn stay_conscious(cx: &mut Cx, who: Cid, missing: i16, fortify: bool) -> R {
    if !fortify {
        knock_out(cx, who);
        return Ok(());
    }
    let can_pay = check::can_react(&cx.s, who, false, 1, 0);
    if can_pay {
        pay(
            cx,
            who,
            Cost {
                stamina: 1,
                reaction: true,
                ..Cost::default()
            },
        );
    }
    let g = calc::guard(&cx.s, who);
    let roll = named_test(cx, who, Attr::Str, "athletics", "fortitude", g, "fortify")?;
    let result = roll.total.max(calc::constitution(&cx.s, who));
    let stayed = result >= missing;
    cx.emit(Event::Fortified {
        who,
        difficulty: missing,
        roll,
        result,
        stayed,
    });
    if !stayed {
        knock_out(cx, who);
    }
    Ok(())
}

fn reaction_paid(cx: &mut Cx, who: Cid, free: bool, stamina: i16, focus: i16) {
    let pays = !free || cx.s.options.free_reaction_pays;
    let cost = Cost {
        actions: 0,
        stamina: if pays {
            stamina.min(cx.s.ch(who).stamina.max(0))
        } else {
            0
        },
        focus: if pays { focus.min(cx.s.ch(who).focus.max(0)) } else { 0 },
        reaction: !free,
    };
    pay(cx, who, cost);
}

fn defend(cx: &mut Cx, mut a: Attack, cmd: &Command) -> R {
    let who = a.target;
    let free = a.defences.free > 0;
    let g = calc::guard(&cx.s, who);
    // ING-R31: Dodge, Parry and Fortify cost 1 stamina, Resist 1 focus (Block and Intercept,
    // 1 stamina each, are paid where they are taken).
    let (kind, stamina, focus) = match cmd {
        Command::Dodge => (DefenceKind::Dodge, 1, 0),
        Command::Parry(_) => (DefenceKind::Parry, 1, 0),
        Command::Fortify => (DefenceKind::Fortify, 1, 0),
        Command::Resist => (DefenceKind::Resist, 0, 1),
        _ => return Err(EngineError::Bug("not a defence".into())),
    };
    reaction_paid(cx, who, free, stamina, focus);
    if free {
        a.defences.free -= 1;
    }
    let (roll, slot) = match cmd {
        // Dodge: DEX + Agility + Dodge (ING-R48); Guard adds to defence tests (ING-R21).
        Command::Dodge => {
            let r = named_test(cx, who, Attr::Dex, "agility", "dodge", g, "dodge")?;
            a.defences.dodge = Some(r.total);
            (Some(r), None)
        }
        Command::Parry(slot) => {
            a.defences.parry = Some(*slot);
            (None, Some(*slot))
        }
        Command::Fortify => {
            let r = named_test(cx, who, Attr::Str, "athletics", "fortitude", g, "fortify")?;
            a.defences.fortify = Some(r.total);
            (Some(r), None)
        }
        _ => {
            let r = named_test(cx, who, Attr::Int, "insight", "resistance", g, "resist")?;
            a.defences.resist = Some(r.total);
            (Some(r), None)
        }
    };
    cx.emit(Event::Defended {
        who,
        kind,
        roll,
        slot,
        free,
    });
    if let Some(slot) = slot {
        // The parrying item takes 1 damage (ING-R53).
        cx.emit(Event::ItemDamaged { who, slot, amount: 1 });
    }
    cx.update(Frame::Attack(Box::new(a)));
    Ok(())
}

fn fire(cx: &mut Cx, who: Cid, subject: Cid, plan: Plan) -> R {
    let Some(r) = cx.s.ch(who).ready.clone() else {
        return Ok(());
    };
    cx.emit(Event::ReadyUsed { who, fired: true });
    if cx.s.options.ready_uses_reaction {
        pay(
            cx,
            who,
            Cost {
                reaction: true,
                ..Cost::default()
            },
        );
    }
    match r.action {
        ReadyAction::Attack { target, slot } => {
            let t = target.unwrap_or(subject);
            let attr = crate::command::default_attr(&cx.s, who, slot);
            let prof = crate::command::default_prof(&cx.s, who, slot);
            declare_attack(cx, who, t, slot, attr, prof, AttackKind::Readied)?;
        }
        ReadyAction::Move { .. } => {
            cx.emit(Event::MoveBegun {
                who,
                kind: "ready-move".into(),
            });
            walk(cx, who, way(plan)?)?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Attacks
// ---------------------------------------------------------------------------------------------

fn declare_attack(
    cx: &mut Cx,
    who: Cid,
    target: Cid,
    slot: u8,
    attr: Attr,
    prof: Option<String>,
    kind: AttackKind,
) -> R {
    let penalty = calc::attack_penalty(&cx.s, who);
    let bonus = calc::property_bonus(&cx.s, who, slot, target);
    cx.emit(Event::AttackDeclared {
        attacker: who,
        target,
        slot,
        attr,
        prof: prof.clone(),
        penalty,
        bonus,
    });
    cx.push(Frame::Attack(Box::new(Attack {
        attacker: who,
        target,
        slot,
        attr,
        prof,
        kind,
        stage: AttackStage::Ready,
        penalty,
        bonus,
        intercept: Vec::new(),
        defences: Defences::default(),
        total: None,
        base_total: None,
        luck: None,
        crit: false,
        hit: false,
        raw: 0,
        misfired: false,
        thrown_from_afar: cx
            .s
            .item(who, slot)
            .is_some_and(|i| calc::throws(&cx.s, who, target, i)),
    })))
}

fn attack_step(cx: &mut Cx, mut a: Attack) -> Result<Flow, EngineError> {
    let before_roll = a.total.is_none();
    if before_roll && (!cx.s.ch(a.attacker).able() || !cx.s.ch(a.target).present()) {
        // The attacker was stopped (a readied attack knocked it out) or the target left.
        cx.pop();
        return Ok(Flow::Go);
    }
    match a.stage {
        AttackStage::Ready => {
            let attacker = a.attacker;
            let fallback = a.kind == AttackKind::KillFallback;
            a.stage = AttackStage::Intercept;
            cx.update(Frame::Attack(Box::new(a)));
            if !fallback {
                ready_window(cx, Trigger::Attack, attacker, None)?;
            }
            Ok(Flow::Go)
        }
        AttackStage::Intercept => {
            if a.kind == AttackKind::KillFallback {
                a.stage = AttackStage::Roll;
                cx.update(Frame::Attack(Box::new(a)));
                return Ok(Flow::Go);
            }
            // ING-R33: every ally who may intercept is asked at once, in one decision of the
            // target's team seat (`intercept <ally>` or `pass`).
            if a.intercept.is_empty() {
                let c = check::intercept_candidates(&cx.s, &a);
                if c.is_empty() {
                    a.stage = AttackStage::Defend;
                    cx.update(Frame::Attack(Box::new(a)));
                    return Ok(Flow::Go);
                }
                a.intercept = c;
                cx.update(Frame::Attack(Box::new(a)));
                return Ok(Flow::Go);
            }
            if a.intercept.iter().any(|&c| check::can_react(&cx.s, c, false, 1, 0)) {
                return Ok(Flow::Wait);
            }
            a.stage = AttackStage::Defend;
            cx.update(Frame::Attack(Box::new(a)));
            Ok(Flow::Go)
        }
        AttackStage::Defend => {
            if defend_now(&cx.s, &a) {
                if cx.s.ch(a.target).able() && check::can_defend(&cx.s, &a) {
                    return Ok(Flow::Wait);
                }
                // Say why the target is not asked (ING-R30, ING-R32, ING-R14's option).
                let why = check::why_no_defence(&cx.s, &a);
                cx.emit(Event::Automatic {
                    who: a.target,
                    step: AutoStep::NoDefence,
                    why,
                });
            }
            a.stage = AttackStage::Roll;
            cx.update(Frame::Attack(Box::new(a)));
            Ok(Flow::Go)
        }
        AttackStage::Roll => {
            if a.total.is_none() {
                roll_attack(cx, &mut a)?;
                if defend_now(&cx.s, &a) && cx.s.ch(a.target).able() {
                    a.stage = AttackStage::Defend;
                    cx.update(Frame::Attack(Box::new(a)));
                    return Ok(Flow::Go);
                }
            }
            decide_hit(cx, a)?;
            Ok(Flow::Go)
        }
        AttackStage::Block => {
            if cx.s.ch(a.target).able() && check::can_block(&cx.s, &a) {
                return Ok(Flow::Wait);
            }
            // A blocking item in hand that cannot be used: say why (ING-R51, ING-R32).
            if check::holds_blocker(&cx.s, a.target) {
                let why = check::why_no_reaction(&cx.s, a.target, a.defences.free > 0);
                cx.emit(Event::Automatic {
                    who: a.target,
                    step: AutoStep::NoBlock,
                    why,
                });
            }
            apply_hit(cx, a, None)?;
            Ok(Flow::Go)
        }
        AttackStage::Done => {
            let dodged = a.defences.dodge.is_some();
            let who = a.target;
            cx.pop();
            if let Some(item) = cx.s.item(a.attacker, a.slot)
                && item.thrown
                && a.thrown_from_afar
                && let Some(to) = cx.s.ch(a.target).pos.or(cx.s.ch(a.attacker).pos)
            {
                cx.emit(Event::Thrown {
                    who: a.attacker,
                    slot: a.slot,
                    to,
                });
            }
            if dodged && cx.s.ch(who).able() {
                cx.push(Frame::AfterDodge { who, used: 0 })?;
            }
            Ok(Flow::Go)
        }
    }
}

/// Whether the target declares defences at this point of the attack (ING-H12): before the
/// roll by default, after it with `defence-timing = "after-roll"`, and after a misfire for the
/// new target with `misfire-target-defends`.
fn defend_now(s: &State, a: &Attack) -> bool {
    match a.total {
        None => s.options.defence_timing == DefenceTiming::BeforeRoll,
        Some(_) => {
            s.options.defence_timing == DefenceTiming::AfterRoll || (a.misfired && s.options.misfire_target_defends)
        }
    }
}

fn roll_attack(cx: &mut Cx, a: &mut Attack) -> R {
    let Some(item) = cx.s.item(a.attacker, a.slot).cloned() else {
        return Err(EngineError::Bug("attack with no item".into()));
    };
    let (mut adv, mut reasons) = calc::advantage(&cx.s, a.attacker, a.target, &item);
    if a.kind == AttackKind::KillFallback && !reasons.iter().any(|r| r == "sneak attack") {
        adv += 1;
        reasons.push("sneak attack".into());
    }
    let st = &cx.s.info(a.attacker).stats;
    let attr_die = st.attr(a.attr);
    let skill_die = st.skill("combat");
    let prof = calc::prof_bonus(&cx.s, a.attacker, a.prof.as_deref());
    let roll = roll_test(
        cx,
        a.attacker,
        attr_die,
        skill_die,
        prof + a.penalty + a.bonus,
        adv,
        true,
        "attack",
    )?;
    a.total = Some(roll.total);
    a.base_total = Some(roll.dice_sum() + prof);
    a.luck = Some(roll.luck_total);
    a.crit = roll.luck_total >= item.critical_threshold;
    cx.emit(Event::AttackRolled {
        attacker: a.attacker,
        roll: roll.clone(),
        advantage: adv,
        reasons,
    });
    // Attacking reveals a hidden attacker (fray's hidden-ends-on-attack option).
    if cx.s.options.hidden_ends_on_attack && cx.s.ch(a.attacker).has(Cond::Hidden) {
        cx.emit(Event::Condition {
            who: a.attacker,
            cond: Cond::Hidden,
            on: false,
            until_turn_end: false,
        });
    }
    // A thrown weapon leaves the hand when thrown beyond melee reach (fray's ruling): it lands on
    // the target's square, after the attack is resolved (see `attack_step`).
    // Reloading weapons are empty after a shot.
    if item.reload > 0 {
        cx.emit(Event::Loaded {
            who: a.attacker,
            slot: a.slot,
            loaded: false,
        });
    }
    // Misfire (ING-R39): a luck die of 1 or less sends it to a random character near the target.
    if item.can_misfire(&cx.s.options, a.thrown_from_afar) && roll.luck_total <= 1 && !a.crit {
        let tp = cx.s.ch(a.target).pos;
        let near: Vec<Cid> =
            cx.s.ids()
                .filter(|&c| c != a.target && c != a.attacker && cx.s.ch(c).present())
                .filter(|&c| match (cx.s.ch(c).pos, tp) {
                    (Some(p), Some(q)) => calc::distance(&cx.s, p, q) <= 1,
                    _ => false,
                })
                .collect();
        if !near.is_empty() {
            let (pick, target) = if near.len() == 1 {
                (None, near[0])
            } else {
                let name = cx.s.name(a.attacker);
                let k = die(
                    &mut *cx.dice,
                    near.len() as u16,
                    &Why(name, "misfire (who is hit)", Part::Whole),
                )?;
                (Some(k), near[(k as usize - 1).min(near.len() - 1)])
            };
            cx.emit(Event::Misfired {
                target,
                pick,
                candidates: near.len() as u8,
            });
            // The defences declared were the old target's.
            a.target = target;
            a.misfired = true;
            a.defences = Defences::default();
            if !defend_now(&cx.s, a) && cx.s.ch(target).able() {
                cx.emit(Event::Automatic {
                    who: target,
                    step: AutoStep::NoDefence,
                    why: AutoWhy::MisfireRolled,
                });
            }
        }
    }
    cx.update(Frame::Attack(Box::new(a.clone())));
    Ok(())
}

/// The evasion an attack must meet (ING-R37, ING-R46, ING-R48, ING-H27).
pub fn effective_evasion(s: &State, a: &Attack) -> i16 {
    let t = a.target;
    let base = calc::evasion(s, t);
    let d = calc::size_difference(s, a.attacker, t);
    let parry_ev = match (a.defences.parry, s.options.parry_adds_to) {
        (Some(slot), ParryAddsTo::Evasion) => s.item(t, slot).map_or(1, |i| i.parry.unwrap_or(1)),
        _ => 0,
    };
    let ev = match (a.defences.dodge, s.options.size_shift) {
        (Some(dodge), SizeShift::Last) => dodge.max(base) + d,
        (Some(dodge), SizeShift::First) => dodge.max(base + d),
        (None, _) => base + d,
    };
    ev + parry_ev
}

fn decide_hit(cx: &mut Cx, mut a: Attack) -> R {
    let evasion = effective_evasion(&cx.s, &a);
    let total = a.total.unwrap_or(0);
    a.hit = a.crit || total >= evasion;
    cx.emit(Event::AttackResult {
        attacker: a.attacker,
        target: a.target,
        evasion,
        hit: a.hit,
        crit: a.crit,
    });
    if !a.hit {
        a.stage = AttackStage::Done;
        cx.update(Frame::Attack(Box::new(a)));
        return Ok(());
    }
    let item = cx.s.item(a.attacker, a.slot).cloned();
    let weapon = item
        .as_ref()
        .map_or(0, |i| if a.crit { i.critical_damage } else { i.damage });
    let base = match cx.s.options.damage_total {
        DamageTotal::Modified => total,
        DamageTotal::Unmodified => a.base_total.unwrap_or(total),
    };
    a.raw = base + weapon;
    a.stage = AttackStage::Block;
    cx.update(Frame::Attack(Box::new(a)));
    Ok(())
}

/// Damage reduction against this attack (ING-R41, ING-R46, ING-R53, ING-R57, ING-H27).
pub fn reduction(s: &State, a: &Attack) -> i16 {
    let Some(item) = s.item(a.attacker, a.slot) else {
        return 0;
    };
    let class = item.damage_type.class();
    if class == DamageClass::Typeless {
        return 0;
    }
    let t = a.target;
    let mut r = calc::deflection(s, t, class);
    if class == DamageClass::Physical
        && s.options.parry_adds_to == ParryAddsTo::Deflection
        && let Some(slot) = a.defences.parry
    {
        r += s.item(t, slot).map_or(1, |i| i.parry.unwrap_or(1));
    }
    r - calc::size_difference(s, a.attacker, t)
}

/// Deals a hit's damage (through a block if one is given), then its effect.
fn apply_hit(cx: &mut Cx, mut a: Attack, block: Option<u8>) -> R {
    a.stage = AttackStage::Done;
    cx.update(Frame::Attack(Box::new(a.clone())));
    let min = cx.s.options.min_damage;
    let t = a.target;
    let nonlethal = cx.s.item(a.attacker, a.slot).is_some_and(|i| i.nonlethal);
    let reduced_by = reduction(&cx.s, &a);
    let dealt = match block {
        None => Some((a.raw - reduced_by).max(min)),
        Some(slot) => {
            // Block (ING-R51, ING-R52): the item takes the hit, reduced by its block value, at
            // least 1; what its durability cannot hold goes through to the blocker.
            let k = cx.s.carried(t, slot).cloned();
            let value = cx.s.item(t, slot).and_then(|i| i.block).unwrap_or(0);
            let durability = k.map_or(0, |k| k.durability);
            let to_item = (a.raw - value).max(1);
            let taken = to_item.min(durability);
            let overflow = to_item - taken;
            cx.emit(Event::Blocked {
                who: t,
                slot,
                to_item,
                overflow,
            });
            cx.emit(Event::ItemDamaged {
                who: t,
                slot,
                amount: taken,
            });
            if overflow > 0 {
                let o = if cx.s.options.block_overflow_reduced {
                    (overflow - reduced_by).max(min)
                } else {
                    overflow
                };
                Some(o)
            } else {
                None
            }
        }
    };
    let Some(amount) = dealt else { return Ok(()) };
    deal(
        cx,
        t,
        amount,
        if block.is_some() { 0 } else { reduced_by },
        nonlethal,
        Some(&a),
    )
}

/// Deals damage: endurance first, then health (ING-R42), with what follows: an effect, the
/// consciousness fortify (ING-R60), unconsciousness and the death check (ING-R61 to ING-R63).
fn deal(cx: &mut Cx, who: Cid, amount: i16, reduced_by: i16, nonlethal: bool, attack: Option<&Attack>) -> R {
    let c = cx.s.ch(who);
    let health_before = c.health;
    let endurance = amount.min(c.endurance.max(0));
    let to_health = amount - endurance;
    let health = to_health.min(health_before.max(0));
    cx.emit(Event::Damaged {
        who,
        amount,
        endurance,
        health,
        reduced_by,
        nonlethal,
    });
    if let Some(a) = attack {
        effect(cx, a)?;
    }
    if to_health <= 0 {
        return Ok(());
    }
    let c = cx.s.ch(who);
    if health_before <= 0 {
        // More damage at zero health: a death check, nonlethal or not (ING-R63).
        return death_check(cx, who);
    }
    if c.health <= 0 {
        // Reduced to zero: unconscious at once (ING-R61).
        if !c.unconscious {
            knock_out(cx, who);
        }
        let risk = match cx.s.options.death_check {
            DeathCheck::Overflow => to_health > health_before,
            DeathCheck::AnyZero => true,
        };
        if risk {
            if nonlethal {
                cx.emit(Event::SparedByNonlethal { who });
            } else {
                death_check(cx, who)?;
            }
        }
        return Ok(());
    }
    let missing = cx.s.info(who).stats.health - c.health;
    if !c.unconscious && missing > calc::constitution(&cx.s, who) {
        cx.push(Frame::Conscious { who, missing })?;
    }
    Ok(())
}

fn knock_out(cx: &mut Cx, who: Cid) {
    cx.emit(Event::KnockedOut { who });
}

fn death_check(cx: &mut Cx, who: Cid) -> R {
    if cx.s.ch(who).dead {
        return Ok(());
    }
    let (luck, total) = luck_test(cx, who, "death check (luck d20)")?;
    let difficulty = cx.s.ch(who).death_difficulty;
    let survived = total >= difficulty;
    cx.emit(Event::DeathCheck {
        who,
        luck,
        total,
        difficulty,
        survived,
    });
    if !survived {
        cx.emit(Event::Died { who });
    }
    Ok(())
}

/// An attack's on-hit effect: its condition unless the target's defence meets the difficulty.
fn effect(cx: &mut Cx, a: &Attack) -> R {
    let Some(e) = cx.s.item(a.attacker, a.slot).and_then(|i| i.effect.clone()) else {
        return Ok(());
    };
    let t = a.target;
    // One instance of each condition (ING-R66): nothing to resist if it is already there,
    // unless this one is stronger (for the scene against one ending with the next turn).
    let c = cx.s.ch(t);
    let shorter = c.conds_until_turn & e.condition.bit() != 0;
    let stronger = shorter && e.lasts == Lasts::Scene;
    if !c.present() || (c.has(e.condition) && !stronger) {
        return Ok(());
    }
    let difficulty = e.difficulty.unwrap_or(a.total.unwrap_or(0));
    let passive = calc::effect_defence(&cx.s, t, e.defence);
    let declared = match e.defence {
        EffectDefence::Constitution => a.defences.fortify,
        EffectDefence::Willpower => a.defences.resist,
    };
    let defence = declared.map_or(passive, |r| r.max(passive));
    let resisted = defence >= difficulty;
    cx.emit(Event::EffectTested {
        who: t,
        cond: e.condition,
        difficulty,
        defence,
        resisted,
    });
    if !resisted {
        cx.emit(Event::Condition {
            who: t,
            cond: e.condition,
            on: true,
            until_turn_end: e.lasts == Lasts::NextTurn,
        });
    }
    Ok(())
}

/// A killing strike once paid (ING-R64, ING-H26).
fn killing_strike(cx: &mut Cx, who: Cid, target: Cid, slot: u8) -> R {
    let t = cx.s.ch(target);
    if !t.present() || !t.unconscious || t.dead || check::attack_ok(&cx.s, who, target, slot).is_err() {
        cx.emit(Event::Interacted {
            who,
            what: format!("the killing strike on {} cannot be made any more", cx.s.name(target)),
        });
        return Ok(());
    }
    let attr = crate::command::default_attr(&cx.s, who, slot);
    let prof = crate::command::default_prof(&cx.s, who, slot);
    let penalty = calc::attack_penalty(&cx.s, who);
    let bonus = calc::property_bonus(&cx.s, who, slot, target);
    cx.emit(Event::AttackDeclared {
        attacker: who,
        target,
        slot,
        attr,
        prof: prof.clone(),
        penalty,
        bonus,
    });
    let item = cx.s.item(who, slot).cloned();
    let mut adv = 1i8;
    if cx.s.options.killing_strike_stack_advantage
        && let Some(item) = &item
    {
        // Every other source counts, disadvantages included (ING-R26, ING-R47); the victim
        // being unable to see is the killing strike's own advantage, not a second one.
        if calc::flanked(&cx.s, target) {
            adv += 1;
        }
        let ranged = calc::ranged_attack(&cx.s, who, target, item);
        if cx.s.ch(target).has(Cond::Prone) {
            adv += if ranged { -1 } else { 1 };
        }
        if ranged && calc::behind_cover(&cx.s, target, who) {
            adv -= 1;
        }
    }
    let st = &cx.s.info(who).stats;
    let (ad, sd) = (st.attr(attr), st.skill("combat"));
    let p = calc::prof_bonus(&cx.s, who, prof.as_deref());
    let roll = roll_test(cx, who, ad, sd, p + penalty + bonus, adv, false, "killing strike")?;
    let difficulty = calc::constitution(&cx.s, target);
    let success = roll.total >= difficulty;
    let total = roll.total;
    cx.emit(Event::Tested {
        who,
        what: format!("killing strike on {}", cx.s.name(target)),
        roll,
        difficulty,
        success,
    });
    if success {
        cx.emit(Event::Died { who: target });
        return Ok(());
    }
    // Failure: a sneak attack instead, in the same action (not a second attack).
    let mut a = Attack {
        attacker: who,
        target,
        slot,
        attr,
        prof,
        kind: AttackKind::KillFallback,
        stage: AttackStage::Roll,
        penalty,
        bonus,
        intercept: Vec::new(),
        defences: Defences::default(),
        total: None,
        base_total: None,
        luck: None,
        crit: false,
        hit: false,
        raw: 0,
        misfired: false,
        thrown_from_afar: false,
    };
    if cx.s.options.killing_strike_reuse_roll {
        a.total = Some(total);
        a.base_total = Some(total - penalty - bonus);
        a.luck = Some(0);
    }
    cx.push(Frame::Attack(Box::new(a)))?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// GM rulings
// ---------------------------------------------------------------------------------------------

fn ruling(cx: &mut Cx, r: &Ruling) -> R {
    match r {
        Ruling::Set(who, what, adj) => {
            let c = cx.s.ch(*who);
            let old = match what.as_str() {
                "health" => c.health,
                "endurance" => c.endurance,
                "stamina" => c.stamina,
                "focus" => c.focus,
                _ => c.death_difficulty,
            };
            let value = adj.apply(old);
            cx.emit(Event::Set {
                who: *who,
                what: what.clone(),
                value,
            });
            if what == "health" && value <= 0 && !cx.s.ch(*who).unconscious {
                knock_out(cx, *who);
            }
        }
        Ruling::Durability(who, slot, adj) => {
            let old = cx.s.carried(*who, *slot).map_or(0, |k| k.durability);
            cx.emit(Event::Set {
                who: *who,
                what: format!("durability:{slot}"),
                value: adj.apply(old),
            });
        }
        Ruling::Condition(who, cond, on) => cx.emit(Event::Condition {
            who: *who,
            cond: *cond,
            on: *on,
            until_turn_end: false,
        }),
        Ruling::KnockOut(who) => knock_out(cx, *who),
        Ruling::Revive(who) => cx.emit(Event::Revived { who: *who }),
        Ruling::Kill(who) => cx.emit(Event::Died { who: *who }),
        Ruling::Move(who, p) => cx.emit(Event::Placed { who: *who, to: *p }),
        Ruling::Add { id, template, team, at } => {
            let Some(t) = cx.s.setup.templates.get(template) else {
                return Err(EngineError::Bug("checked template missing".into()));
            };
            let mut info = t.clone();
            info.id = id.clone();
            if info.name.is_empty() || info.name == template.as_str() {
                info.name = id.clone();
            }
            info.team = *team;
            info.seat = cx.s.setup.teams.get(*team as usize).map_or(info.seat, |x| x.seat);
            info.at = *at;
            let slot = if cx.s.order.has_team(*team) {
                None
            } else {
                Some(match cx.s.options.joining_teams {
                    JoiningTeams::Last => u8::MAX,
                    JoiningTeams::Next => {
                        let slots = cx.s.order.slots();
                        let idx = match &cx.s.turn {
                            Some(t) => slots.iter().position(|x| *x == cx.s.team(t.who)).map(|i| i + 1),
                            // Between turns: right after the team that last took a turn, i.e.
                            // just before the team whose pick it is (which keeps its pick).
                            None if cx.s.ids().any(|c| cx.s.order.has_acted(c)) => {
                                cx.s.order
                                    .team_to_pick(|w| cx.s.can_take_turn(w))
                                    .and_then(|p| slots.iter().position(|x| *x == p))
                                    .filter(|i| *i > 0)
                            }
                            None => None,
                        };
                        idx.unwrap_or(slots.len()) as u8
                    }
                })
            };
            cx.emit(Event::Joined {
                info: Box::new(info),
                slot,
            });
        }
        Ruling::Remove(who) => cx.emit(Event::Removed { who: *who }),
        Ruling::End(winner) => cx.emit(Event::Ended {
            outcome: Outcome {
                winner: *winner,
                reason: "gm-ended".into(),
            },
        }),
        Ruling::Objective(team, o) => {
            // ING-R67: by default a change made while a round is under way waits for the next.
            let mid_round = cx.s.turn.is_some() || cx.s.ids().any(|c| cx.s.order.has_acted(c));
            let deferred = cx.s.options.objective_changes == ObjectiveChanges::BetweenRounds && mid_round;
            cx.emit(Event::ObjectiveSet {
                team: *team,
                objective: o.clone(),
                deferred,
            });
        }
        Ruling::Order(v) => {
            // ING-R5 (gm-between-rounds): before anyone has acted in a round the new order
            // applies to it; during a round it waits for the next.
            let mid_round = cx.s.turn.is_some() || cx.s.ids().any(|c| cx.s.order.has_acted(c));
            if mid_round {
                cx.emit(Event::OrderChanged { order: v.clone() });
            } else {
                cx.emit(Event::OrderSet { order: v.clone() });
            }
        }
    }
    Ok(())
}
