//! The state, the events, and the one [`apply`] that changes the state.
//!
//! The state is plain data: this file holds the creatures, their cards and Harm, and the
//! [`State`] with the questions every rule asks of it; the frames of the resolution stack are
//! in `frames.rs`, the events in `event.rs`, and [`apply`] (with the arithmetic of the Harm
//! track it marks, [`place`] and [`splits`]) in `apply.rs`. The split keeps each file about one
//! thing; every type is re-exported here, so `state::Event`, `state::AttackFrame` and the rest
//! keep their paths, and their serialized forms are untouched.

use crate::data::Action;
use crate::options::Options;
use crate::setup::{Cid, Combatant, Setup, Stats};
use crate::zones::MapExt;
use fray_engine::Outcome;
use fray_engine::Seats;
use fray_engine::kit::roster::{Member, Roster};
use fray_engine::order::InitiativeOrder;
use fray_space::ZoneId;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

mod apply;
mod event;
mod frames;

pub use self::apply::{MAX_SPLIT, apply, order_from_cards, place, pushed, splits};
pub use self::event::{Event, TurnEnd, Why};
pub use self::frames::{
    AttackFrame, AttackKind, BreakFrame, Defence, FleeFrame, Frame, KeepFrame, PushFrame, PushSlot, SplitFrame,
    SwapAnswer,
};

/// The most cards one creature holds (its `cards`, up to 3, and an ambush's extra one while it
/// chooses).
pub const MAX_CARDS: usize = 4;

/// An initiative card (EIN-R1): its value, and which deck it came from when one deck was not
/// enough (EIN-H12: 0 the first deck, 1 the second, 2 a joiner's card beyond both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Card {
    /// The value, 1 to 10 (or more for a joiner beyond the decks).
    pub value: u8,
    /// The deck.
    pub deck: u8,
}

impl Card {
    /// The card a deck code stands for: 1 to 10 the first deck, 11 to 20 the second.
    pub fn from_code(code: u16) -> Card {
        let code = code.clamp(1, 20) as u8;
        Card {
            value: (code - 1) % 10 + 1,
            deck: (code - 1) / 10,
        }
    }

    /// The deck code of this card.
    pub fn code(self) -> u16 {
        u16::from(self.deck) * 10 + u16::from(self.value)
    }

    /// The sort key (EIN-R3 lowest first; EIN-H12 a second deck's card after the first deck's
    /// of the same value; EIN-H23 a creature that took a group's value by a swap before the
    /// group).
    pub fn key(self, grouped: bool) -> i32 {
        (i32::from(self.value) * 4 + i32::from(self.deck)) * 2 + i32::from(grouped)
    }
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.deck {
            1 => write!(f, "{}'", self.value),
            _ => write!(f, "{}", self.value),
        }
    }
}

/// A small inline list (no allocation when a state is cloned).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hand {
    cards: [Card; MAX_CARDS],
    len: u8,
}

impl Hand {
    /// The cards, in the order drawn.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..(self.len as usize).min(MAX_CARDS)]
    }

    /// Adds a card (ignored when full).
    pub fn push(&mut self, c: Card) {
        if (self.len as usize) < MAX_CARDS {
            self.cards[self.len as usize] = c;
            self.len += 1;
        }
    }

    /// Replaces the card `old` with `new`; whether it held `old`.
    pub fn replace(&mut self, old: Card, new: Card) -> bool {
        let n = self.len as usize;
        match self.cards[..n.min(MAX_CARDS)].iter().position(|&c| c == old) {
            Some(i) => {
                self.cards[i] = new;
                true
            }
            None => false,
        }
    }

    /// How many cards.
    pub fn len(&self) -> usize {
        self.cards().len()
    }

    /// Whether it holds no card.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The lowest card.
    pub fn best(&self) -> Option<Card> {
        self.cards().iter().copied().min_by_key(|c| c.key(false))
    }
}

/// A Harm track's marks: lesser, moderate, severe.
pub type Rows = [u8; 3];

/// Where a creature stands with the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Still fighting.
    Fighting,
    /// A severe Harm: out unless helped (EIN-H2); Harm points beyond capacity (EIN-H13).
    Incapacitated,
    /// Harm past the top row: a critical injury, out for good (EIN-H22).
    Broken,
    /// It fled the fight (EIN-R32).
    Fled,
    /// Taken out by the GM.
    Removed,
}

/// Harm taken (EIN-R34): two tracks of rows, or Harm points (EIN-R24).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Harm {
    /// Physical marks per row.
    pub physical: Rows,
    /// Mental marks per row.
    pub mental: Rows,
    /// Harm points (EIN-R24).
    pub points: u8,
    /// Harm points not yet felt on a test, when they count only on the next test (EIN-H13).
    pub fresh: u8,
}

