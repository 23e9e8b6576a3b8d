//! What each seat may know, and what it is shown of events and commands (MUR-R57).
//!
//! A concealed character is hidden from every seat that plays none of its faction (the GM sees
//! everything): such a seat's view leaves it out altogether, its log leaves out what it does
//! while concealed, and its AI acts as though it were not there. The moment it is revealed
//! (MUR-R42) it appears in the view and the log again.

use crate::command::Command;
use crate::setup::Cid;
use crate::state::{Event, Frame, State};
use fray_engine::resolve::FrameOp;
use fray_engine::{Seat, Shown};
use serde::{Serialize, Serializer};
use std::ops::Deref;

/// Whether character `who` is hidden from `seat`: concealed, and `seat` plays none of its
/// faction and is not the GM.
pub fn hidden_from(s: &State, seat: Seat, who: Cid) -> bool {
    if seat.is_gm() {
        return false;
    }
    let Some(c) = s.chars.get(who as usize) else {
        return false;
    };
    c.concealed && s.setup.sides.get(c.side as usize).is_some_and(|x| x.seat != seat)
}

/// Whether anything is hidden from `seat` now.
pub fn hides_from(s: &State, seat: Seat) -> bool {
    s.ids().any(|c| hidden_from(s, seat, c) && !s.ch(c).down())
}

/// How many characters are hidden from `seat` now.
pub fn hidden_count(s: &State, seat: Seat) -> usize {
    s.ids().filter(|&c| hidden_from(s, seat, c) && !s.ch(c).down()).count()
}

/// A seat's view of the state: it serialises to the JSON the seat is sent (hidden characters
/// left out), and its AI reads the state through it, asking [`View::sees`] before it looks at a
/// character.
#[derive(Clone, Copy)]
pub struct View<'a> {
    state: &'a State,
    seat: Seat,
}

impl<'a> View<'a> {
    /// The view of `seat` on `state`.
    pub fn new(state: &'a State, seat: Seat) -> View<'a> {
        View { state, seat }
    }

    /// The seat whose view this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Whether the seat perceives a character.
    pub fn sees(&self, who: Cid) -> bool {
        !hidden_from(self.state, self.seat, who)
    }

    /// The characters the seat perceives.
    pub fn visible(&self) -> impl Iterator<Item = Cid> + '_ {
        self.state.ids().filter(|&c| self.sees(c))
    }
}

impl Deref for View<'_> {
    type Target = State;
    fn deref(&self) -> &State {
        self.state
    }
}

impl Serialize for View<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        json(self.state, self.seat).serialize(ser)
    }
}

/// The JSON a seat is sent: the state with the characters hidden from it (and whatever names
/// them) left out.
pub fn json(s: &State, seat: Seat) -> serde_json::Value {
    let sees = |c: Cid| !hidden_from(s, seat, c);
    let chars: Vec<serde_json::Value> = s
        .ids()
        .filter(|&c| sees(c))
        .map(|c| {
            let mut v = serde_json::to_value(s.ch(c)).unwrap_or_default();
            if let serde_json::Value::Object(m) = &mut v {
                m.insert("index".into(), c.into());
                m.insert("acted".into(), s.order.has_acted(c).into());
            }
            v
        })
        .collect();
    let frames: Vec<&Frame> = s.frames.iter().filter(|f| frame_people(f).all(sees)).collect();
    serde_json::json!({
        "round": s.round,
        "phase": s.phase,
        "fat": s.fat,
        "initiative": s.initiative,
        "opening": s.opening,
        "turn": s.turn.as_ref().filter(|t| sees(t.who)),
        "characters": chars,
        "ground": s.ground,
        "frames": frames,
        "outcome": s.outcome,
    })
}

/// The characters a frame names.
fn frame_people(f: &Frame) -> impl Iterator<Item = Cid> + '_ {
    let v: Vec<Cid> = match f {
        Frame::Attack(a) => vec![a.by, a.target],
        Frame::Step(st) => vec![st.who, st.next],
        Frame::Morale { who } => who.clone(),
    };
    v.into_iter()
}

/// The character an event is about, when what it says would give away where a hidden
/// character is or what it does.
fn subject(e: &Event) -> Option<Cid> {
    Some(match e {
        Event::TurnStarted { who }
        | Event::TurnLost { who, .. }
        | Event::TurnEnded { who }
        | Event::Ran { who, .. }
        | Event::Moved { who, .. }
        | Event::Covered { who, .. }
        | Event::Acted { who, .. }
        | Event::Save { who, .. }
        | Event::Dropped { who, .. }
        | Event::PickedUp { who, .. }
        | Event::Equipped { who, .. }
        | Event::Stowed { who, .. }
        | Event::Used { who, .. }
        | Event::Reloaded { who, .. }
        | Event::Condition { who, .. }
        | Event::Reacted { who, .. }
        | Event::Damaged { who, .. }
        | Event::Fell { who, .. }
        | Event::Healed { who, .. }
        | Event::Injured { who, .. }
        | Event::MoraleProof { who }
        | Event::Gave { who, .. }
        | Event::Resumed { who }
        | Event::Grab { who, .. }
        | Event::Worn { who, .. }
        | Event::Durability { who, .. }
        | Event::StandInDeclined { who, .. }
        | Event::BlowStopped { who } => *who,
        Event::DamageRoll { by, .. } => *by,
        _ => return None,
    })
}

