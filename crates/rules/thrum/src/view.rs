//! What each seat may know, and what it is shown of events and commands.
//!
//! Thrum's only hidden information is fray's reading of Hidden (THR-R219, see docs/thrum.md):
//! a seat does not see where a Hidden combatant of another side stands ([`crate::board::hidden_from`]).
//! Its JSON view, map and tracker leave those squares out and its log leaves out their steps,
//! placements and relocations.

use crate::board::hidden_from;
use crate::command::Command;
use crate::event::Event;
use crate::state::State;
use fray_engine::view::Lens;
use fray_engine::{Seat, Shown};

/// A seat's view: serialised, the JSON view without the squares hidden from the seat; for the
/// AI, the whole state (see [`fray_engine::view::Lens`]).
pub type View<'a> = Lens<'a, State>;

/// What `seat` may know of `s`.
pub fn view(s: &State, seat: Seat) -> View<'_> {
    Lens::new(s, seat, crate::text::view)
}

/// Whether a Hidden combatant on the map is hidden from `seat` (THR-R219, fray's reading).
pub fn hides_from(s: &State, seat: Seat) -> bool {
    !seat.is_gm() && s.ids().any(|c| s.ch(c).pos.is_some() && hidden_from(s, seat, c))
}

/// Steps, teleports, stopped pushes, placements and relocations of a combatant hidden from
/// `seat` are not shown to it (judged before the event, so the step that reveals a combatant
/// is still hidden, and the reveal itself is shown).
pub fn redact(s: &State, seat: Seat, event: &Event) -> Shown<Event> {
    let who = match event {
        Event::Placed { who, .. }
        | Event::Moved { who, .. }
        | Event::Teleported { who, .. }
        | Event::ForcedMoveStopped { who, .. }
        | Event::Relocated { who, .. } => *who,
        _ => return Shown::All,
    };
    if usize::from(who) < s.chars.len() && hidden_from(s, seat, who) {
        Shown::Nothing
    } else {
        Shown::All
    }
}

/// Where a combatant hidden from `seat` places itself or moves to is not shown to the seat.
pub fn redact_command(s: &State, seat: Seat, command: &Command) -> Shown<Command> {
    let Some(who) = <crate::Thrum as fray_engine::Ruleset>::pending(s).and_then(|p| p.actor) else {
        return Shown::All;
    };
    let moving = matches!(command, Command::Place(_) | Command::Move(_) | Command::Step { .. });
    if moving && usize::from(who) < s.chars.len() && hidden_from(s, seat, who) {
        Shown::Nothing
    } else {
        Shown::All
    }
}

/// Positions `seat` cannot tell apart from `s`: each combatant hidden from it standing on one
/// of up to two other free, open squares next to where it is.
pub fn indistinguishable(s: &State, seat: Seat, out: &mut Vec<State>) {
    for c in s.ids() {
        let Some(at) = s.ch(c).pos else { continue };
        if !hidden_from(s, seat, c) {
            continue;
        }
        let free = s
            .setup
            .map
            .open_neighbours(at)
            .filter(|&p| s.ids().all(|o| s.ch(o).pos != Some(p)));
        for p in free.take(2) {
            let mut v = s.clone();
            v.chars[usize::from(c)].pos = Some(p);
            out.push(v);
        }
    }
}
