//! Reactions: whether one can be taken now, what it costs, and why not.
//!
//! A character has one reaction a round, used on anyone's turn (ING-R30); each defensive
//! reaction costs stamina or focus (ING-R31), and one that cannot be paid cannot be taken
//! (ING-R32). A free reaction (after an Intercept, ING-R33) uses up no reaction and pays only
//! with `free-reaction-pays`. The decision behind this module: the one test of "may this
//! reaction be taken" serves the check (with its rejection), resolution and the AI (yes or no,
//! no text built) and the log of a step the rules took by themselves (why not).

use crate::codes::{self, no};
use crate::data::Cond;
use crate::event::{AutoWhy, Cost};
use crate::setup::Cid;
use crate::state::{Cx, State};
use fray_engine::Reject;

use super::pay;

/// Why a reaction cannot be taken now: what [`reaction_ok`] turns into its rejection. Kept
/// apart from the message so that the many yes-or-no questions of the AI, the listings and
/// resolution ([`can_react`]) build no text.
#[derive(Clone, Copy)]
enum NoReaction {
    Cannot,
    NoneLeft,
    NoStamina,
    NoFocus,
}

fn reaction_fault(s: &State, who: Cid, free: bool, stamina: i16, focus: i16) -> Option<NoReaction> {
    let c = s.ch(who);
    if !c.able() {
        return Some(NoReaction::Cannot);
    }
    if !free && !s.can_react(who) {
        return Some(NoReaction::NoneLeft);
    }
    let pays = !free || s.options.free_reaction_pays;
    if pays && s.options.reactions_need_resources {
        if c.stamina < stamina {
            return Some(NoReaction::NoStamina);
        }
        if c.focus < focus {
            return Some(NoReaction::NoFocus);
        }
    }
    None
}

/// Whether a reaction with this cost can be taken now (ING-R30 to ING-R32): [`reaction_ok`]
/// without the reason.
pub fn can_react(s: &State, who: Cid, free: bool, stamina: i16, focus: i16) -> bool {
    reaction_fault(s, who, free, stamina, focus).is_none()
}

/// Whether a reaction with this cost can be taken now (ING-R30 to ING-R32), and if not, why.
pub fn reaction_ok(s: &State, who: Cid, free: bool, stamina: i16, focus: i16) -> Result<(), Reject> {
    let Some(fault) = reaction_fault(s, who, free, stamina, focus) else {
        return Ok(());
    };
    let n = s.name(who);
    Err(match fault {
        NoReaction::Cannot => no(codes::NOT_NOW, format!("{n} cannot react")),
        NoReaction::NoneLeft => no(codes::NO_REACTION, format!("{n} has no reaction left")),
        NoReaction::NoStamina => no(codes::NO_STAMINA, format!("{n} has no stamina left")),
        NoReaction::NoFocus => no(codes::NO_FOCUS, format!("{n} has no focus left")),
    })
}

/// Why `who` cannot take a reaction now (for the log of a step taken without asking):
/// unconscious or stunned, surprised (with `surprised-can-react = false`), no reaction left, or
/// not enough stamina or focus. `free`: a free reaction (after Intercept) is available.
pub fn why_no_reaction(s: &State, who: Cid, free: bool) -> AutoWhy {
    let c = s.ch(who);
    if c.unconscious || !c.present() {
        return AutoWhy::Unconscious;
    }
    if c.has(Cond::Stunned) {
        return AutoWhy::Stunned;
    }
    if !free && s.surprised_without_reactions(who) {
        return AutoWhy::Surprised;
    }
    if !free && c.econ.reactions_left() == 0 {
        return AutoWhy::NoReaction;
    }
    if c.stamina < 1 {
        AutoWhy::NoStamina
    } else {
        AutoWhy::NotLegal
    }
}

/// Pays a reaction of `who` costing `stamina` and `focus` (what the character has of them);
/// `free`: a free reaction, which uses up no reaction and pays only with `free-reaction-pays`.
pub(crate) fn reaction_paid(cx: &mut Cx, who: Cid, free: bool, stamina: i16, focus: i16) {
    let pays = !free || cx.s.options.free_reaction_pays;
    let cost = Cost {
        actions: 0,
        stamina: if pays {
            stamina.min(cx.s.ch(who).stamina.max(0))
        } else {
            0
        },
        focus: if pays { focus.min(cx.s.ch(who).focus.max(0)) } else { 0 },
        reaction: !free,
    };
    pay(cx, who, cost);
}
