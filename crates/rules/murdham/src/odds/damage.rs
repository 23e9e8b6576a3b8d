//! Damage rolls: the exploding die followed to a depth, impaired and enhanced kept rolls, what a
//! roll deals after size and armour, and its consequences for a target (critical damage, dying,
//! death).
//!
//! Part of [`crate::odds`], which holds the map of the mechanics and the exactness argument;
//! every file of it sees the others through `use super::*`, as one module would.

use super::*;

/// The smallest number of explosions of a `die` after which fewer than 1 roll in 10^9 goes on.
pub(super) fn base_depth(die: Die) -> usize {
    let n = u128::from(die.sides());
    let mut d = 1;
    while n.pow(d) < TAIL_ODDS {
        d += 1;
    }
    d as usize
}

/// The explosions to follow for `spec` so that every dealt value up to `need` and the damage of
/// [`BREAKS_ARMOUR`] before armour lie inside the exact part, and fewer than 1 roll in 10^9 of a
/// die goes beyond that (a division's rounding block included).
pub(super) fn depth_for(spec: &DamageSpec, need: usize) -> usize {
    let step = (spec.die.sides() - 1) as usize;
    let least = spec
        .least_raw_scaled(need.max(1) + spec.armour_used())
        .max(spec.least_raw_scaled(BREAKS_ARMOUR));
    base_depth(spec.die) + (least + spec.divisor()).div_ceil(step)
}

/// One exploding roll of `die` followed through `depth` explosions: the `N^depth` equally
/// likely padded sequences; the value `(N-1)k + r` takes `N^(depth-k-1)` of them, the one
/// sequence of `depth` highest faces is the tail (more than `(N-1) * depth`).
pub(super) fn exploding(die: Die, depth: usize) -> TailDist {
    let n = die.sides();
    let step = (n - 1) as usize;
    let mut powers = vec![count(1)];
    for i in 0..depth {
        let next = powers[i].mul_small(n);
        powers.push(next);
    }
    let cap = step * depth;
    let counts = (0..=cap)
        .map(|v| {
            if v == 0 {
                Count::zero()
            } else {
                powers[depth - (v - 1) / step - 1].clone()
            }
        })
        .collect();
    TailDist {
        counts,
        tail: count(1),
        total: powers[depth].clone(),
    }
}

/// The kept roll of `die` with `quality`, each roll followed through `depth` explosions (no roll
/// at all for [`Quality::NoDamage`]).
///
/// With one roll's counts `x`, `ge(v)` the outcomes of `v` or more (tail included) and `le(v)`
/// those of `v` or less: the lower of two is `v` in `x(v) * (ge(v) + ge(v + 1))` of the joint
/// outcomes, the higher in `x(v) * (le(v) + le(v - 1))`.
pub(super) fn kept_roll(die: Die, quality: Quality, depth: usize) -> TailDist {
    let one = exploding(die, depth);
    let x = &one.counts;
    let len = x.len();
    match quality {
        Quality::NoDamage => TailDist::constant(0),
        Quality::Plain => one,
        Quality::Impaired => {
            // ge[v] for v in 0..=len (ge[len] is the tail).
            let mut ge = vec![one.tail.clone(); len + 1];
            for v in (0..len).rev() {
                ge[v] = add(&ge[v + 1], &x[v]);
            }
            let counts = (0..len).map(|v| &x[v] * &add(&ge[v], &ge[v + 1])).collect();
            TailDist {
                counts,
                tail: &one.tail * &one.tail,
                total: &one.total * &one.total,
            }
        }
        Quality::Enhanced => {
            // le[v + 1] for v in 0..len (le[0] is nothing).
            let mut le = vec![Count::zero(); len + 1];
            for v in 0..len {
                le[v + 1] = add(&le[v], &x[v]);
            }
            let counts = (0..len).map(|v| &x[v] * &add(&le[v + 1], &le[v])).collect();
            let total = &one.total * &one.total;
            let body = &le[len] * &le[len];
            TailDist {
                counts,
                tail: total.checked_sub(&body).unwrap_or_default(),
                total,
            }
        }
    }
}

