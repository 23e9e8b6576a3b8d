//! What each seat may know, and what it is shown of events and commands.
//!
//! Thrum's only hidden information is fray's reading of Hidden (THR-R219, see docs/thrum.md):
//! a seat does not see where a Hidden combatant of another side stands ([`crate::board::hidden_from`]).
//! Its JSON view, map and tracker leave those squares out and its log leaves out their steps,
//! placements and relocations; the state its AI reads ([`seen`]) has them as unknown.

use crate::board::hidden_from;
use crate::command::Command;
use crate::event::Event;
use crate::state::{State, Step};
use fray_engine::view::{CombatantView, Gauge, Lens, Place, Status, Table, masked};
use fray_engine::{Seat, Shown};
use std::borrow::Cow;

/// A seat's screen: the JSON view without the squares hidden from the seat.
pub type View<'a> = Lens<'a, State>;

/// What `seat` may know of `s`.
pub fn view(s: &State, seat: Seat) -> View<'_> {
    Lens::new(s, seat, crate::text::view)
}

/// The state as `seat` may know it, which is what its AI reads: a Hidden combatant hidden from
/// the seat stands on the square it became Hidden on, the last one the seat saw it on (off the
/// map if it was never seen: `None`, as in the JSON view).
pub fn seen(s: &State, seat: Seat) -> Cow<'_, State> {
    masked(s, hides_from(s, seat), |v| {
        for c in s.ids().filter(|&c| hidden_from(s, seat, c)) {
            let ch = &mut v.chars[usize::from(c)];
            ch.pos = ch.hid_at;
        }
    })
}

/// Whether a Hidden combatant on the map is hidden from `seat` (THR-R219, fray's reading).
pub fn hides_from(s: &State, seat: Seat) -> bool {
    !seat.is_gm() && s.ids().any(|c| s.ch(c).pos.is_some() && hidden_from(s, seat, c))
}

/// Steps, teleports, stopped pushes, placements, relocations, drop rolls and drifts of a
/// combatant hidden from
/// `seat` are not shown to it (judged before the event, so the step that reveals a combatant
/// is still hidden, and the reveal itself is shown).
pub fn redact(s: &State, seat: Seat, event: &Event) -> Shown<Event> {
    let who = match event {
        Event::Placed { who, .. }
        | Event::Moved { who, .. }
        | Event::Teleported { who, .. }
        | Event::ForcedMoveStopped { who, .. }
        | Event::Relocated { who, .. }
        // A hidden combatant's roll for a drop, or its drift, tells where it went.
        | Event::DropRolled { who, .. }
        | Event::Drifted { who, .. } => *who,
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
    let Some(who) = <crate::Thrum as fray_engine::Ruleset>::pending(s).and_then(|p| p.actor()) else {
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

/// What `seat` is shown in the shape every ruleset shares: what its tracker shows
/// ([`crate::board::tracker`]), with the square (and its elevation) of a combatant hidden from
/// it left out, and the movement left of a hidden combatant's turn too.
pub fn table(s: &State, seat: Seat) -> Table {
    use crate::board::{effects, slot_state};
    let status = |name: &str, value: Option<String>, ends: Option<&str>| Status {
        name: name.to_string(),
        value,
        ends: ends.map(str::to_string),
    };
    let combatants = s
        .ids()
        .map(|c| {
            let ch = s.ch(c);
            let info = s.info(c);
            let side = &s.setup.sides[info.side as usize];
            let hidden = hidden_from(s, seat, c);
            let place = match ch.pos {
                Some(p) if !hidden && !ch.removed => Some(Place::Square {
                    x: i32::from(p.x),
                    y: i32::from(p.y),
                    elevation: Some(i32::from(s.setup.map.elevation(p).unwrap_or(0))),
                }),
                _ => None,
            };
            let mut gauges = vec![
                Gauge::of("fatigue", ch.fatigue, ch.ft),
                Gauge::of("stress", ch.stress, ch.st),
                Gauge::of("wounds", ch.wounds, 3),
                Gauge::count("initiative", ch.initiative),
                Gauge::count("speed", crate::calc::speed(s, c)),
            ];
            for n in &ch.nova {
                let a = s.setup.book.get(n.ability);
                gauges.push(Gauge::of(
                    &format!("{}-potential", view_name(&a.id)),
                    n.potential,
                    a.nova.map_or(0, |x| x.cost),
                ));
            }
            let mut statuses = Vec::new();
            if ch.incapacitated && !ch.removed {
                statuses.push(Status::on("incapacitated"));
            }
            if ch.exhausted() {
                statuses.push(Status::on("exhausted"));
            }
            if ch.frayed() {
                statuses.push(Status::on("frayed"));
            }
            if ch.barred {
                statuses.push(status("barred", None, Some("at Downtime")));
            }
            if ch.mark > 0 {
                statuses.push(status("mark", Some(ch.mark.to_string()), None));
            }
            if ch.scouted > 0 {
                statuses.push(status("scouted", Some(ch.scouted.to_string()), None));
            }
            if let Some(st) = ch.stance {
                statuses.push(status(
                    "stance",
                    Some(s.setup.book.get(st).id.clone()),
                    Some("when it takes another, its trigger ends it, or it is Incapacitated"),
                ));
            }
            for (name, value, ends) in effects(s, c) {
                statuses.push(status(&name.to_lowercase(), value.map(|x| x.to_string()), Some(&ends)));
            }
            if let Some(b) = ch.buff {
                statuses.push(status(
                    "buff",
                    Some(s.setup.book.get(b.ability).id.clone()),
                    Some(&format!(
                        "when used up and not kept, or when {} leaves the combat",
                        s.name(b.creator)
                    )),
                ));
                gauges.push(Gauge::count("buff-uses", b.uses));
            }
            if let Some(sl) = s.order.slot(c) {
                let acting = slot_state(s, c) == "acting";
                // How far a hidden combatant has moved would tell where it went.
                if acting && matches!(s.turn.step, Step::Move | Step::ActionMove) && !hidden {
                    let left = crate::reach::movement_left(s).max(0);
                    statuses.push(status("movement-left", Some(left.to_string()), Some("end of its turn")));
                    if s.turn.acted {
                        statuses.push(status("action-taken", None, Some("end of its turn")));
                    }
                }
                if sl.delayed {
                    statuses.push(status("delayed", None, Some("end of the round")));
                }
            }
            CombatantView {
                id: info.id.clone(),
                name: info.name.clone(),
                side: side.id.clone(),
                seat: fray_engine::sides::seat_name(&s.setup.seats, info.seat),
                place,
                gauges,
                statuses,
                out: ch.removed || ch.incapacitated,
            }
        })
        .collect();
    Table {
        round: u32::from(s.round),
        phase: None,
        order: s.order.slots().iter().map(|sl| s.info(sl.who).id.clone()).collect(),
        combatants,
        sides: s.setup.sides.iter().map(|d| d.id.clone()).collect(),
        unseen: Vec::new(),
    }
}

/// A word as a kebab-case name of the shared view (lower-case letters and digits joined by
/// `-`): an upgraded ability's `+` reads `-plus`, anything else not a letter or digit `-`.
fn view_name(word: &str) -> String {
    let mut out = String::new();
    for ch in word.chars() {
        match ch {
            c if c.is_ascii_alphanumeric() => out.push(c.to_ascii_lowercase()),
            '+' => out.push_str("-plus-"),
            _ => out.push('-'),
        }
    }
    out.split('-').filter(|w| !w.is_empty()).collect::<Vec<_>>().join("-")
}
