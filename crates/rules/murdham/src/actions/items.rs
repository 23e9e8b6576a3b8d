//! Items in a turn: equipping, stowing, dropping (which gives a concealed character away,
//! MUR-R42), picking up, drinking or applying a consumable (healing, an antidote), and
//! reloading, each checked and resolved, with their legal list. An injured arm holds
//! nothing, and with both injured nothing is thrown, drunk or applied.

use crate::Murdham;
use crate::actions::health::heal;
use crate::actions::{Offer, Plan, bonus_left, main_left, no, reveal};
use crate::codes;
use crate::command::Command;
use crate::data::Keyword;
use crate::roll::{Res, roll_damage};
use crate::setup::{Cid, MAX_ITEMS};
use crate::state::{Condition, Event, State, Status, Turn};
use fray_engine::{Cx, Reject};

/// The check of equipping `item` (`off`: in the other hand): a bonus action, with a free hand
/// (both for a two-handed item) whose arm is not injured.
pub fn check_equip(s: &State, t: &Turn, item: u8, off: bool) -> Result<Plan, Reject> {
    let who = t.who;
    let me = s.ch(who);
    // MUR-R9: equipping is a bonus action.
    bonus_left(t)?;
    let (it, d) = own_item(s, who, item)?;
    if me.hand_of(item).is_some() {
        return Err(no(codes::BAD_ITEM, format!("the {} is in hand already", d.name)));
    }
    let _ = it;
    let hand = usize::from(off);
    // An injured arm holds nothing; a two-handed item needs both.
    let injured = if d.two_handed() {
        (0..2).find(|&h| !me.injuries.hand_free(h))
    } else {
        (!me.injuries.hand_free(hand)).then_some(hand)
    };
    if let Some(h) = injured {
        let arm = if h == 0 { "main" } else { "other" };
        return Err(no(
            codes::HANDS_FULL,
            format!("{}'s {arm} arm is injured: it holds nothing", me.name),
        ));
    }
    let free = if d.two_handed() {
        me.free_hands() == 2
    } else {
        me.hands[hand].is_none()
    };
    if !free {
        return Err(no(
            codes::HANDS_FULL,
            format!("no free hand for the {} (stow or drop something first)", d.name),
        ));
    }
    Ok(Plan::Plain)
}

/// The check of stowing the item `i` in hand: a bonus action.
pub fn check_stow(s: &State, t: &Turn, i: u8) -> Result<Plan, Reject> {
    let who = t.who;
    let me = s.ch(who);
    // MUR-R9: unequipping is a bonus action.
    bonus_left(t)?;
    let (_, d) = own_item(s, who, i)?;
    if me.hand_of(i).is_none() {
        return Err(no(codes::BAD_ITEM, format!("the {} is not in hand", d.name)));
    }
    Ok(Plan::Plain)
}

/// The check of dropping the item `i`: a bonus action.
pub fn check_drop(s: &State, t: &Turn, i: u8) -> Result<Plan, Reject> {
    let who = t.who;
    // MUR-R9: putting an item down is a bonus action.
    bonus_left(t)?;
    own_item(s, who, i).map(|_| Plan::Plain)
}

/// The check of picking up the item `g` lying where the character stands: a bonus action,
/// with room to carry it.
pub fn check_pick_up(s: &State, t: &Turn, g: u16) -> Result<Plan, Reject> {
    let me = s.ch(t.who);
    // MUR-R9: picking an item up is a bonus action.
    bonus_left(t)?;
    match s.ground.get(g as usize) {
        Some((p, _)) if *p == me.at && me.live_items().count() < MAX_ITEMS => Ok(Plan::Plain),
        Some((p, _)) if *p == me.at => Err(no(
            codes::HANDS_FULL,
            format!("{} carries {MAX_ITEMS} items already", me.name),
        )),
        _ => Err(no(codes::BAD_ITEM, "nothing like that lies here")),
    }
}

/// The check of drinking or applying the consumable `item`, on `on` nearby or on oneself: a
/// bonus action with an arm to do it. Its plan is what the item does.
pub fn check_use(s: &State, t: &Turn, item: u8, on: Option<Cid>) -> Result<Plan, Reject> {
    let who = t.who;
    let me = s.ch(who);
    // MUR-R9: using a consumable is a bonus action.
    bonus_left(t)?;
    no_arm(me)?;
    let (_, d) = own_item(s, who, item)?;
    if !d.has(Keyword::Consumable) || (d.heal == 0 && !d.antidote) {
        return Err(no(
            codes::BAD_ITEM,
            format!("the {} is not drunk or applied (throw weapons with attack)", d.name),
        ));
    }
    if let Some(o) = on {
        if o == who {
            return Err(no(codes::BAD_TARGET, "on yourself: leave out the id"));
        }
        let ok = s.chars.get(o as usize).is_some_and(|x| {
            !matches!(x.status, Status::Dead | Status::Fled | Status::Banished)
                && s.nearby(who, o)
                && !s.hidden_from(o, me.side)
        });
        if !ok {
            return Err(no(codes::BAD_TARGET, "use it on yourself or on a nearby character"));
        }
    }
    Ok(Plan::Use {
        heal: d.heal,
        antidote: d.antidote,
    })
}

