//! The game state: combatants, the team order, the turn, and what is being resolved.
//!
//! Everything a game position needs is here (the encounter and options are shared behind
//! `Arc`s), so a state clones cheaply for simulations and searches. Only [`crate::event::apply`]
//! changes it.

use crate::Ingenuity;
use crate::data::{Attr, Cond, Item, ItemId};
use crate::options::Options;
use crate::setup::{CharInfo, Cid, Objective, Setup};
use fray_engine::economy::Economy;
use fray_engine::teams::TeamOrder;
use fray_engine::{EngineError, Outcome};
use fray_space::Pos;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What resolution works with: the engine's context (the state read-only, changed only by
/// [`fray_engine::Cx::emit`]; the dice; the frame stack through [`crate::event`]'s
/// `Frames` impl).
pub type Cx<'a> = fray_engine::Cx<'a, Ingenuity>;

/// Resolution result.
pub type R = Result<(), EngineError>;

/// The actions in a turn (ING-R18).
pub const ACTIONS_PER_TURN: u8 = 3;
/// Reactions per round (ING-R30).
pub const REACTIONS_PER_ROUND: u8 = 1;

/// One carried item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carried {
    /// Which item.
    pub item: ItemId,
    /// Durability left (0 = broken, ING-R55).
    pub durability: i16,
    /// Loaded (items that need reloading).
    pub loaded: bool,
    /// In hand.
    pub held: bool,
}

/// An action paid over several turns (ING-R34).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ext {
    /// Reloading the item in this slot.
    Reload {
        /// The item slot.
        slot: u8,
    },
    /// Bringing someone back to consciousness (ING-R25).
    Resuscitate {
        /// Who.
        target: Cid,
    },
    /// A task with a test (ING-R27, ING-R68).
    Task {
        /// The attribute.
        attr: Attr,
        /// The skill.
        skill: String,
        /// The proficiency, if any.
        prof: Option<String>,
        /// The difficulty.
        difficulty: i16,
    },
    /// A killing strike (ING-R64).
    Kill {
        /// Who.
        target: Cid,
        /// With the item in this slot.
        slot: u8,
    },
}

/// What sets off a readied action (ING-R24).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Trigger {
    /// An enemy moves to within the readied weapon's reach (or 1 m for a readied move).
    Approach,
    /// An enemy declares an attack (the readied action goes first).
    Attack,
    /// An enemy's turn starts.
    Turn,
}

impl Trigger {
    /// The word used in commands and logs.
    pub fn name(self) -> &'static str {
        match self {
            Trigger::Approach => "approach",
            Trigger::Attack => "attack",
            Trigger::Turn => "turn",
        }
    }
}

/// A readied action.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReadyAction {
    /// An attack on the named character, or on whoever sets off the trigger.
    Attack {
        /// The target, if named.
        target: Option<Cid>,
        /// The item slot.
        slot: u8,
    },
    /// A move to a square.
    Move {
        /// Where.
        to: Pos,
    },
}

/// An action with its trigger.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Readied {
    /// What to do.
    pub action: ReadyAction,
    /// When.
    pub trigger: Trigger,
}

/// A combatant's changing state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Char {
    /// Its square (`None` once out of the fight).
    pub pos: Option<Pos>,
    /// Current health.
    pub health: i16,
    /// Current endurance.
    pub endurance: i16,
    /// Current stamina.
    pub stamina: i16,
    /// Current focus.
    pub focus: i16,
    /// Unconscious (implies prone and incapacitated, ING-R65).
    pub unconscious: bool,
    /// Dead.
    pub dead: bool,
    /// Out of the fight (fled, surrendered, removed by the GM).
    pub out: bool,
    /// Conditions, as [`Cond::bit`]s.
    pub conds: u16,
    /// Conditions that end when its next turn ends.
    pub conds_until_turn: u16,
    /// Actions, reactions and the extended action in progress.
    pub econ: Economy<Ext>,
    /// Attacks made since the round started (ING-R40).
    pub attacks_round: u8,
    /// Of those, the ones made during its own turns (ING-H10 alternative).
    pub attacks_own: u8,
    /// Has used its move this turn (Move, or a Step with `step-uses-move`).
    pub moved: bool,
    /// Has stepped this turn.
    pub stepped: bool,
    /// Sprints this turn.
    pub sprints: u8,
    /// Allies commanded this turn (a bit per combatant).
    pub commanded: u64,
    /// Carried items.
    pub items: Vec<Carried>,
    /// A readied action.
    pub ready: Option<Readied>,
    /// The death difficulty (ING-R62).
    pub death_difficulty: i16,
    /// At zero health from a nonlethal source without a death check yet (ING-R63).
    pub zero_nonlethal: bool,
    /// Older properties: attacks this turn with each item slot.
    pub swings: Vec<u8>,
    /// Older properties: the slot whose last attack this turn missed.
    pub missed_with: Option<u8>,
    /// Targets hit this turn (a bit per combatant).
    pub hit_mask: u64,
    /// Targets attacked this turn (a bit per combatant).
    pub attacked_mask: u64,
    /// The extended action in progress has been continued (or abandoned) this turn.
    pub ext_settled: bool,
    /// Actions owed to commanders, taken from its next turn (`command-uses-ally-actions`).
    pub owed: u8,
}

