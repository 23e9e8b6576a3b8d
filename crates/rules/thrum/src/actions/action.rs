//! An Action: its check and its legal list (the Action step of a turn, THR-R26 to THR-R40;
//! Overexert, THR-R132 to THR-R135; picks such as Recover's negative statuses, THR-R193). The
//! rules cited at the code here: THR-R21, THR-R30, THR-R38, THR-R60, THR-R132, THR-R134,
//! THR-R193, THR-R218, THR-R226.
//!
//! The check runs in three pieces that the legal list and the AI call apart ([`action_open`]
//! per ability and Overexert option, [`action_aimed`] per target, [`pick_allowed`] per pick);
//! whom an Action affects is `actions::targets`. The legal list's part here generates the
//! candidates (usable abilities, targets, picks) and filters them through those pieces. Its
//! resolution, an ability use going through its stages, is `actions::ability`: it resolves every
//! ability, triggered ones too, not only a declared Action, and with it this file would be twice
//! the size.

use crate::ability::{Ability, AbilityId, Kind, Op, TargetSpec};
use crate::actions::movement::check_stop_here;
use crate::actions::targets::{area_size, may_target, targets};
use crate::calc::{self, has_ability, range_of};
use crate::codes::{self, Say, no};
use crate::command::{Action, CharList, Command, Target};
use crate::plan::Plan;
use crate::reach::{can_stop, movement_left, teleport_cost};
use crate::setup::Cid;
use crate::stage::Stage;
use crate::state::{Phase, Pick, State, is_negative, negative_statuses, status_on};
use fray_engine::Reject;
use fray_space::{Dir, Pos};
use std::ops::ControlFlow;

/// An Action of `who` under the stage `st` (its turn's Move step).
pub(crate) fn check_action(s: &State, st: &Stage, who: Cid, act: &Action, say: Say) -> Result<Plan, Reject> {
    action_use(s, st, who, act.ability, act.overexert, say)?;
    let range = range_of(s, who, s.setup.book.get(act.ability));
    let targets = action_aim(s, who, act, range, say)?;
    check_pick(s, who, s.setup.book.get(act.ability), act, &targets, say)?;
    Ok(Plan::Act { targets })
}

/// Whether [`check`] may accept an Action of the current character with this ability and
/// Overexert option, under the stage `st` (the [`stage`] of `s`), for some target and pick:
/// every part of its check that depends on neither. With [`action_aimed`] and [`pick_allowed`]
/// it is the check of an Action in three pieces, for the legal list, which tries many targets
/// and picks of one ability: [`allowed`] accepts an Action exactly when `action_open` holds,
/// `action_aimed` gives its targets and `pick_allowed` accepts its pick with them.
pub fn action_open(s: &State, st: &Stage, ability: AbilityId, overexert: Option<u8>) -> bool {
    s.outcome.is_none()
        && matches!(st, Stage::Turn { dash: false, .. })
        && (ability as usize) < s.setup.book.abilities.len()
        && action_use(s, st, s.turn.who, ability, overexert, Say::Code).is_ok()
}

/// For an Action whose [`action_open`] holds, the characters it affects (its [`Plan::Act`]) when
/// [`check`] may accept it with some pick: the part of its check that depends on its target and
/// not on its pick.
pub fn action_aimed(s: &State, act: &Action) -> Option<CharList> {
    let range = range_of(s, s.turn.who, s.setup.book.get(act.ability));
    action_aimed_in_range(s, act, range)
}

/// [`action_aimed`] with the ability's range for the current character (`calc::range_of`)
/// worked out by the caller, once for the many targets it tries.
pub fn action_aimed_in_range(s: &State, act: &Action, range: Option<i16>) -> Option<CharList> {
    if let Target::Chars(l) = &act.target
        && l.iter().any(|&c| c as usize >= s.chars.len())
    {
        return None;
    }
    action_aim(s, s.turn.who, act, range, Say::Code).ok()
}

