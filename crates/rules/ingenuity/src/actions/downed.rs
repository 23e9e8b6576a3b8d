//! Acting on an unconscious character: Resuscitate and the killing strike.
//!
//! Resuscitate costs 2 actions: the actor goes prone, then tests to bring an unconscious
//! character next to it back to consciousness (ING-R25; the test's attribute, skill,
//! proficiency and difficulty are options). A killing strike on an unconscious character is a
//! test with advantage using the Combat skill against the victim's constitution: success kills,
//! failure turns it into a sneak attack in the same action (ING-R64, ING-H4, ING-H5, ING-H26).
//! Both may run over several turns (`extended`). The decision behind this module: both actions
//! need a target still down when their cost is paid, so the one test of that is here, for the
//! check and for the resolution; the killing strike announces and builds its fallback attack
//! with `attack`'s own functions.

use crate::calc;
use crate::codes::{self, no};
use crate::command::Action;
use crate::data::{Attr, Cond};
use crate::event::Event;
use crate::options::KillingStrikeWeapons;
use crate::setup::Cid;
use crate::state::{Attack, AttackKind, AttackStage, Cx, Ext, Frame, R, State};
use fray_engine::Reject;
use fray_space::chebyshev;

use super::attack::{announce, attack_ok, declared, held_weapons, weapon_in_hand};
use super::extended::pay_or_extend;
use super::posture::drop_prone;
use super::{Plan, known, on_map};
use crate::roll::{named_test, roll_test};

/// Whether `t` is down: in the fight, unconscious and not dead.
fn down(s: &State, t: Cid) -> bool {
    let tc = s.ch(t);
    tc.present() && tc.unconscious && !tc.dead
}

/// The check of Resuscitate by `who` on `t`.
pub(crate) fn check_resuscitate(s: &State, who: Cid, t: Cid) -> Result<Plan, Reject> {
    let here = on_map(s, who)?;
    if !known(s, t) {
        return Err(no(codes::UNKNOWN_COMBATANT, "no such combatant"));
    }
    let tc = s.ch(t);
    if !down(s, t) {
        return Err(no(codes::INVALID_TARGET, format!("{} is not unconscious", s.name(t))));
    }
    if tc.pos.is_none_or(|p| chebyshev(p, here) > 1) {
        return Err(no(
            codes::OUT_OF_RANGE,
            format!("{} is not next to {}", s.name(t), s.name(who)),
        ));
    }
    Ok(Plan::Plain)
}

/// The check of a killing strike by `who` on `target` with the weapon in `slot`.
pub(crate) fn check_kill(s: &State, who: Cid, target: Cid, slot: u8) -> Result<Plan, Reject> {
    if !known(s, target) {
        return Err(no(codes::UNKNOWN_COMBATANT, "no such combatant"));
    }
    // ING-R64: a killing strike is only against an unconscious character.
    if !down(s, target) {
        return Err(no(
            codes::INVALID_TARGET,
            "a killing strike needs an unconscious target (ING-R64)",
        ));
    }
    let item = weapon_in_hand(s, who, slot, "a killing strike needs a weapon in hand")?;
    match s.options.killing_strike_weapons {
        KillingStrikeWeapons::LethalOnly if item.nonlethal => {
            return Err(no(
                codes::NO_WEAPON,
                "killing strikes need a lethal weapon (killing-strike-weapons)",
            ));
        }
        KillingStrikeWeapons::NonlethalOnly if !item.nonlethal => {
            return Err(no(
                codes::NO_WEAPON,
                "killing strikes need a nonlethal weapon (killing-strike-weapons)",
            ));
        }
        _ => {}
    }
    if calc::distance_between(s, who, target) > item.range {
        return Err(no(codes::OUT_OF_RANGE, format!("{} is out of reach", s.name(target))));
    }
    Ok(Plan::Plain)
}

/// The killing strikes and Resuscitates of `me`'s turn, in their order: for each unconscious
/// character, a strike with each weapon in hand, then Resuscitate.
pub(crate) fn list(s: &State, me: Cid, out: &mut Vec<Action>) {
    let weapons = held_weapons(s, me);
    // Killing strikes and Resuscitate on unconscious characters.
    for t in s.ids() {
        if s.ch(t).unconscious && !s.ch(t).dead {
            for &slot in &weapons {
                out.push(Action::Kill { target: t, slot });
            }
            out.push(Action::Resuscitate(t));
        }
    }
}

/// Resolves Resuscitate by `who` on `target`: prone, then the test once it is paid.
pub(crate) fn resolve_resuscitate(cx: &mut Cx, who: Cid, target: Cid) -> R {
    // Go prone, then test (ING-R25).
    if !cx.s.ch(who).has(Cond::Prone) {
        drop_prone(cx, who);
    }
    if pay_or_extend(cx, who, 2, Ext::Resuscitate { target }) {
        resuscitate(cx, who, target)?;
    }
    Ok(())
}

