//! Encounter files: reading, validating and deriving stats.
//!
//! An encounter names the ruleset, overrides options, draws the map (rows of cells from north
//! to south), lists the sides (PC or NPC, and the seat that decides for each), optional stat
//! block templates, the combatants, and optional Win/Defeat conditions. Every problem is
//! reported with the file, line and column, and what was expected.
//!
//! PC stats are derived from attributes as the official sheet does (THR stats table); any
//! derived number can be overridden, and NPC stat blocks usually give their numbers directly.
//! Attributes are final values: a trait's +1 to an attribute is already in them.

use crate::ability::{AbilityBook, AbilityId, Art, Attr, Kind, build_book};
use crate::options::{Options, StartAreaTooSmall, ZeroTolerancePc};
use fray_engine::Seat;
use fray_engine::diag::{Diagnostic, SourceFile};
use fray_engine::encounter::{self as enc, Diags, GridMap, Overlay, RawPos, RosterRules, Spanned, is_word, seat_of};
use fray_engine::text::ReadFile;
use fray_space::{Grid, Pos};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Index of a combatant.
pub type Cid = u16;

/// Traits with rules of their own. Narrative traits that only raise an attribute are accepted
/// and kept by name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Traits {
    /// The Loomer: orthogonal neighbours are Difficult Terrain for enemies (2 = upgraded: the
    /// diagonal ones too) (THR-R75).
    pub loomer: u8,
    /// The Weaver: ignores the first movement-reducing effect each turn (2 = upgraded: all of
    /// them during its turn) (THR-R76).
    pub weaver: u8,
    /// The Quill: +1 on defence rolls against attackers 3 or more squares away (THR-R113).
    pub quill: bool,
    /// Long Reach: Range 1 abilities reach 2 (THR-R49).
    pub long_reach: bool,
    /// Every trait name, as written.
    pub names: Vec<String>,
}

/// A combatant's numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Level (PCs).
    pub level: i16,
    /// Tier (enemies).
    pub tier: i16,
    /// POW, END, FIN, REF, REA, FOC.
    pub attrs: [i16; 6],
    /// Training per Art.
    pub training: [i16; 9],
    /// Attack modifier per Art.
    pub arts: [i16; 9],
    /// A fixed attack modifier for every attack (enemy stat blocks), overriding the Arts.
    pub attack: Option<i16>,
    /// Initiative modifier.
    pub initiative: i16,
    /// Evasion modifier.
    pub evasion: i16,
    /// Resilience modifier (also the Incapacity Roll modifier).
    pub resilience: i16,
    /// Resolve modifier (also the Panic Roll modifier).
    pub resolve: i16,
    /// Maximum Fatigue Tolerance.
    pub max_ft: i16,
    /// Maximum Stress Tolerance.
    pub max_st: i16,
    /// Speed in squares.
    pub speed: i16,
}

impl Stats {
    /// An attribute.
    pub fn attr(&self, a: Attr) -> i16 {
        self.attrs[a as usize]
    }

    /// Training in an Art.
    pub fn training(&self, a: Art) -> i16 {
        self.training[a.index()]
    }
}

/// Who a combatant is, fixed for the combat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharInfo {
    /// The id typed in commands (`korrin`).
    pub id: String,
    /// The display name (`Korrin Vale`).
    pub name: String,
    /// Index of its side.
    pub side: u8,
    /// The seat that decides for it.
    pub seat: Seat,
    /// Its square after NPC Placement, or `None` for a PC who picks one in Round Zero.
    pub start: Option<Pos>,
    /// Its numbers.
    pub stats: Stats,
    /// Its own abilities (the basic ones come on top).
    pub abilities: Vec<AbilityId>,
    /// Its traits.
    pub traits: Traits,
    /// Fatigue Tolerance at the start of this combat (lost tolerance persists).
    pub ft: i16,
    /// Stress Tolerance at the start of this combat.
    pub st: i16,
    /// Wounds at the start of this combat.
    pub wounds: i16,
    /// Nova Potential carried in from earlier combats, per Nova ability (THR-R188).
    pub nova: Vec<(AbilityId, u8)>,
    /// For a Minion, its controller (THR-R222).
    pub minion_of: Option<Cid>,
    /// The abilities it can use ([`crate::legal::abilities_of`]) and its Passives with a
    /// trigger ([`Setup::triggered_passives`]), worked out on first use.
    #[serde(skip)]
    pub usable: Usable,
}

/// A combatant's usable abilities (the Basic Combat Abilities it may use and its own, in book
/// order), worked out the first time they are asked for, once per value of the
/// `coup-de-grace` option (the only option they depend on), and its Passives that have a
/// trigger. They follow from the book and the combatant's `abilities`, neither of which
/// changes once the combat is set up: never saved, and two are always equal.
#[derive(Clone, Debug, Default)]
pub struct Usable(
    pub(crate) [std::sync::OnceLock<Vec<AbilityId>>; 2],
    pub(crate) std::sync::OnceLock<Vec<AbilityId>>,
);

