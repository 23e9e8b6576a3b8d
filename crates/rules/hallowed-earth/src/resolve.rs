//! Resolution: the start (Stress and Base Initiative), each command, and [`advance`], which
//! runs every automatic step (reveals, counts, end-of-round Dying loss and morale, the end)
//! until the next decision. State changes only through `cx.emit`; decisions of other seats in
//! the middle of something (a Reposte, an injury table) are frames on the kit's stack.

use crate::HallowedEarth;
use crate::check::{self, Plan, SpellCost, due, move_budget, reposte_weapons, threat_range};
use crate::command::Command;
use crate::data::{Ability, Dice};
use crate::options::{
    CritArmourOrder, DualAbilityDamage, EndOfRound, FreeActionTiming, FullDefenseTiming, InjuryChance, MoraleFailure,
};
use crate::setup::Cid;
use crate::stage::Stage;
use crate::state::{Act, Action, Cap, Cause, CheckKind, Conditions, Event, Frame, Free, Lost, Phase, State, Turn};
use fray_engine::resolve::settle;
use fray_engine::{Cx, EngineError, Flow};
use fray_space::Pos;

type Cx1<'a, 'b> = &'a mut Cx<'b, HallowedEarth>;

/// `n` dice of `sides` faces, summed, drawn for the reason `why` (what `--dice manual` asks).
fn dice(cx: Cx1<'_, '_>, n: u8, sides: u16, why: &dyn std::fmt::Display) -> Result<i32, EngineError> {
    if n == 0 {
        return Ok(0);
    }
    Ok(fray_dice::roll(cx.dice, usize::from(n), sides, fray_dice::Keep::All, why)?.total)
}

/// A dice expression's total.
fn roll(cx: Cx1<'_, '_>, d: Dice, why: &dyn std::fmt::Display) -> Result<i16, EngineError> {
    let sum = dice(cx, d.n, d.sides, why)?;
    Ok((sum + i32::from(d.plus)).clamp(-9999, 9999) as i16)
}

fn bug(what: impl Into<String>) -> EngineError {
    EngineError::Bug(what.into())
}

/// Rolls Stress and Base Initiative for everyone, then runs to the first decision.
pub fn start(cx: Cx1<'_, '_>) -> Result<(), EngineError> {
    advance(cx)
}

/// HAL-R24: maximum Stress from Hit Dice: each HD rolls its die plus the Strength modifier
/// (at least `min-stress-per-hd`), the first at its maximum with `first-hd-max`; or the stat
/// block's fixed value.
fn roll_stress(cx: Cx1<'_, '_>, who: Cid) -> Result<(), EngineError> {
    let s = &*cx.s;
    let st = s.stats(who);
    let name = s.ch(who).name.clone();
    let (hd, die, fixed) = (st.hd, st.hd_die, st.stress);
    let str_mod = i32::from(s.modifier(who, Ability::Strength));
    let (first_max, least) = (s.options.first_hd_max, i32::from(s.options.min_stress_per_hd));
    let max = match fixed {
        Some(v) => v,
        None => {
            let mut total = 0i32;
            for i in 0..hd {
                let face = if i == 0 && first_max {
                    i32::from(die)
                } else {
                    dice(cx, 1, die, &format!("{name}'s Hit Die {} for Stress", i + 1))?
                };
                total += (face + str_mod).max(least);
            }
            total.clamp(0, i32::from(crate::data::STAT_LIMIT)) as i16
        }
    };
    cx.emit(Event::Stress { who, max });
    Ok(())
}

/// Sets a creature up as it enters the combat: Stress (HAL-R24), then the Base Initiative d12
/// (HAL-R4), one roll for its whole group (HAL-R5).
fn set_up(cx: Cx1<'_, '_>, who: Cid) -> Result<(), EngineError> {
    let s = &*cx.s;
    let group: Vec<Cid> = match &s.ch(who).group {
        Some(g) => s
            .ids()
            .filter(|&c| s.ch(c).base.is_none() && s.ch(c).group.as_ref() == Some(g) && !s.ch(c).gone())
            .collect(),
        None => vec![who],
    };
    let label = match &s.ch(who).group {
        Some(g) if group.len() > 1 => format!("group {g}'s initiative"),
        _ => format!("{}'s initiative", s.ch(who).name),
    };
    for &c in &group {
        roll_stress(cx, c)?;
    }
    let roll = dice(cx, 1, 12, &label)? as u16;
    cx.emit(Event::Initiative { group, roll });
    Ok(())
}

