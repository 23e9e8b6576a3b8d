//! Encounter files, read with the engine's encounter kit (`fray_engine::encounter`): every
//! problem is a diagnostic at its file, line and column. [`validate`] checks a whole setup
//! again, because a setup read back from a record is untrusted input.

use crate::Einfelst;
use crate::data::{self, Action, Circumstance, Obstacle, Spell, Weapon};
use crate::options::Options;
use crate::zones::MapExt;
use fray_engine::diag::{Diagnostic, SourceFile, suggestion};
use fray_engine::encounter::{self as enc, Diags, Overlay, RawZone, RosterRules, Spanned};
use fray_engine::kit::load;
use fray_engine::sides::{self, RawSide};
use fray_engine::{Ruleset, Seat};
use fray_space::{ZoneId, ZoneMap};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Index of a combatant (its place in the encounter, GM additions after).
pub type Cid = u16;
/// The most combatants a combat may have, GM additions included.
pub const MAX_COMBATANTS: usize = 40;
/// The largest attribute (creatures may pass a human's 5).
pub const MAX_ATTRIBUTE: u8 = 6;
/// The largest Action rating (Actions are rated 0 to 5).
pub const MAX_ACTION: u8 = 5;

/// A stat block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Stats {
    /// Strength, Dexterity, Intuition, Reason, Presence.
    pub attrs: [u8; 5],
    /// The thirteen Actions, in the order of [`Action::ALL`].
    pub actions: [u8; 13],
    /// The weapons it carries (ids of the encounter's weapons); it starts with the first in hand.
    pub weapons: Vec<String>,
    /// The spells it knows (EIN-H16).
    pub spells: Vec<String>,
    /// Armour (EIN-H6).
    pub armour: u8,
    /// `Some(capacity)`: it counts Harm points instead of Harm rows (EIN-R24) and is out once its
    /// points exceed the capacity (EIN-H13).
    pub harm_points: Option<u8>,
    /// Initiative cards it draws (EIN-R46).
    pub cards: u8,
    /// Slow and fast manoeuvres a turn (EIN-R16).
    pub maneuvers: [u8; 2],
    /// Circumstances that do not hamper it (EIN-R49).
    pub immune: Vec<String>,
    /// The successes a Fear test against it needs; 0 for none (EIN-R36).
    pub fear: u8,
}

impl Stats {
    /// The rating of an Action.
    pub fn action(&self, a: Action) -> u8 {
        self.actions[a.index()]
    }

    /// Whether every number is in range.
    pub fn check(&self) -> Result<(), String> {
        if self.attrs.iter().any(|&v| v > MAX_ATTRIBUTE) || self.actions.iter().any(|&v| v > MAX_ACTION) {
            return Err(format!(
                "attributes are rated 0 to {MAX_ATTRIBUTE} and Actions 0 to {MAX_ACTION}"
            ));
        }
        self.check_numbers()
    }

    /// Whether every number but the ratings is in range (the loader checks each rating where
    /// it stands).
    pub fn check_numbers(&self) -> Result<(), String> {
        if self.armour > 9 || self.fear > 9 {
            return Err("armour and fear must be 0..=9".into());
        }
        if matches!(self.harm_points, Some(c) if c > 20) {
            return Err("harm-capacity must be 0..=20".into());
        }
        if !(1..=3).contains(&self.cards) {
            return Err("cards must be 1..=3 (EIN-R46)".into());
        }
        let [slow, fast] = self.maneuvers;
        if slow > 3 || fast > 3 || slow + fast == 0 {
            return Err("slow and fast manoeuvres must be 0..=3 each, and at least one in all".into());
        }
        if self.weapons.len() > 8 || self.spells.len() > 8 {
            return Err("at most 8 weapons and 8 spells".into());
        }
        Ok(())
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
    /// A player character (counts for Fear tests and may swap cards, EIN-R5, EIN-R35).
    pub pc: bool,
    /// The zone it starts in.
    pub zone: ZoneId,
    /// It starts far off in its zone (EIN-R12).
    pub far: bool,
    /// It starts in cover (EIN-H15).
    pub cover: bool,
    /// It starts down (EIN-H29).
    pub prone: bool,
    /// Identical opponents with the same group draw one card (EIN-R2).
    pub group: Option<String>,
    /// The seat that decides for it when it is not its side's: a player's own seat, or its
    /// group's (every member of a group has the group's). `None`, as in every record written
    /// before creatures had seats of their own: its side's seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// Its numbers.
    pub stats: Stats,
    /// What it brings from earlier fights (a campaign's lasting state); nothing for a fresh
    /// creature.
    #[serde(default, skip_serializing_if = "Worn::is_fresh")]
    pub worn: Worn,
}

/// What a creature brings into the fight from earlier ones: a campaign writes these keys into
/// its table (`TextRuleset::lasting`), and an encounter may give them itself. All at their
/// defaults for a fresh creature.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Worn {
    /// Marks on the Physical Harm rows: lesser, moderate, severe (EIN-R34, the `[S]` rows).
    pub physical: [u8; 3],
    /// Marks on the Mental Harm rows.
    pub mental: [u8; 3],
    /// Harm points, for a creature that counts them (EIN-R24, EIN-H13).
    pub points: u8,
    /// Critical injuries taken before (EIN-H22), as the table reads: permanent.
    pub injuries: Vec<String>,
}

