//! Moving (movement, elevation and terrain, THR-R51 to THR-R76; Disoriented, THR-R216,
//! THR-R217): the `move` and `step` commands and the move prompts, from check to resolution. The
//! rules cited at the code here: THR-R21, THR-R37, THR-R52, THR-R53, THR-R55 to THR-R57,
//! THR-R64 to THR-R69, THR-R73, THR-R74, THR-R76, THR-R182, THR-R216 to THR-R218.
//!
//! The check of a `move` (who may move now, where it may stop, the path within the movement
//! left), of a `step` (its price after the Weaver's exemption, a drop roll only where it may
//! drop), of a prompted move, and of stopping in a square another character fills (which a
//! Stance and the end of a turn ask too); the legal list's answers (every `move` with its path
//! from one reachability search, the steps to try); and the resolution: a move along its checked
//! path, a step (rolled for a Disoriented character), drops of two levels or more and their
//! rolls, and forced moves (pushes and pulls). The searches and step prices themselves are in
//! [`crate::reach`], which the check, the legal list and the resolution here all go through,
//! so they cannot price a step differently.

use crate::Thrum;
use crate::ability::{Attr, Cond, XStatus};
use crate::actions::effects::entered;
use crate::actions::lines::add_condition;
use crate::calc::{self, Tally};
use crate::codes::{self, Say, no, on_map};
use crate::command::Command;
use crate::dice::{dist2d6, roll2d6};
use crate::event::Event;
use crate::options::{EnvironmentRoll, InvoluntaryDrop};
use crate::plan::{Path, Plan};
use crate::reach::{
    MoveCtx, can_stop, exemption, movement_left, paid_step_cost, path_for, reachable, step_price, terrain_step_cost,
    weave, with_scratch,
};
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::{Cx, Phase, State};
use fray_dice::Dist;
use fray_engine::{Answer, EngineError, Reject};
use fray_space::{Dir, PathScratch, Pos};

type R<T = ()> = Result<T, EngineError>;

/// Who makes a normal move now, under the stage `at`, when anyone may.
pub(crate) fn moving(s: &State, at: Option<&Stage>, say: Say) -> Result<Cid, Reject> {
    // No normal moves in Round Zero (THR-R21), nor outside the Move step or Dash's allowance.
    let Some(&Stage::Turn { who, dash }) = at.filter(|_| s.phase == Phase::Rounds) else {
        return Err(no(
            say,
            codes::NOT_NOW,
            || "moving is only possible in the Move step of a turn",
        ));
    };
    if s.turn.move_ended {
        // THR-R67: a failed drop roll ends the character's movement for the turn.
        return Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
            format!(
                "{}'s movement ended for this turn (a failed drop roll): no movement is left",
                s.name(who)
            )
        }));
    }
    if calc::has(s, who, Cond::Immobilized) {
        return Err(immobilized(s, who, say));
    }
    // THR-R218: a Stunned character that took its Action may not also Move.
    if s.turn.stunned && s.options.draft_stunned && s.turn.acted && !dash {
        return Err(no(
            say,
            codes::STUNNED,
            || "a Stunned character may Move or take its Action, not both",
        ));
    }
    Ok(who)
}

/// The refusal of a move or step of an Immobilized character.
fn immobilized(s: &State, who: Cid, say: Say) -> Reject {
    no(say, codes::IMMOBILIZED, || format!("{} is Immobilized", s.name(who)))
}

/// Whether the current character may make a normal `move` now, whatever the destination: the
/// parts of the `move` check that do not depend on where it goes. A destination [`reachable`]
/// listed for this same state then passes the whole check (its path is within the movement
/// left, it is not the start and the mover may stop there), so a caller holding that list needs
/// no second path search per destination.
pub fn may_move(s: &State) -> bool {
    moving(s, stage(s).as_ref(), Say::Code).is_ok()
        && !calc::has(s, s.turn.who, Cond::Disoriented)
        && s.ch(s.turn.who).pos.is_some()
}