/// Resolves a command with the plan its check gave under the stage `st` (the decision it
/// answers, [`crate::stage::stage`] of the state before it), then runs to the next decision.
/// GM rulings are no stage.
pub fn resolve(cx: Cx1<'_, '_>, st: Option<&Stage>, command: &Command, plan: Plan) -> Result<(), EngineError> {
    let unplanned = || bug(format!("{command:?} was resolved without its plan"));
    if let Command::Gm(r) = command {
        cx.emit(Event::Ruled(r.clone()));
        return advance(cx);
    }
    let Some(st) = st else {
        return Err(bug(format!("{command:?} was resolved with nothing asked")));
    };
    match (*st, command) {
        (Stage::Declare { newcomer, .. }, Command::Declare { who, action }) => {
            cx.emit(Event::Declared {
                who: *who,
                action: Some(*action),
            });
            if newcomer {
                schedule_newcomer(cx, *who, *action)?;
            }
        }
        (Stage::Declare { .. }, Command::DeclareFree { who, free }) => cx.emit(Event::FreeDeclared {
            who: *who,
            free: Some(*free),
        }),
        (Stage::Turn(_), Command::Move(to) | Command::Step(to)) => {
            let Plan::Walk(path) = plan else {
                return Err(unplanned());
            };
            walk(cx, *to, matches!(command, Command::Step(_)), path)?
        }
        (Stage::Turn(t), Command::Free) => {
            let Plan::Free(free) = plan else {
                return Err(unplanned());
            };
            take_free(cx, t.who, free, None)?;
        }
        (Stage::Turn(t), Command::Act(_)) => {
            let Plan::Act { action, spell } = plan else {
                return Err(unplanned());
            };
            take_action(cx, t.who, false)?;
            perform(cx, t.who, action, spell)?;
        }
        (Stage::Turn(t), Command::End) => {
            cx.emit(Event::TurnEnded { act: t.act });
        }
        (Stage::Reposte { by, against }, Command::Reposte(_)) => {
            let Plan::Reposte(weapon) = plan else {
                return Err(unplanned());
            };
            cx.pop();
            take_action(cx, by, true)?;
            strike(cx, by, against, weapon, true, false)?;
        }
        (Stage::Reposte { .. }, Command::Pass) => {
            cx.pop();
        }
        (Stage::Injury { target, .. }, Command::Injury(kind)) => {
            cx.pop();
            injure(cx, target, kind)?;
        }
        _ => return Err(bug(format!("{command:?} does not answer {st:?}"))),
    }
    advance(cx)
}

/// HAL-R12, HAL-R13, HAL-R42: a newcomer's declaration in the middle of a round acts this
/// round if its count is still ahead, or is kept for a catch-up turn next round.
fn schedule_newcomer(cx: Cx1<'_, '_>, who: Cid, action: Action) -> Result<(), EngineError> {
    let s = &*cx.s;
    let base = s
        .ch(who)
        .base
        .ok_or_else(|| bug("a newcomer declared before its initiative"))?;
    let count = i32::from(base) + i32::from(action.speed(s.stats(who), &s.options));
    let at = count_begun(s)
        .then(|| s.order.current_slot().and_then(|x| s.order.get(x)).map(|x| x.key))
        .flatten();
    // HAL-R42: passed = at or below the last count fully resolved, or below a count under way
    // that has begun (something happened on it); at that very count it joins it.
    let passed = s.last_count.is_some_and(|l| count <= l) || at.is_some_and(|a| count < a);
    // A newcomer's Free action goes with the action it declared it with, whatever the
    // `free-action-timing`.
    let act = Act {
        who,
        action,
        count,
        catch_up: false,
        was: s.ch(who).cap(),
        free: s.ch(who).declared_free,
        lone: false,
    };
    cx.emit(Event::Scheduled {
        act,
        this_round: !passed,
    });
    Ok(())
}

/// Whether the count under way has begun: a turn of it has done something (moved, acted,
/// raised a decision of another seat) or finished. fray goes from one count to the next without
/// a pause, so the first turn of a count, untouched, stands for the moment between counts
/// (HAL-R42).
fn count_begun(s: &State) -> bool {
    if s.caps.is_empty() {
        return false;
    }
    let Some(key) = s.order.current_slot().and_then(|x| s.order.get(x)).map(|x| x.key) else {
        return false;
    };
    let untouched = s.turn.is_some_and(|t| t.moved == 0 && !t.acted && !t.freed) && s.frames.is_empty();
    let finished = s.order.slots().iter().any(|x| x.key == key && x.acted);
    !untouched || finished
}

/// An action (or Reaction) is taken: counted (HAL-R17), and paid for in Wound Points by the
/// Incapacitated and Dying (HAL-R29, HAL-R30) and by the Stabilized beyond their first
/// (HAL-R33); each cost is untyped Wound Point damage (HAL-R43).
fn take_action(cx: Cx1<'_, '_>, who: Cid, reaction: bool) -> Result<(), EngineError> {
    let cost = acting_costs(&cx.s, who);
    cx.emit(Event::Acting { who, reaction });
    pay_strain(cx, who, cost);
    Ok(())
}

