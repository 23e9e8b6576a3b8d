//! Encounter files: reading, validating and deriving stats.
//!
//! An encounter names the ruleset, overrides options, draws the map, lists the teams (with the
//! seat that decides for each and an optional objective), says which team started the fight and
//! which was attacked (and who has surprise), defines stat-block templates and places the
//! combatants. Every problem is reported with file, line and column.
//!
//! Character numbers are derived from attribute and skill dice as the character chapter does
//! (resources 6 + the die's maximum, defences from passive values, speed from size, DEX and
//! Agility); any derived number can be overridden (ING-H24).

use crate::data::{Armoury, Attr, Cond, ItemId, build};
use crate::options::{DefenceFormula, Options};
use fray_engine::Seat;
use fray_engine::diag::{Diagnostic, SourceFile, suggestion};
use fray_engine::encounter::{self as enc, Diags, GridMap, Overlay, RawPos, RosterRules, Spanned, seat_of};
use fray_engine::text::ReadFile;
use fray_space::{Grid, Pos};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Index of a combatant.
pub type Cid = u16;

/// The largest number of combatants (sets of them are 64-bit masks).
pub const MAX_COMBATANTS: usize = 64;

/// The largest number of teams.
pub const MAX_TEAMS: usize = 16;

/// The largest magnitude of any number in an encounter or a record (stats, item numbers,
/// current values): far beyond any real character, and small enough that no sum of them can
/// overflow.
pub const NUMBER_LIMIT: i16 = 999;

/// The passive value of a die: half its largest face (core rule).
pub fn passive(die: u8) -> i16 {
    i16::from(die).div_euclid(2)
}

/// A combatant's fixed numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Size (4 = medium, 3 = small).
    pub size: i16,
    /// Attribute dice (sides), in [`Attr::ALL`] order.
    pub attrs: [u8; 4],
    /// Skill dice by name (untrained skills roll a d4).
    pub skills: Vec<(String, u8)>,
    /// Proficiency bonuses by name.
    pub profs: Vec<(String, i16)>,
    /// Maximum health.
    pub health: i16,
    /// Maximum endurance.
    pub endurance: i16,
    /// Maximum stamina.
    pub stamina: i16,
    /// Maximum focus.
    pub focus: i16,
    /// Constitution.
    pub constitution: i16,
    /// Evasion.
    pub evasion: i16,
    /// Willpower.
    pub willpower: i16,
    /// Physical deflection.
    pub deflection: i16,
    /// Elemental deflection.
    pub elemental_deflection: i16,
    /// Speed in metres per move.
    pub speed: i16,
    /// Added to this character's luck dice (ING-H18).
    pub luck_modifier: i16,
    /// Cannot be surprised (the danger-sense talent, ING-R15).
    pub cannot_be_surprised: bool,
}

impl Stats {
    /// An attribute die.
    pub fn attr(&self, a: Attr) -> u8 {
        self.attrs[a as usize]
    }

    /// A skill die (d4 when untrained).
    pub fn skill(&self, name: &str) -> u8 {
        self.skills.iter().find(|(n, _)| n == name).map_or(4, |(_, d)| *d)
    }

    /// A proficiency bonus (0 without it).
    pub fn prof(&self, name: &str) -> i16 {
        self.profs.iter().find(|(n, _)| n == name).map_or(0, |(_, b)| *b)
    }
}

/// Where a combatant starts, and in what state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    /// Current health.
    pub health: i16,
    /// Current endurance.
    pub endurance: i16,
    /// Current stamina.
    pub stamina: i16,
    /// Current focus.
    pub focus: i16,
    /// The death difficulty (ING-R62: it rises for good each time death is cheated).
    pub death_difficulty: i16,
    /// Unconscious at the start.
    pub unconscious: bool,
    /// Conditions at the start.
    pub conditions: u16,
    /// Items carried, in order.
    pub items: Vec<ItemId>,
    /// Which of them are in hand.
    pub held: Vec<ItemId>,
    /// Which of them start unloaded.
    pub unloaded: Vec<ItemId>,
    /// Items that start damaged: their durability.
    pub durability: Vec<(ItemId, i16)>,
}

/// Who a combatant is, fixed for the combat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharInfo {
    /// The id typed in commands.
    pub id: String,
    /// The display name.
    pub name: String,
    /// Index of its team.
    pub team: u8,
    /// The seat that decides for it.
    pub seat: Seat,
    /// Its square.
    pub at: Pos,
    /// Its numbers.
    pub stats: Stats,
    /// Its armour, if any.
    pub armour: Option<usize>,
    /// Talents, by name.
    pub talents: Vec<String>,
    /// How it starts.
    pub start: Start,
}

/// What ends the combat in a team's favour (ING-R13, ING-R67, ING-H1).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Objective {
    /// A member of the team (or the named one) stands on one of the squares.
    Reach {
        /// The squares.
        squares: Vec<Pos>,
        /// Only this combatant counts.
        who: Option<Cid>,
    },
    /// This many rounds have ended with the team still standing.
    Survive {
        /// Rounds.
        rounds: u32,
    },
    /// The named combatant is unconscious, dead or out of the fight.
    Down {
        /// Who.
        who: Cid,
    },
}

