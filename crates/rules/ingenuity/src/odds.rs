//! Exact odds of an attack: hit, critical, and the damage after deflection.
//!
//! The attack test (attribute die + Combat die, rerolls for advantage or disadvantage chosen the
//! way the resolver chooses them), a dodge test if the target dodges, and the luck die are
//! enumerated face by face with integer weights over one common denominator, so the
//! probabilities are exact fractions (printed as decimals).

use crate::calc;
use crate::data::{Attr, DamageClass};
use crate::options::{DamageTotal, SizeShift};
use crate::setup::Cid;
use crate::state::State;
use serde::Serialize;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// An attack to compute.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Query {
    /// The attribute die.
    pub attr: u8,
    /// The Combat skill die.
    pub skill: u8,
    /// Proficiency.
    pub prof: i16,
    /// Other modifiers (multiple attack penalty, weapon properties).
    pub modifier: i16,
    /// Net advantage.
    pub advantage: i8,
    /// The target's evasion (with Guard).
    pub evasion: i16,
    /// Attacker size minus target size (ING-R46).
    pub size_diff: i16,
    /// The size shift's order with a dodge (ING-H27).
    pub size_shift: SizeShift,
    /// A dodge test: (attribute die, Agility die, bonus).
    pub dodge: Option<(u8, u8, i16)>,
    /// The weapon's critical threshold.
    pub threshold: i16,
    /// Added to the luck die.
    pub luck_modifier: i16,
    /// Weapon damage.
    pub damage: i16,
    /// Critical damage.
    pub critical_damage: i16,
    /// The target's deflection for this damage (before the size shift); `None` for typeless.
    pub deflection: Option<i16>,
    /// Least damage of a hit.
    pub min_damage: i16,
    /// Damage starts from the modified total (ING-H11).
    pub modified_total: bool,
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttackOdds {
    /// Probability of a hit (criticals included).
    pub hit: f64,
    /// Probability of a critical hit.
    pub critical: f64,
    /// Probability of a miss.
    pub miss: f64,
    /// Probability of a misfire roll (luck 1 or less; it matters only with others next to the
    /// target and a thrown or projectile weapon).
    pub misfire: f64,
    /// Expected damage per attack (misses count 0).
    pub mean_damage: f64,
    /// P(damage = x) for every x > 0.
    pub damage: Vec<(i16, f64)>,
}

/// Test totals with their weights over `denominator`: `totals[t]` is the weight of total `t`,
/// and a total no roll makes weighs 0 (every roll weighs at least 1).
struct TestDist {
    totals: Vec<u64>,
    denominator: u64,
}

impl TestDist {
    /// The totals some roll makes, in increasing order, with their weights.
    fn made(&self) -> impl Iterator<Item = (i32, u64)> + '_ {
        self.totals
            .iter()
            .enumerate()
            .filter(|(_, w)| **w > 0)
            .map(|(t, w)| (t as i32, *w))
    }
}

fn lcm(a: u64, b: u64) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    a / gcd(a, b) * b
}

/// The sum of two dice after `advantage` rerolls, as the resolver makes them.
fn two_dice(a: u8, s: u8, advantage: i8) -> TestDist {
    let l = lcm(u64::from(a), u64::from(s));
    let k = advantage.unsigned_abs() as u32;
    let mut totals = vec![0; usize::from(a) + usize::from(s) + 1];
    /// The dice, their rerolls' expected gains by face (`calc::reroll_gain`, worked out once),
    /// and where the totals go.
    struct Roll<'a> {
        sides: [u8; 2],
        gains: [&'a [f64]; 2],
        adv: bool,
        l: u64,
        out: &'a mut [u64],
    }
    fn go(r: &mut Roll<'_>, faces: [u16; 2], left: u32, weight: u64) {
        if left == 0 {
            r.out[usize::from(faces[0] + faces[1])] += weight;
            return;
        }
        let which = if r.adv {
            let g0 = r.gains[0][usize::from(faces[0])];
            let g1 = r.gains[1][usize::from(faces[1])];
            usize::from(g1 > g0 + 1e-12)
        } else {
            usize::from(faces[1] > faces[0])
        };
        let n = u64::from(r.sides[which]);
        for new in 1..=r.sides[which] as u16 {
            let mut f = faces;
            f[which] = if r.adv { f[which].max(new) } else { f[which].min(new) };
            go(r, f, left - 1, weight * (r.l / n));
        }
    }
    let gains = |sides: u8| -> Vec<f64> {
        if advantage > 0 {
            (0..=u16::from(sides)).map(|f| calc::reroll_gain(sides, f)).collect()
        } else {
            Vec::new()
        }
    };
    let (ga, gs) = (gains(a), gains(s));
    let mut r = Roll {
        sides: [a, s],
        gains: [&ga, &gs],
        adv: advantage > 0,
        l,
        out: &mut totals,
    };
    for x in 1..=a as u16 {
        for y in 1..=s as u16 {
            go(&mut r, [x, y], k, 1);
        }
    }
    TestDist {
        totals,
        denominator: u64::from(a) * u64::from(s) * l.pow(k),
    }
}