/// Whether an action now costs `who` a Wound Point: always while Incapacitated or Dying
/// (HAL-R29, HAL-R30), beyond the first of the round while Stabilized (HAL-R33).
fn acting_costs(s: &State, who: Cid) -> bool {
    match s.cap_now(who) {
        Cap::Incapacitated | Cap::Dying => true,
        Cap::Stable => s.ch(who).actions >= 1,
        Cap::Able | Cap::Out => false,
    }
}

/// The Wound Point an action costs the hurt, as untyped damage (HAL-R43), when `cost`.
fn pay_strain(cx: Cx1<'_, '_>, who: Cid, cost: bool) {
    if cost {
        let kind = cx.s.options.strain_damage_type.clone();
        cx.emit(Event::Damaged {
            who,
            stress: 0,
            wp: 1,
            kind,
            cause: Cause::Strain,
        });
    }
}

/// Carries out a declared action on the actor's turn; `spell`: a spell's cost as the check
/// found it paid.
fn perform(cx: Cx1<'_, '_>, who: Cid, action: Action, spell: Option<SpellCost>) -> Result<(), EngineError> {
    let s = &*cx.s;
    let name = s.ch(who).name.clone();
    let penalty = if s.ch(who).has(Conditions::CONCUSSED) {
        s.options.concussed_penalty
    } else {
        0
    };
    match action {
        Action::Attack { target, weapon }
        | Action::Defensive {
            target: Some(target),
            weapon,
        } => strike(cx, who, target, weapon, false, false)?,
        Action::Throw { weapon, target } => {
            cx.emit(Event::Thrown { who, weapon });
            strike(cx, who, target, weapon, false, true)?
        }
        Action::Cast { spell: n, target, .. } => {
            let sp = s.stats(who).spells[usize::from(n)].clone();
            // HAL-R26: the caster's split of Stress and Mana, 1:1 (`check::spell_cost`).
            let SpellCost { mana, stress } = spell.ok_or_else(|| bug("a spell cast without its cost"))?;
            cx.emit(Event::Spent { who, mana, stress });
            let bonus = cx.s.stats(who).casting - penalty;
            let tn = sp.tn;
            let r = dice(
                cx,
                1,
                cx.s.options.check_die,
                &format!("{name}'s casting of {}", sp.name),
            )? as u16;
            let total = r as i16 + bonus;
            let success = total >= tn;
            cx.emit(Event::Checked {
                who,
                kind: CheckKind::Casting,
                roll: r,
                total,
                tn,
                success,
            });
            if success {
                if let Some(d) = sp.restores {
                    let v = roll(cx, d, &format!("{}'s Stress restored", sp.name))?.max(0);
                    cx.emit(Event::Restored { who: target, stress: v });
                } else if let Some(d) = sp.damage {
                    let kind = sp.types.join("/");
                    let hit = if cx.s.options.spells_hit_automatically {
                        true
                    } else {
                        let defense = cx.s.defense(target);
                        let n = dice(
                            cx,
                            1,
                            cx.s.options.check_die,
                            &format!("{name}'s {} against Defense", sp.name),
                        )? as u16;
                        let total = n as i16 + bonus;
                        let hit = total >= defense;
                        cx.emit(Event::Attacked {
                            by: who,
                            target,
                            natural: n,
                            total,
                            defense,
                            hit,
                            crit: false,
                            reposte: false,
                        });
                        hit
                    };
                    if hit {
                        let v = roll(cx, d, &format!("{}'s damage", sp.name))?.max(0);
                        deal(cx, who, target, v, None, &kind, &sp.types)?;
                    }
                }
            }
        }
        Action::Use { item, target } => {
            let it = s.stats(who).items[usize::from(item)].clone();
            cx.emit(Event::ItemUsed { who, item });
            if let Some(d) = it.restores {
                let v = roll(cx, d, &format!("{} restores", it.name))?.max(0);
                cx.emit(Event::Restored { who: target, stress: v });
            }
        }
        Action::Heal { target } => {
            // HAL-R32: Heal check against 10 + the largest wound.
            let worst = s.ch(target).wounds.iter().map(|w| w.amount).max().unwrap_or(0);
            let tn = 10 + worst;
            let bonus = s.stats(who).heal - penalty;
            let r = dice(cx, 1, cx.s.options.check_die, &format!("{name}'s Heal check"))? as u16;
            let total = r as i16 + bonus;
            let success = total >= tn;
            cx.emit(Event::Checked {
                who,
                kind: CheckKind::Heal,
                roll: r,
                total,
                tn,
                success,
            });
            if success {
                cx.emit(Event::Stabilized { who: target });
            }
        }
        Action::Intimidate { target } => {
            let bonus = s.stats(who).intimidation - penalty;
            let r = dice(cx, 1, cx.s.options.check_die, &format!("{name}'s Intimidation check"))? as u16;
            let total = r as i16 + bonus;
            cx.emit(Event::Checked {
                who,
                kind: CheckKind::Intimidation,
                roll: r,
                total,
                tn: 0,
                success: true,
            });
            // HAL-R19, HAL-R21: the target checks morale at the end of the round against it.
            cx.emit(Event::Intimidated { target, result: total });
        }
        Action::Defensive { target: None, .. } | Action::FullDefense | Action::Move | Action::Flee => {}
    }
    Ok(())
}

