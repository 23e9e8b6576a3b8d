//! What each seat may know, and what it is shown of events and commands (MUR-R57).
//!
//! A concealed character is hidden from every seat that plays no character of its faction (the
//! GM sees everything): a seat that plays one of them, whichever, sees its concealed allies. A
//! seat that plays none of the faction's view leaves it out altogether, its log leaves out what it does
//! while concealed, and its AI acts as though it were not there. The moment it is revealed
//! (MUR-R42) it appears in the view and the log again.

use crate::command::Command;
use crate::setup::Cid;
use crate::state::{Event, Frame, State};
use fray_engine::resolve::FrameOp;
use fray_engine::view::{CombatantView, Gauge, Lens, Place, Status, Table};
use fray_engine::{Seat, Shown};
use std::borrow::Cow;
use std::ops::Deref;

/// Whether character `who` is hidden from `seat`: concealed, and `seat` is not the GM and plays
/// no character of its faction (MUR-R57).
pub fn hidden_from(s: &State, seat: Seat, who: Cid) -> bool {
    if seat.is_gm() {
        return false;
    }
    let Some(c) = s.chars.get(who as usize) else {
        return false;
    };
    c.concealed && !s.plays(seat, c.side)
}

/// Whether anything is hidden from `seat` now.
pub fn hides_from(s: &State, seat: Seat) -> bool {
    s.ids().any(|c| hidden_from(s, seat, c) && !s.ch(c).down())
}

/// How many characters are hidden from `seat` now.
pub fn hidden_count(s: &State, seat: Seat) -> usize {
    s.ids().filter(|&c| hidden_from(s, seat, c) && !s.ch(c).down()).count()
}

/// A seat's screen: the JSON view, hidden characters left out.
pub type View<'a> = Lens<'a, State>;

/// The JSON view of `seat` on `s`.
pub fn view(s: &State, seat: Seat) -> View<'_> {
    Lens::new(s, seat, json)
}

/// The state as `seat` may know it, which is what its AI reads: a character hidden from the
/// seat stands at the place it started from, off any cover spot, whatever it is doing.
pub fn seen(s: &State, seat: Seat) -> Cow<'_, State> {
    fray_engine::view::masked(s, hides_from(s, seat), |v| {
        for c in s.ids().filter(|&c| hidden_from(s, seat, c)) {
            if let Some(start) = s.setup.combatants.get(c as usize) {
                let ch = &mut v.chars[c as usize];
                ch.at = start.at;
                ch.cover = false;
            }
        }
    })
}

/// How a seat's AI looks at the state it may know ([`seen`]): through this, asking
/// [`Sight::sees`] before it looks at a character.
#[derive(Clone, Copy)]
pub struct Sight<'a> {
    state: &'a State,
    seat: Seat,
}

