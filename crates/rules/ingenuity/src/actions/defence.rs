//! What the target of an attack (or its allies) decides: Intercept, the defences, Block.
//!
//! Intercept moves an ally into the attack's way, who then defends with a free reaction
//! (ING-R33, ING-H21); Dodge (ING-R48), Parry (ING-R53), Fortify (ING-R49) and Resist (ING-R50)
//! are declared before the roll by default (ING-H12) and Block once the hit is known (ING-R51);
//! each costs its stamina or focus (ING-R31), and a broken item parries and blocks nothing
//! (ING-R55). The decision behind this module: the check of each decision and its resolution
//! sit together, and the questions the attack's stages ask (could the target defend or block at
//! all, and if not, why) use the very same checks, so that asking and accepting never differ.

use crate::calc::{self, distance};
use crate::codes::{self, no};
use crate::command::Command;
use crate::data::{Attr, Cond, EffectDefence};
use crate::event::{AutoWhy, Cost, DefenceKind, Event};
use crate::options::InterceptReach;
use crate::setup::Cid;
use crate::stage::Stage;
use crate::state::{Attack, AttackStage, Cx, Defences, Frame, R, State};
use fray_engine::{EngineError, Reject};
use fray_space::chebyshev;

use super::damage::apply_hit;
use super::reaction::{can_react, reaction_ok, reaction_paid, why_no_reaction};
use super::{Plan, pay};
use crate::roll::named_test;

/// Characters who may intercept an attack on `a.target` (ING-R33, ING-H21).
pub fn intercept_candidates(s: &State, a: &Attack) -> Vec<Cid> {
    let Some(tp) = s.ch(a.target).pos else {
        return Vec::new();
    };
    let able = s
        .ids()
        .filter(|&c| c != a.attacker && s.allies(c, a.target))
        .filter(|&c| can_react(s, c, false, 1, 0))
        // Intercepting is a move: a prone character would have to stand up first.
        .filter(|&c| !(s.options.prone_blocks_movement && s.ch(c).has(Cond::Prone)));
    match s.options.intercept_reach {
        InterceptReach::Adjacent => able
            .filter(|&c| s.ch(c).pos.is_some_and(|cp| chebyshev(cp, tp) <= 1))
            .collect(),
        InterceptReach::Speed => calc::with_scratch(|sc| {
            // Who stands where is the same for every ally: mapped once for the attack.
            let mut m = sc.map(s);
            able.filter(|&c| {
                let Some(cp) = s.ch(c).pos else { return false };
                let speed = s.info(c).stats.speed;
                // No path is shorter than open ground: an ally that far away needs no search.
                distance(s, cp, tp) <= speed.max(0) && m.can_end_on(c, cp, tp, speed, Some(tp))
            })
            .collect()
        }),
    }
}

/// Why the target of an attack cannot take any defence against it (ING-R30, ING-R32): what
/// stops every reaction (see [`why_no_reaction`]), else what each defence was refused for:
/// stamina or focus it lacks, defences already taken against this attack, or none that
/// answers it.
pub fn why_no_defence(s: &State, a: &Attack) -> AutoWhy {
    let t = a.target;
    let general = why_no_reaction(s, t, free(a));
    if !matches!(general, AutoWhy::NoStamina | AutoWhy::NotLegal) {
        return general;
    }
    let (mut stamina, mut focus) = (false, false);
    for c in defence_commands(s, a) {
        if let Err(r) = check_defence(s, a, &c) {
            stamina |= r.code == codes::NO_STAMINA;
            focus |= r.code == codes::NO_FOCUS;
        }
    }
    let d = &a.defences;
    if stamina {
        AutoWhy::NoStamina
    } else if focus {
        AutoWhy::NoFocus
    } else if d.dodge.is_some() || d.parry.is_some() || d.fortify.is_some() || d.resist.is_some() {
        AutoWhy::DefencesTaken
    } else {
        AutoWhy::NoDefenceOpen
    }
}

/// Whether `who` holds an unbroken item that can block.
pub fn holds_blocker(s: &State, who: Cid) -> bool {
    // ING-R55: a broken item (0 durability) is no blocker.
    s.ch(who)
        .items
        .iter()
        .any(|k| k.held && k.durability > 0 && s.setup.armoury.item(k.item).block.is_some())
}

/// Whether the target of an attack could take any defence now.
pub fn can_defend(s: &State, a: &Attack) -> bool {
    defence_commands(s, a).any(|c| check_defence(s, a, &c).is_ok())
}

/// Whether the target of an attack could block now.
pub fn can_block(s: &State, a: &Attack) -> bool {
    (0..s.ch(a.target).items.len() as u8).any(|k| check_block(s, a, k).is_ok())
}

fn free(a: &Attack) -> bool {
    a.defences.free > 0
}