/// A team.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    /// The id used in files and commands.
    pub id: String,
    /// The display name.
    pub name: String,
    /// The seat that picks its members and decides for them.
    pub seat: Seat,
    /// The AI policy named for simulations, if any.
    pub policy: Option<String>,
    /// Its objective at the start, if any.
    pub objective: Option<Objective>,
}

/// The action that started the fight (ING-R69).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    /// Who performs it.
    pub who: Cid,
    /// The command, as typed (checked when the combat starts).
    pub action: String,
}

/// A validated encounter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// A title for logs.
    pub title: String,
    /// The map.
    pub map: Grid,
    /// Seat names; seat 0 is always `gm`.
    pub seats: Vec<String>,
    /// The teams, in file order.
    pub teams: Vec<Team>,
    /// The team order: slot 1 first (ING-R2 to ING-R4).
    pub order: Vec<u8>,
    /// The team with surprise, if any (ING-R14).
    pub surprise: Option<u8>,
    /// The action that started the fight, if given.
    pub opening: Option<Opening>,
    /// The combatants at the start.
    pub chars: Vec<CharInfo>,
    /// Stat blocks the GM may add mid-combat, by name.
    pub templates: BTreeMap<String, CharInfo>,
    /// Every item and armour.
    pub armoury: Armoury,
}

