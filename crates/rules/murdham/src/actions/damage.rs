//! The damage of a hit: how much it is impaired or enhanced (held back, MUR-R16; the other
//! hand, MUR-R17; concealment, MUR-R26; a defenceless target; the GM's ruling), the roll
//! (size, a sweep, a focused blast, holy weapons), the armour against it (MUR-R27, cover and
//! its penetration, MUR-H7; shields, MUR-H17, MUR-H25; brawling), a big hit breaking damaged
//! gear (MUR-R50), and what the hit does besides (stun, poison, a power's effect). Also the
//! landing of an attack with no counter ([`hit_target`]: a final blow, MUR-R18; a disarm or
//! grapple, MUR-R33; a harm) and the exact odds of an attack for the prompt ([`attack_spec`]).
//!
//! The health the damage takes is [`crate::actions::health`]; the dice are
//! [`crate::roll::roll_damage`]. [`damage_level`] and [`armour_against`] are shared by the
//! hit and by the odds, so the prompt's figures are the resolution's own.

use crate::Murdham;
use crate::actions::attack::AttackPlan;
use crate::actions::bug;
use crate::actions::grapple::non_lethal;
use crate::actions::health::hurt;
use crate::actions::weapons::Profile;
use crate::actions::wear::worn;
use crate::data::{Ability, Keyword, Kind, Skill, div_up};
use crate::roll::{Res, roll_damage, save};
use crate::setup::Cid;
use crate::state::{Attack, AttackStage, Condition, Event, Mode, State, Status, Why, With};
use fray_engine::{Cx, Reject};

/// The damage of an attack on its target, after size, armour and the rest.
pub struct Hit {
    /// The damage roll's total, before size and the rest (a blast deals it to every target).
    pub roll: i32,
    /// Before armour.
    pub raw: i32,
    /// The armour that counted.
    pub armour: i32,
    /// After armour.
    pub amount: i32,
    /// The natural face of the kept die (MUR-R49).
    pub face: Option<u16>,
    /// The roll may be dealt to the rest of a blast rolled once (not one made for a target the
    /// GM ruled enhanced or impaired).
    pub shared: bool,
}

/// How much impaired (negative) or enhanced (positive) an attack's damage is.
pub(crate) fn damage_level(s: &State, a: &Attack, by: Cid, target: Cid, p: &Profile, mode: Mode) -> i8 {
    let mut level = 0i8;
    if p.impaired {
        level -= 1;
    }
    if matches!(mode, Mode::Harm { hold: true }) {
        // MUR-R16: held back.
        level -= 1;
    }
    // A blast rolled once for all its targets (MUR-H8) takes only what the attacker brings;
    // what each target's place or state would add cannot differ within one roll.
    let one_roll = s.options.blast_one_roll && a.blast.is_some() && !a.focused;
    // MUR-R26: concealment makes damage impaired.
    if !one_roll && s.ch(target).at.zones().all(|z| s.setup.tagged(z, "concealment")) {
        level -= 1;
    }
    if !one_roll
        && s.options.defenceless_enhanced
        && matches!(s.ch(target).status, Status::Incapacitated | Status::Dying { .. })
    {
        level += 1;
    }
    // The GM's ruling on the next hit on the target (`gm enhance`, `gm impair`): such a target
    // of a blast rolled once gets a roll of its own.
    level += s.ch(target).next_hit;
    let _ = by;
    level.clamp(-2, 1)
}

