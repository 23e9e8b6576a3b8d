//! Holding and being held (MUR-R35 to MUR-R39, MUR-R59): who holds whom, what a held
//! character may do (break free only, MUR-R39), what a holder lets go by doing (MUR-R36),
//! breaking free, shoving (MUR-R37), throwing and freeing, checked and resolved, with their
//! legal list; the STR contests that size and skills decide (MUR-R59); and the disarms and
//! grapples that land ([`non_lethal`], MUR-R34, MUR-R35).

use crate::Murdham;
use crate::actions::health::hurt;
use crate::actions::{Offer, Plan, bonus_left, main_left, no};
use crate::codes;
use crate::command::{Aim, Command};
use crate::data::{Ability, Skill};
use crate::place::Place;
use crate::roll::{Res, roll_damage, save};
use crate::setup::Cid;
use crate::state::{Event, Mode, State, Turn, Why};
use fray_engine::{Cx, Reject};

/// The character `who` holds, if any.
pub fn holding(s: &State, who: Cid) -> Option<Cid> {
    s.ids().find(|&x| s.ch(x).grabbed_by == Some(who))
}

/// Refused when `who` is held and `c` is not an attempt to break free (or the end of its turn,
/// a lost turn, a surrender).
pub fn entangled(s: &State, who: Cid, c: &Command) -> Result<(), Reject> {
    let me = s.ch(who);
    // MUR-R39: an entangled character may only spend its turn trying to break free; MUR-R35:
    // being held is what makes it entangled.
    if me.grabbed_by.is_some()
        && !matches!(
            c,
            Command::BreakFree | Command::End | Command::TimedOut | Command::Surrender
        )
    {
        return Err(no(
            codes::ENTANGLED,
            format!("{} is held: it may only try to break free", me.name),
        ));
    }
    Ok(())
}

/// Before a command of `who`'s turn: a holder that does anything but move with, attack or
/// shove or throw the held character lets it go.
pub fn lets_go(cx: &mut Cx<'_, Murdham>, who: Cid, c: &Command) {
    let s = &*cx.s;
    let size = s.ch(who).stats.size;
    let holding = holding(s, who);
    // MUR-R36: a holder may move with, and attack, the held character; anything else lets go
    // (a larger holder acts freely, MUR-R59).
    let lets_go = match c {
        Command::Move { .. }
        | Command::Run
        | Command::Cover
        | Command::End
        | Command::Release
        | Command::Shove { .. }
        | Command::Throw { .. } => false,
        Command::Attack { aim: Aim::At(x), .. } => Some(*x) != holding,
        _ => true,
    };
    if let Some(h) = holding
        && lets_go
        && s.ch(h).stats.size >= size
    {
        cx.emit(Event::Grab { who: h, by: None });
    }
}

/// The check of breaking free (MUR-R39): only a held character tries. Its plan names the
/// holder.
pub fn check_break_free(s: &State, t: &Turn) -> Result<Plan, Reject> {
    let me = s.ch(t.who);
    match me.grabbed_by {
        Some(holder) => Ok(Plan::BreakFree { holder }),
        None => Err(no(codes::NOT_ALLOWED, format!("{} is not held", me.name))),
    }
}

/// The check of a shove of the held `target` (MUR-R37): half a zone to `to`, into a hazard,
/// or both. Its plan is the hazard's die.
pub fn check_shove(s: &State, t: &Turn, target: Cid, to: Option<Place>, hazard: bool) -> Result<Plan, Reject> {
    let who = t.who;
    let me = s.ch(who);
    let zones = &s.setup.zones;
    if s.options.shove_is_main {
        main_left(t)?;
    } else {
        bonus_left(t)?;
    }
    let h = s.chars.get(target as usize).filter(|x| x.grabbed_by == Some(who));
    let Some(h) = h else {
        return Err(no(codes::BAD_TARGET, "shove the character you are holding"));
    };
    if to.is_none() && !hazard {
        return Err(no(
            codes::NOT_ALLOWED,
            "a shove moves the target half a zone, into a hazard, or both",
        ));
    }
    if let Some(p) = to {
        if h.at.step_cost(p, zones) != Some(1) {
            return Err(no(
                codes::BAD_MOVE,
                "a shove moves its target half a zone: onto a border or off one",
            ));
        }
        if s.crowd(p, Some(me.side)) >= p.capacity() {
            return Err(no(codes::NO_ROOM, format!("{} is full", p.describe(zones))));
        }
    }
    let hazard = if hazard {
        let z = to.map_or(h.at.a, |p| p.a);
        let Some(die) = s.setup.hazard(z) else {
            return Err(no(codes::NOT_ALLOWED, "there is no hazard there"));
        };
        Some(die)
    } else {
        None
    };
    Ok(Plan::Shove { hazard })
}