/// What a hit does to a target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Consequences {
    /// The one hit.
    pub target: Target,
    /// The least damage that is critical (helmet counted unless the damage is direct).
    pub critical_from: u32,
    /// No damage at all.
    pub no_damage: Chance,
    /// Critical damage: incapacitated (or disabled), dying included.
    pub critical: Chance,
    /// Dying: all the health left is lost.
    pub dying: Chance,
    /// Killed outright: a single hit of at least the maximum health.
    pub killed: Chance,
}

/// The consequences of damage `dealt` (direct or not) to `target`.
pub(super) fn consequences(dealt: &TailDist, target: Target, direct: bool) -> Result<Consequences, String> {
    let critical_from = critical_threshold(target.health, target.helmet, direct);
    let ge = |v: u32| {
        dealt
            .chance_ge(v as usize)
            .ok_or_else(|| format!("damage of {v} lies beyond the part worked out exactly (a bug)"))
    };
    let none = dealt.count_eq(0).unwrap_or_default();
    Ok(Consequences {
        target,
        critical_from,
        no_damage: Chance::new(none, dealt.total.clone()),
        critical: ge(critical_from)?,
        dying: ge(target.health)?,
        killed: ge(target.max_health)?,
    })
}

/// A chance too small for a percentage, in scientific notation (`0` when it cannot happen).
pub(super) fn small(num: &Count, den: &Count) -> String {
    if num.is_zero() {
        "0".to_string()
    } else {
        format!("{:.1e}", num.ratio(den))
    }
}

/// [`Consequences`] as one line, after `lead`.
pub(super) fn consequences_line(lead: &str, c: &Consequences) -> String {
    let t = c.target;
    let helmet = if t.helmet { ", helmet" } else { "" };
    format!(
        "{lead} (health {}/{}{helmet}): no damage {}, critical ({}+) {}, dying ({}+) {}, killed outright ({}+) {}\n",
        t.health,
        t.max_health,
        c.no_damage.percent(),
        c.critical_from,
        c.critical.percent(),
        t.health,
        c.dying.percent(),
        t.max_health,
        c.killed.percent()
    )
}

/// The odds of one damage roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DamageOdds {
    /// What was rolled.
    pub spec: DamageSpec,
    /// The impairment or enhancement left.
    pub quality: Quality,
    /// Explosions followed exactly on each roll.
    pub depth: usize,
    /// The kept roll, before size and armour.
    pub rolled: TailDist,
    /// The damage dealt, after size, sweep or blast, and armour.
    pub dealt: TailDist,
    /// What it does to the target, if its health is given.
    pub consequences: Option<Consequences>,
    /// A damaged weapon breaks: the kept roll shows a natural 1 (MUR-R49, MUR-H25).
    pub weapon_breaks: Chance,
    /// A damaged shield or armour breaks: 8 or more before armour (MUR-R50).
    pub armour_breaks: Chance,
}

/// The odds of the damage `spec` and, with a `target`, what it does to it.
///
/// Errors: armour above [`MAX_ARMOUR`], a target's health outside 1..=max or a maximum above
/// [`MAX_HEALTH`].
pub fn damage(spec: &DamageSpec, target: Option<Target>) -> Result<DamageOdds, String> {
    let need = target.map_or(1, |t| t.max_health as usize);
    damage_exact_to(spec, target, need)
}