impl Char {
    /// The starting state from the encounter.
    pub fn new(info: &CharInfo, setup: &Setup) -> Char {
        let st = &info.start;
        // `held` names items by id: each entry puts one more copy in hand.
        let mut to_hold = st.held.clone();
        let items: Vec<Carried> = st
            .items
            .iter()
            .map(|&item| {
                let it = setup.armoury.item(item);
                let held = match to_hold.iter().position(|h| *h == item) {
                    Some(i) => {
                        to_hold.remove(i);
                        true
                    }
                    None => false,
                };
                Carried {
                    item,
                    durability: st
                        .durability
                        .iter()
                        .find(|(i, _)| *i == item)
                        .map_or(it.durability, |(_, d)| *d),
                    loaded: !st.unloaded.contains(&item),
                    held,
                }
            })
            .collect();
        let n = items.len();
        Char {
            pos: Some(info.at),
            health: st.health,
            endurance: st.endurance,
            stamina: st.stamina,
            focus: st.focus,
            unconscious: st.unconscious || st.health <= 0,
            dead: false,
            out: false,
            // Unconscious (also by starting at zero health) implies prone (ING-R65).
            conds: st.conditions
                | if st.unconscious || st.health <= 0 {
                    Cond::Prone.bit()
                } else {
                    0
                },
            conds_until_turn: 0,
            econ: Economy::new(REACTIONS_PER_ROUND),
            attacks_round: 0,
            attacks_own: 0,
            moved: false,
            stepped: false,
            sprints: 0,
            commanded: 0,
            items,
            ready: None,
            death_difficulty: st.death_difficulty,
            zero_nonlethal: false,
            swings: vec![0; n],
            missed_with: None,
            hit_mask: 0,
            attacked_mask: 0,
            ext_settled: false,
            owed: 0,
        }
    }

    /// Whether it has a condition.
    pub fn has(&self, c: Cond) -> bool {
        self.conds & c.bit() != 0
    }

    /// Still in the fight: not dead, not out.
    pub fn present(&self) -> bool {
        !self.dead && !self.out
    }

    /// Can take turns and reactions: present, conscious, not stunned (ING-R11, ING-R65).
    pub fn able(&self) -> bool {
        self.present() && !self.unconscious && !self.has(Cond::Stunned)
    }

    /// Standing (in the fight and conscious): counts for the end of combat.
    pub fn standing(&self) -> bool {
        self.present() && !self.unconscious
    }
}

/// The phase of the combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The surprise round (ING-R14).
    Surprise,
    /// Normal rounds.
    Rounds,
}

/// The turn in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Whose turn it is.
    pub who: Cid,
    /// The opening action (ING-R69) must come first this turn.
    pub opening: bool,
}

/// A defence taken against an attack.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Defences {
    /// A dodge and its result (ING-R48).
    pub dodge: Option<i16>,
    /// A parry with this item slot (ING-R53).
    pub parry: Option<u8>,
    /// A fortify and its result (ING-R49).
    pub fortify: Option<i16>,
    /// A resist and its result (ING-R50).
    pub resist: Option<i16>,
    /// Free reactions left (after Intercept, ING-R33).
    pub free: u8,
}

