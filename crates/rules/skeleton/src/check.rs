//! Legality, from one source: [`check`] refuses a command with a typed rejection or hands
//! back its [`Plan`] (what the check found out that resolving needs), and [`legal`] lists
//! every answer [`check`] accepts with that plan, in a fixed order (attacks, moves, the rest).
//! Both are handed the [`Stage`] (the decision asked now) and match on it.

use crate::Skeleton;
use crate::codes;
use crate::command::Command;
use crate::setup::Cid;
use crate::stage::Stage;
use crate::state::State;
use fray_engine::kit::rulings;
use fray_engine::{Answer, Reject};
use fray_space::{PathScratch, Pos, cheapest_path, is_adjacent, reach};

fn no(code: &'static str, reason: impl Into<String>) -> Reject {
    Reject::new(code, reason)
}

/// The checked plan of a command: what [`check`] found out that [`crate::resolve::resolve`]
/// needs, so the resolver does not work it out again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// A `move`: the squares its shortest way costs (SKL-R3).
    Move {
        /// The cost.
        cost: i16,
    },
    /// Any other command: the check learns nothing the resolver needs.
    Plain,
}

/// Whether the rules accept `c` under the stage `st` (the decision asked now, `None` when
/// nothing is; the engine has already checked who may send it), and its plan.
pub fn check(s: &State, st: Option<&Stage>, c: &Command) -> Result<Plan, Reject> {
    // GM rulings are no stage: accepted whatever the game waits for.
    if let Command::Gm(r) = c {
        return rulings::check(s, r)
            .map(|()| Plan::Plain)
            .map_err(|m| no(codes::BAD_RULING, m));
    }
    match (st, c) {
        (Some(Stage::Defence { .. }), Command::Dodge | Command::Take) => Ok(Plan::Plain),
        (Some(&Stage::Turn { who, moves_left, .. }), Command::Move(to)) => {
            move_cost(s, who, moves_left, *to).map(|cost| Plan::Move { cost })
        }
        (Some(&Stage::Turn { who, attacked, .. }), Command::Attack(x)) => {
            attack(s, who, attacked, *x).map(|()| Plan::Plain)
        }
        (Some(Stage::Turn { .. }), Command::End) => Ok(Plan::Plain),
        _ => Err(no(codes::NOT_NOW, "that is not an answer to the decision asked now")),
    }
}

/// The squares a move of `who` to `to` costs (SKL-R3): the shortest way through open squares,
/// within the `budget` left.
pub fn move_cost(s: &State, who: Cid, budget: i16, to: Pos) -> Result<i16, Reject> {
    if !s.open(to) {
        return Err(no(codes::BLOCKED, format!("{to} is not an open square")));
    }
    let step = |_: Pos, b: Pos| s.open(b).then_some(1);
    let from = s.ch(who).at;
    match cheapest_path(
        &s.setup.map,
        from,
        to,
        u32::MAX,
        step,
        |_| true,
        &mut PathScratch::new(),
    ) {
        None => Err(no(
            codes::BLOCKED,
            format!("there is no way to {to} through open squares"),
        )),
        Some((_, cost)) if cost > budget.max(0) as u32 => Err(no(
            codes::TOO_FAR,
            format!("{to} is {cost} squares away and {budget} are left"),
        )),
        Some((_, cost)) => Ok(cost as i16),
    }
}

/// Whether `who`, which has `attacked` already this turn or not, may attack `x` (SKL-R4).
fn attack(s: &State, who: Cid, attacked: bool, x: Cid) -> Result<(), Reject> {
    if attacked {
        return Err(no(codes::ALREADY_ATTACKED, "one attack a turn"));
    }
    let me = s.ch(who);
    let Some(foe) = s.chars.get(x as usize).filter(|c| !c.out() && c.side != me.side) else {
        return Err(no(codes::BAD_TARGET, "attack a foe who is still in the fight"));
    };
    if !is_adjacent(me.at, foe.at) {
        return Err(no(
            codes::NOT_ADJACENT,
            format!("{} is not next to {}", foe.name, me.name),
        ));
    }
    Ok(())
}

/// Every legal answer to the decision `st`, with its plan.
pub fn legal(s: &State, st: &Stage, out: &mut Vec<Answer<Skeleton>>) {
    let plain = |c: Command| Answer::new(c, Plan::Plain);
    match *st {
        // Only a defender who has not dodged this round is asked (SKL-R5).
        Stage::Defence { .. } => out.extend([Command::Dodge, Command::Take].map(plain)),
        Stage::Turn {
            who,
            moves_left,
            attacked,
        } => {
            out.extend(
                s.ids()
                    .filter(|x| attack(s, who, attacked, *x).is_ok())
                    .map(|x| plain(Command::Attack(x))),
            );
            // One search finds every square in reach and its cost: the plan of each move
            // (SKL-R3).
            let step = |_: Pos, b: Pos| s.open(b).then_some(1);
            let mut scratch = PathScratch::new();
            let budget = moves_left.max(0) as u32;
            let r = reach(&s.setup.map, s.ch(who).at, budget, step, |_| true, &mut scratch);
            out.extend(
                r.destinations()
                    .map(|(p, cost)| Answer::new(Command::Move(p), Plan::Move { cost: cost as i16 })),
            );
            out.push(plain(Command::End));
        }
    }
}
