//! Encounter files: reading, validating and deriving stats.
//!
//! An encounter names the ruleset, overrides options, draws the map, lists the teams (with the
//! seat that decides for each and an optional objective), says which team started the fight and
//! which was attacked (and who has surprise), defines stat-block templates and places the
//! combatants. Every problem is reported with file, line and column.
//!
//! Character numbers are derived from attribute and skill dice as the character chapter does
//! (resources 6 + the die's maximum, defences from passive values, speed from size, DEX and
//! Agility); any derived number can be overridden (ING-H24).
//!
//! The files: this one holds the setup's types (what a state is built from, what a record
//! stores) and the helpers the others share; `load` reads an encounter file (its tables, the
//! teams, the initiative and the opening action, objectives), `block` turns a stat block (a
//! template or a combatant) into a character's numbers, and `validate` checks a setup that did
//! not come from the loader. The decision behind the split: a record's setup is untrusted input
//! checked by `validate` as strictly as `load` checks a file, and each is long enough to want
//! its own file; what both need (the number limit, the dice) is written once here.

use crate::data::{Armoury, Attr, ItemId};
use fray_engine::Seat;
use fray_engine::encounter::{self as enc, Diags, RawPos, Spanned};
use fray_space::{Grid, Pos};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod block;
mod load;
mod validate;

pub use self::load::load;

/// Index of a combatant.
pub type Cid = u16;

/// The largest number of combatants (sets of them are 64-bit masks).
pub const MAX_COMBATANTS: usize = 64;

/// The largest number of teams.
pub const MAX_TEAMS: usize = 16;

/// The largest magnitude of any number in an encounter or a record (stats, item numbers,
/// current values): far beyond any real character, and small enough that no sum of them can
/// overflow.
pub const NUMBER_LIMIT: i16 = 999;

/// The passive value of a die: half its largest face (core rule).
pub fn passive(die: u8) -> i16 {
    i16::from(die).div_euclid(2)
}

/// A combatant's fixed numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Size (4 = medium, 3 = small).
    pub size: i16,
    /// Attribute dice (sides), in [`Attr::ALL`] order.
    pub attrs: [u8; 4],
    /// Skill dice by name (untrained skills roll a d4).
    pub skills: Vec<(String, u8)>,
    /// Proficiency bonuses by name.
    pub profs: Vec<(String, i16)>,
    /// Maximum health.
    pub health: i16,
    /// Maximum endurance.
    pub endurance: i16,
    /// Maximum stamina.
    pub stamina: i16,
    /// Maximum focus.
    pub focus: i16,
    /// Constitution.
    pub constitution: i16,
    /// Evasion.
    pub evasion: i16,
    /// Willpower.
    pub willpower: i16,
    /// Physical deflection.
    pub deflection: i16,
    /// Elemental deflection.
    pub elemental_deflection: i16,
    /// Speed in metres per move.
    pub speed: i16,
    /// Added to this character's luck dice (ING-H18).
    pub luck_modifier: i16,
    /// Cannot be surprised (the danger-sense talent, ING-R15).
    pub cannot_be_surprised: bool,
}

impl Stats {
    /// An attribute die.
    pub fn attr(&self, a: Attr) -> u8 {
        self.attrs[a as usize]
    }

    /// A skill die (d4 when untrained).
    pub fn skill(&self, name: &str) -> u8 {
        self.skills.iter().find(|(n, _)| n == name).map_or(4, |(_, d)| *d)
    }

    /// A proficiency bonus (0 without it).
    pub fn prof(&self, name: &str) -> i16 {
        self.profs.iter().find(|(n, _)| n == name).map_or(0, |(_, b)| *b)
    }
}

