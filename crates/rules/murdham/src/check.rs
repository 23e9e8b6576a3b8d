//! Legality, from one source: [`check`] refuses a command with a typed rejection or hands
//! back its [`Plan`] (what the check found out that resolving needs), and [`legal`] lists every
//! answer [`check`] accepts, with that plan, in a fixed order. [`plan`] works out an attack (its
//! profile, whether it needs a WIT save, whom a blast hits): the check of an attack keeps it in
//! the attack's plan, and the resolution declares the attack from it.

use crate::Murdham;
use crate::codes;
use crate::command::{Aim, Command, OwnRuling, Ruling};
use crate::data::{Ability, Keyword, Size, Skill, UNARMED};
use crate::place::Place;
use crate::setup::{Cid, MAX_COMBATANTS, MAX_ITEMS};
use crate::state::{Attack, Frame, Influence, Mode, Phase, Stage, State, Status, Turn, With};
use fray_engine::encounter::is_word;
use fray_engine::gm::Ruling as R;
use fray_engine::{Answer, Reject, Seat};

fn no(code: &'static str, reason: impl Into<String>) -> Reject {
    Reject::new(code, reason)
}

/// What an attack is made with, as the rules need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Damage die faces (0: none).
    pub die: u8,
    /// Range in zones (0: melee).
    pub range: u8,
    /// Indirect (MUR-R14).
    pub indirect: bool,
    /// Blast (MUR-R29).
    pub blast: bool,
    /// Ignores armour (direct or fire).
    pub direct: bool,
    /// Hurts only demons and undead.
    pub holy: bool,
    /// Stuns.
    pub stun: bool,
    /// Poisons.
    pub poison: bool,
    /// Grabs instead of damaging.
    pub grab: bool,
    /// Only against the unaware or the grabbed.
    pub ambush: bool,
    /// Needs both hands: cannot strike a grabbed character.
    pub two_handed: bool,
    /// Impaired (unarmed without brawling, MUR-R16; the other hand, MUR-R17).
    pub impaired: bool,
    /// A profane power.
    pub power: bool,
    /// Can be dodged (powers only if they say so, MUR-R60).
    pub dodgeable: bool,
    /// Spent when used (a thrown flask, MUR-H24).
    pub consumable: bool,
    /// Gunpowder (for cover penetration, MUR-H7).
    pub gunpowder: bool,
    /// A power's effect on a failed save.
    pub effect: crate::data::Effect,
    /// The ability that saves against the effect.
    pub save: Ability,
}

/// The range of a ranged attack or power in the hands of `c`: an eye injury halves it, rounding
/// up (the game's Conditions chapter).
fn reach(c: &crate::state::Char, range: u8) -> u8 {
    if c.injuries.eyes >= 1 && range > 0 {
        range.div_ceil(2)
    } else {
        range
    }
}