impl PartialEq for Usable {
    fn eq(&self, _: &Usable) -> bool {
        true
    }
}

impl Eq for Usable {}

/// A side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    /// The id used in the file.
    pub id: String,
    /// The display name.
    pub name: String,
    /// Whether its members are PCs.
    pub pc: bool,
    /// The seat that decides for its members (unless a member names its own).
    pub seat: Seat,
    /// The AI policy named in the file for simulations, if any.
    pub policy: Option<String>,
}

/// What a Win or Defeat condition tests (THR-H28).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Predicate {
    /// A PC (or the named one) stands on one of the squares.
    Reach {
        /// The squares.
        squares: Vec<Pos>,
        /// Only this combatant counts.
        who: Option<Cid>,
    },
    /// The given number of rounds have ended.
    Survive {
        /// Rounds.
        rounds: u16,
    },
    /// The named combatant is Incapacitated or removed.
    Down {
        /// Who.
        who: Cid,
    },
    /// At the end of this many rounds (not necessarily in a row), a PC stood on one of the
    /// squares.
    Hold {
        /// The squares.
        squares: Vec<Pos>,
        /// Rounds needed.
        rounds: u16,
    },
}

/// A Win or Defeat condition for the PCs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WinCondition {
    /// True: the PCs win when it holds; false: they lose.
    pub win: bool,
    /// The test.
    pub predicate: Predicate,
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
    /// The sides.
    pub sides: Vec<Side>,
    /// The combatants at the start.
    pub chars: Vec<CharInfo>,
    /// Stat blocks the GM may add mid-combat, by name.
    pub templates: BTreeMap<String, CharInfo>,
    /// Every ability.
    pub book: AbilityBook,
    /// Win and Defeat conditions.
    pub conditions: Vec<WinCondition>,
    /// What is worked out on first use from `map` and `book` (step prices, the Basic Combat
    /// Abilities, cover masks): never saved, and never part of a comparison.
    #[serde(skip)]
    pub steps: Steps,
}

impl Setup {
    /// The terrain price of every step of the map (built on first use).
    pub fn steps(&self) -> &fray_space::StepTable<crate::reach::StepCost> {
        self.steps
            .0
            .get_or_init(|| fray_space::StepTable::new(&self.map, crate::reach::terrain_step_cost))
    }

    /// The full price of every step of the map under the `extra-costs` option `extra` (built on
    /// first use, once per option value; see [`crate::reach::step_prices`]).
    pub fn prices(&self, extra: crate::options::ExtraCosts) -> &[[u16; 2]] {
        let slot = match extra {
            crate::options::ExtraCosts::AddUp => &self.steps.1[0],
            crate::options::ExtraCosts::Largest => &self.steps.1[1],
        };
        slot.get_or_init(|| crate::reach::step_prices(self.steps(), self.map.len(), extra))
    }

    /// The Passives of combatant `who` that have a trigger, in the order of its abilities
    /// (worked out once per combatant, in its [`Usable`], so asking which abilities may
    /// answer an attack does not look up each ability of each combatant every time).
    pub fn triggered_passives(&self, who: Cid) -> &[AbilityId] {
        let c = &self.chars[usize::from(who)];
        c.usable.1.get_or_init(|| {
            c.abilities
                .iter()
                .copied()
                .filter(|&id| {
                    let a = self.book.get(id);
                    a.kind == Kind::Passive && a.trigger.is_some()
                })
                .collect()
        })
    }

    /// The Basic Combat Abilities of the book, in book order (built on first use; the book does
    /// not change once the encounter is loaded).
    pub fn basics(&self) -> &[crate::ability::AbilityId] {
        self.steps.2.get_or_init(|| self.book.basics().collect())
    }

    /// The map's cover masks ([`crate::calc::CoverMasks`]) for the cover options of `s`: made
    /// for the options of the first state that asks (every combat of an encounter has the
    /// same), `None` for other options and for maps above
    /// [`crate::calc::COVER_MASKS_MAX_SQUARES`].
    pub fn cover_masks(&self, s: &crate::state::State) -> Option<&crate::calc::CoverMasks> {
        if self.map.len() > crate::calc::COVER_MASKS_MAX_SQUARES {
            return None;
        }
        let m = self.steps.3.get_or_init(|| {
            crate::calc::CoverMasks::new(
                self.map.len(),
                s.options.character_cover_height,
                s.options.cover_on_line,
            )
        });
        m.fits(s).then_some(m)
    }
}