/// The check of a throw of the held `target` to `to` (MUR-R59).
pub fn check_throw(s: &State, t: &Turn, target: Cid, to: Place) -> Result<Plan, Reject> {
    let who = t.who;
    let me = s.ch(who);
    let zones = &s.setup.zones;
    main_left(t)?;
    let h = s.chars.get(target as usize).filter(|x| x.grabbed_by == Some(who));
    let Some(h) = h else {
        return Err(no(codes::BAD_TARGET, "throw the character you are holding"));
    };
    // MUR-R59: only a larger grabber throws.
    if h.stats.size >= me.stats.size {
        return Err(no(
            codes::NOT_ALLOWED,
            "only a larger character throws the one it holds",
        ));
    }
    if me.at.range(to, zones).is_none_or(|r| r > 2) {
        return Err(no(codes::OUT_OF_RANGE, "a throw reaches range 2 at most"));
    }
    if s.crowd(to, Some(me.side)) >= to.capacity() {
        return Err(no(codes::NO_ROOM, format!("{} is full", to.describe(zones))));
    }
    Ok(Plan::Plain)
}

/// The check of freeing `x` from someone else's hold (MUR-R39). Its plan names the holder.
pub fn check_free(s: &State, t: &Turn, x: Cid) -> Result<Plan, Reject> {
    let who = t.who;
    main_left(t)?;
    let holder = s
        .chars
        .get(x as usize)
        .and_then(|c| c.grabbed_by)
        .filter(|&g| g != who && s.nearby(who, x));
    let Some(holder) = holder else {
        return Err(no(codes::BAD_TARGET, "free a nearby character someone else is holding"));
    };
    Ok(Plan::Free { holder })
}

/// The check of letting go of the character `who` holds.
pub fn check_release(s: &State, t: &Turn) -> Result<Plan, Reject> {
    let me = s.ch(t.who);
    match holding(s, t.who) {
        Some(_) => Ok(Plan::Plain),
        None => Err(no(codes::NOT_ALLOWED, format!("{} holds nobody", me.name))),
    }
}

/// What `who` may do about holds in its turn, in the legal list's order: for each character
/// it holds, shoves and throws; freeing each character; then breaking free and letting go.
pub fn legal(s: &State, who: Cid, offer: &mut dyn Offer) {
    let zones = &s.setup.zones;
    for x in s.ids() {
        if s.ch(x).grabbed_by == Some(who) {
            let here = s.ch(x).at;
            for (p, cost) in here.steps(zones) {
                if cost == 1 {
                    offer.checked(Command::Shove {
                        target: x,
                        to: Some(p),
                        hazard: false,
                    });
                }
            }
            offer.checked(Command::Shove {
                target: x,
                to: None,
                hazard: true,
            });
            for z in zones.ids() {
                offer.checked(Command::Throw {
                    target: x,
                    to: Place::zone(z),
                });
            }
        }
        offer.checked(Command::Free(x));
    }
    offer.checked(Command::BreakFree);
    offer.checked(Command::Release);
}

/// `who` tries to break free of `holder`.
pub fn break_free(cx: &mut Cx<'_, Murdham>, who: Cid, holder: Cid) -> Res<()> {
    // MUR-R39: the whole turn on a STR save.
    if str_contest(cx, who, holder, Why::BreakFree, None)? {
        cx.emit(Event::Grab { who, by: None });
    }
    cx.emit(Event::TurnEnded { who });
    Ok(())
}