/// A weapon attack (HAL-R35, HAL-H1, HAL-H3) and its damage.
fn strike(cx: Cx1<'_, '_>, by: Cid, target: Cid, w: u8, reposte: bool, thrown: bool) -> Result<(), EngineError> {
    let s = &*cx.s;
    let o = &s.options;
    let weapon = s.stats(by).weapons[usize::from(w)].clone();
    let me = s.ch(by);
    let foe = s.ch(target);
    let bonus = crate::odds::attack_bonus(s, by, target, &weapon, thrown);
    let defense = s.defense(target);
    let top = o.check_die;
    let crit_from = weapon.crit_range.unwrap_or(top);
    let why = format!("{}'s {} against {}", me.name, weapon.name, foe.name);
    let natural = dice(cx, 1, top, &why)? as u16;
    let o = &cx.s.options;
    let total = natural as i16 + bonus;
    // HAL-R35: a hit equals or exceeds Defense; HAL-H3: the top face hits, a 1 misses.
    let mut hit = total >= defense;
    if natural == top && o.natural_top_hits {
        hit = true;
    }
    if natural == 1 && o.natural_1_misses {
        hit = false;
    }
    // HAL-H3: a natural roll in the crit range crits, on a hit unless `crit-needs-hit` is off.
    let mut crit = natural >= crit_from && (hit || !o.crit_needs_hit) && !(natural == 1 && o.natural_1_misses);
    if hit && o.paralyzed_auto_crit && cx.s.ch(target).has(Conditions::PARALYZED) {
        crit = true;
    }
    hit |= crit;
    cx.emit(Event::Attacked {
        by,
        target,
        natural,
        total,
        defense,
        hit,
        crit,
        reposte,
    });
    // HAL-R14: a creature in full defence that is attacked may Reposte (after the attack).
    let guarding = cx.s.ch(target).has(Conditions::GUARDING);
    if guarding && check::may_react(&cx.s, target) && reposte_weapons(&cx.s, target, by).next().is_some() {
        cx.push(Frame::Reposte {
            by: target,
            against: by,
        })?;
    }
    if hit {
        let d = roll(
            cx,
            weapon.damage,
            &format!("{}'s {} damage", cx.s.ch(by).name, weapon.name),
        )?
        .max(0);
        // HAL-R28: the wound keeps every damage type of the weapon.
        let kind = weapon.types.join("/");
        deal(cx, by, target, d, crit.then_some(weapon.crit), &kind, &weapon.types)?;
    }
    Ok(())
}

/// Damage of one hit: Armour off each hit (HAL-R36), Stress first and the rest to Wound Points
/// (HAL-R25); a critical hit multiplied, all to Wound Points (HAL-R37, HAL-H4), then the injury
/// roll (HAL-R38, HAL-H5).
fn deal(
    cx: Cx1<'_, '_>,
    by: Cid,
    target: Cid,
    d: i16,
    crit: Option<u8>,
    kind: &str,
    types: &[String],
) -> Result<(), EngineError> {
    let s = &*cx.s;
    let armour = s.stats(target).armour;
    let Some(mult) = crit else {
        // HAL-R36: Armour off each hit; HAL-R25: Stress first, the rest (with the option) to
        // Wound Points.
        let floor = i64::from(s.options.armour_floor);
        let dmg = crate::odds::after_armour(d.into(), armour.into(), floor) as i16;
        let now = s.ch(target).stress;
        let stress = dmg.min(now);
        let overflow = if now > 0 && !s.options.stress_overflow {
            0
        } else {
            dmg - stress
        };
        cx.emit(Event::Damaged {
            who: target,
            stress,
            wp: overflow,
            kind: kind.into(),
            cause: Cause::Hit,
        });
        return Ok(());
    };
    let m = i16::from(mult);
    let floor = i64::from(s.options.armour_floor);
    let after = |v: i16| crate::odds::after_armour(v.into(), armour.into(), floor) as i16;
    let wp = match s.options.crit_armour_order {
        CritArmourOrder::MultiplyThenReduce => after(d.saturating_mul(m)),
        CritArmourOrder::ReduceThenMultiply => after(d).saturating_mul(m),
    };
    let chance = match s.options.injury_chance {
        InjuryChance::WoundDamage => wp,
        InjuryChance::RolledDamage => d.saturating_mul(m),
    };
    cx.emit(Event::Damaged {
        who: target,
        stress: 0,
        wp,
        kind: kind.into(),
        cause: Cause::Crit,
    });
    // The dead suffer no injury worth rolling for.
    if cx.s.ch(target).has(Conditions::DEAD) {
        return Ok(());
    }
    let name = cx.s.ch(target).name.clone();
    let r = dice(cx, 1, 100, &format!("injury chance for {name}"))? as u16;
    cx.emit(Event::InjuryRoll {
        who: target,
        roll: r,
        chance,
    });
    if i16::try_from(r).unwrap_or(i16::MAX) <= chance {
        if types.len() > 1 {
            // HAL-R39: the attacker's seat picks the table.
            cx.push(Frame::InjuryType {
                by,
                target,
                types: types.to_vec(),
            })?;
        } else {
            injure(cx, target, types.first().map_or("blunt", String::as_str))?;
        }
    }
    Ok(())
}