/// Computes the odds of an attack exactly.
pub fn attack(q: &Query) -> AttackOdds {
    let atk = two_dice(q.attr, q.skill, q.advantage);
    // Luck: crit and misfire counts out of 20.
    // Everything is added in i32: no sum of i16 inputs can wrap.
    let luck = i32::from(q.luck_modifier);
    let threshold = i32::from(q.threshold);
    let crit_faces = (1..=20i32).filter(|f| f + luck >= threshold).count() as u64;
    let misfire_faces = (1..=20i32).filter(|f| f + luck <= 1 && f + luck < threshold).count() as u64;
    // The dodge: its totals (with +4 on a luck die of 20 or more) over its own denominator, in
    // increasing order; a total is listed if a roll makes it with either luck, even when its
    // weight is 0 (every luck face lucky, or none).
    let dodge: Vec<(i32, u64)> = match q.dodge {
        None => vec![(i32::MIN, 1)],
        Some((a, s, bonus)) => {
            let d = two_dice(a, s, 0);
            let lucky = (1..=20i32).filter(|f| f + luck >= 20).count() as u64;
            let mut m: Vec<Option<u64>> = vec![None; d.totals.len() + 4];
            for (t, w) in d.made() {
                let t = t as usize;
                *m[t].get_or_insert(0) += w * (20 - lucky);
                *m[t + 4].get_or_insert(0) += w * lucky;
            }
            m.into_iter()
                .enumerate()
                .filter_map(|(t, w)| w.map(|w| (t as i32 + i32::from(bonus), w)))
                .collect()
        }
    };
    let dodge_den: u64 = dodge.iter().map(|(_, w)| w).sum();
    let total_den = atk.denominator as f64 * 20.0 * dodge_den as f64;
    let mut hit_w = 0u128;
    let mut crit_w = 0u128;
    // Damage amounts with their weights (two at most per attack total), sorted below.
    let mut dmg: Vec<(i32, u128)> = Vec::with_capacity(2 * atk.totals.len());
    let (prof, modifier, evasion, size) = (
        i32::from(q.prof),
        i32::from(q.modifier),
        i32::from(q.evasion),
        i32::from(q.size_diff),
    );
    let min = i32::from(q.min_damage);
    let reduction = q.deflection.map_or(0, |d| i32::from(d) - size);
    // The evasion each dodge total sets, in increasing order as the totals are: an attack
    // total gets through the first few, so one pass over both lists finds how much of the
    // dodge's weight each attack total beats.
    let evs: Vec<(i32, u64)> = dodge
        .iter()
        .map(|&(dt, dw)| {
            let ev = match (q.dodge.is_some(), q.size_shift) {
                (true, SizeShift::Last) => dt.max(evasion) + size,
                (true, SizeShift::First) => dt.max(evasion + size),
                (false, _) => evasion + size,
            };
            (ev, dw)
        })
        .collect();
    debug_assert!(evs.windows(2).all(|p| p[0].0 <= p[1].0));
    let (mut beaten, mut beaten_w) = (0, 0u64);
    for (dice, w) in atk.made() {
        let total = dice + prof + modifier;
        let base = if q.modified_total { total } else { dice + prof };
        while beaten < evs.len() && total >= evs[beaten].0 {
            beaten_w += evs[beaten].1;
            beaten += 1;
        }
        // A critical always hits, with critical damage, whatever the dodge; an ordinary hit
        // needs the total to reach the evasion. Integer weights: summing per dodge total or
        // multiplying the summed dodge weight gives the same counts.
        let crits = u128::from(w) * u128::from(dodge_den) * u128::from(crit_faces);
        let normal = u128::from(w) * u128::from(beaten_w) * u128::from(20 - crit_faces);
        crit_w += crits;
        hit_w += crits + normal;
        dmg.push(((base + i32::from(q.critical_damage) - reduction).max(min), crits));
        // Listed when some dodge total lets an ordinary hit through, even at weight 0 (an
        // outcome with no chance is still listed, as the odds table always showed it).
        if beaten > 0 {
            dmg.push(((base + i32::from(q.damage) - reduction).max(min), normal));
        }
    }
    // One entry per amount, in increasing order, its weights added up.
    dmg.sort_unstable_by_key(|(k, _)| *k);
    dmg.dedup_by(|next, kept| {
        let same = next.0 == kept.0;
        if same {
            kept.1 += next.1;
        }
        same
    });
    let p = |w: u128| w as f64 / total_den;
    // Inputs are within ±NUMBER_LIMIT (`parse_query`, the setup's validation), so every amount
    // fits an i16; saturate rather than wrap all the same.
    let damage: Vec<(i16, f64)> = dmg
        .into_iter()
        .map(|(k, v)| (k.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16, p(v)))
        .collect();
    AttackOdds {
        hit: p(hit_w),
        critical: p(crit_w),
        miss: 1.0 - p(hit_w),
        misfire: misfire_faces as f64 / 20.0,
        mean_damage: damage.iter().map(|(k, v)| f64::from(*k) * v).sum(),
        damage,
    }
}

