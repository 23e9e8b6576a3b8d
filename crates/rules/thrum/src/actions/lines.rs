//! Result lines: applying an ability's Effect, Success and Critical lines to a target, and what
//! they do (damage, statuses, conditions, Incapacity) (THR-R105 to THR-R108, THR-R152 to
//! THR-R182).
//!
//! A module of its own (it was `resolve::lines`) because result lines are the rules' largest topic
//! and every kind of resolution applies them: an ability use, a trigger's reaction, a Terrain
//! Effect's lines, the end of a turn.

use crate::ability::{Ability, Cond, Line, NovaEarn, Op, Recipient, XStatus};
use crate::actions::effects::{creator_gone, entered, nova_earn, position_minion, remove};
use crate::actions::movement::forced_move;
use crate::calc::{self, eval, is_minion};
use crate::command::Gauge;
use crate::event::{Event, Removal, Verdict, gauge};
use crate::flow::turn::fixed_roll;
use crate::options::{DazedMode, DazedReapply, InitiativeChange};
use crate::setup::Cid;
use crate::state::Cx;
use crate::state::{FixedKind, Frame, FrameChange, Prompt, StatusRef, UseHead};
use fray_engine::EngineError;
use fray_space::Pos;

type R<T = ()> = Result<T, EngineError>;

pub(crate) fn add_vulnerable(cx: &mut Cx, t: Cid) {
    let x = cx.s.ch(t).status(XStatus::Vulnerable).saturating_add(1);
    cx.emit(Event::Status {
        who: t,
        status: XStatus::Vulnerable,
        x,
    });
}

