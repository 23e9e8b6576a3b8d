//! Legality, from one source: [`check`] refuses a command with a typed rejection or hands
//! back its [`Plan`] (what the check found out that resolving needs), and [`legal`] lists every
//! answer [`check`] accepts, with that plan, in a fixed order.
//!
//! Both work under the decision the game waits for, [`crate::stage::stage`], worked out once at
//! their entry points ([`check_in`], [`legal_in`]) and matched on; GM rulings are no stage. The
//! legal list asks each candidate under the stage it was handed ([`plan_in`]).
//!
//! This file is the dispatch only: each answer's check, and its part of the legal list, is in
//! the file of its action under `actions/` (a Reposte in `attack`, an injury table in
//! `damage`, declarations in `declare`, a turn's `act` in `act`, `free` in `free`, `move` and
//! `step` in `moves`, GM rulings in `ruling`); whose declaration is due is in [`crate::flow`].
//! The listings are handed the closure that keeps what [`check_in`] accepts, so no action file
//! calls back into this one. The helpers that used to live here are re-exported under their old
//! paths.

use crate::HallowedEarth;
use crate::actions::{act, attack, damage, declare, free, moves, not_now, ruling};
use crate::command::Command;
use crate::setup::Cid;
use crate::stage::{Stage, stage};
use crate::state::{Phase, State, Turn};
use fray_engine::{Answer, Reject, Seat};

pub use crate::plan::{Plan, SpellCost};

// The checks' helpers under the paths they had when they lived here.
pub use crate::actions::act::{act_ok, target_gone, turn_action};
pub use crate::actions::attack::{may_react, reposte_weapons};
pub use crate::actions::cast::spell_cost;
pub use crate::actions::declare::{action_ok, action_ok_with, declarable};
pub use crate::actions::free::{free_now, free_ok};
pub use crate::actions::moves::{move_allowed, move_budget, move_path, move_reach, moves_left, step_path};
pub use crate::actions::weapons::{threat_range, weapon_reach, weapon_ready};
pub use crate::flow::{declaration_order, declarers, declares, default_declarer, due, next_declarer, resting};
pub use crate::movement::{path_costs, walk_plan, walk_reach};

/// Whether the rules accept `c` from `seat` now, and its plan.
pub fn check(s: &State, seat: Seat, c: &Command) -> Result<Plan, Reject> {
    check_in(s, seat, stage(s).as_ref(), c)
}

/// The plan [`check`] gives a command it accepts under the stage `st` of `s` the caller has
/// already worked out, `None` for one it refuses: what the legal list asks of each candidate.
pub fn plan_in(s: &State, seat: Seat, st: &Stage, c: &Command) -> Option<Plan> {
    check_in(s, seat, Some(st), c).ok()
}

/// [`check`] under the stage `st` the caller has already worked out ([`stage`] of `s`; `None`
/// when nothing is asked, and every command but a GM ruling is refused).
pub fn check_in(s: &State, seat: Seat, st: Option<&Stage>, c: &Command) -> Result<Plan, Reject> {
    // GM rulings are no stage: they are accepted whatever the game waits for.
    if let Command::Gm(r) = c {
        return ruling::check(s, r).map(|()| Plan::Plain);
    }
    let Some(st) = st else {
        return Err(not_now());
    };
    match (*st, c) {
        (Stage::Reposte { .. }, Command::Pass) => Ok(Plan::Plain),
        (Stage::Reposte { by, against }, Command::Reposte(w)) => attack::check_reposte(s, by, against, *w),
        (Stage::Injury { .. }, Command::Injury(t)) => damage::injury_type(s, t),
        // A declaration under a turn is told why it may not be made now, as under the
        // declarations (its creature has declared, has none to make, or is another seat's).
        (Stage::Declare { .. } | Stage::Turn(_), Command::Declare { who, action }) => {
            declare::declare(s, seat, *who, action).map(|()| Plan::Plain)
        }
        (Stage::Declare { .. } | Stage::Turn(_), Command::DeclareFree { who, free }) => {
            declare::declare_free(s, seat, *who, *free).map(|()| Plan::Plain)
        }
        (Stage::Turn(t), _) if s.phase == Phase::Resolving => turn(s, &t, c),
        _ => Err(not_now()),
    }
}