/// Where an attack is in its resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AttackStage {
    /// Readied actions triggered by the attack are asked.
    Ready,
    /// Allies of the target may intercept: the target's team seat names one or passes.
    Intercept,
    /// The target declares defences (before the roll, or after it with the option).
    Defend,
    /// The attack roll.
    Roll,
    /// The target may block the hit.
    Block,
    /// Done: damage and effects applied.
    Done,
}

/// What kind of attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AttackKind {
    /// An Attack action (or a commanded one).
    Normal,
    /// A readied attack fired as a reaction.
    Readied,
    /// The sneak attack a failed killing strike turns into (ING-R64).
    KillFallback,
}

/// An attack being resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    /// Who attacks.
    pub attacker: Cid,
    /// Who is attacked now (after Intercept or a misfire).
    pub target: Cid,
    /// The item slot used.
    pub slot: u8,
    /// The attribute used.
    pub attr: Attr,
    /// The proficiency used, if any.
    pub prof: Option<String>,
    /// What kind of attack.
    pub kind: AttackKind,
    /// The stage.
    pub stage: AttackStage,
    /// Modifier to the test from the multiple attack penalty (ING-R40).
    pub penalty: i16,
    /// Modifier from weapon properties (older properties).
    pub bonus: i16,
    /// The allies who may intercept (ING-R33), asked together in one decision.
    pub intercept: Vec<Cid>,
    /// Defences declared.
    pub defences: Defences,
    /// The attack test total, once rolled.
    pub total: Option<i16>,
    /// The total before penalties (ING-H11 alternative).
    pub base_total: Option<i16>,
    /// The luck die (with modifiers), once rolled.
    pub luck: Option<i16>,
    /// A critical hit.
    pub crit: bool,
    /// Hit.
    pub hit: bool,
    /// The damage before any reduction (test + weapon damage).
    pub raw: i16,
    /// A misfire sent it to another target (ING-R39).
    pub misfired: bool,
    /// This attack throws a Thrown weapon (`calc::throws`): it leaves the hand and may misfire.
    pub thrown_from_afar: bool,
}

/// A move being walked one step at a time (readied actions may interrupt it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Walk {
    /// Who moves.
    pub who: Cid,
    /// The squares still to enter, in order.
    pub path: Vec<Pos>,
    /// The step of the path to take next.
    pub next: u8,
    /// Metres each step costs, in order.
    pub costs: Vec<u8>,
}

/// Readied characters asked whether to act on a trigger.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadyWindow {
    /// The trigger.
    pub trigger: Trigger,
    /// The enemy who set it off.
    pub subject: Cid,
    /// Who may act, in order.
    pub candidates: Vec<Cid>,
    /// How many have been asked.
    pub asked: u8,
}

/// Something being resolved that may wait for a decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Frame {
    /// An attack.
    Attack(Box<Attack>),
    /// A move.
    Walk(Walk),
    /// Readied characters are asked.
    Ready(ReadyWindow),
    /// Lost health beyond constitution: fortify or fall unconscious (ING-R60).
    Conscious {
        /// Who.
        who: Cid,
        /// Missing health (the difficulty).
        missing: i16,
    },
    /// After a dodge: drop prone, seek cover and/or move 1 m (ING-R48).
    AfterDodge {
        /// Who dodged.
        who: Cid,
        /// Options already used (bits: 1 prone, 2 cover, 4 step).
        used: u8,
    },
}

/// A whole game position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The encounter.
    pub setup: Arc<Setup>,
    /// The options.
    pub options: Arc<Options>,
    /// The phase.
    pub phase: Phase,
    /// The round (the surprise round is round 0; normal rounds count from 1).
    pub round: u32,
    /// The team order.
    pub order: TeamOrder,
    /// Combatants, indexed by [`Cid`].
    pub chars: Vec<Char>,
    /// The turn in progress.
    pub turn: Option<Turn>,
    /// What is being resolved.
    pub stack: Vec<Frame>,
    /// Each team's current objective.
    pub objectives: Vec<Option<Objective>>,
    /// Objective changes waiting for the next round.
    pub pending_objectives: Vec<(u8, Option<Objective>)>,
    /// A new team order waiting for the next round.
    pub pending_order: Option<Vec<u8>>,
    /// Items lying on the ground.
    pub ground: Vec<(Pos, Carried)>,
    /// The opening action has been taken (or dropped).
    pub opening_done: bool,
    /// How the combat ended.
    pub outcome: Option<Outcome>,
    /// The steps the rules took by themselves this turn (who, what, why; the last few, newest
    /// last), to explain a command typed for one of them afterwards.
    pub last_auto: Vec<(Cid, crate::event::AutoStep, crate::event::AutoWhy)>,
}

