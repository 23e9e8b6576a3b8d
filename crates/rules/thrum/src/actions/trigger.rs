//! Triggers (THR-R144 to THR-R151): answering a trigger window, from check to resolution.
//!
//! The check of a `trigger` (an ability the window offers the holder), the legal list's
//! candidates, and the windows themselves: who is asked, in turn order and within range, a
//! triggered ability used (its use pushed as a frame that resolves first) or passed. The rules
//! cited at the code here: THR-R39, THR-R40, THR-R144, THR-R145, THR-R148 to THR-R150, THR-R199,
//! THR-R200, THR-R215.
//!
//! Split from the ability interpreter (`actions::ability`) because a window is its own decision
//! with its own check; the use a trigger starts is the interpreter's.

use crate::ability::AbilityId;
use crate::ability::{Ability, Cond, EndsStance, Kind, Reaction, TriggerOn};
use crate::actions::effects::synthetic_use;
use crate::actions::lines::apply_line;
use crate::calc::{self, eval};
use crate::codes::{self, Say, no};
use crate::command::Command;
use crate::event::{Event, NotOfferedWhy};
use crate::options::TriggeredMoves;
use crate::plan::Plan;
use crate::setup::Cid;
use crate::stage::offered;
use crate::state::Cx;
use crate::state::{Candidates, Frame, FrameChange, Prompt, State, Use};
use fray_engine::Flow;
use fray_engine::{EngineError, Reject};
use std::sync::Arc;

type R<T = ()> = Result<T, EngineError>;

/// Answering a trigger window with the triggered ability `id` (`holder` is asked about
/// `ability`; with `controller-orders-own-triggers` any of its offered ones).
pub(crate) fn check_trigger(
    s: &State,
    holder: Cid,
    ability: AbilityId,
    id: AbilityId,
    say: Say,
) -> Result<Plan, Reject> {
    let allowed = if s.options.controller_orders_own_triggers {
        crate::stage::offered(s, holder).any(|a| a == id)
    } else {
        ability == id
    };
    if allowed {
        Ok(Plan::Plain)
    } else {
        Err(no(say, codes::UNKNOWN_ABILITY, || "that trigger is not on offer"))
    }
}

/// The candidates of a trigger window for the legal list, in its order: each triggered ability
/// still offered to `holder`, then passing.
pub(crate) fn candidates(s: &State, holder: Cid, push: &mut dyn FnMut(Command)) {
    for a in offered(s, holder) {
        push(Command::Trigger(a));
    }
    push(Command::Pass);
}

/// The triggered abilities that may answer `u` aiming at `t`, in turn order (THR-R145).
/// Those whose trigger condition holds but that are not offered go to `skipped`, with why.
pub(crate) fn trigger_candidates(
    s: &State,
    u: &Use,
    a: &Ability,
    t: Cid,
    skipped: &mut Vec<(Cid, crate::ability::AbilityId, NotOfferedWhy)>,
) -> Candidates {
    let mut out = Candidates::new();
    if !calc::rolls(s, a) {
        return out;
    }
    let user = u.user;
    // THR-R150: holders are asked in turn order, so Protect from the ally at Initiative 14
    // comes before the one at 9, both before the rolls, and their Boons add up.
    // THR-R145: the current turn order, Delays included (not raw Initiative), highest slot first.
    let holders = s.in_turn_order(|h| s.ch(h).able() && s.ch(h).pos.is_some());
    for h in holders {
        for id in triggered_abilities(s, h) {
            let ab = s.setup.book.get(id);
            let Some(tr) = &ab.trigger else { continue };
            // The trigger's range is worked out only for a holder whose distance it decides.
            let near = |x: Cid| calc::dist_between(s, h, x).is_some_and(|d| d <= tr_range(s, h, ab));
            // THR-R199 (Assist): a friend aims at a foe within the holder's range.
            // THR-R200 (Protect): a foe aims at a friend within the holder's range.
            // THR-R144: a triggered ability is offered (and its text resolves) only when its
            // trigger condition holds.
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
pub(crate) fn triggered_abilities(s: &State, h: Cid) -> impl Iterator<Item = crate::ability::AbilityId> + '_ {
    let stance = s.ch(h).stance.filter(|id| s.setup.book.get(*id).trigger.is_some());
    stance.into_iter().chain(s.setup.triggered_passives(h).iter().copied())
}

pub(crate) fn step_window(cx: &mut Cx) -> Flow {
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
        let top = cx.s.stack.len() - 1;
        cx.change(top, FrameChange::Asked { asked: w.asked });
    }
    cx.pop();
    Flow::Go
}

pub(crate) fn use_trigger(cx: &mut Cx, id: crate::ability::AbilityId) -> R {
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
        let top = cx.s.stack.len() - 1;
        let (at, with) = (at as u8, (at + j) as u8);
        cx.change(top, FrameChange::Swap { at, with });
    }
    let Some(u) = cx.s.use_at(w.use_frame as usize) else {
        return Ok(());
    };
    let ti = w.target_index as usize;
    let about = u.targets[ti];
    // What the trigger changes of the use it answers: the target's roll changes and who has
    // moved in answer.
    let (mut mods, mut moved) = (u.mods[ti], u.moved);
    let moved_before = moved;
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
            Reaction::DefenceBanes(n) => mods.defence_boons -= n,
            Reaction::DefenceBoons(n) => mods.defence_boons += n,
            Reaction::DefenceBonus(a) => mods.defence_flat += eval(&cx.s, holder, a),
            Reaction::MoveToward(a) => moves.push(eval(&cx.s, holder, a)),
            Reaction::Lines(l) => lines.extend(l.iter().cloned()),
        }
    }
    if let Some(f) = tr.on_defence_critical {
        mods.on_defence_critical = Some((holder, f));
    }
    if !moves.is_empty() {
        moved |= 1u64 << holder;
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
        EndsStance::UnlessDefenceCritical => mods.ends_unless_critical = Some(holder),
        EndsStance::Never => {}
    }
    let (use_frame, target) = (w.use_frame as usize, ti as u8);
    cx.change(use_frame, FrameChange::Mods { target, mods });
    if moved != moved_before {
        cx.change(use_frame, FrameChange::Moved { holders: moved });
    }
    if !lines.is_empty() {
        let su = synthetic_use(cx, holder, id);
        for l in &lines {
            apply_line(cx, usize::MAX, &su, l, holder)?;
        }
    }
    for n in moves {
        // The holder chooses where to move, toward the attacked ally (Interpose); an
        // Immobilized holder cannot move of its own accord (THR-R215).
        if n > 0 && cx.s.ch(holder).able() && !calc::has(&cx.s, holder, Cond::Immobilized) {
            cx.push(Frame::Prompt(Prompt::Move {
                who: holder,
                budget: n,
                toward: Some(about),
            }))?;
        }
    }
    Ok(())
}

pub(crate) fn pass_trigger(cx: &mut Cx) {
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
        let Some(Frame::Window(w)) = cx.s.stack.last() else {
            return;
        };
        let asked = w.asked as usize;
        if w.candidates[asked.min(w.candidates.len())..]
            .iter()
            .any(|c| c.0 == holder)
        {
            let top = cx.s.stack.len() - 1;
            cx.change(top, FrameChange::Withdrawn { holder });
        }
    }
}
