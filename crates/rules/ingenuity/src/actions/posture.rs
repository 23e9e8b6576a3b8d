//! Stand Up, Drop Prone and Seek Cover: the actions that change how a character stands.
//!
//! Stand Up costs 1 action (ING-R19), Drop Prone nothing (ING-R29); Seek Cover, for 1 action,
//! gives ranged attacks disadvantage until the next turn while the character stays behind cover
//! (ING-R26; with `seek-cover-needs-obstacle`, only next to a wall or higher ground). The
//! decision behind this module: dropping prone and seeking cover are also what a dodger may do
//! after a dodge (`after_dodge`), which uses the same check and the same effect from here.

use crate::calc;
use crate::codes::{self, no};
use crate::command::Action;
use crate::data::Cond;
use crate::event::Event;
use crate::setup::Cid;
use crate::state::{Cx, State};
use fray_engine::Reject;

use super::{Plan, charge};

/// Whether `who` may seek cover where it stands.
pub(crate) fn seek_cover_ok(s: &State, who: Cid) -> Result<(), Reject> {
    let p = s.ch(who).pos.ok_or_else(|| no(codes::NOT_NOW, "not on the map"))?;
    if s.options.seek_cover_needs_obstacle && calc::obstacles(s, p).next().is_none() {
        return Err(no(
            codes::INVALID_TARGET,
            "no cover here: seeking cover needs a wall or higher ground next to you",
        ));
    }
    Ok(())
}

/// The check of Stand Up, Drop Prone or Seek Cover (`a`) by `who`.
pub(crate) fn check(s: &State, who: Cid, a: &Action) -> Result<Plan, Reject> {
    let prone = s.ch(who).has(Cond::Prone);
    let verdict = match a {
        Action::SeekCover => seek_cover_ok(s, who),
        Action::StandUp => {
            if !prone {
                return Err(no(codes::NOT_NOW, format!("{} is not prone", s.name(who))));
            }
            Ok(())
        }
        _ => {
            if prone {
                return Err(no(codes::PRONE, "already prone"));
            }
            Ok(())
        }
    };
    verdict.map(|()| Plan::Plain)
}

/// Stand Up, Seek Cover and Drop Prone, in the legal list's order.
pub(crate) fn list(out: &mut Vec<Action>) {
    out.push(Action::StandUp);
    out.push(Action::SeekCover);
    out.push(Action::DropProne);
}

/// Resolves Stand Up, Drop Prone or Seek Cover (`a`) by `who`; `via`, the commander of a
/// commanded one.
pub(crate) fn resolve(cx: &mut Cx, who: Cid, via: Option<Cid>, a: &Action) {
    match a {
        Action::StandUp => {
            charge(cx, who, via, 1);
            cx.emit(Event::Condition {
                who,
                cond: Cond::Prone,
                on: false,
                until_turn_end: false,
            });
        }
        Action::SeekCover => {
            charge(cx, who, via, 1);
            take_cover(cx, who);
        }
        _ => drop_prone(cx, who),
    }
}

/// `who` drops prone.
pub(crate) fn drop_prone(cx: &mut Cx, who: Cid) {
    cx.emit(Event::Condition {
        who,
        cond: Cond::Prone,
        on: true,
        until_turn_end: false,
    });
}

/// `who` takes cover.
pub(crate) fn take_cover(cx: &mut Cx, who: Cid) {
    cx.emit(Event::Condition {
        who,
        cond: Cond::Cover,
        on: true,
        until_turn_end: false,
    });
}