/// The keys of the six Harm rows in an encounter, Physical then Mental, lesser to severe (the
/// gauges of `gm set` too).
pub const ROW_KEYS: [&str; 6] = [
    "physical-lesser",
    "physical-moderate",
    "physical-severe",
    "mental-lesser",
    "mental-moderate",
    "mental-severe",
];

/// The most critical injuries a creature may bring into a fight.
pub const MAX_INJURIES: usize = 16;

impl Worn {
    /// Whether it brings nothing: a fresh creature.
    pub fn is_fresh(&self) -> bool {
        *self == Worn::default()
    }

    /// Whether the marks fit the rows (`harm-slots`) and the creature can start a fight with
    /// stat block `stats` under options `o`; the error names the key at fault and says why.
    pub fn check(&self, stats: &Stats, o: &Options) -> Result<(), (&'static str, String)> {
        let rows = self.physical.iter().chain(&self.mental);
        let marked = ROW_KEYS.iter().zip(rows).find(|(_, v)| **v > 0);
        match stats.harm_points {
            Some(cap) => {
                if let Some((key, _)) = marked {
                    return Err((
                        key,
                        format!(
                            "{key}: this creature counts Harm points (harm = \"points\", EIN-R24), not rows: give harm-points"
                        ),
                    ));
                }
                if self.points > 20 {
                    return Err(("harm-points", format!("harm-points = {} must be 0..=20", self.points)));
                }
                // EIN-H13: beyond its capacity it is out.
                if self.points > cap {
                    return Err((
                        "harm-points",
                        format!(
                            "harm-points = {} is more than its harm-capacity {cap}: it is incapacitated (EIN-H13) and cannot start a fight",
                            self.points
                        ),
                    ));
                }
            }
            None => {
                if self.points > 0 {
                    return Err((
                        "harm-points",
                        "harm-points is for a creature with harm = \"points\" (EIN-R24); this one marks Harm rows"
                            .into(),
                    ));
                }
                let rows = self.physical.iter().chain(&self.mental);
                for (i, (key, &v)) in ROW_KEYS.iter().zip(rows).enumerate() {
                    let slots = o.harm_slots[i % 3];
                    if v > slots {
                        return Err((
                            key,
                            format!("{key} = {v}: the row has {slots} slots (the harm-slots option)"),
                        ));
                    }
                }
                // EIN-H2: a severe mark incapacitates.
                if o.severe_incapacitates && self.physical[2] + self.mental[2] > 0 {
                    let key = if self.physical[2] > 0 { ROW_KEYS[2] } else { ROW_KEYS[5] };
                    return Err((
                        key,
                        format!(
                            "{key}: a severe mark incapacitates (EIN-H2, the severe-incapacitates option): the creature cannot start a fight"
                        ),
                    ));
                }
            }
        }
        if self.injuries.len() > MAX_INJURIES {
            return Err(("critical-injuries", format!("at most {MAX_INJURIES} critical injuries")));
        }
        if let Some(i) = self
            .injuries
            .iter()
            .find(|i| i.trim().is_empty() || i.chars().count() > 200 || i.chars().any(char::is_control))
        {
            return Err((
                "critical-injuries",
                format!("a critical injury is a text of 1 to 200 characters on one line, found {i:?}"),
            ));
        }
        Ok(())
    }
}

/// What an ambush's test opposes (EIN-R8, EIN-R10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AmbushTest {
    /// Sneak against the targets' Track.
    Track,
    /// Sneak against the targets' Read.
    Read,
    /// No test: the Director grants the extra card (EIN-R10).
    None,
}

/// An ambush at the start of the fight (EIN-R8 to EIN-R10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ambush {
    /// The ambushing side.
    pub side: u8,
    /// What the Sneak test opposes.
    pub test: AmbushTest,
    /// The ambusher who rolls (EIN-R9); by default the one with the largest Sneak pool.
    pub roller: Option<Cid>,
}

