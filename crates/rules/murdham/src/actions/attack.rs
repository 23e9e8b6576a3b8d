//! Declaring an attack: what the rules allow and how it is made ([`plan`]: melee reach and
//! ranged range, MUR-R15; visibility and the to-hit WIT save, MUR-R13, MUR-H5; what ranged
//! attacks may not do, MUR-R14; barriers, MUR-R28; final blows, MUR-R18; disarms and grapples,
//! MUR-R59; blasts and sweeps, MUR-R29 to MUR-R31, MUR-R58), the check of an attack in a
//! turn (its action, MUR-R7, MUR-H24; a stunt, MUR-R32), its legal list, and its declaration
//! ([`declare`]: surprise, MUR-R41; peeking, MUR-R28), which pushes the attack frame that
//! [`crate::actions::landing`] runs, and the frame's end: the next target of a blast
//! ([`next_target`], MUR-H8), then [`finish`] (a thrown flask spent, MUR-H24; a surprise
//! attacker revealed, MUR-R42; a damaged weapon's break, MUR-R49).
//!
//! The plan is worked out once, by the check, and handed to the declaration: the resolver
//! works none of it out again. Opportunity attacks and counters are planned here too, with
//! `reaction` set.

use crate::Murdham;
use crate::actions::items::no_arm;
use crate::actions::weapons::{Profile, profile, weapons_of};
use crate::actions::wear::breaks;
use crate::actions::{Offer, Plan, bonus_left, main_left, no, reveal};
use crate::codes;
use crate::command::{Aim, Command};
use crate::data::{Keyword, Size};
use crate::place::Place;
use crate::roll::Res;
use crate::setup::Cid;
use crate::state::{Attack, AttackStage, Condition, Event, Frame, Mode, State, Status, Turn, With};
use fray_engine::{Cx, Flow, Reject};

/// How an attack may be made, as [`plan`] works it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackPlan {
    /// The profile of the weapon or power.
    pub profile: Profile,
    /// A WIT save to hit is needed (MUR-R13).
    pub save: bool,
    /// Ranged (not melee).
    pub ranged: bool,
    /// The blast's place (MUR-R29), if it is one.
    pub blast: Option<Place>,
    /// Aimed at one big character: double damage, no blast (MUR-R58).
    pub focused: bool,
    /// The first target (for a blast, the first character it hits, if any).
    pub target: Option<Cid>,
}

/// Whether `target` can be seen by `by`: `by` is not blind, `target` is not concealed from it
/// nor in a dark zone.
pub fn visible(s: &State, by: Cid, target: Cid) -> bool {
    let t = s.ch(target);
    // A blinded character sees nobody (an injury's condition, the game's Conditions chapter).
    !s.ch(by).injuries.blind()
        && !s.hidden_from(target, s.ch(by).side)
        && !t.at.zones().all(|z| s.setup.tagged(z, "dark"))
}

/// Whether `target` is behind a barrier against `by` (MUR-R28): at a barrier spot, not
/// peeking, and attacked from another place.
pub fn behind_barrier(s: &State, by: Cid, target: Cid) -> bool {
    let t = s.ch(target);
    t.cover && !t.peeking && s.setup.tagged(t.at.a, "barrier") && !s.nearby(by, target)
}

/// Who is "moving" (MUR-H5): the attacker moved earlier this turn.
fn moving(s: &State, who: Cid) -> bool {
    s.options.moved_means_moving && s.turn.as_ref().is_some_and(|t| t.who == who && t.moved)
}