/// A [`Setup`]'s step tables, built from its map the first time a search needs them, the
/// list of its book's Basic Combat Abilities and the map's cover masks. Two are always equal:
/// they follow from the map and the book, which are compared on their own.
#[derive(Clone, Debug, Default)]
pub struct Steps(
    std::sync::OnceLock<fray_space::StepTable<crate::reach::StepCost>>,
    [std::sync::OnceLock<Vec<[u16; 2]>>; 2],
    std::sync::OnceLock<Vec<crate::ability::AbilityId>>,
    std::sync::OnceLock<crate::calc::CoverMasks>,
);

impl PartialEq for Steps {
    fn eq(&self, _: &Steps) -> bool {
        true
    }
}

impl Eq for Steps {}

// ---------------------------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawEncounter {
    ruleset: Spanned<String>,
    title: Option<String>,
    #[serde(default)]
    ability_files: Vec<Spanned<String>>,
    options: Option<Spanned<toml::Table>>,
    map: Spanned<GridMap>,
    #[serde(default)]
    side: Vec<Spanned<RawSide>>,
    #[serde(default)]
    template: BTreeMap<String, Spanned<RawChar>>,
    #[serde(default)]
    combatant: Vec<Spanned<RawChar>>,
    #[serde(default)]
    condition: Vec<Spanned<RawCondition>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSide {
    id: Spanned<String>,
    name: Option<String>,
    kind: Spanned<String>,
    seat: Option<Spanned<String>>,
    policy: Option<String>,
}

#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawChar {
    id: Option<Spanned<String>>,
    name: Option<String>,
    template: Option<Spanned<String>>,
    side: Option<Spanned<String>>,
    seat: Option<Spanned<String>>,
    at: Option<Spanned<RawPos>>,
    level: Option<i16>,
    tier: Option<i16>,
    attributes: Option<Spanned<BTreeMap<String, i16>>>,
    training: Option<Spanned<BTreeMap<String, i16>>>,
    traits: Option<Vec<Spanned<String>>>,
    abilities: Option<Vec<Spanned<String>>>,
    attack: Option<i16>,
    initiative: Option<i16>,
    evasion: Option<i16>,
    resilience: Option<i16>,
    resolve: Option<i16>,
    speed: Option<i16>,
    max_fatigue_tolerance: Option<i16>,
    max_stress_tolerance: Option<i16>,
    fatigue_tolerance: Option<i16>,
    stress_tolerance: Option<i16>,
    wounds: Option<i16>,
    nova: Option<Spanned<BTreeMap<String, u8>>>,
}

// A combatant takes every field it leaves out from its template.
fray_engine::combatant_table!(RawChar {
    id,
    name,
    template,
    side,
    seat,
    at,
    level,
    tier,
    attributes,
    training,
    traits,
    abilities,
    attack,
    initiative,
    evasion,
    resilience,
    resolve,
    speed,
    max_fatigue_tolerance,
    max_stress_tolerance,
    fatigue_tolerance,
    stress_tolerance,
    wounds,
    nova
});

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCondition {
    kind: Spanned<String>,
    test: Spanned<String>,
    #[serde(default)]
    squares: Vec<Spanned<RawPos>>,
    who: Option<Spanned<String>>,
    rounds: Option<u16>,
}

type Ctx<'a> = Diags<'a>;

/// Reads the ruleset id of an encounter without validating the rest.
pub fn peek_ruleset(text: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Peek {
        ruleset: String,
    }
    toml::from_str::<Peek>(text).ok().map(|p| p.ruleset)
}

