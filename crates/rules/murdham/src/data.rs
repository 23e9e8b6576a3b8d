//! The game's data: abilities, sizes, kinds, skills, items and powers, and the items fray ships
//! (`data/items.toml`, in fray's own words: an encounter adds or replaces items in its own
//! `[item.<id>]` tables with the same keys).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The three abilities (scores 1 to 19; a save passes on a d20 at or under the score).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ability {
    /// Strength: health, grappling, disarming, breaking free.
    Str,
    /// Agility: dodging, sneaking, long chases.
    Agi,
    /// Wits: hitting in hard circumstances, morale, the fast action threshold.
    Wit,
}

impl Ability {
    /// The word in files and commands.
    pub fn word(self) -> &'static str {
        match self {
            Ability::Str => "STR",
            Ability::Agi => "AGI",
            Ability::Wit => "WIT",
        }
    }
}

/// A character's size: it scales health, damage dealt and armour, and decides STR saves
/// between characters of different sizes (MUR-R59).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Size {
    /// A quarter of the health and damage.
    Tiny,
    /// Half the health and damage.
    Small,
    /// A human.
    Medium,
    /// Twice the health, damage and armour.
    Large,
    /// Four times the health, damage and armour, and melee reach 1.
    Massive,
}

impl Size {
    /// Scales a value by this size (health, damage dealt): divisions round up.
    pub fn scale(self, v: i32) -> i32 {
        match self {
            Size::Tiny => div_up(v, 4),
            Size::Small => div_up(v, 2),
            Size::Medium => v,
            Size::Large => v * 2,
            Size::Massive => v * 4,
        }
    }

    /// The armour multiplier.
    pub fn armour_factor(self) -> i32 {
        match self {
            Size::Large => 2,
            Size::Massive => 4,
            _ => 1,
        }
    }

    /// Large or bigger (a blast may be aimed at it alone, MUR-R58).
    pub fn is_big(self) -> bool {
        self >= Size::Large
    }
}

/// `v / d` rounded up (the game's divisions round up), for non-negative `v`.
pub fn div_up(v: i32, d: i32) -> i32 {
    if v <= 0 { v / d } else { (v + d - 1) / d }
}

/// What a character is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A living creature.
    Creature,
    /// A construct: never incapacitated, disabled by critical damage until repaired.
    Construct,
    /// A demon: never incapacitated, banished when defeated.
    Demon,
    /// An undead: never incapacitated.
    Undead,
}

impl Kind {
    /// Constructs, demons and undead never become Incapacitated (and are immune to fear).
    pub fn unbreakable(self) -> bool {
        self != Kind::Creature
    }
}

/// How a character thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mind {
    /// A person.
    Human,
    /// An animal.
    Animal,
    /// No mind at all: immune to fear and so to morale.
    Mindless,
}

/// The skills and traits the combat rules use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Skill {
    /// One dodge a round that does not use the turn (MUR-R60).
    DodgeBlows,
    /// Any number of guards that do not use the turn (MUR-R60).
    Protect,
    /// A dodge against an opportunity attack that does not use the turn (MUR-R60).
    FleetFooted,
    /// Always hits first in a counter, unless the other side has it too (MUR-R60).
    FastStrike,
    /// No one-handed weapon is impaired in the second hand (MUR-R17).
    Ambidextrous,
    /// Unarmed attacks deal d6 unimpaired, and +1 armour against unarmed attacks.
    Brawling,
    /// Disarms cannot be saved against but by another with the skill (MUR-R59).
    Disarm,
    /// Grapples cannot be saved against but by another with the skill (MUR-R59).
    Wrestling,
    /// A shield's +1 counts against every attack its holder is aware of.
    ShieldMastery,
    /// d12 damage against targets unaware of the attacker.
    SneakAttack,
    /// Immune to fear, and so to morale (MUR-R45).
    Bravery,
    /// Maximum health and the instant-death threshold are 2 higher.
    Tough,
    /// In a frenzy: immune to fear (MUR-R45).
    Frenzied,
}