/// Who a blast on `place` hits: every character up at that place or touching its zone (a
/// zone's borders), in character order; a melee blast leaves out the attacker (MUR-R29,
/// MUR-R30), a sweep hits only smaller characters (MUR-R58), and a blast thrown from
/// elsewhere does not reach behind a barrier unless it comes `over` it (indirect, MUR-R28).
pub fn blast_victims(s: &State, by: Cid, place: Place, melee: bool, sweep: bool, over: bool) -> Vec<Cid> {
    let size = s.ch(by).stats.size;
    s.ids()
        .filter(|&c| {
            let ch = s.ch(c);
            // MUR-R29: a blast on a zone hits everyone in it and on its borders.
            let inside = match place.b {
                None => ch.at.touches(place.a),
                Some(_) => ch.at == place,
            };
            inside
                && !matches!(ch.status, Status::Dead | Status::Fled | Status::Banished)
                && !(melee && c == by)
                && (!sweep || ch.stats.size < size)
                && (melee || over || !behind_barrier(s, by, c))
        })
        .collect()
}

/// Works out an attack by `who`: refused with the reason when the rules do not allow it.
/// `reaction` is true for counters and opportunity attacks (no action is spent).
pub fn plan(
    s: &State,
    who: Cid,
    aim: Aim,
    with: With,
    mode: Mode,
    sweep: bool,
    reaction: bool,
) -> Result<AttackPlan, Reject> {
    let p = profile(s, who, with)?;
    plan_with(s, who, p, aim, with, mode, sweep, reaction)
}

