//! Encounter files, read with the engine's encounter kit (`fray_engine::encounter`): every
//! problem is a diagnostic at its file, line and column. [`validate`] checks a whole setup
//! again, because a setup read back from a record is untrusted input.

use crate::HallowedEarth;
use crate::data::{Ability, Injury, InjuryTables, Item, STAT_LIMIT, Spell, Stats, Weapon, Wound};
use crate::options::{Declaration, Options};
use crate::state::Conditions;
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::encounter::{self as enc, Diags, GridMap, Overlay, RawPos, RosterRules, Spanned};
use fray_engine::kit::load;
use fray_engine::sides::{self, RawSide};
use fray_engine::{Ruleset, Seat};
use fray_space::{Grid, Pos};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Index of a combatant (its place in the encounter, GM additions after).
pub type Cid = u16;
/// The most combatants a combat may have, GM additions included.
pub const MAX_COMBATANTS: usize = 64;

/// A combatant as the encounter places it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combatant {
    /// The id typed in commands.
    pub id: String,
    /// The name in logs.
    pub name: String,
    /// Index of its side.
    pub side: u8,
    /// Where it starts.
    pub at: Pos,
    /// Its stat block: an index into [`Setup::blocks`].
    pub block: u16,
    /// The shared initiative roll it belongs to, if any (HAL-R5).
    pub group: Option<String>,
    /// Unaware of its enemies when the combat starts (HAL-R2).
    pub surprised: bool,
    /// The seat of its own that decides for it (a player's seat), an index into
    /// [`Setup::seats`]; `None`, the seat of its side (as every record before seats per player
    /// was written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// What it brings from earlier fights (a campaign's lasting state); nothing for a fresh
    /// creature.
    #[serde(default, skip_serializing_if = "Worn::is_fresh")]
    pub worn: Worn,
}

/// What a combatant brings into the fight from earlier ones: a campaign writes these keys into
/// its table (`TextRuleset::lasting`), and an encounter may give them itself. All at their
/// defaults for a fresh creature.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Worn {
    /// Stress lost in earlier fights: it comes off the maximum Stress rolled at the start
    /// (HAL-R24), down to 0 (fray's own reading of HAL-H19's hook).
    pub stress_lost: i16,
    /// Wound Points at the start; the maximum when `None` (HAL-R27).
    pub wp: Option<i16>,
    /// Stabilized at the start (HAL-R32); it matters only at 0 Wound Points or below.
    pub stabilized: bool,
    /// Wounds taken in earlier fights (HAL-R28): a Heal check's TN reads the largest (HAL-R32).
    pub wounds: Vec<Wound>,
    /// Ability damage from earlier injuries, by [`Ability::index`] (HAL-H18).
    pub loss: [i16; 6],
    /// The names of earlier injuries (HAL-R38), kept on the sheet.
    pub injuries: Vec<String>,
    /// A Balance penalty from earlier injuries (HAL-R40).
    pub balance: i16,
    /// Conditions earlier injuries left ([`Conditions::INJURY_FLAGS`]).
    pub conditions: u32,
}

/// The most wounds and injuries a creature may bring into a fight.
pub const MAX_CARRIED: usize = 256;

impl Worn {
    /// Whether it brings nothing: a fresh creature.
    pub fn is_fresh(&self) -> bool {
        *self == Worn::default()
    }

