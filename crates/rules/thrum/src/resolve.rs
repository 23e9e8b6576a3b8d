//! Resolution: commands become events, and the combat runs until the next decision.
//!
//! Everything here goes through [`Cx::emit`], which applies an event and records it, so the
//! state changes only through `apply`. Resolution is a loop ([`advance`]) over the resolution
//! stack and the turn: the top frame (an ability use, a trigger window) is advanced until it
//! needs a decision or finishes; with an empty stack, the turn moves on (start of turn, end of
//! turn, next slot, next round) until a seat must decide or the combat ends.
//!
//! An ability use goes through stages: defenders pick defences, trigger windows open (one per
//! target, candidates asked in turn order), then each target is rolled and its result lines
//! applied, then the end-of-ability checks (Exhausted user's Incapacity Roll, stop conditions).
//! A trigger that starts another ability (a riposte) pushes a new frame, which resolves fully
//! before the frame under it continues: last in, first out (THR-R146, THR-R147, THR-R151).

use crate::ability::{
    Ability, Affects, Attr, Cond, Defence, EndsStance, Kind, Line, NovaEarn, Op, Reaction, Recipient, TriggerOn,
    XStatus,
};
use crate::calc::{self, Tally, eval, is_minion};
use crate::check::{self, action_targets, can_stop};
use crate::command::{Action, Command, Gauge, Ruling};
use crate::event::{Event, NotOfferedWhy, OnlyDefence, Removal, Rolled, Verdict, apply, gauge};
use crate::options::{
    AreaLeavers, BothFall, DazedMode, DazedReapply, DeclinedDefence, DefenceTiming, EnvironmentRoll, InitiativeChange,
    InvoluntaryDrop, JoinerTurn, MultiTarget, PanicStun, ScoutedMode, StopCheck, TieRule, TriggeredMoves,
    ZeroTolerancePc,
};
use crate::setup::{CharInfo, Cid, Predicate};
use crate::state::{
    BuffOn, FixedKind, FixedRoll, Frame, Phase, Pick, Prompt, RollMods, State, StatusRef, Step, TerrainInst, Use,
    UseStage, WindowFrame,
};
use fray_dice::{Dice, Dist, Keep, MAX_DICE};
use fray_engine::{EngineError, Outcome};
use fray_space::{Dir, Pos, base_step_cost};
use std::fmt;
use std::sync::Arc;

/// The resolution context: the state, the dice, and the events emitted so far.
pub struct Cx<'a> {
    /// The state being changed.
    pub s: &'a mut State,
    /// Where dice come from.
    pub dice: &'a mut dyn Dice,
    /// Events emitted, in order.
    pub out: &'a mut Vec<Event>,
}

impl Cx<'_> {
    /// Applies an event and records it.
    pub fn emit(&mut self, e: Event) {
        apply(self.s, &e);
        self.out.push(e);
    }
}

type R<T = ()> = Result<T, EngineError>;

/// What a stack frame needs next.
enum Flow {
    /// A decision is pending.
    Wait,
    /// Keep going.
    Go,
}

// ---------------------------------------------------------------------------------------------
// Dice
// ---------------------------------------------------------------------------------------------

/// Rolls 2d6 with `net` Boons (negative: Banes) and adds `modifier` (THR core mechanic).
pub fn roll2d6(cx: &mut Cx, net: i16, modifier: i16, why: &dyn fmt::Display) -> R<Rolled> {
    let extra = (net.unsigned_abs() as usize).min(MAX_DICE - 2);
    let keep = match net {
        n if n > 0 => Keep::Highest(2),
        n if n < 0 => Keep::Lowest(2),
        _ => Keep::All,
    };
    let roll = fray_dice::roll(cx.dice, 2 + extra, 6, keep, why)?;
    Ok(Rolled {
        roll,
        modifier,
        net,
        total: roll.total as i16 + modifier,
    })
}

/// The exact distribution of a 2d6 roll with `net` Boons or Banes (kept dice only).
pub fn dist2d6(net: i16) -> Dist {
    let extra = net.unsigned_abs().min((MAX_DICE - 2) as u16);
    let keep = match net {
        n if n > 0 => Keep::Highest(2),
        n if n < 0 => Keep::Lowest(2),
        _ => Keep::All,
    };
    Dist::of_keep(2 + extra, 6, keep).unwrap_or_else(|_| Dist::constant(7))
}

// ---------------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------------

/// Resolves a checked command and runs on to the next decision.
pub fn resolve(cx: &mut Cx, cmd: &Command) -> R {
    // What fray did by itself for the previous command is no longer the latest thing that
    // happened: a command typed for one of those steps gets the usual refusal from now on.
    if !cx.s.auto.is_empty() {
        cx.emit(Event::AutoStepsCleared);
    }
    let who = cx.s.turn.who;
    match cmd {
        Command::Begin => begin_turn(cx)?,
        Command::Delay(after) => cx.emit(Event::Delayed { who, after: *after }),
        Command::Place(p) => {
            cx.emit(Event::Placed { who, at: *p });
            cx.emit(Event::StepChanged { step: Step::Stance });
        }
        Command::Move(to) if matches!(cx.s.stack.last(), Some(Frame::Prompt(_))) => answer_prompt(cx, cmd)?,
        Command::Move(to) => do_move(cx, who, *to)?,
        Command::Step { dir, roll } => do_step(cx, who, *dir, *roll)?,
        Command::Act(a) => declare(cx, who, a)?,
        Command::Stance(id) => {
            // THR-R33: entering a Stance first ends the current one, so only one is ever active.
            if let Some(old) = cx.s.ch(who).stance {
                cx.emit(Event::StanceEnded { who, ability: old });
            }
            cx.emit(Event::StanceEntered { who, ability: *id });
            end_turn(cx, who)?;
        }
        Command::EndTurn => end_turn(cx, who)?,
        Command::Defend(d) => {
            if let Some(Frame::Use(u)) = cx.s.stack.last() {
                let t = u.targets[u.index as usize];
                cx.emit(Event::DefenceChosen {
                    who: t,
                    defence: *d,
                    only: None,
                });
            }
        }
        Command::DefendWith(d, _) => {
            if let Some(Frame::Use(u)) = cx.s.stack.last().cloned() {
                let t = u.targets[u.index as usize];
                cx.emit(Event::DefenceChosen {
                    who: t,
                    defence: *d,
                    only: None,
                });
                buff_on_defence(cx, t);
            }
        }
        Command::Trigger(id) => use_trigger(cx, *id)?,
        Command::Pass => match cx.s.stack.last() {
            Some(Frame::Prompt(_)) => answer_prompt(cx, cmd)?,
            Some(Frame::Roll(_)) => answer_reroll(cx, false)?,
            _ => pass_trigger(cx),
        },
        Command::Reroll => answer_reroll(cx, true)?,
        Command::Accept | Command::Decline | Command::Keep | Command::Release => answer_prompt(cx, cmd)?,
        Command::Gm(r) => ruling(cx, r)?,
    }
    advance(cx)
}

/// Runs automatic steps until a decision is pending or the combat is over.
pub fn advance(cx: &mut Cx) -> R {
    // A generous bound: each loop iteration either emits an event or returns.
    for _ in 0..100_000 {
        if cx.s.outcome.is_some() {
            return Ok(());
        }
        if !cx.s.stack.is_empty() {
            match step_frame(cx)? {
                Flow::Wait => return Ok(()),
                Flow::Go => continue,
            }
        }
        let who = cx.s.turn.who;
        match cx.s.turn.step {
            Step::Slot => {
                if cx.s.phase == Phase::Rounds && slot_needs_decision(cx.s) {
                    return Ok(());
                }
                // Say why a slot in the rounds began without asking (THR-R15: no Delay was
                // possible); Round Zero slots never offer one.
                let why = (cx.s.phase == Phase::Rounds && cx.s.ch(who).present())
                    .then(|| check::check(cx.s, &Command::Delay(None)).err())
                    .flatten()
                    .map(|r| r.reason);
                begin_turn(cx)?;
                if let Some(why) = why {
                    cx.emit(Event::BeganByItself { who, why });
                }
            }
            Step::Place | Step::Move | Step::ActionMove | Step::Stance => {
                let c = cx.s.ch(who);
                if c.removed {
                    cx.emit(Event::TurnEnded { who });
                    continue;
                }
                if c.incapacitated {
                    end_turn(cx, who)?;
                    continue;
                }
                if cx.s.phase == Phase::RoundZero
                    && cx.s.turn.step == Step::Stance
                    && !cx.s.is_pc(who)
                    && !cx.s.options.npc_round_zero_stance
                {
                    end_turn(cx, who)?;
                    continue;
                }
                return Ok(());
            }
            Step::Done => next_slot(cx)?,
        }
    }
    Err(EngineError::Bug("resolution did not settle".into()))
}

fn slot_needs_decision(s: &State) -> bool {
    // THR-R15: a slot that may not Delay (it already delayed this round) begins by itself.
    let who = s.turn.who;
    s.ch(who).present()
        && (check::check(s, &Command::Delay(None)).is_ok()
            || s.order
                .later_waiting()
                .any(|t| check::check(s, &Command::Delay(Some(t))).is_ok()))
}

// ---------------------------------------------------------------------------------------------
// Turn flow
// ---------------------------------------------------------------------------------------------

fn begin_turn(cx: &mut Cx) -> R {
    let who = cx.s.turn.who;
    cx.emit(Event::TurnStarted { who });
    if cx.s.phase == Phase::RoundZero {
        // THR-R23: after placing (or at once, for the already placed) the Round Zero turn goes
        // to the Stance step; a Stance entered there is still on when Round 1 begins.
        if !(cx.s.is_pc(who) && cx.s.ch(who).pos.is_none()) {
            cx.emit(Event::StepChanged { step: Step::Stance });
        }
        return Ok(());
    }
    if cx.s.options.draft_stunned && cx.s.ch(who).has(Cond::Stunned) {
        // THR-R218: a Stunned character's turn is limited to its Move or its Action.
        cx.emit(Event::TurnStunned);
    }
    // Start of Turn runs as a frame: step a (the Panic Roll) may pause for a reroll decision,
    // and step b (upkeep, start-of-turn passives and Terrain Effects) may pause too.
    cx.emit(Event::Push {
        frame: Frame::StartOfTurn { who, step: 0 },
    });
    Ok(())
}

/// Starts a Panic or Incapacity Roll (a frame: a Buff may allow a reroll of a failure).
pub fn fixed_roll(cx: &mut Cx, who: Cid, kind: FixedKind) {
    if !cx.s.ch(who).present() || (kind == FixedKind::Incapacity && cx.s.ch(who).incapacitated) {
        return;
    }
    cx.emit(Event::Push {
        frame: Frame::Roll(FixedRoll {
            who,
            kind,
            asking: false,
        }),
    });
}

/// Rolls a Panic or Incapacity Roll and reports whether it passed.
fn roll_fixed(cx: &mut Cx, who: Cid, kind: FixedKind) -> R<bool> {
    let name = cx.s.name(who).to_string();
    match kind {
        FixedKind::Panic => {
            let (mut tally, modifier) = calc::panic_tally(cx.s, who);
            tally.add(-calc::turn_banes(cx.s, who));
            let net = tally.net(cx.s);
            let roll = roll2d6(cx, net, modifier, &format_args!("{name}'s Panic Roll"))?;
            let load = cx.s.ch(who).stress;
            // THR-R163: a total equal to the Stress Load (3 against 3) fails.
            let passed = roll.total > load;
            cx.emit(Event::PanicRolled {
                who,
                roll,
                load,
                passed,
            });
            Ok(passed)
        }
        FixedKind::Incapacity => {
            let (mut tally, modifier) = calc::incapacity_tally(cx.s, who);
            tally.add(-calc::turn_banes(cx.s, who));
            let net = tally.net(cx.s);
            let roll = roll2d6(cx, net, modifier, &format_args!("{name}'s Incapacity Roll"))?;
            let load = cx.s.ch(who).fatigue;
            let passed = roll.total > load;
            cx.emit(Event::IncapacityRolled {
                who,
                roll,
                load,
                passed,
            });
            Ok(passed)
        }
    }
}

