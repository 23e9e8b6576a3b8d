//! The Attack action and the stages of an attack, from its declaration to its hit or miss.
//!
//! An attack is a frame on the stack that goes through its stages (`AttackStage`): the readied
//! characters it sets off (ING-R24), Intercept (ING-R33), the defences declared before the roll
//! (ING-H12), the attack test (ING-R37: an attribute of the weapon's, the Combat die and a
//! proficiency, with the multiple attack penalty, ING-R40, and advantages, ING-R43 to ING-R47),
//! a critical hit (ING-R38) or a misfire (ING-R39), the hit against the effective evasion (size,
//! ING-R46; a dodge, ING-R48), then a block and the damage (`damage`). The decision behind this
//! module: an attack's whole course is one topic, so the check of the Attack action, the list of
//! attacks and every stage of the frame are here; what the target decides (`defence`) and what
//! a hit does (`damage`) are their own topics, which this module drives.

use crate::calc;
use crate::codes::{self, no};
use crate::data::{Attr, Cond, Item};
use crate::event::{AutoStep, AutoWhy, Event};
use crate::options::{DamageTotal, DefenceTiming, ParryAddsTo, SizeShift};
use crate::setup::Cid;
use crate::state::{Attack, AttackKind, AttackStage, Cx, Defences, Frame, R, State, Trigger};
use fray_engine::{EngineError, Flow, Reject};

use super::damage::apply_hit;
use super::defence::{can_block, can_defend, holds_blocker, intercept_candidates, why_no_defence};
use super::reaction::{can_react, why_no_reaction};
use super::trigger::ready_window;
use super::{Plan, charge};
use crate::command::{Action, default_prof};
use crate::roll::{roll_test, single};

/// The refusal for a slot that holds nothing: no weapon to default to (`NO_SLOT`), or an index
/// beyond the character's items.
pub(crate) fn missing_item(s: &State, who: Cid, slot: u8) -> Reject {
    if slot == crate::command::NO_SLOT {
        no(codes::NO_WEAPON, format!("{} holds no weapon", s.name(who)))
    } else {
        no(codes::UNKNOWN_ITEM, "no such item")
    }
}

/// Whether `who` can attack `target` with the item in `slot` now (ignoring the action cost).
pub fn attack_ok(s: &State, who: Cid, target: Cid, slot: u8) -> Result<(), Reject> {
    let Some(k) = s.carried(who, slot) else {
        return Err(missing_item(s, who, slot));
    };
    let item = s.setup.armoury.item(k.item);
    if !item.weapon {
        return Err(no(codes::NO_WEAPON, format!("{} is not a weapon", item.name)));
    }
    if !k.held {
        return Err(no(
            codes::HANDS,
            format!("{} is not in hand (brandish it first)", item.name),
        ));
    }
    if item.reload > 0 && !k.loaded {
        return Err(no(codes::NOT_LOADED, format!("{} must be reloaded first", item.name)));
    }
    if target as usize >= s.chars.len() || target == who {
        return Err(no(codes::INVALID_TARGET, "choose another combatant"));
    }
    let t = s.ch(target);
    if !t.present() || t.pos.is_none() {
        return Err(no(
            codes::INVALID_TARGET,
            format!("{} is not in the fight", s.name(target)),
        ));
    }
    let d = calc::distance_between(s, who, target);
    if d > item.range {
        return Err(no(
            codes::OUT_OF_RANGE,
            format!(
                "{} is {d} m away; {} reaches {} m",
                s.name(target),
                item.name,
                item.range
            ),
        ));
    }
    Ok(())
}

/// The weapon `who` holds in `slot`, or the refusal: `refusal` (`no-weapon`) when the item
/// there is no weapon or not in hand.
pub(crate) fn weapon_in_hand<'a>(s: &'a State, who: Cid, slot: u8, refusal: &'static str) -> Result<&'a Item, Reject> {
    let Some(k) = s.carried(who, slot) else {
        return Err(missing_item(s, who, slot));
    };
    let item = s.setup.armoury.item(k.item);
    if !item.weapon || !k.held {
        return Err(no(codes::NO_WEAPON, refusal));
    }
    Ok(item)
}

