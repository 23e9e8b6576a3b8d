//! The text every ruleset made from the skeleton prints alike: the result of a combat, the
//! markers of combatants on a map, a grid with the combatants on it, and the encounter's names
//! ([`Names`]) that the default `title`, `seat_name` and `seat_by_name` of
//! [`crate::text::TextRuleset`] read.

use super::roster::Member;
use crate::Outcome;
use crate::sides::Side;
use fray_space::{Grid, Pos};

/// The encounter's names a text layer reads: its title and its seats (the GM's first).
#[derive(Clone, Copy, Debug)]
pub struct Names<'a> {
    /// The title for logs.
    pub title: &'a str,
    /// Every seat's name, by seat number.
    pub seats: &'a [String],
}

/// "X win (reason)" or "no winner (reason)", once the combat has ended.
pub fn result(sides: &[Side], outcome: Option<&Outcome>) -> Option<String> {
    let o = outcome?;
    let winner = o.winner.and_then(|w| sides.get(usize::from(w)));
    Some(format!(
        "{} ({})",
        winner.map_or("no winner".into(), |x| format!("{} win", x.name)),
        o.reason
    ))
}

/// The marker of combatant `i` on a map: a letter, a digit, `@` or `&`, then `?`.
pub fn marker(i: usize) -> char {
    const MARKS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@&";
    MARKS.get(i).map_or('?', |&b| b as char)
}

/// A grid with the combatants in the fight on it ([`crate::text::grid_text`]): each one's
/// [`marker`] on its square (`at` says which), `#` on a blocked square, `.` on an open one,
/// then the key (`Key: # blocked, A ana, B ben`).
pub fn roster_grid<C: Member>(map: &Grid, roster: &[C], at: impl Fn(&C) -> Pos) -> String {
    let on = |p| roster.iter().position(|c| at(c) == p && !c.out());
    let grid = crate::text::grid_text(map, |p| match on(p) {
        Some(i) => marker(i).to_string(),
        None if map.get(p).is_some_and(|c| c.blocked) => "#".into(),
        None => ".".into(),
    });
    let live = roster.iter().enumerate().filter(|(_, c)| !c.out());
    let legend: Vec<String> = live.map(|(i, c)| format!("{} {}", marker(i), c.id())).collect();
    format!("{grid}Key: # blocked, {}\n", legend.join(", "))
}
