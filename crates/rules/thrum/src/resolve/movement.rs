//! Movement (THR-R51 to THR-R76): the price of a step from the terrain, voluntary moves and
//! steps, drops of two levels or more and their rolls, and forced moves (pushes and pulls).

use super::effects::entered;
use super::lines::add_condition;
use super::{Cx, R};
use super::{dist2d6, roll2d6};
use crate::ability::{Attr, Cond, XStatus};
use crate::calc::{self, Tally};
use crate::check::{self, Plan, can_stop};
use crate::event::Event;
use crate::options::{EnvironmentRoll, InvoluntaryDrop};
use crate::reach::terrain_step_cost;
use crate::setup::Cid;
use crate::state::State;
use fray_dice::Dist;
use fray_engine::EngineError;
use fray_space::{Dir, Pos};

/// A `move` to `to` along the `path` its check found, which it planned at `planned`.
pub(super) fn do_move(cx: &mut Cx, who: Cid, to: Pos, path: check::Path, planned: u32) -> R {
    let Some(from) = cx.s.ch(who).pos else { return Ok(()) };
    debug_assert_eq!(path.last(), Some(&to), "the path of the move to {to}");
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
    let (cost, uses) = check::paid_step_cost(&cx.s, who, from, to, roll).map_err(|r| EngineError::Bug(r.reason))?;
    if uses {
        cx.emit(Event::WeaverIgnored { who, slowed: false });
    }
    Ok(cost)
}

/// A `step` in direction `dir`, with the plan its check gave it: its price, or for a
/// Disoriented character nothing (where it goes is rolled here).
pub(super) fn do_step(cx: &mut Cx, who: Cid, dir: Dir, roll: Option<Attr>, plan: Plan) -> R {
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
        cx.note(|| Event::Drifted {
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
        let drop = terrain_step_cost(&cx.s.setup.map, from, to).map_or(0, |c| c.drop as i16);
        let rolls = roll.filter(|_| drop >= 2);
        let cost = check::paid_step_cost(&cx.s, who, from, to, rolls.is_some()).ok();
        let ok = cost.is_some() && can_stop(&cx.s, who, to) && (draft || shift == 0);
        let left = check::movement_left(&cx.s).max(0);
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
    // The price the check found (THR-R76: the Weaver's exemption, and its use, included).
    let Plan::Step { cost, weaves } = plan else {
        return Err(EngineError::Bug(format!(
            "a step {dir:?} resolved without its checked price"
        )));
    };
    if weaves {
        cx.emit(Event::WeaverIgnored { who, slowed: false });
    }
    cx.emit(Event::Moved {
        who,
        from,
        to,
        cost,
        forced: false,
    });
    entered(cx, who, to)?;
    if let Some(attr) = roll {
        let drop = terrain_step_cost(&cx.s.setup.map, from, to).map_or(0, |c| c.drop as i16);
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
    let (net, modifier) = env_roll_parts(&cx.s, who, attr);
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
    cx.note(|| Event::DropRolled {
        who,
        attr,
        roll,
        opposition: opposition.map(Box::new),
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
    if spent >= calc::speed(&cx.s, who) {
        if cx.s.turn.who == who {
            cx.emit(Event::MovementStopped { who });
        }
        add_condition(cx, who, Cond::Dazed, 0);
    }
}

/// A forced move of `n` squares, one at a time (THR-R56, THR-R68, THR-R74).
pub(super) fn forced_move(cx: &mut Cx, who: Cid, n: i16, mut next: impl FnMut(&State, Pos) -> Option<Pos>) -> R {
    if calc::immovable(&cx.s, who) {
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
        let Some(to) = next(&cx.s, from) else { return Ok(()) };
        let Some(c) = terrain_step_cost(&cx.s.setup.map, from, to) else {
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
            let Some(beyond) = next(&cx.s, to) else {
                stopped(cx, Some(o));
                return Ok(());
            };
            if !can_stop(&cx.s, who, beyond) || terrain_step_cost(&cx.s.setup.map, to, beyond).is_none() {
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
            let attr = if drop_odds(&cx.s, who, Attr::Ref, level) > drop_odds(&cx.s, who, Attr::End, level) {
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