impl<'a> Sight<'a> {
    /// `seat` looking at `state` (the state as the seat may know it).
    pub fn new(state: &'a State, seat: Seat) -> Sight<'a> {
        Sight { state, seat }
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

impl Deref for Sight<'_> {
    type Target = State;
    fn deref(&self) -> &State {
        self.state
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

/// The battlefield as `seat` may see it, for a client to draw: every zone with its name, cover
/// spots, `exit` and tags (`barrier`, `concealment`, `hazard-N`...), every link tagged `border`
/// (a place of its own, between its zones), and the items lying on the ground in a zone or on
/// a border, as the JSON view's `ground` shows them. It holds no character, so a concealed
/// one changes nothing on it.
pub fn board(s: &State, seat: Seat) -> fray_engine::view::Board {
    use fray_engine::view::Board;
    let _ = seat;
    let map = &s.setup.zones;
    let mut board = Board::zones(map);
    let Board::Zones { zones, links } = &mut board else {
        return board;
    };
    for l in links.iter_mut() {
        l.tag("border");
    }
    for (place, item) in &s.ground {
        let name = s
            .setup
            .item(&item.id)
            .map_or_else(|| item.id.clone(), |d| d.name.clone());
        let at = match place.b {
            None => zones.get_mut(place.a.index()).map(|z| &mut z.items),
            Some(b) => map
                .links()
                .iter()
                .position(|l| crate::place::Place::border(l.a, l.b) == crate::place::Place::border(place.a, b))
                .and_then(|i| links.get_mut(i))
                .map(|l| &mut l.items),
        };
        if let Some(items) = at {
            items.push(name);
        }
    }
    board
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

/// What `seat` is shown in the shape every ruleset shares: what its tracker shows, faction,
/// place, health and abilities, and every flag and status. Every seat's list names the same
/// characters, so a character concealed from the seat (MUR-R57) stands in it by its id, name,
/// faction and seat only: no place, numbers or statuses.
pub fn table(s: &State, seat: Seat) -> Table {
    use crate::data::Ability;
    use crate::state::{Phase, Status as Life};
    let seen_id = |c: Option<Cid>| {
        c.filter(|&x| !hidden_from(s, seat, x))
            .and_then(|x| s.chars.get(x as usize))
            .map(|x| x.id.clone())
    };
    let flag = |name: &str, value: Option<String>, ends: Option<&str>| Status {
        name: name.to_string(),
        value,
        ends: ends.map(str::to_string),
    };
    let combatants = s
        .ids()
        .map(|c| {
            let ch = s.ch(c);
            let side = &s.setup.sides[ch.side as usize];
            if hidden_from(s, seat, c) {
                // MUR-R57: left out of the seat's view (see `unseen` below).
                return CombatantView {
                    id: ch.id.clone(),
                    name: ch.name.clone(),
                    side: side.id.clone(),
                    seat: fray_engine::sides::seat_name(&s.setup.seats, s.seat_of(c)),
                    place: None,
                    gauges: Vec::new(),
                    statuses: Vec::new(),
                    out: false,
                };
            }
            let mut gauges = vec![Gauge::of("health", ch.health, ch.stats.max_health())];
            for (i, (a, word)) in [(Ability::Str, "str"), (Ability::Agi, "agi"), (Ability::Wit, "wit")]
                .into_iter()
                .enumerate()
            {
                let now = ch.ability(a);
                gauges.push(Gauge::of(word, now, now.saturating_add(ch.lowered[i])));
            }
            let mut statuses = Vec::new();
            match ch.status {
                Life::Up => {}
                Life::Incapacitated => statuses.push(Status::on("incapacitated")),
                Life::Dying { rounds } => statuses.push(flag(
                    "dying",
                    Some((u32::from(rounds) + 1).to_string()),
                    Some("dies after that many more round ends, unless healed"),
                )),
                Life::Dead => statuses.push(Status::on("dead")),
                Life::Disabled => statuses.push(Status::on("disabled")),
                Life::Banished => statuses.push(Status::on("banished")),
                Life::Surrendered => statuses.push(Status::on("surrendered")),
                Life::Fled => statuses.push(Status::on("fled")),
            }
            if s.order.has_acted(c) {
                statuses.push(flag("acted", None, Some("end of the round")));
            }
            if ch.concealed {
                statuses.push(Status::on("concealed"));
            }
            if ch.cover {
                statuses.push(Status::on("cover"));
            }
            if ch.grabbed_by.is_some() {
                statuses.push(flag("grabbed", seen_id(ch.grabbed_by), None));
            }
            if ch.poisoned {
                statuses.push(Status::on("poisoned"));
            }
            if ch.frightened_of.is_some() {
                statuses.push(flag("frightened", seen_id(ch.frightened_of), None));
            }
            if ch.lost_round == Some(s.round) {
                statuses.push(flag("stunned", None, Some("end of the round")));
            }
            if ch.morale_proof {
                statuses.push(Status::on("steady"));
            }
            let i = &ch.injuries;
            for (on, name) in [
                (i.hobbled, "hobbled"),
                (i.arms[0], "main-arm-injured"),
                (i.arms[1], "other-arm-injured"),
                (i.eyes == 1, "one-eyed"),
                (i.blind(), "blind"),
                (ch.next_hit > 0, "next-hit-enhanced"),
                (ch.next_hit < 0, "next-hit-impaired"),
            ] {
                if on {
                    statuses.push(Status::on(name));
                }
            }
            let left = matches!(ch.status, Life::Fled | Life::Banished);
            CombatantView {
                id: ch.id.clone(),
                name: ch.name.clone(),
                side: side.id.clone(),
                seat: fray_engine::sides::seat_name(&s.setup.seats, s.seat_of(c)),
                place: (!left).then(|| place(s, ch.at)),
                gauges,
                statuses,
                out: !ch.up(),
            }
        })
        .collect();
    Table {
        round: s.round,
        phase: match s.phase {
            Phase::Setup | Phase::Round => None,
            Phase::Ambush => Some("ambush".into()),
            Phase::Fast => Some("fast".into()),
            Phase::Slow => Some("slow".into()),
            Phase::Morale => Some("morale".into()),
        },
        order: s
            .order
            .slots()
            .iter()
            .filter_map(|&f| s.setup.sides.get(f as usize))
            .map(|x| x.id.clone())
            .collect(),
        combatants,
        sides: s.setup.sides.iter().map(|x| x.id.clone()).collect(),
        unseen: s.ids().filter(|&c| hidden_from(s, seat, c)).collect(),
    }
}

/// A place as the shared view writes it: a zone, or the border of two zones, by id.
fn place(s: &State, at: crate::place::Place) -> Place {
    let id = |z| s.setup.zones.id(z).to_string();
    match at.b {
        None => Place::Zone { zone: id(at.a) },
        Some(b) => Place::Border {
            zones: [id(at.a), id(b)],
        },
    }
}