    /// Whether the numbers are in range and the creature can start a fight with stat block
    /// `stats`; the error names the key at fault and says why.
    pub fn check(&self, stats: &Stats) -> Result<(), (&'static str, String)> {
        if !(0..=STAT_LIMIT).contains(&self.stress_lost) {
            return Err((
                "stress-lost",
                format!("stress-lost = {} must be within 0..={STAT_LIMIT}", self.stress_lost),
            ));
        }
        for (a, &l) in Ability::ALL.iter().zip(&self.loss) {
            if !(0..=STAT_LIMIT).contains(&l) {
                return Err((
                    "ability-loss",
                    format!("ability-loss: {} = {l} must be within 0..={STAT_LIMIT}", a.name()),
                ));
            }
        }
        // HAL-H18: the ability damage lowers Strength, and with it maximum Wound Points
        // (HAL-R27) and the death threshold (HAL-R31).
        let strength = (stats.score(Ability::Strength) - self.loss[Ability::Strength.index()]).max(0);
        let max = strength + stats.wp_bonus;
        if let Some(wp) = self.wp {
            if wp > max {
                return Err((
                    "wp",
                    format!(
                        "wp = {wp} is above the maximum Wound Points, {max} (Strength {strength} + wp-bonus {}, HAL-R27)",
                        stats.wp_bonus
                    ),
                ));
            }
            if wp < -STAT_LIMIT {
                return Err(("wp", format!("wp = {wp} must be at least -{STAT_LIMIT}")));
            }
        }
        let wp = self.wp.unwrap_or(max);
        if wp <= -strength {
            return Err((
                if self.wp.is_some() { "wp" } else { "ability-loss" },
                format!(
                    "at {wp} Wound Points with Strength {strength} the creature is dead (HAL-R31): it cannot start a fight"
                ),
            ));
        }
        if self.wounds.len() > MAX_CARRIED || self.injuries.len() > MAX_CARRIED {
            return Err((
                "wounds",
                format!("at most {MAX_CARRIED} wounds and {MAX_CARRIED} injuries"),
            ));
        }
        for w in &self.wounds {
            if !(1..=STAT_LIMIT).contains(&w.amount) {
                return Err((
                    "wounds",
                    format!("a wound's amount must be within 1..={STAT_LIMIT}, found {}", w.amount),
                ));
            }
            // HAL-R28: one type, or the types of a weapon joined with "/".
            if !w.kind.split('/').all(fray_engine::encounter::is_word) {
                return Err((
                    "wounds",
                    format!(
                        "a wound's type is one word, or words joined with \"/\" (piercing/slashing), found '{}'",
                        w.kind
                    ),
                ));
            }
        }
        for i in &self.injuries {
            if i.trim().is_empty() || i.chars().count() > 80 || i.chars().any(char::is_control) {
                return Err((
                    "injuries",
                    format!("an injury is a name of 1 to 80 characters on one line, found {i:?}"),
                ));
            }
        }
        if self.balance.abs() > STAT_LIMIT {
            return Err((
                "balance",
                format!("balance = {} is outside ±{STAT_LIMIT}", self.balance),
            ));
        }
        if self.conditions & !Conditions::INJURY_FLAGS != 0 {
            return Err(("conditions", "conditions: only those injuries leave".into()));
        }
        Ok(())
    }
}

pub use fray_engine::sides::Side;

/// A validated encounter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// A title for logs.
    pub title: String,
    /// The map; one square is `yards-per-square` yards.
    pub map: Grid,
    /// Seat names; seat 0 is always `gm`.
    pub seats: Vec<String>,
    /// The sides.
    pub sides: Vec<Side>,
    /// The combatants at the start.
    pub combatants: Vec<Combatant>,
    /// Every stat block: the combatants' and the templates'.
    pub blocks: Vec<Stats>,
    /// Stat blocks the GM may bring in (`gm add`), by name: indexes into `blocks`.
    pub templates: BTreeMap<String, u16>,
    /// The combat injury tables (HAL-R39, HAL-R40, HAL-H8).
    pub injuries: InjuryTables,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEncounter {
    ruleset: Spanned<String>,
    title: Option<String>,
    options: Option<Spanned<toml::Table>>,
    map: Spanned<GridMap>,
    #[serde(default)]
    side: Vec<Spanned<RawSide>>,
    #[serde(default)]
    template: BTreeMap<String, Spanned<RawCombatant>>,
    #[serde(default)]
    combatant: Vec<Spanned<RawCombatant>>,
    #[serde(default)]
    injuries: BTreeMap<String, Spanned<Vec<Injury>>>,
}

