//! Events, and `apply`: the only code that changes a Thrum state.
//!
//! Every roll is in its event with all its faces; bookkeeping events (the resolution stack, the
//! turn step) are events too, so a replay rebuilds the exact state and `apply` stays the single
//! place where state changes.

use crate::ability::{AbilityId, Attr, Cond, Defence, XStatus};
use crate::command::{Gauge, Target};
use crate::setup::{CharInfo, Cid};
use crate::state::{AutoStep, BuffOn, Char, Frame, Phase, State, Step, TerrainInst, Turn};
use fray_dice::Roll;
use fray_engine::Outcome;
use fray_engine::order::InitiativeOrder;
use fray_engine::resolve::{FrameOp, apply_frame_op, apply_frame_op_owned};
use fray_space::Pos;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One side of a roll: the dice, the modifier, the Boons and Banes, the total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rolled {
    /// The dice (all faces, which were kept).
    pub roll: Roll,
    /// The modifier added.
    pub modifier: i16,
    /// Net Boons (negative: net Banes).
    pub net: i16,
    /// Kept dice plus modifier.
    pub total: i16,
}

/// How a contest came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// The attacker won by the Critical margin or more.
    AttackerCritical,
    /// The attacker won.
    AttackerSuccess,
    /// The defender won (ties included, by default).
    DefenderSuccess,
    /// The defender won by the Critical margin or more.
    DefenderCritical,
}

impl Verdict {
    /// Whether the attack hit.
    pub fn hit(self) -> bool {
        matches!(self, Verdict::AttackerCritical | Verdict::AttackerSuccess)
    }
}

/// Why someone left the combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Removal {
    /// Three Wounds.
    Wounds,
    /// Coup de Grace.
    CoupDeGrace,
    /// A GM ruling (fled, surrendered...).
    Gm,
    /// A Minion that took Fatigue or Stress disappears (THR-R222).
    Vanished,
    /// Its creator left the combat (a Minion whose controller is gone).
    CreatorGone,
}

/// Why a trigger was not offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NotOfferedWhy {
    /// The attack ignores enemy triggers (THR-R149).
    IgnoresEnemyTriggers,
    /// The trigger only moves its holder, who is Immobilized (THR-R215).
    Immobilized,
    /// The holder already moved in answer to this ability use (`triggered-moves`).
    AlreadyMoved,
    /// The chain of triggers is as deep as `trigger-depth-limit` allows (THR-R146).
    DepthLimit,
}

/// Why a defence was taken for its defender: the only choice left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnlyDefence {
    /// An Incapacitated character does not defend (`incapacitated-may-defend = false`).
    Incapacitated,
    /// A Minion defends only with its controller's Resolve.
    Minion,
    /// Slowed: no Evasion, and a Special Attack leaves only declining.
    SlowedSpecial,
    /// Slowed: no Evasion.
    Slowed,
    /// No other defence applies against this attack.
    NoOther,
}

