//! Legality, from one source: [`check`] refuses a command with a typed rejection or hands
//! back its [`Plan`] (what the check found out that resolving needs), and [`legal`] lists every
//! answer [`check`] accepts, with that plan, in a fixed order (it generates candidates and keeps
//! those [`check`] accepts).

use crate::Einfelst;
use crate::codes;
use crate::command::{Command, Own, PushTo, Ruling, Spend};
use crate::data::{Action, Obstacle, WeaponKind};
use crate::options::{CloseIn, GroupOrder};
use crate::setup::{Cid, MAX_COMBATANTS};
use crate::state::{AttackFrame, AttackKind, Card, Frame, Stage, State, place};
use crate::zones::MapExt;
use fray_engine::gm::Ruling as R;
use fray_engine::{Answer, Reject, Seat};
use fray_space::{ZoneId, ZoneSet};

fn no(code: &'static str, reason: impl Into<String>) -> Reject {
    Reject::new(code, reason)
}

/// The checked plan of a command: what [`check`] found out that [`crate::resolve::resolve`]
/// needs, so the resolver does not work it out again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The check learns nothing the resolver needs (rulings, the swaps at the start of a round,
    /// a group's pick, `end`, `release`, `pass` and the answers that pay nothing).
    Plain,
    /// A manoeuvre of the turn, or a reaction: the allowance that pays it (EIN-R16, EIN-R19).
    Pay(Pay),
    /// A `move` or a `clear`: its pay, and the obstacle it gets over with its manoeuvre and
    /// test, if any (none on a plain link or a cleared one: EIN-R15).
    Obstacle {
        /// The allowance that pays it.
        pay: Pay,
        /// The obstacle crossed or cleared.
        obstacle: Option<Obstacle>,
    },
    /// A flight: its pay, and the next zone of its way out (`None` when it leaves from an exit
    /// zone, EIN-R32).
    Flee {
        /// The allowance that pays it.
        pay: Pay,
        /// The zone it flees toward.
        toward: Option<ZoneId>,
    },
    /// An answer to a flight's chase (EIN-R33): the foe asked, and for `chase` the reaction
    /// that pays it.
    Chaser {
        /// The foe asked.
        who: Cid,
        /// What pays the chase (`None` for `pass`).
        pay: Option<Pay>,
    },
}

/// Which allowance pays a manoeuvre: card `n`, and whether the slow one is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pay {
    /// The card whose allowance pays.
    pub n: u8,
    /// The slow manoeuvre is spent (for a slow manoeuvre, or a fast one taken in its place).
    pub slow: bool,
}

/// How the turn's creature pays a slow manoeuvre (EIN-R16).
pub fn pay_slow(s: &State, who: Cid, n: u8) -> Option<Pay> {
    (s.ch(who).left[n as usize][0] > 0).then_some(Pay { n, slow: true })
}

/// How the turn's creature pays a fast manoeuvre: the fast one, else the slow one taken as a
/// fast one (EIN-R16).
pub fn pay_fast(s: &State, who: Cid, n: u8) -> Option<Pay> {
    let l = s.ch(who).left[n as usize];
    if l[1] > 0 {
        Some(Pay { n, slow: false })
    } else if l[0] > 0 {
        Some(Pay { n, slow: true })
    } else {
        None
    }
}

/// How a creature pays a reaction (EIN-R19): a fast manoeuvre of any of its cards (its turn's
/// card first, then in card order), else a slow one when `reaction-may-use-slow` allows.
pub fn pay_reaction(s: &State, who: Cid) -> Option<Pay> {
    let c = s.ch(who);
    let cards = c.cards.len().max(1) as u8;
    let mine = s.turn.filter(|t| t.who == who).map(|t| t.n);
    // The turn's own card first, then the others in card order; no allocation (hot path).
    let order = || mine.into_iter().chain((0..cards).filter(move |n| Some(*n) != mine));
    if let Some(n) = order().find(|&n| c.left[n as usize][1] > 0) {
        return Some(Pay { n, slow: false });
    }
    if s.options.reaction_may_use_slow
        && let Some(n) = order().find(|&n| c.left[n as usize][0] > 0)
    {
        return Some(Pay { n, slow: true });
    }
    None
}

/// Whether a creature may react at all now: in the fight, not burning (EIN-R39), with a
/// manoeuvre left (EIN-R19).
pub fn may_react(s: &State, who: Cid) -> bool {
    let c = s.ch(who);
    !c.out() && c.fire.is_none() && pay_reaction(s, who).is_some()
}

/// The circumstance successes a test of `action` by `who` needs (EIN-R14, EIN-R49): every
/// circumstance in force in its zone or the other zone named, once each, unless it is immune.
pub fn circumstance_extra(s: &State, who: Cid, action: Action, other: Option<ZoneId>) -> u8 {
    let zones = [Some(s.ch(who).zone), other];
    let stats = s.stats(who);
    let mut total = 0u8;
    for (name, def) in &s.setup.circumstances {
        if !def.actions.contains(&action) || stats.immune.contains(name) {
            continue;
        }
        let in_force = s
            .circumstances
            .iter()
            .any(|(n, z)| n == name && (z.is_none() || zones.contains(z)))
            || zones.iter().flatten().any(|z| s.setup.zones.has_tag(*z, name));
        if in_force {
            total = total.saturating_add(def.extra);
        }
    }
    total
}

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

/// The Action a creature parries with (EIN-R25): Strike with a close-combat weapon in hand,
/// Force without one, and a natural weapon's own Action.
pub fn parry_action(s: &State, who: Cid) -> Action {
    match s.ch(who).wield.and_then(|w| s.weapon(w)) {
        Some(w) if w.melee() => w.close_action(),
        _ => Action::Force,
    }
}

/// The card the turn's creature holds for the turn under way (its `n`-th lowest).
pub fn turn_card(s: &State, who: Cid, n: u8) -> Option<Card> {
    // Sorted on the stack: no allocation.
    let cards = s.ch(who).cards.cards();
    let mut sorted = [Card::default(); crate::state::MAX_CARDS];
    sorted[..cards.len()].copy_from_slice(cards);
    sorted[..cards.len()].sort_unstable_by_key(|c| c.key(false));
    sorted[..cards.len()].get(n as usize).copied()
}