/// The armour of `target` against an attack by `by` (MUR-R27, MUR-H17, shields), and the
/// shields in hand that gave their +1.
pub(crate) fn armour_against(
    s: &State,
    a: &Attack,
    target: Cid,
    p: &Profile,
    ranged: bool,
    reacted: bool,
) -> (i32, [Option<u8>; 2]) {
    let t = s.ch(target);
    if p.direct {
        return (0, [None, None]);
    }
    let mut armour = t.armour() * t.stats.size.armour_factor();
    // MUR-R27, MUR-H7: cover adds 1 unless the attack goes through it: the GM said so, or the
    // cover's tag lists one of the weapon's keywords.
    let keywords: &[Keyword] = match a.with {
        With::Item(i) => s
            .ch(a.by)
            .item(i)
            .and_then(|it| s.setup.item(&it.id))
            .map_or(&[], |d| d.keywords.as_slice()),
        With::Power(i) => s
            .ch(a.by)
            .stats
            .powers
            .get(i as usize)
            .and_then(|id| s.setup.powers.get(id))
            .map_or(&[], |d| d.keywords.as_slice()),
        With::Unarmed => &[],
    };
    let through = s.ch(a.by).penetrating
        || s.setup
            .penetration
            .iter()
            .any(|(tag, kinds)| s.setup.tagged(t.at.a, tag) && kinds.iter().any(|k| keywords.contains(k)));
    // MUR-R15: an indirect attack comes down over the obstacles its target shelters behind.
    let over = p.indirect && s.options.indirect_over_cover;
    let cover = t.cover && (ranged || s.options.cover_against_melee) && !through && !over;
    // The shields in hand, each once (a two-handed one fills both hands).
    let is_shield = |h: usize| {
        t.hands[h].filter(|&i| {
            t.hand_of(i) == Some(h)
                && t.item(i)
                    .and_then(|it| s.setup.item(&it.id))
                    .is_some_and(|d| d.has(Keyword::Shield))
        })
    };
    let shields = match (is_shield(0), is_shield(1)) {
        (None, x) | (x, None) => [x, None],
        both => [both.0, both.1],
    };
    let two = shields[1].is_some();
    let aware = !a.surprise;
    // A shield helps against attacks its holder reacts to; shield mastery against every attack
    // it is aware of; two shields against every attack.
    let shield = two || (shields[0].is_some() && (reacted || (aware && t.stats.has(Skill::ShieldMastery))));
    match (cover, shield, s.options.shield_and_cover_stack) {
        (true, true, true) => armour += 2,
        (true, _, _) | (_, true, _) => armour += 1,
        _ => {}
    }
    if a.with == With::Unarmed && t.stats.has(Skill::Brawling) {
        armour += 1;
    }
    // MUR-H25: the shields that gave the +1: both of two (fray 0.1.0 counted the first only).
    let gave = match (shield, s.options.both_shields_used) {
        (false, _) => [None, None],
        (true, true) => shields,
        (true, false) => [shields[0], None],
    };
    (armour, gave)
}

/// Rolls (or reuses a blast's roll) and works out the hit of attack `a` on its target: `by`
/// strikes `target` with a weapon of profile `p` (as [`profile`] gives it for the weapon in
/// `by`'s hands; the caller has worked it out).
pub(crate) fn compute_hit(
    cx: &mut Cx<'_, Murdham>,
    a: &Attack,
    by: Cid,
    target: Cid,
    p: Profile,
    mode: Mode,
    reacted: bool,
) -> Res<Hit> {
    let s = &*cx.s;
    let mut p = p;
    // Sneak attack: d12 against an unaware target.
    if a.surprise && s.ch(by).stats.has(Skill::SneakAttack) && p.die > 0 && !p.power {
        p.die = 12;
    }
    let ranged = p.range > 0 && !s.nearby(by, target);
    let level = damage_level(s, a, by, target, &p, mode);
    let marked = s.ch(target).next_hit;
    let (raw, face) = match a.rolled {
        Some(r) if s.options.blast_one_roll && a.blast.is_some() && marked == 0 => (r, a.face),
        _ => {
            let (total, face, rolls) = roll_damage(cx, by, p.die, level)?;
            // A weapon that deals no damage (a stun flask) rolls nothing, and logs no roll.
            if p.die > 0 {
                cx.emit(Event::DamageRoll {
                    by,
                    rolls,
                    level,
                    total,
                });
            }
            (total, face)
        }
    };
    let s = &*cx.s;
    let mut dealt = s.ch(by).stats.size.scale(raw);
    if a.sweep {
        dealt = div_up(dealt, 2);
    }
    if a.focused {
        dealt *= 2;
    }
    if p.holy && !matches!(s.ch(target).stats.kind, Kind::Demon | Kind::Undead) {
        dealt = 0;
    }
    if marked != 0 {
        // The GM's ruling was for this one hit.
        cx.emit(Event::Condition {
            who: target,
            condition: Condition::NextHit(0),
        });
    }
    let s = &*cx.s;
    let (armour, shields) = armour_against(s, a, target, &p, ranged, reacted);
    for i in shields.into_iter().flatten() {
        // MUR-H25: a shield that gave its +1 was used: it makes a durability roll after the
        // fight (MUR-R48).
        cx.emit(Event::Used {
            who: target,
            item: i,
            spent: false,
        });
    }
    Ok(Hit {
        roll: raw,
        raw: dealt,
        armour,
        amount: (dealt - armour).max(0),
        face,
        shared: marked == 0,
    })
}