/// What a failed Panic or Incapacity Roll does.
fn fixed_failed(cx: &mut Cx, who: Cid, kind: FixedKind) {
    match kind {
        FixedKind::Panic => {
            // THR-R159 to THR-R161.
            cx.emit(Event::Condition {
                who,
                cond: Cond::Stunned,
                on: true,
                by_use: 0,
            });
            if cx.s.options.panic_stun == PanicStun::ThisTurn && cx.s.turn.who == who {
                cx.emit(Event::TurnStunned);
            }
            // THR-R160: the whole Stress Load moves onto the Fatigue Load, then Stress is 0.
            // THR-R163: Tolerance 2, Stress 3, Fatigue 1 → Fatigue 4, Stress 0, Tolerance 1.
            let c = cx.s.ch(who);
            let (fatigue, st) = (c.fatigue + c.stress, (c.st - 1).max(cx.s.options.tolerance_floor));
            cx.emit(Event::Set {
                who,
                gauge: Gauge::Fatigue,
                value: fatigue,
            });
            cx.emit(Event::Set {
                who,
                gauge: Gauge::Stress,
                value: 0,
            });
            cx.emit(Event::Set {
                who,
                gauge: Gauge::StressTolerance,
                value: st,
            });
        }
        FixedKind::Incapacity => incapacitate(cx, who),
    }
}

/// Whether a character's Buff lets it reroll this kind of roll now.
fn can_reroll(s: &State, who: Cid, kind: FixedKind) -> bool {
    s.ch(who).buff.is_some_and(|b| {
        b.uses > 0
            && s.setup
                .book
                .get(b.ability)
                .buff_spec
                .as_ref()
                .is_some_and(|spec| spec.reroll.contains(&kind))
    })
}

fn step_roll(cx: &mut Cx, r: FixedRoll) -> R<Flow> {
    if r.asking {
        return Ok(Flow::Wait);
    }
    cx.emit(Event::Pop);
    if !cx.s.ch(r.who).present() || (r.kind == FixedKind::Incapacity && cx.s.ch(r.who).incapacitated) {
        return Ok(Flow::Go);
    }
    if roll_fixed(cx, r.who, r.kind)? {
        return Ok(Flow::Go);
    }
    if can_reroll(cx.s, r.who, r.kind) {
        cx.emit(Event::Push {
            frame: Frame::Roll(FixedRoll { asking: true, ..r }),
        });
        return Ok(Flow::Wait);
    }
    fixed_failed(cx, r.who, r.kind);
    Ok(Flow::Go)
}

/// The answer to a reroll offer.
fn answer_reroll(cx: &mut Cx, reroll: bool) -> R {
    let Some(Frame::Roll(r)) = cx.s.stack.last().cloned() else {
        return Ok(());
    };
    cx.emit(Event::Pop);
    if !reroll {
        fixed_failed(cx, r.who, r.kind);
        return Ok(());
    }
    use_buff(cx, r.who);
    if !roll_fixed(cx, r.who, r.kind)? {
        fixed_failed(cx, r.who, r.kind);
    }
    // A Buff used up by the reroll asks its creator to keep it, as after a defence.
    buff_keep_prompt(cx, r.who);
    Ok(())
}

fn step_start_of_turn(cx: &mut Cx, who: Cid, step: u8) -> R<Flow> {
    cx.emit(Event::SetTop {
        frame: Frame::StartOfTurn { who, step: step + 1 },
    });
    match step {
        0 => {
            // Step a: the Panic Roll (THR-R27, THR-R157).
            if cx.s.ch(who).frayed() && cx.s.ch(who).present() {
                fixed_roll(cx, who, FixedKind::Panic);
            }
        }
        1 => {
            // Step b: other effects (THR-R28). The Weaver ignores Slowed this turn if that is
            // the first movement-reducing effect it meets (THR-R76).
            let info = cx.s.info(who);
            if info.traits.weaver == 1 && cx.s.ch(who).status(XStatus::Slowed) > 0 && !cx.s.turn.weaver_used {
                cx.emit(Event::WeaverIgnored { who, slowed: true });
            }
            start_of_turn_effects(cx, who)?;
        }
        _ => cx.emit(Event::Pop),
    }
    Ok(Flow::Go)
}

/// End of Turn (THR-R35, THR-R36, THR-R173 to THR-R175), then the stop check.
pub fn end_turn(cx: &mut Cx, who: Cid) -> R {
    if cx.s.phase == Phase::RoundZero {
        cx.emit(Event::TurnEnded { who });
        return Ok(());
    }
    let floor = cx.s.options.tolerance_floor;
    // With `upkeep-at-start-of-turn = false`, upkeep Overexerts are paid at the end of their
    // creator's turns instead, from the turn after the one that placed them (THR-R135).
    if !cx.s.options.upkeep_at_start_of_turn {
        upkeep_prompts(cx, who);
    }
    // Step a: End of Turn effects. Burning deals 1 Fatigue (THR-R205).
    if let Some(p) = cx.s.ch(who).pos
        && !cx.s.terrain.is_empty()
    {
        terrain_lines(cx, who, p, |spec, _| spec.end_of_turn.clone())?;
    }
    let burning = calc::status_weight(cx.s, who, XStatus::Burning); // 1, or X when effects scale
    if burning > 0 {
        deal(cx, who, Gauge::Fatigue, burning, None, 0);
    }
    // Then, for an Incapacitated character, the −1/−1 drop and the revive check. With
    // `incapacity-drop-same-turn = false`, a character that became Incapacitated during this
    // turn already had its drop for the turn (THR-R172, THR-R173).
    let dropped = cx.s.turn.fell && !cx.s.options.incapacity_drop_same_turn;
    if cx.s.ch(who).incapacitated && cx.s.ch(who).present() && !dropped {
        let c = cx.s.ch(who);
        let (ft, fl) = ((c.ft - 1).max(floor), (c.fatigue - 1).max(0));
        cx.emit(Event::Set {
            who,
            gauge: Gauge::FatigueTolerance,
            value: ft,
        });
        cx.emit(Event::Set {
            who,
            gauge: Gauge::Fatigue,
            value: fl,
        });
        // THR-R181: so Tolerance 3 / Load 4 falls to 2 / 3, then 1 / 2, 0 / 1 (Wound 1 below),
        // then Load 0 revives here, before the Wound check.
        if cx.s.options.revive_before_wound && fl == 0 {
            cx.emit(Event::Revived { who });
        }
    }
    // Step b: statuses tick down (THR-R211), on an Incapacitated character too: its statuses
    // and Buff stay on it (THR-R171).
    for x in XStatus::ALL {
        let v = cx.s.ch(who).status(x);
        if v > 0 {
            cx.emit(Event::Status {
                who,
                status: x,
                x: v - 1,
            });
        }
    }
    if cx.s.options.dazed == DazedMode::Status && cx.s.ch(who).dazed_x > 0 {
        let x = cx.s.ch(who).dazed_x - 1;
        cx.emit(Event::DazedX { who, x });
        if x == 0 {
            cx.emit(Event::Condition {
                who,
                cond: Cond::Dazed,
                on: false,
                by_use: 0,
            });
        }
    }
    if cx.s.turn.stunned && cx.s.ch(who).has(Cond::Stunned) {
        // THR-R218: Stunned ends at the end of the turn it limited.
        cx.emit(Event::Condition {
            who,
            cond: Cond::Stunned,
            on: false,
            by_use: 0,
        });
    }
    if cx.s.options.scouted == ScoutedMode::OneTurn && cx.s.ch(who).scouted > 0 {
        cx.emit(Event::Set {
            who,
            gauge: Gauge::Scouted,
            value: 0,
        });
    }
    // Last, the Wound check (THR-R174, THR-R176).
    let c = cx.s.ch(who);
    if c.incapacitated && c.present() && c.ft <= 0 {
        let wounds = c.wounds + 1;
        cx.emit(Event::Wounded { who, wounds });
        if wounds >= 3 {
            remove(cx, who, Removal::Wounds);
        }
    }
    if !cx.s.options.revive_before_wound
        && cx.s.ch(who).incapacitated
        && cx.s.ch(who).fatigue == 0
        && cx.s.ch(who).present()
    {
        cx.emit(Event::Revived { who });
    }
    cx.emit(Event::TurnEnded { who });
    stop_check(cx);
    Ok(())
}

