//! The standard steps of an encounter loader, over the encounter kit ([`crate::encounter`])
//! and the sides kit ([`crate::sides`]): every problem is a diagnostic at file:line:column, in
//! the sentences the skeleton's loader wrote.
//!
//! A ruleset whose file is the skeleton's shape (the ruleset line, a title, options, a grid
//! `[map]`, `[[side]]`, templates and combatants) reads it as a [`GridEncounter`] of its own
//! combatant table and keeps it as a [`Setup`]; one with more tables keeps its own raw type
//! and setup and still calls the steps: [`head`] (the ruleset line and the options), [`place`]
//! (a combatant's side and open square), [`own_seat`] (a seat is one combatant's, never a
//! template's), [`finish`] (no empty side, then every problem at once); [`recheck`] checks a
//! setup read back from a record, which is untrusted input, as strictly.

use crate::Seat;
use crate::diag::Diagnostic;
use crate::encounter::{self as enc, Diags, GridMap, RawPos, RosterRules, Span, Spanned};
use crate::sides::{self, RawSide, Side};
use fray_space::{Grid, Pos};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// An encounter file of the skeleton's shape, with the ruleset's combatant table `C`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridEncounter<C> {
    /// The ruleset the file is for.
    pub ruleset: Spanned<String>,
    /// A title for logs (the file's name otherwise).
    pub title: Option<String>,
    /// The `[options]` table.
    pub options: Option<Spanned<toml::Table>>,
    /// The grid.
    pub map: Spanned<GridMap>,
    /// The `[[side]]` tables.
    #[serde(default)]
    pub side: Vec<Spanned<RawSide>>,
    /// The `[template.<name>]` tables.
    #[serde(default)]
    pub template: BTreeMap<String, Spanned<C>>,
    /// The `[[combatant]]` tables.
    #[serde(default)]
    pub combatant: Vec<Spanned<C>>,
}

/// A validated encounter of the skeleton's shape: `M` the map, `C` a combatant as placed, `T`
/// what a template gives a combatant the GM brings in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup<M, C, T> {
    /// A title for logs.
    pub title: String,
    /// The map.
    pub map: M,
    /// Seat names; seat 0 is always `gm`.
    pub seats: Vec<String>,
    /// The sides.
    pub sides: Vec<Side>,
    /// The combatants at the start.
    pub combatants: Vec<C>,
    /// What the GM may bring in (`gm add`), by template name.
    pub templates: BTreeMap<String, T>,
}

/// The ruleset line (it must name `id`) and the `[options]` table, read and checked with
/// `validate`; `None` when the file is for another ruleset (nothing more is worth reading).
pub fn head<O: DeserializeOwned + Default>(
    d: &mut Diags,
    ruleset: &Spanned<String>,
    id: &str,
    options: Option<&Spanned<toml::Table>>,
    validate: impl FnOnce(&O) -> Result<(), String>,
) -> Option<O> {
    enc::check_ruleset(d, ruleset, id).then(|| enc::options(d, options, validate))
}

/// A combatant's side and square (`combatant` the whole table, for the message when either is
/// missing): the side by id among `sides`, the square on `map`, which must not be blocked.
pub fn place(
    d: &mut Diags,
    combatant: Span,
    id: &str,
    side: Option<&Spanned<String>>,
    at: Option<&Spanned<RawPos>>,
    sides: &[Side],
    map: &Grid,
) -> Option<(u8, Pos)> {
    let (Some(s), Some(a)) = (side, at) else {
        d.err(
            combatant,
            format!("combatant '{id}' needs a side and a square (at = \"x,y\")"),
        );
        return None;
    };
    let side = enc::index_of(d, s, sides.iter().map(|x| x.id.as_str()), "side")? as u8;
    let at = enc::square(d, a, map)?;
    if map.get(at).is_some_and(|c| c.blocked) {
        d.err(a.span(), format!("square {at} is blocked"));
    }
    Some((side, at))
}

/// The seat a combatant's table names for it ([`sides::own_seat`], added to `seats` when new).
/// A template, which many combatants share, names none: that is a diagnostic at the seat, in
/// which `who` says what a seat belongs to ("combatant", "character").
pub fn own_seat(
    d: &mut Diags,
    seat: Option<&Spanned<String>>,
    template: bool,
    seats: &mut Vec<String>,
    who: &str,
) -> Option<Seat> {
    match (seat, template) {
        (Some(x), true) => {
            d.err(
                x.span(),
                format!("a seat belongs to one {who}, not to a template: give it in a [[combatant]] table"),
            );
            None
        }
        (x, false) => sides::own_seat(d, x, seats),
        (None, true) => None,
    }
}

/// The end of the checks: a side without combatants (`members` gives each one's side) is a
/// diagnostic at its table, but only on an otherwise good file, since a combatant refused
/// earlier would be a false lead; then every problem found, if any.
pub fn finish(
    mut d: Diags,
    raw_sides: &[Spanned<RawSide>],
    sides: &[Side],
    members: impl IntoIterator<Item = usize> + Clone,
) -> Result<(), Vec<Diagnostic>> {
    if let Some((i, m)) = sides::empty_side(sides, members)
        && d.errors.is_empty()
    {
        d.err(raw_sides[i].span(), m);
    }
    if d.errors.is_empty() { Ok(()) } else { Err(d.errors) }
}

/// Checks a record's seats, sides and combatants as strictly as the loader: the seats and
/// sides ([`sides::check`]), then each combatant as [`enc::recheck_roster`] does, with its own
/// seat (`side_and_seat` gives each one's side and seat) and then `more` (the ruleset's checks of it). [`no_empty_side`] comes last, after the
/// ruleset's checks of what else the setup holds.
pub fn recheck<C>(
    seats: &[String],
    sides: &[Side],
    combatants: &[C],
    map: Option<&Grid>,
    rules: &RosterRules<C>,
    side_and_seat: fn(&C) -> (usize, Option<Seat>),
    mut more: impl FnMut(&C) -> Result<(), String>,
) -> Result<(), String> {
    sides::check(seats, sides)?;
    let side = |c: &C| side_and_seat(c).0;
    enc::recheck_roster(combatants, sides.len(), map, rules, side, |c| {
        sides::check_own_seat(seats, (rules.id)(c), side_and_seat(c).1)?;
        more(c)
    })
}

/// A record's check that every side has a combatant (`members` gives each one's side).
pub fn no_empty_side(sides: &[Side], members: impl IntoIterator<Item = usize> + Clone) -> Result<(), String> {
    match sides::empty_side(sides, members) {
        Some((_, m)) => Err(m),
        None => Ok(()),
    }
}
