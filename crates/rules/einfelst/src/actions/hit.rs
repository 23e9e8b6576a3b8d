//! What a hit does (EIN-R6, EIN-R23, EIN-R26 to EIN-R28, EIN-H6): the attack's successes left
//! after the defence's, the extra successes the attacker spends (damage, a card swap, Mental
//! Harm, a push, a disarm, a pin, silence), armour, and the Harm, fire and poison that follow.
//!
//! The spending is a decision: checked and listed here (every combination worth listing), and
//! resolved here when the attack frame is popped. A shove is a push without the damage, so the
//! check of where a creature may be pushed ([`push_ok`]) is here too and the shove's check in
//! `actions::attack` calls it.

use crate::Einfelst;
use crate::codes;
use crate::command::{Command, PushTo, Spend};
use crate::options::ArmourMode;
use crate::plan::{Plan, Say, no, not_checked, not_now};
use crate::setup::Cid;
use crate::state::{AttackFrame, AttackKind, Card, Event, Frame, State, pushed};
use fray_engine::{Cx, EngineError, Reject};

use super::cards::turn_card;
use super::harm::harm;
use super::hazards::{ignite, poison};
use super::roll::raw;

/// The attack's successes left after the defence's (EIN-R26, EIN-R27), once rolled: a grapple
/// that ties its break-free counts as just enough when `grapple-ties = "succeed"`.
pub fn net(s: &State, a: &AttackFrame) -> Option<u8> {
    let (att, def) = a.rolled?;
    let tie_holds = a.kind == AttackKind::Grapple
        && s.options.grapple_ties == crate::options::Ties::Succeed
        && att == def
        && att >= a.need;
    Some(if tie_holds { a.need } else { att.saturating_sub(def) })
}

/// The extra successes of an attack that hit, once rolled.
pub fn extra(s: &State, a: &AttackFrame) -> Option<u8> {
    let net = net(s, a)?;
    (net >= a.need).then(|| net - a.need)
}

pub(crate) fn push_ok(s: &State, x: Cid, to: PushTo, say: Say) -> Result<(), Reject> {
    let t = s.ch(x);
    let ok = match to {
        // EIN-R15: not through an obstacle that blocks the way.
        PushTo::Zone(z) => s.setup.zones.distance(t.zone, z) == Some(1) && s.open(t.zone, z),
        PushTo::Far => !t.far,
        PushTo::Down => !t.prone,
    };
    if ok {
        Ok(())
    } else {
        Err(no(say, codes::BAD_PUSH, || {
            format!("{} cannot be pushed there", t.name)
        }))
    }
}

/// The attacker's card for the turn under way, when the attack is made on its turn (what an
/// extra success swaps for one of the target's, EIN-R6).
pub fn attacker_card(s: &State, a: &AttackFrame) -> Option<Card> {
    s.turn.filter(|t| t.who == a.by).and_then(|t| turn_card(s, a.by, t.n))
}

/// Whether the attack may spend an extra success on disarming its target: a close-combat blow
/// against a foe with a weapon in hand that is not a natural one (not a bite or claws).
pub fn may_disarm(s: &State, a: &AttackFrame) -> bool {
    let held = s.ch(a.target).wield.and_then(|w| s.weapon(w));
    a.kind.blow() && held.is_some_and(|w| !w.natural())
}

fn spend_ok(s: &State, a: &AttackFrame, sp: &Spend, say: Say) -> Result<(), Reject> {
    let Some(extra) = extra(s, a) else {
        return Err(not_now(say));
    };
    if sp.cost() > extra {
        return Err(no(say, codes::BAD_SPEND, || {
            format!("that takes {} extra successes and there are {extra}", sp.cost())
        }));
    }
    let bad = |m: &'static str| Err(no(say, codes::BAD_SPEND, || m));
    let k = a.kind;
    let harmful = k.harmful();
    if let Some(card) = sp.swap {
        // EIN-R6: the attacker names which of the target's cards it takes.
        let t = s.ch(a.target);
        if !t.cards.cards().contains(&card) {
            return bad("swap=<card> must name one of the target's cards (EIN-R6)");
        }
        let mine = attacker_card(s, a);
        if mine.is_none_or(|m| m == card) {
            return bad("the swap would change nothing");
        }
    }
    if sp.mental && !harmful {
        return bad("only a blow that deals Harm can deal Mental Harm instead");
    }
    if let Some(to) = sp.push {
        if !k.blow() {
            return bad("only a close-combat blow can push");
        }
        push_ok(s, a.target, to, say)?;
    }
    if sp.disarm && !may_disarm(s, a) {
        return bad("disarm takes a close-combat blow against a foe with a weapon in hand (not a bite or claws)");
    }
    if sp.pin && k != AttackKind::Shoot {
        return bad("only a shot can pin");
    }
    if sp.silence && k != AttackKind::Grapple {
        return bad("only a grapple can silence (EIN-R28)");
    }
    Ok(())
}