/// Keywords of an item or a power.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Keyword {
    /// Only beyond half range, never while moving, always with a WIT save; it may target
    /// characters out of sight and fire over obstacles (MUR-R14, MUR-R15).
    Indirect,
    /// Hits a zone (MUR-R29).
    Blast,
    /// Ignores armour.
    Direct,
    /// Fire damage: counts as direct.
    Fire,
    /// Holy damage: hurts only demons and undead.
    Holy,
    /// Fires once, then needs ten rounds of reloading.
    Reload,
    /// Stuns whoever it hits (a STR save resists).
    Stun,
    /// Poisons whoever it hits (a STR save resists).
    Poison,
    /// Grabs whoever it hits (a failed STR save, as against a grapple), besides its damage.
    Grab,
    /// Usable only against unaware targets or the character its wielder grabs (a garrotte).
    Ambush,
    /// Spent when used (a thrown flask).
    Consumable,
    /// A shield: +1 armour against attacks its holder reacts to.
    Shield,
    /// Its durability rolls fail on 1 in 8 instead of 1 in 4.
    Robust,
    /// Starts damaged.
    Fragile,
    /// Gunpowder: what some cover lets through (MUR-H7).
    Gunpowder,
}

/// A weapon, shield or other item a character can hold, as the data gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ItemDef {
    /// The name in logs.
    pub name: String,
    /// The damage die's faces (4, 6, 8, 10, 12 or 20); 0 for no damage.
    #[serde(default)]
    pub damage: u8,
    /// Range in zones for ranged use; 0 for melee only.
    #[serde(default)]
    pub range: u8,
    /// Hands it needs (bulk 2 or more: both hands, and it cannot attack a grabbed character).
    #[serde(default = "one")]
    pub bulk: u8,
    /// Its keywords.
    #[serde(default)]
    pub keywords: Vec<Keyword>,
    /// Health a consumable restores (a die's faces; 0 for none).
    #[serde(default)]
    pub heal: u8,
    /// A consumable that ends poison.
    #[serde(default)]
    pub antidote: bool,
}

fn one() -> u8 {
    1
}

impl ItemDef {
    /// Whether it has a keyword.
    pub fn has(&self, k: Keyword) -> bool {
        self.keywords.contains(&k)
    }

    /// Whether it can attack at all.
    pub fn is_weapon(&self) -> bool {
        self.damage > 0 || self.has(Keyword::Stun) || self.has(Keyword::Grab)
    }

    /// Whether it needs both hands.
    pub fn two_handed(&self) -> bool {
        self.bulk >= 2
    }

    /// Checks the numbers.
    pub fn check(&self) -> Result<(), String> {
        if !matches!(self.damage, 0 | 4 | 6 | 8 | 10 | 12 | 20) {
            return Err(format!(
                "damage = {}: a die of 4, 6, 8, 10, 12 or 20 faces, or 0",
                self.damage
            ));
        }
        if self.range > 20 || self.bulk > 3 || !matches!(self.heal, 0 | 4 | 6 | 8 | 10 | 12 | 20) {
            return Err("range is 0..=20, bulk 0..=3, heal a die of 4 to 20 faces or 0".into());
        }
        if self.has(Keyword::Indirect) && self.range < 2 {
            return Err("an indirect weapon needs a range of 2 or more".into());
        }
        Ok(())
    }
}

/// A condition an injury leaves a character saved from dying, until a full rest (the game's
/// Health chapter: the injury d6 of 4, 5 and 6; its Conditions chapter says what each does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Injury {
    /// An injured leg: hobbled, its movement halved.
    Hobbled,
    /// Its main (primary) arm cannot be used.
    MainArm,
    /// Its other (secondary) arm cannot be used.
    OtherArm,
    /// One eye lost: ranged attacks and powers reach half their range.
    Eye,
    /// Both eyes: blind. It sees nobody, its melee attacks need a WIT save to hit, and it makes
    /// no ranged attack.
    Blind,
}

impl Injury {
    /// Every injury, in the order a campaign lists them.
    pub const ALL: [Injury; 5] = [
        Injury::Hobbled,
        Injury::MainArm,
        Injury::OtherArm,
        Injury::Eye,
        Injury::Blind,
    ];

    /// The word in encounter files (`injuries = ["hobbled"]`).
    pub fn word(self) -> &'static str {
        match self {
            Injury::Hobbled => "hobbled",
            Injury::MainArm => "main-arm",
            Injury::OtherArm => "other-arm",
            Injury::Eye => "eye",
            Injury::Blind => "blind",
        }
    }
}

/// The conditions a character's injuries left it, until a full rest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Injuries {
    /// Hobbled: half movement.
    pub hobbled: bool,
    /// The arms it cannot use: the main (primary) one, the other.
    pub arms: [bool; 2],
    /// Eyes lost: 1 halves the range of its ranged attacks and powers, 2 is blind.
    pub eyes: u8,
}

