//! The state, the events, and the one [`apply`] that changes the state.

use crate::command::Ruling;
use crate::data::{Ability, Injuries, Injury, Keyword};
use crate::options::Options;
use crate::place::Place;
use crate::setup::{Cid, Combatant, Setup, Stats};
use fray_engine::gm::Ruling as R;
use fray_engine::resolve::{FrameOp, apply_frame_op};
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

/// An item a character has.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    /// Its id in the item tables.
    pub id: String,
    /// Damaged: a second failed durability roll or a breaking hit destroys it (MUR-R48).
    #[serde(default, skip_serializing_if = "is_false")]
    pub damaged: bool,
    /// Used at least once this fight (MUR-H25).
    #[serde(default, skip_serializing_if = "is_false")]
    pub used: bool,
    /// A reload weapon that has fired; rounds of reloading done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spent: Option<u8>,
    /// No longer the character's: destroyed, used up, dropped or taken. Items are never
    /// removed from the list, so the numbers attacks and commands hold keep their meaning.
    #[serde(default, skip_serializing_if = "is_false")]
    pub gone: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A character now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Char {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its faction.
    pub side: u8,
    /// Its stat block (abilities as they are now: injuries lower them).
    pub stats: Stats,
    /// Health now.
    pub health: i32,
    /// Where it stands.
    pub at: Place,
    /// At a cover spot of its zone.
    pub cover: bool,
    /// Peeked out from a barrier to attack: until its next turn the barrier is only cover
    /// (MUR-R28).
    pub peeking: bool,
    /// Concealed from its enemies (MUR-R40 to MUR-R42).
    pub concealed: bool,
    /// Fighting or out, and how.
    pub status: Status,
    /// Its items; `hands` points into this list.
    pub items: Vec<Item>,
    /// Items in the main and the other hand (a two-handed item fills both).
    pub hands: [Option<u8>; 2],
    /// Grabbed by this character: entangled (MUR-R35).
    pub grabbed_by: Option<Cid>,
    /// Stunned or distracted: it cannot take a turn or react in this round.
    pub lost_round: Option<u32>,
    /// Frightened of this character.
    pub frightened_of: Option<Cid>,
    /// Taunted by this character: its next turn may only try to harm it (MUR-R8).
    pub taunted_by: Option<Cid>,
    /// Poisoned: 1 damage at each round's end until cured.
    pub poisoned: bool,
    /// Passed a morale check, or resumed fighting after surrendering: not checked again
    /// (MUR-R44, MUR-H11).
    pub morale_proof: bool,
    /// Used its free dodge this round (dodge blows, MUR-R60).
    pub free_dodge_used: bool,
    /// The GM asks a WIT save of its next attack (MUR-H6).
    pub hindered: bool,
    /// The GM lets its next attack through cover (MUR-H7).
    pub penetrating: bool,
    /// The GM waives the save against its next distract, intimidate or taunt (MUR-R8).
    pub overwhelming: bool,
    /// Its armour was hit at least once (MUR-H25).
    pub armour_used: bool,
    /// Its armour is damaged.
    pub armour_damaged: bool,
    /// Its armour is destroyed.
    pub armour_lost: bool,
    /// STR, AGI and WIT lowered by injuries or the GM, earlier fights' included (they last
    /// until a full rest).
    #[serde(default, skip_serializing_if = "is_zero3")]
    pub lowered: [u8; 3],
    /// Items of its own (indices into `items`) destroyed or used up in this fight (MUR-R48 to
    /// MUR-R50; drunk, thrown).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lost: Vec<u8>,
    /// The conditions its injuries left it (hobbled, an arm, an eye), earlier fights' included:
    /// they last until a full rest.
    #[serde(default, skip_serializing_if = "Injuries::none")]
    pub injuries: Injuries,
    /// What the GM ruled of the next hit on it: 1 enhanced, -1 impaired, -2 impaired twice (no
    /// damage), 0 nothing.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub next_hit: i8,
}

fn no_seats(s: &Seats) -> bool {
    s.is_empty()
}

fn is_zero(v: &i8) -> bool {
    *v == 0
}

fn is_zero3(v: &[u8; 3]) -> bool {
    *v == [0; 3]
}

