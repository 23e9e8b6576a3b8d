//! The state of a Thrum combat: plain data, cheap to clone.
//!
//! Everything fixed for the combat (map, stat blocks, abilities, options) sits behind `Arc`s,
//! so a clone copies only what changes: the combatants' loads, statuses and squares, the turn
//! order, the current turn and the resolution stack.
//!
//! Two small things every other room reads sit here with the state they read: the resolution
//! context [`Cx`] (the state handed out read-only, changed only by `emit`), and where a Terrain
//! Effect lies and whom it affects ([`terrain_squares`], [`terrain_covers`],
//! [`terrain_affects`]), which the movement search, the checks, the resolution and the views
//! all ask, and which statuses count as negative and who has one ([`is_negative`],
//! [`status_on`], [`negative_statuses`]), which the checks and the result lines both ask, so none
//! of them has to reach into another for it.

use crate::ability::{AbilityId, Affects, Cond, Defence, XStatus};
use crate::event::{NotOfferedWhy, OnlyDefence, Rolled};
use crate::inline::Inline;
use crate::options::Options;
use crate::setup::{CharInfo, Cid, Setup};
use fray_engine::Outcome;
use fray_engine::order::InitiativeOrder;
use fray_space::{Dir, Pos};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The characters an ability use affects, in resolution order: inline up to 8, so copying a
/// frame allocates nothing (the serialised form is a plain list).
pub type Targets = Inline<Cid, 8>;
/// The squares of an ability's shape: inline up to 4 (a 2-by-2 Area).
pub type Squares = Inline<Pos, 4>;
/// One entry per target of an ability use, inline for the usual handful of targets.
pub type PerTarget<T> = Inline<T, 4>;
/// The trigger changes per target of an ability use: inline for two targets (an entry is 18
/// bytes, and every frame event copies the frame).
pub type TargetMods = Inline<RollMods, 2>;
/// A trigger window's candidates (character, triggered ability): inline up to 4.
pub type Candidates = Inline<(Cid, AbilityId), 4>;

/// The big phases of a combat (THR-R1). NPC Placement and Initiative happen in `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Round Zero: placement and initial stances (THR-R20 to THR-R25).
    RoundZero,
    /// Rounds 1+.
    Rounds,
    /// End of Combat has run.
    Ended,
}

/// Where a turn is.
// THR-R26: a turn runs Start of Turn (a frame pushed when the slot begins), then Move, the
// Action, the Stance step and End of Turn, in that order; the steps below only go forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// The slot has come up: begin the turn or Delay.
    Slot,
    /// Round Zero: a PC picks its starting square.
    Place,
    /// Moving (before the Action).
    Move,
    /// Moving granted by the Action (Dash).
    ActionMove,
    /// The Stance step (the Action is done or skipped).
    Stance,
    /// The turn is over; the next slot comes up.
    Done,
}

/// The current turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Whose turn it is.
    pub who: Cid,
    /// Where the turn is.
    pub step: Step,
    /// Movement spent in the current move allowance.
    pub spent: i16,
    /// Whether the character has moved at all this turn.
    pub moved: bool,
    /// Whether it has taken its Action.
    pub acted: bool,
    /// Whether this turn is limited by Stunned (Move or Action, not both).
    pub stunned: bool,
    /// Whether the Weaver has already ignored an effect this turn.
    pub weaver_used: bool,
    /// Whether the Weaver ignores Slowed this turn.
    pub weaver_slow: bool,
    /// Whether the character's movement was ended early (a failed drop roll).
    pub move_ended: bool,
    /// Banes on the character's rolls for the rest of this turn (Jittery).
    pub banes: i16,
    /// Whether the character became Incapacitated during this turn of its own.
    #[serde(default)]
    pub fell: bool,
    /// Whether the turn began by itself (no Delay was possible).
    #[serde(default)]
    pub began_by_itself: bool,
}

impl Turn {
    /// A turn that has not started.
    pub fn idle(who: Cid) -> Turn {
        Turn {
            who,
            step: Step::Slot,
            spent: 0,
            moved: false,
            acted: false,
            stunned: false,
            weaver_used: false,
            weaver_slow: false,
            move_ended: false,
            banes: 0,
            fell: false,
            began_by_itself: false,
        }
    }
}