impl State {
    /// Fixed information about a combatant.
    pub fn info(&self, c: Cid) -> &CharInfo {
        &self.setup.chars[c as usize]
    }

    /// A combatant's changing state.
    pub fn ch(&self, c: Cid) -> &Char {
        &self.chars[c as usize]
    }

    /// Its display name.
    pub fn name(&self, c: Cid) -> &str {
        &self.info(c).name
    }

    /// Every combatant.
    pub fn ids(&self) -> impl Iterator<Item = Cid> + use<> {
        0..self.chars.len() as Cid
    }

    /// Its team.
    pub fn team(&self, c: Cid) -> u8 {
        self.info(c).team
    }

    /// On different teams.
    pub fn enemies(&self, a: Cid, b: Cid) -> bool {
        self.team(a) != self.team(b)
    }

    /// On the same team (and not the same character).
    pub fn allies(&self, a: Cid, b: Cid) -> bool {
        a != b && self.team(a) == self.team(b)
    }

    /// An item of a combatant's, by slot.
    pub fn carried(&self, c: Cid, slot: u8) -> Option<&Carried> {
        self.ch(c).items.get(slot as usize)
    }

    /// The item data of a slot.
    pub fn item(&self, c: Cid, slot: u8) -> Option<&Item> {
        self.carried(c, slot).map(|k| self.setup.armoury.item(k.item))
    }

    /// The combatant standing on a square (present ones only).
    pub fn occupant(&self, p: Pos) -> Option<Cid> {
        self.chars
            .iter()
            .position(|c| c.pos == Some(p) && c.present())
            .map(|i| i as Cid)
    }

    /// The combatant with this id.
    pub fn find(&self, id: &str) -> Option<Cid> {
        fray_engine::encounter::find_id(self.setup.chars.iter().map(|c| c.id.as_str()), id).map(|i| i as Cid)
    }

    /// Whether a combatant may be picked for a turn now (ING-R11, ING-R14, ING-R15). Asked
    /// afresh at every pick, so one revived mid-round who has not acted may be picked at its
    /// team's next opportunity (ING-R12).
    pub fn can_take_turn(&self, c: Cid) -> bool {
        // ING-R11: one who cannot act (unconscious, stunned, gone) is never offered a turn.
        // ING-R12: the condition is read now, not fixed at the round's start, so one revived
        // who has not acted yet becomes a candidate again.
        self.ch(c).able() && self.can_take_turn_ignoring_state(c)
    }

    /// Whether a combatant may take a reaction now (able, a reaction left, and not barred by
    /// surprise).
    pub fn can_react(&self, c: Cid) -> bool {
        let ch = self.ch(c);
        if !ch.able() || ch.econ.reactions_left() == 0 {
            return false;
        }
        !self.surprised_without_reactions(c)
    }

    /// Whether `c` is surprised now (the surprise round, and it may not take turns in it).
    pub fn surprised(&self, c: Cid) -> bool {
        self.phase == Phase::Surprise && !self.can_take_turn_ignoring_state(c)
    }

    /// Whether surprise keeps `c` from reacting: only with `surprised-can-react = false`
    /// (ING-R14 bars surprised characters from actions; by default reactions stay, ING-R30).
    pub fn surprised_without_reactions(&self, c: Cid) -> bool {
        !self.options.surprised_can_react && self.surprised(c)
    }

    /// Whether `c` belongs among those who take turns in the current phase (ING-R14, ING-R15),
    /// whatever its condition.
    fn can_take_turn_ignoring_state(&self, c: Cid) -> bool {
        match self.phase {
            // ING-R15: in the surprise round the surprising team takes turns, and so do those
            // flagged as not to be surprised; the usual team alternation runs between them
            // (ING-R16).
            Phase::Surprise => Some(self.team(c)) == self.setup.surprise || self.info(c).stats.cannot_be_surprised,
            Phase::Rounds => true,
        }
    }
}