fn next_slot(cx: &mut Cx) -> R {
    if !cx.s.order.slots().iter().any(|s| s.active) {
        end_combat(cx, None, "nobody-left");
        return Ok(());
    }
    if cx.s.order.round_over() {
        let round = cx.s.round;
        cx.emit(Event::RoundEnded { round });
        // Round Zero is not a round of fighting: it earns no Potential.
        if round >= 1 {
            for c in cx.s.ids().collect::<Vec<_>>() {
                nova_earn(cx, c, NovaEarn::RoundEnds);
            }
        }
        end_of_round_conditions(cx, round);
        if cx.s.outcome.is_some() {
            return Ok(());
        }
        cx.emit(Event::RoundStarted { round: round + 1 });
    } else if let Some(who) = cx.s.order.current() {
        cx.emit(Event::SlotUp { who });
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Movement
// ---------------------------------------------------------------------------------------------

fn do_move(cx: &mut Cx, who: Cid, to: Pos) -> R {
    let Some(from) = cx.s.ch(who).pos else { return Ok(()) };
    let budget = check::movement_left(cx.s);
    let Some((path, planned)) = check::path_for(cx.s, who, from, to, budget) else {
        return Err(EngineError::Bug(format!("checked move to {to} has no path")));
    };
    let mut at = from;
    let mut paid = 0;
    for next in path {
        let cost = paid_cost(cx, who, at, next, false)?;
        paid += cost;
        cx.emit(Event::Moved {
            who,
            from: at,
            to: next,
            cost,
            forced: false,
        });
        entered(cx, who, next)?;
        at = next;
    }
    // The search and the resolver price steps the same way (the Weaver's exemption included),
    // unless something on the way (a Terrain Effect's entry line) changed the mover's state.
    debug_assert!(
        paid == planned as i16 || !cx.s.terrain.is_empty(),
        "move to {to} planned at {planned} but cost {paid}"
    );
    Ok(())
}

/// The cost actually paid for a step, after the Weaver's exemption (THR-R76; its use is
/// recorded). The cost comes from [`check::paid_step_cost`], which the legality check and the
/// path searches use too.
fn paid_cost(cx: &mut Cx, who: Cid, from: Pos, to: Pos, roll: bool) -> R<i16> {
    let (cost, uses) = check::paid_step_cost(cx.s, who, from, to, roll).map_err(|r| EngineError::Bug(r.reason))?;
    if uses {
        cx.emit(Event::WeaverIgnored { who, slowed: false });
    }
    Ok(cost)
}

fn do_step(cx: &mut Cx, who: Cid, dir: Dir, roll: Option<Attr>) -> R {
    let Some(from) = cx.s.ch(who).pos else { return Ok(()) };
    let mut to = from.step(dir);
    if cx.s.ch(who).has(Cond::Disoriented) {
        // THR-R216, THR-R217: 2d6 per step; 7 goes as intended and ends Disoriented.
        let name = cx.s.name(who).to_string();
        let r = roll2d6(cx, 0, 0, &format_args!("{name}'s Disoriented drift"))?;
        let shift = r.total as i32 - 7;
        // Without the draft's drift, a step that does not roll 7 is simply lost.
        let draft = cx.s.options.draft_disoriented;
        let actual = if draft { dir.rotate_cw(shift) } else { dir };
        cx.emit(Event::Drifted {
            who,
            roll: r.roll,
            intended: dir,
            actual,
        });
        if shift == 0 {
            cx.emit(Event::Condition {
                who,
                cond: Cond::Disoriented,
                on: false,
                by_use: 0,
            });
        }
        to = from.step(actual);
        // A roll declared with the step is used if the step really taken drops 2+ levels.
        let drop = base_step_cost(&cx.s.setup.map, from, to).map_or(0, |c| c.drop as i16);
        let rolls = roll.filter(|_| drop >= 2);
        let cost = check::paid_step_cost(cx.s, who, from, to, rolls.is_some()).ok();
        let ok = cost.is_some() && can_stop(cx.s, who, to) && (draft || shift == 0);
        let left = check::movement_left(cx.s).max(0);
        // A step onto a square it cannot enter is lost but its movement is spent; so is a step
        // that costs more than the movement left (unless partial steps are allowed).
        let too_dear = cost.is_some_and(|(c, _)| c > left && !(cx.s.options.partial_steps && left > 0));
        if !ok || too_dear {
            let lost = cost.map_or(1, |(c, _)| c).min(left);
            cx.emit(Event::Moved {
                who,
                from,
                to: from,
                cost: lost,
                forced: false,
            });
            return Ok(());
        }
        let paid = paid_cost(cx, who, from, to, rolls.is_some())?;
        cx.emit(Event::Moved {
            who,
            from,
            to,
            cost: paid,
            forced: false,
        });
        entered(cx, who, to)?;
        if let Some(attr) = rolls
            && !drop_roll(cx, who, attr, drop)?
        {
            fall_consequences(cx, who);
        }
        return Ok(());
    }
    let cost = paid_cost(cx, who, from, to, roll.is_some())?;
    cx.emit(Event::Moved {
        who,
        from,
        to,
        cost,
        forced: false,
    });
    entered(cx, who, to)?;
    if let Some(attr) = roll {
        let drop = base_step_cost(&cx.s.setup.map, from, to).map_or(0, |c| c.drop as i16);
        let passed = drop_roll(cx, who, attr, drop)?;
        // THR-R65: a success lands with no penalty; the step was priced without the drop's
        // extra cost (`check::step_cost` with `roll`).
        if !passed {
            fall_consequences(cx, who);
        }
    }
    Ok(())
}

/// A roll against the environment at level `level` (THR-R64, THR-H16).
fn drop_roll(cx: &mut Cx, who: Cid, attr: Attr, level: i16) -> R<bool> {
    let (net, modifier) = env_roll_parts(cx.s, who, attr);
    let name = cx.s.name(who).to_string();
    let roll = roll2d6(
        cx,
        net,
        modifier,
        &format_args!("{name}'s {} roll against a drop of {level}", attr.name()),
    )?;
    let (opposition, against) = match cx.s.options.environment_roll {
        EnvironmentRoll::Opposed => {
            let o = roll2d6(cx, 0, level, &format_args!("the environment's roll (level {level})"))?;
            (Some(o), o.total)
        }
        EnvironmentRoll::FixedTarget => (None, 7 + level),
    };
    let passed = roll.total > against;
    cx.emit(Event::DropRolled {
        who,
        attr,
        roll,
        opposition,
        against,
        passed,
    });
    Ok(passed)
}

fn env_roll_parts(s: &State, who: Cid, attr: Attr) -> (i16, i16) {
    let st = &s.info(who).stats;
    let (b, flat) = calc::standing_mods(s, who, crate::ability::RollKind::Environment);
    let mut t = Tally::default();
    t.add(b);
    t.add(-calc::turn_banes(s, who));
    let modifier = st.attr(attr) + flat;
    if attr == Attr::Ref && s.options.draft_hastened && s.ch(who).has(Cond::Hastened) {
        t.add(1);
    }
    if s.options.frayed_rolls == crate::options::FrayedRolls::DefensiveAttributes && s.ch(who).frayed() {
        t.add(-1);
    }
    (t.net(s), modifier)
}

/// The probability that a drop roll with this attribute succeeds.
pub fn drop_odds(s: &State, who: Cid, attr: Attr, level: i16) -> f64 {
    let (net, modifier) = env_roll_parts(s, who, attr);
    let me = dist2d6(net).shift(modifier as i64);
    let against = match s.options.environment_roll {
        EnvironmentRoll::Opposed => dist2d6(0).shift(level as i64),
        EnvironmentRoll::FixedTarget => Dist::constant((7 + level) as i64),
    };
    me.sub(&against).map(|d| d.p_gt(0)).unwrap_or(0.0)
}

fn fall_consequences(cx: &mut Cx, who: Cid) {
    // THR-R66, THR-R67: +1 Slowed; out of movement means the move ends, +1 Dazed.
    let x = cx.s.ch(who).status(XStatus::Slowed).saturating_add(1);
    cx.emit(Event::Status {
        who,
        status: XStatus::Slowed,
        x,
    });
    // A Weaver that has ignored nothing yet this turn ignores this Slowed (THR-R76).
    if cx.s.turn.who == who && cx.s.info(who).traits.weaver == 1 && !cx.s.turn.weaver_used {
        cx.emit(Event::WeaverIgnored { who, slowed: true });
    }
    // THR-R73: Speed 4 with 2 spent, the roll fails: Slowed makes Speed 2 and the step made
    // the spent 3 ≥ 2, so movement ends and Dazed follows.
    let spent = if cx.s.turn.who == who { cx.s.turn.spent } else { 0 };
    if spent >= calc::speed(cx.s, who) {
        if cx.s.turn.who == who {
            cx.emit(Event::MovementStopped { who });
        }
        add_condition(cx, who, Cond::Dazed, 0);
    }
}

/// A forced move of `n` squares, one at a time (THR-R56, THR-R68, THR-R74).
fn forced_move(cx: &mut Cx, who: Cid, n: i16, mut next: impl FnMut(&State, Pos) -> Option<Pos>) -> R {
    if calc::immovable(cx.s, who) {
        return Ok(()); // Stand Firm at Tier 1+.
    }
    let mut left = n.max(0);
    while left > 0 {
        let Some(from) = cx.s.ch(who).pos else { return Ok(()) };
        // The log says where and why a forced move stops short (a wall, the map's edge, or
        // the combatant in the way).
        let stopped = |cx: &mut Cx, by: Option<Cid>| {
            cx.emit(Event::ForcedMoveStopped {
                who,
                at: from,
                by,
                left,
            })
        };
        // No next square: the move has nowhere further to go (a pull that reached its user).
        let Some(to) = next(cx.s, from) else { return Ok(()) };
        let Some(c) = base_step_cost(&cx.s.setup.map, from, to) else {
            stopped(cx, None);
            return Ok(());
        };
        // Occupied squares stop the move (with the option, allies' squares can be crossed
        // during a longer forced move, but never ended on: each square crossed counts). An
        // enemy's square is never entered (THR-R56, THR-R57).
        if let Some(o) = cx.s.occupant(to)
            && o != who
        {
            if !(cx.s.options.forced_into_allies && cx.s.allies(who, o)) || left < 2 {
                stopped(cx, Some(o));
                return Ok(());
            }
            // Look one square further; stop if that one is not free either.
            let Some(beyond) = next(cx.s, to) else {
                stopped(cx, Some(o));
                return Ok(());
            };
            if !can_stop(cx.s, who, beyond) || base_step_cost(&cx.s.setup.map, to, beyond).is_none() {
                stopped(cx, Some(o));
                return Ok(());
            }
        }
        let rolls = c.drop >= 2 && cx.s.options.involuntary_drop == InvoluntaryDrop::MandatoryRoll;
        let cost = if cx.s.options.forced_moves_spend_movement && cx.s.turn.who == who {
            // The mandatory roll replaces the extra cost of the drop (THR-R68).
            (c.total() - if rolls { c.climb } else { 0 }) as i16
        } else {
            0
        };
        cx.emit(Event::Moved {
            who,
            from,
            to,
            cost,
            forced: true,
        });
        entered(cx, who, to)?;
        left -= 1;
        if rolls {
            let level = c.drop as i16;
            // The character's choice: the attribute with the better chance.
            let attr = if drop_odds(cx.s, who, Attr::Ref, level) > drop_odds(cx.s, who, Attr::End, level) {
                Attr::Ref
            } else {
                Attr::End
            };
            if !drop_roll(cx, who, attr, level)? {
                fall_consequences(cx, who);
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Abilities
// ---------------------------------------------------------------------------------------------

fn first_stage(s: &State, a: &Ability) -> UseStage {
    if !calc::rolls(s, a) {
        UseStage::Rolls
    } else if s.options.defence_timing == DefenceTiming::BeforeTriggers {
        UseStage::Defences
    } else {
        UseStage::Triggers
    }
}

fn declare(cx: &mut Cx, user: Cid, act: &Action) -> R {
    let targets = action_targets(cx.s, user, act).map_err(|r| EngineError::Bug(r.reason))?;
    cx.emit(Event::Declared {
        user,
        ability: act.ability,
        target: act.target.clone(),
        overexert: act.overexert,
    });
    let setup = Arc::clone(&cx.s.setup);
    let a = setup.book.get(act.ability);
    // Overexert: declared and paid before any roll (THR-R133).
    if let Some(o) = act.overexert.and_then(|i| a.overexert.get(i as usize)) {
        let cost = o.stress.unwrap_or(cx.s.options.overexert_stress);
        let id = cx.s.uses;
        deal(cx, user, Gauge::Stress, cost, Some(user), id);
    }
    if a.is_attack() && !cx.s.options.hamstrung_after_attack && cx.s.ch(user).status(XStatus::Hamstrung) > 0 {
        let id = cx.s.uses;
        add_condition(cx, user, Cond::Dazed, id);
    }
    // Nova: Potential is spent on use, once per combat (THR-R226).
    if let Some(nv) = a.nova
        && let Some(n) = cx.s.ch(user).nova.iter().find(|n| n.ability == act.ability).copied()
    {
        cx.emit(Event::NovaSpent {
            who: user,
            ability: act.ability,
            potential: n.potential.saturating_sub(nv.cost),
        });
    }
    // Hidden ends when a foe aims an ability at it from an adjacent square (THR-R219); a
    // Hidden user aiming at a foe loses it once that ability has resolved (`finish_use`).
    if cx.s.options.draft_hidden {
        for &t in &targets {
            if cx.s.ch(t).has(Cond::Hidden)
                && cx.s.enemies(user, t)
                && calc::dist_between(cx.s, user, t).is_some_and(|d| d <= 1)
            {
                cx.emit(Event::Condition {
                    who: t,
                    cond: Cond::Hidden,
                    on: false,
                    by_use: 0,
                });
            }
        }
    }
    let square = match act.target {
        crate::command::Target::Square(p) => Some(p),
        _ => None,
    };
    let shape = match cx.s.ch(user).pos {
        Some(up) => check::shape_squares(cx.s, user, act, up).unwrap_or_default(),
        None => Vec::new(),
    };
    start_use(
        cx,
        user,
        act.ability,
        targets,
        square,
        shape,
        act.pick,
        act.overexert,
        true,
    );
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn start_use(
    cx: &mut Cx,
    user: Cid,
    ability: crate::ability::AbilityId,
    targets: Vec<Cid>,
    square: Option<Pos>,
    shape: Vec<Pos>,
    pick: Pick,
    overexert: Option<u8>,
    is_action: bool,
) {
    let a = cx.s.setup.book.get(ability);
    let n = targets.len();
    let u = Use {
        id: cx.s.uses,
        user,
        ability,
        targets,
        square,
        shape,
        pick,
        overexert,
        is_action,
        stage: first_stage(cx.s, a),
        index: 0,
        post: false,
        defences: vec![None; n],
        mods: vec![RollMods::default(); n],
        verdicts: vec![None; n],
        shared_attack: None,
        moved: 0,
    };
    cx.emit(Event::Push { frame: Frame::Use(u) });
}

fn step_frame(cx: &mut Cx) -> R<Flow> {
    match cx.s.stack.last() {
        Some(Frame::Use(_)) => step_use(cx),
        Some(Frame::Window(_)) => Ok(step_window(cx)),
        Some(Frame::Roll(r)) => {
            let r = *r;
            step_roll(cx, r)
        }
        Some(Frame::StartOfTurn { who, step }) => {
            let (who, step) = (*who, *step);
            step_start_of_turn(cx, who, step)
        }
        Some(Frame::Prompt(p)) => {
            let p = p.clone();
            Ok(step_prompt(cx, &p))
        }
        None => Ok(Flow::Wait),
    }
}

fn set_top_use(cx: &mut Cx, u: Use) {
    cx.emit(Event::SetTop { frame: Frame::Use(u) });
}

fn next_stage(s: &State, stage: UseStage) -> UseStage {
    let before = s.options.defence_timing == DefenceTiming::BeforeTriggers;
    match stage {
        UseStage::Defences if before => UseStage::Triggers,
        UseStage::Defences => UseStage::Rolls,
        UseStage::Triggers if before => UseStage::Rolls,
        UseStage::Triggers => UseStage::Defences,
        UseStage::Rolls | UseStage::Finish => UseStage::Finish,
    }
}

/// Why the one defence `who` has against `a` is the only one (the log and a later `defend`
/// say so).
fn only_defence(s: &State, who: Cid, a: &Ability) -> OnlyDefence {
    if s.info(who).minion_of.is_some() {
        return OnlyDefence::Minion;
    }
    let slowed = s.ch(who).status(XStatus::Slowed) > 0;
    match a.attack {
        Some(crate::ability::AttackKind::Special) if slowed => OnlyDefence::SlowedSpecial,
        _ if slowed => OnlyDefence::Slowed,
        _ => OnlyDefence::NoOther,
    }
}

fn step_use(cx: &mut Cx) -> R<Flow> {
    let Some(Frame::Use(mut u)) = cx.s.stack.last().cloned() else {
        return Ok(Flow::Go);
    };
    let depth = cx.s.stack.len() - 1;
    let setup = Arc::clone(&cx.s.setup);
    let a = setup.book.get(u.ability);
    let n = u.targets.len();
    // A user who left the fight (a GM ruling) stops its ability.
    if !cx.s.ch(u.user).present() && u.stage != UseStage::Finish {
        u.stage = UseStage::Finish;
        set_top_use(cx, u);
        return Ok(Flow::Go);
    }
    match u.stage {
        UseStage::Defences => {
            // THR-R96: every target of an attack gets to defend: each is asked for its defence
            // in turn (a lone option is taken for it).
            let mut i = u.index as usize;
            while i < n {
                let t = u.targets[i];
                if u.defences[i].is_some() || !cx.s.ch(t).present() {
                    i += 1;
                    continue;
                }
                let options = calc::defences(cx.s, t, a);
                if cx.s.ch(t).incapacitated && !cx.s.options.incapacitated_may_defend {
                    cx.emit(Event::DefenceChosen {
                        who: t,
                        defence: Defence::Decline,
                        only: Some(OnlyDefence::Incapacitated),
                    });
                    i += 1;
                    continue;
                }
                if options.len() == 1 {
                    let why = only_defence(cx.s, t, a);
                    cx.emit(Event::DefenceChosen {
                        who: t,
                        defence: options[0],
                        only: Some(why),
                    });
                    i += 1;
                    continue;
                }
                if i != u.index as usize {
                    let mut v = match cx.s.stack.last() {
                        Some(Frame::Use(v)) => v.clone(),
                        _ => u.clone(),
                    };
                    v.index = i as u8;
                    set_top_use(cx, v);
                }
                return Ok(Flow::Wait);
            }
            let mut v = match cx.s.stack.last() {
                Some(Frame::Use(v)) => v.clone(),
                _ => u,
            };
            v.stage = next_stage(cx.s, UseStage::Defences);
            v.index = 0;
            set_top_use(cx, v);
            Ok(Flow::Go)
        }
        UseStage::Triggers => {
            let i = u.index as usize;
            if i >= n {
                u.stage = next_stage(cx.s, UseStage::Triggers);
                u.index = 0;
                set_top_use(cx, u);
                return Ok(Flow::Go);
            }
            let t = u.targets[i];
            u.index += 1;
            let mut skipped = Vec::new();
            let candidates = trigger_candidates(cx.s, &u, a, t, &mut skipped);
            set_top_use(cx, u);
            // Triggers whose condition held but that are not offered are logged with the reason.
            for (h, id, why) in skipped {
                cx.emit(Event::NotOffered {
                    who: h,
                    ability: id,
                    about: t,
                    why,
                });
            }
            let deep = cx.s.stack.len() >= cx.s.options.trigger_depth_limit as usize;
            if deep {
                // THR-R146: the loop guard.
                for &(h, id) in &candidates {
                    cx.emit(Event::NotOffered {
                        who: h,
                        ability: id,
                        about: t,
                        why: NotOfferedWhy::DepthLimit,
                    });
                }
            }
            if !candidates.is_empty() && !deep {
                cx.emit(Event::Push {
                    frame: Frame::Window(WindowFrame {
                        use_frame: depth as u8,
                        target_index: i as u8,
                        candidates,
                        asked: 0,
                    }),
                });
            }
            Ok(Flow::Go)
        }
        UseStage::Rolls => {
            let i = u.index as usize;
            if i >= n {
                u.stage = UseStage::Finish;
                u.index = 0;
                u.post = false;
                set_top_use(cx, u);
                return Ok(Flow::Go);
            }
            if !u.post {
                // Roll this target and apply its lines; anything those lines start (a move, a
                // roll) resolves before the after-effects.
                u.post = true;
                set_top_use(cx, u);
                resolve_target(cx, depth, i)?;
            } else {
                u.post = false;
                u.index += 1;
                set_top_use(cx, u);
                post_target(cx, depth, i)?;
            }
            Ok(Flow::Go)
        }
        UseStage::Finish => {
            if !u.post {
                u.post = true;
                set_top_use(cx, u.clone());
                finish_use(cx, &u)?;
            } else {
                cx.emit(Event::Pop);
                after_use(cx, &u)?;
            }
            Ok(Flow::Go)
        }
    }
}

/// The triggered abilities that may answer `u` aiming at `t`, in turn order (THR-R145).
/// Those whose trigger condition holds but that are not offered go to `skipped`, with why.
fn trigger_candidates(
    s: &State,
    u: &Use,
    a: &Ability,
    t: Cid,
    skipped: &mut Vec<(Cid, crate::ability::AbilityId, NotOfferedWhy)>,
) -> Vec<(Cid, crate::ability::AbilityId)> {
    let mut out = Vec::new();
    if !calc::rolls(s, a) {
        return out;
    }
    let user = u.user;
    let mut holders: Vec<Cid> = s.ids().filter(|&h| s.ch(h).able() && s.ch(h).pos.is_some()).collect();
    // THR-R150: holders are asked in turn order, so Protect from the ally at Initiative 14
    // comes before the one at 9, both before the rolls, and their Boons add up.
    holders.sort_by_key(|&h| s.order.position(h).unwrap_or(usize::MAX));
    for h in holders {
        for id in triggered_abilities(s, h) {
            let ab = s.setup.book.get(id);
            let Some(tr) = &ab.trigger else { continue };
            let range = tr_range(s, h, ab);
            let near = |x: Cid| calc::dist_between(s, h, x).is_some_and(|d| d <= range);
            // THR-R199 (Assist): a friend aims at a foe within the holder's range.
            // THR-R200 (Protect): a foe aims at a friend within the holder's range.
            let ok = match tr.on {
                TriggerOn::AllyAimsAtFoe => h != user && s.allies(h, user) && s.enemies(h, t) && near(t),
                TriggerOn::FoeAimsAtAlly => s.allies(h, t) && s.enemies(h, user) && near(t),
                TriggerOn::EnemyAttacksSelf => h == t && s.enemies(h, user) && near(user),
                TriggerOn::AllyAttacked => s.allies(h, t) && near(t),
                TriggerOn::StartOfTurn { .. } => false,
            };
            if !ok {
                continue;
            }
            if a.ignores_enemy_triggers && s.enemies(h, user) {
                skipped.push((h, id, NotOfferedWhy::IgnoresEnemyTriggers)); // THR-R149
                continue;
            }
            // A trigger that only moves its holder does nothing for an Immobilized one
            // (THR-R215), so it is not offered.
            if !tr.reaction.is_empty()
                && tr.reaction.iter().all(|r| matches!(r, Reaction::MoveToward(_)))
                && calc::has(s, h, Cond::Immobilized)
            {
                skipped.push((h, id, NotOfferedWhy::Immobilized));
                continue;
            }
            // A holder moves in answer to one ability use once, however many of its allies
            // that use attacks (`triggered-moves`).
            if s.options.triggered_moves == TriggeredMoves::OncePerUse
                && u.moved & (1u64 << h) != 0
                && tr.reaction.iter().any(|r| matches!(r, Reaction::MoveToward(_)))
            {
                skipped.push((h, id, NotOfferedWhy::AlreadyMoved));
                continue;
            }
            out.push((h, id));
        }
    }
    out
}

fn tr_range(s: &State, h: Cid, ab: &Ability) -> i16 {
    match &ab.trigger_range {
        Some(r) => eval(s, h, r),
        None => calc::range_of(s, h, ab).unwrap_or(0),
    }
}

/// The holder's abilities that have a trigger and are in force (its Stance, its Passives).
// THR-R39: outside its own turn a character acts only by defending or through these: its
// current Stance's Triggered Effect (and, THR-R40, its Passives with a Trigger).
fn triggered_abilities(s: &State, h: Cid) -> impl Iterator<Item = crate::ability::AbilityId> + '_ {
    let stance = s.ch(h).stance;
    let passives = s
        .info(h)
        .abilities
        .iter()
        .copied()
        .filter(move |id| s.setup.book.get(*id).kind == Kind::Passive);
    stance
        .into_iter()
        .chain(passives)
        .filter(move |id| s.setup.book.get(*id).trigger.is_some())
}

fn step_window(cx: &mut Cx) -> Flow {
    let Some(Frame::Window(mut w)) = cx.s.stack.last().cloned() else {
        return Flow::Go;
    };
    while let Some(&(h, id)) = w.candidates.get(w.asked as usize) {
        let still = cx.s.ch(h).able()
            && (cx.s.setup.book.get(id).kind == Kind::Passive || cx.s.ch(h).stance == Some(id))
            && cx
                .s
                .use_at(w.use_frame as usize)
                .is_some_and(|u| cx.s.ch(u.targets[w.target_index as usize]).present());
        if still {
            return Flow::Wait;
        }
        w.asked += 1;
        cx.emit(Event::SetTop {
            frame: Frame::Window(w.clone()),
        });
    }
    cx.emit(Event::Pop);
    Flow::Go
}

fn use_trigger(cx: &mut Cx, id: crate::ability::AbilityId) -> R {
    let Some(Frame::Window(mut w)) = cx.s.stack.last().cloned() else {
        return Ok(());
    };
    let at = w.asked as usize;
    let Some(&(holder, _)) = w.candidates.get(at) else {
        return Ok(());
    };
    // The controller picks which of its triggers goes first (THR-R148).
    if let Some(j) = w.candidates[at..].iter().position(|c| *c == (holder, id)) {
        w.candidates.swap(at, at + j);
        cx.emit(Event::SetTop {
            frame: Frame::Window(w.clone()),
        });
    }
    let Some(Frame::Use(mut u)) = cx.s.stack.get(w.use_frame as usize).cloned() else {
        return Ok(());
    };
    let ti = w.target_index as usize;
    let about = u.targets[ti];
    cx.emit(Event::TriggerUsed {
        who: holder,
        ability: id,
        about,
    });
    let setup = Arc::clone(&cx.s.setup);
    let ab = setup.book.get(id);
    let Some(tr) = &ab.trigger else { return Ok(()) };
    let mut moves = Vec::new();
    let mut lines = Vec::new();
    for r in &tr.reaction {
        match r {
            // Assist's Bane on the foe's defence (THR-R199), Protect's Boon on the friend's
            // (THR-R200); using either ends the Stance (`EndsStance::Always` below).
            Reaction::DefenceBanes(n) => u.mods[ti].defence_boons -= n,
            Reaction::DefenceBoons(n) => u.mods[ti].defence_boons += n,
            Reaction::DefenceBonus(a) => u.mods[ti].defence_flat += eval(cx.s, holder, a),
            Reaction::MoveToward(a) => moves.push(eval(cx.s, holder, a)),
            Reaction::Lines(l) => lines.extend(l.iter().cloned()),
        }
    }
    if let Some(f) = tr.on_defence_critical {
        u.mods[ti].on_defence_critical = Some((holder, f));
    }
    if !moves.is_empty() {
        u.moved |= 1u64 << holder;
    }
    match tr.ends_stance {
        EndsStance::Always => {
            if cx.s.ch(holder).stance == Some(id) {
                cx.emit(Event::StanceEnded {
                    who: holder,
                    ability: id,
                });
            }
        }
        EndsStance::UnlessDefenceCritical => u.mods[ti].ends_unless_critical = Some(holder),
        EndsStance::Never => {}
    }
    cx.emit(Event::SetFrame {
        index: w.use_frame,
        frame: Frame::Use(u),
    });
    if !lines.is_empty() {
        let su = synthetic_use(cx, holder, id);
        for l in &lines {
            apply_line(cx, usize::MAX, &su, l, holder)?;
        }
    }
    for n in moves {
        // The holder chooses where to move, toward the attacked ally (Interpose); an
        // Immobilized holder cannot move of its own accord (THR-R215).
        if n > 0 && cx.s.ch(holder).able() && !calc::has(cx.s, holder, Cond::Immobilized) {
            cx.emit(Event::Push {
                frame: Frame::Prompt(Prompt::Move {
                    who: holder,
                    budget: n,
                    toward: Some(about),
                }),
            });
        }
    }
    Ok(())
}

fn pass_trigger(cx: &mut Cx) {
    let Some(Frame::Window(w)) = cx.s.stack.last().cloned() else {
        return;
    };
    let Some(&(holder, id)) = w.candidates.get(w.asked as usize) else {
        return;
    };
    cx.emit(Event::TriggerPassed {
        who: holder,
        ability: id,
    });
    if cx.s.options.controller_orders_own_triggers {
        // Passing declines every remaining trigger of this holder in the window.
        let Some(Frame::Window(mut w)) = cx.s.stack.last().cloned() else {
            return;
        };
        let keep: Vec<_> = w
            .candidates
            .iter()
            .enumerate()
            .filter(|(i, c)| *i < w.asked as usize || c.0 != holder)
            .map(|(_, c)| *c)
            .collect();
        if keep.len() != w.candidates.len() {
            w.candidates = keep;
            cx.emit(Event::SetTop {
                frame: Frame::Window(w),
            });
        }
    }
}

/// Rolls one target of an ability and applies its result lines.
fn resolve_target(cx: &mut Cx, depth: usize, i: usize) -> R {
    let Some(u) = cx.s.use_at(depth).cloned() else {
        return Ok(());
    };
    let t = u.targets[i];
    let user = u.user;
    if !cx.s.ch(t).present() || cx.s.ch(t).pos.is_none() {
        return Ok(());
    }
    // An Area, Line or Aura affects the characters inside it (THR-R85): a target that has
    // left the shape since the declaration (by Interpose, say) is spared (`area-leavers`).
    if !u.shape.is_empty()
        && cx.s.options.area_leavers == AreaLeavers::Spared
        && cx.s.ch(t).pos.is_some_and(|p| !u.shape.contains(&p))
    {
        cx.emit(Event::LeftArea { who: t });
        return Ok(());
    }
    let setup = Arc::clone(&cx.s.setup);
    let a = setup.book.get(u.ability);
    if !calc::rolls(cx.s, a) {
        apply_lines(cx, depth, &u, a, t, None)?;
        if a.buff_spec.is_some() {
            apply_buff(cx, &u, t);
        }
        return Ok(());
    }
    let d = u.defences[i].unwrap_or(Defence::Decline);
    let mods = u.mods[i];
    let (margin, def_margin) = calc::margins(cx.s, user, a);
    let (uname, tname) = (cx.s.name(user).to_string(), cx.s.name(t).to_string());
    let attack_parts = |s: &State| -> (i16, i16) {
        let tally = calc::attack_tally(s, user, a, t);
        (tally.net(s), calc::attack_modifier(s, user, a))
    };
    let (attack, defence, verdict) = if d == Defence::Decline {
        match cx.s.options.declined_defence {
            DeclinedDefence::AutoSuccess => (None, None, Verdict::AttackerSuccess),
            DeclinedDefence::DefenceZero => {
                let (net, m) = attack_parts(cx.s);
                let r = roll2d6(cx, net, m, &format_args!("{uname}'s attack on {tname}"))?;
                let v = verdict_of(r.total, 0, margin, def_margin);
                (Some(r), None, v)
            }
        }
    } else {
        let mut dt = calc::defence_tally(cx.s, t, d);
        dt.add(mods.defence_boons);
        let dm = calc::defence_modifier(cx.s, t, d, user) + mods.defence_flat;
        loop {
            let r = match (cx.s.options.multi_target, shared_attack(cx, depth)) {
                (MultiTarget::Shared, Some(r)) => r,
                _ => {
                    let (net, m) = attack_parts(cx.s);
                    let r = roll2d6(cx, net, m, &format_args!("{uname}'s attack on {tname}"))?;
                    if cx.s.options.multi_target == MultiTarget::Shared {
                        remember_shared(cx, depth, r);
                    }
                    r
                }
            };
            let dnet = dt.net(cx.s);
            let dr = roll2d6(cx, dnet, dm, &format_args!("{tname}'s {} roll", d.name()))?;
            if r.total == dr.total && cx.s.options.tie_rule == TieRule::Reroll {
                cx.emit(Event::Contest {
                    user,
                    target: t,
                    ability: u.ability,
                    attack: Some(r),
                    defence: Some(dr),
                    with: d,
                    verdict: Verdict::DefenderSuccess,
                });
                // Reroll: a shared roll is rolled again too.
                forget_shared(cx, depth);
                continue;
            }
            let v = verdict_of(r.total, dr.total, margin, def_margin);
            break (Some(r), Some(dr), v);
        }
    };
    cx.emit(Event::Contest {
        user,
        target: t,
        ability: u.ability,
        attack,
        defence,
        with: d,
        verdict,
    });
    if let Some(mut v) = cx.s.use_at(depth).cloned() {
        v.verdicts[i] = Some(verdict);
        cx.emit(Event::SetFrame {
            index: depth as u8,
            frame: Frame::Use(v),
        });
    }
    nova_on_contest(cx, user, t, verdict, attack);
    // Evasion short of a Critical, a tie included, leaves the defender +1 Vulnerable (THR-R112).
    let evasion_mark = d == Defence::Evasion && verdict != Verdict::DefenderCritical;
    if evasion_mark && !cx.s.options.vulnerable_after_lines {
        add_vulnerable(cx, t);
    }
    apply_lines(cx, depth, &u, a, t, Some(verdict))?;
    Ok(())
}

/// After one target's lines: Vulnerable from Evasion, stances that end unless the defence was
/// a Critical, the Finisher check, a Buff's creator deciding whether to keep it, and follow-ups
/// armed for a Critical defence. Later items are pushed first so they resolve last.
fn post_target(cx: &mut Cx, depth: usize, i: usize) -> R {
    let Some(u) = cx.s.use_at(depth).cloned() else {
        return Ok(());
    };
    let (t, user) = (u.targets[i], u.user);
    let Some(verdict) = u.verdicts[i] else { return Ok(()) };
    let setup = Arc::clone(&cx.s.setup);
    let a = setup.book.get(u.ability);
    let d = u.defences[i].unwrap_or(Defence::Decline);
    let mods = u.mods[i];
    if d == Defence::Evasion && verdict != Verdict::DefenderCritical && cx.s.options.vulnerable_after_lines {
        add_vulnerable(cx, t); // THR-R104, THR-R227
    }
    // Stances that stay up only on a Critical defence (THR-R109).
    if let Some(h) = mods.ends_unless_critical
        && verdict != Verdict::DefenderCritical
        && let Some(st) = cx.s.ch(h).stance
    {
        cx.emit(Event::StanceEnded { who: h, ability: st });
    }
    // A follow-up armed for a Critical defence (Parry and Riposte) resolves last.
    if verdict == Verdict::DefenderCritical
        && let Some((h, f)) = mods.on_defence_critical
        && cx.s.ch(h).able()
        && cx.s.ch(user).present()
        && cx.s.stack.len() < cx.s.options.trigger_depth_limit as usize
    {
        cx.emit(Event::Declared {
            user: h,
            ability: f,
            target: crate::command::Target::Chars(vec![user]),
            overexert: None,
        });
        start_use(cx, h, f, vec![user], None, Vec::new(), Pick::default(), None, false);
    }
    // A used-up Buff: its creator decides whether to keep it.
    if mods.buff_used {
        buff_keep_prompt(cx, t);
    }
    // Finisher (THR-R117, THR-R118): first of all.
    if a.finisher
        && (verdict.hit() || cx.s.options.finisher_on_miss)
        && cx.s.ch(t).exhausted()
        && !cx.s.ch(t).incapacitated
    {
        fixed_roll(cx, t, FixedKind::Incapacity);
    }
    Ok(())
}

fn shared_attack(cx: &Cx, depth: usize) -> Option<Rolled> {
    cx.s.use_at(depth).and_then(|u| u.shared_attack)
}

fn remember_shared(cx: &mut Cx, depth: usize, r: Rolled) {
    if let Some(mut u) = cx.s.use_at(depth).cloned() {
        u.shared_attack = Some(r);
        cx.emit(Event::SetFrame {
            index: depth as u8,
            frame: Frame::Use(u),
        });
    }
}

fn forget_shared(cx: &mut Cx, depth: usize) {
    if let Some(mut u) = cx.s.use_at(depth).cloned()
        && u.shared_attack.is_some()
    {
        u.shared_attack = None;
        cx.emit(Event::SetFrame {
            index: depth as u8,
            frame: Frame::Use(u),
        });
    }
}

/// The verdict of a contest (THR core: ties to the defender, Critical at the margin; the
/// attacker's and the defender's margins may differ, see [`calc::margins`]).
pub fn verdict_of(attack: i16, defence: i16, margin: i16, defence_margin: i16) -> Verdict {
    // THR-R106: the Success line needs the attack total to beat the defence total; an equal
    // total is a plain defender Success (THR-R112).
    let d = attack - defence;
    if d >= margin {
        Verdict::AttackerCritical
    } else if d > 0 {
        Verdict::AttackerSuccess
    } else if -d >= defence_margin {
        Verdict::DefenderCritical
    } else {
        Verdict::DefenderSuccess
    }
}

fn add_vulnerable(cx: &mut Cx, t: Cid) {
    let x = cx.s.ch(t).status(XStatus::Vulnerable).saturating_add(1);
    cx.emit(Event::Status {
        who: t,
        status: XStatus::Vulnerable,
        x,
    });
}

/// Applies the Effect, Success and Critical lines for one target (THR-R105 to THR-R108,
/// THR-R225). `verdict` is `None` for abilities that make no contest.
fn apply_lines(cx: &mut Cx, depth: usize, u: &Use, a: &Ability, t: Cid, verdict: Option<Verdict>) -> R {
    let over = u.overexert.and_then(|i| a.overexert.get(i as usize)).cloned();
    // Abilities without an Attack tag apply their lines directly (THR-R225).
    let direct = cx.s.options.non_attack_lines == crate::options::NonAttackLines::EffectAndSuccess;
    let hit = verdict.map_or(direct, |v| v.hit());
    let crit = verdict.is_some()
        && (verdict == Some(Verdict::AttackerCritical)
            || hit && over.as_ref().is_some_and(|o| o.successes_are_criticals));
    if hit || verdict.is_none() || cx.s.options.effect_on_miss {
        for l in &a.effect {
            apply_line(cx, depth, u, l, t)?;
        }
    }
    // THR-R107: a Critical applies the Success line and then the Critical line, unless the
    // Critical line says "instead" (`critical_replaces`). THR-R110: Sock 'Em at 12 against 7
    // gets its Effect, 2 Fatigue and the Critical's +1 and Stunned; at 7 against 12 only the
    // Effect.
    if hit {
        if !(crit && a.critical_replaces) {
            for l in &a.success {
                apply_line(cx, depth, u, l, t)?;
            }
        }
        if let Some(o) = &over {
            for l in &o.extra {
                apply_line(cx, depth, u, l, t)?;
            }
        }
        if crit {
            let times = if over.as_ref().is_some_and(|o| o.double_critical) {
                2
            } else {
                1
            };
            for _ in 0..times {
                for l in &a.critical {
                    apply_line(cx, depth, u, l, t)?;
                }
            }
        }
    }
    Ok(())
}

fn apply_line(cx: &mut Cx, depth: usize, u: &Use, l: &Line, t: Cid) -> R {
    let user = u.user;
    if cx.s.info(user).stats.tier < l.min_tier as i16 {
        return Ok(());
    }
    let r = match l.to {
        Recipient::Target => t,
        Recipient::User => user,
    };
    if !cx.s.ch(r).present() {
        return Ok(());
    }
    // A Minion ignores every status and condition (THR-R222).
    if is_minion(cx.s, r)
        && matches!(
            l.op,
            Op::Status(..) | Op::Condition(_) | Op::Mark(_) | Op::Scouted(_) | Op::TurnBanes(_)
        )
    {
        return Ok(());
    }
    match &l.op {
        Op::Fatigue(a) => {
            let n = eval(cx.s, user, a);
            damage(cx, depth, u, r, Gauge::Fatigue, n);
        }
        Op::Stress(a) => {
            let n = eval(cx.s, user, a);
            damage(cx, depth, u, r, Gauge::Stress, n);
        }
        // Recover's "reduce Fatigue Load by 1" and "reduce Stress Load by 1" (THR-R191).
        Op::ReduceFatigue(a) | Op::ReduceStress(a) => {
            let g = if matches!(l.op, Op::ReduceFatigue(_)) {
                Gauge::Fatigue
            } else {
                Gauge::Stress
            };
            let n = eval(cx.s, user, a);
            let old = gauge(cx.s.ch(r), g);
            let v = if cx.s.options.clamp_at_zero {
                (old - n).max(0)
            } else {
                old - n
            };
            if v != old {
                cx.emit(Event::Set {
                    who: r,
                    gauge: g,
                    value: v,
                });
            }
            if g == Gauge::Fatigue && v <= 0 && cx.s.ch(r).incapacitated {
                cx.emit(Event::Revived { who: r }); // THR-R177
            }
        }
        Op::Status(x, a) => {
            let n = eval(cx.s, user, a).clamp(0, 255) as u8;
            if n > 0 {
                let v = cx.s.ch(r).status(*x).saturating_add(n);
                cx.emit(Event::Status {
                    who: r,
                    status: *x,
                    x: v,
                });
            }
        }
        Op::Condition(c) => add_condition(cx, r, *c, u.id),
        Op::Mark(a) | Op::Scouted(a) => {
            let g = if matches!(l.op, Op::Mark(_)) {
                Gauge::Mark
            } else {
                Gauge::Scouted
            };
            let n = eval(cx.s, user, a);
            let v = if cx.s.options.mark_adds {
                gauge(cx.s.ch(r), g) + n
            } else {
                n
            };
            cx.emit(Event::Set {
                who: r,
                gauge: g,
                value: v.clamp(0, 255),
            });
        }
        Op::Choose(choices) => {
            if let Some(c) = u.pick.option.and_then(|i| choices.get(i as usize)) {
                for l in &c.ops {
                    apply_line(cx, depth, u, l, t)?;
                }
            }
        }
        Op::Shift(a) => {
            let n = eval(cx.s, user, a);
            if let Some(d) = u.pick.dir {
                forced_move(cx, r, n, |_, p| Some(p.step(d)))?;
            }
        }
        Op::Push(a) | Op::Pull(a) => {
            let n = eval(cx.s, user, a);
            let push = matches!(l.op, Op::Push(_));
            let Some(src) = cx.s.ch(user).pos else { return Ok(()) };
            forced_move(cx, r, n, move |_, p| {
                let (dx, dy) = if push {
                    ((p.x - src.x).signum(), (p.y - src.y).signum())
                } else {
                    ((src.x - p.x).signum(), (src.y - p.y).signum())
                };
                if (dx, dy) == (0, 0) {
                    return None;
                }
                let next = Pos::new(p.x + dx, p.y + dy);
                (next != src).then_some(next)
            })?;
        }
        Op::Dash => {}
        // Recover's "end one Status", the one picked (THR-R191).
        Op::EndStatus => {
            if let Some(st) = u.pick.status {
                clear_status(cx, r, st);
            }
        }
        Op::Resuscitate => {
            // THR-R178, THR-R192: Incapacitated ends, both Loads halved (rounding down), negative statuses
            // cleared.
            if cx.s.ch(r).incapacitated {
                cx.emit(Event::Revived { who: r });
            }
            let (f, st) = (cx.s.ch(r).fatigue, cx.s.ch(r).stress);
            cx.emit(Event::Set {
                who: r,
                gauge: Gauge::Fatigue,
                value: f.div_euclid(2),
            });
            cx.emit(Event::Set {
                who: r,
                gauge: Gauge::Stress,
                value: st.div_euclid(2),
            });
            for st in check::negative_statuses(cx.s, r) {
                clear_status(cx, r, st);
            }
        }
        // THR-R179: an ability line that ends Incapacitated ends it, through the same event
        // as every other way out of Incapacity (THR-R177, THR-R178), and does nothing else.
        Op::EndIncapacitated => {
            if cx.s.ch(r).incapacitated {
                cx.emit(Event::Revived { who: r });
            }
        }
        // THR-R180 [W]: an ability that says so raises (or, negative, lowers) a Tolerance. A
        // Tolerance never goes below the floor (THR-R162); Exhausted, Frayed, the Wound check
        // and the End of Combat bar read the new value as they read any other (THR-R155,
        // THR-R164, THR-R174, THR-R186).
        Op::FatigueTolerance(a) | Op::StressTolerance(a) => {
            let g = if matches!(l.op, Op::FatigueTolerance(_)) {
                Gauge::FatigueTolerance
            } else {
                Gauge::StressTolerance
            };
            let old = gauge(cx.s.ch(r), g);
            let v = old
                .saturating_add(eval(cx.s, user, a))
                .max(cx.s.options.tolerance_floor);
            if v != old {
                cx.emit(Event::Set {
                    who: r,
                    gauge: g,
                    value: v,
                });
            }
        }
        Op::Remove => {
            remove(cx, r, Removal::CoupDeGrace);
        }
        Op::IncapacityRoll => fixed_roll(cx, r, FixedKind::Incapacity),
        Op::Follow(a) => {
            let budget = eval(cx.s, user, a);
            // A follow-up move is the recipient's own movement: not while Immobilized (THR-R215).
            if budget > 0 && cx.s.ch(r).able() && !calc::has(cx.s, r, Cond::Immobilized) {
                cx.emit(Event::Push {
                    frame: Frame::Prompt(Prompt::Move {
                        who: r,
                        budget,
                        toward: None,
                    }),
                });
            }
        }
        Op::Initiative(a) => {
            let delta = eval(cx.s, user, a);
            if delta != 0 {
                let resort = cx.s.options.initiative_change == InitiativeChange::ResortNextRound;
                cx.emit(Event::InitiativeChanged { who: r, delta, resort });
            }
        }
        Op::TurnBanes(a) => {
            let n = eval(cx.s, user, a);
            if cx.s.turn.who == r && n != 0 {
                let banes = cx.s.turn.banes + n;
                cx.emit(Event::TurnBanes { who: r, banes });
            }
        }
        Op::PositionMinion => {
            if let Some(at) = u.square {
                position_minion(cx, user, at);
            }
        }
        Op::Teleport { uses_movement } => {
            let (Some(from), Some(to)) = (cx.s.ch(user).pos, u.square) else {
                return Ok(());
            };
            let cost = if *uses_movement {
                check::teleport_cost(cx.s, from, to)
            } else {
                0
            };
            // With teleport-needs-empty off, an ally on the destination swaps places.
            if let Some(o) = cx.s.occupant(to)
                && o != user
            {
                cx.emit(Event::Relocated { who: o, to: from });
            }
            cx.emit(Event::Teleported {
                who: user,
                from,
                to,
                cost,
            });
            entered(cx, user, to)?;
        }
    }
    Ok(())
}

fn clear_status(cx: &mut Cx, who: Cid, st: StatusRef) {
    match st {
        StatusRef::X(x) if cx.s.ch(who).status(x) > 0 => cx.emit(Event::Status { who, status: x, x: 0 }),
        StatusRef::Cond(c) if cx.s.ch(who).has(c) => cx.emit(Event::Condition {
            who,
            cond: c,
            on: false,
            by_use: 0,
        }),
        _ => {}
    }
}

/// Sets a condition (Dazed remembers which use applied it, THR-R214).
pub fn add_condition(cx: &mut Cx, who: Cid, c: Cond, by_use: u32) {
    if c == Cond::Dazed && cx.s.options.dazed == DazedMode::Status {
        let x = cx.s.ch(who).dazed_x.saturating_add(1);
        cx.emit(Event::DazedX { who, x });
    }
    // THR-R214, THR-H2: Dazed is a flag; re-applying it keeps the first applier unless the
    // `dazed-reapply` option makes the new use the applier.
    let renew = c == Cond::Dazed && cx.s.options.dazed_reapply == DazedReapply::RenewsApplier;
    if !cx.s.ch(who).has(c) || renew {
        cx.emit(Event::Condition {
            who,
            cond: c,
            on: true,
            by_use,
        });
    }
}

/// Damage from an ability line: a Buff used on the defence takes some off (THR-R139), and a
/// Minion vanishes instead of taking it (THR-R222, THR-H29).
fn damage(cx: &mut Cx, depth: usize, u: &Use, r: Cid, g: Gauge, amount: i16) {
    let mut n = amount;
    let i = u.index as usize;
    if depth != usize::MAX
        && u.targets.get(i) == Some(&r)
        && let Some(mut v) = cx.s.use_at(depth).cloned()
        && v.mods[i].reduce > 0
        && n > 0
    {
        let take = v.mods[i].reduce.min(n);
        n -= take;
        v.mods[i].reduce -= take;
        cx.emit(Event::SetFrame {
            index: depth as u8,
            frame: Frame::Use(v),
        });
    }
    if cx.s.info(r).minion_of.is_some() {
        if n > 0 || (amount > 0 && cx.s.options.minion_vanishes_at_zero) {
            remove(cx, r, Removal::Vanished);
        }
        return;
    }
    deal(cx, r, g, n, Some(u.user), u.id);
}

/// Deals Fatigue or Stress, the only damage there is: no hit points (THR-R152, THR-R153,
/// THR-R209, THR-R214).
pub fn deal(cx: &mut Cx, who: Cid, g: Gauge, amount: i16, source: Option<Cid>, use_id: u32) {
    if amount <= 0 || !cx.s.ch(who).present() {
        return;
    }
    let vul = cx.s.ch(who).status(XStatus::Vulnerable) as i16;
    cx.emit(Event::Damage {
        who,
        gauge: g,
        amount: amount + vul,
        vulnerable: vul,
    });
    if vul > 0 {
        cx.emit(Event::Status {
            who,
            status: XStatus::Vulnerable,
            x: 0,
        });
    }
    if cx.s.ch(who).has(Cond::Dazed)
        && source.is_some_and(|src| cx.s.enemies(src, who))
        && (cx.s.ch(who).dazed_by != use_id || !cx.s.options.dazed_survives_own_use)
    {
        cx.emit(Event::Condition {
            who,
            cond: Cond::Dazed,
            on: false,
            by_use: 0,
        });
    }
}

/// Becoming Incapacitated (THR-R169, THR-R172, THR-R177).
pub fn incapacitate(cx: &mut Cx, who: Cid) {
    cx.emit(Event::Incapacitated { who });
    if let Some(st) = cx.s.ch(who).stance {
        cx.emit(Event::StanceEnded { who, ability: st });
    }
    let c = cx.s.ch(who);
    let (ft, fl) = ((c.ft - 1).max(cx.s.options.tolerance_floor), (c.fatigue - 1).max(0));
    cx.emit(Event::Set {
        who,
        gauge: Gauge::FatigueTolerance,
        value: ft,
    });
    cx.emit(Event::Set {
        who,
        gauge: Gauge::Fatigue,
        value: fl,
    });
    if fl == 0 {
        cx.emit(Event::Revived { who });
    }
    // THR-R143 option: Buffs and Terrain Effects end when their creator is Incapacitated.
    if cx.s.options.creator_gone == crate::options::CreatorGone::Incapacitated {
        creator_gone(cx, who);
    }
    for o in cx.s.ids().collect::<Vec<_>>() {
        if cx.s.enemies(o, who) && !is_minion(cx.s, o) {
            nova_earn(cx, o, NovaEarn::EnemyIncapacitated);
        }
    }
}

/// The end of an ability, first part: Burning ends on Recover, Hamstrung Dazes an attacker,
/// a Terrain Effect is placed, and an Exhausted user rolls for Incapacity after its Action.
fn finish_use(cx: &mut Cx, u: &Use) -> R {
    let setup = Arc::clone(&cx.s.setup);
    let a = setup.book.get(u.ability);
    let user = u.user;
    if a.recover && cx.s.ch(user).status(XStatus::Burning) > 0 {
        cx.emit(Event::Status {
            who: user,
            status: XStatus::Burning,
            x: 0,
        }); // THR-R205
    }
    if a.is_attack() && cx.s.options.hamstrung_after_attack && cx.s.ch(user).status(XStatus::Hamstrung) > 0 {
        add_condition(cx, user, Cond::Dazed, u.id); // THR-R206
    }
    // A Hidden user that aimed at a foe is seen now: the ability itself was still used from
    // hiding (so Unseen Aim's Boon applies to it) (THR-R219).
    if cx.s.options.draft_hidden && cx.s.ch(user).has(Cond::Hidden) && u.targets.iter().any(|&t| cx.s.enemies(user, t))
    {
        cx.emit(Event::Condition {
            who: user,
            cond: Cond::Hidden,
            on: false,
            by_use: 0,
        });
    }
    if a.terrain.is_some() && cx.s.ch(user).present() {
        place_terrain(cx, u, a);
    }
    // Exhaustion is judged after the Action's lines: Recover taking Load 4 back to Tolerance 3
    // leaves the user not Exhausted, so no roll (THR-R201).
    if u.is_action
        && cx.s.ch(user).able()
        && cx.s.ch(user).exhausted()
        && (cx.s.options.incapacity_after_any_action || a.is_attack())
    {
        fixed_roll(cx, user, FixedKind::Incapacity); // THR-R166
    }
    Ok(())
}

/// The end of an ability, second part: the stop check and the turn's next step.
fn after_use(cx: &mut Cx, u: &Use) -> R {
    let dash =
        cx.s.setup
            .book
            .get(u.ability)
            .effect
            .iter()
            .any(|l| matches!(l.op, Op::Dash));
    let user = u.user;
    if cx.s.options.stop_check == StopCheck::AfterAbilityAndTurn {
        stop_check(cx);
    }
    if u.is_action && cx.s.turn.who == user && cx.s.outcome.is_none() && cx.s.stack.is_empty() {
        // THR-R37: after the Action no more movement (the Stance step comes next), unless the
        // Action grants it: Dash opens a fresh allowance up to Speed (THR-R190; `ActionMove`
        // resets the movement spent).
        let step = if dash && cx.s.ch(user).able() {
            Step::ActionMove
        } else {
            Step::Stance
        };
        cx.emit(Event::StepChanged { step });
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Stop conditions and End of Combat
// ---------------------------------------------------------------------------------------------

fn down(s: &State, c: Cid) -> bool {
    let ch = s.ch(c);
    ch.removed || ch.incapacitated
}

fn pc_side(s: &State) -> Option<u8> {
    s.setup.sides.iter().position(|x| x.pc).map(|i| i as u8)
}

fn npc_side(s: &State) -> Option<u8> {
    s.setup.sides.iter().position(|x| !x.pc).map(|i| i as u8)
}

/// Checks the stop conditions (THR-R4 to THR-R7, THR-H18, THR-H28) and ends the combat if one
/// holds.
pub fn stop_check(cx: &mut Cx) {
    if cx.s.outcome.is_some() {
        return;
    }
    let s = &*cx.s;
    // Minions do not count unless the option says so (THR-H18).
    let counts = |c: Cid| s.options.minions_count || !is_minion(s, c);
    let pcs_down = s.ids().filter(|&c| s.is_pc(c) && counts(c)).all(|c| down(s, c));
    let npcs_down = s.ids().filter(|&c| !s.is_pc(c) && counts(c)).all(|c| down(s, c));
    let result = if pcs_down && npcs_down {
        Some((
            match s.options.both_fall {
                BothFall::PcsLose => npc_side(s),
                BothFall::Draw => None,
            },
            "both-sides-down",
        ))
    } else if pcs_down {
        Some((npc_side(s), "all-pcs-down"))
    } else if npcs_down {
        // THR-R5: every NPC Incapacitated or removed.
        Some((pc_side(s), "all-npcs-down"))
    } else {
        // THR-R6: the encounter's Win and Defeat Conditions (those judged at the end of a
        // round are in `end_of_round_conditions`).
        s.setup.conditions.iter().find_map(|c| {
            let holds = match &c.predicate {
                Predicate::Reach { squares, who } => s
                    .ids()
                    .filter(|&x| who.is_none_or(|w| w == x) && s.is_pc(x) && s.ch(x).able())
                    .any(|x| s.ch(x).pos.is_some_and(|p| squares.contains(&p))),
                Predicate::Down { who } => down(s, *who),
                Predicate::Survive { .. } | Predicate::Hold { .. } => false,
            };
            holds.then(|| {
                if c.win {
                    (pc_side(s), "win-condition")
                } else {
                    (npc_side(s), "defeat-condition")
                }
            })
        })
    };
    if let Some((winner, reason)) = result {
        end_combat(cx, winner, reason);
    }
}

fn end_of_round_conditions(cx: &mut Cx, round: u16) {
    // THR-R6: Win and Defeat Conditions counted in rounds (survive, hold squares).
    let conditions = cx.s.setup.conditions.clone();
    for (i, c) in conditions.iter().enumerate() {
        let holds = match &c.predicate {
            Predicate::Survive { rounds } => round >= *rounds,
            Predicate::Hold { squares, rounds } => {
                let s = &*cx.s;
                let on = s
                    .ids()
                    .any(|x| s.is_pc(x) && s.ch(x).able() && s.ch(x).pos.is_some_and(|p| squares.contains(&p)));
                let mut count = s.holds.get(i).copied().unwrap_or(0);
                if on {
                    count += 1;
                    cx.emit(Event::HoldCounted {
                        condition: i as u8,
                        count,
                    });
                }
                count >= *rounds
            }
            _ => false,
        };
        if holds {
            let (winner, reason) = if c.win {
                (pc_side(cx.s), "win-condition")
            } else {
                (npc_side(cx.s), "defeat-condition")
            };
            end_combat(cx, winner, reason);
            return;
        }
    }
    stop_check(cx);
}

/// Ends the combat and runs End of Combat (THR-R183 to THR-R187).
pub fn end_combat(cx: &mut Cx, winner: Option<u8>, reason: &str) {
    cx.emit(Event::CombatEnded {
        outcome: Outcome {
            winner,
            reason: reason.to_string(),
        },
    });
    for who in cx.s.ids() {
        let c = cx.s.ch(who);
        let pc = cx.s.is_pc(who);
        let zero = c.ft <= 0;
        let removed = c.removed;
        let revive = pc && !(zero && cx.s.options.zero_tolerance_pc == ZeroTolerancePc::StaysIncapacitated);
        cx.emit(Event::Cleared { who, revive });
        if pc && zero && !removed && cx.s.options.zero_tolerance_pc == ZeroTolerancePc::Barred {
            cx.emit(Event::Barred { who });
        }
    }
}

// ---------------------------------------------------------------------------------------------
// GM rulings
// ---------------------------------------------------------------------------------------------

fn ruling(cx: &mut Cx, r: &Ruling) -> R {
    match r {
        Ruling::Adjust { who, gauge: g, by } => {
            let old = gauge(cx.s.ch(*who), *g);
            let v = by.apply(old);
            if *g == Gauge::Initiative {
                let resort = cx.s.options.initiative_change == InitiativeChange::ResortNextRound;
                cx.emit(Event::InitiativeChanged {
                    who: *who,
                    delta: v - old,
                    resort,
                });
            } else {
                cx.emit(Event::Set {
                    who: *who,
                    gauge: *g,
                    value: v,
                });
            }
            if *g == Gauge::Fatigue && v == 0 && cx.s.ch(*who).incapacitated {
                cx.emit(Event::Revived { who: *who });
            }
            if *g == Gauge::Wounds && v >= 3 && !cx.s.ch(*who).removed {
                remove(cx, *who, Removal::Wounds);
            }
        }
        Ruling::Status { who, status, by } => match status {
            StatusRef::X(x) => {
                let v = by.apply(cx.s.ch(*who).status(*x) as i16).clamp(0, 255) as u8;
                cx.emit(Event::Status {
                    who: *who,
                    status: *x,
                    x: v,
                });
            }
            StatusRef::Cond(c) => {
                let on = by.apply(cx.s.ch(*who).has(*c) as i16) > 0;
                if *c == Cond::Dazed && on && cx.s.options.dazed == DazedMode::Status && cx.s.ch(*who).dazed_x == 0 {
                    cx.emit(Event::DazedX { who: *who, x: 1 });
                }
                cx.emit(Event::Condition {
                    who: *who,
                    cond: *c,
                    on,
                    by_use: 0,
                });
            }
        },
        Ruling::Incapacitate { who, on: true } => {
            let load = cx.s.ch(*who).fatigue;
            incapacitate(cx, *who);
            // THR-R172, THR-R177: the drop on becoming Incapacitated took a Load of 0 or 1 to 0,
            // which ends Incapacity at once; tell the GM why and how to keep it down.
            if !cx.s.ch(*who).incapacitated && cx.s.ch(*who).present() {
                cx.emit(Event::RevivedAtOnce { who: *who, load });
            }
        }
        Ruling::Incapacitate { who, on: false } => cx.emit(Event::Revived { who: *who }),
        Ruling::Move { who, to } => cx.emit(Event::Relocated { who: *who, to: *to }),
        Ruling::Add { id, template, side, at } => {
            let Some(t) = cx.s.setup.templates.get(template) else {
                return Ok(());
            };
            let sd = &cx.s.setup.sides[*side as usize];
            let info = CharInfo {
                id: id.clone(),
                name: if t.name.is_empty() {
                    id.clone()
                } else {
                    format!("{} ({id})", t.name)
                },
                side: *side,
                seat: sd.seat,
                start: Some(*at),
                ..t.clone()
            };
            let modifier = info.stats.initiative;
            let who = cx.s.chars.len() as Cid;
            cx.emit(Event::Joined { info: Box::new(info) });
            let name = cx.s.name(who).to_string();
            let roll = roll2d6(cx, 0, modifier, &format_args!("{name}'s Initiative"))?;
            cx.emit(Event::InitiativeRolled { who, roll });
            let this_round = cx.s.options.joiner_turn == JoinerTurn::ThisRoundIfAhead && cx.s.phase == Phase::Rounds;
            cx.emit(Event::OrderJoined {
                who,
                key: roll.total,
                this_round,
            });
        }
        Ruling::Remove { who } => remove(cx, *who, Removal::Gm),
        Ruling::End { winner } => end_combat(cx, *winner, "gm-ended"),
    }
    stop_check(cx);
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Buffs, Terrain Effects, Nova, Minions and prompts (THR-R135 to THR-R143, THR-R222, THR-R226)
// ---------------------------------------------------------------------------------------------

/// The defender uses its Buff on the defence being picked: the creator's bonus on the roll and
/// a reduction of what the attack lets through (THR-R139, Spirit Armor).
fn buff_on_defence(cx: &mut Cx, t: Cid) {
    let Some(b) = cx.s.ch(t).buff else { return };
    let Some(spec) = cx.s.setup.book.get(b.ability).buff_spec.clone() else {
        return;
    };
    let Some(Frame::Use(mut u)) = cx.s.stack.last().cloned() else {
        return;
    };
    let i = u.index as usize;
    let bonus = spec.defence_bonus.as_ref().map_or(0, |x| eval(cx.s, b.creator, x));
    u.mods[i].defence_flat += bonus;
    u.mods[i].reduce += spec.reduce_damage;
    u.mods[i].buff_used = true;
    cx.emit(Event::SetTop { frame: Frame::Use(u) });
    use_buff(cx, t);
}

/// The bearer uses one use of its Buff.
fn use_buff(cx: &mut Cx, who: Cid) {
    if let Some(b) = cx.s.ch(who).buff {
        cx.emit(Event::BuffUsed {
            who,
            uses: b.uses.saturating_sub(1),
        });
    }
}

/// After a use, a used-up Buff either asks its creator to pay to keep it or ends.
fn buff_keep_prompt(cx: &mut Cx, bearer: Cid) {
    let Some(b) = cx.s.ch(bearer).buff else { return };
    if b.uses > 0 {
        return;
    }
    let keep =
        cx.s.setup
            .book
            .get(b.ability)
            .buff_spec
            .as_ref()
            .and_then(|x| x.keep_cost);
    match keep {
        Some(cost) if cx.s.ch(b.creator).present() => {
            cx.emit(Event::Push {
                frame: Frame::Prompt(Prompt::BuffKeep {
                    creator: b.creator,
                    target: bearer,
                    cost,
                }),
            });
        }
        _ => end_buff(cx, bearer),
    }
}

/// Gives a Buff to a target (THR-R139 to THR-R142): at once if it has none, else the target
/// chooses between the old and the new.
fn apply_buff(cx: &mut Cx, u: &Use, t: Cid) {
    let Some(spec) = cx.s.setup.book.get(u.ability).buff_spec.clone() else {
        return;
    };
    let buff = BuffOn {
        creator: u.user,
        ability: u.ability,
        uses: spec.uses,
    };
    // The limit is per bearer only: the creator's Buffs on other targets stay (THR-R140).
    if cx.s.ch(t).buff.is_none() {
        cx.emit(Event::BuffGained { who: t, buff });
    } else {
        cx.emit(Event::Push {
            frame: Frame::Prompt(Prompt::BuffReplace {
                target: t,
                creator: u.user,
                ability: u.ability,
            }),
        });
    }
}

/// The squares a Terrain Effect covers now (an Aura follows its creator, THR-R83).
pub fn terrain_squares(s: &State, t: &TerrainInst) -> Vec<Pos> {
    match t.aura {
        Some(r) => match s.ch(t.creator).pos {
            Some(c) => fray_space::aura(c, r).filter(|p| s.setup.map.contains(*p)).collect(),
            None => Vec::new(),
        },
        None => t.squares.clone(),
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

/// Places a Terrain Effect (THR-R136, THR-R137, THR-R138).
fn place_terrain(cx: &mut Cx, u: &Use, a: &Ability) {
    let Some(spec) = &a.terrain else { return };
    if !spec.exempt {
        // A creator has one Terrain Effect at a time: a new one removes the old (THR-R137).
        while let Some(i) = cx.s.terrain.iter().position(|t| {
            t.creator == u.user
                && !cx
                    .s
                    .setup
                    .book
                    .get(t.ability)
                    .terrain
                    .as_ref()
                    .is_some_and(|x| x.exempt)
        }) {
            remove_terrain(cx, i);
        }
    }
    let aura = match &a.target {
        crate::ability::TargetSpec::Aura(x) => Some(eval(cx.s, u.user, x).max(1) as u16),
        _ => None,
    };
    let over = u.overexert.and_then(|i| a.overexert.get(i as usize));
    let upkeep = over
        .filter(|o| o.upkeep)
        .map(|o| o.stress.unwrap_or(cx.s.options.overexert_stress));
    let squares = if aura.is_some() { Vec::new() } else { u.shape.clone() };
    cx.emit(Event::TerrainPlaced {
        effect: TerrainInst {
            creator: u.user,
            ability: u.ability,
            squares,
            aura,
            upkeep,
            round: cx.s.round,
        },
    });
}

/// Applies Terrain Effect lines of one kind to a character standing on `p`.
fn terrain_lines(
    cx: &mut Cx,
    who: Cid,
    p: Pos,
    pick: impl Fn(&crate::ability::TerrainSpec, &TerrainInst) -> Vec<Line>,
) -> R {
    let effects = cx.s.terrain.clone();
    for t in &effects {
        let Some(spec) = cx.s.setup.book.get(t.ability).terrain.clone() else {
            continue;
        };
        if !terrain_squares(cx.s, t).contains(&p) || !terrain_affects(cx.s, t, who, spec.affects) {
            continue;
        }
        let lines = pick(&spec, t);
        if lines.is_empty() || !cx.s.ch(who).present() {
            continue;
        }
        let u = synthetic_use(cx, t.creator, t.ability);
        for l in &lines {
            apply_line(cx, usize::MAX, &u, l, who)?;
        }
    }
    Ok(())
}

/// A use record for lines that come from a standing effect rather than an ability use. It
/// takes a fresh use number (never the id of a real use, nor of another standing effect's
/// application), so Dazed's "not the use that applied it" test (THR-R214) only ever compares
/// an effect with itself.
fn synthetic_use(cx: &mut Cx, user: Cid, ability: crate::ability::AbilityId) -> Use {
    cx.emit(Event::StandingUse { who: user, ability });
    Use {
        id: cx.s.uses,
        user,
        ability,
        targets: Vec::new(),
        square: None,
        shape: Vec::new(),
        pick: Pick::default(),
        overexert: None,
        is_action: false,
        stage: UseStage::Finish,
        index: 0,
        post: false,
        defences: Vec::new(),
        mods: Vec::new(),
        verdicts: Vec::new(),
        shared_attack: None,
        moved: 0,
    }
}

/// A character entered a square: Terrain Effects with entry lines act on it.
fn entered(cx: &mut Cx, who: Cid, p: Pos) -> R {
    if cx.s.terrain.is_empty() {
        return Ok(());
    }
    terrain_lines(cx, who, p, |spec, _| spec.on_enter.clone())
}

/// Start of Turn, step b (THR-R28): upkeep payments, start-of-turn passives, Terrain Effects.
fn start_of_turn_effects(cx: &mut Cx, who: Cid) -> R {
    // Start-of-turn passives (Jittery) apply by themselves.
    let passives: Vec<crate::ability::AbilityId> = triggered_abilities(cx.s, who).collect();
    for id in passives {
        let setup = Arc::clone(&cx.s.setup);
        let ab = setup.book.get(id);
        let Some(tr) = &ab.trigger else { continue };
        let TriggerOn::StartOfTurn { adjacent_foe } = tr.on else {
            continue;
        };
        if adjacent_foe
            && cx.s.ch(who).pos.is_none_or(|p| {
                !cx.s.ids().any(|o| {
                    cx.s.enemies(who, o)
                        && calc::counts_as_foe(cx.s, o)
                        && cx.s.ch(o).pos.is_some_and(|q| fray_space::chebyshev(p, q) == 1)
                })
            })
        {
            continue;
        }
        let u = synthetic_use(cx, who, id);
        for r in &tr.reaction {
            if let Reaction::Lines(lines) = r {
                for l in lines {
                    apply_line(cx, usize::MAX, &u, l, who)?;
                }
            }
        }
    }
    // Terrain Effects that act on whoever starts its turn inside.
    if let Some(p) = cx.s.ch(who).pos {
        terrain_lines(cx, who, p, |spec, t| {
            let mut v = spec.start_of_turn.clone();
            if t.upkeep.is_some() {
                v.extend(spec.overexert_start_of_turn.iter().cloned());
            }
            v
        })?;
    }
    // Upkeep Overexerts this character keeps up ask to be paid again (THR-R135).
    if cx.s.options.upkeep_at_start_of_turn {
        upkeep_prompts(cx, who);
    }
    Ok(())
}

fn upkeep_prompts(cx: &mut Cx, who: Cid) {
    let asks: Vec<(usize, i16)> =
        cx.s.terrain
            .iter()
            .enumerate()
            .filter(|(_, t)| t.creator == who && t.round != cx.s.round)
            .filter_map(|(i, t)| t.upkeep.map(|c| (i, c)))
            .collect();
    for (i, cost) in asks.into_iter().rev() {
        cx.emit(Event::Push {
            frame: Frame::Prompt(Prompt::Upkeep {
                creator: who,
                effect: i as u8,
                cost,
            }),
        });
    }
}

fn step_prompt(_cx: &mut Cx, _p: &Prompt) -> Flow {
    // Every prompt is a decision for a seat.
    Flow::Wait
}

/// Answers the prompt on top of the stack.
fn answer_prompt(cx: &mut Cx, cmd: &Command) -> R {
    let Some(Frame::Prompt(p)) = cx.s.stack.last().cloned() else {
        return Ok(());
    };
    cx.emit(Event::Pop);
    match (p, cmd) {
        (Prompt::Move { who, budget, .. }, Command::Move(to)) => {
            let Some(from) = cx.s.ch(who).pos else { return Ok(()) };
            let Some((path, _)) = check::path_for(cx.s, who, from, *to, budget) else {
                return Ok(());
            };
            let mut at = from;
            for next in path {
                // A Weaver moving on its own turn uses its exemption here too, as the search
                // that found the path assumed (THR-R76).
                if let Ok((_, true)) = check::paid_step_cost(cx.s, who, at, next, false) {
                    cx.emit(Event::WeaverIgnored { who, slowed: false });
                }
                cx.emit(Event::Moved {
                    who,
                    from: at,
                    to: next,
                    cost: 0,
                    forced: true,
                });
                entered(cx, who, next)?;
                at = next;
            }
        }
        (
            Prompt::BuffReplace {
                target,
                creator,
                ability,
            },
            Command::Accept,
        ) => {
            let uses = cx.s.setup.book.get(ability).buff_spec.as_ref().map_or(1, |b| b.uses);
            end_buff(cx, target);
            cx.emit(Event::BuffGained {
                who: target,
                buff: BuffOn { creator, ability, uses },
            });
        }
        (Prompt::BuffKeep { creator, target, cost }, Command::Keep) => {
            let id = cx.s.uses;
            deal(cx, creator, Gauge::Stress, cost, Some(creator), id);
            if let Some(b) = cx.s.ch(target).buff {
                let uses = cx.s.setup.book.get(b.ability).buff_spec.as_ref().map_or(1, |x| x.uses);
                cx.emit(Event::BuffRenewed { who: target, uses });
            }
        }
        (Prompt::BuffKeep { target, .. }, Command::Release) => end_buff(cx, target),
        (Prompt::Upkeep { creator, cost, .. }, Command::Keep) => {
            let id = cx.s.uses;
            deal(cx, creator, Gauge::Stress, cost, Some(creator), id);
        }
        (Prompt::Upkeep { effect, .. }, Command::Release) => cx.emit(Event::UpkeepEnded { index: effect }),
        (
            Prompt::BuffReplace {
                target,
                creator,
                ability,
            },
            Command::Decline,
        ) => cx.emit(Event::BuffDeclined {
            who: target,
            creator,
            ability,
        }),
        // `pass` on a move changes nothing.
        _ => {}
    }
    Ok(())
}

/// Nova Potential from a contest: Criticals on either side, doubles on the attack roll.
fn nova_on_contest(cx: &mut Cx, user: Cid, target: Cid, verdict: Verdict, attack: Option<Rolled>) {
    if verdict == Verdict::AttackerCritical {
        nova_earn(cx, user, NovaEarn::CriticalDealt);
    }
    if verdict == Verdict::DefenderCritical {
        nova_earn(cx, target, NovaEarn::CriticalDefence);
    }
    if let Some(r) = attack {
        let doubles = match cx.s.options.doubles_from {
            crate::options::DoublesFrom::KeptDice => {
                let kept: Vec<u16> = r.roll.kept_faces().collect();
                kept.len() == 2 && kept[0] == kept[1]
            }
            crate::options::DoublesFrom::AllDice => {
                let f = r.roll.faces.as_slice();
                (0..f.len()).any(|i| (i + 1..f.len()).any(|j| f[i] == f[j]))
            }
        };
        if doubles {
            nova_earn(cx, user, NovaEarn::DoublesOnAttack);
        }
    }
}

/// One Potential for each of a character's Nova abilities that earn on this event, capped at
/// their Cost (THR-R226).
pub fn nova_earn(cx: &mut Cx, who: Cid, earn: NovaEarn) {
    if !cx.s.ch(who).present() {
        return;
    }
    let states = cx.s.ch(who).nova.clone();
    for n in states {
        let Some(nv) = cx.s.setup.book.get(n.ability).nova else {
            continue;
        };
        if nv.earn == earn && n.potential < nv.cost {
            cx.emit(Event::NovaEarned {
                who,
                ability: n.ability,
                potential: n.potential + 1,
            });
        }
    }
}

/// Places the user's Minion on a square, or moves the one it has there (THR-R222).
fn position_minion(cx: &mut Cx, user: Cid, at: Pos) {
    let existing =
        cx.s.ids()
            .find(|&m| cx.s.info(m).minion_of == Some(user) && cx.s.ch(m).present());
    match existing {
        Some(m) => cx.emit(Event::Relocated { who: m, to: at }),
        None => {
            let ctl = cx.s.info(user).clone();
            let mut n = 1;
            let id = loop {
                let id = if n == 1 {
                    format!("{}-minion", ctl.id)
                } else {
                    format!("{}-minion-{n}", ctl.id)
                };
                if cx.s.find(&id).is_none() {
                    break id;
                }
                n += 1;
            };
            let info = CharInfo {
                id,
                name: format!("{}'s Minion", ctl.name),
                side: ctl.side,
                seat: ctl.seat,
                start: Some(at),
                stats: crate::setup::Stats {
                    speed: 0,
                    ..ctl.stats.clone()
                },
                abilities: Vec::new(),
                traits: Default::default(),
                ft: 0,
                st: 0,
                wounds: 0,
                nova: Vec::new(),
                minion_of: Some(user),
            };
            cx.emit(Event::Joined { info: Box::new(info) });
        }
    }
}

/// Ends the Buff `bearer` benefits from, naming its creator and ability in the event.
fn end_buff(cx: &mut Cx, bearer: Cid) {
    if let Some(b) = cx.s.ch(bearer).buff {
        cx.emit(Event::BuffEnded {
            who: bearer,
            creator: b.creator,
            ability: b.ability,
        });
    }
}

/// Removes the Terrain Effect at index `i`, naming its creator and ability in the event.
fn remove_terrain(cx: &mut Cx, i: usize) {
    if let Some(t) = cx.s.terrain.get(i) {
        let (creator, ability) = (t.creator, t.ability);
        cx.emit(Event::TerrainRemoved {
            index: i as u8,
            creator,
            ability,
        });
    }
}

/// Removes a combatant from combat; with it go the Buffs and Terrain Effects it created and
/// its Minions (THR-R143, THR-R222).
pub fn remove(cx: &mut Cx, who: Cid, why: Removal) {
    if cx.s.ch(who).removed {
        return;
    }
    cx.emit(Event::Removed { who, why });
    creator_gone(cx, who);
}

/// Ends what a creator keeps in play (on removal, or on Incapacity with that option).
fn creator_gone(cx: &mut Cx, who: Cid) {
    for b in cx.s.ids().collect::<Vec<_>>() {
        if cx.s.ch(b).buff.is_some_and(|x| x.creator == who) {
            end_buff(cx, b);
        }
    }
    while let Some(i) = cx.s.terrain.iter().position(|t| t.creator == who) {
        remove_terrain(cx, i);
    }
    for m in cx.s.ids().collect::<Vec<_>>() {
        if cx.s.info(m).minion_of == Some(who) && !cx.s.ch(m).removed {
            cx.emit(Event::Removed {
                who: m,
                why: Removal::CreatorGone,
            });
        }
    }
}
