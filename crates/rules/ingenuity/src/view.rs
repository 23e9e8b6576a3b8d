//! What each seat may know, and what it is shown of events and commands.
//!
//! A seat does not see the square of a Hidden character of another seat (the `hidden`
//! condition: unseen by enemies, its attacks are sneak attacks), nor other seats' resources (the JSON view
//! and the tracker leave them out). The JSON view leaves those squares out and the seat's log
//! leaves out their steps.
//!
//! The built-in AI reads the state as its seat may know it ([`seen`]): a Hidden foe's square
//! is unknown there (the rules may still offer it as a target). Other seats' resources are
//! still in that state: of those the AI uses only what every seat is shown (harmed,
//! bloodied), never the numbers (`ai::known_left`).

use crate::command::{Action, Command};
use crate::event::Event;
use crate::setup::Cid;
use crate::state::{Frame, State};
use crate::text::sees;
use fray_engine::view::Lens;
use fray_engine::{Seat, Shown};
use fray_space::Pos;
use std::borrow::Cow;

/// Whether `seat` may not see where `c` stands.
fn hidden_from(s: &State, seat: Seat, c: Cid) -> bool {
    usize::from(c) < s.chars.len() && !sees(s, seat, c)
}

/// A seat's screen: the JSON view without the squares and resources hidden from the seat.
pub type View<'a> = Lens<'a, State>;

/// The state as `seat` may know it, which is what its AI reads: the square of a character
/// hidden from the seat is unknown (`None`, as in the JSON view).
pub fn seen(s: &State, seat: Seat) -> Cow<'_, State> {
    fray_engine::view::masked(s, hides_from(s, seat), |v| {
        for c in s.ids().filter(|&c| hidden_from(s, seat, c)) {
            v.chars[usize::from(c)].pos = None;
        }
    })
}

/// What `seat` may know of `s`.
pub fn view(s: &State, seat: Seat) -> View<'_> {
    Lens::new(s, seat, crate::text::view)
}

/// Whether the square of a character on the map is hidden from `seat`.
pub fn hides_from(s: &State, seat: Seat) -> bool {
    !seat.is_gm() && s.ids().any(|c| s.ch(c).pos.is_some() && hidden_from(s, seat, c))
}

/// Steps (and the walk frames that carry their path), throws and placements by a character
/// hidden from `seat` are not shown to it
/// (judged before the event, so the reveal itself is shown).
pub fn redact(s: &State, seat: Seat, event: &Event) -> Shown<Event> {
    let who = match event {
        Event::Moved { who, .. } | Event::Thrown { who, .. } | Event::Placed { who, .. } => *who,
        // A walk's frame carries its whole path.
        Event::Push { frame } | Event::Update { frame } | Event::SetFrame { frame, .. } => match &**frame {
            Frame::Walk(w) => w.who,
            _ => return Shown::All,
        },
        _ => return Shown::All,
    };
    if hidden_from(s, seat, who) {
        Shown::Nothing
    } else {
        Shown::All
    }
}

/// The square written in place of one a seat may not see.
pub const UNKNOWN_SQUARE: Pos = Pos {
    x: i16::MIN,
    y: i16::MIN,
};

/// Where a character hidden from `seat` moves to is not shown to the seat: it is shown the kind
/// of move (a move, a step, a sprint: each spends different resources) to [`UNKNOWN_SQUARE`].
pub fn redact_command(s: &State, seat: Seat, command: &Command) -> Shown<Command> {
    let Some(who) = s.turn.as_ref().map(|t| t.who) else {
        return Shown::All;
    };
    if !hidden_from(s, seat, who) {
        return Shown::All;
    }
    match command {
        Command::Act(Action::Move(_)) => Shown::As(Command::Act(Action::Move(UNKNOWN_SQUARE))),
        Command::Act(Action::Step(_)) => Shown::As(Command::Act(Action::Step(UNKNOWN_SQUARE))),
        Command::Act(Action::Sprint(_)) => Shown::As(Command::Act(Action::Sprint(UNKNOWN_SQUARE))),
        _ => Shown::All,
    }
}

/// Positions `seat` cannot tell apart from `s`: each character hidden from it standing on one
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

/// The battlefield as `seat` may see it, for a client to draw: every square with its elevation
/// and `blocked` where it is (the facts of a square the rules read: walls and higher ground
/// give cover), and each item lying on the ground as an area of one square, tagged `item`
/// (and `broken` at 0 durability). It holds no combatant, so nothing on it is hidden from any
/// seat.
pub fn board(s: &State, seat: Seat) -> fray_engine::view::Board {
    use fray_engine::view::{AreaView, Board};
    let _ = seat;
    let mut board = Board::grid(&s.setup.map, true, |c| {
        if c.blocked {
            vec!["blocked".to_string()]
        } else {
            Vec::new()
        }
    });
    if let Board::Grid { areas, .. } = &mut board {
        areas.extend(s.ground.iter().map(|(p, k)| {
            let mut tags = vec!["item".to_string()];
            if k.durability <= 0 {
                tags.push("broken".into());
            }
            AreaView {
                name: s.setup.armoury.item(k.item).name.clone(),
                squares: vec![[i32::from(p.x), i32::from(p.y)]],
                by: None,
                tags,
            }
        }));
    }
    board
}