/// Whether a `step` of `who` from `from` in direction `dir` may carry a drop roll: when it
/// drops 2 or more levels (THR-R67), or always for a Disoriented character, which does not know
/// where its step goes: its roll is declared in advance and used if the step it really takes
/// drops 2+ levels. [`check`] refuses a rolled step otherwise, and the legal list offers one
/// only then.
pub fn step_may_roll(s: &State, who: Cid, from: Pos, dir: Dir) -> bool {
    calc::has(s, who, Cond::Disoriented)
        || terrain_step_cost(&s.setup.map, from, from.step(dir)).map_or(0, |c| c.drop) >= 2
}

/// Who moves and from where, when a `move` is possible now at all: everything [`check`] asks
/// of a `move` in the Move step before it looks at the square and the path.
pub(crate) fn move_start(s: &State, at: Option<&Stage>, say: Say) -> Result<(Cid, Pos), Reject> {
    let who = moving(s, at, say)?;
    if calc::has(s, who, Cond::Disoriented) {
        return Err(no(
            say,
            codes::NOT_NOW,
            || "a Disoriented character moves one step at a time (use step)",
        ));
    }
    let from = s
        .ch(who)
        .pos
        .ok_or_else(|| no(say, codes::NOT_NOW, || "not on the map"))?;
    Ok((who, from))
}

/// Every square a `move` of the Move step may go to now (`st` is the [`stage`]), with its cost,
/// in the order of [`reachable`]: exactly the squares `p` whose `Move(p)` [`check`] accepts,
/// found with one reachability search where checking each square runs a path search of its own
/// (the cheapest path to a square exists within the budget exactly when the search reaches it).
pub fn moves(s: &State, st: &Stage, scratch: &mut PathScratch) -> Vec<(Pos, u32)> {
    if s.outcome.is_some() {
        return Vec::new();
    }
    let Ok((who, from)) = move_start(s, Some(st), Say::Code) else {
        return Vec::new();
    };
    // The search's destinations are squares other than `from` the mover may stop on, the rest
    // of the check (`MoveCtx` agrees with `can_stop`, checked in debug builds).
    let v = reachable(s, who, scratch);
    debug_assert!(v.iter().all(|&(p, _)| p != from && can_stop(s, who, p)));
    v
}

/// Every `move` of the Move step [`check`] accepts now (`st` is the [`stage`]), each with the
/// plan it gives, in the order of [`moves`]: found with one reachability search, each path read
/// off it.
pub fn move_answers(s: &State, st: &Stage, scratch: &mut PathScratch, out: &mut Vec<Answer<Thrum>>) {
    if s.outcome.is_some() {
        return;
    }
    let Ok((who, from)) = move_start(s, Some(st), Say::Code) else {
        return;
    };
    MoveCtx::new(s, who).move_answers(from, movement_left(s), scratch, |_| true, out);
}

/// Every `move` answering a move prompt ([`Stage::MovePrompt`]: `who`, `budget`, `toward`)
/// [`check`] accepts, each with the plan it gives, in the order of [`reach_for`]: found with one
/// reachability search, each path read off it.
pub fn prompt_move_answers(
    s: &State,
    who: Cid,
    budget: i16,
    toward: Option<Cid>,
    scratch: &mut PathScratch,
    out: &mut Vec<Answer<Thrum>>,
) {
    if s.outcome.is_some() {
        return;
    }
    let Ok(from) = prompt_move_start(s, who, Say::Code) else {
        return;
    };
    MoveCtx::new(s, who).move_answers(from, budget, scratch, |p| toward_ok(s, from, p, toward), out);
}

/// Where the mover answering a move prompt stands, when it may move at all.
pub(crate) fn prompt_move_start(s: &State, who: Cid, say: Say) -> Result<Pos, Reject> {
    if calc::has(s, who, Cond::Immobilized) {
        return Err(immobilized(s, who, say));
    }
    s.ch(who)
        .pos
        .ok_or_else(|| no(say, codes::NOT_NOW, || "not on the map"))
}

