//! Move, Sprint and Step: where a character may go, and the walk there.
//!
//! Move goes up to Speed metres once a turn (ING-R22); Sprint, for 1 action and 1 stamina, moves
//! again after a move (ING-R23); Step goes 1 m once a turn instead of a move, for no action
//! (ING-R29, ING-H13). Every second diagonal counts 2 m (ING-R36), which the movement search
//! (`crate::calc`) knows. The decision behind this module: the check finds the way with that
//! search and hands it on in its [`Plan`], and resolution walks that way one square at a time
//! (a frame, so that a readied character may act at each step, ING-R24), never searching
//! again; the legal list finds the ways of every square with one search of the whole move.

use crate::calc;
use crate::codes::{self, no};
use crate::command::Action;
use crate::data::Cond;
use crate::event::{Cost, Event};
use crate::setup::Cid;
use crate::state::{Cx, Frame, R, State, Trigger, Walk};
use fray_engine::{EngineError, Flow, Reject};
use fray_space::{Dir, Pos, chebyshev};

use super::trigger::ready_window;
use super::{Plan, charge, pay};

/// The refusal of a move by a prone character, when prone blocks movement.
pub(crate) fn not_prone(s: &State, who: Cid) -> Result<(), Reject> {
    if s.options.prone_blocks_movement && s.ch(who).has(Cond::Prone) {
        return Err(no(codes::PRONE, "stand up before moving"));
    }
    Ok(())
}

/// The check of a Move (or, `sprint`, a Sprint) of `who` from `here` to `to`; `via`, the
/// commander of a commanded one; `listed`, the way when the legal list found it.
pub(crate) fn check_move(
    s: &State,
    who: Cid,
    to: Pos,
    sprint: bool,
    via: Option<Cid>,
    listed: Option<&[Pos]>,
) -> Result<Plan, Reject> {
    let c = s.ch(who);
    let here = super::on_map(s, who)?;
    let speed = s.info(who).stats.speed;
    if sprint {
        // ING-R23: a Sprint is legal only after this turn's move, and needs 1 stamina to pay.
        if !c.moved {
            return Err(no(codes::NOT_NOW, "Sprint needs a move first this turn (ING-R23)"));
        }
        if let Some(limit) = s.options.sprint_limit
            && c.sprints >= limit
        {
            return Err(no(codes::NOT_NOW, format!("at most {limit} Sprint(s) per turn")));
        }
        if c.stamina < 1 {
            return Err(no(codes::NO_STAMINA, "Sprint costs 1 stamina"));
        }
    } else if via.is_none() && c.moved {
        // ING-R22: one Move per turn.
        return Err(no(codes::ALREADY_MOVED, "Move is once per turn (Sprint moves again)"));
    }
    not_prone(s, who)?;
    // ING-R22, ING-R23: a move (and each sprint) goes at most Speed metres.
    way(s, who, here, to, speed, listed).map(Plan::Walk)
}

/// The check of a Step of `who` to `to` in its turn; `via`, the commander of a commanded one.
pub(crate) fn check_step(s: &State, who: Cid, to: Pos, via: Option<Cid>) -> Result<Plan, Reject> {
    let c = s.ch(who);
    // ING-R29: a Step is once per turn, and by default instead of the move (ING-H13).
    if via.is_none() && (c.stepped || (s.options.step_uses_move && c.moved)) {
        return Err(no(
            codes::ALREADY_MOVED,
            "a Step is once per turn, instead of a move (ING-H13)",
        ));
    }
    step_ok(s, who, to, false).map(Plan::Walk)
}

/// A step's way: the square `to` itself, when it may be stepped to.
pub(crate) fn step_ok(s: &State, who: Cid, to: Pos, after_dodge: bool) -> Result<Vec<Pos>, Reject> {
    let from = super::on_map(s, who)?;
    // ING-R29: a Step goes 1 m, to a neighbouring square.
    if chebyshev(from, to) != 1 {
        return Err(no(codes::OUT_OF_RANGE, "a step is to a square next to you (1 m)"));
    }
    if !after_dodge {
        not_prone(s, who)?;
    }
    way(s, who, from, to, 1, None)
}

