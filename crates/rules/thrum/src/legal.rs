//! The legal answers to the pending decision, in a fixed order, each with its checked plan.
//!
//! Candidates are generated generously and filtered through [`check`](check::check), the single
//! source of legality, so the list can never offer something the rules refuse, and each answer
//! carries the plan the check gave it. The conformance suite checks the other direction: every
//! command the rules accept at a decision is in the list, with the plan its check gives. Moves
//! are the exception to the filter: checking a `move` runs a path search, so the squares and
//! their paths come from one reachability search through the check's own
//! [`check::move_answers`] and [`check::prompt_move_answers`], which accept exactly what
//! [`check`](check::check) accepts, with its plans (`tests/legal_probe.rs` compares them
//! square by square). The filter asks [`plan_in`], the check without the sentence of a
//! refusal, which nobody reads here, under the [`stage`] worked out once for the whole list.

use crate::Thrum;
use crate::ability::{Attr, Kind, Op, TargetSpec};
use crate::calc::{self, has_ability, range_of};
use crate::check::{self, Plan, negative_statuses, plan_in};
use crate::command::{Action, Command, Target};
use crate::setup::Cid;
use crate::stage::{Stage, offered, stage};
use crate::state::{Pick, State};
use fray_engine::Answer;
use fray_space::{Dir, Pos};
use std::ops::ControlFlow;

/// Appends every legal answer: each legal command with the plan [`check`](check::check) gives it.
pub fn legal(s: &State, out: &mut Vec<Answer<Thrum>>) {
    if let Some(st) = stage(s) {
        legal_in(s, &st, out);
    }
}

/// [`legal`] under the stage `st` ([`stage`] of `s`), which every candidate is checked under.
pub fn legal_in(s: &State, st: &Stage, out: &mut Vec<Answer<Thrum>>) {
    if s.outcome.is_some() {
        return;
    }
    let push = |c: Command, out: &mut Vec<Answer<Thrum>>| {
        if let Some(plan) = plan_in(s, st, &c) {
            out.push(Answer::new(c, plan));
        }
    };
    match *st {
        Stage::Defence { defender, ability, .. } => {
            for d in calc::defences(s, defender, s.setup.book.get(ability)) {
                push(Command::Defend(*d), out);
                if let Some(b) = s.ch(defender).buff {
                    push(Command::DefendWith(*d, b.ability), out);
                }
            }
        }
        Stage::Reroll { .. } => {
            push(Command::Reroll, out);
            push(Command::Pass, out);
        }
        Stage::MovePrompt { who, budget, toward } => {
            // One reachability search for every square (`prompt_move_answers` is the check's
            // own).
            check::with_scratch(|sc| check::prompt_move_answers(s, who, budget, toward, sc, out));
            push(Command::Pass, out);
        }
        Stage::BuffReplace { .. } => {
            push(Command::Accept, out);
            push(Command::Decline, out);
        }
        Stage::Keep { .. } | Stage::Upkeep { .. } => {
            push(Command::Keep, out);
            push(Command::Release, out);
        }
        Stage::Trigger { holder, .. } => {
            for a in offered(s, holder) {
                push(Command::Trigger(a), out);
            }
            push(Command::Pass, out);
        }
        Stage::Slot { .. } => {
            push(Command::Begin, out);
            let later: Vec<Cid> = s.order.later_waiting().collect();
            for t in later {
                push(Command::Delay(Some(t)), out);
            }
            push(Command::Delay(None), out);
        }
        Stage::Place { .. } => {
            for p in s.setup.map.positions() {
                push(Command::Place(p), out);
            }
        }
        Stage::Turn { who, dash } => {
            if check::movement_left(s) > 0 || s.options.partial_steps {
                // One reachability search for every square (`move_answers` is the check's own).
                check::with_scratch(|sc| check::move_answers(s, st, sc, out));
                let from = s.ch(who).pos;
                for d in Dir::ALL {
                    push(Command::Step { dir: d, roll: None }, out);
                    // A step with a drop roll only where the check allows one at all.
                    if from.is_some_and(|p| check::step_may_roll(s, who, p, d)) {
                        for roll in [Attr::End, Attr::Ref] {
                            push(
                                Command::Step {
                                    dir: d,
                                    roll: Some(roll),
                                },
                                out,
                            );
                        }
                    }
                }
            }
            let mine = abilities_of(s, who);
            if !dash {
                let _ = each_action(s, st, who, mine, &mut |c, plan| {
                    out.push(Answer::new(c, plan));
                    ControlFlow::Continue(())
                });
            }
            stances(s, st, mine, out);
            push(Command::EndTurn, out);
        }
        Stage::Stance { who } => {
            stances(s, st, abilities_of(s, who), out);
            push(Command::EndTurn, out);
        }
    }
}

