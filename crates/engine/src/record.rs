//! The game record: everything needed to replay a combat bit for bit.
//!
//! A record holds the ruleset id and version, the options and setup, the seed (absent when the
//! dice were typed in or scripted) and, for the start and for every command, the faces it drew
//! and the events it produced. Storing the faces makes records of physical dice replayable;
//! storing the events lets a replay verify every step, not just the end.

use crate::{Ruleset, Seat};
use serde::{Deserialize, Serialize};

/// The dice and events of the automatic start of a game (such as initiative).
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub struct StartEntry<R: Ruleset> {
    /// Every face drawn, in order.
    pub dice: Vec<u16>,
    /// Every event emitted.
    pub events: Vec<R::Event>,
    /// `true` when the start did not finish (scripted dice ran out, or the person typing the
    /// faces stopped, during initiative): `dice` and `events` are what came before the failure.
    /// Such a record keeps what was typed but cannot be replayed. Absent from the JSON when
    /// `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub unfinished: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One accepted command.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Entry<R: Ruleset> {
    /// Who submitted it.
    pub seat: Seat,
    /// The command.
    pub command: R::Command,
    /// Every face it drew, in order.
    pub dice: Vec<u16>,
    /// Every event it produced.
    pub events: Vec<R::Event>,
}

/// The version of the record layout (the fields of [`Record`], [`StartEntry`] and [`Entry`] and
/// what they mean), written into every record. It changes when that layout changes, not when a
/// ruleset's rules do (that is the ruleset `version`). Records from before the field existed
/// have the layout of format 1 and read as 1.
pub const RECORD_FORMAT: u32 = 1;

fn format_one() -> u32 {
    1
}

/// A whole game.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Record<R: Ruleset> {
    /// The record layout version ([`RECORD_FORMAT`] when written by this fray).
    #[serde(default = "format_one")]
    pub format: u32,
    /// The ruleset id (`R::ID`).
    pub ruleset: String,
    /// The ruleset version (`R::VERSION`).
    pub version: String,
    /// The options in force.
    pub options: R::Options,
    /// The validated encounter.
    pub setup: R::Setup,
    /// The seed of the dice, or `None` when faces came from a person or a script.
    pub seed: Option<u64>,
    /// The start of the game.
    pub start: StartEntry<R>,
    /// Every accepted command, in order.
    pub entries: Vec<Entry<R>>,
}

impl<R: Ruleset> Record<R> {
    /// Serialises the record as pretty JSON.
    pub fn to_json(&self) -> String {
        // Serialising plain data with string keys cannot fail; fall back to an empty object
        // rather than panicking if a future type breaks that.
        serde_json::to_string_pretty(self).unwrap_or_else(|_| "{}".to_string())
    }

    /// Parses a record from JSON.
    pub fn from_json(text: &str) -> Result<Record<R>, serde_json::Error> {
        serde_json::from_str(text)
    }
}

// Manual impls: a derive would demand `R: Clone + PartialEq + Debug` of the ruleset marker type,
// while only its associated types need them.
macro_rules! impls {
    ($t:ident { $($f:ident),* }) => {
        impl<R: Ruleset> Clone for $t<R> {
            fn clone(&self) -> Self {
                $t { $($f: self.$f.clone()),* }
            }
        }
        impl<R: Ruleset> PartialEq for $t<R> {
            fn eq(&self, other: &Self) -> bool {
                true $(&& self.$f == other.$f)*
            }
        }
        impl<R: Ruleset> std::fmt::Debug for $t<R> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($t))$(.field(stringify!($f), &self.$f))*.finish()
            }
        }
    };
}

impls!(StartEntry {
    dice,
    events,
    unfinished
});
impls!(Entry {
    seat,
    command,
    dice,
    events
});
impls!(Record {
    format,
    ruleset,
    version,
    options,
    setup,
    seed,
    start,
    entries
});
