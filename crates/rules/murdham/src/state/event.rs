//! Every event of a Murdham fight, the record's unit, and the conditions events set. Events
//! carry every die they rolled; [`crate::state::apply`] is the only reader that changes the
//! state.

use super::{Frame, Phase, Status, Why};
use crate::data::{Ability, Injury};
use crate::place::Place;
use crate::ruling::Ruling;
use crate::setup::Cid;
use fray_engine::Seat;
use fray_engine::resolve::FrameOp;
use serde::{Deserialize, Serialize};

/// What ends a character's part in the fight or changes how it stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// The faction holding the initiative (MUR-R6); `roll` when a die decided.
    Initiative {
        /// The faction.
        side: u8,
        /// The die, when the encounter did not say.
        roll: Option<u16>,
    },
    /// A round begins.
    RoundStarted {
        /// Its number.
        round: u32,
    },
    /// A phase begins (fast, slow, the ambush bonus turn); `fat` is the fast action threshold
    /// rolled for a fast phase (MUR-R52).
    PhaseStarted {
        /// The phase.
        phase: Phase,
        /// The threshold.
        fat: Option<u8>,
    },
    /// This faction acts first in the phase (MUR-R6).
    Opens {
        /// The faction.
        side: u8,
    },
    /// A faction passes (MUR-R1).
    Passed {
        /// The faction.
        side: u8,
    },
    /// One of several seats asked at a faction's opportunity passes for its own characters;
    /// the others are still asked, and the faction passes once each of them has (see
    /// [`State::seats_passed`]). Never logged for a faction played from one seat, whose pass
    /// is the faction's.
    SeatPassed {
        /// The faction.
        side: u8,
        /// The seat.
        seat: Seat,
    },
    /// A turn begins.
    TurnStarted {
        /// Whose.
        who: Cid,
    },
    /// A stunned or distracted character's turn is lost; `timed_out` when the declaration
    /// timer ran out (MUR-R56).
    TurnLost {
        /// Whose.
        who: Cid,
        /// The chaos timer ran out.
        timed_out: bool,
    },
    /// The turn is over.
    TurnEnded {
        /// Whose.
        who: Cid,
    },
    /// A full movement (main action, MUR-H2).
    Ran {
        /// Who.
        who: Cid,
        /// Half zones it adds.
        halves: u8,
    },
    /// A step of movement.
    Moved {
        /// Who.
        who: Cid,
        /// Where to.
        to: Place,
        /// Half zones spent.
        cost: u8,
    },
    /// Took or left a cover spot.
    Covered {
        /// Who.
        who: Cid,
        /// In cover now.
        cover: bool,
    },
    /// An action slot used for this (the log names it); `main` for a main action.
    Acted {
        /// Who.
        who: Cid,
        /// A main action.
        main: bool,
        /// What, for the log (`say`, `interact`...).
        what: String,
    },
    /// The frame stack changes.
    Frame(FrameOp<Frame>),
    /// A save: d20 against the score (`auto`: decided by size or skill without a roll).
    Save {
        /// Who saves.
        who: Cid,
        /// With what.
        ability: Ability,
        /// The score.
        score: u8,
        /// The d20 (0 when decided without a roll).
        roll: u16,
        /// Passed.
        pass: bool,
        /// Why.
        why: Why,
    },
    /// A group save: one d20 for several (MUR-R44, MUR-R47).
    GroupSave {
        /// The d20.
        roll: u16,
        /// Each member, its score, and whether it passed.
        members: Vec<(Cid, u8, bool)>,
        /// Why.
        why: Why,
    },
    /// A reaction taken, using the reactor's turn unless free (MUR-R10, MUR-R60).
    Reacted {
        /// Who.
        who: Cid,
        /// What it did, for the log.
        what: String,
        /// It did not use the turn.
        free: bool,
    },
    /// A damage roll: every face of each die, the dice kept, the total before armour.
    DamageRoll {
        /// Who rolls.
        by: Cid,
        /// Each exploding roll's faces (two when impaired or enhanced).
        rolls: Vec<Vec<u16>>,
        /// Impaired (-1, -2: none) or enhanced (1).
        level: i8,
        /// The total before size and armour.
        total: i32,
    },
    /// Damage taken: `raw` before armour, `armour` the armour that counted.
    Damaged {
        /// Who.
        who: Cid,
        /// By whom (an enemy's harm ends a surrender, MUR-R46).
        by: Option<Cid>,
        /// After armour.
        amount: i32,
        /// Before armour.
        raw: i32,
        /// Armour that counted.
        armour: i32,
    },
    /// Critical damage, dying, death... (the new status).
    Fell {
        /// Who.
        who: Cid,
        /// The new status.
        status: Status,
    },
    /// Healed by this much; a dying character is saved.
    Healed {
        /// Who.
        who: Cid,
        /// How much.
        amount: i32,
    },
    /// An injury rolled on being saved from dying: the d6, the ability lost and how much, and
    /// the condition it leaves until a full rest (with the d2 that picked the arm).
    Injured {
        /// Who.
        who: Cid,
        /// The d6.
        roll: u16,
        /// The ability lowered, and by how much.
        loss: Option<(Ability, u8)>,
        /// The d2 for the arm of a first arm injury: 1 the other arm, 2 the main one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        arm: Option<u16>,
        /// The condition left (none: a scar, or an injury it had already had enough times).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lasting: Option<Injury>,
    },
    /// Revealed (MUR-R42): where it is, and whether in cover, are known from now on.
    Revealed {
        /// Who.
        who: Cid,
        /// Where it is.
        at: Place,
        /// At a cover spot.
        cover: bool,
    },
    /// Grabbed, or let go (`by` none).
    Grab {
        /// Who is held.
        who: Cid,
        /// By whom, or `None` when freed.
        by: Option<Cid>,
    },
    /// An item leaves a hand (dropped on the ground where the character stands).
    Dropped {
        /// Who.
        who: Cid,
        /// The item.
        item: u8,
    },
    /// An item is taken from the ground into the character's items.
    PickedUp {
        /// Who.
        who: Cid,
        /// The index on the ground.
        ground: u16,
    },
    /// An item goes into a hand (`hand` 0 main, 1 other; two-handed items fill both).
    Equipped {
        /// Who.
        who: Cid,
        /// The item.
        item: u8,
        /// The hand.
        hand: u8,
    },
    /// An item leaves the hands but stays carried.
    Stowed {
        /// Who.
        who: Cid,
        /// The item.
        item: u8,
    },
    /// An item is used (weapon attacked, shield helped, consumable spent).
    Used {
        /// Who.
        who: Cid,
        /// The item.
        item: u8,
        /// Spent (a consumable), or fired (a reload weapon).
        spent: bool,
    },
    /// A reload weapon's reloading goes on one round (ready at 10).
    Reloaded {
        /// Who.
        who: Cid,
        /// The item.
        item: u8,
    },
    /// An item is damaged or destroyed (`item` none for the character's armour).
    Worn {
        /// Whose.
        who: Cid,
        /// The item's name, for the log.
        name: String,
        /// The item, or `None` for armour.
        item: Option<u8>,
        /// Destroyed (else damaged).
        destroyed: bool,
    },
    /// A durability roll after the fight (MUR-R48): the die and its size.
    Durability {
        /// Whose.
        who: Cid,
        /// The item, or `None` for armour.
        item: Option<u8>,
        /// The die.
        roll: u16,
        /// Its faces.
        sides: u16,
    },
    /// A condition set or cleared.
    Condition {
        /// Who.
        who: Cid,
        /// Which.
        condition: Condition,
    },
    /// A character's morale holds for the rest of the fight (MUR-R44), or it resumed
    /// fighting after surrendering (MUR-R46).
    MoraleProof {
        /// Who.
        who: Cid,
    },
    /// A character gives up or leaves.
    Gave {
        /// Who.
        who: Cid,
        /// Surrendered or fled.
        status: Status,
    },
    /// A surrendered character harmed by the enemy fights again (MUR-R46).
    Resumed {
        /// Who.
        who: Cid,
    },
    /// A ranged blast that missed lands in a neighbouring zone (MUR-R31); `None`: the die
    /// showed more than there are neighbours and is rolled again (MUR-H22).
    Deviated {
        /// The die.
        roll: u16,
        /// Its faces.
        sides: u16,
        /// Where it lands.
        to: Option<Place>,
    },
    /// A stunt's outcome: approved or refused by the GM, accepted or refused by the target
    /// (MUR-R32).
    Stunt {
        /// The attacker.
        by: Cid,
        /// The target.
        target: Cid,
        /// What was proposed.
        effect: String,
        /// `Some(true)` accepted, `Some(false)` refused, `None` refused by the GM.
        accepted: Option<bool>,
    },
    /// In a counter, the side hit first is out of the fight before its own blow lands
    /// (MUR-R21 [A]): that blow never lands. It explains the log and changes nothing.
    BlowStopped {
        /// Whose blow.
        who: Cid,
    },
    /// The character asked to stand in for the target of an attack declines (MUR-R23): the
    /// target still has its reaction.
    StandInDeclined {
        /// Who was asked.
        who: Cid,
        /// Who wanted to hide behind it.
        hider: Cid,
    },
    /// A GM ruling.
    Ruled(Ruling),
    /// The fight is over: one faction left (or the GM said).
    Ended {
        /// The winner.
        winner: Option<u8>,
        /// Why.
        reason: String,
    },
}

/// A condition of a character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Condition {
    /// Loses the turn of this round (stunned, distracted), or nothing more.
    LosesTurn(Option<u32>),
    /// Frightened of someone, or not.
    Frightened(Option<Cid>),
    /// Taunted by someone, or not.
    Taunted(Option<Cid>),
    /// Poisoned or cured.
    Poisoned(bool),
    /// Its free dodge used this round.
    FreeDodge,
    /// The GM's flags for its next attack.
    Hindered(bool),
    /// Its next attack goes through cover.
    Penetrating(bool),
    /// Its next influence allows no save.
    Overwhelming(bool),
    /// Peeking from a barrier.
    Peeking(bool),
    /// What the GM ruled of the next hit on it (enhanced 1, impaired -1 or -2; 0 once it came).
    NextHit(i8),
}