impl Injuries {
    /// None at all.
    pub fn none(&self) -> bool {
        *self == Injuries::default()
    }

    /// Whether it has this one (blind counts as the eye too).
    pub fn has(&self, i: Injury) -> bool {
        match i {
            Injury::Hobbled => self.hobbled,
            Injury::MainArm => self.arms[0],
            Injury::OtherArm => self.arms[1],
            Injury::Eye => self.eyes == 1,
            Injury::Blind => self.eyes >= 2,
        }
    }

    /// With this one added.
    pub fn add(&mut self, i: Injury) {
        match i {
            Injury::Hobbled => self.hobbled = true,
            Injury::MainArm => self.arms[0] = true,
            Injury::OtherArm => self.arms[1] = true,
            Injury::Eye => self.eyes = self.eyes.max(1),
            Injury::Blind => self.eyes = 2,
        }
    }

    /// Blind.
    pub fn blind(&self) -> bool {
        self.eyes >= 2
    }

    /// Whether hand `h` (0 the main one) can hold anything.
    pub fn hand_free(&self, h: usize) -> bool {
        !self.arms.get(h).copied().unwrap_or(true)
    }

    /// The injuries as a campaign writes them.
    pub fn words(&self) -> Vec<&'static str> {
        Injury::ALL
            .into_iter()
            .filter(|&i| self.has(i))
            .map(Injury::word)
            .collect()
    }
}

/// What a non-damaging power does to a target that fails its save.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Effect {
    /// Nothing beyond its damage.
    None,
    /// The target is stunned.
    Stun,
    /// The target is frightened of the invoker.
    Frighten,
    /// The target is entangled until it breaks free.
    Entangle,
}

/// A profane power a character may invoke as a main action (MUR-R8, MUR-R60).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Power {
    /// The name in logs.
    pub name: String,
    /// The damage die's faces; 0 for a power that deals none.
    #[serde(default)]
    pub damage: u8,
    /// Range in zones; 0 for a nearby target.
    #[serde(default)]
    pub range: u8,
    /// Keywords (blast, direct, fire, holy, indirect).
    #[serde(default)]
    pub keywords: Vec<Keyword>,
    /// What it does to a target that fails the save.
    #[serde(default = "no_effect")]
    pub effect: Effect,
    /// The ability the target saves with against the effect.
    #[serde(default = "wit")]
    pub save: Ability,
    /// Whether it can be dodged (powers cannot, unless they say so: MUR-R60).
    #[serde(default)]
    pub dodge: bool,
}

fn no_effect() -> Effect {
    Effect::None
}

fn wit() -> Ability {
    Ability::Wit
}

impl Power {
    /// Whether it has a keyword.
    pub fn has(&self, k: Keyword) -> bool {
        self.keywords.contains(&k)
    }

    /// Checks the numbers.
    pub fn check(&self) -> Result<(), String> {
        if !matches!(self.damage, 0 | 4 | 6 | 8 | 10 | 12 | 20) || self.range > 20 {
            return Err("damage is a die of 4 to 20 faces or 0, range 0..=20".into());
        }
        if self.damage == 0 && self.effect == Effect::None {
            return Err("a power needs damage or an effect".into());
        }
        Ok(())
    }
}

/// The items fray ships.
pub fn catalogue() -> BTreeMap<String, ItemDef> {
    #[derive(Deserialize)]
    struct File {
        item: BTreeMap<String, ItemDef>,
    }
    match toml::from_str::<File>(include_str!("../data/items.toml")) {
        Ok(f) => f.item,
        // The file is part of the crate and a test reads it: this cannot happen in a build
        // that passed its tests.
        Err(e) => panic!("data/items.toml: {e}"),
    }
}

/// The item that stands for bare hands.
pub const UNARMED: &str = "unarmed";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_items_are_sound() {
        let c = catalogue();
        for (id, item) in &c {
            item.check().unwrap_or_else(|e| panic!("{id}: {e}"));
        }
        for id in ["simple-hand", "martial-great", "shield", "handgun", "acid", UNARMED] {
            assert!(c.contains_key(id), "{id}");
        }
    }

    #[test]
    fn sizes_scale_with_divisions_rounding_up() {
        assert_eq!(Size::Small.scale(9), 5);
        assert_eq!(Size::Tiny.scale(9), 3);
        assert_eq!(Size::Large.scale(9), 18);
        assert_eq!(Size::Massive.armour_factor(), 4);
    }
}
