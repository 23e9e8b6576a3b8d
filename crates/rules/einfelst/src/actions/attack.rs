//! Attacks (EIN-R11, EIN-R12, EIN-R14, EIN-R20 to EIN-R22, EIN-R25 to EIN-R27, EIN-R48, EIN-H15):
//! `strike`, `shoot`, `punch`, `grapple`, `shove` and `cast`, from the check of who may be
//! attacked and from where to the rolls of attack and defence.
//!
//! Every attack is one frame on the stack: declared here with the successes it needs, then
//! stepped here through the defender's reaction (`actions::defence`), the attack roll, the
//! defence roll and the result. What a hit does after that (its extra successes, Harm, a
//! restraint, a push, fire and poison) is `actions::hit`, which this module calls and which
//! knows nothing of it.

use crate::Einfelst;
use crate::codes;
use crate::command::{Command, PushTo};
use crate::data::{Action, WeaponKind};
use crate::options::CloseIn;
use crate::plan::{Plan, Say, no, paid};
use crate::setup::Cid;
use crate::state::{AttackFrame, AttackKind, Defence, Event, Frame, PushSlot, State};
use fray_engine::{Cx, EngineError, Flow, Reject};

use super::defence::{can_defend, defender_may_swap, parry_action};
use super::hit::{hit, net, push_ok};
use super::manoeuvres::{slow, spend};
use super::roll::{Kind, circumstance_extra, offer, pushable};

/// The successes an attack needs (EIN-R22): 1, plus circumstances (EIN-R14), plus cover
/// against a ranged attack (EIN-H15).
pub fn attack_need(s: &State, by: Cid, target: Cid, kind: AttackKind) -> u8 {
    let t = s.ch(target);
    let cover = if !kind.melee() && t.cover {
        s.options.cover_extra
    } else {
        0
    };
    let action = attack_action(s, kind, s.ch(by).wield);
    // EIN-R22: one success, plus what the circumstances and cover add.
    1 + circumstance_extra(s, by, action, Some(t.zone)) + cover
}

/// The Action an attack is rolled with (EIN-R21): its kind's, except a strike with a natural
/// weapon, which takes that weapon's own Action.
pub fn attack_action(s: &State, kind: AttackKind, weapon: Option<u8>) -> Action {
    match (kind, weapon.and_then(|w| s.weapon(w))) {
        (AttackKind::Strike, Some(w)) => w.close_action(),
        _ => kind.action(),
    }
}

/// Whether `x` is a foe of `who` still in the fight.
pub(crate) fn is_foe(s: &State, who: Cid, x: Cid) -> bool {
    s.chars
        .get(x as usize)
        .is_some_and(|t| !t.out() && t.side != s.ch(who).side)
}

/// A foe in the fight.
fn foe(s: &State, who: Cid, x: Cid, say: Say) -> Result<(), Reject> {
    match s.chars.get(x as usize) {
        _ if is_foe(s, who, x) => Ok(()),
        Some(t) => Err(no(say, codes::BAD_TARGET, || {
            format!("{} is not a foe still in the fight", t.name)
        })),
        None => Err(no(say, codes::BAD_TARGET, || format!("no creature #{x}"))),
    }
}

/// Whether `who` must close in on `x`, in its zone, before a close-combat attack on it
/// (EIN-R12): when either stands far off or `x` is in cover (or always, by the `close-in`
/// option), unless it is beside `x` already.
pub fn must_close_in(s: &State, who: Cid, x: Cid) -> bool {
    let (me, t) = (s.ch(who), s.ch(x));
    let apart = match s.options.close_in {
        CloseIn::FarOrCover => t.far || t.cover || me.far,
        CloseIn::Always => true,
    };
    apart && me.beside != Some(x)
}