/// A combat injury from the table of `kind` (HAL-R39..R41, HAL-H8, HAL-H25).
fn injure(cx: Cx1<'_, '_>, target: Cid, kind: &str) -> Result<(), EngineError> {
    let s = &*cx.s;
    let table = s.setup.injuries.table(kind).to_vec();
    let name = s.ch(target).name.clone();
    let shared = &cx.s.setup.injuries;
    let table_name = if shared.0.contains_key(kind) {
        kind.to_string()
    } else {
        "blunt".to_string()
    };
    let n = table.len().min(100) as u16;
    let entry = dice(cx, 1, n, &format!("{name}'s {table_name} injury"))? as u16 - 1;
    let e = table[usize::from(entry)].clone();
    // HAL-R41: a d4 for the arm or hand: 1–2 the main one.
    let main = if e.side {
        Some(dice(cx, 1, 4, &format!("which arm of {name}"))? <= 2)
    } else {
        None
    };
    let mut loss = Vec::new();
    if let Some(d) = e.damage {
        let why = format!("{name}'s {} ability damage", e.name);
        match cx.s.options.dual_ability_damage {
            DualAbilityDamage::OneRoll => {
                let v = roll(cx, d, &why)?.max(0);
                loss.extend(e.abilities.iter().map(|&a| (a, v)));
            }
            DualAbilityDamage::SeparateRolls => {
                for &a in &e.abilities {
                    let v = roll(cx, d, &why)?.max(0);
                    loss.push((a, v));
                }
            }
        }
    }
    cx.emit(Event::Injured {
        who: target,
        table: table_name,
        entry: entry as u8,
        main,
        loss,
    });
    Ok(())
}

/// A move on the creature's count (HAL-R18, HAL-H17). It stops on the first square that enters
/// a hostile creature's threat range, whose owner may then Reposte (HAL-R16), unless the mover
/// made a defensive attack (HAL-R15).
/// `path` is the way the check found (the squares after the start).
fn walk(cx: Cx1<'_, '_>, to: Pos, short: bool, path: Vec<Pos>) -> Result<(), EngineError> {
    let s = &*cx.s;
    let t: Turn = s.turn.ok_or_else(|| bug("a move without a turn"))?;
    let who = t.who;
    let defensive = matches!(s.acts[usize::from(t.act)].action, Action::Defensive { .. });
    let m = s.options.metric;
    let mut prev = s.ch(who).at;
    let costs = check::path_costs(s, s.ch(who).at, &path);
    let mut stop = (to, costs.last().copied().unwrap_or(0));
    let mut provoked: Vec<Cid> = Vec::new();
    if s.options.reposte_on_entry && !defensive {
        for (i, &sq) in path.iter().enumerate() {
            provoked = s
                .ids()
                .filter(|&x| {
                    x != who && s.hostile(x, who) && check::may_react(s, x) && {
                        let r = threat_range(s, x);
                        let at = s.ch(x).at;
                        r > 0 && m.distance(prev, at) > r && m.distance(sq, at) <= r
                    }
                })
                .collect();
            if !provoked.is_empty() {
                stop = (sq, costs[i]);
                break;
            }
            prev = sq;
        }
    }
    if short {
        // HAL-R17: the short move is the turn's Free action; it takes nothing from Speed.
        take_free(cx, who, Free::Step, Some(stop.0))?;
    } else {
        cx.emit(Event::Moved {
            who,
            to: stop.0,
            cost: stop.1,
        });
    }
    // The lowest id answers first: it goes on top.
    for &x in provoked.iter().rev() {
        cx.push(Frame::Reposte { by: x, against: who })?;
    }
    Ok(())
}