#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCombatant {
    id: Option<Spanned<String>>,
    name: Option<String>,
    template: Option<Spanned<String>>,
    side: Option<Spanned<String>>,
    at: Option<Spanned<RawPos>>,
    group: Option<Spanned<String>>,
    seat: Option<Spanned<String>>,
    surprised: Option<bool>,
    strength: Option<i16>,
    agility: Option<i16>,
    dexterity: Option<i16>,
    insight: Option<i16>,
    perception: Option<i16>,
    memory: Option<i16>,
    hd: Option<u8>,
    hd_die: Option<u16>,
    stress: Option<i16>,
    wp_bonus: Option<i16>,
    defense_bonus: Option<i16>,
    armour: Option<i16>,
    speed: Option<i16>,
    attack: Option<i16>,
    casting: Option<i16>,
    heal: Option<i16>,
    intimidation: Option<i16>,
    initiative: Option<i16>,
    mana: Option<i16>,
    monster: Option<bool>,
    weapons: Option<Vec<Weapon>>,
    spells: Option<Vec<Spell>>,
    items: Option<Vec<Item>>,
    // What the creature brings from earlier fights (see [`Worn`]).
    stress_lost: Option<i16>,
    wp: Option<Spanned<i16>>,
    stabilized: Option<bool>,
    wounds: Option<Spanned<Vec<RawWound>>>,
    ability_loss: Option<Spanned<RawLoss>>,
    injuries: Option<Spanned<Vec<String>>>,
    balance: Option<i16>,
    conditions: Option<Spanned<Vec<Spanned<String>>>>,
    dead: Option<Spanned<bool>>,
}

/// A wound as an encounter writes it: `{ type = "slashing", amount = 3 }`.
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct RawWound {
    #[serde(rename = "type")]
    kind: String,
    amount: i16,
}

/// Ability damage as an encounter writes it: `{ strength = 2, agility = 1 }`.
#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields)]
struct RawLoss {
    strength: Option<i16>,
    agility: Option<i16>,
    dexterity: Option<i16>,
    insight: Option<i16>,
    perception: Option<i16>,
    memory: Option<i16>,
}

// A combatant takes every field it leaves out from its template.
fray_engine::combatant_table!(RawCombatant {
    id,
    name,
    template,
    side,
    at,
    group,
    seat,
    surprised,
    strength,
    agility,
    dexterity,
    insight,
    perception,
    memory,
    hd,
    hd_die,
    stress,
    wp_bonus,
    defense_bonus,
    armour,
    speed,
    attack,
    casting,
    heal,
    intimidation,
    initiative,
    mana,
    monster,
    weapons,
    spells,
    items,
    stress_lost,
    wp,
    stabilized,
    wounds,
    ability_loss,
    injuries,
    balance,
    conditions,
    dead
});

/// How the kit sees the combatants, in a file and in a record.
const ROSTER: RosterRules<Combatant> = RosterRules {
    limit: MAX_COMBATANTS,
    case_advice: "ids are typed without regard to case, so pick another id",
    id: |c| c.id.as_str(),
    square: |c| Some(c.at),
};

/// A combatant (or a template) as read, with its stat block beside it.
struct Built {
    c: Combatant,
    stats: Stats,
}