/// [`plan`] with the profile of `with` in `who`'s hands already worked out.
#[allow(clippy::too_many_arguments)]
fn plan_with(
    s: &State,
    who: Cid,
    p: Profile,
    aim: Aim,
    with: With,
    mode: Mode,
    sweep: bool,
    reaction: bool,
) -> Result<AttackPlan, Reject> {
    let me = s.ch(who);
    if let With::Item(i) = with
        && me.item(i).is_some_and(|it| it.spent.is_some())
    {
        return Err(no(codes::BAD_ITEM, "that weapon has fired and is not reloaded"));
    }
    let grabbing = s.ids().find(|&c| s.ch(c).grabbed_by == Some(who));
    let melee_reach = if me.stats.size == Size::Massive { 1 } else { 0 };
    match (mode, with) {
        (Mode::Harm { .. }, _) => {}
        (_, With::Power(_)) => return Err(no(codes::BAD_ITEM, "a power is invoked, not used to disarm or grapple")),
        _ => {}
    }
    if sweep && (p.range > 0 || p.blast || p.power || !matches!(mode, Mode::Harm { .. })) {
        return Err(no(
            codes::NOT_ALLOWED,
            "a sweep is a melee attack that deals damage (MUR-R58)",
        ));
    }
    if p.blast || sweep {
        if !matches!(mode, Mode::Harm { .. }) {
            return Err(no(codes::NOT_ALLOWED, "a blast deals damage"));
        }
        match aim {
            Aim::Place(place) if place.is_border() => {
                return Err(no(
                    codes::BAD_TARGET,
                    "a blast is aimed at a zone (it hits the zone and its borders)",
                ));
            }
            Aim::Place(place) => {
                let melee_blast = sweep || p.range == 0;
                if !melee_blast && me.injuries.blind() {
                    return Err(no(codes::CONDITION, format!("{} is blind: no ranged attack", me.name)));
                }
                if melee_blast {
                    // MUR-R30: a melee blast (and a sweep) hits the attacker's own zone.
                    if !me.at.touches(place.a) || place.is_border() {
                        return Err(no(
                            codes::OUT_OF_RANGE,
                            "a melee blast hits the attacker's own zone: aim it there",
                        ));
                    }
                    let victims = blast_victims(s, who, Place::zone(place.a), true, sweep, false);
                    return Ok(AttackPlan {
                        profile: p,
                        save: false,
                        ranged: false,
                        blast: Some(Place::zone(place.a)),
                        focused: false,
                        target: victims.first().copied(),
                    });
                }
                // MUR-R31: a ranged blast hits any zone within range.
                let range = me
                    .at
                    .range(place, &s.setup.zones)
                    .ok_or_else(|| no(codes::OUT_OF_RANGE, "no way leads there"))?;
                let half = s.options.half_range(p.range);
                let mv = moving(s, who);
                ranged_limits(p, range, half, mv, true)?;
                let save = p.indirect || range > half || mv || me.hindered;
                let victims = blast_victims(s, who, place, false, false, p.indirect);
                return Ok(AttackPlan {
                    profile: p,
                    save,
                    ranged: true,
                    blast: Some(place),
                    focused: false,
                    target: victims.first().copied(),
                });
            }
            Aim::At(t) => {
                // MUR-R58: a blast may be aimed at one large or massive character instead.
                // An index from an edited record may name nobody: refused below, never a panic.
                if !s.chars.get(t as usize).is_some_and(|c| c.stats.size.is_big()) || sweep {
                    return Err(no(
                        codes::BAD_TARGET,
                        "a blast is aimed at a place (only a large or massive character can be its single target)",
                    ));
                }
            }
        }
    }
    let Aim::At(t) = aim else {
        return Err(no(codes::BAD_TARGET, "aim this attack at a character"));
    };
    let target = s
        .chars
        .get(t as usize)
        .filter(|c| {
            !matches!(
                c.status,
                Status::Dead | Status::Fled | Status::Banished | Status::Disabled
            )
        })
        .filter(|_| t != who && !s.hidden_from(t, me.side))
        .ok_or_else(|| no(codes::BAD_TARGET, "attack a character you can see who is still there"))?;
    if let Some(f) = me.frightened_of
        && f == t
    {
        return Err(no(
            codes::CONDITION,
            format!("{} is frightened of {} and will not attack it", me.name, target.name),
        ));
    }
    if let Some(x) = me.taunted_by
        && x != t
        && !reaction
    {
        return Err(no(
            codes::CONDITION,
            format!("{} is taunted: this turn it may only try to harm the taunter", me.name),
        ));
    }
    let range = me
        .at
        .range(target.at, &s.setup.zones)
        .ok_or_else(|| no(codes::OUT_OF_RANGE, "no way leads there"))?;
    let seen = visible(s, who, t);
    match mode {
        Mode::FinalBlow => {
            // MUR-R18: a nearby incapacitated target may be killed outright.
            if !matches!(target.status, Status::Incapacitated | Status::Dying { .. }) || range > melee_reach {
                return Err(no(
                    codes::BAD_TARGET,
                    "a final blow needs a nearby incapacitated target",
                ));
            }
        }
        Mode::Disarm { item } => {
            // MUR-R34: a disarm takes a weapon from the hand of a nearby target.
            if range > melee_reach || target.hand_of(item).is_none() {
                return Err(no(
                    codes::BAD_TARGET,
                    "a disarm takes a weapon from a nearby target's hand",
                ));
            }
        }
        Mode::Grapple => {
            if with != With::Unarmed {
                return Err(no(
                    codes::NOT_ALLOWED,
                    "a grapple is made bare-handed (a weapon that grabs does it with its attack)",
                ));
            }
            // MUR-R59: grabbing takes both hands, one for a larger grabber.
            let need = if me.stats.size > target.stats.size { 1 } else { 2 };
            if me.free_hands() < need {
                return Err(no(
                    codes::HANDS_FULL,
                    format!("a grapple needs {need} free hand{}", if need == 1 { "" } else { "s" }),
                ));
            }
            // MUR-R35: a grapple needs a nearby target.
            if range > melee_reach || !target.up() && target.status != Status::Surrendered {
                return Err(no(codes::BAD_TARGET, "a grapple needs a nearby target"));
            }
            if target.grabbed_by.is_some() {
                return Err(no(codes::BAD_TARGET, format!("{} is already held", target.name)));
            }
        }
        Mode::Harm { .. } => {}
    }
    if p.ambush && !(me.concealed || target.grabbed_by == Some(who)) {
        return Err(no(
            codes::NOT_ALLOWED,
            "this weapon works only on the unaware or on the character its wielder holds",
        ));
    }
    if p.two_handed && target.grabbed_by == Some(who) {
        return Err(no(
            codes::NOT_ALLOWED,
            "a two-handed weapon cannot strike the character its wielder holds",
        ));
    }
    let _ = grabbing;
    let ranged = p.range > 0 && (range > melee_reach || p.indirect);
    if !ranged || matches!(mode, Mode::FinalBlow | Mode::Disarm { .. } | Mode::Grapple) {
        // MUR-R15: melee reaches a nearby target.
        if range > melee_reach {
            return Err(no(
                codes::OUT_OF_RANGE,
                format!("{} is not nearby (range {range})", target.name),
            ));
        }
        if behind_barrier(s, who, t) {
            return Err(no(codes::NOT_ALLOWED, format!("{} is behind a barrier", target.name)));
        }
        // MUR-R13: a target that is not visible needs a WIT save; MUR-R12: otherwise the
        // attack hits without one.
        let save = !seen || me.hindered;
        return Ok(AttackPlan {
            profile: p,
            save: save && !matches!(mode, Mode::FinalBlow),
            ranged: false,
            blast: None,
            focused: p.blast,
            target: Some(t),
        });
    }
    if me.injuries.blind() {
        return Err(no(codes::CONDITION, format!("{} is blind: no ranged attack", me.name)));
    }
    let half = s.options.half_range(p.range);
    let mv = moving(s, who) && !reaction;
    ranged_limits(p, range, half, mv, seen)?;
    if behind_barrier(s, who, t) && !p.indirect {
        return Err(no(codes::NOT_ALLOWED, format!("{} is behind a barrier", target.name)));
    }
    let save = p.indirect || range > half || mv || me.hindered;
    Ok(AttackPlan {
        profile: p,
        save,
        ranged: true,
        blast: None,
        focused: p.blast,
        target: Some(t),
    })
}

