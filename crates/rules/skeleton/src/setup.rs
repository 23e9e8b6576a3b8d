//! Encounter files, read with the engine's kits (`fray_engine::kit::load` over the encounter
//! kit): every problem is a diagnostic at its file, line and column. [`validate`] checks a
//! whole setup again, because a setup read back from a record is untrusted input.

use crate::Skeleton;
use crate::options::Options;
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::encounter::{self as enc, Diags, Overlay, RawPos, RosterRules, Spanned};
use fray_engine::kit::load::{self, GridEncounter};
use fray_engine::{Ruleset, Seat};
use fray_space::{Grid, Pos};
use serde::{Deserialize, Serialize};

pub use fray_engine::sides::Side;

/// Index of a combatant (its place in the encounter, GM additions after).
pub type Cid = u16;
/// Every stat lies within ±`STAT_LIMIT`, so no sum of a few of them can overflow an `i16`.
pub const STAT_LIMIT: i16 = 999;
/// The most combatants a combat may have, GM additions included.
pub const MAX_COMBATANTS: usize = 64;

/// A validated encounter: the grid (only blocked cells matter here), the combatants, and the
/// stat blocks the GM may bring in (`gm add`) by name.
pub type Setup = load::Setup<Grid, Combatant, Stats>;

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

/// A `[[combatant]]` or `[template.<name>]` table as written.
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
    let (raw, mut d): (GridEncounter<RawCombatant>, Diags) = Diags::parse(source)?;
    let Some(options) = load::head(
        &mut d,
        &raw.ruleset,
        Skeleton::ID,
        raw.options.as_ref(),
        Options::validate,
    ) else {
        return Err(d.errors);
    };
    let Some(map) = enc::grid(&mut d, &raw.map) else {
        return Err(d.errors);
    };
    // Seats: the sides' first, then each new one a combatant names, in the file's order.
    let (mut seats, sides) = fray_engine::sides::read(&mut d, &raw.side);
    let (templates, combatants) = enc::roster(
        &mut d,
        &raw.template,
        &raw.combatant,
        &ROSTER,
        |d, t, base, template| combatant(d, t, base, template, &map, &sides, &mut seats),
    );
    load::finish(d, &raw.side, &sides, combatants.iter().map(|c| c.side.into()))?;
    let setup = Setup {
        title: raw.title.unwrap_or_else(|| source.name.clone()),
        map,
        seats,
        sides,
        combatants,
        templates: templates.into_iter().map(|(k, c)| (k, c.stats)).collect(),
    };
    Ok((setup, options))
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
    let seat = load::own_seat(d, raw.get_ref().seat.as_ref(), template, seats, "combatant");
    let (side, at) = match template {
        true => (0, Pos::new(0, 0)),
        false => load::place(d, raw.span(), &id, r.side.as_ref(), r.at.as_ref(), sides, map)?,
    };
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
    let name = r.name.unwrap_or_else(|| id.clone());
    Some(Combatant {
        id,
        name,
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
    let side_and_seat = |c: &Combatant| (c.side.into(), c.seat);
    load::recheck(
        &s.seats,
        &s.sides,
        &s.combatants,
        Some(&s.map),
        &ROSTER,
        side_and_seat,
        |c| c.stats.check().map_err(|m| format!("combatant '{}': {m}", c.id)),
    )?;
    for (name, t) in &s.templates {
        t.check().map_err(|m| format!("template '{name}': {m}"))?;
    }
    load::no_empty_side(&s.sides, s.combatants.iter().map(|c| c.side.into()))
}
