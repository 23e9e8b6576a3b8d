//! The events: everything that happens, as data. Resolution emits them and [`super::apply`]
//! alone turns them into changes of the state; a game record holds them, so their serialized
//! form is the record format and does not change.

use super::{Card, Frame, RoundStage};
use crate::command::Ruling;
use crate::data::Action;
use crate::setup::Cid;
use fray_dice::Faces;
use fray_engine::Seats;
use fray_engine::resolve::FrameOp;
use fray_space::ZoneId;
use serde::{Deserialize, Serialize};

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
    Staged { stage: RoundStage, seats: Seats },
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

impl Event {
    /// `who` placed in `zone` as one who has just come in: not far off, not in cover, beside
    /// nobody (a move, a flight, a push into the next zone).
    pub fn entered(who: Cid, zone: ZoneId) -> Event {
        Event::Placed {
            who,
            zone,
            far: false,
            cover: false,
            beside: None,
        }
    }
}
