//! Encounter files, read with the engine's encounter kit (`fray_engine::encounter`): every
//! problem is a diagnostic at its file, line and column. [`validate`] checks a whole setup
//! again, because a setup read back from a record is untrusted input.

use crate::Murdham;
use crate::data::{self, Ability, ItemDef, Keyword, Kind, Mind, Power, Size, Skill};
use crate::options::Options;
use crate::place::Place;
use fray_engine::diag::{Diagnostic, SourceFile, suggestion};
use fray_engine::encounter::{self as enc, Diags, Overlay, RawZone, RosterRules, Spanned};
use fray_engine::kit::load;
use fray_engine::sides::{self, RawSide};
use fray_engine::{Ruleset, Seat};
use fray_space::ZoneMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Index of a combatant (its place in the encounter, GM additions after).
pub type Cid = u16;
/// The most combatants a combat may have, GM additions included.
pub const MAX_COMBATANTS: usize = 40;
/// The most items a character carries.
pub const MAX_ITEMS: usize = 8;
/// Zone tags the rules read: characters in a `dark` zone are not visible; attacks on
/// characters in a `concealment` zone deal impaired damage (MUR-R26); the cover spots of a
/// `barrier` zone are barriers (MUR-R28); `hazard-N` is a hazard a shove may push into, dealing
/// dN direct damage (MUR-R37).
pub const TAGS: &[&str] = &["dark", "concealment", "barrier"];

/// A stat block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Stats {
    /// STR, AGI and WIT, 1 to 19.
    pub abilities: [u8; 3],
    /// Size.
    pub size: Size,
    /// What it is made of.
    pub kind: Kind,
    /// How it thinks.
    pub mind: Mind,
    /// Skills and traits.
    pub skills: Vec<Skill>,
    /// Armour: 0 none, 1 light, 2 heavy.
    pub armour: u8,
    /// A helmet: the critical-damage threshold is 1 higher.
    pub helmet: bool,
    /// Items in hand at the start: the first in the main hand, the second in the other.
    pub wield: Vec<String>,
    /// Items carried but not in hand.
    pub carry: Vec<String>,
    /// Profane powers it may invoke.
    pub powers: Vec<String>,
}

impl Stats {
    /// An ability score.
    pub fn ability(&self, a: Ability) -> u8 {
        self.abilities[a as usize]
    }

    /// Whether it has a skill.
    pub fn has(&self, s: Skill) -> bool {
        self.skills.contains(&s)
    }

    /// Maximum health: STR scaled by size, 2 more with the tough skill.
    pub fn max_health(&self) -> i32 {
        self.size.scale(i32::from(self.ability(Ability::Str))) + if self.has(Skill::Tough) { 2 } else { 0 }
    }

    /// Immune to fear, and so to morale (MUR-R45).
    pub fn fearless(&self) -> bool {
        self.mind == Mind::Mindless || self.kind.unbreakable() || self.has(Skill::Bravery) || self.has(Skill::Frenzied)
    }

