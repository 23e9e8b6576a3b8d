//! Encounter files, read with the engine's encounter kit (`fray_engine::encounter`): every
//! problem is a diagnostic at its file, line and column. [`validate`] checks a whole setup
//! again, because a setup read back from a record is untrusted input.

use crate::Skeleton;
use crate::options::Options;
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::encounter::{self as enc, Diags, GridMap, Overlay, RawPos, RosterRules, Spanned};
use fray_engine::sides::{self, RawSide};
use fray_engine::{Ruleset, Seat};
use fray_space::{Grid, Pos};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Index of a combatant (its place in the encounter, GM additions after).
pub type Cid = u16;
/// Every stat lies within ±`STAT_LIMIT`, so no sum of a few of them can overflow an `i16`.
pub const STAT_LIMIT: i16 = 999;
/// The most combatants a combat may have, GM additions included.
pub const MAX_COMBATANTS: usize = 64;

/// A stat block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Health at the start; at 0 the combatant is out (SKL-R7).
    pub health: i16,
    /// Added to the d20 of its attacks (SKL-R6).
    pub attack: i16,
    /// What an attack on it must reach (SKL-R6).
    pub defence: i16,
    /// Squares it may move in a turn (SKL-R3), also added to its initiative (SKL-R1).
    pub speed: i16,
}

impl Stats {
    /// Whether every number is in range.
    pub fn check(&self) -> Result<(), String> {
        let ok = (1..=STAT_LIMIT).contains(&self.health)
            && (0..=STAT_LIMIT).contains(&self.speed)
            && [self.attack, self.defence].iter().all(|v| v.abs() <= STAT_LIMIT);
        ok.then_some(()).ok_or_else(|| {
            format!("health must be within 1..={STAT_LIMIT}, speed within 0..={STAT_LIMIT}, attack and defence within ±{STAT_LIMIT}")
        })
    }
}

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
    /// Its numbers.
    pub stats: Stats,
    /// The seat of the player who plays it, when it names one (`seat = "ana"`); `None`: its
    /// side's seat decides for it (as in every record written before combatants could name
    /// one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
}

pub use fray_engine::sides::Side;

/// A validated encounter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// A title for logs.
    pub title: String,
    /// The map; only blocked cells matter here.
    pub map: Grid,
    /// Seat names; seat 0 is always `gm`.
    pub seats: Vec<String>,
    /// The sides.
    pub sides: Vec<Side>,
    /// The combatants at the start.
    pub combatants: Vec<Combatant>,
    /// Stat blocks the GM may bring in (`gm add`), by name.
    pub templates: BTreeMap<String, Stats>,
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
}

#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields)]
struct RawCombatant {
    id: Option<Spanned<String>>,
    name: Option<String>,
    template: Option<Spanned<String>>,
    side: Option<Spanned<String>>,
    seat: Option<Spanned<String>>,
    at: Option<Spanned<RawPos>>,
    health: Option<i16>,
    attack: Option<i16>,
    defence: Option<i16>,
    speed: Option<i16>,
}

// A combatant takes every field it leaves out from its template.
fray_engine::combatant_table!(RawCombatant {
    id,
    name,
    template,
    side,
    seat,
    at,
    health,
    attack,
    defence,
    speed
});

/// How the kit sees the combatants, in a file and in a record.
const ROSTER: RosterRules<Combatant> = RosterRules {
    limit: MAX_COMBATANTS,
    case_advice: "ids are typed without regard to case, so pick another id",
    id: |c| c.id.as_str(),
    square: |c| Some(c.at),
};