/// The way `who` takes from `from` to end a move of at most `budget` metres on `to` (the
/// squares after `from`), or why it cannot. `listed`: the way, when the caller found it with
/// the search of the whole move from `from` within `budget` and `to` is one of the squares it
/// may end on (the legal list): nothing else is asked then.
pub(crate) fn way(
    s: &State,
    who: Cid,
    from: Pos,
    to: Pos,
    budget: i16,
    listed: Option<&[Pos]>,
) -> Result<Vec<Pos>, Reject> {
    if let Some(way) = listed {
        return Ok(way.to_vec());
    }
    if to == from {
        return Err(no(codes::INVALID_TARGET, "already there"));
    }
    if !s.setup.map.contains(to) {
        return Err(no(codes::INVALID_TARGET, format!("{to} is off the map")));
    }
    if s.setup.map.get(to).is_some_and(|c| c.blocked) {
        return Err(no(codes::BLOCKED, format!("{to} is blocked")));
    }
    if s.occupant(to).is_some_and(|o| o != who) {
        return Err(no(codes::BLOCKED, format!("someone stands on {to}")));
    }
    calc::with_scratch(|sc| sc.map(s).way_to(who, from, to, budget)).ok_or_else(|| {
        no(
            codes::OUT_OF_RANGE,
            format!("{to} cannot be reached with {budget} m of movement"),
        )
    })
}

/// Squares `who` could move to with a full move.
pub fn move_squares(s: &State, who: Cid) -> Vec<(Pos, u32)> {
    let Some(from) = s.ch(who).pos else { return Vec::new() };
    let speed = s.info(who).stats.speed;
    calc::with_scratch(|sc| sc.map(s).reach(who, from, speed, None).destinations().collect())
}

/// The squares of [`move_squares`], in the same order, each with the way to it (the squares
/// after the start) that the same search finds.
pub(crate) fn move_ways(s: &State, who: Cid) -> Vec<(Pos, Vec<Pos>)> {
    let Some(from) = s.ch(who).pos else { return Vec::new() };
    let speed = s.info(who).stats.speed;
    calc::with_scratch(|sc| {
        let mut m = sc.map(s);
        let r = m.reach(who, from, speed, None);
        r.destinations()
            .filter_map(|(p, _)| r.path_to(p).map(|way| (p, way)))
            .collect()
    })
}

/// The moves, steps and sprints of `me`'s turn, in their order: `ways` from [`move_ways`].
pub(crate) fn list(s: &State, me: Cid, ways: &[(Pos, Vec<Pos>)], out: &mut Vec<Action>) {
    for (p, _) in ways {
        out.push(Action::Move(*p));
    }
    if let Some(p) = s.ch(me).pos {
        for d in Dir::ALL {
            out.push(Action::Step(p.step(d)));
        }
    }
    for (p, _) in ways {
        out.push(Action::Sprint(*p));
    }
}

/// Resolves a Move (or, `sprint`, a Sprint: 1 stamina more) along the way in its plan.
pub(crate) fn resolve_move(cx: &mut Cx, who: Cid, via: Option<Cid>, sprint: bool, plan: Plan) -> R {
    charge(cx, who, via, 1);
    if sprint {
        // ING-R23: a Sprint costs 1 stamina on top of its action.
        pay(
            cx,
            who,
            Cost {
                stamina: 1,
                ..Cost::default()
            },
        );
    }
    begin_walk(cx, who, if sprint { "sprint" } else { "move" }, plan)
}

/// Begins a movement of kind `kind` (a move, a sprint, a step, a dodge's step, a readied move)
/// along the way in its plan.
pub(crate) fn begin_walk(cx: &mut Cx, who: Cid, kind: &str, plan: Plan) -> R {
    cx.emit(Event::MoveBegun { who, kind: kind.into() });
    walk(cx, who, way_of(plan)?)
}

/// The way of a move in its plan (the check found it).
fn way_of(plan: Plan) -> Result<Vec<Pos>, EngineError> {
    match plan {
        Plan::Walk(way) => Ok(way),
        Plan::Plain => Err(EngineError::Bug("a move was resolved without its way".into())),
    }
}

/// Starts a walk along `path`, the way the check found (the squares after the start).
pub(crate) fn walk(cx: &mut Cx, who: Cid, path: Vec<fray_space::Pos>) -> R {
    let Some(from) = cx.s.ch(who).pos else { return Ok(()) };
    let costs = calc::step_costs(&cx.s, from, &path);
    cx.push(Frame::Walk(Walk {
        who,
        path,
        next: 0,
        costs,
    }))
}

pub(crate) fn walk_step(cx: &mut Cx, mut w: Walk) -> Result<Flow, EngineError> {
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