/// Loads and validates a Thrum encounter.
pub fn load(source: &SourceFile, read: &mut ReadFile<'_>) -> Result<(Setup, Options), Vec<Diagnostic>> {
    // Every problem of the file's shape at once; the checks below add theirs.
    let (raw, mut cx): (RawEncounter, Diags) = Diags::parse(source)?;
    if !enc::check_ruleset(&mut cx, &raw.ruleset, "thrum") {
        return Err(cx.errors);
    }
    let options = enc::options(&mut cx, raw.options.as_ref(), Options::validate);

    // Abilities: the built-in ones plus any files the encounter names.
    let mut extra = Vec::new();
    for f in &raw.ability_files {
        match read(f.get_ref()) {
            Ok(src) => extra.push(src),
            Err(m) => cx.err(f.span(), m),
        }
    }
    let book = match build_book(&extra) {
        Ok(b) => b,
        Err(mut e) => {
            cx.errors.append(&mut e);
            AbilityBook::default()
        }
    };

    // Map: a grid of squares (THR-R41), each with an integer elevation, 0 unless the cell
    // gives one (`.` is level 0, `+2`/`-1` higher or lower; THR-R61).
    let Some(map) = enc::grid(&mut cx, &raw.map) else {
        return Err(cx.errors);
    };

    // Seats and sides.
    let mut seats = vec!["gm".to_string()];
    let mut sides: Vec<Side> = Vec::new();
    for rs in &raw.side {
        let s = rs.get_ref();
        let id = s.id.get_ref().clone();
        if sides.iter().any(|x| x.id == id) {
            cx.err(s.id.span(), format!("side '{id}' is defined twice"));
        }
        let pc = match s.kind.get_ref().as_str() {
            "pc" => true,
            "npc" => false,
            other => {
                cx.err(
                    s.kind.span(),
                    format!("unknown side kind '{other}': expected \"pc\" or \"npc\""),
                );
                false
            }
        };
        let seat_name = s
            .seat
            .as_ref()
            .map_or(if pc { "players" } else { "gm" }, |x| x.get_ref().as_str());
        if !is_word(seat_name)
            && let Some(x) = &s.seat
        {
            cx.err(x.span(), "a seat name must be one word of letters, digits and '-'");
        }
        let seat = seat_of(seat_name, &mut seats);
        sides.push(Side {
            name: s.name.clone().unwrap_or_else(|| id.clone()),
            id,
            pc,
            seat,
            policy: s.policy.clone(),
        });
    }
    // Problems of the sides as a whole point at the side tables (or the top of the file).
    let first_side = raw.side.first().map_or(0..0, |x| x.span());
    if sides.len() < 2 {
        let at = raw.side.last().map_or(0..0, |x| x.span());
        cx.err(at, "an encounter needs at least two [[side]] tables");
    }
    if let Some(extra) = raw.side.get(16) {
        cx.err(extra.span(), "at most 16 sides are supported");
    }
    if !raw.side.is_empty() && (!sides.iter().any(|s| s.pc) || sides.iter().all(|s| s.pc)) {
        let kinds = raw.side.first().map_or(first_side, |x| x.get_ref().kind.span());
        cx.err(
            kinds,
            "Thrum needs at least one side of kind \"pc\" and one of kind \"npc\"",
        );
    }

    // Upgraded abilities (`id+a+b`) become records of their own before anyone uses them.
    let mut book = book;
    for rc in raw.template.values().chain(raw.combatant.iter()) {
        for ab in rc.get_ref().abilities.iter().flatten() {
            if ab.get_ref().contains('+')
                && let Err(m) = book.find_or_upgrade(ab.get_ref())
            {
                cx.err(ab.span(), m);
            }
        }
    }
    let book = book;

    // Templates and combatants. Typed ids match without regard to case (`State::find`), so ids
    // that differ only by case could never both be named: the second is refused at its id.
    let rules = RosterRules {
        limit: 64,
        case_advice: "ids are typed without regard to case, so pick another id",
        id: |c: &CharInfo| c.id.as_str(),
        square: |c: &CharInfo| c.start,
    };
    let (templates, chars) = enc::roster(
        &mut cx,
        &raw.template,
        &raw.combatant,
        &rules,
        |cx, rc, base, template| character(cx, rc, base, &map, &book, &sides, &mut seats, &options, template),
    );
    if raw.combatant.is_empty() {
        cx.err(
            0..0,
            "the encounter has no combatants: add at least one [[combatant]] table",
        );
    }

    // Round Zero: PCs without a square need room in the Starting Area (THR-R22, THR-R25).
    let start_squares: Vec<Pos> = map
        .positions()
        .filter(|p| map.get(*p).is_some_and(|c| c.start && !c.blocked))
        .filter(|p| !chars.iter().any(|c| c.start == Some(*p)))
        .collect();
    let unplaced = chars.iter().filter(|c| c.start.is_none()).count();
    if unplaced > start_squares.len() && options.start_area_too_small == StartAreaTooSmall::Error {
        cx.err(
            raw.map.span(),
            format!(
                "{unplaced} PCs must pick a starting square but the Starting Area (cells marked 's') has only {} empty squares: enlarge it, give the PCs an 'at' square, or set start-area-too-small = \"any-empty-square\"",
                start_squares.len()
            ),
        );
    }

    // Conditions (THR-H28).
    let mut conditions = Vec::new();
    for rc in &raw.condition {
        let c = rc.get_ref();
        let win = match c.kind.get_ref().as_str() {
            "win" => true,
            "defeat" => false,
            other => {
                cx.err(
                    c.kind.span(),
                    format!("unknown condition kind '{other}': expected \"win\" or \"defeat\""),
                );
                continue;
            }
        };
        let squares: Vec<Pos> = c.squares.iter().filter_map(|s| enc::square(&mut cx, s, &map)).collect();
        let who = match &c.who {
            None => None,
            Some(w) => match chars.iter().position(|x| &x.id == w.get_ref()) {
                Some(i) => Some(i as Cid),
                None => {
                    cx.err(w.span(), format!("unknown combatant '{}'", w.get_ref()));
                    continue;
                }
            },
        };
        let need_rounds = |cx: &mut Ctx| {
            c.rounds.filter(|r| *r > 0).or_else(|| {
                cx.err(c.test.span(), "this test needs rounds = N (N > 0)");
                None
            })
        };
        let predicate = match c.test.get_ref().as_str() {
            "reach" if !squares.is_empty() => Predicate::Reach { squares, who },
            "survive" => match need_rounds(&mut cx) {
                Some(rounds) => Predicate::Survive { rounds },
                None => continue,
            },
            "down" => match who {
                Some(who) => Predicate::Down { who },
                None => {
                    cx.err(c.test.span(), "a \"down\" test needs who = \"<combatant id>\"");
                    continue;
                }
            },
            "hold" if !squares.is_empty() => match need_rounds(&mut cx) {
                Some(rounds) => Predicate::Hold { squares, rounds },
                None => continue,
            },
            "reach" | "hold" => {
                cx.err(c.test.span(), "this test needs squares = [\"x,y\", ...]");
                continue;
            }
            other => {
                cx.err(
                    c.test.span(),
                    format!("unknown test '{other}': expected reach, survive, down or hold"),
                );
                continue;
            }
        };
        conditions.push(WinCondition { win, predicate });
    }

    if !cx.errors.is_empty() {
        return Err(cx.errors);
    }
    let title = raw.title.clone().unwrap_or_else(|| source.name.clone());
    Ok((
        Setup {
            title,
            map,
            seats,
            sides,
            chars,
            templates,
            book,
            conditions,
            steps: Steps::default(),
        },
        options,
    ))
}

