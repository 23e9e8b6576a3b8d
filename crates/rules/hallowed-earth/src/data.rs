//! The game's data: abilities, dice expressions, weapons, spells, consumables, stat blocks and
//! the combat injury tables. Plain values, read from encounter files by `setup.rs`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Every stat lies within ±`STAT_LIMIT`, so sums of a few of them cannot overflow an `i16`.
pub const STAT_LIMIT: i16 = 999;

/// The six abilities the chapter names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ability {
    /// Wound Points (HAL-R27), the death threshold (HAL-R31), Stress per HD (HAL-R24), melee.
    Strength,
    /// Defense (HAL-R35) and Base Initiative (HAL-R4).
    Agility,
    /// Ranged attacks (fray's own reading).
    Dexterity,
    /// Morale (HAL-R20).
    Insight,
    /// Tracked for injuries.
    Perception,
    /// Tracked for injuries.
    Memory,
}

impl Ability {
    /// All six, in the order of [`Stats::abilities`].
    pub const ALL: [Ability; 6] = [
        Ability::Strength,
        Ability::Agility,
        Ability::Dexterity,
        Ability::Insight,
        Ability::Perception,
        Ability::Memory,
    ];

    /// The index in [`Stats::abilities`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The name in files and logs.
    pub fn name(self) -> &'static str {
        ["strength", "agility", "dexterity", "insight", "perception", "memory"][self.index()]
    }
}

/// `NdS+K`: `n` dice of `sides` faces plus `plus` (a bare number is `0d1+K`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dice {
    /// How many dice.
    pub n: u8,
    /// Faces of each die.
    pub sides: u16,
    /// Added to the sum.
    pub plus: i16,
}

impl Dice {
    /// The smallest total.
    pub fn min(&self) -> i32 {
        i32::from(self.n) + i32::from(self.plus)
    }

    /// The largest total.
    pub fn max(&self) -> i32 {
        i32::from(self.n) * i32::from(self.sides) + i32::from(self.plus)
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.n, self.plus) {
            (0, k) => write!(f, "{k}"),
            (n, 0) => write!(f, "{n}d{}", self.sides),
            (n, k) if k > 0 => write!(f, "{n}d{}+{k}", self.sides),
            (n, k) => write!(f, "{n}d{}{k}", self.sides),
        }
    }
}

impl std::str::FromStr for Dice {
    type Err = String;
    fn from_str(text: &str) -> Result<Dice, String> {
        let bad = || format!("'{text}' is not dice: expected NdS, NdS+K, NdS-K or a number, e.g. 1d8+2");
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let (dice, plus) = match t.find(['+', '-']).filter(|&i| i > 0) {
            Some(i) => (
                &t[..i],
                t[i..].trim_start_matches('+').parse::<i16>().map_err(|_| bad())?,
            ),
            None => (t.as_str(), 0),
        };
        let (n, sides) = match dice.split_once(['d', 'D']) {
            Some((n, s)) => {
                let n: u8 = if n.is_empty() { 1 } else { n.parse().map_err(|_| bad())? };
                (n, s.parse::<u16>().map_err(|_| bad())?)
            }
            None => {
                let k: i16 = dice.parse().map_err(|_| bad())?;
                return if plus == 0 && k.abs() <= STAT_LIMIT {
                    Ok(Dice {
                        n: 0,
                        sides: 1,
                        plus: k,
                    })
                } else {
                    Err(bad())
                };
            }
        };
        if n > 40 || !(1..=1000).contains(&sides) || plus.abs() > STAT_LIMIT {
            return Err(format!(
                "'{text}': at most 40 dice of 1 to 1000 faces, plus at most ±{STAT_LIMIT}"
            ));
        }
        Ok(Dice { n, sides, plus })
    }
}

impl Serialize for Dice {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Dice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Dice, D::Error> {
        let t = String::deserialize(d)?;
        t.parse().map_err(serde::de::Error::custom)
    }
}

/// Which hand holds a weapon (injuries to an arm or a hand disable what it holds, HAL-R40).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Hand {
    /// The main hand.
    #[default]
    Main,
    /// The off hand.
    Off,
    /// Both hands: either arm being out disables it.
    Both,
    /// Claws, teeth: no hand.
    Natural,
}

