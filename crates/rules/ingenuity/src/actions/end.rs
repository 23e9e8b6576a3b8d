//! Guard, Wait and End: the actions that end the turn.
//!
//! Guard (1 action) ends the turn with +1 to every defence and defence test until the next turn
//! (ING-R21); Wait (1 action) ends it with one extra reaction until the next turn (ING-R28); End
//! ends it at no cost. (Ready ends the turn too, and is in `ready`.) The decision behind this
//! module: these three have no check of their own beyond the turn's, and one listing and one
//! resolution that name how the turn ended.

use crate::command::Action;
use crate::data::Cond;
use crate::event::{Event, TurnEnd};
use crate::setup::Cid;
use crate::state::Cx;

use super::{charge, end_turn};

/// Guard, Wait and End, in the legal list's order (last of a turn's answers).
pub(crate) fn list(out: &mut Vec<Action>) {
    out.push(Action::Guard);
    out.push(Action::Wait);
    out.push(Action::End);
}

/// Resolves Guard, Wait or End (`a`) by `who`; `via`, the commander of a commanded one.
pub(crate) fn resolve(cx: &mut Cx, who: Cid, via: Option<Cid>, a: &Action) {
    match a {
        Action::Guard => {
            charge(cx, who, via, 1);
            cx.emit(Event::Condition {
                who,
                cond: Cond::Guarding,
                on: true,
                until_turn_end: false,
            });
            end_turn(cx, who, TurnEnd::Guard);
        }
        Action::Wait => {
            charge(cx, who, via, 1);
            end_turn(cx, who, TurnEnd::Wait);
        }
        _ => end_turn(cx, who, TurnEnd::End),
    }
}
