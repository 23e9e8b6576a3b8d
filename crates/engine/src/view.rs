//! What a seat is shown, in one shape for every ruleset, and [`Lens`].
//!
//! [`SeatView`] is the view a client is sent (`state` and `--json` of `fray play`, the saved
//! games, Tab completion, the browser table): the same core for every ruleset (the round and
//! phase, the turn order, each combatant with its id, name, side, seat, place, gauges and
//! statuses, who is deciding what, the outcome) and the ruleset's own view under `extra`. A
//! ruleset gives the core's ruleset-specific part as a [`Table`]
//! ([`crate::text::TextRuleset::table`]); the engine adds the rest. Its JSON form is described
//! by `docs/view.schema.json`, which a test checks every example's views against.
//!
//! [`Lens`]: a ready-made [`crate::Ruleset::View`] for games whose AIs may read the whole state.

use crate::Seat;
use serde::{Deserialize, Serialize, Serializer};
use std::borrow::Cow;

/// What a seat may see of a combat, in the shape shared by every ruleset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct SeatView {
    /// The ruleset's id.
    pub ruleset: String,
    /// The name of the seat whose view this is.
    pub seat: String,
    /// The round (0 before the first one begins).
    pub round: u32,
    /// The part of the round now, in the ruleset's words (`declare`, `fast`, `swaps`), if the
    /// ruleset divides its rounds.
    pub phase: Option<String>,
    /// Who acts in what order this round: combatant ids, or side ids where sides take turns.
    pub order: Vec<String>,
    /// Every combatant, in the encounter's order (the ones added by the GM after them).
    pub combatants: Vec<CombatantView>,
    /// Who is deciding what, while the combat goes on.
    pub deciding: Option<Deciding>,
    /// How the combat ended, once it has.
    pub outcome: Option<OutcomeView>,
    /// The ruleset's own view (its own names and values), as the seat may see it.
    pub extra: serde_json::Value,
}

/// One combatant as a seat sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct CombatantView {
    /// Its id in the encounter (what commands and events name it by).
    pub id: String,
    /// Its name in logs.
    pub name: String,
    /// The id of its side.
    pub side: String,
    /// The name of the seat that decides for it.
    pub seat: String,
    /// Where it is, when the seat may know.
    pub place: Option<Place>,
    /// Its numbers with a value and, where there is one, a maximum (health, stress, mana).
    pub gauges: Vec<Gauge>,
    /// Its statuses (conditions, stances, marks), with a value where they have one.
    pub statuses: Vec<Status>,
    /// Whether it is out of the fight (down, fled, removed, dead).
    pub out: bool,
}

/// Where a combatant is: a square of a grid, a zone, or the border of two zones. In JSON,
/// `{"kind": "square", "x": 3, "y": 1, "elevation": null}`, `{"kind": "zone", "zone": "ford"}`
/// or `{"kind": "border", "zones": ["yard", "mill"]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Place {
    /// A square, in the coordinates commands write it in; with its elevation where the map
    /// has elevations.
    Square {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// Elevation, on maps with elevations.
        elevation: Option<i32>,
    },
    /// A zone, by its id.
    Zone {
        /// The zone's id.
        zone: String,
    },
    /// The border between two linked zones (Murdham's), by their ids.
    Border {
        /// The two zones' ids.
        zones: [String; 2],
    },
}

impl Place {
    /// A square of a map without elevations.
    pub fn square(x: i16, y: i16) -> Place {
        Place::Square {
            x: i32::from(x),
            y: i32::from(y),
            elevation: None,
        }
    }
}

impl Gauge {
    /// A gauge with a maximum.
    pub fn of(name: &str, value: impl Into<i64>, max: impl Into<i64>) -> Gauge {
        Gauge {
            name: name.to_string(),
            value: value.into(),
            max: Some(max.into()),
        }
    }

