//! The state: a whole game position as plain data (creatures, the round's acts and order, the
//! turn under way, the frame stack), with the read-only questions every other module asks of it.
//!
//! The state, its events and the one `apply` are three files of one module: this one the
//! position, [`event`] what resolution produces, [`apply`](mod@apply) how each event changes the
//! position. Nothing but `apply` writes the state; `Event` and `apply` are re-exported here, so
//! the paths `state::Event` and `state::apply` stay as they were.

mod apply;
mod event;

pub use self::apply::apply;
pub use self::event::Event;

use crate::data::{Ability, Stats};
use crate::options::{Hands, Options};
use crate::setup::{Cid, Combatant, Setup};
use fray_engine::Outcome;
use fray_engine::kit::roster::{Member, Roster};
use fray_engine::order::InitiativeOrder;
use fray_space::Pos;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Where the round is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Before the first round: Stress and Base Initiative are being rolled.
    Setup,
    /// Creatures declare their actions (HAL-R6).
    Declaring,
    /// Declared actions resolve, lowest count first (HAL-R9).
    Resolving,
}

/// A declared action (HAL-R6, HAL-R8). Weapons, spells and items are indexes into the actor's
/// stat block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Attack with a weapon (+ weapon speed).
    Attack { target: Cid, weapon: u8 },
    /// Defensive attack (+ weapon speed + 1; +1 without a target): no Reposte on entering a
    /// threat range (HAL-R15).
    Defensive { target: Option<Cid>, weapon: u8 },
    /// Full defence (−1): +4 Defense, Reposte when attacked, half speed (HAL-R14).
    FullDefense,
    /// Cast a spell (+ spell speed). `stress` is the part of its Mana cost paid in Stress, the
    /// rest in Mana, as the caster chose when declaring (HAL-R26); `None`: Mana first, Stress
    /// for what Mana cannot pay.
    Cast {
        spell: u8,
        target: Cid,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stress: Option<i16>,
    },
    /// Use a consumable (+6 unless stated).
    Use { item: u8, target: Cid },
    /// Throw a weapon (+2 unless stated).
    Throw { weapon: u8, target: Cid },
    /// A Heal check to stabilise a creature (HAL-R32; HAL-H24 speed).
    Heal { target: Cid },
    /// An Intimidation check against a monster's morale (HAL-R19, HAL-R21; HAL-H24 speed).
    Intimidate { target: Cid },
    /// Only move, or nothing at all (HAL-H24 speed).
    Move,
    /// Run for an edge of the map (after a failed morale check, or by choice: HAL-H13).
    Flee,
}

impl Action {
    /// The creature the action is aimed at, if any.
    pub fn target(&self) -> Option<Cid> {
        match *self {
            Action::Attack { target, .. }
            | Action::Cast { target, .. }
            | Action::Use { target, .. }
            | Action::Throw { target, .. }
            | Action::Heal { target }
            | Action::Intimidate { target } => Some(target),
            Action::Defensive { target, .. } => target,
            Action::FullDefense | Action::Move | Action::Flee => None,
        }
    }

    /// The same action aimed at another creature (HAL-H16's retarget).
    pub fn with_target(self, t: Cid) -> Action {
        match self {
            Action::Attack { weapon, .. } => Action::Attack { target: t, weapon },
            Action::Defensive { weapon, .. } => Action::Defensive {
                target: Some(t),
                weapon,
            },
            Action::Cast { spell, stress, .. } => Action::Cast {
                spell,
                target: t,
                stress,
            },
            Action::Use { item, .. } => Action::Use { item, target: t },
            Action::Throw { weapon, .. } => Action::Throw { weapon, target: t },
            Action::Heal { .. } => Action::Heal { target: t },
            Action::Intimidate { .. } => Action::Intimidate { target: t },
            a => a,
        }
    }