/// A weapon.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Weapon {
    /// One word, typed in commands.
    pub name: String,
    /// Damage of a hit.
    pub damage: Dice,
    /// Damage types (the injury tables, HAL-R39); at least one.
    #[serde(default = "blunt")]
    pub types: Vec<String>,
    /// Initiative modifier (HAL-R8, HAL-H11); the option `default-weapon-speed` when left out.
    #[serde(default)]
    pub speed: Option<i16>,
    /// The critical multiplier, 2 to 4 (HAL-R37).
    #[serde(default = "two")]
    pub crit: u8,
    /// The lowest natural attack roll that is a critical hit (HAL-H3); the top face when left
    /// out.
    #[serde(default)]
    pub crit_range: Option<u16>,
    /// A reach weapon: its threat range is the `long-reach` option (HAL-H10).
    #[serde(default)]
    pub long: bool,
    /// Range in yards of a ranged (or thrown) weapon; 0 for a melee weapon.
    #[serde(default)]
    pub range: i16,
    /// It may be thrown (HAL-R8) at up to `range` yards; it is gone once thrown.
    #[serde(default)]
    pub thrown: bool,
    /// The initiative modifier of throwing it (HAL-R8: +2 unless stated).
    #[serde(default)]
    pub throw_speed: Option<i16>,
    /// Which hand holds it.
    #[serde(default)]
    pub hand: Hand,
    /// In hand when the fight starts; `false`: stowed, to be drawn as a Free action (HAL-R17).
    #[serde(default = "yes")]
    pub drawn: bool,
    /// The ability whose modifier adds to its attack rolls; strength for melee weapons and
    /// dexterity for ranged ones when left out.
    #[serde(default)]
    pub ability: Option<Ability>,
}

fn blunt() -> Vec<String> {
    vec!["blunt".into()]
}

fn yes() -> bool {
    true
}

fn two() -> u8 {
    2
}

impl Weapon {
    /// Whether it attacks at range (it has no threat range).
    pub fn ranged(&self) -> bool {
        self.range > 0 && !self.thrown
    }

    /// The ability its attack rolls add.
    pub fn attack_ability(&self) -> Ability {
        self.ability.unwrap_or(if self.ranged() {
            Ability::Dexterity
        } else {
            Ability::Strength
        })
    }
}

/// A spell (HAL-R8, HAL-H12, HAL-R26).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Spell {
    /// One word, typed in commands.
    pub name: String,
    /// The casting TN.
    pub tn: i16,
    /// Its initiative modifier; the TN minus the `spell-speed-offset` option when left out.
    #[serde(default)]
    pub speed: Option<i16>,
    /// Mana it costs; Stress pays what Mana cannot (HAL-R26).
    #[serde(default)]
    pub mana: i16,
    /// Range in yards.
    #[serde(default = "thirty")]
    pub range: i16,
    /// Damage to a foe.
    #[serde(default)]
    pub damage: Option<Dice>,
    /// Its damage types.
    #[serde(default = "blunt")]
    pub types: Vec<String>,
    /// Stress restored to an ally (or itself) instead of damage.
    #[serde(default)]
    pub restores: Option<Dice>,
}

fn thirty() -> i16 {
    30
}

/// A consumable item (HAL-R8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Item {
    /// One word, typed in commands.
    pub name: String,
    /// Its initiative modifier (HAL-R8: +6 unless stated).
    #[serde(default)]
    pub speed: Option<i16>,
    /// Stress it restores to whoever takes it.
    #[serde(default)]
    pub restores: Option<Dice>,
    /// How many the creature carries.
    #[serde(default = "one")]
    pub count: u8,
}

fn one() -> u8 {
    1
}

/// A wound: one instance of Wound Point damage (HAL-R28).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wound {
    /// Its damage type (`untyped` for the costs of acting hurt, HAL-R43).
    pub kind: String,
    /// Wound Points lost.
    pub amount: i16,
}

/// A stat block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// The six ability scores, in [`Ability::ALL`] order.
    pub abilities: [i16; 6],
    /// Hit Dice, class levels included (HAL-R24).
    pub hd: u8,
    /// Faces of each Hit Die.
    pub hd_die: u16,
    /// Maximum Stress, when the stat block fixes it; otherwise rolled at the start (HAL-R24).
    pub stress: Option<i16>,
    /// Added to the Strength score for maximum Wound Points (HAL-R27).
    pub wp_bonus: i16,
    /// The Defense bonus, worn armour's included (HAL-R35).
    pub defense_bonus: i16,
    /// The Armour score (HAL-R36).
    pub armour: i16,
    /// Speed in yards a round (HAL-R18).
    pub speed: i16,
    /// The attack bonus from HD or level, added to the weapon's ability modifier (HAL-H1).
    pub attack: i16,
    /// Bonus of casting checks.
    pub casting: i16,
    /// Bonus of Heal checks (HAL-R32).
    pub heal: i16,
    /// Bonus of Intimidation checks (HAL-R21).
    pub intimidation: i16,
    /// Added to the Base Initiative roll (traits, talents: HAL-R4); negative is faster.
    pub initiative: i16,
    /// Mana at the start.
    pub mana: i16,
    /// A monster: it checks morale (HAL-R19, HAL-H22).
    pub monster: bool,
    /// Its weapons; the first is the one used when a command names none.
    pub weapons: Vec<Weapon>,
    /// Its spells.
    pub spells: Vec<Spell>,
    /// Its consumables.
    pub items: Vec<Item>,
}

