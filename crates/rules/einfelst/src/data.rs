//! The game's data: attributes, Actions, weapons, spells, circumstances and obstacles, and the
//! weapons fray ships (`data/weapons.toml`, in fray's own words and numbers: the chapter's table is
//! missing, EIN-H3).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The five attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Attr {
    /// Strength.
    Strength,
    /// Dexterity.
    Dexterity,
    /// Intuition.
    Intuition,
    /// Reason.
    Reason,
    /// Presence.
    Presence,
}

/// The thirteen Actions, rated 0 to 5; a test rolls Attribute + Action dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Armed close combat.
    Strike,
    /// Ranged attacks.
    Shoot,
    /// Unarmed attacks, wrestling, breaking free.
    Force,
    /// Holding on, resisting harm.
    Endure,
    /// Dodging, fleeing, putting out fire.
    Finesse,
    /// Ambushing, slipping away.
    Sneak,
    /// Chasing, spotting an ambush.
    Track,
    /// Surveying, spotting an ambush.
    Read,
    /// Study.
    Study,
    /// Persuade.
    Persuade,
    /// Charm.
    Charm,
    /// Intimidate.
    Intimidate,
    /// Magic.
    Cast,
}

impl Action {
    /// Every Action, in the order of the rules.
    pub const ALL: [Action; 13] = [
        Action::Strike,
        Action::Shoot,
        Action::Force,
        Action::Endure,
        Action::Finesse,
        Action::Sneak,
        Action::Track,
        Action::Read,
        Action::Study,
        Action::Persuade,
        Action::Charm,
        Action::Intimidate,
        Action::Cast,
    ];

    /// The attribute (and the second one, for Actions with two) of this Action.
    pub fn attrs(self) -> (Attr, Option<Attr>) {
        use Attr::*;
        match self {
            Action::Strike | Action::Force => (Strength, None),
            Action::Shoot | Action::Finesse | Action::Sneak => (Dexterity, None),
            Action::Endure => (Strength, Some(Intuition)),
            Action::Track => (Intuition, Some(Reason)),
            Action::Read => (Intuition, None),
            Action::Study | Action::Cast => (Reason, None),
            Action::Persuade => (Reason, Some(Presence)),
            Action::Charm => (Presence, None),
            Action::Intimidate => (Presence, Some(Intuition)),
        }
    }

    /// The word used in files and commands.
    pub fn word(self) -> &'static str {
        match self {
            Action::Strike => "strike",
            Action::Shoot => "shoot",
            Action::Force => "force",
            Action::Endure => "endure",
            Action::Finesse => "finesse",
            Action::Sneak => "sneak",
            Action::Track => "track",
            Action::Read => "read",
            Action::Study => "study",
            Action::Persuade => "persuade",
            Action::Charm => "charm",
            Action::Intimidate => "intimidate",
            Action::Cast => "cast",
        }
    }

    /// The Action a word names.
    pub fn from_word(w: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.word().eq_ignore_ascii_case(w))
    }

    /// The index of this Action in [`Action::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl Attr {
    /// The index of this attribute (Strength 0 ... Presence 4).
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether Physical Harm is the track that bears on tests of this attribute (the
    /// `by-track` reading of EIN-H2).
    pub fn physical(self) -> bool {
        matches!(self, Attr::Strength | Attr::Dexterity)
    }
}

/// How a weapon is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WeaponKind {
    /// Close combat only (Strike, range 0 to 0; EIN-R48).
    Melee,
    /// Close combat in the zone, or thrown (Shoot) at a foe 1 to `range` zones away (EIN-R48).
    Thrown,
    /// Shot (Shoot) across its whole range band (EIN-R11).
    Ranged,
    /// A creature's own weapon, a bite or claws (fray's own): close combat only, never dropped,
    /// put away, thrown or knocked from its grip; attacked with its `action`.
    Natural,
}

/// A weapon (EIN-H3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Weapon {
    /// Its name in logs.
    pub name: String,
    /// How it is used.
    pub kind: WeaponKind,
    /// Harm on a hit (EIN-R23).
    pub damage: u8,
    /// The zones it reaches, nearest and farthest (EIN-R11); close-combat use is always 0.
    #[serde(default)]
    pub range: [u8; 2],
    /// A hit that deals Harm also poisons with this toxicity (EIN-R41), 0 for none.
    #[serde(default)]
    pub poison: u8,
    /// A hit sets the target on fire with this intensity (EIN-R38), 0 for none.
    #[serde(default)]
    pub fire: u8,
    /// A natural weapon's Action, Strike or Force (Force when left out, as for any attack
    /// without a weapon in hand, EIN-R21); only natural weapons have one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Action>,
}

impl Weapon {
    /// Whether it can be swung in close combat.
    pub fn melee(&self) -> bool {
        matches!(self.kind, WeaponKind::Melee | WeaponKind::Thrown | WeaponKind::Natural)
    }

    /// Whether it is part of the creature (a bite, claws).
    pub fn natural(&self) -> bool {
        self.kind == WeaponKind::Natural
    }