pub use fray_engine::sides::Side;

/// A validated encounter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// A title for logs.
    pub title: String,
    /// The zones (EIN-R47).
    pub zones: ZoneMap,
    /// Seat names; seat 0 is always `gm`.
    pub seats: Vec<String>,
    /// The sides.
    pub sides: Vec<Side>,
    /// The combatants at the start.
    pub combatants: Vec<Combatant>,
    /// Stat blocks the GM may bring in (`gm add`), by name.
    pub templates: BTreeMap<String, Stats>,
    /// The weapons: fray's own and the encounter's.
    pub weapons: BTreeMap<String, Weapon>,
    /// The spells.
    pub spells: BTreeMap<String, Spell>,
    /// The circumstances: fray's own (`dark`) and the encounter's.
    pub circumstances: BTreeMap<String, Circumstance>,
    /// Circumstances in force everywhere from the start.
    pub everywhere: Vec<String>,
    /// What crossing each kind of obstacle takes.
    pub obstacles: BTreeMap<String, Obstacle>,
    /// An ambush, if the fight opens with one.
    pub ambush: Option<Ambush>,
    /// The sides of player characters (EIN-R5, EIN-R35).
    pub player_sides: Vec<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEncounter {
    ruleset: Spanned<String>,
    title: Option<String>,
    options: Option<Spanned<toml::Table>>,
    #[serde(default)]
    zone: Vec<Spanned<RawZone>>,
    #[serde(default)]
    side: Vec<Spanned<RawSide>>,
    #[serde(default)]
    template: BTreeMap<String, Spanned<RawCombatant>>,
    #[serde(default)]
    combatant: Vec<Spanned<RawCombatant>>,
    #[serde(default)]
    weapon: BTreeMap<String, Spanned<Weapon>>,
    #[serde(default)]
    spell: BTreeMap<String, Spanned<Spell>>,
    #[serde(default)]
    circumstance: BTreeMap<String, Spanned<Circumstance>>,
    #[serde(default)]
    circumstances: Vec<Spanned<String>>,
    #[serde(default)]
    obstacle: BTreeMap<String, Spanned<Obstacle>>,
    ambush: Option<Spanned<RawAmbush>>,
    #[serde(default, rename = "player-sides")]
    player_sides: Vec<Spanned<String>>,
    #[serde(default)]
    group: BTreeMap<String, Spanned<RawGroup>>,
}

/// A `[group.<name>]` table: what the members of a group sharing a card (EIN-R2) have in
/// common besides the card, which is only the seat that plays them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGroup {
    seat: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAmbush {
    side: Spanned<String>,
    test: AmbushTest,
    roller: Option<Spanned<String>>,
}

#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCombatant {
    id: Option<Spanned<String>>,
    name: Option<String>,
    template: Option<Spanned<String>>,
    side: Option<Spanned<String>>,
    zone: Option<Spanned<String>>,
    far: Option<bool>,
    cover: Option<bool>,
    prone: Option<bool>,
    pc: Option<bool>,
    group: Option<Spanned<String>>,
    seat: Option<Spanned<String>>,
    attributes: Option<Spanned<BTreeMap<String, u8>>>,
    actions: Option<Spanned<BTreeMap<String, u8>>>,
    weapons: Option<Spanned<Vec<String>>>,
    spells: Option<Spanned<Vec<String>>>,
    armour: Option<u8>,
    harm: Option<Spanned<String>>,
    harm_capacity: Option<u8>,
    cards: Option<u8>,
    slow: Option<u8>,
    fast: Option<u8>,
    immune: Option<Spanned<Vec<String>>>,
    fear: Option<u8>,
    // What the creature brings from earlier fights (see [`Worn`]).
    physical_lesser: Option<Spanned<u8>>,
    physical_moderate: Option<Spanned<u8>>,
    physical_severe: Option<Spanned<u8>>,
    mental_lesser: Option<Spanned<u8>>,
    mental_moderate: Option<Spanned<u8>>,
    mental_severe: Option<Spanned<u8>>,
    harm_points: Option<Spanned<u8>>,
    critical_injuries: Option<Spanned<Vec<String>>>,
}

// A combatant takes every field it leaves out from its template.
fray_engine::combatant_table!(RawCombatant {
    id,
    name,
    template,
    side,
    zone,
    far,
    cover,
    prone,
    pc,
    group,
    seat,
    attributes,
    actions,
    weapons,
    spells,
    armour,
    harm,
    harm_capacity,
    cards,
    slow,
    fast,
    immune,
    fear,
    physical_lesser,
    physical_moderate,
    physical_severe,
    mental_lesser,
    mental_moderate,
    mental_severe,
    harm_points,
    critical_injuries
});