/// The damage roll a hit made: its total, the natural face of its kept die (MUR-R49), and
/// whether the rest of a blast rolled once may deal it too (not a roll made for one target the
/// GM ruled enhanced or impaired).
#[derive(Clone, Copy)]
pub(crate) struct Kept {
    roll: i32,
    face: Option<u16>,
    shared: bool,
}

impl Kept {
    pub(crate) fn of(h: &Hit) -> Kept {
        Kept {
            roll: h.roll,
            face: h.face,
            shared: h.shared,
        }
    }

    /// Keeps the roll in the attack for the rest of a blast (MUR-H8), and its face for the
    /// weapon's wear.
    pub(crate) fn into(self, a: &mut Attack) {
        if self.shared {
            a.rolled = Some(self.roll);
        }
        a.face = self.face;
    }
}

/// Lands attack `a` on `t` with no counter: returns the roll made, for the rest of a blast. `p`
/// is the [`profile`] of the attack's weapon in the attacker's hands (a harm needs it).
pub(crate) fn hit_target(
    cx: &mut Cx<'_, Murdham>,
    a: &Attack,
    t: Cid,
    reacted: bool,
    p: &Result<Profile, Reject>,
) -> Res<Option<Kept>> {
    match a.mode {
        Mode::FinalBlow => {
            // MUR-R18: the incapacitated target is killed outright.
            let status = if cx.s.ch(t).stats.kind == Kind::Demon {
                Status::Banished
            } else {
                Status::Dead
            };
            cx.emit(Event::Fell { who: t, status });
            Ok(None)
        }
        // MUR-R33: a non-lethal attack (a disarm, a grapple) deals no damage: the target saves
        // against it instead.
        Mode::Disarm { item } => {
            non_lethal(cx, a.by, t, Mode::Disarm { item })?;
            Ok(None)
        }
        Mode::Grapple => {
            non_lethal(cx, a.by, t, Mode::Grapple)?;
            Ok(None)
        }
        Mode::Harm { .. } => {
            let p = *p.as_ref().map_err(|r| bug(r.reason.clone()))?;
            if p.grab {
                non_lethal(cx, a.by, t, Mode::Grapple)?;
            }
            let h = compute_hit(cx, a, a.by, t, p, a.mode, reacted)?;
            deal(cx, a, t, &h, &p)?;
            Ok(Some(Kept::of(&h)))
        }
    }
}