/// Everything that can happen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// Initiative roll (THR-R9).
    InitiativeRolled {
        /// Who.
        who: Cid,
        /// The roll.
        roll: Rolled,
    },
    /// A 2d6 roll-off between tied initiative totals (THR-R12).
    RollOff {
        /// Who.
        who: Cid,
        /// The roll.
        roll: Roll,
    },
    /// The turn order, highest first.
    OrderSet {
        /// The order with keys.
        order: InitiativeOrder,
    },
    /// A round begins (0 = Round Zero).
    RoundStarted {
        /// The round.
        round: u16,
    },
    /// A round ended (THR-R8).
    RoundEnded {
        /// The round.
        round: u16,
    },
    /// A slot comes up.
    SlotUp {
        /// Whose.
        who: Cid,
    },
    /// A Delay (THR-R13).
    Delayed {
        /// Who.
        who: Cid,
        /// Behind whom (`None`: to the end).
        after: Option<Cid>,
    },
    /// The turn starts (Round Zero or a round).
    TurnStarted {
        /// Who.
        who: Cid,
    },
    /// The turn moves to another step.
    StepChanged {
        /// The step.
        step: Step,
    },
    /// This turn is limited by Stunned.
    TurnStunned,
    /// A PC takes its starting square (THR-R22).
    Placed {
        /// Who.
        who: Cid,
        /// Where.
        at: Pos,
    },
    /// One step of movement.
    Moved {
        /// Who.
        who: Cid,
        /// From.
        from: Pos,
        /// To.
        to: Pos,
        /// Movement spent (0 for forced moves).
        cost: i16,
        /// A push, pull or shift.
        forced: bool,
    },
    /// A teleport (THR-R58): no squares in between are crossed.
    Teleported {
        /// Who.
        who: Cid,
        /// From.
        from: Pos,
        /// To.
        to: Pos,
        /// Movement spent.
        cost: i16,
    },
    /// The Weaver trait ignored a movement-reducing effect (Slowed for the turn, or the extra
    /// cost of one step).
    WeaverIgnored {
        /// Who.
        who: Cid,
        /// True: Slowed; false: a step's extra cost.
        slowed: bool,
    },
    /// A roll against the environment for a drop of 2+ levels (THR-R64).
    DropRolled {
        /// Who.
        who: Cid,
        /// END or REF.
        attr: Attr,
        /// The character's roll.
        roll: Rolled,
        /// The environment's roll (opposed mode). Boxed, like the other large payloads, so
        /// an event stays small to copy.
        opposition: Option<Box<Rolled>>,
        /// The number to beat.
        against: i16,
        /// Whether it succeeded.
        passed: bool,
    },
    /// A Disoriented character's step drifts (THR-R216).
    Drifted {
        /// Who.
        who: Cid,
        /// The 2d6 roll.
        roll: Roll,
        /// The direction intended.
        intended: fray_space::Dir,
        /// The direction taken.
        actual: fray_space::Dir,
    },
    /// Movement for this turn is over (after a failed drop with no Speed left, THR-R67).
    MovementStopped {
        /// Who.
        who: Cid,
    },
    /// An ability is declared.
    Declared {
        /// Who.
        user: Cid,
        /// Which.
        ability: AbilityId,
        /// At what.
        target: Target,
        /// The Overexert option.
        overexert: Option<u8>,
    },
    /// A frame is pushed on the resolution stack.
    Push {
        /// The frame (boxed: every event is as large as its largest kind, and most are a
        /// few bytes, so the frame is kept out of line; the JSON is the same).
        frame: Box<Frame>,
    },
    /// The top frame is replaced.
    SetTop {
        /// The new frame.
        frame: Box<Frame>,
    },
    /// The frame at an index is replaced (a trigger changing the attack it answers).
    SetFrame {
        /// Stack index.
        index: u8,
        /// The new frame.
        frame: Box<Frame>,
    },
    /// The top frame is popped.
    Pop,
    /// A frame on the resolution stack changes: the small change, not the whole frame.
    /// Thrum's resolution moves its frames on with these; `SetTop` and `SetFrame` remain for
    /// the engine's frame kit.
    FrameChanged {
        /// Stack index (bottom = 0).
        index: u16,
        /// What changes.
        change: crate::state::FrameChange,
    },
    /// A defence is picked (THR-R99).
    DefenceChosen {
        /// Who.
        who: Cid,
        /// Which.
        defence: Defence,
        /// Taken for the defender because it was the only choice, and why (`None`: the
        /// defender picked it).
        only: Option<OnlyDefence>,
    },
    /// A trigger is used (THR-R144).
    TriggerUsed {
        /// Who.
        who: Cid,
        /// Which ability.
        ability: AbilityId,
        /// The character the triggering ability aimed at.
        about: Cid,
    },
    /// A trigger is declined.
    TriggerPassed {
        /// Who.
        who: Cid,
        /// Which ability.
        ability: AbilityId,
    },
    /// An attack roll against a defence roll.
    Contest {
        /// Attacker.
        user: Cid,
        /// Defender.
        target: Cid,
        /// Ability.
        ability: AbilityId,
        /// The attack roll (`None`: automatic success against a declined defence). The rolls
        /// are boxed so an event stays small to copy.
        attack: Option<Box<Rolled>>,
        /// The defence roll (`None`: declined).
        defence: Option<Box<Rolled>>,
        /// The defence used.
        with: Defence,
        /// The result.
        verdict: Verdict,
    },
    /// Fatigue or Stress added to a Load.
    Damage {
        /// Who.
        who: Cid,
        /// Fatigue or Stress.
        gauge: Gauge,
        /// The amount added (Vulnerable included).
        amount: i16,
        /// How much of it Vulnerable added.
        vulnerable: i16,
    },
    /// A number set (loads, tolerances, wounds, initiative, mark, scouted).
    Set {
        /// Who.
        who: Cid,
        /// What.
        gauge: Gauge,
        /// The new value.
        value: i16,
    },
    /// X of a status set (0 ends it).
    Status {
        /// Who.
        who: Cid,
        /// Which.
        status: XStatus,
        /// New X.
        x: u8,
    },
    /// A condition turned on or off.
    Condition {
        /// Who.
        who: Cid,
        /// Which.
        cond: Cond,
        /// On or off.
        on: bool,
        /// The ability use that set it (for Dazed).
        by_use: u32,
    },
    /// Dazed's X (when Dazed is a status).
    DazedX {
        /// Who.
        who: Cid,
        /// New X.
        x: u8,
    },
    /// A Stance is entered (THR-R32).
    StanceEntered {
        /// Who.
        who: Cid,
        /// Which.
        ability: AbilityId,
    },
    /// A Stance ends.
    StanceEnded {
        /// Who.
        who: Cid,
        /// Which.
        ability: AbilityId,
    },
    /// A Panic Roll (THR-R158).
    PanicRolled {
        /// Who.
        who: Cid,
        /// The roll.
        roll: Rolled,
        /// The Stress Load to beat.
        load: i16,
        /// Whether it passed.
        passed: bool,
    },
    /// An Incapacity Roll (THR-R168).
    IncapacityRolled {
        /// Who.
        who: Cid,
        /// The roll.
        roll: Rolled,
        /// The Fatigue Load to beat.
        load: i16,
        /// Whether it passed.
        passed: bool,
    },
    /// Incapacitated (THR-R169 to THR-R172).
    Incapacitated {
        /// Who.
        who: Cid,
    },
    /// No longer Incapacitated.
    Revived {
        /// Who.
        who: Cid,
    },
    /// A Wound (THR-R174).
    Wounded {
        /// Who.
        who: Cid,
        /// Wounds now.
        wounds: i16,
    },
    /// Removed from combat (THR-R176).
    Removed {
        /// Who.
        who: Cid,
        /// Why.
        why: Removal,
    },
    /// A combatant arrives mid-combat.
    Joined {
        /// Who (its fixed information). Shared, so that dropping an event, which every kept
        /// event is once its command is done, never inlines the teardown of a whole combatant.
        info: Arc<CharInfo>,
    },
    /// A combatant enters the turn order mid-combat.
    OrderJoined {
        /// Who.
        who: Cid,
        /// Initiative total.
        key: i16,
        /// Whether it still acts this round.
        this_round: bool,
    },
    /// A Nova ability earned Potential (THR-R226).
    NovaEarned {
        /// Who.
        who: Cid,
        /// Which ability.
        ability: AbilityId,
        /// Potential now.
        potential: u8,
    },
    /// Potential spent on a Nova ability (once per combat).
    NovaSpent {
        /// Who.
        who: Cid,
        /// Which ability.
        ability: AbilityId,
        /// Potential left.
        potential: u8,
    },
    /// A Buff starts on its bearer (THR-R139).
    BuffGained {
        /// The bearer.
        who: Cid,
        /// The Buff.
        buff: BuffOn,
    },
    /// The bearer used its Buff.
    BuffUsed {
        /// The bearer.
        who: Cid,
        /// Uses left.
        uses: u8,
    },
    /// A used-up Buff's creator paid to keep it: its uses start again.
    BuffRenewed {
        /// The bearer.
        who: Cid,
        /// Uses it has again.
        uses: u8,
    },
    /// A Buff ends.
    BuffEnded {
        /// The bearer.
        who: Cid,
        /// Who created it.
        creator: Cid,
        /// Which Buff.
        ability: AbilityId,
    },
    /// A target already under a Buff declined another (THR-R142).
    BuffDeclined {
        /// The target.
        who: Cid,
        /// The declined Buff's creator.
        creator: Cid,
        /// The declined Buff.
        ability: AbilityId,
    },
    /// A GM ruling Incapacitated a character whose Fatigue Load was too low to stay so: the
    /// drop on becoming Incapacitated took it to 0 and it revived at once (THR-R172,
    /// THR-R177). Log only.
    RevivedAtOnce {
        /// Who.
        who: Cid,
        /// Its Fatigue Load before the ruling.
        load: i16,
    },
    /// A forced move (push, pull, shift) stopped before its full distance (THR-R56, THR-R57).
    ForcedMoveStopped {
        /// Who was being moved.
        who: Cid,
        /// Where it stopped.
        at: Pos,
        /// The combatant in the way, if that is what stopped it (else a wall or the map's edge).
        by: Option<Cid>,
        /// Squares of the move not made.
        left: i16,
    },
    /// A Terrain Effect is placed (THR-R136).
    TerrainPlaced {
        /// It.
        effect: TerrainInst,
    },
    /// A Terrain Effect ends (replaced, released, or its creator gone).
    TerrainRemoved {
        /// Its index in the state's list.
        index: u8,
        /// Who created it.
        creator: Cid,
        /// Which ability.
        ability: AbilityId,
    },
    /// An upkeep Overexert was not paid again: the effect it added ends (THR-R135).
    UpkeepEnded {
        /// The Terrain Effect's index.
        index: u8,
    },
    /// Banes on a character's rolls for the rest of its turn.
    TurnBanes {
        /// Who.
        who: Cid,
        /// Banes now.
        banes: i16,
    },
    /// A combatant's Initiative total changed mid-combat (THR-R18).
    InitiativeChanged {
        /// Who.
        who: Cid,
        /// The change.
        delta: i16,
        /// Whether the order re-sorts at the next round.
        resort: bool,
    },
    /// A combatant is put on a square by a ruling.
    Relocated {
        /// Who.
        who: Cid,
        /// Where.
        to: Pos,
    },
    /// A slot began by itself because beginning was the only choice (no Delay was possible),
    /// and why (issue 9: automatic steps are logged). Remembered for the rest of the turn, so a
    /// `begin` typed afterwards is refused with what happened.
    BeganByItself {
        /// Whose turn.
        who: Cid,
        /// Why no Delay was possible, as a sentence.
        why: String,
    },
    /// A triggered ability whose trigger condition held was not offered to its holder, and why.
    NotOffered {
        /// The holder.
        who: Cid,
        /// The triggered ability.
        ability: AbilityId,
        /// The ability use it would have answered.
        about: Cid,
        /// Why.
        why: NotOfferedWhy,
    },
    /// The steps fray took by itself for the previous command are forgotten: a new command is
    /// being resolved (see `State::auto`).
    AutoStepsCleared,
    /// The turn ends.
    TurnEnded {
        /// Who.
        who: Cid,
    },
    /// A standing effect acts (a Terrain Effect's lines, a start-of-turn passive, a trigger's
    /// lines): it counts as an ability use of its own and takes the next use number, so it is
    /// never mistaken for the last real use (Dazed, THR-R214).
    StandingUse {
        /// The effect's owner.
        who: Cid,
        /// The ability it comes from.
        ability: AbilityId,
    },
    /// A target of an Area, Line or Aura ability is no longer inside it when its turn to be
    /// rolled comes, and is not affected (THR-R85, option `area-leavers`).
    LeftArea {
        /// Who.
        who: Cid,
    },
    /// A PC is barred from combat until Downtime (THR-R186).
    Barred {
        /// Who.
        who: Cid,
    },
    /// A `hold` condition counted a round.
    HoldCounted {
        /// Condition index.
        condition: u8,
        /// Rounds counted.
        count: u16,
    },
    /// The combat is over (End of Combat follows).
    CombatEnded {
        /// How.
        outcome: Outcome,
    },
    /// End of Combat clean-up for one combatant (THR-R183 to THR-R187).
    Cleared {
        /// Who.
        who: Cid,
        /// Whether it stops being Incapacitated.
        revive: bool,
    },
}