impl Stats {
    /// An ability score.
    pub fn score(&self, a: Ability) -> i16 {
        self.abilities[a.index()]
    }

    /// Whether every number is in range; the message names the first that is not.
    pub fn check(&self) -> Result<(), String> {
        for a in Ability::ALL {
            let v = self.score(a);
            if !(1..=STAT_LIMIT).contains(&v) {
                return Err(format!("{} = {v} is outside 1..={STAT_LIMIT}", a.name()));
            }
        }
        if self.hd > 40 || !(1..=100).contains(&self.hd_die) {
            return Err(format!(
                "hd = {} and hd-die = {}: at most 40 Hit Dice of 1 to 100 faces",
                self.hd, self.hd_die
            ));
        }
        if self.stress.is_some_and(|s| !(0..=STAT_LIMIT).contains(&s)) {
            return Err(format!("stress must be within 0..={STAT_LIMIT}"));
        }
        let small = [
            ("wp-bonus", self.wp_bonus),
            ("defense-bonus", self.defense_bonus),
            ("armour", self.armour),
            ("attack", self.attack),
            ("casting", self.casting),
            ("heal", self.heal),
            ("intimidation", self.intimidation),
            ("initiative", self.initiative),
        ];
        for (name, v) in small {
            if v.abs() > 99 {
                return Err(format!("{name} = {v} is outside ±99"));
            }
        }
        if !(0..=STAT_LIMIT).contains(&self.speed) || !(0..=STAT_LIMIT).contains(&self.mana) || self.armour < 0 {
            return Err(format!(
                "speed and mana must be within 0..={STAT_LIMIT}, armour at least 0"
            ));
        }
        if self.weapons.len() > 16 || self.spells.len() > 16 || self.items.len() > 16 {
            return Err("at most 16 weapons, 16 spells and 16 items".into());
        }
        let mut names: Vec<&str> = Vec::new();
        let all = self.weapons.iter().map(|w| w.name.as_str());
        for n in all
            .chain(self.spells.iter().map(|s| s.name.as_str()))
            .chain(self.items.iter().map(|i| i.name.as_str()))
        {
            if !fray_engine::encounter::is_word(n) || names.iter().any(|m| m.eq_ignore_ascii_case(n)) {
                return Err(format!(
                    "'{n}': weapon, spell and item names are single words, each used once"
                ));
            }
            names.push(n);
        }
        for w in &self.weapons {
            let types_ok =
                !w.types.is_empty() && w.types.len() <= 4 && w.types.iter().all(|t| fray_engine::encounter::is_word(t));
            if !types_ok {
                return Err(format!("weapon '{}': give 1 to 4 one-word damage types", w.name));
            }
            if !(2..=4).contains(&w.crit) {
                return Err(format!("weapon '{}': crit = {} must be 2, 3 or 4", w.name, w.crit));
            }
            if w.crit_range.is_some_and(|r| !(2..=100).contains(&r)) {
                return Err(format!("weapon '{}': crit-range must be within 2..=100", w.name));
            }
            let speeds = [w.speed, w.throw_speed].into_iter().flatten();
            if speeds.chain([w.damage.plus]).any(|v| v.abs() > 99) || !(0..=1000).contains(&w.range) {
                return Err(format!(
                    "weapon '{}': speeds and damage bonus within ±99, range within 0..=1000 yards",
                    w.name
                ));
            }
            if w.thrown && w.range == 0 {
                return Err(format!("weapon '{}': a thrown weapon needs a range", w.name));
            }
        }
        for s in &self.spells {
            let effects = usize::from(s.damage.is_some()) + usize::from(s.restores.is_some());
            if effects != 1 {
                return Err(format!("spell '{}': give either damage or restores", s.name));
            }
            if !(0..=99).contains(&s.tn)
                || !(0..=STAT_LIMIT).contains(&s.mana)
                || !(1..=1000).contains(&s.range)
                || s.speed.is_some_and(|v| v.abs() > 99)
            {
                return Err(format!(
                    "spell '{}': tn within 0..=99, mana at least 0, range within 1..=1000, speed within ±99",
                    s.name
                ));
            }
            if s.types.is_empty() || !s.types.iter().all(|t| fray_engine::encounter::is_word(t)) {
                return Err(format!("spell '{}': give one-word damage types", s.name));
            }
        }
        for i in &self.items {
            if i.restores.is_none() || i.count == 0 || i.speed.is_some_and(|v| v.abs() > 99) {
                return Err(format!(
                    "item '{}': give what it restores, a count of at least 1 and a speed within ±99",
                    i.name
                ));
            }
        }
        Ok(())
    }
}