/// Every way to spend an attack's extra successes worth listing: each combination of named
/// options that fits (the rest goes on damage).
fn spend_candidates(s: &State, a: &AttackFrame) -> Vec<Spend> {
    let Some(extra) = extra(s, a) else { return Vec::new() };
    let t = s.ch(a.target);
    let mut swaps: Vec<Option<Card>> = vec![None];
    swaps.extend(t.cards.cards().iter().map(|&c| Some(c)));
    let mut pushes: Vec<Option<PushTo>> = vec![None];
    pushes.extend(s.setup.zones.neighbours(t.zone).iter().map(|&z| Some(PushTo::Zone(z))));
    pushes.extend([Some(PushTo::Far), Some(PushTo::Down)]);
    let mut out = Vec::new();
    for &swap in &swaps {
        for &push in &pushes {
            for bits in 0u8..16 {
                let sp = Spend {
                    swap,
                    mental: bits & 1 != 0,
                    push,
                    disarm: bits & 2 != 0,
                    pin: bits & 4 != 0,
                    silence: bits & 8 != 0,
                };
                if sp.cost() <= extra {
                    out.push(sp);
                }
            }
        }
    }
    out
}

/// A `spend` answer: asked while the attack on top of the stack has extra successes not yet
/// spent.
pub(crate) fn check_spend(s: &State, sp: &Spend, say: Say) -> Result<Plan, Reject> {
    match s.frames.last() {
        Some(Frame::Attack(a)) if a.spend.is_none() && extra(s, a).is_some_and(|e| e > 0) => {
            spend_ok(s, a, sp, say).map(|()| Plan::Plain)
        }
        _ => Err(not_now(say)),
    }
}

/// Every way to spend the extra successes of the attack on top of the stack.
pub(crate) fn list(s: &State, push: &mut impl FnMut(Command) -> bool) {
    if let Some(Frame::Attack(a)) = s.frames.last() {
        for sp in spend_candidates(s, a) {
            push(Command::Spend(sp));
        }
    }
}

/// Resolves a `spend`: the attack frame keeps it until the hit is resolved.
pub(crate) fn resolve_spend(cx: &mut Cx<'_, Einfelst>, a: AttackFrame, c: &Command) -> Result<(), EngineError> {
    let Command::Spend(sp) = c else {
        return Err(not_checked(c));
    };
    cx.update(Frame::Attack(AttackFrame { spend: Some(*sp), ..a }));
    Ok(())
}

/// A hit's effects (EIN-R23, EIN-R6, EIN-R28, EIN-H6).
pub(crate) fn hit(cx: &mut Cx<'_, Einfelst>, a: AttackFrame, extra: u8) -> Result<(), EngineError> {
    let sp = a.spend.unwrap_or_default();
    let to_damage = extra.saturating_sub(sp.cost());
    if let Some(card_b) = sp.swap {
        let mine = attacker_card(&cx.s, &a);
        if let Some(card_a) = mine {
            // EIN-R6: the extra success forces the trade of the attacker's card for the one named.
            cx.emit(Event::Swapped {
                a: a.by,
                card_a,
                b: a.target,
                card_b,
                forced: true,
            });
        }
    }
    let t = a.target;
    let (base, mental, weapon) = match a.kind {
        AttackKind::Grapple => {
            // EIN-R28.
            cx.emit(Event::Restrained {
                who: t,
                by: a.by,
                silenced: sp.silence,
            });
            return Ok(());
        }
        AttackKind::Shove(to) => {
            let e = pushed(&cx.s, t, to);
            cx.emit(e);
            return Ok(());
        }
        AttackKind::Unarmed => (1, sp.mental, None),
        AttackKind::Cast(i) => {
            let spell = cx.s.setup.spells.values().nth(i as usize);
            (
                spell.map_or(0, |x| x.damage),
                sp.mental || spell.is_some_and(|x| x.mental),
                None,
            )
        }
        AttackKind::Strike | AttackKind::Shoot => {
            let w = a.weapon.and_then(|w| cx.s.weapon(w)).cloned();
            (w.as_ref().map_or(1, |w| w.damage), sp.mental, w)
        }
    };
    // EIN-R23: the weapon's damage, plus 1 for each extra success left on damage.
    let mut amount = base.saturating_add(to_damage);
    if !mental {
        // EIN-H6.
        let armour = cx.s.stats(t).armour;
        let cancelled = match cx.s.options.armour_mode {
            ArmourMode::Cancel => armour,
            ArmourMode::Roll => raw(cx, armour, crate::state::Why::Armour, "armour")?,
        }
        .min(amount);
        if cancelled > 0 {
            cx.emit(Event::Armoured { who: t, cancelled });
        }
        amount -= cancelled;
    }
    if let Some(to) = sp.push {
        let e = pushed(&cx.s, t, to);
        cx.emit(e);
    }
    if sp.disarm
        && let Some(w) = cx.s.ch(t).wield
    {
        let zone = cx.s.ch(t).zone;
        cx.emit(Event::Dropped {
            who: t,
            weapon: w,
            zone,
        });
    }
    if sp.pin {
        cx.emit(Event::Pinned { who: t, on: true });
    }
    harm(cx, t, mental, amount)?;
    if let Some(w) = weapon
        && amount > 0
        && !mental
    {
        if w.fire > 0 && cx.s.ch(t).fire.is_none() && !cx.s.ch(t).out() {
            ignite(cx, t, w.fire)?;
        }
        if w.poison > 0 && !cx.s.ch(t).out() {
            poison(cx, t, w.poison, false)?;
        }
    }
    Ok(())
}