/// Whether `who` may do only what a restrained or burning creature may (EIN-R28, EIN-R39).
fn hampered(s: &State, who: Cid, c: &Command) -> Result<(), Reject> {
    let me = s.ch(who);
    if me.held_by.is_some() && !matches!(c, Command::BreakFree | Command::Shout | Command::End | Command::Release) {
        // EIN-R28, EIN-R31, EIN-H10: break free, shout, parry (a reaction), nothing else.
        return Err(no(
            codes::RESTRAINED,
            format!(
                "{} is restrained: it may only break free, shout, let go of one it holds or end its turn",
                me.name
            ),
        ));
    }
    if me.fire.is_some()
        && !matches!(
            c,
            Command::Extinguish | Command::Flee(_) | Command::FleeTo(..) | Command::Shout | Command::End
        )
    {
        // EIN-R39.
        return Err(no(
            codes::BURNING,
            format!("{} is on fire: it may only put it out, flee or shout", me.name),
        ));
    }
    Ok(())
}

/// Whether the rules accept `c` now from `seat` (the engine has already checked the seat is a
/// decider), and its plan.
pub fn check(s: &State, seat: Seat, c: &Command) -> Result<Plan, Reject> {
    if let Command::Gm(r) = c {
        return ruling(s, r).map(|()| Plan::Plain);
    }
    if let Some(f) = s.frames.last() {
        return answer(s, f, c);
    }
    if s.stage == Stage::Swaps {
        return swap_stage(s, seat, c).map(|()| Plan::Plain);
    }
    let Some(t) = s.turn else {
        let choices = group_choices(s);
        return match c {
            Command::Act(x) if choices != 0 => {
                if *x < 64 && choices >> x & 1 == 1 {
                    Ok(Plan::Plain)
                } else if let Some(c) = s.chars.get(*x as usize)
                    && s.seat_of(*x) != seat
                {
                    Err(no(
                        codes::BAD_TARGET,
                        format!(
                            "{} is {}'s: act <id> names a member of the group still to act on this card (EIN-R2)",
                            c.name,
                            s.seat_name(s.seat_of(*x))
                        ),
                    ))
                } else {
                    Err(no(
                        codes::BAD_TARGET,
                        "act <id>: a member of the group still to act on this card (EIN-R2)",
                    ))
                }
            }
            _ if choices != 0 => Err(no(
                codes::NOT_NOW,
                "the group's seat first picks which member acts now: act <id> (EIN-R2)",
            )),
            _ => Err(no(codes::NOT_NOW, "nothing is asked now")),
        };
    };
    turn(s, t.who, t.n, c)
}

/// The members of a group sharing a card (EIN-R2) from which the group's seat picks the one
/// that acts now, a bit per creature: when the card's turn is due, no member has begun it, at
/// least two of them are still to act on it, and `group-order = "director"`. Zero otherwise.
pub fn group_choices(s: &State) -> u64 {
    if s.options.group_order != GroupOrder::Director
        || s.stage != Stage::Turns
        || s.turn.is_some()
        || !s.frames.is_empty()
        || s.outcome.is_some()
    {
        return 0;
    }
    let Some(cur) = s.order.current_slot() else { return 0 };
    let Some(me) = s.chars.get(cur.who as usize) else {
        return 0;
    };
    let (Some(group), true) = (me.group, me.shares) else {
        return 0;
    };
    let slots = s.order.slots();
    let Some(i) = s.order.position_of(cur) else { return 0 };
    let key = slots[i].key;
    let seat = s.seat_of(cur.who);
    let mut bits = 0u64;
    for sl in slots[i..].iter().take_while(|sl| sl.key == key) {
        let ok = s
            .chars
            .get(sl.who as usize)
            .is_some_and(|o| o.group == Some(group) && o.shares && !o.out() && s.seat_of(sl.who) == seat);
        if ok && sl.active && !sl.acted && sl.who < 64 {
            bits |= 1 << sl.who;
        }
    }
    if bits.count_ones() >= 2 { bits } else { 0 }
}

fn not_now() -> Reject {
    no(codes::NOT_NOW, "that is not an answer to the decision asked now")
}

/// Whether `x` is a foe of `who` still in the fight.
fn is_foe(s: &State, who: Cid, x: Cid) -> bool {
    s.chars
        .get(x as usize)
        .is_some_and(|t| !t.out() && t.side != s.ch(who).side)
}

