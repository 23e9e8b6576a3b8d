//! The legal commands for the pending decision, in a fixed order.
//!
//! Candidates are generated and filtered through [`check`], so the list can never disagree with
//! what is accepted. Actions with free text (`interact`, `task`) and the many variants of a
//! commanded action cannot all be listed; the list shows the usual ones and any other legal one
//! can still be typed.
//!
//! This module is the dispatch of the listing: the candidates of each decision and of each
//! action come from the module that checks it (under `crate::actions`, the picks from
//! `crate::flow`), in the order the list has always had.

use crate::Ingenuity;
use crate::actions::{after_dodge, command, conscious, defence, downed, end, extended, items, posture, ready};
use crate::check::{check_in, check_listed_move};
use crate::command::{Action, Command};
use crate::flow;
use crate::setup::Cid;
use crate::stage::Stage;
use crate::state::State;
use fray_engine::Answer;
use fray_space::Pos;

pub use crate::actions::attack::attacks;
pub use crate::actions::movement::move_squares;
use crate::actions::movement::{self, move_ways};

fn push(s: &State, stage: Option<&Stage>, c: Command, out: &mut Vec<Answer<Ingenuity>>) {
    if !out.iter().any(|a| a.command == c)
        && let Ok(plan) = check_in(s, stage, &c)
    {
        out.push(Answer::new(c, plan));
    }
}

/// Appends every listed legal command for `stage`, the [`crate::stage::stage`] of `s` (computed
/// once by the caller and handed to the check of every candidate).
pub fn legal(s: &State, stage: Option<&Stage>, out: &mut Vec<Answer<Ingenuity>>) {
    let Some(&st) = stage else {
        return;
    };
    let mut candidates = Vec::new();
    match st {
        Stage::Turn { who, .. } => return turn(s, stage, who, out),
        Stage::Pick { team } => flow::answers(s, team, &mut candidates),
        Stage::Extended { .. } => extended::answers(&mut candidates),
        Stage::Intercept { .. } | Stage::Defend { .. } | Stage::Block { .. } => {
            defence::answers(s, st, &mut candidates)
        }
        Stage::Ready { .. } => ready::answers(&mut candidates),
        Stage::Fortify { .. } => conscious::answers(&mut candidates),
        Stage::AfterDodge { who, .. } => after_dodge::answers(s, who, &mut candidates),
    }
    for c in candidates {
        push(s, stage, c, out);
    }
}

/// The answers of `me`'s turn (no extended action waiting to be continued).
fn turn(s: &State, stage: Option<&Stage>, me: Cid, out: &mut Vec<Answer<Ingenuity>>) {
    // `continue` answers only an extended action waiting at the turn's start; `abandon` is
    // legal all turn while one is in progress (ING-R35).
    push(s, stage, Command::Abandon, out);
    // The squares of a move or a sprint, each with its way, from one search of the whole move:
    // each is then checked without a search of its own.
    let ways = move_ways(s, me);
    let mut acts = Vec::new();
    actions(s, me, &ways, &mut acts);
    for a in acts {
        let way = match a {
            Action::Move(p) | Action::Sprint(p) => ways.iter().find(|(q, _)| *q == p).map(|(_, w)| w.as_slice()),
            _ => None,
        };
        let c = Command::Act(a);
        match way {
            Some(way) => {
                if !out.iter().any(|a| a.command == c)
                    && let Ok(plan) = check_listed_move(s, stage, &c, way)
                {
                    out.push(Answer::new(c, plan));
                }
            }
            None => push(s, stage, c, out),
        }
    }
}

/// The actions of `me`'s turn to check, in their order; `ways`, the squares of a move with
/// their ways.
fn actions(s: &State, me: Cid, ways: &[(Pos, Vec<Pos>)], out: &mut Vec<Action>) {
    attacks(s, me, out);
    downed::list(s, me, out);
    items::list_reloads(s, me, out);
    movement::list(s, me, ways, out);
    posture::list(out);
    items::list(s, me, out);
    command::list(s, me, out);
    ready::list(s, me, out);
    end::list(out);
}
