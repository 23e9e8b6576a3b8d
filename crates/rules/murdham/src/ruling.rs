//! The GM's rulings as data: the shared vocabulary's [`Ruling`] with Murdham's gauges and its
//! own rulings ([`OwnRuling`]: concealing, hindering, penetration, overwhelming, fright,
//! poison, stuns, enhanced and impaired hits, healing, the long chase).
//!
//! Apart from [`crate::command`] (which parses and prints them, and re-exports them under its
//! old paths) so that the state, which records rulings in its events and applies them, does
//! not import the commands, which read the state.

use crate::data::Ability;
use crate::place::Place;
use crate::setup::Cid;
use fray_engine::gm;
use serde::{Deserialize, Serialize};

/// The gauges a GM may set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Gauge {
    /// Health.
    Health,
    /// An ability score.
    Ability(Ability),
}

/// How fast a fleeing faction is against its pursuers (MUR-R47).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pace {
    /// As fast: a group AGI save.
    Even,
    /// Faster or more enduring: escapes without a save.
    Faster,
    /// Slower: cannot escape.
    Slower,
}

/// Murdham's own rulings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OwnRuling {
    /// Conceal a character again, or reveal it (MUR-R42).
    Conceal {
        /// Who.
        who: Cid,
        /// Concealed.
        on: bool,
    },
    /// Its next attack needs a WIT save to hit (MUR-H6).
    Hinder {
        /// Who.
        who: Cid,
    },
    /// Its next attack goes through cover (MUR-H7).
    Penetrate {
        /// Who.
        who: Cid,
    },
    /// Its next distract, intimidate or taunt allows no save (MUR-R8).
    Overwhelm {
        /// Who.
        who: Cid,
    },
    /// Frighten a character of another.
    Frighten {
        /// Who.
        who: Cid,
        /// Of whom.
        of: Cid,
    },
    /// End a fright.
    Calm {
        /// Who.
        who: Cid,
    },
    /// Poison or cure.
    Poison {
        /// Who.
        who: Cid,
        /// Poisoned.
        on: bool,
    },
    /// Stun: the next turn is lost.
    Stun {
        /// Who.
        who: Cid,
    },
    /// The next hit on a character deals enhanced damage (oil-soaked and struck by fire, caught
    /// with no way to give): one enhancement more, which an impairment cancels.
    Enhance {
        /// Who is hit.
        who: Cid,
    },
    /// The next hit on a character deals impaired damage (a blow half turned by its pack, a
    /// sheltering wall the rules have no place for): one impairment more.
    Impair {
        /// Who is hit.
        who: Cid,
    },
    /// Heal by this much (a GM's healing, MUR-R.. Health).
    Heal {
        /// Who.
        who: Cid,
        /// How much.
        amount: u8,
    },
    /// A long chase (MUR-R47): the faction flees at this pace.
    Chase {
        /// The fleeing faction.
        side: u8,
        /// Its pace against the pursuers.
        pace: Pace,
    },
}

/// A GM ruling in the shared vocabulary.
pub type Ruling = gm::Ruling<Cid, Gauge, Place, OwnRuling>;