/// How the kit sees the combatants, in a file and in a record: zones hold any number.
const ROSTER: RosterRules<Combatant> = RosterRules {
    limit: MAX_COMBATANTS,
    case_advice: "ids are typed without regard to case, so pick another id",
    id: |c| c.id.as_str(),
    square: |_| None,
};

const ATTRS: [&str; 5] = ["strength", "dexterity", "intuition", "reason", "presence"];

/// What a stat block refers to, for checking it, and who plays.
struct Known<'a> {
    options: &'a Options,
    player_sides: &'a [u8],
    weapons: &'a BTreeMap<String, Weapon>,
    spells: &'a BTreeMap<String, Spell>,
    circumstances: &'a BTreeMap<String, Circumstance>,
}

/// Reads and validates an encounter.
pub fn load(source: &SourceFile) -> Result<(Setup, Options), Vec<Diagnostic>> {
    // Every problem of the file's shape at once; the checks below add theirs.
    let (raw, mut d): (RawEncounter, Diags) = Diags::parse(source)?;
    let Some(options) = load::head(
        &mut d,
        &raw.ruleset,
        Einfelst::ID,
        raw.options.as_ref(),
        Options::validate,
    ) else {
        return Err(d.errors);
    };
    // EIN-R47: the battlefield is read as zones and the links between them.
    let Some(zones) = enc::zones(&mut d, &raw.zone) else {
        return Err(d.errors);
    };
    let mut weapons = data::builtin_weapons();
    for (id, w) in &raw.weapon {
        if !enc::is_word(id) {
            d.err(w.span(), format!("weapon id '{id}' must be one word"));
        }
        if let Err(m) = w.get_ref().check() {
            d.err(w.span(), format!("weapon '{id}': {m}"));
        }
        weapons.insert(id.clone(), w.get_ref().clone());
    }
    let mut spells = BTreeMap::new();
    for (id, s) in &raw.spell {
        if !enc::is_word(id) {
            d.err(s.span(), format!("spell id '{id}' must be one word"));
        }
        if let Err(m) = s.get_ref().check() {
            d.err(s.span(), format!("spell '{id}': {m}"));
        }
        spells.insert(id.clone(), s.get_ref().clone());
    }
    let mut circumstances = data::builtin_circumstances();
    for (id, c) in &raw.circumstance {
        if !enc::is_word(id) || c.get_ref().extra > 5 {
            d.err(
                c.span(),
                format!("circumstance '{id}': a one-word name and extra 0..=5"),
            );
        }
        circumstances.insert(id.clone(), c.get_ref().clone());
    }
    let mut everywhere = Vec::new();
    for c in &raw.circumstances {
        if circumstances.contains_key(c.get_ref()) {
            everywhere.push(c.get_ref().clone());
        } else {
            d.err(c.span(), unknown_circumstance(c.get_ref(), &circumstances));
        }
    }
    let mut obstacles = BTreeMap::new();
    for (id, o) in &raw.obstacle {
        if o.get_ref().need == 0 || o.get_ref().need > 5 {
            d.err(o.span(), format!("obstacle '{id}': need must be 1..=5"));
        }
        obstacles.insert(id.clone(), *o.get_ref());
    }
    // Each at its place in the file: the label, or the tag.
    for z in raw.zone.iter().map(Spanned::get_ref) {
        for label in z.obstacles.values() {
            let l = label.get_ref();
            if !obstacles.contains_key(l) {
                d.err(
                    label.span(),
                    format!(
                        "the obstacle '{l}' has no [obstacle.{l}] table saying what crossing it takes{}",
                        suggestion(l, obstacles.keys().map(String::as_str))
                    ),
                );
            }
        }
        for tag in &z.tags {
            if !circumstances.contains_key(tag.get_ref()) {
                d.err(tag.span(), unknown_circumstance(tag.get_ref(), &circumstances));
            }
        }
    }
    let (mut seats, sides) = sides::read(&mut d, &raw.side);
    let groups = group_seats(&mut d, &raw);
    let mut player_sides = Vec::new();
    for p in &raw.player_sides {
        if let Some(i) = enc::index_of(&mut d, p, sides.iter().map(|x| x.id.as_str()), "side") {
            player_sides.push(i as u8);
        }
    }
    let known = Known {
        options: &options,
        player_sides: &player_sides,
        weapons: &weapons,
        spells: &spells,
        circumstances: &circumstances,
    };
    let (templates, combatants) = enc::roster(
        &mut d,
        &raw.template,
        &raw.combatant,
        &ROSTER,
        |d, t, base, template| {
            let mut c = combatant(d, t, base, template, &zones, &sides, &known)?;
            if !template {
                c.seat = seat(d, t, base, &c, &groups, &mut seats);
            } else if let Some(x) = &t.get_ref().seat {
                word_seat(d, x);
            }
            Some(c)
        },
    );
    // Only on an otherwise good file: a combatant refused above would be a false lead.
    if let Some((i, m)) = sides::empty_side(&sides, combatants.iter().map(|c| c.side.into()))
        && d.errors.is_empty()
    {
        d.err(raw.side[i].span(), m);
    }
    // A map on which some combatants can never reach the others is refused: the fight would
    // never end (EIN-R47: movement runs along the links).
    if d.errors.is_empty()
        && let Some((i, m)) = sides::apart(&zones, &sides, combatants.iter().map(|c| (c.side.into(), c.zone)))
    {
        d.err(raw.combatant[i].span(), m);
    }
    // No more creatures start in cover in a zone than it has places of cover (EIN-H15).
    if d.errors.is_empty() {
        for (i, c) in combatants.iter().enumerate().filter(|(_, c)| c.cover) {
            let before = combatants[..i].iter().filter(|o| o.cover && o.zone == c.zone).count();
            if before >= zones.cover(c.zone) as usize {
                d.err(
                    raw.combatant[i].span(),
                    format!(
                        "'{}' starts in cover, but zone '{}' has only {} places of cover",
                        c.id,
                        zones.id(c.zone),
                        zones.cover(c.zone)
                    ),
                );
            }
        }
    }
    let ambush = raw.ambush.as_ref().and_then(|a| {
        let r = a.get_ref();
        let side = enc::index_of(&mut d, &r.side, sides.iter().map(|x| x.id.as_str()), "side")? as u8;
        let roller = match &r.roller {
            None => None,
            Some(id) => {
                let i = enc::index_of(&mut d, id, combatants.iter().map(|c| c.id.as_str()), "combatant")?;
                if combatants[i].side != side {
                    d.err(id.span(), format!("'{}' is not on the ambushing side", id.get_ref()));
                }
                Some(i as Cid)
            }
        };
        Some(Ambush {
            side,
            test: r.test,
            roller,
        })
    });
    if !d.errors.is_empty() {
        return Err(d.errors);
    }
    let title = raw.title.unwrap_or_else(|| source.name.clone());
    let templates = templates.into_iter().map(|(k, c)| (k, c.stats)).collect();
    // Creatures made from one template share its name: the log tells them apart by id.
    let mut combatants = combatants;
    let names: Vec<String> = combatants.iter().map(|c| c.name.clone()).collect();
    for c in combatants.iter_mut() {
        if names.iter().filter(|n| **n == c.name).count() > 1 {
            c.name = format!("{} ({})", c.name, c.id);
        }
    }
    Ok((
        Setup {
            title,
            zones,
            seats,
            sides,
            combatants,
            templates,
            weapons,
            spells,
            circumstances,
            everywhere,
            obstacles,
            ambush,
            player_sides,
        },
        options,
    ))
}