// ---------------------------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawEncounter {
    ruleset: Spanned<String>,
    title: Option<String>,
    #[serde(default)]
    item_files: Vec<Spanned<String>>,
    options: Option<Spanned<toml::Table>>,
    map: Spanned<GridMap>,
    #[serde(default)]
    team: Vec<Spanned<RawTeam>>,
    initiative: Option<Spanned<RawInitiative>>,
    #[serde(default)]
    template: BTreeMap<String, Spanned<RawChar>>,
    #[serde(default)]
    combatant: Vec<Spanned<RawChar>>,
    #[serde(default)]
    item: Vec<toml::Value>,
    #[serde(default)]
    armour: Vec<toml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawTeam {
    id: Spanned<String>,
    name: Option<String>,
    seat: Option<Spanned<String>>,
    policy: Option<String>,
    objective: Option<Spanned<RawObjective>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawObjective {
    test: Spanned<String>,
    #[serde(default)]
    squares: Vec<Spanned<RawPos>>,
    who: Option<Spanned<String>>,
    rounds: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawInitiative {
    started_by: Option<Spanned<String>>,
    attacked: Option<Spanned<String>>,
    #[serde(default)]
    then: Vec<Spanned<String>>,
    surprise: Option<Spanned<String>>,
    opening: Option<Spanned<RawOpening>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawOpening {
    who: Spanned<String>,
    action: Spanned<String>,
}

#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawNow {
    health: Option<i16>,
    endurance: Option<i16>,
    stamina: Option<i16>,
    focus: Option<i16>,
}

#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawChar {
    id: Option<Spanned<String>>,
    name: Option<String>,
    template: Option<Spanned<String>>,
    team: Option<Spanned<String>>,
    seat: Option<Spanned<String>>,
    at: Option<Spanned<RawPos>>,
    size: Option<Spanned<i16>>,
    attributes: Option<Spanned<BTreeMap<String, u8>>>,
    skills: Option<Spanned<BTreeMap<String, u8>>>,
    proficiencies: Option<Spanned<BTreeMap<String, i16>>>,
    talents: Option<Vec<Spanned<String>>>,
    items: Option<Vec<Spanned<String>>>,
    held: Option<Vec<Spanned<String>>>,
    unloaded: Option<Vec<Spanned<String>>>,
    durability: Option<Spanned<BTreeMap<String, i16>>>,
    armour: Option<Spanned<String>>,
    health: Option<i16>,
    endurance: Option<i16>,
    stamina: Option<i16>,
    focus: Option<i16>,
    constitution: Option<i16>,
    evasion: Option<i16>,
    willpower: Option<i16>,
    deflection: Option<i16>,
    elemental_deflection: Option<i16>,
    speed: Option<i16>,
    luck_modifier: Option<i16>,
    cannot_be_surprised: Option<bool>,
    now: Option<Spanned<RawNow>>,
    death_difficulty: Option<i16>,
    unconscious: Option<bool>,
    conditions: Option<Vec<Spanned<String>>>,
    dead: Option<Spanned<bool>>,
}

// A combatant takes every field it leaves out from its template.
fray_engine::combatant_table!(RawChar {
    id,
    name,
    template,
    team,
    seat,
    at,
    size,
    attributes,
    skills,
    proficiencies,
    talents,
    items,
    held,
    unloaded,
    durability,
    armour,
    health,
    endurance,
    stamina,
    focus,
    constitution,
    evasion,
    willpower,
    deflection,
    elemental_deflection,
    speed,
    luck_modifier,
    cannot_be_surprised,
    now,
    death_difficulty,
    unconscious,
    conditions,
    dead
});

type Ctx<'a> = Diags<'a>;

/// A square on the map that is not blocked (see [`enc::square`]).
fn pos(cx: &mut Ctx, raw: &Spanned<RawPos>, map: &Grid) -> Option<Pos> {
    let p = enc::square(cx, raw, map)?;
    if map.get(p).is_some_and(|c| c.blocked) {
        cx.err(raw.span(), format!("square {p} is blocked"));
        return None;
    }
    Some(p)
}

pub(crate) use fray_engine::encounter::is_word;

/// Loads and validates an Ingenuity encounter.
pub fn load(source: &SourceFile, read: &mut ReadFile<'_>) -> Result<(Setup, Options), Vec<Diagnostic>> {
    // Every problem of the file's shape at once; the checks below add theirs.
    let (raw, mut cx): (RawEncounter, Diags) = Diags::parse(source)?;
    if !enc::check_ruleset(&mut cx, &raw.ruleset, "ingenuity") {
        return Err(cx.errors);
    }
    let options = enc::options(&mut cx, raw.options.as_ref(), Options::check);

    // Items: the built-in ones, the files the encounter names, and its own [[item]] tables.
    let mut extra = Vec::new();
    for f in &raw.item_files {
        match read(f.get_ref()) {
            Ok(src) => extra.push(src),
            Err(m) => cx.err(f.span(), m),
        }
    }
    if !raw.item.is_empty() || !raw.armour.is_empty() {
        // Inline items are read from the encounter itself so their errors point into it.
        extra.push(inline_items(source));
    }
    let armoury = match build(&extra, &options) {
        Ok(a) => a,
        Err(mut e) => {
            cx.errors.append(&mut e);
            Armoury::default()
        }
    };

    // Map.
    let Some(map) = enc::grid(&mut cx, &raw.map) else {
        return Err(cx.errors);
    };
    if map.cells().iter().any(|c| c.difficult || c.start) {
        cx.err(
            raw.map.span(),
            "Ingenuity maps have no difficult terrain ('d') or starting areas ('s'): use '.', elevations and 'x' for blocked squares",
        );
    }

    // Teams and seats.
    let mut seats = vec!["gm".to_string()];
    let mut teams: Vec<Team> = Vec::new();
    for rt in &raw.team {
        let t = rt.get_ref();
        let id = t.id.get_ref().clone();
        if !is_word(&id) {
            cx.err(t.id.span(), "a team id must be one word of letters, digits and '-'");
        }
        if teams.iter().any(|x| x.id == id) {
            cx.err(t.id.span(), format!("team '{id}' is defined twice"));
        }
        let seat_name = t.seat.as_ref().map_or(id.clone(), |s| s.get_ref().clone());
        if let Some(s) = &t.seat
            && !is_word(s.get_ref())
        {
            cx.err(s.span(), "a seat name must be one word of letters, digits and '-'");
        }
        let seat = seat_of(&seat_name, &mut seats);
        teams.push(Team {
            name: t.name.clone().unwrap_or_else(|| id.clone()),
            id,
            seat,
            policy: t.policy.clone(),
            objective: None,
        });
    }
    if teams.len() < 2 {
        // Point at the team table there is, or at the end of the file where one would go.
        let at = raw.team.first().map_or(source.text.len(), |t| t.span().start);
        cx.err(
            at..at,
            format!(
                "an encounter needs at least two [[team]] tables ({} found)",
                teams.len()
            ),
        );
    }
    if let Some(t) = raw.team.get(MAX_TEAMS) {
        cx.err(t.span(), format!("at most {MAX_TEAMS} teams are supported"));
    }
    let team_index = |cx: &mut Ctx, s: &Spanned<String>, teams: &[Team]| -> Option<u8> {
        enc::index_of(cx, s, teams.iter().map(|t| t.id.as_str()), "team").map(|i| i as u8)
    };

    // Team order (ING-R2 to ING-R4) and surprise (ING-R14).
    let mut order: Vec<u8> = Vec::new();
    let mut surprise = None;
    let mut opening_raw = None;
    if let Some(ri) = &raw.initiative {
        let i = ri.get_ref();
        // Slot 1: the team that started the fight (ING-R2); slot 2: the team it attacked
        // (ING-R3); then the GM's order for the rest (ING-R4).
        for s in i.started_by.iter().chain(i.attacked.iter()).chain(i.then.iter()) {
            if let Some(t) = team_index(&mut cx, s, &teams) {
                if order.contains(&t) {
                    cx.err(
                        s.span(),
                        format!("team '{}' is listed twice in [initiative]", s.get_ref()),
                    );
                } else {
                    order.push(t);
                }
            }
        }
        if let Some(s) = &i.surprise {
            surprise = team_index(&mut cx, s, &teams);
        }
        opening_raw = i.opening.as_ref();
    }
    let listed = order.clone();
    // Teams the [initiative] table does not list follow in file order.
    for t in 0..teams.len() as u8 {
        if !order.contains(&t) {
            order.push(t);
        }
    }

    // Templates and combatants.
    // Typed ids match without regard to case, so ids may not differ only by case.
    let rules = RosterRules {
        limit: MAX_COMBATANTS,
        case_advice: "typed ids ignore case, so give it another id",
        id: |c: &CharInfo| c.id.as_str(),
        square: |c: &CharInfo| Some(c.at),
    };
    let (templates, chars) = enc::roster(
        &mut cx,
        &raw.template,
        &raw.combatant,
        &rules,
        |cx, rc, base, template| character(cx, rc, base, &map, &armoury, &teams, &mut seats, &options, template),
    );
    if raw.combatant.is_empty() {
        // Nothing to point at: the end of the file, where [[combatant]] tables would go.
        let end = source.text.len();
        cx.err(
            end..end,
            "an encounter needs at least one [[combatant]] table (none found in the file)",
        );
    }

    // A team with nobody in it that [initiative] does not list gets its slot when its first
    // member joins (ING-H22, the joining-teams option).
    order.retain(|t| listed.contains(t) || chars.iter().any(|c| c.team == *t));

    // Objectives, now that combatants are known.
    for (k, rt) in raw.team.iter().enumerate() {
        if let Some(o) = &rt.get_ref().objective
            && let Some(obj) = objective(&mut cx, o, &map, &chars)
            && let Some(t) = teams.get_mut(k)
        {
            t.objective = Some(obj);
        }
    }

    let opening = match opening_raw {
        None => None,
        Some(o) => match chars.iter().position(|c| &c.id == o.get_ref().who.get_ref()) {
            Some(i) => Some(Opening {
                who: i as Cid,
                action: o.get_ref().action.get_ref().clone(),
            }),
            None => {
                cx.err(
                    o.get_ref().who.span(),
                    format!(
                        "unknown combatant '{}'{}",
                        o.get_ref().who.get_ref(),
                        suggestion(o.get_ref().who.get_ref(), chars.iter().map(|c| c.id.as_str()))
                    ),
                );
                None
            }
        },
    };
    if let (Some(o), Some(raw_o)) = (&opening, opening_raw)
        && let Some(c) = chars.get(o.who as usize)
        && order.first() != Some(&c.team)
    {
        cx.err(
            raw_o.get_ref().who.span(),
            format!(
                "the opening action's character '{}' must be on the team that started the fight",
                c.id
            ),
        );
    }

    if !cx.errors.is_empty() {
        return Err(cx.errors);
    }
    let setup = Setup {
        title: raw.title.clone().unwrap_or_else(|| source.name.clone()),
        map,
        seats,
        teams,
        order,
        surprise,
        opening,
        chars,
        templates,
        armoury,
    };
    // What needs the whole encounter: the opening action must be one its character can take
    // at the start (ING-R69). Point at the action text.
    if let (Some(o), Some(raw_o)) = (&setup.opening, opening_raw) {
        match crate::Ingenuity::new_state_checked(&setup, &options) {
            Err(m) => cx.err(raw_o.get_ref().action.span(), m),
            Ok(state) => {
                if let Err(m) = crate::check::opening_action_ok(&state) {
                    cx.err(
                        raw_o.get_ref().action.span(),
                        format!(
                            "the opening action '{}' of {}: {m}",
                            o.action, setup.chars[o.who as usize].id
                        ),
                    );
                }
            }
        }
    }
    if !cx.errors.is_empty() {
        return Err(cx.errors);
    }
    Ok((setup, options))
}

/// The encounter's own `[[item]]` and `[[armour]]` tables, as an item file (same text, so line
/// numbers in errors point into the encounter).
fn inline_items(source: &SourceFile) -> SourceFile {
    // Keep only the item and armour tables: blank out every other line so offsets stay put.
    let mut out = String::with_capacity(source.text.len());
    let mut keep = false;
    for line in source.text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with('[') {
            keep = t.starts_with("[[item]]") || t.starts_with("[[armour]]");
        }
        if keep {
            out.push_str(line);
        } else {
            out.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        }
    }
    SourceFile {
        name: source.name.clone(),
        text: out,
    }
}

