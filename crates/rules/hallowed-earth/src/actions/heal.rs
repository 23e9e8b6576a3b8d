//! Items and healing: what a declared item use or Heal needs (an item left, a creature that
//! needs stabilising), the item's Stress restored, and the Heal check that stabilises the Dying
//! or Incapacitated (HAL-R32).

use super::{Cx1, concussed_penalty, no, roll, skill_check, target_ok};
use crate::codes;
use crate::setup::Cid;
use crate::state::{CheckKind, Conditions, Event, State};
use fray_engine::{EngineError, Reject};

/// Whether `who` may declare a use of its item `item` on `target`: an item it has left, on its
/// own side.
pub(crate) fn use_ok(s: &State, who: Cid, item: u8, target: Cid) -> Result<(), Reject> {
    let me = s.ch(who);
    let Some(it) = s.stats(who).items.get(usize::from(item)) else {
        return Err(no(codes::BAD_TARGET, format!("{} has no item #{item}", me.name)));
    };
    if me.used.get(usize::from(item)).copied().unwrap_or(u8::MAX) >= it.count {
        return Err(no(codes::SPENT, format!("{} has no {} left", me.name, it.name)));
    }
    target_ok(s, who, target, false)
}

/// Whether `who` may declare a Heal of `target`: a creature still in the combat, of either side,
/// that needs stabilising.
pub(crate) fn heal_ok(s: &State, who: Cid, target: Cid) -> Result<(), Reject> {
    target_ok(s, who, target, false).or_else(|_| match s.chars.get(usize::from(target)) {
        Some(c) if !c.gone() => Ok(()),
        _ => Err(no(codes::BAD_TARGET, "heal a creature still in the combat")),
    })?;
    let c = s.ch(target);
    // HAL-R32: only the Dying or Incapacitated need stabilising.
    if c.wp > 0 || c.has(Conditions::STABILIZED) {
        return Err(no(
            codes::BAD_TARGET,
            format!("{} is not Incapacitated or Dying, or is Stabilized already", c.name),
        ));
    }
    Ok(())
}

/// An item used: one of it spent, and the Stress it restores rolled.
pub(crate) fn use_item(cx: Cx1<'_, '_>, who: Cid, item: u8, target: Cid) -> Result<(), EngineError> {
    let it = cx.s.stats(who).items[usize::from(item)].clone();
    cx.emit(Event::ItemUsed { who, item });
    if let Some(d) = it.restores {
        let v = roll(cx, d, &format!("{} restores", it.name))?.max(0);
        cx.emit(Event::Restored { who: target, stress: v });
    }
    Ok(())
}

/// A Heal check to stabilise `target` (HAL-R32).
pub(crate) fn heal(cx: Cx1<'_, '_>, who: Cid, target: Cid) -> Result<(), EngineError> {
    let s = &*cx.s;
    let name = s.ch(who).name.clone();
    let penalty = concussed_penalty(s, who);
    // HAL-R32: Heal check against 10 + the largest wound.
    let worst = s.ch(target).wounds.iter().map(|w| w.amount).max().unwrap_or(0);
    let tn = 10 + worst;
    let bonus = s.stats(who).heal - penalty;
    if skill_check(cx, who, CheckKind::Heal, bonus, tn, &format!("{name}'s Heal check"))? {
        cx.emit(Event::Stabilized { who: target });
    }
    Ok(())
}