/// For an Action whose [`action_aimed`] gave `targets`, whether [`check`] accepts its pick.
pub fn pick_allowed(s: &State, act: &Action, targets: &[Cid]) -> bool {
    let a = s.setup.book.get(act.ability);
    check_pick(s, s.turn.who, a, act, targets, Say::Code).is_ok()
}

/// The part of an Action's check that depends on neither its target nor its pick: the turn,
/// the ability and its user, Nova and Overexert.
pub(crate) fn action_use(
    s: &State,
    st: &Stage,
    who: Cid,
    ability: AbilityId,
    overexert: Option<u8>,
    say: Say,
) -> Result<(), Reject> {
    if s.phase != Phase::Rounds {
        return Err(no(say, codes::NOT_NOW, || "no Actions in Round Zero")); // THR-R21
    }
    if !s.ch(who).able() {
        return Err(no(say, codes::NOT_NOW, || "an Incapacitated character cannot act"));
    }
    if ability as usize >= s.setup.book.abilities.len() {
        return Err(no(say, codes::UNKNOWN_ABILITY, || "no such ability"));
    }
    let a = s.setup.book.get(ability);
    // THR-R30: the one Action of the turn (only in the Move step, see `check`) is a Basic
    // Combat Ability or an Action the character picked from a Combat Art.
    if a.kind != Kind::Action || !has_ability(s, who, ability) {
        return Err(no(say, codes::UNKNOWN_ABILITY, || {
            format!("{} cannot use '{}' as an Action", s.name(who), a.id)
        }));
    }
    // THR-R218: a Stunned character that moved may not also take its Action.
    if s.turn.stunned && s.options.draft_stunned && s.turn.moved {
        return Err(no(
            say,
            codes::STUNNED,
            || "a Stunned character may Move or take its Action, not both",
        ));
    }
    // Nova: enough Potential, spent at most once per combat (THR-R226).
    if let Some(nv) = a.nova {
        match s.ch(who).nova.iter().find(|n| n.ability == ability) {
            Some(n) if n.used => {
                return Err(no(say, codes::NOT_NOW, || {
                    format!("{} was already used this combat", a.name)
                }));
            }
            Some(n) if n.potential >= nv.cost => {}
            Some(n) => {
                return Err(no(say, codes::NOT_NOW, || {
                    format!("{} needs {} Potential and has {}", a.name, nv.cost, n.potential)
                }));
            }
            None => {
                return Err(no(say, codes::UNKNOWN_ABILITY, || {
                    format!("{} has no Potential for {}", s.name(who), a.name)
                }));
            }
        }
    }
    check_stop_here(s, st, who, say)?;
    // Overexert (THR-R132 to THR-R134).
    if let Some(o) = overexert {
        let Some(ov) = a.overexert.get(o as usize) else {
            return Err(no(say, codes::BAD_PICK, || {
                format!("{} has no such Overexert option", a.id)
            }));
        };
        let cost = ov.stress.unwrap_or(s.options.overexert_stress);
        if !s.options.overexert_may_fray && s.ch(who).stress + cost > s.ch(who).st {
            return Err(no(
                say,
                codes::WOULD_FRAY,
                || "Overexert would make this character Frayed (overexert-may-fray = false)",
            ));
        }
    }
    Ok(())
}

/// The part of an Action's check that depends on its target and not on its pick: the
/// characters it affects, and for a teleport that uses movement, that much movement left.
pub(crate) fn action_aim(s: &State, who: Cid, act: &Action, range: Option<i16>, say: Say) -> Result<CharList, Reject> {
    let a = s.setup.book.get(act.ability);
    let targets = targets(s, who, act, range, say)?;
    // A teleport that uses movement needs that much movement left (THR-R60).
    let uses_movement = a
        .effect
        .iter()
        .chain(&a.success)
        .any(|l| matches!(l.op, Op::Teleport { uses_movement: true }));
    if uses_movement && let (Some(from), Target::Square(to)) = (s.ch(who).pos, &act.target) {
        let cost = teleport_cost(s, from, *to);
        let left = movement_left(s);
        if cost > left {
            return Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
                format!("the teleport costs {cost} movement and {left} is left")
            }));
        }
    }
    Ok(targets)
}