/// Where a group's seat comes from: its `[group.<name>]` table, or the first member (in file
/// order) that names one.
enum GroupSeat {
    Table,
    Member(String),
}

/// The seat of each group that has one (EIN-R2: its members share one card, and so one seat):
/// its `[group.<name>]` table's, else the first seat a member names, its own or its
/// template's. A `[group.<name>]` table no combatant belongs to is a diagnostic at the table.
fn group_seats(d: &mut Diags, raw: &RawEncounter) -> BTreeMap<String, (Spanned<String>, GroupSeat)> {
    let mut out = BTreeMap::new();
    for (name, g) in &raw.group {
        word_seat(d, &g.get_ref().seat);
        out.insert(name.clone(), (g.get_ref().seat.clone(), GroupSeat::Table));
    }
    let mut named = std::collections::BTreeSet::new();
    for rc in &raw.combatant {
        let base = rc
            .get_ref()
            .template
            .as_ref()
            .and_then(|t| raw.template.get(t.get_ref()))
            .map(|t| t.get_ref().clone())
            .unwrap_or_default();
        let r = rc.get_ref().over(&base);
        let Some(g) = &r.group else { continue };
        named.insert(g.get_ref().clone());
        if let (Some(x), false) = (&r.seat, out.contains_key(g.get_ref())) {
            let id = r.id.as_ref().map_or_else(String::new, |i| i.get_ref().clone());
            out.insert(g.get_ref().clone(), (x.clone(), GroupSeat::Member(id)));
        }
    }
    for (name, g) in &raw.group {
        if !named.contains(name) {
            d.err(
                g.span(),
                format!("[group.{name}]: no combatant is in the group '{name}' (group = \"{name}\")"),
            );
        }
    }
    out
}

