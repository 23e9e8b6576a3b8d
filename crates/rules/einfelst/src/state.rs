//! The state, the events, and the one [`apply`] that changes the state.

use crate::command::{PushTo, Ruling, Spend};
use crate::data::Action;
use crate::options::{Options, SwapTiming};
use crate::setup::{Cid, Combatant, Setup, Stats};
use crate::zones::MapExt;
use fray_dice::Faces;
use fray_engine::Outcome;
use fray_engine::Seats;
use fray_engine::gm::Ruling as R;
use fray_engine::order::{InitiativeOrder, SlotRef};
use fray_engine::resolve::{FrameOp, apply_frame_op};
use fray_space::ZoneId;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

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

/// The stage of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
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

/// What an attack is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AttackKind {
    /// With a weapon in close combat (Strike).
    Strike,
    /// With a ranged or thrown weapon (Shoot).
    Shoot,
    /// Unarmed (Force).
    Unarmed,
    /// A grapple (Force, EIN-R27).
    Grapple,
    /// A push or trip (Force).
    Shove(PushTo),
    /// A spell (Cast, EIN-H16): the index into the caster's spells.
    Cast(u8),
}

impl AttackKind {
    /// The Action of the attacker's test.
    pub fn action(self) -> Action {
        match self {
            AttackKind::Strike => Action::Strike,
            AttackKind::Shoot => Action::Shoot,
            AttackKind::Cast(_) => Action::Cast,
            _ => Action::Force,
        }
    }

    /// Whether it is close combat (parried rather than dodged, EIN-R25).
    pub fn melee(self) -> bool {
        !matches!(self, AttackKind::Shoot | AttackKind::Cast(_))
    }
}

/// The defender's reaction to an attack (EIN-R25, EIN-R27, EIN-H16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Defence {
    /// None.
    None,
    /// Dodge (Finesse).
    Dodge,
    /// Parry (Strike armed, Force unarmed).
    Parry,
    /// Break free of a grapple as it happens (Force).
    BreakFree,
    /// Resist a spell (the spell's Action).
    Resist,
}

/// An attack on the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackFrame {
    /// The attacker.
    pub by: Cid,
    /// The target.
    pub target: Cid,
    /// What kind.
    pub kind: AttackKind,
    /// The weapon used (index into [`State::weapon_ids`]).
    pub weapon: Option<u8>,
    /// The successes it needs (EIN-R22, EIN-R14, EIN-H15).
    pub need: u8,
    /// Zones between them (a thrown weapon leaves the hand beyond 0).
    pub distance: u8,
    /// The defender's answer, once given (EIN-R20).
    pub defence: Option<Defence>,
    /// The attack's successes, once rolled (and pushed or not).
    pub att: Option<u8>,
    /// The defence's successes, once rolled (and pushed or not).
    pub def: Option<u8>,
    /// The attack's and the defence's successes, once both are final.
    pub rolled: Option<(u8, u8)>,
    /// Whether the defender that beat the attack has answered the swap offer (EIN-R7).
    pub defender_swap: Option<SwapAnswer>,
    /// How the attacker spends its extra successes (EIN-R23), once it has.
    pub spend: Option<Spend>,
}

/// The defender's answer to the swap it may make after beating an attack (EIN-R7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SwapAnswer {
    /// It passed.
    Declined,
    /// It took this card of the attacker's.
    Took(Card),
}

/// A flight on the stack (EIN-R32, EIN-R33).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FleeFrame {
    /// The fleer.
    pub who: Cid,
    /// Finesse or Sneak.
    pub action: Action,
    /// The first zone of the way out (None when it stands in an exit zone).
    pub toward: Option<ZoneId>,
    /// The fleer's successes, once rolled.
    pub rolled: Option<u8>,
    /// Chasers who have been asked (a bit per creature).
    pub asked: u64,
    /// Chasers who chase.
    pub chasers: u64,
}

/// An attempt to break free on the stack (EIN-R30).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BreakFrame {
    /// The held creature.
    pub who: Cid,
    /// The holder.
    pub holder: Cid,
    /// Its successes, once rolled.
    pub rolled: Option<u8>,
    /// The holder's answer: hold or not.
    pub hold: Option<bool>,
}