    /// A gauge without a maximum (a count).
    pub fn count(name: &str, value: impl Into<i64>) -> Gauge {
        Gauge {
            name: name.to_string(),
            value: value.into(),
            max: None,
        }
    }
}

impl Status {
    /// A status that is simply on, until something ends it.
    pub fn on(name: &str) -> Status {
        Status {
            name: name.to_string(),
            value: None,
            ends: None,
        }
    }
}

/// A number with a value and maybe a maximum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Gauge {
    /// Its name (kebab-case, the ruleset's word: `health`, `fatigue`, `wound-points`).
    pub name: String,
    /// The value now.
    pub value: i64,
    /// The most it can be, if there is a most.
    pub max: Option<i64>,
}

/// A status on a combatant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Status {
    /// Its name (kebab-case, the ruleset's word: `prone`, `hidden`, `bleeding`).
    pub name: String,
    /// Its value, for a status that has one (a level, a count, a target).
    pub value: Option<String>,
    /// When it ends, in words (`end of its next turn`), if it ends by itself.
    pub ends: Option<String>,
}

/// Who is deciding now, and what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Deciding {
    /// The seats that may answer now, by name.
    pub seats: Vec<String>,
    /// The kind of decision ([`crate::Pending::kind`]).
    pub kind: String,
    /// The id of the combatant the decision is about, if any.
    pub actor: Option<String>,
    /// The decision in words, as the seat may know it
    /// ([`crate::text::TextRuleset::describe_pending_for`]).
    pub text: String,
}

/// How a combat ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct OutcomeView {
    /// The winning side's id; none for a draw or a GM stop without a winner.
    pub winner: Option<String>,
    /// The reason code ([`crate::Outcome::reason`]).
    pub reason: String,
}

/// The battlefield as a seat may see it ([`crate::text::TextRuleset::board`]): what a player
/// at the table sees on the physical map, never where a combatant stands (that is each
/// combatant's [`Place`] in the [`SeatView`]). In JSON, `{"kind": "grid", "cells": [...],
/// "areas": [...]}` or `{"kind": "zones", "zones": [...], "links": [...]}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Board {
    /// A map of squares.
    Grid {
        /// Every square of the map, in the order of [`fray_space::Grid::positions`] (`y`, then
        /// `x`, ascending).
        cells: Vec<Cell>,
        /// What is laid on the map and changes during the fight (a Terrain Effect, an item on
        /// the ground).
        areas: Vec<AreaView>,
    },
    /// A map of zones and the links between them.
    Zones {
        /// Every zone, in the map's order.
        zones: Vec<ZoneView>,
        /// Every link, in the map's order.
        links: Vec<LinkView>,
    },
}

/// One square of a [`Board::Grid`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Cell {
    /// Column, as commands write it (the `x` of [`Place::Square`]).
    pub x: i32,
    /// Row, as commands write it.
    pub y: i32,
    /// Its elevation, on maps with elevations (as in [`Place::Square`]).
    pub elevation: Option<i32>,
    /// Its terrain, in the ruleset's kebab-case words (`blocked`, `difficult`, `start`): the
    /// facts of the square the ruleset reads; empty for open ground.
    pub terrain: Vec<String>,
}

/// Something laid on the squares of a [`Board::Grid`] for a while: a Terrain Effect, an
/// Aura, an item lying on the ground.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct AreaView {
    /// Its name, as logs write it.
    pub name: String,
    /// The squares it covers now, as `[x, y]` (empty where the seat may not know them).
    pub squares: Vec<[i32; 2]>,
    /// The id of the combatant that laid it, when there is one and the seat may know it.
    pub by: Option<String>,
    /// What it is and does, in the ruleset's kebab-case words (`terrain-effect`, `aura`,
    /// `difficult`, `item`).
    pub tags: Vec<String>,
}