/// The legal Stances among `mine`, the current character's [`abilities_of`], under the stage
/// `st`.
fn stances(s: &State, st: &Stage, mine: &[crate::ability::AbilityId], out: &mut Vec<Answer<Thrum>>) {
    for &id in mine {
        if s.setup.book.get(id).kind == Kind::Stance {
            let c = Command::Stance(id);
            if let Some(plan) = plan_in(s, st, &c) {
                out.push(Answer::new(c, plan));
            }
        }
    }
}

/// The abilities a combatant can use: the basic ones, then its own, in book order. They
/// depend only on the combatant's stat block, the book and the `coup-de-grace` option, so they
/// are worked out once per combatant ([`crate::setup::Usable`]).
pub fn abilities_of(s: &State, who: Cid) -> &[crate::ability::AbilityId] {
    let info = s.info(who);
    let usable = info.usable.0[usize::from(s.options.coup_de_grace)].get_or_init(|| {
        // The basic ones it may use (THR-R38, some only under an option) and its own, merged
        // into book order, rather than asking about every ability of the book.
        let (basics, own) = (s.setup.basics(), &info.abilities);
        let mut v = Vec::with_capacity(basics.len() + own.len());
        v.extend(basics.iter().copied().filter(|&id| has_ability(s, who, id)));
        v.extend(own.iter().copied().filter(|&id| !s.setup.book.get(id).basic));
        v.sort_unstable();
        v.dedup();
        v
    });
    debug_assert_eq!(
        *usable,
        (0..s.setup.book.abilities.len() as crate::ability::AbilityId)
            .filter(|&id| has_ability(s, who, id))
            .collect::<Vec<_>>()
    );
    usable
}

/// Candidate targets of an ability for a user (before the legality filter).
pub fn target_candidates(s: &State, user: Cid, id: crate::ability::AbilityId, size: i16) -> Vec<Target> {
    let mut v = Vec::new();
    let _ = each_target(s, user, id, size, &mut |t| {
        v.push(t);
        ControlFlow::Continue(())
    });
    v
}

/// Calls `f` with each of [`target_candidates`], in its order, until it breaks (without
/// collecting them).
fn each_target(
    s: &State,
    user: Cid,
    id: crate::ability::AbilityId,
    size: i16,
    f: &mut dyn FnMut(Target) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let a = s.setup.book.get(id);
    let Some(upos) = s.ch(user).pos else {
        return ControlFlow::Continue(());
    };
    let range = range_of(s, user, a).unwrap_or(0);
    let map = &s.setup.map;
    let near = |extra: i16| {
        map.positions()
            .filter(move |p| fray_space::chebyshev(*p, upos) as i16 <= range + extra)
    };
    match &a.target {
        TargetSpec::SelfOnly | TargetSpec::AllEnemies | TargetSpec::Aura(_) => f(Target::None),
        TargetSpec::UpToEnemies(n) => {
            let pool: Vec<Cid> = s
                .ids()
                .filter(|&t| {
                    s.enemies(user, t)
                        && check::can_target(
                            s,
                            user,
                            &Action {
                                ability: id,
                                target: Target::Chars([t].into_iter().collect()),
                                pick: Pick::default(),
                                overexert: None,
                            },
                        )
                })
                .collect();
            let mut out = Vec::new();
            subsets(
                &pool,
                *n as usize,
                !s.options.distinct_targets,
                &mut Vec::new(),
                0,
                &mut out,
            );
            out.into_iter().try_for_each(|l| f(Target::Chars(l.into())))
        }
        TargetSpec::Area(_) => {
            let size = size.max(1);
            for y in (upos.y - range - size + 1)..=(upos.y + range) {
                for x in (upos.x - range - size + 1)..=(upos.x + range) {
                    f(Target::Area(Pos::new(x, y)))?;
                }
            }
            ControlFlow::Continue(())
        }
        TargetSpec::Line(_) => {
            for p in near(size.max(1)) {
                for d in Dir::ALL {
                    f(Target::Line(p, d))?;
                }
            }
            ControlFlow::Continue(())
        }
        TargetSpec::LineToEdge => Dir::ALL.iter().try_for_each(|d| f(Target::Toward(*d))),
        TargetSpec::Square => near(0).try_for_each(|p| f(Target::Square(p))),
        _ => s.ids().try_for_each(|t| f(Target::Chars([t].into_iter().collect()))),
    }
}

/// Every sorted list of 1 to `max` targets from `pool` (with repeats when `repeat`).
fn subsets(pool: &[Cid], max: usize, repeat: bool, cur: &mut Vec<Cid>, from: usize, out: &mut Vec<Vec<Cid>>) {
    if !cur.is_empty() {
        out.push(cur.clone());
    }
    if cur.len() == max {
        return;
    }
    for i in from..pool.len() {
        cur.push(pool[i]);
        subsets(pool, max, repeat, cur, if repeat { i } else { i + 1 }, out);
        cur.pop();
    }
}

/// The pick variants an ability may need (choice options, directions, statuses).
pub fn pick_candidates(s: &State, user: Cid, id: crate::ability::AbilityId, target: &Target) -> Picks {
    let mut v = Picks::new();
    let _ = each_pick(s, id, status_target(user, target), &mut |p| {
        v.push(p);
        ControlFlow::Continue(())
    });
    v
}

