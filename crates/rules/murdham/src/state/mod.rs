//! The state, the events, and the one [`apply`] that changes the state.
//!
//! The files: this one holds the whole position ([`State`]) and the round's small types (the
//! phase, a character's standing, why a save is rolled, the kinds of influence); `character`
//! a character as the fight changes it ([`Char`], its items); `frame` the turn under way and
//! the frames of the resolution stack (an attack and its stages, a step, the morale choices);
//! `event` every [`Event`] and the conditions they set; `apply` the one function that applies
//! an event, with the GM's rulings. The types keep their paths here (`state::Event`,
//! `state::Char`, ...): the split is by topic only, and the serialised forms do not change.

mod apply;
mod character;
mod event;
mod frame;

pub use self::apply::apply;
pub use self::character::{Char, Item};
pub use self::event::{Condition, Event};
pub use self::frame::{Attack, AttackStage, Frame, Mode, Reaction, Step, Turn, With};

use crate::data::Ability;
use crate::options::Options;
use crate::place::Place;
use crate::setup::{Cid, Setup};
use fray_engine::kit::roster::Roster;
use fray_engine::teams::TeamOrder;
use fray_engine::{Outcome, Seat, Seats};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Where the round stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Before anything: initiative not yet known.
    Setup,
    /// The ambushers' bonus turn before round 1: only concealed characters act (MUR-R40).
    Ambush,
    /// A round without the fast and slow phases.
    Round,
    /// The fast phase: only characters whose WIT reaches the threshold act (MUR-R53).
    Fast,
    /// The slow phase: everyone who has not acted (MUR-R53).
    Slow,
    /// The end of the round: morale (MUR-R5, MUR-R44).
    Morale,
}

/// How a character stands in the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Fighting.
    Up,
    /// Out until the end of the stretch after critical damage.
    Incapacitated,
    /// Dies at the end of a later round unless healed (`rounds` rounds ends still to come).
    Dying {
        /// Round ends left before death.
        rounds: u8,
    },
    /// Dead.
    Dead,
    /// A construct disabled until repaired.
    Disabled,
    /// A demon banished.
    Banished,
    /// Gave up (MUR-R44, MUR-R46): out of the fight unless harmed by the enemy.
    Surrendered,
    /// Left the fight (retreat, long chase).
    Fled,
}

/// A save's reason, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Why {
    /// To hit (MUR-R13).
    Hit,
    /// A dodge (MUR-R20).
    Dodge,
    /// Against a disarm (MUR-R34).
    Disarm,
    /// Against a grapple (MUR-R35).
    Grapple,
    /// To break free (MUR-R39).
    BreakFree,
    /// To free another (MUR-R39).
    Free,
    /// Against a distract, intimidate or taunt (MUR-R8).
    Influence,
    /// Against a stun, poison or a power's effect.
    Effect,
    /// A sneaking move (MUR-R42).
    Sneak,
    /// Morale (MUR-R44).
    Morale,
    /// A long chase (MUR-R47).
    Chase,
}

/// The influences of MUR-R8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Influence {
    /// The target loses its next turn.
    Distract,
    /// The target is frightened.
    Intimidate,
    /// The target may only try to harm the taunter on its next turn.
    Taunt,
}

fn no_seats(s: &Seats) -> bool {
    s.is_empty()
}

/// A whole game position. Clones are cheap: the setup sits behind an `Arc`. It dereferences
/// to its roster, so `s.ch(c)`, `s.ids()` and `s.find(id)` read the characters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The encounter.
    pub setup: Arc<Setup>,
    /// The options in force.
    pub options: Options,
    /// The round (0 before the first).
    pub round: u32,
    /// The phase.
    pub phase: Phase,
    /// The fast action threshold of this round (MUR-R52).
    pub fat: Option<u8>,
    /// The faction holding the initiative (MUR-R6).
    pub initiative: u8,
    /// Whether the initiative faction still has to say who opens this phase.
    pub opening: bool,
    /// Faction alternation with passes (MUR-R1 to MUR-R3).
    pub order: TeamOrder,
    /// Every character, GM additions after the encounter's.
    pub chars: Roster<Char>,
    /// Items lying on the ground, where.
    pub ground: Vec<(Place, Item)>,
    /// The turn under way, if any.
    pub turn: Option<Turn>,
    /// Decisions and steps in progress.
    pub frames: Vec<Frame>,
    /// Which factions have passed since the last turn was taken (MUR-R3, MUR-H14).
    pub passed: Vec<bool>,
    /// The seats that have passed at the opportunity of the faction under way while other
    /// seats of it were still asked (MUR-R1 with several players: see
    /// [`crate::resolve::seats_asked`]); empty again once a turn is taken or the faction
    /// passes.
    #[serde(default, skip_serializing_if = "no_seats")]
    pub seats_passed: Seats,
    /// Factions' sizes when the fight began (MUR-H11).
    pub original: Vec<u8>,
    /// The fight's end has been reached and gear rolled (MUR-R48).
    pub outcome: Option<Outcome>,
}