/// One zone of a [`Board::Zones`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct ZoneView {
    /// Its id (what commands and [`Place::Zone`] name it by).
    pub id: String,
    /// Its name (the id when it has none).
    pub name: String,
    /// How many cover spots it has (0: none).
    pub cover: u32,
    /// Its facts in kebab-case: `cover` (with spots), `exit`, then its own tags and what is
    /// in force there now, in the ruleset's words (`dark`, `hazard-4`).
    pub tags: Vec<String>,
    /// What lies in it (a dropped weapon), by name.
    pub items: Vec<String>,
}

/// One link between two zones of a [`Board::Zones`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct LinkView {
    /// The ids of its two zones, in the map's order.
    pub zones: [String; 2],
    /// The obstacle on it, by its label (`rubble`), if any.
    pub label: Option<String>,
    /// Its facts in the ruleset's kebab-case words (`obstacle`, `cleared`, `border`).
    pub tags: Vec<String>,
    /// What lies on it (on Murdham's border), by name.
    pub items: Vec<String>,
}

impl Board {
    /// A grid board of `grid`'s squares and no areas: each square with its elevation where
    /// `elevation` (the ruleset's map has elevations), and the terrain words `terrain` gives.
    pub fn grid(
        grid: &fray_space::Grid,
        elevation: bool,
        mut terrain: impl FnMut(&fray_space::Cell) -> Vec<String>,
    ) -> Board {
        let cells = grid
            .positions()
            .filter_map(|p| {
                let c = grid.get(p)?;
                Some(Cell {
                    x: i32::from(p.x),
                    y: i32::from(p.y),
                    elevation: elevation.then_some(i32::from(c.elevation)),
                    terrain: terrain(c),
                })
            })
            .collect();
        Board::Grid {
            cells,
            areas: Vec::new(),
        }
    }

    /// A zone board of `map`: each zone with its name, cover, `exit` and tags
    /// ([`ZoneView::of`]), each link with its obstacle ([`LinkView::of`]), nothing lying
    /// anywhere. The ruleset adds what it knows besides.
    pub fn zones(map: &fray_space::ZoneMap) -> Board {
        Board::Zones {
            zones: map.zones().iter().map(ZoneView::of).collect(),
            links: map.links().iter().map(|l| LinkView::of(map, l)).collect(),
        }
    }
}

/// The terrain words of a square with the facts [`fray_space::Cell`] has: `blocked`,
/// `difficult`, `start` (the starting area), in that order, those that hold.
pub fn terrain_words(c: &fray_space::Cell) -> Vec<String> {
    [(c.blocked, "blocked"), (c.difficult, "difficult"), (c.start, "start")]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, w)| w.to_string())
        .collect()
}

impl ZoneView {
    /// A zone as the map gives it: id, name, cover, then tags `cover` (with cover spots),
    /// `exit` and the zone's own tags, kebab-cased, each once.
    pub fn of(z: &fray_space::Zone) -> ZoneView {
        let mut v = ZoneView {
            id: z.id.clone(),
            name: z.display_name().to_string(),
            cover: u32::from(z.cover),
            tags: Vec::new(),
            items: Vec::new(),
        };
        if z.cover > 0 {
            v.tag("cover");
        }
        if z.exit {
            v.tag("exit");
        }
        for t in &z.tags {
            v.tag(t);
        }
        v
    }

    /// Adds a tag (kebab-cased), unless the zone has it already.
    pub fn tag(&mut self, tag: &str) {
        push_tag(&mut self.tags, tag);
    }
}

impl LinkView {
    /// A link of `map` as the map gives it: its zones' ids, its obstacle as the label and the
    /// tag `obstacle`.
    pub fn of(map: &fray_space::ZoneMap, l: &fray_space::Link) -> LinkView {
        LinkView {
            zones: [map.id(l.a).to_string(), map.id(l.b).to_string()],
            label: l.obstacle.clone(),
            tags: l.obstacle.iter().map(|_| "obstacle".to_string()).collect(),
            items: Vec::new(),
        }
    }