fn check_defence(s: &State, a: &Attack, cmd: &Command) -> Result<(), Reject> {
    let t = a.target;
    let effect = s.item(a.attacker, a.slot).and_then(|i| i.effect.as_ref());
    match cmd {
        Command::Dodge => {
            if a.defences.dodge.is_some() {
                return Err(no(codes::NOT_NOW, "already dodging this attack"));
            }
            reaction_ok(s, t, free(a), 1, 0)
        }
        Command::Parry(slot) => {
            if a.defences.parry.is_some() {
                return Err(no(codes::NOT_NOW, "already parrying this attack"));
            }
            let Some(k) = s.carried(t, *slot) else {
                return Err(no(codes::UNKNOWN_ITEM, "no such item"));
            };
            if !k.held {
                return Err(no(codes::HANDS, "parrying needs an item in hand"));
            }
            // ING-R55: an item at 0 durability is broken and cannot parry.
            if k.durability <= 0 {
                return Err(no(codes::BROKEN, "a broken item cannot parry (ING-R55)"));
            }
            reaction_ok(s, t, free(a), 1, 0)
        }
        Command::Fortify | Command::Resist => {
            let (want, done) = match cmd {
                Command::Fortify => (EffectDefence::Constitution, a.defences.fortify.is_some()),
                _ => (EffectDefence::Willpower, a.defences.resist.is_some()),
            };
            if done {
                return Err(no(codes::NOT_NOW, "already declared against this attack"));
            }
            match effect {
                Some(e) if e.defence == want => {}
                _ => {
                    return Err(no(
                        codes::NOT_NOW,
                        "this attack carries no effect that this defence resists",
                    ));
                }
            }
            let (st, fo) = if want == EffectDefence::Constitution {
                (1, 0)
            } else {
                (0, 1)
            };
            reaction_ok(s, t, free(a), st, fo)
        }
        _ => Err(no(codes::NOT_NOW, "choose a defence or pass")),
    }
}

fn check_block(s: &State, a: &Attack, slot: u8) -> Result<(), Reject> {
    let t = a.target;
    let Some(k) = s.carried(t, slot) else {
        return Err(no(codes::UNKNOWN_ITEM, "no such item"));
    };
    let item = s.setup.armoury.item(k.item);
    if item.block.is_none() {
        return Err(no(codes::BAD_COMMAND, format!("{} cannot block", item.name)));
    }
    if !k.held {
        return Err(no(codes::HANDS, "blocking needs the item in hand"));
    }
    // ING-R55: an item at 0 durability is broken and cannot block.
    if k.durability <= 0 {
        return Err(no(codes::BROKEN, "a broken item cannot block (ING-R55)"));
    }
    reaction_ok(s, t, free(a), 1, 0)
}

/// The defences the target of `a` may be asked about, in no particular order: every command
/// [`can_defend`] and [`why_no_defence`] try.
fn defence_commands(s: &State, a: &Attack) -> impl Iterator<Item = Command> {
    [Command::Dodge, Command::Fortify, Command::Resist]
        .into_iter()
        .chain((0..s.ch(a.target).items.len() as u8).map(Command::Parry))
}

/// A decision about an attack (`stage` is an intercept, a defence or a block), against the
/// attack frame on top of the stack.
pub(crate) fn check(s: &State, stage: Stage, cmd: &Command) -> Result<Plan, Reject> {
    let plain = |r: Result<(), Reject>| r.map(|()| Plan::Plain);
    let Some(a) = crate::stage::attack(s) else {
        return Err(no(codes::NOT_NOW, "an attack is being resolved"));
    };
    match stage {
        // ING-R33: any of the allies asked may intercept.
        Stage::Intercept { .. } => match cmd {
            Command::Intercept(w) => {
                if !a.intercept.contains(w) {
                    return Err(no(
                        codes::INVALID_TARGET,
                        "only an ally who can reach the attacked character may intercept",
                    ));
                }
                plain(reaction_ok(s, *w, false, 1, 0))
            }
            Command::Pass => Ok(Plan::Plain),
            _ => Err(no(codes::NOT_NOW, "intercept <ally> or pass")),
        },
        Stage::Defend { .. } => match cmd {
            Command::Pass => Ok(Plan::Plain),
            c => plain(check_defence(s, a, c)),
        },
        Stage::Block { .. } => match cmd {
            Command::Pass => Ok(Plan::Plain),
            Command::Block(slot) => plain(check_block(s, a, *slot)),
            _ => Err(no(codes::NOT_NOW, "block <item> or pass")),
        },
        _ => Err(no(codes::NOT_NOW, "an attack is being resolved")),
    }
}

/// The answers of an intercept, a defence or a block (`stage`) against the attack on top of the
/// stack, in their order.
pub(crate) fn answers(s: &State, stage: Stage, out: &mut Vec<Command>) {
    match stage {
        Stage::Intercept { .. } => {
            if let Some(a) = crate::stage::attack(s) {
                for &c in &a.intercept {
                    out.push(Command::Intercept(c));
                }
            }
            out.push(Command::Pass);
        }
        Stage::Defend { target } => {
            out.push(Command::Dodge);
            for k in 0..s.ch(target).items.len() as u8 {
                out.push(Command::Parry(k));
            }
            out.push(Command::Fortify);
            out.push(Command::Resist);
            out.push(Command::Pass);
        }
        Stage::Block { target } => {
            for k in 0..s.ch(target).items.len() as u8 {
                out.push(Command::Block(k));
            }
            out.push(Command::Pass);
        }
        _ => {}
    }
}