/// The check of reloading the item `i` in hand: a main action.
pub fn check_reload(s: &State, t: &Turn, i: u8) -> Result<Plan, Reject> {
    let who = t.who;
    let me = s.ch(who);
    main_left(t)?;
    let (it, d) = own_item(s, who, i)?;
    if it.spent.is_none() || me.hand_of(i).is_none() {
        return Err(no(
            codes::BAD_ITEM,
            format!("the {} is not in hand waiting to be reloaded", d.name),
        ));
    }
    Ok(Plan::Plain)
}

/// What `who` may do with items in its turn, in the legal list's order: for each item it
/// carries, equip it in either hand, stow it, drop it, use it on itself and on each other
/// character, reload it; then pick up each item on the ground.
pub fn legal(s: &State, who: Cid, offer: &mut dyn Offer) {
    let me = s.ch(who);
    for i in 0..me.items.len() as u8 {
        offer.checked(Command::Equip { item: i, off: false });
        offer.checked(Command::Equip { item: i, off: true });
        offer.checked(Command::Stow(i));
        offer.checked(Command::Drop(i));
        offer.checked(Command::Use { item: i, on: None });
        for x in s.ids() {
            if x != who {
                offer.checked(Command::Use { item: i, on: Some(x) });
            }
        }
        offer.checked(Command::Reload(i));
    }
    for g in 0..s.ground.len() as u16 {
        offer.checked(Command::PickUp(g));
    }
}

/// `who` equips `item` (`off`: in the other hand).
pub fn equip(cx: &mut Cx<'_, Murdham>, who: Cid, item: u8, off: bool) {
    cx.emit(Event::Acted {
        who,
        main: false,
        what: String::new(),
    });
    cx.emit(Event::Equipped {
        who,
        item,
        hand: u8::from(off),
    });
}

/// `who` stows the item `i`.
pub fn stow(cx: &mut Cx<'_, Murdham>, who: Cid, i: u8) {
    cx.emit(Event::Acted {
        who,
        main: false,
        what: String::new(),
    });
    cx.emit(Event::Stowed { who, item: i });
}

/// `who` drops the item `i`.
pub fn drop_item(cx: &mut Cx<'_, Murdham>, who: Cid, i: u8) {
    // MUR-R42 [fray]: an item dropped where a concealed character stands gives it away.
    reveal(cx, who);
    cx.emit(Event::Acted {
        who,
        main: false,
        what: String::new(),
    });
    cx.emit(Event::Dropped { who, item: i });
}

/// `who` picks up the item `g` on the ground.
pub fn pick_up(cx: &mut Cx<'_, Murdham>, who: Cid, g: u16) {
    reveal(cx, who);
    cx.emit(Event::Acted {
        who,
        main: false,
        what: String::new(),
    });
    cx.emit(Event::PickedUp { who, ground: g });
}

/// `who` drinks or applies `item` (on `on`, else on itself): it heals a roll of `die` (0:
/// nothing) and ends poison if it is an `antidote`, as the check found.
pub fn use_item(cx: &mut Cx<'_, Murdham>, who: Cid, item: u8, on: Option<Cid>, die: u8, antidote: bool) -> Res<()> {
    cx.emit(Event::Acted {
        who,
        main: false,
        what: String::new(),
    });
    let target = on.unwrap_or(who);
    cx.emit(Event::Used { who, item, spent: true });
    if die > 0 {
        let (total, _, _) = roll_damage(cx, who, die, 0)?;
        heal(cx, target, total)?;
    }
    if antidote && cx.s.ch(target).poisoned {
        cx.emit(Event::Condition {
            who: target,
            condition: Condition::Poisoned(false),
        });
    }
    Ok(())
}

/// `who` reloads the item `i`.
pub fn reload(cx: &mut Cx<'_, Murdham>, who: Cid, i: u8) {
    cx.emit(Event::Acted {
        who,
        main: true,
        what: "reload".into(),
    });
    cx.emit(Event::Reloaded { who, item: i });
}

/// Refused when both of `c`'s arms are injured: it has no hand to throw, drink or apply with.
pub(crate) fn no_arm(c: &crate::state::Char) -> Result<(), Reject> {
    if c.injuries.arms == [true, true] {
        return Err(no(codes::HANDS_FULL, format!("{} has no arm it can use", c.name)));
    }
    Ok(())
}

/// One of `who`'s items and its data.
fn own_item(s: &State, who: Cid, i: u8) -> Result<(&crate::state::Item, &crate::data::ItemDef), Reject> {
    let c = s.ch(who);
    let it = c
        .item(i)
        .ok_or_else(|| no(codes::BAD_ITEM, format!("{} has no such item", c.name)))?;
    let d = s
        .setup
        .item(&it.id)
        .ok_or_else(|| no(codes::BAD_ITEM, format!("no item '{}'", it.id)))?;
    Ok((it, d))
}