/// Whether `e` is part of a surprise attack by a character hidden from `seat` on a target the
/// seat sees: the attack line, the attacker's save to hit and its damage roll. MUR-R42: such an
/// attack resolves before its attacker is revealed, and the seat is shown what it suffers (who
/// strikes, with what, at whom, the dice), never where the blow came from.
fn surprise_seen(s: &State, seat: Seat, e: &Event) -> bool {
    let seen = |a: &crate::state::Attack| a.surprise && hidden_from(s, seat, a.by) && !hidden_from(s, seat, a.target);
    match e {
        Event::Frame(FrameOp::Push(Frame::Attack(a))) => seen(a),
        Event::DamageRoll { by, .. }
        | Event::Save {
            who: by,
            why: crate::state::Why::Hit,
            ..
        } => matches!(s.frames.last(), Some(Frame::Attack(a)) if a.by == *by && seen(a)),
        _ => false,
    }
}

/// What `seat` is shown of `e` (judged before it applies): nothing of what a character hidden
/// from it does, but the surprise attack it is struck by; everything else, the reveal
/// included.
pub fn redact(s: &State, seat: Seat, e: &Event) -> Shown<Event> {
    if surprise_seen(s, seat, e) {
        return Shown::All;
    }
    match e {
        // A group save shows only the members the seat sees (MUR-R44, MUR-R47).
        Event::GroupSave { roll, members, why } if members.iter().any(|m| hidden_from(s, seat, m.0)) => {
            let seen: Vec<_> = members.iter().copied().filter(|m| !hidden_from(s, seat, m.0)).collect();
            if seen.is_empty() {
                return Shown::Nothing;
            }
            return Shown::As(Event::GroupSave {
                roll: *roll,
                members: seen,
                why: *why,
            });
        }
        // The morale frame lists only the characters the seat sees.
        Event::Frame(FrameOp::Push(Frame::Morale { who }) | FrameOp::Update(Frame::Morale { who }))
            if who.iter().any(|&w| hidden_from(s, seat, w)) =>
        {
            let seen: Vec<Cid> = who.iter().copied().filter(|&w| !hidden_from(s, seat, w)).collect();
            if seen.is_empty() {
                return Shown::Nothing;
            }
            let op = match e {
                Event::Frame(FrameOp::Push(_)) => FrameOp::Push(Frame::Morale { who: seen }),
                _ => FrameOp::Update(Frame::Morale { who: seen }),
            };
            return Shown::As(Event::Frame(op));
        }
        Event::Frame(FrameOp::Push(f) | FrameOp::Update(f)) if frame_people(f).any(|w| hidden_from(s, seat, w)) => {
            return Shown::Nothing;
        }
        // Nor that a step waited on a hidden character (its question moving on past it).
        Event::Frame(FrameOp::Update(Frame::Step(_)) | FrameOp::Pop)
            if s.frames
                .last()
                .is_some_and(|f| frame_people(f).any(|w| hidden_from(s, seat, w))) =>
        {
            return Shown::Nothing;
        }
        _ => {}
    }
    match subject(e) {
        Some(who) if hidden_from(s, seat, who) => Shown::Nothing,
        _ => Shown::All,
    }
}

/// A hidden character's commands are not shown to the seats it is hidden from, except those
/// that reveal it (an attack, an influence, talk, dropping or picking up an item) and the end
/// of its turn, which the next faction's opportunity makes plain anyway.
pub fn redact_command(s: &State, seat: Seat, c: &Command) -> Shown<Command> {
    let Some(who) = crate::pending_actor(s) else {
        return Shown::All;
    };
    if !hidden_from(s, seat, who) {
        return Shown::All;
    }
    let reveals = matches!(
        c,
        Command::Attack { .. }
            | Command::Influence { .. }
            | Command::Say(_)
            | Command::Opportunity(_)
            | Command::Drop(_)
            | Command::PickUp(_)
            | Command::End
            | Command::TimedOut
            | Command::Surrender
    );
    if reveals { Shown::All } else { Shown::Nothing }
}

/// Positions `seat` cannot tell apart from `s`: each character hidden from it standing in
/// another zone next to its own, where there is room.
pub fn indistinguishable(s: &State, seat: Seat, out: &mut Vec<State>) {
    for c in s.ids() {
        if !hidden_from(s, seat, c) || s.ch(c).down() {
            continue;
        }
        let at = s.ch(c).at;
        let others: Vec<_> = at
            .steps(&s.setup.zones)
            .map(|(p, _)| p)
            .filter(|p| s.crowd(*p, None) < p.capacity())
            .take(2)
            .collect();
        for p in others {
            let mut v = s.clone();
            v.chars[c as usize].at = p;
            v.chars[c as usize].cover = false;
            out.push(v);
        }
    }
}
