//! Exact attack odds against large seeded Monte Carlo runs: sampled with the same dice code the
//! engine rolls with, each outcome's frequency must lie within 5 standard errors of the exact
//! probability.

use fray_dice::{Keep, SeededDice, roll};
use fray_thrum::odds::{AttackQuery, Side, attack};
use fray_thrum::resolve::verdict_of;

fn kept(dice: &mut SeededDice, net: i16) -> i16 {
    let keep = match net {
        n if n > 0 => Keep::Highest(2),
        n if n < 0 => Keep::Lowest(2),
        _ => Keep::All,
    };
    roll(dice, 2 + net.unsigned_abs() as usize, 6, keep, &"mc")
        .map(|r| r.total as i16)
        .unwrap_or(0)
}

fn check(q: AttackQuery, n: u64, seed: u64) {
    let exact = attack(q);
    let mut dice = SeededDice::new(seed);
    let mut counts = [0u64; 4];
    let mut trials = 0u64;
    while trials < n {
        let a = kept(&mut dice, q.attack.net) + q.attack.modifier;
        let d = kept(&mut dice, q.defence.net) + q.defence.modifier;
        if a == d && q.reroll_ties {
            continue;
        }
        trials += 1;
        let k = match verdict_of(a, d, q.margin, q.defence_margin) {
            fray_thrum::event::Verdict::DefenderCritical => 0,
            fray_thrum::event::Verdict::DefenderSuccess => 1,
            fray_thrum::event::Verdict::AttackerSuccess => 2,
            fray_thrum::event::Verdict::AttackerCritical => 3,
        };
        counts[k] += 1;
    }
    let ps = [
        exact.defender_critical,
        exact.defender_success,
        exact.attacker_success,
        exact.attacker_critical,
    ];
    for (k, p) in ps.iter().enumerate() {
        let p = p.value();
        let freq = counts[k] as f64 / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt().max(1e-9);
        assert!(
            (freq - p).abs() < 5.0 * se,
            "{q:?} outcome {k}: exact {p}, sampled {freq} ({} standard errors)",
            (freq - p).abs() / se
        );
    }
}

fn q(am: i16, an: i16, dm: i16, dn: i16, reroll: bool) -> AttackQuery {
    AttackQuery {
        attack: Side { modifier: am, net: an },
        defence: Side { modifier: dm, net: dn },
        margin: 5,
        defence_margin: 5,
        reroll_ties: reroll,
        hit: 2,
        critical: 1,
        critical_replaces: false,
        vulnerable: 0,
    }
}

#[test]
fn exact_attack_odds_match_400000_sampled_contests() {
    check(q(3, 0, 1, 1, false), 400_000, 1);
    check(q(2, 2, 0, -1, false), 400_000, 2);
    check(q(0, -2, 3, 3, true), 400_000, 3);
    check(q(5, 1, 0, 0, true), 400_000, 4);
}

#[test]
fn expected_damage_matches_a_sampled_mean() {
    let query = AttackQuery {
        vulnerable: 1,
        critical: 3,
        critical_replaces: true,
        ..q(3, 1, 1, 0, false)
    };
    let exact = attack(query).expected_damage;
    let mut dice = SeededDice::new(9);
    let n = 400_000u64;
    let mut total = 0i64;
    let mut sq = 0i64;
    for _ in 0..n {
        let a = kept(&mut dice, 1) + 3;
        let d = kept(&mut dice, 0) + 1;
        let dmg = match verdict_of(a, d, 5, 5) {
            fray_thrum::event::Verdict::AttackerCritical => 3 + 1,
            fray_thrum::event::Verdict::AttackerSuccess => 2 + 1,
            _ => 0,
        };
        total += dmg;
        sq += dmg * dmg;
    }
    let mean = total as f64 / n as f64;
    let var = sq as f64 / n as f64 - mean * mean;
    let se = (var / n as f64).sqrt();
    assert!((mean - exact).abs() < 5.0 * se, "exact {exact}, sampled {mean}");
}
