//! Moving on a turn: how far a creature may move this round (HAL-R18: its Speed, halved in full
//! defence, HAL-R14, Stabilized, HAL-R33, or lame or prone; a crawl while Incapacitated or
//! Dying, HAL-R29, HAL-R30), the move and the short move (`step`, the Free action's move,
//! HAL-R17) with their checks and their squares on the legal list, and the walk itself, which
//! stops where it enters a hostile creature's threat range (HAL-H17, HAL-R16) unless the mover
//! made a defensive attack (HAL-R15).
//!
//! The search through the squares is [`crate::movement`]'s; what a turn allows is here. The
//! move and the short move differ only in how far they may go and what they cost, so they share
//! one way-finding ([`move_path`], [`step_path`]).

use super::attack::may_react;
use super::free::{free_now, short_move, take_free};
use super::weapons::threat_range;
use super::{Cx1, bug, counted, no};
use crate::command::Command;
use crate::movement::{path_costs, walk_plan, walk_reach, walk_reach_to, with_scratch};
use crate::plan::Plan;
use crate::setup::Cid;
use crate::state::{Action, Cap, Conditions, Event, Frame, Free, State, Turn};
use crate::{HallowedEarth, codes};
use fray_engine::{Answer, EngineError, Reject};
use fray_space::{DiagonalReach, DiagonalScratch, Pos};

/// Squares a creature may move this round (HAL-R18): its Speed, halved in full defence
/// (HAL-R14), Stabilized (HAL-R33), lame or prone (injuries); 1 yard a turn while Incapacitated
/// or Dying (HAL-R29).
pub fn move_budget(s: &State, c: Cid, t: Option<&Turn>) -> u32 {
    let ch = s.ch(c);
    let o = &s.options;
    match s.cap_now(c) {
        Cap::Out => return 0,
        // HAL-R29, HAL-R30: a crawl of 1 yard a turn.
        Cap::Incapacitated | Cap::Dying => {
            let used = t.map_or(0, |t| t.moved);
            return ch.moved + o.squares(1).saturating_sub(used);
        }
        Cap::Able | Cap::Stable => {}
    }
    let full = o.squares(s.stats(c).speed);
    let guarding = s.acts.iter().any(|a| a.who == c && a.action == Action::FullDefense)
        || ch.declared == Some(Action::FullDefense);
    // HAL-R14 (full defence), HAL-R33 (Stabilized), injuries: half speed.
    let halved = guarding || s.cap_now(c) == Cap::Stable || ch.has(Conditions::LAME | Conditions::PRONE);
    if halved { full / 2 } else { full }
}

/// The squares left to move this turn.
pub fn moves_left(s: &State, t: &Turn) -> u32 {
    // HAL-R18: every leg moved this round comes off the same Speed.
    move_budget(s, t.who, Some(t)).saturating_sub(s.ch(t.who).moved)
}

/// Whether the creature whose turn it is may move at all now (HAL-R30: not the Dying after
/// acting; not without movement left).
pub fn move_allowed(s: &State, t: &Turn) -> Result<(), Reject> {
    let me = s.ch(t.who);
    let act = &s.acts[usize::from(t.act)];
    if act.lone {
        return Err(no(
            codes::CANNOT_MOVE,
            "this turn is for the Free action alone: the creature moves on its action's turn",
        ));
    }
    let freed = t.freed && act.free.is_some_and(Free::is_action);
    if s.cap_now(t.who) == Cap::Dying && (t.acted || freed) {
        return Err(no(
            codes::CANNOT_MOVE,
            format!("{} is Dying and has acted: it cannot move too", me.name),
        ));
    }
    if moves_left(s, t) == 0 {
        return Err(no(
            codes::CANNOT_MOVE,
            format!("{} has no movement left this round", me.name),
        ));
    }
    Ok(())
}

/// The cheapest way from the turn's creature to `to` through open squares, and its cost, if it
/// costs at most `most`; `too_far` says why not when it costs more.
fn path_within(
    s: &State,
    t: &Turn,
    to: Pos,
    most: u32,
    scratch: &mut DiagonalScratch,
    too_far: impl FnOnce(u32) -> String,
) -> Result<(Vec<Pos>, u32), Reject> {
    let at = s.ch(t.who).at;
    if at == to {
        return Err(no(codes::BLOCKED, format!("{} is there already", s.ch(t.who).name)));
    }
    if !s.open(to) {
        return Err(no(codes::BLOCKED, format!("{to} is not an open square")));
    }
    // A search within `most` finds the way the legal list's search finds; only a square out
    // of reach is searched for again without a bound, for the message.
    let r = walk_reach_to(s, at, to, most, scratch);
    if let (Some(cost), Some(path)) = (r.cost_to(to), r.path_to(to)) {
        return Ok((path, cost));
    }
    match walk_reach_to(s, at, to, u32::MAX, scratch).cost_to(to) {
        Some(cost) if cost > most => Err(no(codes::TOO_FAR, too_far(cost))),
        _ => Err(no(
            codes::BLOCKED,
            format!("there is no way to {to} through open squares"),
        )),
    }
}

/// The shortest way to `to` through open squares, and its cost in squares.
pub fn move_path(s: &State, t: &Turn, to: Pos, scratch: &mut DiagonalScratch) -> Result<(Vec<Pos>, u32), Reject> {
    let left = moves_left(s, t);
    path_within(s, t, to, left, scratch, |cost| {
        format!(
            "{to} is {} away and {} left this round",
            counted(cost, "square", "squares"),
            if left == 1 {
                "1 is".to_string()
            } else {
                format!("{left} are")
            }
        )
    })
}