fn set_gauge(c: &mut Char, g: Gauge, v: i16) {
    match g {
        Gauge::Fatigue => c.fatigue = v,
        Gauge::Stress => c.stress = v,
        Gauge::FatigueTolerance => c.ft = v,
        Gauge::StressTolerance => c.st = v,
        Gauge::Wounds => c.wounds = v,
        Gauge::Initiative => c.initiative = v,
        Gauge::Mark => c.mark = v.clamp(0, 255) as u8,
        Gauge::Scouted => c.scouted = v.clamp(0, 255) as u8,
    }
}

/// The current value of a gauge.
pub fn gauge(c: &Char, g: Gauge) -> i16 {
    match g {
        Gauge::Fatigue => c.fatigue,
        Gauge::Stress => c.stress,
        Gauge::FatigueTolerance => c.ft,
        Gauge::StressTolerance => c.st,
        Gauge::Wounds => c.wounds,
        Gauge::Initiative => c.initiative,
        Gauge::Mark => c.mark as i16,
        Gauge::Scouted => c.scouted as i16,
    }
}

/// [`apply`] for an event that is not kept: a frame it carries is moved onto the resolution
/// stack instead of copied. Every other event is applied by [`apply`] where it lies (inlined
/// into the emitting context, so the event is not copied on its way).
#[inline]
pub fn apply_owned(s: &mut State, e: Event) {
    match e {
        Event::Push { frame } => apply_frame_op_owned(&mut s.stack, FrameOp::Push(*frame)),
        Event::SetTop { frame } => apply_frame_op_owned(&mut s.stack, FrameOp::Update(*frame)),
        Event::SetFrame { index, frame } => apply_frame_op_owned(&mut s.stack, FrameOp::Set(index as usize, *frame)),
        ref other => apply(s, other),
    }
}