    /// Its initiative modifier (HAL-R8, HAL-H11, HAL-H12, HAL-H24) for a creature with `stats`.
    pub fn speed(&self, stats: &Stats, o: &Options) -> i16 {
        let weapon = |w: u8| {
            stats
                .weapons
                .get(usize::from(w))
                .and_then(|w| w.speed)
                .unwrap_or(o.default_weapon_speed)
        };
        match *self {
            // HAL-R8: + weapon speed.
            Action::Attack { weapon: w, .. } => weapon(w),
            // HAL-R8: + weapon speed + 1, or +1 when it attacks no one.
            Action::Defensive {
                target: Some(_),
                weapon: w,
            } => weapon(w) + 1,
            Action::Defensive { target: None, .. } => 1,
            // HAL-R8: full defence −1.
            Action::FullDefense => -1,
            // HAL-R8, HAL-H12: + spell speed, the casting TN − 10 unless stated.
            Action::Cast { spell, .. } => stats
                .spells
                .get(usize::from(spell))
                .map_or(0, |s| s.speed.unwrap_or(s.tn - o.spell_speed_offset)),
            // HAL-R8: a consumable +6 unless stated.
            Action::Use { item, .. } => stats.items.get(usize::from(item)).and_then(|i| i.speed).unwrap_or(6),
            // HAL-R8: throwing +2 unless stated.
            Action::Throw { weapon, .. } => stats
                .weapons
                .get(usize::from(weapon))
                .and_then(|w| w.throw_speed)
                .unwrap_or(2),
            // HAL-H24: an action the list leaves out.
            Action::Heal { .. } => o.heal_speed,
            Action::Intimidate { .. } => o.intimidate_speed,
            Action::Move => o.move_speed,
            Action::Flee => o.flee_speed,
        }
    }
}

/// A Free action (HAL-R17): declared with the round's action (before it), taken on the
/// creature's turn, at most one a turn. Weapons are indexes into the actor's stat block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Free {
    /// A short move of up to `free-move` yards, outside the round's Speed.
    Step,
    /// Draw a weapon: it is in hand from then on.
    Draw { weapon: u8 },
    /// Drop a weapon: it is out of hand until drawn again.
    Drop { weapon: u8 },
    /// Speak a word (a shout, an order): it costs nothing (HAL-R29).
    Speak,
}

impl Free {
    /// Whether it counts as an action for the limits and costs of acting hurt (HAL-R29,
    /// HAL-R30, HAL-R33): everything but speech.
    pub fn is_action(self) -> bool {
        self != Free::Speak
    }
}

/// One action scheduled in this round's order: the order's owners are indexes into
/// [`State::acts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Act {
    /// Who acts.
    pub who: Cid,
    /// What it declared.
    pub action: Action,
    /// Its round initiative for this action (HAL-R7).
    pub count: i32,
    /// A late arrival's catch-up action (HAL-R13).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub catch_up: bool,
    /// What the creature could do when it declared (HAL-H16: one dropped to Dying since loses
    /// the action).
    pub was: Cap,
    /// The Free action declared with it, taken on this turn (HAL-R17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free: Option<Free>,
    /// A turn for the Free action alone, at its own count (`free-action-timing = "own-count"`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lone: bool,
}

/// What a creature can do, judged at the start of a count so that creatures on the same count
/// act simultaneously (HAL-R10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cap {
    /// Fighting normally.
    Able,
    /// Stabilized (HAL-R33).
    Stable,
    /// At 0 Wound Points (HAL-R29).
    Incapacitated,
    /// Below 0 (HAL-R30).
    Dying,
    /// Dead, gone, or unable to act at all (paralysed).
    Out,
}

/// A creature's conditions, as a set of flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Conditions(pub u32);

impl Conditions {
    /// Unaware this round (HAL-R2, HAL-R3, HAL-H21).
    pub const SURPRISED: u32 = 1;
    /// Stabilized (HAL-R32, HAL-R33).
    pub const STABILIZED: u32 = 1 << 1;
    /// Dead (HAL-R31).
    pub const DEAD: u32 = 1 << 2;
    /// Broke after a failed morale check, or chose to run (HAL-H13).
    pub const FLEEING: u32 = 1 << 3;
    /// Left the battlefield.
    pub const FLED: u32 = 1 << 4;
    /// Surrendered (captured).
    pub const SURRENDERED: u32 = 1 << 5;
    /// Taken out by the GM.
    pub const REMOVED: u32 = 1 << 6;
    /// Prone until healed (injury).
    pub const PRONE: u32 = 1 << 7;
    /// Paralysed (injury, HAL-H6).
    pub const PARALYZED: u32 = 1 << 8;
    /// Concussed (injury, HAL-H6).
    pub const CONCUSSED: u32 = 1 << 9;
    /// Cannot speak (injury).
    pub const MUTE: u32 = 1 << 10;
    /// Moves at half speed (injury).
    pub const LAME: u32 = 1 << 11;
    /// Acts only every second round (injury).
    pub const EVERY_OTHER: u32 = 1 << 12;
    /// The main arm or hand is out of use (injury).
    pub const MAIN_ARM: u32 = 1 << 13;
    /// The off arm or hand is out of use (injury).
    pub const OFF_ARM: u32 = 1 << 14;
    /// Blinded (HAL-H6; only by a GM ruling).
    pub const BLINDED: u32 = 1 << 15;
    /// The morale outcome is obvious: its checks fail (HAL-R22).
    pub const HOPELESS: u32 = 1 << 16;
    /// Full defence is in force (HAL-R14).
    pub const GUARDING: u32 = 1 << 17;