/// `who` shoves the held `target`, to `to` and into the hazard of die `hazard`, as the check
/// found them.
pub fn shove(cx: &mut Cx<'_, Murdham>, who: Cid, target: Cid, to: Option<Place>, hazard: Option<u8>) -> Res<()> {
    cx.emit(Event::Acted {
        who,
        main: cx.s.options.shove_is_main,
        what: "shove".into(),
    });
    // MUR-R37: the held character is let go and moved half a zone and/or into a hazard.
    cx.emit(Event::Grab { who: target, by: None });
    if let Some(p) = to {
        cx.emit(Event::Moved {
            who: target,
            to: p,
            cost: 0,
        });
    }
    // The hazard of the zone the target ends in, as the check found it.
    if let Some(d) = hazard {
        let (total, _, rolls) = roll_damage(cx, who, d, 0)?;
        cx.emit(Event::DamageRoll {
            by: who,
            rolls,
            level: 0,
            total,
        });
        hurt(cx, target, Some(who), total, 0, true)?;
    }
    Ok(())
}

/// `who` throws the held `target` to `to`.
pub fn throw(cx: &mut Cx<'_, Murdham>, who: Cid, target: Cid, to: Place) -> Res<()> {
    cx.emit(Event::Acted {
        who,
        main: true,
        what: "throw".into(),
    });
    // MUR-R59: a larger holder throws the held character up to range 2 for d4 direct.
    cx.emit(Event::Grab { who: target, by: None });
    cx.emit(Event::Moved {
        who: target,
        to,
        cost: 0,
    });
    let (total, _, rolls) = roll_damage(cx, who, 4, 0)?;
    cx.emit(Event::DamageRoll {
        by: who,
        rolls,
        level: 0,
        total,
    });
    hurt(cx, target, Some(who), total, 0, true)?;
    Ok(())
}

/// `who` tries to free `x` from `holder`.
pub fn free(cx: &mut Cx<'_, Murdham>, who: Cid, x: Cid, holder: Cid) -> Res<()> {
    cx.emit(Event::Acted {
        who,
        main: true,
        what: "free".into(),
    });
    // MUR-R39: a main action and a STR save.
    if str_contest(cx, who, holder, Why::Free, None)? {
        cx.emit(Event::Grab { who: x, by: None });
    }
    Ok(())
}

/// `who` lets go of the character it holds.
pub fn release(cx: &mut Cx<'_, Murdham>, who: Cid) {
    let holding = holding(&cx.s, who);
    if let Some(h) = holding {
        cx.emit(Event::Grab { who: h, by: None });
    }
}

/// A STR save by `who` against `other` (MUR-R59): size decides between different sizes, then
/// the `skill` (disarm, wrestling) when only one side has it; otherwise a d20. `who` passes:
/// true.
fn str_contest(cx: &mut Cx<'_, Murdham>, who: Cid, other: Cid, why: Why, skill: Option<Skill>) -> Res<bool> {
    let (me, them) = (cx.s.ch(who), cx.s.ch(other));
    let size = me.stats.size.cmp(&them.stats.size);
    let by_size = match size {
        std::cmp::Ordering::Greater => Some(true),
        std::cmp::Ordering::Less => Some(false),
        std::cmp::Ordering::Equal => None,
    };
    let by_skill = skill.and_then(|k| match (me.stats.has(k), them.stats.has(k)) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    });
    let auto = if cx.s.options.size_before_skills {
        by_size.or(by_skill)
    } else {
        by_skill.or(by_size)
    };
    match auto {
        Some(pass) => {
            cx.emit(Event::Save {
                who,
                ability: Ability::Str,
                score: me.ability(Ability::Str),
                roll: 0,
                pass,
                why,
            });
            Ok(pass)
        }
        None => save(cx, who, Ability::Str, why),
    }
}

/// A disarm or grapple lands: the target's STR save (MUR-R34, MUR-R35, MUR-R59).
pub(crate) fn non_lethal(cx: &mut Cx<'_, Murdham>, by: Cid, t: Cid, mode: Mode) -> Res<()> {
    if let Mode::Disarm { item } = mode {
        // MUR-R34: a target that fails its STR save drops the weapon the attacker chose.
        let kept = str_contest(cx, t, by, Why::Disarm, Some(Skill::Disarm))?;
        if !kept && cx.s.ch(t).hand_of(item).is_some() {
            cx.emit(Event::Dropped { who: t, item });
        }
    } else if mode == Mode::Grapple && cx.s.ch(t).grabbed_by.is_none() {
        // MUR-R35: a target that fails its STR save is grabbed, and held (entangled) from now.
        let slipped = str_contest(cx, t, by, Why::Grapple, Some(Skill::Wrestling))?;
        if !slipped {
            cx.emit(Event::Grab { who: t, by: Some(by) });
        }
    }
    Ok(())
}