/// Close combat: the same zone (EIN-R12), and beside the target when it stands far off or in
/// cover (or always, by the `close-in` option).
fn reach_melee(s: &State, who: Cid, x: Cid, say: Say) -> Result<(), Reject> {
    let (me, t) = (s.ch(who), s.ch(x));
    if me.zone != t.zone {
        return Err(no(say, codes::OUT_OF_REACH, || {
            format!(
                "{} is not in {}'s zone: close combat needs the same zone",
                t.name, me.name
            )
        }));
    }
    if must_close_in(s, who, x) {
        return Err(no(say, codes::CLOSE_IN, || {
            format!("{} must close in on {} first (close {})", me.name, t.name, t.id)
        }));
    }
    Ok(())
}

fn zones_text(d: u8) -> String {
    if d == u8::MAX {
        "unreachable".into()
    } else {
        d.to_string()
    }
}

/// `strike <id>`: close combat with a close-combat weapon in hand.
pub(crate) fn check_strike(s: &State, who: Cid, n: u8, x: Cid, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    // EIN-R17: an attack is a slow manoeuvre.
    let pay = slow(s, who, n, say)?;
    foe(s, who, x, say)?;
    match me.wield.and_then(|w| s.weapon(w)) {
        Some(w) if w.melee() => {}
        Some(w) => {
            return Err(no(say, codes::NO_WEAPON, || {
                format!(
                    "a {} cannot strike in close combat: shoot, or draw another weapon",
                    w.name
                )
            }));
        }
        None => {
            return Err(no(say, codes::NO_WEAPON, || {
                format!("{} holds no weapon: punch, or draw one", me.name)
            }));
        }
    }
    reach_melee(s, who, x, say).map(|()| Plan::Pay(pay))
}

/// `punch <id>`: close combat unarmed, for a creature without natural weapons.
pub(crate) fn check_punch(s: &State, who: Cid, n: u8, x: Cid, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    let pay = slow(s, who, n, say)?;
    foe(s, who, x, say)?;
    reach_melee(s, who, x, say)?;
    // EIN-R21: a creature with natural weapons fights with them: they are its unarmed
    // attack (fray's reading), so it does not punch as well.
    match me
        .carried
        .items()
        .iter()
        .filter_map(|&w| s.weapon(w))
        .find(|w| w.natural())
    {
        Some(w) => Err(no(say, codes::NO_WEAPON, || {
            format!(
                "{} fights with its {}, not with fists: draw it if need be, and strike",
                me.name, w.name
            )
        })),
        None => Ok(Plan::Pay(pay)),
    }
}

/// `grapple <id>`: close combat.
pub(crate) fn check_grapple(s: &State, who: Cid, n: u8, x: Cid, say: Say) -> Result<Plan, Reject> {
    let pay = slow(s, who, n, say)?;
    foe(s, who, x, say)?;
    reach_melee(s, who, x, say).map(|()| Plan::Pay(pay))
}

/// `shove <id> <where>`: close combat, to a place the target may be pushed to.
pub(crate) fn check_shove(s: &State, who: Cid, n: u8, x: Cid, to: PushTo, say: Say) -> Result<Plan, Reject> {
    let pay = slow(s, who, n, say)?;
    foe(s, who, x, say)?;
    reach_melee(s, who, x, say)?;
    push_ok(s, x, to, say).map(|()| Plan::Pay(pay))
}

/// `shoot <id>`: with a ranged or thrown weapon in hand, at a foe in its reach.
pub(crate) fn check_shoot(s: &State, who: Cid, n: u8, x: Cid, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    let pay = slow(s, who, n, say)?;
    foe(s, who, x, say)?;
    let Some(w) = me.wield.and_then(|w| s.weapon(w)) else {
        return Err(no(say, codes::NO_WEAPON, || {
            format!("{} holds no weapon to shoot or throw", me.name)
        }));
    };
    let d = s.distance(who, x);
    // EIN-R11, EIN-R48: a ranged weapon's whole band; a thrown one from 1 zone on.
    let [lo, hi] = w.range;
    let band = match w.kind {
        WeaponKind::Melee | WeaponKind::Natural => None,
        WeaponKind::Thrown => Some((lo.max(1), hi)),
        WeaponKind::Ranged => Some((lo, hi)),
    };
    match band {
        None => Err(no(say, codes::NO_WEAPON, || {
            format!("a {} is not shot or thrown", w.name)
        })),
        Some((a, b)) if d < a || d > b => Err(no(say, codes::OUT_OF_REACH, || {
            format!(
                "{} is {} zones away; a {} reaches {a} to {b}",
                s.ch(x).name,
                zones_text(d),
                w.name
            )
        })),
        Some(_) => Ok(Plan::Pay(pay)),
    }
}