/// Reads and validates an encounter.
pub fn load(source: &SourceFile) -> Result<(Setup, Options), Vec<Diagnostic>> {
    // Every problem of the file's shape at once; the checks below add theirs.
    let (raw, mut d): (RawEncounter, Diags) = Diags::parse(source)?;
    let Some(options) = load::head(
        &mut d,
        &raw.ruleset,
        HallowedEarth::ID,
        raw.options.as_ref(),
        Options::validate,
    ) else {
        return Err(d.errors);
    };
    let Some(map) = enc::grid(&mut d, &raw.map) else {
        return Err(d.errors);
    };
    let (mut seats, sides) = sides::read(&mut d, &raw.side);
    let rules = RosterRules {
        limit: MAX_COMBATANTS,
        case_advice: ROSTER.case_advice,
        id: |b: &Built| b.c.id.as_str(),
        square: |b: &Built| Some(b.c.at),
    };
    let (templates, combatants) = enc::roster(&mut d, &raw.template, &raw.combatant, &rules, |d, t, base, template| {
        combatant(d, t, base, template, &map, &sides, &mut seats)
    });
    if let Some((i, m)) = sides::empty_side(&sides, combatants.iter().map(|b| b.c.side.into()))
        && d.errors.is_empty()
    {
        d.err(raw.side[i].span(), m);
    }
    let mut injuries = InjuryTables::default();
    for (kind, t) in &raw.injuries {
        injuries.0.insert(kind.clone(), t.get_ref().clone());
        let mut one = InjuryTables::default();
        one.0.insert(kind.clone(), t.get_ref().clone());
        if let Err(m) = one.check() {
            d.err(t.span(), m);
        }
    }
    if let Some(opts) = &raw.options
        && options.declaration == Declaration::Listed
    {
        for id in &options.declaration_list {
            if !combatants.iter().any(|b| b.c.id.eq_ignore_ascii_case(id)) {
                d.err(
                    opts.span(),
                    format!(
                        "declaration-list names '{id}', who is not in the encounter{}",
                        fray_engine::diag::suggestion(id, combatants.iter().map(|b| b.c.id.as_str()))
                    ),
                );
            }
        }
    }
    if !d.errors.is_empty() {
        return Err(d.errors);
    }
    let title = raw.title.unwrap_or_else(|| source.name.clone());
    let mut blocks = Vec::new();
    let mut roster = Vec::new();
    for mut b in combatants {
        b.c.block = blocks.len() as u16;
        blocks.push(b.stats);
        roster.push(b.c);
    }
    let mut names = BTreeMap::new();
    for (name, b) in templates {
        names.insert(name, blocks.len() as u16);
        blocks.push(b.stats);
    }
    Ok((
        Setup {
            title,
            map,
            seats,
            sides,
            combatants: roster,
            blocks,
            templates: names,
            injuries,
        },
        options,
    ))
}