/// A combatant's changing state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Char {
    /// Its square (`None` before a PC is placed in Round Zero).
    pub pos: Option<Pos>,
    /// While it is Hidden: the square it became Hidden on, the last one its foes saw (what a
    /// foe's AI is told in place of its square, `view::seen`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hid_at: Option<Pos>,
    /// Fatigue Load.
    pub fatigue: i16,
    /// Stress Load.
    pub stress: i16,
    /// Current Fatigue Tolerance.
    pub ft: i16,
    /// Current Stress Tolerance.
    pub st: i16,
    /// Wounds.
    pub wounds: i16,
    /// Incapacitated.
    pub incapacitated: bool,
    /// Removed from combat.
    pub removed: bool,
    /// Barred from further combat until Downtime (THR-H24).
    pub barred: bool,
    /// The current Stance: a single slot, so never more than one (THR-R33).
    pub stance: Option<AbilityId>,
    /// The Stance that ended since this character's last turn, if any (THR-R34).
    pub stance_ended: Option<AbilityId>,
    /// X of each status, in [`XStatus::ALL`] order.
    pub x: [u8; 8],
    /// Conditions as bits ([`Cond::bit`]).
    pub conds: u8,
    /// X of Dazed when it is treated as a status (THR-H2 option).
    pub dazed_x: u8,
    /// The ability use that applied Dazed (its own damage does not end it).
    pub dazed_by: u32,
    /// Mark X.
    pub mark: u8,
    /// Scouted X.
    pub scouted: u8,
    /// Initiative total.
    pub initiative: i16,
    /// Delays taken in this combat (for the once-per-combat option).
    pub delays: u8,
    /// The Buff this character benefits from (at most one, THR-R141).
    pub buff: Option<BuffOn>,
    /// Nova Potential per Nova ability (THR-R226).
    pub nova: Vec<NovaState>,
}

/// A Buff on its bearer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuffOn {
    /// Who created it.
    pub creator: Cid,
    /// Which ability.
    pub ability: AbilityId,
    /// Uses left before the creator must keep it or let it end.
    pub uses: u8,
}

/// A Nova ability's Potential.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NovaState {
    /// The ability.
    pub ability: AbilityId,
    /// Potential (capped at the Cost).
    pub potential: u8,
    /// Whether Potential was spent on it this combat.
    pub used: bool,
}

/// A Terrain Effect in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerrainInst {
    /// Who created it.
    pub creator: Cid,
    /// Which ability.
    pub ability: AbilityId,
    /// Its squares (empty for an Aura, whose squares follow the creator).
    pub squares: Vec<Pos>,
    /// An Aura's radius: its squares are recomputed around the creator (THR-R83).
    pub aura: Option<u16>,
    /// The Stress its upkeep Overexert costs each turn, while kept up.
    pub upkeep: Option<i16>,
    /// The round it was placed in (an upkeep paid at the end of turns starts the next round).
    #[serde(default)]
    pub round: u16,
}

/// The squares a Terrain Effect covers now (an Aura follows its creator, THR-R83).
pub fn terrain_squares(s: &State, t: &TerrainInst) -> Vec<Pos> {
    // THR-R83: an Aura's squares are worked out around its creator's square now, so it moves
    // with it.
    match t.aura {
        Some(r) => match s.ch(t.creator).pos {
            Some(c) => fray_space::aura(c, r).filter(|p| s.setup.map.contains(*p)).collect(),
            None => Vec::new(),
        },
        None => t.squares.clone(),
    }
}

/// Whether `p` is one of a Terrain Effect's squares ([`terrain_squares`] without listing them).
pub fn terrain_covers(s: &State, t: &TerrainInst, p: Pos) -> bool {
    match t.aura {
        Some(r) => s
            .ch(t.creator)
            .pos
            .is_some_and(|c| s.setup.map.contains(p) && fray_space::aura(c, r).any(|q| q == p)),
        None => t.squares.contains(&p),
    }
}