#[allow(clippy::too_many_arguments)]
fn character(
    cx: &mut Ctx,
    raw: &Spanned<RawChar>,
    base: &RawChar,
    map: &Grid,
    book: &AbilityBook,
    sides: &[Side],
    seats: &mut Vec<String>,
    options: &Options,
    template: bool,
) -> Option<CharInfo> {
    let span = raw.span();
    let r = raw.get_ref().over(base);
    let errors_before = cx.errors.len();
    let id = enc::combatant_id(cx, r.id.as_ref(), span.clone(), template, "biffer-1")?;
    let side = match (&r.side, template) {
        (Some(s), _) => enc::index_of(cx, s, sides.iter().map(|x| x.id.as_str()), "side").map_or(0, |i| i as u8),
        (None, true) => 0,
        (None, false) => {
            cx.err(span.clone(), format!("combatant '{id}' needs a side"));
            0
        }
    };
    let seat = match &r.seat {
        Some(s) if is_word(s.get_ref()) => seat_of(s.get_ref(), seats),
        Some(s) => {
            cx.err(s.span(), "a seat name must be one word of letters, digits and '-'");
            Seat::GM
        }
        None => sides.get(side as usize).map_or(Seat::GM, |s| s.seat),
    };
    let pc = sides.get(side as usize).is_some_and(|s| s.pc);

    let mut attrs = [0i16; 6];
    if let Some(a) = &r.attributes {
        for (k, v) in a.get_ref() {
            match Attr::parse(k) {
                Some(at) => attrs[at as usize] = *v,
                None => cx.err(
                    a.span(),
                    format!("unknown attribute '{k}': expected pow, end, fin, ref, rea or foc"),
                ),
            }
        }
    }
    let mut training = [0i16; 9];
    if let Some(t) = &r.training {
        for (k, v) in t.get_ref() {
            match Art::parse(k) {
                Some(art) => training[art.index()] = *v,
                None => cx.err(t.span(), format!("unknown Art '{k}'")),
            }
        }
    }
    let mut traits = Traits::default();
    let mut ft_bonus = 0;
    let mut st_bonus = 0;
    let mut speed_bonus = 0;
    for t in r.traits.iter().flatten() {
        let name = t.get_ref().to_ascii_lowercase();
        match name.as_str() {
            "loomer" | "the-loomer" => traits.loomer = 1,
            "loomer+" | "the-loomer+" => traits.loomer = 2,
            "weaver" | "the-weaver" => traits.weaver = 1,
            "weaver+" | "the-weaver+" => traits.weaver = 2,
            "quill" | "the-quill" => traits.quill = true,
            "long-reach" => traits.long_reach = true,
            "indefatigable" => ft_bonus += 1,
            "composed" => st_bonus += 1,
            "fleet-footed" => speed_bonus += 1,
            "hero" | "the-hero" | "artist" | "the-artist" | "sage" | "the-sage" => {}
            _ => cx.err(
                t.span(),
                format!(
                    "unknown trait '{name}': expected loomer, loomer+, weaver, weaver+, quill, long-reach, indefatigable, composed, fleet-footed, hero, artist or sage"
                ),
            ),
        }
        traits.names.push(name);
    }
    let level = r.level.unwrap_or(if pc { 1 } else { 0 });
    let mut arts = [0i16; 9];
    for art in Art::ALL {
        let t = training[art.index()];
        if t > 0 {
            arts[art.index()] = (attrs[art.primary() as usize] + t).div_euclid(2) + (level + 4).div_euclid(4);
        }
    }
    let stats = Stats {
        level,
        tier: r.tier.unwrap_or(0),
        attrs,
        training,
        arts,
        attack: r.attack,
        initiative: r.initiative.unwrap_or(attrs[Attr::Ref as usize]),
        evasion: r.evasion.unwrap_or(attrs[Attr::Ref as usize]),
        resilience: r.resilience.unwrap_or(attrs[Attr::End as usize]),
        resolve: r.resolve.unwrap_or(attrs[Attr::Foc as usize]),
        max_ft: r
            .max_fatigue_tolerance
            .unwrap_or(3 + attrs[Attr::End as usize] + ft_bonus),
        max_st: r
            .max_stress_tolerance
            .unwrap_or(2 + attrs[Attr::Foc as usize] + st_bonus),
        speed: r.speed.unwrap_or(4 + speed_bonus),
    };
    // THR-R185: the current Tolerances saved from the last combat (full when not given).
    let ft = r.fatigue_tolerance.unwrap_or(stats.max_ft);
    let st = r.stress_tolerance.unwrap_or(stats.max_st);
    let all = [
        stats.level,
        stats.tier,
        stats.initiative,
        stats.evasion,
        stats.resilience,
        stats.resolve,
        stats.max_ft,
        stats.max_st,
        stats.speed,
        stats.attack.unwrap_or(0),
        ft,
        st,
    ];
    let lists = stats.attrs.iter().chain(&stats.training).chain(&stats.arts);
    if all.iter().chain(lists).any(|v| !(-STAT_LIMIT..=STAT_LIMIT).contains(v)) {
        cx.err(
            span.clone(),
            format!("every stat, attribute, training and tolerance must be within -{STAT_LIMIT}..={STAT_LIMIT}"),
        );
    }
    let wounds = r.wounds.unwrap_or(0);
    if !(0..=2).contains(&wounds) {
        cx.err(
            span.clone(),
            format!("wounds must be 0, 1 or 2 (3 Wounds means removed from combat), found {wounds}"),
        );
    }
    if ft < options.tolerance_floor || st < options.tolerance_floor {
        cx.err(span.clone(), "tolerances cannot start below the tolerance floor");
    } else if pc && !template && ft <= 0 && options.zero_tolerance_pc == ZeroTolerancePc::Barred {
        // THR-R186, THR-H24: a PC whose Fatigue Tolerance is down to 0 is barred from combat
        // until Downtime restores it (the same test End of Combat uses to bar it).
        cx.err(
            span.clone(),
            format!(
                "PC '{id}' has Fatigue Tolerance {ft} and is barred from combat until Downtime restores it (zero-tolerance-pc = \"barred\")"
            ),
        );
    }
    let mut abilities = Vec::new();
    for a in r.abilities.iter().flatten() {
        match book.find(a.get_ref()) {
            Some(i) if book.get(i).kind == Kind::FollowUp => cx.err(
                a.span(),
                format!(
                    "'{}' is a follow-up and comes with the ability that uses it",
                    a.get_ref()
                ),
            ),
            Some(i) if book.get(i).basic => {}
            Some(i) => abilities.push(i),
            // An upgraded id that could not be built was already reported, with the reason.
            None if a.get_ref().contains('+') => {}
            None => cx.err(
                a.span(),
                format!(
                    "unknown ability '{}'{}",
                    a.get_ref(),
                    fray_engine::diag::suggestion(a.get_ref(), book.abilities.iter().map(|x| x.id.as_str()))
                ),
            ),
        }
    }
    let mut nova = Vec::new();
    if let Some(n) = &r.nova {
        for (k, v) in n.get_ref() {
            match book.find(k) {
                Some(id) if book.get(id).nova.is_some() => {
                    let cap = book.get(id).nova.map_or(0, |x| x.cost);
                    nova.push((id, (*v).min(cap)));
                }
                Some(_) => cx.err(n.span(), format!("'{k}' is not a Nova ability")),
                None => cx.err(
                    n.span(),
                    format!(
                        "unknown ability '{k}'{}",
                        fray_engine::diag::suggestion(k, book.abilities.iter().map(|x| x.id.as_str()))
                    ),
                ),
            }
        }
    }
    for &id in &abilities {
        if book.get(id).nova.is_some() && !nova.iter().any(|(a, _)| *a == id) {
            nova.push((id, 0));
        }
    }
    let start = match &r.at {
        None => None,
        Some(p) => enc::square(cx, p, map).and_then(|p| {
            if map.get(p).is_some_and(|c| c.blocked) {
                cx.err(raw.span(), format!("square {p} is blocked"));
                None
            } else {
                Some(p)
            }
        }),
    };
    // THR-R2: NPC Placement: every NPC's square is an input, fixed before Initiative.
    if !template && start.is_none() && r.at.is_none() && !pc {
        cx.err(span, format!("NPC '{id}' needs a square: at = \"x,y\" (NPC Placement)"));
    }
    if cx.errors.len() > errors_before {
        return None;
    }
    Some(CharInfo {
        name: r.name.clone().unwrap_or_else(|| id.clone()),
        id,
        side,
        seat,
        start,
        stats,
        abilities,
        traits,
        ft,
        st,
        wounds,
        nova,
        minion_of: None,
        usable: Usable::default(),
    })
}