    /// The conditions combat injuries leave (HAL-R40), with their names in encounter files
    /// (`conditions = [...]`): they outlast the fight, until the injury is healed.
    pub const FROM_INJURIES: [(u32, &'static str); 8] = [
        (Conditions::LAME, "lame"),
        (Conditions::PRONE, "prone"),
        (Conditions::EVERY_OTHER, "every-other-turn"),
        (Conditions::MAIN_ARM, "main-arm-out"),
        (Conditions::OFF_ARM, "off-arm-out"),
        (Conditions::PARALYZED, "paralyzed"),
        (Conditions::MUTE, "mute"),
        (Conditions::CONCUSSED, "concussed"),
    ];

    /// Every flag of [`Conditions::FROM_INJURIES`] (derived from that list).
    pub const INJURY_FLAGS: u32 = {
        let mut flags = 0;
        let mut i = 0;
        while i < Conditions::FROM_INJURIES.len() {
            flags |= Conditions::FROM_INJURIES[i].0;
            i += 1;
        }
        flags
    };

    /// Whether a flag is set.
    pub fn has(self, flag: u32) -> bool {
        self.0 & flag != 0
    }

    /// The names of the injury conditions set, in [`Conditions::FROM_INJURIES`] order.
    pub fn injury_names(self) -> Vec<&'static str> {
        Conditions::FROM_INJURIES
            .iter()
            .filter(|(f, _)| self.has(*f))
            .map(|(_, n)| *n)
            .collect()
    }
}

pub use crate::data::Wound;

/// A combatant now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Char {
    /// Its id (shared, like its name and group: a state is copied for every masked view and
    /// every simulated combat, and these never change).
    pub id: Arc<str>,
    /// Its name.
    pub name: Arc<str>,
    /// Its side.
    pub side: u8,
    /// Its stat block (an index into the setup's blocks).
    pub block: u16,
    /// Where it stands.
    pub at: Pos,
    /// Its shared initiative roll, if any (HAL-R5).
    pub group: Option<Arc<str>>,
    /// Base Initiative, once rolled (HAL-R4).
    pub base: Option<i16>,
    /// Maximum Stress, once known (HAL-R24).
    pub stress_max: i16,
    /// Stress now (HAL-R25).
    pub stress: i16,
    /// Wound Points now (HAL-R27).
    pub wp: i16,
    /// Mana now (HAL-R26).
    pub mana: i16,
    /// Wounds taken (HAL-R28).
    pub wounds: Vec<Wound>,
    /// Ability damage from injuries, by [`Ability::index`] (HAL-H18).
    pub loss: [i16; 6],
    /// Injuries taken: the table and the entry's name (HAL-R38).
    pub injuries: Vec<String>,
    /// A Balance penalty from injuries.
    pub balance: i16,
    /// Conditions.
    pub cond: Conditions,
    /// This round's declaration.
    pub declared: Option<Action>,
    /// This round's Free action, declared before the action (HAL-R17).
    #[serde(default)]
    pub declared_free: Option<Free>,
    /// A late arrival's missed action (with its Free action), taken next round at −12
    /// (HAL-R13).
    pub catch_up: Option<(Action, i32, Option<Free>)>,
    /// The round it joined (0 for the encounter's creatures).
    pub arrived: u32,
    /// Actions taken this round, reactions included (HAL-R17, HAL-R30, HAL-R33).
    pub actions: u8,
    /// Whether its Reaction is spent this round (HAL-R17).
    pub reacted: bool,
    /// The last round it took an action (an injury may make it rest every second round).
    pub last_acted: u32,
    /// Squares moved this round (HAL-R18).
    pub moved: u32,
    /// Wound Points lost to the largest single hit this round (HAL-H15).
    pub worst_hit: i16,
    /// The best Intimidation result against it this round (HAL-R21).
    pub intimidated: Option<i16>,
    /// Weapons it has thrown away, by index (bits).
    pub thrown: u16,
    /// Weapons out of hand (stowed or dropped; a Free action draws one), by index (bits).
    #[serde(default)]
    pub away: u16,
    /// Consumables used, by index.
    pub used: [u8; 16],
}

