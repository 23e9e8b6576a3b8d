//! The state, the events, and the one [`apply`] that changes the state.

use crate::command::Gauge;
use crate::options::Options;
use crate::setup::{Cid, Combatant, MAX_COMBATANTS, STAT_LIMIT, Setup, Stats};
use fray_engine::gm::Adjust;
use fray_engine::kit::roster::{Member, Roster};
use fray_engine::kit::rulings::{self, GmApply, GmTable, RulingOf};
use fray_engine::order::InitiativeOrder;
use fray_engine::resolve::{FrameOp, apply_frame_op};
use fray_engine::sides::Side;
use fray_engine::{Outcome, Reject, Seat};
use fray_space::Pos;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A GM ruling in the shared vocabulary; the skeleton has none of its own.
pub type Ruling = RulingOf<State>;

/// A whole game position. Clones are cheap: the setup sits behind an `Arc`. It dereferences
/// to its roster, so `s.ch(c)`, `s.ids()` and `s.find(id)` read the combatants.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The encounter.
    pub setup: Arc<Setup>,
    /// The options in force.
    pub options: Options,
    /// The round (0 before the first).
    pub round: u32,
    /// The initiative order (SKL-R1), built when round 1 starts.
    pub order: InitiativeOrder,
    /// Every combatant, GM additions after the encounter's.
    pub chars: Roster<Char>,
    /// The turn under way, if any.
    pub turn: Option<Turn>,
    /// Attacks waiting for the defender's decision (SKL-R5).
    pub frames: Vec<Attack>,
    /// How the combat ended, once it has.
    pub outcome: Option<Outcome>,
}

/// A combatant now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Char {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: u8,
    /// The seat it names for itself, if any (a combatant the GM adds has its side's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// Its stat block.
    pub stats: Stats,
    /// Health now.
    pub health: i16,
    /// Where it stands.
    pub at: Pos,
    /// Its initiative total (SKL-R1).
    pub initiative: i16,
    /// Whether it has dodged this round (SKL-R5).
    pub dodged: bool,
    /// Taken out of the fight by the GM.
    pub removed: bool,
}

impl Char {
    /// A combatant as it enters the fight.
    pub fn new(c: &Combatant) -> Char {
        Char {
            id: c.id.clone(),
            name: c.name.clone(),
            side: c.side,
            seat: c.seat,
            stats: c.stats,
            health: c.stats.health,
            at: c.at,
            initiative: 0,
            dodged: false,
            removed: false,
        }
    }

    /// Out of the fight: at 0 health (SKL-R7) or removed.
    pub fn out(&self) -> bool {
        self.health <= 0 || self.removed
    }
}

impl Member for Char {
    fn id(&self) -> &str {
        &self.id
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn side(&self) -> u8 {
        self.side
    }
    fn seat(&self) -> Option<Seat> {
        self.seat
    }
    fn out(&self) -> bool {
        Char::out(self)
    }
}

/// The turn under way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Whose turn.
    pub who: Cid,
    /// Squares of movement left (SKL-R3).
    pub moves_left: i16,
    /// Whether it has attacked (SKL-R4).
    pub attacked: bool,
}

/// An attack waiting for the defender's decision: the one kind of frame.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    /// The attacker.
    pub by: Cid,
    /// The defender.
    pub target: Cid,
    /// The defender's answer: dodge or not; `None` until it is given.
    pub dodge: Option<bool>,
}

/// What resolution produces; the only thing that changes the state. `who`, `by` and `target`
/// are combatants; every roll keeps its face.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// An initiative roll (SKL-R1): the d6 and the total with speed.
    Initiative { who: Cid, roll: u16, total: i16 },
    /// A round begins; round 1 sorts the order.
    RoundStarted { round: u32 },
    /// A turn begins.
    TurnStarted { who: Cid },
    /// A move to `to`, costing `cost` squares of movement.
    Moved { who: Cid, to: Pos, cost: i16 },
    /// The attack stack changes (a push declares an attack).
    Frame(FrameOp<Attack>),
    /// An attack roll (SKL-R6): the d20, the total with attack, the defence it had to reach
    /// (with the dodge, if `dodged`), and whether it hit.
    #[rustfmt::skip]
    Attacked { by: Cid, target: Cid, roll: u16, total: i16, defence: i16, dodged: bool, hit: bool },
    /// `amount` damage (SKL-R6); at 0 health the combatant is out (SKL-R7).
    Damaged { who: Cid, amount: i16 },
    /// The turn is over.
    TurnEnded { who: Cid },
    /// A GM ruling.
    Ruled(Ruling),
    /// At most one side is left (SKL-R8).
    Ended { winner: Option<u8> },
}

impl State {
    /// The state before anything is rolled.
    pub fn new(setup: &Setup, options: &Options) -> State {
        State {
            setup: Arc::new(setup.clone()),
            options: options.clone(),
            round: 0,
            order: InitiativeOrder::new([], true),
            chars: setup.combatants.iter().map(Char::new).collect(),
            turn: None,
            frames: Vec::new(),
            outcome: None,
        }
    }

    /// The seat that decides for a combatant: its own, if the encounter gives it one, else its
    /// side's.
    pub fn seat_of(&self, c: Cid) -> Seat {
        self.chars.seat_of(c, &self.setup.sides)
    }

    /// Whether a combatant may step onto `p`: on the map, not blocked, nobody in the fight there.
    pub fn open(&self, p: Pos) -> bool {
        self.setup.map.get(p).is_some_and(|c| !c.blocked) && !self.chars.iter().any(|c| c.at == p && !c.out())
    }

