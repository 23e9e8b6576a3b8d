//! The battlefield as text, and what each seat sees of it.
//!
//! The decision behind this module: whether a seat sees a combatant's square ([`sees`]) and its
//! gauges (`sees_gauges`) is decided here once, for the map, the tracker, the prompt and the
//! views; a hidden combatant's square is the GM's and its own seat's only.

use crate::data::Cond;
use crate::setup::Cid;
use crate::state::{Phase, State};
use fray_engine::Seat;
use std::fmt::Write;

/// Whether `seat` sees `c`'s square: the GM and its own seat always; others unless it is hidden.
pub(crate) fn sees(s: &State, seat: Seat, c: Cid) -> bool {
    // The Hidden bit first: asked for every character at every decision of a simulation.
    seat.is_gm() || !s.ch(c).has(Cond::Hidden) || s.info(c).seat == seat
}

/// Whether `seat` sees `c`'s gauges (endurance, health, stamina, focus, items...).
pub(super) fn sees_gauges(s: &State, seat: Seat, c: Cid) -> bool {
    seat.is_gm() || s.info(c).seat == seat
}

/// A combatant's marker on the map: its team's letter (A for the first team) and its number in
/// the team; lower case while unconscious or dead.
pub fn marker(s: &State, c: Cid) -> String {
    let team = s.team(c);
    let n = s.ids().filter(|&o| o <= c && s.team(o) == team).count();
    let letter = char::from(b'A' + team.min(25));
    let m = format!("{letter}{n}");
    if s.ch(c).unconscious { m.to_ascii_lowercase() } else { m }
}

/// A sentence for whose decision it is.
pub(super) fn whose_turn(s: &State) -> String {
    let round = if s.phase == Phase::Surprise {
        "Surprise round".to_string()
    } else {
        format!("Round {}", s.round)
    };
    if let Some(o) = &s.outcome {
        return match o.winner.and_then(|w| s.setup.teams.get(w as usize)) {
            Some(t) => format!("{round}: the combat is over ({} win)", t.name),
            None => format!("{round}: the combat is over (no winner)"),
        };
    }
    match &s.turn {
        Some(t) => format!(
            "{round}: {}'s turn ({})",
            s.name(t.who),
            s.setup
                .teams
                .get(s.team(t.who) as usize)
                .map_or("?", |x| x.name.as_str())
        ),
        None => match s
            .order
            .team_to_pick(|w| s.can_take_turn(w))
            .and_then(|t| s.setup.teams.get(t as usize))
        {
            Some(t) => format!("{round}: {} pick who acts next", t.name),
            None => format!("{round}: the round is ending"),
        },
    }
}

/// The battlefield as text (the `map` word of `fray play`): terrain, a marker per combatant
/// `seat` can see, axes numbered as commands type squares (`x,y`, 0,0 at the bottom left), a
/// legend, and whose turn it is.
pub fn map(s: &State, seat: Seat) -> String {
    let g = &s.setup.map;
    let (w, h) = (i32::from(g.width()), i32::from(g.height()));
    let shown: Vec<Cid> = s
        .ids()
        .filter(|&c| s.ch(c).present() && s.ch(c).pos.is_some() && sees(s, seat, c))
        .collect();
    let cell = shown
        .iter()
        .map(|&c| marker(s, c).len())
        .chain([(w - 1).max(0).to_string().len()])
        .max()
        .unwrap_or(1)
        .max(2)
        + 1;
    let ylab = (h - 1).max(0).to_string().len();
    let mut out = String::new();
    let _ = writeln!(out, "{}", whose_turn(s));
    for y in (0..h).rev() {
        let _ = write!(out, "{y:>ylab$} ");
        for x in 0..w {
            let p = fray_space::Pos::new(x as i16, y as i16);
            let text = match shown.iter().find(|&&c| s.ch(c).pos == Some(p)) {
                Some(&c) => marker(s, c),
                None => match g.get(p) {
                    Some(c) if c.blocked => "x".to_string(),
                    Some(c) if c.elevation > 9 => "+".to_string(),
                    Some(c) if c.elevation > 0 => c.elevation.to_string(),
                    Some(c) if c.elevation < 0 => "-".to_string(),
                    _ => ".".to_string(),
                },
            };
            let _ = write!(out, "{text:>cell$}");
        }
        out.push('\n');
    }
    let _ = write!(out, "{:>ylab$} ", "");
    for x in 0..w {
        let _ = write!(out, "{x:>cell$}");
    }
    out.push_str("  (x,y)\n");
    out.push_str(
        "Terrain: . open, x blocked, 1-9 higher ground (+ above 9, - below 0); blocked squares and higher ground next to a character give cover (Seek Cover)\n",
    );
    for &c in &shown {
        let ch = s.ch(c);
        let mut notes: Vec<&str> = Vec::new();
        if s.turn.as_ref().is_some_and(|t| t.who == c) {
            notes.push("acting");
        } else if s.order.has_acted(c) {
            notes.push("has acted");
        }
        if ch.dead {
            notes.push("dead");
        } else if ch.unconscious {
            notes.push("unconscious");
        }
        for cond in Cond::ALL {
            if ch.has(cond) && !(cond == Cond::Prone && ch.unconscious) {
                notes.push(cond.name());
            }
        }
        let _ = writeln!(
            out,
            "{:<w$} {} ({}, {}) at {}{}",
            marker(s, c),
            s.info(c).id,
            s.name(c),
            s.setup.teams.get(s.team(c) as usize).map_or("?", |t| t.name.as_str()),
            ch.pos.map_or("?".to_string(), |p| p.to_string()),
            if notes.is_empty() {
                String::new()
            } else {
                format!(": {}", notes.join(", "))
            },
            w = cell - 1
        );
    }
    for (p, k) in &s.ground {
        let _ = writeln!(out, "On the ground at {p}: {}", s.setup.armoury.item(k.item).name);
    }
    out
}