/// MUR-R14: what ranged attacks may not do at all.
fn ranged_limits(p: Profile, range: u8, half: u8, moving: bool, seen: bool) -> Result<(), Reject> {
    if range > p.range {
        return Err(no(
            codes::OUT_OF_RANGE,
            format!("range {range} is beyond the weapon's {}", p.range),
        ));
    }
    // MUR-R14: an indirect attack never within half range nor while moving.
    if p.indirect {
        if range <= half {
            return Err(no(
                codes::NOT_ALLOWED,
                format!("an indirect attack only reaches beyond half range ({half})"),
            ));
        }
        if moving {
            return Err(no(codes::NOT_ALLOWED, "an indirect attack cannot be made while moving"));
        }
        return Ok(());
    }
    // MUR-R14: a direct ranged attack never at a target out of sight, nor beyond half range
    // while moving.
    if !seen {
        return Err(no(codes::NOT_ALLOWED, "a direct ranged attack needs a visible target"));
    }
    if moving && range > half {
        return Err(no(
            codes::NOT_ALLOWED,
            format!("beyond half range ({half}) no ranged attack can be made while moving"),
        ));
    }
    Ok(())
}

/// The check of an attack in `t`, the turn of its attacker: the action it takes (a thrown
/// consumable is a bonus action, MUR-H24), a stunt's description (MUR-R32), then its
/// [`plan`].
pub fn check(
    s: &State,
    t: &Turn,
    aim: Aim,
    with: With,
    mode: Mode,
    sweep: bool,
    stunt: &Option<String>,
) -> Result<Plan, Reject> {
    let who = t.who;
    let me = s.ch(who);
    let p = profile(s, who, with)?;
    if p.consumable && !s.options.throw_is_attack {
        bonus_left(t)?;
    } else {
        // MUR-R12: an attack is a main action.
        main_left(t)?;
    }
    if p.consumable {
        no_arm(me)?;
    }
    if stunt.as_ref().is_some_and(|x| x.trim().is_empty() || x.len() > 200) {
        return Err(no(codes::NOT_ALLOWED, "a stunt is a short description"));
    }
    if stunt.is_some() && (!matches!(mode, Mode::Harm { .. }) || matches!(aim, Aim::Place(_))) {
        return Err(no(
            codes::NOT_ALLOWED,
            "a stunt replaces the damage of an attack on one character",
        ));
    }
    plan_with(s, who, p, aim, with, mode, sweep, false).map(Plan::Attack)
}