/// Whether a Terrain Effect's lines and difficulty apply to a character.
pub fn terrain_affects(s: &State, t: &TerrainInst, who: Cid, affects: Affects) -> bool {
    match affects {
        Affects::All => true,
        Affects::Enemies => s.enemies(t.creator, who),
        Affects::Allies => t.creator == who || s.allies(t.creator, who),
    }
}

impl Char {
    /// The fresh state of a combatant from its setup.
    pub fn new(info: &CharInfo) -> Char {
        Char {
            // THR-R2: an NPC already stands on its NPC Placement square before Initiative.
            pos: info.start,
            hid_at: None,
            // THR-R154: both Loads are 0 when combat starts.
            fatigue: 0,
            stress: 0,
            // THR-R185: Tolerances and Wounds start where the last combat left them.
            ft: info.ft,
            st: info.st,
            wounds: info.wounds,
            incapacitated: false,
            removed: false,
            barred: false,
            stance: None,
            stance_ended: None,
            x: [0; 8],
            conds: 0,
            dazed_x: 0,
            dazed_by: 0,
            mark: 0,
            scouted: 0,
            initiative: 0,
            delays: 0,
            buff: None,
            nova: info
                .nova
                .iter()
                .map(|(a, p)| NovaState {
                    ability: *a,
                    potential: *p,
                    used: false,
                })
                .collect(),
        }
    }

    /// X of a status.
    pub fn status(&self, s: XStatus) -> u8 {
        self.x[s as usize]
    }

    /// Whether a condition is on.
    pub fn has(&self, c: Cond) -> bool {
        self.conds & c.bit() != 0
    }

    /// Frayed: Stress Load above Stress Tolerance (THR-R155).
    pub fn frayed(&self) -> bool {
        self.stress > self.st
    }

    /// Exhausted: Fatigue Load above Fatigue Tolerance (THR-R164).
    pub fn exhausted(&self) -> bool {
        self.fatigue > self.ft
    }

    /// Still in the fight: not removed.
    pub fn present(&self) -> bool {
        !self.removed
    }

    /// Able to act: present and not Incapacitated.
    pub fn able(&self) -> bool {
        !self.removed && !self.incapacitated
    }
}

/// Per-target changes that triggers made to one attack roll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollMods {
    /// Boons on the defence roll (negative: Banes).
    pub defence_boons: i16,
    /// Flat bonus on the defence roll.
    pub defence_flat: i16,
    /// Who armed a follow-up on a Critical defence (Parry and Riposte) and which one.
    pub on_defence_critical: Option<(Cid, AbilityId)>,
    /// A Stance that ends after the roll unless the defence is a Critical.
    pub ends_unless_critical: Option<Cid>,
    /// Fatigue or Stress still to be taken off what this attack deals this target (a Buff).
    pub reduce: i16,
    /// The Buff used on this defence (its creator is asked whether to keep it afterwards).
    pub buff_used: bool,
}

/// Where an ability use is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UseStage {
    /// Defenders pick defences (in target order).
    Defences,
    /// Trigger windows open, one per target.
    Triggers,
    /// Rolls and results, one target at a time.
    Rolls,
    /// Everything is done except the end-of-ability checks.
    Finish,
}

/// An ability being resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Use {
    /// A number unique in the combat (Dazed remembers which use applied it).
    pub id: u32,
    /// Who uses it.
    pub user: Cid,
    /// Which ability.
    pub ability: AbilityId,
    /// The characters it affects, in resolution order.
    pub targets: Targets,
    /// The square aimed at, for abilities that target a square.
    pub square: Option<Pos>,
    /// The squares of its shape (Area, Line), for Terrain Effects.
    pub shape: Squares,
    /// The user's pick for choices (`choose` option label index, a direction, a status).
    pub pick: Pick,
    /// The Overexert option declared, if any.
    pub overexert: Option<u8>,
    /// Whether it is the turn's Action (Exhausted users then roll for Incapacity).
    pub is_action: bool,
    /// Where resolution is.
    pub stage: UseStage,
    /// The target being handled in the current stage (in `Finish`, the sub-step).
    pub index: u8,
    /// In `Rolls`: the target at `index` has been rolled and its lines applied; its
    /// after-effects (Vulnerable, Finisher, follow-ups) come next.
    pub post: bool,
    /// Defence picked per target.
    pub defences: PerTarget<Option<Defence>>,
    /// Trigger changes per target.
    pub mods: TargetMods,
    /// The result against each target, once rolled.
    pub verdicts: PerTarget<Option<crate::event::Verdict>>,
    /// The shared attack roll (multi-target option), once rolled.
    pub shared_attack: Option<Box<Rolled>>,
    /// Holders (one bit per combatant) that already made a triggered move (Interpose) in
    /// answer to this use.
    #[serde(default)]
    pub moved: u64,
}