/// Whether a prompted move from `from` to `to` keeps to its direction: a move toward a
/// character may not end farther from it than the mover stands now.
pub(crate) fn toward_ok(s: &State, from: Pos, to: Pos, toward: Option<Cid>) -> bool {
    match toward.and_then(|t| s.ch(t).pos) {
        Some(tp) => calc::distance(s, to, tp) <= calc::distance(s, from, tp),
        None => true,
    }
}

/// A `move` of the Move step (or Dash's allowance) to `to`, under the stage `at`: its path and
/// cost, or why not.
pub(crate) fn check_move(s: &State, at: Option<&Stage>, to: Pos, say: Say) -> Result<Plan, Reject> {
    let (who, from) = move_start(s, at, say)?;
    if to == from {
        return Err(no(say, codes::INVALID_TARGET, || "already there"));
    }
    on_map(s, to, say)?;
    if !can_stop(s, who, to) {
        return Err(no(say, codes::CANNOT_STOP_HERE, || {
            format!("{to} is not an empty square")
        }));
    }
    // THR-R52: the whole path must fit in the movement left, so a turn never spends more than
    // its Speed.
    let budget = movement_left(s).max(0);
    match path_for(s, who, from, to, budget) {
        Some((path, cost)) => Ok(Plan::Move { path, cost }),
        None => Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
            format!("{to} cannot be reached with {budget} movement left")
        })),
    }
}

/// A `step` in direction `dir` (with a drop roll on `roll`), under the stage `at`: its price
/// and whether it uses the Weaver's exemption, or for a Disoriented character nothing yet.
pub(crate) fn check_step(
    s: &State,
    at: Option<&Stage>,
    dir: Dir,
    roll: Option<Attr>,
    say: Say,
) -> Result<Plan, Reject> {
    let who = moving(s, at, say)?;
    let from = s
        .ch(who)
        .pos
        .ok_or_else(|| no(say, codes::NOT_NOW, || "not on the map"))?;
    let to = from.step(dir);
    let disoriented = calc::has(s, who, Cond::Disoriented);
    // THR-R64: the drop roll is the mover's pick of END or REF, and only on a step down 2+
    // levels.
    if let Some(a) = roll {
        if !matches!(a, Attr::End | Attr::Ref) {
            return Err(no(say, codes::BAD_PICK, || "the drop roll uses END or REF"));
        }
        if !step_may_roll(s, who, from, dir) {
            return Err(no(
                say,
                codes::BAD_PICK,
                || "a roll is only possible when stepping down 2 or more levels",
            ));
        }
    }
    let (cost, weaves) = weave(step_price(s, who, from, to, roll.is_some(), say)?, exemption(s, who));
    if !can_stop(s, who, to) {
        return Err(no(say, codes::CANNOT_STOP_HERE, || {
            format!("{to} is occupied; use move to pass through allies")
        }));
    }
    let left = movement_left(s);
    // THR-R53: a step dearer than the movement left is refused (no partial step), unless the
    // `partial-steps` option allows a last one.
    if cost > left && !(s.options.partial_steps && left > 0) && !disoriented {
        return Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
            format!("that step costs {cost} and {left} movement is left")
        }));
    }
    if disoriented && left <= 0 {
        return Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || "no movement left"));
    }
    // A Disoriented character's step goes where its roll sends it, priced then.
    Ok(if disoriented {
        Plan::Plain
    } else {
        Plan::Step { cost, weaves }
    })
}