/// Harm to split on the stack: the creature chooses how (EIN-R34, the `[S]` split).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitFrame {
    /// Who takes it.
    pub who: Cid,
    /// Mental rather than Physical.
    pub mental: bool,
    /// How much.
    pub amount: u8,
}

/// What a pushed test's result goes to (EIN-H20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PushSlot {
    /// The attack below.
    Attack,
    /// The defence against the attack below.
    Defence,
    /// The flight below.
    Flee,
    /// The break-free below.
    Break,
    /// Putting out a fire.
    Extinguish,
    /// Any other test.
    Test,
    /// Crossing an obstacle into this zone.
    Obstacle(ZoneId),
    /// Clearing the obstacle on the link to this zone (EIN-R15).
    Clear(ZoneId),
}

/// A test its player character may push (EIN-H20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushFrame {
    /// The roller.
    pub who: Cid,
    /// The test's Action.
    pub action: Action,
    /// Dice rolled.
    pub pool: u8,
    /// Successes.
    pub got: u8,
    /// Successes needed (0 when opposed).
    pub need: u8,
    /// Where the result goes.
    pub slot: PushSlot,
}

/// Two cards drawn after an ambush, one to keep (EIN-R8, EIN-H25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeepFrame {
    /// Who draws.
    pub who: Cid,
    /// The two cards.
    pub drawn: [Card; 2],
}

/// A decision waiting on the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Frame {
    /// An attack.
    Attack(AttackFrame),
    /// A flight.
    Flee(FleeFrame),
    /// Breaking free.
    Break(BreakFrame),
    /// Harm to split.
    Split(SplitFrame),
    /// A card to keep.
    Keep(KeepFrame),
    /// A test to push or accept.
    Push(PushFrame),
}

/// Why a test was rolled, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Why {
    /// An attack.
    Attack,
    /// A defence.
    Defence,
    /// An ambush's Sneak (EIN-R8).
    Ambush,
    /// Spotting an ambush (EIN-R8).
    Spot,
    /// Fleeing (EIN-R32).
    Flee,
    /// Chasing (EIN-R33).
    Chase,
    /// Breaking free (EIN-R30).
    BreakFree,
    /// Holding on (EIN-R30).
    Hold,
    /// Fear (EIN-R35).
    Fear,
    /// Enduring fire (EIN-R39).
    Fire,
    /// Putting out fire (EIN-R40).
    Extinguish,
    /// Resisting poison (EIN-R41).
    Poison,
    /// The poison's own dice (EIN-R41, EIN-H21).
    Toxin,
    /// Breaking a fall (EIN-R43).
    Fall,
    /// The fall's own dice (EIN-R43, EIN-H21).
    Impact,
    /// Hunger, thirst, lack of rest (EIN-R44).
    Deprivation,
    /// Crossing an obstacle (EIN-R15).
    Obstacle,
    /// Clearing an obstacle out of the way (EIN-R15).
    Clear,
    /// Armour dice (EIN-H6).
    Armour,
    /// Any other slow manoeuvre's test (EIN-R17).
    Other,
}

/// How a turn ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TurnEnd {
    /// Its seat ended it (`end`); also what a record of 0.1.0, which did not say, reads as.
    #[default]
    Ended,
    /// By itself: no manoeuvre was left (EIN-R16).
    Spent,
    /// The creature left the fight during it.
    Out,
}