/// An intercept, a defence or a block (`stage`), on the attack on top of the stack.
pub(crate) fn resolve(cx: &mut Cx, stage: Stage, cmd: &Command) -> R {
    let Some(Frame::Attack(mut a)) = cx.top().cloned() else {
        return Err(EngineError::Bug("an attack decision without its attack".into()));
    };
    match (stage, cmd) {
        (Stage::Intercept { .. }, Command::Intercept(who)) => {
            let who = *who;
            let ally = a.target;
            // Intercept: 1 stamina and the reaction (ING-R31).
            pay(
                cx,
                who,
                Cost {
                    stamina: 1,
                    reaction: true,
                    ..Cost::default()
                },
            );
            cx.emit(Event::Swapped { a: who, b: ally });
            cx.emit(Event::Intercepted { who, ally });
            a.target = who;
            a.defences = Defences {
                free: 1,
                ..Defences::default()
            };
            a.stage = AttackStage::Defend;
            cx.update(Frame::Attack(a));
        }
        (Stage::Intercept { .. }, Command::Pass) => {
            // Nobody intercepts: the target defends itself.
            a.stage = AttackStage::Defend;
            cx.update(Frame::Attack(a));
        }
        (Stage::Defend { .. }, Command::Pass) => {
            // Before the roll: the roll comes next; after it: the hit is decided.
            a.stage = AttackStage::Roll;
            cx.update(Frame::Attack(a));
        }
        (Stage::Defend { .. }, c) => defend(cx, *a, c)?,
        (Stage::Block { .. }, Command::Pass) => {
            cx.update(Frame::Attack(a.clone()));
            apply_hit(cx, *a, None)?;
        }
        (Stage::Block { .. }, Command::Block(slot)) => {
            let free = a.defences.free > 0;
            let who = a.target;
            reaction_paid(cx, who, free, 1, 0); // Block: 1 stamina (ING-R31)
            if free {
                a.defences.free -= 1;
            }
            cx.emit(Event::Defended {
                who,
                kind: DefenceKind::Block,
                roll: None,
                slot: Some(*slot),
                free,
            });
            cx.update(Frame::Attack(a.clone()));
            apply_hit(cx, *a, Some(*slot))?;
        }
        _ => return Err(EngineError::Bug("unexpected decision in an attack".into())),
    }
    Ok(())
}

fn defend(cx: &mut Cx, mut a: Attack, cmd: &Command) -> R {
    let who = a.target;
    let free = a.defences.free > 0;
    let g = calc::guard(&cx.s, who);
    // ING-R31: Dodge, Parry and Fortify cost 1 stamina, Resist 1 focus (Block and Intercept,
    // 1 stamina each, are paid where they are taken).
    let (kind, stamina, focus) = match cmd {
        Command::Dodge => (DefenceKind::Dodge, 1, 0),
        Command::Parry(_) => (DefenceKind::Parry, 1, 0),
        Command::Fortify => (DefenceKind::Fortify, 1, 0),
        Command::Resist => (DefenceKind::Resist, 0, 1),
        _ => return Err(EngineError::Bug("not a defence".into())),
    };
    reaction_paid(cx, who, free, stamina, focus);
    if free {
        a.defences.free -= 1;
    }
    let (roll, slot) = match cmd {
        // Dodge: DEX + Agility + Dodge (ING-R48); Guard adds to defence tests (ING-R21).
        Command::Dodge => {
            let r = named_test(cx, who, Attr::Dex, "agility", "dodge", g, "dodge")?;
            a.defences.dodge = Some(r.total);
            (Some(r), None)
        }
        Command::Parry(slot) => {
            a.defences.parry = Some(*slot);
            (None, Some(*slot))
        }
        Command::Fortify => {
            // ING-R49: Fortify rolls STR + Athletics + Fortitude.
            let r = named_test(cx, who, Attr::Str, "athletics", "fortitude", g, "fortify")?;
            a.defences.fortify = Some(r.total);
            (Some(r), None)
        }
        _ => {
            // ING-R50: Resist rolls INT + Insight + Resistance.
            let r = named_test(cx, who, Attr::Int, "insight", "resistance", g, "resist")?;
            a.defences.resist = Some(r.total);
            (Some(r), None)
        }
    };
    cx.emit(Event::Defended {
        who,
        kind,
        roll,
        slot,
        free,
    });
    if let Some(slot) = slot {
        // The parrying item takes 1 damage (ING-R53).
        cx.emit(Event::ItemDamaged { who, slot, amount: 1 });
    }
    cx.update(Frame::Attack(Box::new(a)));
    Ok(())
}