/// The short move's way to `to`: through open squares, at most `free-move` yards, taking
/// nothing from the round's Speed (HAL-R17).
pub fn step_path(s: &State, t: &Turn, to: Pos, scratch: &mut DiagonalScratch) -> Result<(Vec<Pos>, u32), Reject> {
    let most = short_move(s);
    path_within(s, t, to, most, scratch, |cost| {
        format!(
            "{to} is {} away and a short move goes {}",
            counted(cost, "square", "squares"),
            counted(most, "square", "squares")
        )
    })
}

/// The squares the turn's creature may move to now (HAL-R18), from one search through open
/// squares within the movement it has left; `None` when it may not move at all
/// ([`move_allowed`]). Its squares other than the start are the moves [`crate::check::check`]
/// accepts, and [`walk_plan`] gives each the plan the check would.
pub fn move_reach<'a>(s: &'a State, t: &Turn, scratch: &'a mut DiagonalScratch) -> Option<DiagonalReach<'a>> {
    move_allowed(s, t).ok()?;
    Some(walk_reach(s, s.ch(t.who).at, moves_left(s, t), scratch))
}

/// The plan of `move <x,y>`: the creature may move now and the square is within its movement.
pub(crate) fn check_move(s: &State, t: &Turn, to: Pos) -> Result<Plan, Reject> {
    move_allowed(s, t)?;
    with_scratch(|scratch| move_path(s, t, to, scratch)).map(|(path, _)| Plan::Walk(path))
}

/// The plan of `step <x,y>`: the declared Free action is a short move it may take now, and the
/// square is within `free-move` (HAL-R17).
pub(crate) fn check_step(s: &State, t: &Turn, to: Pos) -> Result<Plan, Reject> {
    free_now(s, t, true)?;
    with_scratch(|scratch| step_path(s, t, to, scratch)).map(|(path, _)| Plan::Walk(path))
}

/// The moves and short moves of the turn `t` the check accepts, each with its plan: the squares
/// of one search each, not checked one by one.
pub(crate) fn list(s: &State, t: &Turn, out: &mut Vec<Answer<HallowedEarth>>) {
    // The moves `check` accepts are the squares one search reaches within the movement
    // left: they are listed from that search, each with its way, not checked one by one
    // (a search each).
    let at = s.ch(t.who).at;
    with_scratch(|scratch| {
        if let Some(r) = move_reach(s, t, scratch) {
            for (p, _) in r.destinations().filter(|(p, _)| *p != at) {
                if let Some(plan) = walk_plan(&r, p) {
                    out.push(Answer::new(Command::Move(p), plan));
                }
            }
        }
        // HAL-R17: a declared short move's squares, from one search as well.
        if free_now(s, t, true).is_ok() {
            let most = short_move(s);
            let r = walk_reach(s, at, most, scratch);
            for (p, _) in r.destinations().filter(|(p, _)| *p != at) {
                if let Some(plan) = walk_plan(&r, p) {
                    out.push(Answer::new(Command::Step(p), plan));
                }
            }
        }
    })
}

/// A move on the creature's count (HAL-R18, HAL-H17). It stops on the first square that enters
/// a hostile creature's threat range, whose owner may then Reposte (HAL-R16), unless the mover
/// made a defensive attack (HAL-R15).
/// `path` is the way the check found (the squares after the start).
pub(crate) fn walk(cx: Cx1<'_, '_>, to: Pos, short: bool, path: Vec<Pos>) -> Result<(), EngineError> {
    let s = &*cx.s;
    let t: Turn = s.turn.ok_or_else(|| bug("a move without a turn"))?;
    let who = t.who;
    let defensive = matches!(s.acts[usize::from(t.act)].action, Action::Defensive { .. });
    let m = s.options.metric;
    let mut prev = s.ch(who).at;
    let costs = path_costs(s, s.ch(who).at, &path);
    let mut stop = (to, costs.last().copied().unwrap_or(0));
    let mut provoked: Vec<Cid> = Vec::new();
    // HAL-R15: a mover making a defensive attack provokes no Reposte; HAL-R16: otherwise each
    // hostile creature with its reaction left whose threat range the move enters may Reposte.
    if s.options.reposte_on_entry && !defensive {
        for (i, &sq) in path.iter().enumerate() {
            provoked = s
                .ids()
                .filter(|&x| {
                    x != who && s.hostile(x, who) && may_react(s, x) && {
                        let r = threat_range(s, x);
                        let at = s.ch(x).at;
                        r > 0 && m.distance(prev, at) > r && m.distance(sq, at) <= r
                    }
                })
                .collect();
            if !provoked.is_empty() {
                stop = (sq, costs[i]);
                break;
            }
            prev = sq;
        }
    }
    if short {
        // HAL-R17: the short move is the turn's Free action; it takes nothing from Speed.
        take_free(cx, who, Free::Step, Some(stop.0))?;
    } else {
        cx.emit(Event::Moved {
            who,
            to: stop.0,
            cost: stop.1,
        });
    }
    // The lowest id answers first: it goes on top.
    for &x in provoked.iter().rev() {
        // HAL-R16: the Reposte the entry provoked is offered to its owner.
        cx.push(Frame::Reposte { by: x, against: who })?;
    }
    Ok(())
}