/// Checks the user's picks for the ability's choices.
pub(crate) fn check_pick(
    s: &State,
    who: Cid,
    a: &Ability,
    act: &Action,
    targets: &[Cid],
    say: Say,
) -> Result<(), Reject> {
    let choose = a.effect.iter().chain(&a.success).find_map(|l| match &l.op {
        Op::Choose(c) => Some(c),
        _ => None,
    });
    let pick = act.pick;
    let mut needs_dir = false;
    let mut needs_status = false;
    let mut scan = |ops: &[crate::ability::Line]| {
        for l in ops {
            match l.op {
                Op::Shift(_) => needs_dir = true,
                Op::EndStatus => needs_status = true,
                _ => {}
            }
        }
    };
    scan(&a.effect);
    scan(&a.success);
    scan(&a.critical);
    match (choose, pick.option) {
        (Some(c), Some(i)) => {
            let Some(choice) = c.get(i as usize) else {
                return Err(no(say, codes::BAD_PICK, || "no such option"));
            };
            scan(&choice.ops);
        }
        (Some(c), None) => {
            let labels: Vec<&str> = c.iter().map(|c| c.label.as_str()).collect();
            return Err(no(say, codes::BAD_PICK, || {
                format!("{} needs: option {}", a.id, labels.join("|"))
            }));
        }
        (None, Some(_)) => return Err(no(say, codes::BAD_PICK, || format!("{} has no options", a.id))),
        (None, None) => {}
    }
    match (needs_dir, pick.dir) {
        (true, None) => {
            return Err(no(
                say,
                codes::BAD_PICK,
                || "that needs a direction: dir <n|ne|e|se|s|sw|w|nw>",
            ));
        }
        (false, Some(_)) => return Err(no(say, codes::BAD_PICK, || "no direction is needed")),
        (true, Some(d)) => {
            // The shifted target must be able to land there now.
            for &t in targets {
                let Some(p) = s.ch(t).pos else { continue };
                let to = p.step(d);
                if !can_stop(s, t, to) || s.occupant(to).is_some() {
                    return Err(no(say, codes::BLOCKED, || {
                        format!("{} cannot be moved to {to}", s.name(t))
                    }));
                }
            }
        }
        (false, None) => {}
    }
    match (needs_status, pick.status) {
        (true, None) => Err(no(say, codes::BAD_PICK, || "that needs a status: status <name>")),
        (false, Some(_)) => Err(no(say, codes::BAD_PICK, || "no status is needed")),
        (true, Some(st)) => {
            let t = targets.first().copied().unwrap_or(who);
            if is_negative(s, st) && status_on(s, t, st) {
                Ok(())
            } else {
                Err(no(say, codes::BAD_PICK, || {
                    format!("{} has no negative status '{}' to end", s.name(t), st.name())
                }))
            }
        }
        (false, None) => Ok(()),
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
                        && crate::actions::targets::can_target(
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
/// The check runs in its three pieces (see [`action_open`]): once per ability and
/// Overexert option, once per target, once per pick; one Action is changed in place from
/// candidate to candidate and copied only when it is legal.
pub(crate) fn each_action(
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
            if !action_open(s, st, id, ov) {
                continue;
            }
            let mut act = Action {
                ability: id,
                target: Target::None,
                pick: Pick::default(),
                overexert: ov,
            };
            let size = area_size(s, who, &act);
            let range = calc::range_of(s, who, a);
            each_target(s, who, id, size, &mut |target| {
                if let Target::Chars(l) = &target
                    && let [t] = l[..]
                    && !may_target(s, who, &a.target, t)
                {
                    debug_assert!(action_aimed_in_range(s, &Action { target, ..act.clone() }, range).is_none());
                    return ControlFlow::Continue(());
                }
                let on = status_target(who, &target);
                act.target = target;
                let Some(targets) = action_aimed_in_range(s, &act, range) else {
                    return ControlFlow::Continue(());
                };
                each_pick(s, id, on, &mut |pick| {
                    act.pick = pick;
                    if pick_allowed(s, &act, &targets) {
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