impl Char {
    /// A combatant as it enters the fight (`round` 0 for the encounter's own), with what it
    /// brings from earlier fights: wounds (HAL-R28), ability damage (HAL-H18), injuries and
    /// what they left (HAL-R40), Stabilized (HAL-R32). Its Stress and Wound Points are set
    /// when its Stress is rolled (HAL-R24).
    pub fn new(c: &Combatant, stats: &Stats, round: u32, o: &Options) -> Char {
        let w = &c.worn;
        let mut cond = w.conditions & Conditions::INJURY_FLAGS;
        if c.surprised {
            cond |= Conditions::SURPRISED;
        }
        if w.stabilized && w.wp.is_some_and(|wp| wp <= 0) {
            cond |= Conditions::STABILIZED;
        }
        Char {
            id: c.id.as_str().into(),
            name: c.name.as_str().into(),
            side: c.side,
            block: c.block,
            at: c.at,
            group: c.group.as_deref().map(Into::into),
            // HAL-R23: initiative does not outlive a fight: each one rolls it anew.
            base: None,
            stress_max: 0,
            stress: 0,
            wp: 0,
            mana: stats.mana,
            wounds: w.wounds.clone(),
            loss: w.loss,
            injuries: w.injuries.clone(),
            balance: w.balance,
            cond: Conditions(cond),
            declared: None,
            declared_free: None,
            catch_up: None,
            arrived: round,
            actions: 0,
            reacted: false,
            last_acted: 0,
            moved: 0,
            worst_hit: 0,
            intimidated: None,
            thrown: 0,
            away: in_hand_at_start(stats, o),
            used: [0; 16],
        }
    }

    /// Whether a condition flag is set.
    pub fn has(&self, flag: u32) -> bool {
        self.cond.has(flag)
    }

    /// Dead, fled, surrendered or removed: no longer in the combat at all.
    pub fn gone(&self) -> bool {
        self.has(Conditions::DEAD | Conditions::FLED | Conditions::SURRENDERED | Conditions::REMOVED)
    }

    /// Still fighting (HAL-H14): in the combat, above 0 Wound Points, and not fleeing unless
    /// `fleeing` (the option `fleeing-counts-as-fighting`).
    pub fn fighting(&self, fleeing: bool) -> bool {
        !self.gone() && self.wp > 0 && (fleeing || !self.has(Conditions::FLEEING))
    }

    /// What it can do now.
    pub fn cap(&self) -> Cap {
        if self.gone() || self.has(Conditions::PARALYZED) {
            Cap::Out
        } else if self.wp > 0 {
            Cap::Able
        } else if self.has(Conditions::STABILIZED) {
            Cap::Stable
        } else if self.wp == 0 {
            Cap::Incapacitated
        } else {
            Cap::Dying
        }
    }
}

/// The hands a weapon takes (bit 1 the main hand, bit 2 the other), with `hands = "two"`.
pub fn hands_of(w: &crate::data::Weapon) -> u8 {
    match w.hand {
        crate::data::Hand::Main => 1,
        crate::data::Hand::Off => 2,
        crate::data::Hand::Both => 3,
        crate::data::Hand::Natural => 0,
    }
}

