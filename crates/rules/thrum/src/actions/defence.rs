//! Defences (attacks and defence, THR-R94 to THR-R114): answering a defence decision, from check
//! to resolution.
//!
//! The check (a defence open to the defender against the ability, a Buff that helps defence
//! rolls), the legal list's candidates, and the resolution: the defence chosen, and a Buff used
//! on it (what the Buff does is `actions::effects`'). Which defences are open is
//! `calc::defences`, shared with the AI and the odds. No rule ID is cited at the code here.

use crate::ability::{AbilityId, Defence};
use crate::actions::effects::buff_on_defence;
use crate::calc;
use crate::codes::{self, Say, no};
use crate::command::Command;
use crate::event::Event;
use crate::plan::Plan;
use crate::setup::Cid;
use crate::state::{Cx, State};
use fray_engine::Reject;

/// Whether `defender` may defend with `d` against `ability`.
pub(crate) fn check_defence(s: &State, defender: Cid, ability: AbilityId, d: Defence, say: Say) -> Result<(), Reject> {
    let a = s.setup.book.get(ability);
    if calc::defences(s, defender, a).contains(&d) {
        Ok(())
    } else {
        Err(no(say, codes::BAD_PICK, || {
            format!(
                "{} cannot defend with {} against {}",
                s.name(defender),
                d.name(),
                a.name
            )
        }))
    }
}

/// Defending with `d` and the Buff `b` (whose defence bonus or damage reduction then applies).
pub(crate) fn check_defend_with(
    s: &State,
    defender: Cid,
    ability: AbilityId,
    d: Defence,
    b: AbilityId,
    say: Say,
) -> Result<Plan, Reject> {
    check_defence(s, defender, ability, d, say)?;
    match s.ch(defender).buff {
        Some(buff) if buff.ability == b && buff.uses > 0 => {
            let spec = s.setup.book.get(buff.ability).buff_spec.as_ref();
            if spec.is_some_and(|x| x.defence_bonus.is_some() || x.reduce_damage > 0) {
                Ok(Plan::Plain)
            } else {
                Err(no(say, codes::BAD_PICK, || "that Buff does not help defence rolls"))
            }
        }
        _ => Err(no(say, codes::BAD_PICK, || {
            format!("{} has no usable Buff '{}'", s.name(defender), s.setup.book.get(b).id)
        })),
    }
}

/// The candidates of a defence decision for the legal list, in its order: each defence open
/// against the ability, and each with the defender's Buff if it has one.
pub(crate) fn candidates(s: &State, defender: Cid, ability: AbilityId, push: &mut dyn FnMut(Command)) {
    for d in calc::defences(s, defender, s.setup.book.get(ability)) {
        push(Command::Defend(*d));
        if let Some(b) = s.ch(defender).buff {
            push(Command::DefendWith(*d, b.ability));
        }
    }
}

/// The chosen defence `d` of `defender`.
pub(crate) fn defend(cx: &mut Cx, defender: Cid, d: Defence) {
    cx.emit(Event::DefenceChosen {
        who: defender,
        defence: d,
        only: None,
    });
}

/// The chosen defence `d` of `defender`, with its Buff.
pub(crate) fn defend_with(cx: &mut Cx, defender: Cid, d: Defence) {
    defend(cx, defender, d);
    buff_on_defence(cx, defender);
}