/// A fire on a creature (EIN-R38 to EIN-R40).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fire {
    /// Intensity 1 to 3 (EIN-H4).
    pub intensity: u8,
    /// Extinguishing successes saved so far (EIN-R40).
    pub saved: u8,
}

/// A poison at work (EIN-R42).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Poison {
    /// The Harm it deals at the start of the next round.
    pub next: u8,
    /// It deals Mental Harm (EIN-H27).
    pub mental: bool,
}

/// The weapons a creature carries (indices into [`State::weapon_ids`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carried {
    items: [u8; 10],
    len: u8,
}

impl Carried {
    /// The weapons carried.
    pub fn items(&self) -> &[u8] {
        &self.items[..(self.len as usize).min(10)]
    }

    /// Adds a weapon (ignored when full).
    pub fn push(&mut self, w: u8) {
        if (self.len as usize) < self.items.len() {
            self.items[self.len as usize] = w;
            self.len += 1;
        }
    }

    /// Takes a weapon out.
    pub fn remove(&mut self, w: u8) {
        let n = self.len as usize;
        if let Some(i) = self.items[..n].iter().position(|&x| x == w) {
            self.items.copy_within(i + 1..n, i);
            self.len -= 1;
        }
    }

    /// Whether it carries `w`.
    pub fn has(&self, w: u8) -> bool {
        self.items().contains(&w)
    }
}

/// A creature now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Char {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: u8,
    /// A player character.
    pub pc: bool,
    /// Its stat block (index into [`State::blocks`]).
    pub block: u16,
    /// Its group (EIN-R2), an index into [`State::groups`].
    pub group: Option<u8>,
    /// It holds its group's shared card (EIN-R2).
    pub shares: bool,
    /// Its own seat (a player's, or its group's); `None`: its side's ([`State::seat_of`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<fray_engine::Seat>,
    /// Its zone.
    pub zone: ZoneId,
    /// Far off in its zone (EIN-R12).
    pub far: bool,
    /// In cover (EIN-H15).
    pub cover: bool,
    /// Closed in beside this creature (EIN-R12).
    pub beside: Option<Cid>,
    /// Down (EIN-H29).
    pub prone: bool,
    /// Its initiative cards (EIN-R1, EIN-R46).
    pub cards: Hand,
    /// Slow and fast manoeuvres left this round, per card (EIN-R16, EIN-R19).
    pub left: [[u8; 2]; MAX_CARDS],
    /// Harm.
    pub harm: Harm,
    /// Whether it is still in the fight.
    pub status: Status,
    /// Restrained by (EIN-R28).
    pub held_by: Option<Cid>,
    /// Silenced as well (EIN-R28).
    pub silenced: bool,
    /// Burning (EIN-R39).
    pub fire: Option<Fire>,
    /// Poisoned (EIN-R42).
    pub poison: Option<Poison>,
    /// Bonus dice on its next test (EIN-H17).
    pub bonus: u8,
    /// Bonus dice on its first manoeuvre of the first round, from an ambush (EIN-R8, EIN-H11).
    pub ambush_bonus: u8,
    /// Its weapons.
    pub carried: Carried,
    /// The weapon in hand, if any.
    pub wield: Option<u8>,
    /// Shot to pin it: its next zone entry costs 1 Harm (fray's reading of the Shoot option).
    pub pinned: bool,
    /// It tried to break free this turn (EIN-R30).
    pub broke_free: bool,
    /// The round of its last start-of-round hazards (fire, poison).
    pub ticked: u32,
    /// The Action it chases with (EIN-R33).
    pub chase: Action,
    /// The critical injury it took when broken (EIN-H22): the d6 rolled.
    pub injury: Option<u8>,
    /// Critical injuries it brought from earlier fights (EIN-H22: permanent).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scars: Vec<String>,
}

impl Char {
    /// Out of the fight.
    pub fn out(&self) -> bool {
        self.status != Status::Fighting
    }

    /// Manoeuvres left this round, all cards together.
    pub fn total_left(&self) -> [u8; 2] {
        let n = self.cards.len().max(1);
        let mut t = [0u8; 2];
        for l in &self.left[..n] {
            t[0] += l[0];
            t[1] += l[1];
        }
        t
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
    fn seat(&self) -> Option<fray_engine::Seat> {
        self.seat
    }
    fn out(&self) -> bool {
        Char::out(self)
    }
}

/// The part of a round under way (the name `Stage` goes to the decision the game waits for,
/// [`crate::stage::Stage`]; this type was `Stage` before and is serialized the same).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RoundStage {
    /// Before round 1: the ambush, the cards, Fear at the start.
    Setup,
    /// Fire and poison at the start of a round (EIN-R39, EIN-R42, EIN-H27).
    Hazards,
    /// Player characters may swap cards (EIN-R5).
    Swaps,
    /// Turns in card order.
    Turns,
}