    /// Whether every number is in range.
    pub fn check(&self) -> Result<(), String> {
        if self.abilities.iter().any(|&v| !(1..=19).contains(&v)) {
            return Err("STR, AGI and WIT are scores from 1 to 19".into());
        }
        if self.armour > 2 {
            return Err("armour is none, light or heavy".into());
        }
        if self.wield.len() > 2 {
            return Err("a character holds at most two items (wield)".into());
        }
        if self.wield.len() + self.carry.len() > MAX_ITEMS || self.powers.len() > MAX_ITEMS {
            return Err(format!("at most {MAX_ITEMS} items and {MAX_ITEMS} powers"));
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
    /// Index of its side (its faction).
    pub side: u8,
    /// Where it starts.
    pub at: Place,
    /// It launches an ambush: concealed at the start (MUR-R40).
    pub concealed: bool,
    /// It starts at a cover spot of its zone.
    pub cover: bool,
    /// Health at the start, if lower than its maximum.
    pub health: Option<i32>,
    /// Its numbers (abilities already lowered by [`Worn::lowered`], gear already short of
    /// [`Worn::lost`]).
    pub stats: Stats,
    /// What it brings from earlier fights (a campaign's lasting state); nothing for a fresh
    /// character.
    #[serde(default, skip_serializing_if = "Worn::is_fresh")]
    pub worn: Worn,
    /// The seat of the player who plays it, when it names one (`seat = "ana"`); `None`: its
    /// faction's seat decides for it (as in every record written before characters could name
    /// one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
}

/// What a character brings into the fight from earlier ones: a campaign writes these keys into
/// its table (`TextRuleset::lasting`), and an encounter may give them itself. All at their
/// defaults for a fresh character.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Worn {
    /// STR, AGI and WIT lowered by injuries until a full rest (the game's Health chapter).
    pub lowered: [u8; 3],
    /// Items of its own (indices into `wield` then `carry`) damaged by earlier fights (MUR-R48).
    pub damaged: Vec<u8>,
    /// Its armour is damaged (MUR-R48).
    pub armour_damaged: bool,
    /// Items of its own destroyed or used up in earlier fights (MUR-R48, MUR-R49): no longer in
    /// `wield` or `carry`.
    pub lost: Vec<String>,
    /// Its armour was destroyed (MUR-R50): it wears none now.
    pub armour_lost: bool,
    /// The conditions earlier injuries left it, until a full rest (the game's Health chapter).
    #[serde(skip_serializing_if = "crate::data::Injuries::none")]
    pub injuries: crate::data::Injuries,
}

impl Worn {
    /// Whether it brings nothing: a fresh character.
    pub fn is_fresh(&self) -> bool {
        *self == Worn::default()
    }
}

/// The keys an encounter gives the abilities in.
const ABILITY_KEYS: [&str; 3] = ["str", "agi", "wit"];

pub use fray_engine::sides::Side;

/// A validated encounter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// A title for logs.
    pub title: String,
    /// The zones.
    pub zones: ZoneMap,
    /// Seat names; seat 0 is always `gm`.
    pub seats: Vec<String>,
    /// The sides (factions); their order is the order factions follow each other (MUR-H23).
    pub sides: Vec<Side>,
    /// The combatants at the start.
    pub combatants: Vec<Combatant>,
    /// Stat blocks the GM may bring in (`gm add`), by name.
    pub templates: BTreeMap<String, Stats>,
    /// The items: fray's own and the encounter's.
    pub items: BTreeMap<String, ItemDef>,
    /// The profane powers.
    pub powers: BTreeMap<String, Power>,
    /// Cover penetration (MUR-H7): for a zone tag, the attack keywords that go through the
    /// cover of zones with that tag.
    pub penetration: BTreeMap<String, Vec<Keyword>>,
    /// The faction that started the fight and holds the initiative (MUR-R6); `None`: a die
    /// decides.
    pub initiative: Option<u8>,
    /// The sides of player characters (MUR-H12, MUR-R57).
    pub player_sides: Vec<u8>,
}

impl Setup {
    /// An item's data (ids are checked on load).
    pub fn item(&self, id: &str) -> Option<&ItemDef> {
        self.items.get(id)
    }

    /// Whether a zone carries a tag.
    pub fn tagged(&self, z: fray_space::ZoneId, tag: &str) -> bool {
        self.zones.zone(z).is_some_and(|x| x.has_tag(tag))
    }

    /// The die of a zone's hazard (`hazard-N`), if it has one.
    pub fn hazard(&self, z: fray_space::ZoneId) -> Option<u8> {
        self.zones.zone(z)?.tags.iter().find_map(|t| hazard_die(t))
    }
}

/// The faces of a `hazard-N` tag.
fn hazard_die(tag: &str) -> Option<u8> {
    let n: u8 = tag.strip_prefix("hazard-")?.parse().ok()?;
    matches!(n, 4 | 6 | 8 | 10 | 12 | 20).then_some(n)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
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
    item: BTreeMap<String, Spanned<ItemDef>>,
    #[serde(default)]
    power: BTreeMap<String, Spanned<Power>>,
    #[serde(default)]
    penetration: BTreeMap<String, Spanned<Vec<Keyword>>>,
    initiative: Option<Spanned<String>>,
    #[serde(default)]
    player_sides: Vec<Spanned<String>>,
}