    /// Adds a tag (kebab-cased), unless the link has it already.
    pub fn tag(&mut self, tag: &str) {
        push_tag(&mut self.tags, tag);
    }
}

fn push_tag(tags: &mut Vec<String>, tag: &str) {
    let tag = kebab(tag);
    if !tag.is_empty() && !tags.contains(&tag) {
        tags.push(tag);
    }
}

/// The part of a [`SeatView`] a ruleset gives ([`crate::text::TextRuleset::table`]); the
/// engine adds the seat, the decision, the outcome and the ruleset's own view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The round.
    pub round: u32,
    /// The part of the round, if the ruleset divides rounds.
    pub phase: Option<String>,
    /// Who acts in what order: combatant or side ids.
    pub order: Vec<String>,
    /// Every combatant, by the ruleset's own index (a pending decision's `actor` is an index
    /// into this list), as the seat may see them.
    pub combatants: Vec<CombatantView>,
    /// Side ids, by the ruleset's side index (an outcome's `winner` is an index into this).
    pub sides: Vec<String>,
    /// The combatants (by index) the seat may not know are in the fight at all (Murdham's
    /// concealed enemies): their entries keep the indices in line and are left out of the
    /// seat's view.
    pub unseen: Vec<u16>,
}

/// An event in the JSON shape shared by every ruleset: `{"event": "<kebab-case name>", ...}`
/// with the event's own fields beside the name (a field that is not a table goes under
/// `value`), every key at every depth in snake_case, and every field named in `combatant_fields` (at any depth) that holds a
/// combatant's index, or a list of them, holding its id instead (`id` gives the id of an
/// index; an index it does not know stays a number).
pub fn event_json(
    event: serde_json::Value,
    combatant_fields: &[&str],
    id: &dyn Fn(u64) -> Option<String>,
) -> serde_json::Value {
    use serde_json::{Map, Value};
    let (name, body) = match event {
        Value::String(name) => (name, Value::Null),
        Value::Object(map) if map.len() == 1 => match map.into_iter().next() {
            Some((name, body)) => (name, body),
            None => (String::new(), Value::Null),
        },
        other => (String::new(), other),
    };
    let mut out = Map::new();
    out.insert(
        "event".into(),
        Value::String(kebab(if name.is_empty() { "event" } else { &name })),
    );
    match body {
        Value::Object(fields) => out.extend(fields),
        Value::Null => {}
        other => {
            out.insert("value".into(), other);
        }
    }
    let mut v = Value::Object(out);
    snake_keys(&mut v);
    name_ids(&mut v, combatant_fields, id);
    v
}

