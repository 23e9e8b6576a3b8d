//! What a character does with its items: Brandish, Interact, Pick Up, Drop Item and Reload.
//!
//! Brandish sets what is held in the hands, at most two hands' worth; Interact handles
//! something in the scene; both cost 1 action (ING-R19), as does picking up an item within
//! reach; dropping an item in hand is free (ING-R29). Reloading a weapon costs its reload value
//! in actions and may run over several turns (ING-R34). The decision behind this module: the
//! check, the listing and the resolution of each item action sit together; a reload's cost
//! and its running over turns come from `extended`.

use crate::codes::{self, no};
use crate::command::Action;
use crate::event::Event;
use crate::setup::Cid;
use crate::state::{Cx, Ext, State};
use fray_engine::Reject;
use fray_space::chebyshev;

use super::extended::{action_cost, pay_or_extend};
use super::{Plan, charge, on_map};

/// The check of Brandish, Interact, Pick Up, Drop Item or Reload (`a`) by `who`.
pub(crate) fn check(s: &State, who: Cid, a: &Action) -> Result<Plan, Reject> {
    let c = s.ch(who);
    let here = on_map(s, who)?;
    let verdict = match a {
        Action::Brandish(slots) => {
            let mut hands = 0;
            for (i, x) in slots.iter().enumerate() {
                let Some(k) = s.carried(who, *x) else {
                    return Err(no(codes::UNKNOWN_ITEM, "no such item"));
                };
                if slots[..i].contains(x) {
                    return Err(no(codes::BAD_COMMAND, "an item is listed twice"));
                }
                hands += s.setup.armoury.item(k.item).hands;
            }
            if hands > 2 {
                return Err(no(codes::HANDS, "that needs more than two hands"));
            }
            let now: Vec<u8> = (0..c.items.len() as u8).filter(|k| c.items[*k as usize].held).collect();
            let mut want = slots.clone();
            want.sort_unstable();
            if want == now {
                return Err(no(codes::BAD_COMMAND, "those are already in hand"));
            }
            Ok(())
        }
        Action::Interact(_) => Ok(()),
        Action::PickUp(i) => match s.ground.get(*i as usize) {
            Some((p, _)) if chebyshev(*p, here) <= 1 => Ok(()),
            _ => Err(no(codes::OUT_OF_RANGE, "nothing to pick up within reach")),
        },
        Action::Drop(slot) => match s.carried(who, *slot) {
            Some(k) if k.held => Ok(()),
            Some(_) => Err(no(codes::HANDS, "only an item in hand can be dropped")),
            None => Err(no(codes::UNKNOWN_ITEM, "no such item")),
        },
        Action::Reload(slot) => match s.item(who, *slot) {
            Some(i) if i.reload == 0 => Err(no(codes::BAD_COMMAND, format!("{} needs no reloading", i.name))),
            Some(i) if s.carried(who, *slot).is_some_and(|k| k.loaded) => {
                Err(no(codes::BAD_COMMAND, format!("{} is already loaded", i.name)))
            }
            Some(_) => {
                if c.econ
                    .extended
                    .as_ref()
                    .is_some_and(|e| matches!(e.action, Ext::Reload { slot: x } if x == *slot))
                {
                    return Err(no(codes::NOT_NOW, "already reloading it"));
                }
                Ok(())
            }
            None => Err(no(codes::UNKNOWN_ITEM, "no such item")),
        },
        _ => Ok(()),
    };
    verdict.map(|()| Plan::Plain)
}

/// The reloads of `me`'s turn, in their order (one per item).
pub(crate) fn list_reloads(s: &State, me: Cid, out: &mut Vec<Action>) {
    for k in 0..s.ch(me).items.len() as u8 {
        out.push(Action::Reload(k));
    }
}

/// The brandishes, pick-ups and drops of `me`'s turn, in their order.
pub(crate) fn list(s: &State, me: Cid, out: &mut Vec<Action>) {
    let c = s.ch(me);
    let here = c.pos;
    // Brandish: nothing, each item alone, each pair.
    let n = c.items.len() as u8;
    out.push(Action::Brandish(Vec::new()));
    for a in 0..n {
        out.push(Action::Brandish(vec![a]));
        for b in a + 1..n {
            out.push(Action::Brandish(vec![a, b]));
        }
    }
    if let Some(p) = here {
        for (i, _) in crate::event::ground_near(s, p) {
            out.push(Action::PickUp(i as u16));
        }
    }
    for k in 0..c.items.len() as u8 {
        out.push(Action::Drop(k));
    }
}

/// Resolves Brandish, Interact, Pick Up, Drop Item or Reload (`a`) by `who`; `via`, the
/// commander of a commanded one.
pub(crate) fn resolve(cx: &mut Cx, who: Cid, via: Option<Cid>, a: &Action) {
    match a {
        Action::Brandish(slots) => {
            charge(cx, who, via, 1);
            cx.emit(Event::Held {
                who,
                slots: slots.clone(),
            });
        }
        Action::Interact(what) => {
            charge(cx, who, via, 1);
            cx.emit(Event::Interacted {
                who,
                what: what.clone(),
            });
        }
        Action::PickUp(i) => {
            charge(cx, who, via, 1);
            cx.emit(Event::PickedUp { who, index: *i });
        }
        Action::Drop(slot) => cx.emit(Event::Dropped { who, slot: *slot }),
        Action::Reload(slot) => {
            let (cost, _) = action_cost(&cx.s, who, a);
            if via.is_some() || pay_or_extend(cx, who, cost, Ext::Reload { slot: *slot }) {
                loaded(cx, who, *slot);
            }
        }
        _ => {}
    }
}

/// A reload whose cost is paid: the weapon in `slot` is loaded.
pub(crate) fn loaded(cx: &mut Cx, who: Cid, slot: u8) {
    cx.emit(Event::Loaded {
        who,
        slot,
        loaded: true,
    });
}