#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCombatant {
    id: Option<Spanned<String>>,
    name: Option<String>,
    template: Option<Spanned<String>>,
    side: Option<Spanned<String>>,
    seat: Option<Spanned<String>>,
    at: Option<Spanned<String>>,
    concealed: Option<bool>,
    cover: Option<bool>,
    health: Option<Spanned<i32>>,
    str: Option<u8>,
    agi: Option<u8>,
    wit: Option<u8>,
    size: Option<Size>,
    kind: Option<Kind>,
    mind: Option<Mind>,
    skills: Option<Vec<Skill>>,
    armour: Option<Spanned<String>>,
    helmet: Option<bool>,
    wield: Option<Spanned<Vec<String>>>,
    carry: Option<Spanned<Vec<String>>>,
    powers: Option<Spanned<Vec<String>>>,
    // What the character brings from earlier fights (see [`Worn`]).
    lowered: Option<Spanned<RawLowered>>,
    damaged: Option<Spanned<Vec<String>>>,
    lost: Option<Spanned<Vec<String>>>,
    armour_damaged: Option<bool>,
    armour_lost: Option<Spanned<bool>>,
    injuries: Option<Spanned<Vec<String>>>,
    dead: Option<Spanned<bool>>,
}

/// Abilities lowered, as an encounter writes them: `{ str = 2 }`.
#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields)]
struct RawLowered {
    str: Option<u8>,
    agi: Option<u8>,
    wit: Option<u8>,
}

// A combatant takes every field it leaves out from its template.
fray_engine::combatant_table!(RawCombatant {
    id,
    name,
    template,
    side,
    seat,
    at,
    concealed,
    cover,
    health,
    str,
    agi,
    wit,
    size,
    kind,
    mind,
    skills,
    armour,
    helmet,
    wield,
    carry,
    powers,
    lowered,
    damaged,
    lost,
    armour_damaged,
    armour_lost,
    injuries,
    dead
});

/// How the kit sees the combatants, in a file and in a record: places are checked here.
const ROSTER: RosterRules<Combatant> = RosterRules {
    limit: MAX_COMBATANTS,
    case_advice: "ids are typed without regard to case, so pick another id",
    id: |c| c.id.as_str(),
    square: |_| None,
};