/// What the lines of an ability use read of it (who, which ability, the user's picks and the
/// target being handled), copied out of its frame: applying lines changes the state, so they
/// cannot borrow the frame, and a copy of these few fields costs far less than one of the
/// whole [`Use`] (its targets, shape and per-target records).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UseHead {
    /// The use's number ([`Use::id`]).
    pub id: u32,
    /// Who uses it.
    pub user: Cid,
    /// Which ability.
    pub ability: AbilityId,
    /// The square aimed at.
    pub square: Option<Pos>,
    /// The user's picks.
    pub pick: Pick,
    /// The Overexert option declared.
    pub overexert: Option<u8>,
    /// Whether it is the turn's Action.
    pub is_action: bool,
    /// Which target is being handled ([`Use::index`]).
    pub index: u8,
    /// The target at that index, when the use has one there.
    pub target: Option<Cid>,
}

impl Use {
    /// What its lines read of it (see [`UseHead`]).
    pub fn head(&self) -> UseHead {
        UseHead {
            id: self.id,
            user: self.user,
            ability: self.ability,
            square: self.square,
            pick: self.pick,
            overexert: self.overexert,
            is_action: self.is_action,
            index: self.index,
            target: self.targets.get(self.index as usize).copied(),
        }
    }
}

/// A trigger window: who may respond to one event, asked in turn order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowFrame {
    /// Stack index of the ability use the window belongs to.
    pub use_frame: u8,
    /// Index of the target within that use.
    pub target_index: u8,
    /// Candidates (character, triggered ability) in asking order.
    pub candidates: Candidates,
    /// How many candidates have answered.
    pub asked: u8,
}

/// A Panic or Incapacity Roll, as a frame because a Buff may let its roller reroll a failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FixedKind {
    /// A Panic Roll (THR-R158).
    Panic,
    /// An Incapacity Roll (THR-R168).
    Incapacity,
}

/// A Panic or Incapacity Roll in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixedRoll {
    /// Who rolls.
    pub who: Cid,
    /// Which roll.
    pub kind: FixedKind,
    /// Whether the roll failed and the roller is being asked about a reroll.
    pub asking: bool,
}

/// A decision inside resolution that is not a defence or a trigger.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Prompt {
    /// `who` may move up to `budget` squares (`move x,y` or `pass`); with `toward`, only to a
    /// square no farther from that character (Interpose), else anywhere (a follow-up move).
    Move {
        /// Who moves.
        who: Cid,
        /// Squares of movement.
        budget: i16,
        /// The character to move toward.
        toward: Option<Cid>,
    },
    /// A target already under a Buff is offered another: `accept` (end the old one) or
    /// `decline` (THR-R142).
    BuffReplace {
        /// The target.
        target: Cid,
        /// The new Buff's creator.
        creator: Cid,
        /// The new Buff's ability.
        ability: AbilityId,
    },
    /// A Buff was used up: its creator may pay Stress to keep it (`keep`) or let it end
    /// (`release`).
    BuffKeep {
        /// The creator.
        creator: Cid,
        /// The Buff's bearer.
        target: Cid,
        /// The Stress to pay.
        cost: i16,
    },
    /// An upkeep Overexert: pay again (`keep`) or let it end (`release`) (THR-R135).
    Upkeep {
        /// The creator.
        creator: Cid,
        /// Index of the Terrain Effect in the state's list.
        effect: u8,
        /// The Stress to pay.
        cost: i16,
    },
}

