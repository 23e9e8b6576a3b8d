//! The actions and topics of the rules, one file each, each holding its check, its
//! resolution and its legal list side by side. The check (`check.rs`) and the resolver
//! (`resolve.rs`) are the two dispatchers: they match the stage and the command and call in
//! here.
//!
//! The map, rule topic to file:
//! - [`weapons`]: what an attack is made with: a weapon's or a power's profile in a
//!   character's hands (MUR-R16, MUR-R17, an eye injury's range), and what it can attack with.
//! - [`attack`]: declaring an attack: melee and ranged reach, visibility, barriers, the to-hit
//!   save's circumstances and what ranged attacks may not do (MUR-R12 to MUR-R15, MUR-R28),
//!   blasts and sweeps (MUR-R29 to MUR-R31, MUR-R58), final blows, disarms and grapples as
//!   attacks (MUR-R18, MUR-R59), stunts (MUR-R32); the attack's legal list, its declaration
//!   (surprise, MUR-R41; peeking, MUR-R28) and its end (the next target of a blast, MUR-H8; a
//!   thrown flask spent, MUR-H24; a surprise attacker revealed, MUR-R42).
//! - [`landing`]: the attack frame once declared: the to-hit save, a missed blast's
//!   deviation (MUR-R31, MUR-H22), who is asked (guards, MUR-R24; the target, MUR-R19), the
//!   landing of a dodge, a counter or a hit on each target (MUR-R20).
//! - [`reactions`]: who may react (MUR-R10, MUR-R40), dodge (MUR-R20, MUR-R60), hiding behind
//!   someone (MUR-R23, MUR-R38), guarding (MUR-R24), stunts answered (MUR-R32).
//! - [`counter`]: a counter, checked (MUR-R21, MUR-R22, MUR-H9) and resolved (both blows
//!   at once, who is hit first, MUR-R33, MUR-R60).
//! - [`damage`]: a hit's damage: exploding dice, impaired and enhanced damage (MUR-R16,
//!   MUR-R26), size, armour, cover and shields (MUR-R27, MUR-H7, MUR-H17, MUR-H25), breaking
//!   damaged gear on a big hit (MUR-R50), and the effects of stun, poison and powers.
//! - [`health`]: health lost, critical damage, dying and death, surrender ended by harm
//!   (MUR-R46), and healing with its injuries.
//! - [`movement`]: steps, full movement and taking cover (MUR-R7, MUR-H2), a step's
//!   opportunity attacks (MUR-R25, MUR-H26), sneaking and revealing by moving (MUR-R42).
//! - [`grapple`]: holding and being held (MUR-R36 to MUR-R39, MUR-R59): breaking free, shoves,
//!   throws, freeing, releasing, the STR contests and the disarms and grapples that land.
//! - [`influence`]: distract, intimidate and taunt, and what a taunt forbids (MUR-R8).
//! - [`items`]: equipping, stowing, dropping, picking up, drinking or applying, reloading.
//! - [`talk`]: interacting and speaking (MUR-R42, MUR-R55).
//! - [`morale`]: the morale phase (MUR-R43 to MUR-R45), the choice of those who failed, and
//!   surrender (MUR-R46).
//! - [`wear`]: durability rolls at the end of the fight (MUR-R48, MUR-H16) and damaged
//!   weapons breaking (MUR-R49).
//! - [`rulings`]: the GM's rulings, checked and resolved (MUR-R47's long chase among them).
//!
//! This file holds what several actions share: the [`Plan`] a check hands its resolution,
//! the turn's action budget (MUR-R7), revealing a concealed character (MUR-R42) and the
//! error helpers. The decision behind the split: an action's rules are read in one place,
//! and no action imports the check, the resolver, the stage or the turn flow, so those can
//! all call in here without an import cycle.

pub mod attack;
pub mod counter;
pub mod damage;
pub mod grapple;
pub mod health;
pub mod influence;
pub mod items;
pub mod landing;
pub mod morale;
pub mod movement;
pub mod reactions;
pub mod rulings;
pub mod talk;
pub mod weapons;
pub mod wear;