impl Char {
    /// A character as it enters the fight.
    pub fn new(c: &Combatant, items: &std::collections::BTreeMap<String, crate::data::ItemDef>) -> Char {
        let st = &c.stats;
        let injuries = c.worn.injuries;
        let mut list: Vec<Item> = Vec::new();
        let mut hands = [None, None];
        for (i, id) in st.wield.iter().chain(&st.carry).enumerate() {
            let def = items.get(id);
            list.push(Item {
                id: id.clone(),
                // MUR-R51, MUR-H16: fragile items, improvised weapons among them, start damaged;
                // so do those an earlier fight damaged (MUR-R48).
                damaged: def.is_some_and(|d| d.has(Keyword::Fragile)) || c.worn.damaged.contains(&(i as u8)),
                used: false,
                spent: None,
                gone: false,
            });
            if i < st.wield.len() {
                // In the first free hand it can use; an item no usable hand can hold (an arm
                // injured earlier) is carried instead.
                let usable = |h: usize| hands[h].is_none() && injuries.hand_free(h);
                if def.is_some_and(|d| d.two_handed()) {
                    if usable(0) && usable(1) {
                        hands = [Some(i as u8), Some(i as u8)];
                    }
                } else if let Some(h) = (0..2).find(|&h| usable(h)) {
                    hands[h] = Some(i as u8);
                }
            }
        }
        Char {
            id: c.id.clone(),
            name: c.name.clone(),
            side: c.side,
            stats: st.clone(),
            health: c.health.unwrap_or_else(|| st.max_health()),
            at: c.at,
            cover: c.cover,
            peeking: false,
            concealed: c.concealed,
            status: Status::Up,
            items: list,
            hands,
            grabbed_by: None,
            lost_round: None,
            frightened_of: None,
            taunted_by: None,
            poisoned: false,
            morale_proof: false,
            free_dodge_used: false,
            hindered: false,
            penetrating: false,
            overwhelming: false,
            armour_used: false,
            armour_damaged: c.worn.armour_damaged,
            armour_lost: false,
            lowered: c.worn.lowered,
            lost: Vec::new(),
            injuries,
            next_hit: 0,
        }
    }

    /// An ability score now.
    pub fn ability(&self, a: Ability) -> u8 {
        self.stats.ability(a)
    }

    /// Whether it is still fighting (up, not surrendered, fled or worse).
    pub fn up(&self) -> bool {
        self.status == Status::Up
    }

    /// Whether it can take a turn or react: up, not entangled (it may still break free).
    pub fn can_act(&self) -> bool {
        self.up()
    }

    /// Out for good or for the stretch: dead, dying, incapacitated, disabled, banished.
    pub fn down(&self) -> bool {
        !matches!(self.status, Status::Up | Status::Surrendered | Status::Fled)
    }

    /// Item `i`, unless it is gone.
    pub fn item(&self, i: u8) -> Option<&Item> {
        self.items.get(i as usize).filter(|it| !it.gone)
    }

    /// The items it still has, with their numbers.
    pub fn live_items(&self) -> impl Iterator<Item = (u8, &Item)> {
        self.items
            .iter()
            .enumerate()
            .filter(|(_, it)| !it.gone)
            .map(|(i, it)| (i as u8, it))
    }

    /// Whether item `i` is in a hand; which hand (0 main).
    pub fn hand_of(&self, i: u8) -> Option<usize> {
        self.hands.iter().position(|h| *h == Some(i))
    }

    /// Free hands (an injured arm's is none).
    pub fn free_hands(&self) -> usize {
        (0..2)
            .filter(|&h| self.hands[h].is_none() && self.injuries.hand_free(h))
            .count()
    }

    /// The half zones of movement a turn gives it: one zone, half of it when hobbled (the
    /// game's Conditions and Movement chapters).
    pub fn turn_halves(&self) -> u8 {
        if self.injuries.hobbled { 1 } else { 2 }
    }

    /// Armour value now (before size): light 1, heavy 2, none if destroyed.
    pub fn armour(&self) -> i32 {
        if self.armour_lost {
            0
        } else {
            i32::from(self.stats.armour)
        }
    }
}

/// The turn under way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

/// Where an attack stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
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
    pub stage: Stage,
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