/// One frame of the resolution stack.
///
/// `Use` is much larger than the other variants; the stack holds only a handful of frames and
/// boxing it would cost an allocation per ability use on the simulation path, so it stays
/// inline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)]
pub enum Frame {
    /// An ability being used.
    Use(Use),
    /// A trigger window.
    Window(WindowFrame),
    /// A Panic or Incapacity Roll.
    Roll(FixedRoll),
    /// A decision inside resolution.
    Prompt(Prompt),
    /// The start of a turn, step a (Panic) then step b (other effects) (THR-R27, THR-R28).
    StartOfTurn {
        /// Whose turn.
        who: Cid,
        /// 0: step a is next; 1: step b is next.
        step: u8,
    },
}

/// One small change to a frame on the resolution stack, as an event carries it
/// ([`crate::event::Event::FrameChanged`]): a log holds these few bytes, not a copy of the whole
/// frame, each time resolution moves on. Most carry the field's new value; a trigger window's
/// reordering carries what happened to its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FrameChange {
    /// An ability use: where its resolution is ([`Use::stage`], [`Use::index`], [`Use::post`]).
    Cursor {
        /// The stage.
        stage: UseStage,
        /// The target (or sub-step) being handled.
        index: u8,
        /// Whether that target's after-effects come next.
        post: bool,
    },
    /// An ability use: the result against one target.
    Verdict {
        /// The target's index in the use.
        target: u8,
        /// The result.
        verdict: crate::event::Verdict,
    },
    /// An ability use: the trigger and Buff changes to one target's rolls.
    Mods {
        /// The target's index in the use.
        target: u8,
        /// The changes now.
        mods: RollMods,
    },
    /// An ability use: the holders (one bit per combatant) that made a triggered move in answer.
    Moved {
        /// The bits now.
        holders: u64,
    },
    /// An ability use: the shared attack roll of a multi-target use, or none.
    SharedAttack {
        /// The roll.
        roll: Option<Rolled>,
    },
    /// A trigger window: how many candidates have answered or been passed over.
    Asked {
        /// The count now.
        asked: u8,
    },
    /// A trigger window: two candidates trade places in the asking order (a controller picks
    /// which of its triggers goes first, THR-R148).
    Swap {
        /// The candidate being asked.
        at: u8,
        /// The one asked in its place.
        with: u8,
    },
    /// A trigger window: a holder that passed gives up its candidates not yet asked
    /// (`controller-orders-own-triggers`).
    Withdrawn {
        /// The holder.
        holder: Cid,
    },
    /// A start of turn: the step that comes next.
    StartStep {
        /// The step.
        step: u8,
    },
}

impl FrameChange {
    /// Makes the change to `f`. A change meant for another kind of frame does nothing:
    /// resolution only emits a change for the frame it names.
    #[inline]
    pub fn apply(self, f: &mut Frame) {
        match (self, f) {
            (FrameChange::Cursor { stage, index, post }, Frame::Use(u)) => {
                u.stage = stage;
                u.index = index;
                u.post = post;
            }
            (FrameChange::Verdict { target, verdict }, Frame::Use(u)) => {
                if let Some(v) = u.verdicts.get_mut(target as usize) {
                    *v = Some(verdict);
                }
            }
            (FrameChange::Mods { target, mods }, Frame::Use(u)) => {
                if let Some(m) = u.mods.get_mut(target as usize) {
                    *m = mods;
                }
            }
            (FrameChange::Moved { holders }, Frame::Use(u)) => u.moved = holders,
            (FrameChange::SharedAttack { roll }, Frame::Use(u)) => u.shared_attack = roll.map(Box::new),
            (FrameChange::Asked { asked }, Frame::Window(w)) => w.asked = asked,
            (FrameChange::Swap { at, with }, Frame::Window(w)) => {
                let (a, b) = (at as usize, with as usize);
                if a < w.candidates.len() && b < w.candidates.len() {
                    w.candidates.swap(a, b);
                }
            }
            (FrameChange::Withdrawn { holder }, Frame::Window(w)) => {
                let asked = w.asked as usize;
                w.candidates = w
                    .candidates
                    .iter()
                    .enumerate()
                    .filter(|(i, c)| *i < asked || c.0 != holder)
                    .map(|(_, c)| *c)
                    .collect();
            }
            (FrameChange::StartStep { step }, Frame::StartOfTurn { step: at, .. }) => *at = step,
            _ => {}
        }
    }
}

