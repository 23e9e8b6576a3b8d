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