impl State {
    /// The state before anything is rolled.
    pub fn new(setup: &Setup, options: &Options) -> State {
        let chars: Roster<Char> = setup.combatants.iter().map(|c| Char::new(c, &setup.items)).collect();
        let slots: Vec<u8> = (0..setup.sides.len() as u8).collect();
        let team_of = chars.iter().map(|c| c.side).collect();
        let mut original = vec![0u8; setup.sides.len()];
        for c in &chars {
            original[c.side as usize] = original[c.side as usize].saturating_add(1);
        }
        State {
            setup: Arc::new(setup.clone()),
            options: options.clone(),
            round: 0,
            phase: Phase::Setup,
            fat: None,
            initiative: 0,
            opening: false,
            order: TeamOrder::new(slots, team_of).with_passing(),
            chars,
            ground: Vec::new(),
            turn: None,
            frames: Vec::new(),
            passed: vec![false; setup.sides.len()],
            seats_passed: Seats::EMPTY,
            original,
            outcome: None,
        }
    }

    /// The seat that decides for a character: the one the encounter gives it, else its
    /// faction's (a character the GM adds has its faction's). The character's own seat is
    /// read from the encounter, not kept in the state, so the roster sees none.
    pub fn seat_of(&self, who: Cid) -> Seat {
        self.setup
            .combatants
            .get(who as usize)
            .and_then(|c| c.seat)
            .unwrap_or_else(|| self.chars.seat_of(who, &self.setup.sides))
    }

    /// Whether `seat` plays a character of faction `side` (one of those in the fight or out
    /// of it: who plays whom never changes).
    pub fn plays(&self, seat: Seat, side: u8) -> bool {
        self.ids().any(|c| self.ch(c).side == side && self.seat_of(c) == seat)
    }

    /// Whether two characters are enemies (of different factions), whoever plays them.
    pub fn enemies(&self, a: Cid, b: Cid) -> bool {
        self.ch(a).side != self.ch(b).side
    }

    /// Whether `who` is hidden from faction `side`: concealed, and of another faction
    /// (MUR-R57).
    pub fn hidden_from(&self, who: Cid, side: u8) -> bool {
        let c = self.ch(who);
        c.concealed && c.side != side
    }

    /// The sides that are player sides (MUR-H12).
    pub fn is_player_side(&self, side: u8) -> bool {
        self.setup.player_sides.contains(&side)
    }

    /// How many characters stand at a place (seen by `side`: concealed enemies squeeze in
    /// unseen, so they do not count against a place's capacity for it).
    pub fn crowd(&self, at: Place, side: Option<u8>) -> usize {
        self.chars
            .iter()
            .enumerate()
            .filter(|(_, c)| c.at == at && !matches!(c.status, Status::Dead | Status::Fled | Status::Banished))
            .filter(|(i, _)| side.is_none_or(|s| !self.hidden_from(*i as Cid, s)))
            .count()
    }

    /// The character's place now.
    pub fn at(&self, who: Cid) -> Place {
        self.ch(who).at
    }

    /// Whether two characters are nearby (range 0).
    pub fn nearby(&self, a: Cid, b: Cid) -> bool {
        self.ch(a).at.nearby(self.ch(b).at, &self.setup.zones)
    }

    /// The round whose turn a character stunned or distracted now loses: this one if its turn
    /// is still to come, else the next (the ambush bonus turn is before round 1, MUR-R40).
    pub fn round_to_lose(&self, who: Cid) -> u32 {
        if self.order.has_acted(who) || self.phase == Phase::Ambush || self.round == 0 {
            self.round + 1
        } else {
            self.round
        }
    }

    /// Whether someone can take a turn in the current phase (MUR-R4, MUR-R40, MUR-R53).
    pub fn may_take_turn(&self, who: Cid) -> bool {
        let c = self.ch(who);
        if !c.can_act() || c.lost_round == Some(self.round) {
            return false;
        }
        match self.phase {
            Phase::Ambush => c.concealed,
            // MUR-R53: in the fast phase only those whose WIT reaches the threshold take turns
            // (a tie by the `fast-on-tie` option); the slow phase is open to everyone left.
            Phase::Fast => {
                let fat = self.fat.unwrap_or(21);
                let wit = c.ability(Ability::Wit);
                wit > fat || (wit == fat && self.options.fast_on_tie)
            }
            Phase::Round | Phase::Slow => true,
            Phase::Setup | Phase::Morale => false,
        }
    }
}

impl std::ops::Deref for State {
    type Target = Roster<Char>;
    fn deref(&self) -> &Roster<Char> {
        &self.chars
    }
}