/// The user's picks for an ability's choices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pick {
    /// Index of the option of the ability's `choose` line.
    pub option: Option<u8>,
    /// A direction (for shifts).
    pub dir: Option<Dir>,
    /// A status or condition to end (Recover).
    pub status: Option<StatusRef>,
}

/// A status or a condition, as named by Recover or a GM ruling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StatusRef {
    /// An X status.
    X(XStatus),
    /// A condition.
    Cond(Cond),
}

impl StatusRef {
    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            StatusRef::X(x) => x.name(),
            StatusRef::Cond(c) => c.name(),
        }
    }

    /// Parses a status or condition name.
    pub fn parse(s: &str) -> Option<StatusRef> {
        XStatus::parse(s)
            .map(StatusRef::X)
            .or_else(|| Cond::parse(s).map(StatusRef::Cond))
    }
}

/// Whether a status counts as negative (THR-R193).
pub fn is_negative(s: &State, st: StatusRef) -> bool {
    // THR-R193: the eight X-statuses always, and by default the harmful conditions too (Dazed,
    // Immobilized, Disoriented, Stunned); Mark and Scouted are no statuses at all.
    match st {
        StatusRef::X(_) => true,
        StatusRef::Cond(c) => {
            c.is_negative() && s.options.negative_statuses == crate::options::NegativeStatuses::AllHarmful
        }
    }
}

/// Whether a character has a status or condition now.
pub fn status_on(s: &State, c: Cid, st: StatusRef) -> bool {
    match st {
        StatusRef::X(x) => s.ch(c).status(x) > 0,
        StatusRef::Cond(k) => s.ch(c).has(k),
    }
}

/// Negative statuses a character has now (Recover's and Resuscitate's targets, THR-R193).
pub fn negative_statuses(s: &State, c: Cid) -> Vec<StatusRef> {
    let all = XStatus::ALL
        .iter()
        .map(|x| StatusRef::X(*x))
        .chain(Cond::ALL.iter().map(|k| StatusRef::Cond(*k)));
    all.filter(|st| is_negative(s, *st) && status_on(s, c, *st)).collect()
}

// ---------------------------------------------------------------------------------------------
// The legal list's candidates
// ---------------------------------------------------------------------------------------------

/// The resolution context: the state (read-only), the dice, and the events emitted so far.
/// [`fray_engine::Cx::emit`] applies an event through [`crate::Thrum`]'s `apply` and records it:
/// the only way resolution changes the state.
pub type Cx<'a> = fray_engine::Cx<'a, crate::Thrum>;

/// A whole Thrum combat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The encounter (shared, fixed apart from GM additions).
    pub setup: Arc<Setup>,
    /// The options in force (shared).
    pub options: Arc<Options>,
    /// The phase.
    pub phase: Phase,
    /// The round number (0 = Round Zero).
    pub round: u16,
    /// The turn order.
    pub order: InitiativeOrder,
    /// Combatants, indexed by [`Cid`].
    pub chars: Vec<Char>,
    /// The current turn.
    pub turn: Turn,
    /// What is being resolved.
    pub stack: Vec<Frame>,
    /// The last ability-use number handed out.
    pub uses: u32,
    /// Counters of `hold` conditions, by condition index.
    pub holds: Vec<u16>,
    /// Terrain Effects in play.
    pub terrain: Vec<TerrainInst>,
    /// How the combat ended.
    pub outcome: Option<Outcome>,
    /// The steps fray took by itself while resolving the last command (a defence that was the
    /// only choice, a trigger not offered), so a command typed for one of them afterwards is
    /// refused with what happened. Cleared when the next command is resolved.
    #[serde(default)]
    pub auto: Vec<AutoStep>,
    /// Every combatant as the fight left it, kept when the combat ends, before End of Combat
    /// clears Loads, Incapacity and statuses (THR-R183 to THR-R187): what the end summary
    /// shows. Derived from the events (the `CombatEnded` event keeps it), never saved apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fought: Option<Arc<Vec<Char>>>,
}