/// Renames every key of every table, at any depth, to snake_case (`Push` → `push`,
/// `InjuryType` → `injury_type`), so nested enum variants read like the rest.
fn snake_keys(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::Object(map) => {
            if map.keys().any(|k| kebab(k).replace('-', "_") != *k) {
                let old = std::mem::take(map);
                for (k, mut x) in old {
                    snake_keys(&mut x);
                    map.insert(kebab(&k).replace('-', "_"), x);
                }
            } else {
                map.values_mut().for_each(snake_keys);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(snake_keys),
        _ => {}
    }
}

/// Replaces the indices under `fields` of an event's JSON with the ids `id` gives, at any
/// depth. An entry `field` applies in every event, `event/field` only in that event, and
/// `!event/field` keeps `field` of that event a number (where the ruleset uses the name for
/// something else).
pub fn name_ids(v: &mut serde_json::Value, fields: &[&str], id: &dyn Fn(u64) -> Option<String>) {
    let event = v.get("event").and_then(|e| e.as_str()).unwrap_or("").to_string();
    let is_combatant = |key: &str| {
        let scoped = |f: &&str| f.split_once('/').is_some_and(|(e, k)| e == event && k == key);
        let excluded = fields.iter().filter_map(|f| f.strip_prefix('!')).any(|f| scoped(&f));
        !excluded && fields.iter().any(|f| *f == key || scoped(f))
    };
    swap_ids(v, &is_combatant, id);
}

fn swap_ids(v: &mut serde_json::Value, is_combatant: &dyn Fn(&str) -> bool, id: &dyn Fn(u64) -> Option<String>) {
    use serde_json::Value;
    let swap = |x: &mut Value| {
        if let Some(s) = x.as_u64().and_then(id) {
            *x = Value::String(s);
        }
    };
    match v {
        Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                if is_combatant(k) {
                    match x {
                        Value::Array(items) if items.iter().all(Value::is_u64) => items.iter_mut().for_each(swap),
                        Value::Number(_) => swap(x),
                        _ => swap_ids(x, is_combatant, id),
                    }
                } else {
                    swap_ids(x, is_combatant, id);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| swap_ids(x, is_combatant, id)),
        _ => {}
    }
}

/// `InitiativeRolled`, `initiative_rolled` and `initiative-rolled` all become
/// `initiative-rolled`.
pub fn kebab(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for ch in name.chars() {
        if ch == '_' || ch == '-' || ch == ' ' {
            if !out.ends_with('-') && !out.is_empty() {
                out.push('-');
            }
            prev_lower = false;
        } else if ch.is_uppercase() {
            if prev_lower && !out.ends_with('-') {
                out.push('-');
            }
            out.extend(ch.to_lowercase());
            prev_lower = false;
        } else {
            out.push(ch);
            prev_lower = ch.is_lowercase() || ch.is_ascii_digit();
        }
    }
    out
}

/// A ruleset's [`crate::Ruleset::seen`] made simple: `state` itself (borrowed, nothing copied)
/// when `hidden` is false, otherwise a copy that `mask` changes, where it overwrites each
/// hidden fact with a value that does not depend on it.
pub fn masked<S: Clone>(state: &S, hidden: bool, mask: impl FnOnce(&mut S)) -> Cow<'_, S> {
    if !hidden {
        return Cow::Borrowed(state);
    }
    let mut copy = state.clone();
    mask(&mut copy);
    Cow::Owned(copy)
}

/// A seat's screen, for rulesets whose JSON view is a function of the state and the seat: it
/// serialises through that function (what the seat is sent, with what is hidden from it left
/// out). It gives no access to the state: a seat's AI reads [`crate::Ruleset::seen`].
pub struct Lens<'a, S> {
    seat: Seat,
    state: &'a S,
    json: fn(&S, Seat) -> serde_json::Value,
}