/// A Free action is taken (HAL-R17). Speech costs nothing (HAL-R29); any other Free action is
/// an action for the costs of acting hurt: a Wound Point for the Incapacitated and the Dying
/// (HAL-R29, HAL-R30), and for the Stabilized beyond their first action of the round (HAL-R33;
/// each cost untyped Wound Point damage, HAL-R43).
fn take_free(cx: Cx1<'_, '_>, who: Cid, free: Free, to: Option<Pos>) -> Result<(), EngineError> {
    let cost = free.is_action() && acting_costs(&cx.s, who);
    cx.emit(Event::Free { who, free, to });
    pay_strain(cx, who, cost);
    Ok(())
}

/// Runs automatic steps until a seat must decide or the combat is over.
pub fn advance(cx: Cx1<'_, '_>) -> Result<(), EngineError> {
    settle(cx, step)
}

fn step(cx: Cx1<'_, '_>) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if s.outcome.is_some() {
        return Ok(Flow::Wait);
    }
    if let Some(f) = s.frames.last() {
        return match f {
            Frame::Reposte { by, against } => {
                let (by, against) = (*by, *against);
                if !check::may_react(s, by) || s.ch(against).gone() || reposte_weapons(s, by, against).next().is_none()
                {
                    cx.pop();
                    Ok(Flow::Go)
                } else {
                    Ok(Flow::Wait)
                }
            }
            Frame::InjuryType { .. } => Ok(Flow::Wait),
        };
    }
    if let Some(c) = s.ids().find(|&c| s.ch(c).base.is_none() && !s.ch(c).gone()) {
        set_up(cx, c)?;
        return Ok(Flow::Go);
    }
    match s.phase {
        Phase::Setup => {
            cx.emit(Event::RoundStarted { round: 1 });
            Ok(Flow::Go)
        }
        Phase::Declaring => declaring(cx),
        Phase::Resolving => resolving(cx),
    }
}

fn declaring(cx: Cx1<'_, '_>) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if let Some(winner) = end_check(s) {
        cx.emit(Event::Ended { winner });
        return Ok(Flow::Go);
    }
    // A fleeing creature's flight is declared for it (HAL-H13).
    if let Some(c) = s.ids().find(|&c| {
        let ch = s.ch(c);
        ch.has(Conditions::FLEEING)
            && ch.declared.is_none()
            && !ch.gone()
            && ch.base.is_some()
            && !ch.has(Conditions::PARALYZED)
    }) {
        cx.emit(Event::Declared {
            who: c,
            action: Some(Action::Flee),
        });
        return Ok(Flow::Go);
    }
    if s.ids().any(|c| due(s, c)) {
        return Ok(Flow::Wait);
    }
    // HAL-R7: round initiative = Base Initiative + the action's modifier; HAL-R13: a catch-up
    // turn at −12.
    let mut acts: Vec<Act> = Vec::new();
    for c in s.ids() {
        let ch = s.ch(c);
        let (Some(base), Some(action)) = (ch.base, ch.declared) else {
            continue;
        };
        if ch.gone() {
            continue;
        }
        let count = i32::from(base) + i32::from(action.speed(s.stats(c), &s.options));
        if let Some((missed_action, missed, free)) = ch.catch_up {
            let from = if s.options.catch_up_on_missed { missed } else { count };
            acts.push(Act {
                who: c,
                action: missed_action,
                count: from - 12,
                catch_up: true,
                was: ch.cap(),
                free,
                lone: false,
            });
        }
        // HAL-R17: the Free action goes with the action, or (`free-action-timing =
        // "own-count"`) takes a turn of its own at Base Initiative + `free-speed`.
        let mut free = ch.declared_free;
        if free.is_some() && s.options.free_action_timing == FreeActionTiming::OwnCount {
            acts.push(Act {
                who: c,
                action: Action::Move,
                count: i32::from(base) + i32::from(s.options.free_speed),
                catch_up: false,
                was: ch.cap(),
                free: free.take(),
                lone: true,
            });
        }
        acts.push(Act {
            who: c,
            action,
            count,
            catch_up: false,
            was: ch.cap(),
            free,
            lone: false,
        });
    }
    // HAL-R9: lowest first; equal counts keep encounter order and act together (HAL-R10).
    acts.sort_by_key(|a| (a.count, a.who, !a.catch_up));
    cx.emit(Event::Revealed { acts });
    Ok(Flow::Go)
}