/// Reads and validates an encounter.
pub fn load(source: &SourceFile) -> Result<(Setup, Options), Vec<Diagnostic>> {
    // Every problem of the file's shape at once; the checks below add theirs.
    let (raw, mut d): (RawEncounter, Diags) = Diags::parse(source)?;
    let Some(options) = load::head(
        &mut d,
        &raw.ruleset,
        Murdham::ID,
        raw.options.as_ref(),
        Options::validate,
    ) else {
        return Err(d.errors);
    };
    let Some(zones) = enc::zones(&mut d, &raw.zone) else {
        return Err(d.errors);
    };
    let mut items = data::catalogue();
    for (id, it) in &raw.item {
        if !enc::is_word(id) {
            d.err(it.span(), format!("item id '{id}' must be one word"));
        }
        if let Err(m) = it.get_ref().check() {
            d.err(it.span(), format!("item '{id}': {m}"));
        }
        items.insert(id.clone(), it.get_ref().clone());
    }
    let mut powers = BTreeMap::new();
    for (id, p) in &raw.power {
        if !enc::is_word(id) {
            d.err(p.span(), format!("power id '{id}' must be one word"));
        }
        if let Err(m) = p.get_ref().check() {
            d.err(p.span(), format!("power '{id}': {m}"));
        }
        powers.insert(id.clone(), p.get_ref().clone());
    }
    let mut penetration = BTreeMap::new();
    for (tag, kinds) in &raw.penetration {
        if !enc::is_word(tag) {
            d.err(kinds.span(), format!("penetration tag '{tag}' must be one word"));
        }
        penetration.insert(tag.clone(), kinds.get_ref().clone());
    }
    for z in raw.zone.iter().map(Spanned::get_ref) {
        for tag in &z.tags {
            let t = tag.get_ref();
            if !TAGS.contains(&t.as_str()) && hazard_die(t).is_none() && !penetration.contains_key(t) {
                d.err(
                    tag.span(),
                    format!(
                        "unknown zone tag '{t}'{}: Murdham reads dark, concealment, barrier, hazard-N (N a die: 4, 6, 8, 10, 12, 20) and the tags of [penetration]",
                        suggestion(t, TAGS.iter().copied().chain(penetration.keys().map(String::as_str)))
                    ),
                );
            }
        }
    }
    // Seats: the factions' first, then each new one a character names, in the file's order.
    let (mut seats, sides) = sides::read(&mut d, &raw.side);
    let side_ids = || sides.iter().map(|x| x.id.as_str());
    let mut player_sides = Vec::new();
    for p in &raw.player_sides {
        if let Some(i) = enc::index_of(&mut d, p, side_ids(), "side") {
            player_sides.push(i as u8);
        }
    }
    let initiative = raw
        .initiative
        .as_ref()
        .and_then(|i| enc::index_of(&mut d, i, side_ids(), "side"))
        .map(|i| i as u8);
    let known = Known {
        items: &items,
        powers: &powers,
        zones: &zones,
        sides: &sides,
    };
    let (templates, combatants) = enc::roster(
        &mut d,
        &raw.template,
        &raw.combatant,
        &ROSTER,
        |d, t, base, template| combatant(d, t, base, template, &known, &mut seats),
    );
    // Only on an otherwise good file: a combatant refused above would be a false lead.
    if let Some((i, m)) = sides::empty_side(&sides, combatants.iter().map(|c| c.side.into()))
        && d.errors.is_empty()
    {
        d.err(raw.side[i].span(), m);
    }
    // A map on which some characters can never reach the others is refused: the fight would
    // never end. A border's two zones are linked, so its first zone stands for it.
    if d.errors.is_empty()
        && let Some((i, m)) = sides::apart(&zones, &sides, combatants.iter().map(|c| (c.side.into(), c.at.a)))
    {
        d.err(raw.combatant[i].span(), m);
    }
    if d.errors.is_empty()
        && let Err((i, m)) = crowding(&combatants, &zones)
    {
        d.err(raw.combatant[i].span(), m);
    }
    if !d.errors.is_empty() {
        return Err(d.errors);
    }
    let title = raw.title.unwrap_or_else(|| source.name.clone());
    let templates = templates.into_iter().map(|(k, c)| (k, c.stats)).collect();
    // Characters made from one template share its name: the log tells them apart by id.
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
            items,
            powers,
            penetration,
            initiative,
            player_sides,
        },
        options,
    ))
}

/// The first combatant that overfills its place, or a cover spot: its index and why.
fn crowding(cs: &[Combatant], zones: &ZoneMap) -> Result<(), (usize, String)> {
    for (i, c) in cs.iter().enumerate() {
        let before = &cs[..i];
        if before.iter().filter(|o| o.at == c.at).count() >= c.at.capacity() {
            return Err((
                i,
                format!(
                    "'{}' does not fit: {} holds at most {} characters",
                    c.id,
                    c.at.describe(zones),
                    c.at.capacity()
                ),
            ));
        }
        let spots = zones.zone(c.at.a).map_or(0, |z| z.cover) as usize;
        if c.cover && (c.at.is_border() || before.iter().filter(|o| o.cover && o.at == c.at).count() >= spots) {
            return Err((
                i,
                format!(
                    "'{}' starts in cover, but {} has no free cover spot",
                    c.id,
                    c.at.describe(zones)
                ),
            ));
        }
    }
    Ok(())
}

/// What a stat block refers to.
struct Known<'a> {
    items: &'a BTreeMap<String, ItemDef>,
    powers: &'a BTreeMap<String, Power>,
    zones: &'a ZoneMap,
    sides: &'a [Side],
}

