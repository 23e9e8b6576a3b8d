//! A character as the fight changes it: its place, health, standing, conditions, injuries,
//! hands and items ([`Char`], [`Item`]), and what is read of it (its scores with injuries,
//! its armour, whether it is up). Changed only by [`crate::state::apply`].

use super::Status;
use crate::data::{Ability, Injuries, Keyword};
use crate::place::Place;
use crate::setup::{Cid, Combatant, Stats};
use fray_engine::kit::roster::Member;
use serde::{Deserialize, Serialize};

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

/// What the roster reads of a character: its own seat stays in the encounter
/// ([`super::State::seat_of`] reads it there), and it is out once it is not up.
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
    fn out(&self) -> bool {
        !self.up()
    }
}