/// Reads and validates an encounter.
pub fn load(source: &SourceFile) -> Result<(Setup, Options), Vec<Diagnostic>> {
    // Every problem of the file's shape at once; the checks below add theirs.
    let (raw, mut d): (RawEncounter, Diags) = Diags::parse(source)?;
    if !enc::check_ruleset(&mut d, &raw.ruleset, Skeleton::ID) {
        return Err(d.errors);
    }
    let options = enc::options(&mut d, raw.options.as_ref(), Options::validate);
    let Some(map) = enc::grid(&mut d, &raw.map) else {
        return Err(d.errors);
    };
    // Seats: the sides' first, then each new one a combatant names, in the file's order.
    let (mut seats, sides) = sides::read(&mut d, &raw.side);
    let (templates, combatants) = enc::roster(
        &mut d,
        &raw.template,
        &raw.combatant,
        &ROSTER,
        |d, t, base, template| combatant(d, t, base, template, &map, &sides, &mut seats),
    );
    // Only on an otherwise good file: a combatant refused above would be a false lead.
    if let Some((i, m)) = sides::empty_side(&sides, combatants.iter().map(|c| c.side.into()))
        && d.errors.is_empty()
    {
        d.err(raw.side[i].span(), m);
    }
    if !d.errors.is_empty() {
        return Err(d.errors);
    }
    let title = raw.title.unwrap_or_else(|| source.name.clone());
    let templates = templates.into_iter().map(|(k, c)| (k, c.stats)).collect();
    Ok((
        Setup {
            title,
            map,
            seats,
            sides,
            combatants,
            templates,
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
) -> Option<Combatant> {
    let r = raw.get_ref().over(base);
    let id = enc::combatant_id(d, r.id.as_ref(), raw.span(), template, "guard-1")?;
    // A seat is one player's: a template, which many combatants share, names none.
    let seat = match (&raw.get_ref().seat, template) {
        (Some(x), true) => {
            d.err(
                x.span(),
                "a seat belongs to one combatant, not to a template: give it in a [[combatant]] table",
            );
            None
        }
        (x, false) => sides::own_seat(d, x.as_ref(), seats),
        (None, true) => None,
    };
    let (mut side, mut at) = (0, Pos::new(0, 0));
    if !template {
        let (Some(s), Some(a)) = (&r.side, &r.at) else {
            d.err(
                raw.span(),
                format!("combatant '{id}' needs a side and a square (at = \"x,y\")"),
            );
            return None;
        };
        side = enc::index_of(d, s, sides.iter().map(|x| x.id.as_str()), "side")? as u8;
        at = enc::square(d, a, map)?;
        if map.get(at).is_some_and(|c| c.blocked) {
            d.err(a.span(), format!("square {at} is blocked"));
        }
    }
    let (Some(health), Some(attack), Some(defence), Some(speed)) = (r.health, r.attack, r.defence, r.speed) else {
        d.err(raw.span(), "a stat block needs health, attack, defence and speed");
        return None;
    };
    let stats = Stats {
        health,
        attack,
        defence,
        speed,
    };
    if let Err(m) = stats.check() {
        d.err(raw.span(), m);
    }
    Some(Combatant {
        name: r.name.unwrap_or_else(|| id.clone()),
        id,
        side,
        at,
        stats,
        seat,
    })
}

/// Checks a whole setup and its options as strictly as the loader (a record's setup is
/// untrusted), and what spans the whole file: every side has a combatant.
pub fn validate(s: &Setup, o: &Options) -> Result<(), String> {
    o.validate()?;
    sides::check(&s.seats, &s.sides)?;
    enc::recheck_roster(
        &s.combatants,
        s.sides.len(),
        Some(&s.map),
        &ROSTER,
        |c| c.side.into(),
        |c| {
            sides::check_own_seat(&s.seats, &c.id, c.seat)?;
            c.stats.check().map_err(|m| format!("combatant '{}': {m}", c.id))
        },
    )?;
    for (name, t) in &s.templates {
        t.check().map_err(|m| format!("template '{name}': {m}"))?;
    }
    match sides::empty_side(&s.sides, s.combatants.iter().map(|c| c.side.into())) {
        Some((_, m)) => Err(m),
        None => Ok(()),
    }
}
