//! `odds::attack` against the ordered-map computation it replaced, to the last bit: the AI
//! compares expected damages, so any difference in rounding could change its choices (and a
//! listed damage amount of weight 0 is part of the `fray odds` table, so the lists must match
//! too).

use fray_ingenuity::calc::reroll_gain;
use fray_ingenuity::odds::{AttackOdds, Memo, Query, attack, parse_query};
use fray_ingenuity::options::SizeShift;
use std::collections::BTreeMap;

/// Test totals with their weights over `denominator`.
struct TestDist {
    totals: BTreeMap<i16, u64>,
    denominator: u64,
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
    let mut totals = BTreeMap::new();
    fn go(faces: [u16; 2], sides: [u8; 2], left: u32, adv: bool, weight: u64, l: u64, out: &mut BTreeMap<i16, u64>) {
        if left == 0 {
            *out.entry(faces[0] as i16 + faces[1] as i16).or_insert(0) += weight;
            return;
        }
        let which = if adv {
            let g0 = reroll_gain(sides[0], faces[0]);
            let g1 = reroll_gain(sides[1], faces[1]);
            usize::from(g1 > g0 + 1e-12)
        } else {
            usize::from(faces[1] > faces[0])
        };
        let n = u64::from(sides[which]);
        for new in 1..=sides[which] as u16 {
            let mut f = faces;
            f[which] = if adv { f[which].max(new) } else { f[which].min(new) };
            go(f, sides, left - 1, adv, weight * (l / n), l, out);
        }
    }
    for x in 1..=a as u16 {
        for y in 1..=s as u16 {
            go([x, y], [a, s], k, advantage > 0, 1, l, &mut totals);
        }
    }
    TestDist {
        totals,
        denominator: u64::from(a) * u64::from(s) * l.pow(k),
    }
}

/// The odds as `odds::attack` computed them before it used arrays, with ordered maps.
fn reference(q: &Query) -> AttackOdds {
    let atk = two_dice(q.attr, q.skill, q.advantage);
    // Luck: crit and misfire counts out of 20.
    // Everything is added in i32: no sum of i16 inputs can wrap.
    let luck = i32::from(q.luck_modifier);
    let threshold = i32::from(q.threshold);
    let crit_faces = (1..=20i32).filter(|f| f + luck >= threshold).count() as u64;
    let misfire_faces = (1..=20i32).filter(|f| f + luck <= 1 && f + luck < threshold).count() as u64;
    // The dodge: its totals (with +4 on a luck die of 20 or more) over its own denominator.
    let dodge: Vec<(i32, u64)> = match q.dodge {
        None => vec![(i32::MIN, 1)],
        Some((a, s, bonus)) => {
            let d = two_dice(a, s, 0);
            let lucky = (1..=20i32).filter(|f| f + luck >= 20).count() as u64;
            let mut m: BTreeMap<i32, u64> = BTreeMap::new();
            for (t, w) in &d.totals {
                let t = i32::from(*t) + i32::from(bonus);
                *m.entry(t).or_insert(0) += w * (20 - lucky);
                *m.entry(t + 4).or_insert(0) += w * lucky;
            }
            m.into_iter().collect()
        }
    };
    let dodge_den: u64 = dodge.iter().map(|(_, w)| w).sum();
    let total_den = atk.denominator as f64 * 20.0 * dodge_den as f64;
    let mut hit_w = 0u128;
    let mut crit_w = 0u128;
    let mut dmg: BTreeMap<i32, u128> = BTreeMap::new();
    let (prof, modifier, evasion, size) = (
        i32::from(q.prof),
        i32::from(q.modifier),
        i32::from(q.evasion),
        i32::from(q.size_diff),
    );
    let min = i32::from(q.min_damage);
    let reduction = q.deflection.map_or(0, |d| i32::from(d) - size);
    for (&dice, &w) in &atk.totals {
        let dice = i32::from(dice);
        let total = dice + prof + modifier;
        let base = if q.modified_total { total } else { dice + prof };
        for &(dt, dw) in &dodge {
            let ev = match (q.dodge.is_some(), q.size_shift) {
                (true, SizeShift::Last) => dt.max(evasion) + size,
                (true, SizeShift::First) => dt.max(evasion + size),
                (false, _) => evasion + size,
            };
            let ww = u128::from(w) * u128::from(dw);
            // Critical: always hits, critical damage.
            let cw = ww * u128::from(crit_faces);
            crit_w += cw;
            hit_w += cw;
            *dmg.entry((base + i32::from(q.critical_damage) - reduction).max(min))
                .or_insert(0) += cw;
            if total >= ev {
                let nw = ww * u128::from(20 - crit_faces);
                hit_w += nw;
                *dmg.entry((base + i32::from(q.damage) - reduction).max(min))
                    .or_insert(0) += nw;
            }
        }
    }
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

fn same(q: &Query) {
    let (a, b) = (attack(q), reference(q));
    assert_eq!(a, b, "{q:?}");
    let bits = |o: &AttackOdds| {
        let mut v = vec![
            o.hit.to_bits(),
            o.critical.to_bits(),
            o.miss.to_bits(),
            o.mean_damage.to_bits(),
        ];
        v.extend(o.damage.iter().map(|(k, p)| (*k as u64) << 48 ^ p.to_bits()));
        v
    };
    assert_eq!(bits(&a), bits(&b), "{q:?}");
}

#[test]
fn attack_odds_are_bit_for_bit_the_ordered_map_computation() {
    for attr in [4u8, 6, 12] {
        for skill in [4u8, 8] {
            for advantage in -2i8..=2 {
                for dodge in [None, Some((6u8, 4u8, 1i16)), Some((4, 12, 5))] {
                    for (luck, threshold) in [(-25i16, 20i16), (0, 19), (0, 21), (25, 20), (0, 1)] {
                        for (damage, critical_damage) in [(4i16, 8i16), (-3, 20)] {
                            for deflection in [None, Some(0i16), Some(30)] {
                                for (evasion, size_diff) in [(6i16, 0i16), (14, 1), (2, -2)] {
                                    for size_shift in [SizeShift::Last, SizeShift::First] {
                                        let q = Query {
                                            attr,
                                            skill,
                                            prof: 2,
                                            modifier: -2,
                                            advantage,
                                            evasion,
                                            size_diff,
                                            size_shift,
                                            dodge,
                                            threshold,
                                            luck_modifier: luck,
                                            damage,
                                            critical_damage,
                                            deflection,
                                            min_damage: 1,
                                            modified_total: attr != 6,
                                        };
                                        same(&q);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    for advantage in [-3i8, 3] {
        let mut q = parse_query(&[]).expect("the default query");
        q.attr = 6;
        q.skill = 4;
        q.advantage = advantage;
        q.dodge = Some((4, 6, 0));
        same(&q);
    }
}

#[test]
fn the_memo_answers_what_attack_computes() {
    let mut memo = Memo::default();
    let mut q = parse_query(&[]).expect("the default query");
    q.damage = 3;
    for evasion in [4, 9, 4] {
        q.evasion = evasion;
        let want = attack(&q).mean_damage.to_bits();
        assert_eq!(memo.mean_damage(&q).to_bits(), want);
        assert_eq!(memo.mean_damage(&q).to_bits(), want);
    }
}