/// Applies the Effect, Success and Critical lines for one target (THR-R105 to THR-R108,
/// THR-R225). `verdict` is `None` for abilities that make no contest.
pub(crate) fn apply_lines(cx: &mut Cx, depth: usize, u: &UseHead, a: &Ability, t: Cid, verdict: Option<Verdict>) -> R {
    let over = u.overexert.and_then(|i| a.overexert.get(i as usize)).cloned();
    // Abilities without an Attack tag apply their lines directly (THR-R225).
    let direct = cx.s.options.non_attack_lines == crate::options::NonAttackLines::EffectAndSuccess;
    let hit = verdict.map_or(direct, |v| v.hit());
    let crit = verdict.is_some()
        && (verdict == Some(Verdict::AttackerCritical)
            || hit && over.as_ref().is_some_and(|o| o.successes_are_criticals));
    // THR-R105: by default the Effect line applies, hit or miss; a successful defence avoids
    // only the Success and Critical lines below.
    if hit || verdict.is_none() || cx.s.options.effect_on_miss {
        for l in &a.effect {
            apply_line(cx, depth, u, l, t)?;
        }
    }
    // THR-R107: a Critical applies the Success line and then the Critical line, unless the
    // Critical line says "instead" (`critical_replaces`). THR-R110: Sock 'Em at 12 against 7
    // gets its Effect, 2 Fatigue and the Critical's +1 and Stunned; at 7 against 12 only the
    // Effect.
    // THR-R102: a Resilience or Resolve defence that holds (a defender Critical included)
    // avoids these lines; one that fails takes them.
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

pub(crate) fn apply_line(cx: &mut Cx, depth: usize, u: &UseHead, l: &Line, t: Cid) -> R {
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
    if is_minion(&cx.s, r)
        && matches!(
            l.op,
            Op::Status(..) | Op::Condition(_) | Op::Mark(_) | Op::Scouted(_) | Op::TurnBanes(_)
        )
    {
        return Ok(());
    }
    match &l.op {
        Op::Fatigue(a) => {
            let n = eval(&cx.s, user, a);
            damage(cx, depth, u, r, Gauge::Fatigue, n);
        }
        Op::Stress(a) => {
            let n = eval(&cx.s, user, a);
            damage(cx, depth, u, r, Gauge::Stress, n);
        }
        // Recover's "reduce Fatigue Load by 1" and "reduce Stress Load by 1" (THR-R191).
        Op::ReduceFatigue(a) | Op::ReduceStress(a) => {
            let g = if matches!(l.op, Op::ReduceFatigue(_)) {
                Gauge::Fatigue
            } else {
                Gauge::Stress
            };
            let n = eval(&cx.s, user, a);
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
            let n = eval(&cx.s, user, a).clamp(0, 255) as u8;
            if n > 0 {
                // THR-R202: "+N" adds N to X; a character without the status gets it at X = N.
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
            let n = eval(&cx.s, user, a);
            // THR-R213: Mark is a number abilities read, kept apart from the statuses (so it
            // never ticks and Recover cannot end it), and "+N Mark" adds N (`mark-adds`).
            // THR-R221: Scouted is stored the same way, with nothing of its own.
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
            let n = eval(&cx.s, user, a);
            if let Some(d) = u.pick.dir {
                forced_move(cx, r, n, |_, p| Some(p.step(d)))?;
            }
        }
        Op::Push(a) | Op::Pull(a) => {
            let n = eval(&cx.s, user, a);
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
            for st in crate::state::negative_statuses(&cx.s, r) {
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
                .saturating_add(eval(&cx.s, user, a))
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
        Op::IncapacityRoll => fixed_roll(cx, r, FixedKind::Incapacity)?,
        Op::Follow(a) => {
            let budget = eval(&cx.s, user, a);
            // A follow-up move is the recipient's own movement: not while Immobilized (THR-R215).
            if budget > 0 && cx.s.ch(r).able() && !calc::has(&cx.s, r, Cond::Immobilized) {
                cx.push(Frame::Prompt(Prompt::Move {
                    who: r,
                    budget,
                    toward: None,
                }))?;
            }
        }
        Op::Initiative(a) => {
            // THR-R18: an ability line changes the recipient's Initiative mid-combat.
            let delta = eval(&cx.s, user, a);
            if delta != 0 {
                let resort = cx.s.options.initiative_change == InitiativeChange::ResortNextRound;
                cx.emit(Event::InitiativeChanged { who: r, delta, resort });
            }
        }
        Op::TurnBanes(a) => {
            let n = eval(&cx.s, user, a);
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
                crate::reach::teleport_cost(&cx.s, from, to)
            } else {
                0
            };
            // With teleport-needs-empty off, an ally on the destination swaps places.
            if let Some(o) = cx.s.occupant(to)
                && o != user
            {
                cx.emit(Event::Relocated { who: o, to: from });
            }
            // THR-R58: the user is put on the destination at once: no square between is crossed,
            // so nothing on the way (occupants, walls, terrain) matters.
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
fn damage(cx: &mut Cx, depth: usize, u: &UseHead, r: Cid, g: Gauge, amount: i16) {
    let mut n = amount;
    let i = u.index as usize;
    if depth != usize::MAX
        && u.target == Some(r)
        && let Some(mut mods) = cx.s.use_at(depth).map(|v| v.mods[i])
        && mods.reduce > 0
        && n > 0
    {
        let take = mods.reduce.min(n);
        n -= take;
        mods.reduce -= take;
        let target = i as u8;
        cx.change(depth, FrameChange::Mods { target, mods });
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
    // THR-R209: Vulnerable X adds X to the next Fatigue or Stress taken, then ends entirely.
    let vul = cx.s.ch(who).status(XStatus::Vulnerable) as i16;
    // THR-R152, THR-R153: there are no hit points: each point dealt adds 1 to the Fatigue or
    // the Stress Load.
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

/// The Incapacitated drop: Fatigue Tolerance −1 (not below the tolerance floor) and Fatigue
/// Load −1 (not below 0), on becoming Incapacitated and at each End of Turn after
/// (THR-R172, THR-R173). Returns the new Fatigue Load.
pub(crate) fn incapacity_drop(cx: &mut Cx, who: Cid) -> i16 {
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
    fl
}

/// Becoming Incapacitated (THR-R169, THR-R172, THR-R177).
pub fn incapacitate(cx: &mut Cx, who: Cid) {
    cx.emit(Event::Incapacitated { who });
    // THR-R169: the Stance ends at once.
    if let Some(st) = cx.s.ch(who).stance {
        cx.emit(Event::StanceEnded { who, ability: st });
    }
    if incapacity_drop(cx, who) == 0 {
        cx.emit(Event::Revived { who });
    }
    // THR-R143 option: Buffs and Terrain Effects end when their creator is Incapacitated.
    if cx.s.options.creator_gone == crate::options::CreatorGone::Incapacitated {
        creator_gone(cx, who);
    }
    for o in cx.s.ids().collect::<Vec<_>>() {
        if cx.s.enemies(o, who) && !is_minion(&cx.s, o) {
            nova_earn(cx, o, NovaEarn::EnemyIncapacitated);
        }
    }
}