/// Applies one event to the state. The records that change nothing here (the rolls of a
/// contest, a Panic, Incapacity or drop roll, a drift, a roll-off, the end of a round, a target
/// that left an Area) are emitted with `Cx::note`, which skips them where no event is kept:
/// they must stay no-ops.
pub fn apply(s: &mut State, e: &Event) {
    match e {
        Event::InitiativeRolled { who, roll } => s.chars[*who as usize].initiative = roll.total,
        Event::RollOff { .. } => {}
        Event::OrderSet { order } => s.order = order.clone(),
        Event::RoundStarted { round } => {
            s.round = *round;
            if *round == 0 {
                s.phase = Phase::RoundZero;
            } else {
                // THR-R20: Round Zero happens once; Round 1 starts the rounds of fighting.
                if *round == 1 {
                    s.phase = Phase::Rounds;
                }
                s.order.start_round();
            }
            if let Some(w) = s.order.current() {
                s.turn = Turn::idle(w);
            }
        }
        Event::RoundEnded { .. } => {}
        Event::SlotUp { who } => s.turn = Turn::idle(*who),
        Event::Delayed { who, after } => {
            // The engine's order checked the delay already; errors cannot happen here.
            let _ = match after {
                Some(t) => s.order.delay_after(*who, *t),
                None => s.order.delay_to_end(*who),
            };
            s.chars[*who as usize].delays = s.chars[*who as usize].delays.saturating_add(1);
            if let Some(w) = s.order.current() {
                s.turn = Turn::idle(w);
            }
        }
        Event::BeganByItself { .. } => s.turn.began_by_itself = true,
        Event::NotOffered {
            who,
            ability,
            about,
            why,
        } => s.auto.push(AutoStep::NotOffered {
            who: *who,
            ability: *ability,
            about: *about,
            why: *why,
        }),
        Event::AutoStepsCleared => s.auto.clear(),
        Event::TurnStarted { who } => {
            s.turn = Turn::idle(*who);
            s.turn.step = if s.phase == Phase::RoundZero {
                Step::Place
            } else {
                Step::Move
            };
        }
        Event::StepChanged { step } => {
            s.turn.step = *step;
            if matches!(step, Step::ActionMove) {
                s.turn.spent = 0;
            }
        }
        Event::TurnStunned => s.turn.stunned = true,
        Event::Placed { who, at } => s.chars[*who as usize].pos = Some(*at),
        Event::Moved {
            who, to, cost, forced, ..
        } => {
            s.chars[*who as usize].pos = Some(*to);
            if s.turn.who == *who {
                // A forced move costs 0 unless `forced-moves-spend-movement` is on (THR-R74).
                s.turn.spent += *cost;
                if !*forced {
                    s.turn.moved = true;
                }
            }
        }
        Event::Teleported { who, to, cost, .. } => {
            s.chars[*who as usize].pos = Some(*to);
            if s.turn.who == *who {
                s.turn.spent += *cost;
            }
        }
        Event::WeaverIgnored { slowed, .. } => {
            s.turn.weaver_used = true;
            if *slowed {
                s.turn.weaver_slow = true;
            }
        }
        Event::DropRolled { .. } | Event::Drifted { .. } => {}
        Event::MovementStopped { .. } => s.turn.move_ended = true,
        Event::Declared { user, .. } => {
            s.uses += 1;
            if s.turn.who == *user && matches!(s.turn.step, Step::Move) && s.stack.is_empty() {
                s.turn.acted = true;
            }
        }
        // The resolution stack, through the engine's frame operations (see `Frames for Thrum`).
        Event::Push { frame } => apply_frame_op(&mut s.stack, FrameOp::Push(&**frame)),
        Event::SetTop { frame } => apply_frame_op(&mut s.stack, FrameOp::Update(&**frame)),
        Event::SetFrame { index, frame } => apply_frame_op(&mut s.stack, FrameOp::Set(*index as usize, &**frame)),
        Event::Pop => apply_frame_op(&mut s.stack, FrameOp::Pop),
        // A small change to one frame (see `FrameChanges for Thrum`).
        Event::FrameChanged { index, change } => {
            if let Some(f) = s.stack.get_mut(*index as usize) {
                change.apply(f);
            }
        }
        Event::DefenceChosen { who, defence, only } => {
            if let Some(why) = only {
                s.auto.push(AutoStep::Defence {
                    who: *who,
                    defence: *defence,
                    why: *why,
                });
            }
            // The first target slot of this defender, from the current one on, still without a
            // defence (a defender may be listed twice when targets need not be distinct).
            if let Some(Frame::Use(u)) = s.stack.last_mut() {
                let from = u.index as usize;
                if let Some(i) = (from..u.targets.len()).find(|&i| u.targets[i] == *who && u.defences[i].is_none()) {
                    u.defences[i] = Some(*defence);
                }
            }
        }
        Event::TriggerUsed { .. } | Event::TriggerPassed { .. } => {
            if let Some(Frame::Window(w)) = s.stack.last_mut() {
                w.asked += 1;
            }
        }
        Event::Contest { .. } => {}
        Event::Damage {
            who, gauge: g, amount, ..
        } => {
            let c = &mut s.chars[*who as usize];
            let v = gauge(c, *g) + amount;
            set_gauge(c, *g, v);
        }
        Event::Set { who, gauge: g, value } => set_gauge(&mut s.chars[*who as usize], *g, *value),
        Event::Status { who, status, x } => s.chars[*who as usize].x[*status as usize] = *x,
        Event::Condition { who, cond, on, by_use } => {
            let c = &mut s.chars[*who as usize];
            if *on {
                c.conds |= cond.bit();
                if *cond == Cond::Dazed {
                    c.dazed_by = *by_use;
                }
                if *cond == Cond::Hidden {
                    c.hid_at = c.pos;
                }
            } else {
                c.conds &= !cond.bit();
                if *cond == Cond::Dazed {
                    c.dazed_x = 0;
                }
                if *cond == Cond::Hidden {
                    c.hid_at = None;
                }
            }
        }
        Event::DazedX { who, x } => s.chars[*who as usize].dazed_x = *x,
        Event::StanceEntered { who, ability } => s.chars[*who as usize].stance = Some(*ability),
        Event::StanceEnded { who, ability } => {
            let c = &mut s.chars[*who as usize];
            c.stance = None;
            c.stance_ended = Some(*ability);
        }
        Event::PanicRolled { .. } | Event::IncapacityRolled { .. } => {}
        Event::Incapacitated { who } => {
            s.chars[*who as usize].incapacitated = true;
            if s.turn.who == *who && s.phase == Phase::Rounds {
                s.turn.fell = true;
            }
        }
        Event::Revived { who } => s.chars[*who as usize].incapacitated = false,
        Event::Wounded { who, wounds } => s.chars[*who as usize].wounds = *wounds,
        Event::Removed { who, .. } => {
            s.chars[*who as usize].removed = true;
            s.order.deactivate(*who);
        }
        Event::Joined { info } => {
            Arc::make_mut(&mut s.setup).chars.push((**info).clone());
            s.chars.push(Char::new(info));
        }
        Event::OrderJoined { who, key, this_round } => {
            s.chars[*who as usize].initiative = *key;
            s.order.insert_joined(*who, *key as i32, *this_round);
        }
        Event::InitiativeChanged { who, delta, resort } => {
            s.chars[*who as usize].initiative = s.chars[*who as usize].initiative.saturating_add(*delta);
            // THR-R18: the new total moves the slot's key; the order re-sorts on it when the
            // next round starts, and not at all with `initiative-change = keep-order`.
            if *resort {
                s.order.adjust_key(*who, *delta as i32);
            }
        }
        Event::NovaEarned {
            who,
            ability,
            potential,
        } => {
            if let Some(n) = s.chars[*who as usize].nova.iter_mut().find(|n| n.ability == *ability) {
                n.potential = *potential;
            }
        }
        Event::NovaSpent {
            who,
            ability,
            potential,
        } => {
            if let Some(n) = s.chars[*who as usize].nova.iter_mut().find(|n| n.ability == *ability) {
                n.potential = *potential;
                n.used = true;
            }
        }
        Event::BuffGained { who, buff } => s.chars[*who as usize].buff = Some(*buff),
        Event::BuffUsed { who, uses } | Event::BuffRenewed { who, uses } => {
            if let Some(b) = s.chars[*who as usize].buff.as_mut() {
                b.uses = *uses;
            }
        }
        Event::BuffEnded { who, .. } => s.chars[*who as usize].buff = None,
        Event::BuffDeclined { .. } | Event::ForcedMoveStopped { .. } | Event::RevivedAtOnce { .. } => {}
        Event::TerrainPlaced { effect } => s.terrain.push(effect.clone()),
        Event::TerrainRemoved { index, .. } => {
            if (*index as usize) < s.terrain.len() {
                s.terrain.remove(*index as usize);
            }
        }
        Event::UpkeepEnded { index } => {
            if let Some(t) = s.terrain.get_mut(*index as usize) {
                t.upkeep = None;
            }
        }
        Event::TurnBanes { who, banes } => {
            if s.turn.who == *who {
                s.turn.banes = *banes;
            }
        }
        Event::Relocated { who, to } => s.chars[*who as usize].pos = Some(*to),
        Event::TurnEnded { who } => {
            // THR-R34: "ended since its last turn" counts from the end of this turn, so a Stance
            // that ends between its turns is still remembered at its next Stance step.
            s.chars[*who as usize].stance_ended = None;
            if s.turn.who == *who {
                s.turn.step = Step::Done;
            }
            if s.order.current() == Some(*who) {
                s.order.finish_current();
            }
        }
        Event::Barred { who } => s.chars[*who as usize].barred = true,
        Event::StandingUse { .. } => s.uses += 1,
        Event::LeftArea { .. } => {}
        Event::HoldCounted { condition, count } => {
            let i = *condition as usize;
            if s.holds.len() <= i {
                s.holds.resize(i + 1, 0);
            }
            s.holds[i] = *count;
        }
        Event::CombatEnded { outcome } => {
            s.fought = Some(Arc::new(s.chars.clone()));
            s.outcome = Some(outcome.clone());
            s.phase = Phase::Ended;
            s.stack.clear();
            if s.options.clear_at_end {
                s.terrain.clear();
            }
        }
        Event::Cleared { who, revive } => {
            // THR-R184: every Load is 0 at End of Combat. Tolerances and Wounds are left as
            // they are: nothing here restores them (THR-R180), and they carry on (THR-R185).
            let c = &mut s.chars[*who as usize];
            c.fatigue = 0;
            c.stress = 0;
            if *revive {
                c.incapacitated = false;
            }
            for n in &mut c.nova {
                n.used = false;
            }
            if s.options.clear_at_end {
                c.buff = None;
                c.stance = None;
                c.x = [0; 8];
                c.conds = 0;
                c.hid_at = None;
                c.dazed_x = 0;
                c.mark = 0;
                c.scouted = 0;
            }
        }
    }
}