/// A foe in the fight.
fn foe(s: &State, who: Cid, x: Cid) -> Result<(), Reject> {
    match s.chars.get(x as usize) {
        _ if is_foe(s, who, x) => Ok(()),
        Some(t) => Err(no(
            codes::BAD_TARGET,
            format!("{} is not a foe still in the fight", t.name),
        )),
        None => Err(no(codes::BAD_TARGET, format!("no creature #{x}"))),
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
fn reach_melee(s: &State, who: Cid, x: Cid) -> Result<(), Reject> {
    let (me, t) = (s.ch(who), s.ch(x));
    if me.zone != t.zone {
        return Err(no(
            codes::OUT_OF_REACH,
            format!(
                "{} is not in {}'s zone: close combat needs the same zone",
                t.name, me.name
            ),
        ));
    }
    if must_close_in(s, who, x) {
        return Err(no(
            codes::CLOSE_IN,
            format!("{} must close in on {} first (close {})", me.name, t.name, t.id),
        ));
    }
    Ok(())
}

fn turn(s: &State, who: Cid, n: u8, c: &Command) -> Result<Plan, Reject> {
    hampered(s, who, c)?;
    let me = s.ch(who);
    let slow = || {
        pay_slow(s, who, n).ok_or_else(|| {
            no(
                codes::NO_MANEUVER,
                format!("{} has no slow manoeuvre left this round", me.name),
            )
        })
    };
    let fast = || {
        pay_fast(s, who, n).ok_or_else(|| {
            no(
                codes::NO_MANEUVER,
                format!("{} has no manoeuvre left this round", me.name),
            )
        })
    };
    match c {
        Command::Strike(x) => {
            let pay = slow()?;
            foe(s, who, *x)?;
            match me.wield.and_then(|w| s.weapon(w)) {
                Some(w) if w.melee() => {}
                Some(w) => {
                    return Err(no(
                        codes::NO_WEAPON,
                        format!(
                            "a {} cannot strike in close combat: shoot, or draw another weapon",
                            w.name
                        ),
                    ));
                }
                None => {
                    return Err(no(
                        codes::NO_WEAPON,
                        format!("{} holds no weapon: punch, or draw one", me.name),
                    ));
                }
            }
            reach_melee(s, who, *x).map(|()| Plan::Pay(pay))
        }
        Command::Punch(x) => {
            let pay = slow()?;
            foe(s, who, *x)?;
            reach_melee(s, who, *x)?;
            // EIN-R21: a creature with natural weapons fights with them: they are its unarmed
            // attack (fray's reading), so it does not punch as well.
            match me
                .carried
                .items()
                .iter()
                .filter_map(|&w| s.weapon(w))
                .find(|w| w.natural())
            {
                Some(w) => Err(no(
                    codes::NO_WEAPON,
                    format!(
                        "{} fights with its {}, not with fists: draw it if need be, and strike",
                        me.name, w.name
                    ),
                )),
                None => Ok(Plan::Pay(pay)),
            }
        }
        Command::Grapple(x) => {
            let pay = slow()?;
            foe(s, who, *x)?;
            reach_melee(s, who, *x).map(|()| Plan::Pay(pay))
        }
        Command::Shove(x, to) => {
            let pay = slow()?;
            foe(s, who, *x)?;
            reach_melee(s, who, *x)?;
            push_ok(s, *x, *to).map(|()| Plan::Pay(pay))
        }
        Command::Shoot(x) => {
            let pay = slow()?;
            foe(s, who, *x)?;
            let Some(w) = me.wield.and_then(|w| s.weapon(w)) else {
                return Err(no(
                    codes::NO_WEAPON,
                    format!("{} holds no weapon to shoot or throw", me.name),
                ));
            };
            let d = s.distance(who, *x);
            // EIN-R11, EIN-R48: a ranged weapon's whole band; a thrown one from 1 zone on.
            let [lo, hi] = w.range;
            let band = match w.kind {
                WeaponKind::Melee | WeaponKind::Natural => None,
                WeaponKind::Thrown => Some((lo.max(1), hi)),
                WeaponKind::Ranged => Some((lo, hi)),
            };
            match band {
                None => Err(no(codes::NO_WEAPON, format!("a {} is not shot or thrown", w.name))),
                Some((a, b)) if d < a || d > b => Err(no(
                    codes::OUT_OF_REACH,
                    format!(
                        "{} is {} zones away; a {} reaches {a} to {b}",
                        s.ch(*x).name,
                        zones_text(d),
                        w.name
                    ),
                )),
                Some(_) => Ok(Plan::Pay(pay)),
            }
        }
        Command::Cast(sp, x) => {
            let pay = slow()?;
            let Some((id, spell)) = s.setup.spells.iter().nth(*sp as usize) else {
                return Err(no(codes::BAD_TARGET, "no such spell"));
            };
            if !s.stats(who).spells.contains(id) {
                return Err(no(
                    codes::NO_WEAPON,
                    format!("{} does not know {}", me.name, spell.name),
                ));
            }
            foe(s, who, *x)?;
            let d = s.distance(who, *x);
            let [a, b] = spell.range;
            if d < a || d > b {
                return Err(no(
                    codes::OUT_OF_REACH,
                    format!("{} reaches {a} to {b} zones", spell.name),
                ));
            }
            Ok(Plan::Pay(pay))
        }
        Command::Flee(a) | Command::FleeTo(a, _) => {
            if !matches!(a, Action::Finesse | Action::Sneak) {
                return Err(no(codes::NOT_NOW, "flee with finesse or sneak (EIN-R32)"));
            }
            let pay = slow()?;
            if me.held_by.is_some() {
                return Err(no(codes::RESTRAINED, "a restrained creature cannot flee (EIN-R31)"));
            }
            let toward = match c {
                // EIN-R32: the way the fleer names.
                Command::FleeTo(_, z) => flee_way(s, who, *z).map(|()| Some(*z))?,
                _ => flee_route(s, who)?,
            };
            Ok(Plan::Flee { pay, toward })
        }
        Command::Extinguish => {
            let pay = slow()?;
            if me.fire.is_none() {
                return Err(no(codes::NOT_NOW, format!("{} is not on fire", me.name)));
            }
            Ok(Plan::Pay(pay))
        }
        Command::Test(_) => slow().map(Plan::Pay),
        Command::Move(z) => {
            neighbour(s, me.zone, *z)?;
            let ob = s.obstacle(me.zone, *z);
            // A cleared obstacle is no longer crossed (EIN-R15).
            let crossing = ob.map(|(_, o)| *o).filter(|o| !o.clear);
            let cross = |pay: Pay| Plan::Obstacle {
                pay,
                obstacle: crossing,
            };
            match ob {
                // EIN-R15: an obstacle that blocks the way must be cleared first.
                Some((label, ob)) if ob.clear && !s.open(me.zone, *z) => {
                    let to = s.setup.zones.id(*z);
                    Err(no(
                        codes::OUT_OF_REACH,
                        format!(
                            "the {} blocks the way to {to}: it must be cleared first (clear {to})",
                            label_text(label)
                        ),
                    ))
                }
                // EIN-R15: some obstacles take the slow manoeuvre to cross (a cleared one none).
                Some((_, ob)) if !ob.clear && ob.slow => slow().map(cross),
                _ => fast().map(cross),
            }
        }
        Command::Clear(z) => {
            neighbour(s, me.zone, *z)?;
            // EIN-R15: clearing takes the obstacle's manoeuvre (and, when resolved, its test).
            let clear = |ob: &Obstacle, pay: Pay| Plan::Obstacle {
                pay,
                obstacle: Some(*ob),
            };
            match s.blocking(me.zone, *z) {
                Some((_, ob)) if ob.slow => slow().map(|pay| clear(ob, pay)),
                Some((_, ob)) => fast().map(|pay| clear(ob, pay)),
                None => Err(no(
                    codes::NOT_NOW,
                    format!(
                        "nothing blocks the way to {}: there is nothing to clear",
                        s.setup.zones.id(*z)
                    ),
                )),
            }
        }
        Command::Close(x) => {
            let pay = fast()?;
            match s.chars.get(*x as usize) {
                Some(t) if *x != who && !t.out() && t.zone == me.zone && me.beside != Some(*x) => Ok(Plan::Pay(pay)),
                _ => Err(no(
                    codes::BAD_TARGET,
                    "close in on another creature in the zone, not already beside it",
                )),
            }
        }
        Command::Withdraw => {
            let pay = fast()?;
            if me.far {
                return Err(no(codes::NOT_NOW, format!("{} already stands apart", me.name)));
            }
            Ok(Plan::Pay(pay))
        }
        Command::Cover => {
            let pay = fast()?;
            let spots = s.setup.zones.cover(me.zone);
            let taken = s
                .chars
                .iter()
                .filter(|o| !o.out() && o.zone == me.zone && o.cover)
                .count();
            if me.cover {
                Err(no(codes::NOT_NOW, format!("{} is already in cover", me.name)))
            } else if taken >= spots as usize {
                Err(no(
                    codes::NO_COVER,
                    format!("{} has no free place of cover", s.setup.zones.id(me.zone)),
                ))
            } else {
                Ok(Plan::Pay(pay))
            }
        }
        Command::Draw(w) => {
            let pay = fast()?;
            if w.is_none()
                && let Some(n) = me.wield.and_then(|w| s.weapon(w)).filter(|w| w.natural())
            {
                return Err(no(
                    codes::NO_WEAPON,
                    format!("{} cannot put its {} away", me.name, n.name),
                ));
            }
            match w {
                None if me.wield.is_some() => Ok(Plan::Pay(pay)),
                Some(w) if me.carried.has(*w) && me.wield != Some(*w) => Ok(Plan::Pay(pay)),
                _ => Err(no(
                    codes::NO_WEAPON,
                    "draw a weapon carried and not in hand, or put the one in hand away",
                )),
            }
        }
        Command::PickUp(w) => {
            let pay = fast()?;
            if s.dropped.iter().any(|&(x, z)| x == *w && z == me.zone) {
                Ok(Plan::Pay(pay))
            } else {
                Err(no(codes::NO_WEAPON, "no such weapon lies in this zone"))
            }
        }
        Command::Stand => {
            let pay = fast()?;
            if me.prone {
                Ok(Plan::Pay(pay))
            } else {
                Err(no(codes::NOT_NOW, format!("{} is not down", me.name)))
            }
        }
        Command::Shout => {
            let pay = fast()?;
            if me.silenced {
                return Err(no(codes::RESTRAINED, format!("{} is silenced", me.name)));
            }
            Ok(Plan::Pay(pay))
        }
        Command::Interact => fast().map(Plan::Pay),
        Command::BreakFree => {
            if me.held_by.is_none() {
                return Err(no(codes::NOT_NOW, format!("{} is not restrained", me.name)));
            }
            if me.broke_free {
                return Err(no(codes::NOT_NOW, "one attempt to break free a turn (EIN-R30)"));
            }
            fast().map(Plan::Pay)
        }
        Command::Release => {
            if s.chars.iter().any(|o| o.held_by == Some(who)) {
                Ok(Plan::Plain)
            } else {
                Err(no(codes::NOT_NOW, format!("{} holds nobody", me.name)))
            }
        }
        Command::End => Ok(Plan::Plain),
        _ => Err(not_now()),
    }
}

fn zones_text(d: u8) -> String {
    if d == u8::MAX {
        "unreachable".into()
    } else {
        d.to_string()
    }
}

/// Zones held by the foes of `who` (those still in the fight).
pub fn enemy_zones(s: &State, who: Cid) -> ZoneSet {
    let mut z = ZoneSet::EMPTY;
    for (i, c) in s.chars.iter().enumerate() {
        if !c.out() && s.foes(who, i as Cid) {
            z.insert(c.zone);
        }
    }
    z
}

/// The zone a fleer stands in and the zones its flight may not pass (EIN-R32): those its foes
/// hold, but for the zone its turn began in; refused when foes hold the zone it moved into.
fn flee_from(s: &State, who: Cid) -> Result<(ZoneId, ZoneSet), Reject> {
    let here = s.ch(who).zone;
    // Only the zone the turn began in may hold foes (EIN-R32).
    let start = s.turn.filter(|t| t.who == who).map_or(here, |t| t.from);
    let mut blocked = enemy_zones(s, who);
    blocked.remove(start);
    if here != start && blocked.contains(here) {
        return Err(no(
            codes::NO_ESCAPE,
            "foes hold this zone, and it is not where the turn began (EIN-R32)",
        ));
    }
    Ok((here, blocked))
}

/// The first zone of the shortest way from `from` to an exit that enters no zone of `blocked`
/// and crosses no obstacle that blocks the way (EIN-R32, EIN-R15).
fn way_out(s: &State, from: ZoneId, blocked: ZoneSet) -> Option<ZoneId> {
    let zones = &s.setup.zones;
    if s.any_blocked() {
        zones.first_step_open(from, zones.exits(), blocked, |a, b| s.open(a, b))
    } else {
        zones.first_step(from, zones.exits(), blocked)
    }
}

/// The way out for a fleer (EIN-R32): `Ok(None)` when it stands in an exit zone, `Ok(Some(z))`
/// the next zone of the shortest way to an exit that passes no zone a foe holds (its own zone
/// does not count) and no obstacle not yet cleared (EIN-R15).
pub fn flee_route(s: &State, who: Cid) -> Result<Option<ZoneId>, Reject> {
    let zones = &s.setup.zones;
    let (here, blocked) = flee_from(s, who)?;
    // A map without exits: the fight's edge is everywhere, so the way out is open.
    if zones.is_exit(here) || zones.exits().is_empty() {
        return Ok(None);
    }
    match way_out(s, here, blocked) {
        Some(z) => Ok(Some(z)),
        None => Err(no(
            codes::NO_ESCAPE,
            "every way to an exit passes through a zone a foe holds, or an obstacle not cleared (EIN-R32)",
        )),
    }
}

/// Whether a fleer may flee by way of the neighbouring zone `z` (EIN-R32): the link is open
/// (EIN-R15), no foe holds `z`, and from there an exit is reached without a zone a foe holds
/// (on a map without exits, any such neighbour). A fleer in an exit zone leaves from there.
pub fn flee_way(s: &State, who: Cid, z: ZoneId) -> Result<(), Reject> {
    let zones = &s.setup.zones;
    let (here, mut blocked) = flee_from(s, who)?;
    let to = zones.id(z);
    if zones.is_exit(here) {
        return Err(no(
            codes::NO_ESCAPE,
            format!(
                "{} stands at a way out: it flees from here, not by way of {to}",
                s.ch(who).name
            ),
        ));
    }
    if zones.distance(here, z) != Some(1) {
        return Err(no(codes::OUT_OF_REACH, format!("{to} is not a neighbouring zone")));
    }
    if let Some((label, _)) = s.blocking(here, z) {
        return Err(no(
            codes::NO_ESCAPE,
            format!("the {} blocks the way to {to} (EIN-R15)", label_text(label)),
        ));
    }
    if blocked.contains(z) {
        return Err(no(codes::NO_ESCAPE, format!("a foe holds {to} (EIN-R32)")));
    }
    // Not back through the zone it flees from.
    blocked.insert(here);
    if leads_out(s, z, blocked) {
        Ok(())
    } else {
        Err(no(
            codes::NO_ESCAPE,
            format!("no way to an exit goes on from {to} but through a zone a foe holds (EIN-R32)"),
        ))
    }
}

/// Whether a flight that has reached `z` goes on to an exit without entering `blocked`: always
/// on a map without exits (EIN-R32).
fn leads_out(s: &State, z: ZoneId, blocked: ZoneSet) -> bool {
    let zones = &s.setup.zones;
    zones.exits().is_empty() || zones.is_exit(z) || way_out(s, z, blocked).is_some()
}

/// Every neighbouring zone [`flee_way`] accepts for `who`, without building a refusal for the
/// others (the legal list asks this on every turn).
pub fn flee_ways(s: &State, who: Cid) -> ZoneSet {
    let zones = &s.setup.zones;
    let Ok((here, mut blocked)) = flee_from(s, who) else {
        return ZoneSet::EMPTY;
    };
    if zones.is_exit(here) {
        return ZoneSet::EMPTY;
    }
    let open: ZoneSet = zones
        .neighbours(here)
        .iter()
        .copied()
        .filter(|&z| !blocked.contains(z) && s.open(here, z))
        .collect();
    blocked.insert(here);
    open.iter().filter(|&z| leads_out(s, z, blocked)).collect()
}

/// Fails unless `z` neighbours `from`.
fn neighbour(s: &State, from: ZoneId, z: ZoneId) -> Result<(), Reject> {
    if s.setup.zones.distance(from, z) == Some(1) {
        Ok(())
    } else {
        Err(no(
            codes::OUT_OF_REACH,
            format!("{} is not a neighbouring zone", s.setup.zones.id(z)),
        ))
    }
}

/// An obstacle's label as words (`fallen-beam` is "fallen beam").
pub fn label_text(label: &str) -> String {
    label.replace(['-', '_'], " ")
}

fn push_ok(s: &State, x: Cid, to: PushTo) -> Result<(), Reject> {
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
        Err(no(codes::BAD_PUSH, format!("{} cannot be pushed there", t.name)))
    }
}

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

/// Whether the defender beat the attack and may swap cards (EIN-R7, EIN-H18).
pub fn defender_may_swap(s: &State, a: &AttackFrame) -> bool {
    let Some((att, def)) = a.rolled else { return false };
    let defended = matches!(
        a.defence,
        Some(crate::state::Defence::Dodge | crate::state::Defence::Parry)
    );
    defended
        && def > att
        && !s.ch(a.by).out()
        && !s.ch(a.target).out()
        && !s.ch(a.by).cards.is_empty()
        && !s.ch(a.target).cards.is_empty()
}

fn spend_ok(s: &State, a: &AttackFrame, sp: &Spend) -> Result<(), Reject> {
    let Some(extra) = extra(s, a) else {
        return Err(not_now());
    };
    if sp.cost() > extra {
        return Err(no(
            codes::BAD_SPEND,
            format!("that takes {} extra successes and there are {extra}", sp.cost()),
        ));
    }
    let bad = |m: &str| Err(no(codes::BAD_SPEND, m.to_string()));
    let k = a.kind;
    let harmful = matches!(
        k,
        AttackKind::Strike | AttackKind::Shoot | AttackKind::Unarmed | AttackKind::Cast(_)
    );
    if let Some(card) = sp.swap {
        let t = s.ch(a.target);
        if !t.cards.cards().contains(&card) {
            return bad("swap=<card> must name one of the target's cards (EIN-R6)");
        }
        let mine = s.turn.filter(|t| t.who == a.by).and_then(|t| turn_card(s, a.by, t.n));
        if mine.is_none_or(|m| m == card) {
            return bad("the swap would change nothing");
        }
    }
    if sp.mental && !harmful {
        return bad("only a blow that deals Harm can deal Mental Harm instead");
    }
    if let Some(to) = sp.push {
        if !matches!(k, AttackKind::Strike | AttackKind::Unarmed) {
            return bad("only a close-combat blow can push");
        }
        push_ok(s, a.target, to)?;
    }
    let held = s.ch(a.target).wield.and_then(|w| s.weapon(w));
    if sp.disarm && (!matches!(k, AttackKind::Strike | AttackKind::Unarmed) || held.is_none_or(|w| w.natural())) {
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

/// The most Harm whose split is asked: beyond it the track overflows whatever the split.
pub const MAX_SPLIT: u8 = 24;

/// Every way `amount` Harm may be split into levels 1 to 3 (EIN-R34), each list largest first,
/// in a fixed order (largest levels first). Beyond [`MAX_SPLIT`] there is one: all severe.
pub fn splits(amount: u8) -> Vec<Vec<u8>> {
    if amount > MAX_SPLIT {
        let mut v = vec![3; (amount / 3) as usize];
        if !amount.is_multiple_of(3) {
            v.push(amount % 3);
        }
        return vec![v];
    }
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut parts = Vec::new();
    fn go(left: u8, max: u8, parts: &mut Vec<u8>, f: &mut dyn FnMut(&[u8])) {
        if left == 0 {
            f(parts);
            return;
        }
        for p in (1..=max.min(left)).rev() {
            parts.push(p);
            go(left - p, p, parts, f);
            parts.pop();
        }
    }
    go(amount, 3, &mut parts, &mut |p: &[u8]| out.push(p.to_vec()));
    out
}

/// Whether splitting the Harm makes any difference on the track: when every way marks the same
/// rows, nobody is asked.
pub fn split_matters(s: &State, who: Cid, mental: bool, amount: u8) -> bool {
    let c = s.ch(who);
    let rows = if mental { c.harm.mental } else { c.harm.physical };
    let ways = splits(amount);
    let first = ways.first().map(|p| place(rows, s.options.harm_slots, p));
    ways.iter().any(|p| Some(place(rows, s.options.harm_slots, p)) != first)
}

fn answer(s: &State, f: &Frame, c: &Command) -> Result<Plan, Reject> {
    let plain = |r: Result<(), Reject>| r.map(|()| Plan::Plain);
    match (f, c) {
        (Frame::Attack(a), _) if a.defence.is_none() => {
            let Some(d) = c.defence() else { return Err(not_now()) };
            Ok(defence_ok(s, a, d)?.map_or(Plan::Plain, Plan::Pay))
        }
        (Frame::Attack(a), Command::Swap(take, give)) if a.defender_swap.is_none() && defender_may_swap(s, a) => {
            if s.ch(a.by).cards.cards().contains(take) && s.ch(a.target).cards.cards().contains(give) && take != give {
                Ok(Plan::Plain)
            } else {
                Err(no(
                    codes::BAD_CARD,
                    "swap <card> <card>: one of the attacker's cards, then one of the defender's (EIN-R7)",
                ))
            }
        }
        (Frame::Attack(a), Command::Pass) if a.defender_swap.is_none() && defender_may_swap(s, a) => Ok(Plan::Plain),
        (Frame::Attack(a), Command::Spend(sp)) if a.spend.is_none() && extra(s, a).is_some_and(|e| e > 0) => {
            plain(spend_ok(s, a, sp))
        }
        (Frame::Flee(_), Command::Chase(a)) if !matches!(a, Action::Finesse | Action::Track) => {
            Err(no(codes::BAD_REACTION, "chase with finesse or track (EIN-R33)"))
        }
        (Frame::Flee(fl), Command::Chase(_) | Command::Pass) => {
            let who = crate::resolve::next_chaser(s, fl).ok_or_else(not_now)?;
            // The foe asked may react (`next_chaser`): a chase is paid as a reaction (EIN-R19).
            let pay = match c {
                Command::Chase(_) => Some(reaction(s, who)?),
                _ => None,
            };
            Ok(Plan::Chaser { who, pay })
        }
        // The holder is asked only when it may react (`resolve::asks_holder`): holding on is paid
        // as a reaction (EIN-R19).
        (Frame::Break(b), Command::Hold) if b.hold.is_none() => reaction(s, b.holder).map(Plan::Pay),
        (Frame::Break(b), Command::Pass) if b.hold.is_none() => Ok(Plan::Plain),
        (Frame::Split(sp), Command::Split(parts)) => {
            if splits(sp.amount).iter().any(|p| p == parts) {
                Ok(Plan::Plain)
            } else {
                let sum: u32 = parts.iter().map(|&p| u32::from(p)).sum();
                Err(no(
                    codes::BAD_SPLIT,
                    format!(
                        "the levels add up to {sum}; they must add up to {} (and each be 1 to 3)",
                        sp.amount
                    ),
                ))
            }
        }
        (Frame::Push(_), Command::Push(_)) => Ok(Plan::Plain),
        (Frame::Keep(k), Command::Keep(card)) if k.drawn.contains(card) => Ok(Plan::Plain),
        (Frame::Keep(k), Command::Keep(_)) => {
            Err(no(codes::BAD_CARD, format!("keep {} or {}", k.drawn[0], k.drawn[1])))
        }
        _ => Err(not_now()),
    }
}

/// Whether the target may answer an attack with any reaction but `pass`.
pub fn can_defend(s: &State, a: &AttackFrame) -> bool {
    use crate::state::Defence as D;
    [D::Dodge, D::Parry, D::BreakFree, D::Resist]
        .into_iter()
        .any(|d| defence_ok(s, a, d).is_ok())
}

/// What pays a reaction of `who`, or why it has none (EIN-R19).
fn reaction(s: &State, who: Cid) -> Result<Pay, Reject> {
    pay_reaction(s, who).ok_or_else(|| {
        no(
            codes::NO_MANEUVER,
            format!(
                "{} has no manoeuvre left this round to react with (EIN-R19)",
                s.ch(who).name
            ),
        )
    })
}

/// Whether the target may answer an attack with this reaction (EIN-R25, EIN-R27, EIN-H14,
/// EIN-H16), and what pays it (nothing pays `pass`); a refusal says why.
pub fn defence_ok(s: &State, a: &AttackFrame, d: crate::state::Defence) -> Result<Option<Pay>, Reject> {
    use crate::state::Defence as D;
    if d == D::None {
        return Ok(None);
    }
    let t = s.ch(a.target);
    if t.out() {
        return Err(no(codes::NO_MANEUVER, format!("{} is out of the fight", t.name)));
    }
    if t.fire.is_some() {
        // EIN-R39.
        return Err(no(
            codes::NO_MANEUVER,
            format!("{} is on fire: a burning creature cannot react (EIN-R39)", t.name),
        ));
    }
    let pay = reaction(s, a.target)?;
    let restrained = t.held_by.is_some();
    let bad = |why: String| Err(no(codes::BAD_REACTION, why));
    let what = match a.kind {
        AttackKind::Shoot => "a shot or a throw",
        AttackKind::Cast(_) => "a spell",
        AttackKind::Grapple => "a grapple",
        _ => "close combat",
    };
    let verdict: Result<(), Reject> = match (d, a.kind) {
        (D::BreakFree, AttackKind::Grapple) => Ok(()),
        (D::BreakFree, _) => bad(format!("break-free answers a grapple, and this is {what}")),
        (_, AttackKind::Grapple) => bad("a grapple is answered with break-free, or pass (EIN-R27)".into()),
        // EIN-H10: the restrained may parry, nothing else.
        (D::Resist, AttackKind::Cast(_)) if restrained => bad(format!(
            "{} is restrained: it may parry, but not resist a spell (EIN-H10)",
            t.name
        )),
        (D::Resist, AttackKind::Cast(_)) => Ok(()),
        (D::Resist, _) => bad(format!("resist answers a spell, and this is {what}")),
        (_, AttackKind::Cast(_)) => bad("a spell is resisted (resist), not dodged or parried (EIN-H16)".into()),
        // EIN-R25, EIN-R31, EIN-H10: parry answers close combat, the restrained too.
        (D::Parry, k) if k.melee() => Ok(()),
        (D::Parry, _) => bad(format!("{what} cannot be parried: dodge it (EIN-R25)")),
        (D::Dodge, _) if restrained => bad(format!(
            "{} is restrained: it may parry, but not dodge (EIN-H10)",
            t.name
        )),
        (D::Dodge, k) if k.melee() && !s.options.dodge_melee => {
            bad("close combat is parried, not dodged (EIN-R25, EIN-H14: the dodge-melee option is off)".into())
        }
        (D::Dodge, _) => Ok(()),
        (D::None, _) => Ok(()),
    };
    verdict.map(|()| Some(pay))
}

/// Whether two player characters may swap cards now (EIN-R5).
pub fn trade_ok(s: &State, seat: Seat, a: Cid, b: Cid) -> Result<(), Reject> {
    let (Some(x), Some(y)) = (s.chars.get(a as usize), s.chars.get(b as usize)) else {
        return Err(no(codes::BAD_TARGET, "no such creature"));
    };
    if a >= b {
        return Err(no(codes::BAD_TRADE, "name the two in encounter order"));
    }
    if !x.pc || !y.pc || x.out() || y.out() || x.side != y.side {
        return Err(no(
            codes::BAD_TRADE,
            "two player characters of one side, both in the fight, swap cards",
        ));
    }
    let (sa, sb) = (s.seat_of(a), s.seat_of(b));
    if sa != seat && sb != seat {
        // EIN-R5: each seat proposes and agrees for its own characters only.
        let whose = if sa == sb {
            format!("{} and {} are {}'s", x.name, y.name, s.seat_name(sa))
        } else {
            format!(
                "{} is {}'s and {} is {}'s",
                x.name,
                s.seat_name(sa),
                y.name,
                s.seat_name(sb)
            )
        };
        return Err(no(
            codes::BAD_TRADE,
            format!("{whose}: {} swaps cards only for its own characters", s.seat_name(seat)),
        ));
    }
    if x.silenced || y.silenced {
        return Err(no(codes::BAD_TRADE, "a silenced character cannot agree to a swap"));
    }
    if let Some(r) = s.options.swap_range
        && s.distance(a, b) > r
    {
        return Err(no(
            codes::BAD_TRADE,
            format!("{} and {} are too far apart to talk", x.name, y.name),
        ));
    }
    if x.cards.best() == y.cards.best() {
        return Err(no(codes::BAD_TRADE, "they hold the same card"));
    }
    Ok(())
}

fn swap_stage(s: &State, seat: Seat, c: &Command) -> Result<(), Reject> {
    match c {
        Command::Ready if s.swapping.contains(seat) => Ok(()),
        Command::Trade(a, b) if s.swapping.contains(seat) => {
            trade_ok(s, seat, *a, *b)?;
            let pair = (*a, *b);
            if s.proposals.iter().any(|p| p.pair == pair && p.agreed.contains(seat)) {
                return Err(no(codes::BAD_TRADE, "this seat has already agreed to that swap"));
            }
            // EIN-R5: a swap of two players' characters needs both seats; one that is done
            // swapping for the round and has not agreed to this one never will.
            if let Some(done) = waits_on_done(s, seat, pair) {
                let x = [*a, *b].into_iter().find(|&w| s.seat_of(w) == done).unwrap_or(*a);
                return Err(no(
                    codes::BAD_TRADE,
                    format!(
                        "{} is {}'s, and {} is done swapping this round",
                        s.ch(x).name,
                        s.seat_name(done),
                        s.seat_name(done)
                    ),
                ));
            }
            Ok(())
        }
        _ => Err(not_now()),
    }
}

/// The seat other than `seat` that a swap of `pair` needs, if it is done swapping this round
/// (it answered `ready`) without having agreed to this swap.
fn waits_on_done(s: &State, seat: Seat, pair: (Cid, Cid)) -> Option<Seat> {
    let agreed = s.proposals.iter().find(|p| p.pair == pair).map(|p| p.agreed);
    [s.seat_of(pair.0), s.seat_of(pair.1)]
        .into_iter()
        .find(|&o| o != seat && !s.swapping.contains(o) && !agreed.is_some_and(|g| g.contains(o)))
}

/// Whether `seat`, still deciding at the swap stage, has swaps it may make but every one of
/// them waits on another seat that is done swapping (EIN-R5): then nothing it answers but
/// `ready` can change a card, and it is done too. A seat that has no swap it may make at all
/// stays asked, as it always was, until it answers `ready`; so a seat that plays a whole side
/// is never done by itself.
pub fn swaps_blocked(s: &State, seat: Seat) -> bool {
    let n = s.chars.len() as Cid;
    let mut any = false;
    for a in 0..n {
        for b in a + 1..n {
            if trade_ok(s, seat, a, b).is_ok() {
                if waits_on_done(s, seat, (a, b)).is_none() {
                    return false;
                }
                any = true;
            }
        }
    }
    any
}

fn ruling(s: &State, r: &Ruling) -> Result<(), Reject> {
    let bad = |m: String| Err(no(codes::BAD_RULING, m));
    let live = |w: &Cid| match s.chars.get(*w as usize) {
        Some(c) if c.out() => bad(format!("{} is out of the fight", c.name)),
        Some(_) => Ok(()),
        None => bad(format!("no creature #{w}")),
    };
    let any = |w: &Cid| match s.chars.get(*w as usize) {
        Some(_) => Ok(()),
        None => bad(format!("no creature #{w}")),
    };
    let zone = |z: &ZoneId| {
        if z.index() < s.setup.zones.len() {
            Ok(())
        } else {
            bad(format!("no zone #{}", z.get()))
        }
    };
    match r {
        R::Adjust { who, by, .. } => {
            any(who)?;
            if s.ch(*who).status == crate::state::Status::Fled {
                return bad("a creature that fled is gone".into());
            }
            match by.apply(0) {
                v if (-20..=20).contains(&v) => Ok(()),
                v => bad(format!("{v} is out of range")),
            }
        }
        R::Move { who, to } => {
            live(who)?;
            zone(to)
        }
        R::Add { id, template, side, at } => {
            if !fray_engine::encounter::is_word(id) || s.find(id).is_some() {
                bad(format!("'{id}' is not a new one-word id"))
            } else if !s.setup.templates.contains_key(template) {
                let hint = fray_engine::diag::suggestion(template, s.setup.templates.keys().map(String::as_str));
                bad(format!("no template '{template}'{hint}"))
            } else if *side as usize >= s.setup.sides.len() || s.chars.len() >= MAX_COMBATANTS {
                bad(format!("no side #{side}, or {MAX_COMBATANTS} creatures already"))
            } else {
                zone(at)
            }
        }
        R::Remove { who } => live(who),
        R::End { winner: Some(w) } if *w as usize >= s.setup.sides.len() => bad(format!("no side #{w}")),
        R::End { .. } => Ok(()),
        R::Other(o) => match o {
            Own::Fear { who, value, .. } => {
                live(who)?;
                if *value > 9 {
                    bad("a Fear value is 0 to 9".into())
                } else {
                    Ok(())
                }
            }
            Own::Ignite { who, intensity } => {
                live(who)?;
                if (1..=3).contains(intensity) {
                    Ok(())
                } else {
                    bad("a fire's intensity is 1 to 3 (EIN-H4)".into())
                }
            }
            Own::Poison { who, toxicity, .. } => {
                live(who)?;
                if (1..=30).contains(toxicity) {
                    Ok(())
                } else {
                    bad("toxicity is 1 to 30".into())
                }
            }
            Own::Fall { who, feet, .. } => {
                live(who)?;
                if *feet <= 150 {
                    Ok(())
                } else {
                    bad("a fall of at most 150 feet".into())
                }
            }
            Own::Douse { who }
            | Own::Antidote { who }
            | Own::Deprive { who, .. }
            | Own::Prone { who, .. }
            | Own::Release { who } => live(who),
            Own::Circumstance { name, zone: z, .. } => {
                if !s.setup.circumstances.contains_key(name) {
                    return bad(format!("no circumstance '{name}'"));
                }
                match z {
                    Some(z) => zone(z),
                    None => Ok(()),
                }
            }
        },
    }
}

/// Every legal answer of `seat` to the pending decision, with its plan, in a fixed order.
pub fn legal(s: &State, seat: Seat, out: &mut Vec<Answer<Einfelst>>) {
    let push = |out: &mut Vec<Answer<Einfelst>>, c: Command| {
        if let Ok(plan) = check(s, seat, &c) {
            out.push(Answer::new(c, plan));
        }
    };
    if let Some(f) = s.frames.last() {
        match f {
            Frame::Attack(a) if a.defence.is_none() => {
                for c in [
                    Command::Dodge,
                    Command::Parry,
                    Command::BreakFree,
                    Command::Resist,
                    Command::Pass,
                ] {
                    push(out, c);
                }
            }
            Frame::Attack(a) if a.defender_swap.is_none() && defender_may_swap(s, a) => {
                for &take in s.ch(a.by).cards.cards() {
                    for &give in s.ch(a.target).cards.cards() {
                        push(out, Command::Swap(take, give));
                    }
                }
                push(out, Command::Pass);
            }
            Frame::Attack(a) => {
                for sp in spend_candidates(s, a) {
                    push(out, Command::Spend(sp));
                }
            }
            Frame::Flee(_) => {
                push(out, Command::Chase(Action::Finesse));
                push(out, Command::Chase(Action::Track));
                push(out, Command::Pass);
            }
            Frame::Break(_) => {
                push(out, Command::Hold);
                push(out, Command::Pass);
            }
            Frame::Split(sp) => {
                for p in splits(sp.amount) {
                    push(out, Command::Split(p));
                }
            }
            Frame::Push(_) => {
                push(out, Command::Push(true));
                push(out, Command::Push(false));
            }
            Frame::Keep(k) => {
                push(out, Command::Keep(k.drawn[0]));
                if k.drawn[1] != k.drawn[0] {
                    push(out, Command::Keep(k.drawn[1]));
                }
            }
        }
        return;
    }
    if s.stage == Stage::Swaps {
        let n = s.chars.len() as Cid;
        for a in 0..n {
            for b in a + 1..n {
                push(out, Command::Trade(a, b));
            }
        }
        push(out, Command::Ready);
        return;
    }
    let Some(t) = s.turn else {
        for x in s.ids() {
            push(out, Command::Act(x));
        }
        return;
    };
    let me = s.ch(t.who);
    // Attacks and shoves are on foes still in the fight (`foe`): only they are tried (hot
    // path: a refusal is worded for nothing).
    for x in s.ids().filter(|&x| is_foe(s, t.who, x)) {
        push(out, Command::Strike(x));
        push(out, Command::Shoot(x));
        push(out, Command::Punch(x));
        push(out, Command::Grapple(x));
        for sp in 0..s.setup.spells.len() as u8 {
            push(out, Command::Cast(sp, x));
        }
    }
    for x in s.ids().filter(|&x| is_foe(s, t.who, x)) {
        if s.ch(x).zone == me.zone {
            for &z in s.setup.zones.neighbours(s.ch(x).zone) {
                push(out, Command::Shove(x, PushTo::Zone(z)));
            }
            push(out, Command::Shove(x, PushTo::Far));
            push(out, Command::Shove(x, PushTo::Down));
        }
    }
    // A way named is open only where the shortest way is (flee_way implies flee_route), so
    // only the ways flee_ways finds are tried, and only when a flight is (hot path).
    let mut ways = None;
    for a in [Action::Finesse, Action::Sneak] {
        let Ok(plan) = check(s, seat, &Command::Flee(a)) else {
            continue;
        };
        out.push(Answer::new(Command::Flee(a), plan));
        let ways = *ways.get_or_insert_with(|| flee_ways(s, t.who));
        for &z in s.setup.zones.neighbours(me.zone) {
            if ways.contains(z) {
                push(out, Command::FleeTo(a, z));
            }
        }
    }
    push(out, Command::Extinguish);
    for &z in s.setup.zones.neighbours(me.zone) {
        push(out, Command::Move(z));
    }
    // Only what blocks the way can be cleared (EIN-R15).
    for &z in s.setup.zones.neighbours(me.zone) {
        if s.blocking(me.zone, z).is_some() {
            push(out, Command::Clear(z));
        }
    }
    for x in s.ids() {
        push(out, Command::Close(x));
    }
    for c in [Command::Withdraw, Command::Cover, Command::Draw(None)] {
        push(out, c);
    }
    for (i, &w) in me.carried.items().iter().enumerate() {
        // Two of a kind are one choice.
        if !me.carried.items()[..i].contains(&w) {
            push(out, Command::Draw(Some(w)));
        }
    }
    let mut seen: Vec<u8> = Vec::new();
    for &(w, z) in &s.dropped {
        if z == me.zone && !seen.contains(&w) {
            seen.push(w);
            push(out, Command::PickUp(w));
        }
    }
    for c in [Command::Stand, Command::Shout, Command::Interact, Command::BreakFree] {
        push(out, c);
    }
    for a in Action::ALL {
        push(out, Command::Test(a));
    }
    for c in [Command::Release, Command::End] {
        push(out, c);
    }
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