fn objective(cx: &mut Ctx, o: &Spanned<RawObjective>, map: &Grid, chars: &[CharInfo]) -> Option<Objective> {
    let r = o.get_ref();
    let squares: Vec<Pos> = r.squares.iter().filter_map(|s| pos(cx, s, map)).collect();
    let who = match &r.who {
        None => None,
        Some(w) => match chars.iter().position(|c| &c.id == w.get_ref()) {
            Some(i) => Some(i as Cid),
            None => {
                cx.err(
                    w.span(),
                    format!(
                        "unknown combatant '{}'{}",
                        w.get_ref(),
                        suggestion(w.get_ref(), chars.iter().map(|c| c.id.as_str()))
                    ),
                );
                return None;
            }
        },
    };
    match r.test.get_ref().as_str() {
        "reach" if !squares.is_empty() => Some(Objective::Reach { squares, who }),
        "reach" => {
            cx.err(r.test.span(), "a reach objective needs squares = [\"x,y\", ...]");
            None
        }
        "survive" => match r.rounds {
            Some(n) if n > 0 => Some(Objective::Survive { rounds: n }),
            _ => {
                cx.err(r.test.span(), "a survive objective needs rounds = N (N > 0)");
                None
            }
        },
        "down" => match who {
            Some(who) => Some(Objective::Down { who }),
            None => {
                cx.err(r.test.span(), "a down objective needs who = \"<combatant id>\"");
                None
            }
        },
        other => {
            cx.err(
                r.test.span(),
                format!("unknown objective test '{other}': expected reach, survive or down"),
            );
            None
        }
    }
}