/// The attacks `who` may make in its turn, in the legal list's order: harm with each weapon
/// (and a blast on each zone), then on each character a grapple, a final blow and a disarm of
/// each item in hand, then a sweep of each zone it touches.
pub fn legal(s: &State, who: Cid, offer: &mut dyn Offer) {
    let me = s.ch(who);
    let zones = &s.setup.zones;
    let weapons = weapons_of(s, who);
    for &with in &weapons {
        for x in s.ids() {
            offer.checked(Command::Attack {
                aim: Aim::At(x),
                with,
                mode: Mode::Harm { hold: false },
                sweep: false,
                stunt: None,
            });
        }
        if profile(s, who, with).is_ok_and(|p| p.blast) {
            for z in zones.ids() {
                offer.checked(Command::Attack {
                    aim: Aim::Place(Place::zone(z)),
                    with,
                    mode: Mode::Harm { hold: false },
                    sweep: false,
                    stunt: None,
                });
            }
        }
    }
    for x in s.ids() {
        offer.checked(Command::Attack {
            aim: Aim::At(x),
            with: With::Unarmed,
            mode: Mode::Grapple,
            sweep: false,
            stunt: None,
        });
        for &with in &weapons {
            offer.checked(Command::Attack {
                aim: Aim::At(x),
                with,
                mode: Mode::FinalBlow,
                sweep: false,
                stunt: None,
            });
            let target = s.ch(x);
            for item in 0..target.items.len() as u8 {
                // A two-handed item fills both hands: list it once.
                if target.hands[0] == Some(item) || target.hands[1] == Some(item) && target.hands[0] != Some(item) {
                    offer.checked(Command::Attack {
                        aim: Aim::At(x),
                        with,
                        mode: Mode::Disarm { item },
                        sweep: false,
                        stunt: None,
                    });
                }
            }
        }
    }
    for &with in &weapons {
        for z in me.at.zones() {
            offer.checked(Command::Attack {
                aim: Aim::Place(Place::zone(z)),
                with,
                mode: Mode::Harm { hold: false },
                sweep: true,
                stunt: None,
            });
        }
    }
}

/// An attack in the turn of `who`, as its check planned it: the action spent, then the
/// declaration.
#[allow(clippy::too_many_arguments)]
pub fn resolve(
    cx: &mut Cx<'_, Murdham>,
    who: Cid,
    aim: Aim,
    with: With,
    mode: Mode,
    sweep: bool,
    stunt: Option<String>,
    p: AttackPlan,
) -> Res<()> {
    let main = !p.profile.consumable || cx.s.options.throw_is_attack;
    cx.emit(Event::Acted {
        who,
        main,
        what: String::new(),
    });
    declare(cx, who, aim, with, mode, sweep, stunt, false, p)
}