/// One combatant (or template: no side or place) over the template it names.
fn combatant(
    d: &mut Diags,
    raw: &Spanned<RawCombatant>,
    base: &RawCombatant,
    template: bool,
    known: &Known,
    seats: &mut Vec<String>,
) -> Option<Combatant> {
    let r = raw.get_ref().over(base);
    let id = enc::combatant_id(d, r.id.as_ref(), raw.span(), template, "bandit-1")?;
    // A seat is one player's: a template, which many characters share, names none.
    let seat = load::own_seat(d, raw.get_ref().seat.as_ref(), template, seats, "character");
    let mut side = 0;
    let mut at = Place::zone(known.zones.ids().next()?);
    if !template {
        let (Some(s), Some(a)) = (&r.side, &r.at) else {
            d.err(
                raw.span(),
                format!("combatant '{id}' needs a side and a place (at = \"zone\" or \"zone|zone\")"),
            );
            return None;
        };
        side = enc::index_of(d, s, known.sides.iter().map(|x| x.id.as_str()), "side")? as u8;
        match Place::parse(a.get_ref(), known.zones) {
            Ok(p) => at = p,
            Err(m) => {
                d.err(a.span(), m);
                return None;
            }
        }
    }
    let (Some(str), Some(agi), Some(wit)) = (r.str, r.agi, r.wit) else {
        // A score the file's shape refused (agi = 300) is already reported where it stands.
        if !shape_refused_within(d, raw.span()) {
            d.err(raw.span(), format!("'{id}' needs str, agi and wit (scores 1 to 19)"));
        }
        return None;
    };
    let armour = match r.armour.as_ref().map(|a| a.get_ref().as_str()) {
        None | Some("none") => 0,
        Some("light") => 1,
        Some("heavy") => 2,
        Some(other) => {
            let at = r.armour.as_ref().map_or(raw.span(), Spanned::span);
            d.err(at, format!("armour = \"{other}\": expected none, light or heavy"));
            0
        }
    };
    let list = |d: &mut Diags, l: &Option<Spanned<Vec<String>>>, what: &str, ids: &[&str]| {
        let Some(l) = l else { return Vec::new() };
        for w in l.get_ref() {
            if !ids.contains(&w.as_str()) {
                d.err(
                    l.span(),
                    format!("unknown {what} '{w}'{}", suggestion(w, ids.iter().copied())),
                );
            }
        }
        l.get_ref().clone()
    };
    let items: Vec<&str> = known.items.keys().map(String::as_str).collect();
    let mut wield = list(d, &r.wield, "item", &items);
    let mut carry = list(d, &r.carry, "item", &items);
    let powers: Vec<&str> = known.powers.keys().map(String::as_str).collect();
    let powers = list(d, &r.powers, "power", &powers);
    let mut armour = armour;
    let worn = worn(
        d,
        raw,
        &r,
        template,
        &id,
        [str, agi, wit],
        &mut wield,
        &mut carry,
        &mut armour,
    )?;
    let scores = [str, agi, wit];
    let [str, agi, wit] = [0, 1, 2].map(|i| scores[i].saturating_sub(worn.lowered[i]));
    let stats = Stats {
        abilities: [str, agi, wit],
        size: r.size.unwrap_or(Size::Medium),
        kind: r.kind.unwrap_or(Kind::Creature),
        mind: r.mind.unwrap_or(Mind::Human),
        skills: r.skills.clone().unwrap_or_default(),
        armour,
        helmet: r.helmet.unwrap_or(false),
        wield,
        carry,
        powers,
    };
    if let Err(m) = stats.check() {
        d.err(raw.span(), format!("'{id}': {m}"));
    }
    if let Err(m) = hands(&stats, known.items) {
        let at = r.wield.as_ref().map_or(raw.span(), Spanned::span);
        d.err(at, format!("'{id}': {m}"));
    }
    let health = r.health.as_ref().map(|h| {
        let v = *h.get_ref();
        if !(1..=stats.max_health()).contains(&v) {
            d.err(
                h.span(),
                format!(
                    "health = {v}: it starts between 1 and its maximum, {}",
                    stats.max_health()
                ),
            );
        }
        v
    });
    Some(Combatant {
        name: r.name.unwrap_or_else(|| id.clone()),
        id,
        side,
        at,
        concealed: r.concealed.unwrap_or(false),
        cover: r.cover.unwrap_or(false),
        health,
        stats,
        worn,
        seat,
    })
}