/// [`damage`], with every dealt value up to `need` inside the exact part.
pub(super) fn damage_exact_to(spec: &DamageSpec, target: Option<Target>, need: usize) -> Result<DamageOdds, String> {
    spec.check()?;
    if let Some(t) = &target {
        t.check()?;
    }
    let quality = spec.quality();
    let depth = if quality == Quality::NoDamage {
        0
    } else {
        depth_for(spec, need)
    };
    let rolled = kept_roll(spec.die, quality, depth);
    let dealt = rolled
        .map_up(|x| spec.dealt(x))
        .ok_or_else(|| "no damage value could be worked out exactly (a bug)".to_string())?;
    let consequences = target.map(|t| consequences(&dealt, t, spec.direct)).transpose()?;
    let weapon_breaks = Chance::new(rolled.count_eq(1).unwrap_or_default(), rolled.total.clone());
    let armour_breaks = rolled
        .chance_ge(spec.least_raw_scaled(BREAKS_ARMOUR))
        .ok_or_else(|| "8 damage lies beyond the part worked out exactly (a bug)".to_string())?;
    Ok(DamageOdds {
        spec: *spec,
        quality,
        depth,
        rolled,
        dealt,
        consequences,
        weapon_breaks,
        armour_breaks,
    })
}

/// The roll of `spec` in words: die, impairment, size and armour.
pub(super) fn spec_text(spec: &DamageSpec) -> String {
    let n = spec.die.sides();
    let roll = match spec.quality() {
        Quality::NoDamage => return format!("{} impaired twice or more: no damage at all", spec.die),
        Quality::Plain => {
            let article = if n == 8 { "an" } else { "a" };
            format!(
                "{} exploding ({article} {n} counts {} and rolls again)",
                spec.die,
                n - 1
            )
        }
        Quality::Impaired => format!("{} impaired (the lower of two exploding rolls)", spec.die),
        Quality::Enhanced => format!("{} enhanced (the higher of two exploding rolls)", spec.die),
    };
    let mut parts = vec![roll];
    if spec.size != Size::Medium {
        parts.push(format!("a {} attacker", spec.size.name()));
    }
    if spec.half {
        parts.push("a sweep (half)".to_string());
    }
    if spec.double {
        parts.push("a blast at one target (double)".to_string());
    }
    let e = spec.exponent();
    if e != 0 || spec.size != Size::Medium || spec.half || spec.double {
        parts.push(match e {
            0 => "net x1".to_string(),
            e if e > 0 => format!("net x{}", 1 << e),
            e => format!("net /{} rounded up", 1 << -e),
        });
    }
    parts.push(match (spec.direct, spec.armour) {
        (true, 0) => "direct".to_string(),
        (true, a) => format!("direct (armour {a} ignored)"),
        (false, 0) => "no armour".to_string(),
        (false, a) => format!("armour {a}"),
    });
    parts.join(", ")
}

/// [`DamageOdds`] as text.
pub fn damage_text(o: &DamageOdds) -> String {
    let mut s = format!("damage: {}\n", spec_text(&o.spec));
    push_damage_body(&mut s, o, "damage dealt", "against the target");
    s
}

/// The lines shared by damage, attack and counter: mean, table, consequences, gear.
pub(super) fn push_damage_body(s: &mut String, o: &DamageOdds, what: &str, lead: &str) {
    let d = &o.dealt;
    let none = Chance::new(d.count_eq(0).unwrap_or_default(), d.total.clone());
    let _ = writeln!(s, "{what}: {} on average, none {}", d.mean_text(), none.percent());
    s.push_str(&d.table("damage"));
    if let Some(c) = &o.consequences {
        s.push_str(&consequences_line(lead, c));
    }
    if o.quality != Quality::NoDamage {
        let _ = writeln!(
            s,
            "gear: a damaged weapon breaks (kept die shows 1) {}; a damaged shield or armour breaks (8+ before armour) {}",
            o.weapon_breaks.percent(),
            o.armour_breaks.percent()
        );
        let _ = writeln!(
            s,
            "exact through {} explosions per roll; more than {} has chance {} (never dropped)",
            o.depth,
            d.cap(),
            small(&d.tail, &d.total)
        );
    }
}
