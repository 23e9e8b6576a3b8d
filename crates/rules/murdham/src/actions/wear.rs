//! Wear and breakage of gear: at the end of the fight every weapon, shield and armour used
//! makes a durability roll (MUR-R48, MUR-H16), then the outcome is set; a damaged weapon or
//! shield whose kept damage die shows the breaking face breaks once its attack is over
//! (MUR-R49). A big hit breaking damaged gear (MUR-R50) is part of the hit, in
//! [`crate::actions::damage`], and uses [`worn`].
//!
//! The end of the fight is here, not in the turn flow, because a GM's ruling ends it too and
//! the rulings are an action: both call in here.

use crate::Murdham;
use crate::data::Keyword;
use crate::roll::{Res, die};
use crate::setup::Cid;
use crate::state::{Event, Status, With};
use fray_engine::Cx;

/// The end of the fight: durability rolls for used gear (MUR-R48), then the outcome.
pub(crate) fn end_fight(cx: &mut Cx<'_, Murdham>, winner: Option<u8>, reason: &str) -> Res<()> {
    for c in cx.s.ids().collect::<Vec<_>>() {
        let ch = cx.s.ch(c).clone();
        if matches!(ch.status, Status::Dead | Status::Banished) {
            continue;
        }
        let items: Vec<(u8, crate::state::Item)> = ch.live_items().map(|(i, it)| (i, it.clone())).collect();
        for (i, it) in items {
            let robust = cx.s.setup.item(&it.id).is_some_and(|d| d.has(Keyword::Robust));
            let rolls = it.used && !cx.s.setup.item(&it.id).is_some_and(|d| d.has(Keyword::Consumable));
            if rolls {
                durability(cx, c, Some(i), robust, it.damaged)?;
            }
        }
        if ch.armour_used && !ch.armour_lost && ch.stats.armour > 0 {
            durability(cx, c, None, false, ch.armour_damaged)?;
        }
    }
    cx.emit(Event::Ended {
        winner,
        reason: reason.into(),
    });
    Ok(())
}

/// One durability roll (MUR-R48, MUR-H16): 1 on a d4 (d8 robust) damages the item, or
/// destroys it if it was damaged. Whether it was destroyed.
fn durability(cx: &mut Cx<'_, Murdham>, who: Cid, item: Option<u8>, robust: bool, damaged: bool) -> Res<bool> {
    let sides = u16::from(if robust {
        cx.s.options.robust_durability_chance
    } else {
        cx.s.options.durability_chance
    });
    let roll = die(cx, sides, who, "durability roll")?;
    cx.emit(Event::Durability { who, item, roll, sides });
    if roll == 1 {
        worn(cx, who, item, damaged);
        return Ok(damaged && item.is_some());
    }
    Ok(false)
}

/// An item (or, with `item` none, the armour) of `who` is damaged or destroyed.
pub(crate) fn worn(cx: &mut Cx<'_, Murdham>, who: Cid, item: Option<u8>, destroyed: bool) {
    let name = match item {
        Some(i) => {
            cx.s.ch(who)
                .item(i)
                .and_then(|it| cx.s.setup.item(&it.id))
                .map_or_else(|| "item".to_string(), |d| d.name.clone())
        }
        None => "armour".into(),
    };
    cx.emit(Event::Worn {
        who,
        name,
        item,
        destroyed,
    });
}

/// MUR-R49: a damaged weapon or shield whose kept damage die showed the breaking face breaks,
/// once the attack it made is over (so nothing shifts under the attack while it resolves).
pub(crate) fn breaks(cx: &mut Cx<'_, Murdham>, who: Cid, with: With, face: Option<u16>) {
    // MUR-R49: only an item already damaged, and only when the kept die shows the breaking
    // face (1 by default).
    if let With::Item(i) = with
        && let Some(it) = cx.s.ch(who).item(i)
        && it.damaged
        && face == Some(u16::from(cx.s.options.break_face))
    {
        worn(cx, who, Some(i), true);
    }
}