    /// A combatant who is out takes no more turns (SKL-R7).
    fn take_out_if_out(&mut self, who: Cid) {
        if self.ch(who).out() {
            self.order.deactivate(who);
        }
    }
}

impl std::ops::Deref for State {
    type Target = Roster<Char>;
    fn deref(&self) -> &Roster<Char> {
        &self.chars
    }
}

/// Applies one event: the only function that changes the state.
pub fn apply(s: &mut State, e: &Event) {
    match e {
        Event::Initiative { who, total, .. } => s.chars.ch_mut(*who).initiative = *total,
        Event::RoundStarted { round } => {
            if *round == 1 {
                // SKL-R1: highest first; the stable sort keeps equal totals in encounter order.
                let keys = s.chars.iter().enumerate();
                s.order = InitiativeOrder::new(keys.map(|(i, c)| (i as Cid, i32::from(c.initiative))), true);
            }
            s.round = *round;
            s.order.start_round();
            s.chars.iter_mut().for_each(|c| c.dodged = false);
        }
        Event::TurnStarted { who } => {
            let moves_left = s.ch(*who).stats.speed;
            s.turn = Some(Turn {
                who: *who,
                moves_left,
                attacked: false,
            });
        }
        Event::Moved { who, to, cost } => {
            s.chars.ch_mut(*who).at = *to;
            if let Some(t) = &mut s.turn {
                t.moves_left -= cost;
            }
        }
        Event::Frame(op) => {
            // Declaring an attack uses the turn's one attack (SKL-R4).
            if let (FrameOp::Push(_), Some(t)) = (op, &mut s.turn) {
                t.attacked = true;
            }
            apply_frame_op(&mut s.frames, op.as_ref());
        }
        Event::Attacked { target, dodged, .. } => s.chars.ch_mut(*target).dodged |= *dodged,
        Event::Damaged { who, amount } => {
            let c = s.chars.ch_mut(*who);
            c.health = (c.health - amount).max(0);
            s.take_out_if_out(*who);
        }
        Event::TurnEnded { .. } => {
            s.turn = None;
            s.order.finish_current();
        }
        Event::Ruled(r) => rulings::apply(s, r),
        Event::Ended { winner } => {
            s.outcome = Some(Outcome {
                winner: *winner,
                reason: "last-side-standing".into(),
            });
        }
    }
}

/// The GM's rulings: the shared ones only, over health and squares.
impl GmTable for State {
    type Member = Char;
    type Gauge = Gauge;
    type Pos = Pos;
    type Own = OwnRuling;
    const LIMIT: usize = MAX_COMBATANTS;
    const VERBS: &'static str = "set, move, add, remove or end";
    fn roster(&self) -> &Roster<Char> {
        &self.chars
    }
    fn sides(&self) -> &[Side] {
        &self.setup.sides
    }
    fn has_template(&self, name: &str) -> bool {
        self.setup.templates.contains_key(name)
    }
    fn room(&self, at: Pos) -> bool {
        self.open(at)
    }
    fn gauge(&self, word: &str) -> Result<Gauge, Reject> {
        match word {
            "health" => Ok(Gauge::Health),
            _ => Err(Reject::unreadable(format!(
                "'{word}' cannot be set: the only gauge is health"
            ))),
        }
    }
    fn gauge_name(&self, _: Gauge) -> String {
        "health".into()
    }
    fn pos(&self, word: &str) -> Result<Pos, Reject> {
        word.parse()
            .map_err(|_| Reject::unreadable(format!("'{word}' is not a square: expected x,y")))
    }
    fn check_adjust(&self, who: Cid, _: Gauge, by: Adjust) -> Result<(), String> {
        match by.apply(self.ch(who).health) {
            v if (0..=STAT_LIMIT).contains(&v) => Ok(()),
            v => Err(format!("health would be {v}: it must stay within 0..={STAT_LIMIT}")),
        }
    }
    fn own(&self, _: &[&str]) -> Option<Result<OwnRuling, Reject>> {
        None
    }
    fn check_own(&self, x: &OwnRuling) -> Result<(), String> {
        match *x {}
    }
    fn format_own(&self, x: &OwnRuling) -> String {
        match *x {}
    }
}

impl GmApply for State {
    fn adjust(&mut self, who: Cid, _: Gauge, by: Adjust) {
        let c = self.chars.ch_mut(who);
        c.health = by.apply(c.health);
        self.take_out_if_out(who);
    }
    fn put(&mut self, who: Cid, to: Pos) {
        self.chars.ch_mut(who).at = to;
    }
    fn add(&mut self, id: &str, template: &str, side: u8, at: Pos) {
        let Some(&stats) = self.setup.templates.get(template) else {
            return;
        };
        let (id, name) = (id.to_string(), id.to_string());
        let who = self.chars.len() as Cid;
        let seat = None;
        self.chars.push(Char::new(&Combatant {
            id,
            name,
            side,
            at,
            stats,
            seat,
        }));
        // A newcomer acts last, from the next round.
        self.order.insert_joined(who, i32::MIN, false);
    }
    fn remove(&mut self, who: Cid) {
        self.chars.ch_mut(who).removed = true;
        self.take_out_if_out(who);
    }
    fn outcome_mut(&mut self) -> &mut Option<Outcome> {
        &mut self.outcome
    }
    fn apply_own(&mut self, x: &OwnRuling) {
        match *x {}
    }
}

/// The skeleton has no rulings of its own beyond the shared ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OwnRuling {}
