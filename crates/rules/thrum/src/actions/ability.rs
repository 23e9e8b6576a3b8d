//! The interpreter of an ability use: declaring an Action, then the use as a frame on the stack
//! going through its stages (defences, trigger windows, rolls, result lines, finish), last in,
//! first out (THR-R146, THR-R147, THR-R151). The rules cited at the code here: THR-R7, THR-R37,
//! THR-R85, THR-R87, THR-R96, THR-R99, THR-R100, THR-R104 to THR-R118, THR-R133, THR-R146,
//! THR-R147, THR-R166, THR-R190, THR-R201, THR-R205, THR-R206, THR-R219, THR-R226, THR-R227.
//!
//! It is the resolution of a declared Action (whose check and legal list are `actions::action`)
//! and of every triggered ability (whose windows are `actions::trigger`): one interpreter for
//! both, so it is a module of its own rather than half of either. What a result line does is
//! `actions::lines`'.

use crate::ability::{Ability, Cond, Defence, Op, XStatus};
use crate::actions::effects::{apply_buff, buff_keep_prompt, nova_on_contest, place_terrain};
use crate::actions::lines::{add_condition, add_vulnerable, apply_lines, deal};
use crate::actions::trigger::trigger_candidates;
use crate::calc::{self};
use crate::command::{Action, Gauge};
use crate::dice::roll2d6;
use crate::event::{Event, NotOfferedWhy, OnlyDefence, Rolled, Verdict};
use crate::flow::end::stop_check;
use crate::flow::turn::fixed_roll;
use crate::options::{AreaLeavers, DeclinedDefence, DefenceTiming, MultiTarget, StopCheck, TieRule};
use crate::setup::Cid;
use crate::state::Cx;
use crate::state::{
    Candidates, FixedKind, Frame, FrameChange, PerTarget, Pick, RollMods, Squares, State, Step, TargetMods, Targets,
    Use, UseHead, UseStage, WindowFrame,
};
use fray_engine::EngineError;
use fray_engine::Flow;
use fray_space::Pos;
use std::sync::Arc;

type R<T = ()> = Result<T, EngineError>;

fn first_stage(s: &State, a: &Ability) -> UseStage {
    // THR-R99: an attack's defences are all picked (in the Defences stage) before any attack
    // roll: the Rolls stage always comes after it, here and in `next_stage`.
    if !calc::rolls(s, a) {
        UseStage::Rolls
    } else if s.options.defence_timing == DefenceTiming::BeforeTriggers {
        UseStage::Defences
    } else {
        UseStage::Triggers
    }
}