/// What a combatant brings from earlier fights ([`Worn`]), as its table gives it: abilities
/// lowered (each must leave the score at 1 or more: at 0 the character is dead), items lost
/// (taken out of `wield` and `carry`: `carry` first) and damaged (of those left), its armour
/// damaged or lost (`armour` becomes none), the conditions injuries left it. A template gives none of it. `None` after
/// reporting a problem that leaves no character to build.
#[allow(clippy::too_many_arguments)]
fn worn(
    d: &mut Diags,
    raw: &Spanned<RawCombatant>,
    r: &RawCombatant,
    template: bool,
    id: &str,
    abilities: [u8; 3],
    wield: &mut Vec<String>,
    carry: &mut Vec<String>,
    armour: &mut u8,
) -> Option<Worn> {
    let given = [
        ("lowered", r.lowered.is_some()),
        ("damaged", r.damaged.is_some()),
        ("lost", r.lost.is_some()),
        ("armour-damaged", r.armour_damaged.is_some()),
        ("armour-lost", r.armour_lost.is_some()),
        ("injuries", r.injuries.is_some()),
        ("dead", r.dead.is_some()),
    ];
    if template {
        if let Some((key, _)) = given.iter().find(|(_, g)| *g) {
            d.err(
                raw.span(),
                format!("{key} belongs to one character's state, not to a template: give it in a [[combatant]] table"),
            );
        }
        return Some(Worn::default());
    }
    if let Some(dead) = r.dead.as_ref().filter(|x| *x.get_ref()) {
        // A campaign writes it for a character that died: a dead character is replaced by a
        // new one (the game's Health chapter), it does not fight again.
        d.err(
            dead.span(),
            format!("combatant '{id}' is dead: the dead do not fight again, and no rest brings them back"),
        );
        return None;
    }
    let mut w = Worn::default();
    if let Some(l) = &r.lowered {
        let l = l.get_ref();
        w.lowered = [l.str.unwrap_or(0), l.agi.unwrap_or(0), l.wit.unwrap_or(0)];
    }
    for (i, (&score, &by)) in abilities.iter().zip(&w.lowered).enumerate() {
        if by > 0 && by >= score {
            let at = r.lowered.as_ref().map_or(raw.span(), Spanned::span);
            d.err(
                at,
                format!(
                    "lowered {} = {by} leaves '{id}' {} {}: an ability at 0 or below kills",
                    ABILITY_KEYS[i],
                    ABILITY_KEYS[i].to_uppercase(),
                    i32::from(score) - i32::from(by)
                ),
            );
            return None;
        }
    }
    if let Some(lost) = &r.lost {
        for item in lost.get_ref() {
            let at = carry.iter().position(|x| x == item);
            match at {
                Some(i) => {
                    carry.remove(i);
                }
                None => match wield.iter().position(|x| x == item) {
                    Some(i) => {
                        wield.remove(i);
                    }
                    None => {
                        d.err(
                            lost.span(),
                            format!("lost names '{item}', which '{id}' does not have (in wield or carry) to lose"),
                        );
                        return None;
                    }
                },
            }
            w.lost.push(item.clone());
        }
    }
    if let Some(damaged) = &r.damaged {
        let all: Vec<&String> = wield.iter().chain(carry.iter()).collect();
        for item in damaged.get_ref() {
            let free = (0..all.len()).find(|&i| *all[i] == *item && !w.damaged.contains(&(i as u8)));
            match free {
                Some(i) => w.damaged.push(i as u8),
                None => {
                    d.err(
                        damaged.span(),
                        format!(
                            "damaged names '{item}', which '{id}' does not have (in wield or carry, once for each)"
                        ),
                    );
                    return None;
                }
            }
        }
        w.damaged.sort_unstable();
    }
    if r.armour_lost.as_ref().is_some_and(|a| *a.get_ref()) {
        if *armour == 0 {
            let at = r.armour_lost.as_ref().map_or(raw.span(), Spanned::span);
            d.err(at, format!("armour-lost: '{id}' wears no armour to lose"));
            return None;
        }
        *armour = 0;
        w.armour_lost = true;
    }
    w.armour_damaged = r.armour_damaged.unwrap_or(false) && !w.armour_lost;
    if w.armour_damaged && *armour == 0 {
        d.err(raw.span(), format!("armour-damaged: '{id}' wears no armour"));
        return None;
    }
    if let Some(list) = &r.injuries {
        for word in list.get_ref() {
            match crate::data::Injury::ALL.into_iter().find(|i| i.word() == word) {
                Some(i) => w.injuries.add(i),
                None => {
                    let known: Vec<&str> = crate::data::Injury::ALL.into_iter().map(|i| i.word()).collect();
                    d.err(
                        list.span(),
                        format!("injuries: '{word}' is not one of {}", known.join(", ")),
                    );
                    return None;
                }
            }
        }
    }
    Some(w)
}