/// Expected damages remembered by their exact inputs: [`attack`] is a function of the
/// [`Query`] alone, so an answer looked up here is the one it would compute. The AI keeps one
/// per combat (emptied when a combat starts), so memory stays bounded and nothing is shared
/// between threads.
#[derive(Debug, Default)]
pub struct Memo {
    mean_damage: HashMap<Query, f64, BuildHasherDefault<KeyHasher>>,
}

/// A quick hash for [`Memo`]'s keys (the multiply-rotate step of rustc's FxHash): the keys
/// are a few small numbers, and a collision only costs a comparison. Nothing iterates the
/// map, so its order never shows.
#[derive(Default)]
struct KeyHasher(u64);

impl KeyHasher {
    fn add(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl Memo {
    /// [`AttackOdds::mean_damage`] of `q`, computed once per distinct query.
    pub fn mean_damage(&mut self, q: &Query) -> f64 {
        if let Some(&m) = self.mean_damage.get(q) {
            return m;
        }
        let m = attack(q).mean_damage;
        self.mean_damage.insert(q.clone(), m);
        m
    }

    /// Forgets every remembered answer.
    pub fn clear(&mut self) {
        self.mean_damage.clear();
    }
}

/// The query for an attack in a game position (no dodge; the defender has not chosen yet).
pub fn query_for(s: &State, who: Cid, target: Cid, slot: u8, attr: Attr, prof: Option<&str>) -> Option<Query> {
    let item = s.item(who, slot)?;
    let st = &s.info(who).stats;
    let (advantage, _) = calc::advantage(s, who, target, item);
    let class = item.damage_type.class();
    Some(Query {
        attr: st.attr(attr),
        skill: st.skill("combat"),
        prof: calc::prof_bonus(s, who, prof),
        modifier: calc::attack_penalty(s, who) + calc::property_bonus(s, who, slot, target),
        advantage,
        evasion: calc::evasion(s, target),
        size_diff: calc::size_difference(s, who, target),
        size_shift: s.options.size_shift,
        dodge: None,
        threshold: item.critical_threshold,
        luck_modifier: s.options.luck_modifier + st.luck_modifier,
        damage: item.damage,
        critical_damage: item.critical_damage,
        deflection: (class != DamageClass::Typeless).then(|| calc::deflection(s, target, class)),
        min_damage: s.options.min_damage,
        modified_total: s.options.damage_total == DamageTotal::Modified,
    })
}

fn die_arg(v: &str) -> Result<u8, String> {
    let n: u8 = v
        .trim_start_matches('d')
        .parse()
        .map_err(|_| format!("'{v}': expected a die such as d6"))?;
    if matches!(n, 4 | 6 | 8 | 10 | 12) {
        Ok(n)
    } else {
        Err(format!("'{v}': dice are d4, d6, d8, d10 or d12"))
    }
}

/// Reads `fray odds ingenuity ...` arguments. `--advantage N` and `--disadvantage N` (0 to 3
/// each) net out as in play; every other number must lie within ±999 (`NUMBER_LIMIT`) and
/// `--attacks-before` within 0 to 99, or the query is refused with a sentence saying so.
pub fn parse_query(args: &[String]) -> Result<Query, String> {
    let mut q = Query {
        attr: 6,
        skill: 6,
        prof: 0,
        modifier: 0,
        advantage: 0,
        evasion: 6,
        size_diff: 0,
        size_shift: SizeShift::Last,
        dodge: None,
        threshold: 20,
        luck_modifier: 0,
        damage: 0,
        critical_damage: 0,
        deflection: Some(0),
        min_damage: 1,
        modified_total: true,
    };
    let mut crit_set = false;
    let mut i = 0;
    let limit = crate::setup::NUMBER_LIMIT;
    // Every number is refused outside ±NUMBER_LIMIT, so no sum of them can wrap.
    let num = |k: &str, v: &str| -> Result<i16, String> {
        let n: i64 = v.parse().map_err(|_| format!("{k}: '{v}' is not a whole number"))?;
        if (-i64::from(limit)..=i64::from(limit)).contains(&n) {
            Ok(n as i16)
        } else {
            Err(format!("{k} {v} is outside the supported range -{limit} to {limit}"))
        }
    };
    let count = |k: &str, v: &str| -> Result<i16, String> {
        match v.parse::<i16>() {
            Ok(n) if (0..=3).contains(&n) => Ok(n),
            _ => Err(format!("{k} {v}: give 0 to 3")),
        }
    };
    // Advantage and disadvantage net out as in play (ING-R43 to ING-R47): one cancels one.
    let mut advantage = 0i16;
    let mut disadvantage = 0i16;
    let mut attacks_before = 0i16;
    while i < args.len() {
        let k = args[i].as_str();
        let flag = matches!(k, "--typeless" | "--unmodified" | "--size-first");
        let v = if flag {
            ""
        } else {
            args.get(i + 1)
                .map(String::as_str)
                .ok_or_else(|| format!("{k} needs a value"))?
        };
        match k {
            "--attr" => q.attr = die_arg(v)?,
            "--skill" => q.skill = die_arg(v)?,
            "--prof" => q.prof = num(k, v)?,
            "--modifier" => q.modifier = num(k, v)?,
            "--attacks-before" => match v.parse::<i16>() {
                Ok(n) if (0..=99).contains(&n) => attacks_before = n,
                _ => return Err(format!("--attacks-before {v}: give 0 to 99")),
            },
            "--advantage" => advantage = count(k, v)?,
            "--disadvantage" => disadvantage = count(k, v)?,
            "--evasion" => q.evasion = num(k, v)?,
            "--size-diff" => q.size_diff = num(k, v)?,
            "--dodge" => {
                // dA+dS+N
                let parts: Vec<&str> = v.split('+').collect();
                let (a, s) = match parts.as_slice() {
                    [a, s, ..] => (die_arg(a)?, die_arg(s)?),
                    _ => return Err("--dodge needs dA+dS[+N], e.g. d6+d4+1".into()),
                };
                let b = parts.get(2).map_or(Ok(0), |x| num("--dodge bonus", x))?;
                q.dodge = Some((a, s, b));
            }
            "--threshold" => q.threshold = num(k, v)?,
            "--luck-modifier" => q.luck_modifier = num(k, v)?,
            "--damage" => q.damage = num(k, v)?,
            "--crit-damage" => {
                q.critical_damage = num(k, v)?;
                crit_set = true;
            }
            "--deflection" => q.deflection = Some(num(k, v)?),
            "--min-damage" => q.min_damage = num(k, v)?,
            "--typeless" => q.deflection = None,
            "--unmodified" => q.modified_total = false,
            "--size-first" => q.size_shift = SizeShift::First,
            other => {
                return Err(format!(
                    "unknown option '{other}'. Options: --attr dN --skill dN --prof N --attacks-before N --modifier N --advantage N --disadvantage N --evasion N --size-diff N --dodge dA+dS+N --threshold N --luck-modifier N --damage N --crit-damage N --deflection N --typeless --min-damage N --unmodified --size-first"
                ));
            }
        }
        i += if flag { 1 } else { 2 };
    }
    if !crit_set {
        q.critical_damage = q.damage;
    }
    // ING-R40: two per earlier attack, on top of any --modifier.
    let modifier = i32::from(q.modifier) - 2 * i32::from(attacks_before);
    if modifier < -i32::from(limit) {
        return Err(format!(
            "--modifier with --attacks-before comes to {modifier}, outside the supported range -{limit} to {limit}"
        ));
    }
    q.modifier = modifier as i16;
    q.advantage = (advantage - disadvantage) as i8;
    Ok(q)
}

/// The odds as a readable table.
pub fn text(q: &Query, o: &AttackOdds) -> String {
    let mut t = format!(
        "Attack d{} + d{} {:+} (modifier {:+}, advantage {:+}) vs evasion {}{}; luck {}+ is critical\n",
        q.attr,
        q.skill,
        q.prof,
        q.modifier,
        q.advantage,
        q.evasion,
        q.dodge
            .map_or(String::new(), |(a, s, b)| format!(" (dodge d{a}+d{s}{b:+})")),
        q.threshold - q.luck_modifier
    );
    t += &format!(
        "hit       {:>8.4}%\ncritical  {:>8.4}%\nmiss      {:>8.4}%\nmisfire   {:>8.4}% (thrown or projectile weapons, others next to the target)\nmean damage {:.4}\n\ndamage   P(=x)      P(>=x)\n",
        100.0 * o.hit,
        100.0 * o.critical,
        100.0 * o.miss,
        100.0 * o.misfire,
        o.mean_damage
    );
    let mut tail: f64 = o.hit;
    for (k, v) in &o.damage {
        t += &format!("{k:>6} {:>8.4}% {:>9.4}%\n", 100.0 * v, 100.0 * tail);
        tail -= v;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q() -> Query {
        parse_query(&[]).unwrap()
    }

    #[test]
    fn two_d6_without_rerolls_is_the_usual_triangle() {
        let d = two_dice(6, 6, 0);
        assert_eq!(d.denominator, 36);
        assert_eq!(d.totals[7], 6);
        assert_eq!(d.totals[2], 1);
    }

    #[test]
    fn advantage_only_helps_and_disadvantage_only_hurts() {
        let mean = |adv| {
            let d = two_dice(6, 8, adv);
            d.made().map(|(t, w)| f64::from(t) * w as f64).sum::<f64>() / d.denominator as f64
        };
        assert!(mean(1) > mean(0) && mean(2) > mean(1));
        assert!(mean(-1) < mean(0) && mean(-2) < mean(-1));
    }

    #[test]
    fn probabilities_add_up() {
        let mut query = q();
        query.dodge = Some((6, 4, 1));
        query.advantage = 1;
        query.damage = 4;
        query.critical_damage = 8;
        query.threshold = 19;
        let o = attack(&query);
        let s: f64 = o.damage.iter().map(|(_, v)| v).sum();
        assert!((s - o.hit).abs() < 1e-12);
        assert!((o.hit + o.miss - 1.0).abs() < 1e-12);
    }
}