fn resolving(cx: Cx1<'_, '_>) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if s.ids().any(|c| due(s, c)) {
        return Ok(Flow::Wait);
    }
    if let Some(t) = s.turn {
        // One killed on this very count still finishes its turn (HAL-R10).
        if gone_for_good(s, t.who) || s.cap_now(t.who) == Cap::Out {
            cx.emit(Event::TurnEnded { act: t.act });
            return Ok(Flow::Go);
        }
        return Ok(Flow::Wait);
    }
    if s.caps.is_empty()
        && let Some(winner) = end_check(s)
    {
        cx.emit(Event::Ended { winner });
        return Ok(Flow::Go);
    }
    let Some(at) = s.order.current_slot() else {
        end_of_round(cx)?;
        return Ok(Flow::Go);
    };
    let i = at.who;
    let act = s.acts[usize::from(i)];
    if s.caps.is_empty() {
        cx.emit(Event::CountStarted { count: act.count });
        return Ok(Flow::Go);
    }
    let who = act.who;
    let cap = s.cap_now(who);
    // HAL-H16: the dead and the paralysed lose their action; one dropped to Dying since it
    // declared loses it; one dropped to Incapacitated may still act (paying HAL-R29's cost),
    // unless `incapacitated-may-act` is off.
    let lost = match cap {
        _ if gone_for_good(s, who) => Some(Lost::Unable),
        Cap::Out => Some(Lost::Unable),
        Cap::Dying if act.was != Cap::Dying => Some(Lost::Unable),
        // HAL-R30: one action a round for the Dying (a Reposte already taken counts; a lone
        // Free action that is speech is no action).
        Cap::Dying if s.ch(who).actions > 0 && !(act.lone && act.free == Some(Free::Speak)) => Some(Lost::Unable),
        Cap::Incapacitated if act.was == Cap::Able && !s.options.incapacitated_may_act => Some(Lost::Dropped),
        _ if !act.catch_up && check::resting(s, who) => Some(Lost::Resting),
        _ => None,
    };
    if let Some(why) = lost {
        cx.emit(Event::ActLost { act: i, why });
        return Ok(Flow::Go);
    }
    cx.emit(Event::TurnStarted { act: i });
    if act.action == Action::FullDefense {
        // Full defence is the declared action: taking it counts, and costs the hurt their
        // Wound Point (HAL-R17, HAL-R29, HAL-R30, HAL-R33).
        take_action(cx, who, false)?;
        if cx.s.options.full_defense_timing == FullDefenseTiming::FromCount {
            // HAL-R14, HAL-H23: +4 Defense and the Reposte option from its own count.
            cx.emit(Event::Guarding { who });
        }
    }
    if act.action == Action::Flee {
        flee(cx, i, who)?;
    }
    Ok(Flow::Go)
}

/// Fled, surrendered or removed: out of the combat even on the count under way (unlike one
/// killed on it, HAL-R10).
fn gone_for_good(s: &State, who: Cid) -> bool {
    s.ch(who).gone() && !s.ch(who).has(Conditions::DEAD)
}

/// A fleeing creature runs for the nearest edge of the map by walking distance and leaves once
/// it reaches one; with no way to an edge it surrenders (HAL-H13). Its flight provokes no
/// Reposte (fray's own reading).
fn flee(cx: Cx1<'_, '_>, act: u16, who: Cid) -> Result<(), EngineError> {
    let s = &*cx.s;
    let map = &s.setup.map;
    let at = s.ch(who).at;
    let (w, h) = (map.width() as i16, map.height() as i16);
    let edge = move |p: Pos| p.x == 0 || p.y == 0 || p.x == w - 1 || p.y == h - 1;
    if edge(at) {
        cx.emit(Event::Fled { who });
        cx.emit(Event::TurnEnded { act });
        return Ok(());
    }
    let mut scratch = fray_space::DiagonalScratch::new();
    let r = check::walk_reach(s, at, u32::MAX, &mut scratch);
    let best = r
        .destinations()
        .filter(|(p, _)| edge(*p))
        .min_by_key(|(p, d)| (*d, p.y, p.x));
    let Some((goal, _)) = best else {
        cx.emit(Event::Surrendered { who });
        cx.emit(Event::TurnEnded { act });
        return Ok(());
    };
    let path = r.path_to(goal).unwrap_or_default();
    let t = s.turn.ok_or_else(|| bug("a flight without a turn"))?;
    let budget = move_budget(s, who, Some(&t)).saturating_sub(s.ch(who).moved) as usize;
    // The path lists the squares after the start: go as far along it as the budget allows.
    let costs = check::path_costs(s, at, &path);
    let n = costs.iter().take_while(|&&c| c as usize <= budget).count();
    let spent = if n > 0 { costs[n - 1] } else { 0 };
    if n > 0 {
        cx.emit(Event::Moved {
            who,
            to: path[n - 1],
            cost: spent,
        });
    }
    if n > 0 && edge(path[n - 1]) {
        cx.emit(Event::Fled { who });
    }
    cx.emit(Event::TurnEnded { act });
    Ok(())
}

/// HAL-R23, HAL-H14: the combat ends once at most one side has creatures still fighting.
pub fn end_check(s: &State) -> Option<Option<u8>> {
    let fleeing = s.options.fleeing_counts_as_fighting;
    let mut sides = s.chars.iter().filter(|c| c.fighting(fleeing)).map(|c| c.side);
    match sides.next() {
        None => Some(None),
        Some(first) => sides.all(|x| x == first).then_some(Some(first)),
    }
}

