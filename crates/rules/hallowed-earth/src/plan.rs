//! The checked plan: what the check of a command found out that resolving it needs (a way
//! through the squares, the Free action taken, the action as aimed and a spell's split of its
//! cost, the weapon of a Reposte), handed from the check to the resolver with the
//! command so that nothing is worked out twice.
//!
//! It has a file of its own because both the checks (under `actions/`) and the resolver name
//! it: kept here, neither has to reach into the other for it.

use crate::state::{Action, Free};
use fray_space::Pos;

/// The checked plan of a command: what [`crate::check::check`] found out that the resolver
/// needs, so the resolver does not work it out again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The check learns nothing the resolver needs (declarations, `end`, `pass`, an injury
    /// table, rulings).
    Plain,
    /// A `move` or a short move (`step`): its way through open squares, the squares after the
    /// start (HAL-R18, HAL-R17).
    Walk(Vec<Pos>),
    /// `free`: the declared Free action it takes (HAL-R17).
    Free(Free),
    /// `act`: the declared action, aimed as it is taken, and for a spell what its Mana and
    /// Stress pay (HAL-R26).
    Act {
        /// The action.
        action: Action,
        /// A spell's cost, as it is paid.
        spell: Option<SpellCost>,
    },
    /// `reposte`: the weapon it strikes with (HAL-R14).
    Reposte(u8),
}

/// How a spell's Mana cost is paid (HAL-R26): from Mana and from Stress, 1:1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpellCost {
    /// What is paid from Mana.
    pub mana: i16,
    /// What is paid from Stress.
    pub stress: i16,
}
