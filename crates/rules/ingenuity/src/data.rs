//! Items as data: weapons, shields and armour, read from TOML files.
//!
//! `data/items.toml` ships fray's own example items (not the game's tables); encounters may add
//! files of their own with `item-files = [...]` and `[[item]]` / `[[armour]]` tables. Every
//! problem is reported with file, line and column.

use crate::options::{CriticalDamage, Options};
use fray_engine::diag::{Diagnostic, SourceFile};
use serde::{Deserialize, Serialize};
use toml::Spanned;

/// Index of an item in the [`Armoury`].
pub type ItemId = u16;

/// The four attributes (each a die).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Attr {
    /// Strength.
    Str,
    /// Dexterity.
    Dex,
    /// Intellect.
    Int,
    /// Resolve.
    Res,
}

impl Attr {
    /// All four, in sheet order.
    pub const ALL: [Attr; 4] = [Attr::Str, Attr::Dex, Attr::Int, Attr::Res];

    /// The short name used in files and commands.
    pub fn name(self) -> &'static str {
        match self {
            Attr::Str => "str",
            Attr::Dex => "dex",
            Attr::Int => "int",
            Attr::Res => "res",
        }
    }

    /// Parses a short or long name.
    pub fn parse(s: &str) -> Option<Attr> {
        Some(match s.to_ascii_lowercase().as_str() {
            "str" | "strength" => Attr::Str,
            "dex" | "dexterity" => Attr::Dex,
            "int" | "intellect" => Attr::Int,
            "res" | "resolve" => Attr::Res,
            _ => return None,
        })
    }
}

/// Damage types (ING-R56).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DamageType {
    /// Physical.
    Bludgeoning,
    /// Physical.
    Piercing,
    /// Physical.
    Slashing,
    /// Elemental.
    Arcane,
    /// Elemental.
    Cold,
    /// Elemental.
    Fire,
    /// Elemental.
    Radiant,
    /// Elemental.
    Shock,
    /// Elemental.
    Void,
    /// Typeless.
    Psychic,
    /// Typeless (no type stated).
    Typeless,
}

/// The three families of damage: what reduces them (ING-R56, ING-R57).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DamageClass {
    /// Reduced by physical deflection.
    Physical,
    /// Reduced by elemental deflection.
    Elemental,
    /// Not reduced.
    Typeless,
}

impl DamageType {
    /// The family of a damage type.
    pub fn class(self) -> DamageClass {
        use DamageType::*;
        // ING-R56: the physical, elemental and typeless families.
        match self {
            Bludgeoning | Piercing | Slashing => DamageClass::Physical,
            Arcane | Cold | Fire | Radiant | Shock | Void => DamageClass::Elemental,
            Psychic | Typeless => DamageClass::Typeless,
        }
    }

    /// The name used in files and logs.
    pub fn name(self) -> &'static str {
        use DamageType::*;
        match self {
            Bludgeoning => "bludgeoning",
            Piercing => "piercing",
            Slashing => "slashing",
            Arcane => "arcane",
            Cold => "cold",
            Fire => "fire",
            Radiant => "radiant",
            Shock => "shock",
            Void => "void",
            Psychic => "psychic",
            Typeless => "typeless",
        }
    }
}

/// A condition a character can have (ING-R65, ING-R66: one instance each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cond {
    /// On the ground: ranged attacks against have disadvantage, melee attacks advantage.
    Prone,
    /// Behind cover after Seek Cover: ranged attacks against have disadvantage.
    Cover,
    /// Guarding: +1 to defences and defence tests.
    Guarding,
    /// Unseen by enemies: its attacks are sneak attacks.
    Hidden,
    /// Cannot see: attacks against it are sneak attacks.
    Blinded,
    /// Cannot act or react.
    Stunned,
    /// The GM says it is flanked.
    Flanked,
}

impl Cond {
    /// Every condition, in a fixed order.
    pub const ALL: [Cond; 7] = [
        Cond::Prone,
        Cond::Cover,
        Cond::Guarding,
        Cond::Hidden,
        Cond::Blinded,
        Cond::Stunned,
        Cond::Flanked,
    ];

    /// The bit of this condition.
    pub fn bit(self) -> u16 {
        1 << (self as u16)
    }

    /// The name used in files, commands and logs.
    pub fn name(self) -> &'static str {
        match self {
            Cond::Prone => "prone",
            Cond::Cover => "cover",
            Cond::Guarding => "guarding",
            Cond::Hidden => "hidden",
            Cond::Blinded => "blinded",
            Cond::Stunned => "stunned",
            Cond::Flanked => "flanked",
        }
    }

    /// Parses a name.
    pub fn parse(s: &str) -> Option<Cond> {
        Cond::ALL.into_iter().find(|c| c.name() == s)
    }
}

