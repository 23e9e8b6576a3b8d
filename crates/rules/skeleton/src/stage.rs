//! What the game waits for: the pending decision as a typed value, decided in one place.
//!
//! [`stage`] is the one function that reads the attack on top of the stack and the turn to
//! say which decision is open. `Ruleset::pending` is built from it, and `lib.rs` works it out
//! once per call and hands it to the check, the legal list and the resolver, which match on it.
//! A new ruleset gives each kind of decision it asks a variant here, holding what its check,
//! its legal list and its resolution read. GM rulings are no stage: they are accepted whatever
//! the game waits for.

use crate::setup::Cid;
use crate::state::State;

/// The decision the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The defender of the attack on top of the stack dodges or takes it (SKL-R5).
    Defence {
        /// The defender.
        defender: Cid,
    },
    /// A combatant's turn: move, attack or end it (SKL-R2 to SKL-R4).
    Turn {
        /// Whose turn.
        who: Cid,
        /// Squares of movement left (SKL-R3).
        moves_left: i16,
        /// Whether it has attacked (SKL-R4).
        attacked: bool,
    },
}

impl fray_engine::Stage for Stage {
    fn kind(&self) -> &'static str {
        Stage::kind(self)
    }
    fn actor(&self) -> Option<u16> {
        Stage::actor(self)
    }
}

impl Stage {
    /// The kind of decision, as `Pending.kind` gives it.
    pub fn kind(&self) -> &'static str {
        match self {
            Stage::Defence { .. } => "defence",
            Stage::Turn { .. } => "turn",
        }
    }

    /// The combatant who decides (every skeleton decision has one).
    pub fn actor(&self) -> Option<Cid> {
        match *self {
            Stage::Defence { defender } => Some(defender),
            Stage::Turn { who, .. } => Some(who),
        }
    }
}

/// The decision the game waits for now: `None` once the combat is over, or between turns.
pub fn stage(s: &State) -> Option<Stage> {
    if s.outcome.is_some() {
        return None;
    }
    if let Some(a) = s.frames.last() {
        return Some(Stage::Defence { defender: a.target });
    }
    s.turn.as_ref().map(|t| Stage::Turn {
        who: t.who,
        moves_left: t.moves_left,
        attacked: t.attacked,
    })
}
