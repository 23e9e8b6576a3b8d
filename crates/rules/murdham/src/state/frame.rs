//! The turn under way and the frames of the resolution stack: an attack (what it is made with,
//! how, and the stage it has reached), a step waiting for opportunity attacks, and the choices
//! of those who failed morale. A frame is data only: the actions in [`crate::actions`] move it
//! on through events, and the rules they enforce are cited there.

use crate::place::Place;
use crate::setup::Cid;
use serde::{Deserialize, Serialize};

/// The turn under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Whose turn.
    pub who: Cid,
    /// Action slots left: a bonus action takes one, a main action one (MUR-R7).
    pub actions: u8,
    /// Whether the main action has been taken.
    pub main: bool,
    /// Movement left in half zones (MUR-R7, MUR-H2).
    pub halves: u8,
    /// Moved earlier this turn (MUR-H5).
    pub moved: bool,
}

/// What an attack does when it lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Damage (held back: impaired, MUR-R16).
    Harm {
        /// Held back by choice.
        hold: bool,
    },
    /// Kill a nearby incapacitated target (MUR-R18).
    FinalBlow,
    /// Drop the item at this index (MUR-R34).
    Disarm {
        /// The item.
        item: u8,
    },
    /// Grab (MUR-R35).
    Grapple,
}

/// What an attack is made with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum With {
    /// Bare hands.
    Unarmed,
    /// The attacker's item at this index.
    Item(u8),
    /// The attacker's power at this index.
    Power(u8),
}

/// Where an attack stands: the attack frame's own step (the decision the game waits for is
/// [`crate::stage::Stage`]). Serialized as it was when this type was called `Stage`: only the
/// variants' names are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AttackStage {
    /// The to-hit save, the blast's deviation, who is hit.
    Aim,
    /// A stunt waits for the GM (MUR-R32).
    Approve,
    /// A stunt waits for the target's answer.
    Answer,
    /// The target picks its reaction (MUR-R19).
    React,
    /// A character nearby the target may guard it (MUR-R24); `next` is the first to ask.
    Guard {
        /// The index into the characters where asking goes on.
        next: Cid,
    },
    /// A character asked to stand in for the target answers (MUR-R23).
    Agree {
        /// Who is asked.
        who: Cid,
    },
    /// Everything is known: roll and land.
    Land,
}

/// An attack in progress: the one kind of frame besides movement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    /// The attacker.
    pub by: Cid,
    /// What with.
    pub with: With,
    /// What it does.
    pub mode: Mode,
    /// The character aimed at (for a blast, the one being resolved now).
    pub target: Cid,
    /// A blast's zone, and the characters it still has to resolve after `target`.
    pub blast: Option<Place>,
    /// Characters still to resolve in a blast (after `target`).
    pub queue: Vec<Cid>,
    /// A sweep: only smaller characters, half damage (MUR-R58).
    pub sweep: bool,
    /// A blast aimed at one large character: double damage, no blast (MUR-R58).
    pub focused: bool,
    /// An opportunity attack (MUR-R25).
    pub opportunity: bool,
    /// A counter answering another attack (the attack lower on the stack).
    pub counter: bool,
    /// A stunt proposed instead of damage (MUR-R32).
    pub stunt: Option<String>,
    /// The reaction chosen by the current target.
    pub reaction: Option<Reaction>,
    /// Someone in this blast already countered (MUR-R22).
    pub countered: bool,
    /// The target already asked someone to stand in for it (MUR-R23): once per attack.
    pub hid: bool,
    /// Where it stands.
    pub stage: AttackStage,
    /// The attacker was concealed when it attacked: its targets cannot react (MUR-R41).
    pub surprise: bool,
    /// A WIT save to hit is needed (MUR-R13), as worked out when it was declared.
    pub save: bool,
    /// A ranged attack (not melee), as worked out when it was declared.
    pub ranged: bool,
    /// A damage roll made once for the whole blast (MUR-H8).
    pub rolled: Option<i32>,
    /// The natural face of the kept damage die (MUR-R49).
    pub face: Option<u16>,
}

/// A reaction to an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reaction {
    /// No reaction.
    Take,
    /// An AGI save to make it miss (MUR-R20).
    Dodge,
    /// Stepped in as a guard (MUR-R24): no other reaction, but its shield counts.
    Guard,
    /// Attack back (MUR-R21).
    Counter {
        /// With what.
        with: With,
        /// How.
        mode: Mode,
    },
}

/// A step of movement waiting for opportunity attacks (MUR-R25).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The mover.
    pub who: Cid,
    /// Where it goes.
    pub to: Place,
    /// Half zones it costs.
    pub cost: u8,
    /// Forced (a shove or throw): no opportunity attacks (MUR-H26).
    pub forced: bool,
    /// The next enemy to ask (index into characters).
    pub next: Cid,
}

/// A decision or a step in progress, on the kit's stack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Frame {
    /// An attack.
    Attack(Attack),
    /// A step of movement.
    Step(Step),
    /// Members who failed morale choose to surrender or retreat, one by one (MUR-R44).
    Morale {
        /// Who still has to choose.
        who: Vec<Cid>,
    },
}