/// Which defence resists an on-hit effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EffectDefence {
    /// A physical effect: constitution, helped by Fortify.
    Constitution,
    /// A mental effect: willpower, helped by Resist.
    Willpower,
}

/// How long an effect's condition lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lasts {
    /// For the scene (until removed).
    Scene,
    /// Until the end of the victim's next turn.
    NextTurn,
}

/// An effect a hit may cause: a condition unless the target's defence meets the difficulty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    /// The condition.
    pub condition: Cond,
    /// What resists it.
    pub defence: EffectDefence,
    /// The difficulty: `None` means the attack's test total.
    pub difficulty: Option<i16>,
    /// How long it lasts.
    pub lasts: Lasts,
}

/// A weapon, shield or other held item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    /// The id used in files and commands.
    pub id: String,
    /// The display name.
    pub name: String,
    /// Whether it can make attacks.
    pub weapon: bool,
    /// Attributes an attack may use.
    pub attributes: Vec<Attr>,
    /// Proficiencies an attack may add (one of them).
    pub proficiencies: Vec<String>,
    /// Damage on a hit.
    pub damage: i16,
    /// Its damage type.
    pub damage_type: DamageType,
    /// The lowest luck die that makes a critical hit.
    pub critical_threshold: i16,
    /// Damage on a critical hit (absolute; see ING-H19).
    pub critical_damage: i16,
    /// How far it reaches, in metres (1 for melee, 2 with Reach, more for thrown and ranged).
    pub range: i16,
    /// Whether attacks with it are ranged (thrown, projectile, or reaching beyond 2 m): they
    /// suffer disadvantage against cover and prone targets.
    pub ranged: bool,
    /// Hands needed to wield it.
    pub hands: u8,
    /// Thrown (can misfire).
    pub thrown: bool,
    /// Fires a projectile (can misfire).
    pub projectile: bool,
    /// Nonlethal: reaching zero health with it makes no death check (ING-R63).
    pub nonlethal: bool,
    /// Older property: +1 on later attacks with it in the same turn.
    pub swift: bool,
    /// Older property: +2 on later attacks against new targets in the same turn.
    pub cleave: bool,
    /// Older property: +2 on the next attack in the turn after a miss with it.
    pub backswing: bool,
    /// Older property: +1 against a target already hit this turn.
    pub momentum: bool,
    /// Older property: misfires also apply to melee attacks with it.
    pub risky: bool,
    /// Parry value (a parry with an item without one adds 1).
    pub parry: Option<i16>,
    /// Block value (needed to block).
    pub block: Option<i16>,
    /// Durability when undamaged (ING-R54: 10 for metal, 4 otherwise, unless listed).
    pub durability: i16,
    /// Made of metal.
    pub metal: bool,
    /// Actions to reload after each attack (0: never).
    pub reload: u8,
    /// An effect of a hit.
    pub effect: Option<Effect>,
}

impl Item {
    /// Whether attacks with it can misfire (ING-R39; Risky melee weapons with the older
    /// properties).
    /// `throws`: whether this attack throws it (see `calc::throws`); a Thrown weapon wielded in
    /// melee does not misfire for being Thrown.
    pub fn can_misfire(&self, options: &Options, throws: bool) -> bool {
        (self.thrown && throws) || self.projectile || (self.risky && options.older_properties)
    }
}

/// Armour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Armour {
    /// The id used in files.
    pub id: String,
    /// The display name.
    pub name: String,
    /// Armour rating, added to both deflections.
    pub rating: i16,
}

/// Every item and armour an encounter can use.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Armoury {
    /// Items by [`ItemId`].
    pub items: Vec<Item>,
    /// Armour.
    pub armour: Vec<Armour>,
}

impl Armoury {
    /// An item.
    pub fn item(&self, id: ItemId) -> &Item {
        &self.items[id as usize]
    }

    /// Finds an item by id.
    pub fn find(&self, id: &str) -> Option<ItemId> {
        self.items.iter().position(|i| i.id == id).map(|i| i as ItemId)
    }