/// The weapons out of hand when a creature enters the fight: those its stat block gives
/// `drawn = false`, and with `hands = "two"` those its hands cannot also hold, the stat block's
/// order deciding (HAL-R17's draw; fray's own reading).
fn in_hand_at_start(stats: &Stats, o: &Options) -> u16 {
    let (mut away, mut used) = (0u16, 0u8);
    for (i, w) in stats.weapons.iter().enumerate().take(16) {
        let need = hands_of(w);
        let fits = o.hands == Hands::Unlimited || used & need == 0;
        if w.drawn && fits {
            used |= need;
        } else if w.hand != crate::data::Hand::Natural {
            away |= 1 << i;
        }
    }
    away
}

/// The turn under way: one scheduled act.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// The act (index into [`State::acts`]).
    pub act: u16,
    /// Whose turn.
    pub who: Cid,
    /// Whether the declared action has been taken (or given up).
    pub acted: bool,
    /// Squares moved on this turn (HAL-R29's crawl, HAL-R30).
    pub moved: u32,
    /// Whether the turn's Free action has been taken (HAL-R17).
    #[serde(default)]
    pub freed: bool,
}

/// A decision of another seat in the middle of something.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Frame {
    /// `by` may Reposte against `against` (HAL-R14, HAL-R16, HAL-H9).
    Reposte { by: Cid, against: Cid },
    /// A critical hit injured `target`; the attacker's seat picks the table among `types`
    /// (HAL-R39).
    InjuryType { by: Cid, target: Cid, types: Vec<String> },
}

/// The cause of damage: what ends Stabilized (HAL-R34) and what counts as a hit (HAL-H15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    /// A hit of an attack or a spell.
    Hit,
    /// A critical hit (HAL-R37).
    Crit,
    /// Acting while Incapacitated, Dying or (beyond the first action) Stabilized (HAL-R29,
    /// HAL-R33, HAL-R43).
    Strain,
    /// The end-of-round loss of the Dying (HAL-R30, HAL-R43).
    Bleeding,
}

/// Why a declared action came to nothing (HAL-H16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lost {
    /// The actor is dead, gone, paralysed or Dying.
    Unable,
    /// Dropped to Incapacitated before its count, with `incapacitated-may-act` off.
    Dropped,
    /// An injury lets it act only every second round.
    Resting,
}

/// What a check was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckKind {
    /// A Heal check to stabilise (HAL-R32).
    Heal,
    /// An Intimidation check (HAL-R21).
    Intimidation,
    /// A casting check.
    Casting,
    /// A morale check (HAL-R20, HAL-R21); `roll` is the 3d6.
    Morale,
}

/// What the roster reads of a creature: its own seat stays in the encounter
/// ([`State::seat_of`] reads it there), and it is out once it has left the combat (dead, fled,
/// surrendered or removed; who is still fighting depends on the options: [`State::fighting`]).
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
        self.gone()
    }
}

/// A whole game position. Clones are cheap: the setup sits behind an `Arc`. It dereferences
/// to its roster, so `s.ch(c)`, `s.ids()` and `s.find(id)` read the combatants.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The encounter.
    pub setup: Arc<Setup>,
    /// The options in force.
    pub options: Arc<Options>,
    /// The round (0 before the first).
    pub round: u32,
    /// Where the round is.
    pub phase: Phase,
    /// Every combatant, GM additions after the encounter's.
    pub chars: Roster<Char>,
    /// This round's scheduled acts.
    pub acts: Vec<Act>,
    /// The order of this round's acts, lowest count first, ties together (HAL-R9, HAL-R10).
    pub order: InitiativeOrder,
    /// What each creature could do when the current count began (HAL-R10).
    pub caps: Vec<Cap>,
    /// The acts of the count under way whose declared action was possible when it began: they
    /// happen even if another act of the same count disables their creature (HAL-R10).
    pub ready: Vec<u16>,
    /// The last count fully resolved this round (HAL-R42).
    pub last_count: Option<i32>,
    /// The turn under way, if any.
    pub turn: Option<Turn>,
    /// Decisions of other seats under way.
    pub frames: Vec<Frame>,
    /// How the combat ended, once it has.
    pub outcome: Option<Outcome>,
}