/// What resolution produces; the only thing that changes the state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Event {
    /// The ambush is settled (EIN-R8 to EIN-R10): `extra` card for that side, `bonus` dice for
    /// the ambushers' first manoeuvre.
    Ambushed {
        extra_card_side: Option<u8>,
        ambushers: u8,
        bonus: u8,
    },
    /// A card is drawn (EIN-R1).
    Drew { who: Cid, card: Card },
    /// A creature keeps one of two cards and the other goes back (EIN-H25); `back` is put back.
    Kept { who: Cid, card: Card, back: Option<Card> },
    /// The setup is over (the start-of-fight Fear tests are done).
    SetupDone,
    /// A round begins.
    RoundStarted { round: u32 },
    /// A stage of the round begins.
    Staged { stage: Stage, seats: Seats },
    /// Start-of-round hazards done for a creature.
    Ticked { who: Cid },
    /// A swap proposal or agreement (EIN-R5).
    Proposed { seat: u8, pair: (Cid, Cid) },
    /// A seat is done swapping: it answered `ready`, or every swap it could make needs a seat
    /// that is done (EIN-R5).
    Ready { seat: u8 },
    /// Two creatures exchange cards (EIN-R5 to EIN-R7).
    Swapped {
        a: Cid,
        card_a: Card,
        b: Cid,
        card_b: Card,
        forced: bool,
    },
    /// The turn order for the round is set from the cards (EIN-R3, EIN-R4).
    Ordered,
    /// A turn begins.
    TurnStarted { who: Cid, n: u8 },
    /// A manoeuvre is spent, from the allowance of card `n` (EIN-R16, EIN-R19).
    Spent { who: Cid, n: u8, slow: bool },
    /// A creature stands somewhere new (EIN-R13).
    Placed {
        who: Cid,
        zone: ZoneId,
        far: bool,
        cover: bool,
        beside: Option<Cid>,
    },
    /// The stack changes.
    Frame(FrameOp<Frame>),
    /// A test (or a raw pool, EIN-H21): the dice, the successes, what it needed, and every
    /// face rolled (a record of 0.1.0 has none).
    Tested {
        who: Option<Cid>,
        why: Why,
        action: Option<Action>,
        pool: u8,
        successes: u8,
        need: u8,
        #[serde(default)]
        faces: Faces,
    },
    /// An attack's outcome (EIN-R22, EIN-R26).
    AttackResult { by: Cid, target: Cid, net: u8, hit: bool },
    /// Harm marked (EIN-R34): the levels placed, or points.
    Harmed {
        who: Cid,
        mental: bool,
        parts: Vec<u8>,
        points: u8,
    },
    /// Armour took some Harm off (EIN-H6).
    Armoured { who: Cid, cancelled: u8 },
    /// Restrained, maybe silenced (EIN-R28).
    Restrained { who: Cid, by: Cid, silenced: bool },
    /// No longer restrained (EIN-R29, EIN-R30).
    Freed { who: Cid },
    /// A try to break free that failed (EIN-R30).
    StillHeld { who: Cid },
    /// Catches fire (EIN-R38).
    Ignited { who: Cid, intensity: u8 },
    /// Extinguishing successes (EIN-R40); `out` when the fire is out.
    Doused { who: Cid, saved: u8, out: bool },
    /// Poisoned, with the Harm of the next round (EIN-R42).
    Poisoned { who: Cid, next: u8, mental: bool },
    /// Bonus dice on the next test (EIN-H17).
    Bonus { who: Cid, dice: u8 },
    /// The one-shot bonuses a test used (EIN-H17, EIN-H13).
    BonusUsed { who: Cid },
    /// The ambush bonus is used, or lost to a manoeuvre without a test (EIN-H11).
    AmbushUsed { who: Cid },
    /// Weapon in hand (or none).
    Wielded { who: Cid, weapon: Option<u8> },
    /// A weapon falls in a zone (disarmed, or thrown).
    Dropped { who: Cid, weapon: u8, zone: ZoneId },
    /// A weapon picked up from its zone.
    PickedUp { who: Cid, weapon: u8 },
    /// Pinned by a shot.
    Pinned { who: Cid, on: bool },
    /// Down or up (EIN-H29).
    Prone { who: Cid, on: bool },
    /// A failed break-free try this turn.
    TriedBreak { who: Cid },
    /// Left the fight (EIN-R32).
    Fled { who: Cid },
    /// A flight failed: the fleer stays (EIN-R32), or was caught (EIN-R33).
    FleeFailed { who: Cid, caught: bool },
    /// A chaser sets off after a fleer with this Action (EIN-R33).
    Chasing { who: Cid, action: Action },
    /// A broken creature's critical injury, the d6 on fray's table (EIN-H22).
    Injured { who: Cid, roll: u8 },
    /// A test pushed: the dice rolled again, the successes they added, and their faces
    /// (EIN-H20; a record of 0.1.0 has none).
    Pushed {
        who: Cid,
        dice: u8,
        successes: u8,
        #[serde(default)]
        faces: Faces,
    },
    /// A shout, or another quick manoeuvre with no test (EIN-R18).
    Quick { who: Cid, shout: bool },
    /// The first deck ran out; a second one is opened (EIN-H12).
    NewDeck,
    /// A fall, with the Director's dice (0 when it does not hurt; EIN-R43, EIN-H5).
    Fell { who: Cid, feet: u16, dice: u8 },
    /// The turn is over, and how (a record of 0.1.0 does not say).
    TurnEnded {
        who: Cid,
        #[serde(default)]
        how: TurnEnd,
    },
    /// The obstacle on the link between zones `a` and `b` is cleared, for everyone (EIN-R15).
    Cleared { who: Cid, a: ZoneId, b: ZoneId },
    /// The seat of a group sharing a card sends this member to act next on it (EIN-R2).
    GroupTurn { who: Cid },
    /// A circumstance on or off in a zone or everywhere (EIN-R14).
    Circumstance {
        name: String,
        zone: Option<ZoneId>,
        on: bool,
    },
    /// A GM ruling.
    Ruled(Ruling),
    /// At most one side is left.
    Ended { winner: Option<u8> },
}

