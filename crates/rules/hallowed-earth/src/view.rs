//! What each seat may know, and what it is shown of events and commands.
//!
//! With secret declarations (HAL-R11), a creature's declared action is hidden from every seat
//! but its own (and the GM's, whose log is the full log) until all declarations are in and the
//! round's order is revealed:
//! not in the seat's JSON view, not in its log (the declaration shows as made, not what it
//! is), and not in the commands it is shown. The one-at-a-time methods hide nothing: each
//! declaration is seen by those who declare after it. Everything else is open.
//!
//! The built-in AI reads the state as its seat may know it ([`seen`]): a declaration secret
//! from the seat stands there as one fixed action whatever was declared, and the AI reads
//! other creatures' declarations through [`known_declaration`], which says it does not know.

use crate::command::Command;
use crate::options::Declaration;
use crate::setup::Cid;
use crate::state::{Action, Event, Free, Phase, State};
use fray_engine::view::{Board, Lens};
use fray_engine::{Seat, Shown};
use std::borrow::Cow;

/// A seat's screen: the JSON view without the declarations hidden from the seat.
pub type View<'a> = Lens<'a, State>;

/// The state as `seat` may know it, which is what its AI reads: a declaration (and a Free
/// action) secret from the seat stands as `move` (and `speak`) whatever it is, so the state
/// shows that the creature has declared and nothing of what.
pub fn seen(s: &State, seat: Seat) -> Cow<'_, State> {
    fray_engine::view::masked(s, hides_from(s, seat), |v| {
        for c in s.ids().filter(|&c| hidden_from(s, seat, c)) {
            let ch = &mut v.chars[usize::from(c)];
            ch.declared = ch.declared.map(|_| Action::Move);
            ch.declared_free = ch.declared_free.map(|_| Free::Speak);
        }
    })
}

/// What `seat` may know of `s`.
pub fn view(s: &State, seat: Seat) -> View<'_> {
    Lens::new(s, seat, json)
}

/// Whether declarations are secret right now: the secret method, during the declaration step.
fn secret(s: &State) -> bool {
    s.options.declaration == Declaration::Secret && s.phase == Phase::Declaring
}

/// Whether `seat` may not see what `c` declared. The GM's seat sees everything, as in every
/// ruleset (its log is the full log): a table that wants the monsters' declarations made
/// without sight of the players' gives the monsters a seat of their own.
pub fn hidden_from(s: &State, seat: Seat, c: Cid) -> bool {
    secret(s) && !seat.is_gm() && usize::from(c) < s.chars.len() && s.seat_of(c) != seat
}

/// The declaration of `c` as `seat` knows it: `None` when it has not declared or the
/// declaration is secret from the seat.
pub fn known_declaration(s: &State, seat: Seat, c: Cid) -> Option<Action> {
    if hidden_from(s, seat, c) {
        None
    } else {
        s.ch(c).declared
    }
}

/// The JSON view: the state with each declaration (and Free action, HAL-R17) hidden from the
/// seat written as `"secret"`.
pub fn json(s: &State, seat: Seat) -> serde_json::Value {
    let mut v = serde_json::to_value(s).unwrap_or_default();
    if let Some(chars) = v.get_mut("chars").and_then(|c| c.as_array_mut()) {
        for (i, c) in chars.iter_mut().enumerate() {
            if !hidden_from(s, seat, i as Cid) {
                continue;
            }
            let ch = &s.chars[i];
            for (field, made) in [
                ("declared", ch.declared.is_some()),
                ("declared_free", ch.declared_free.is_some()),
            ] {
                if made && let Some(d) = c.get_mut(field) {
                    *d = serde_json::Value::String("secret".into());
                }
            }
        }
    }
    v
}

/// The battlefield, the same for every seat (only declarations are ever secret): each square
/// of the map, `blocked` where it is (the one fact of a square the rules read), no elevations,
/// nothing laid on it.
pub fn board(s: &State, seat: Seat) -> Board {
    let _ = seat;
    Board::grid(&s.setup.map, false, |c| {
        if c.blocked {
            vec!["blocked".to_string()]
        } else {
            Vec::new()
        }
    })
}

/// Whether anything is hidden from `seat` now.
pub fn hides_from(s: &State, seat: Seat) -> bool {
    s.ids().any(|c| {
        let ch = s.ch(c);
        hidden_from(s, seat, c) && (ch.declared.is_some() || ch.declared_free.is_some())
    })
}

/// A secret declaration is shown to other seats as made, without the action (judged before the
/// event, so the reveal itself is shown whole); a secret Free action too, without which one.
pub fn redact(s: &State, seat: Seat, event: &Event) -> Shown<Event> {
    match event {
        Event::Declared { who, .. } if hidden_from(s, seat, *who) => Shown::As(Event::Declared {
            who: *who,
            action: None,
        }),
        Event::FreeDeclared { who, .. } if hidden_from(s, seat, *who) => {
            Shown::As(Event::FreeDeclared { who: *who, free: None })
        }
        _ => Shown::All,
    }
}

/// A secret declaration's command shows other seats only which creature declared (a seat may
/// declare for its creatures in any order): it stands as the same command with the action
/// replaced by `move`, for every action alike. A secret Free action's likewise shows only that
/// one was declared for that creature, the Free action replaced by `speak` (the log says
/// "declares a free action in secret", unlike a declaration's "declares in secret").
pub fn redact_command(s: &State, seat: Seat, command: &Command) -> Shown<Command> {
    match command {
        Command::Declare { who, .. } if hidden_from(s, seat, *who) => Shown::As(Command::Declare {
            who: *who,
            action: Action::Move,
        }),
        Command::DeclareFree { who, .. } if hidden_from(s, seat, *who) => Shown::As(Command::DeclareFree {
            who: *who,
            free: Free::Speak,
        }),
        _ => Shown::All,
    }
}

/// Positions `seat` cannot tell apart from `s`: each declaration hidden from it replaced by
/// another action, and each creature's hidden Free action by another (or none).
pub fn indistinguishable(s: &State, seat: Seat, out: &mut Vec<State>) {
    for c in s.ids() {
        if !hidden_from(s, seat, c) {
            continue;
        }
        if let Some(d) = s.ch(c).declared {
            let other = if d == Action::Move {
                Action::FullDefense
            } else {
                Action::Move
            };
            let mut v = s.clone();
            v.chars[usize::from(c)].declared = Some(other);
            out.push(v);
        }
        if let Some(f) = s.ch(c).declared_free {
            let other = if f == Free::Speak { Free::Step } else { Free::Speak };
            let mut v = s.clone();
            v.chars[usize::from(c)].declared_free = Some(other);
            out.push(v);
        }
    }
}
