//! Turn flow (THR-R26 to THR-R37): the start of a turn and its fixed rolls (Panic, Incapacity),
//! the end of a turn (End of Turn effects, status ticks, Incapacity's drops and Wounds), and
//! moving on to the next slot and the next round.
//!
//! Part of the flow (it was `resolve::turn`): what happens between the decisions of a turn. The
//! checks of the turn's own commands are `actions::turn`'s.

use super::end::{end_combat, end_of_round_conditions, stop_check};
use crate::ability::{Cond, NovaEarn, XStatus};
use crate::actions::effects::{
    buff_keep_prompt, nova_earn, remove, start_of_turn_effects, terrain_lines, upkeep_prompts, use_buff,
};
use crate::actions::lines::{deal, incapacitate, incapacity_drop};
use crate::calc;
use crate::command::Gauge;
use crate::dice::roll2d6;
use crate::event::{Event, Removal};
use crate::options::{DazedMode, PanicStun, ScoutedMode};
use crate::setup::Cid;
use crate::state::Cx;
use crate::state::{FixedKind, FixedRoll, Frame, FrameChange, Phase, State, Step};
use fray_engine::EngineError;
use fray_engine::Flow;

type R<T = ()> = Result<T, EngineError>;

pub(crate) fn begin_turn(cx: &mut Cx) -> R {
    let who = cx.s.turn.who;
    cx.emit(Event::TurnStarted { who });
    if cx.s.phase == Phase::RoundZero {
        // THR-R23: after placing (or at once, for the already placed) the Round Zero turn goes
        // to the Stance step; a Stance entered there is still on when Round 1 begins. It has no
        // Move or Action step (THR-R21); an NPC keeps its placement square (THR-R24).
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
    cx.push(Frame::StartOfTurn { who, step: 0 })?;
    Ok(())
}

/// Starts a Panic or Incapacity Roll (a frame: a Buff may allow a reroll of a failure).
pub fn fixed_roll(cx: &mut Cx, who: Cid, kind: FixedKind) -> R {
    if !cx.s.ch(who).present() || (kind == FixedKind::Incapacity && cx.s.ch(who).incapacitated) {
        return Ok(());
    }
    cx.push(Frame::Roll(FixedRoll {
        who,
        kind,
        asking: false,
    }))
}

/// Rolls a Panic or Incapacity Roll and reports whether it passed.
fn roll_fixed(cx: &mut Cx, who: Cid, kind: FixedKind) -> R<bool> {
    // The name only describes the roll (formatted when a person is asked for the faces).
    let setup = std::sync::Arc::clone(&cx.s.setup);
    let name = &setup.chars[who as usize].name;
    match kind {
        FixedKind::Panic => {
            let (mut tally, modifier) = calc::panic_tally(&cx.s, who);
            tally.add(-calc::turn_banes(&cx.s, who));
            let net = tally.net(&cx.s);
            let roll = roll2d6(cx, net, modifier, &format_args!("{name}'s Panic Roll"))?;
            let load = cx.s.ch(who).stress;
            // THR-R158: the roll passes only above the Stress Load; THR-R163: a total equal to
            // it (3 against 3) fails.
            let passed = roll.total > load;
            cx.note(|| Event::PanicRolled {
                who,
                roll,
                load,
                passed,
            });
            Ok(passed)
        }
        FixedKind::Incapacity => {
            let (mut tally, modifier) = calc::incapacity_tally(&cx.s, who);
            tally.add(-calc::turn_banes(&cx.s, who));
            let net = tally.net(&cx.s);
            let roll = roll2d6(cx, net, modifier, &format_args!("{name}'s Incapacity Roll"))?;
            let load = cx.s.ch(who).fatigue;
            // THR-R168: a total not above the Fatigue Load fails (and Incapacitates below).
            let passed = roll.total > load;
            cx.note(|| Event::IncapacityRolled {
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

pub(crate) fn step_roll(cx: &mut Cx, r: FixedRoll) -> R<Flow> {
    if r.asking {
        return Ok(Flow::Wait);
    }
    cx.pop();
    if !cx.s.ch(r.who).present() || (r.kind == FixedKind::Incapacity && cx.s.ch(r.who).incapacitated) {
        return Ok(Flow::Go);
    }
    if roll_fixed(cx, r.who, r.kind)? {
        return Ok(Flow::Go);
    }
    if can_reroll(&cx.s, r.who, r.kind) {
        cx.push(Frame::Roll(FixedRoll { asking: true, ..r }))?;
        return Ok(Flow::Wait);
    }
    fixed_failed(cx, r.who, r.kind);
    Ok(Flow::Go)
}

/// The answer to a reroll offer.
pub(crate) fn answer_reroll(cx: &mut Cx, reroll: bool) -> R {
    let Some(Frame::Roll(r)) = cx.s.stack.last().cloned() else {
        return Ok(());
    };
    cx.pop();
    if !reroll {
        fixed_failed(cx, r.who, r.kind);
        return Ok(());
    }
    use_buff(cx, r.who);
    if !roll_fixed(cx, r.who, r.kind)? {
        fixed_failed(cx, r.who, r.kind);
    }
    // A Buff used up by the reroll asks its creator to keep it, as after a defence.
    buff_keep_prompt(cx, r.who)?;
    Ok(())
}

pub(crate) fn step_start_of_turn(cx: &mut Cx, who: Cid, step: u8) -> R<Flow> {
    // The steps run one after the other in this call. The frame records where to go on only
    // when a step leaves a frame on top of it (the Panic Roll, a prompt, a move), which must
    // resolve before the next step.
    let here = cx.s.stack.len() - 1;
    let mut step = step;
    loop {
        match step {
            0 => {
                // Step a: the Panic Roll (THR-R27, THR-R157).
                if cx.s.ch(who).frayed() && cx.s.ch(who).present() {
                    fixed_roll(cx, who, FixedKind::Panic)?;
                }
            }
            1 => {
                // Step b: other effects (THR-R28). The Weaver ignores Slowed this turn if that
                // is the first movement-reducing effect it meets (THR-R76).
                let info = cx.s.info(who);
                if info.traits.weaver == 1 && cx.s.ch(who).status(XStatus::Slowed) > 0 && !cx.s.turn.weaver_used {
                    cx.emit(Event::WeaverIgnored { who, slowed: true });
                }
                start_of_turn_effects(cx, who)?;
            }
            _ => {
                cx.pop();
                return Ok(Flow::Go);
            }
        }
        step += 1;
        // Nothing in steps a and b ends the combat today; if something did, the automatic steps
        // stop here, as they did between two steps.
        if cx.s.outcome.is_some() {
            return Ok(Flow::Go);
        }
        debug_assert!(
            matches!(cx.s.stack.get(here), Some(Frame::StartOfTurn { .. })),
            "a start-of-turn step took its frame off the stack"
        );
        let depth = cx.s.stack.len();
        if depth != here + 1 {
            if depth > here + 1 {
                cx.change(here, FrameChange::StartStep { step });
            }
            return Ok(Flow::Go);
        }
    }
}

/// End of Turn (THR-R35, THR-R36, THR-R173 to THR-R175), then the stop check.
pub fn end_turn(cx: &mut Cx, who: Cid) -> R {
    if cx.s.phase == Phase::RoundZero {
        cx.emit(Event::TurnEnded { who });
        return Ok(());
    }
    // With `upkeep-at-start-of-turn = false`, upkeep Overexerts are paid at the end of their
    // creator's turns instead, from the turn after the one that placed them (THR-R135).
    if !cx.s.options.upkeep_at_start_of_turn {
        upkeep_prompts(cx, who)?;
    }
    // THR-R35: step a, the End of Turn effects. Burning deals 1 Fatigue (THR-R205).
    if let Some(p) = cx.s.ch(who).pos
        && !cx.s.terrain.is_empty()
    {
        terrain_lines(cx, who, p, |spec, _| spec.end_of_turn.clone())?;
    }
    let burning = calc::status_weight(&cx.s, who, XStatus::Burning); // 1, or X when effects scale
    if burning > 0 {
        deal(cx, who, Gauge::Fatigue, burning, None, 0);
    }
    // THR-R175: still in step a and after the other effects, an Incapacitated character's −1/−1
    // drop and the revive check. With `incapacity-drop-same-turn = false`, a character that
    // became Incapacitated during this turn already had its drop for the turn (THR-R172,
    // THR-R173).
    let dropped = cx.s.turn.fell && !cx.s.options.incapacity_drop_same_turn;
    if cx.s.ch(who).incapacitated && cx.s.ch(who).present() && !dropped {
        let fl = incapacity_drop(cx, who);
        // THR-R181: so Tolerance 3 / Load 4 falls to 2 / 3, then 1 / 2, 0 / 1 (Wound 1 below),
        // then Load 0 revives here, before the Wound check.
        if cx.s.options.revive_before_wound && fl == 0 {
            cx.emit(Event::Revived { who });
        }
    }
    // THR-R36: step b, after step a, statuses tick down (THR-R211), on an Incapacitated
    // character too: its statuses and Buff stay on it (THR-R171).
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
    // Last, the Wound check (THR-R174, THR-R176), after the ticks (THR-R175).
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
    // THR-R7: the stop conditions are checked at the end of every turn of the rounds, whatever
    // the option.
    stop_check(cx);
    Ok(())
}

pub(crate) fn next_slot(cx: &mut Cx) -> R {
    if !cx.s.order.slots().iter().any(|s| s.active) {
        end_combat(cx, None, "nobody-left");
        return Ok(());
    }
    if cx.s.order.round_over() {
        let round = cx.s.round;
        // THR-R8: the end-of-round event fires after the last turn of the round.
        cx.note(|| Event::RoundEnded { round });
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
        // THR-R4: rounds repeat until a stop condition holds.
        cx.emit(Event::RoundStarted { round: round + 1 });
    } else if let Some(who) = cx.s.order.current() {
        // THR-R10: the next slot in descending Initiative order, Delays kept (THR-R14).
        cx.emit(Event::SlotUp { who });
    }
    Ok(())
}
