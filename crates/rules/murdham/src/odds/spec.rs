//! Dice, sizes and damage specifications: the damage die, the attacker's size, impaired and
//! enhanced damage ([`Quality`]), what an attack's damage is ([`DamageSpec`]: one net factor of
//! size, sweep and focus, armour after it) and whom it hits ([`Target`]: critical damage, MUR-H20).
//!
//! Part of [`crate::odds`], which holds the map of the mechanics and the exactness argument;
//! every file of it sees the others through `use super::*`, as one module would.

use super::*;

/// A damage die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Die {
    /// A d4 (unarmed, simple hand weapons).
    D4,
    /// A d6.
    D6,
    /// A d8.
    D8,
    /// A d10.
    D10,
    /// A d12.
    D12,
    /// A d20.
    D20,
}

impl Die {
    /// Every damage die, smallest first.
    pub const ALL: [Die; 6] = [Die::D4, Die::D6, Die::D8, Die::D10, Die::D12, Die::D20];

    /// The number of faces.
    pub fn sides(self) -> u32 {
        match self {
            Die::D4 => 4,
            Die::D6 => 6,
            Die::D8 => 8,
            Die::D10 => 10,
            Die::D12 => 12,
            Die::D20 => 20,
        }
    }

    /// The die with `sides` faces, if it is a damage die.
    pub fn from_sides(sides: u32) -> Option<Die> {
        Die::ALL.into_iter().find(|d| d.sides() == sides)
    }

    /// Reads `d6` (or `D6`): `None` if `word` is not `d` followed by digits, an error if it is
    /// but names no damage die.
    pub fn parse(word: &str) -> Option<Result<Die, String>> {
        let digits = word.strip_prefix('d').or_else(|| word.strip_prefix('D'))?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(
            digits
                .parse::<u32>()
                .ok()
                .and_then(Die::from_sides)
                .ok_or_else(|| format!("{word}: a damage die is d4, d6, d8, d10, d12 or d20")),
        )
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "d{}", self.sides())
    }
}

impl Serialize for Die {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A character's size, which multiplies the damage it deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Size {
    /// Deals a quarter (rounded up).
    Tiny,
    /// Deals half (rounded up).
    Small,
    /// Deals its roll.
    Medium,
    /// Deals double.
    Large,
    /// Deals four times.
    Massive,
}

impl Size {
    /// Every size, smallest first.
    pub const ALL: [Size; 5] = [Size::Tiny, Size::Small, Size::Medium, Size::Large, Size::Massive];

    /// The size's name.
    pub fn name(self) -> &'static str {
        match self {
            Size::Tiny => "tiny",
            Size::Small => "small",
            Size::Medium => "medium",
            Size::Large => "large",
            Size::Massive => "massive",
        }
    }

    /// The size named `word`.
    pub fn parse(word: &str) -> Option<Size> {
        Size::ALL.into_iter().find(|s| s.name() == word)
    }

    /// The power of two the size multiplies dealt damage by: -2 (÷4) to 2 (×4).
    pub fn damage_exponent(self) -> i32 {
        match self {
            Size::Tiny => -2,
            Size::Small => -1,
            Size::Medium => 0,
            Size::Large => 1,
            Size::Massive => 2,
        }
    }
}

/// What is left of a roll's impairments and enhancements once they cancel one for one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Quality {
    /// Impaired twice or more: no damage at all.
    NoDamage,
    /// The lower of two rolls.
    Impaired,
    /// One roll.
    Plain,
    /// The higher of two rolls (further enhancements add nothing).
    Enhanced,
}

impl Quality {
    /// The quality left by `impaired` impairments and `enhanced` enhancements.
    pub fn from_counts(impaired: u8, enhanced: u8) -> Quality {
        match i32::from(enhanced) - i32::from(impaired) {
            n if n <= -2 => Quality::NoDamage,
            -1 => Quality::Impaired,
            0 => Quality::Plain,
            _ => Quality::Enhanced,
        }
    }
}

/// One damage roll and what it passes through before it is dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DamageSpec {
    /// The weapon's die.
    pub die: Die,
    /// Impairments (unarmed, holding back, the off hand, concealment...), each cancelling one
    /// enhancement.
    pub impaired: u8,
    /// Enhancements, each cancelling one impairment.
    pub enhanced: u8,
    /// The attacker's size.
    pub size: Size,
    /// A sweep attack: half damage (MUR-R58).
    pub half: bool,
    /// A blast aimed at one large or massive character: double damage (MUR-R58).
    pub double: bool,
    /// The armour of the one hit, all included (armour, shield, cover, the size's armour
    /// multiplier).
    pub armour: u32,
    /// Direct damage: armour does not reduce it and a helmet does not help.
    pub direct: bool,
}

impl DamageSpec {
    /// A plain roll of `die` by a medium attacker against no armour.
    pub fn new(die: Die) -> DamageSpec {
        DamageSpec {
            die,
            impaired: 0,
            enhanced: 0,
            size: Size::Medium,
            half: false,
            double: false,
            armour: 0,
            direct: false,
        }
    }

