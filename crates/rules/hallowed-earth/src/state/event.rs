//! The events: what resolution produces, and the only thing that changes the state (through
//! [`super::apply`]). Every roll keeps its face, so a record replays and verifies from its events.
//!
//! The enum is kept apart from the position it changes so that the record format (the serde
//! names of these variants and fields) reads in one place.

use super::{Act, Action, Cause, CheckKind, Frame, Free, Lost};
use crate::command::Ruling;
use crate::data::Ability;
use crate::setup::Cid;
use fray_engine::resolve::FrameOp;
use fray_space::Pos;
use serde::{Deserialize, Serialize};

/// What resolution produces; the only thing that changes the state. Every roll keeps its face.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Event {
    /// Maximum Stress rolled from Hit Dice (HAL-R24), or fixed by the stat block.
    Stress { who: Cid, max: i16 },
    /// A Base Initiative d12 (HAL-R4), shared by a group (HAL-R5).
    Initiative { group: Vec<Cid>, roll: u16 },
    /// A round begins: declarations open (HAL-R1, HAL-R6).
    RoundStarted { round: u32 },
    /// A creature declares (HAL-R6); `None` as shown to seats it is secret from (HAL-R11).
    Declared { who: Cid, action: Option<Action> },
    /// A creature declares its Free action for the round (HAL-R17), before its action; `None`
    /// as shown to seats it is secret from (HAL-R11).
    FreeDeclared { who: Cid, free: Option<Free> },
    /// Every declaration is in: the round's order (HAL-R7, HAL-R9, HAL-R10).
    Revealed { acts: Vec<Act> },
    /// A late arrival's action is scheduled this round (HAL-R42) or kept for the next (HAL-R13).
    Scheduled { act: Act, this_round: bool },
    /// A count begins: what each creature can do is fixed for it (HAL-R10).
    CountStarted { count: i32 },
    /// An act's turn begins.
    TurnStarted { act: u16 },
    /// An act comes to nothing.
    ActLost { act: u16, why: Lost },
    /// A move of `cost` squares.
    Moved { who: Cid, to: Pos, cost: u32 },
    /// The frame stack changes.
    Frame(FrameOp<Frame>),
    /// An action (or a Reaction) is taken (HAL-R17).
    Acting { who: Cid, reaction: bool },
    /// A Free action is taken (HAL-R17); `to`, where a short move ended.
    Free {
        who: Cid,
        free: Free,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<Pos>,
    },
    /// Full defence is in force (HAL-R14, HAL-H23).
    Guarding { who: Cid },
    /// An attack roll (HAL-R35, HAL-H3).
    Attacked {
        by: Cid,
        target: Cid,
        natural: u16,
        total: i16,
        defense: i16,
        hit: bool,
        crit: bool,
        reposte: bool,
    },
    /// Damage taken: Stress and Wound Points lost (HAL-R25, HAL-R36, HAL-R37), the wound's type.
    Damaged {
        who: Cid,
        stress: i16,
        wp: i16,
        kind: String,
        cause: Cause,
    },
    /// The injury d100 after a critical hit (HAL-R38).
    InjuryRoll { who: Cid, roll: u16, chance: i16 },
    /// A combat injury (HAL-R39..R41): the table's entry, the side for the arm entries (true
    /// for the main arm), the ability damage.
    Injured {
        who: Cid,
        table: String,
        entry: u8,
        main: Option<bool>,
        loss: Vec<(Ability, i16)>,
    },
    /// An Intimidation result against a monster's morale this round (HAL-R21).
    Intimidated { target: Cid, result: i16 },
    /// A check.
    Checked {
        who: Cid,
        kind: CheckKind,
        roll: u16,
        total: i16,
        tn: i16,
        success: bool,
    },
    /// Stabilized (HAL-R32).
    Stabilized { who: Cid },
    /// Mana and Stress spent on a spell (HAL-R26).
    Spent { who: Cid, mana: i16, stress: i16 },
    /// Stress restored.
    Restored { who: Cid, stress: i16 },
    /// A consumable used up.
    ItemUsed { who: Cid, item: u8 },
    /// A weapon thrown away.
    Thrown { who: Cid, weapon: u8 },
    /// A monster's morale check fails without a roll: the outcome is obvious to it (HAL-R22).
    MoraleObvious { who: Cid },
    /// A monster breaks (HAL-H13), or a creature chose to run.
    Broke { who: Cid },
    /// It left the battlefield.
    Fled { who: Cid },
    /// It surrendered (HAL-H13).
    Surrendered { who: Cid },
    /// The turn is over.
    TurnEnded { act: u16 },
    /// The round is over, its end-of-round steps (HAL-H26) done.
    RoundEnded { round: u32 },
    /// A GM ruling.
    Ruled(Ruling),
    /// The combat is over (HAL-R23).
    Ended { winner: Option<u8> },
}
