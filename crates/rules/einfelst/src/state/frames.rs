//! The frames of the resolution stack: a decision in the middle of a command (an attack's
//! reaction and extra successes, a flight's chasers, a break-free's holder, a Harm split, a
//! push, a card choice) is a frame on top of the stack until it is answered.
//!
//! They are state (serialized with it, changed only by `apply` through the engine's frame
//! events), kept apart from the creatures and the events so that each file holds one thing.

use super::Card;
use crate::command::{PushTo, Spend};
use crate::data::Action;
use crate::setup::Cid;
use fray_space::ZoneId;
use serde::{Deserialize, Serialize};

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

    /// Whether a hit deals Harm (so it may deal Mental Harm instead, and the extra successes not
    /// spent add to it): every attack but a grapple or a shove.
    pub fn harmful(self) -> bool {
        matches!(
            self,
            AttackKind::Strike | AttackKind::Shoot | AttackKind::Unarmed | AttackKind::Cast(_)
        )
    }

    /// Whether it is a close-combat blow (a strike, armed or not): what may push or disarm.
    pub fn blow(self) -> bool {
        matches!(self, AttackKind::Strike | AttackKind::Unarmed)
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