impl<'a, S> Lens<'a, S> {
    /// The view of `seat` on `state`, serialised by `json`.
    pub fn new(state: &'a S, seat: Seat, json: fn(&S, Seat) -> serde_json::Value) -> Lens<'a, S> {
        Lens { seat, state, json }
    }

    /// The seat whose view this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }
}

impl<S> Clone for Lens<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Lens<'_, S> {}

impl<S> Serialize for Lens<'_, S> {
    fn serialize<Ser: Serializer>(&self, ser: Ser) -> Result<Ser::Ok, Ser::Error> {
        (self.json)(self.state, self.seat).serialize(ser)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_take_one_shape_with_combatants_by_id() {
        let id = |i: u64| ["korrin", "marta"].get(i as usize).map(|s| s.to_string());
        let e = serde_json::json!({ "InitiativeRolled": { "who": 1, "roll": { "target": 3, "total": 9 } } });
        assert_eq!(
            event_json(e, &["who", "group"], &id),
            serde_json::json!({ "event": "initiative-rolled", "who": "marta", "roll": { "target": 3, "total": 9 } })
        );
        let e = serde_json::json!({ "initiative": { "group": [0, 1], "roll": 7 } });
        assert_eq!(
            event_json(e, &["who", "group"], &id)["group"],
            serde_json::json!(["korrin", "marta"])
        );
        assert_eq!(
            event_json(serde_json::json!("RoundEnded"), &[], &id),
            serde_json::json!({ "event": "round-ended" })
        );
        assert_eq!(
            event_json(serde_json::json!({ "Ruled": 5 }), &["who"], &id),
            serde_json::json!({ "event": "ruled", "value": 5 })
        );
        // An index nobody has stays a number.
        assert_eq!(
            event_json(serde_json::json!({ "Moved": { "who": 7 } }), &["who"], &id)["who"],
            7
        );
        assert_eq!(kebab("HPChanged"), "hpchanged");
        assert_eq!(kebab("round_started"), "round-started");
        assert_eq!(kebab("TurnStarted2"), "turn-started2");
    }

    #[test]
    fn a_board_is_tagged_by_kind_with_every_square_and_zone_of_the_map() {
        let grid = fray_space::Grid::parse_rows(&["2x .", "d s"]).expect("map");
        let mut board = Board::grid(&grid, true, terrain_words);
        if let Board::Grid { areas, .. } = &mut board {
            areas.push(AreaView {
                name: "Smoke".into(),
                squares: vec![[1, 0]],
                by: Some("korrin".into()),
                tags: vec!["terrain-effect".into()],
            });
        }
        let v = serde_json::to_value(&board).expect("json");
        assert_eq!(v["kind"], "grid");
        assert_eq!(
            v["cells"],
            serde_json::json!([
                { "x": 0, "y": 0, "elevation": 0, "terrain": ["difficult"] },
                { "x": 1, "y": 0, "elevation": 0, "terrain": ["start"] },
                { "x": 0, "y": 1, "elevation": 2, "terrain": ["blocked"] },
                { "x": 1, "y": 1, "elevation": 0, "terrain": [] },
            ])
        );
        assert_eq!(v["areas"][0]["squares"], serde_json::json!([[1, 0]]));
        assert_eq!(serde_json::from_value::<Board>(v).expect("reads back"), board);
        let flat = Board::grid(&grid, false, |_| Vec::new());
        let v = serde_json::to_value(&flat).expect("json");
        assert_eq!(
            v["cells"][2],
            serde_json::json!({ "x": 0, "y": 1, "elevation": null, "terrain": [] })
        );

        let mut mill = fray_space::Zone::new("mill");
        mill.name = Some("The burnt mill".into());
        mill.cover = 3;
        mill.tags = vec!["Dark".into(), "hazard_4".into()];
        let mut yard = fray_space::Zone::new("yard");
        yard.exit = true;
        let map = fray_space::ZoneMap::new(
            vec![yard, mill],
            vec![fray_space::LinkSpec::new("yard", "mill").with_obstacle("rubble")],
        )
        .expect("zones");
        let v = serde_json::to_value(Board::zones(&map)).expect("json");
        assert_eq!(
            v,
            serde_json::json!({
                "kind": "zones",
                "zones": [
                    { "id": "yard", "name": "yard", "cover": 0, "tags": ["exit"], "items": [] },
                    { "id": "mill", "name": "The burnt mill", "cover": 3, "tags": ["cover", "dark", "hazard-4"], "items": [] },
                ],
                "links": [{ "zones": ["yard", "mill"], "label": "rubble", "tags": ["obstacle"], "items": [] }],
            })
        );
    }

    #[test]
    fn a_lens_serialises_through_the_json_view() {
        let secret = (7u8, 3u8);
        let json = |s: &(u8, u8), seat: Seat| serde_json::json!({ "public": s.0, "seat": seat.0 });
        let lens = Lens::new(&secret, Seat(2), json);
        assert_eq!(
            serde_json::to_value(lens).unwrap(),
            serde_json::json!({ "public": 7, "seat": 2 })
        );
        assert_eq!(lens.seat(), Seat(2));
    }
}