/// One combatant (or template: no side or square) over the template it names.
fn combatant(
    d: &mut Diags,
    raw: &Spanned<RawCombatant>,
    base: &RawCombatant,
    template: bool,
    map: &Grid,
    sides: &[Side],
    seats: &mut Vec<String>,
) -> Option<Built> {
    let r = raw.get_ref().over(base);
    let id = enc::combatant_id(d, r.id.as_ref(), raw.span(), template, "ghoul-1")?;
    let (side, at) = match template {
        true => (0, Pos::new(0, 0)),
        false => load::place(d, raw.span(), &id, r.side.as_ref(), r.at.as_ref(), sides, map)?,
    };
    let group = match &r.group {
        Some(g) if !enc::is_word(g.get_ref()) => {
            d.err(g.span(), format!("group '{}' must be one word", g.get_ref()));
            None
        }
        g => g.as_ref().map(|g| g.get_ref().clone()),
    };
    let seat = own_seat(d, &r, template, seats);
    let worn = worn(d, raw, &r, template, &id);
    let ten = |v: Option<i16>| v.unwrap_or(10);
    let stats = Stats {
        abilities: [
            ten(r.strength),
            ten(r.agility),
            ten(r.dexterity),
            ten(r.insight),
            ten(r.perception),
            ten(r.memory),
        ],
        hd: r.hd.unwrap_or(1),
        hd_die: r.hd_die.unwrap_or(8),
        stress: r.stress,
        wp_bonus: r.wp_bonus.unwrap_or(0),
        defense_bonus: r.defense_bonus.unwrap_or(0),
        armour: r.armour.unwrap_or(0),
        speed: r.speed.unwrap_or(10),
        attack: r.attack.unwrap_or(0),
        casting: r.casting.unwrap_or(0),
        heal: r.heal.unwrap_or(0),
        intimidation: r.intimidation.unwrap_or(0),
        initiative: r.initiative.unwrap_or(0),
        mana: r.mana.unwrap_or(0),
        monster: r.monster.unwrap_or(false),
        weapons: r.weapons.unwrap_or_default(),
        spells: r.spells.unwrap_or_default(),
        items: r.items.unwrap_or_default(),
    };
    let stats_ok = match stats.check() {
        Ok(()) => true,
        Err(m) => {
            d.err(raw.span(), m);
            false
        }
    };
    if let Some(w) = &worn
        && stats_ok
        && let Err((key, m)) = w.check(&stats)
    {
        let at = match key {
            "wp" => r.wp.as_ref().map(|v| v.span()),
            "wounds" => r.wounds.as_ref().map(|v| v.span()),
            "ability-loss" => r.ability_loss.as_ref().map(|v| v.span()),
            "injuries" => r.injuries.as_ref().map(|v| v.span()),
            "conditions" => r.conditions.as_ref().map(|v| v.span()),
            _ => None,
        };
        d.err(at.unwrap_or(raw.span()), m);
    }
    Some(Built {
        c: Combatant {
            name: r.name.unwrap_or_else(|| id.clone()),
            id,
            side,
            at,
            block: 0,
            group,
            surprised: r.surprised.unwrap_or(false),
            seat,
            worn: worn.unwrap_or_default(),
        },
        stats,
    })
}

/// The seat a combatant names for itself (`seat = "ana"`, a player's seat): a new name joins
/// the setup's seats in the order of first appearance, after the sides' seats. `None` when it
/// names none (its side's seat decides for it) or after reporting a problem at the value: a
/// seat name is one word, and a template names none (a seat belongs to one creature, and
/// `gm add` brings a template's creatures in under their side's seat).
fn own_seat(d: &mut Diags, r: &RawCombatant, template: bool, seats: &mut Vec<String>) -> Option<Seat> {
    let name = r.seat.as_ref()?;
    if template {
        d.err(
            name.span(),
            "seat belongs to one creature, not to a template: give it in a [[combatant]] table",
        );
        return None;
    }
    if !enc::is_word(name.get_ref()) {
        d.err(
            name.span(),
            format!("seat '{}' must be one word of letters, digits and '-'", name.get_ref()),
        );
        return None;
    }
    if seats.len() > usize::from(u8::MAX) && !seats.iter().any(|s| s == name.get_ref()) {
        d.err(name.span(), "an encounter has at most 256 seats");
        return None;
    }
    Some(enc::seat_of(name.get_ref(), seats))
}