/// A `move` answering a move prompt (`who` may move `budget`, `toward` a character or not).
pub(crate) fn check_prompt_move(
    s: &State,
    who: Cid,
    budget: i16,
    toward: Option<Cid>,
    to: Pos,
    say: Say,
) -> Result<Plan, Reject> {
    let from = prompt_move_start(s, who, say)?;
    if to == from {
        return Err(no(say, codes::INVALID_TARGET, || "already there (use pass to stay)"));
    }
    on_map(s, to, say)?;
    if !can_stop(s, who, to) {
        return Err(no(say, codes::CANNOT_STOP_HERE, || {
            format!("{to} is not an empty square")
        }));
    }
    if let Some(t) = toward
        && !toward_ok(s, from, to, Some(t))
    {
        return Err(no(say, codes::INVALID_TARGET, || {
            format!("{to} is farther from {} than where {} stands", s.name(t), s.name(who))
        }));
    }
    match path_for(s, who, from, to, budget) {
        Some((path, cost)) => Ok(Plan::Move { path, cost }),
        None => Err(no(say, codes::NOT_ENOUGH_MOVEMENT, || {
            format!("{to} cannot be reached with {budget} movement")
        })),
    }
}

/// The `step` candidates of the Move step for the legal list, in its order: each direction,
/// then with a drop roll where [`step_may_roll`] allows one.
pub(crate) fn step_candidates(s: &State, who: Cid, push: &mut dyn FnMut(Command)) {
    let from = s.ch(who).pos;
    for d in Dir::ALL {
        push(Command::Step { dir: d, roll: None });
        // A step with a drop roll only where the check allows one at all.
        if from.is_some_and(|p| step_may_roll(s, who, p, d)) {
            for roll in [Attr::End, Attr::Ref] {
                push(Command::Step {
                    dir: d,
                    roll: Some(roll),
                });
            }
        }
    }
}

/// Refuses to end movement on a square another character fills (THR-R55) while the mover can
/// still move off it. Filling is the notion the moves offered use ([`can_stop`],
/// `State::occupant`): with `incapacitated-occupy = false` an Incapacitated character fills
/// nothing (THR-R182), so a move onto its square may be stopped on; if it then revives there,
/// both share the square, and one that can no longer move (its movement is over after its
/// Action, THR-R37, or it is Immobilized) stays rather than being left with nothing legal.
pub(crate) fn check_stop_here(s: &State, st: &Stage, who: Cid, say: Say) -> Result<(), Reject> {
    // THR-R182: an Incapacitated character fills its square, unless `incapacitated-occupy`
    // is off.
    let fills = |c: &crate::state::Char| c.present() && (!c.incapacitated || s.options.incapacitated_occupy);
    // THR-R55, THR-R37: only while a move off the square is still possible.
    let can_leave = || {
        !with_scratch(|sc| moves(s, st, sc)).is_empty()
            || Dir::ALL
                .iter()
                .any(|d| step_allowed(s, st, Command::Step { dir: *d, roll: None }))
    };
    if let Some(p) = s.ch(who).pos
        && s.chars
            .iter()
            .enumerate()
            .any(|(i, c)| i as Cid != who && c.pos == Some(p) && fills(c))
        && can_leave()
    {
        return Err(no(
            say,
            codes::CANNOT_STOP_HERE,
            || "a character cannot stop in an ally's square",
        ));
    }
    Ok(())
}

/// Whether the check accepts the `step` `cmd` under the stage `st` of a turn (a Move step's or a
/// Stance step's), without formatting a refusal: what `check::allowed_in` answers for it there
/// (the combat is not over when a turn's command is checked, and a step names no index), asked
/// of the step's own check so that this module does not call back into the dispatcher.
fn step_allowed(s: &State, st: &Stage, cmd: Command) -> bool {
    let Command::Step { dir, roll } = cmd else { return false };
    matches!(st, Stage::Turn { .. }) && check_step(s, Some(st), dir, roll, Say::Code).is_ok()
}

// ---------------------------------------------------------------------------------------------
// Resolution
// ---------------------------------------------------------------------------------------------