impl State {
    /// The state before anything is rolled.
    pub fn new(setup: &Setup, options: &Options) -> State {
        let chars = setup
            .combatants
            .iter()
            .map(|c| Char::new(c, &setup.blocks[usize::from(c.block)], 0, options))
            .collect();
        State {
            setup: Arc::new(setup.clone()),
            options: Arc::new(options.clone()),
            round: 0,
            phase: Phase::Setup,
            chars,
            acts: Vec::new(),
            order: InitiativeOrder::new([], false),
            caps: Vec::new(),
            ready: Vec::new(),
            last_count: None,
            turn: None,
            frames: Vec::new(),
            outcome: None,
        }
    }

    /// A combatant's stat block.
    pub fn stats(&self, c: Cid) -> &Stats {
        &self.setup.blocks[usize::from(self.ch(c).block)]
    }

    /// An ability score now, after injuries (HAL-H18).
    pub fn score(&self, c: Cid, a: Ability) -> i16 {
        (self.stats(c).score(a) - self.ch(c).loss[a.index()]).max(0)
    }

    /// An ability modifier now (HAL-H2).
    pub fn modifier(&self, c: Cid, a: Ability) -> i16 {
        self.options.modifier(self.score(c, a))
    }

    /// Maximum Wound Points now: the Strength score plus modifiers (HAL-R27, HAL-H18).
    pub fn wp_max(&self, c: Cid) -> i16 {
        self.score(c, Ability::Strength) + self.stats(c).wp_bonus
    }

    /// Defense now: 10 + Agility modifier + Defense bonus, +4 in full defence (HAL-R35,
    /// HAL-R14).
    pub fn defense(&self, c: Cid) -> i16 {
        let guard = if self.ch(c).has(Conditions::GUARDING) { 4 } else { 0 };
        10 + self.modifier(c, Ability::Agility) + self.stats(c).defense_bonus + guard
    }

    /// Whether a creature may step onto `p`: on the map, not blocked, nobody still in the
    /// combat there.
    pub fn open(&self, p: Pos) -> bool {
        // One killed on the count under way still stands there until the count is over (HAL-R10).
        let stands = |(i, c): (usize, &Char)| {
            c.at == p && (!c.gone() || self.caps.get(i).is_some_and(|&k| k != Cap::Out) && c.has(Conditions::DEAD))
        };
        self.setup.map.get(p).is_some_and(|c| !c.blocked) && !self.chars.iter().enumerate().any(stands)
    }

    /// Squares between two creatures.
    pub fn distance(&self, a: Cid, b: Cid) -> u32 {
        self.options.metric.distance(self.ch(a).at, self.ch(b).at)
    }

    /// The seat that decides for a combatant: the seat it names for itself (a player's seat),
    /// else its side's. Every decision about it goes to this seat: its declarations, its turns,
    /// its Repostes and its injury tables (HAL-R39 hands a monster's to the GM's seat). A
    /// creature the GM brings in (`gm add`) takes its side's seat.
    pub fn seat_of(&self, c: Cid) -> fray_engine::Seat {
        let own = self.setup.combatants.get(usize::from(c)).and_then(|k| k.seat);
        own.unwrap_or_else(|| self.chars.seat_of(c, &self.setup.sides))
    }

    /// The name of the seat that decides for a combatant.
    pub fn seat_name_of(&self, c: Cid) -> String {
        fray_engine::sides::seat_name(&self.setup.seats, self.seat_of(c))
    }

    /// What a creature can do on the count under way: as it was when the count began
    /// (HAL-R10), or now outside a count.
    pub fn cap_now(&self, c: Cid) -> Cap {
        self.caps
            .get(usize::from(c))
            .copied()
            .unwrap_or_else(|| self.ch(c).cap())
    }

    /// Whether a creature is still fighting (HAL-H14) under the options.
    pub fn fighting(&self, c: Cid) -> bool {
        self.ch(c).fighting(self.options.fleeing_counts_as_fighting)
    }

    /// Whether a creature is still hostile to another.
    pub fn hostile(&self, a: Cid, b: Cid) -> bool {
        self.ch(a).side != self.ch(b).side
    }

    /// The count of the slot under way (the next to act, or the one acting), `None` once the
    /// round's order is done.
    pub fn count_under_way(&self) -> Option<i32> {
        self.order.current_slot().and_then(|x| self.order.get(x)).map(|x| x.key)
    }
}

impl std::ops::Deref for State {
    type Target = Roster<Char>;
    fn deref(&self) -> &Roster<Char> {
        &self.chars
    }
}