/// Declares an attack as its check planned it: a concealed attacker's targets are surprised
/// (MUR-R41), and it is revealed once the attack is over (MUR-R42, [`finish`]); spends what it
/// uses, and pushes the attack frame.
#[allow(clippy::too_many_arguments)]
pub(crate) fn declare(
    cx: &mut Cx<'_, Murdham>,
    by: Cid,
    aim: Aim,
    with: With,
    mode: Mode,
    sweep: bool,
    stunt: Option<String>,
    opportunity: bool,
    p: AttackPlan,
) -> Res<()> {
    let s = &*cx.s;
    // MUR-R41: the targets of a concealed attacker are surprised (no reaction, see
    // `reactions`).
    let surprise = s.ch(by).concealed;
    // MUR-R28: attacking from behind a barrier, it only counts as cover until its next turn.
    let peek = s.ch(by).cover && s.setup.tagged(s.ch(by).at.a, "barrier");
    // MUR-R42 [A]: a surprise attack resolves first, then the attacker is revealed; one that
    // proposes a stunt speaks to its target, and fray 0.1.0 revealed every attacker at once.
    if !s.options.reveal_after_surprise || stunt.is_some() {
        reveal(cx, by);
    }
    if peek {
        cx.emit(Event::Condition {
            who: by,
            condition: Condition::Peeking(true),
        });
    }
    if let With::Item(i) = with {
        let reload =
            cx.s.setup
                .item(cx.s.ch(by).item(i).map_or("", |it| it.id.as_str()))
                .is_some_and(|d| d.has(Keyword::Reload) || d.has(Keyword::Consumable));
        if !reload {
            cx.emit(Event::Used {
                who: by,
                item: i,
                spent: false,
            });
        }
    }
    if cx.s.ch(by).hindered {
        // MUR-H6: the GM's hinder asks a save of one attack.
        cx.emit(Event::Condition {
            who: by,
            condition: Condition::Hindered(false),
        });
    }
    let target = p.target.unwrap_or(by);
    cx.push(Frame::Attack(Attack {
        by,
        with,
        mode,
        target,
        blast: p.blast,
        queue: Vec::new(),
        sweep,
        focused: p.focused && matches!(aim, Aim::At(_)),
        opportunity,
        counter: false,
        stunt,
        reaction: None,
        countered: false,
        hid: false,
        stage: AttackStage::Aim,
        surprise,
        save: p.save,
        ranged: p.ranged,
        rolled: None,
        face: None,
    }))?;
    // A reload weapon fires, a thrown flask is spent (MUR-H24): once declared.
    if let With::Item(i) = with
        && let Some(d) = cx.s.ch(by).item(i).and_then(|it| cx.s.setup.item(&it.id)).cloned()
        && (d.has(Keyword::Reload) || d.has(Keyword::Consumable))
    {
        // The frame keeps the item's index: a spent flask is taken out after the attack.
        if d.has(Keyword::Reload) {
            cx.emit(Event::Used {
                who: by,
                item: i,
                spent: true,
            });
        }
    }
    Ok(())
}

/// After one target: the next character of a blast, or the end of the attack.
pub(crate) fn next_target(cx: &mut Cx<'_, Murdham>, a: Attack) -> Res<Flow> {
    let mut queue = a.queue.clone();
    while !queue.is_empty() {
        let next = queue.remove(0);
        if cx.s.ch(next).up()
            || matches!(
                cx.s.ch(next).status,
                Status::Surrendered | Status::Incapacitated | Status::Dying { .. }
            )
        {
            cx.update(Frame::Attack(Attack {
                target: next,
                queue,
                reaction: None,
                stage: AttackStage::React,
                ..a
            }));
            return Ok(Flow::Go);
        }
    }
    finish(cx, a)
}

/// The attack is over for everyone: spend a thrown flask, reveal a surprise attacker, pop.
pub(crate) fn finish(cx: &mut Cx<'_, Murdham>, a: Attack) -> Res<Flow> {
    cx.pop();
    breaks(cx, a.by, a.with, a.face);
    if cx.s.ch(a.by).penetrating {
        // MUR-H7: the GM's ruling lets one attack through cover.
        cx.emit(Event::Condition {
            who: a.by,
            condition: Condition::Penetrating(false),
        });
    }
    if let With::Item(i) = a.with
        && let Some(it) = cx.s.ch(a.by).item(i)
        && cx.s.setup.item(&it.id).is_some_and(|d| d.has(Keyword::Consumable))
    {
        cx.emit(Event::Used {
            who: a.by,
            item: i,
            spent: true,
        });
    }
    if a.surprise && cx.s.options.reveal_after_surprise {
        // MUR-R42 [A]: the surprise attack has resolved; now its attacker is seen.
        reveal(cx, a.by);
    }
    Ok(Flow::Go)
}

/// A stunt accepted (MUR-R32): no damage to this target; on to the next.
pub(crate) fn finish_target(cx: &mut Cx<'_, Murdham>, a: Attack) -> Res<()> {
    next_target(cx, a).map(drop)
}