/// A swap two seats must both agree to (EIN-R5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// The two creatures.
    pub pair: (Cid, Cid),
    /// The seats that agreed so far.
    pub agreed: Seats,
}

/// The turn under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Whose turn.
    pub who: Cid,
    /// Which of its cards.
    pub n: u8,
    /// The zone it started the turn in (EIN-R32).
    pub from: ZoneId,
}
/// A whole game position. Clones are cheap: the setup and blocks sit behind `Arc`s. It
/// dereferences to its roster, so `s.ch(c)`, `s.ids()` and `s.find(id)` read the creatures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The encounter.
    pub setup: Arc<Setup>,
    /// Stat blocks: the combatants', then the templates' in name order.
    pub blocks: Arc<Vec<Stats>>,
    /// Every weapon id, in name order (creatures carry indices).
    pub weapon_ids: Arc<Vec<String>>,
    /// Group names (EIN-R2).
    pub groups: Arc<Vec<String>>,
    /// The options in force.
    pub options: Options,
    /// The round (0 before the first).
    pub round: u32,
    /// The part of the round under way.
    pub stage: RoundStage,
    /// The ambush is settled.
    pub ambushed: bool,
    /// The side that draws an extra card (EIN-R8, EIN-R10).
    pub extra_card_side: Option<u8>,
    /// The cards left to draw (EIN-R1).
    pub deck: fray_dice::Deck,
    /// The order this round, one slot per card (EIN-R3, EIN-R4, EIN-R46).
    pub order: InitiativeOrder,
    /// Every creature, GM additions after the encounter's.
    pub chars: Roster<Char>,
    /// The turn under way.
    pub turn: Option<Turn>,
    /// Decisions waiting, the top one last.
    pub frames: Vec<Frame>,
    /// Seats still deciding at the swap stage.
    pub swapping: Seats,
    /// Swaps proposed this round.
    pub proposals: Vec<Proposal>,
    /// Circumstances in force: a name and a zone (`None` for everywhere).
    pub circumstances: Vec<(String, Option<ZoneId>)>,
    /// Weapons lying in zones.
    pub dropped: Vec<(u8, ZoneId)>,
    /// The links (indices into the map's links) whose obstacle has been cleared (EIN-R15).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cleared: Vec<u16>,
    /// How the combat ended, once it has.
    pub outcome: Option<Outcome>,
}

impl State {
    /// The state before anything is drawn.
    pub fn new(setup: &Setup, options: &Options) -> State {
        let weapon_ids: Vec<String> = setup.weapons.keys().cloned().collect();
        let mut groups: Vec<String> = Vec::new();
        for c in &setup.combatants {
            if let Some(g) = &c.group
                && !groups.contains(g)
            {
                groups.push(g.clone());
            }
        }
        let mut blocks: Vec<Stats> = setup.combatants.iter().map(|c| c.stats.clone()).collect();
        blocks.extend(setup.templates.values().cloned());
        let mut s = State {
            setup: Arc::new(setup.clone()),
            blocks: Arc::new(blocks),
            weapon_ids: Arc::new(weapon_ids),
            groups: Arc::new(groups),
            options: options.clone(),
            round: 0,
            stage: RoundStage::Setup,
            ambushed: false,
            extra_card_side: None,
            // EIN-R1: one deck of the ten cards 1 to 10, shuffled by the seeded draw.
            deck: fray_dice::Deck::numbered(10),
            order: InitiativeOrder::new([], false),
            chars: Roster::new(Vec::new()),
            turn: None,
            frames: Vec::new(),
            swapping: Seats::EMPTY,
            proposals: Vec::new(),
            circumstances: setup.everywhere.iter().map(|c| (c.clone(), None)).collect(),
            dropped: Vec::new(),
            cleared: Vec::new(),
            outcome: None,
        };
        for (i, c) in setup.combatants.iter().enumerate() {
            let ch = s.new_char(c, i as u16);
            s.chars.push(ch);
        }
        s
    }