    /// Finds armour by id.
    pub fn find_armour(&self, id: &str) -> Option<usize> {
        self.armour.iter().position(|a| a.id == id)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawFile {
    #[serde(default)]
    item: Vec<Spanned<RawItem>>,
    #[serde(default)]
    armour: Vec<Spanned<RawArmour>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawItem {
    id: Spanned<String>,
    name: Option<String>,
    #[serde(default)]
    attributes: Vec<Spanned<String>>,
    #[serde(default)]
    proficiencies: Vec<String>,
    damage: Option<i16>,
    #[serde(rename = "type")]
    damage_type: Option<Spanned<String>>,
    critical_threshold: Option<Spanned<i16>>,
    critical_damage: Option<i16>,
    range: Option<Spanned<i16>>,
    hands: Option<Spanned<u8>>,
    #[serde(default)]
    properties: Vec<Spanned<String>>,
    parry: Option<i16>,
    block: Option<i16>,
    durability: Option<Spanned<i16>>,
    #[serde(default)]
    metal: bool,
    reload: Option<u8>,
    effect: Option<Spanned<RawEffect>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawEffect {
    condition: Spanned<String>,
    defence: Spanned<String>,
    difficulty: Option<i16>,
    lasts: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawArmour {
    id: Spanned<String>,
    name: Option<String>,
    rating: i16,
}

/// The items shipped with fray.
pub const BUILT_IN: &str = include_str!("../data/items.toml");

/// A TOML parse error as a diagnostic.
pub use fray_engine::encounter::toml_diagnostic;

/// Reads the built-in items and every extra file (later files may not redefine an id).
pub fn build(extra: &[SourceFile], options: &Options) -> Result<Armoury, Vec<Diagnostic>> {
    let builtin = SourceFile {
        name: "built-in items".into(),
        text: BUILT_IN.into(),
    };
    let mut out = Armoury::default();
    let mut errors = Vec::new();
    for file in std::iter::once(&builtin).chain(extra) {
        read_into(file, options, &mut out, &mut errors);
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
}

/// Reads one file of items into `out`.
pub fn read_into(file: &SourceFile, options: &Options, out: &mut Armoury, errors: &mut Vec<Diagnostic>) {
    let raw: RawFile = match toml::from_str(&file.text) {
        Ok(r) => r,
        Err(e) => {
            errors.push(toml_diagnostic(file, &e));
            return;
        }
    };
    let err = |errors: &mut Vec<Diagnostic>, span: std::ops::Range<usize>, m: String| {
        errors.push(Diagnostic::at(file, span.start, m));
    };
    for ri in &raw.item {
        let r = ri.get_ref();
        let id = r.id.get_ref().clone();
        if out.find(&id).is_some() {
            err(errors, r.id.span(), format!("item '{id}' is defined twice"));
            continue;
        }
        let mut attributes = Vec::new();
        for a in &r.attributes {
            match Attr::parse(a.get_ref()) {
                Some(x) => attributes.push(x),
                None => err(
                    errors,
                    a.span(),
                    format!("unknown attribute '{}': expected str, dex, int or res", a.get_ref()),
                ),
            }
        }
        let damage_type = match &r.damage_type {
            // ING-R56: damage with no stated type is typeless.
            None => DamageType::Typeless,
            Some(t) => match serde_json::from_value::<DamageType>(serde_json::Value::String(t.get_ref().clone())) {
                Ok(d) => d,
                Err(_) => {
                    err(
                        errors,
                        t.span(),
                        format!(
                            "unknown damage type '{}': expected bludgeoning, piercing, slashing, arcane, cold, fire, radiant, shock, void, psychic or typeless",
                            t.get_ref()
                        ),
                    );
                    DamageType::Typeless
                }
            },
        };
        let mut flags = [false; 9];
        const NAMES: [&str; 9] = [
            "thrown",
            "projectile",
            "nonlethal",
            "reach",
            "swift",
            "cleave",
            "backswing",
            "momentum",
            "risky",
        ];
        for p in &r.properties {
            match NAMES.iter().position(|n| *n == p.get_ref().as_str()) {
                Some(i) => flags[i] = true,
                None if p.get_ref() == "two-handed" => {}
                None => err(
                    errors,
                    p.span(),
                    format!(
                        "unknown property '{}': expected one of {}, two-handed",
                        p.get_ref(),
                        NAMES.join(", ")
                    ),
                ),
            }
        }
        let two_handed = r.properties.iter().any(|p| p.get_ref() == "two-handed");
        let [
            thrown,
            projectile,
            nonlethal,
            reach,
            swift,
            cleave,
            backswing,
            momentum,
            risky,
        ] = flags;
        let weapon = r.damage.is_some();
        if weapon && attributes.is_empty() {
            err(
                errors,
                r.id.span(),
                format!("weapon '{id}' needs attributes = [...] for its attack test"),
            );
        }
        let damage = r.damage.unwrap_or(0);
        let critical_threshold = match &r.critical_threshold {
            Some(t) if !(1..=40).contains(t.get_ref()) => {
                err(errors, t.span(), "critical-threshold must be between 1 and 40".into());
                20
            }
            Some(t) => *t.get_ref(),
            None => 20,
        };
        let critical_damage = match (r.critical_damage, options.critical_damage) {
            (None, _) => damage,
            (Some(c), CriticalDamage::Absolute) => c,
            (Some(c), CriticalDamage::Bonus) => damage + c,
        };
        let range = match &r.range {
            Some(x) if *x.get_ref() < 1 => {
                err(errors, x.span(), "range must be at least 1 (metres)".into());
                1
            }
            Some(x) => *x.get_ref(),
            None if reach => 2,
            None => 1,
        };
        // Attacks beyond melee reach count as ranged (cover, prone targets, misfires).
        let ranged = thrown || projectile || range > 2;
        if (thrown || projectile) && r.range.is_none() {
            err(
                errors,
                r.id.span(),
                format!("'{id}' is thrown or fires projectiles: give its range = N (metres)"),
            );
        }
        let hands = match &r.hands {
            Some(h) if !(1..=2).contains(h.get_ref()) => {
                err(errors, h.span(), "hands must be 1 or 2".into());
                1
            }
            Some(h) => *h.get_ref(),
            None if two_handed => 2,
            None => 1,
        };
        let durability = match &r.durability {
            Some(d) if *d.get_ref() < 0 => {
                err(errors, d.span(), "durability cannot be negative".into());
                0
            }
            Some(d) => *d.get_ref(),
            // ING-R54: unlisted durability is 10 for metal items, 4 otherwise.
            None if r.metal => 10,
            None => 4,
        };
        for (what, v) in [
            ("damage", damage),
            ("critical-damage", critical_damage),
            ("range", range),
            ("durability", durability),
            ("parry", r.parry.unwrap_or(0)),
            ("block", r.block.unwrap_or(0)),
        ] {
            let limit = crate::setup::NUMBER_LIMIT;
            if !(-limit..=limit).contains(&v) {
                err(
                    errors,
                    r.id.span(),
                    format!("{what} of '{id}' is {v}; numbers run from -{limit} to {limit}"),
                );
            }
        }
        let effect = match &r.effect {
            None => None,
            Some(e) => {
                let e = e.get_ref();
                let condition = match Cond::parse(e.condition.get_ref()) {
                    Some(c) if !matches!(c, Cond::Cover | Cond::Guarding | Cond::Flanked) => c,
                    _ => {
                        err(
                            errors,
                            e.condition.span(),
                            format!(
                                "an effect's condition must be prone, hidden, blinded or stunned, not '{}'",
                                e.condition.get_ref()
                            ),
                        );
                        Cond::Prone
                    }
                };
                let defence = match e.defence.get_ref().as_str() {
                    "constitution" => EffectDefence::Constitution,
                    "willpower" => EffectDefence::Willpower,
                    other => {
                        err(
                            errors,
                            e.defence.span(),
                            format!(
                                "unknown defence '{other}': expected constitution (physical, Fortify) or willpower (mental, Resist)"
                            ),
                        );
                        EffectDefence::Constitution
                    }
                };
                let lasts = match e.lasts.as_ref().map(|l| l.get_ref().as_str()) {
                    None | Some("scene") => Lasts::Scene,
                    Some("next-turn") => Lasts::NextTurn,
                    Some(other) => {
                        if let Some(l) = &e.lasts {
                            err(
                                errors,
                                l.span(),
                                format!("unknown duration '{other}': expected scene or next-turn"),
                            );
                        }
                        Lasts::Scene
                    }
                };
                Some(Effect {
                    condition,
                    defence,
                    difficulty: e.difficulty,
                    lasts,
                })
            }
        };
        out.items.push(Item {
            name: r.name.clone().unwrap_or_else(|| id.clone()),
            id,
            weapon,
            attributes,
            proficiencies: r.proficiencies.clone(),
            damage,
            damage_type,
            critical_threshold,
            critical_damage,
            range,
            ranged,
            hands,
            thrown,
            projectile,
            nonlethal,
            swift,
            cleave,
            backswing,
            momentum,
            risky,
            parry: r.parry,
            block: r.block,
            durability,
            metal: r.metal,
            reload: r.reload.unwrap_or(0),
            effect,
        });
    }
    for ra in &raw.armour {
        let r = ra.get_ref();
        let id = r.id.get_ref().clone();
        if out.find_armour(&id).is_some() {
            err(errors, r.id.span(), format!("armour '{id}' is defined twice"));
            continue;
        }
        let limit = crate::setup::NUMBER_LIMIT;
        if !(-limit..=limit).contains(&r.rating) {
            err(
                errors,
                r.id.span(),
                format!("rating of '{id}' is {}; numbers run from -{limit} to {limit}", r.rating),
            );
        }
        out.armour.push(Armour {
            name: r.name.clone().unwrap_or_else(|| id.clone()),
            id,
            rating: r.rating,
        });
    }
}