/// Whether a seat name is one word; a diagnostic at it otherwise.
fn word_seat(d: &mut Diags, x: &Spanned<String>) -> bool {
    let ok = enc::is_word(x.get_ref());
    if !ok {
        d.err(
            x.span(),
            format!(
                "seat = \"{}\": a seat name is one word of letters, digits and '-' (a player's name, or \"gm\")",
                x.get_ref()
            ),
        );
    }
    ok
}

/// The seat of combatant `c` (a creature in the file, not a template): a member of a group
/// takes the group's ([`group_seats`]), and may name only that one; any other creature its own
/// `seat` or its template's; `None` (its side's) when nothing names one. A new seat name joins
/// `seats` where it first appears.
fn seat(
    d: &mut Diags,
    raw: &Spanned<RawCombatant>,
    base: &RawCombatant,
    c: &Combatant,
    groups: &BTreeMap<String, (Spanned<String>, GroupSeat)>,
    seats: &mut Vec<String>,
) -> Option<Seat> {
    // A seat a template names was checked at the template.
    let own = match (&raw.get_ref().seat, &base.seat) {
        (Some(x), _) => word_seat(d, x).then_some(x),
        (None, Some(x)) => enc::is_word(x.get_ref()).then_some(x),
        (None, None) => None,
    };
    let group = c.group.as_ref().and_then(|g| groups.get(g).map(|x| (g, x)));
    let name = match (group, own) {
        (Some((g, (gs, from))), Some(own)) if own.get_ref() != gs.get_ref() => {
            let from = match from {
                GroupSeat::Table => format!("[group.{g}] names it"),
                GroupSeat::Member(m) => format!("'{m}' names it first"),
            };
            d.err(
                own.span(),
                format!(
                    "'{}' is in the group '{g}', whose members share one initiative card (EIN-R2) and so one seat, '{}' ({from}): name that seat or none",
                    c.id,
                    gs.get_ref()
                ),
            );
            return None;
        }
        (Some((_, (gs, _))), _) => gs,
        (None, Some(own)) => own,
        (None, None) => return None,
    };
    enc::is_word(name.get_ref()).then(|| enc::seat_of(name.get_ref(), seats))
}

fn unknown_circumstance(name: &str, known: &BTreeMap<String, Circumstance>) -> String {
    let names: Vec<&str> = known.keys().map(String::as_str).collect();
    format!(
        "not a circumstance: '{name}'{} (known: {}; add a [circumstance.{name}] table)",
        suggestion(name, names.iter().copied()),
        names.join(", ")
    )
}