/// The answers of a turn on a count (HAL-R9, HAL-R17, HAL-R18).
fn turn(s: &State, t: &Turn, c: &Command) -> Result<Plan, Reject> {
    match c {
        Command::Move(to) => moves::check_move(s, t, *to),
        Command::Act(n) => act::act_ok(s, t, *n),
        Command::Free => free::free_now(s, t, false).map(Plan::Free),
        Command::Step(to) => moves::check_step(s, t, *to),
        Command::End => Ok(Plan::Plain),
        _ => Err(not_now()),
    }
}

/// Every legal answer of `seat` to the pending decision, with its plan.
pub fn legal(s: &State, seat: Seat, out: &mut Vec<Answer<HallowedEarth>>) {
    if let Some(st) = stage(s) {
        legal_in(s, seat, &st, out);
    }
}

/// [`legal`] under the stage `st` of `s` the caller has already worked out: every candidate is
/// checked under it ([`plan_in`]).
pub fn legal_in(s: &State, seat: Seat, st: &Stage, out: &mut Vec<Answer<HallowedEarth>>) {
    answers(s, seat, st, true, out)
}

/// [`legal_in`], or with `moves` false all but the moves and short moves of a turn (which take
/// a search each to list: the AI lists them only when it would move, from [`move_reach`]).
pub fn answers(s: &State, seat: Seat, st: &Stage, moves: bool, out: &mut Vec<Answer<HallowedEarth>>) {
    let push = keep_checked(s, seat, st);
    match *st {
        Stage::Reposte { by, against } => attack::list_reposte(s, by, against, out, push),
        Stage::Injury { .. } => damage::list_injury(s, out, push),
        Stage::Declare { .. } => {
            // HAL-R11: the declarations of every creature the seat may declare for now, the one
            // due by default first.
            let mut who = Vec::new();
            declarers(s, seat, &mut who);
            for c in who {
                declarations(s, seat, st, c, true, out);
            }
        }
        Stage::Turn(t) => turn_answers(s, &t, moves, out, push),
    }
}

/// The answers of a turn, in their fixed order: act (and, with `retarget`, at each new
/// target), the Free action, the moves and short moves (with `moves`), end.
fn turn_answers(
    s: &State,
    t: &Turn,
    moves: bool,
    out: &mut Vec<Answer<HallowedEarth>>,
    push: impl Fn(&mut Vec<Answer<HallowedEarth>>, Command),
) {
    act::list(s, out, &push);
    push(out, Command::Free);
    if moves {
        moves::list(s, t, out);
    }
    out.push(Answer::new(Command::End, Plan::Plain));
}

/// Appends every declaration `seat` may make for `who` now under the stage `st` of `s`, with
/// its plan, in a fixed order (what [`legal`] lists for that creature; the AI lists only the
/// creature due by default).
pub fn declarations(
    s: &State,
    seat: Seat,
    st: &Stage,
    who: Cid,
    with_free: bool,
    out: &mut Vec<Answer<HallowedEarth>>,
) {
    declare::list(s, who, with_free, out, keep_checked(s, seat, st));
}

/// What every listing hands its candidates to: it keeps those [`check_in`] accepts under the
/// stage `st`, each with its plan.
fn keep_checked<'a>(s: &'a State, seat: Seat, st: &'a Stage) -> impl Fn(&mut Vec<Answer<HallowedEarth>>, Command) + 'a {
    move |out: &mut Vec<Answer<HallowedEarth>>, c: Command| {
        if let Some(plan) = plan_in(s, seat, st, &c) {
            out.push(Answer::new(c, plan));
        }
    }
}