/// A whole game position. Clones are cheap: the setup and blocks sit behind `Arc`s.
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
    /// The stage of the round.
    pub stage: Stage,
    /// The ambush is settled.
    pub ambushed: bool,
    /// The side that draws an extra card (EIN-R8, EIN-R10).
    pub extra_card_side: Option<u8>,
    /// The cards left to draw (EIN-R1).
    pub deck: fray_dice::Deck,
    /// The order this round, one slot per card (EIN-R3, EIN-R4, EIN-R46).
    pub order: InitiativeOrder,
    /// Every creature, GM additions after the encounter's.
    pub chars: Vec<Char>,
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
            stage: Stage::Setup,
            ambushed: false,
            extra_card_side: None,
            deck: fray_dice::Deck::numbered(10),
            order: InitiativeOrder::new([], false),
            chars: Vec::new(),
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

    /// A creature (the index must be valid: check commands first).
    pub fn ch(&self, c: Cid) -> &Char {
        &self.chars[c as usize]
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

    /// Every creature's index.
    pub fn ids(&self) -> impl Iterator<Item = Cid> + use<> {
        0..self.chars.len() as Cid
    }

    /// The creature with this id (typed ids ignore case).
    pub fn find(&self, id: &str) -> Option<Cid> {
        fray_engine::encounter::find_id(self.chars.iter().map(|c| c.id.as_str()), id).map(|i| i as Cid)
    }

    /// The seat deciding for a creature: its own (a player's, or its group's), else its side's.
    /// Every decision about the creature goes to it, and it commands only its own creatures.
    pub fn seat_of(&self, c: Cid) -> fray_engine::Seat {
        let ch = self.ch(c);
        ch.seat.unwrap_or_else(|| self.setup.sides[ch.side as usize].seat)
    }

    /// The name of a seat, as the encounter gives it.
    pub fn seat_name(&self, seat: fray_engine::Seat) -> String {
        fray_engine::sides::seat_name(&self.setup.seats, seat)
    }

    /// Zones between two creatures (EIN-R47); `u8::MAX` when no way links them.
    pub fn distance(&self, a: Cid, b: Cid) -> u8 {
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

/// Places Harm of `parts` levels on a track (the `[S]` Harm rows): each level goes in its row,
/// or the next row up with room; past the top row it is a critical injury. Returns the rows
/// after and whether it overflowed.
pub fn place(rows: Rows, slots: [u8; 3], parts: &[u8]) -> (Rows, bool) {
    let mut rows = rows;
    let mut over = false;
    for &p in parts {
        let mut r = (p.clamp(1, 3) - 1) as usize;
        while r < 3 && rows[r] >= slots[r] {
            r += 1;
        }
        if r < 3 {
            rows[r] += 1;
        } else {
            over = true;
        }
    }
    (rows, over)
}

/// The status after Harm: broken past the top row, incapacitated by a severe mark (EIN-H2) or
/// by Harm points beyond capacity (EIN-H13).
fn status_after(s: &State, who: Cid, overflow: bool) -> Status {
    let c = s.ch(who);
    if c.status != Status::Fighting && c.status != Status::Incapacitated {
        return c.status;
    }
    if overflow {
        return Status::Broken;
    }
    let severe = c.harm.physical[2] + c.harm.mental[2] > 0;
    let over_points = s.stats(who).harm_points.is_some_and(|cap| c.harm.points > cap);
    if over_points || (severe && s.options.severe_incapacitates) {
        Status::Incapacitated
    } else {
        Status::Fighting
    }
}

/// Applies one event: the only function that changes the state.
pub fn apply(s: &mut State, e: &Event) {
    match e {
        Event::Ambushed {
            extra_card_side, bonus, ..
        } => {
            s.ambushed = true;
            s.extra_card_side = *extra_card_side;
            if let Some(a) = &s.setup.ambush {
                let side = a.side;
                for c in s.chars.iter_mut().filter(|c| c.side == side) {
                    c.ambush_bonus = *bonus;
                }
            }
        }
        Event::Drew { card, .. } => {
            s.deck.remove(card.code());
        }
        Event::Kept { who, card, back } => {
            if let Some(b) = back {
                s.deck.put_back(b.code());
            }
            let g = s.ch(*who).group;
            s.chars[*who as usize].cards.push(*card);
            if let Some(g) = g {
                // EIN-R2: the group shares this one card.
                let stats_cards = |s: &State, i: usize| s.blocks[s.chars[i].block as usize].cards as usize;
                for i in 0..s.chars.len() {
                    if s.chars[i].group == Some(g) && (i == *who as usize || s.chars[i].cards.len() < stats_cards(s, i))
                    {
                        if i != *who as usize {
                            s.chars[i].cards.push(*card);
                        }
                        s.chars[i].shares = true;
                    }
                }
            }
        }
        Event::SetupDone => s.stage = Stage::Hazards,
        Event::RoundStarted { round } => {
            s.round = *round;
            s.stage = Stage::Hazards;
            s.proposals.clear();
            for i in 0..s.chars.len() {
                let m = s.blocks[s.chars[i].block as usize].maneuvers;
                let c = &mut s.chars[i];
                c.left = [m; MAX_CARDS];
                if *round > 1 {
                    c.ambush_bonus = 0;
                }
            }
        }
        Event::Staged { stage, seats } => {
            s.stage = *stage;
            s.swapping = *seats;
        }
        Event::Ticked { who } => s.chars[*who as usize].ticked = s.round,
        Event::Proposed { seat, pair } => {
            let seat = fray_engine::Seat(*seat);
            match s.proposals.iter_mut().find(|p| p.pair == *pair) {
                Some(p) => p.agreed.insert(seat),
                None => s.proposals.push(Proposal {
                    pair: *pair,
                    agreed: Seats::one(seat),
                }),
            }
        }
        Event::Ready { seat } => s.swapping.remove(fray_engine::Seat(*seat)),
        Event::Swapped {
            a,
            card_a,
            b,
            card_b,
            forced,
        } => swap_cards(s, *a, *card_a, *b, *card_b, *forced),
        Event::Ordered => {
            s.stage = Stage::Turns;
            s.swapping = Seats::EMPTY;
            s.proposals.clear();
            s.order = order_from_cards(s);
        }
        Event::TurnStarted { who, n } => {
            let from = s.ch(*who).zone;
            s.turn = Some(Turn { who: *who, n: *n, from });
            s.chars[*who as usize].broke_free = false;
        }
        Event::Spent { who, n, slow } => {
            let l = &mut s.chars[*who as usize].left[(*n as usize).min(MAX_CARDS - 1)];
            let i = if *slow { 0 } else { 1 };
            l[i] = l[i].saturating_sub(1);
        }
        Event::Placed {
            who,
            zone,
            far,
            cover,
            beside,
        } => {
            let moved_zone = s.ch(*who).zone != *zone;
            let c = &mut s.chars[*who as usize];
            c.zone = *zone;
            c.far = *far;
            c.cover = *cover;
            c.beside = *beside;
            // Whoever had closed in beside it must close in again.
            for o in s.chars.iter_mut() {
                if o.beside == Some(*who) {
                    o.beside = None;
                }
            }
            if moved_zone {
                end_holds_apart(s, *who);
            }
        }
        Event::Frame(op) => apply_frame_op(&mut s.frames, op.as_ref()),
        Event::Tested { .. } | Event::AttackResult { .. } | Event::Armoured { .. } => {}
        Event::Harmed {
            who,
            mental,
            parts,
            points,
        } => {
            let slots = s.options.harm_slots;
            let c = &mut s.chars[*who as usize];
            c.harm.points = c.harm.points.saturating_add(*points);
            c.harm.fresh = c.harm.fresh.saturating_add(*points);
            let track = if *mental {
                &mut c.harm.mental
            } else {
                &mut c.harm.physical
            };
            let (rows, over) = place(*track, slots, parts);
            *track = rows;
            let st = status_after(s, *who, over);
            set_status(s, *who, st);
        }
        Event::Restrained { who, by, silenced } => {
            let c = &mut s.chars[*who as usize];
            c.held_by = Some(*by);
            c.silenced = *silenced;
        }
        Event::Freed { who } => {
            let c = &mut s.chars[*who as usize];
            c.held_by = None;
            c.silenced = false;
        }
        Event::Ignited { who, intensity } => {
            s.chars[*who as usize].fire = Some(Fire {
                intensity: *intensity,
                saved: 0,
            })
        }
        Event::Doused { who, saved, out } => {
            let c = &mut s.chars[*who as usize];
            if *out {
                c.fire = None;
            } else if let Some(f) = &mut c.fire {
                f.saved = *saved;
            }
        }
        Event::Poisoned { who, next, mental } => {
            s.chars[*who as usize].poison = (*next > 0).then_some(Poison {
                next: *next,
                mental: *mental,
            })
        }
        Event::Bonus { who, dice } => s.chars[*who as usize].bonus = *dice,
        Event::BonusUsed { who } => {
            let c = &mut s.chars[*who as usize];
            c.bonus = 0;
            c.harm.fresh = 0;
        }
        Event::AmbushUsed { who } => s.chars[*who as usize].ambush_bonus = 0,
        Event::Wielded { who, weapon } => s.chars[*who as usize].wield = *weapon,
        Event::Dropped { who, weapon, zone } => {
            let c = &mut s.chars[*who as usize];
            c.carried.remove(*weapon);
            if c.wield == Some(*weapon) {
                c.wield = None;
            }
            s.dropped.push((*weapon, *zone));
        }
        Event::PickedUp { who, weapon } => {
            let zone = s.ch(*who).zone;
            if let Some(i) = s.dropped.iter().position(|&(w, z)| w == *weapon && z == zone) {
                s.dropped.remove(i);
            }
            let c = &mut s.chars[*who as usize];
            c.carried.push(*weapon);
            c.wield = Some(*weapon);
        }
        Event::Pinned { who, on } => s.chars[*who as usize].pinned = *on,
        Event::Prone { who, on } => s.chars[*who as usize].prone = *on,
        Event::TriedBreak { who } => s.chars[*who as usize].broke_free = true,
        Event::Fled { who } => set_status(s, *who, Status::Fled),
        Event::Chasing { who, action } => s.chars[*who as usize].chase = *action,
        Event::Injured { who, roll } => s.chars[*who as usize].injury = Some(*roll),
        Event::NewDeck => s.deck = fray_dice::Deck::from_cards(11..=20),
        Event::FleeFailed { .. }
        | Event::StillHeld { .. }
        | Event::Quick { .. }
        | Event::Fell { .. }
        | Event::Pushed { .. } => {}
        Event::TurnEnded { who, .. } => {
            s.turn = None;
            // A pin lasts until the target's next zone entry or the end of its next turn (it
            // is always set outside the target's own turn).
            s.chars[*who as usize].pinned = false;
            s.chars[*who as usize].broke_free = false;
            s.order.finish_current();
        }
        Event::Circumstance { name, zone, on } => {
            s.circumstances.retain(|(n, z)| !(n == name && z == zone));
            if *on {
                s.circumstances.push((name.clone(), *zone));
            }
        }
        Event::Cleared { a, b, .. } => {
            if let Some(i) = s.link_index(*a, *b)
                && !s.cleared.contains(&i)
            {
                s.cleared.push(i);
            }
        }
        Event::GroupTurn { who } => {
            // EIN-R2: the member chosen takes the place of the group's slot that is due now.
            if let Some(cur) = s.order.current_slot()
                && cur.who != *who
            {
                let key = s.order.get(cur).map(|x| x.key);
                let at = s
                    .order
                    .slots_of(*who)
                    .find(|x| Some(x.key) == key && x.active && !x.acted)
                    .map(|x| x.at());
                if let Some(at) = at {
                    let _ = s.order.swap(cur, at);
                }
            }
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

/// EIN-R29, EIN-H30: a hold ends when holder and held are no longer in one zone (either moved,
/// was pushed, or was put elsewhere by the GM).
fn end_holds_apart(s: &mut State, who: Cid) {
    let zone = s.ch(who).zone;
    let holder = s.ch(who).held_by;
    if holder.is_some_and(|h| s.ch(h).zone != zone) {
        let c = &mut s.chars[who as usize];
        c.held_by = None;
        c.silenced = false;
    }
    for o in s.chars.iter_mut() {
        if o.held_by == Some(who) && o.zone != zone {
            o.held_by = None;
            o.silenced = false;
        }
    }
}

/// A creature's new status: one out of the fight loses its turns and lets go (EIN-H30).
fn set_status(s: &mut State, who: Cid, st: Status) {
    s.chars[who as usize].status = st;
    if st != Status::Fighting {
        s.order.deactivate(who);
        for o in s.chars.iter_mut() {
            if o.held_by == Some(who) {
                o.held_by = None;
                o.silenced = false;
            }
            if o.beside == Some(who) {
                o.beside = None;
            }
        }
        let c = &mut s.chars[who as usize];
        c.held_by = None;
        c.beside = None;
    }
}

/// Exchanges two cards (EIN-R5 to EIN-R7, EIN-H23). A creature that swaps with one member of a
/// group card takes the group's value but no longer shares it, so it sorts just before the
/// group; the member is split off with the other card.
fn swap_cards(s: &mut State, a: Cid, card_a: Card, b: Cid, card_b: Card, forced: bool) {
    let (sa, sb) = (slot_with(s, a, card_a), slot_with(s, b, card_b));
    for (x, old, new) in [(a, card_a, card_b), (b, card_b, card_a)] {
        let c = &mut s.chars[x as usize];
        c.cards.replace(old, new);
        c.shares = false;
    }
    // EIN-H23: by default the order changes from the next round (it is rebuilt from the cards
    // then); `immediate` also swaps the two places this round when neither has acted.
    let immediate = forced && s.options.forced_swap_timing == SwapTiming::Immediate;
    let current = s.order.current_slot();
    if immediate
        && s.stage == Stage::Turns
        && let (Some(x), Some(y)) = (sa, sb)
        && current != Some(x)
        && current != Some(y)
    {
        // Only two places both still to come change this round; the turn under way and a place
        // that has acted stay, so nobody acts twice or loses a turn (the change then waits for
        // the next round).
        let _ = s.order.swap(x, y);
    }
}

/// The slot of `who` that holds `card` in this round's order, if any.
fn slot_with(s: &State, who: Cid, card: Card) -> Option<SlotRef> {
    let key = card.key(s.ch(who).shares);
    s.order.slots_of(who).find(|sl| sl.key == key).map(|sl| sl.at())
}

/// This round's order from the cards (EIN-R3, EIN-R4): lowest first, a group's members one
/// after another in encounter order (EIN-R2), one slot per card (EIN-R46).
pub fn order_from_cards(s: &State) -> InitiativeOrder {
    let mut entries: Vec<(i32, Cid, u8)> = Vec::new();
    for (i, c) in s.chars.iter().enumerate() {
        if c.out() {
            continue;
        }
        for (n, card) in c.cards.cards().iter().enumerate() {
            entries.push((card.key(c.shares), i as Cid, n as u8));
        }
    }
    entries.sort_by_key(|&(k, who, n)| (k, who, n));
    // An owner's slots are numbered in the order listed, so slot n is its n-th lowest card,
    // and card n's allowance is `left[n]` for the whole round.
    let mut order = InitiativeOrder::new(entries.iter().map(|&(k, who, _)| (who, k)), false);
    order.start_round();
    order
}

fn rule(s: &mut State, r: &Ruling) {
    use crate::command::{Gauge, Own};
    match r {
        R::Adjust { who, gauge, by } => {
            let c = &mut s.chars[*who as usize];
            let v = |x: u8| by.apply(i16::from(x)).clamp(0, 20) as u8;
            match gauge {
                Gauge::Lesser(m) => {
                    let t = if *m { &mut c.harm.mental } else { &mut c.harm.physical };
                    t[0] = v(t[0]);
                }
                Gauge::Moderate(m) => {
                    let t = if *m { &mut c.harm.mental } else { &mut c.harm.physical };
                    t[1] = v(t[1]);
                }
                Gauge::Severe(m) => {
                    let t = if *m { &mut c.harm.mental } else { &mut c.harm.physical };
                    t[2] = v(t[2]);
                }
                Gauge::Points => c.harm.points = v(c.harm.points),
                Gauge::Bonus => c.bonus = v(c.bonus),
            }
            let st = status_after(s, *who, false);
            set_status(s, *who, st);
        }
        R::Move { who, to } => {
            let c = &mut s.chars[*who as usize];
            c.zone = *to;
            c.far = false;
            c.cover = false;
            c.beside = None;
            for o in s.chars.iter_mut() {
                if o.beside == Some(*who) {
                    o.beside = None;
                }
            }
            end_holds_apart(s, *who);
        }
        R::Add { id, template, side, at } => {
            let Some(i) = s.setup.templates.keys().position(|k| k == template) else {
                return;
            };
            let block = (s.setup.combatants.len() + i) as u16;
            let stats = s.blocks[block as usize].clone();
            let pc = s.setup.player_sides.contains(side);
            let c = Combatant {
                id: id.clone(),
                name: id.clone(),
                side: *side,
                pc,
                zone: *at,
                far: false,
                cover: false,
                prone: false,
                group: None,
                // A creature the GM brings in is played by its side's seat.
                seat: None,
                stats,
                worn: Default::default(),
            };
            let mut ch = s.new_char(&c, block);
            let m = s.blocks[block as usize].maneuvers;
            ch.left = [m; MAX_CARDS];
            s.chars.push(ch);
        }
        R::Remove { who } => set_status(s, *who, Status::Removed),
        R::End { winner } => {
            s.outcome = Some(Outcome {
                winner: *winner,
                reason: "gm-ended".into(),
            })
        }
        R::Other(o) => match o {
            Own::Prone { who, on } => s.chars[*who as usize].prone = *on,
            Own::Douse { who } => s.chars[*who as usize].fire = None,
            Own::Antidote { who } => s.chars[*who as usize].poison = None,
            Own::Release { who } => {
                let c = &mut s.chars[*who as usize];
                c.held_by = None;
                c.silenced = false;
            }
            // The rest roll dice: resolution emits their events after the ruling.
            _ => {}
        },
    }
}

/// Pushes target somewhere: a zone, far off in its zone, or down.
pub fn pushed(s: &State, who: Cid, to: PushTo) -> Event {
    let c = s.ch(who);
    match to {
        PushTo::Zone(z) => Event::Placed {
            who,
            zone: z,
            far: false,
            cover: false,
            beside: None,
        },
        PushTo::Far => Event::Placed {
            who,
            zone: c.zone,
            far: true,
            cover: false,
            beside: None,
        },
        PushTo::Down => Event::Prone { who, on: true },
    }
}