// ---------------------------------------------------------------------------------------------
// Validating a Setup that did not come from `load` (a record is untrusted input)
// ---------------------------------------------------------------------------------------------

/// The largest size (in absolute value) of a stat, tolerance or ability amount a setup may
/// hold: far beyond any real stat block, and small enough that sums of a few of them never
/// leave 16 bits.
pub const STAT_LIMIT: i16 = 1000;

/// Checks a [`Setup`] and [`Options`] as strictly as [`load`] does, for setups that come from
/// elsewhere (a record's embedded setup, edited or not): every index points into its own
/// table, every square is on the map, every per-combatant list has its size, and every number
/// is in range. The error says what is wrong.
pub fn validate(setup: &Setup, options: &Options) -> Result<(), String> {
    options.validate()?;
    let map = &setup.map;
    let book = &setup.book;
    let n_abilities = book.abilities.len();
    if n_abilities > AbilityId::MAX as usize {
        return Err(format!(
            "the setup has {n_abilities} abilities; at most {} are supported",
            AbilityId::MAX
        ));
    }
    for (i, a) in book.abilities.iter().enumerate() {
        crate::ability::validate_ability(a, n_abilities).map_err(|m| format!("ability {i} ('{}'): {m}", a.id))?;
    }
    if setup.seats.is_empty() || setup.seats[0] != "gm" {
        return Err("the setup's first seat must be 'gm'".into());
    }
    if setup.seats.len() > u8::MAX as usize {
        return Err("the setup has too many seats".into());
    }
    for s in &setup.seats {
        if !is_word(s) {
            return Err(format!("seat name '{s}' is not one word of letters, digits and '-'"));
        }
    }
    for (i, s) in setup.seats.iter().enumerate() {
        if setup.seats[..i].contains(s) {
            return Err(format!("seat '{s}' is listed twice"));
        }
    }
    let n_seats = setup.seats.len();
    if setup.sides.len() < 2 || setup.sides.len() > 16 {
        return Err(format!(
            "the setup has {} sides; Thrum needs 2 to 16",
            setup.sides.len()
        ));
    }
    if !setup.sides.iter().any(|s| s.pc) || setup.sides.iter().all(|s| s.pc) {
        return Err("Thrum needs at least one PC side and one NPC side".into());
    }
    for (i, s) in setup.sides.iter().enumerate() {
        if s.seat.0 as usize >= n_seats {
            return Err(format!(
                "side {i} ('{}') names seat {}, but there are {n_seats} seats",
                s.id, s.seat.0
            ));
        }
        if setup.sides[..i].iter().any(|o| o.id == s.id) {
            return Err(format!("side '{}' is listed twice", s.id));
        }
    }
    if setup.chars.is_empty() {
        return Err("the encounter has no combatants".into());
    }
    if setup.chars.len() > 64 {
        return Err(format!(
            "the setup has {} combatants; at most 64 are supported",
            setup.chars.len()
        ));
    }
    let n_chars = setup.chars.len();
    let check_char = |c: &CharInfo, what: &str, template: bool| -> Result<(), String> {
        if !template && !is_word(&c.id) {
            return Err(format!(
                "{what}: id '{}' is not one word of letters, digits and '-'",
                c.id
            ));
        }
        if c.side as usize >= setup.sides.len() {
            return Err(format!(
                "{what}: side {} does not exist ({} sides)",
                c.side,
                setup.sides.len()
            ));
        }
        if c.seat.0 as usize >= n_seats {
            return Err(format!("{what}: seat {} does not exist ({n_seats} seats)", c.seat.0));
        }
        if let Some(p) = c.start {
            match map.get(p) {
                None => return Err(format!("{what}: square {p} is outside the map")),
                Some(cell) if cell.blocked => return Err(format!("{what}: square {p} is blocked")),
                Some(_) => {}
            }
        } else if !template && !setup.sides[c.side as usize].pc {
            return Err(format!("{what}: an NPC needs a square"));
        }
        let st = &c.stats;
        let stats = [
            ("level", st.level),
            ("tier", st.tier),
            ("initiative", st.initiative),
            ("evasion", st.evasion),
            ("resilience", st.resilience),
            ("resolve", st.resolve),
            ("maximum fatigue tolerance", st.max_ft),
            ("maximum stress tolerance", st.max_st),
            ("speed", st.speed),
            ("attack", st.attack.unwrap_or(0)),
            ("fatigue tolerance", c.ft),
            ("stress tolerance", c.st),
        ];
        let lists = st.attrs.iter().chain(&st.training).chain(&st.arts);
        for (name, v) in stats
            .into_iter()
            .chain(lists.map(|v| ("attribute, training or Art", *v)))
        {
            if !(-STAT_LIMIT..=STAT_LIMIT).contains(&v) {
                return Err(format!("{what}: {name} {v} is outside -{STAT_LIMIT}..={STAT_LIMIT}"));
            }
        }
        if !(0..=2).contains(&c.wounds) {
            return Err(format!("{what}: wounds must be 0, 1 or 2, found {}", c.wounds));
        }
        if c.ft < options.tolerance_floor || c.st < options.tolerance_floor {
            return Err(format!("{what}: tolerances cannot start below the tolerance floor"));
        }
        for &a in &c.abilities {
            let Some(ab) = book.abilities.get(a as usize) else {
                return Err(format!("{what}: ability {a} does not exist ({n_abilities} abilities)"));
            };
            if ab.kind == Kind::FollowUp {
                return Err(format!("{what}: '{}' is a follow-up and cannot be listed", ab.id));
            }
        }
        for (k, (a, p)) in c.nova.iter().enumerate() {
            let Some(ab) = book.abilities.get(*a as usize) else {
                return Err(format!(
                    "{what}: Nova ability {a} does not exist ({n_abilities} abilities)"
                ));
            };
            let Some(nv) = ab.nova else {
                return Err(format!("{what}: '{}' is not a Nova ability", ab.id));
            };
            if *p > nv.cost {
                return Err(format!(
                    "{what}: Potential {p} for '{}' is above its Cost {}",
                    ab.id, nv.cost
                ));
            }
            if c.nova[..k].iter().any(|(b, _)| b == a) {
                return Err(format!("{what}: Nova ability '{}' is listed twice", ab.id));
            }
        }
        if c.minion_of.is_some() {
            return Err(format!("{what}: Minions are created in play, not listed in a setup"));
        }
        Ok(())
    };
    for (i, c) in setup.chars.iter().enumerate() {
        let what = format!("combatant {i} ('{}')", c.id);
        check_char(c, &what, false)?;
        if let Some(o) = setup.chars[..i].iter().find(|o| o.id.eq_ignore_ascii_case(&c.id)) {
            return Err(format!(
                "{what}: id '{}' is taken by '{}' (ids are typed without regard to case)",
                c.id, o.id
            ));
        }
        if let Some(p) = c.start
            && setup.chars[..i].iter().any(|o| o.start == Some(p))
        {
            return Err(format!("{what}: square {p} already holds another combatant"));
        }
    }
    for (name, c) in &setup.templates {
        check_char(c, &format!("template '{name}'"), true)?;
    }
    let unplaced = setup.chars.iter().filter(|c| c.start.is_none()).count();
    if unplaced > 0 && options.start_area_too_small == StartAreaTooSmall::Error {
        let room = map
            .positions()
            .filter(|p| map.get(*p).is_some_and(|c| c.start && !c.blocked))
            .filter(|p| !setup.chars.iter().any(|c| c.start == Some(*p)))
            .count();
        if unplaced > room {
            return Err(format!(
                "{unplaced} PCs must pick a starting square but the Starting Area has only {room} empty squares"
            ));
        }
    }
    for (i, c) in setup.conditions.iter().enumerate() {
        let what = format!("condition {i}");
        let squares_ok = |sq: &[Pos]| -> Result<(), String> {
            if sq.is_empty() {
                return Err(format!("{what} needs squares"));
            }
            match sq.iter().find(|p| !map.contains(**p)) {
                Some(p) => Err(format!("{what}: square {p} is outside the map")),
                None => Ok(()),
            }
        };
        match &c.predicate {
            Predicate::Reach { squares, who } => {
                squares_ok(squares)?;
                if who.is_some_and(|w| w as usize >= n_chars) {
                    return Err(format!("{what}: no such combatant"));
                }
            }
            Predicate::Survive { rounds } if *rounds == 0 => return Err(format!("{what} needs rounds > 0")),
            Predicate::Survive { .. } => {}
            Predicate::Down { who } if *who as usize >= n_chars => return Err(format!("{what}: no such combatant")),
            Predicate::Down { .. } => {}
            Predicate::Hold { squares, rounds } => {
                squares_ok(squares)?;
                if *rounds == 0 {
                    return Err(format!("{what} needs rounds > 0"));
                }
            }
        }
    }
    Ok(())
}