/// `cast <spell> <id>`: a spell the caster knows, at a foe in its reach.
pub(crate) fn check_cast(s: &State, who: Cid, n: u8, sp: u8, x: Cid, say: Say) -> Result<Plan, Reject> {
    let me = s.ch(who);
    let pay = slow(s, who, n, say)?;
    let Some((id, spell)) = s.setup.spells.iter().nth(sp as usize) else {
        return Err(no(say, codes::BAD_TARGET, || "no such spell"));
    };
    if !s.stats(who).spells.contains(id) {
        return Err(no(say, codes::NO_WEAPON, || {
            format!("{} does not know {}", me.name, spell.name)
        }));
    }
    foe(s, who, x, say)?;
    let d = s.distance(who, x);
    let [a, b] = spell.range;
    if d < a || d > b {
        return Err(no(say, codes::OUT_OF_REACH, || {
            format!("{} reaches {a} to {b} zones", spell.name)
        }));
    }
    Ok(Plan::Pay(pay))
}

/// The turn's attacks: each kind on each foe still in the fight, then the shoves on the foes
/// in the zone.
pub(crate) fn list(s: &State, who: Cid, push: &mut impl FnMut(Command) -> bool) {
    let me = s.ch(who);
    // Attacks and shoves are on foes still in the fight (`foe`): only they are tried (hot
    // path: a refusal is worded for nothing).
    for x in s.ids().filter(|&x| is_foe(s, who, x)) {
        push(Command::Strike(x));
        push(Command::Shoot(x));
        push(Command::Punch(x));
        push(Command::Grapple(x));
        for sp in 0..s.setup.spells.len() as u8 {
            push(Command::Cast(sp, x));
        }
    }
    for x in s.ids().filter(|&x| is_foe(s, who, x)) {
        if s.ch(x).zone == me.zone {
            for &z in s.setup.zones.neighbours(s.ch(x).zone) {
                push(Command::Shove(x, PushTo::Zone(z)));
            }
            push(Command::Shove(x, PushTo::Far));
            push(Command::Shove(x, PushTo::Down));
        }
    }
}

/// Resolves an attack of `kind` on `target` with `weapon`: its slow manoeuvre is spent and its
/// frame goes on the stack with the successes it needs (EIN-R22).
pub(crate) fn declare(
    cx: &mut Cx<'_, Einfelst>,
    who: Cid,
    target: Cid,
    kind: AttackKind,
    weapon: Option<u8>,
    c: &Command,
    plan: Plan,
) -> Result<(), EngineError> {
    spend(cx, who, paid(plan, c)?, true);
    let need = attack_need(&cx.s, who, target, kind);
    let distance = cx.s.distance(who, target);
    cx.push(Frame::Attack(AttackFrame {
        by: who,
        target,
        kind,
        weapon,
        need,
        distance,
        defence: None,
        att: None,
        def: None,
        rolled: None,
        defender_swap: None,
        spend: None,
    }))
}