/// Declares an Action, with the characters it affects as its check found them (its
/// [`crate::plan::Plan::Act`]).
pub(crate) fn declare(cx: &mut Cx, user: Cid, act: &Action, targets: &[Cid]) -> R {
    cx.emit(Event::Declared {
        user,
        ability: act.ability,
        target: act.target.clone(),
        overexert: act.overexert,
    });
    // What the steps below read of the ability, read first (holding the ability while the
    // state changes would take a clone of the setup's `Arc`).
    let a = cx.s.setup.book.get(act.ability);
    let overexert_cost = act
        .overexert
        .and_then(|i| a.overexert.get(i as usize))
        .map(|o| o.stress.unwrap_or(cx.s.options.overexert_stress));
    let (is_attack, nova) = (a.is_attack(), a.nova);
    // Overexert: declared and paid before any roll (THR-R133).
    if let Some(cost) = overexert_cost {
        let id = cx.s.uses;
        deal(cx, user, Gauge::Stress, cost, Some(user), id);
    }
    if is_attack && !cx.s.options.hamstrung_after_attack && cx.s.ch(user).status(XStatus::Hamstrung) > 0 {
        let id = cx.s.uses;
        add_condition(cx, user, Cond::Dazed, id);
    }
    // Nova: Potential is spent on use, once per combat (THR-R226).
    if let Some(nv) = nova
        && let Some(n) = cx.s.ch(user).nova.iter().find(|n| n.ability == act.ability).copied()
    {
        cx.emit(Event::NovaSpent {
            who: user,
            ability: act.ability,
            potential: n.potential.saturating_sub(nv.cost),
        });
    }
    // Hidden ends when a foe aims an ability at it from an adjacent square (THR-R219); a
    // Hidden user aiming at a foe loses it once that ability has resolved (`finish_use`).
    if cx.s.options.draft_hidden {
        for &t in targets {
            if cx.s.ch(t).has(Cond::Hidden)
                && cx.s.enemies(user, t)
                && calc::dist_between(&cx.s, user, t).is_some_and(|d| d <= 1)
            {
                cx.emit(Event::Condition {
                    who: t,
                    cond: Cond::Hidden,
                    on: false,
                    by_use: 0,
                });
            }
        }
    }
    let square = match act.target {
        crate::command::Target::Square(p) => Some(p),
        _ => None,
    };
    let shape = match cx.s.ch(user).pos {
        Some(up) => crate::actions::targets::shape_squares(&cx.s, user, act, up)
            .map_or_else(Squares::new, |sq| Squares::from_slice(&sq)),
        None => Squares::new(),
    };
    start_use(
        cx,
        user,
        act.ability,
        Targets::from_slice(targets),
        square,
        shape,
        act.pick,
        act.overexert,
        true,
    )?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn start_use(
    cx: &mut Cx,
    user: Cid,
    ability: crate::ability::AbilityId,
    targets: Targets,
    square: Option<Pos>,
    shape: Squares,
    pick: Pick,
    overexert: Option<u8>,
    is_action: bool,
) -> R {
    let a = cx.s.setup.book.get(ability);
    let n = targets.len();
    let u = Use {
        id: cx.s.uses,
        user,
        ability,
        targets,
        square,
        shape,
        pick,
        overexert,
        is_action,
        stage: first_stage(&cx.s, a),
        index: 0,
        post: false,
        defences: PerTarget::filled(None, n),
        mods: TargetMods::filled(RollMods::default(), n),
        verdicts: PerTarget::filled(None, n),
        shared_attack: None,
        moved: 0,
    };
    cx.push(Frame::Use(u))
}

fn next_stage(s: &State, stage: UseStage) -> UseStage {
    let before = s.options.defence_timing == DefenceTiming::BeforeTriggers;
    match stage {
        UseStage::Defences if before => UseStage::Triggers,
        UseStage::Defences => UseStage::Rolls,
        UseStage::Triggers if before => UseStage::Rolls,
        UseStage::Triggers => UseStage::Defences,
        UseStage::Rolls | UseStage::Finish => UseStage::Finish,
    }
}

/// Why the one defence `who` has against `a` is the only one (the log and a later `defend`
/// say so).
fn only_defence(s: &State, who: Cid, a: &Ability) -> OnlyDefence {
    if s.info(who).minion_of.is_some() {
        return OnlyDefence::Minion;
    }
    let slowed = s.ch(who).status(XStatus::Slowed) > 0;
    match a.attack {
        Some(crate::ability::AttackKind::Special) if slowed => OnlyDefence::SlowedSpecial,
        _ if slowed => OnlyDefence::Slowed,
        _ => OnlyDefence::NoOther,
    }
}

/// Moves the ability use at `depth` to another place in its resolution.
fn cursor(cx: &mut Cx, depth: usize, stage: UseStage, index: usize, post: bool) {
    let index = index as u8;
    cx.change(depth, FrameChange::Cursor { stage, index, post });
}

pub(crate) fn step_use(cx: &mut Cx) -> R<Flow> {
    // The use's cursor and what the stages read of it; the frame itself is changed in place.
    let Some(Frame::Use(top)) = cx.s.stack.last() else {
        return Ok(Flow::Go);
    };
    let (user, ability, stage, index, post) = (top.user, top.ability, top.stage, top.index, top.post);
    let n = top.targets.len();
    let depth = cx.s.stack.len() - 1;
    // The ability is looked up where a stage reads it, not held across the stage: holding it
    // while the state changes would take a clone of the setup's `Arc`, an atomic count up and
    // down on every step of every use.
    // A user who left the fight (a GM ruling) stops its ability.
    if !cx.s.ch(user).present() && stage != UseStage::Finish {
        cursor(cx, depth, UseStage::Finish, index as usize, post);
        return Ok(Flow::Go);
    }
    match stage {
        UseStage::Defences => {
            // The targets and their defences as the step found them: a defence chosen below
            // fills the frame's slot, not these.
            let (targets, defences) = (top.targets.clone(), top.defences.clone());
            // THR-R96: every target of an attack gets to defend: each is asked for its defence
            // in turn (a lone option is taken for it).
            let mut i = index as usize;
            while i < n {
                let t = targets[i];
                if defences[i].is_some() || !cx.s.ch(t).present() {
                    i += 1;
                    continue;
                }
                let options = calc::defences(&cx.s, t, cx.s.setup.book.get(ability));
                if cx.s.ch(t).incapacitated && !cx.s.options.incapacitated_may_defend {
                    cx.emit(Event::DefenceChosen {
                        who: t,
                        defence: Defence::Decline,
                        only: Some(OnlyDefence::Incapacitated),
                    });
                    i += 1;
                    continue;
                }
                if options.len() == 1 {
                    let why = only_defence(&cx.s, t, cx.s.setup.book.get(ability));
                    cx.emit(Event::DefenceChosen {
                        who: t,
                        defence: options[0],
                        only: Some(why),
                    });
                    i += 1;
                    continue;
                }
                if i != index as usize {
                    cursor(cx, depth, stage, i, post);
                }
                return Ok(Flow::Wait);
            }
            let next = next_stage(&cx.s, UseStage::Defences);
            cursor(cx, depth, next, 0, post);
            Ok(Flow::Go)
        }
        UseStage::Triggers => {
            let i = index as usize;
            if i >= n {
                let next = next_stage(&cx.s, UseStage::Triggers);
                cursor(cx, depth, next, 0, post);
                return Ok(Flow::Go);
            }
            let t = top.targets[i];
            cursor(cx, depth, stage, i + 1, post);
            let mut skipped = Vec::new();
            let candidates = match cx.s.stack.last() {
                Some(Frame::Use(u)) => trigger_candidates(&cx.s, u, cx.s.setup.book.get(ability), t, &mut skipped),
                _ => Candidates::new(),
            };
            // Triggers whose condition held but that are not offered are logged with the reason.
            for (h, id, why) in skipped {
                cx.emit(Event::NotOffered {
                    who: h,
                    ability: id,
                    about: t,
                    why,
                });
            }
            let deep = cx.s.stack.len() >= cx.s.options.trigger_depth_limit as usize;
            if deep {
                // THR-R146: the loop guard.
                for &(h, id) in &candidates {
                    cx.emit(Event::NotOffered {
                        who: h,
                        ability: id,
                        about: t,
                        why: NotOfferedWhy::DepthLimit,
                    });
                }
            }
            // THR-R147: the window is pushed on top of this use, which waits under it (its rolls
            // not yet made) until the window and what its triggers start have resolved.
            if !candidates.is_empty() && !deep {
                cx.push(Frame::Window(WindowFrame {
                    use_frame: depth as u8,
                    target_index: i as u8,
                    candidates,
                    asked: 0,
                }))?;
            }
            Ok(Flow::Go)
        }
        UseStage::Rolls => {
            let i = index as usize;
            if i >= n {
                cursor(cx, depth, UseStage::Finish, 0, false);
                return Ok(Flow::Go);
            }
            if !post {
                // Roll this target and apply its lines; anything those lines start (a move, a
                // roll) resolves before the after-effects.
                cursor(cx, depth, stage, i, true);
                resolve_target(cx, depth, i)?;
            } else {
                cursor(cx, depth, stage, i + 1, false);
                post_target(cx, depth, i)?;
            }
            Ok(Flow::Go)
        }
        UseStage::Finish => {
            if !post {
                cursor(cx, depth, stage, index as usize, true);
                finish_use(cx, depth)?;
            } else {
                let u = top.head();
                cx.pop();
                after_use(cx, &u)?;
            }
            Ok(Flow::Go)
        }
    }
}

/// Rolls one target of an ability and applies its result lines.
fn resolve_target(cx: &mut Cx, depth: usize, i: usize) -> R {
    let Some(full) = cx.s.use_at(depth) else {
        return Ok(());
    };
    // What the rest reads of the use, as it stands now (the frame itself is not copied).
    let (u, d, mods) = (full.head(), full.defences[i], full.mods[i]);
    let t = full.targets[i];
    let user = u.user;
    if !cx.s.ch(t).present() || cx.s.ch(t).pos.is_none() {
        return Ok(());
    }
    // An Area, Line or Aura affects the characters inside it (THR-R85): a target that has
    // left the shape since the declaration (by Interpose, say) is spared (`area-leavers`).
    if !full.shape.is_empty()
        && cx.s.options.area_leavers == AreaLeavers::Spared
        && cx.s.ch(t).pos.is_some_and(|p| !full.shape.contains(&p))
    {
        cx.note(|| Event::LeftArea { who: t });
        return Ok(());
    }
    let setup = Arc::clone(&cx.s.setup);
    let a = setup.book.get(u.ability);
    if !calc::rolls(&cx.s, a) {
        apply_lines(cx, depth, &u, a, t, None)?;
        if a.buff_spec.is_some() {
            apply_buff(cx, &u, t)?;
        }
        return Ok(());
    }
    let d = d.unwrap_or(Defence::Decline);
    let (margin, def_margin) = calc::margins(&cx.s, user, a);
    // The names only describe the rolls (formatted when a person is asked for the faces).
    let (uname, tname) = (&setup.chars[user as usize].name, &setup.chars[t as usize].name);
    let attack_parts = |s: &State| -> (i16, i16) {
        let tally = calc::attack_tally(s, user, a, t);
        (tally.net(s), calc::attack_modifier(s, user, a))
    };
    let (attack, defence, verdict) = if d == Defence::Decline {
        match cx.s.options.declined_defence {
            // THR-R100: by default a declined defence makes the attack an automatic Success,
            // never a Critical.
            DeclinedDefence::AutoSuccess => (None, None, Verdict::AttackerSuccess),
            DeclinedDefence::DefenceZero => {
                let (net, m) = attack_parts(&cx.s);
                let r = roll2d6(cx, net, m, &format_args!("{uname}'s attack on {tname}"))?;
                let v = verdict_of(r.total, 0, margin, def_margin);
                (Some(r), None, v)
            }
        }
    } else {
        let mut dt = calc::defence_tally(&cx.s, t, d);
        dt.add(mods.defence_boons);
        let dm = calc::defence_modifier(&cx.s, t, d, user) + mods.defence_flat;
        loop {
            // THR-R87: by default each target of the use gets an attack roll of its own against
            // its own defence (Cover, Assist and Banes per target); `multi-target = shared`
            // rolls once for all.
            let r = match (cx.s.options.multi_target, shared_attack(cx, depth)) {
                (MultiTarget::Shared, Some(r)) => r,
                _ => {
                    let (net, m) = attack_parts(&cx.s);
                    let r = roll2d6(cx, net, m, &format_args!("{uname}'s attack on {tname}"))?;
                    if cx.s.options.multi_target == MultiTarget::Shared {
                        remember_shared(cx, depth, r);
                    }
                    r
                }
            };
            let dnet = dt.net(&cx.s);
            let dr = roll2d6(cx, dnet, dm, &format_args!("{tname}'s {} roll", d.name()))?;
            if r.total == dr.total && cx.s.options.tie_rule == TieRule::Reroll {
                cx.note(|| Event::Contest {
                    user,
                    target: t,
                    ability: u.ability,
                    attack: Some(Box::new(r)),
                    defence: Some(Box::new(dr)),
                    with: d,
                    verdict: Verdict::DefenderSuccess,
                });
                // Reroll: a shared roll is rolled again too.
                forget_shared(cx, depth);
                continue;
            }
            let v = verdict_of(r.total, dr.total, margin, def_margin);
            break (Some(r), Some(dr), v);
        }
    };
    cx.note(|| Event::Contest {
        user,
        target: t,
        ability: u.ability,
        attack: attack.map(Box::new),
        defence: defence.map(Box::new),
        with: d,
        verdict,
    });
    cx.change(
        depth,
        FrameChange::Verdict {
            target: i as u8,
            verdict,
        },
    );
    nova_on_contest(cx, user, t, verdict, attack);
    // Evasion short of a Critical, a tie included, leaves the defender +1 Vulnerable (THR-R112).
    let evasion_mark = d == Defence::Evasion && verdict != Verdict::DefenderCritical;
    if evasion_mark && !cx.s.options.vulnerable_after_lines {
        add_vulnerable(cx, t);
    }
    apply_lines(cx, depth, &u, a, t, Some(verdict))?;
    Ok(())
}

/// After one target's lines: Vulnerable from Evasion, stances that end unless the defence was
/// a Critical, the Finisher check, a Buff's creator deciding whether to keep it, and follow-ups
/// armed for a Critical defence. Later items are pushed first so they resolve last.
fn post_target(cx: &mut Cx, depth: usize, i: usize) -> R {
    let Some(u) = cx.s.use_at(depth) else {
        return Ok(());
    };
    let (t, user) = (u.targets[i], u.user);
    let Some(verdict) = u.verdicts[i] else { return Ok(()) };
    // The one fact read of the ability (holding the ability itself while the state changes
    // would take a clone of the setup's `Arc`).
    let finisher = cx.s.setup.book.get(u.ability).finisher;
    let d = u.defences[i].unwrap_or(Defence::Decline);
    let mods = u.mods[i];
    if d == Defence::Evasion && verdict != Verdict::DefenderCritical && cx.s.options.vulnerable_after_lines {
        add_vulnerable(cx, t); // THR-R104, THR-R227
    }
    // Stances that stay up only on a Critical defence (THR-R109).
    if let Some(h) = mods.ends_unless_critical
        && verdict != Verdict::DefenderCritical
        && let Some(st) = cx.s.ch(h).stance
    {
        cx.emit(Event::StanceEnded { who: h, ability: st });
    }
    // A follow-up armed for a Critical defence (Parry and Riposte) resolves last.
    if verdict == Verdict::DefenderCritical
        && let Some((h, f)) = mods.on_defence_critical
        && cx.s.ch(h).able()
        && cx.s.ch(user).present()
        && cx.s.stack.len() < cx.s.options.trigger_depth_limit as usize
    {
        cx.emit(Event::Declared {
            user: h,
            ability: f,
            target: crate::command::Target::Chars([user].into_iter().collect()),
            overexert: None,
        });
        start_use(
            cx,
            h,
            f,
            Targets::from_slice(&[user]),
            None,
            Squares::new(),
            Pick::default(),
            None,
            false,
        )?;
    }
    // A used-up Buff: its creator decides whether to keep it.
    if mods.buff_used {
        buff_keep_prompt(cx, t)?;
    }
    // Finisher (THR-R117, THR-R118): first of all.
    if finisher
        && (verdict.hit() || cx.s.options.finisher_on_miss)
        && cx.s.ch(t).exhausted()
        && !cx.s.ch(t).incapacitated
    {
        fixed_roll(cx, t, FixedKind::Incapacity)?;
    }
    Ok(())
}

pub(crate) fn shared_attack(cx: &Cx, depth: usize) -> Option<Rolled> {
    cx.s.use_at(depth).and_then(|u| u.shared_attack.as_deref().copied())
}

fn remember_shared(cx: &mut Cx, depth: usize, r: Rolled) {
    cx.change(depth, FrameChange::SharedAttack { roll: Some(r) });
}

fn forget_shared(cx: &mut Cx, depth: usize) {
    if cx.s.use_at(depth).is_some_and(|u| u.shared_attack.is_some()) {
        cx.change(depth, FrameChange::SharedAttack { roll: None });
    }
}

/// The verdict of a contest (THR core: ties to the defender, Critical at the margin; the
/// attacker's and the defender's margins may differ, see [`calc::margins`]).
pub fn verdict_of(attack: i16, defence: i16, margin: i16, defence_margin: i16) -> Verdict {
    // THR-R106: the Success line needs the attack total to beat the defence total; an equal
    // total is a plain defender Success (THR-R112).
    let d = attack - defence;
    if d >= margin {
        Verdict::AttackerCritical
    } else if d > 0 {
        Verdict::AttackerSuccess
    } else if -d >= defence_margin {
        Verdict::DefenderCritical
    } else {
        Verdict::DefenderSuccess
    }
}

/// The end of an ability, first part: Burning ends on Recover, Hamstrung Dazes an attacker,
/// a Terrain Effect is placed, and an Exhausted user rolls for Incapacity after its Action.
fn finish_use(cx: &mut Cx, depth: usize) -> R {
    let Some(top) = cx.s.use_at(depth) else {
        return Ok(());
    };
    let u = top.head();
    // What the steps below read of the ability, read first (holding the ability while the
    // state changes would take a clone of the setup's `Arc`; placing a Terrain Effect, the one
    // step that needs the whole ability, takes that clone).
    let a = cx.s.setup.book.get(u.ability);
    let (recover, is_attack, places_terrain) = (a.recover, a.is_attack(), a.terrain.is_some());
    let user = u.user;
    // Read off the frame as it stands now, and only where a step below needs it: whether a
    // foe was aimed at (drafted Hidden), and the whole use (placing a Terrain Effect).
    let enemy_aimed_at = cx.s.options.draft_hidden && top.targets.iter().any(|&t| cx.s.enemies(user, t));
    let terrain_use = places_terrain.then(|| top.clone());
    if recover && cx.s.ch(user).status(XStatus::Burning) > 0 {
        cx.emit(Event::Status {
            who: user,
            status: XStatus::Burning,
            x: 0,
        }); // THR-R205
    }
    if is_attack && cx.s.options.hamstrung_after_attack && cx.s.ch(user).status(XStatus::Hamstrung) > 0 {
        add_condition(cx, user, Cond::Dazed, u.id); // THR-R206
    }
    // A Hidden user that aimed at a foe is seen now: the ability itself was still used from
    // hiding (so Unseen Aim's Boon applies to it) (THR-R219).
    if cx.s.options.draft_hidden && cx.s.ch(user).has(Cond::Hidden) && enemy_aimed_at {
        cx.emit(Event::Condition {
            who: user,
            cond: Cond::Hidden,
            on: false,
            by_use: 0,
        });
    }
    if let Some(full) = &terrain_use
        && cx.s.ch(user).present()
    {
        let setup = Arc::clone(&cx.s.setup);
        place_terrain(cx, full, setup.book.get(u.ability));
    }
    // Exhaustion is judged after the Action's lines: Recover taking Load 4 back to Tolerance 3
    // leaves the user not Exhausted, so no roll (THR-R201).
    if u.is_action
        && cx.s.ch(user).able()
        && cx.s.ch(user).exhausted()
        && (cx.s.options.incapacity_after_any_action || is_attack)
    {
        fixed_roll(cx, user, FixedKind::Incapacity)?; // THR-R166
    }
    Ok(())
}

/// The end of an ability, second part: the stop check and the turn's next step.
fn after_use(cx: &mut Cx, u: &UseHead) -> R {
    let dash =
        cx.s.setup
            .book
            .get(u.ability)
            .effect
            .iter()
            .any(|l| matches!(l.op, Op::Dash));
    let user = u.user;
    // THR-R7: by default the stop conditions are checked once each ability has resolved.
    if cx.s.options.stop_check == StopCheck::AfterAbilityAndTurn {
        stop_check(cx);
    }
    if u.is_action && cx.s.turn.who == user && cx.s.outcome.is_none() && cx.s.stack.is_empty() {
        // THR-R37: after the Action no more movement (the Stance step comes next), unless the
        // Action grants it: Dash opens a fresh allowance up to Speed (THR-R190; `ActionMove`
        // resets the movement spent).
        let step = if dash && cx.s.ch(user).able() {
            Step::ActionMove
        } else {
            Step::Stance
        };
        cx.emit(Event::StepChanged { step });
    }
    Ok(())
}