/// One combatant (or template: no side or zone) over the template it names.
fn combatant(
    d: &mut Diags,
    raw: &Spanned<RawCombatant>,
    base: &RawCombatant,
    template: bool,
    zones: &ZoneMap,
    sides: &[Side],
    known: &Known,
) -> Option<Combatant> {
    let r = raw.get_ref().over(base);
    let id = enc::combatant_id(d, r.id.as_ref(), raw.span(), template, "wolf-1")?;
    let (mut side, mut zone) = (0, zones.ids().next()?);
    if !template {
        let (Some(s), Some(z)) = (&r.side, &r.zone) else {
            d.err(
                raw.span(),
                format!("combatant '{id}' needs a side and a zone (zone = \"...\")"),
            );
            return None;
        };
        side = enc::index_of(d, s, sides.iter().map(|x| x.id.as_str()), "side")? as u8;
        zone = enc::zone_of(d, z, zones)?;
    }
    let mut attrs = [0u8; 5];
    if let Some(t) = &r.attributes {
        for (k, v) in t.get_ref() {
            if *v > MAX_ATTRIBUTE {
                d.err(
                    t.span(),
                    format!("{k} = {v}: attributes are rated 0 to {MAX_ATTRIBUTE}"),
                );
            }
            match ATTRS.iter().position(|a| a == k) {
                Some(i) => attrs[i] = *v,
                None => d.err(
                    t.span(),
                    format!(
                        "'{k}' is not an attribute{}; the attributes are {}",
                        suggestion(k, ATTRS),
                        ATTRS.join(", ")
                    ),
                ),
            }
        }
    }
    let mut actions = [0u8; 13];
    if let Some(t) = &r.actions {
        for (k, v) in t.get_ref() {
            if *v > MAX_ACTION {
                d.err(t.span(), format!("{k} = {v}: Actions are rated 0 to {MAX_ACTION}"));
            }
            match Action::from_word(k) {
                Some(a) => actions[a.index()] = *v,
                None => {
                    let all: Vec<&str> = Action::ALL.iter().map(|a| a.word()).collect();
                    d.err(
                        t.span(),
                        format!(
                            "'{k}' is not an Action{}; the Actions are {}",
                            suggestion(k, all.iter().copied()),
                            all.join(", ")
                        ),
                    )
                }
            }
        }
    }
    fn list<T>(
        d: &mut Diags,
        l: &Option<Spanned<Vec<String>>>,
        what: &str,
        known: &BTreeMap<String, T>,
    ) -> Vec<String> {
        let Some(l) = l else { return Vec::new() };
        for w in l.get_ref() {
            if !known.contains_key(w) {
                let hint = suggestion(w, known.keys().map(String::as_str));
                d.err(l.span(), format!("unknown {what} '{w}'{hint}"));
            }
        }
        l.get_ref().clone()
    }
    let weapons = list(d, &r.weapons, "weapon", known.weapons);
    let spells = list(d, &r.spells, "spell", known.spells);
    let immune = list(d, &r.immune, "circumstance", known.circumstances);
    let harm_points = match r.harm.as_ref().map(|h| h.get_ref().as_str()) {
        None | Some("track") => None,
        Some("points") => Some(r.harm_capacity.unwrap_or(3)),
        Some(other) => {
            let at = r.harm.as_ref().map_or(raw.span(), Spanned::span);
            d.err(
                at,
                format!("harm = \"{other}\": expected \"track\" (Harm rows) or \"points\" (EIN-R24)"),
            );
            None
        }
    };
    let stats = Stats {
        attrs,
        actions,
        weapons,
        spells,
        armour: r.armour.unwrap_or(0),
        harm_points,
        cards: r.cards.unwrap_or(1),
        maneuvers: [r.slow.unwrap_or(1), r.fast.unwrap_or(1)],
        immune,
        fear: r.fear.unwrap_or(0),
    };
    if let Err(m) = stats.check_numbers() {
        d.err(raw.span(), m);
    }
    let group = r.group.as_ref().map(|g| {
        if !enc::is_word(g.get_ref()) {
            d.err(g.span(), "a group is one word");
        }
        g.get_ref().clone()
    });
    let pc = r.pc.unwrap_or(known.player_sides.contains(&side));
    if r.cover == Some(true) && !template && zones.cover(zone) == 0 {
        let at = r.zone.as_ref().map_or(raw.span(), Spanned::span);
        d.err(
            at,
            format!("'{id}' starts in cover, but zone '{}' has no cover", zones.id(zone)),
        );
    }
    let worn = worn(d, raw, &r, template, &stats, known.options);
    Some(Combatant {
        name: r.name.unwrap_or_else(|| id.clone()),
        id,
        side,
        pc,
        zone,
        far: r.far.unwrap_or(false),
        cover: r.cover.unwrap_or(false),
        prone: r.prone.unwrap_or(false),
        group,
        seat: None,
        stats,
        worn,
    })
}

/// What a combatant brings from earlier fights ([`Worn`]), as its table gives it, checked;
/// a template gives none of it.
fn worn(
    d: &mut Diags,
    raw: &Spanned<RawCombatant>,
    r: &RawCombatant,
    template: bool,
    stats: &Stats,
    o: &Options,
) -> Worn {
    let rows = [
        &r.physical_lesser,
        &r.physical_moderate,
        &r.physical_severe,
        &r.mental_lesser,
        &r.mental_moderate,
        &r.mental_severe,
    ];
    let given = ROW_KEYS.iter().zip(rows).map(|(k, v)| (*k, v.is_some())).chain([
        ("harm-points", r.harm_points.is_some()),
        ("critical-injuries", r.critical_injuries.is_some()),
    ]);
    if template {
        for (key, _) in given.filter(|(_, g)| *g).take(1) {
            d.err(
                raw.span(),
                format!("{key} belongs to one creature's state, not to a template: give it in a [[combatant]] table"),
            );
        }
        return Worn::default();
    }
    let v = |x: &Option<Spanned<u8>>| x.as_ref().map_or(0, |x| *x.get_ref());
    let w = Worn {
        physical: [v(rows[0]), v(rows[1]), v(rows[2])],
        mental: [v(rows[3]), v(rows[4]), v(rows[5])],
        points: v(&r.harm_points),
        injuries: r
            .critical_injuries
            .as_ref()
            .map(|i| i.get_ref().clone())
            .unwrap_or_default(),
    };
    if let Err((key, m)) = w.check(stats, o) {
        let at = match ROW_KEYS.iter().position(|k| *k == key) {
            Some(i) => rows[i].as_ref().map(Spanned::span),
            None if key == "harm-points" => r.harm_points.as_ref().map(Spanned::span),
            None => r.critical_injuries.as_ref().map(Spanned::span),
        };
        d.err(at.unwrap_or(raw.span()), m);
    }
    w
}