/// A `move` to `to` along the `path` its check found, which it planned at `planned`.
pub(crate) fn do_move(cx: &mut Cx, who: Cid, to: Pos, path: Path, planned: u32) -> R {
    let Some(from) = cx.s.ch(who).pos else { return Ok(()) };
    debug_assert_eq!(path.last(), Some(&to), "the path of the move to {to}");
    let mut at = from;
    let mut paid = 0;
    for next in path {
        let cost = paid_cost(cx, who, at, next, false)?;
        paid += cost;
        cx.emit(Event::Moved {
            who,
            from: at,
            to: next,
            cost,
            forced: false,
        });
        entered(cx, who, next)?;
        at = next;
    }
    // The search and the resolver price steps the same way (the Weaver's exemption included),
    // unless something on the way (a Terrain Effect's entry line) changed the mover's state.
    debug_assert!(
        paid == planned as i16 || !cx.s.terrain.is_empty(),
        "move to {to} planned at {planned} but cost {paid}"
    );
    Ok(())
}

/// The cost actually paid for a step, after the Weaver's exemption (THR-R76; its use is
/// recorded). The cost comes from [`paid_step_cost`], which the legality check and the
/// path searches use too.
pub(crate) fn paid_cost(cx: &mut Cx, who: Cid, from: Pos, to: Pos, roll: bool) -> R<i16> {
    let (cost, uses) = paid_step_cost(&cx.s, who, from, to, roll).map_err(|r| EngineError::Bug(r.reason))?;
    if uses {
        cx.emit(Event::WeaverIgnored { who, slowed: false });
    }
    Ok(cost)
}

/// A `step` in direction `dir`, with the plan its check gave it: its price, or for a
/// Disoriented character nothing (where it goes is rolled here).
pub(crate) fn do_step(cx: &mut Cx, who: Cid, dir: Dir, roll: Option<Attr>, plan: Plan) -> R {
    let Some(from) = cx.s.ch(who).pos else { return Ok(()) };
    let mut to = from.step(dir);
    if cx.s.ch(who).has(Cond::Disoriented) {
        // THR-R216, THR-R217: 2d6 per step; 7 goes as intended and ends Disoriented.
        let name = cx.s.name(who).to_string();
        let r = roll2d6(cx, 0, 0, &format_args!("{name}'s Disoriented drift"))?;
        let shift = r.total as i32 - 7;
        // Without the draft's drift, a step that does not roll 7 is simply lost.
        let draft = cx.s.options.draft_disoriented;
        let actual = if draft { dir.rotate_cw(shift) } else { dir };
        cx.note(|| Event::Drifted {
            who,
            roll: r.roll,
            intended: dir,
            actual,
        });
        if shift == 0 {
            cx.emit(Event::Condition {
                who,
                cond: Cond::Disoriented,
                on: false,
                by_use: 0,
            });
        }
        to = from.step(actual);
        // A roll declared with the step is used if the step really taken drops 2+ levels.
        let drop = terrain_step_cost(&cx.s.setup.map, from, to).map_or(0, |c| c.drop as i16);
        let rolls = roll.filter(|_| drop >= 2);
        let cost = paid_step_cost(&cx.s, who, from, to, rolls.is_some()).ok();
        let ok = cost.is_some() && can_stop(&cx.s, who, to) && (draft || shift == 0);
        let left = movement_left(&cx.s).max(0);
        // A step onto a square it cannot enter is lost but its movement is spent; so is a step
        // that costs more than the movement left (unless partial steps are allowed).
        let too_dear = cost.is_some_and(|(c, _)| c > left && !(cx.s.options.partial_steps && left > 0));
        if !ok || too_dear {
            let lost = cost.map_or(1, |(c, _)| c).min(left);
            cx.emit(Event::Moved {
                who,
                from,
                to: from,
                cost: lost,
                forced: false,
            });
            return Ok(());
        }
        let paid = paid_cost(cx, who, from, to, rolls.is_some())?;
        cx.emit(Event::Moved {
            who,
            from,
            to,
            cost: paid,
            forced: false,
        });
        entered(cx, who, to)?;
        if let Some(attr) = rolls
            && !drop_roll(cx, who, attr, drop)?
        {
            fall_consequences(cx, who);
        }
        return Ok(());
    }
    // The price the check found (THR-R76: the Weaver's exemption, and its use, included).
    let Plan::Step { cost, weaves } = plan else {
        return Err(EngineError::Bug(format!(
            "a step {dir:?} resolved without its checked price"
        )));
    };
    if weaves {
        cx.emit(Event::WeaverIgnored { who, slowed: false });
    }
    cx.emit(Event::Moved {
        who,
        from,
        to,
        cost,
        forced: false,
    });
    entered(cx, who, to)?;
    if let Some(attr) = roll {
        let drop = terrain_step_cost(&cx.s.setup.map, from, to).map_or(0, |c| c.drop as i16);
        let passed = drop_roll(cx, who, attr, drop)?;
        // THR-R65: a success lands with no penalty; the step was priced without the drop's
        // extra cost (`check::step_cost` with `roll`).
        if !passed {
            fall_consequences(cx, who);
        }
    }
    Ok(())
}