/// The test of a Resuscitate whose cost is paid, if `target` is still down next to `who`.
pub(crate) fn resuscitate(cx: &mut Cx, who: Cid, target: Cid) -> R {
    let near = match (cx.s.ch(who).pos, cx.s.ch(target).pos) {
        (Some(a), Some(b)) => chebyshev(a, b) <= 1,
        _ => false,
    };
    if !down(&cx.s, target) || !near {
        cx.emit(Event::Interacted {
            who,
            what: format!("cannot resuscitate {} any more", cx.s.name(target)),
        });
        return Ok(());
    }
    let o = cx.s.options.clone();
    // Checked when the options were loaded (Options::check).
    let attr = Attr::parse(&o.resuscitate_attribute).unwrap_or(Attr::Int);
    let roll = named_test(
        cx,
        who,
        attr,
        &o.resuscitate_skill,
        &o.resuscitate_proficiency,
        0,
        "resuscitate",
    )?;
    let success = roll.total >= o.resuscitate_difficulty;
    cx.emit(Event::Tested {
        who,
        what: format!("resuscitate {}", cx.s.name(target)),
        roll,
        difficulty: o.resuscitate_difficulty,
        success,
    });
    if success {
        cx.emit(Event::Revived { who: target });
    }
    Ok(())
}

/// Resolves a killing strike by `who` on `target` with the weapon in `slot`, once it is paid.
pub(crate) fn resolve_kill(cx: &mut Cx, who: Cid, target: Cid, slot: u8) -> R {
    let cost = cx.s.options.killing_strike_actions.max(1);
    if pay_or_extend(cx, who, cost, Ext::Kill { target, slot }) {
        killing_strike(cx, who, target, slot)?;
    }
    Ok(())
}

/// A killing strike once paid (ING-R64, ING-H26).
pub(crate) fn killing_strike(cx: &mut Cx, who: Cid, target: Cid, slot: u8) -> R {
    if !down(&cx.s, target) || attack_ok(&cx.s, who, target, slot).is_err() {
        cx.emit(Event::Interacted {
            who,
            what: format!("the killing strike on {} cannot be made any more", cx.s.name(target)),
        });
        return Ok(());
    }
    let attr = crate::command::default_attr(&cx.s, who, slot);
    let prof = crate::command::default_prof(&cx.s, who, slot);
    let (penalty, bonus) = announce(cx, who, target, slot, attr, &prof);
    let item = cx.s.item(who, slot).cloned();
    // ING-R64: the killing strike's test has advantage.
    let mut adv = 1i8;
    if cx.s.options.killing_strike_stack_advantage
        && let Some(item) = &item
    {
        // Every other source counts, disadvantages included (ING-R26, ING-R47); the victim
        // being unable to see is the killing strike's own advantage, not a second one.
        if calc::flanked(&cx.s, target) {
            adv += 1;
        }
        let ranged = calc::ranged_attack(&cx.s, who, target, item);
        if cx.s.ch(target).has(Cond::Prone) {
            adv += if ranged { -1 } else { 1 };
        }
        if ranged && calc::behind_cover(&cx.s, target, who) {
            adv -= 1;
        }
    }
    let st = &cx.s.info(who).stats;
    let (ad, sd) = (st.attr(attr), st.skill("combat"));
    let p = calc::prof_bonus(&cx.s, who, prof.as_deref());
    let roll = roll_test(cx, who, ad, sd, p + penalty + bonus, adv, false, "killing strike")?;
    // ING-R64: Combat skill against the victim's constitution; success kills outright, and a
    // failure becomes a sneak attack below.
    let difficulty = calc::constitution(&cx.s, target);
    let success = roll.total >= difficulty;
    let total = roll.total;
    cx.emit(Event::Tested {
        who,
        what: format!("killing strike on {}", cx.s.name(target)),
        roll,
        difficulty,
        success,
    });
    if success {
        cx.emit(Event::Died { who: target });
        return Ok(());
    }
    // Failure: a sneak attack instead, in the same action (not a second attack).
    let mut a = Attack {
        stage: AttackStage::Roll,
        ..declared(
            who,
            target,
            slot,
            attr,
            prof,
            AttackKind::KillFallback,
            (penalty, bonus),
        )
    };
    if cx.s.options.killing_strike_reuse_roll {
        a.total = Some(total);
        a.base_total = Some(total - penalty - bonus);
        a.luck = Some(0);
    }
    cx.push(Frame::Attack(Box::new(a)))?;
    Ok(())
}