fn die(cx: &mut Ctx, span: std::ops::Range<usize>, what: &str, v: u8) -> u8 {
    if matches!(v, 4 | 6 | 8 | 10 | 12) {
        v
    } else {
        cx.err(span, format!("{what} must be a die: 4, 6, 8, 10 or 12 (got {v})"));
        6
    }
}

#[allow(clippy::too_many_arguments)]
fn character(
    cx: &mut Ctx,
    raw: &Spanned<RawChar>,
    base: &RawChar,
    map: &Grid,
    armoury: &Armoury,
    teams: &[Team],
    seats: &mut Vec<String>,
    options: &Options,
    template: bool,
) -> Option<CharInfo> {
    let span = raw.span();
    let r = raw.get_ref().over(base);
    let errors_before = cx.errors.len();
    let id = enc::combatant_id(cx, r.id.as_ref(), span.clone(), template, "guard-1")?;
    if let Some(dead) = r.dead.as_ref().filter(|d| *d.get_ref()) {
        // A campaign writes it for a character that died: the dead do not come back (ING-R62
        // is the last chance a character gets).
        cx.err(
            dead.span(),
            format!("combatant '{id}' is dead (ING-R62): the dead do not fight again, and no rest brings them back"),
        );
        return None;
    }
    let team = match (&r.team, template) {
        (Some(s), _) => enc::index_of(cx, s, teams.iter().map(|x| x.id.as_str()), "team").map_or(0, |i| i as u8),
        (None, true) => 0,
        (None, false) => {
            cx.err(span.clone(), format!("combatant '{id}' needs team = \"<team id>\""));
            0
        }
    };
    let seat = match &r.seat {
        Some(s) => seat_of(s.get_ref(), seats),
        None => teams.get(team as usize).map_or(Seat::GM, |t| t.seat),
    };
    let at = match (&r.at, template) {
        (Some(p), _) => pos(cx, p, map).unwrap_or(Pos::new(0, 0)),
        (None, true) => Pos::new(0, 0),
        (None, false) => {
            cx.err(span.clone(), format!("combatant '{id}' needs a square: at = \"x,y\""));
            Pos::new(0, 0)
        }
    };
    let size = match &r.size {
        Some(s) if !(1..=12).contains(s.get_ref()) => {
            cx.err(s.span(), "size runs from 1 (miniscule) to 12 (titanic); medium is 4");
            4
        }
        Some(s) => *s.get_ref(),
        None => 4,
    };
    // Attributes default to d6 (average), skills to d4 (untrained).
    let mut attrs = [6u8; 4];
    if let Some(a) = &r.attributes {
        for (k, v) in a.get_ref() {
            match Attr::parse(k) {
                Some(x) => attrs[x as usize] = die(cx, a.span(), &format!("attribute {k}"), *v),
                None => cx.err(
                    a.span(),
                    format!("unknown attribute '{k}': expected str, dex, int or res"),
                ),
            }
        }
    }
    let mut skills = Vec::new();
    if let Some(s) = &r.skills {
        for (k, v) in s.get_ref() {
            skills.push((k.clone(), die(cx, s.span(), &format!("skill {k}"), *v)));
        }
    }
    let mut profs = Vec::new();
    if let Some(p) = &r.proficiencies {
        for (k, v) in p.get_ref() {
            if !(1..=4).contains(v) {
                cx.err(p.span(), format!("proficiency {k} must be +1 to +4 (got {v})"));
            }
            profs.push((k.clone(), *v));
        }
    }
    let talents: Vec<String> = r.talents.iter().flatten().map(|t| t.get_ref().clone()).collect();
    let has = |t: &str| talents.iter().any(|x| x == t);
    let [s, d, i, re] = attrs;
    let passive_skill = |name: &str| passive(skills.iter().find(|(n, _)| n == name).map_or(4, |(_, d)| *d));
    let prof = |name: &str| profs.iter().find(|(n, _)| n == name).map_or(0, |(_, b)| *b);
    let armour = match &r.armour {
        None => None,
        Some(a) => match armoury.find_armour(a.get_ref()) {
            Some(x) => Some(x),
            None => {
                cx.err(
                    a.span(),
                    format!(
                        "unknown armour '{}'{}",
                        a.get_ref(),
                        suggestion(a.get_ref(), armoury.armour.iter().map(|x| x.id.as_str()))
                    ),
                );
                None
            }
        },
    };
    let rating = armour.map_or(0, |a| armoury.armour[a].rating);
    let (constitution, evasion, willpower) = match options.defence_formula {
        DefenceFormula::Current => (
            passive(re) + passive(s) + prof("fortitude"),
            passive(re) + passive(d) + prof("dodge"),
            passive(re) + passive(i) + prof("resistance"),
        ),
        DefenceFormula::Older => (
            passive(s) + prof("fortitude"),
            passive(d) + prof("dodge"),
            passive(i) + prof("resistance"),
        ),
    };
    let stats = Stats {
        size,
        attrs,
        health: r.health.unwrap_or(6 + i16::from(s)),
        endurance: r
            .endurance
            .unwrap_or(6 + i16::from(re) + if has("toughness") { 4 } else { 0 }),
        stamina: r
            .stamina
            .unwrap_or(6 + i16::from(d) + if has("longevity") { 4 } else { 0 }),
        focus: r
            .focus
            .unwrap_or(6 + i16::from(i) + if has("mindfulness") { 4 } else { 0 }),
        constitution: r.constitution.unwrap_or(constitution),
        evasion: r.evasion.unwrap_or(evasion),
        willpower: r.willpower.unwrap_or(willpower),
        deflection: r.deflection.unwrap_or(passive(re) + rating),
        elemental_deflection: r.elemental_deflection.unwrap_or(passive(i) + rating),
        speed: r
            .speed
            .unwrap_or(size + passive(d) + passive_skill("agility") + prof("running")),
        luck_modifier: r.luck_modifier.unwrap_or(0),
        cannot_be_surprised: r.cannot_be_surprised.unwrap_or(has("danger-sense")),
        skills,
        profs,
    };
    for (what, v) in [
        ("health", stats.health),
        ("endurance", stats.endurance),
        ("stamina", stats.stamina),
        ("focus", stats.focus),
    ] {
        if v < 1 {
            cx.err(span.clone(), format!("maximum {what} must be at least 1"));
        }
    }
    for (what, v) in [
        ("health", stats.health),
        ("endurance", stats.endurance),
        ("stamina", stats.stamina),
        ("focus", stats.focus),
        ("constitution", stats.constitution),
        ("evasion", stats.evasion),
        ("willpower", stats.willpower),
        ("deflection", stats.deflection),
        ("elemental-deflection", stats.elemental_deflection),
        ("speed", stats.speed),
        ("luck-modifier", stats.luck_modifier),
        ("death-difficulty", r.death_difficulty.unwrap_or(0)),
    ] {
        if let Err(m) = within_limit(what, v) {
            cx.err(span.clone(), m);
        }
    }
    // Items.
    let item_ids = |list: &Option<Vec<Spanned<String>>>, cx: &mut Ctx| -> Vec<ItemId> {
        let mut v = Vec::new();
        for x in list.iter().flatten() {
            match armoury.find(x.get_ref()) {
                Some(i) => v.push(i),
                None => cx.err(
                    x.span(),
                    format!(
                        "unknown item '{}'{}",
                        x.get_ref(),
                        suggestion(x.get_ref(), armoury.items.iter().map(|i| i.id.as_str()))
                    ),
                ),
            }
        }
        v
    };
    let items = item_ids(&r.items, cx);
    let held = match &r.held {
        Some(_) => item_ids(&r.held, cx),
        // By default the first weapons that fit in two hands are in hand.
        None => {
            let mut hands = 0;
            let mut v = Vec::new();
            for &it in &items {
                let item = armoury.item(it);
                if item.weapon && hands + item.hands <= 2 && v.is_empty() {
                    hands += item.hands;
                    v.push(it);
                }
            }
            for &it in &items {
                let item = armoury.item(it);
                if !v.contains(&it) && !item.weapon && hands + item.hands <= 2 {
                    hands += item.hands;
                    v.push(it);
                }
            }
            v
        }
    };
    for h in &held {
        let carried = items.iter().filter(|i| *i == h).count();
        let in_hand = held.iter().filter(|i| *i == h).count();
        if in_hand > carried {
            cx.err(
                span.clone(),
                format!("'{}' is held more times than it is carried", armoury.item(*h).id),
            );
        }
    }
    let hands: u8 = held.iter().map(|h| armoury.item(*h).hands).sum();
    if hands > 2 {
        cx.err(span.clone(), "the held items need more than two hands");
    }
    let unloaded = item_ids(&r.unloaded, cx);
    let mut durability = Vec::new();
    if let Some(dm) = &r.durability {
        for (k, v) in dm.get_ref() {
            match armoury.find(k) {
                Some(it) if items.contains(&it) => {
                    if *v < 0 || *v > armoury.item(it).durability {
                        cx.err(
                            dm.span(),
                            format!("durability of '{k}' must be 0 to {}", armoury.item(it).durability),
                        );
                    }
                    durability.push((it, *v));
                }
                _ => cx.err(dm.span(), format!("'{k}' is not one of this combatant's items")),
            }
        }
    }
    let now = r.now.as_ref().map(|n| n.get_ref().clone()).unwrap_or_default();
    let start_of = |v: Option<i16>, max: i16| v.unwrap_or(max);
    let start = Start {
        health: start_of(now.health, stats.health),
        endurance: start_of(now.endurance, stats.endurance),
        stamina: start_of(now.stamina, stats.stamina),
        focus: start_of(now.focus, stats.focus),
        death_difficulty: r.death_difficulty.unwrap_or(options.death_difficulty),
        unconscious: r.unconscious.unwrap_or(false),
        conditions: {
            let mut bits = 0u16;
            for c in r.conditions.iter().flatten() {
                match Cond::parse(c.get_ref()) {
                    Some(x) => bits |= x.bit(),
                    None => cx.err(
                        c.span(),
                        format!(
                            "unknown condition '{}': expected {}",
                            c.get_ref(),
                            Cond::ALL.map(|c| c.name()).join(", ")
                        ),
                    ),
                }
            }
            bits
        },
        items,
        held,
        unloaded,
        durability,
    };
    if let Some(n) = &r.now {
        for (what, v, max) in [
            ("health", start.health, stats.health),
            ("endurance", start.endurance, stats.endurance),
            ("stamina", start.stamina, stats.stamina),
            ("focus", start.focus, stats.focus),
        ] {
            if !(0..=max).contains(&v) {
                cx.err(n.span(), format!("current {what} must be 0 to {max}"));
            }
        }
    }
    if cx.errors.len() > errors_before {
        return None;
    }
    Some(CharInfo {
        name: r.name.clone().unwrap_or_else(|| id.clone()),
        id,
        team,
        seat,
        at,
        stats,
        armour,
        talents,
        start,
    })
}

