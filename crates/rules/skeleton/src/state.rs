//! The state, the events, and the one [`apply`] that changes the state.

use crate::command::Ruling;
use crate::options::Options;
use crate::setup::{Cid, Combatant, Setup, Stats};
use fray_engine::gm::Ruling as R;
use fray_engine::order::InitiativeOrder;
use fray_engine::resolve::{FrameOp, apply_frame_op};
use fray_engine::{Outcome, Seat};
use fray_space::Pos;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A whole game position. Clones are cheap: the setup sits behind an `Arc`.
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
    pub chars: Vec<Char>,
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
    Attacked {
        by: Cid,
        target: Cid,
        roll: u16,
        total: i16,
        defence: i16,
        dodged: bool,
        hit: bool,
    },
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

    /// A combatant (the index must be valid: check commands first).
    pub fn ch(&self, c: Cid) -> &Char {
        &self.chars[c as usize]
    }

    /// Every combatant's index.
    pub fn ids(&self) -> impl Iterator<Item = Cid> + use<> {
        0..self.chars.len() as Cid
    }

    /// The combatant with this id (typed ids ignore case).
    pub fn find(&self, id: &str) -> Option<Cid> {
        fray_engine::encounter::find_id(self.chars.iter().map(|c| c.id.as_str()), id).map(|i| i as Cid)
    }

    /// The seat that decides for a combatant: its own, if the encounter gives it one, else its
    /// side's (a combatant the GM adds has its side's).
    pub fn seat_of(&self, c: Cid) -> Seat {
        self.setup
            .combatants
            .get(c as usize)
            .and_then(|k| k.seat)
            .unwrap_or_else(|| self.setup.sides[self.ch(c).side as usize].seat)
    }

    /// Whether a combatant may step onto `p`: on the map, not blocked, nobody in the fight there.
    pub fn open(&self, p: Pos) -> bool {
        self.setup.map.get(p).is_some_and(|c| !c.blocked) && !self.chars.iter().any(|c| c.at == p && !c.out())
    }
}

/// Applies one event: the only function that changes the state.
pub fn apply(s: &mut State, e: &Event) {
    match e {
        Event::Initiative { who, total, .. } => s.chars[*who as usize].initiative = *total,
        Event::RoundStarted { round } => {
            if *round == 1 {
                // SKL-R1: highest first; the stable sort keeps equal totals in encounter order.
                let keys = s
                    .chars
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (i as Cid, i32::from(c.initiative)));
                s.order = InitiativeOrder::new(keys, true);
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
            s.chars[*who as usize].at = *to;
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
        Event::Attacked { target, dodged, .. } => s.chars[*target as usize].dodged |= *dodged,
        Event::Damaged { who, amount } => {
            let c = &mut s.chars[*who as usize];
            c.health = (c.health - amount).max(0);
            take_out_if_out(s, *who);
        }
        Event::TurnEnded { .. } => {
            s.turn = None;
            s.order.finish_current();
        }
        Event::Ruled(r) => rule(s, r),
        Event::Ended { winner } => {
            s.outcome = Some(Outcome {
                winner: *winner,
                reason: "last-side-standing".into(),
            });
        }
    }
}

/// A combatant who is out takes no more turns (SKL-R7).
fn take_out_if_out(s: &mut State, who: Cid) {
    if s.ch(who).out() {
        s.order.deactivate(who);
    }
}

fn rule(s: &mut State, r: &Ruling) {
    match r {
        R::Adjust { who, by, .. } => {
            let c = &mut s.chars[*who as usize];
            c.health = by.apply(c.health);
            take_out_if_out(s, *who);
        }
        R::Move { who, to } => s.chars[*who as usize].at = *to,
        R::Add { id, template, side, at } => {
            let Some(&stats) = s.setup.templates.get(template) else {
                return;
            };
            let (id, side, at) = (id.clone(), *side, *at);
            let who = s.chars.len() as Cid;
            s.chars.push(Char::new(&Combatant {
                name: id.clone(),
                id,
                side,
                at,
                stats,
                seat: None,
            }));
            // A newcomer acts last, from the next round.
            s.order.insert_joined(who, i32::MIN, false);
        }
        R::Remove { who } => {
            s.chars[*who as usize].removed = true;
            take_out_if_out(s, *who);
        }
        R::End { winner } => {
            s.outcome = Some(Outcome {
                winner: *winner,
                reason: "gm-ended".into(),
            })
        }
        R::Other(x) => match *x {},
    }
}