/// Two items in hand need a free hand each: a two-handed item is held alone.
fn hands(st: &Stats, items: &BTreeMap<String, ItemDef>) -> Result<(), String> {
    let bulk: u8 = st
        .wield
        .iter()
        .filter_map(|w| items.get(w))
        .map(|i| i.bulk.clamp(1, 2))
        .sum();
    if bulk > 2 {
        return Err("the items in hand need more than two hands (a two-handed item is held alone)".into());
    }
    if st.wield.iter().any(|w| w == data::UNARMED) || st.carry.iter().any(|w| w == data::UNARMED) {
        return Err("bare hands are not an item to hold or carry".into());
    }
    Ok(())
}

/// Whether a problem is already reported within the table whose header `span` points at, up
/// to the next table's header (an entry the reading of the file's shape refused and set aside).
fn shape_refused_within(d: &Diags, span: std::ops::Range<usize>) -> bool {
    let first = Diagnostic::at(d.file, span.start, "").line;
    let rest = d.file.text.lines().skip(first);
    let last = first + rest.take_while(|l| !l.trim_start().starts_with('[')).count();
    d.errors
        .iter()
        .any(|e| e.file == d.file.name && (first..=last).contains(&e.line))
}

/// Checks a stat block's names against the setup's tables.
fn check_names(s: &Setup, st: &Stats) -> Result<(), String> {
    st.check()?;
    if let Some(w) = st.wield.iter().chain(&st.carry).find(|w| !s.items.contains_key(*w)) {
        return Err(format!(
            "unknown item '{w}'{}",
            suggestion(w, s.items.keys().map(String::as_str))
        ));
    }
    if let Some(w) = st.powers.iter().find(|w| !s.powers.contains_key(*w)) {
        return Err(format!(
            "unknown power '{w}'{}",
            suggestion(w, s.powers.keys().map(String::as_str))
        ));
    }
    hands(st, &s.items)
}

/// Checks a whole setup and its options as strictly as the loader (a record's setup is
/// untrusted), and what spans the whole file: every side has a combatant.
pub fn validate(s: &Setup, o: &Options) -> Result<(), String> {
    o.validate()?;
    sides::check(&s.seats, &s.sides)?;
    for (id, w) in &s.items {
        w.check().map_err(|m| format!("item '{id}': {m}"))?;
    }
    if !s.items.contains_key(data::UNARMED) {
        return Err("the item 'unarmed' (bare hands) is missing".into());
    }
    for (id, p) in &s.powers {
        p.check().map_err(|m| format!("power '{id}': {m}"))?;
    }
    enc::recheck_roster(
        &s.combatants,
        s.sides.len(),
        None,
        &ROSTER,
        |c| c.side.into(),
        |c| {
            sides::check_own_seat(&s.seats, &c.id, c.seat)?;
            if !c.at.valid(&s.zones) {
                return Err(format!("combatant '{}' stands nowhere on the map", c.id));
            }
            if c.health.is_some_and(|h| !(1..=c.stats.max_health()).contains(&h)) {
                return Err(format!("combatant '{}' starts with health out of range", c.id));
            }
            let items = c.stats.wield.len() + c.stats.carry.len();
            let w = &c.worn;
            if w.damaged.iter().any(|&i| usize::from(i) >= items)
                || w.lowered.iter().any(|&l| l > 18)
                || (w.armour_damaged && (w.armour_lost || c.stats.armour == 0))
                || w.lost.len() > 64
                || w.injuries.eyes > 2
            {
                return Err(format!(
                    "combatant '{}': its worn state does not fit its stat block",
                    c.id
                ));
            }
            check_names(s, &c.stats).map_err(|m| format!("combatant '{}': {m}", c.id))
        },
    )?;
    crowding(&s.combatants, &s.zones).map_err(|(_, m)| m)?;
    for (name, t) in &s.templates {
        check_names(s, t).map_err(|m| format!("template '{name}': {m}"))?;
    }
    if s.player_sides
        .iter()
        .chain(&s.initiative)
        .any(|&p| p as usize >= s.sides.len())
    {
        return Err("player-sides or initiative names a side the encounter does not have".into());
    }
    load::no_empty_side(&s.sides, s.combatants.iter().map(|c| c.side.into()))
}