// ---------------------------------------------------------------------------------------------
// Validation of a setup that did not come from the loader (a record is untrusted input)
// ---------------------------------------------------------------------------------------------

fn within_limit(what: &str, v: i16) -> Result<(), String> {
    if (-NUMBER_LIMIT..=NUMBER_LIMIT).contains(&v) {
        Ok(())
    } else {
        Err(format!(
            "{what} is {v}; numbers run from -{NUMBER_LIMIT} to {NUMBER_LIMIT}"
        ))
    }
}

fn is_die(d: u8) -> bool {
    matches!(d, 4 | 6 | 8 | 10 | 12)
}

impl Setup {
    /// Checks everything the rules rely on, as strictly as [`load`] does: every index into the
    /// setup's own tables (teams, seats, items, armour, combatants), the team order, surprise,
    /// the opening action's character, squares on the map, dice, and numbers within
    /// [`NUMBER_LIMIT`]. A setup read from a record is untrusted: this is what keeps an edited
    /// record from reaching code that would index out of bounds.
    pub fn validate(&self) -> Result<(), String> {
        let seats = self.seats.len();
        if seats == 0 || self.seats[0] != "gm" || seats > usize::from(u8::MAX) {
            return Err("the seat list must start with 'gm' and have at most 255 seats".into());
        }
        if self.teams.len() < 2 || self.teams.len() > MAX_TEAMS {
            return Err(format!(
                "an encounter has 2 to {MAX_TEAMS} teams, not {}",
                self.teams.len()
            ));
        }
        for (k, t) in self.teams.iter().enumerate() {
            if usize::from(t.seat.0) >= seats {
                return Err(format!("team '{}' has seat {}, which does not exist", t.id, t.seat.0));
            }
            if self.teams[..k].iter().any(|o| o.id == t.id) {
                return Err(format!("team '{}' is defined twice", t.id));
            }
        }
        if self.chars.is_empty() {
            return Err("the encounter has no combatants".into());
        }
        if self.chars.len() > MAX_COMBATANTS {
            return Err(format!("at most {MAX_COMBATANTS} combatants are supported"));
        }
        let teams = self.teams.len();
        for (k, &t) in self.order.iter().enumerate() {
            if usize::from(t) >= teams {
                return Err(format!("the team order names team {t}, which does not exist"));
            }
            if self.order[..k].contains(&t) {
                return Err(format!(
                    "the team order lists team '{}' twice",
                    self.teams[usize::from(t)].id
                ));
            }
        }
        if let Some(t) = self.surprise
            && usize::from(t) >= teams
        {
            return Err(format!("surprise names team {t}, which does not exist"));
        }
        for (k, c) in self.chars.iter().enumerate() {
            self.validate_char(c, true)
                .map_err(|m| format!("combatant {} ('{}'): {m}", k + 1, c.id))?;
            if !self.order.contains(&c.team) {
                return Err(format!(
                    "combatant '{}' is on a team without a slot in the team order",
                    c.id
                ));
            }
            if let Some(o) = self.chars[..k].iter().find(|o| o.id.eq_ignore_ascii_case(&c.id)) {
                return Err(format!(
                    "combatant ids '{}' and '{}' are the same (ids ignore case)",
                    o.id, c.id
                ));
            }
            if self.chars[..k].iter().any(|o| o.at == c.at) {
                return Err(format!(
                    "combatant '{}' starts on {}, where another one stands",
                    c.id, c.at
                ));
            }
        }
        for (name, c) in &self.templates {
            self.validate_char(c, false)
                .map_err(|m| format!("template '{name}': {m}"))?;
        }
        for t in &self.teams {
            match &t.objective {
                None | Some(Objective::Survive { .. }) => {}
                Some(Objective::Down { who }) => {
                    if usize::from(*who) >= self.chars.len() {
                        return Err(format!(
                            "team '{}': its objective names combatant {who}, which does not exist",
                            t.id
                        ));
                    }
                }
                Some(Objective::Reach { squares, who }) => {
                    if who.is_some_and(|w| usize::from(w) >= self.chars.len()) {
                        return Err(format!(
                            "team '{}': its objective names a combatant that does not exist",
                            t.id
                        ));
                    }
                    if squares.is_empty() || squares.iter().any(|p| !self.map.contains(*p)) {
                        return Err(format!("team '{}': its objective's squares must be on the map", t.id));
                    }
                }
            }
        }
        if let Some(o) = &self.opening {
            let Some(c) = self.chars.get(usize::from(o.who)) else {
                return Err(format!(
                    "the opening action names combatant {}, which does not exist",
                    o.who
                ));
            };
            if self.order.first() != Some(&c.team) {
                return Err(format!(
                    "the opening action's character '{}' must be on the team that started the fight",
                    c.id
                ));
            }
        }
        for it in &self.armoury.items {
            let bad = |m: &str| Err(format!("item '{}': {m}", it.id));
            for (what, v) in [
                ("damage", it.damage),
                ("critical damage", it.critical_damage),
                ("range", it.range),
                ("durability", it.durability),
                ("parry", it.parry.unwrap_or(0)),
                ("block", it.block.unwrap_or(0)),
            ] {
                within_limit(what, v).map_err(|m| format!("item '{}': {m}", it.id))?;
            }
            if it.weapon && it.attributes.is_empty() {
                return bad("a weapon needs attributes");
            }
            if !(1..=40).contains(&it.critical_threshold) {
                return bad("critical threshold must be between 1 and 40");
            }
            if it.range < 1 {
                return bad("range must be at least 1");
            }
            if !(1..=2).contains(&it.hands) {
                return bad("hands must be 1 or 2");
            }
            if it.durability < 0 {
                return bad("durability cannot be negative");
            }
        }
        for a in &self.armoury.armour {
            within_limit("rating", a.rating).map_err(|m| format!("armour '{}': {m}", a.id))?;
        }
        Ok(())
    }