/// A roll against the environment at level `level` (THR-R64, THR-H16).
pub(crate) fn drop_roll(cx: &mut Cx, who: Cid, attr: Attr, level: i16) -> R<bool> {
    let (net, modifier) = env_roll_parts(&cx.s, who, attr);
    let name = cx.s.name(who).to_string();
    let roll = roll2d6(
        cx,
        net,
        modifier,
        &format_args!("{name}'s {} roll against a drop of {level}", attr.name()),
    )?;
    let (opposition, against) = match cx.s.options.environment_roll {
        EnvironmentRoll::Opposed => {
            let o = roll2d6(cx, 0, level, &format_args!("the environment's roll (level {level})"))?;
            (Some(o), o.total)
        }
        EnvironmentRoll::FixedTarget => (None, 7 + level),
    };
    // THR-R64: the roll must beat the environment, whose level is the drop.
    let passed = roll.total > against;
    cx.note(|| Event::DropRolled {
        who,
        attr,
        roll,
        opposition: opposition.map(Box::new),
        against,
        passed,
    });
    Ok(passed)
}

pub(crate) fn env_roll_parts(s: &State, who: Cid, attr: Attr) -> (i16, i16) {
    let st = &s.info(who).stats;
    let (b, flat) = calc::standing_mods(s, who, crate::ability::RollKind::Environment);
    let mut t = Tally::default();
    t.add(b);
    t.add(-calc::turn_banes(s, who));
    let modifier = st.attr(attr) + flat;
    if attr == Attr::Ref && s.options.draft_hastened && s.ch(who).has(Cond::Hastened) {
        t.add(1);
    }
    if s.options.frayed_rolls == crate::options::FrayedRolls::DefensiveAttributes && s.ch(who).frayed() {
        t.add(-1);
    }
    (t.net(s), modifier)
}

/// The probability that a drop roll with this attribute succeeds.
pub fn drop_odds(s: &State, who: Cid, attr: Attr, level: i16) -> f64 {
    let (net, modifier) = env_roll_parts(s, who, attr);
    let me = dist2d6(net).shift(modifier as i64);
    let against = match s.options.environment_roll {
        EnvironmentRoll::Opposed => dist2d6(0).shift(level as i64),
        EnvironmentRoll::FixedTarget => Dist::constant((7 + level) as i64),
    };
    me.sub(&against).map(|d| d.p_gt(0)).unwrap_or(0.0)
}