/// A whole game position. Clones are cheap: the setup sits behind an `Arc`.
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
    pub chars: Vec<Char>,
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
        let chars: Vec<Char> = setup.combatants.iter().map(|c| Char::new(c, &setup.items)).collect();
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

    /// A character (the index must be valid: check commands first).
    pub fn ch(&self, c: Cid) -> &Char {
        &self.chars[c as usize]
    }

    /// Every character's index.
    pub fn ids(&self) -> impl Iterator<Item = Cid> + use<> {
        0..self.chars.len() as Cid
    }

    /// The character with this id (typed ids ignore case).
    pub fn find(&self, id: &str) -> Option<Cid> {
        fray_engine::encounter::find_id(self.chars.iter().map(|c| c.id.as_str()), id).map(|i| i as Cid)
    }

    /// The seat that decides for a character: the one the encounter gives it, else its
    /// faction's (a character the GM adds has its faction's).
    pub fn seat_of(&self, who: Cid) -> Seat {
        self.setup
            .combatants
            .get(who as usize)
            .and_then(|c| c.seat)
            .unwrap_or_else(|| self.setup.sides[self.ch(who).side as usize].seat)
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

/// Applies one event: the only function that changes the state.
pub fn apply(s: &mut State, e: &Event) {
    match e {
        Event::Initiative { side, .. } => s.initiative = *side,
        Event::RoundStarted { round } => {
            s.round = *round;
            s.fat = None;
            s.order.start_round();
            for c in s.chars.iter_mut() {
                c.free_dodge_used = false;
            }
        }
        Event::PhaseStarted { phase, fat } => {
            if *phase == Phase::Ambush {
                s.order.start_round();
            } else if matches!(phase, Phase::Slow) {
                s.order.start_phase();
            }
            s.phase = *phase;
            s.seats_passed = Seats::EMPTY;
            if fat.is_some() {
                s.fat = *fat;
            }
            s.opening = matches!(phase, Phase::Ambush | Phase::Round | Phase::Fast | Phase::Slow);
        }
        Event::Opens { side } => {
            s.order.start_phase_with(Some(*side));
            s.passed.iter_mut().for_each(|p| *p = false);
            s.seats_passed = Seats::EMPTY;
            s.opening = false;
        }
        Event::Passed { side } => {
            let _ = s.order.pass();
            if let Some(p) = s.passed.get_mut(*side as usize) {
                *p = true;
            }
            s.seats_passed = Seats::EMPTY;
        }
        Event::SeatPassed { seat, .. } => s.seats_passed.insert(*seat),
        Event::TurnStarted { who } => {
            s.order.took_turn(*who);
            s.passed.iter_mut().for_each(|p| *p = false);
            s.seats_passed = Seats::EMPTY;
            let c = &mut s.chars[*who as usize];
            c.peeking = false;
            let halves = c.turn_halves();
            s.turn = Some(Turn {
                who: *who,
                actions: 2,
                main: false,
                halves,
                moved: false,
            });
        }
        Event::TurnLost { who, .. } => {
            s.order.took_turn(*who);
            s.passed.iter_mut().for_each(|p| *p = false);
            s.seats_passed = Seats::EMPTY;
            s.turn = None;
        }
        Event::TurnEnded { who } => {
            s.turn = None;
            // A taunt binds one turn (MUR-R8).
            s.chars[*who as usize].taunted_by = None;
        }
        Event::Ran { halves, .. } => {
            if let Some(t) = &mut s.turn {
                t.halves = t.halves.saturating_add(*halves);
                t.main = true;
                t.actions = t.actions.saturating_sub(1);
            }
        }
        Event::Moved { who, to, cost } => {
            let c = &mut s.chars[*who as usize];
            c.at = *to;
            c.cover = false;
            c.peeking = false;
            if let Some(t) = &mut s.turn
                && t.who == *who
            {
                t.halves = t.halves.saturating_sub(*cost);
                t.moved = true;
            }
        }
        Event::Covered { who, cover } => {
            s.chars[*who as usize].cover = *cover;
            if let Some(t) = &mut s.turn
                && t.who == *who
            {
                t.halves = t.halves.saturating_sub(1);
            }
        }
        Event::Acted { who, main, .. } => {
            if let Some(t) = &mut s.turn
                && t.who == *who
            {
                t.actions = t.actions.saturating_sub(1);
                t.main |= *main;
            }
        }
        Event::Frame(op) => apply_frame_op(&mut s.frames, op.as_ref()),
        Event::Save { .. } | Event::GroupSave { .. } | Event::DamageRoll { .. } | Event::Deviated { .. } => {}
        Event::Stunt { .. } | Event::Durability { .. } | Event::StandInDeclined { .. } | Event::BlowStopped { .. } => {}
        Event::Reacted { who, free, .. } => {
            if !*free {
                // MUR-R10: a reaction is the character's turn for this round.
                s.order.mark_acted(*who);
            }
        }
        Event::Damaged { who, amount, by, .. } => {
            let c = &mut s.chars[*who as usize];
            c.health = (c.health - amount).max(0);
            if *amount > 0 || by.is_some() {
                c.armour_used |= c.stats.armour > 0;
            }
        }
        Event::Fell { who, status } => {
            let c = &mut s.chars[*who as usize];
            c.status = *status;
            if !c.up() {
                c.cover = false;
                release_grabs(s, *who);
            }
        }
        Event::Healed { who, amount } => {
            let c = &mut s.chars[*who as usize];
            c.health = (c.health + amount).min(c.stats.max_health());
            if matches!(c.status, Status::Dying { .. }) && c.health > 0 {
                // Saved from dying, but still incapacitated until the end of the stretch.
                c.status = Status::Incapacitated;
            }
        }
        Event::Injured { who, loss, lasting, .. } => {
            let c = &mut s.chars[*who as usize];
            if let Some((a, n)) = loss {
                let v = &mut c.stats.abilities[*a as usize];
                *v = v.saturating_sub(*n);
                let l = &mut c.lowered[*a as usize];
                *l = l.saturating_add(*n);
            }
            if let Some(i) = lasting {
                c.injuries.add(*i);
                // An arm it cannot use holds nothing: what it held stays carried (a two-handed
                // item leaves both hands).
                let h = match i {
                    Injury::MainArm => Some(0),
                    Injury::OtherArm => Some(1),
                    _ => None,
                };
                if let Some(item) = h.and_then(|h| c.hands[h]) {
                    for slot in c.hands.iter_mut() {
                        if *slot == Some(item) {
                            *slot = None;
                        }
                    }
                }
            }
        }
        Event::Revealed { who, at, cover } => {
            let c = &mut s.chars[*who as usize];
            c.concealed = false;
            c.at = *at;
            c.cover = *cover;
        }
        Event::Grab { who, by } => {
            s.chars[*who as usize].grabbed_by = *by;
        }
        Event::Dropped { who, item } => {
            let c = &mut s.chars[*who as usize];
            let at = c.at;
            if let Some(it) = take_item(c, *item) {
                s.ground.push((at, it));
            }
        }
        Event::PickedUp { who, ground } => {
            let g = *ground as usize;
            if g < s.ground.len() {
                let (_, it) = s.ground.remove(g);
                s.chars[*who as usize].items.push(it);
            }
        }
        Event::Equipped { who, item, hand } => {
            let c = &mut s.chars[*who as usize];
            let two = s
                .setup
                .items
                .get(c.items.get(*item as usize).map_or("", |i| i.id.as_str()))
                .is_some_and(|d| d.two_handed());
            if two {
                c.hands = [Some(*item), Some(*item)];
            } else {
                c.hands[*hand as usize & 1] = Some(*item);
            }
        }
        Event::Stowed { who, item } => {
            let c = &mut s.chars[*who as usize];
            for h in c.hands.iter_mut() {
                if *h == Some(*item) {
                    *h = None;
                }
            }
        }
        Event::Used { who, item, spent } => {
            let consumable = {
                let c = &s.chars[*who as usize];
                c.items
                    .get(*item as usize)
                    .and_then(|i| s.setup.items.get(&i.id))
                    .is_some_and(|d| d.has(Keyword::Consumable))
            };
            let c = &mut s.chars[*who as usize];
            if let Some(i) = c.items.get_mut(*item as usize) {
                i.used = true;
                if *spent && !consumable {
                    i.spent = Some(0);
                }
            }
            if *spent && consumable && take_item(c, *item).is_some() {
                c.lost.push(*item);
            }
        }
        Event::Reloaded { who, item } => {
            if let Some(i) = s.chars[*who as usize].items.get_mut(*item as usize) {
                i.spent = match i.spent {
                    Some(n) if n + 1 >= crate::RELOAD_ROUNDS => None,
                    Some(n) => Some(n + 1),
                    None => None,
                };
            }
        }
        Event::Worn {
            who, item, destroyed, ..
        } => {
            let c = &mut s.chars[*who as usize];
            match item {
                None if *destroyed => c.armour_lost = true,
                None => c.armour_damaged = true,
                Some(i) if *destroyed => {
                    if take_item(c, *i).is_some() {
                        c.lost.push(*i);
                    }
                }
                Some(i) => {
                    if let Some(it) = c.items.get_mut(*i as usize) {
                        it.damaged = true;
                    }
                }
            }
        }
        Event::Condition { who, condition } => {
            let c = &mut s.chars[*who as usize];
            match *condition {
                Condition::LosesTurn(v) => c.lost_round = v,
                Condition::Frightened(v) => c.frightened_of = v,
                Condition::Taunted(v) => c.taunted_by = v,
                Condition::Poisoned(v) => c.poisoned = v,
                Condition::FreeDodge => c.free_dodge_used = true,
                Condition::Hindered(v) => c.hindered = v,
                Condition::Penetrating(v) => c.penetrating = v,
                Condition::Overwhelming(v) => c.overwhelming = v,
                Condition::Peeking(v) => c.peeking = v,
                Condition::NextHit(v) => c.next_hit = v,
            }
        }
        Event::MoraleProof { who } => s.chars[*who as usize].morale_proof = true,
        Event::Gave { who, status } => {
            let c = &mut s.chars[*who as usize];
            c.status = *status;
            c.cover = false;
            release_grabs(s, *who);
        }
        Event::Resumed { who } => {
            let c = &mut s.chars[*who as usize];
            c.status = Status::Up;
            c.morale_proof = true;
        }
        Event::Ruled(r) => rule(s, r),
        Event::Ended { winner, reason } => {
            s.outcome = Some(Outcome {
                winner: *winner,
                reason: reason.clone(),
            });
            s.turn = None;
        }
    }
    if let Event::Frame(FrameOp::Push(Frame::Morale { .. })) = e {
        s.phase = Phase::Morale;
    }
}

/// Takes an item from a character: it is marked gone (the list keeps its place) and leaves
/// the hands; returns it as it was.
fn take_item(c: &mut Char, item: u8) -> Option<Item> {
    let it = c.items.get_mut(item as usize).filter(|it| !it.gone)?;
    let taken = it.clone();
    it.gone = true;
    for h in c.hands.iter_mut() {
        if *h == Some(item) {
            *h = None;
        }
    }
    Some(taken)
}

/// Whoever `who` held is free, and `who` is free of whoever held it.
fn release_grabs(s: &mut State, who: Cid) {
    s.chars[who as usize].grabbed_by = None;
    for c in s.chars.iter_mut() {
        if c.grabbed_by == Some(who) {
            c.grabbed_by = None;
        }
    }
}

fn rule(s: &mut State, r: &Ruling) {
    use crate::command::OwnRuling as O;
    match r {
        R::Adjust { who, gauge, by } => {
            let c = &mut s.chars[*who as usize];
            match gauge {
                crate::command::Gauge::Health => c.health = i32::from(by.apply(c.health as i16)),
                crate::command::Gauge::Ability(a) => {
                    let v = &mut c.stats.abilities[*a as usize];
                    let before = *v;
                    *v = by.apply(i16::from(*v)).clamp(0, 19) as u8;
                    // A score the GM lowers is lowered until a full rest, as an injury's is;
                    // raising it gives back what was lowered first.
                    let l = &mut c.lowered[*a as usize];
                    if *v < before {
                        *l = l.saturating_add(before - *v);
                    } else {
                        *l = l.saturating_sub(*v - before);
                    }
                }
            }
        }
        R::Move { who, to } => {
            let c = &mut s.chars[*who as usize];
            c.at = *to;
            c.cover = false;
        }
        R::Add { id, template, side, at } => {
            let Some(stats) = s.setup.templates.get(template).cloned() else {
                return;
            };
            let c = Combatant {
                id: id.clone(),
                name: id.clone(),
                side: *side,
                at: *at,
                concealed: false,
                cover: false,
                health: None,
                stats,
                worn: Default::default(),
                seat: None,
            };
            s.chars.push(Char::new(&c, &s.setup.items));
            s.order.add_member(*side);
            // A newcomer acts from the next round.
            s.order.mark_acted((s.chars.len() - 1) as u16);
        }
        R::Remove { who } => {
            s.chars[*who as usize].status = Status::Fled;
            release_grabs(s, *who);
        }
        // The end itself (after the gear's durability rolls) is the `Ended` event.
        R::End { .. } => {}
        R::Other(o) => match o {
            O::Conceal { who, on } => s.chars[*who as usize].concealed = *on,
            O::Hinder { who } => s.chars[*who as usize].hindered = true,
            O::Penetrate { who } => s.chars[*who as usize].penetrating = true,
            O::Overwhelm { who } => s.chars[*who as usize].overwhelming = true,
            O::Frighten { who, of } => s.chars[*who as usize].frightened_of = Some(*of),
            O::Calm { who } => s.chars[*who as usize].frightened_of = None,
            O::Poison { who, on } => s.chars[*who as usize].poisoned = *on,
            O::Stun { who } => s.chars[*who as usize].lost_round = Some(s.round_to_lose(*who)),
            // One more enhancement or impairment of the next hit; the two cancel, a second
            // enhancement adds nothing, two impairments leave no damage.
            O::Enhance { who } => {
                let c = &mut s.chars[*who as usize];
                c.next_hit = (c.next_hit + 1).min(1);
            }
            O::Impair { who } => {
                let c = &mut s.chars[*who as usize];
                c.next_hit = (c.next_hit - 1).max(-2);
            }
            O::Chase { .. } | O::Heal { .. } => {}
        },
    }
}