/// What a combatant brings from earlier fights ([`Worn`]), as its table gives it; a
/// template gives none of it. `None` after reporting a problem.
fn worn(d: &mut Diags, raw: &Spanned<RawCombatant>, r: &RawCombatant, template: bool, id: &str) -> Option<Worn> {
    let given = [
        ("stress-lost", r.stress_lost.is_some()),
        ("wp", r.wp.is_some()),
        ("stabilized", r.stabilized.is_some()),
        ("wounds", r.wounds.is_some()),
        ("ability-loss", r.ability_loss.is_some()),
        ("injuries", r.injuries.is_some()),
        ("balance", r.balance.is_some()),
        ("conditions", r.conditions.is_some()),
        ("dead", r.dead.is_some()),
    ];
    if template {
        if let Some((key, _)) = given.iter().find(|(_, g)| *g) {
            d.err(
                raw.span(),
                format!("{key} belongs to one creature's state, not to a template: give it in a [[combatant]] table"),
            );
        }
        return None;
    }
    if let Some(dead) = r.dead.as_ref().filter(|x| *x.get_ref()) {
        // HAL-R31: the dead stay dead; a campaign keeps them so.
        d.err(
            dead.span(),
            format!("combatant '{id}' is dead (HAL-R31): the dead do not fight again, and no rest brings them back"),
        );
        return None;
    }
    let mut conditions = 0;
    for c in r.conditions.iter().flat_map(|c| c.get_ref()) {
        match Conditions::FROM_INJURIES.iter().find(|(_, n)| *n == c.get_ref()) {
            Some((flag, _)) => conditions |= flag,
            None => {
                let names: Vec<&str> = Conditions::FROM_INJURIES.iter().map(|(_, n)| *n).collect();
                d.err(
                    c.span(),
                    format!(
                        "unknown condition '{}'{}: the conditions injuries leave are {}",
                        c.get_ref(),
                        fray_engine::diag::suggestion(c.get_ref(), names.iter().copied()),
                        names.join(", ")
                    ),
                );
                return None;
            }
        }
    }
    let loss = r.ability_loss.as_ref().map(|l| l.get_ref().clone()).unwrap_or_default();
    let z = |v: Option<i16>| v.unwrap_or(0);
    Some(Worn {
        stress_lost: z(r.stress_lost),
        wp: r.wp.as_ref().map(|w| *w.get_ref()),
        stabilized: r.stabilized.unwrap_or(false),
        wounds: r
            .wounds
            .iter()
            .flat_map(|w| w.get_ref())
            .map(|w| Wound {
                kind: w.kind.clone(),
                amount: w.amount,
            })
            .collect(),
        loss: [
            z(loss.strength),
            z(loss.agility),
            z(loss.dexterity),
            z(loss.insight),
            z(loss.perception),
            z(loss.memory),
        ],
        injuries: r.injuries.as_ref().map(|i| i.get_ref().clone()).unwrap_or_default(),
        balance: z(r.balance),
        conditions,
    })
}

/// Checks a whole setup and its options as strictly as the loader (a record's setup is
/// untrusted), and what spans the whole file: every side has a combatant.
pub fn validate(s: &Setup, o: &Options) -> Result<(), String> {
    o.validate()?;
    sides::check(&s.seats, &s.sides)?;
    if s.blocks.len() > 2 * MAX_COMBATANTS + 64 {
        return Err("too many stat blocks".into());
    }
    enc::recheck_roster(
        &s.combatants,
        s.sides.len(),
        Some(&s.map),
        &ROSTER,
        |c| c.side.into(),
        |c| {
            if usize::from(c.block) >= s.blocks.len() {
                return Err(format!("combatant '{}' has no stat block #{}", c.id, c.block));
            }
            if c.group.as_deref().is_some_and(|g| !enc::is_word(g)) {
                return Err(format!("combatant '{}': a group is one word", c.id));
            }
            if let Some(seat) = c.seat.filter(|x| usize::from(x.0) >= s.seats.len()) {
                return Err(format!(
                    "combatant '{}' names seat {}, which does not exist ({} seats)",
                    c.id,
                    seat.0,
                    s.seats.len()
                ));
            }
            if c.worn.is_fresh() {
                return Ok(());
            }
            let b = &s.blocks[usize::from(c.block)];
            b.check().map_err(|m| format!("combatant '{}': {m}", c.id))?;
            c.worn.check(b).map_err(|(_, m)| format!("combatant '{}': {m}", c.id))
        },
    )?;
    for (i, b) in s.blocks.iter().enumerate() {
        b.check().map_err(|m| format!("stat block #{i}: {m}"))?;
    }
    for (name, &b) in &s.templates {
        if usize::from(b) >= s.blocks.len() || !enc::is_word(name) {
            return Err(format!("template '{name}' has no stat block #{b}"));
        }
    }
    s.injuries.check()?;
    load::no_empty_side(&s.sides, s.combatants.iter().map(|c| c.side.into()))
}