/// Applies a computed hit: damage, gear wear, power effects, stun and poison.
pub(crate) fn deal(cx: &mut Cx<'_, Murdham>, a: &Attack, t: Cid, h: &Hit, p: &Profile) -> Res<()> {
    // MUR-R50: a hit of 8 or more before armour breaks damaged shields and armour.
    if h.raw >= i32::from(cx.s.options.break_threshold) && !p.direct {
        let tc = cx.s.ch(t).clone();
        let shield = tc.hands.iter().flatten().copied().find(|&i| {
            tc.item(i)
                .is_some_and(|it| it.damaged && cx.s.setup.item(&it.id).is_some_and(|d| d.has(Keyword::Shield)))
        });
        let armour = tc.armour_damaged && !tc.armour_lost;
        match (shield, armour, cx.s.options.shield_breaks_first) {
            (Some(i), _, true) => worn(cx, t, Some(i), true),
            (None, true, true) => worn(cx, t, None, true),
            (s, arm, false) => {
                if let Some(i) = s {
                    worn(cx, t, Some(i), true);
                }
                if arm {
                    worn(cx, t, None, true);
                }
            }
            _ => {}
        }
    }
    hurt(cx, t, Some(a.by), h.raw, h.armour, p.direct)?;
    if !cx.s.ch(t).up() {
        return Ok(());
    }
    if p.stun && !save(cx, t, Ability::Str, Why::Effect)? {
        let s = &*cx.s;
        let round = s.round_to_lose(t);
        cx.emit(Event::Condition {
            who: t,
            condition: Condition::LosesTurn(Some(round)),
        });
    }
    if p.poison && !cx.s.ch(t).poisoned && !save(cx, t, Ability::Str, Why::Effect)? {
        cx.emit(Event::Condition {
            who: t,
            condition: Condition::Poisoned(true),
        });
    }
    if p.power && p.effect != crate::data::Effect::None && !save(cx, t, p.save, Why::Effect)? {
        let s = &*cx.s;
        match p.effect {
            crate::data::Effect::Stun => {
                let round = s.round_to_lose(t);
                cx.emit(Event::Condition {
                    who: t,
                    condition: Condition::LosesTurn(Some(round)),
                });
            }
            crate::data::Effect::Frighten if !s.ch(t).stats.fearless() => cx.emit(Event::Condition {
                who: t,
                condition: Condition::Frightened(Some(a.by)),
            }),
            crate::data::Effect::Entangle if s.ch(t).grabbed_by.is_none() => {
                cx.emit(Event::Grab { who: t, by: Some(a.by) })
            }
            _ => {}
        }
    }
    Ok(())
}

/// The exact odds of `by` attacking `t` as declared, for the prompt: `reacted` when the target
/// answers it (its shield counts), `dodge` its AGI when it dodges.
#[allow(clippy::too_many_arguments)]
pub fn attack_spec(
    s: &State,
    by: Cid,
    t: Cid,
    with: With,
    mode: Mode,
    plan: &AttackPlan,
    reacted: bool,
    dodge: Option<i32>,
) -> Option<crate::odds::AttackSpec> {
    use crate::odds::{AttackSpec, DamageSpec, Die, Size as OSize, Target};
    let mut p = plan.profile;
    let surprise = s.ch(by).concealed;
    if surprise && s.ch(by).stats.has(Skill::SneakAttack) && p.die > 0 && !p.power {
        p.die = 12;
    }
    if p.holy && !matches!(s.ch(t).stats.kind, Kind::Demon | Kind::Undead) {
        return None;
    }
    let a = Attack {
        by,
        with,
        mode,
        target: t,
        blast: plan.blast,
        queue: Vec::new(),
        sweep: false,
        focused: plan.focused,
        opportunity: false,
        counter: false,
        stunt: None,
        reaction: None,
        countered: false,
        hid: false,
        stage: AttackStage::Land,
        surprise,
        save: plan.save,
        ranged: plan.ranged,
        rolled: None,
        face: None,
    };
    let level = damage_level(s, &a, by, t, &p, mode);
    let ranged = p.range > 0 && !s.nearby(by, t);
    let (armour, _) = armour_against(s, &a, t, &p, ranged, reacted);
    let size = match s.ch(by).stats.size {
        crate::data::Size::Tiny => OSize::Tiny,
        crate::data::Size::Small => OSize::Small,
        crate::data::Size::Medium => OSize::Medium,
        crate::data::Size::Large => OSize::Large,
        crate::data::Size::Massive => OSize::Massive,
    };
    let die = Die::from_sides(u32::from(p.die))?;
    let target = s.ch(t);
    Some(AttackSpec {
        damage: DamageSpec {
            die,
            impaired: u8::try_from(-level.min(0)).unwrap_or(0),
            enhanced: u8::try_from(level.max(0)).unwrap_or(0),
            size,
            half: false,
            double: plan.focused,
            armour: armour.max(0) as u32,
            direct: p.direct,
        },
        hit: plan.save.then(|| i32::from(s.ch(by).ability(Ability::Wit))),
        dodge,
        target: (target.health > 0).then(|| Target {
            health: target.health as u32,
            max_health: target.stats.max_health().max(1) as u32,
            helmet: target.stats.helmet,
        }),
    })
}