pub(crate) fn attack_step(cx: &mut Cx<'_, Einfelst>, a: AttackFrame) -> Result<Flow, EngineError> {
    let s = &*cx.s;
    if s.ch(a.by).out() || s.ch(a.target).out() {
        cx.pop();
        return Ok(Flow::Go);
    }
    if a.defence.is_none() {
        if !can_defend(s, &a) {
            cx.update(Frame::Attack(AttackFrame {
                defence: Some(Defence::None),
                ..a
            }));
            return Ok(Flow::Go);
        }
        return Ok(Flow::Wait);
    }
    if a.rolled.is_none() {
        // EIN-R20: the defence was declared before this roll.
        let kind = match a.kind {
            AttackKind::Grapple | AttackKind::Shove(_) => Kind::Grapple,
            _ => Kind::Attack,
        };
        if a.att.is_none() {
            let why = crate::state::Why::Attack;
            let action = attack_action(&cx.s, a.kind, a.weapon);
            let (got, push) = pushable(cx, a.by, action, kind, a.need, why, PushSlot::Attack)?;
            cx.update(Frame::Attack(AttackFrame { att: Some(got), ..a }));
            offer(cx, push)?;
            return Ok(Flow::Go);
        }
        if a.def.is_none() {
            let roll = match a.defence {
                Some(Defence::Dodge) => Some((Action::Finesse, Kind::Defence)),
                // EIN-R25: Strike armed, Force unarmed (a natural weapon: its own Action).
                Some(Defence::Parry) => Some((parry_action(&cx.s, a.target), Kind::Defence)),
                Some(Defence::BreakFree) => Some((Action::Force, Kind::BreakFree)),
                Some(Defence::Resist) => {
                    let AttackKind::Cast(sp) = a.kind else {
                        return Err(EngineError::Bug("resist without a spell".into()));
                    };
                    let act =
                        cx.s.setup
                            .spells
                            .values()
                            .nth(sp as usize)
                            .map_or(Action::Endure, |x| x.resist);
                    Some((act, Kind::Defence))
                }
                _ => None,
            };
            let (got, push) = match roll {
                Some((action, k)) => {
                    let why = crate::state::Why::Defence;
                    pushable(cx, a.target, action, k, 0, why, PushSlot::Defence)?
                }
                None => (0, None),
            };
            cx.update(Frame::Attack(AttackFrame { def: Some(got), ..a }));
            offer(cx, push)?;
            return Ok(Flow::Go);
        }
        let (att, def) = (a.att.unwrap_or(0), a.def.unwrap_or(0));
        // A thrown weapon lands in the target's zone, hit or miss (fray's own,
        // `thrown-weapons-lost`).
        let thrown = a
            .weapon
            .and_then(|w| cx.s.weapon(w))
            .is_some_and(|w| w.kind == WeaponKind::Thrown);
        if let (Some(w), true) = (
            a.weapon,
            thrown && a.kind == AttackKind::Shoot && cx.s.options.thrown_weapons_lost,
        ) {
            let zone = cx.s.ch(a.target).zone;
            cx.emit(Event::Dropped {
                who: a.by,
                weapon: w,
                zone,
            });
        }
        // EIN-R26: each defence success cancels one attack success. EIN-R27: a break-free
        // cancels a grapple's the same way; `grapple-ties = "succeed"` lets a tie hold.
        let rolled = AttackFrame {
            rolled: Some((att, def)),
            ..a
        };
        let net = net(&cx.s, &rolled).unwrap_or(0);
        cx.emit(Event::AttackResult {
            by: a.by,
            target: a.target,
            net,
            hit: net >= a.need,
        });
        cx.update(Frame::Attack(AttackFrame {
            rolled: Some((att, def)),
            ..a
        }));
        return Ok(Flow::Go);
    };
    if a.defender_swap.is_none() && defender_may_swap(s, &a) {
        return Ok(Flow::Wait);
    }
    let net = net(s, &a).unwrap_or(0);
    if net > a.need && a.spend.is_none() {
        return Ok(Flow::Wait);
    }
    cx.pop();
    // EIN-R22: the attack hits when what is left reaches the successes it needs.
    if net >= a.need {
        hit(cx, a, net - a.need)?;
    }
    Ok(Flow::Go)
}