/// Checks a stat block's names against the setup's tables.
fn check_names(s: &Setup, st: &Stats) -> Result<(), String> {
    st.check()?;
    if let Some(w) = st.weapons.iter().find(|w| !s.weapons.contains_key(*w)) {
        let hint = suggestion(w, s.weapons.keys().map(String::as_str));
        return Err(format!("unknown weapon '{w}'{hint}"));
    }
    if let Some(w) = st.spells.iter().find(|w| !s.spells.contains_key(*w)) {
        let hint = suggestion(w, s.spells.keys().map(String::as_str));
        return Err(format!("unknown spell '{w}'{hint}"));
    }
    if let Some(w) = st.immune.iter().find(|w| !s.circumstances.contains_key(*w)) {
        let hint = suggestion(w, s.circumstances.keys().map(String::as_str));
        return Err(format!("unknown circumstance '{w}'{hint}"));
    }
    Ok(())
}

/// Checks a whole setup and its options as strictly as the loader (a record's setup is
/// untrusted), and what spans the whole file: every side has a combatant.
pub fn validate(s: &Setup, o: &Options) -> Result<(), String> {
    o.validate()?;
    sides::check(&s.seats, &s.sides)?;
    for (id, w) in &s.weapons {
        w.check().map_err(|m| format!("weapon '{id}': {m}"))?;
    }
    for (id, w) in &s.spells {
        w.check().map_err(|m| format!("spell '{id}': {m}"))?;
    }
    for (id, c) in &s.circumstances {
        if c.extra > 5 {
            return Err(format!("circumstance '{id}': extra must be 0..=5"));
        }
    }
    for (id, ob) in &s.obstacles {
        if !(1..=5).contains(&ob.need) {
            return Err(format!("obstacle '{id}': need must be 1..=5"));
        }
    }
    if let Some(l) = s.zones.obstacle_labels().find(|l| !s.obstacles.contains_key(*l)) {
        return Err(format!("no obstacle '{l}'"));
    }
    if let Some(t) = s
        .zones
        .all_tags()
        .chain(s.everywhere.iter().map(String::as_str))
        .find(|t| !s.circumstances.contains_key(*t))
    {
        return Err(format!("no circumstance '{t}'"));
    }
    enc::recheck_roster(
        &s.combatants,
        s.sides.len(),
        None,
        &ROSTER,
        |c| c.side.into(),
        |c| {
            if c.zone.index() >= s.zones.len() {
                return Err(format!("combatant '{}' is in no zone of the map", c.id));
            }
            if let Some(seat) = c.seat
                && seat.0 as usize >= s.seats.len()
            {
                return Err(format!(
                    "combatant '{}': seat {} does not exist ({} seats)",
                    c.id,
                    seat.0,
                    s.seats.len()
                ));
            }
            check_names(s, &c.stats).map_err(|m| format!("combatant '{}': {m}", c.id))?;
            c.worn
                .check(&c.stats, o)
                .map_err(|(_, m)| format!("combatant '{}': {m}", c.id))
        },
    )?;
    for (name, t) in &s.templates {
        check_names(s, t).map_err(|m| format!("template '{name}': {m}"))?;
    }
    // EIN-R2: the members of a group share one card, and so one seat.
    for (i, c) in s.combatants.iter().enumerate() {
        if let Some(o) = s.combatants[..i]
            .iter()
            .find(|o| o.group.is_some() && o.group == c.group && o.seat != c.seat)
        {
            return Err(format!(
                "combatants '{}' and '{}' share a group but not a seat",
                o.id, c.id
            ));
        }
    }
    if s.player_sides.iter().any(|&p| p as usize >= s.sides.len()) {
        return Err("player-sides names a side the encounter does not have".into());
    }
    if let Some(a) = &s.ambush {
        if a.side as usize >= s.sides.len() {
            return Err("the ambush names no side of the encounter".into());
        }
        if let Some(r) = a.roller
            && s.combatants.get(r as usize).is_none_or(|c| c.side != a.side)
        {
            return Err("the ambush's roller is not on the ambushing side".into());
        }
    }
    load::no_empty_side(&s.sides, s.combatants.iter().map(|c| c.side.into()))
}