/// The profile of `with` in `who`'s hands.
pub fn profile(s: &State, who: Cid, with: With) -> Result<Profile, Reject> {
    let c = s.ch(who);
    let base = Profile {
        die: 4,
        range: 0,
        indirect: false,
        blast: false,
        direct: false,
        holy: false,
        stun: false,
        poison: false,
        grab: false,
        ambush: false,
        two_handed: false,
        impaired: false,
        power: false,
        dodgeable: true,
        consumable: false,
        gunpowder: false,
        effect: crate::data::Effect::None,
        save: Ability::Str,
    };
    match with {
        With::Unarmed => {
            // MUR-R16: bare hands deal d4 impaired; brawling makes it d6 and unimpaired.
            let brawler = c.stats.has(Skill::Brawling);
            Ok(Profile {
                die: if brawler { 6 } else { 4 },
                impaired: !brawler,
                ..base
            })
        }
        With::Power(i) => {
            let p = c
                .stats
                .powers
                .get(i as usize)
                .and_then(|id| s.setup.powers.get(id))
                .ok_or_else(|| no(codes::BAD_ITEM, format!("{} has no such power", c.name)))?;
            Ok(Profile {
                die: p.damage,
                range: reach(c, p.range),
                indirect: p.has(Keyword::Indirect),
                blast: p.has(Keyword::Blast),
                direct: p.has(Keyword::Direct) || p.has(Keyword::Fire),
                holy: p.has(Keyword::Holy),
                power: true,
                dodgeable: p.dodge,
                effect: p.effect,
                save: p.save,
                ..base
            })
        }
        With::Item(i) => {
            let it = c
                .item(i)
                .ok_or_else(|| no(codes::BAD_ITEM, format!("{} has no such item", c.name)))?;
            let d = s
                .setup
                .item(&it.id)
                .ok_or_else(|| no(codes::BAD_ITEM, format!("no item '{}'", it.id)))?;
            if !d.is_weapon() {
                return Err(no(codes::BAD_ITEM, format!("the {} is not a weapon", d.name)));
            }
            let consumable = d.has(Keyword::Consumable);
            let hand = c.hand_of(i);
            if hand.is_none() && !consumable {
                return Err(no(
                    codes::BAD_ITEM,
                    format!("{} does not hold the {} (equip it first)", c.name, d.name),
                ));
            }
            // MUR-R17: a one-handed weapon in the other hand is impaired, unless ambidextrous.
            let off = hand == Some(1) && !d.two_handed() && !c.stats.has(Skill::Ambidextrous);
            Ok(Profile {
                die: d.damage,
                range: reach(c, d.range),
                indirect: d.has(Keyword::Indirect),
                blast: d.has(Keyword::Blast),
                direct: d.has(Keyword::Direct) || d.has(Keyword::Fire),
                holy: d.has(Keyword::Holy),
                stun: d.has(Keyword::Stun),
                poison: d.has(Keyword::Poison),
                grab: d.has(Keyword::Grab),
                ambush: d.has(Keyword::Ambush),
                two_handed: d.two_handed(),
                impaired: off,
                consumable,
                gunpowder: d.has(Keyword::Gunpowder),
                ..base
            })
        }
    }
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

/// The checked plan of a command ([`fray_engine::Ruleset::Checked`]): what [`check`] found
/// out that [`crate::resolve::resolve`] needs, so the resolver works none of it out again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The check learns nothing the resolver needs.
    Plain,
    /// A pass at the opportunity of faction `side` (MUR-R1): the faction's, or only `seat`'s
    /// when other seats of the faction are still asked.
    Pass {
        /// The faction.
        side: u8,
        /// The seat that passes for its own characters while others are still asked; `None`
        /// when the faction passes.
        seat: Option<Seat>,
    },
    /// An attack, or an opportunity attack: its profile and how it is made.
    Attack(AttackPlan),
    /// A step: what it costs, in half zones.
    Move {
        /// The cost.
        cost: u8,
    },
    /// Breaking free: the holder it struggles against (MUR-R39).
    BreakFree {
        /// The holder.
        holder: Cid,
    },
    /// Freeing a held character: the one holding it (MUR-R39).
    Free {
        /// The holder.
        holder: Cid,
    },
    /// A shove: the damage die of the hazard it pushes into, if it does (MUR-R37).
    Shove {
        /// The hazard's die.
        hazard: Option<u8>,
    },
    /// Drinking or applying a consumable: what it does.
    Use {
        /// The healing die (0: none).
        heal: u8,
        /// It ends poison.
        antidote: bool,
    },
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
        // MUR-R13: a target that is not visible needs a WIT save.
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

/// Whether the turn can still take a main action (MUR-R7).
fn main_left(t: &Turn) -> Result<(), Reject> {
    if t.main || t.actions == 0 {
        Err(no(codes::NO_ACTION, "the turn's main action is used"))
    } else {
        Ok(())
    }
}

/// Whether the turn can still take a bonus action (MUR-R7).
fn bonus_left(t: &Turn) -> Result<(), Reject> {
    if t.actions == 0 {
        Err(no(codes::NO_ACTION, "the turn has no action left"))
    } else {
        Ok(())
    }
}

/// Whether nothing has happened yet in the turn.
pub fn fresh(s: &State, t: &Turn) -> bool {
    t.actions == 2 && !t.main && !t.moved && t.halves == s.ch(t.who).turn_halves()
}

/// Whether `who` may react now: up, aware, not entangled or stunned, and with its turn unspent
/// (MUR-R10) unless `free` says a skill pays for it (MUR-R60).
pub fn may_react(s: &State, who: Cid, free: bool) -> bool {
    let c = s.ch(who);
    if !c.up() || c.grabbed_by.is_some() || c.lost_round == Some(s.round) {
        return false;
    }
    // MUR-R40 [A]: nobody but the concealed reacts during the ambushers' bonus turn.
    if s.phase == Phase::Ambush && !s.options.react_in_bonus_turn && !c.concealed {
        return false;
    }
    free || !s.order.has_acted(who)
}

/// Whether a dodge is open to the target of `a` and whether it would be free.
pub fn dodge_open(s: &State, a: &Attack) -> Option<bool> {
    let t = s.ch(a.target);
    let p = profile(s, a.by, a.with).ok()?;
    if a.surprise || !p.dodgeable {
        return None;
    }
    if a.blast.is_some() && !a.counter && !plan_is_ranged(s, a) && !s.options.melee_blast_dodge {
        return None;
    }
    // MUR-R60: dodge blows pays for one dodge a round; fleet footed for one against an
    // opportunity attack.
    let free =
        (t.stats.has(Skill::DodgeBlows) && !t.free_dodge_used) || (a.opportunity && t.stats.has(Skill::FleetFooted));
    if a.opportunity && !free {
        // MUR-R25: the mover is already spending its turn.
        return None;
    }
    // A free dodge is taken first: it leaves the turn unspent (MUR-R60).
    if free && may_react(s, a.target, true) {
        Some(true)
    } else if may_react(s, a.target, false) {
        Some(false)
    } else {
        None
    }
}

fn plan_is_ranged(s: &State, a: &Attack) -> bool {
    profile(s, a.by, a.with).is_ok_and(|p| p.range > 0)
}

/// Whether the target of `a` may counter it with `with` and `mode` (MUR-R21, MUR-R22, MUR-H9).
pub fn counter_ok(s: &State, a: &Attack, with: With, mode: Mode) -> Result<(), Reject> {
    if a.surprise || a.opportunity || !may_react(s, a.target, false) {
        return Err(no(codes::NO_REACTION, "no reaction is open to the target now"));
    }
    if a.countered {
        return Err(no(
            codes::NO_REACTION,
            "an attack with several targets is countered by one of them only (MUR-R22)",
        ));
    }
    if matches!(mode, Mode::FinalBlow) {
        return Err(no(codes::NOT_ALLOWED, "a final blow is not a counter"));
    }
    if s.options.counter_needs_reach {
        plan(s, a.target, Aim::At(a.by), with, mode, false, true).map(drop)
    } else {
        profile(s, a.target, with).map(drop)
    }
}

/// Whether a counter or a hiding place is open to the target of `a` (the reactions besides
/// taking it and dodging that [`legal`] lists), without building the list.
pub fn other_reaction_open(s: &State, a: &Attack) -> bool {
    let counter = weapons_of(s, a.target).into_iter().any(|with| {
        counter_ok(s, a, with, Mode::Harm { hold: false }).is_ok()
            || (with == With::Unarmed && counter_ok(s, a, with, Mode::Grapple).is_ok())
    });
    counter || s.ids().any(|h| hide_ok(s, a, h).is_ok())
}

/// Whether `helper` may stand in for the target of `a` when the target hides behind it
/// (MUR-R23, MUR-R38).
pub fn hide_ok(s: &State, a: &Attack, helper: Cid) -> Result<(), Reject> {
    if a.surprise || a.opportunity || a.blast.is_some() || a.hid || !may_react(s, a.target, false) {
        return Err(no(codes::NO_REACTION, "no reaction is open to the target now"));
    }
    let ok = s.chars.get(helper as usize).is_some_and(|h| {
        helper != a.target
            && helper != a.by
            && h.up()
            && s.nearby(helper, a.target)
            && !s.hidden_from(helper, s.ch(a.target).side)
    });
    if !ok {
        return Err(no(codes::BAD_TARGET, "hide behind a character nearby who is still up"));
    }
    Ok(())
}

/// Whether `guard` may guard the target of `a` (MUR-R24): a nearby member of the target's
/// faction who may react (the protect skill pays for it, MUR-R60).
pub fn guard_ok(s: &State, a: &Attack, guard: Cid) -> bool {
    let g = s.ch(guard);
    let free = g.stats.has(Skill::Protect);
    guard != a.target
        && guard != a.by
        && g.side == s.ch(a.target).side
        && !a.surprise
        && !a.opportunity
        && a.blast.is_none()
        && s.nearby(guard, a.target)
        && may_react(s, guard, free)
}

/// Whether `foe` may make an opportunity attack on the mover of `st` (MUR-R25, MUR-H26).
pub fn opportunity_ok(s: &State, mover: Cid, to: Place, foe: Cid) -> bool {
    let f = s.ch(foe);
    let m = s.ch(mover);
    if !s.enemies(mover, foe) || s.hidden_from(mover, f.side) || !may_react(s, foe, false) {
        return false;
    }
    let zones = &s.setup.zones;
    if !m.at.nearby(f.at, zones) {
        return false;
    }
    // MUR-H26: moving away is leaving range 0; stepping onto a border of the zone does not
    // count unless the option says so.
    let away = !to.nearby(f.at, zones) || (s.options.border_step_provokes && to.is_border() && !m.at.is_border());
    away && weapons_of(s, foe)
        .into_iter()
        .any(|w| plan(s, foe, Aim::At(mover), w, Mode::Harm { hold: false }, false, true).is_ok())
}

/// A command of the wrong kind for the decision asked: the reason says what is asked (who
/// decides, about what, and the answers open), so a wrong answer is never a riddle.
fn not_now(s: &State) -> Reject {
    no(
        codes::NOT_NOW,
        format!("that does not answer what is asked now: {}", crate::text::asked(s)),
    )
}

/// Whether the command of `seat` is accepted now, and its plan. The engine has already checked
/// that `seat` is asked; at a faction's opportunity, which several seats may be asked, a seat
/// gives the turn only to a character it plays.
pub fn check(s: &State, seat: Seat, c: &Command) -> Result<Plan, Reject> {
    if let Command::Gm(r) = c {
        return ruling(s, r).map(|()| Plan::Plain);
    }
    match s.frames.last() {
        Some(Frame::Attack(a)) => return answer(s, a, c).map(|()| Plan::Plain),
        Some(Frame::Step(st)) => {
            return match c {
                Command::Decline => Ok(Plan::Plain),
                Command::Opportunity(w) => {
                    plan(s, st.next, Aim::At(st.who), *w, Mode::Harm { hold: false }, false, true).map(Plan::Attack)
                }
                _ => Err(not_now(s)),
            };
        }
        Some(Frame::Morale { .. }) => {
            return match c {
                Command::Surrender | Command::Retreat => Ok(Plan::Plain),
                _ => Err(not_now(s)),
            };
        }
        None => {}
    }
    if s.opening {
        return match c {
            Command::Open(side) if (*side as usize) < s.setup.sides.len() => Ok(Plan::Plain),
            Command::Open(_) => Err(no(codes::BAD_TARGET, "no such faction")),
            _ => Err(not_now(s)),
        };
    }
    let Some(t) = &s.turn else {
        return match c {
            Command::Pass => pass(s, seat, crate::resolve::faction_to_pick(s)),
            Command::Act(w) => act(s, seat, crate::resolve::faction_to_pick(s), *w).map(|()| Plan::Plain),
            _ => Err(not_now(s)),
        };
    };
    turn_command(s, t, c)
}

/// A pass of `seat` at the opportunity of the faction `side` (MUR-R1): the faction's when no
/// other seat of it is still asked, else only this seat's.
fn pass(s: &State, seat: Seat, side: Option<u8>) -> Result<Plan, Reject> {
    match side {
        Some(side) => {
            let mut others = crate::resolve::seats_asked(s, side);
            others.remove(seat);
            let seat = (!others.is_empty()).then_some(seat);
            Ok(Plan::Pass { side, seat })
        }
        None => Err(no(codes::NOT_NOW, "no faction has the opportunity now")),
    }
}

/// Whether `seat`, at the opportunity of the faction `side`, may give the turn to `w`.
fn act(s: &State, seat: Seat, side: Option<u8>, w: Cid) -> Result<(), Reject> {
    // MUR-R1, MUR-R2: the faction gives the turn to one of its characters that has not had its
    // turn this round; of those, each seat asked gives it only to one it plays.
    match s.chars.get(w as usize) {
        Some(ch) if Some(ch.side) == side && s.seat_of(w) != seat => {
            let name = |x: Seat| fray_engine::sides::seat_name(&s.setup.seats, x);
            Err(no(
                Reject::NOT_YOUR_DECISION,
                format!(
                    "{} is played by {}, not by {}: a seat gives the turn only to its own characters (or passes)",
                    ch.name,
                    name(s.seat_of(w)),
                    name(seat)
                ),
            ))
        }
        Some(ch) if Some(ch.side) == side && !s.order.has_acted(w) && s.may_take_turn(w) => Ok(()),
        Some(ch) => Err(no(
            codes::CANNOT_ACT,
            format!(
                "{} cannot take a turn now (not this faction's, had its turn, or cannot act in this phase)",
                ch.name
            ),
        )),
        None => Err(no(codes::BAD_TARGET, "no such character")),
    }
}

/// A command during a turn.
fn turn_command(s: &State, t: &Turn, c: &Command) -> Result<Plan, Reject> {
    let who = t.who;
    let me = s.ch(who);
    let zones = &s.setup.zones;
    // MUR-R39: an entangled character may only spend its turn trying to break free.
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
    let holding = s.ids().find(|&x| s.ch(x).grabbed_by == Some(who));
    // MUR-R8: a taunted character spends this turn only on trying to harm the taunter: moving
    // no farther from it, readying, reloading and attacking it.
    if let Some(x) = me.taunted_by
        && s.ch(x).up()
    {
        let ok = match c {
            Command::Move { to, .. } => {
                let d = |p: Place| p.range(s.ch(x).at, zones).unwrap_or(u8::MAX);
                d(*to) <= d(me.at)
            }
            Command::Attack { aim: Aim::At(t), .. } => *t == x,
            Command::Attack { .. } | Command::Influence { .. } | Command::Shove { .. } | Command::Throw { .. } => false,
            Command::Free(_) | Command::Use { .. } | Command::Drop(_) | Command::PickUp(_) => false,
            Command::Interact { .. } | Command::Say(_) | Command::Surrender | Command::Cover => false,
            _ => true,
        };
        if !ok {
            return Err(no(
                codes::CONDITION,
                format!(
                    "{} is taunted by {}: this turn it may only try to harm it",
                    me.name,
                    s.ch(x).name
                ),
            ));
        }
    }
    match c {
        Command::End => Ok(Plan::Plain),
        Command::TimedOut if s.options.chaos && fresh(s, t) => Ok(Plan::Plain),
        Command::Surrender | Command::BreakFree if !fresh(s, t) => Err(no(
            codes::NO_ACTION,
            "this takes the whole turn, and the turn has begun",
        )),
        Command::Surrender => Ok(Plan::Plain),
        Command::BreakFree => match me.grabbed_by {
            Some(holder) => Ok(Plan::BreakFree { holder }),
            None => Err(no(codes::NOT_ALLOWED, format!("{} is not held", me.name))),
        },
        Command::Move { to, sneak } => {
            if *sneak && !me.concealed {
                return Err(no(codes::NOT_ALLOWED, "only a concealed character sneaks"));
            }
            let cost = me.at.step_cost(*to, zones).ok_or_else(|| {
                no(
                    codes::BAD_MOVE,
                    format!("{} is not one step from {}", to.describe(zones), me.at.describe(zones)),
                )
            })?;
            if cost > t.halves {
                return Err(no(
                    codes::BAD_MOVE,
                    format!("the step costs {cost} half zones and {} are left", t.halves),
                ));
            }
            if s.crowd(*to, Some(me.side)) >= to.capacity() {
                return Err(no(codes::NO_ROOM, format!("{} is full", to.describe(zones))));
            }
            if let Some(f) = me.frightened_of {
                let d = |p: Place| p.range(s.ch(f).at, zones).unwrap_or(u8::MAX);
                if s.ch(f).up() && !s.hidden_from(f, me.side) && d(*to) < d(me.at) {
                    return Err(no(
                        codes::CONDITION,
                        format!("{} is frightened of {} and will not go nearer", me.name, s.ch(f).name),
                    ));
                }
            }
            if let Some(h) = holding {
                // MUR-R36: the holder drags the held character along: there must be room.
                if s.crowd(*to, Some(me.side)) + 1 >= to.capacity() && s.ch(h).at != *to {
                    return Err(no(
                        codes::NO_ROOM,
                        format!("{} has no room for two", to.describe(zones)),
                    ));
                }
            }
            Ok(Plan::Move { cost })
        }
        Command::Run => {
            main_left(t)?;
            Ok(Plan::Plain)
        }
        Command::Cover => {
            if me.cover {
                return Err(no(codes::NOT_ALLOWED, format!("{} is in cover already", me.name)));
            }
            if me.at.is_border() || t.halves == 0 {
                return Err(no(
                    codes::BAD_MOVE,
                    "taking cover is half a zone of movement inside a zone",
                ));
            }
            let spots = zones.zone(me.at.a).map_or(0, |z| z.cover) as usize;
            let taken = s
                .ids()
                .filter(|&x| s.ch(x).cover && s.ch(x).at == me.at && !s.hidden_from(x, me.side))
                .count();
            if taken >= spots {
                return Err(no(codes::NO_ROOM, "no free cover spot here"));
            }
            Ok(Plan::Plain)
        }
        Command::Attack {
            aim,
            with,
            mode,
            sweep,
            stunt,
        } => {
            let p = profile(s, who, *with)?;
            if p.consumable && !s.options.throw_is_attack {
                bonus_left(t)?;
            } else {
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
            plan_with(s, who, p, *aim, *with, *mode, *sweep, false).map(Plan::Attack)
        }
        Command::Influence { kind, target } => {
            main_left(t)?;
            let ok = s
                .chars
                .get(*target as usize)
                .is_some_and(|x| x.up() && *target != who && visible(s, who, *target));
            if !ok {
                return Err(no(codes::BAD_TARGET, "aim it at a character you can see who is up"));
            }
            if me.taunted_by.is_some_and(|x| x != *target) {
                return Err(no(
                    codes::CONDITION,
                    format!("{} is taunted and may only try to harm the taunter", me.name),
                ));
            }
            let _ = kind;
            Ok(Plan::Plain)
        }
        Command::Shove { target, to, hazard } => {
            if s.options.shove_is_main {
                main_left(t)?;
            } else {
                bonus_left(t)?;
            }
            let h = s.chars.get(*target as usize).filter(|x| x.grabbed_by == Some(who));
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
                if h.at.step_cost(*p, zones) != Some(1) {
                    return Err(no(
                        codes::BAD_MOVE,
                        "a shove moves its target half a zone: onto a border or off one",
                    ));
                }
                if s.crowd(*p, Some(me.side)) >= p.capacity() {
                    return Err(no(codes::NO_ROOM, format!("{} is full", p.describe(zones))));
                }
            }
            let hazard = if *hazard {
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
        Command::Throw { target, to } => {
            main_left(t)?;
            let h = s.chars.get(*target as usize).filter(|x| x.grabbed_by == Some(who));
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
            if me.at.range(*to, zones).is_none_or(|r| r > 2) {
                return Err(no(codes::OUT_OF_RANGE, "a throw reaches range 2 at most"));
            }
            if s.crowd(*to, Some(me.side)) >= to.capacity() {
                return Err(no(codes::NO_ROOM, format!("{} is full", to.describe(zones))));
            }
            Ok(Plan::Plain)
        }
        Command::Free(x) => {
            main_left(t)?;
            let holder = s
                .chars
                .get(*x as usize)
                .and_then(|c| c.grabbed_by)
                .filter(|&g| g != who && s.nearby(who, *x));
            let Some(holder) = holder else {
                return Err(no(codes::BAD_TARGET, "free a nearby character someone else is holding"));
            };
            Ok(Plan::Free { holder })
        }
        Command::Release => match holding {
            Some(_) => Ok(Plan::Plain),
            None => Err(no(codes::NOT_ALLOWED, format!("{} holds nobody", me.name))),
        },
        Command::Equip { item, off } => {
            bonus_left(t)?;
            let (it, d) = own_item(s, who, *item)?;
            if me.hand_of(*item).is_some() {
                return Err(no(codes::BAD_ITEM, format!("the {} is in hand already", d.name)));
            }
            let _ = it;
            let hand = usize::from(*off);
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
        Command::Stow(i) => {
            bonus_left(t)?;
            let (_, d) = own_item(s, who, *i)?;
            if me.hand_of(*i).is_none() {
                return Err(no(codes::BAD_ITEM, format!("the {} is not in hand", d.name)));
            }
            Ok(Plan::Plain)
        }
        Command::Drop(i) => {
            bonus_left(t)?;
            own_item(s, who, *i).map(|_| Plan::Plain)
        }
        Command::PickUp(g) => {
            bonus_left(t)?;
            match s.ground.get(*g as usize) {
                Some((p, _)) if *p == me.at && me.live_items().count() < MAX_ITEMS => Ok(Plan::Plain),
                Some((p, _)) if *p == me.at => Err(no(
                    codes::HANDS_FULL,
                    format!("{} carries {MAX_ITEMS} items already", me.name),
                )),
                _ => Err(no(codes::BAD_ITEM, "nothing like that lies here")),
            }
        }
        Command::Use { item, on } => {
            bonus_left(t)?;
            no_arm(me)?;
            let (_, d) = own_item(s, who, *item)?;
            if !d.has(Keyword::Consumable) || (d.heal == 0 && !d.antidote) {
                return Err(no(
                    codes::BAD_ITEM,
                    format!("the {} is not drunk or applied (throw weapons with attack)", d.name),
                ));
            }
            if let Some(o) = on {
                if *o == who {
                    return Err(no(codes::BAD_TARGET, "on yourself: leave out the id"));
                }
                let ok = s.chars.get(*o as usize).is_some_and(|x| {
                    !matches!(x.status, Status::Dead | Status::Fled | Status::Banished)
                        && s.nearby(who, *o)
                        && !s.hidden_from(*o, me.side)
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
        Command::Reload(i) => {
            main_left(t)?;
            let (it, d) = own_item(s, who, *i)?;
            if it.spent.is_none() || me.hand_of(*i).is_none() {
                return Err(no(
                    codes::BAD_ITEM,
                    format!("the {} is not in hand waiting to be reloaded", d.name),
                ));
            }
            Ok(Plan::Plain)
        }
        Command::Interact { main } => {
            if *main {
                main_left(t)?;
            } else {
                bonus_left(t)?;
            }
            Ok(Plan::Plain)
        }
        Command::Say(words) => {
            if words.len() > 200 {
                return Err(no(codes::NOT_ALLOWED, "a few words: at most 200 characters"));
            }
            bonus_left(t)?;
            Ok(Plan::Plain)
        }
        _ => Err(not_now(s)),
    }
}

/// Refused when both of `c`'s arms are injured: it has no hand to throw, drink or apply with.
fn no_arm(c: &crate::state::Char) -> Result<(), Reject> {
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

/// An answer to an attack's decision. MUR-R11: the reactions to an attack are dodge, counter,
/// guard and hiding behind someone (opportunity attacks answer a step, in [`check`]).
fn answer(s: &State, a: &Attack, c: &Command) -> Result<(), Reject> {
    match (a.stage, c) {
        (Stage::Approve, Command::Approve | Command::Veto) => Ok(()),
        (Stage::Answer, Command::Accept | Command::Refuse) => Ok(()),
        (Stage::Guard { .. }, Command::Guard | Command::Decline) => Ok(()),
        (Stage::Agree { .. }, Command::Agree | Command::Decline) => Ok(()),
        (Stage::React, Command::Take) => Ok(()),
        (Stage::React, Command::Dodge) => match dodge_open(s, a) {
            Some(_) => Ok(()),
            None => Err(no(codes::NO_REACTION, "no dodge is open against this attack now")),
        },
        (Stage::React, Command::Counter { with, mode }) => counter_ok(s, a, *with, *mode),
        (Stage::React, Command::HideBehind(h)) => hide_ok(s, a, *h),
        _ => Err(not_now(s)),
    }
}

/// Whether a GM ruling can apply.
fn ruling(s: &State, r: &Ruling) -> Result<(), Reject> {
    let bad = |m: String| Err(no(codes::BAD_RULING, m));
    let there = |w: &Cid| match s.chars.get(*w as usize) {
        Some(c) if matches!(c.status, Status::Dead | Status::Fled | Status::Banished) => {
            bad(format!("{} has left the fight", c.name))
        }
        Some(_) => Ok(()),
        None => bad(format!("no character #{w}")),
    };
    match r {
        R::Adjust { who, gauge, by } => {
            there(who)?;
            let c = s.ch(*who);
            match gauge {
                crate::command::Gauge::Health => {
                    let v = i32::from(by.apply(c.health.clamp(-999, 999) as i16));
                    if !(1..=c.stats.max_health()).contains(&v) {
                        return bad(format!(
                            "health would be {v}: set it within 1..={} (damage goes through the rules)",
                            c.stats.max_health()
                        ));
                    }
                    if !c.up() {
                        return bad(format!("{} is out of the fight: heal it instead", c.name));
                    }
                    Ok(())
                }
                crate::command::Gauge::Ability(a) => {
                    let v = by.apply(i16::from(c.ability(*a)));
                    if !(1..=19).contains(&v) {
                        return bad(format!("{} would be {v}: scores are 1 to 19", a.word()));
                    }
                    Ok(())
                }
            }
        }
        R::Move { who, to } => {
            there(who)?;
            if !to.valid(&s.setup.zones) {
                return bad("no such place".into());
            }
            if s.crowd(*to, None) >= to.capacity() {
                return bad(format!("{} is full", to.describe(&s.setup.zones)));
            }
            if !s.frames.is_empty() {
                return bad("finish the attack or step under way first".into());
            }
            Ok(())
        }
        R::Add { id, template, side, at } => {
            if !is_word(id) || s.find(id).is_some() {
                bad(format!("'{id}' is not a new one-word id"))
            } else if !s.setup.templates.contains_key(template) {
                bad(format!(
                    "no template '{template}'{}",
                    fray_engine::diag::suggestion(template, s.setup.templates.keys().map(String::as_str))
                ))
            } else if *side as usize >= s.setup.sides.len()
                || !at.valid(&s.setup.zones)
                || s.crowd(*at, None) >= at.capacity()
                || s.chars.len() >= MAX_COMBATANTS
            {
                bad(format!(
                    "no room for '{id}' there (or no such faction, or {MAX_COMBATANTS} characters already)"
                ))
            } else {
                Ok(())
            }
        }
        R::Remove { who } => {
            there(who)?;
            if !s.frames.is_empty() {
                return bad("finish the attack or step under way first".into());
            }
            Ok(())
        }
        R::End { winner: Some(w) } if *w as usize >= s.setup.sides.len() => bad(format!("no faction #{w}")),
        R::End { .. } => Ok(()),
        R::Other(o) => match *o {
            OwnRuling::Conceal { who, .. }
            | OwnRuling::Hinder { who }
            | OwnRuling::Penetrate { who }
            | OwnRuling::Overwhelm { who }
            | OwnRuling::Calm { who }
            | OwnRuling::Poison { who, .. }
            | OwnRuling::Stun { who } => {
                there(&who)?;
                if !s.ch(who).up() {
                    return bad(format!("{} is not fighting", s.ch(who).name));
                }
                Ok(())
            }
            // Anyone still there may be hit, the defenceless too.
            OwnRuling::Enhance { who } | OwnRuling::Impair { who } => there(&who),
            OwnRuling::Frighten { who, of } => {
                there(&who)?;
                there(&of)?;
                if who == of {
                    return bad("nobody is frightened of itself".into());
                }
                Ok(())
            }
            OwnRuling::Heal { who, amount } => {
                there(&who)?;
                if amount == 0 {
                    return bad("heal at least 1".into());
                }
                Ok(())
            }
            OwnRuling::Chase { side, .. } => {
                if side as usize >= s.setup.sides.len() {
                    return bad("no such faction".into());
                }
                if !s.frames.is_empty() || s.turn.is_some() {
                    return bad("a long chase is ruled between turns".into());
                }
                if !s.chars.iter().any(|c| c.side == side && c.up()) {
                    return bad("nobody of that faction is left to flee".into());
                }
                Ok(())
            }
        },
    }
}

/// Every legal answer of `seat` (one of those asked) to the pending decision, each with the
/// plan [`check`] gives it.
pub fn legal(s: &State, seat: Seat, out: &mut Vec<Answer<Murdham>>) {
    let push_if = |out: &mut Vec<Answer<Murdham>>, c: Command| {
        if let Ok(plan) = check(s, seat, &c) {
            out.push(Answer::new(c, plan));
        }
    };
    // Answers that need no check here: the decision asked accepts them as they are.
    let plain = |c: Command| Answer::new(c, Plan::Plain);
    match s.frames.last() {
        Some(Frame::Attack(a)) => {
            match a.stage {
                Stage::Approve => out.extend([Command::Approve, Command::Veto].map(plain)),
                Stage::Answer => out.extend([Command::Accept, Command::Refuse].map(plain)),
                Stage::Guard { .. } => out.extend([Command::Guard, Command::Decline].map(plain)),
                Stage::Agree { .. } => out.extend([Command::Agree, Command::Decline].map(plain)),
                Stage::React => {
                    out.push(plain(Command::Take));
                    push_if(out, Command::Dodge);
                    for with in weapons_of(s, a.target) {
                        for mode in [Mode::Harm { hold: false }, Mode::Grapple] {
                            if matches!(mode, Mode::Grapple) && with != With::Unarmed {
                                continue;
                            }
                            push_if(out, Command::Counter { with, mode });
                        }
                    }
                    for h in s.ids() {
                        push_if(out, Command::HideBehind(h));
                    }
                }
                Stage::Aim | Stage::Land => {}
            }
            return;
        }
        Some(Frame::Step(st)) => {
            out.push(plain(Command::Decline));
            for with in weapons_of(s, st.next) {
                push_if(out, Command::Opportunity(with));
            }
            return;
        }
        Some(Frame::Morale { .. }) => {
            out.extend([Command::Surrender, Command::Retreat].map(plain));
            return;
        }
        None => {}
    }
    if s.opening {
        out.extend((0..s.setup.sides.len() as u8).map(|side| plain(Command::Open(side))));
        return;
    }
    let Some(t) = &s.turn else {
        // The faction whose opportunity it is, found once for every answer.
        let side = crate::resolve::faction_to_pick(s);
        for w in s.ids() {
            if act(s, seat, side, w).is_ok() {
                out.push(plain(Command::Act(w)));
            }
        }
        if let Ok(plan) = pass(s, seat, side) {
            out.push(Answer::new(Command::Pass, plan));
        }
        return;
    };
    let who = t.who;
    let me = s.ch(who);
    let zones = &s.setup.zones;
    // Attacks.
    let weapons = weapons_of(s, who);
    for &with in &weapons {
        for x in s.ids() {
            push_if(
                out,
                Command::Attack {
                    aim: Aim::At(x),
                    with,
                    mode: Mode::Harm { hold: false },
                    sweep: false,
                    stunt: None,
                },
            );
        }
        if profile(s, who, with).is_ok_and(|p| p.blast) {
            for z in zones.ids() {
                push_if(
                    out,
                    Command::Attack {
                        aim: Aim::Place(Place::zone(z)),
                        with,
                        mode: Mode::Harm { hold: false },
                        sweep: false,
                        stunt: None,
                    },
                );
            }
        }
    }
    for x in s.ids() {
        push_if(
            out,
            Command::Attack {
                aim: Aim::At(x),
                with: With::Unarmed,
                mode: Mode::Grapple,
                sweep: false,
                stunt: None,
            },
        );
        for &with in &weapons {
            push_if(
                out,
                Command::Attack {
                    aim: Aim::At(x),
                    with,
                    mode: Mode::FinalBlow,
                    sweep: false,
                    stunt: None,
                },
            );
            let target = s.ch(x);
            for item in 0..target.items.len() as u8 {
                // A two-handed item fills both hands: list it once.
                if target.hands[0] == Some(item) || target.hands[1] == Some(item) && target.hands[0] != Some(item) {
                    push_if(
                        out,
                        Command::Attack {
                            aim: Aim::At(x),
                            with,
                            mode: Mode::Disarm { item },
                            sweep: false,
                            stunt: None,
                        },
                    );
                }
            }
        }
    }
    for &with in &weapons {
        for z in me.at.zones() {
            push_if(
                out,
                Command::Attack {
                    aim: Aim::Place(Place::zone(z)),
                    with,
                    mode: Mode::Harm { hold: false },
                    sweep: true,
                    stunt: None,
                },
            );
        }
    }
    for x in s.ids() {
        for kind in [Influence::Distract, Influence::Intimidate, Influence::Taunt] {
            push_if(out, Command::Influence { kind, target: x });
        }
    }
    // Moves.
    for (p, _) in me.at.steps(zones) {
        push_if(out, Command::Move { to: p, sneak: false });
        push_if(out, Command::Move { to: p, sneak: true });
    }
    push_if(out, Command::Run);
    push_if(out, Command::Cover);
    // Grabs.
    for x in s.ids() {
        if s.ch(x).grabbed_by == Some(who) {
            let here = s.ch(x).at;
            for (p, cost) in here.steps(zones) {
                if cost == 1 {
                    push_if(
                        out,
                        Command::Shove {
                            target: x,
                            to: Some(p),
                            hazard: false,
                        },
                    );
                }
            }
            push_if(
                out,
                Command::Shove {
                    target: x,
                    to: None,
                    hazard: true,
                },
            );
            for z in zones.ids() {
                push_if(
                    out,
                    Command::Throw {
                        target: x,
                        to: Place::zone(z),
                    },
                );
            }
        }
        push_if(out, Command::Free(x));
    }
    push_if(out, Command::BreakFree);
    push_if(out, Command::Release);
    // Items.
    for i in 0..me.items.len() as u8 {
        push_if(out, Command::Equip { item: i, off: false });
        push_if(out, Command::Equip { item: i, off: true });
        push_if(out, Command::Stow(i));
        push_if(out, Command::Drop(i));
        push_if(out, Command::Use { item: i, on: None });
        for x in s.ids() {
            if x != who {
                push_if(out, Command::Use { item: i, on: Some(x) });
            }
        }
        push_if(out, Command::Reload(i));
    }
    for g in 0..s.ground.len() as u16 {
        push_if(out, Command::PickUp(g));
    }
    push_if(out, Command::Interact { main: false });
    push_if(out, Command::Interact { main: true });
    push_if(out, Command::Say(String::new()));
    push_if(out, Command::Surrender);
    push_if(out, Command::TimedOut);
    out.push(plain(Command::End));
}

/// What `who` can attack with: bare hands, each item in hand, each consumable weapon carried,
/// each power.
pub fn weapons_of(s: &State, who: Cid) -> Vec<With> {
    let c = s.ch(who);
    let mut v = vec![With::Unarmed];
    for (i, it) in c.live_items() {
        let Some(d) = s.setup.item(&it.id) else { continue };
        if it.id == UNARMED || !d.is_weapon() {
            continue;
        }
        if c.hand_of(i).is_some() || d.has(Keyword::Consumable) {
            v.push(With::Item(i));
        }
    }
    v.extend((0..c.stats.powers.len() as u8).map(With::Power));
    v
}