/// The end of a round (HAL-R1, HAL-H26): the Dying lose a Wound Point (HAL-R30, HAL-R43) and
/// monsters check morale (HAL-R19..R22), in the order of `end-of-round`; then the next round.
fn end_of_round(cx: Cx1<'_, '_>) -> Result<(), EngineError> {
    let round = cx.s.round;
    match cx.s.options.end_of_round {
        EndOfRound::DyingThenMorale => {
            bleed(cx);
            morale(cx)?;
        }
        EndOfRound::MoraleThenDying => {
            morale(cx)?;
            bleed(cx);
        }
    }
    // The round is over once its end-of-round steps are (its log line comes after them).
    cx.emit(Event::RoundEnded { round });
    if let Some(winner) = end_check(&cx.s) {
        cx.emit(Event::Ended { winner });
    } else {
        cx.emit(Event::RoundStarted { round: round + 1 });
    }
    Ok(())
}

/// HAL-R30: every Dying creature that is not Stabilized (HAL-R34) loses 1 Wound Point.
fn bleed(cx: Cx1<'_, '_>) {
    let dying: Vec<Cid> =
        cx.s.ids()
            .filter(|&c| {
                let ch = cx.s.ch(c);
                let stable = ch.has(Conditions::STABILIZED) && cx.s.options.stabilized_stops_bleeding;
                !ch.gone() && ch.wp < 0 && !stable
            })
            .collect();
    let kind = cx.s.options.strain_damage_type.clone();
    for who in dying {
        cx.emit(Event::Damaged {
            who,
            stress: 0,
            wp: 1,
            kind: kind.clone(),
            cause: Cause::Bleeding,
        });
    }
}

/// HAL-R19..R22, HAL-H13..H15: each monster still fighting checks morale if a trigger fired
/// this round. The counts are taken once, before any check, so the checks are simultaneous.
fn morale(cx: Cx1<'_, '_>) -> Result<(), EngineError> {
    let s = &*cx.s;
    let fighting = |side: u8, same: bool| {
        s.chars
            .iter()
            .filter(|c| c.fighting(s.options.fleeing_counts_as_fighting) && (c.side == side) == same)
            .count() as i16
    };
    let mut checks = Vec::new();
    for c in s.ids() {
        let ch = s.ch(c);
        // A fleeing monster has broken already: it checks no more.
        if !s.fighting(c) || ch.has(Conditions::FLEEING) || !(s.stats(c).monster || s.options.pc_morale) {
            continue;
        }
        let (own, foes) = (fighting(ch.side, true), fighting(ch.side, false));
        // HAL-H15: one hit this round took more than half its maximum Wound Points.
        let big_hit = ch.worst_hit > s.wp_max(c).max(0) / 2;
        // HAL-H14: outnumbered by hostile creatures still fighting.
        let outnumbered = foes > own;
        if !(big_hit || outnumbered || ch.intimidated.is_some()) {
            continue;
        }
        // HAL-R20: 3d6 + Insight modifier + HD + allies; HAL-R21: TN 11 + opponents, or the
        // Intimidation result.
        // HAL-H6: a concussed monster's check is at −2 too.
        let dazed = if ch.has(Conditions::CONCUSSED) {
            s.options.concussed_penalty
        } else {
            0
        };
        let bonus = s.modifier(c, Ability::Insight) + i16::from(s.stats(c).hd) + (own - 1) - dazed;
        let tn = ch.intimidated.unwrap_or(11 + foes);
        checks.push((c, bonus, tn, ch.has(Conditions::HOPELESS), ch.name.clone()));
    }
    for (who, bonus, tn, hopeless, name) in checks {
        // HAL-R22: a monster to which the outcome is obvious fails, and no 3d6 is drawn for it
        // (`morale-roll-when-obvious` draws it anyway, as fray 0.1.0 did, and ignores it).
        let success = if hopeless && !cx.s.options.morale_roll_when_obvious {
            cx.emit(Event::MoraleObvious { who });
            false
        } else {
            let r = dice(cx, 3, 6, &format!("{name}'s morale"))? as u16;
            let total = r as i16 + bonus;
            let o = &cx.s.options;
            let success = !hopeless && (total > tn || (total == tn && o.morale_ties_pass));
            cx.emit(Event::Checked {
                who,
                kind: CheckKind::Morale,
                roll: r,
                total,
                tn,
                success,
            });
            success
        };
        if !success {
            match cx.s.options.morale_failure {
                MoraleFailure::Flee => cx.emit(Event::Broke { who }),
                MoraleFailure::Surrender => cx.emit(Event::Surrendered { who }),
            }
        }
    }
    Ok(())
}