    /// A creature as it enters the fight, with stat block `block`.
    pub fn new_char(&self, c: &Combatant, block: u16) -> Char {
        let stats = &self.blocks[block as usize];
        let mut carried = Carried::default();
        for w in &stats.weapons {
            if let Some(i) = self.weapon_ids.iter().position(|x| x == w) {
                carried.push(i as u8);
            }
        }
        Char {
            id: c.id.clone(),
            name: c.name.clone(),
            side: c.side,
            pc: c.pc,
            block,
            group: c
                .group
                .as_ref()
                .and_then(|g| self.groups.iter().position(|x| x == g))
                .map(|i| i as u8),
            shares: false,
            seat: c.seat,
            zone: c.zone,
            far: c.far,
            cover: c.cover,
            beside: None,
            prone: c.prone,
            cards: Hand::default(),
            left: [[0; 2]; MAX_CARDS],
            // The Harm it brings from earlier fights (EIN-R34, EIN-R24); points it takes into
            // the fight were felt in the fight they came from (EIN-H13).
            harm: Harm {
                physical: c.worn.physical,
                mental: c.worn.mental,
                points: c.worn.points,
                fresh: 0,
            },
            status: Status::Fighting,
            held_by: None,
            silenced: false,
            fire: None,
            poison: None,
            bonus: 0,
            ambush_bonus: 0,
            wield: carried.items().first().copied(),
            carried,
            pinned: false,
            broke_free: false,
            ticked: 0,
            chase: Action::Finesse,
            injury: None,
            scars: c.worn.injuries.clone(),
        }
    }

    /// A creature's stat block.
    pub fn stats(&self, c: Cid) -> &Stats {
        &self.blocks[self.ch(c).block as usize]
    }

    /// A weapon by index.
    pub fn weapon(&self, w: u8) -> Option<&crate::data::Weapon> {
        self.weapon_ids
            .get(w as usize)
            .and_then(|id| self.setup.weapons.get(id))
    }

    /// The seat deciding for a creature: its own (a player's, or its group's), else its side's.
    /// Every decision about the creature goes to it, and it commands only its own creatures.
    pub fn seat_of(&self, c: Cid) -> fray_engine::Seat {
        self.chars.seat_of(c, &self.setup.sides)
    }

    /// The name of a seat, as the encounter gives it.
    pub fn seat_name(&self, seat: fray_engine::Seat) -> String {
        fray_engine::sides::seat_name(&self.setup.seats, seat)
    }

    /// Zones between two creatures (EIN-R47); `u8::MAX` when no way links them.
    pub fn distance(&self, a: Cid, b: Cid) -> u8 {
        // EIN-R47: the fewest links crossed between their zones.
        self.setup
            .zones
            .distance(self.ch(a).zone, self.ch(b).zone)
            .unwrap_or(u8::MAX)
    }

    /// The Action a chaser chases with (EIN-R33).
    pub fn chase_action(&self, c: Cid) -> Action {
        self.ch(c).chase
    }

    /// Whether two creatures are foes.
    pub fn foes(&self, a: Cid, b: Cid) -> bool {
        self.ch(a).side != self.ch(b).side
    }

    /// The index of the link between two zones, if they are linked.
    pub fn link_index(&self, a: ZoneId, b: ZoneId) -> Option<u16> {
        let links = self.setup.zones.links();
        links
            .iter()
            .position(|l| (l.a == a && l.b == b) || (l.a == b && l.b == a))
            .map(|i| i as u16)
    }

    /// The obstacle on the link between two zones, with its label, if it has one.
    pub fn obstacle(&self, a: ZoneId, b: ZoneId) -> Option<(&str, &crate::data::Obstacle)> {
        let label = self.setup.zones.obstacle(a, b)?;
        self.setup.obstacles.get(label).map(|o| (label, o))
    }

    /// The obstacle that blocks the link between two zones until it is cleared, if one is
    /// there and not cleared yet (EIN-R15).
    pub fn blocking(&self, a: ZoneId, b: ZoneId) -> Option<(&str, &crate::data::Obstacle)> {
        self.obstacle(a, b)
            .filter(|(_, o)| o.clear)
            .filter(|_| self.link_index(a, b).is_none_or(|i| !self.cleared.contains(&i)))
    }

    /// The obstacle a creature crossing from `a` to `b` must get over, with its manoeuvre and
    /// test (EIN-R15): none on a plain link, and none once a clearable obstacle is cleared.
    pub fn crossing(&self, a: ZoneId, b: ZoneId) -> Option<&crate::data::Obstacle> {
        self.obstacle(a, b).map(|(_, o)| o).filter(|o| !o.clear)
    }

    /// Whether the way from `a` to its neighbour `b` is open: no obstacle blocks it (EIN-R15).
    pub fn open(&self, a: ZoneId, b: ZoneId) -> bool {
        self.blocking(a, b).is_none()
    }

    /// Whether any link of the map is blocked by an obstacle not yet cleared (EIN-R15).
    pub fn any_blocked(&self) -> bool {
        self.setup.obstacles.values().any(|o| o.clear)
            && self
                .setup
                .zones
                .links()
                .iter()
                .any(|l| self.blocking(l.a, l.b).is_some())
    }
}

impl std::ops::Deref for State {
    type Target = Roster<Char>;
    fn deref(&self) -> &Roster<Char> {
        &self.chars
    }
}