    /// The roll's net impairment or enhancement.
    pub fn quality(&self) -> Quality {
        Quality::from_counts(self.impaired, self.enhanced)
    }

    /// The net power of two applied to the kept roll: the size's, -1 for a sweep, +1 for a blast
    /// aimed at one target (-3 to 3).
    pub fn exponent(&self) -> i32 {
        self.size.damage_exponent() - i32::from(self.half) + i32::from(self.double)
    }

    /// The damage of a kept roll of `raw` before armour: multiplied, or divided rounding up.
    pub fn scaled(&self, raw: usize) -> usize {
        let e = self.exponent();
        if e >= 0 {
            raw.saturating_mul(1 << e)
        } else {
            raw.div_ceil(1 << -e)
        }
    }

    /// The damage dealt by a kept roll of `raw`: [`scaled`](Self::scaled), less armour (unless
    /// direct), never below 0.
    pub fn dealt(&self, raw: usize) -> usize {
        self.scaled(raw).saturating_sub(self.armour_used())
    }

    /// The armour that counts: none against direct damage.
    pub(super) fn armour_used(&self) -> usize {
        if self.direct { 0 } else { self.armour as usize }
    }

    /// The least kept roll whose [`scaled`](Self::scaled) damage is at least `m` (1 for `m` 0).
    pub(super) fn least_raw_scaled(&self, m: usize) -> usize {
        let e = self.exponent();
        let least = if e >= 0 {
            m.div_ceil(1 << e)
        } else {
            (m.saturating_sub(1) << -e) + 1
        };
        least.max(1)
    }

    /// The number a division spreads over: 1, 2, 4 or 8.
    pub(super) fn divisor(&self) -> usize {
        1 << (-self.exponent()).max(0)
    }

    /// Refuses armour above [`MAX_ARMOUR`].
    pub(super) fn check(&self) -> Result<(), String> {
        if self.armour > MAX_ARMOUR {
            return Err(format!(
                "armour {}: armour is a whole number from 0 to {MAX_ARMOUR}",
                self.armour
            ));
        }
        Ok(())
    }
}

/// The roll kept from the totals of two exploding rolls under `quality`: the lower for
/// impaired, the higher for enhanced, the first for a plain roll (no second roll is made), and 0
/// for no damage (no roll at all). An impaired d8 rolling 3 and 7 keeps 3.
pub fn kept_total(quality: Quality, first: u32, second: u32) -> u32 {
    match quality {
        Quality::NoDamage => 0,
        Quality::Impaired => first.min(second),
        Quality::Plain => first,
        Quality::Enhanced => first.max(second),
    }
}

/// The value of one exploding damage roll from the faces shown, in order: each highest face
/// counts one less and calls for another face, the first other face ends the roll. `[6, 6, 3]`
/// on a d6 is `5 + 5 + 3 = 13`.
///
/// Errors: a face outside the die, no face, faces after the roll ended, or a roll still waiting
/// for a face (the last one shown is the highest).
pub fn exploding_total(die: Die, faces: &[u32]) -> Result<u32, String> {
    let n = die.sides();
    let mut total = 0u32;
    for (i, &f) in faces.iter().enumerate() {
        if !(1..=n).contains(&f) {
            return Err(format!("a {die} has no face {f}"));
        }
        if f == n {
            total = total.saturating_add(n - 1);
        } else if i + 1 == faces.len() {
            return Ok(total.saturating_add(f));
        } else {
            return Err(format!(
                "the roll ended on face {} ({f}); the faces after it are not part of it",
                i + 1
            ));
        }
    }
    Err(format!(
        "the {die} roll is not over: its last face shown is the highest, so it rolls again"
    ))
}

/// The least damage at once that is critical for a character with `health` left: half of it
/// rounded up, 1 more with a helmet unless the damage is direct, never more than `health` (losing
/// it all is critical too).
pub fn critical_threshold(health: u32, helmet: bool, direct: bool) -> u32 {
    (health.div_ceil(2) + u32::from(helmet && !direct)).min(health)
}

/// The one hit: its health now and at most, and whether a helmet protects it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Target {
    /// Health left (at least 1).
    pub health: u32,
    /// Maximum health (size and the tough skill included): a hit of this much kills outright.
    pub max_health: u32,
    /// A helmet: critical damage needs 1 more, except from direct damage.
    pub helmet: bool,
}

impl Target {
    /// A target at full health `max_health`, without a helmet.
    pub fn full(max_health: u32) -> Target {
        Target {
            health: max_health,
            max_health,
            helmet: false,
        }
    }

    /// Refuses health outside 1..=max_health or a maximum above [`MAX_HEALTH`].
    pub(super) fn check(&self) -> Result<(), String> {
        if self.max_health == 0 || self.max_health > MAX_HEALTH {
            return Err(format!(
                "health {}/{}: maximum health is a whole number from 1 to {MAX_HEALTH}",
                self.health, self.max_health
            ));
        }
        if self.health == 0 || self.health > self.max_health {
            return Err(format!(
                "health {}/{}: health left is a whole number from 1 to the maximum",
                self.health, self.max_health
            ));
        }
        Ok(())
    }
}
