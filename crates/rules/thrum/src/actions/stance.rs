//! Stances (basic actions and stances, THR-R189 to THR-R201; one Stance at a time, THR-R32,
//! THR-R33, the rules cited at the code here): entering one, from check to resolution.
//!
//! The check (a Stance the character has, not in Round Zero for NPCs unless allowed, not one
//! that just ended, not the one it is in, and the turn's own conditions of ending: the Action
//! taken when one is legal, not stopping in an ally's square), the legal list's candidates,
//! and the resolution: the old Stance ends, the new one begins, and the turn ends. A module of
//! its own because a Stance is a command with its own check, small as it is.

use crate::ability::{AbilityId, Kind};
use crate::actions::movement::check_stop_here;
use crate::actions::turn::no_action_ok;
use crate::calc::has_ability;
use crate::codes::{self, Say, no};
use crate::command::Command;
use crate::event::Event;
use crate::flow::turn::end_turn;
use crate::plan::Plan;
use crate::setup::Cid;
use crate::stage::Stage;
use crate::state::{Cx, Phase, State};
use fray_engine::{EngineError, Reject};

type R<T = ()> = Result<T, EngineError>;

/// Entering the Stance `id`, under the stage `st` of `who`'s turn.
pub(crate) fn check_stance(s: &State, st: &Stage, who: Cid, id: AbilityId, say: Say) -> Result<Plan, Reject> {
    check_stop_here(s, st, who, say)?;
    let a = s.setup.book.get(id);
    if a.kind != Kind::Stance || !has_ability(s, who, id) {
        return Err(no(say, codes::UNKNOWN_ABILITY, || {
            format!("{} has no stance '{}'", s.name(who), a.id)
        }));
    }
    if s.phase == Phase::RoundZero && !s.is_pc(who) && !s.options.npc_round_zero_stance {
        return Err(no(say, codes::NOT_NOW, || "NPCs take no Stance in Round Zero"));
    }
    if !s.options.reenter_ended_stance && s.ch(who).stance_ended == Some(id) {
        return Err(no(
            say,
            codes::NOT_NOW,
            || "that Stance ended since the last turn and cannot be entered again yet",
        ));
    }
    if !s.ch(who).able() {
        return Err(no(
            say,
            codes::NOT_NOW,
            || "an Incapacitated character cannot take a Stance",
        ));
    }
    if s.ch(who).stance == Some(id) {
        return Err(no(
            say,
            codes::INVALID_TARGET,
            || "already in that Stance (use end to keep it)",
        ));
    }
    no_action_ok(s, st, say).map(|()| Plan::Plain)
}

/// Enters the Stance `id` for `who` and ends its turn.
pub(crate) fn enter_stance(cx: &mut Cx, who: Cid, id: AbilityId) -> R {
    // THR-R32, THR-R33: entering a Stance first ends the current one, so only one is
    // ever active.
    if let Some(old) = cx.s.ch(who).stance {
        cx.emit(Event::StanceEnded { who, ability: old });
    }
    cx.emit(Event::StanceEntered { who, ability: id });
    end_turn(cx, who)
}

/// The Stance candidates among `mine` (the character's usable abilities) for the legal list, in
/// their order.
pub(crate) fn candidates(s: &State, mine: &[AbilityId], push: &mut dyn FnMut(Command)) {
    for &id in mine {
        if s.setup.book.get(id).kind == Kind::Stance {
            push(Command::Stance(id));
        }
    }
}