/// What an injury does beyond ability damage (HAL-R40). fray applies those that matter in
/// combat and keeps the rest on the creature's sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Effect {
    /// A penalty to Balance checks (kept on the sheet).
    Balance(i16),
    /// Moves at half speed.
    HalfSpeed,
    /// Prone until healed: cannot stand.
    Prone,
    /// Acts only every second round.
    EveryOtherTurn,
    /// The arm cannot attack (its weapons are out of use).
    ArmCannotAttack,
    /// The arm cannot hold anything (its weapons are out of use).
    ArmCannotHold,
    /// The hand cannot hold or be used (its weapons are out of use).
    HandUseless,
    /// Paralysed from the neck down.
    Paralyzed,
    /// Cannot speak (nor, with the windpipe, breathe).
    Mute,
    /// Cannot breathe: suffocation is for the Referee (kept on the sheet).
    Breathless,
    /// Cannot chew (kept on the sheet).
    NoChewing,
    /// Cannot smell (kept on the sheet).
    Anosmia,
    /// Blind in one eye (kept on the sheet).
    OneEye,
    /// Deaf in one ear (kept on the sheet).
    OneEar,
    /// Concussed (HAL-H6).
    Concussed,
}

/// One entry of a combat injury table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Injury {
    /// The injury's name.
    pub name: String,
    /// Roll a d4 for the side: 1–2 the main arm or hand, 3–4 the other (HAL-R41).
    #[serde(default)]
    pub side: bool,
    /// Abilities damaged.
    #[serde(default)]
    pub abilities: Vec<Ability>,
    /// The ability damage roll.
    #[serde(default)]
    pub damage: Option<Dice>,
    /// Other effects.
    #[serde(default)]
    pub effects: Vec<Effect>,
}

/// The built-in blunt table (HAL-R40), as data.
pub const BLUNT_TABLE: &str = include_str!("../data/injuries.toml");

/// The combat injury tables by damage type (HAL-R39). A type without a table of its own uses
/// the `blunt` table (HAL-H8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InjuryTables(pub std::collections::BTreeMap<String, Vec<Injury>>);

#[derive(Deserialize)]
struct TableFile {
    blunt: Vec<Injury>,
}

impl Default for InjuryTables {
    fn default() -> Self {
        // The built-in file is part of the program: a test reads it, so this cannot fail.
        // HAL-R40: the twenty Blunt entries, read from the built-in data file.
        let file: TableFile = toml::from_str(BLUNT_TABLE).unwrap_or(TableFile { blunt: Vec::new() });
        InjuryTables([("blunt".to_string(), file.blunt)].into_iter().collect())
    }
}

impl InjuryTables {
    /// The table for a damage type: its own, else blunt (HAL-H8).
    pub fn table(&self, kind: &str) -> &[Injury] {
        self.0
            .get(kind)
            .or_else(|| self.0.get("blunt"))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether every table is usable: the blunt table exists, each has 1 to 100 entries and
    /// every entry's damage names an ability.
    pub fn check(&self) -> Result<(), String> {
        if !self.0.contains_key("blunt") {
            return Err("the injury tables need a 'blunt' table".into());
        }
        for (kind, t) in &self.0 {
            if t.is_empty() || t.len() > 100 || !fray_engine::encounter::is_word(kind) {
                return Err(format!("injury table '{kind}': a one-word type and 1 to 100 entries"));
            }
            for e in t {
                if e.damage.is_some() == e.abilities.is_empty() || e.abilities.len() > 6 {
                    return Err(format!(
                        "injury '{}' ({kind}): ability damage needs both the abilities and the dice",
                        e.name
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_read_and_print_back() {
        for t in ["1d8", "2d6+3", "1d4-1", "5", "3d12"] {
            let d: Dice = t.parse().unwrap();
            assert_eq!(d.to_string(), t);
        }
        assert_eq!(
            "d6".parse::<Dice>().unwrap(),
            Dice {
                n: 1,
                sides: 6,
                plus: 0
            }
        );
        assert!("2x6".parse::<Dice>().is_err());
        assert!("99d6".parse::<Dice>().is_err());
    }

    #[test]
    fn hal_r40_the_built_in_blunt_table_has_twenty_entries_and_checks() {
        let t = InjuryTables::default();
        t.check().unwrap();
        let blunt = t.table("blunt");
        assert_eq!(blunt.len(), 20);
        // HAL-R41: the arm and hand entries (8 to 12) roll for the side.
        let sided: Vec<usize> = (0..20).filter(|&i| blunt[i].side).map(|i| i + 1).collect();
        assert_eq!(sided, vec![8, 9, 10, 11, 12]);
        // HAL-H8: a type without a table of its own uses the blunt one.
        assert_eq!(t.table("piercing"), blunt);
    }
}