pub(crate) fn fall_consequences(cx: &mut Cx, who: Cid) {
    // THR-R66, THR-R67: +1 Slowed; out of movement means the move ends, +1 Dazed.
    let x = cx.s.ch(who).status(XStatus::Slowed).saturating_add(1);
    cx.emit(Event::Status {
        who,
        status: XStatus::Slowed,
        x,
    });
    // A Weaver that has ignored nothing yet this turn ignores this Slowed (THR-R76).
    if cx.s.turn.who == who && cx.s.info(who).traits.weaver == 1 && !cx.s.turn.weaver_used {
        cx.emit(Event::WeaverIgnored { who, slowed: true });
    }
    // THR-R73: Speed 4 with 2 spent, the roll fails: Slowed makes Speed 2 and the step made
    // the spent 3 ≥ 2, so movement ends and Dazed follows.
    let spent = if cx.s.turn.who == who { cx.s.turn.spent } else { 0 };
    if spent >= calc::speed(&cx.s, who) {
        if cx.s.turn.who == who {
            cx.emit(Event::MovementStopped { who });
        }
        add_condition(cx, who, Cond::Dazed, 0);
    }
}

/// A forced move of `n` squares, one at a time (THR-R56, THR-R68, THR-R74).
pub(crate) fn forced_move(cx: &mut Cx, who: Cid, n: i16, mut next: impl FnMut(&State, Pos) -> Option<Pos>) -> R {
    if calc::immovable(&cx.s, who) {
        return Ok(()); // Stand Firm at Tier 1+.
    }
    let mut left = n.max(0);
    while left > 0 {
        let Some(from) = cx.s.ch(who).pos else { return Ok(()) };
        // The log says where and why a forced move stops short (a wall, the map's edge, or
        // the combatant in the way).
        let stopped = |cx: &mut Cx, by: Option<Cid>| {
            cx.emit(Event::ForcedMoveStopped {
                who,
                at: from,
                by,
                left,
            })
        };
        // No next square: the move has nowhere further to go (a pull that reached its user).
        let Some(to) = next(&cx.s, from) else { return Ok(()) };
        let Some(c) = terrain_step_cost(&cx.s.setup.map, from, to) else {
            stopped(cx, None);
            return Ok(());
        };
        // Occupied squares stop the move (with the option, allies' squares can be crossed
        // during a longer forced move, but never ended on: each square crossed counts). An
        // enemy's square is never entered (THR-R56, THR-R57).
        if let Some(o) = cx.s.occupant(to)
            && o != who
        {
            if !(cx.s.options.forced_into_allies && cx.s.allies(who, o)) || left < 2 {
                stopped(cx, Some(o));
                return Ok(());
            }
            // Look one square further; stop if that one is not free either.
            let Some(beyond) = next(&cx.s, to) else {
                stopped(cx, Some(o));
                return Ok(());
            };
            if !can_stop(&cx.s, who, beyond) || terrain_step_cost(&cx.s.setup.map, to, beyond).is_none() {
                stopped(cx, Some(o));
                return Ok(());
            }
        }
        // THR-R69: an involuntary drop of 2+ levels must be rolled for (by default), and a
        // forced move spends no movement unless `forced-moves-spend-movement` says so.
        let rolls = c.drop >= 2 && cx.s.options.involuntary_drop == InvoluntaryDrop::MandatoryRoll;
        let cost = if cx.s.options.forced_moves_spend_movement && cx.s.turn.who == who {
            // The mandatory roll replaces the extra cost of the drop (THR-R68).
            (c.total() - if rolls { c.climb } else { 0 }) as i16
        } else {
            0
        };
        cx.emit(Event::Moved {
            who,
            from,
            to,
            cost,
            forced: true,
        });
        entered(cx, who, to)?;
        left -= 1;
        if rolls {
            let level = c.drop as i16;
            // The character's choice: the attribute with the better chance.
            let attr = if drop_odds(&cx.s, who, Attr::Ref, level) > drop_odds(&cx.s, who, Attr::End, level) {
                Attr::Ref
            } else {
                Attr::End
            };
            if !drop_roll(cx, who, attr, level)? {
                fall_consequences(cx, who);
            }
        }
    }
    Ok(())
}