    /// The Action of a close-combat attack with it, and of a parry while it is in hand
    /// (EIN-R21, EIN-R25): Strike for a weapon held, a natural weapon's own Action (Force unless
    /// it says Strike).
    pub fn close_action(&self) -> Action {
        match self.kind {
            WeaponKind::Natural => self.action.unwrap_or(Action::Force),
            _ => Action::Strike,
        }
    }

    /// Checks the numbers.
    pub fn check(&self) -> Result<(), String> {
        if self.damage > 9 || self.poison > 20 || self.fire > 3 {
            return Err("damage must be 0..=9, poison 0..=20 and fire 0..=3".into());
        }
        let [a, b] = self.range;
        match (self.kind, self.action) {
            (WeaponKind::Natural, Some(Action::Strike | Action::Force) | None) => {}
            (WeaponKind::Natural, Some(a)) => {
                return Err(format!(
                    "a natural weapon attacks with strike or force, not {}",
                    a.word()
                ));
            }
            (_, Some(_)) => return Err("only a natural weapon (kind = \"natural\") names its action".into()),
            (_, None) => {}
        }
        match self.kind {
            WeaponKind::Melee if self.range != [0, 0] => {
                Err("a melee weapon reaches only its own zone: range = [0, 0] (EIN-R48)".into())
            }
            WeaponKind::Natural if self.range != [0, 0] => {
                Err("a natural weapon reaches only its own zone: range = [0, 0] (EIN-R48)".into())
            }
            WeaponKind::Thrown if a != 0 || b != 1 => {
                Err("a thrown weapon reaches its own zone and the next one: range = [0, 1] (EIN-R48)".into())
            }
            _ if a > b || b > 9 => Err(format!(
                "range [{a}, {b}] must be two zone counts, nearest first, at most 9"
            )),
            _ => Ok(()),
        }
    }
}

/// A spell: the hook for the chapter's "see Overview of Casting" (EIN-H16). Cast against the
/// target's resist reaction; the successes left deal Harm like an attack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Spell {
    /// Its name in logs.
    pub name: String,
    /// Harm on success.
    pub damage: u8,
    /// Mental rather than Physical Harm.
    #[serde(default)]
    pub mental: bool,
    /// The zones it reaches, nearest and farthest.
    #[serde(default)]
    pub range: [u8; 2],
    /// The Action a target resists it with.
    pub resist: Action,
}

impl Spell {
    /// Checks the numbers.
    pub fn check(&self) -> Result<(), String> {
        let [a, b] = self.range;
        if self.damage > 9 || a > b || b > 9 {
            return Err("damage must be 0..=9 and range two zone counts, nearest first, at most 9".into());
        }
        Ok(())
    }
}

/// A circumstance that makes certain tests harder (EIN-R14).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Circumstance {
    /// The Actions it hampers.
    pub actions: Vec<Action>,
    /// The extra successes those tests need.
    pub extra: u8,
}

/// What an obstacle on a link takes (EIN-R15): either every crossing takes its manoeuvre and
/// test (brambles, a wall to climb), or, with `clear`, it blocks the way until someone clears
/// it with its manoeuvre and test, and then it is gone for everyone (rubble).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Obstacle {
    /// Crossing (or clearing) takes the slow manoeuvre rather than a fast one.
    #[serde(default = "yes")]
    pub slow: bool,
    /// The test crossing (or clearing) takes, if any.
    #[serde(default)]
    pub action: Option<Action>,
    /// The successes that test needs.
    #[serde(default = "one")]
    pub need: u8,
    /// It blocks the way until cleared (`clear <zone>`), once, for everyone; the manoeuvre and
    /// the test are then the clearing's, and crossing a cleared link is a plain move.
    #[serde(default, skip_serializing_if = "is_false")]
    pub clear: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn yes() -> bool {
    true
}

fn one() -> u8 {
    1
}

/// The weapons fray ships.
pub fn builtin_weapons() -> BTreeMap<String, Weapon> {
    #[derive(Deserialize)]
    struct File {
        weapon: BTreeMap<String, Weapon>,
    }
    match toml::from_str::<File>(include_str!("../data/weapons.toml")) {
        Ok(f) => f.weapon,
        // The file ships with the crate and a test reads it; this arm cannot be reached by
        // anything a user does.
        Err(e) => panic!("data/weapons.toml is broken: {e}"),
    }
}

/// The circumstances every encounter knows: darkness hampers shooting (EIN-R14).
pub fn builtin_circumstances() -> BTreeMap<String, Circumstance> {
    BTreeMap::from([(
        "dark".to_string(),
        Circumstance {
            // EIN-R14: darkness asks one more success to Shoot.
            actions: vec![Action::Shoot],
            extra: 1,
        },
    )])
}

/// The critical injuries a broken creature rolls on (EIN-H22), d6: fray's own table.
pub fn critical_injuries() -> Vec<String> {
    #[derive(Deserialize)]
    struct File {
        injuries: Vec<String>,
    }
    match toml::from_str::<File>(include_str!("../data/critical.toml")) {
        Ok(f) => f.injuries,
        // The file ships with the crate and a test reads it; this arm cannot be reached by
        // anything a user does.
        Err(e) => panic!("data/critical.toml is broken: {e}"),
    }
}