/// A step fray took by itself, remembered until the next command (see [`State::auto`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AutoStep {
    /// A defence taken for its defender: the only choice.
    Defence {
        /// The defender.
        who: Cid,
        /// The defence taken.
        defence: Defence,
        /// Why it was the only choice.
        why: OnlyDefence,
    },
    /// A triggered ability that was not offered to its holder.
    NotOffered {
        /// The holder.
        who: Cid,
        /// The triggered ability.
        ability: AbilityId,
        /// The character the ability use it would have answered aimed at.
        about: Cid,
        /// Why it was not offered.
        why: NotOfferedWhy,
    },
}

impl State {
    /// The fixed information about a combatant.
    pub fn info(&self, c: Cid) -> &CharInfo {
        &self.setup.chars[c as usize]
    }

    /// The changing state of a combatant.
    pub fn ch(&self, c: Cid) -> &Char {
        &self.chars[c as usize]
    }

    /// Whether two combatants are on different sides: an Enemy (THR-R90).
    pub fn enemies(&self, a: Cid, b: Cid) -> bool {
        self.info(a).side != self.info(b).side
    }

    /// Whether two different combatants are on the same side: an Ally, PC or NPC, never the
    /// user itself (THR-R89).
    pub fn allies(&self, a: Cid, b: Cid) -> bool {
        // THR-R89: the same side, and never the user itself.
        a != b && self.info(a).side == self.info(b).side
    }

    /// Whether a combatant is a PC.
    pub fn is_pc(&self, c: Cid) -> bool {
        self.setup.sides[self.info(c).side as usize].pc
    }

    /// All combatant ids.
    pub fn ids(&self) -> impl Iterator<Item = Cid> + use<> {
        0..self.chars.len() as Cid
    }

    /// The combatants that pass `keep`, in turn order: by the place of each one's first slot,
    /// then those without a slot by id (the order of asking trigger holders and of resolving
    /// an area's targets). One walk over the order (at most 64 combatants, one bit each).
    pub fn in_turn_order(&self, mut keep: impl FnMut(Cid) -> bool) -> smallvec::SmallVec<[Cid; 16]> {
        let mut out = smallvec::SmallVec::new();
        let mut listed = 0u64;
        for slot in self.order.slots() {
            let h = slot.who;
            if listed & (1u64 << h) == 0 {
                listed |= 1u64 << h;
                if keep(h) {
                    out.push(h);
                }
            }
        }
        out.extend(self.ids().filter(|&h| listed & (1u64 << h) == 0 && keep(h)));
        debug_assert!({
            let mut sorted: Vec<(usize, Cid)> = out
                .iter()
                .map(|&h| (self.order.position(h).unwrap_or(usize::MAX), h))
                .collect();
            sorted.sort_unstable();
            sorted.into_iter().map(|(_, h)| h).eq(out.iter().copied())
        });
        out
    }

    /// The combatant standing on a square, if any.
    pub fn occupant(&self, p: Pos) -> Option<Cid> {
        // THR-R182: an Incapacitated character still fills its square (by default): allies may
        // pass it, enemies may not enter it.
        self.chars
            .iter()
            .position(|c| c.pos == Some(p) && c.present() && (!c.incapacitated || self.options.incapacitated_occupy))
            .map(|i| i as Cid)
    }

    /// The combatant with this id (as typed).
    pub fn find(&self, id: &str) -> Option<Cid> {
        fray_engine::encounter::find_id(self.setup.chars.iter().map(|c| c.id.as_str()), id).map(|i| i as Cid)
    }

    /// The ability use at stack index `i`.
    pub fn use_at(&self, i: usize) -> Option<&Use> {
        match self.stack.get(i) {
            Some(Frame::Use(u)) => Some(u),
            _ => None,
        }
    }

    /// The name of a combatant.
    pub fn name(&self, c: Cid) -> &str {
        &self.info(c).name
    }
}