/// The picks of [`pick_candidates`]: most abilities have one, a few a handful, so they are kept
/// inline.
pub type Picks = smallvec::SmallVec<[Pick; 8]>;

/// Whose negative statuses a pick may name: the first target's, or the user's.
fn status_target(user: Cid, target: &Target) -> Cid {
    match target {
        Target::Chars(l) => l.first().copied().unwrap_or(user),
        _ => user,
    }
}

/// Calls `f` with each of [`pick_candidates`], in its order, until it breaks (without
/// collecting them); `status_target` is [`status_target`] of the target.
fn each_pick(
    s: &State,
    id: crate::ability::AbilityId,
    status_target: Cid,
    f: &mut dyn FnMut(Pick) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let a = s.setup.book.get(id);
    let choose = a.effect.iter().chain(&a.success).find_map(|l| match &l.op {
        Op::Choose(c) => Some(c),
        _ => None,
    });
    let needs = |lines: &[crate::ability::Line]| -> (bool, bool) {
        let dir = lines.iter().any(|l| matches!(l.op, Op::Shift(_)));
        let st = lines.iter().any(|l| matches!(l.op, Op::EndStatus));
        (dir, st)
    };
    let (base_dir, base_st) = {
        let (a1, b1) = needs(&a.effect);
        let (a2, b2) = needs(&a.success);
        let (a3, b3) = needs(&a.critical);
        (a1 || a2 || a3, b1 || b2 || b3)
    };
    // Each direction (or none) with each negative status (or none), directions outermost. The
    // statuses are listed once, when a pick needs them; nothing is allocated otherwise.
    let some_dirs = Dir::ALL.map(Some);
    let mut statuses: Option<Vec<crate::state::StatusRef>> = None;
    let mut expand = |option: Option<u8>, dir: bool, st: bool| -> ControlFlow<()> {
        let dirs: &[Option<Dir>] = if dir { &some_dirs } else { &[None] };
        if !st {
            for d in dirs {
                f(Pick {
                    option,
                    dir: *d,
                    status: None,
                })?;
            }
            return ControlFlow::Continue(());
        }
        let sts = statuses.get_or_insert_with(|| negative_statuses(s, status_target));
        for d in dirs {
            for t in sts.iter() {
                f(Pick {
                    option,
                    dir: *d,
                    status: Some(*t),
                })?;
            }
        }
        ControlFlow::Continue(())
    };
    match choose {
        None => expand(None, base_dir, base_st),
        Some(c) => c.iter().enumerate().try_for_each(|(i, ch)| {
            let (d, st) = needs(&ch.ops);
            expand(Some(i as u8), base_dir || d, base_st || st)
        }),
    }
}

/// Whether `who` has at least one legal Action now, under the stage `st` (stops at the first
/// one found).
pub fn any_action(s: &State, st: &Stage, who: Cid) -> bool {
    each_action(s, st, who, abilities_of(s, who), &mut |_, _| ControlFlow::Break(())).is_break()
}

/// Calls `f` with every legal Action of `who` and its plan, in the listed order, until it
/// breaks, under the stage `st`; `mine` is `who`'s [`abilities_of`].
///
/// The check runs in its three pieces (see [`check::action_open`]): once per ability and
/// Overexert option, once per target, once per pick; one Action is changed in place from
/// candidate to candidate and copied only when it is legal.
fn each_action(
    s: &State,
    st: &Stage,
    who: Cid,
    mine: &[crate::ability::AbilityId],
    f: &mut dyn FnMut(Command, Plan) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for &id in mine {
        let a = s.setup.book.get(id);
        if a.kind != Kind::Action {
            continue;
        }
        for ov in std::iter::once(None).chain((0..a.overexert.len() as u8).map(Some)) {
            if !check::action_open(s, st, id, ov) {
                continue;
            }
            let mut act = Action {
                ability: id,
                target: Target::None,
                pick: Pick::default(),
                overexert: ov,
            };
            let size = check::area_size(s, who, &act);
            let range = calc::range_of(s, who, a);
            each_target(s, who, id, size, &mut |target| {
                if let Target::Chars(l) = &target
                    && let [t] = l[..]
                    && !check::may_target(s, who, &a.target, t)
                {
                    debug_assert!(check::action_aimed_in_range(s, &Action { target, ..act.clone() }, range).is_none());
                    return ControlFlow::Continue(());
                }
                let on = status_target(who, &target);
                act.target = target;
                let Some(targets) = check::action_aimed_in_range(s, &act, range) else {
                    return ControlFlow::Continue(());
                };
                each_pick(s, id, on, &mut |pick| {
                    act.pick = pick;
                    if check::pick_allowed(s, &act, &targets) {
                        let plan = Plan::Act {
                            targets: targets.clone(),
                        };
                        f(Command::Act(act.clone()), plan)
                    } else {
                        ControlFlow::Continue(())
                    }
                })
            })?;
        }
    }
    ControlFlow::Continue(())
}