use crate::Murdham;
use crate::codes;
use crate::command::Command;
use crate::setup::Cid;
use crate::state::{Event, State, Turn};
use fray_engine::{Cx, EngineError, Reject, Seat};

pub use self::attack::AttackPlan;

/// A refusal with its code and reason.
pub(crate) fn no(code: &'static str, reason: impl Into<String>) -> Reject {
    Reject::new(code, reason)
}

/// Where the legal list gathers its answers: the actions name their candidates, and the
/// lister keeps each the check accepts, with its plan (`check::legal_in`).
pub trait Offer {
    /// A candidate that is kept only if the check accepts it.
    fn checked(&mut self, c: Command);
    /// An answer the decision asked accepts as it is, with the plain plan.
    fn plain(&mut self, c: Command);
}

/// The checked plan of a command ([`fray_engine::Ruleset::Checked`]): what
/// the check (`check.rs`) found out that the resolver (`resolve.rs`) needs, so the resolver
/// works none of it out again. Defined here, beside the actions that make and consume it, and
/// re-exported as `check::Plan`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The check learns nothing the resolver needs.
    Plain,
    /// A pass at the opportunity of faction `side` (MUR-R1): the faction's, or only `seat`'s
    /// when other seats of the faction are still asked.
    Pass {
        /// The faction.
        side: u8,
        /// The seat that passes for its own characters while others are still asked; `None`
        /// when the faction passes.
        seat: Option<Seat>,
    },
    /// An attack, or an opportunity attack: its profile and how it is made.
    Attack(AttackPlan),
    /// A step: what it costs, in half zones.
    Move {
        /// The cost.
        cost: u8,
    },
    /// Breaking free: the holder it struggles against (MUR-R39).
    BreakFree {
        /// The holder.
        holder: Cid,
    },
    /// Freeing a held character: the one holding it (MUR-R39).
    Free {
        /// The holder.
        holder: Cid,
    },
    /// A shove: the damage die of the hazard it pushes into, if it does (MUR-R37).
    Shove {
        /// The hazard's die.
        hazard: Option<u8>,
    },
    /// Drinking or applying a consumable: what it does.
    Use {
        /// The healing die (0: none).
        heal: u8,
        /// It ends poison.
        antidote: bool,
    },
}

/// Whether the turn can still take a main action (MUR-R7).
pub(crate) fn main_left(t: &Turn) -> Result<(), Reject> {
    // MUR-R7: one main action a turn, and it takes one of the two action slots.
    if t.main || t.actions == 0 {
        Err(no(codes::NO_ACTION, "the turn's main action is used"))
    } else {
        Ok(())
    }
}

/// Whether the turn can still take a bonus action (MUR-R7).
pub(crate) fn bonus_left(t: &Turn) -> Result<(), Reject> {
    // MUR-R7: a bonus action needs a slot left (the second may be a bonus action too).
    if t.actions == 0 {
        Err(no(codes::NO_ACTION, "the turn has no action left"))
    } else {
        Ok(())
    }
}

/// Whether nothing has happened yet in the turn.
pub fn fresh(s: &State, t: &Turn) -> bool {
    t.actions == 2 && !t.main && !t.moved && t.halves == s.ch(t.who).turn_halves()
}

/// Reveals a concealed character (MUR-R42).
pub(crate) fn reveal(cx: &mut Cx<'_, Murdham>, who: Cid) {
    let c = cx.s.ch(who);
    if c.concealed {
        let (at, cover) = (c.at, c.cover);
        cx.emit(Event::Revealed { who, at, cover });
    }
}

/// A bug, not a rejection: resolving something the check never accepts.
pub(crate) fn bug(m: impl Into<String>) -> EngineError {
    EngineError::Bug(m.into())
}

/// A command handed over with a plan its check does not give it (the caller's bug).
pub(crate) fn unplanned(c: &Command, plan: &Plan) -> EngineError {
    bug(format!(
        "{c:?} was resolved with the plan {plan:?}, which is not its check's"
    ))
}