/// The check of an Attack by `who` on `target` with the item in `slot`, using `attr` and the
/// proficiency `prof`.
pub(crate) fn check(
    s: &State,
    who: Cid,
    target: Cid,
    slot: u8,
    attr: &Attr,
    prof: &Option<String>,
) -> Result<Plan, Reject> {
    attack_ok(s, who, target, slot)?;
    let item = s
        .item(who, slot)
        .ok_or_else(|| no(codes::UNKNOWN_ITEM, "no such item"))?;
    if !item.attributes.contains(attr) {
        return Err(no(
            codes::BAD_COMMAND,
            format!(
                "{} attacks use {}",
                item.name,
                item.attributes
                    .iter()
                    .map(|a| a.name())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        ));
    }
    if let Some(p) = prof {
        if !item.proficiencies.contains(p) {
            return Err(no(
                codes::BAD_COMMAND,
                format!(
                    "{} takes the proficiencies {}",
                    item.name,
                    item.proficiencies.join(", ")
                ),
            ));
        }
        // ING-R37: a proficiency is added only if the attacker has it.
        if s.info(who).stats.prof(p) <= 0 {
            return Err(no(
                codes::NO_PROFICIENCY,
                format!("{} has no {p} proficiency: attack with prof none", s.name(who)),
            ));
        }
    }
    Ok(Plan::Plain)
}

/// The slots of the weapons `me` holds.
pub(crate) fn held_weapons(s: &State, me: Cid) -> Vec<u8> {
    let c = s.ch(me);
    (0..c.items.len() as u8)
        .filter(|k| c.items[*k as usize].held && s.setup.armoury.item(c.items[*k as usize].item).weapon)
        .collect()
}

/// Attack actions of `me` against every combatant with every held weapon: each allowed
/// attribute with the best proficiency first, then the other proficiency choices.
pub fn attacks(s: &State, me: Cid, out: &mut Vec<Action>) {
    let c = s.ch(me);
    for (k, carried) in c.items.iter().enumerate() {
        if !carried.held {
            continue;
        }
        let item = s.setup.armoury.item(carried.item);
        if !item.weapon {
            continue;
        }
        let slot = k as u8;
        // Only the weapon's proficiencies the attacker has (ING-R37), and none.
        let best = default_prof(s, me, slot);
        let mut profs = vec![best.clone()];
        let own = item
            .proficiencies
            .iter()
            .filter(|p| s.info(me).stats.prof(p) > 0)
            .map(|p| Some(p.clone()));
        for p in own.chain([None]) {
            if !profs.contains(&p) {
                profs.push(p);
            }
        }
        let mut targets: Vec<Cid> = s.ids().filter(|&t| t != me && s.enemies(me, t)).collect();
        targets.extend(s.ids().filter(|&t| s.allies(me, t)));
        for t in targets {
            for prof in &profs {
                for &attr in &item.attributes {
                    out.push(Action::Attack {
                        target: t,
                        slot,
                        attr,
                        prof: prof.clone(),
                    });
                }
            }
        }
    }
}

/// Resolves the Attack action: 1 action (unless commanded, `via`), then the attack is declared.
pub(crate) fn resolve(
    cx: &mut Cx,
    who: Cid,
    via: Option<Cid>,
    target: Cid,
    slot: u8,
    attr: Attr,
    prof: Option<String>,
) -> R {
    charge(cx, who, via, 1);
    declare_attack(cx, who, target, slot, attr, prof, AttackKind::Normal)
}

/// Announces an attack of `who` on `target` (its penalty and its bonus from the weapon's
/// properties, which it gives back): a declared attack and a killing strike alike.
pub(crate) fn announce(cx: &mut Cx, who: Cid, target: Cid, slot: u8, attr: Attr, prof: &Option<String>) -> (i16, i16) {
    let penalty = calc::attack_penalty(&cx.s, who);
    let bonus = calc::property_bonus(&cx.s, who, slot, target);
    cx.emit(Event::AttackDeclared {
        attacker: who,
        target,
        slot,
        attr,
        prof: prof.clone(),
        penalty,
        bonus,
    });
    (penalty, bonus)
}

/// A just declared attack, nothing of it rolled or decided yet (at its first stage, not thrown
/// from afar: the caller says otherwise).
pub(crate) fn declared(
    who: Cid,
    target: Cid,
    slot: u8,
    attr: Attr,
    prof: Option<String>,
    kind: AttackKind,
    penalty_bonus: (i16, i16),
) -> Attack {
    let (penalty, bonus) = penalty_bonus;
    Attack {
        attacker: who,
        target,
        slot,
        attr,
        prof,
        kind,
        stage: AttackStage::Ready,
        penalty,
        bonus,
        intercept: Vec::new(),
        defences: Defences::default(),
        total: None,
        base_total: None,
        luck: None,
        crit: false,
        hit: false,
        raw: 0,
        misfired: false,
        thrown_from_afar: false,
    }
}

/// Declares an attack and puts its frame on the stack.
pub(crate) fn declare_attack(
    cx: &mut Cx,
    who: Cid,
    target: Cid,
    slot: u8,
    attr: Attr,
    prof: Option<String>,
    kind: AttackKind,
) -> R {
    let penalty_bonus = announce(cx, who, target, slot, attr, &prof);
    let thrown_from_afar =
        cx.s.item(who, slot)
            .is_some_and(|i| calc::throws(&cx.s, who, target, i));
    cx.push(Frame::Attack(Box::new(Attack {
        thrown_from_afar,
        ..declared(who, target, slot, attr, prof, kind, penalty_bonus)
    })))
}

/// Steps an attack's frame on through its stages.
pub(crate) fn attack_step(cx: &mut Cx, mut a: Attack) -> Result<Flow, EngineError> {
    let before_roll = a.total.is_none();
    if before_roll && (!cx.s.ch(a.attacker).able() || !cx.s.ch(a.target).present()) {
        // The attacker was stopped (a readied attack knocked it out) or the target left.
        cx.pop();
        return Ok(Flow::Go);
    }
    match a.stage {
        AttackStage::Ready => {
            let attacker = a.attacker;
            let fallback = a.kind == AttackKind::KillFallback;
            a.stage = AttackStage::Intercept;
            cx.update(Frame::Attack(Box::new(a)));
            if !fallback {
                ready_window(cx, Trigger::Attack, attacker, None)?;
            }
            Ok(Flow::Go)
        }
        AttackStage::Intercept => {
            if a.kind == AttackKind::KillFallback {
                a.stage = AttackStage::Roll;
                cx.update(Frame::Attack(Box::new(a)));
                return Ok(Flow::Go);
            }
            // ING-R33: every ally who may intercept is asked at once, in one decision of the
            // target's team seat (`intercept <ally>` or `pass`).
            if a.intercept.is_empty() {
                let c = intercept_candidates(&cx.s, &a);
                if c.is_empty() {
                    a.stage = AttackStage::Defend;
                    cx.update(Frame::Attack(Box::new(a)));
                    return Ok(Flow::Go);
                }
                a.intercept = c;
                cx.update(Frame::Attack(Box::new(a)));
                return Ok(Flow::Go);
            }
            if a.intercept.iter().any(|&c| can_react(&cx.s, c, false, 1, 0)) {
                return Ok(Flow::Wait);
            }
            a.stage = AttackStage::Defend;
            cx.update(Frame::Attack(Box::new(a)));
            Ok(Flow::Go)
        }
        AttackStage::Defend => {
            if defend_now(&cx.s, &a) {
                if cx.s.ch(a.target).able() && can_defend(&cx.s, &a) {
                    return Ok(Flow::Wait);
                }
                // Say why the target is not asked (ING-R30, ING-R32, ING-R14's option).
                let why = why_no_defence(&cx.s, &a);
                cx.emit(Event::Automatic {
                    who: a.target,
                    step: AutoStep::NoDefence,
                    why,
                });
            }
            a.stage = AttackStage::Roll;
            cx.update(Frame::Attack(Box::new(a)));
            Ok(Flow::Go)
        }
        AttackStage::Roll => {
            if a.total.is_none() {
                roll_attack(cx, &mut a)?;
                if defend_now(&cx.s, &a) && cx.s.ch(a.target).able() {
                    a.stage = AttackStage::Defend;
                    cx.update(Frame::Attack(Box::new(a)));
                    return Ok(Flow::Go);
                }
            }
            decide_hit(cx, a)?;
            Ok(Flow::Go)
        }
        AttackStage::Block => {
            if cx.s.ch(a.target).able() && can_block(&cx.s, &a) {
                return Ok(Flow::Wait);
            }
            // A blocking item in hand that cannot be used: say why (ING-R51, ING-R32).
            if holds_blocker(&cx.s, a.target) {
                let why = why_no_reaction(&cx.s, a.target, a.defences.free > 0);
                cx.emit(Event::Automatic {
                    who: a.target,
                    step: AutoStep::NoBlock,
                    why,
                });
            }
            apply_hit(cx, a, None)?;
            Ok(Flow::Go)
        }
        AttackStage::Done => {
            let dodged = a.defences.dodge.is_some();
            let who = a.target;
            cx.pop();
            if let Some(item) = cx.s.item(a.attacker, a.slot)
                && item.thrown
                && a.thrown_from_afar
                && let Some(to) = cx.s.ch(a.target).pos.or(cx.s.ch(a.attacker).pos)
            {
                cx.emit(Event::Thrown {
                    who: a.attacker,
                    slot: a.slot,
                    to,
                });
            }
            if dodged && cx.s.ch(who).able() {
                cx.push(Frame::AfterDodge { who, used: 0 })?;
            }
            Ok(Flow::Go)
        }
    }
}

/// Whether the target declares defences at this point of the attack (ING-H12): before the
/// roll by default, after it with `defence-timing = "after-roll"`, and after a misfire for the
/// new target with `misfire-target-defends`.
fn defend_now(s: &State, a: &Attack) -> bool {
    match a.total {
        None => s.options.defence_timing == DefenceTiming::BeforeRoll,
        Some(_) => {
            s.options.defence_timing == DefenceTiming::AfterRoll || (a.misfired && s.options.misfire_target_defends)
        }
    }
}

fn roll_attack(cx: &mut Cx, a: &mut Attack) -> R {
    let Some(item) = cx.s.item(a.attacker, a.slot).cloned() else {
        return Err(EngineError::Bug("attack with no item".into()));
    };
    let (mut adv, mut reasons) = calc::advantage(&cx.s, a.attacker, a.target, &item);
    if a.kind == AttackKind::KillFallback && !reasons.iter().any(|r| r == "sneak attack") {
        adv += 1;
        reasons.push("sneak attack".into());
    }
    let st = &cx.s.info(a.attacker).stats;
    let attr_die = st.attr(a.attr);
    let skill_die = st.skill("combat");
    let prof = calc::prof_bonus(&cx.s, a.attacker, a.prof.as_deref());
    let roll = roll_test(
        cx,
        a.attacker,
        attr_die,
        skill_die,
        prof + a.penalty + a.bonus,
        adv,
        true,
        "attack",
    )?;
    a.total = Some(roll.total);
    a.base_total = Some(roll.dice_sum() + prof);
    a.luck = Some(roll.luck_total);
    // ING-R38: a luck die at or above the weapon's critical threshold is a critical hit.
    a.crit = roll.luck_total >= item.critical_threshold;
    cx.emit(Event::AttackRolled {
        attacker: a.attacker,
        roll: roll.clone(),
        advantage: adv,
        reasons,
    });
    // Attacking reveals a hidden attacker (fray's hidden-ends-on-attack option).
    if cx.s.options.hidden_ends_on_attack && cx.s.ch(a.attacker).has(Cond::Hidden) {
        cx.emit(Event::Condition {
            who: a.attacker,
            cond: Cond::Hidden,
            on: false,
            until_turn_end: false,
        });
    }
    // A thrown weapon leaves the hand when thrown beyond melee reach (fray's ruling): it lands on
    // the target's square, after the attack is resolved (see `attack_step`).
    // Reloading weapons are empty after a shot.
    if item.reload > 0 {
        cx.emit(Event::Loaded {
            who: a.attacker,
            slot: a.slot,
            loaded: false,
        });
    }
    // Misfire (ING-R39): a luck die of 1 or less sends it to a random character near the target.
    if item.can_misfire(&cx.s.options, a.thrown_from_afar) && roll.luck_total <= 1 && !a.crit {
        let tp = cx.s.ch(a.target).pos;
        let near: Vec<Cid> =
            cx.s.ids()
                .filter(|&c| c != a.target && c != a.attacker && cx.s.ch(c).present())
                .filter(|&c| match (cx.s.ch(c).pos, tp) {
                    (Some(p), Some(q)) => calc::distance(&cx.s, p, q) <= 1,
                    _ => false,
                })
                .collect();
        if !near.is_empty() {
            let (pick, target) = if near.len() == 1 {
                (None, near[0])
            } else {
                let k = single(cx, a.attacker, near.len() as u16, "misfire (who is hit)")?;
                (Some(k), near[(k as usize - 1).min(near.len() - 1)])
            };
            cx.emit(Event::Misfired {
                target,
                pick,
                candidates: near.len() as u8,
            });
            // The defences declared were the old target's.
            a.target = target;
            a.misfired = true;
            a.defences = Defences::default();
            if !defend_now(&cx.s, a) && cx.s.ch(target).able() {
                cx.emit(Event::Automatic {
                    who: target,
                    step: AutoStep::NoDefence,
                    why: AutoWhy::MisfireRolled,
                });
            }
        }
    }
    cx.update(Frame::Attack(Box::new(a.clone())));
    Ok(())
}

/// The evasion an attack must meet (ING-R37, ING-R46, ING-R48, ING-H27).
pub fn effective_evasion(s: &State, a: &Attack) -> i16 {
    let t = a.target;
    let base = calc::evasion(s, t);
    let d = calc::size_difference(s, a.attacker, t);
    let parry_ev = match (a.defences.parry, s.options.parry_adds_to) {
        (Some(slot), ParryAddsTo::Evasion) => s.item(t, slot).map_or(1, |i| i.parry.unwrap_or(1)),
        _ => 0,
    };
    // ING-R46: the size difference shifts the target's evasion: up when the attacker is
    // larger, down when smaller.
    let ev = match (a.defences.dodge, s.options.size_shift) {
        (Some(dodge), SizeShift::Last) => dodge.max(base) + d,
        (Some(dodge), SizeShift::First) => dodge.max(base + d),
        (None, _) => base + d,
    };
    ev + parry_ev
}

fn decide_hit(cx: &mut Cx, mut a: Attack) -> R {
    let evasion = effective_evasion(&cx.s, &a);
    let total = a.total.unwrap_or(0);
    // ING-R38: a critical hit hits whatever the evasion.
    a.hit = a.crit || total >= evasion;
    cx.emit(Event::AttackResult {
        attacker: a.attacker,
        target: a.target,
        evasion,
        hit: a.hit,
        crit: a.crit,
    });
    if !a.hit {
        a.stage = AttackStage::Done;
        cx.update(Frame::Attack(Box::new(a)));
        return Ok(());
    }
    let item = cx.s.item(a.attacker, a.slot).cloned();
    let weapon = item
        .as_ref()
        .map_or(0, |i| if a.crit { i.critical_damage } else { i.damage });
    let base = match cx.s.options.damage_total {
        DamageTotal::Modified => total,
        DamageTotal::Unmodified => a.base_total.unwrap_or(total),
    };
    // ING-R41: a hit's damage is the attack total plus the weapon's damage (its critical
    // damage on a critical hit, ING-R38); reduction comes off later, in `damage`.
    a.raw = base + weapon;
    a.stage = AttackStage::Block;
    cx.update(Frame::Attack(Box::new(a)));
    Ok(())
}