    /// One combatant or template: its team, seat, square, stats, items and starting state.
    fn validate_char(&self, c: &CharInfo, placed: bool) -> Result<(), String> {
        if !is_word(&c.id) && placed {
            return Err("an id must be one word of letters, digits and '-'".into());
        }
        if usize::from(c.team) >= self.teams.len() {
            return Err(format!("team {} does not exist", c.team));
        }
        if usize::from(c.seat.0) >= self.seats.len() {
            return Err(format!("seat {} does not exist", c.seat.0));
        }
        if placed && (!self.map.contains(c.at) || self.map.get(c.at).is_some_and(|x| x.blocked)) {
            return Err(format!("square {} is not an open square of the map", c.at));
        }
        let st = &c.stats;
        if !(1..=12).contains(&st.size) {
            return Err(format!("size {} is outside 1 to 12", st.size));
        }
        if st.attrs.iter().any(|d| !is_die(*d)) || st.skills.iter().any(|(_, d)| !is_die(*d)) {
            return Err("attribute and skill dice are d4, d6, d8, d10 or d12".into());
        }
        for (what, v) in [
            ("health", st.health),
            ("endurance", st.endurance),
            ("stamina", st.stamina),
            ("focus", st.focus),
        ] {
            if !(1..=NUMBER_LIMIT).contains(&v) {
                return Err(format!("maximum {what} is {v}; it runs from 1 to {NUMBER_LIMIT}"));
            }
        }
        for (what, v) in [
            ("constitution", st.constitution),
            ("evasion", st.evasion),
            ("willpower", st.willpower),
            ("deflection", st.deflection),
            ("elemental deflection", st.elemental_deflection),
            ("speed", st.speed),
            ("luck modifier", st.luck_modifier),
        ] {
            within_limit(what, v)?;
        }
        for (p, b) in &st.profs {
            within_limit(&format!("proficiency {p}"), *b)?;
        }
        if let Some(a) = c.armour
            && a >= self.armoury.armour.len()
        {
            return Err(format!("armour {a} does not exist"));
        }
        let s = &c.start;
        for (what, v, max) in [
            ("health", s.health, st.health),
            ("endurance", s.endurance, st.endurance),
            ("stamina", s.stamina, st.stamina),
            ("focus", s.focus, st.focus),
        ] {
            if !(0..=max).contains(&v) {
                return Err(format!("current {what} is {v}; it must be 0 to {max}"));
            }
        }
        within_limit("death difficulty", s.death_difficulty)?;
        let all_conds = Cond::ALL.iter().fold(0u16, |a, c| a | c.bit());
        if s.conditions & !all_conds != 0 {
            return Err("unknown condition bits".into());
        }
        let n = self.armoury.items.len();
        let known = |i: &ItemId| usize::from(*i) < n;
        if !s.items.iter().all(known) || !s.held.iter().all(known) || !s.unloaded.iter().all(known) {
            return Err(format!("an item index is not one of the {n} items"));
        }
        if s.items.len() > usize::from(u8::MAX) {
            return Err("at most 255 items per combatant".into());
        }
        for h in &s.held {
            let carried = s.items.iter().filter(|i| *i == h).count();
            let in_hand = s.held.iter().filter(|i| *i == h).count();
            if in_hand > carried {
                return Err(format!(
                    "'{}' is held more times than it is carried",
                    self.armoury.item(*h).id
                ));
            }
        }
        let hands: u16 = s.held.iter().map(|h| u16::from(self.armoury.item(*h).hands)).sum();
        if hands > 2 {
            return Err("the held items need more than two hands".into());
        }
        for (i, d) in &s.durability {
            if !known(i) || !s.items.contains(i) {
                return Err("a damaged item is not one of its items".into());
            }
            let max = self.armoury.item(*i).durability;
            if !(0..=max).contains(d) {
                return Err(format!(
                    "durability of '{}' must be 0 to {max}",
                    self.armoury.item(*i).id
                ));
            }
        }
        Ok(())
    }
}