/// Where a combatant starts, and in what state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    /// Current health.
    pub health: i16,
    /// Current endurance.
    pub endurance: i16,
    /// Current stamina.
    pub stamina: i16,
    /// Current focus.
    pub focus: i16,
    /// The death difficulty (ING-R62: it rises for good each time death is cheated).
    pub death_difficulty: i16,
    /// Unconscious at the start.
    pub unconscious: bool,
    /// Conditions at the start.
    pub conditions: u16,
    /// Items carried, in order.
    pub items: Vec<ItemId>,
    /// Which of them are in hand.
    pub held: Vec<ItemId>,
    /// Which of them start unloaded.
    pub unloaded: Vec<ItemId>,
    /// Items that start damaged: their durability.
    pub durability: Vec<(ItemId, i16)>,
}

/// Who a combatant is, fixed for the combat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharInfo {
    /// The id typed in commands.
    pub id: String,
    /// The display name.
    pub name: String,
    /// Index of its team.
    pub team: u8,
    /// The seat that decides for it.
    pub seat: Seat,
    /// Its square.
    pub at: Pos,
    /// Its numbers.
    pub stats: Stats,
    /// Its armour, if any.
    pub armour: Option<usize>,
    /// Talents, by name.
    pub talents: Vec<String>,
    /// How it starts.
    pub start: Start,
}

/// What ends the combat in a team's favour (ING-R13, ING-R67, ING-H1).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Objective {
    /// A member of the team (or the named one) stands on one of the squares.
    Reach {
        /// The squares.
        squares: Vec<Pos>,
        /// Only this combatant counts.
        who: Option<Cid>,
    },
    /// This many rounds have ended with the team still standing.
    Survive {
        /// Rounds.
        rounds: u32,
    },
    /// The named combatant is unconscious, dead or out of the fight.
    Down {
        /// Who.
        who: Cid,
    },
}

/// A team.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    /// The id used in files and commands.
    pub id: String,
    /// The display name.
    pub name: String,
    /// The seat that picks its members and decides for them.
    pub seat: Seat,
    /// The AI policy named for simulations, if any.
    pub policy: Option<String>,
    /// Its objective at the start, if any.
    pub objective: Option<Objective>,
}

/// The action that started the fight (ING-R69).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    /// Who performs it.
    pub who: Cid,
    /// The command, as typed (checked when the combat starts).
    pub action: String,
}

/// A validated encounter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// A title for logs.
    pub title: String,
    /// The map.
    pub map: Grid,
    /// Seat names; seat 0 is always `gm`.
    pub seats: Vec<String>,
    /// The teams, in file order.
    pub teams: Vec<Team>,
    /// The team order: slot 1 first (ING-R2 to ING-R4).
    pub order: Vec<u8>,
    /// The team with surprise, if any (ING-R14).
    pub surprise: Option<u8>,
    /// The action that started the fight, if given.
    pub opening: Option<Opening>,
    /// The combatants at the start.
    pub chars: Vec<CharInfo>,
    /// Stat blocks the GM may add mid-combat, by name.
    pub templates: BTreeMap<String, CharInfo>,
    /// Every item and armour.
    pub armoury: Armoury,
}

type Ctx<'a> = Diags<'a>;

/// A square on the map that is not blocked (see [`enc::square`]).
fn pos(cx: &mut Ctx, raw: &Spanned<RawPos>, map: &Grid) -> Option<Pos> {
    let p = enc::square(cx, raw, map)?;
    if map.get(p).is_some_and(|c| c.blocked) {
        cx.err(raw.span(), format!("square {p} is blocked"));
        return None;
    }
    Some(p)
}

pub(crate) use fray_engine::encounter::is_word;

/// A number within [`NUMBER_LIMIT`], or what is wrong with it.
fn within_limit(what: &str, v: i16) -> Result<(), String> {
    if (-NUMBER_LIMIT..=NUMBER_LIMIT).contains(&v) {
        Ok(())
    } else {
        Err(format!(
            "{what} is {v}; numbers run from -{NUMBER_LIMIT} to {NUMBER_LIMIT}"
        ))
    }
}

fn is_die(d: u8) -> bool {
    matches!(d, 4 | 6 | 8 | 10 | 12)
}
