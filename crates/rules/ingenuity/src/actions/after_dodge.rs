//! After a dodge: the dodger may drop prone, seek cover and step 1 m, each once (ING-R48).
//!
//! The options come as a frame (`Frame::AfterDodge`) once the dodged attack is over, hit or
//! miss, and the dodger's seat is asked until it passes or nothing is left to take. The
//! decision behind this module: the frame's check, its listing, its step (is anything left to
//! ask?) and its resolution are together, and they reuse the checks and the effects of Drop
//! Prone, Seek Cover (`posture`) and Step (`movement`).

use crate::codes::{self, no};
use crate::command::{Action, Command};
use crate::data::Cond;
use crate::setup::Cid;
use crate::state::{Cx, Frame, R, State};
use fray_engine::{EngineError, Flow, Reject};
use fray_space::Dir;

use super::Plan;
use super::movement::{begin_walk, step_ok};
use super::posture::{drop_prone, seek_cover_ok, take_cover};

/// The check of the options after a dodge (`Stage::AfterDodge`) of `who`, with `used` the
/// options taken so far (1: prone, 2: cover, 4: the step).
pub(crate) fn check(s: &State, who: Cid, used: u8, cmd: &Command) -> Result<Plan, Reject> {
    match cmd {
        Command::Pass => Ok(Plan::Plain),
        Command::Act(Action::DropProne) if used & 1 == 0 && !s.ch(who).has(Cond::Prone) => Ok(Plan::Plain),
        Command::Act(Action::SeekCover) if used & 2 == 0 => seek_cover_ok(s, who).map(|()| Plan::Plain),
        Command::Act(Action::Step(p)) if used & 4 == 0 => step_ok(s, who, *p, true).map(Plan::Walk),
        _ => Err(no(
            codes::NOT_NOW,
            "after a dodge: prone, seek-cover, step x,y (each once) or pass",
        )),
    }
}

/// The answers after a dodge of `who`, in their order.
pub(crate) fn answers(s: &State, who: Cid, out: &mut Vec<Command>) {
    out.push(Command::Act(Action::DropProne));
    out.push(Command::Act(Action::SeekCover));
    if let Some(p) = s.ch(who).pos {
        for d in Dir::ALL {
            out.push(Command::Act(Action::Step(p.step(d))));
        }
    }
    out.push(Command::Pass);
}

/// Steps the frame of the options after a dodge: asked while any is left to take.
pub(crate) fn step(cx: &mut Cx, who: Cid, used: u8) -> Result<Flow, EngineError> {
    let any = [Command::Act(Action::DropProne), Command::Act(Action::SeekCover)]
        .iter()
        .any(|c| check(&cx.s, who, used, c).is_ok())
        || (used & 4 == 0 && cx.s.ch(who).able());
    if cx.s.ch(who).able() && any {
        return Ok(Flow::Wait);
    }
    cx.pop();
    Ok(Flow::Go)
}

/// Resolves one option after a dodge of `who`.
pub(crate) fn resolve(cx: &mut Cx, who: Cid, used: u8, a: &Action, plan: Plan) -> R {
    let bit = match a {
        Action::DropProne => 1,
        Action::SeekCover => 2,
        _ => 4,
    };
    cx.update(Frame::AfterDodge { who, used: used | bit });
    match a {
        Action::DropProne => drop_prone(cx, who),
        Action::SeekCover => take_cover(cx, who),
        Action::Step(_) => begin_walk(cx, who, "dodge-step", plan)?,
        _ => {}
    }
    Ok(())
}
